#!/usr/bin/env bash
# Resource limits: peak RSS of the one-shot CLI for a 1 GiB body (piped and --download) next to
# curl in the same run, and for a gzip bomb (1 GiB of zeros, about 1 MiB compressed) from the
# hostile test server. Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
require_built "$BIN"

work="$(mktemp -d -t tapedeck-limits-bench.XXXXXX)"
truncate -s 1G "$work/big.bin"
start_nginx "$work"
url="http://127.0.0.1:$NGINX_PORT/big.bin"

python3 Tests/Support/hostile_server.py >"$work/hostile.ports" 2>/dev/null &
hostile=$!
trap 'kill $hostile 2>/dev/null; kill $NGINX_PID 2>/dev/null; wait 2>/dev/null; rm -rf "'"$work"'"' EXIT
for _ in $(seq 1 50); do [ -s "$work/hostile.ports" ] && break; sleep 0.1; done
read -r hport _ <"$work/hostile.ports"
bomb="http://127.0.0.1:$hport/gzip-bomb?mb=1024"
curl -s -o /dev/null "$bomb"   # the server compresses the bomb once; later requests are served from memory

# measure NAME CMD...: "RSS_MB WALL_S" of one run (stdout to /dev/null).
measure() {
  /usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt"
  echo "$(rss_mb "$work/time.txt") $(wall_s "$work/time.txt")"
}
read -r td_pipe_rss td_pipe_s < <(measure "$BIN" "$url")
read -r td_dl_rss td_dl_s < <(measure "$BIN" "$url" --download "$work/out.bin")
rm -f "$work/out.bin"
read -r curl_rss curl_s < <(measure curl -s -o /dev/null "$url")
printf 'get %s\n' "$url" >"$work/big.tape"
read -r td_rec_rss td_rec_s < <(measure "$BIN" run "$work/big.tape" --record "$work/big.cassette.json" --mode all)
record_message=$("$BIN" run "$work/big.tape" --record "$work/big.cassette.json" --mode all 2>&1 >/dev/null | head -1)
read -r td_bomb_rss td_bomb_s < <(measure "$BIN" "$bomb")
read -r curl_bomb_rss curl_bomb_s < <(measure curl -s --compressed -o /dev/null "$bomb")
bomb_message=$("$BIN" "$bomb" 2>&1 >/dev/null | head -1)

cat <<MD
## Resource limits

Peak RSS (\`/usr/bin/time -v\`) and wall time of one process fetching a 1 GiB body from nginx on
loopback, and a gzip bomb (1 GiB of zeros, about 1 MiB compressed) from
\`Tests/Support/hostile_server.py\`. Tapedeck streams a piped or \`--download\` body; a bomb stops
at \`BodyLimits\` (200× its compressed size past 1 MiB) while curl decodes all of it.

| run | peak RSS (MB) | wall (s) | RSS vs curl |
|---|---|---|---|
| tapedeck URL > /dev/null (1 GiB) | $td_pipe_rss | $td_pipe_s | $(ratio "$td_pipe_rss" "$curl_rss") |
| tapedeck URL --download FILE (1 GiB) | $td_dl_rss | $td_dl_s | $(ratio "$td_dl_rss" "$curl_rss") |
| curl -o /dev/null (1 GiB) | $curl_rss | $curl_s | 1.00× |
| tapedeck run --record (1 GiB, default --max-body-size 100M) | $td_rec_rss | $td_rec_s | $(ratio "$td_rec_rss" "$curl_rss") |
| tapedeck, gzip bomb | $td_bomb_rss | $td_bomb_s | $(ratio "$td_bomb_rss" "$curl_bomb_rss") |
| curl --compressed, gzip bomb | $curl_bomb_rss | $curl_bomb_s | 1.00× |

Recording the 1 GiB body: \`$record_message\`

Tapedeck on the bomb: \`$bomb_message\`
MD
