#!/usr/bin/env bash
# make test-go: go vet, the alert rules, then the Go tests in two lines
# side by side (see the Makefile for which packages run under -race).
#
# On two cores the Go tests share the machine with the browser tests and
# Lighthouse (scripts/test.sh), and were the last line to finish: the
# race-instrumented packages ran two at a time, and the packages that
# start whole site processes (tests/cluster, tests/proxy, tests/drill)
# spend much of their minute waiting on those processes. The packages
# without -race and the race tests of those packages run beside them, so
# the Go tests keep more of the machine while the browser tests, which
# finished minutes earlier, give a little. -timeout is one ceiling for a
# busy machine: Go's default ten minutes ran out on a package that takes
# 30 s on a quiet one.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
# The tests collect garbage as the site does (ssr.TuneGC sets GOGC=400):
# a goja render allocates ~10 MiB, and at Go's default of 100 the test
# binaries spent a quarter of their CPU collecting. Measured, the same
# tests, compiled beforehand: editor, web/editor and web/pages 59.1
# CPU-s at GOGC=100, 42.5 at 400; five race-instrumented packages 15.5
# and 13.0 (ADR 053, item 20). An operator's GOGC still wins.
export GOGC=${GOGC:-400}
$GO vet ./... || exit 1
(cd docs && P=$(bash ../scripts/ensure-promtool.sh) && $P check rules prometheus-alerts.yml && $P test rules prometheus-alerts.test.yml) || exit 1
race=(-race -gcflags='modernc.org/...=-race=false')
plain=(./server/ ./web/editor/ ./editor/ ./app/ ./web/media/)
other=$(mktemp)
trap 'rm -f "$other"' EXIT
(
  rc=0
  $GO test -count=1 -timeout 25m "${plain[@]}" || rc=1
  $GO test "${race[@]}" -count=1 -timeout 25m -run 'TestRace|TestCachedServing|TestEstimateRateLimit|TestEstimateLimitHolds|TestPagedListsHoldUnderParallelRequests' ./server/ || rc=1
  $GO test "${race[@]}" -count=1 -timeout 25m -run 'TestScheduledPublishOnceAcrossInstances|TestRedirectsNoLoopUnderRace' ./editor/ || rc=1
  $GO test "${race[@]}" -count=1 -timeout 25m -run 'TestAttackParallelUploads|TestMediaTextSaves|TestPosterStoredBesideVideo' ./web/media/ || rc=1
  exit $rc
) >"$other" 2>&1 &
other_pid=$!
# tests/ start the bin/site that make test-go has just built.
rc=0
SITE_BIN="$PWD/bin/site" $GO test "${race[@]}" -count=1 -timeout 25m \
  $($GO list ./... | grep -v -e '/server$' -e '/web/editor$' -e '/editor$' -e '/app$' -e '/web/media$') || rc=1
wait "$other_pid" || rc=1
echo "--- the packages without -race, and their race tests ---"
cat "$other"
exit $rc
