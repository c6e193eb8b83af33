#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-bpf-many.sh: a thousand independent BPF fentry links on one
# function (mux-bpf-many), then a thousand fexit links, then five hundred
# of each, then a thousand fmod_ret links, beside the function tracer on
# it.
#
# On ftrace-mux (CONFIG_FTRACE_MUX_BPF) every link is taken, each counts
# each call exactly, and so after half of them went; a fexit link sees
# each return's own value and its call's argument.  One tracer serves
# each kind, "bpf" and "bpf_exit", the site is its set's trampoline's
# with the function tracer, and nothing of either is left afterwards.
# On the unpatched kernel the 39th link of either kind is refused (E2BIG,
# BPF_MAX_TRAMP_LINKS) and the 38 count exactly: the cap this removes.
#
# With an fmod_ret program on the function making every call fail, the
# fexit links see the value it returned, on both kernels (on the
# unpatched one, 37 beside it); on ftrace-mux it is on the bpf tracer's
# list, not a trampoline.
#
# A thousand fmod_ret links, three of which deny every call (EPERM,
# EACCES, ENOENT): on ftrace-mux each sees each call, and every call
# fails with the highest errno of those linked, whatever the order of
# attach (first to last, then last to first), and with a livepatch of
# the function (mux_klp_getcpu, which fails with ENOSYS) loaded before
# the links or after them.  A sleepable program (the trampoline's) is
# refused beside them, and linked before them keeps them on its
# trampoline.  On the unpatched kernel the 39th is refused
# and the outcome of 38 depends on the order of attach (the first
# denier in the trampoline's order wins): the rule this replaces.
# The same for a thousand BPF LSM programs on one hook.
T=/sys/kernel/tracing
F=__x64_sys_getcpu
N=1000
CALLS=20
cd $T || exit 1
. /opt/harness/lib.sh
command -v mux-bpf-many > /dev/null || { result distro/bpf-many/loader FAIL "no mux-bpf-many"; exit 1; }

mux=0
[ -e set_tracer_filter ] && mux=1

# many KIND ARG...: mux-bpf-many's lines in $out, its verdict in $rc;
# $opts go before the function
many() {
	kind=$1
	shift
	out=$(mux-bpf-many $kind ${modret:+--modret $modret} $opts $F "$@" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/    /'
}

echo $F > set_ftrace_filter
echo function > current_tracer

# The calls of F the function tracer saw mux-bpf-many make
loader_calls() {
	grep -c "^ *mux-bpf-many-[0-9]* .* $F <-" trace
}

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
	n=$(loader_calls)
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
echo "$out" | grep -q "^getcpu: a call got" && flunk "--modret: a call did not fail with EPERM"
if [ $mux = 1 ]; then
	echo "$out" | grep -q "^site $F .*\[.*bpf[],]" || flunk "--modret: no bpf tracer on the site"
	echo "$out" | grep "^site" | grep -q direct &&
		flunk "--modret: a BPF trampoline on the site: $(echo "$out" | grep '^site')"
fi
n=$(loader_calls)
[ "$n" = $((2 * CALLS)) ] ||
	flunk "--modret: function tracer: $n calls, expected $((2 * CALLS))"
modret=
result distro/bpf-many/modret

# fmod_ret links: OUT is mux-bpf-many's output; each round's errno
errnos() {
	echo "$out" | sed -n 's/^errno //p' | tr '\n' ' '
}
# fmodret LAST [OPTION...] [-- then COMMAND]: a thousand fmod_ret links
# (BPF LSM programs with fk=--lsm), the ftrace-mux rule; LAST is what the
# calls get once they went
fk=--fmodret
fmodret() {
	last=$1
	shift
	opts=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	[ $# -gt 0 ] && shift
	echo > trace
	many $fk $N $CALLS "$@"
	opts=
	[ $rc = 0 ] || flunk "$fk $*: exit $rc"
	echo "$out" | grep -q "^linked $N of $N$" || flunk "$fk $*: not every link taken"
	echo "$out" | grep -q "^slots $N exact $N$" || flunk "$fk $*: the $N links did not count exactly"
	echo "$out" | grep -q "^slots $((N / 2)) exact $((N / 2))$" ||
		flunk "$fk $*: the $((N / 2)) links left did not count exactly"
	case "$(errnos)" in
	"EACCES ENOENT $last ") ;;
	*) flunk "$fk $*: calls failed with $(errnos), expected EACCES ENOENT $last" ;;
	esac
	echo "$out" | grep "^site" | grep -q direct && flunk "$fk $*: a BPF trampoline on the site"
	n=$(loader_calls)
	[ "$n" = $((3 * CALLS)) ] ||
		flunk "$fk $*: function tracer: $n calls, expected $((3 * CALLS))"
}
# capped: on the unpatched kernel the 39th link of $fk is refused, and the
# outcome of 38 follows the order of attach: the trampoline runs them
# newest first, so the last denier attached wins
capped() {
	many $fk 39 $CALLS
	echo "$out" | grep -q "^refused 39: Argument list too long$" ||
		flunk "$fk: the 39th link was not refused with E2BIG"
	many $fk 38 $CALLS
	forward=$(errnos)
	opts=--reverse
	many $fk 38 $CALLS
	opts=
	reverse=$(errnos)
	[ "$forward" = "ENOENT ENOENT none " ] && [ "$reverse" = "EPERM EPERM none " ] ||
		flunk "$fk: 38 links: $forward, reversed $reverse; expected ENOENT ENOENT none, EPERM EPERM none"
}
if [ $mux = 1 ]; then
	fmodret none
	fmodret none --reverse
	result distro/bpf-many/fmodret
else
	capped
	result distro/bpf-many/fmodret-order
fi

# The fmod_ret links alone on the function: the bpf tracer's site is
# its own ftrace_ops trampoline's, not a set's, and it ends calls too
if [ $mux = 1 ]; then
	echo nop > current_tracer
	many --fmodret $N $CALLS
	[ $rc = 0 ] || flunk "--fmodret alone: exit $rc"
	case "$(errnos)" in
	"EACCES ENOENT none ") ;;
	*) flunk "--fmodret alone: calls failed with $(errnos), expected EACCES ENOENT none" ;;
	esac
	echo "$out" | grep "^site" | grep -q "set \|direct" &&
		flunk "--fmodret alone: $(echo "$out" | grep '^site')"
	echo function > current_tracer
	result distro/bpf-many/fmodret-alone
fi

# A program only a trampoline runs (sleepable) beside fmod_ret links on
# the list: refused (EBUSY), the links unharmed.  Linked first, it keeps
# the fmod_ret links on the trampoline, capped
if [ $mux = 1 ]; then
	fmodret none --sleepable after
	echo "$out" | grep -q "^sleepable refused: Device or resource busy$" ||
		flunk "sleepable after fmod_ret links: $(echo "$out" | grep '^sleepable')"
	opts="--sleepable before"
	many --fmodret 39 $CALLS
	opts=
	echo "$out" | grep -q "^sleepable linked$" || flunk "sleepable before: not linked"
	# The sleepable program is the trampoline's 1st of 38
	echo "$out" | grep -q "^refused 38: Argument list too long$" ||
		flunk "sleepable before: the fmod_ret links did not go on its trampoline"
	echo "$out" | grep "^site" | grep -q direct || flunk "sleepable before: no trampoline on the site"
	[ "$(echo "$out" | grep -c "^sleepable saw $CALLS$")" = 2 ] ||
		flunk "sleepable before: $(echo "$out" | grep '^sleepable saw' | tr '\n' ' ')"
	result distro/bpf-many/fmodret-trampoline
fi

# Beside a livepatch of the function: patched first, then the links;
# then the links first and the patch loaded while they are attached
KLP=/sys/kernel/livepatch/mux_klp_getcpu
klp_wait='i=0; until [ "$(cat '$KLP'/transition 2>/dev/null)" = 0 ]; do i=$((i + 1)); [ $i -lt 600 ] || exit 1; sleep 0.1; done'
klp_off() {
	echo 0 > $KLP/enabled
	i=0
	while [ -e $KLP ] && [ $i -lt 600 ]; do i=$((i + 1)); sleep 0.1; done
	rmmod mux_klp_getcpu || flunk "rmmod mux_klp_getcpu"
}
if [ $mux = 1 ]; then
	insmod /opt/klp/mux_klp_getcpu.ko && sh -c "$klp_wait" ||
		flunk "the livepatch of getcpu did not load"
	fmodret ENOSYS --patched
	klp_off
	# The trace cleared after the wait, whose programs call getcpu() too
	fmodret ENOSYS --patched -- then "insmod /opt/klp/mux_klp_getcpu.ko && $klp_wait && echo > $T/trace"
	klp_off
	result distro/bpf-many/fmodret-livepatch
fi

# A thousand BPF LSM programs on one hook (task_getscheduler, which
# sched_getparam() calls), three of them denying: on ftrace-mux, fmod_ret
# links of the bpf tracer by the same rule (the function tracer on the
# hook too); on the unpatched kernel, the cap and the trampoline's order
L=bpf_lsm_task_getscheduler
fk=--lsm F=$L
echo $L >> set_ftrace_filter
if [ $mux = 1 ]; then
	fmodret none
	fmodret none --reverse
	result distro/bpf-many/lsm
else
	capped
	result distro/bpf-many/lsm-order
fi
fk=--fmodret F=__x64_sys_getcpu
echo $F > set_ftrace_filter

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
