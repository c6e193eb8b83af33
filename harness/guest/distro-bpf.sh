#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-bpf.sh: BPF fentry, fexit, fmod_ret and kprobe_multi programs
# (mux-bpf) on one function beside ftrace's own tracers on it: the
# function tracer, the profiler, a kprobe event and up to eight instances'
# function tracers.  Every attach and detach order of the four programs,
# with the BPF programs attached after the tracers and before them; after each
# step N calls must be counted exactly N times by every consumer that is
# on, and 0 times by every one that is off; on ftrace-mux, the site is
# served by its set's trampoline whenever the BPF trampoline shares it.
# One RESULT line a scenario.  Counting uses only upstream interfaces: the
# same script runs on the unpatched kernel.
T=/sys/kernel/tracing
F=__x64_sys_getcpu
N=50
cd $T || exit 1
command -v mux-bpf > /dev/null || { echo "RESULT distro/bpf/loader FAIL"; exit 1; }

. /opt/harness/lib.sh

# The loader runs beside the script, one command a line through FIFOs.
mkfifo /tmp/bpf.in /tmp/bpf.out
mux-bpf $F fmod_ret < /tmp/bpf.in > /tmp/bpf.out 2> /tmp/bpf.err &
exec 3> /tmp/bpf.in 4< /tmp/bpf.out
bpf() { # command: answer in $reply
	echo "$*" >&3
	if ! read -r reply <&4; then
		echo "RESULT distro/bpf/loader FAIL"
		echo "---- loader: no answer to '$*'"; sed 's/^/    /' /tmp/bpf.err
		exit 1
	fi
	case "$reply" in error*) flunk "mux-bpf $*: $reply" ;; esac
}

# Consumers that are on ($on): top prof kp i1 ... fentry fexit multi fmod_ret.

mux=0
[ -e set_tracer_filter ] && mux=1
tracer() { # on|off NAME
	if ison $2; then was=on; else was=off; fi
	if [ $1 = $was ]; then
		flunk "script: tracer $2 is already $1"
		return
	fi
	case $2 in
	top)	if [ $1 = on ]; then
			echo $F > set_ftrace_filter && echo function > current_tracer
		else
			echo nop > current_tracer
		fi ;;
	prof)	# ftrace-mux: the profiler with a filter of its own, wider
		# than the function tracer's.
		if [ $1 = on ]; then
			echo 1 > function_profile_enabled
			if [ $mux = 1 ]; then
				echo "function_profile filter set $F" > set_tracer_filter &&
				echo "function_profile filter add ksys_sync" > set_tracer_filter ||
					flunk "set_tracer_filter on the profiler"
			fi
		else
			echo 0 > function_profile_enabled
		fi ;;
	kp)	if [ $1 = on ]; then echo 1 > events/kprobes/muxp/enable
		else echo 0 > events/kprobes/muxp/enable; fi ;;
	i*)	if [ $1 = on ]; then
			echo $F > instances/$2/set_ftrace_filter &&
			echo function > instances/$2/current_tracer
		else
			echo nop > instances/$2/current_tracer
		fi ;;
	esac || flunk "tracer $1 $2 failed"
	mark $1 $2
}
link() { # attach|detach fentry|fexit|multi|fmod_ret
	bpf $1 $2
	if [ $1 = attach ]; then mark on $2; else mark off $2; fi
}

want() { if ison $1; then echo $N; else echo 0; fi; }
expect() { # name got
	[ "$2" = "$(want $1)" ] || flunk "$step: $1 counted $2 of $N calls (on:$on)"
}
# N calls, then every consumer's count.
check() {
	local p0 p1 i
	step=$1
	# Progress, so that a run cut off by its timeout shows where
	echo "step: $step"
	echo > trace
	for i in $instances; do echo > instances/$i/trace; done
	bpf count
	p0=$(profile_hits $F)
	bpf call $N
	p1=$(profile_hits $F)
	bpf count
	set -- $reply
	expect fentry "$2"
	expect fexit "$4"
	expect multi "$6"
	expect fmod_ret "$8"
	expect top "$(grep -c " $F <-" trace)"
	expect kp "$(grep -c "muxp: " trace)"
	if ison prof; then expect prof $((p1 - p0)); fi
	for i in $instances; do
		expect $i "$(grep -c " $F <-" instances/$i/trace)"
	done
	if [ $mux = 1 ]; then check_path; fi
}
# ftrace-mux: the BPF programs (fexit and fmod_ret share one direct
# call, the BPF trampoline; fentry is the bpf tracer's with
# CONFIG_FTRACE_MUX_BPF, else the trampoline's too) beside any other
# consumer are served by the set's trampoline, never by the list function.
check_path() {
	local n=0 t path
	for t in $on; do
		case $t in fentry|fexit|fmod_ret) ;; *) n=$((n + 1)) ;; esac
	done
	if ison fentry || ison fexit || ison fmod_ret; then
		n=$((n + 1))
	else
		return
	fi
	path=$(mux_path $F)
	if [ $n -ge 2 ] && [ "$path" != set ]; then
		flunk "$step: BPF and $((n - 1)) more on $F, path '$path': $(grep "^$F " enabled_functions)"
	fi
}

echo "p:muxp $F" >> kprobe_events || flunk "kprobe event"
instances="i1 i2 i3 i4 i5 i6 i7 i8"
for i in $instances; do mkdir instances/$i; done

progs="fentry fexit fmod_ret multi"
# The 24 orders of the four programs, one "a,b,c,d" a line.
perms=$(for a in $progs; do for b in $progs; do for c in $progs; do for d in $progs; do
	[ "$(printf '%s\n' $a $b $c $d | sort -u | wc -l)" = 4 ] && echo $a,$b,$c,$d
done; done; done; done)
[ "$(echo "$perms" | wc -l)" = 24 ] || flunk "script: $(echo "$perms" | wc -l) orders"
# Attach in each order, checking after each step; detach starting with
# the second one attached, so that each program is also the first and the
# last to go.
bpf_orders() {
	local p r a b c d
	for p in $perms; do
		a=${p%%,*} r=${p#*,}; b=${r%%,*} r=${r#*,}; c=${r%%,*} d=${r#*,}
		for x in $a $b $c $d; do link attach $x; check "$1 attach $p: +$x"; done
		for x in $b $c $d $a; do link detach $x; check "$1 attach $p: -$x"; done
	done
}

# Two tracers, then the BPF programs in every order.
tracer on top; tracer on prof
check "2 tracers"
bpf_orders "2 tracers"
tracer off top; tracer off prof
result distro/bpf/two-tracers-then-bpf

# The BPF programs first, then the tracers one by one, on and off.
for x in multi fexit fmod_ret fentry; do link attach $x; done
for t in top prof kp i1; do tracer on $t; check "bpf, +$t"; done
for t in prof i1 top kp; do tracer off $t; check "bpf, -$t"; done
for x in fentry multi fmod_ret fexit; do link detach $x; done
check "all off"
result distro/bpf/bpf-then-tracers

# Eleven tracers (top, profiler, kprobe event, eight instances), then the
# BPF programs in every order.
for t in top prof kp $instances; do tracer on $t; done
check "11 tracers"
bpf_orders "11 tracers"
result distro/bpf/eleven-tracers-then-bpf

# With the BPF programs attached, tracers leave and come back.
for x in fentry fexit fmod_ret multi; do link attach $x; done
for t in i3 kp top i8 prof; do tracer off $t; check "bpf + tracers, -$t"; done
for t in top i3 prof; do tracer on $t; check "bpf + tracers, +$t"; done
for x in fexit multi fentry fmod_ret; do link detach $x; check "tracers, -$x"; done
result distro/bpf/tracers-change-under-bpf

for t in top prof i1 i2 i3 i4 i5 i6 i7 i8 kp; do ison $t && tracer off $t; done
echo "-:muxp" >> kprobe_events
for i in $instances; do rmdir instances/$i; done
echo quit >&3
exec 3>&- 4<&-
wait
