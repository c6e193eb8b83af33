#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# system.sh: make check-system's scenario on a Debian system booted from
# the packages (run by ftrace-mux-system.service, as root, once the
# system is up).  Reports on the second serial port, one line per check:
#   RESULT system/<stage>/<name> PASS|FAIL
#
# Stage 1 (first boot): the function tracer and the profiler with their
# own filters, selected through function_tracers; perf and trace-cmd from
# Debian's archive beside them (together.sh, tracecmd.sh); bpftrace's
# kfunc probe beside the function tracer; the packaged tool.  It leaves
# tracers running and reboots.
# Stage 2 (second boot): nothing is enabled.
# Stage 3 (Debian's own kernel): the tool says the kernel has no
# ftrace-mux; the tool's package is removed.
# Stage 4 (the packaged kernel again): its interface works without the
# tool.
exec > /dev/ttyS1 2>&1
T=/sys/kernel/tracing
state=/var/lib/ftrace-mux-system/stage
stage=$(cat $state 2>/dev/null || echo 1)
. /opt/harness/lib.sh
cd /tmp || exit 1
N=20

echo "SYSTEM stage $stage: $(uname -r), up $(cut -d' ' -f1 /proc/uptime) s"
systemd-analyze 2>/dev/null | head -1 | sed 's/^/SYSTEM /'

# The calls: sync(2) reaches ksys_sync, syncfs(2) __x64_sys_syncfs;
# nothing else on this system makes either.
syncs() { local i=0; while [ $i -lt "$1" ]; do sync; i=$((i + 1)); done; }
syncfss() { local i=0; while [ $i -lt "$1" ]; do sync -f /; i=$((i + 1)); done; }
traced() { grep -c " $1 <-" $T/trace; }
others() { grep -v '^#' $T/trace | grep -vc " $1 <-"; }
profiled() { cat $T/trace_stat/function* | awk -v f="$1" '$1 == f { n += $2 } END { print n + 0 }'; }
# Is the tool's package installed, and its binary there?
installed() {
	dpkg-query -W -f='${Status}' ftrace-mux 2>/dev/null | grep -q 'ok installed' ||
		[ -e /usr/bin/ftrace-mux ]
}
# The function tracer on ksys_sync, through the global filter
function_on() {
	echo ksys_sync > $T/set_ftrace_filter
	echo function > $T/current_tracer
}
# The function tracer on ksys_sync (the global filter) and the
# profiler on __x64_sys_syncfs, its own filter given by its owner
# (owner_start, lib.sh), N calls of each: each counts its own, exactly.
# The owner stays until owner_go.
function_and_profiler() {
	local got

	reset
	function_on
	owner_start __x64_sys_syncfs
	syncs $N
	syncfss $N
	got=$(traced ksys_sync)
	[ "$got" = $N ] || flunk "the function tracer traced ksys_sync $got times, want $N"
	got=$(others ksys_sync)
	[ "$got" = 0 ] || flunk "the function tracer traced $got other lines"
	got=$(profiled __x64_sys_syncfs)
	[ "$got" = $N ] || flunk "the profiler counted __x64_sys_syncfs $got times, want $N"
	got=$(profiled ksys_sync)
	[ "$got" = 0 ] || flunk "the profiler counted ksys_sync $got times, want 0"
}
reset() {
	echo nop > $T/current_tracer
	echo > $T/set_ftrace_filter
	echo > $T/set_ftrace_notrace
	[ -f $T/function_profile_enabled ] && echo 0 > $T/function_profile_enabled
	echo > $T/trace
}

stage1() {
	local got

	[ -f $T/function_tracers ] || flunk "no function_tracers in tracefs"
	installed || flunk "the ftrace-mux package is not installed"
	uname -r | grep -q -- '-ftrace-mux$' || flunk "running $(uname -r)"
	result system/1/kernel

	function_and_profiler
	result system/1/function-and-profiler

	# The packaged tool sees the same
	ftrace-mux list > /tmp/list || flunk "ftrace-mux list: exit $?"
	grep -q 'function_profile' /tmp/list || flunk "list lacks the profiler: $(cat /tmp/list)"
	ftrace-mux show > /tmp/show || flunk "ftrace-mux show: exit $?"
	grep -q '^ksys_sync ' /tmp/show || flunk "show lacks ksys_sync: $(head -5 /tmp/show)"
	grep -q '^__x64_sys_syncfs ' /tmp/show || flunk "show lacks __x64_sys_syncfs: $(head -5 /tmp/show)"
	ftrace-mux stat > /tmp/stat || flunk "ftrace-mux stat: exit $?"
	grep -q . /tmp/stat || flunk "ftrace-mux stat printed nothing"
	result system/1/tool
	sed 's/^/    list: /' /tmp/list
	sed 's/^/    show: /' /tmp/show
	sed 's/^/    stat: /' /tmp/stat

	# bpftrace's kfunc probe (a BPF trampoline, ftrace's direct call)
	# on the function tracer's function
	echo > $T/trace
	# bpftrace -c splits its command at spaces, quotes and all: a script
	printf 'i=0; while [ $i -lt %d ]; do sync; i=$((i + 1)); done\n' $N > /tmp/wl.sh
	bpftrace -e 'kfunc:ksys_sync { @calls = count(); }' -c "/bin/sh /tmp/wl.sh" \
		> /tmp/bpf.out 2>&1 || flunk "bpftrace: exit $?: $(tail -3 /tmp/bpf.out)"
	got=$(sed -n 's/^@calls: //p' /tmp/bpf.out)
	[ "$got" = $N ] || flunk "bpftrace counted ${got:-no} calls, want $N: $(tail -3 /tmp/bpf.out)"
	got=$(traced ksys_sync)
	[ "$got" = $N ] || flunk "beside bpftrace, the function tracer traced ksys_sync $got times, want $N"
	result system/1/bpftrace-kfunc

	owner_go
	reset

	# Debian's perf and trace-cmd beside tracers of other owners
	bash /opt/harness/together.sh | sed 's,^RESULT ,RESULT system/1/,'
	bash /opt/harness/tracecmd.sh | sed 's,^RESULT ,RESULT system/1/,'

	# Left on for the reboot to clear
	reset
	function_on
	echo 1 > $T/function_profile_enabled
	grep -q . $T/enabled_functions || flunk "nothing enabled before the reboot"
	result system/1/left-enabled
}

stage2() {
	[ "$(cat $T/current_tracer)" = nop ] || flunk "current_tracer: $(cat $T/current_tracer)"
	# (tracefs files have no size: read them)
	grep -q . $T/enabled_functions && flunk "enabled: $(head -5 $T/enabled_functions)"
	grep -v '^#' $T/set_ftrace_filter | grep -q . && flunk "filter: $(head -3 $T/set_ftrace_filter)"
	[ "$(cat $T/function_profile_enabled)" = 0 ] || flunk "the profiler is on"
	grep -qE 'own-filter|selected-by' $T/function_tracers && flunk "$(cat $T/function_tracers)"
	result system/2/nothing-enabled
}

# Debian's own kernel, booted from the same system: the tool says it
# has no ftrace-mux; the function tracer is the kernel's own.
stage3() {
	local got rc

	uname -r | grep -q -- '-ftrace-mux$' && flunk "running $(uname -r), not Debian's kernel"
	[ -e $T/function_tracers ] && flunk "function_tracers on Debian's kernel"
	ftrace-mux stat > /tmp/stat 2> /tmp/stat.err
	rc=$?
	[ $rc = 2 ] || flunk "ftrace-mux stat: exit $rc, want 2"
	grep -q 'has no ftrace-mux' /tmp/stat.err || flunk "ftrace-mux stat said: $(cat /tmp/stat.err)"
	result system/3/tool-on-debian-kernel
	reset
	function_on
	syncs $N
	got=$(traced ksys_sync)
	[ "$got" = $N ] || flunk "Debian's kernel traced ksys_sync $got times, want $N"
	reset
	result system/3/debian-kernel-traces

	DEBIAN_FRONTEND=noninteractive apt-get remove -y -q ftrace-mux > /tmp/remove.log 2>&1 ||
		flunk "apt-get remove ftrace-mux: $(tail -3 /tmp/remove.log)"
	installed && flunk "ftrace-mux still installed"
	result system/3/tool-removed
}

# ftrace-mux's kernel again, the tool's package gone: the kernel's
# interface is whole without it.
stage4() {
	local got

	uname -r | grep -q -- '-ftrace-mux$' || flunk "running $(uname -r)"
	installed && flunk "ftrace-mux is installed"
	function_and_profiler
	owner_go
	reset
	result system/4/without-the-tool
}

# Each stage ends the boot: 1 reboots (the same kernel), the others
# power off, and check-system.sh boots the next with the kernel it wants.
case "$stage" in
1)	stage1; next=2 ;;
2)	stage2; next=3 ;;
3)	stage3; next=4 ;;
4)	stage4; next=done ;;
*)	echo "SYSTEM stage $stage: nothing to do"; next=done ;;
esac
echo $next > $state
sync
echo "SYSTEM stage $stage done"
if [ "$stage" = 1 ]; then
	systemctl reboot
else
	systemctl poweroff
fi
