#!/usr/bin/env bash
# make bench: Go benchmarks of a cold and a cached home render, then wrk
# against the cached / directly and through Varnish with the deployment's
# configuration (when varnish is installed), next to nginx serving the
# same bytes as a static file (when nginx and wrk are installed), the
# ratios, RSS under load, the warm-up time and the home page's
# JavaScript weight.
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${BENCH_DURATION:-10s}
CONNS=${BENCH_CONNS:-32}

echo "== Go benchmarks (server package)"
go test -run '^$' -bench 'Home' -benchtime 40x -benchmem ./server/ | grep -E '^(Benchmark|ok)'

# Every wrk connection comes from 127.0.0.1: lift the per-IP cap. Pages
# carry s-maxage (CDN_SMAXAGE), as behind Varnish (docs/deploying.md).
read -r port pid data < <(MAX_CONNS_PER_IP=0 CDN_SMAXAGE=5m bash scripts/serve-test.sh)
nginx_pid=""
varnish_pid=""
cleanup() {
  kill $pid 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill $nginx_pid 2>/dev/null || true
  [ -n "$varnish_pid" ] && kill $varnish_pid 2>/dev/null && wait $varnish_pid 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT
# Up to 3 minutes: a busy machine warms slowly, and the figures below
# need every page cached.
for _ in $(seq 1 1800); do grep -q "render cache warm" "$data/server.log" && break; sleep 0.1; done
echo
echo "== Warm-up"
grep "render cache warm" "$data/server.log" | sed 's/^.*msg=/  /'

echo
echo "== Home page JavaScript (gzip)"
curl -s "http://127.0.0.1:$port/" -o "$data/index.html"
# Every script the page can load: the loader the HTML names (started after
# the first paint by the inline boot line, ADR 016), and the chunks it
# imports, statically (fetched with the script) or with import() (fetched
# later, when an island or the vitals need them: ADR 010).
total=0; later=0
declare -A seen=()
queue=$(grep -oE '/assets/[A-Za-z0-9_.-]+\.js' "$data/index.html" | sort -u | sed 's/$/ now/')
while [ -n "$queue" ]; do
  read -r u when <<<"$(head -n1 <<<"$queue")"; queue=$(tail -n +2 <<<"$queue")
  [ -n "${seen[$u]:-}" ] && continue; seen[$u]=1
  body=$(curl -s "http://127.0.0.1:$port$u")
  n=$(curl -s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port$u" | wc -c)
  printf "  %-36s %6d bytes  %s\n" "$u" "$n" "$([ "$when" = now ] && echo "after first paint" || echo "on demand")"
  total=$((total + n)); [ "$when" = later ] && later=$((later + n))
  for c in $(grep -oE 'from"\./c-[A-Za-z0-9_-]+\.js"|import"\./c-[A-Za-z0-9_-]+\.js"' <<<"$body" | grep -oE 'c-[A-Za-z0-9_-]+\.js'); do queue+=$'\n'"/assets/$c $when"; done
  for c in $(grep -oE 'import\("\./c-[A-Za-z0-9_-]+\.js"\)' <<<"$body" | grep -oE 'c-[A-Za-z0-9_-]+\.js'); do queue+=$'\n'"/assets/$c later"; done
  queue=$(sed '/^$/d' <<<"$queue")
done
printf "  total                                %6d bytes (%.1f KB; target <= 60 KB), of which %d on demand\n" $total "$(echo "$total/1024" | bc -l)" $later
html_gz=$(curl -s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/" | wc -c)
echo "  HTML document: $(wc -c < "$data/index.html") bytes, $html_gz gzip"

if ! command -v wrk >/dev/null; then echo; echo "wrk not installed (apt-get install wrk): skipping load test"; exit 0; fi
curl -s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/" -o "$data/index.html.gz"

run_wrk() { # url extra-header...
  wrk -t2 -c"${CONNS}" -d"$DUR" --latency "$@" 2>/dev/null | awk '/Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} END {printf "%s %s %s\n", rps, p50, p99}'
}
echo
echo "== Load: wrk -t2 -c$CONNS -d$DUR on loopback (wrk shares the 2 cores)"
# Sample the server's resident memory while the load runs.
( max=0; while kill -0 $pid 2>/dev/null; do r=$(awk '/VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0); [ "${r:-0}" -gt $max ] && max=$r && echo $max > "$data/rss"; sleep 0.2; done ) &
sampler=$!
read -r e_rps e_p50 e_p99 < <(run_wrk -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/")
kill $sampler 2>/dev/null || true
printf "  %-44s %10s req/s  p50 %-8s p99 %s\n" "echo, cached / (pre-gzipped, $html_gz B)" "$e_rps" "$e_p50" "$e_p99"
printf "  server RSS under load: max %d MB (target <= 160 MB, docs/performance.md); boot peak (esbuild) %d MB\n" $(( $(cat "$data/rss") / 1024 )) $(( $(awk '/VmHWM/ {print $2}' /proc/$pid/status) / 1024 ))

# The same page through Varnish running the deployment's own
# configuration (deploy/varnish/site.vcl, ADR 068) in front of this
# instance: hits come from Varnish's memory.
varnishd=$(command -v varnishd || { [ -x /usr/sbin/varnishd ] && echo /usr/sbin/varnishd; } || true)
if [ -n "$varnishd" ]; then
  vport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  mkdir -p "$data/varnish"
  cat > "$data/varnish/backends.vcl" <<VCL
backend instance_a { .host = "127.0.0.1"; .port = "$port"; .probe = ready; }
sub vcl_init { site.add_backend(instance_a); }
acl purgers { "127.0.0.1"; }
VCL
  "$varnishd" -F -j none -n "$data/varnish/n" -a "127.0.0.1:$vport" -f "$PWD/deploy/varnish/site.vcl" \
    -p vcl_path="$data/varnish" -s malloc,128m -T 127.0.0.1:0 >"$data/varnish/log" 2>&1 &
  varnish_pid=$!
  # Ready once the probe passed and / is stored.
  for _ in $(seq 1 300); do
    [ "$(curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "http://127.0.0.1:$vport/" | tr -d '\r' | awk '/^X-Cache:/ {print $2}')" = HIT ] && break
    sleep 0.1
  done
  read -r v_rps v_p50 v_p99 < <(run_wrk -H 'Accept-Encoding: gzip' "http://127.0.0.1:$vport/")
  printf "  %-44s %10s req/s  p50 %-8s p99 %s\n" "varnish (site.vcl) in front, cached /" "$v_rps" "$v_p50" "$v_p99"
  printf "  ratio varnish/direct: %.2f\n" "$(echo "$v_rps / $e_rps" | bc -l)"
  kill $varnish_pid 2>/dev/null; wait $varnish_pid 2>/dev/null || true; varnish_pid=""
else
  echo "  varnish not installed (bash scripts/ensure-varnish.sh): no figure through the proxy"
fi

# Searches render per query (the one page a client can make the server
# render at will). 200 connections each asking for a new random query run
# beside 8 connections on the cached /, whose latency must not suffer
# (the target: cached p99 under 20 ms). The first line is the same 8
# connections alone, for comparison in the same run.
read -r b_rps b_p50 b_p99 < <(CONNS=8 run_wrk -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/")
wrk -t1 -c200 -d"$DUR" -s scripts/search.lua "http://127.0.0.1:$port/" > "$data/search.out" 2>&1 &
search_wrk=$!
sleep 0.5
read -r c_rps c_p50 c_p99 < <(CONNS=8 run_wrk -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/")
wait $search_wrk || true
s_rps=$(awk '/Requests\/sec/ {print $2}' "$data/search.out")
s_busy=$(awk '/Non-2xx/ {print $5}' "$data/search.out")
s_total=$(awk '/requests in/ {print $1}' "$data/search.out")
s_slow=$(awk '/Socket errors/ {gsub(",", ""); print $NF}' "$data/search.out")
echo
echo "== Cached pages beside a flood of searches (wrk -c8 on /, wrk -c200 on /search?q=<random>)"
printf "  %-44s %10s req/s  p50 %-8s p99 %s\n" "cached /, alone" "$b_rps" "$b_p50" "$b_p99"
printf "  %-44s %10s req/s  p50 %-8s p99 %s (target p99 < 20 ms)\n" "cached /, beside the searches" "$c_rps" "$c_p50" "$c_p99"
printf "  %-44s %10s req/s  (%s of %s answered 503 busy; %s waited past wrk's 2 s timeout)\n" "random searches" "$s_rps" "${s_busy:-0}" "$s_total" "${s_slow:-0}"

if command -v nginx >/dev/null; then
  nport=$((port + 1))
  mkdir -p "$data/www" "$data/nginx"
  cp "$data/index.html.gz" "$data/www/index.html"
  cat > "$data/nginx/nginx.conf" <<CONF
worker_processes 2;
pid $data/nginx/nginx.pid;
error_log $data/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  server {
    listen 127.0.0.1:$nport;
    root $data/www;
    location = / { default_type text/html; add_header Content-Encoding gzip; try_files /index.html =404; }
  }
}
CONF
  nginx -c "$data/nginx/nginx.conf" -g 'daemon off;' &
  nginx_pid=$!
  sleep 0.5
  read -r n_rps n_p50 n_p99 < <(run_wrk -H 'Accept-Encoding: gzip' "http://127.0.0.1:$nport/")
  printf "  %-44s %10s req/s  p50 %-8s p99 %s\n" "nginx, same bytes as a static file" "$n_rps" "$n_p50" "$n_p99"
  printf "  ratio echo/nginx: %.2f (target: >= 0.50)\n" "$(echo "$e_rps / $n_rps" | bc -l)"
  go build -o "$data/rawserve" ./scripts/rawserve
  "$data/rawserve" "127.0.0.1:$((port + 2))" "$data/index.html.gz" & raw_pid=$!
  sleep 0.3
  read -r r_rps r_p50 r_p99 < <(run_wrk "http://127.0.0.1:$((port + 2))/")
  kill $raw_pid 2>/dev/null || true
  curl -s -D "$data/headers" -o /dev/null -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/"
  "$data/rawserve" "127.0.0.1:$((port + 3))" "$data/index.html.gz" "$data/headers" & raw_pid=$!
  sleep 0.3
  read -r h_rps h_p50 h_p99 < <(run_wrk "http://127.0.0.1:$((port + 3))/")
  kill $raw_pid 2>/dev/null || true
  printf "  %-44s %10s req/s  p50 %-8s p99 %s\n" "reference: bare net/http, same bytes" "$r_rps" "$r_p50" "$r_p99"
  printf "  %-44s %10s req/s  p50 %-8s p99 %s\n" "reference: bare net/http, + the site's headers" "$h_rps" "$h_p50" "$h_p99"
  printf "  ratio echo/bare net/http: %.2f; with the same headers: %.2f\n" "$(echo "$e_rps / $r_rps" | bc -l)" "$(echo "$e_rps / $h_rps" | bc -l)"
  printf "  ratio bare net/http/nginx: %.2f; with the site's headers: %.2f\n" "$(echo "$r_rps / $n_rps" | bc -l)" "$(echo "$h_rps / $n_rps" | bc -l)"
else
  echo "  nginx not installed (apt-get install nginx-light): no comparison"
fi
