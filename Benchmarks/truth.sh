#!/usr/bin/env bash
# Cassette truth benchmarks: `tapedeck cassette verify` of a 1000-interaction cassette against a
# local nginx vs sending the same 1000 requests with `tapedeck run` (the issue's bound: within
# 1.5x). Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
N="${TRUTH_BENCH_N:-1000}"
require_built "$BIN"

work="$(mktemp -d -t tapedeck-truth-bench.XXXXXX)"
for i in $(seq 0 9); do
  printf '{"id": %d, "name": "item %d", "tags": ["a", "b"], "price": {"amount": 12.5, "currency": "EUR"}}\n' "$i" "$i" >"$work/item$i.json"
done
start_nginx "$work"
port=$NGINX_PORT

# N requests over 10 JSON files, recorded once into the cassette verify re-sends.
{ echo "base http://127.0.0.1:$port"; for i in $(seq 1 "$N"); do echo "get /item$((i % 10)).json"; done; } >"$work/bench.tape"
"$BIN" run --record "$work/bench.cassette.json" --mode all "$work/bench.tape" >/dev/null 2>&1 || { echo "recording failed" >&2; exit 1; }

run_ms=$(best_ms "$BIN" run "$work/bench.tape") || exit 1
verify_ms=$(best_ms "$BIN" cassette verify "$work/bench.cassette.json") || exit 1
values_ms=$(best_ms "$BIN" cassette verify "$work/bench.cassette.json" --compare status,headers:Content-Type,values) || exit 1

echo "## Cassette truth: verify against the live API"
echo
echo "$N GETs of 10 small JSON files from a local nginx (loopback, keep-alive); whole process,"
echo "best of 3 runs. \`verify\` re-sends every recorded request and compares status and JSON shape"
echo "(\`--compare … values\` also every value); the bound is 1.5× \`tapedeck run\` sending the same requests."
echo
echo "| what | ms for $N | µs per request | vs tapedeck run |"
echo "|---|---:|---:|---:|"
echo "| \`tapedeck run bench.tape\` | $run_ms | $(awk -v m="$run_ms" -v n="$N" 'BEGIN { printf "%.0f", m * 1000 / n }') | 1.00× |"
echo "| \`tapedeck cassette verify\` (status, shape) | $verify_ms | $(awk -v m="$verify_ms" -v n="$N" 'BEGIN { printf "%.0f", m * 1000 / n }') | $(ratio "$verify_ms" "$run_ms") |"
echo "| \`tapedeck cassette verify --compare status,headers:Content-Type,values\` | $values_ms | $(awk -v m="$values_ms" -v n="$N" 'BEGIN { printf "%.0f", m * 1000 / n }') | $(ratio "$values_ms" "$run_ms") |"
