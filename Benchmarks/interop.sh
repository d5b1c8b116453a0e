#!/usr/bin/env bash
# Interop benchmarks: replaying the same 10,000 interactions from Tapedeck's native cassette,
# from the vcrpy YAML Tapedeck exported, and with vcrpy + requests from that same YAML; then
# converting a 10,000-interaction HAR (time and peak RSS). Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
TAPEDECK="$BIN"
N="${INTEROP_BENCH_N:-10000}"
# vcrpy scans the whole cassette for every request (O(N) per request), so replaying all N
# requests would take the better part of an hour; it replays SAMPLE of them, evenly spread.
SAMPLE="${INTEROP_VCR_SAMPLE:-100}"
work="Benchmarks/.work/interop"
mkdir -p "$work"
require_built "$BENCH"


"$BENCH" interop-write "$work/replay.cassette.json" "$N" >/dev/null || exit 1
# The YAML is Tapedeck's own export of the native cassette, as a user would produce it.
"$BENCH" interop-convert "$work/replay.cassette.json" "$work/replay.yaml" >/dev/null || exit 1
native=$("$BENCH" interop-replay "$work/replay.cassette.json" "$N") || exit 1
yaml=$("$BENCH" interop-replay "$work/replay.yaml" "$N") || exit 1


vcr_us="n/a"; vcr_e2e="n/a"; vcr_load="n/a"; small_us="n/a"
if [ -x "$VENV/bin/python" ]; then
  vcr=$(vcr_replay "$work/replay.yaml" "$N" "$SAMPLE") \
    && { vcr_us=$(field "$vcr" us_per_request); vcr_e2e=$(field "$vcr" end_to_end_us_per_request); vcr_load=$(field "$vcr" load_s); }
  # The floor of vcrpy + requests: a 100-interaction cassette, where the scan is short.
  "$BENCH" interop-write "$work/small.yaml" 100 >/dev/null \
    && small=$(vcr_replay "$work/small.yaml" 100 100) && small_us=$(field "$small" us_per_request)
fi

# Converting a 10,000-interaction HAR with the CLI, as a user would.
"$BENCH" interop-write "$work/big.har" "$N" >/dev/null || exit 1
har_mb=$(awk -v b="$(stat -c %s "$work/big.har")" 'BEGIN { printf "%.1f", b / 1048576 }')
convert_row() {
  local out="$1" label="$2"
  if [ -x "$TAPEDECK" ] && /usr/bin/time -v "$TAPEDECK" convert "$work/big.har" "$work/$out" >/dev/null 2>"$work/$out.time"; then
    echo "| \`tapedeck convert big.har $out\` ($label) | $(wall_s "$work/$out.time") | $(rss_mb "$work/$out.time") |"
  else
    /usr/bin/time -v "$BENCH" interop-convert "$work/big.har" "$work/$out" >/dev/null 2>"$work/$out.time" || return 1
    echo "| big.har → $out ($label; in process, the CLI was unavailable) | $(wall_s "$work/$out.time") | $(rss_mb "$work/$out.time") |"
  fi
}
row_native=$(convert_row big.cassette.json "Tapedeck JSON") || exit 1
row_yaml=$(convert_row big.yaml "vcrpy YAML") || exit 1

y_us=$(field "$yaml" urlsession_us_per_request)
y_t=$(field "$yaml" transport_us_per_request)
minutes=$(awk -v u="$vcr_us" -v n="$N" 'BEGIN { if (u + 0 > 0) printf "%.0f", u * n / 6e7; else print "n/a" }')
cat <<MD
## Interop

Replaying the same $N interactions (distinct GETs, ~300-byte JSON bodies): Tapedeck from its
native cassette and from the vcrpy YAML it exported, vcrpy + requests from that same YAML.
Nothing is contacted (\`bench.local\` is answered from the cassette).

| replay | load (s) | µs / request, ReplayTransport | µs / request, URLSession.replaying | µs / request incl. load |
|---|---:|---:|---:|---:|
| Tapedeck, native JSON | $(field "$native" load_s) | $(field "$native" transport_us_per_request) | $(field "$native" urlsession_us_per_request) | $(field "$native" end_to_end_us_per_request) |
| Tapedeck, vcrpy YAML | $(field "$yaml" load_s) | $y_t | $y_us | $(field "$yaml" end_to_end_us_per_request) |
| vcrpy + requests, same YAML | $vcr_load | — | $vcr_us | $vcr_e2e |

Per request, Tapedeck through \`URLSession.replaying\` is $(ratio "$vcr_us" "$y_us") faster than vcrpy + requests on
the same YAML (target: at least 5×); through \`ReplayTransport\` (what \`tapedeck run --replay\` uses)
$(ratio "$vcr_us" "$y_t"). vcrpy matches by scanning every recorded interaction, so its cost per request
grows with the cassette: it replayed $SAMPLE of the $N requests, evenly spread (all $N would take
about $minutes minutes). Tapedeck replayed all $N. Even from a 100-interaction cassette, where the
scan is short, vcrpy + requests takes $small_us µs per request ($(ratio "$small_us" "$y_us") Tapedeck's \`URLSession.replaying\`).

Converting a $N-interaction HAR ($har_mb MB):

| conversion | wall (s) | peak RSS (MB) |
|---|---:|---:|
$row_native
$row_yaml
MD
