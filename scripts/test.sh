#!/usr/bin/env bash
# make test: the TypeScript check, then the Go tests and the Lighthouse
# check beside the browser tests. The Go tests are mostly CPU, the browser
# tests mostly waiting on a page, a job or a sign-in's delay, so on the
# 2-core CI machine the two together take little longer than the browser
# tests alone (ADR 038). The Go tests' output is printed when both are
# done, and either failing fails make test.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
make -s test-ts || exit 1
# Build first, once: both halves would otherwise compile the same packages.
make -s build || exit 1
log=$(mktemp)
lh=$(mktemp)
trap 'rm -f "$log" "$lh"' EXIT
# Lighthouse follows the Go tests in the same background line: it asserts
# accessibility, best practices and SEO, which a busy machine does not
# change (performance is only reported), and so it runs beside the browser
# tests instead of after them, with at most two heavy jobs at a time.
# What both lines need is installed first, once (two apt-get runs at a
# time would wait on each other's lock).
bash scripts/ensure-chromium.sh >/dev/null || exit 1
bash scripts/ensure-java.sh >/dev/null || exit 1
(
  gs=$(date +%s)
  go=0; make -s test-go >"$log" 2>&1 || go=$?
  echo "(Go tests took $(( $(date +%s) - gs )) s)" >>"$log"
  gs=$(date +%s)
  light=0; bash scripts/lighthouse.sh --assert --runs=1 >"$lh" 2>&1 || light=$?
  echo "(Lighthouse took $(( $(date +%s) - gs )) s)" >>"$lh"
  exit $(( ($go != 0) + 2 * ($light != 0) ))
) &
side_pid=$!
e2e_start=$(date +%s)
browser=0
make -s test-e2e || browser=$?
echo "(browser tests took $(( $(date +%s) - e2e_start )) s)"
side=0
wait "$side_pid" || side=$?
echo "--- Go tests (run beside the browser tests) ---"
cat "$log"
echo "--- Lighthouse (after the Go tests, beside the browser tests) ---"
cat "$lh"
go=$(( side & 1 )) && go=$([ "$go" -eq 0 ] && echo passed || echo FAILED)
light=$(( side & 2 )) && light=$([ "$light" -eq 0 ] && echo passed || echo FAILED)
echo "make test: Go tests $go, browser tests $([ $browser -eq 0 ] && echo passed || echo FAILED), Lighthouse $light, in $(( $(date +%s) - start )) s"
[ "$side" -eq 0 ] && [ "$browser" -eq 0 ]
