#!/usr/bin/env bash
# OpenAPI benchmarks: `tapedeck cassette check --openapi` of a 10,000-interaction cassette (the
# recorded httpbin fixture's five interactions, repeated) against the fixture's spec. Prints one
# Markdown section with interactions per second.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
N="${OPENAPI_BENCH_N:-10000}"
require_built "$BIN"
fixtures="Tests/TapedeckOpenAPITests/Fixtures"
work="$(mktemp -d -t tapedeck-openapi-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT

"$BIN" convert "$fixtures/httpbin.yaml" "$work/five.cassette.json" >/dev/null 2>&1 || { echo "convert failed" >&2; exit 1; }
python3 - "$work/five.cassette.json" "$work/bench.cassette.json" "$N" <<'PY'
import json, sys
cassette = json.load(open(sys.argv[1]))
five, n = cassette["interactions"], int(sys.argv[3])
cassette["interactions"] = [five[i % len(five)] for i in range(n)]
json.dump(cassette, open(sys.argv[2], "w"))
PY

check_ms=$(best_ms "$BIN" cassette check "$work/bench.cassette.json" --openapi "$fixtures/httpbin-openapi.yaml") || exit 1
show_ms=$(best_ms "$BIN" cassette show "$work/bench.cassette.json") || exit 1
per_second() { awk -v m="$1" -v n="$N" 'BEGIN { printf "%.0f", n * 1000 / m }'; }

echo "## OpenAPI: cassette check"
echo
echo "\`tapedeck cassette check C --openapi spec.yaml\` of $N interactions (httpbin's /get, /json, /post,"
echo "/status/204, /uuid with JSON bodies, repeated) against a 3.0 spec with \`\$ref\`s; whole process"
echo "(reading the cassette and the spec included), best of 3 runs. \`cassette show\` reads the same cassette."
echo
echo "| what | ms for $N | interactions/s | vs cassette show |"
echo "|---|---:|---:|---:|"
echo "| \`tapedeck cassette show\` | $show_ms | $(per_second "$show_ms") | 1.00× |"
echo "| \`tapedeck cassette check --openapi\` | $check_ms | $(per_second "$check_ms") | $(ratio "$check_ms" "$show_ms") |"
