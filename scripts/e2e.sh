#!/usr/bin/env bash
# Browser tests: real Chromium (Debian's) driven by playwright-core, with
# node's test runner, against the built server.
#
# Five lines run side by side, each its own server and data, so no file
# sees another's leads, limits or sign-ins (ADR 053):
# - the admin's screens (admin-*, the lock-out and the leads files), in
#   two lines of about equal length, one file at a time on each server;
# - the web's checkers (the Nu Html Checker over every page, axe over
#   every kind of page and screen: about 270 s) on a server of their own;
# - the public pages and the rest, one file at a time on another;
# - the files that start sites of their own, two at a time: the content
#   editing tests (they mostly wait, about two minutes, on the
#   scheduled-publish job), the anchor landings (one phone slowed 4x at
#   a time: Chromium's CPU throttling spins, so a slowed page keeps most
#   of a core busy), then the others (the junk beacons, the rename, the
#   phone estimate, speed to lead, notification errors). In the public
#   line they made it the longest by far (733 s against 513-537).
# Much of a browser test is waiting (a sign-in's deliberate delay, a new
# authenticator step, a job's next run), so the lines overlap well even
# on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-java.sh
read -r port_a pid_a data_a < <(bash scripts/serve-test.sh)
read -r port_b pid_b data_b < <(bash scripts/serve-test.sh)
read -r port_c pid_c data_c < <(bash scripts/serve-test.sh)
read -r port_d pid_d data_d < <(bash scripts/serve-test.sh)
logs=$(mktemp -d)
trap 'kill $pid_a $pid_b $pid_c $pid_d 2>/dev/null || true; rm -rf "$data_a" "$data_b" "$data_c" "$data_d" "$logs"' EXIT
# Let the background warm-ups finish so timings are not skewed.
for _ in $(seq 1 900); do
  grep -q "render cache warm" "$data_a/server.log" && grep -q "render cache warm" "$data_b/server.log" && grep -q "render cache warm" "$data_c/server.log" && grep -q "render cache warm" "$data_d/server.log" && break
  sleep 0.2
done
e=tests/e2e
export E2E_CPU_LOG="$logs/cpu"
# The files that start sites of their own, two at a time, the longest
# first (each file's wall time is in the table printed at the end).
side=($e/admin-content.test.mjs $e/anchors.test.mjs $e/analytics-junk.test.mjs $e/content-rename.test.mjs $e/estimate-phone.test.mjs $e/speed-to-lead.test.mjs $e/notify-errors.test.mjs $e/jobs-public.test.mjs $e/homeowner-page.test.mjs)
checkers=($e/checkers.test.mjs)
# The admin's files, split by how long each took (the longest first in
# each line; a file added later lands in the second line).
admin1=($e/admin.test.mjs $e/admin-signin.test.mjs $e/admin-backups.test.mjs $e/admin-insights.test.mjs $e/admin-indexnow.test.mjs $e/admin-words.test.mjs $e/leads.test.mjs)
admin2=($(ls $e/admin-*.test.mjs $e/lockout.test.mjs $e/leads*.test.mjs $e/booking.test.mjs | grep -v $(printf -- ' -e %s' "${side[0]}" "${admin1[@]}")))
public=($(ls $e/*.test.mjs | grep -v $(printf -- ' -e %s' "${side[@]}" "${checkers[@]}" "${admin1[@]}" "${admin2[@]}")))
node --test --test-concurrency=2 "${side[@]}" >"$logs/side.log" 2>&1 &
side_pid=$!
BASE_URL="http://127.0.0.1:$port_b" DATA_DIR="$data_b" node --test --test-concurrency=1 "${admin1[@]}" >"$logs/admin1.log" 2>&1 &
admin1_pid=$!
BASE_URL="http://127.0.0.1:$port_c" DATA_DIR="$data_c" node --test --test-concurrency=1 "${admin2[@]}" >"$logs/admin2.log" 2>&1 &
admin2_pid=$!
BASE_URL="http://127.0.0.1:$port_d" DATA_DIR="$data_d" node --test --test-concurrency=1 "${checkers[@]}" >"$logs/checkers.log" 2>&1 &
checkers_pid=$!
status=0
BASE_URL="http://127.0.0.1:$port_a" DATA_DIR="$data_a" node --test --test-concurrency=1 "${public[@]}" || status=$?
s1=0; wait "$admin1_pid" || s1=$?
s2=0; wait "$admin2_pid" || s2=$?
s3=0; wait "$side_pid" || s3=$?
s4=0; wait "$checkers_pid" || s4=$?
# What the CPU went on: each file (its own sites, checkers, Chromium's
# processes; see lib.mjs) and each shared server.
echo "--- CPU seconds per test file (the file's own process and what it reaped; then Chromium's processes), most first ---"
sort -rn "$logs/cpu" 2>/dev/null | head -60 || true
awk '{own += $1; chromium += $5; contexts += $8; loads += $10} END {printf "all files: %d CPU-s of their own, %d in Chromium, %d browser contexts, %d page loads\n", own, chromium, contexts, loads}' "$logs/cpu" 2>/dev/null || true
for p in $pid_a $pid_b $pid_c $pid_d; do awk -v p=$p '{printf "shared test server %s: %.0f\n", p, ($14+$15)/100}' /proc/$p/stat 2>/dev/null || true; done
echo "--- the admin's screens, first line (run beside: ${admin1[*]}) ---"
cat "$logs/admin1.log"
echo "--- the admin's screens, second line (run beside: ${admin2[*]}) ---"
cat "$logs/admin2.log"
echo "--- ${side[*]} (run beside the others) ---"
cat "$logs/side.log"
echo "--- the checkers (run beside the others: ${checkers[*]}) ---"
cat "$logs/checkers.log"
ok=0; [ "$status" -eq 0 ] && [ "$s1" -eq 0 ] && [ "$s2" -eq 0 ] && [ "$s3" -eq 0 ] && [ "$s4" -eq 0 ] || ok=1
if [ "$ok" -ne 0 ]; then
  # The shared servers' data goes with the run: keep what they warned of.
  for d in "$data_a" "$data_b" "$data_c" "$data_d"; do
    echo "--- warnings and errors of the test server in $d ---"
    grep -E 'level=(WARN|ERROR)' "$d/server.log" | tail -40 || true
  done
fi
exit $ok
