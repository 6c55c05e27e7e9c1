#!/usr/bin/env bash
# make test: the TypeScript check, then the Go tests beside the browser
# tests (ADRs 038, 053), then Lighthouse's check after whichever of the
# two ends first. The browser tests print as they go; the Go tests' and
# Lighthouse's output is printed at the end. Any of the three failing
# fails make test.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
make -s test-ts || exit 1
# Build first, once: both halves would otherwise compile the same packages.
make -s build || exit 1
log=$(mktemp)
lh=$(mktemp)
trap 'rm -f "$log" "$lh"' EXIT
# What both lines need is installed first, once (two apt-get runs at a
# time would wait on each other's lock).
bash scripts/ensure-chromium.sh >/dev/null || exit 1
bash scripts/ensure-java.sh >/dev/null || exit 1
# Lighthouse asserts accessibility, best practices and SEO, which a busy
# machine does not change (performance is only reported). It runs after
# whichever line ends first (the Go tests or the browser tests), so it
# does not lengthen the longer one.
(
  gs=$(date +%s)
  rc=0; make -s test-go >"$log" 2>&1 || rc=$?
  echo "(Go tests took $(( $(date +%s) - gs )) s)" >>"$log"
  exit $rc
) &
go_pid=$!
(
  es=$(date +%s)
  rc=0; make -s test-e2e || rc=$?
  echo "(browser tests took $(( $(date +%s) - es )) s)"
  exit $rc
) &
e2e_pid=$!
first=0; done_pid=
wait -n -p done_pid "$go_pid" "$e2e_pid" || first=$?
gs=$(date +%s)
light=0; bash scripts/lighthouse.sh --assert --runs=1 >"$lh" 2>&1 || light=$?
echo "(Lighthouse took $(( $(date +%s) - gs )) s, after the $([ "$done_pid" = "$go_pid" ] && echo Go || echo browser) tests)" >>"$lh"
second=0
if [ "$done_pid" = "$go_pid" ]; then
  wait "$e2e_pid" || second=$?
  goexit=$first; browser=$second
else
  wait "$go_pid" || second=$?
  goexit=$second; browser=$first
fi
echo "--- Go tests (run beside the browser tests) ---"
cat "$log"
echo "--- Lighthouse ---"
cat "$lh"
go=$([ "$goexit" -eq 0 ] && echo passed || echo FAILED)
light=$([ "$light" -eq 0 ] && echo passed || echo FAILED)
echo "make test: Go tests $go, browser tests $([ $browser -eq 0 ] && echo passed || echo FAILED), Lighthouse $light, in $(( $(date +%s) - start )) s"
[ "$goexit" -eq 0 ] && [ "$browser" -eq 0 ] && [ "$light" = passed ]
