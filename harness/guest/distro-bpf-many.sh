#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-bpf-many.sh: a thousand independent BPF fentry links on one
# function (mux-bpf-many), then a thousand fexit links, then five hundred
# of each, beside the function tracer on it.
#
# On ftrace-mux (CONFIG_FTRACE_MUX_BPF) every link is taken, each counts
# each call exactly, and so after half of them went; a fexit link sees
# each return's own value and its call's argument.  One tracer serves
# each kind, "bpf" and "bpf_exit", the site is its set's trampoline's
# with the function tracer, and nothing of either is left afterwards.
# On the unpatched kernel the 39th link of either kind is refused (E2BIG,
# BPF_MAX_TRAMP_LINKS) and the 38 count exactly: the cap this removes.
#
# With an fmod_ret program on the function (which stays on its BPF
# trampoline) making every call fail, the fexit links see the value it
# returned, on both kernels (on the unpatched one, 37 beside it).
T=/sys/kernel/tracing
F=__x64_sys_getcpu
N=1000
CALLS=20
cd $T || exit 1
. /opt/harness/lib.sh
command -v mux-bpf-many > /dev/null || { result distro/bpf-many/loader FAIL "no mux-bpf-many"; exit 1; }

mux=0
[ -e set_tracer_filter ] && mux=1

# many KIND ARG...: mux-bpf-many's lines in $out, its verdict in $rc
many() {
	kind=$1
	shift
	out=$(mux-bpf-many $kind ${modret:+--modret $modret} $F "$@" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/    /'
}

echo $F > set_ftrace_filter
echo function > current_tracer

# links KIND TRACER: N links of KIND (mux-bpf-many's flag), served by
# TRACER on ftrace-mux, each exact; the function tracer saw every call
links() {
	echo > trace
	if [ $mux = 1 ]; then
		many $1 $N $CALLS
		[ $rc = 0 ] || flunk "mux-bpf-many $1 $N: exit $rc"
		echo "$out" | grep -q "^linked $N of $N$" || flunk "$1: not every link taken"
		# One tracer for every link, beside the function tracer: a set
		echo "$out" | grep -q "^site $F .*mux: [^ ]* set .*\[.*$2[],]" ||
			flunk "$1: the site is not its set's with the $2 tracer: $(echo "$out" | grep '^site')"
		echo "$out" | grep -q "^slots $N exact $N$" ||
			flunk "$1: the $N links did not count exactly"
		echo "$out" | grep -q "^slots $((N / 2)) exact $((N / 2))$" ||
			flunk "$1: the $((N / 2)) links left did not count exactly"
	else
		many $1 39 $CALLS
		echo "$out" | grep -q "^refused 39: Argument list too long$" ||
			flunk "$1: the 39th link was not refused with E2BIG"
		echo "$out" | grep -q "^slots 38 exact 38$" ||
			flunk "$1: the 38 links did not count exactly"
	fi
	# The function tracer saw both rounds of calls
	n=$(grep -c " $F <-" trace)
	[ "$n" = $((2 * CALLS)) ] ||
		flunk "$1: function tracer: $n calls, expected $((2 * CALLS))"
}

links --fentry bpf
result distro/bpf-many/links
links --fexit bpf_exit
result distro/bpf-many/exit
if [ $mux = 1 ]; then
	links --mixed bpf_exit
	echo "$out" | grep -q "^site $F .*\[.*bpf[],]" ||
		flunk "--mixed: no bpf tracer on the site"
	result distro/bpf-many/mixed
fi

# fmod_ret (EPERM) first, then fentry and fexit links: what the fexit
# links see is the fmod_ret program's value
modret=1
n=37
[ $mux = 1 ] && n=$N
echo > trace
many --mixed $n $CALLS
[ $rc = 0 ] || flunk "--modret: exit $rc"
echo "$out" | grep -q "^modret linked$" || flunk "--modret: the fmod_ret program was not linked"
echo "$out" | grep -q "^slots $n exact $n$" || flunk "--modret: the $n links did not count exactly"
echo "$out" | grep -q "did not fail" && flunk "--modret: a call did not fail with EPERM"
n=$(grep -c " $F <-" trace)
[ "$n" = $((2 * CALLS)) ] ||
	flunk "--modret: function tracer: $n calls, expected $((2 * CALLS))"
modret=
result distro/bpf-many/modret

# Attach and detach 200 links (100 of each kind) three times while
# another CPU calls the function without pause, then count exactly again
if [ $mux = 1 ]; then
	many --mixed 200 $CALLS churn 3
	[ $rc = 0 ] || flunk "mux-bpf-many churn: exit $rc"
	echo "$out" | grep -q "^churn 3 rounds done$" || flunk "churn did not finish"
	result distro/bpf-many/churn
fi

# Nothing is left: only the function tracer on the site, no bpf tracers
if [ $mux = 1 ]; then
	sets_settle
	line=$(grep "^$F " enabled_functions)
	case "$line" in
	*bpf*)	flunk "the bpf tracer stayed: $line" ;;
	esac
	grep -q "^[ *]  *bpf\(_exit\)\? " function_tracers &&
		flunk "a bpf tracer is still in function_tracers"
	result distro/bpf-many/gone
fi
echo nop > current_tracer
echo > set_ftrace_filter
