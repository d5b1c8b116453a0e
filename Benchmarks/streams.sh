#!/usr/bin/env bash
# Streamed responses, whole processes measured from outside in one run: the latency
# `tapedeck proxy --mode all` (recording) adds to each server-sent event (p50/p99 of how late
# each event arrives, read by Python requests straight from the streaming upstream and through
# the proxy), and the events per second `tapedeck serve --repeat` replays a recorded stream at,
# to one client and to many at once (curl --parallel). Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
LATENCY_EVENTS="${STREAM_BENCH_LATENCY_EVENTS:-1000}"
GAP_MS="${STREAM_BENCH_GAP_MS:-5}"
EVENTS="${STREAM_BENCH_EVENTS:-5000}"
CLIENTS="${STREAM_BENCH_CLIENTS:-64}"
ROUNDS="${STREAM_BENCH_ROUNDS:-3}"
require_built "$BIN"
for tool in curl jq; do command -v "$tool" >/dev/null || { echo "needs $tool (make bench installs it)" >&2; exit 1; }; done
PY="$VENV/bin/python"
"$PY" -c 'import requests' 2>/dev/null || { echo "needs $PY with requests (make bench creates the venv)" >&2; exit 1; }

work="$(mktemp -d -t tapedeck-streams-bench.XXXXXX)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
export TAPEDECK_USAGE_DIR="$work/usage" TAPEDECK_RECORD_MODE=""

# url_from FILE PID: the first http:// address on FILE's first line, once process PID has
# printed it there (30 s at most, a debug build starts slowly; fails at once if PID is gone).
url_from() {
  local url
  for _ in $(seq 1 300); do
    url=$(head -1 "$1" 2>/dev/null | grep -o 'http://[^ ]*' | head -1)
    [ -n "$url" ] && { echo "$url"; return 0; }
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
# stop PID: SIGINT (a tapedeck server writes its cassette and exits 0), then wait for it.
stop() { kill -INT "$1" 2>/dev/null; wait "$1" 2>/dev/null; }
# num JSON KEY: one number of a one-line JSON result, or n/a.
num() { local json="${1:-}"; [ -n "$json" ] || json='{}'; jq -r ".$2 // \"n/a\"" <<<"$json" 2>/dev/null || echo n/a; }
# minus A B: A - B to two places, or n/a when either is not a number.
minus() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^-?[0-9.]+$/ && b ~ /^-?[0-9.]+$/) printf "%.2f", a - b; else print "n/a" }'; }

# --- The streaming upstream ----------------------------------------------------------------
"$PY" Tests/Support/Python/stream_server.py >"$work/upstream.port" 2>"$work/upstream.err" &
pids+=($!)
for _ in $(seq 1 100); do [ -s "$work/upstream.port" ] && break; sleep 0.1; done
read -r up_port <"$work/upstream.port" || true
[ -n "${up_port:-}" ] || { echo "the stream server did not start" >&2; cat "$work/upstream.err" >&2; exit 1; }
UP="http://127.0.0.1:$up_port"
LATENCY_PATH="/events?count=$LATENCY_EVENTS&gap=$GAP_MS"
BULK_PATH="/events?count=$EVENTS&gap=0"

# --- 1. Latency per event: straight to the upstream, then through the recording proxy -----
direct=$("$PY" Benchmarks/stream_latency.py "$UP$LATENCY_PATH") || direct=""

cassette="$work/streams.cassette.json"
"$BIN" proxy "$UP" --record "$cassette" --mode all --port 0 >"$work/proxy.out" 2>"$work/proxy.err" &
proxy_pid=$!; pids+=("$proxy_pid")
proxy_url=$(url_from "$work/proxy.out" "$proxy_pid") || { echo "tapedeck proxy did not start" >&2; cat "$work/proxy.err" >&2; exit 1; }
proxied=$("$PY" Benchmarks/stream_latency.py "$proxy_url$LATENCY_PATH") || proxied=""

# Record the stream serve replays below: $EVENTS events, written as fast as the upstream can.
recorded=$(curl -s -o /dev/null -w '%{http_code}' "$proxy_url$BULK_PATH")
stop "$proxy_pid"
[ "$recorded" = 200 ] && [ -s "$cassette" ] || { echo "recording the $EVENTS-event stream failed ($recorded)" >&2; cat "$work/proxy.err" >&2; exit 1; }

d_p50=$(num "$direct" p50_ms); d_p99=$(num "$direct" p99_ms); d_n=$(num "$direct" events)
p_p50=$(num "$proxied" p50_ms); p_p99=$(num "$proxied" p99_ms); p_n=$(num "$proxied" events)
[ "$d_n" = "$LATENCY_EVENTS" ] && [ "$p_n" = "$LATENCY_EVENTS" ] \
  || echo "warning: expected $LATENCY_EVENTS events each, got $d_n direct and $p_n through the proxy" >&2

# --- 2. Events per second from tapedeck serve ----------------------------------------------
"$BIN" serve "$cassette" --repeat --port 0 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!; pids+=("$serve_pid")
serve_url=$(url_from "$work/serve.out" "$serve_pid") || { echo "tapedeck serve did not start" >&2; cat "$work/serve.err" >&2; exit 1; }

# rate N: "events/s bytes/event" — best of $ROUNDS runs of one curl process reading the replayed
# stream over N connections at once (--parallel). The time is the longest transfer's time_total
# (connect to last byte, on curl's clock; curl's own start-up left out); events are the `data:`
# lines received. A run that gets fewer than N × $EVENTS events, or a status other than 200,
# does not count.
rate() {
  local n="$1" best="n/a" size="n/a" round i stats ok secs got bytes r
  for round in $(seq 1 "$ROUNDS"); do
    : >"$work/curl.cfg"
    for i in $(seq 1 "$n"); do printf 'url = "%s"\noutput = "%s"\n' "$serve_url$BULK_PATH" "$work/out-$i" >>"$work/curl.cfg"; done
    stats=$(curl -s --parallel --parallel-immediate --parallel-max "$n" -w '%{http_code} %{time_total}\n' -K "$work/curl.cfg" 2>/dev/null \
      | awk '$1 == 200 { ok++ } $2 > t { t = $2 } END { printf "%d %s", ok, (t == "" ? 0 : t) }')
    read -r ok secs <<<"$stats"
    got=$(cat "$work"/out-* 2>/dev/null | grep -c '^data:')
    bytes=$(cat "$work"/out-* 2>/dev/null | wc -c)
    rm -f "$work"/out-*
    if [ "$ok" != "$n" ] || [ "$got" != "$((n * EVENTS))" ]; then
      echo "warning: $n clients, round $round: $ok answers of 200, $got events of $((n * EVENTS))" >&2
      continue
    fi
    r=$(awk -v e="$got" -v s="$secs" 'BEGIN { if (s > 0) printf "%.0f", e / s; else print "n/a" }')
    size=$(awk -v b="$bytes" -v e="$got" 'BEGIN { printf "%.0f", b / e }')
    if [ "$best" = n/a ] || { [ "$r" != n/a ] && [ "$r" -gt "$best" ]; }; then best="$r"; fi
  done
  echo "$best $size"
}
read -r one_rate event_bytes < <(rate 1)
read -r many_rate _ < <(rate "$CLIENTS")
stop "$serve_pid"
per_client=$(awk -v r="$many_rate" -v n="$CLIENTS" 'BEGIN { if (r + 0 > 0) printf "%.0f", r / n; else print "n/a" }')

cat <<MD
## Streamed responses

Whole process, from outside, in this same run. The upstream is
\`Tests/Support/Python/stream_server.py\` (chunked server-sent events, each flushed, each
carrying the server's \`time.time()\` as \`sent\`).

Latency per event: $LATENCY_EVENTS events ${GAP_MS} ms apart, read by Python requests
(\`stream=True\`, \`iter_content(chunk_size=None)\`, \`Benchmarks/stream_latency.py\`) straight
from the upstream and through \`tapedeck proxy UPSTREAM --record C --mode all\` (relaying each
chunk as it arrives and journalling it). Each event's arrival time minus its \`sent\`
(same machine, one clock; \`sent\` is rounded to 0.1 ms).

| path | p50 ms | p99 ms |
|---|---:|---:|
| requests → stream server | $d_p50 | $d_p99 |
| requests → \`tapedeck proxy\` (recording) → stream server | $p_p50 | $p_p99 |
| added by the proxy | $(minus "$p_p50" "$d_p50") | $(minus "$p_p99" "$d_p99") |

Replay rate: a stream of $EVENTS events (about $event_bytes bytes each) recorded
through the proxy from the upstream with no gap, then replayed by
\`tapedeck serve C --repeat\` (instant, the default). One curl process reads it over 1 and over
$CLIENTS connections at once (\`--parallel\`); the time is the longest transfer's
\`time_total\` (connect to last byte), events are the \`data:\` lines received; best of $ROUNDS.

| clients | events/s in all | events/s per client |
|---:|---:|---:|
| 1 | $one_rate | $one_rate |
| $CLIENTS | $many_rate | $per_client |
MD
