# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ftracetest-groups.sh: sourced by check.sh and ftracetest-baseline.sh, so
# that the baseline is recorded from exactly the cases make check runs,
# started the same way.
#
# Every group of upstream ftracetest, over four VMs (test.d/ftrace-mux, this
# project's own cases, runs in the project VM).  The ftrace group alone runs
# for hours on the debug kernel (about six minutes a case), so A1 takes the
# files FTRACE_A1 names and A2 every other file of the group: ftracetest.sh
# takes that complement in the guest, so a case added upstream runs in one
# VM or the other.
# shellcheck disable=SC2034  # read by name, in ftracetest_vm and the callers
FTRACE_A1="ftrace/fgraph-*.tc ftrace/func-*.tc"
UPSTREAM_A1="00basic $FTRACE_A1"
UPSTREAM_A2="ftrace ${FTRACE_A1//ftrace\//!ftrace/} instances filter direct tracer"
UPSTREAM_B="kprobe dynevent"
UPSTREAM_C="event trigger preemptirq selftest"
UPSTREAM_PARTS="a1 a2 b c"

# ftracetest_vm PART VARIANT TIMEOUT DIR: run PART (a1, a2, ...) in a VM of
# VARIANT, leaving DIR/upstream-PART.{out,err,console}; returns harness/vm's
# status.  Boots with the nop tracer so that nothing but the test traces, and
# without the boot-time KUnit run, which the boot VM covers.
ftracetest_vm() {
	local part=$1 variant=$2 timeout=$3 dir=$4 groups -
	groups=UPSTREAM_${part^^}
	# The groups are words; their globs are the guest's to expand.
	set -f
	# shellcheck disable=SC2086
	harness/vm --variant "$variant" --timeout "$timeout" \
		--console "$dir/upstream-$part.console" \
		--append "ftrace=nop kunit.enable=0" \
		harness/guest/ftracetest.sh ${!groups} \
		> "$dir/upstream-$part.out" 2> "$dir/upstream-$part.err"
}
