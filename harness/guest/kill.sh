#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kill.sh: ftrace dies during an ops' shutdown (mux_harness's kill knob:
# ftrace_kill() from a kprobe, as after an FTRACE_WARN_ON() there), while
# ksys_sync's site calls that ops' own trampoline.  The site is never
# patched back, so the trampoline must not be freed: sync(1) must still
# work.  The unpatched kernel frees it, and the first sync fetches its
# instructions from a freed page: check.sh's "kill-stock" part expects
# that Oops there, the "kill" part none here.
. /opt/harness/lib.sh
t=/sys/kernel/tracing
modprobe mux_harness || { echo "RESULT kill/module FAIL"; exit 1; }

# ftrace_kill()'s address, for the knob
addr=$(with_kptrs grep ' ftrace_kill$' /proc/kallsyms | cut -d' ' -f1)
[ -n "$addr" ] || flunk "no ftrace_kill in /proc/kallsyms"
result kill/found

# ftrace killed during the shutdown of an ops alone on ksys_sync
echo "$addr" > /sys/module/mux_harness/parameters/kill ||
	flunk "the knob failed: the kprobe never fired, or no ops registered"
# A dead ftrace refuses filter writes
{ echo schedule > $t/set_ftrace_filter; } 2> /dev/null &&
	flunk "ftrace still takes filter writes"
result kill/killed

# ksys_sync's site still runs
i=0
while [ $i -lt 5 ]; do sync; i=$((i + 1)); done
echo "synced"
result kill/site-survives
