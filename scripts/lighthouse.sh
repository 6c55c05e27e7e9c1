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
