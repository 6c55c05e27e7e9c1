#!/usr/bin/env bash
# make test: the TypeScript check, then three lines side by side (ADRs
# 038, 053): the Go tests, the browser tests and Lighthouse's check. The
# browser tests print as they go; the Go tests' and Lighthouse's output
# is printed at the end. Any of the three failing fails make test.
#
# Lighthouse runs from the start beside the others, two pages at a time:
# it spends about 45 CPU-s in all but a minute or more of wall time
# waiting on its pages, which a line after the others would add to the
# end (it did: 122 s after the browser tests, one core idle). The scores
# it asserts (accessibility, best practices, SEO) do not depend on a busy
# machine; performance is only reported here (make lighthouse measures).
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
make -s test-ts || exit 1
# Build first, once: the lines would otherwise compile the same packages.
make -s build || exit 1
log=$(mktemp)
lh=$(mktemp)
trap 'rm -f "$log" "$lh"' EXIT
# What the lines need is installed first, once (two apt-get runs at a
# time would wait on each other's lock).
bash scripts/ensure-chromium.sh >/dev/null || exit 1
bash scripts/ensure-java.sh >/dev/null || exit 1
# Varnish for tests/proxy (which is skipped, not failed, when it cannot
# be installed: the rest of make test does not need it).
bash scripts/ensure-varnish.sh >/dev/null || echo "Varnish could not be installed: tests/proxy will be skipped"
(
  gs=$(date +%s)
  rc=0; make -s test-go >"$log" 2>&1 || rc=$?
  echo "(Go tests took $(( $(date +%s) - gs )) s)" >>"$log"
  exit $rc
) &
go_pid=$!
(
  ls=$(date +%s)
  rc=0; bash scripts/lighthouse.sh --assert --runs=1 --parallel=2 >"$lh" 2>&1 || rc=$?
  echo "(Lighthouse took $(( $(date +%s) - ls )) s)" >>"$lh"
  exit $rc
) &
lh_pid=$!
es=$(date +%s)
browser=0; make -s test-e2e || browser=$?
echo "(browser tests took $(( $(date +%s) - es )) s)"
goexit=0; wait "$go_pid" || goexit=$?
light=0; wait "$lh_pid" || light=$?
echo "--- Go tests (run beside the browser tests) ---"
cat "$log"
echo "--- Lighthouse (run beside the browser tests) ---"
cat "$lh"
word() { [ "$1" -eq 0 ] && echo passed || echo FAILED; }
echo "make test: Go tests $(word $goexit), browser tests $(word $browser), Lighthouse $(word $light), in $(( $(date +%s) - start )) s"
[ "$goexit" -eq 0 ] && [ "$browser" -eq 0 ] && [ "$light" -eq 0 ]
