#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-graph.sh: function_graph's users, run inside a VM booted with
# -icount shift=0 -smp 1 (guest ns == instructions).  Prints one record per
# line for harness/bench/graph.sh to tabulate:
#   graph KIND SAME OTHERS NS_PER_CALL   one getpid() with __do_sys_getpid
#                                         traced by SAME users (KIND graph;
#                                         idle: users that turn the loop's
#                                         calls away; after: one left after
#                                         a second came and went; mixed),
#                                         while
#                                         OTHERS graph users trace functions
#                                         the loop never calls
#   update WHAT OTHERS NS                 start or stop a graph user
# fgraph takes at most 16 users, so SAME + OTHERS stays at or below 16.
T=/sys/kernel/tracing
MOD=/lib/modules/$(uname -r)/kernel/samples
TIME=/run/mux-time
N=${N:-20000}
F=__do_sys_getpid
cd $T || exit 1
fail() { echo "bench-graph: $*" >&2; exit 1; }
. /run/bench-lib.sh || fail "no /run/bench-lib.sh"

# System calls the loop never makes, for the other users
others=$(grep -E '^__x64_sys_(sethostname|setdomainname|swapon|swapoff|acct|reboot|syncfs|fdatasync|sync_file_range|pivot_root|chroot|mknodat|linkat|symlinkat|renameat2|truncate|ftruncate|flock|fchown|lchown|utimes|settimeofday|adjtimex|personality|sysinfo|times|getpgid|getsid|setpgid|setsid|umask|getpriority|setpriority)$' \
	available_filter_functions | sed -n 1,15p)
[ "$(echo "$others" | wc -l)" = 15 ] || fail "not 15 other system calls: $others"
grep -qx $F available_filter_functions || fail "$F not traceable"

loop() {	# ns per getpid(), the median of three runs
	local a b c
	a=$($TIME getpid $N) && b=$($TIME getpid $N) && c=$($TIME getpid $N) ||
		fail "mux-time getpid"
	echo $(( $(median $a $b $c) / N ))
}

# instance NAME TRACER FUNCTION [PID]: a small instance tracing FUNCTION
# (for task PID only)
instance() {
	mkdir instances/$1 || fail "instance $1"
	echo 16 > instances/$1/buffer_size_kb
	echo $3 > instances/$1/set_ftrace_filter || fail "$1: filter $3"
	[ -z "$4" ] || echo $4 > instances/$1/set_ftrace_pid || fail "$1: pid $4"
	echo $2 > instances/$1/current_tracer || fail "$1: $2"
}
clear_instances() {
	local d
	for d in instances/*; do
		[ -d "$d" ] || continue
		echo nop > $d/current_tracer
		rmdir $d
	done
}

# row KIND SAME OTHERS: SAME graph users on $F, OTHERS on other functions
row() {
	local i=0 f
	for f in $others; do
		[ $i -lt $3 ] || break
		instance o$i function_graph $f
		i=$((i + 1))
	done
	i=0
	while [ $i -lt $2 ]; do
		instance s$i function_graph $F
		i=$((i + 1))
	done
	echo "graph $1 $2 $3 $(loop)"
	clear_instances
}

echo "graph untraced 0 0 $(loop)"
for k in 0 1 8 15; do
	row graph 1 $k
done
for s in 2 8 16; do
	row graph $s 0
done

# Graph users whose own work is next to nothing: each instance traces
# init's calls only (set_ftrace_pid 1), so fgraph's PID test turns the
# loop's calls away before the tracer's entry function.  What is left per
# user is entering it
for s in 1 2 8 16; do
	i=0
	while [ $i -lt $s ]; do
		instance p$i function_graph $F 1
		i=$((i + 1))
	done
	echo "graph idle $s 0 $(loop)"
	clear_instances
done

# The one user left after a second came and went: upstream's fast path
# for a single user must come back (53b2fae90ff0 fixed a kernel where it
# did not)
instance s0 function_graph $F
instance o0 function_graph $(echo "$others" | sed -n 1p)
echo nop > instances/o0/current_tracer
rmdir instances/o0
echo "graph after 1 0 $(loop)"
clear_instances

# Mixed: two function tracers, two graph users and the profiler on $F
echo $F > set_ftrace_filter
echo 1 > function_profile_enabled || fail "profiler"
instance f0 function $F
instance f1 function $F
instance g0 function_graph $F
instance g1 function_graph $F
echo "graph mixed 5 0 $(loop)"
clear_instances
echo 0 > function_profile_enabled
echo > set_ftrace_filter

# Starting and stopping a graph user (an instance's function_graph on
# schedule) beside 0 and 64 other tracers on one function, as the
# ftrace-ops sample registers them; each a median of seven (an update
# waits for RCU grace periods, whose ends fall on timer ticks), once
# deferred work is done (settle() in harness/guest/bench-lib.sh).
mkdir instances/upd || fail "instance upd"
echo 16 > instances/upd/buffer_size_kb
echo schedule > instances/upd/set_ftrace_filter
for k in 0 64; do
	if [ $k -gt 0 ]; then
		$TIME insmod $MOD/ftrace/ftrace-ops.ko \
			"persist=1 nr_function_calls=1 nr_ops_relevant=$k" > /dev/null ||
			fail "ftrace-ops"
	fi
	a="" b=""
	for r in 1 2 3 4 5 6 7; do
		settle
		a="$a $($TIME write instances/upd/current_tracer function_graph)" ||
			fail "graph on"
		settle
		b="$b $($TIME write instances/upd/current_tracer nop)" ||
			fail "graph off"
	done
	echo "update graph_on $k $(median $a)"
	echo "update graph_off $k $(median $b)"
	[ $k -gt 0 ] && rmmod ftrace-ops
done
rmdir instances/upd
exit 0
