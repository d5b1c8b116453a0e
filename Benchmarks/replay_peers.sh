#!/usr/bin/env bash
# Whole-process replay beside the named peers, in the same run: `tapedeck run --replay`, cassetter
# and vcrpy each replay every interaction of a cassette once, as distinct GETs, from the same
# interactions in their own formats (written by `TapedeckBench cassette-write` and converted by
# `tapedeck convert`). The Python peers go through `requests`; their interpreter start-up and
# imports are in their time, as a user waits for them. Prints one Markdown section.
# REPLAY_PEERS_SIZES (default "1000 10000"); REPLAY_PEERS_RUNS (default 3) hyperfine's runs;
# vcrpy, which matches by a linear scan, runs up to REPLAY_PEERS_VCR_MAX (default 1000) interactions.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
SIZES="${REPLAY_PEERS_SIZES:-1000 10000}"
RUNS="${REPLAY_PEERS_RUNS:-3}"
VCR_MAX="${REPLAY_PEERS_VCR_MAX:-1000}"
require_built "$BIN" "$BENCH"
command -v hyperfine >/dev/null || { echo "needs hyperfine (make bench installs it)" >&2; exit 1; }
[ -x "$VENV/bin/python" ] || { echo "needs the venv with vcrpy and cassetter (make bench makes it)" >&2; exit 1; }

work="$(mktemp -d -t tapedeck-replay-peers.XXXXXX)"
trap 'rm -rf "$work"' EXIT
export TAPEDECK_USAGE_DIR="$work/usage" TAPEDECK_RECORD_MODE=""
# The Python peers: every interaction once, through requests, from the peer's own cassette.
peer=Benchmarks/peer_requests.py
url='http://bench.local/items/{i}?page={page}&sort=asc'
# check COMMAND…: "ok", or the first error line the command printed on failing (a peer that
# refuses the file), else its last line.
check() {
  "$@" >/dev/null 2>"$work/check.err" && { echo ok; return; }
  { grep -m1 -E 'Error|error' "$work/check.err" || tail -1 "$work/check.err"; } | sed 's/^ *//' | cut -c1-140 | tr '|' '/'
}
# mean FRAGMENT: the mean seconds of the hyperfine command holding FRAGMENT, empty when not timed.
mean() {
  python3 - "$work/times.json" "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    if sys.argv[2] in r["command"]: print("%.4f" % r["mean"]); break
PY
}
# cell SECONDS STATUS N
cell() {
  if [ -n "$1" ]; then awk -v s="$1" -v n="$3" 'BEGIN { printf "%.0f ms (%.0f µs/request)", s * 1000, s * 1e6 / n }'; else echo "$2"; fi
}
times_of() { if [ -n "$1" ] && [ -n "$2" ]; then awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f×", a / b }'; else echo "n/a"; fi; }

rows=""
for n in $SIZES; do
  dir="$work/$n"; mkdir -p "$dir"
  "$BENCH" cassette-write "$dir/c.cassette.json" "$n" >/dev/null || exit 1
  "$BIN" convert "$dir/c.cassette.json" "$dir/c.cassetter.yaml" >/dev/null 2>&1 || exit 1
  "$BIN" convert "$dir/c.cassette.json" "$dir/c.yaml" >/dev/null 2>&1 || exit 1
  python3 -c "
for i in range($n): print(f'get http://bench.local/items/{i}?page={i % 10}&sort=asc')" >"$dir/replay.tape"
  tapedeck_ok=$(check "$BIN" run "$dir/replay.tape" --replay "$dir/c.cassette.json")
  cassetter_ok=$(check "$VENV/bin/python" "$peer" cassetter none "$url" "$n" "$dir/c.cassetter.yaml")
  if [ "$n" -le "$VCR_MAX" ]; then
    vcrpy_ok=$(check "$VENV/bin/python" "$peer" vcrpy none "$url" "$n" "$dir/c.yaml")
  else
    vcrpy_ok="not run above $VCR_MAX interactions (it matches by a linear scan)"
  fi
  commands=()
  [ "$tapedeck_ok" = ok ] && commands+=("$BIN run $dir/replay.tape --replay $dir/c.cassette.json")
  [ "$cassetter_ok" = ok ] && commands+=("$VENV/bin/python $peer cassetter none $url $n $dir/c.cassetter.yaml")
  [ "$vcrpy_ok" = ok ] && commands+=("$VENV/bin/python $peer vcrpy none $url $n $dir/c.yaml")
  echo '{"results": []}' >"$work/times.json"
  [ ${#commands[@]} -gt 0 ] && hyperfine -N -w 1 -r "$RUNS" --export-json "$work/times.json" "${commands[@]}" >/dev/null 2>&1
  t=$(mean "run $dir/"); c=$(mean "$dir/c.cassetter.yaml"); v=$(mean "$dir/c.yaml")
  [ "$cassetter_ok" = ok ] || cassetter_ok="refuses the file: $cassetter_ok"
  [ "$vcrpy_ok" = ok ] || [[ "$vcrpy_ok" == not\ run* ]] || vcrpy_ok="fails: $vcrpy_ok"
  rows+="| $n | $(cell "$t" "$tapedeck_ok" "$n") | $(cell "$c" "$cassetter_ok" "$n") | $(times_of "$c" "$t") | $(cell "$v" "$vcrpy_ok" "$n") | $(times_of "$v" "$t") |"$'\n'
done

cat <<MD
## Whole-process replay beside vcrpy and cassetter

Each tool replays every interaction of a cassette once, as a distinct GET, from the same
interactions in its own format (written by Tapedeck's codecs). Whole process, timed from outside
(hyperfine, mean of $RUNS after a warm-up), the three in the same run. The Python peers go through
\`requests\`; their interpreter start-up and imports are in their time, as a user waits for them.
Measured by \`bash Benchmarks/replay_peers.sh\`.

| interactions = requests | \`tapedeck run --replay\` | cassetter \`use_cassette\` | cassetter / Tapedeck | vcrpy \`use_cassette\` | vcrpy / Tapedeck |
|---|---:|---:|---:|---:|---:|
$rows
MD
