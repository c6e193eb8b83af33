#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tracecmd.sh: trace-cmd as a real client of the kernel's function tracers.
# Each scenario records, then checks from `trace-cmd report` that exactly the
# expected functions were recorded.  One line per scenario:
#   RESULT tracecmd/<name> PASS|FAIL
cd /tmp || exit 1

# trace-cmd sets the filters it is given and leaves the others alone, so
# start from upstream's defaults whatever ran before in this VM.
T=/sys/kernel/tracing
echo nop > $T/current_tracer
for f in set_ftrace_filter set_ftrace_notrace set_graph_function set_graph_notrace; do
	echo > $T/$f
done
[ -f $T/function_tracers ] && echo function > $T/function_tracers

. /opt/harness/lib.sh

# Functions named in "function:" events of a report, one per line, sorted.
funcs() { # report
	awk '/ function: / { for (i = 1; i <= NF; i++) if ($i == "function:") { print $(i + 1); break } }' "$1" |
		sort -u
}

# record REPORT ARGS...: trace-cmd record ARGS, its report into REPORT.
# trace-cmd 3.1.6 now and then records nothing at all, 0 bytes on every
# CPU, for a short command: measured 1 run in 15 on the *unpatched* 6.12
# kernel as well, so a report without a single event is taken again, twice
# at most, and said.  Whatever was recorded is checked exactly.
record() {
	local report=$1 try
	shift
	for try in 1 2 3; do
		trace-cmd record -q "$@" > /tmp/rec.log 2>&1
		trace-cmd report > $report 2>/dev/null
		grep -qE -- '-[0-9]+ +\[[0-9]+\]' $report && return 0
		echo "note: trace-cmd record $* recorded no event (try $try)"
	done
}

# -l: only the listed functions, and both of them.
record /tmp/r1 -p function -l ksys_sync -l __x64_sys_newuname \
	sh -c 'sync; uname -a >/dev/null'
got=$(funcs /tmp/r1 | tr '\n' ' ')
if [ "$got" = "__x64_sys_newuname ksys_sync " ]; then
	result tracecmd/function-filter PASS
else
	result tracecmd/function-filter FAIL "recorded '$got', want '__x64_sys_newuname ksys_sync '"
fi

# -n: the notrace list wins over the filter.
record /tmp/r2 -p function -l 'ksys_*' -n ksys_sync \
	sh -c 'sync; uname -a >/dev/null; echo x > /tmp/x'
funcs /tmp/r2 > /tmp/f2
if grep -qx ksys_sync /tmp/f2; then
	result tracecmd/function-notrace FAIL "ksys_sync was recorded despite -n"
elif ! grep -qx ksys_write /tmp/f2; then
	result tracecmd/function-notrace FAIL "ksys_write missing: $(tr '\n' ' ' < /tmp/f2)"
elif grep -v '^ksys_' /tmp/f2 | grep -q .; then
	result tracecmd/function-notrace FAIL "unexpected: $(grep -v '^ksys_' /tmp/f2 | tr '\n' ' ')"
else
	result tracecmd/function-notrace PASS
fi

# -g: function_graph below ksys_sync only.
record /tmp/r3 -p function_graph -g ksys_sync sync
# Entries are "funcgraph_entry: [+!#... duration us] | func() {" or
# "| func();"; the graph root is the only one with the smallest indentation.
awk '/funcgraph_entry:/ {
	line = $0; sub(/.*funcgraph_entry:[^|]*\|/, "", line)
	match(line, /^ */); depth = RLENGTH
	name = substr(line, depth + 1); sub(/\(.*/, "", name)
	print depth, name
}' /tmp/r3 > /tmp/g3
root=$(sort -n /tmp/g3 | head -1 | awk '{print $1}')
roots=$(awk -v d="$root" '$1 == d { print $2 }' /tmp/g3 | sort -u | tr '\n' ' ')
nchild=$(awk -v d="$root" '$1 > d' /tmp/g3 | wc -l)
if [ "$roots" = "ksys_sync " ] && [ "$nchild" -gt 0 ]; then
	result tracecmd/graph-function PASS
else
	result tracecmd/graph-function FAIL "graph roots '$roots', $nchild nested entries"
	grep funcgraph /tmp/r3 | head -5
fi

# -B: an instance with its own filter beside the top-level buffer's.
# trace-cmd report prefixes the instance's events with "mux-inst:".
record /tmp/r4 -p function -l ksys_sync -B mux-inst -p function -l __x64_sys_newuname \
	sh -c 'sync; uname -a >/dev/null'
grep '^mux-inst:' /tmp/r4 > /tmp/r4i
grep -v '^mux-inst:' /tmp/r4 > /tmp/r4t
ti=$(funcs /tmp/r4i | tr '\n' ' ')
tt=$(funcs /tmp/r4t | tr '\n' ' ')
if [ "$ti" = "__x64_sys_newuname " ] && [ "$tt" = "ksys_sync " ]; then
	result tracecmd/instance-filter PASS
else
	result tracecmd/instance-filter FAIL "instance recorded '$ti', top '$tt'"
	# Seen once in about 35 runs (2026-11-21), not reproduced since: what
	# trace-cmd says it read from each buffer tells a kernel that traced
	# nothing from a recorder that lost it.
	trace-cmd report --stat 2>&1 | sed 's/^/    /' | head -60
	sed 's/^/    rec: /' /tmp/rec.log | tail -20
fi
[ -d /sys/kernel/tracing/instances/mux-inst ] && rmdir /sys/kernel/tracing/instances/mux-inst

# function_graph filtered to ksys_sync, then the function tracer on every
# function in a second instance: the graph keeps to its filter (upstream
# f4ff9f646a4d: function_graph then traced every function, on an arch
# without fgraph on ftrace_ops), and the instance traces everything.
trace-cmd start -p function_graph -l ksys_sync > /tmp/s5.log 2>&1
trace-cmd start -B mux-fb -p function >> /tmp/s5.log 2>&1
sh -c 'sync; uname -a > /dev/null; sync'
echo 0 > $T/tracing_on
echo 0 > $T/instances/mux-fb/tracing_on 2> /dev/null
# Graph entries: "CPU) duration | name();" or "| name() {"
g5=$(sed -n 's/.*|  *\([A-Za-z0-9_.]*\)() *[{;].*/\1/p' $T/trace | sort -u | tr '\n' ' ')
n5=$(grep -c ': [A-Za-z0-9_.]* <-' $T/instances/mux-fb/trace 2> /dev/null || echo 0)
top5=$(cat $T/current_tracer)
if [ "$g5" = "ksys_sync " ] && [ "$n5" -gt 100 ] && [ "$top5" = function_graph ]; then
	result tracecmd/graph-beside-instance PASS
else
	result tracecmd/graph-beside-instance FAIL "graph traced '$(echo $g5 | cut -c1-200)', instance $n5 events, top tracer $top5"
	sed 's/^/    start: /' /tmp/s5.log | tail -10
fi
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter
echo 1 > $T/tracing_on
if [ -d $T/instances/mux-fb ]; then
	echo nop > $T/instances/mux-fb/current_tracer
	rmdir $T/instances/mux-fb
fi

exit $results_failed
