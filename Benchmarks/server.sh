#!/usr/bin/env bash
# Server benchmarks: wrk with keep-alive against `tapedeck serve`, `mitmdump --server-replay`
# (the same interactions, from a HAR) and nginx (the same bodies as static files): requests/s,
# p50/p99 latency, peak RSS; proxy overhead of `tapedeck proxy` and `mitmdump --mode reverse`
# in front of nginx, against curl straight to nginx; requests/s serving 100 vs 100,000
# interactions. Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
DURATION="${SERVER_BENCH_SECONDS:-5}"
CONNECTIONS="${SERVER_BENCH_CONNECTIONS:-32}"
BIG="${SERVER_BENCH_BIG:-100000}"
CURLS="${SERVER_BENCH_CURLS:-200}"
require_built "$BIN" "$BENCH"
for tool in wrk nginx jq; do command -v "$tool" >/dev/null || { echo "needs $tool (make bench installs it)" >&2; exit 1; }; done
MITM="$VENV/bin/mitmdump"

work="$(mktemp -d -t tapedeck-server-bench.XXXXXX)"
chmod 755 "$work"   # nginx's worker (user nobody) reads the static files below it
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
export TAPEDECK_USAGE_DIR="$work/usage" TAPEDECK_RECORD_MODE=""

"$BENCH" cassette-write "$work/small.cassette.json" 100 >/dev/null || exit 1
"$BENCH" cassette-write "$work/small.har" 100 >/dev/null || exit 1
"$BENCH" cassette-write "$work/big.cassette.json" "$BIG" >/dev/null || exit 1

# The Lua script spreads requests over the cassette's first N interactions (distinct URLs).
spread() {
  cat >"$work/spread-$1.lua" <<LUA
math.randomseed(7)
request = function()
  local i = math.random(0, $1 - 1)
  return wrk.format("GET", "/items/" .. i .. "?page=" .. (i % 10) .. "&sort=asc", { ["Accept"] = "application/json" })
end
LUA
  echo "$work/spread-$1.lua"
}

# The control token the servers below are started with, so the status endpoint can be polled.
TOKEN="bench-control-token-$$-0000"
# wait_http URL: until a 2xx answer comes from there (30 s at most), sending the control token.
wait_http() { for _ in $(seq 1 600); do curl -sf -o /dev/null -H "X-Tapedeck-Token: $TOKEN" "$1" 2>/dev/null && return 0; sleep 0.05; done; return 1; }

# hwm_mb PID: the process's peak resident set (VmHWM), in MB.
hwm_mb() { awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo n/a; }

# bench_wrk URL SCRIPT: "requests/s p50_ms p99_ms" from wrk with keep-alive.
bench_wrk() {
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$2" "$1" 2>&1) || { echo "n/a n/a n/a"; return; }
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ { printf "%.0f", $2 }' <<<"$out")
  p50=$(awk '$1 == "50%" { print $2 }' <<<"$out" | ms)
  p99=$(awk '$1 == "99%" { print $2 }' <<<"$out" | ms)
  local non2xx
  non2xx=$(awk '/Non-2xx/ { print $NF }' <<<"$out")
  [ -n "$non2xx" ] && echo "warning: $non2xx non-2xx answers from $1" >&2 && [ -n "${3:-}" ] && head -c 600 "$3" >&2
  echo "${rps:-n/a} ${p50:-n/a} ${p99:-n/a}"
}

# ms: wrk's 1.23ms / 456.00us / 1.02s as milliseconds.
ms() { awk '{ v = $1; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } printf "%.2f", v }'; }

# --- Replay servers under wrk ---------------------------------------------------------------
small_lua=$(spread 100)
port=$(free_port)
"$BIN" serve "$work/small.cassette.json" --repeat --port "$port" --control-token "$TOKEN" >/dev/null 2>"$work/serve.err" &
serve_pid=$!; pids+=("$serve_pid")
wait_http "http://127.0.0.1:$port/__tapedeck/status" || { echo "tapedeck serve did not start" >&2; exit 1; }
read -r td_rps td_p50 td_p99 < <(bench_wrk "http://127.0.0.1:$port" "$small_lua" "$work/serve.err")
td_rss=$(hwm_mb "$serve_pid")
kill -INT "$serve_pid"; wait "$serve_pid" 2>/dev/null

mitm_rps="n/a"; mitm_p50="n/a"; mitm_p99="n/a"; mitm_rss="n/a"
if [ -x "$MITM" ]; then
  port=$(free_port)
  "$MITM" -q --mode reverse:http://bench.local/ --listen-host 127.0.0.1 -p "$port" --server-replay "$work/small.har" \
    --set server_replay_reuse=true --set server_replay_extra=404 --set connection_strategy=lazy >/dev/null 2>&1 &
  mitm_pid=$!; pids+=("$mitm_pid")
  if wait_http "http://127.0.0.1:$port/items/1?page=1&sort=asc"; then
    read -r mitm_rps mitm_p50 mitm_p99 < <(bench_wrk "http://127.0.0.1:$port" "$small_lua")
    mitm_rss=$(hwm_mb "$mitm_pid")
  fi
  kill "$mitm_pid" 2>/dev/null; wait "$mitm_pid" 2>/dev/null
fi

static="$work/static"; mkdir -p "$static/items"
python3 - "$work/small.cassette.json" "$static/items" <<'PY'
import json, sys
cassette = json.load(open(sys.argv[1]))
for i, interaction in enumerate(cassette["interactions"]):
    body = interaction["response"]["body"]
    text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False, separators=(", ", ": "))
    open(f"{sys.argv[2]}/{i}", "w").write(text)
PY
start_nginx "$static"
trap cleanup EXIT   # start_nginx set its own trap; keep ours (nginx is stopped below)
pids+=("$NGINX_PID")
read -r ngx_rps ngx_p50 ngx_p99 < <(bench_wrk "http://127.0.0.1:$NGINX_PORT" "$small_lua")
worker=$(pgrep -P "$NGINX_PID" | head -1)
ngx_rss=$(( $(hwm_mb "$NGINX_PID") + $(hwm_mb "${worker:-$NGINX_PID}") ))

# --- Flat with cassette size --------------------------------------------------------------
big_lua=$(spread "$BIG")
port=$(free_port)
start_ns=$(date +%s%N)
"$BIN" serve "$work/big.cassette.json" --repeat --port "$port" --control-token "$TOKEN" >/dev/null 2>"$work/serve-big.err" &
big_pid=$!; pids+=("$big_pid")
wait_http "http://127.0.0.1:$port/__tapedeck/status" || { echo "tapedeck serve (big) did not start" >&2; exit 1; }
big_start=$(awk -v n="$(( $(date +%s%N) - start_ns ))" 'BEGIN { printf "%.2f", n / 1e9 }')
read -r big_rps big_p50 big_p99 < <(bench_wrk "http://127.0.0.1:$port" "$big_lua" "$work/serve-big.err")
big_rss=$(hwm_mb "$big_pid")
kill -INT "$big_pid"; wait "$big_pid" 2>/dev/null

# --- Proxy overhead: sequential curl requests ---------------------------------------------
# curl_latency URL: "p50_ms p99_ms" of $CURLS sequential curl requests (time_total, no process start).
curl_latency() {
  for _ in $(seq 1 "$CURLS"); do curl -s -o /dev/null -w '%{time_total}\n' "$1"; done \
    | sort -n | awk '{ v[NR] = $1 * 1000 } END { printf "%.2f %.2f", v[int(NR * 0.5)], v[int(NR * 0.99)] }'
}
direct="http://127.0.0.1:$NGINX_PORT/items/7"
read -r d_p50 d_p99 < <(curl_latency "$direct")
port=$(free_port)
"$BIN" proxy "http://127.0.0.1:$NGINX_PORT" --record "$work/proxied.cassette.json" --mode all --port "$port" --control-token "$TOKEN" >/dev/null 2>"$work/proxy.err" &
proxy_pid=$!; pids+=("$proxy_pid")
wait_http "http://127.0.0.1:$port/__tapedeck/status" || { echo "tapedeck proxy did not start" >&2; exit 1; }
read -r p_p50 p_p99 < <(curl_latency "http://127.0.0.1:$port/items/7")
kill -INT "$proxy_pid"; wait "$proxy_pid" 2>/dev/null
m_p50="n/a"; m_p99="n/a"
if [ -x "$MITM" ]; then
  port=$(free_port)
  "$MITM" -q --mode "reverse:http://127.0.0.1:$NGINX_PORT/" --listen-host 127.0.0.1 -p "$port" >/dev/null 2>&1 &
  mitm_pid=$!; pids+=("$mitm_pid")
  if wait_http "http://127.0.0.1:$port/items/7"; then read -r m_p50 m_p99 < <(curl_latency "http://127.0.0.1:$port/items/7"); fi
  kill "$mitm_pid" 2>/dev/null; wait "$mitm_pid" 2>/dev/null
fi

cat <<MD
## Serve and proxy

\`wrk -t2 -c$CONNECTIONS -d${DURATION}s\` with keep-alive, GETs spread over 100 interactions (the same
URLs and bodies for every server: \`tapedeck serve --repeat\` from a native cassette,
\`mitmdump --server-replay\` from a HAR of the same interactions, nginx from static files of
the same bodies). wrk shares the 2 cores with the server, as it does for every peer.

| server | requests/s | p50 ms | p99 ms | peak RSS MB |
|---|---:|---:|---:|---:|
| \`tapedeck serve\` | $td_rps | $td_p50 | $td_p99 | $td_rss |
| \`mitmdump --server-replay\` | $mitm_rps | $mitm_p50 | $mitm_p99 | $mitm_rss |
| nginx (static files) | $ngx_rps | $ngx_p50 | $ngx_p99 | $ngx_rss |

\`tapedeck serve\` answers $(ratio "$td_rps" "$mitm_rps") the requests/s of mitmdump (target ≥ 40×) and
$(ratio "$td_rps" "$ngx_rps") of nginx's (target ≥ 0.5×).

Flat with cassette size: the same wrk run spread over 100 vs $BIG interactions.

| cassette | requests/s | p99 ms | peak RSS MB | start to first answer s |
|---|---:|---:|---:|---:|
| 100 interactions | $td_rps | $td_p99 | $td_rss | |
| $BIG interactions | $big_rps | $big_p99 | $big_rss | $big_start |

$BIG interactions serve at $(ratio "$big_rps" "$td_rps") the requests/s of 100.

Proxy overhead: $CURLS sequential \`curl\` requests (\`time_total\`, a new connection each) to nginx
directly and through each reverse proxy; \`tapedeck proxy --mode all\` forwards each request and records
it (redaction, lint, one journal record per interaction, merged into the cassette at exit), mitmdump only forwards.

| path | p50 ms | p99 ms |
|---|---:|---:|
| curl → nginx | $d_p50 | $d_p99 |
| curl → \`tapedeck proxy\` (recording) → nginx | $p_p50 | $p_p99 |
| curl → \`mitmdump --mode reverse\` → nginx | $m_p50 | $m_p99 |
MD
