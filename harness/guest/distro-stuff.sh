#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-stuff.sh [scale]: booted with "spectre_v2=retpoline retbleed=stuff,force",
# the kernel runs retpolines and call depth tracking: every call site the
# kernel knows goes through an accounting thunk, every return through the
# return thunk, and code that ftrace calls from a site it patched accounts
# for itself.  Checks that the mitigations are on (RESULT lines), then runs
# ftrace-mux's own cases (patched kernel) and the BPF check under them;
# with "scale", the slow cases of project.sh instead (a part of their own,
# stuff-scale-*: together they outgrew the VM's time limit).
#
# Call depth is checked by the ftrace_mux_x86.call_depth KUnit case, which
# check.sh has this boot run (kunit.filter_glob): with irqs off, a call of
# a function on each kind of trampoline must add as many accounted calls
# as returns (CALL_THUNKS_DEBUG's counters), as upstream's ftrace_caller
# does.  It skips itself when call depth tracking is off, so a skip fails.
V=/sys/devices/system/cpu/vulnerabilities
h=/opt/harness

r=$(cat $V/retbleed 2>/dev/null)
s=$(cat $V/spectre_v2 2>/dev/null)
case "$r" in
*Stuffing*) echo "RESULT distro/stuff/retbleed-stuffing PASS" ;;
*) echo "RESULT distro/stuff/retbleed-stuffing FAIL"; echo "---- retbleed: $r" ;;
esac
case "$s" in
*Retpolines*) echo "RESULT distro/stuff/spectre-v2-retpolines PASS" ;;
*) echo "RESULT distro/stuff/spectre-v2-retpolines FAIL"; echo "---- spectre_v2: $s" ;;
esac

if [ "$1" = scale ]; then
	sh $h/project.sh scale | sed 's|^RESULT |RESULT distro/stuff/|'
	exit
fi

if [ -e /sys/kernel/tracing/function_tracers ]; then
	# KTAP: "ok 1 call_depth", "not ok 1 call_depth", "ok 1 call_depth # SKIP"
	v=$(dmesg | sed 's/^\[[ 0-9.]*\]//; s/^ *//' | grep -E '^(not )?ok [0-9]+ call_depth( |$)')
	case "$v" in
	"ok "*"call_depth") echo "RESULT distro/stuff/call-depth-once PASS" ;;
	*) echo "RESULT distro/stuff/call-depth-once FAIL"
	   echo "---- KUnit ftrace_mux_x86.call_depth: ${v:-no result in dmesg}"
	   dmesg | grep -A4 'call_depth:' | head -40 ;;
	esac
	sh $h/project.sh fast | sed 's|^RESULT |RESULT distro/stuff/|'
fi
sh $h/distro-bpf.sh | sed 's|^RESULT distro/|RESULT distro/stuff/|'
