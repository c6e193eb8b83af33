#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh: what `make run` shows inside the freshly built kernel.
T=/sys/kernel/tracing
cd $T || exit 1
set -e
step() { echo; echo "== $*"; }

echo "== $(uname -r) booted; tracefs at $T"

step "two tracers, two filters: the function tracer and the profiler"
echo ksys_sync > set_ftrace_filter
echo function > current_tracer
echo 1 > function_profile_enabled
echo function_profile > function_tracers
echo __x64_sys_newuname > set_ftrace_filter
echo ksys_sync >> set_ftrace_filter
echo function > function_tracers
echo '# cat function_tracers'; cat function_tracers
echo '# cat function_filters'; cat function_filters
echo '# grep -e ksys_sync -e newuname enabled_functions'
grep -e '^ksys_sync ' -e '^__x64_sys_newuname ' enabled_functions
sync; uname -n > /dev/null
echo '# grep -e ksys_sync -e newuname trace   (function tracer: ksys_sync only)'
grep -e 'ksys_sync <-' -e 'newuname <-' trace | head -3
echo '# trace_stat: the profiler counts both'
cat trace_stat/function* | awk '$1 == "ksys_sync" || $1 == "__x64_sys_newuname"'

step "a tool that knows nothing of ftrace-mux, while this shell has the profiler selected"
echo function_profile > function_tracers
echo '# grep function_profile function_tracers   (selected by this shell)'
grep function_profile function_tracers
echo '# perf ftrace -a -t function -T __x64_sys_newuname -- uname -n'
perf ftrace -a -t function -T __x64_sys_newuname -- uname -n 2>&1 | grep 'newuname <-' | head -2
echo '# cat function_filters   (perf edited the global filter, not the profiler'"'"'s)'
cat function_filters
echo function > function_tracers
# perf took the top instance over and reset it on exit: as before
echo ksys_sync > set_ftrace_filter
echo function > current_tracer
echo 1 > tracing_on

step "the same, seen and edited with the ftrace-mux tool"
echo '# ftrace-mux list'; ftrace-mux list
echo "# ftrace-mux show 'ksys_*'"; ftrace-mux show 'ksys_*'
echo '# ftrace-mux filter function_profile --remove ksys_sync'
ftrace-mux filter function_profile --remove ksys_sync
echo '# ftrace-mux show --tracer fgraph'; ftrace-mux show --tracer fgraph
echo '# ftrace-mux stat'; ftrace-mux stat
echo 0 > function_profile_enabled
echo nop > current_tracer
echo > set_ftrace_filter

step "a detour: tracing a function that has no fentry call"
D=ftrace_mux_detour_target
modprobe ftrace_mux_detour_test
echo "# echo $D > set_ftrace_filter"
echo $D > set_ftrace_filter 2>&1 || echo "(refused: $D has no fentry call)"
echo "# ftrace-mux detour add $D"; ftrace-mux detour add $D
echo '# cat detour_functions'; cat detour_functions
echo $D > set_ftrace_filter
echo function > current_tracer
echo 1 > function_profile_enabled
ftrace-mux filter function_profile --reset
ftrace-mux filter function_profile $D
echo "# (the module calls $D 3 times) grep $D trace"
echo 3 > /sys/module/ftrace_mux_detour_test/parameters/run
grep "$D <-" trace
echo "# ftrace-mux show $D"; ftrace-mux show $D
echo '# trace_stat: the profiler counts it too'
cat trace_stat/function* | awk -v d=$D '$1 == d'
echo 0 > function_profile_enabled
echo nop > current_tracer
echo > set_ftrace_filter
echo "# ftrace-mux detour remove $D"; ftrace-mux detour remove $D
rmmod ftrace_mux_detour_test

step "trace-cmd record -p function -l ksys_sync -l __x64_sys_newuname"
cd /tmp
# trace-cmd 3.1.6 sometimes records nothing for so short a command, on
# unpatched kernels too: then once more.
for try in 1 2 3; do
	trace-cmd record -q -p function -l ksys_sync -l __x64_sys_newuname \
		sh -c 'sync; uname -n' > /dev/null 2>&1
	trace-cmd report 2>/dev/null | grep ' function: ' | head -4 > /tmp/demo.rep
	[ -s /tmp/demo.rep ] && break
	echo "(trace-cmd recorded nothing; recording again)"
done
cat /tmp/demo.rep

step "trace-cmd record -p function_graph -g ksys_sync (first lines)"
trace-cmd record -q -p function_graph -g ksys_sync sync > /dev/null 2>&1
trace-cmd report 2>/dev/null | grep funcgraph | head -6
