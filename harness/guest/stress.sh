#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stress.sh [SECONDS]: tracers come and go while their filters are
# rewritten and a workload runs on both CPUs, for a bounded time (default
# 120 s); then every count and filter must be exact and nothing leaked.
# Prints "STAT kind count" per loop and one RESULT line per check.
# STRESS_SETS0="LIVE TRAMPOLINES", when given, are the set and trampoline
# counts to come back to (a fresh boot's, taken before other checks ran),
# instead of those at the start of this run.
T=/sys/kernel/tracing
DUR=${1:-120}
S=/tmp/stress
MOD=/lib/modules/$(uname -r)/kernel/samples
mkdir -p $S
cd $T || exit 1

. /opt/harness/lib.sh

# Start from nothing traced, and note the starting counts.
echo nop > current_tracer
echo > set_ftrace_filter
echo > set_ftrace_notrace
ids0=$(sed -n 's/^# ids: \([0-9]*\) in use.*/\1/p' function_tracers)
sites0=$(wc -l < enabled_functions)
# live sets and their trampolines (freed ones go after grace periods)
sets0=${STRESS_SETS0:-$(sets_and_tramps)}

end=$(( $(date +%s) + DUR ))
running() { [ $(date +%s) -lt $end ]; }
count() { echo $2 > $S/$1.count; }

# Each loop runs on a given CPU, counts its rounds, and ignores the
# refusals that racing loops legitimately cause (EBUSY, ENOENT...).
loop_instances() {
	local n=0 i
	while running; do
		i=$T/instances/st$((n % 3))
		mkdir $i 2> /dev/null
		echo 'vfs_*' > $i/set_ftrace_filter 2> /dev/null
		echo function > $i/current_tracer 2> /dev/null
		echo function_graph > $i/current_tracer 2> /dev/null
		echo 'ksys_*' >> $i/set_ftrace_filter 2> /dev/null
		echo nop > $i/current_tracer 2> /dev/null
		rmdir $i 2> /dev/null
		n=$((n + 1)); count instances $n
	done
}
loop_profiler_stack() {
	local n=0
	while running; do
		echo 1 > function_profile_enabled
		echo 1 > /proc/sys/kernel/stack_tracer_enabled
		echo 'ksys_sync' > stack_trace_filter 2> /dev/null
		echo 0 > /proc/sys/kernel/stack_tracer_enabled
		echo 0 > function_profile_enabled
		n=$((n + 1)); count profiler_stack $n
	done
}
loop_probes() {
	local n=0
	while running; do
		echo 'p:stk ksys_sync' >> kprobe_events 2> /dev/null
		echo 1 > events/kprobes/stk/enable 2> /dev/null
		echo 'f:stf vfs_read' >> dynamic_events 2> /dev/null
		echo 1 > events/fprobes/stf/enable 2> /dev/null
		echo 0 > events/fprobes/stf/enable 2> /dev/null
		echo '-:stf' >> dynamic_events 2> /dev/null
		echo 0 > events/kprobes/stk/enable 2> /dev/null
		echo '-:stk' >> kprobe_events 2> /dev/null
		n=$((n + 1)); count kprobe_fprobe $n
	done
}
loop_modules() {
	local n=0
	while running; do
		insmod $MOD/ftrace/ftrace-ops.ko persist=1 nr_function_calls=10 \
			nr_ops_relevant=$((n % 4 + 2)) nr_ops_irrelevant=$((n % 3 * 4)) 2> /dev/null
		insmod $MOD/trace_printk/trace-printk.ko 2> /dev/null
		rmmod trace_printk 2> /dev/null
		rmmod ftrace_ops 2> /dev/null
		n=$((n + 1)); count modules $n
	done
}
loop_filters() {
	local n=0 f
	while running; do
		for f in 'ksys_sync' 'vfs_*' '*sync*' 'ksys_*' '__x64_sys_newuname'; do
			echo "function filter add $f" > set_tracer_filter 2> /dev/null
			echo "function_profile filter add $f" > set_tracer_filter 2> /dev/null
			echo "function_profile notrace add vfs_write" > set_tracer_filter 2> /dev/null
			echo function_profile > function_tracers 2> /dev/null
			echo "$f" > set_ftrace_filter 2> /dev/null
			echo function > function_tracers
			echo "$f" > set_ftrace_notrace 2> /dev/null
			echo > set_ftrace_notrace
			echo "function filter remove $f" > set_tracer_filter 2> /dev/null
		done
		echo function > current_tracer
		echo nop > current_tracer
		n=$((n + 1)); count filters $n
	done
}
# Detours come and go on the test module's functions (no fentry call),
# traced by the function tracer's filter, and the module itself unloads
# with a detour on it every fourth round.
DTM=ftrace_mux_detour_test
loop_detours() {
	local n=0
	while running; do
		modprobe $DTM 2> /dev/null
		echo 'ftrace_mux_detour_target ftrace_mux_detour_target2' >> detour_functions 2> /dev/null
		echo 'function filter add ftrace_mux_detour_*' > set_tracer_filter 2> /dev/null
		echo 200 > /sys/module/$DTM/parameters/run 2> /dev/null
		echo '!ftrace_mux_detour_target' >> detour_functions 2> /dev/null
		echo 200 > /sys/module/$DTM/parameters/run 2> /dev/null
		[ $((n % 4)) = 3 ] && rmmod $DTM 2> /dev/null
		n=$((n + 1)); count detours $n
	done
}
loop_workload() { # cpu
	local n=0
	while running; do
		sync; uname -a > /dev/null; cat /proc/version > /dev/null
		ls $T > /dev/null
		echo 20 > /sys/module/$DTM/parameters/run 2> /dev/null
		n=$((n + 1)); count workload$1 $n
	done
}

# Pin the calling subshell ($$ is the parent's in a subshell; a builtin's
# /proc/self is the subshell itself).
pin() { # cpumask
	local pid rest
	read -r pid rest < /proc/self/stat
	taskset -p $1 $pid > /dev/null
}
( pin 1; loop_instances ) &
( pin 2; loop_profiler_stack ) &
( pin 1; loop_probes ) &
( pin 2; loop_modules ) &
( pin 1; loop_filters ) &
( pin 2; loop_detours ) &
( pin 1; loop_workload 0 ) &
( pin 2; loop_workload 1 ) &
wait

for f in $S/*.count; do
	echo "STAT $(basename $f .count) $(cat $f)"
done
echo "STAT seconds $DUR"

# Everything the loops may have left behind is removed, the usual way.
for i in instances/st*; do
	[ -d $i ] || continue
	echo nop > $i/current_tracer; rmdir $i
done
echo 0 > function_profile_enabled
echo 0 > /proc/sys/kernel/stack_tracer_enabled
echo > stack_trace_filter
echo 0 > events/enable 2> /dev/null
echo > dynamic_events 2> /dev/null
echo > kprobe_events 2> /dev/null
rmmod trace_printk 2> /dev/null
rmmod ftrace_ops 2> /dev/null
echo > detour_functions
rmmod $DTM 2> /dev/null
echo nop > current_tracer
echo function > function_tracers

# Exact counts: every relevant tracer called once per call, the others not.
dmesg -c > /dev/null
insmod $MOD/ftrace/ftrace-ops.ko nr_function_calls=1000 nr_ops_relevant=6 \
	nr_ops_irrelevant=4 check_count=1 2> /dev/null
if dmesg | grep -q 'Attempted 1000 calls' && ! dmesg | grep -q 'Counter called'; then
	result stress/exact-counts PASS
else
	result stress/exact-counts FAIL "$(dmesg | tail -3)"
fi

# Filters read back as last written, for every tracer still there.
echo 'ksys_sync' > set_ftrace_filter
echo "function_profile filter reset" > set_tracer_filter
echo "function_profile notrace reset" > set_tracer_filter
echo "function_profile filter add __x64_sys_newuname" > set_tracer_filter
echo 1 > function_profile_enabled
echo function > current_tracer
got=$(grep -v '^#' set_ftrace_filter)
if [ "$got" = ksys_sync ] && grep -q '^\[function_profile\] __x64_sys_newuname$' function_filters &&
   [ $(grep -c '^\[function_profile\]' function_filters) = 1 ]; then
	result stress/filters-read-back PASS
else
	result stress/filters-read-back FAIL "$got / $(cat function_filters)"
fi

# enabled_functions agrees with the filters: exactly these two sites, the
# profiler's on fgraph's own trampoline, with fgraph in its set: the
# profiler is fgraph's only user (ftrace_mux_graph.c).
lines=$(wc -l < enabled_functions)
if [ "$lines" = 2 ] && [ "$(mux_path ksys_sync)" = tramp ] &&
   [ "$(mux_path __x64_sys_newuname)" = tramp ] &&
   grep -q '^__x64_sys_newuname .*mux: 0x[0-9a-f]* tramp \[function_profile,fgraph\]$' enabled_functions; then
	result stress/enabled-functions PASS
else
	result stress/enabled-functions FAIL "$(cat enabled_functions)"
fi
echo 0 > function_profile_enabled
echo nop > current_tracer
echo > set_ftrace_filter
echo '!function_profile' > function_tracers

# Nothing leaked: IDs back to the start (draining ones are free to come
# back), no traced site, no set or trampoline beyond those at the start
# (sets holding a stopped tracer go with its ID), no detour and none of
# its kprobes.
ids=$(sed -n 's/^# ids: \([0-9]*\) in use.*/\1/p' function_tracers)
sets=$(sets_and_tramps)
sites=$(wc -l < enabled_functions)
grep -q ' debugfs ' /proc/mounts || mount -t debugfs nodev /sys/kernel/debug
# (kprobes frees a removed optimized probe from delayed work: give it 10 s)
n=0
while [ -s /sys/kernel/debug/kprobes/list ] && [ $n -lt 100 ]; do
	sleep 0.1; n=$((n + 1))
done
kprobes=$(wc -l < /sys/kernel/debug/kprobes/list)
detours=$(wc -l < detour_functions)
if [ "$ids" = "$ids0" ] && [ "$sites" = "$sites0" ] && [ -n "$sets" ] && [ "$sets" = "$sets0" ] &&
   [ "$kprobes" = 0 ] && [ "$detours" = 0 ]; then
	result stress/no-leaks PASS
else
	result stress/no-leaks FAIL "ids $ids (start $ids0), traced sites $sites (start $sites0), sets and trampolines $sets (start $sets0), kprobes $kprobes, detours $detours"
fi
