#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# together.sh: tools that know nothing of ftrace-mux (Debian's perf 6.1,
# trace-cmd) tracing in the top instance while other tracers run with
# filters of their own: the profiler, given its filter by a process that
# selected it and stays alive, and a trace-cmd instance.  Each tool must see
# exactly its workload's calls, and after it exits every other tracer's
# filter must be what its owner set.  One line per scenario:
#   RESULT together/<name> PASS|FAIL
T=/sys/kernel/tracing
. /opt/harness/lib.sh
cd /tmp || exit 1
N=20

# The workload: N calls of ksys_sync; nothing else calls it here
WL="i=0; while [ \$i -lt $N ]; do sync; i=\$((i + 1)); done"
filters() { grep "^\[ *$1\] " $T/function_filters | sed 's/^\[ *[^]]*\] //' | sort | tr '\n' ' '; }

echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo > $T/set_ftrace_notrace

# The profiler's owner (lib.sh), on ksys_sync, until the end
owner_start ksys_sync
[ "$(filters function_profile)" = "ksys_sync " ] || flunk "profiler filter: $(filters function_profile)"
result together/setup

# trace-cmd's instance on the same function, running throughout
trace-cmd start -B muxtc -p function -l ksys_sync > /tmp/tc.log 2>&1 ||
	{ flunk "trace-cmd start: $(cat /tmp/tc.log)"; }
result together/instance-start

# check TOOL OUTPUT-COUNT: what the profiler, the instance and the filters
# say after TOOL ran the workload once.  $calls: the workloads so far.
calls=0
others() {
	local got
	got=$(profile_hits ksys_sync)
	[ "$got" = $((calls * N)) ] || flunk "profiler counted ksys_sync $got times, want $((calls * N))"
	got=$(grep -c ' ksys_sync <-' $T/instances/muxtc/trace)
	[ "$got" = $((calls * N)) ] || flunk "instance traced ksys_sync $got times, want $((calls * N))"
	got=$(grep -v '^#' $T/instances/muxtc/trace | grep -vc ' ksys_sync <-')
	[ "$got" = 0 ] || flunk "instance traced $got other lines: $(grep -v '^#' $T/instances/muxtc/trace | grep -v ksys_sync | head -3)"
	[ "$(filters function_profile)" = "ksys_sync " ] ||
		flunk "profiler filter after the tool: '$(filters function_profile)'"
	[ "$(grep -v '^#' $T/instances/muxtc/set_ftrace_filter)" = ksys_sync ] ||
		flunk "instance filter: $(cat $T/instances/muxtc/set_ftrace_filter)"
	grep -q "^   function_profile .*,selected-by:$owner\$" $T/function_tracers ||
		flunk "the owner's selection is gone: $(cat $T/function_tracers)"
}

# exact TOOL FILE CALL MINE: TOOL's output FILE has exactly N calls that
# match ERE MINE, and no other line that matches ERE CALL
exact() {
	local got
	got=$(grep -cE "$4" "$2")
	[ "$got" = $N ] || flunk "$1 traced ksys_sync $got times, want $N: $(head -3 /tmp/perf.err)"
	got=$(grep -E "$3" "$2" | grep -cvE "$4")
	[ "$got" = 0 ] || flunk "$1 traced $got other calls: $(grep -E "$3" "$2" | grep -vE "$4" | head -3)"
}

command -v perf > /dev/null || flunk "no perf in the guest"
perf ftrace -a -t function -T ksys_sync -- sh -c "$WL" > /tmp/perf.out 2> /tmp/perf.err
calls=$((calls + 1))
exact perf /tmp/perf.out ' <-' ' ksys_sync <-'
others
result together/perf-function

# -G: function_graph below ksys_sync (set_graph_function), one level deep.
# A call is "ksys_sync();", or "ksys_sync() {" ... "}" when something came
# between its entry and its return (it sleeps).
perf ftrace -a -t function_graph -G ksys_sync --graph-opts depth=1 -- sh -c "$WL" \
	> /tmp/perf.out 2> /tmp/perf.err
calls=$((calls + 1))
exact "perf's graph" /tmp/perf.out '[a-z_]\(\)( \{|;)' '\|  ksys_sync\(\)( \{|;)'
others
result together/perf-function_graph

trace-cmd record -q -p function -l ksys_sync -o /tmp/tc.dat \
	sh -c "$WL" > /tmp/tc.log 2>&1
calls=$((calls + 1))
trace-cmd report -i /tmp/tc.dat > /tmp/tc.rep 2> /dev/null
exact "trace-cmd record" /tmp/tc.rep 'function:' 'function: *ksys_sync'
others
result together/trace-cmd-record

: "the owner goes: its selection ends, the profiler keeps its filter"
owner_go
grep -q 'selected-by:' $T/function_tracers && flunk "selection outlived its owner: $(cat $T/function_tracers)"
[ "$(filters function_profile)" = "ksys_sync " ] || flunk "profiler filter: $(filters function_profile)"
result together/owner-exit

trace-cmd reset -B muxtc > /dev/null 2>&1
rmdir $T/instances/muxtc 2> /dev/null
echo 0 > $T/function_profile_enabled
echo > $T/set_ftrace_filter
