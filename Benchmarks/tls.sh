#!/usr/bin/env bash
# HTTPS benchmarks: an nginx HTTPS upstream with a throwaway CA; `tapedeck proxy --intercept`
# beside `mitmdump` (regular mode, its own CA) in front of it, driven by curl from outside:
# keep-alive requests/s (one tunnel, and 16 at once), the latency interception adds (p50/p99
# per request against curl straight to nginx), new TLS connections per second, and the time
# a new host's certificate costs (the first tunnel to a host against a repeat one).
# Prints one Markdown section.
set -uo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
REQUESTS="${TLS_BENCH_REQUESTS:-2000}"
CONNECTS="${TLS_BENCH_CONNECTS:-300}"
HOSTS="${TLS_BENCH_HOSTS:-100}"
HEY_SECONDS="${TLS_BENCH_SECONDS:-4}"
require_built "$BIN"
for tool in nginx openssl curl hey; do command -v "$tool" >/dev/null || { echo "needs $tool (make bench installs it)" >&2; exit 1; }; done
MITM="$VENV/bin/mitmdump"

work="$(mktemp -d -t tapedeck-tls-bench.XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  # A mitmdump started inside a measurement's subshell (mitm below) leaves its pid here.
  [ -f "$work/mitm.pid" ] && kill "$(cat "$work/mitm.pid")" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
export TAPEDECK_USAGE_DIR="$work/usage" TAPEDECK_RECORD_MODE="" TAPEDECK_CA_DIR="$work/ca"

# --- The upstream: nginx over TLS, with a CA of its own -------------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/upca.key" -out "$work/upca.pem" -days 2 \
  -subj "/CN=Bench upstream CA" -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/up.key" -out "$work/up.csr" -subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$work/up.ext"
openssl x509 -req -in "$work/up.csr" -CA "$work/upca.pem" -CAkey "$work/upca.key" -CAcreateserial -out "$work/up.pem" -days 2 \
  -extfile "$work/up.ext" 2>/dev/null
mkdir -p "$work/www/items" && for i in $(seq 0 99); do printf '{"id": %d, "name": "item %d"}' "$i" "$i" >"$work/www/items/$i"; done
chmod -R a+rX "$work/www"; chmod a+r "$work/up.key"
NGINX_PORT=$(free_port)
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 100000;
  client_body_temp_path $work; proxy_temp_path $work; fastcgi_temp_path $work; uwsgi_temp_path $work; scgi_temp_path $work;
  server { listen 127.0.0.1:$NGINX_PORT ssl; ssl_certificate $work/up.pem; ssl_certificate_key $work/up.key; root $work/www; location / { } }
}
CONF
nginx -c "$work/nginx.conf" -p "$work" >/dev/null 2>&1 &
pids+=($!)
UP="https://localhost:$NGINX_PORT"
for _ in $(seq 1 50); do curl -s -o /dev/null --cacert "$work/upca.pem" "$UP/items/1" && break; sleep 0.1; done

now_ns() { date +%s%N; }
# verdict TAPEDECK MITMDUMP: "N× (target >= 20): **met**" or missed; not measured when either is missing.
verdict() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f× (target >= 20): **%s**", a / b, (a / b >= 20 ? "met" : "missed"); else print "not measured" }'
}
# best RATE...: the highest of the rates that are numbers; n/a when none is.
best() { printf '%s\n' "$@" | awk '$1 ~ /^[0-9]+$/ && $1 + 0 > b { b = $1 + 0 } END { if (b > 0) print b; else print "n/a" }'; }
per_s() { awk -v n="$1" -v ns="$2" 'BEGIN { if (ns > 0) printf "%.0f", n / (ns / 1e9); else print "n/a" }'; }

# keepalive PROXY CA PARALLEL: requests/s of $REQUESTS GETs from one curl process through
# PROXY (empty: straight to nginx), over 1 or PARALLEL kept-alive connections.
keepalive() {
  local proxy=(); [ -n "$1" ] && proxy=(-x "$1")
  local parallel=(); [ "$3" -gt 1 ] && parallel=(--parallel --parallel-max "$3")
  local start; start=$(now_ns)
  curl -s "${proxy[@]}" "${parallel[@]}" --cacert "$2" "$UP/items/[0-$((REQUESTS - 1))]" >/dev/null 2>&1
  per_s "$REQUESTS" "$(( $(now_ns) - start ))"
}

# latency PROXY CA: "p50_ms p99_ms" of each of 500 sequential kept-alive requests (curl's time_total).
latency() {
  local proxy=(); [ -n "$1" ] && proxy=(-x "$1")
  curl -s "${proxy[@]}" --cacert "$2" "$UP/items/[0-499]" -w '\n%{time_total}\n' 2>/dev/null | grep -E '^[0-9.]+$' \
    | sort -n | awk '{ v[NR] = $1 * 1000 } END { if (NR == 0) print "n/a n/a"; else printf "%.2f %.2f", v[int(NR * 0.5)], v[int(NR * 0.99)] }'
}

# connects PROXY CA: new TLS connections per second, each request on a tunnel of its own, 8 at once.
connects() {
  local proxy=(); [ -n "$1" ] && proxy=(-x "$1")
  local start; start=$(now_ns)
  curl -s "${proxy[@]}" --parallel --parallel-max 8 -H 'Connection: close' --cacert "$2" "$UP/items/[0-$((CONNECTS - 1))]" >/dev/null 2>&1
  per_s "$CONNECTS" "$(( $(now_ns) - start ))"
}

# loaded PROXY CONNECTIONS: requests/s from hey over CONNECTIONS kept-alive connections (tunnels)
# for $HEY_SECONDS, one URL: a client lighter than curl, so that the proxy, not the client, is
# what is measured. hey does not check certificates; the proxy mints and serves its leaf as
# for any client.
loaded() {
  local proxy=(); [ -n "$1" ] && proxy=(-x "$1")
  hey -z "${HEY_SECONDS}s" -c "$2" "${proxy[@]}" "$UP/items/1" 2>/dev/null | awk '/Requests\/sec/ { printf "%.0f", $2 }'
}

measure() {  # PROXY CA → "rps1 rps16 p50 p99 conn/s hey16 hey64 hey128"
  local r1 r16 p50 p99 c h16 h64 h128
  r1=$(keepalive "$1" "$2" 1); r16=$(keepalive "$1" "$2" 16)
  read -r p50 p99 < <(latency "$1" "$2"); c=$(connects "$1" "$2")
  h16=$(loaded "$1" 16); h64=$(loaded "$1" 64); h128=$(loaded "$1" 128)
  echo "$r1 $r16 $p50 $p99 $c ${h16:-n/a} ${h64:-n/a} ${h128:-n/a}"
}

read -r d_r1 d_r16 d_p50 d_p99 d_c d_h16 d_h64 d_h128 < <(measure "" "$work/upca.pem")

port=$(free_port)
"$BIN" proxy --intercept --record "$work/rec.cassette.json" --mode all --upstream-ca "$work/upca.pem" --port "$port" >/dev/null 2>"$work/proxy.err" &
pids+=($!)
for _ in $(seq 1 100); do [ -f "$work/ca/tapedeck-ca.pem" ] && curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
read -r t_r1 t_r16 t_p50 t_p99 t_c t_h16 t_h64 t_h128 < <(measure "http://127.0.0.1:$port" "$work/ca/tapedeck-ca.pem")
recorded_ok=$(grep -c 'rejected\|error' "$work/proxy.err")

# mitm [ARGS...]: measure (as above) through a mitmdump started with ARGS, stopped after.
mitm() {
  local mport pid; mport=$(free_port)
  "$MITM" -q --listen-host 127.0.0.1 -p "$mport" --set confdir="$work/mitm" --set ssl_verify_upstream_trusted_ca="$work/upca.pem" "$@" >/dev/null 2>&1 &
  pid=$!
  echo "$pid" >"$work/mitm.pid"
  for _ in $(seq 1 100); do [ -f "$work/mitm/mitmproxy-ca-cert.pem" ] && curl -s -o /dev/null -x "http://127.0.0.1:$mport" --cacert "$work/mitm/mitmproxy-ca-cert.pem" "$UP/items/1" && break; sleep 0.1; done
  measure "http://127.0.0.1:$mport" "$work/mitm/mitmproxy-ca-cert.pem"
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  rm -f "$work/mitm.pid"
}
m_r1=n/a; m_r16=n/a; m_p50=n/a; m_p99=n/a; m_c=n/a; m_h16=n/a; m_h64=n/a; m_h128=n/a
w_r1=n/a; w_r16=n/a; w_p50=n/a; w_p99=n/a; w_c=n/a; w_h16=n/a; w_h64=n/a; w_h128=n/a
if [ -x "$MITM" ]; then
  read -r m_r1 m_r16 m_p50 m_p99 m_c m_h16 m_h64 m_h128 < <(mitm)
  # Saving every flow (-w), as Tapedeck records every exchange.
  read -r w_r1 w_r16 w_p50 w_p99 w_c w_h16 w_h64 w_h128 < <(mitm -w "$work/flows.mitm")
fi

# --- A new host's certificate: serve --intercept answers any host (unmatched, 404) ---------
printf '{"interactions": [], "version": 1}' >"$work/empty.cassette.json"
sport=$(free_port)
"$BIN" serve "$work/empty.cassette.json" --intercept --port "$sport" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$sport/" && break; sleep 0.1; done
median() { sort -g | awk '{ v[NR] = $1 * 1000 } END { if (NR == 0) print "n/a"; else printf "%.2f", v[int((NR + 1) / 2)] }'; }
# Each new host is paired with a request to a host already minted, made right after it, so
# that a change in the machine's speed falls on both; the cost of minting is the median of the
# pairs' differences (the medians of the two sides alone are reported too).
appconnect() { curl -s -o /dev/null -x "http://127.0.0.1:$sport" --cacert "$work/ca/tapedeck-ca.pem" -w '%{time_appconnect}\n' "$1"; }
appconnect "https://host0.bench.test/" >/dev/null
: >"$work/pairs.txt"
for i in $(seq 1 "$HOSTS"); do
  echo "$(appconnect "https://host$i.bench.test/") $(appconnect "https://host0.bench.test/")" >>"$work/pairs.txt"
done
new_hosts=$(awk '{ print $1 }' "$work/pairs.txt" | median)
same_host=$(awk '{ print $2 }' "$work/pairs.txt" | median)
mint=$(awk '{ print $1 - $2 }' "$work/pairs.txt" | median)

cat <<MD
## HTTPS: interception (\`proxy --intercept\`) against mitmproxy

An nginx HTTPS upstream with a throwaway CA; \`tapedeck proxy --intercept --mode all\`
(recording every exchange) and \`mitmdump\` (regular mode, its own CA) in front of it, once as it
is and once saving every flow to a file (\`-w\`), as Tapedeck records every exchange. Every
figure is measured from outside with curl, in this same run: $REQUESTS GETs from one curl
process over one kept-alive tunnel, and over 16 at once (\`--parallel\`); latency of each of
500 kept-alive requests (curl's \`time_total\`); $CONNECTS requests each on a new tunnel and TLS
connection, 8 at once. The last three rows are from hey (\`hey -z ${HEY_SECONDS}s -c 16\`, \`-c 64\`
and \`-c 128\`, one URL), a client lighter than curl, so that it measures the proxy rather than
the client; hey does not check certificates. hey shares the two cores with the proxy and nginx,
so at \`-c 16\` its own work is a third of the CPU of each request; more connections at once let
each wake-up of the proxy carry more requests. mitmdump answers on one thread at every count.

| measure | nginx direct | Tapedeck \`--intercept\` | mitmdump | mitmdump \`-w\` | Tapedeck / mitmdump | Tapedeck / mitmdump \`-w\` |
|---|---|---|---|---|---|---|
| requests/s, 1 tunnel, keep-alive | $d_r1 | $t_r1 | $m_r1 | $w_r1 | $(ratio "$t_r1" "$m_r1") | $(ratio "$t_r1" "$w_r1") |
| requests/s, 16 tunnels, keep-alive | $d_r16 | $t_r16 | $m_r16 | $w_r16 | $(ratio "$t_r16" "$m_r16") | $(ratio "$t_r16" "$w_r16") |
| latency p50 (ms) | $d_p50 | $t_p50 | $m_p50 | $w_p50 | | |
| latency p99 (ms) | $d_p99 | $t_p99 | $m_p99 | $w_p99 | | |
| new TLS connections/s (8 at once) | $d_c | $t_c | $m_c | $w_c | $(ratio "$t_c" "$m_c") | $(ratio "$t_c" "$w_c") |
| requests/s, 16 tunnels, keep-alive (hey) | $d_h16 | $t_h16 | $m_h16 | $w_h16 | $(ratio "$t_h16" "$m_h16") | $(ratio "$t_h16" "$w_h16") |
| requests/s, 64 tunnels, keep-alive (hey) | $d_h64 | $t_h64 | $m_h64 | $w_h64 | $(ratio "$t_h64" "$m_h64") | $(ratio "$t_h64" "$w_h64") |
| requests/s, 128 tunnels, keep-alive (hey) | $d_h128 | $t_h128 | $m_h128 | $w_h128 | $(ratio "$t_h128" "$m_h128") | $(ratio "$t_h128" "$w_h128") |

- Each proxy's most requests/s through hey, at whichever count gave it: Tapedeck $(best "$t_h16" "$t_h64" "$t_h128"),
  mitmdump $(best "$m_h16" "$m_h64" "$m_h128"): **$(ratio "$(best "$t_h16" "$t_h64" "$t_h128")" "$(best "$m_h16" "$m_h64" "$m_h128")")**
  ($(ratio "$(best "$t_h16" "$t_h64" "$t_h128")" "$(best "$w_h16" "$w_h64" "$w_h128")") against mitmdump \`-w\`'s $(best "$w_h16" "$w_h64" "$w_h128")).
- Latency interception adds at p50: $(awk -v a="$t_p50" -v b="$d_p50" 'BEGIN { if (a + 0 > 0) printf "%.2f", a - b; else print "n/a" }') ms
  (Tapedeck), $(awk -v a="$m_p50" -v b="$d_p50" 'BEGIN { if (a + 0 > 0) printf "%.2f", a - b; else print "n/a" }') ms (mitmdump).
- A new host's certificate: the TLS handshake through \`serve --intercept\` to $HOSTS new
  hosts took $new_hosts ms at the median (curl's \`time_appconnect\`, CONNECT included), and
  $same_host ms to a host already minted, each asked right after a new one: a new host costs
  **$mint ms more** at the median of the pairs (minting its leaf: one ECDSA P-256 signature;
  leaves share one key).
- Log lines with errors or rejections during the Tapedeck run: $recorded_ok.
- Target (issue 16), Tapedeck / mitmdump through hey at 64 connections: $(verdict "$t_h64" "$m_h64")
  (at 16: $(ratio "$t_h16" "$m_h16"); each at its best: $(ratio "$(best "$t_h16" "$t_h64" "$t_h128")" "$(best "$m_h16" "$m_h64" "$m_h128")")).
MD
