#!/usr/bin/env bash
# make lighthouse: medians of 3 mobile runs per page kind. `--assert --runs=1`
# is what make test uses.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
read -r port pid data < <(bash scripts/serve-test.sh)
trap 'kill $pid 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 1 200); do grep -q "render cache warm" "$data/server.log" && break; sleep 0.2; done
# One service page gets a hero photo through the admin.
hero=$(BASE_URL="http://127.0.0.1:$port" DATA_DIR="$data" node scripts/lighthouse-hero.mjs)
BASE_URL="http://127.0.0.1:$port" HERO_PAGE="$hero" node scripts/lighthouse.mjs "$@"
# A city page with three published jobs and a job page, on a site that
# serves a fixed list of jobs (tests/jobsite; ADR 062).
go build -o bin/jobsite ./tests/jobsite
jport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
jdata=$(mktemp -d)
PORT=$jport BASE_URL="http://127.0.0.1:$jport" DATA_DIR="$jdata" ADMIN_PIN=482915 ./bin/jobsite >"$jdata/server.log" 2>&1 &
jpid=$!
trap 'kill $pid $jpid 2>/dev/null || true; rm -rf "$data" "$jdata"' EXIT
for _ in $(seq 1 900); do grep -q "render cache warm" "$jdata/server.log" && break; kill -0 $jpid 2>/dev/null || { cat "$jdata/server.log" >&2; exit 1; }; sleep 0.2; done
BASE_URL="http://127.0.0.1:$jport" JOBS_SITE=1 node scripts/lighthouse.mjs --pages=city-jobs,job "${@/--pages=*/}"
