#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# faults.sh [MAX]: allocation failures injected into ftrace-mux's
# operations, on a kernel with fault injection (the debug and cov variants).  For
# n = 1..MAX (default 80), the n-th allocation of one operation fails
# (/proc/self/fail-nth, failslab and fail_page_alloc, sleeping allocations
# included); the operation must either fail cleanly or succeed, and after
# undoing it the state must be exactly what it was.  One RESULT line per
# operation, and STAT lines with the number of faults injected.
T=/sys/kernel/tracing
D=/sys/kernel/debug
MAX=${1:-80}
cd $T || exit 1

. /opt/harness/lib.sh

if [ ! -e /proc/self/fail-nth ] || [ ! -d $D/failslab ]; then
	result faults/setup FAIL "this kernel has no fault injection (use the debug variant)"
	exit 1
fi
for f in failslab fail_page_alloc; do
	echo N > $D/$f/ignore-gfp-wait
	echo 0 > $D/$f/verbose
done
echo N > $D/fail_page_alloc/ignore-gfp-highmem
echo 0 > $D/fail_page_alloc/min-order

# Sets and trampolines given back are freed by a work item after the
# grace periods: wait for it, so that what is compared is what stays.
# The "not made" counters count injected failures, and the ids line
# counts IDs still draining: neither is state.
state() {
	sets_settle
	grep -v '^# ids:' function_tracers | sed 's/; sets not made: .*//'
	cat function_filters
	cat enabled_functions
	ls instances
	awk '{ print $1 }' detour_functions
}

# Two tracers with their own filters, as a user would have them.
echo ksys_sync > set_ftrace_filter
echo function > current_tracer
echo 1 > function_profile_enabled
echo "function_profile filter add __x64_sys_newuname" > set_tracer_filter
modprobe ftrace_mux_detour_test
state > /tmp/state0

# op NAME PRE DO UNDO [CHECK]: inject into DO, n = 1..MAX, after PRE;
# then CHECK (with $rc, DO's status) must hold, then UNDO.  fail-nth is per
# task and not inherited, so DO is shell builtins on tracefs files or one
# exec'd command.  Each injected run must come back to the state after a
# clean PRE, DO and UNDO, which may differ from the state before them only
# in "sets: N live" (the transition sets interned on the way, a cache
# reaped lazily); any other difference fails at the first injected run.
op() {
	local name=$1 pre=$2 do=$3 undo=$4 check=${5:-:} n failed=0 bad=""
	local max=${OP_MAX:-$MAX} nm0 nm1
	sh -c "$pre; $do" 2> /dev/null
	sh -c "$undo" 2> /dev/null
	state > /tmp/state1
	sed 's/^# sets: [0-9]* live/# sets: live/' /tmp/state0 > /tmp/state0s
	sed 's/^# sets: [0-9]* live/# sets: live/' /tmp/state1 > /tmp/state1s
	cmp -s /tmp/state0s /tmp/state1s && cp /tmp/state1 /tmp/state0
	for n in $(seq 1 $max); do
		nm0=$(sets_not_made)
		# (the kernel log names the shell: harness/test/splat-scan)
		sh -c "$pre; echo \"ftrace-mux faults: fail-nth $n in pid \$\$\" > /dev/kmsg
			echo $n > /proc/self/fail-nth; $do" 2> /dev/null
		rc=$?
		# A set not made leaves the write's status 0: the record takes
		# the list function until its next update.
		nm1=$(sets_not_made)
		[ $rc != 0 ] || [ "$nm1" != "$nm0" ] && failed=$((failed + 1))
		if ! rc=$rc sh -c "$check"; then
			bad="after failing allocation $n (rc $rc): $check"
			sh -c "$undo" 2> /dev/null
			break
		fi
		sh -c "$undo" 2> /dev/null
		state > /tmp/state1
		if ! cmp -s /tmp/state0 /tmp/state1; then
			bad="after failing allocation $n (rc $rc): $(diff /tmp/state0 /tmp/state1)"
			break
		fi
	done
	echo "STAT faults_$name $max $failed"
	if [ -n "$bad" ]; then
		result faults/$name FAIL "$bad"
	elif [ $failed = 0 ]; then
		result faults/$name FAIL "no allocation failure ever reached the operation"
	else
		result faults/$name PASS
	fi
}

op edit-filter : "echo 'function_profile filter add vfs_read*' > $T/set_tracer_filter" \
	"echo 'function_profile filter remove vfs_read*' > $T/set_tracer_filter"
op select-and-write : "echo function_profile > $T/function_tracers && echo vfs_write >> $T/set_ftrace_filter" \
	"echo function_profile > $T/function_tracers; echo '!vfs_write' >> $T/set_ftrace_filter; echo function > $T/function_tracers"
op instance-tracer "mkdir $T/instances/fi" "echo ksys_sync > $T/instances/fi/set_ftrace_filter && echo function > $T/instances/fi/current_tracer" \
	"echo nop > $T/instances/fi/current_tracer; rmdir $T/instances/fi"
# From the shared state: an edit of the profiler's filter either gives it
# its own copy or fails, and never lands in the global filter (the state
# compare sees vfs_read there); "!function_profile" that succeeds shares.
op edit-from-shared "echo '!function_profile' > $T/function_tracers" \
	"echo 'function_profile filter add vfs_read' > $T/set_tracer_filter" \
	"echo 'function_profile filter set ksys_sync' > $T/set_tracer_filter &&
	 echo 'function_profile filter add __x64_sys_newuname' > $T/set_tracer_filter"
op share : "echo '!function_profile' > $T/function_tracers" \
	"echo 'function_profile filter set ksys_sync' > $T/set_tracer_filter &&
	 echo 'function_profile filter add __x64_sys_newuname' > $T/set_tracer_filter" \
	"[ \$rc != 0 ] || grep -q '^   function_profile .*global-filter' $T/function_tracers"
op detour-add : "echo ftrace_mux_detour_target >> $T/detour_functions" \
	"echo '!ftrace_mux_detour_target' >> $T/detour_functions"
op register-ops : "exec insmod /lib/modules/\$(uname -r)/kernel/samples/ftrace/ftrace-ops.ko persist=1 nr_ops_relevant=3 nr_ops_irrelevant=2 nr_function_calls=1" \
	"rmmod ftrace_ops"

# A set's interning comes after the many allocations a filter edit makes
# first, beyond any n above.  fail-nth counts only the allocations that
# pass a fault's stack-trace filter: with it set to the functions that
# intern sets, n = 1 fails the set's allocation (the index allocates only
# when it grows: a larger n finds nothing more to fail, here).
# Sets are reaped lazily, so the op's own sets must be new each time: an
# instance of its own, on ksys_sync, made before the fault is armed and
# removed after (its ID's sets go with it), adds __x64_sys_newuname, the
# profiler's: a set no record holds (the profiler, its manager fgraph and
# the instance).  The write still succeeds: the record is left with no set
# and its site calls the list function, so both tracers must still see
# every call: as many in the instance's trace as the profiler counts
# (none if the write failed).
cat > /tmp/hits.sh << 'EOF2'
# hits: the profiler's count of __x64_sys_newuname, over every CPU
cat /sys/kernel/tracing/trace_stat/function* |
	awk '$1 == "__x64_sys_newuname" { n += $2 } END { print n + 0 }'
EOF2
set -- $(ksyms_range "^ftrace_mux_set_(intern|with|without|step|publish|alloc)$")
if [ $# != 2 ] || [ ! -e $D/failslab/require-start ]; then
	result faults/intern-set FAIL "no stack-trace filter or no interning function (range: $*)"
else
	for f in failslab fail_page_alloc; do
		echo "$1" > $D/$f/require-start
		echo "$2" > $D/$f/require-end
	done
	I=$T/instances/fi-set
	OP_MAX=8
	op intern-set \
		"mkdir $I && echo ksys_sync > $I/set_ftrace_filter && echo function > $I/current_tracer" \
		"echo __x64_sys_newuname >> $I/set_ftrace_filter" \
		"echo nop > $I/current_tracer; rmdir $I" \
		"h0=\$(sh /tmp/hits.sh); : > $I/trace; uname > /dev/null; h1=\$(sh /tmp/hits.sh)
		 n=\$(grep -c ' __x64_sys_newuname <-' $I/trace)
		 [ \$((h1 - h0)) -gt 0 ] &&
		 [ \$n = \$([ \$rc = 0 ] && echo \$((h1 - h0)) || echo 0) ]"
	unset OP_MAX
	for f in failslab fail_page_alloc; do
		echo 0 > $D/$f/require-start
		echo 18446744073709551615 > $D/$f/require-end
	done
fi

# Afterwards, everything still works: exact counts through a set's trampoline.
dmesg -c > /dev/null
insmod /lib/modules/$(uname -r)/kernel/samples/ftrace/ftrace-ops.ko nr_function_calls=100 \
	nr_ops_relevant=4 nr_ops_irrelevant=2 check_count=1 2> /dev/null
if dmesg | grep -q 'Attempted 100 calls' && ! dmesg | grep -q 'Counter called'; then
	result faults/still-exact PASS
else
	result faults/still-exact FAIL "$(dmesg | tail -3)"
fi
echo 0 > function_profile_enabled
echo nop > current_tracer
echo > set_ftrace_filter
echo '!function_profile' > function_tracers
rmmod ftrace_mux_detour_test
