#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-stuff.sh: booted with "spectre_v2=retpoline retbleed=stuff,force",
# the kernel runs retpolines and call depth tracking: every call site the
# kernel knows goes through an accounting thunk, every return through the
# return thunk, and code that ftrace calls from a site it patched accounts
# for itself.  Checks that the mitigations are on (RESULT lines), then runs
# ftrace-mux's own cases (patched kernel) and the BPF check under them.
#
# Also prints, as STAT lines, accounted calls minus returns
# (CALL_THUNKS_DEBUG's counters) over the ftrace-ops sample's 100000 calls
# with 0 to 10 tracers on its function.  Not a pass/fail check: the figure
# is -1 or 0 per call from one load of the sample to the next, with or
# without tracers and on the unpatched kernel too (README), so a call
# accounted twice cannot be told apart from it.
V=/sys/devices/system/cpu/vulnerabilities
h=/opt/harness
CT=/sys/kernel/debug/callthunks
MOD=/lib/modules/$(uname -r)/kernel/samples/ftrace/ftrace-ops.ko
CALLS=100000

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

# Accounted calls minus returns, summed over the CPUs.
imbalance() {
	cat $CT/cpu* | awk '$1 == "C:" { n += $2 - $4 } END { print n + 0 }'
}
drift() { # relevant-ops
	local d0
	d0=$(imbalance)
	# kmod's insmod: busybox's loads the sample a second time when
	# its init fails, as the sample's does on purpose.
	/opt/gnu/bin/insmod $MOD nr_function_calls=$CALLS nr_ops_relevant=$1 2> /dev/null
	echo $(($(imbalance) - d0))
}
if [ -d $CT ]; then
	for n in 0 1 2 8 9 10; do
		echo "STAT depth $n $(drift $n)"
	done
else
	echo "RESULT distro/stuff/depth-counters FAIL"
	echo "---- no $CT (CONFIG_CALL_THUNKS_DEBUG)"
fi

if [ -e /sys/kernel/tracing/function_tracers ]; then
	sh $h/ftracetest.sh ftrace-mux | sed 's|^RESULT |RESULT distro/stuff/|'
fi
sh $h/distro-bpf.sh | sed 's|^RESULT distro/|RESULT distro/stuff/|'
