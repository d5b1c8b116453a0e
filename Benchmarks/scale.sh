#!/usr/bin/env bash
# Whole-process figures at size, measured from outside as users wait, beside the peer in the
# same run: `serve` start-up against `cassette show` and `cassette lint` on the same file
# (100, 10,000 and 100,000 interactions), load speed and peak RSS against the file's size;
# `serve` on one URL against nginx and `mitmdump --server-replay` at -c16 and -c64; the
# recording proxy against nginx direct (requests/s, memory, time to write the cassette at exit,
# and the count in the cassette against the requests answered); `run --record` against the same
# run unrecorded; `run --replay` of 10,000 requests. Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
SIZES="${SCALE_BENCH_SIZES:-100 10000 100000}"
SECONDS_EACH="${SCALE_BENCH_SECONDS:-4}"
# How long wrk drives the recording proxy for its rate (it records 70,000–140,000 interactions here).
PROXY_SECONDS="${SCALE_BENCH_PROXY_SECONDS:-8}"
# The count at which the cassette written at stop is timed (the target names 77,000).
STOP_AT="${SCALE_BENCH_STOP_AT:-77000}"
require_built "$BIN" "$BENCH"
for tool in wrk nginx hyperfine; do command -v "$tool" >/dev/null || { echo "needs $tool (make bench installs it)" >&2; exit 1; }; done
MITM="$VENV/bin/mitmdump"

work="$(mktemp -d -t tapedeck-scale-bench.XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
export TAPEDECK_USAGE_DIR="$work/usage" TAPEDECK_RECORD_MODE=""

# best_show_lint FILE: "show_s show_rss lint_s", each the fastest of 5 runs under /usr/bin/time -v,
# the two alternated so that a change in the machine's speed falls on both alike.
best_show_lint() {
  local show="" rss="" lint="" i w command
  for i in 1 2 3 4 5; do
    for command in show lint; do
      /usr/bin/time -v "$BIN" cassette "$command" "$1" >/dev/null 2>"$work/time.txt" || { echo "n/a n/a n/a"; return; }
      w=$(wall_s "$work/time.txt")
      if [ "$command" = show ]; then
        if [ -z "$show" ] || awk -v a="$w" -v b="$show" 'BEGIN { exit !(a < b) }'; then show="$w"; rss=$(rss_mb "$work/time.txt"); fi
      elif [ -z "$lint" ] || awk -v a="$w" -v b="$lint" 'BEGIN { exit !(a < b) }'; then
        lint="$w"
      fi
    done
  done
  echo "$show $rss $lint"
}
# hwm_mb PID: the process's peak resident set (VmHWM), in MB.
hwm_mb() { awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2>/dev/null || echo n/a; }
# first_answer FILE: "seconds rss_mb", best of 3, from starting `serve FILE` to its first 200.
first_answer() {
  python3 - "$BIN" "$1" "$(free_port)" <<'PY'
import subprocess, sys, time, urllib.request
binary, cassette, port = sys.argv[1:]
best = None
for _ in range(3):
    start = time.perf_counter()
    server = subprocess.Popen([binary, "serve", cassette, "--repeat", "--port", port], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/items/5?page=5&sort=asc", timeout=5).read()
            break
        except Exception:
            if server.poll() is not None: sys.exit("serve exited")
            time.sleep(0.005)
    elapsed = time.perf_counter() - start
    rss = next(int(line.split()[1]) for line in open(f"/proc/{server.pid}/status") if line.startswith("VmHWM")) / 1024
    server.terminate(); server.wait()
    if best is None or elapsed < best[0]: best = (elapsed, rss)
print("%.2f %.0f" % best)
PY
}
mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# --- 1, 2: start-up and load at size ---------------------------------------------------------
startup_rows=""
for n in $SIZES; do
  file="$work/c$n.cassette.json"
  "$BENCH" cassette-write "$file" "$n" >/dev/null || exit 1
  size=$(mb "$file")
  read -r show_s show_rss lint_s < <(best_show_lint "$file")
  read -r serve_s serve_rss < <(first_answer "$file")
  speed=$(awk -v m="$size" -v s="$show_s" 'BEGIN { if (s > 0) printf "%.0f", m / s; else print "n/a" }')
  last_show="$show_s"; last_lint="$lint_s"; last_serve="$serve_s"; last_rss="$serve_rss"; last_size="$size"; last_speed="$speed"; last_n="$n"
  startup_rows+="| $n | $size | $show_s | $show_rss | $speed | $lint_s | $(ratio "$lint_s" "$show_s") | $serve_s | $(ratio "$serve_s" "$show_s") | $serve_rss | $(ratio "$serve_rss" "$size") |"$'\n'
done

# --- 3: serve on one URL against nginx and mitmdump ---------------------------------------------
"$BENCH" cassette-write "$work/small.cassette.json" 100 >/dev/null || exit 1
"$BENCH" cassette-write "$work/small.har" 100 >/dev/null || exit 1
static="$work/static"; mkdir -p "$static/items"
python3 - "$work/small.cassette.json" "$static/items" <<'PY'
import json, sys
cassette = json.load(open(sys.argv[1]))
for i, interaction in enumerate(cassette["interactions"]):
    body = interaction["response"]["body"]
    text = body["text"] if isinstance(body, dict) and "text" in body else json.dumps(body)
    open(f"{sys.argv[2]}/{i}", "w").write(text)
PY
echo '{"ok": true}' >"$static/item.json"
chmod -R a+rX "$static"
start_nginx "$static"
trap cleanup EXIT
pids+=("$NGINX_PID")
ms() { awk '{ v = $1; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 } printf "%.2f", v }'; }
# cpu_ticks PID: the process's user and system CPU so far, in clock ticks (/proc/PID/stat);
# "n/a n/a" when there is no such process.
cpu_ticks() { { [ -n "$1" ] && awk '{ print $14, $15 }' "/proc/$1/stat" 2>/dev/null; } || echo "n/a n/a"; }
# per_request BEFORE AFTER REQUESTS: CPU microseconds for each request, from two readings of a
# clock-tick count; n/a when either reading or the count is missing.
per_request() {
  awk -v a="$1" -v b="$2" -v n="$3" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { if (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ && b >= a && n + 0 > 0) printf "%.1f", (b - a) * 1e6 / hz / n; else print "n/a" }'
}
# one_url URL C PID: "requests/s p99_ms user_us sys_us" from wrk on one URL with keep-alive;
# the last two are the CPU the server process PID spent on each request, user and system.
one_url() {
  local out u0 s0 u1 s1 n
  read -r u0 s0 < <(cpu_ticks "$3")
  out=$(wrk -t2 -c"$2" -d"${SECONDS_EACH}s" --latency "$1" 2>&1)
  read -r u1 s1 < <(cpu_ticks "$3")
  n=$(awk '/requests in/ { print $1 }' <<<"$out")
  echo "$(awk '/Requests\/sec/ { printf "%.0f", $2 }' <<<"$out") $(awk '$1 == "99%" { print $2 }' <<<"$out" | ms)" \
    "$(per_request "$u0" "$u1" "$n") $(per_request "$s0" "$s1" "$n")"
}
port=$(free_port)
"$BIN" serve "$work/small.cassette.json" --repeat --port "$port" >/dev/null 2>"$work/serve.err" &
serve_pid=$!; pids+=("$serve_pid")
for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$port/items/3?page=3&sort=asc" && break; sleep 0.05; done
mitm_port=$(free_port)
mitm_ok=""
if [ -x "$MITM" ]; then
  "$MITM" -q --mode reverse:http://bench.local/ --listen-host 127.0.0.1 -p "$mitm_port" --server-replay "$work/small.har" \
    --set server_replay_reuse=true --set server_replay_extra=404 --set connection_strategy=lazy >/dev/null 2>&1 &
  mitm_pid=$!; pids+=("$mitm_pid")
  for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$mitm_port/items/3?page=3&sort=asc" && { mitm_ok=1; break; }; sleep 0.05; done
fi
serve_rows=""
cpu_rows=""
# nginx's one worker answers; its master only starts it (no worker found: its CPU is n/a).
nginx_worker=$(pgrep -P "$NGINX_PID" 2>/dev/null | head -1)
for c in 16 64; do
  read -r n_rps n_p99 n_user n_sys < <(one_url "http://127.0.0.1:$NGINX_PORT/items/3" "$c" "$nginx_worker")
  read -r t_rps t_p99 t_user t_sys < <(one_url "http://127.0.0.1:$port/items/3?page=3&sort=asc" "$c" "$serve_pid")
  m_rps="n/a"; m_p99="n/a"
  [ -n "$mitm_ok" ] && read -r m_rps m_p99 _ _ < <(one_url "http://127.0.0.1:$mitm_port/items/3?page=3&sort=asc" "$c" "$mitm_pid")
  eval "rps_$c=$t_rps nginx_$c=$n_rps mitm_$c=${m_rps:-0} p99_$c=$t_p99"
  serve_rows+="| -c$c | $n_rps | $n_p99 | $t_rps | $t_p99 | ${m_rps:-n/a} | ${m_p99:-n/a} | $(ratio "$t_rps" "$n_rps") | $(ratio "$t_rps" "$m_rps") |"$'\n'
  cpu_rows+="| -c$c | $n_user | $n_sys | $t_user | $t_sys |"$'\n'
done
# 100 URLs in turn: each wrk thread asks for the next of the cassette's 100 requests, so a
# connection never sends the request it sent last. Answers given again (AnswerAgain) are kept by
# each event loop for all its connections, so after the first round these are answered from
# the bytes of the head. With "id", each request also carries an X-Request-Id of its own, as
# traced clients send: no two heads are the same, and every answer is looked up.
in_turn_script() {
  local headers="nil"
  [ "${3:-}" = id ] && headers='{["X-Request-Id"] = tostring(counter)}'
  cat >"$work/$1.lua" <<LUA
counter = 0
request = function()
  counter = counter + 1
  local n = counter % 100
  return wrk.format("GET", string.format("$2", n, n % 10), $headers)
end
LUA
}
in_turn_script nginx-turn "/items/%d"
in_turn_script serve-turn "/items/%d?page=%d&sort=asc"
in_turn_script nginx-turn-id "/items/%d" id
in_turn_script serve-turn-id "/items/%d?page=%d&sort=asc" id
# in_turn URL SCRIPT PID: one_url's figures with wrk driven by SCRIPT at -c16.
in_turn() {
  local out u0 s0 u1 s1 n
  read -r u0 s0 < <(cpu_ticks "$3")
  out=$(wrk -t2 -c16 -d"${SECONDS_EACH}s" --latency -s "$work/$2.lua" "$1" 2>&1)
  read -r u1 s1 < <(cpu_ticks "$3")
  n=$(awk '/requests in/ { print $1 }' <<<"$out")
  echo "$(awk '/Requests\/sec/ { printf "%.0f", $2 }' <<<"$out") $(awk '$1 == "99%" { print $2 }' <<<"$out" | ms)" \
    "$(per_request "$u0" "$u1" "$n") $(per_request "$s0" "$s1" "$n")"
}
turn_rows=""
for kind in "" -id; do
  read -r tn_rps tn_p99 tn_user tn_sys < <(in_turn "http://127.0.0.1:$NGINX_PORT" "nginx-turn$kind" "$nginx_worker")
  read -r tt_rps tt_p99 tt_user tt_sys < <(in_turn "http://127.0.0.1:$port" "serve-turn$kind" "$serve_pid")
  label="100 URLs in turn"; [ -n "$kind" ] && label="100 URLs in turn, an X-Request-Id each"
  turn_rows+="| $label | $tn_rps | $tn_p99 | $tn_user | $tn_sys | $tt_rps | $tt_p99 | $tt_user | $tt_sys | $(ratio "$tt_rps" "$tn_rps") |"$'\n'
done
kill "$serve_pid" 2>/dev/null; [ -n "$mitm_ok" ] && kill "$mitm_pid" 2>/dev/null

# --- 4: the recording proxy against nginx direct -------------------------------------------------
cat >"$work/distinct.lua" <<'LUA'
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/item.json?i=" .. counter .. "&t=" .. math.random(1, 1000000000))
end
LUA
wrk_rps() { wrk -t2 -c16 -d"${2:-$SECONDS_EACH}s" -s "$work/distinct.lua" "$1" 2>&1 | tee "$work/wrk.txt" | awk '/Requests\/sec/ { printf "%.0f", $2 }'; }
direct_rps=$(wrk_rps "http://127.0.0.1:$NGINX_PORT")
port=$(free_port)
"$BIN" proxy "http://127.0.0.1:$NGINX_PORT" --record "$work/proxied.cassette.json" --mode all --port "$port" >/dev/null 2>"$work/proxy.err" &
proxy_pid=$!
for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$port/item.json?i=0" && break; sleep 0.05; done
read -r pu0 ps0 < <(cpu_ticks "$proxy_pid")
proxy_rps=$(wrk_rps "http://127.0.0.1:$port" "$PROXY_SECONDS")
read -r pu1 ps1 < <(cpu_ticks "$proxy_pid")
answered=$(( $(awk '/requests in/ { print $1 }' "$work/wrk.txt") + 1 ))
proxy_user=$(per_request "$pu0" "$pu1" "$answered"); proxy_sys=$(per_request "$ps0" "$ps1" "$answered")
proxy_rss=$(hwm_mb "$proxy_pid")
stop_start=$(date +%s%N)
kill -INT "$proxy_pid"; wait "$proxy_pid" 2>/dev/null
stop_s=$(awk -v n="$(( $(date +%s%N) - stop_start ))" 'BEGIN { printf "%.2f", n / 1e9 }')
in_cassette=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["interactions"]))' "$work/proxied.cassette.json" 2>/dev/null || echo n/a)
recorded=$(awk '/recorded/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "recorded") { print $i; exit } }' "$work/proxy.err")

# Beside it, in the same run and on the same URLs: nginx as a plain reverse proxy in front of the
# same nginx (two workers, kept-alive upstream connections, nothing recorded: what a proxy on
# these two cores can reach), and mitmdump recording as a reverse proxy (`-w`, its flow file).
# sum_ticks PIDS...: the summed user and system clock ticks of several processes.
sum_ticks() { local pid u s tu=0 ts=0; for pid in "$@"; do read -r u s < <(cpu_ticks "$pid"); [ "$u" = n/a ] && { echo "n/a n/a"; return; }; tu=$((tu + u)); ts=$((ts + s)); done; echo "$tu $ts"; }
# through PORT PID...: "req/s user_us sys_us" from wrk through the proxy on PORT (distinct URLs,
# $SECONDS_EACH s), the CPU summed over the processes PID...
through() {
  local port=$1 u0 s0 u1 s1 rps n
  shift
  read -r u0 s0 < <(sum_ticks "$@")
  rps=$(wrk_rps "http://127.0.0.1:$port" "$SECONDS_EACH")
  read -r u1 s1 < <(sum_ticks "$@")
  n=$(awk '/requests in/ { print $1 }' "$work/wrk.txt")
  echo "$rps $(per_request "$u0" "$u1" "$n") $(per_request "$s0" "$s1" "$n")"
}
# answering PORT: whether the proxy on PORT answers within 10 s.
answering() {
  for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$1/item.json?i=0" && return 0; sleep 0.05; done
  return 1
}
relay_dir="$work/relay"; mkdir -p "$relay_dir"
relay_port=$(free_port)
nginx_conf "$relay_dir" 2 "upstream direct { server 127.0.0.1:$NGINX_PORT; keepalive 32; }" \
  "server { listen 127.0.0.1:$relay_port; location / { proxy_pass http://direct; proxy_http_version 1.1; proxy_set_header Connection \"\"; } }" \
  >"$relay_dir/nginx.conf"
nginx -c "$relay_dir/nginx.conf" -p "$relay_dir" >/dev/null 2>&1 &
relay_pid=$!; pids+=("$relay_pid")
read -r relay_rps relay_user relay_sys <<<"n/a n/a n/a"
if answering "$relay_port"; then
  sleep 0.2
  # shellcheck disable=SC2046
  read -r relay_rps relay_user relay_sys < <(through "$relay_port" $(pgrep -P "$relay_pid"))
fi
kill "$relay_pid" 2>/dev/null; wait "$relay_pid" 2>/dev/null
read -r mitm_rec_rps mitm_rec_user mitm_rec_sys <<<"n/a n/a n/a"
if [ -x "$MITM" ]; then
  mitm_rec_port=$(free_port)
  "$MITM" -q --mode "reverse:http://127.0.0.1:$NGINX_PORT" --listen-host 127.0.0.1 -p "$mitm_rec_port" -w "$work/mitm.flows" >/dev/null 2>&1 &
  mitm_rec_pid=$!; pids+=("$mitm_rec_pid")
  answering "$mitm_rec_port" && read -r mitm_rec_rps mitm_rec_user mitm_rec_sys < <(through "$mitm_rec_port" "$mitm_rec_pid")
  kill "$mitm_rec_pid" 2>/dev/null; wait "$mitm_rec_pid" 2>/dev/null
fi

# The cassette written at stop, at the count the target names: a fresh proxy, driven until
# wrk's two threads have each had half of $STOP_AT answers (each thread stops itself), then
# stopped and timed. The run above records more or fewer in its fixed time as the speed of
# the proxy and of the machine moves.
cat >"$work/limited.lua" <<'LUA'
counter = 0
answered = 0
limit = tonumber(os.getenv("WRK_LIMIT") or "0")
request = function()
  counter = counter + 1
  return wrk.format("GET", "/item.json?i=" .. counter .. "&t=" .. math.random(1, 1000000000))
end
response = function(status, headers, body)
  answered = answered + 1
  if limit > 0 and answered >= limit then wrk.thread:stop() end
end
LUA
port=$(free_port)
"$BIN" proxy "http://127.0.0.1:$NGINX_PORT" --record "$work/limited.cassette.json" --mode all --port "$port" >/dev/null 2>"$work/limited.err" &
limited_pid=$!
for _ in $(seq 1 200); do curl -sf -o /dev/null "http://127.0.0.1:$port/item.json?i=0" && break; sleep 0.05; done
WRK_LIMIT=$(( STOP_AT / 2 )) wrk -t2 -c16 -d60s -s "$work/limited.lua" "http://127.0.0.1:$port" >/dev/null 2>&1
stop_start=$(date +%s%N)
kill -INT "$limited_pid"; wait "$limited_pid" 2>/dev/null
limited_stop_s=$(awk -v n="$(( $(date +%s%N) - stop_start ))" 'BEGIN { printf "%.2f", n / 1e9 }')
limited_n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["interactions"]))' "$work/limited.cassette.json" 2>/dev/null || echo n/a)

# --- 5: run --record against the same run unrecorded ---------------------------------------------
python3 -c "
for i in range(1000): print(f'get http://127.0.0.1:$NGINX_PORT/item.json?i={i}')" >"$work/thousand.tape"
# Run in turn, live then recorded, 15 times: this machine's speed drifts by more than the
# difference measured, and two blocks of runs one after the other measured the drift.
read -r live_ms rec_ms rec_ratio live_user rec_user < <(python3 Benchmarks/paired_runs.py 15 "$work/rec.cassette.json" \
  -- "$BIN" run "$work/thousand.tape" -- "$BIN" run "$work/thousand.tape" --record "$work/rec.cassette.json" --mode all)

# --- 6: run --replay of 10,000 requests -----------------------------------------------------------
python3 -c "
for i in range(10000): print(f'get http://bench.local/items/{i}?page={i % 10}&sort=asc')" >"$work/replay.tape"
replay_ms=$(best_ms "$BIN" run "$work/replay.tape" --replay "$work/c10000.cassette.json")
per_request=$(awk -v t="$replay_ms" 'BEGIN { printf "%.1f", t * 1000 / 10000 }')

# target NAME VALUE OP LIMIT: "NAME: VALUE (target OP LIMIT): met|missed".
target() {
  local verdict
  verdict=$(awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN { if (v == "" || v == "n/a") { print "not measured"; exit }
    ok = (op == "<=") ? v + 0 <= l + 0 : (op == "<") ? v + 0 < l + 0 : (op == ">=") ? v + 0 >= l + 0 : v + 0 > l + 0
    print ok ? "met" : "missed" }')
  echo "- $1: $2 (target $3 $4): **$verdict**"
}
num() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "n/a" }'; }
targets="$(
  target "serve of $last_n interactions, first answer in s" "$last_serve" "<" 1.5
  target "serve first answer / cassette show" "$(num "$last_serve" "$last_show")" "<=" 1.5
  target "serve peak RSS / file size" "$(num "$last_rss" "$last_size")" "<=" 2
  target "cassette show, MB/s of native JSON" "$last_speed" ">=" 100
  target "cassette lint / cassette show" "$(num "$last_lint" "$last_show")" "<=" 1.5
  target "serve / nginx, one URL, -c16" "$(num "$rps_16" "$nginx_16")" ">=" 1.0
  target "serve / nginx, one URL, -c64" "$(num "$rps_64" "$nginx_64")" ">=" 1.0
  target "serve / mitmdump, one URL, -c16" "$(num "$rps_16" "$mitm_16")" ">=" 50
  target "serve p99 at -c16, ms" "$p99_16" "<" 2
  target "recording proxy / nginx direct, -c16" "$(num "$proxy_rps" "$direct_rps")" ">=" 0.33
  target "cassette written after stop, s ($limited_n interactions)" "$limited_stop_s" "<" 1
  target "run --record / run, 1,000 GETs" "$rec_ratio" "<=" 1.2
  target "run --replay, µs per request" "$per_request" "<" 50
)"

cat <<MD
## Fast at every size: whole process, from outside

Every figure below is a whole process timed from outside, as a user waits, in this same run.

**Start-up and load.** \`cassette show\`, \`cassette lint\` (best of 5 each, run alternately, \`/usr/bin/time\`) and
\`serve\` from its start to its first 200 (best of 3) on the same file; ~500-byte JSON bodies.

| interactions | file MB | show s | show RSS MB | show MB/s | lint s | lint / show | serve first answer s | serve / show | serve RSS MB | serve RSS / file |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$startup_rows
**\`serve\` on one URL** (\`wrk -t2 -d${SECONDS_EACH}s\`, keep-alive; nginx 1 worker serving the same body as a
static file; \`mitmdump --server-replay\` from a HAR of the same interactions). wrk shares the 2 cores.

| connections | nginx req/s | nginx p99 ms | tapedeck serve req/s | serve p99 ms | mitmdump req/s | mitmdump p99 ms | serve / nginx | serve / mitmdump |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
$serve_rows
The CPU each server process spent on a request in those runs (\`/proc/PID/stat\`, µs). wrk takes
the rest of the two cores, so a server matches nginx's rate only by spending no more than it does
on each request, the kernel's share (one read and one write) included.

| connections | nginx user µs | nginx system µs | serve user µs | serve system µs |
|---|---:|---:|---:|---:|
$cpu_rows
**\`serve\` on 100 URLs** (\`wrk -t2 -c16\`, a script asking for each of the cassette's 100
requests in turn, nginx serving the same 100 files). No connection sends the request it sent
last. An answer the cassette would give again unchanged (\`--repeat\`, its last recorded match
played) is kept by each event loop with the bytes of the head that asked, for all its
connections, so from the second round on these are answered without a lookup. In the second row
each request also carries an \`X-Request-Id\` of its own, as traced clients send: no head is
sent twice, and every answer is looked up.

| requests | nginx req/s | nginx p99 ms | nginx user µs | nginx system µs | serve req/s | serve p99 ms | serve user µs | serve system µs | serve / nginx |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
$turn_rows
**The recording proxy.** \`wrk -t2 -c16\` (${SECONDS_EACH} s direct, ${PROXY_SECONDS} s through the proxy), every request a distinct URL, to nginx directly
and through \`tapedeck proxy --record --mode all\` (redaction, lint, one journal record each).

| nginx direct req/s | through the proxy req/s | proxy / nginx | proxy peak RSS MB | interactions | stop to cassette written s | answered (wrk, + the probe) | in the cassette | summary says recorded |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| $direct_rps | $proxy_rps | $(ratio "$proxy_rps" "$direct_rps") | $proxy_rss | $in_cassette | $stop_s | $answered | $in_cassette | ${recorded:-n/a} |

The proxy spent $proxy_user µs of user and $proxy_sys µs of system CPU on each request.

Beside it in the same run, on the same URLs (${SECONDS_EACH} s each):

| through | req/s | / nginx direct | user µs a request | system µs a request | records |
|---|---:|---:|---:|---:|---|
| \`tapedeck proxy --record\` | $proxy_rps | $(ratio "$proxy_rps" "$direct_rps") | $proxy_user | $proxy_sys | a cassette, redacted and linted, journaled |
| \`mitmdump --mode reverse -w\` | $mitm_rec_rps | $(ratio "$mitm_rec_rps" "$direct_rps") | $mitm_rec_user | $mitm_rec_sys | its flow file |
| nginx \`proxy_pass\`, 2 workers | $relay_rps | $(ratio "$relay_rps" "$direct_rps") | $relay_user | $relay_sys | nothing (a plain relay: the most any proxy reaches on these cores) |

tapedeck / mitmdump: **$(ratio "$proxy_rps" "$mitm_rec_rps")**.
(wrk counts the requests completed inside its window; a request in flight when it stops is
answered and recorded after, so the cassette may hold a few more.) The cassette written at
stop is also timed at the count the target names: a second proxy, stopped once wrk had
$STOP_AT answers, wrote its $limited_n interactions in **$limited_stop_s s**.

**Recording close to free.** \`tapedeck run\` of 1,000 GETs against nginx, with and without
\`--record C --mode all\`, run in turn 15 times (\`paired_runs.py\`): $live_ms ms live, $rec_ms ms recorded
(medians); **${rec_ratio}×** the median of each round's recorded / live (user CPU $live_user ms against $rec_user ms).

**Whole-process replay.** \`tapedeck run --replay\` of 10,000 distinct requests from a
10,000-interaction cassette (best of 3, loading included): $replay_ms ms, **$per_request µs per request**.
vcrpy and cassetter replaying the same interactions, whole process and in one run, are in
"Whole-process replay beside vcrpy and cassetter" below.

Targets, checked in this run:

$targets
MD
