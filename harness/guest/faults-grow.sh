#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# faults-grow.sh: allocation failures injected into the growth of the sets'
# index (ftrace_mux_sets.c), on a kernel with fault injection and its
# stack-trace filter (the debug and cov variants).  One RESULT line and one
# STAT line, as faults.sh.
#
# The vector of set pointers grows when the 64th set is made, and
# never shrinks: this must run in a fresh boot, before anything else made
# that many sets.  Six instances make, on 63 - L functions (L the sets a
# fresh boot holds), every combination of their IDs but no other (each
# function's set is the bits of its number): 63 live sets, indexes 1 to
# 63.  Then a seventh instance starts on one function more: its set takes
# index 64, and the vector grows from 64 entries to
# 128.  With fail-nth and the fault's stack-trace filter on
# ftrace_mux_sets_store() alone (where the vector grows: its first
# allocation is the new vector), fail-nth 1 fails the growth.  The set
# is then not made: the record is left with no set and traced all the
# same through the list function, and stopping the instance must come
# back to the state before.  Started again without a fault, the set is
# made and the vector grows.
T=/sys/kernel/tracing
D=/sys/kernel/debug
cd $T || exit 1

. /opt/harness/lib.sh

state() {
	sets_settle
	grep -v '^# ids:' function_tracers | sed 's/; sets not made: .*//'
	cat enabled_functions
}

set -- $(ksyms_range "^ftrace_mux_sets_store$")
if [ $# != 2 ] || [ ! -e /proc/self/fail-nth ] || [ ! -e $D/failslab/require-start ]; then
	result faults/grow-sets FAIL "no fault injection, stack-trace filter or ftrace_mux_sets_store() (inlined?) (range: $*)"
	exit 0
fi
lo=$1 hi=$2

sets_settle
l0=$(sets_live)
m=$((63 - l0))
# 64 syscall entries: their numbers 1..m get the instances' combinations,
# the last one (newuname, which uname calls once) the seventh instance.
fns=$(grep '^__x64_sys_' available_filter_functions | grep -v '__x64_sys_newuname$' |
	sort -u | head -n $m)
if [ $m -lt 32 ] || [ "$(echo "$fns" | wc -l)" != $m ]; then
	result faults/grow-sets FAIL "a fresh boot holds $l0 sets, or too few functions"
	exit 0
fi
for i in 1 2 3 4 5 6; do
	mkdir instances/fg$i
	echo "$fns" | awk -v b=$((1 << (i - 1))) 'int(NR / b) % 2 { print }' \
		> instances/fg$i/set_ftrace_filter
	echo function > instances/fg$i/current_tracer
done
sets_settle
if [ "$(sets_live)" != 63 ]; then
	flunk "$(sets_live) live sets after the six instances, not 63"
fi
F=instances/fg7
mkdir $F
echo __x64_sys_newuname > $F/set_ftrace_filter
state > /tmp/grow0

# run_7 N: start the seventh instance (with fail-nth N in that task, if
# not 0), call newuname once, stop it; check what it traced and the
# state after.  Sets $rc and $injected.
run_7() {
	local nm0 calls want
	nm0=$(sets_not_made)
	: > $F/trace
	# (the kernel log names the shell: harness/test/splat-scan)
	sh -c "echo \"ftrace-mux faults: fail-nth $1 in pid \$\$\" > /dev/kmsg
		echo $1 > /proc/self/fail-nth; echo function > $T/$F/current_tracer" 2> /dev/null
	rc=$?
	uname > /dev/null
	calls=$(grep -c ' __x64_sys_newuname <-' $F/trace)
	injected=0
	[ $rc = 0 ] && [ "$(sets_not_made)" = "$nm0" ] || injected=1
	want=1
	[ $rc = 0 ] || want=0
	[ "$calls" = $want ] || flunk "fail-nth $1 (rc $rc): $calls calls of newuname traced, not $want"
	[ $injected = 1 ] || [ "$(sets_live)" -ge 64 ] ||
		flunk "fail-nth $1: no failure, but $(sets_live) live sets"
	echo nop > $F/current_tracer
	state > /tmp/grow1
	cmp -s /tmp/grow0 /tmp/grow1 ||
		flunk "fail-nth $1 (rc $rc): after stopping: $(diff /tmp/grow0 /tmp/grow1)"
}

for f in failslab fail_page_alloc; do
	echo N > $D/$f/ignore-gfp-wait
	echo 0 > $D/$f/verbose
	echo "$lo" > $D/$f/require-start
	echo "$hi" > $D/$f/require-end
done
run_7 1
armed=$injected
for f in failslab fail_page_alloc; do
	echo 0 > $D/$f/require-start
	echo 18446744073709551615 > $D/$f/require-end
done
run_7 0
echo "STAT faults_grow-sets 2 $armed"
[ $armed = 1 ] || flunk "fail-nth 1 failed nothing"
[ $injected = 0 ] || flunk "the start without a fault failed (rc $rc)"

for i in 1 2 3 4 5 6 7; do
	echo nop > instances/fg$i/current_tracer
	rmdir instances/fg$i
done
sets_settle
[ "$(sets_live)" = "$l0" ] || flunk "$(sets_live) live sets at the end, $l0 at the start"
result faults/grow-sets
