#!/usr/bin/env bash
# Cassette benchmarks: replay cost per request (ReplayTransport, URLSession.replaying, vcrpy +
# requests on the same interactions), load/save of a ~50 MB cassette with peak RSS, and lookup
# time from 100 to 100,000 interactions. Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
N="${CASSETTE_BENCH_N:-10000}"
# vcrpy scans every recorded interaction for each request (O(N) per request): replaying all
# 10,000 requests of the big cassette would take the better part of an hour, so it replays an
# evenly spread sample of them (as interop.sh does), from a 1,000- and a 10,000-interaction YAML.
VCR_N="${CASSETTE_BENCH_VCR_N:-1000}"
VCR_SAMPLE="${CASSETTE_BENCH_VCR_SAMPLE:-100}"
work="Benchmarks/.work/cassette"
mkdir -p "$work"
require_built "$BENCH"


transport=$("$BENCH" cassette-replay-transport "$N") || exit 1
session=$("$BENCH" cassette-replay-urlsession "$N") || exit 1
transport_small=$("$BENCH" cassette-replay-transport "$VCR_N") || exit 1
session_small=$("$BENCH" cassette-replay-urlsession "$VCR_N") || exit 1

/usr/bin/time -v "$BENCH" cassette-save "$work/big.cassette.json" "$N" 5000 >"$work/save.json" 2>"$work/save.time" || exit 1
/usr/bin/time -v "$BENCH" cassette-load "$work/big.cassette.json" >"$work/load.json" 2>"$work/load.time" || exit 1
save=$(cat "$work/save.json"); load=$(cat "$work/load.json")
size_mb=$(awk -v b="$(field "$save" file_bytes)" 'BEGIN { printf "%.1f", b / 1048576 }')


vcr_us="n/a"; vcr_load="n/a"; vcr_big_us="n/a"; vcr_big_load="n/a"
if [ -x "$VENV/bin/python" ]; then
  if "$BENCH" cassette-write "$work/vcr.yaml" "$VCR_N" >/dev/null 2>&1 \
     && vcr=$(vcr_replay "$work/vcr.yaml" "$VCR_N" "$VCR_SAMPLE"); then
    vcr_us=$(field "$vcr" us_per_request); vcr_load=$(field "$vcr" load_s)
  fi
  if "$BENCH" cassette-write "$work/vcr-big.yaml" "$N" >/dev/null 2>&1 \
     && vcr_big=$(vcr_replay "$work/vcr-big.yaml" "$N" "$VCR_SAMPLE"); then
    vcr_big_us=$(field "$vcr_big" us_per_request); vcr_big_load=$(field "$vcr_big" load_s)
  fi
fi

t_us=$(field "$transport" us_per_request)
s_us=$(field "$session" us_per_request)
ts_us=$(field "$transport_small" us_per_request)
ss_us=$(field "$session_small" us_per_request)

cat <<EOF
## Cassettes

Replaying every interaction of a cassette once, as distinct GET requests (the same interactions
for every tool; vcrpy reads them from the vcrpy YAML Tapedeck's codec wrote):

| replay path | µs / request, $VCR_N interactions | µs / request, $N interactions |
|---|---:|---:|
| \`ReplayTransport\` (in process, indexed lookup) | $ts_us | $t_us |
| \`URLSession.replaying\` (URLProtocol, Foundation machinery) | $ss_us | $s_us |
| vcrpy + requests ($VCR_SAMPLE requests, evenly spread) | $vcr_us | $vcr_big_us |

At $VCR_N interactions \`URLSession.replaying\` is $(ratio "$vcr_us" "$ss_us") faster than vcrpy + requests and
\`ReplayTransport\` $(ratio "$vcr_us" "$ts_us"); at $N, $(ratio "$vcr_big_us" "$s_us") and $(ratio "$vcr_big_us" "$t_us"):
vcrpy's matching is a linear scan, so its cost per request grows with the cassette. vcrpy also spent
${vcr_load} s and ${vcr_big_load} s loading the two YAML files (not counted).

A cassette of $(field "$save" interactions) interactions (~5 KB JSON bodies each, $size_mb MB on disk):

| operation | time (s, in process) | wall (s) | peak RSS (MB) |
|---|---:|---:|---:|
| save (encode + atomic write) | $(field "$save" seconds) | $(wall_s "$work/save.time") | $(rss_mb "$work/save.time") |
| load (parse + decode) | $(field "$load" seconds) | $(wall_s "$work/load.time") | $(rss_mb "$work/load.time") |

How lookup grows with the cassette, beside cassetter, is in "Replay lookup" below.
EOF
