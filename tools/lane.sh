#!/usr/bin/env bash
# One lane of make test (Makefile, "The schedule"): tools/lane.sh NAME [VAR=VALUE...] TARGET...
# runs the targets one after another (the first failure ends the lane), each line marked [NAME]
# and appended to $LANES/NAME.log, and after each target one line with its wall and CPU seconds:
# what a run spent where, for docs/performance.md ("The test suite").
set -euo pipefail
name=$1
shift
vars=()
targets=()
for a in "$@"; do
	if [[ $a == *=* ]]; then vars+=("$a"); else targets+=("$a"); fi
done
: "${LANES:?LANES: the folder of the lane logs}"
mkdir -p "$LANES"

run() {
	local t
	for t in "${targets[@]}"; do
		TIMEFORMAT="lane $name: $t %R s wall, %U s user, %S s sys"
		time ${MAKE:-make} --no-print-directory -j1 "${vars[@]}" "$t"
	done
}

run 2>&1 | sed -u "/-j1 forced in submake/d; s/^/[$name] /" | tee -a "$LANES/$name.log"
