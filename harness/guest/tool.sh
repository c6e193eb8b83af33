#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tool.sh [stock]: the ftrace-mux command-line tool against the running
# kernel, every command and its error paths, one RESULT line per case.
# With "stock", the kernel is the unpatched baseline: the tool must say so.
T=/sys/kernel/tracing
M=ftrace-mux
out=/tmp/tool.out err=/tmp/tool.err

. /opt/harness/lib.sh
# The tool's output of the last case, for a failure's notes
output() { sed 's/^/    /' $out $err | head -20; }
# case NAME EXPECTED-STATUS CHECK-COMMAND -- TOOL-ARGS...
case_() {
	local name=$1 want=$2 check=$3 rc
	shift 4
	$M "$@" > $out 2> $err
	rc=$?
	if [ $rc != $want ]; then
		result tool/$name FAIL "exit $rc, wanted $want: $M $*
$(output)"
	elif ! sh -c "$check" > /dev/null 2>&1; then
		result tool/$name FAIL "check failed: $check
$(output)"
	else
		result tool/$name PASS
	fi
}

command -v $M > /dev/null || { result tool/installed FAIL "no $M in PATH"; exit 1; }

if [ "$1" = stock ]; then
	case_ stock-kernel 2 "grep -q 'has no ftrace-mux' $err" -- list
	case_ stock-kernel-show 2 "grep -q 'has no ftrace-mux' $err" -- show
	exit 0
fi

case_ help 0 "grep -q '^usage: ftrace-mux' $out" -- --help
case_ usage-no-command 1 "grep -q 'no command' $err" --
case_ usage-unknown-command 1 "grep -q \"unknown command 'frob'\" $err" -- frob
case_ usage-filter-no-tracer 1 "grep -q 'no tracer' $err" -- filter
case_ usage-filter-no-pattern 1 "grep -q 'no pattern' $err" -- filter function
case_ usage-filter-two-edits 1 "grep -q 'one of' $err" -- filter function --add --remove x
case_ usage-bad-pattern 1 "grep -q 'bad pattern' $err" -- filter function 'two words'
case_ usage-reset-pattern 1 "grep -q 'takes no pattern' $err" -- filter function --reset x
case_ usage-bad-instance 1 "grep -q 'bad instance' $err" -- --instance 'a:b' list

# Two tracers with different filters on one function: the function tracer
# on ksys_sync, the profiler on ksys_sync and __x64_sys_newuname.
echo ksys_sync > $T/set_ftrace_filter
echo function > $T/current_tracer
echo 1 > $T/function_profile_enabled
case_ filter-set-two 0 "grep -q '^\[function_profile\] __x64_sys_newuname$' $T/function_filters &&
	grep -q '^\[function_profile\] ksys_sync$' $T/function_filters &&
	grep -q '^\*  function ' $T/function_tracers" \
	-- filter function_profile __x64_sys_newuname ksys_sync
# Without --add the patterns replace the filter, as set_ftrace_filter's '>'.
case_ filter-set 0 "[ \$(grep -c '^\[function_profile\] ' $T/function_filters) = 1 ] &&
	grep -q '^\[function_profile\] ksys_sync$' $T/function_filters" \
	-- filter function_profile ksys_sync
case_ filter-add 0 "grep -q '^\[function_profile\] __x64_sys_newuname$' $T/function_filters &&
	grep -q '^\[function_profile\] ksys_sync$' $T/function_filters" \
	-- filter function_profile --add __x64_sys_newuname
# A refused pattern after the first: the old filter is back, whole.
grep '^\[function_profile\]' $T/function_filters | sort > /tmp/tool.pf
case_ filter-set-refused 2 "grep -q '^error_log: .*No function matches' $err &&
	grep '^\[function_profile\]' $T/function_filters | sort | cmp -s - /tmp/tool.pf" \
	-- filter function_profile vfs_read no_such_function_xyz
case_ filter-unknown-tracer 2 "grep -q 'refused' $err && grep -q '^error_log: .*No such tracer' $err" \
	-- filter no_such_tracer vfs_read
case_ filter-no-match 2 "grep -q '^error_log: .*No function matches' $err" \
	-- filter function_profile no_such_function_xyz
case_ filter-owned 2 "grep -q '^error_log: ' $err" -- filter fgraph vfs_read

case_ list 0 "grep -qE '^[0-9]+ +function +1 +global *$' $out &&
	grep -qE '^[0-9]+ +function_profile +[0-9]+ +own *$' $out" -- list
# The number of IDs is the kernel's CONFIG_FTRACE_MUX_IDS, as tracefs says it
ids=$(sed -n 's/^# ids: .* free of \([0-9]*\);.*/\1/p' $T/function_tracers)
case_ list-json 0 "jq -e '(.tracers[] | select(.name == \"function\") | .selected_by == [] and .filter == \"global\" and .functions == 1)
	and (.tracers[] | select(.name == \"function_profile\") | .filter == \"own\")
	and .ids.total == ${ids:-none} and .ids.in_use >= 2' $out" -- list --json
# This script selects the profiler: the tool names it (this shell, $$) as
# the selecting process, and the flags keep only the flags.
echo function_profile > $T/function_tracers
case_ list-selected 0 "grep -qE '^[0-9]+ +function_profile +[0-9]+ +own +$$\$' $out &&
	grep -qE '^[0-9]+ +function +1 +global *$' $out" -- list
case_ list-selected-json 0 "jq -e '(.tracers[] | select(.name == \"function_profile\") | .selected_by == [$$] and
	(.flags | test(\"selected\") | not))' $out" -- list --json
echo function > $T/function_tracers

case_ show 0 "grep -qE '^ksys_sync +0x[0-9a-f]+ +set +([a-z_]+,)*function(,|$)' $out" -- show 'ksys_*'
case_ show-json 0 "jq -e '[.sites[] | select(.function == \"ksys_sync\")] | length == 1 and
	(.[0].path == \"set\") and (.[0].tracers | index(\"function\") != null) and .[0].ops == 2 and
	(.[0].mask | test(\"^0x[0-9a-f]+$\"))' $out" \
	-- show --json ksys_sync
case_ show-tracer 0 "jq -e '[.sites[].function] | sort == [\"__x64_sys_newuname\", \"ksys_sync\"]' $out" \
	-- show --tracer fgraph --json
case_ stat 0 "grep -q '^tracer IDs: ' $out && grep -qE 'set [1-9]' $out && grep -qE '^sets: +[1-9][0-9]* live, [0-9]+ freeing; [1-9][0-9]* trampolines' $out" -- stat
case_ stat-json 0 "jq -e '.ids.in_use >= 2 and .sites.set >= 1 and .sets.live >= 1 and .sets.trampolines >= 1 and .sets.trampoline_bytes >= 4096 and .tracers >= 3' $out" \
	-- stat --json
# A direct call (the ftrace-direct sample): enabled_functions gives its
# address a line of its own, which show must read past
modprobe ftrace-direct
case_ show-direct 0 "grep -q 'direct-->' $T/enabled_functions &&
	jq -e '[.sites[] | select(.function == \"wake_up_process\")] | length == 1 and
	.[0].path == \"direct\" and .[0].tracers == [\"direct\"]' $out" -- show --json wake_up_process
rmmod ftrace-direct

case_ filter-remove 0 "! grep -q '^\[function_profile\] ksys_sync$' $T/function_filters" \
	-- filter function_profile --remove ksys_sync
case_ filter-notrace 0 "grep -q '^\[function_profile\] !vfs_read$' $T/function_filters" \
	-- filter function_profile --notrace vfs_read
case_ filter-reset 0 "! grep -q '^\[function_profile\] !' $T/function_filters" \
	-- filter function_profile --notrace --reset
echo 0 > $T/function_profile_enabled
echo nop > $T/current_tracer
echo > $T/set_ftrace_filter

# Instances.
mkdir $T/instances/tool
echo function > $T/instances/tool/current_tracer
case_ instance-filter 0 "[ \"\$(grep -v '^#' $T/instances/tool/set_ftrace_filter)\" = vfs_read ]" \
	-- --instance tool filter function vfs_read
case_ instance-list 0 "jq -e '[.tracers[].name] == [\"tool:function\"]' $out" \
	-- --instance tool list --json
case_ instance-unknown 2 "grep -q \"no trace instance named 'nosuch'\" $err" -- --instance nosuch list
echo nop > $T/instances/tool/current_tracer
rmdir $T/instances/tool

# Detours, on the test module's functions (they have no fentry call).
D1=ftrace_mux_detour_target D2=ftrace_mux_detour_target2
modprobe ftrace_mux_detour_test
# One write for all: a refused symbol keeps the good one out too.
case_ detour-add-refused 2 "grep -q '^error_log: .*Has an fentry call' $err &&
	! grep -q '^$D1 ' $T/detour_functions" -- detour add $D1 vfs_read
case_ detour-add 0 "grep -q '^$D1 ' $T/detour_functions && grep -q '^$D2 ' $T/detour_functions" \
	-- detour add $D1 $D2
case_ detour-list-json 0 "jq -e '[.detours[].symbol] == [\"$D1\", \"$D2\"] and
	all(.detours[]; .state == \"jump\" or .state == \"int3\")' $out" -- detour list --json
case_ detour-refused 2 "grep -q '^error_log: .*Has an fentry call' $err" -- detour add vfs_read
echo 1 > $T/function_profile_enabled
case_ detour-filter 0 "grep -q '^\[function_profile\] $D1 \[ftrace_mux_detour_test\]\$' $T/function_filters" \
	-- filter function_profile $D1
case_ detour-show 0 "jq -e '.sites[0].function == \"$D1\" and .sites[0].path == \"detour\" and
	.sites[0].regs and (.sites[0].tracers | sort) == [\"fgraph\", \"function_profile\"]' $out" -- show --json $D1
case_ detour-stat 0 "jq -e '.detours.total == 2 and .sites.detour == 1' $out" -- stat --json
case_ detour-remove 0 "! grep -q '^$D1 ' $T/detour_functions && grep -q '^$D2 ' $T/detour_functions" \
	-- detour remove $D1
case_ detour-remove-unknown 2 "grep -q '^error_log: .*Not detoured' $err" -- detour remove $D1

# Inlined copies, from the test module's debug info in /usr/lib/debug
# (three of the target, which has an fentry call; one of the notrace
# function, which needs its detour first).
IT=ftrace_mux_detour_test:ftrace_mux_inline_target
IN=ftrace_mux_detour_test:ftrace_mux_inline_notrace
case_ inline-usage 1 "grep -q 'no function given' $err" -- detour inline --partial
case_ inline-unknown 2 "grep -q 'no such function' $err" -- detour inline no_such_function_here
case_ inline-no-vmlinux 2 "grep -q 'no vmlinux with debug info' $err" -- detour inline vfs_read
case_ inline-list-sites 0 "[ \$(grep -c '^$IT@' $out) = 3 ] && [ \$(wc -l < $out) = 3 ] &&
	! grep -q '@' $T/detour_functions" -- detour inline --list-sites $IT
# The copies the debug info shows are those the module's own labels note
$M detour inline --list-sites $IT $IN | sort > $out.tool
sort /sys/module/ftrace_mux_detour_test/parameters/inline_sites > $out.mod
if [ -s $out.mod ] && cmp -s $out.mod $out.tool; then
	result tool/inline-sites-match PASS
else
	result tool/inline-sites-match FAIL "module: $(cat $out.mod) tool: $(cat $out.tool)"
fi
case_ inline-add 0 "[ \$(grep -c '^$IT@' $T/detour_functions) = 3 ] &&
	grep -q '^ftrace_mux_inline_notrace ' $T/detour_functions &&
	[ \$(grep -c '^$IN@' $T/detour_functions) = 1 ]" -- detour inline $IT $IN
# Every copy counted, as many times as the module ran each function
echo 'ftrace_mux_inline_*' > $T/set_ftrace_filter
echo function > $T/current_tracer
echo > $T/trace
set -- $(cat /sys/module/ftrace_mux_detour_test/parameters/inline_calls)
echo 10 > /sys/module/ftrace_mux_detour_test/parameters/inline_run
set -- $1 $2 $(cat /sys/module/ftrace_mux_detour_test/parameters/inline_calls)
echo 0 > $T/tracing_on
nt=$(grep -c ' ftrace_mux_inline_target <-' $T/trace)
nn=$(grep -c ' ftrace_mux_inline_notrace <-' $T/trace)
if [ $nt = $(($3 - $1)) ] && [ $nn = $(($4 - $2)) ] && [ $nt = 40 ] && [ $nn = 20 ]; then
	result tool/inline-counts PASS
else
	result tool/inline-counts FAIL "traced $nt and $nn calls, ran $(($3 - $1)) and $(($4 - $2))"
fi
echo nop > $T/current_tracer
echo 1 > $T/tracing_on
echo > $T/set_ftrace_filter
case_ inline-again 2 "grep -q '^error_log: .*Already detoured' $err" -- detour inline $IT
case_ inline-remove-one 0 "[ \$(grep -c '^$IT@' $T/detour_functions) = 2 ]" \
	-- detour remove "$(grep -m1 "^$IT@" $T/detour_functions | cut -d' ' -f1)"
case_ inline-partial 0 "grep -q '2 site(s) refused' $err &&
	[ \$(grep -c '^$IT@' $T/detour_functions) = 3 ]" -- detour inline --partial $IT
case_ inline-remove 0 "! grep -q inline $T/detour_functions" -- detour remove $IT $IN
echo 0 > $T/function_profile_enabled
echo '!function_profile' > $T/function_tracers
echo > $T/detour_functions
rmmod ftrace_mux_detour_test

# No permission: an unprivileged user.
su -s /bin/sh nobody -c "$M list" > $out 2> $err
rc=$?
if [ $rc = 2 ] && grep -q 'permission denied' $err; then
	result tool/no-permission PASS
else
	result tool/no-permission FAIL "exit $rc as nobody"
fi

# tracefs not mounted: libtracefs mounts it, and the tool works.
umount /sys/kernel/debug/tracing 2> /dev/null
umount $T
# Not vacuous: tracefs must really be gone before the tool runs.
if grep -q ' tracefs ' /proc/mounts; then
	result tool/tracefs-unmounted FAIL "could not unmount tracefs: $(grep ' tracefs ' /proc/mounts)"
else
	case_ tracefs-unmounted 0 "grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts" -- list
fi
grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts || mount -t tracefs nodev $T
