# Shared helpers for the benchmark scripts (sourced, not run).

# The release binaries and the venv (Benchmarks/run.sh exports them; these are the defaults).
BIN="${TAPEDECK_RELEASE_BIN:-.build/release/tapedeck}"
BENCH="${TAPEDECK_BENCH_BIN:-.build/release/TapedeckBench}"
VENV="${TAPEDECK_VENV:-.venv}"
HTTP="$VENV/bin/http"

# require_built PATH...: stop with the build command when a binary is missing.
require_built() {
  local tool
  for tool in "$@"; do
    [ -x "$tool" ] || { echo "missing $tool (swift build -c release --static-swift-stdlib)" >&2; exit 1; }
  done
}

# A free TCP port on loopback.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# nginx_conf DIR WORKERS HTTP SERVER: an nginx configuration (no daemon, no access log, keep-alive,
# its files in DIR) with WORKERS worker processes, HTTP inside its http block and SERVER after it.
nginx_conf() {
  cat <<CONF
worker_processes $2;
daemon off;
pid $1/nginx.pid;
error_log $1/error.log;
events { worker_connections 256; }
http {
  access_log off;
  keepalive_requests 100000;
  $3
  client_body_temp_path $1; proxy_temp_path $1; fastcgi_temp_path $1; uwsgi_temp_path $1; scgi_temp_path $1;
  $4
}
CONF
}

# start_nginx DIR: serves DIR on a free loopback port with keep-alive and no access log; sets
# NGINX_PORT, stops the server on exit and removes DIR. Exits if nginx does not answer.
start_nginx() {
  local dir="$1"
  command -v nginx >/dev/null || { echo "needs nginx (make bench installs it)" >&2; exit 1; }
  NGINX_PORT=$(free_port)
  # mktemp -d makes DIR 0700; nginx's worker (user nobody) must read the files below it, or
  # every request is a 403.
  chmod 755 "$dir"
  nginx_conf "$dir" 1 "types { application/json json; text/plain txt; }" \
    "server { listen 127.0.0.1:$NGINX_PORT; root $dir; location / { } }" >"$dir/nginx.conf"
  nginx -c "$dir/nginx.conf" -p "$dir" >/dev/null 2>&1 &
  NGINX_PID=$!
  trap 'kill $NGINX_PID 2>/dev/null; wait $NGINX_PID 2>/dev/null; rm -rf "'"$dir"'"' EXIT
  local probe="http://127.0.0.1:$NGINX_PORT/"
  for _ in $(seq 1 50); do curl -s -o /dev/null "$probe" 2>/dev/null && return 0; sleep 0.1; done
  echo "nginx did not start on port $NGINX_PORT" >&2
  exit 1
}

# field JSON KEY: one value of a one-line JSON result.
field() { jq -r ".$2" <<<"$1"; }

# rss_mb FILE / wall_s FILE: peak RSS (MB) and wall time (s) from `/usr/bin/time -v` output.
rss_mb() { awk '/Maximum resident set size/ { printf "%.0f", $NF / 1024 }' "$1"; }
wall_s() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s }' "$1"; }

# Best of 3 wall-clock runs of a whole process (the command and its arguments), in milliseconds.
best_ms() {
  python3 - "$@" <<'PY'
import subprocess, sys, time
best = None
for _ in range(3):
    t = time.perf_counter()
    result = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if result.returncode != 0: sys.exit("exit %d: %s" % (result.returncode, " ".join(sys.argv[1:])))
    elapsed = (time.perf_counter() - t) * 1e3
    best = elapsed if best is None else min(best, elapsed)
print("%.0f" % best)
PY
}
# ratio A B: A / B as "2.50×", or n/a when either is not a positive number.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f×", a / b; else print "n/a" }'; }

# vcr_replay YAML COUNT SAMPLE: vcrpy + requests replaying SAMPLE requests, evenly spread, from a
# cassette of COUNT interactions Tapedeck wrote (GET http://bench.local/items/I?page=I%10&sort=asc,
# never contacted); prints one JSON line. vcrpy matches by a linear scan, hence the sample.
vcr_replay() {
  timeout 600 "$VENV/bin/python" - "$1" "$2" "$3" <<'PY'
import json, logging, sys, time
import requests, vcr
path, n, sample = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
logging.disable(logging.CRITICAL)
indexes = [k * n // sample for k in range(sample)]
t0 = time.perf_counter()
with vcr.use_cassette(path, record_mode="none") as cassette:
    t1 = time.perf_counter()
    session = requests.Session()   # never connects: bench.local is answered from the cassette
    for i in indexes:
        r = session.get(f"http://bench.local/items/{i}?page={i % 10}&sort=asc", headers={"Accept": "application/json"})
        body = r.json()
        assert r.status_code == 200 and (not isinstance(body, dict) or body.get("id", i) == i)
    t2 = time.perf_counter()
per = (t2 - t1) / len(indexes)
print(json.dumps({"load_s": round(t1 - t0, 3), "us_per_request": round(per * 1e6, 2),
                  "end_to_end_us_per_request": round(((t1 - t0) + per * n) * 1e6 / n, 1)}))
PY
}
