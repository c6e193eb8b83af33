#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# oracle.sh STEPS SEED...: mux-oracle (harness/guest/mux-oracle.c) for
# STEPS random steps from each SEED, then, once it reset everything, the
# zero-effect check of the ftrace-mux selftests (no ID, set, trampoline,
# traced site or detour left).  A RESULT line per seed and one for the
# check; a mismatch's lines and the steps before it are printed.
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
for s in "$@"; do
	t0=$(date +%s)
	$O "$s" "$steps" > /tmp/oracle.$s 2>&1
	rc=$?
	echo "oracle: seed $s, $steps steps, rc $rc, $(( $(date +%s) - t0 )) s"
	if [ $rc = 0 ]; then
		tail -n 1 /tmp/oracle.$s
		echo "RESULT oracle/seed-$s PASS"
	else
		# The first mismatch and the steps that led to it
		awk '/^MISMATCH|^oracle: seed [0-9]* step/ { hit = 1 }
		     hit && !/^MISMATCH|^oracle: seed [0-9]* step/ { exit }
		     { print }' /tmp/oracle.$s | tail -n 60
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
