#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-lib.sh: what the benchmarks' guest scripts (bench.sh,
# bench-graph.sh) share; they get it in /run (harness/test/vm --file) and
# source it after defining fail().

# Under -icount an update's figure is its instructions plus the idle time
# it spends waiting for grace periods and timers, and their phase depends
# on what ran just before (a module unloaded right after it was loaded
# waits some 6.5 ms more on both kernels).  So each update starts once
# deferred work is done (ftrace-mux: IDs drained, sets freed; then a
# second for both kernels), and a pair of updates that undo each other
# runs three times, reporting each one's median.
settle() {
	local n=0
	while [ -e function_tracers ] &&
	      ! { grep -q '^# ids: [0-9]* in use, 0 draining' function_tracers &&
		  grep -q '^# sets: [0-9]* live, 0 freeing' function_tracers; }; do
		n=$((n + 1)); [ $n -lt 600 ] || fail "deferred work never finished"
		sleep 0.1
	done
	sleep 1
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
