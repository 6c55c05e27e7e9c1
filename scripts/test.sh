#!/usr/bin/env bash
# make test: the TypeScript check, then the Go tests beside the browser
# tests and the Lighthouse check. The Go tests are mostly CPU, the browser
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
trap 'rm -f "$log"' EXIT
( make -s test-go >"$log" 2>&1 ) &
go_pid=$!
browser=0
make -s test-e2e || browser=$?
[ "$browser" -eq 0 ] && { make -s test-lighthouse || browser=$?; }
go=0
wait "$go_pid" || go=$?
echo "--- Go tests (run beside the browser tests) ---"
cat "$log"
echo "make test: Go tests $([ $go -eq 0 ] && echo passed || echo FAILED), browser tests and Lighthouse $([ $browser -eq 0 ] && echo passed || echo FAILED), in $(( $(date +%s) - start )) s"
[ "$go" -eq 0 ] && [ "$browser" -eq 0 ]
