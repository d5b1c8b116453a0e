#!/usr/bin/env bash
# tapedeck run --jobs: 200 files of 10 requests each against nginx, --jobs 1, 2 and 4 in the
# same run (best of three, whole process): requests/s and the speed-up over --jobs 1.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
require_built "$BIN"
work="$(mktemp -d)"
mkdir -p "$work/static" "$work/files"
chmod 755 "$work"   # nginx's worker (user nobody) reads the static files below it
echo '{"id": 1, "name": "Ada", "tags": ["a", "b"]}' >"$work/static/item.json"
start_nginx "$work/static"
trap 'kill $NGINX_PID 2>/dev/null; wait $NGINX_PID 2>/dev/null; rm -rf "$work"' EXIT
FILES=200 REQUESTS=10
for i in $(seq -w 1 $FILES); do
  {
    echo "base {{base}}"
    for _ in $(seq 1 $REQUESTS); do echo "get /item.json"; echo "expect 200"; done
  } >"$work/files/f$i.tape"
done
total=$((FILES * REQUESTS))
declare -A ms
for jobs in 1 2 4; do
  ms[$jobs]=$(cd "$work/files" && best_ms "$OLDPWD/$BIN" run --jobs "$jobs" --var "base=http://127.0.0.1:$NGINX_PORT" $(ls))
done
rps() { awk -v n="$total" -v ms="$1" 'BEGIN { printf "%.0f", n / (ms / 1000) }'; }
cat <<MD
## tapedeck run --jobs

$FILES files of $REQUESTS requests each (\`get /item.json\`, \`expect 200\`) against nginx on
loopback, the whole \`tapedeck run\` process timed from outside, best of three, $(nproc) cores.

| --jobs | wall | requests/s | speed-up over --jobs 1 |
|---|---|---|---|
| 1 | ${ms[1]} ms | $(rps "${ms[1]}") | 1.00× |
| 2 | ${ms[2]} ms | $(rps "${ms[2]}") | $(ratio "${ms[1]}" "${ms[2]}") |
| 4 | ${ms[4]} ms | $(rps "${ms[4]}") | $(ratio "${ms[1]}" "${ms[4]}") |

Target: \`--jobs 2\` at least 1.8× the requests/s of \`--jobs 1\`. Hurl publishes no
requests/s figure for \`--test --jobs\` that we could find (its 5.0 announcement says files run
in parallel by default, one thread each); it is not installed here, so it is not in this run.
MD
