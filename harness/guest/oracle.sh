#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# oracle.sh STEPS SEED...: mux-oracle (harness/guest/mux-oracle.c) for
# STEPS random steps from each SEED, then, once it reset everything, the
# zero-effect check of the ftrace-mux selftests (no ID, set, trampoline,
# traced site or detour left).  A RESULT line per seed and one for the
# check; a mismatch's lines and the shrunk steps that replay it are
# printed.  The word "shrink" among the seeds checks the shrinking: with
# the model broken on purpose, a run must stop at a mismatch and shrink
# it to a few steps that replay it, and that pass with the model whole.
# The word "nodetours" leaves the detour test module's steps out of the
# seeds after it.
O=$(command -v mux-oracle || echo /run/mux-oracle)
F=/opt/ftrace/test.d/ftrace-mux/functions
steps=$1
shift
cd /sys/kernel/tracing || exit 1
# shellcheck disable=SC1090
TEST_DIR=/opt/ftrace/test.d . $F
# After the helpers, whose fail() ends an ftracetest case: here each
# failed check is counted (mux_assert_zero_effect() goes on after one)
zero_bad=0
fail() { echo "zero-effect: $*"; zero_bad=1; }
# The shrinking, on a model broken on purpose (MUX_ORACLE_BREAK)
shrink_check() {
	local seq n from seed=14
	# The distro-like kernel's BPF and livepatch steps draw other
	# sequences: there seed 14 mismatches only at step 366, seed 16 at 39
	command -v mux-bpf > /dev/null && seed=16
	MUX_ORACLE_BREAK=1 $O $seed 400 > /tmp/oracle.shrink 2>&1
	echo "oracle: broken model, seed $seed: rc $?"
	grep '^oracle: shrunk\|^oracle: replay with\|^step\|^MISMATCH' /tmp/oracle.shrink |
		sed -n '/^oracle: shrunk/,$p'
	seq=$(sed -n 's/^oracle: replay with: mux-oracle replay //p' /tmp/oracle.shrink)
	from=$(sed -n 's/^oracle: shrunk from \([0-9]*\) to \([0-9]*\) steps.*/\1/p' /tmp/oracle.shrink)
	n=$(sed -n 's/^oracle: shrunk from \([0-9]*\) to \([0-9]*\) steps.*/\2/p' /tmp/oracle.shrink)
	# Three steps make the mismatch: an instance made, its tracer
	# function_graph, the profiler on
	if [ -z "$seq" ] || [ -z "$n" ] || [ "$n" != 3 ] || [ "$n" -ge "$from" ]; then
		echo "shrink: no short sequence (from ${from:-?} to ${n:-?} steps)"
		echo "RESULT oracle/shrink FAIL"
		return
	fi
	if ! MUX_ORACLE_BREAK=1 $O replay "$seq" > /tmp/oracle.replay 2>&1; then
		if $O replay "$seq" > /tmp/oracle.replay 2>&1; then
			echo "RESULT oracle/shrink PASS"
			return
		fi
		echo "shrink: the whole model mismatches the replay too:"
	else
		echo "shrink: the replay of the broken model does not mismatch:"
	fi
	cat /tmp/oracle.replay
	echo "RESULT oracle/shrink FAIL"
}

for s in "$@"; do
	# The seeds after it without the detour test module's steps (to
	# tell a find of theirs from one of the other steps)
	if [ "$s" = nodetours ]; then
		export MUX_ORACLE_DETOURS=0
		continue
	fi
	if [ "$s" = shrink ]; then
		shrink_check
		continue
	fi
	t0=$(date +%s)
	$O "$s" "$steps" > /tmp/oracle.$s 2>&1
	rc=$?
	echo "oracle: seed $s, $steps steps, rc $rc, $(( $(date +%s) - t0 )) s"
	if [ $rc = 0 ]; then
		tail -n 2 /tmp/oracle.$s
		echo "RESULT oracle/seed-$s PASS"
	else
		# The first mismatch and the steps that led to it, then what
		# they shrank to
		awk '/^MISMATCH|^oracle: seed [0-9]* step/ { hit = 1 }
		     hit && !/^MISMATCH|^oracle: seed [0-9]* step/ { exit }
		     { print }' /tmp/oracle.$s | tail -n 30
		sed -n '/^oracle: shrunk\|^oracle: the mismatch does not/,$p' /tmp/oracle.$s | head -n 60
		grep -c '^MISMATCH' /tmp/oracle.$s | sed 's/^/mismatch lines: /'
		echo "RESULT oracle/seed-$s FAIL"
	fi
done
mux_assert_zero_effect
if [ $zero_bad = 0 ]; then
	echo "RESULT oracle/zero-effect PASS"
else
	echo "RESULT oracle/zero-effect FAIL"
fi
