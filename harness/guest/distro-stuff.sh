#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-stuff.sh: booted with "spectre_v2=retpoline retbleed=stuff,force",
# the kernel runs retpolines and call depth tracking: every call site the
# kernel knows goes through an accounting thunk, every return through the
# return thunk, and code that ftrace calls from a site it patched accounts
# for itself.  Checks, one RESULT line each:
#  - the mitigations are on;
#  - each traced call is accounted exactly once: over the ftrace-ops
#    sample's calls with 1 to 10 tracers on the function, accounted calls
#    minus returns (CALL_THUNKS_DEBUG's counters) must not drift by more
#    than 1 in 100 calls from the same run without tracers;
#  - the BPF check, and on the patched kernel ftrace-mux's own cases.
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
	ref=$(drift 0)
	echo "STAT depth 0 $ref"
	for n in 1 2 8 9 10; do
		d=$(drift $n)
		echo "STAT depth $n $d"
		off=$((d - ref))
		if [ $off -lt 0 ]; then off=$((-off)); fi
		if [ $off -le $((CALLS / 100)) ]; then
			echo "RESULT distro/stuff/depth-$n-tracers PASS"
		else
			echo "RESULT distro/stuff/depth-$n-tracers FAIL"
			echo "---- depth-$n-tracers: accounted calls - returns drifted by $d over $CALLS calls, $ref without tracers"
		fi
	done
else
	echo "RESULT distro/stuff/depth-counters FAIL"
	echo "---- no $CT (CONFIG_CALL_THUNKS_DEBUG)"
fi

if [ -e /sys/kernel/tracing/function_tracers ]; then
	sh $h/ftracetest.sh ftrace-mux | sed 's|^RESULT |RESULT distro/stuff/|'
fi
sh $h/distro-bpf.sh | sed 's|^RESULT distro/|RESULT distro/stuff/|'
