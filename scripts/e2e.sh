#!/usr/bin/env bash
# Browser tests: real Chromium (Debian's) driven by playwright-core, with
# node's test runner, against the built server.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
read -r port pid data < <(bash scripts/serve-test.sh)
trap 'kill $pid 2>/dev/null || true; rm -rf "$data"' EXIT
# Let the background warm-up finish so timings are not skewed.
for _ in $(seq 1 100); do grep -q "render cache warm" "$data/server.log" && break; sleep 0.2; done
BASE_URL="http://127.0.0.1:$port" DATA_DIR="$data" node --test --test-concurrency=1 tests/e2e/
