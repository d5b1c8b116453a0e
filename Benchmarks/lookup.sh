#!/usr/bin/env bash
# Replay lookup as the cassette grows: Tapedeck's `ReplayTransport.lookup` and cassetter's own
# match (its Rust `take_match`, timed from Python), same probes, same run, 100 to 100,000
# interactions. Prints one Markdown section. Target: at most 1 µs per lookup at every size.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
require_built "$BENCH"
lookup=$("$BENCH" cassette-lookup) || exit 1

# cassetter's own match, from Python: take_match over a cassette of N interactions, 10,000
# distinct probes (fewer when N is smaller), best of 5; the Python call is included.
cassetter_lookup="{}"
if [ -x "$VENV/bin/python" ]; then
  cassetter_lookup=$("$VENV/bin/python" - <<'PY'
import json, time
from cassetter._core import Cassette, HttpInteraction, HttpRequest, HttpResponse, MatchConfig, Body
result = {}
for size in (100, 1000, 10000, 100000):
    def uri(i): return f"http://bench.local/items/{i}?page={i % 10}&sort=asc"
    probes = [HttpRequest("GET", uri((k * 7919) % size), {"Accept": ["application/json"]}) for k in range(min(size, 10000))]
    config = MatchConfig()
    best = None
    for _ in range(5):
        cassette = Cassette()
        for i in range(size):
            cassette.add_interaction(HttpInteraction(HttpRequest("GET", uri(i), {"Accept": ["application/json"]}),
                                                     HttpResponse(200, {"Content-Type": ["application/json"]}, Body("json", {"id": i})),
                                                     "2026-01-01T00:00:00Z"))
        t = time.perf_counter()
        for probe in probes:
            assert cassette.take_match(probe, config) is not None
        elapsed = (time.perf_counter() - t) * 1e6 / len(probes)
        best = elapsed if best is None else min(best, elapsed)
    result[f"us_per_lookup_{size}"] = round(best, 2)
print(json.dumps(result))
PY
) || cassetter_lookup="{}"
fi
cl() { local v; v=$(jq -r ".us_per_lookup_$1 // \"n/a\"" <<<"$cassetter_lookup"); echo "$v"; }

echo "## Replay lookup"
echo
echo "Replay lookup, in process, 10,000 distinct probes per size (fewer than the size below 10,000"
echo "for cassetter, whose \`take_match\` marks each match played), best of 5. Tapedeck's"
echo "\`ReplayTransport.lookup\`; cassetter's \`Cassette.take_match\` (Rust) called from Python, so"
echo "its figure includes one Python-to-Rust call."
echo
echo "| interactions | 100 | 1,000 | 10,000 | 100,000 |"
echo "|---|---:|---:|---:|---:|"
echo "| Tapedeck µs / lookup | $(field "$lookup" us_per_lookup_100) | $(field "$lookup" us_per_lookup_1000) | $(field "$lookup" us_per_lookup_10000) | $(field "$lookup" us_per_lookup_100000) |"
echo "| cassetter µs / lookup | $(cl 100) | $(cl 1000) | $(cl 10000) | $(cl 100000) |"
echo "| Tapedeck µs / lookup, a credential in every query (recorded \`<REDACTED>\`, sent real) | $(field "$lookup" us_per_redacted_lookup_100) | $(field "$lookup" us_per_redacted_lookup_1000) | $(field "$lookup" us_per_redacted_lookup_10000) | $(field "$lookup" us_per_redacted_lookup_100000) |"
worst=$(jq -r '[.us_per_lookup_100, .us_per_lookup_1000, .us_per_lookup_10000, .us_per_lookup_100000] | max' <<<"$lookup")
echo
echo "Slowest Tapedeck lookup in this run: $worst µs (target: at most 1 µs at every size; $(awk -v w="$worst" 'BEGIN { print (w + 0 <= 1.0 ? "met" : "missed") }'))."
