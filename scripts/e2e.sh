#!/usr/bin/env bash
# Browser tests: real Chromium (Debian's) driven by playwright-core, with
# node's test runner, against the built server.
#
# Three lines run side by side, each its own server and data, so no file
# sees another's leads, limits or sign-ins:
# - the admin's screens (admin-*, the lock-out and the leads files), one
#   file at a time on one server;
# - the public pages and the rest, one file at a time on another;
# - two files that start sites of their own and mostly wait: the content
#   editing tests (about two minutes on the scheduled-publish job) and the
#   anchor landings (phones slowed 4x).
# Much of a browser test is waiting (a sign-in's deliberate delay, a new
# authenticator step, a job's next run), so the lines overlap well even
# on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-java.sh
read -r port_a pid_a data_a < <(bash scripts/serve-test.sh)
read -r port_b pid_b data_b < <(bash scripts/serve-test.sh)
trap 'kill $pid_a $pid_b 2>/dev/null || true; rm -rf "$data_a" "$data_b"' EXIT
# Let the background warm-ups finish so timings are not skewed.
for _ in $(seq 1 900); do
  grep -q "render cache warm" "$data_a/server.log" && grep -q "render cache warm" "$data_b/server.log" && break
  sleep 0.2
done
side=(tests/e2e/admin-content.test.mjs tests/e2e/anchors.test.mjs)
admin=($(ls tests/e2e/admin-*.test.mjs tests/e2e/lockout.test.mjs tests/e2e/leads*.test.mjs | grep -v -e "${side[0]}"))
public=($(ls tests/e2e/*.test.mjs | grep -v -e "${side[0]}" -e "${side[1]}" $(printf -- ' -e %s' "${admin[@]}")))
logs=$(mktemp -d)
trap 'kill $pid_a $pid_b 2>/dev/null || true; rm -rf "$data_a" "$data_b" "$logs"' EXIT
node --test --test-concurrency=2 "${side[@]}" >"$logs/side.log" 2>&1 &
side_pid=$!
BASE_URL="http://127.0.0.1:$port_b" DATA_DIR="$data_b" node --test --test-concurrency=1 "${admin[@]}" >"$logs/admin.log" 2>&1 &
admin_pid=$!
status=0
BASE_URL="http://127.0.0.1:$port_a" DATA_DIR="$data_a" node --test --test-concurrency=1 "${public[@]}" || status=$?
admin_status=0
wait "$admin_pid" || admin_status=$?
side_status=0
wait "$side_pid" || side_status=$?
echo "--- the admin's screens (run beside: ${#admin[@]} files) ---"
cat "$logs/admin.log"
echo "--- ${side[*]} (run beside the others) ---"
cat "$logs/side.log"
[ "$status" -eq 0 ] && [ "$admin_status" -eq 0 ] && [ "$side_status" -eq 0 ]
