#!/usr/bin/env bash
# Recording benchmarks: N distinct GETs against a local nginx recorded into a fresh cassette
# by `tapedeck run --record` (whole process: start, requests, journal, final merge), by
# cassetter + requests and by vcrpy + requests (whole Python process), for N from 100 to
# 10,000; then recording in process with no network (cost per interaction and of the merge)
# (replay lookup beside cassetter is Benchmarks/lookup.sh).
# Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
SIZES="${RECORD_BENCH_SIZES:-100 1000 2000 10000}"
# vcrpy checks every recorded interaction before recording the next (quadratic): 2,000 take
# about half a minute, 10,000 would take about a quarter of an hour, so it stops there.
VCR_LIMIT_S="${RECORD_BENCH_VCR_LIMIT_S:-120}"
require_built "$BIN" "$BENCH"

work="$(mktemp -d -t tapedeck-record-bench.XXXXXX)"
printf '{"ok": true}\n' >"$work/item.json"
start_nginx "$work"
port=$NGINX_PORT

# best_s LIMIT COMMAND...: the best wall time of 3 runs in seconds (each run starts from no
# cassette; one run when it takes over 20 s), or "timeout" when a run exceeds LIMIT seconds.
best_s() {
  python3 - "$@" <<'PY'
import glob, os, subprocess, sys, time
limit, command = float(sys.argv[1]), sys.argv[2:]
best = None
for _ in range(3):
    if best is not None and best > 20:
        break
    for leftover in glob.glob(os.environ["CASSETTE"] + "*"):
        os.remove(leftover)
    t = time.perf_counter()
    try:
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=limit)
    except subprocess.TimeoutExpired:
        print("timeout")
        sys.exit(0)
    elapsed = time.perf_counter() - t
    best = elapsed if best is None else min(best, elapsed)
print("%.3f" % best)
PY
}

# The Python recorders: N GETs of /item.json?i=0 … with requests, inside the peer's cassette.
peer=Benchmarks/peer_requests.py

declare -A tapedeck cassetter vcrpy
for n in $SIZES; do
  { echo "base http://127.0.0.1:$port"; for ((i = 0; i < n; i++)); do echo "get /item.json?i=$i"; done; } >"$work/record-$n.tape"
  tapedeck[$n]=$(CASSETTE="$work/t.cassette.json" best_s 600 "$BIN" run --record "$work/t.cassette.json" --mode all "$work/record-$n.tape")
  # The cassette must hold every interaction (and no journal may be left beside it).
  "$BIN" run --record "$work/t.cassette.json" --mode all "$work/record-$n.tape" >/dev/null 2>&1
  held=$(jq '.interactions | length' "$work/t.cassette.json")
  [ "$held" = "$n" ] && [ ! -e "$work/t.cassette.json.journal" ] || { echo "tapedeck recorded $held of $n" >&2; exit 1; }
  cassetter[$n]="n/a"; vcrpy[$n]="n/a"
  if [ -x "$VENV/bin/python" ]; then
    cassetter[$n]=$(CASSETTE="$work/c.yaml" best_s 600 "$VENV/bin/python" "$peer" cassetter all "http://127.0.0.1:$port/item.json?i={i}" "$n" "$work/c.yaml")
    vcrpy[$n]=$(CASSETTE="$work/v.yaml" best_s "$VCR_LIMIT_S" "$VENV/bin/python" "$peer" vcrpy all "http://127.0.0.1:$port/item.json?i={i}" "$n" "$work/v.yaml")
  fi
done

# per_us SECONDS N: microseconds per interaction, whole process.
per_us() { awk -v s="$1" -v n="$2" 'BEGIN { if (s + 0 > 0) printf "%.0f", s * 1e6 / n; else print "n/a" }'; }
# marginal_us S1 N1 S2 N2: microseconds per added interaction between two sizes (start-up cancels out).
marginal_us() { awk -v a="$1" -v m="$2" -v b="$3" -v n="$4" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.0f", (b - a) * 1e6 / (n - m); else print "n/a" }'; }
show() { [ "$1" = "timeout" ] && echo "> ${VCR_LIMIT_S} (stopped)" || echo "$1"; }

inproc=$("$BENCH" cassette-record-scaling) || exit 1

echo "## Recording"
echo
echo "Recording N distinct GETs (\`/item.json?i=N\`, a 13-byte JSON file) from a local nginx into a"
echo "fresh cassette, whole process, best of 3 (one run past 20 s): \`tapedeck run --record C --mode all\` (libcurl,"
echo "journal, one merge at the end) vs cassetter + requests and vcrpy + requests (\`record_mode=\"all\"\`)."
echo
echo "| N | tapedeck (s) | cassetter (s) | vcrpy (s) | tapedeck µs / interaction | cassetter µs / interaction | vcrpy µs / interaction | cassetter / tapedeck |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $SIZES; do
  echo "| $n | ${tapedeck[$n]} | ${cassetter[$n]} | $(show "${vcrpy[$n]}") | $(per_us "${tapedeck[$n]}" "$n") | $(per_us "${cassetter[$n]}" "$n") | $(per_us "${vcrpy[$n]}" "$n") | $(ratio "${cassetter[$n]}" "${tapedeck[$n]}") |"
done
first=${SIZES%% *}; last=${SIZES##* }
echo
echo "Cost of each added interaction from $first to $last (start-up cancels out): tapedeck"
echo "$(marginal_us "${tapedeck[$first]}" "$first" "${tapedeck[$last]}" "$last") µs, cassetter $(marginal_us "${cassetter[$first]}" "$first" "${cassetter[$last]}" "$last") µs."
echo
echo "In process, no network (a stub answers like nginx), \`RecordingTransport\` into a fresh"
echo "cassette: redaction, secret lint and one journal record per interaction, then the merge."
echo
echo "| interactions | 100 | 1,000 | 10,000 |"
echo "|---|---:|---:|---:|"
echo "| µs / recorded interaction | $(field "$inproc" us_per_interaction_100) | $(field "$inproc" us_per_interaction_1000) | $(field "$inproc" us_per_interaction_10000) |"
echo "| final merge (ms) | $(field "$inproc" merge_ms_100) | $(field "$inproc" merge_ms_1000) | $(field "$inproc" merge_ms_10000) |"
