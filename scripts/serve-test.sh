#!/usr/bin/env bash
# Starts bin/site on a free port with a throw-away data folder and prints
# "PORT PID DATADIR". Callers stop it with `kill PID`.
set -euo pipefail
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
data=$(mktemp -d)
PORT=$port BASE_URL="http://127.0.0.1:$port" DATA_DIR="$data" ADMIN_PIN="${ADMIN_PIN:-482915}" \
  ./bin/site >"$data/server.log" 2>&1 &
pid=$!
# Up to the browser tests' ceiling (90 s): on a busy machine the startup
# bundle alone takes several seconds. A server that exits stops the wait.
for _ in $(seq 1 900); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then
    echo "$port $pid $data"; exit 0
  fi
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
cat "$data/server.log" >&2
kill $pid 2>/dev/null || true
exit 1
