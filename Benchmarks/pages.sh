#!/usr/bin/env bash
# The browser pages at size: the cassette viewer of a 10,000-interaction cassette and the HTML
# report of a run of 10,000 requests, timed until usable in headless Chromium (Selenium), with
# the size of each page.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
require_built "$BIN"
[ -x /usr/bin/chromedriver ] || { echo "needs chromium-driver (make test installs it)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'kill $VIEW_PID 2>/dev/null; rm -rf "$work"' EXIT
N=10000
python3 - "$work/big.cassette.json" "$N" <<'PY'
import json, sys
path, n = sys.argv[1], int(sys.argv[2])
interactions = []
for i in range(n):
    body = {"id": i, "name": "user %d" % i, "tags": ["a", "b"], "active": i % 2 == 0}
    interactions.append({
        "recordedAt": "2026-11-24T00:00:00.000Z", "duration": 0.001,
        "request": {"method": "GET", "url": "http://api.test/users/%d" % i, "headers": [["Accept", "application/json"]]},
        "response": {"status": 200 if i % 50 else 404, "headers": [["Content-Type", "application/json"]], "body": {"json": body}},
    })
json.dump({"interactions": interactions, "version": 1}, open(path, "w"))
PY
"$BIN" cassette view "$work/big.cassette.json" --port 0 --port-file "$work/port" >"$work/view.out" 2>&1 &
VIEW_PID=$!
for _ in $(seq 1 100); do [ -s "$work/view.out" ] && break; sleep 0.1; done
view_url="$(grep -o 'http://[^ ]*/' "$work/view.out")"
view_bytes=$(curl -s "$view_url" | wc -c)
view_ms=$("$VENV/bin/python" Benchmarks/page_ready.py "$view_url" "#rows .tr" "$N")
kill $VIEW_PID 2>/dev/null

# A run of 10 files of 1,000 requests each, replayed from the same cassette, reported.
mkdir -p "$work/files"
for f in $(seq 0 9); do
  { echo "base http://api.test"; for i in $(seq $((f * 1000)) $((f * 1000 + 999))); do echo "get /users/$i"; done; } >"$work/files/f$f.tape"
done
report_run_ms=$(cd "$work/files" && best_ms "$OLDPWD/$BIN" run --replay ../big.cassette.json --report-html ../report --report-json ../report.json $(ls))
report_bytes=$(du -cb "$work/report"/*.html | tail -1 | cut -f1)
page_bytes=$(wc -c <"$work/report/file-1.html")
report_ms=$("$VENV/bin/python" Benchmarks/page_ready.py "file://$work/report/file-1.html" "details.exchange" 1000)
index_ms=$("$VENV/bin/python" Benchmarks/page_ready.py "file://$work/report/index.html" "tbody tr" 10)
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1048576 }'; }
cat <<MD
## Browser pages at size

Timed from asking headless Chromium (Selenium, Debian's chromium-driver) for the page to the
moment all its rows are in the document, best of three loads.

| page | size | until usable (target < 2 s) |
|---|---|---|
| \`cassette view\` of $N interactions | $(mb "$view_bytes") | $view_ms ms |
| HTML report index (10 files) | $(wc -c <"$work/report/index.html") B | $index_ms ms |
| HTML report page of one file (1,000 requests, headers and bodies) | $(mb "$page_bytes") | $report_ms ms |

The run that wrote the report ($N requests replayed, HTML and JSON reports): $report_run_ms ms,
whole process; the HTML report is $(mb "$report_bytes") in all.
MD
