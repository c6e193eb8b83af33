# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ftracetest-groups.sh: sourced by check.sh and ftracetest-baseline.sh, so
# that the baseline is recorded from exactly the cases make check runs,
# started the same way.
#
# Every group of upstream ftracetest, over nine VMs (parts of make check;
# test.d/ftrace-mux, this project's own cases, runs in the project part).
# The ftrace group runs for hours on the debug kernel (about ten minutes a
# case), so it is cut into parts by file name; its last part takes what the
# others leave (a "!" word names files to leave out, and ftracetest.sh
# takes that complement in the guest), so a case added upstream runs in
# some part.
# shellcheck disable=SC2034  # read by name, in ftracetest_vm and the callers
UPSTREAM_BASIC="00basic ftrace/fgraph-filter*"
# fgraph-multi alone takes some 20 minutes on the debug kernel, the
# profiler and retval cases 7 and 8: over 40 minutes in one VM.
UPSTREAM_FGRAPH="ftrace/fgraph-[!fpr]*"
UPSTREAM_FGRAPH2="ftrace/fgraph-[pr]*"
UPSTREAM_FUNCFILTER="ftrace/func-*"
UPSTREAM_FUNC1="ftrace/func_[a-o]*"
UPSTREAM_FUNC2="ftrace/func_[p-z]*"
UPSTREAM_FTRACE="ftrace !ftrace/fgraph-filter* !ftrace/fgraph-[!f]* !ftrace/func-* !ftrace/func_[a-o]* !ftrace/func_[p-z]*
	instances filter direct tracer"
UPSTREAM_KPROBE="kprobe dynevent"
UPSTREAM_EVENT="event trigger preemptirq selftest"
UPSTREAM_PARTS="basic fgraph fgraph2 funcfilter func1 func2 ftrace kprobe event"

# ftracetest_vm PART VARIANT TIMEOUT DIR: run PART (fgraph, kprobe, ...) in
# a VM of VARIANT, leaving DIR/upstream-PART.{out,err,console}; returns
# harness/test/vm's status.  Boots with the nop tracer so that nothing but the
# test traces, and without the boot-time KUnit run, which the boot part
# covers.
ftracetest_vm() {
	local part=$1 variant=$2 timeout=$3 dir=$4 groups -
	groups=UPSTREAM_${part^^}
	# The groups are words; their globs are the guest's to expand.
	set -f
	# shellcheck disable=SC2086
	harness/test/vm --variant "$variant" --timeout "$timeout" \
		--console "$dir/upstream-$part.console" \
		--append "ftrace=nop kunit.enable=0" \
		harness/guest/ftracetest.sh ${!groups} \
		> "$dir/upstream-$part.out" 2> "$dir/upstream-$part.err"
}

# upstream_part_of KEY: the part whose words select the result KEY
# ("ftrace/func_cpumask.tc@instance"), as ftracetest.sh selects files.
upstream_part_of() {
	local key=${1%@*} part groups w hit -
	set -f
	for part in $UPSTREAM_PARTS; do
		groups=UPSTREAM_${part^^}
		hit=0
		for w in ${!groups}; do
			case "$w" in
			'!'*)	# shellcheck disable=SC2053  # the word is a glob
				[[ $key == ${w#!} ]] && { hit=0; break; } ;;
			*/*)	[[ $key == $w ]] && hit=1 ;;
			*)	[[ $key == "$w"/* ]] && hit=1 ;;
			esac
		done
		[ $hit = 1 ] && { echo "$part"; return 0; }
	done
	return 1
}
