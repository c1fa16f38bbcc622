#!/usr/bin/env bash
# One lane of make test (Makefile, "The schedule"): tools/lane.sh NAME [VAR=VALUE...] TARGET... [+queue]
# runs the targets one after another (the first failure ends the lane), each line marked [NAME]
# and appended to $LANES/NAME.log, and after each target one line with its wall and CPU seconds:
# what a run spent where, for docs/performance.md ("The test suite").
# `+queue` then takes targets from the shared queue $LANES/queue (one per line, the first first)
# until it is empty: whichever lane is free first runs the next, so neither lane idles while the
# other still has a list to work through.
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
queue=$LANES/queue

# pop prints the queue's first target and removes it; it fails when the queue is empty.
pop() {
	(
		flock 9
		local t
		t=$(head -n 1 "$queue" 2>/dev/null || true)
		[[ -n $t ]] || exit 1
		sed -i 1d "$queue"
		printf '%s\n' "$t"
	) 9>>"$queue.lock"
}

one() {
	TIMEFORMAT="lane $name: $1 %R s wall, %U s user, %S s sys"
	time ${MAKE:-make} --no-print-directory -j1 "${vars[@]}" "$1"
}

run() {
	local t
	for t in "${targets[@]}"; do
		if [[ $t == +queue ]]; then
			while t=$(pop); do one "$t"; done
		else
			one "$t"
		fi
	done
}

run 2>&1 | sed -u "/-j1 forced in submake/d; s/^/[$name] /" | tee -a "$LANES/$name.log"
