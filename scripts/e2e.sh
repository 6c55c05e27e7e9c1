#!/usr/bin/env bash
# Browser tests: real Chromium (Debian's) driven by playwright-core, with
# node's test runner, against the built server.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-java.sh
read -r port pid data < <(bash scripts/serve-test.sh)
trap 'kill $pid 2>/dev/null || true; rm -rf "$data"' EXIT
# Let the background warm-up finish so timings are not skewed.
for _ in $(seq 1 100); do grep -q "render cache warm" "$data/server.log" && break; sleep 0.2; done
# Two files run sites of their own, beside the others (which share this
# server one file at a time), because they mostly wait: the content
# editing tests spend about two minutes on the scheduled-publish job, the
# anchor landings on phones slowed 4x.
side=(tests/e2e/admin-content.test.mjs tests/e2e/anchors.test.mjs)
node --test --test-concurrency=2 "${side[@]}" >"$data/side.log" 2>&1 &
side_pid=$!
status=0
BASE_URL="http://127.0.0.1:$port" DATA_DIR="$data" node --test --test-concurrency=1 \
  $(ls tests/e2e/*.test.mjs | grep -v -e "${side[0]}" -e "${side[1]}") || status=$?
side_status=0
wait "$side_pid" || side_status=$?
echo "--- ${side[*]} (run beside the others) ---"
cat "$data/side.log"
[ "$status" -eq 0 ] && [ "$side_status" -eq 0 ]
