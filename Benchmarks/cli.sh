#!/usr/bin/env bash
# CLI benchmarks: cold start (`--version`) and one GET against a local nginx, tapedeck vs curl
# vs HTTPie (hyperfine), and 1000 sequential GETs in one process: tapedeck's transports
# (libcurl and URLSession) vs curl with keep-alive. Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
N="${CLI_BENCH_N:-1000}"
require_built "$BIN" "$BENCH"
command -v hyperfine >/dev/null || { echo "needs hyperfine (make bench installs it)" >&2; exit 1; }

work="$(mktemp -d -t tapedeck-cli-bench.XXXXXX)"
printf 'hello from nginx\n' >"$work/hello.txt"
start_nginx "$work"
port=$NGINX_PORT
url="http://127.0.0.1:$port/hello.txt"

# hyperfine: mean milliseconds of each command, in order.
means() {
  hyperfine -N --warmup 5 --runs "${CLI_BENCH_RUNS:-40}" --export-json "$work/h.json" "$@" >/dev/null 2>&1 || return 1
  python3 -c 'import json,sys; print(" ".join("%.2f" % (r["mean"]*1000) for r in json.load(open(sys.argv[1]))["results"]))' "$work/h.json"
}
have_http=0; [ -x "$HTTP" ] && have_http=1
if [ $have_http -eq 1 ]; then
  read -r v_td v_curl v_http < <(means "$BIN --version" "curl --version" "$HTTP --version")
  read -r g_td g_curl g_http < <(means "$BIN $url" "curl -s $url" "$HTTP --ignore-stdin $url")
else
  read -r v_td v_curl < <(means "$BIN --version" "curl --version"); v_http="n/a"
  read -r g_td g_curl < <(means "$BIN $url" "curl -s $url"); g_http="n/a"
fi

# 1000 sequential GETs in one process.
for _ in $(seq 1 "$N"); do printf 'url = "%s"\noutput = "/dev/null"\n' "$url"; done >"$work/urls.conf"
curl_us=$(python3 - "$work/urls.conf" "$N" <<'PY'
import subprocess, sys, time
best = None
for _ in range(3):
    t = time.perf_counter()
    subprocess.run(["curl", "-s", "-K", sys.argv[1]], check=True)
    elapsed = (time.perf_counter() - t) * 1e6 / int(sys.argv[2])
    best = elapsed if best is None else min(best, elapsed)
print("%.1f" % best)
PY
)
best_of() { local best=""; for _ in 1 2 3; do local v; v=$("$BENCH" "$1" "$url" "$N" | python3 -c 'import json,sys; print(json.load(sys.stdin)["us_per_request"])'); best=$(python3 -c "print(min(float('$v'), float('${best:-$v}')))"); done; echo "$best"; }
td_curl_us=$(best_of cli-get-curl)
td_session_us=$(best_of cli-get-urlsession)

cat <<MD
## cli

One-shot CLI against nginx on loopback (a 17-byte static file). Cold start and one GET by
hyperfine (mean of ${CLI_BENCH_RUNS:-40} runs, 5 warm-ups, no shell); 1000 sequential GETs in
one process, best of 3.

| measurement | tapedeck | curl | HTTPie | tapedeck / curl | HTTPie / tapedeck |
|---|---|---|---|---|---|
| \`--version\` (ms) | $v_td | $v_curl | $v_http | $(ratio "$v_td" "$v_curl") | $(ratio "$v_http" "$v_td") |
| one GET, new process (ms) | $g_td | $g_curl | $g_http | $(ratio "$g_td" "$g_curl") | $(ratio "$g_http" "$g_td") |

| $N sequential GETs, one process | µs / request | vs curl |
|---|---|---|
| curl (\`-K\` config, keep-alive) | $curl_us | 1.00x |
| tapedeck \`CurlTransport\` (what the CLI uses) | $td_curl_us | $(ratio "$td_curl_us" "$curl_us") |
| tapedeck \`URLSessionTransport\` | $td_session_us | $(ratio "$td_session_us" "$curl_us") |

Targets: cold start within 3x of curl; at least 5x faster than HTTPie.
MD
