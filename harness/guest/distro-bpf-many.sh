#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-bpf-many.sh: a thousand independent BPF fentry links on one
# function (mux-bpf-many), beside the function tracer on it.
#
# On ftrace-mux (CONFIG_FTRACE_MUX_BPF) every link is taken, each counts
# each call exactly, and so after half of them went; one tracer, "bpf",
# serves them all, the site is its set's trampoline's with the function
# tracer, and nothing of either is left afterwards.  On the unpatched
# kernel the 39th link is refused (E2BIG, BPF_MAX_TRAMP_LINKS) and the 38
# count exactly: the cap this removes.
T=/sys/kernel/tracing
F=__x64_sys_getcpu
N=1000
CALLS=20
cd $T || exit 1
. /opt/harness/lib.sh
command -v mux-bpf-many > /dev/null || { result distro/bpf-many/loader FAIL "no mux-bpf-many"; exit 1; }

mux=0
[ -e set_tracer_filter ] && mux=1

# many ARG...: mux-bpf-many's lines in $out, its verdict in $rc
many() {
	out=$(mux-bpf-many $F "$@" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/    /'
}

echo $F > set_ftrace_filter
echo function > current_tracer
echo > trace
if [ $mux = 1 ]; then
	many $N $CALLS
	[ $rc = 0 ] || flunk "mux-bpf-many $N: exit $rc"
	echo "$out" | grep -q "^linked $N of $N$" || flunk "not every link taken"
	# One tracer for every link, beside the function tracer: a set
	echo "$out" | grep -q "^site $F .*mux: [^ ]* set .*\[.*bpf.*\]" ||
		flunk "the site is not its set's with the bpf tracer: $(echo "$out" | grep '^site')"
	echo "$out" | grep -q "^slots $N exact $N$" ||
		flunk "the $N links did not count exactly"
	echo "$out" | grep -q "^slots $((N / 2)) exact $((N / 2))$" ||
		flunk "the $((N / 2)) links left did not count exactly"
else
	many 39 $CALLS
	echo "$out" | grep -q "^refused 39: Argument list too long$" ||
		flunk "the 39th link was not refused with E2BIG"
	echo "$out" | grep -q "^slots 38 exact 38$" || flunk "the 38 links did not count exactly"
fi
# The function tracer saw both rounds of calls
n=$(grep -c " $F <-" trace)
[ "$n" = $((2 * CALLS)) ] || flunk "function tracer: $n calls, expected $((2 * CALLS))"
result distro/bpf-many/links

# Attach and detach 200 links three times while another CPU calls the
# function without pause, then count exactly again
if [ $mux = 1 ]; then
	many 200 $CALLS churn 3
	[ $rc = 0 ] || flunk "mux-bpf-many churn: exit $rc"
	echo "$out" | grep -q "^churn 3 rounds done$" || flunk "churn did not finish"
	result distro/bpf-many/churn
fi

# Nothing is left: only the function tracer on the site, no bpf tracer
if [ $mux = 1 ]; then
	sets_settle
	line=$(grep "^$F " enabled_functions)
	case "$line" in
	*bpf*)	flunk "the bpf tracer stayed: $line" ;;
	esac
	grep -q "^[ *]  *bpf " function_tracers && flunk "bpf still in function_tracers"
	result distro/bpf-many/gone
fi
echo nop > current_tracer
echo > set_ftrace_filter
