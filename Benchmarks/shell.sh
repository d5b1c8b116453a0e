#!/usr/bin/env bash
# Shell benchmarks: a 1000-request .tape script against a local nginx (`tapedeck run`, and the
# interpreter in process) vs curl fetching the same 1000 URLs in one process vs HTTPie (one
# process per request, as HTTPie is used); and parsing a 10,000-line script. Prints one
# Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
N="${SHELL_BENCH_N:-1000}"
HTTP_N="${SHELL_BENCH_HTTPIE_N:-50}"
require_built "$BIN" "$BENCH"

work="$(mktemp -d -t tapedeck-shell-bench.XXXXXX)"
printf '{"ok": true, "items": [1, 2, 3]}\n' >"$work/small.json"
start_nginx "$work"
port=$NGINX_PORT
url="http://127.0.0.1:$port/small.json"

# The script: N requests, each with an assertion, as a CI smoke test would be written.
{ echo "base http://127.0.0.1:$port"; for _ in $(seq 1 "$N"); do echo "get /small.json"; echo "expect json \$.ok == true"; done; } >"$work/bench.tape"
for _ in $(seq 1 "$N"); do printf 'url = "%s"\noutput = "/dev/null"\n' "$url"; done >"$work/urls.conf"

# Best of 3 wall-clock runs, in microseconds per request.
best_us() {
  python3 - "$N" "$@" <<'PY'
import subprocess, sys, time
n = int(sys.argv[1]); command = sys.argv[2:]
best = None
for _ in range(3):
    t = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = (time.perf_counter() - t) * 1e6 / n
    best = elapsed if best is None else min(best, elapsed)
print("%.1f" % best)
PY
}
run_us=$(best_us "$BIN" run "$work/bench.tape") || { echo "tapedeck run failed" >&2; exit 1; }
curl_us=$(best_us curl -s -K "$work/urls.conf")
inproc_us=$("$BENCH" shell-run "$url" "$N" | python3 -c 'import json,sys; print(json.load(sys.stdin)["us_per_request"])')
if [ -x "$HTTP" ]; then
  http_us=$(python3 - "$HTTP" "$url" "$HTTP_N" <<'PY'
import subprocess, sys, time
http, url, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = time.perf_counter()
for _ in range(n):
    subprocess.run([http, "--ignore-stdin", "--check-status", url], check=True, stdout=subprocess.DEVNULL)
print("%.1f" % ((time.perf_counter() - t) * 1e6 / n))
PY
)
else
  http_us="n/a"
fi
parse_json=$("$BENCH" shell-parse 10000)
parse_ms=$(echo "$parse_json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ms"])')
parse_rate=$(echo "$parse_json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["lines_per_s"])')

echo "## Shell: .tape scripts"
echo
echo "$N GETs of a small JSON file from a local nginx (loopback, keep-alive), each followed by"
echo "\`expect json \$.ok == true\`; best of 3 runs. curl fetches the same $N URLs in one process"
echo "(\`curl -K\`, no assertions). HTTPie is run once per request, as it is used ($HTTP_N runs, mean)."
echo
echo "| what | µs per request | vs curl (one process) |"
echo "|---|---:|---:|"
echo "| \`tapedeck run bench.tape\` (whole process) | $run_us | $(ratio "$run_us" "$curl_us") |"
echo "| interpreter in process (TapedeckBench shell-run) | $inproc_us | $(ratio "$inproc_us" "$curl_us") |"
echo "| curl, one process | $curl_us | 1.00× |"
echo "| HTTPie, one process per request | $http_us | $(ratio "$http_us" "$curl_us") |"
echo
echo "\`tapedeck run\` is $(ratio "$http_us" "$run_us") faster than HTTPie per request."
echo
echo "Parsing a generated 10,000-line script (every command kind, heredocs): ${parse_ms} ms"
echo "(best of 5), ${parse_rate} lines/s."
