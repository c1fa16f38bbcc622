#!/usr/bin/env bash
# Prints what failed in a make test run, from the lanes' logs (bin/lanes/*.log),
# so that the last lines of a failed run (all a CI summary may keep) name the
# failing tests and their messages, not only the lane that failed.
set -uo pipefail
dir=${1:-bin/lanes}
echo "==== what failed (from $dir) ===="
for log in "$dir"/*.log; do
	[ -f "$log" ] || continue
	# Go: failed tests and packages, their first message lines, panics and
	# timeouts (with the tests then running); Playwright and vitest: failed specs and their errors; make:
	# the step that failed.
	grep -E -- '--- FAIL|^\[[a-z ]+\] +FAIL|_test\.go:[0-9]+:|panic: |test timed out|✘|[0-9]+\) .*›|FAIL .*\.(test|spec)\.|Error: |make\[[0-9]+\]: \*\*\*|		Test[^ ]+ \([0-9hms.]+\)$' "$log" |
		grep -v -E 'make\[[0-9]+\]: \*\*\* \[Makefile:[0-9]+: lane-' | head -n 15
done
echo "==== end of what failed ===="
