#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-livepatch.sh: livepatch (an IPMODIFY ftrace_ops) beside tracers.
#
# 1. The livepatch-sample module replaces cmdline_proc_show() while the
#    function tracer, the profiler and a kprobe event trace it: every read
#    of /proc/cmdline shows the patched text (or, once the patch is gone,
#    the original) and every tracer counts every call.  The patch comes
#    before the tracers and after them, and comes and goes while a reader
#    runs.  On ftrace-mux, the patch beside any tracer is one of the
#    set's tracers: the site calls the set's trampoline, never the list
#    function.
# 2. The patch with a BPF fentry and a BPF fexit program on the function.
# 3. Upstream's tools/testing/selftests/livepatch, as its run_tests would
#    run them (bash, kmod, GNU tools from /opt/gnu/bin).
# One RESULT line each.  Only upstream interfaces: the same script runs on
# the unpatched kernel.
T=/sys/kernel/tracing
F=cmdline_proc_show
N=20
KLP=/sys/kernel/livepatch/livepatch_sample
cd $T || exit 1

. /opt/harness/lib.sh
waitfor() { # seconds shell-condition
	local i=0
	while ! eval "$2"; do
		i=$((i + 1))
		[ $i -gt $(($1 * 10)) ] && return 1
		sleep 0.1
	done
}

tracer() { # on|off top|prof|kp
	case $1:$2 in
	on:top)		echo $F > set_ftrace_filter && echo function > current_tracer ;;
	off:top)	echo nop > current_tracer ;;
	on:prof)	echo 1 > function_profile_enabled ;;
	off:prof)	echo 0 > function_profile_enabled ;;
	on:kp)		echo 1 > events/kprobes/muxlp/enable ;;
	off:kp)		echo 0 > events/kprobes/muxlp/enable ;;
	esac || flunk "tracer $1 $2 failed"
	mark $1 $2
}
# insmod, not modprobe: modprobe reads /proc/cmdline for module options,
# which the tracers would count where calls are counted (under load).
lp=$(find /lib/modules -name livepatch-sample.ko | head -n 1)
patch() { # on|off
	if [ $1 = on ]; then
		insmod "$lp" || { flunk "insmod livepatch-sample"; return; }
		waitfor 60 "[ \"\$(cat $KLP/transition 2>/dev/null)\" = 0 ]" ||
			flunk "the patch did not finish its transition"
		mark on patch
	else
		echo 0 > $KLP/enabled
		waitfor 60 "[ ! -e $KLP ]" || flunk "the patch did not go away"
		rmmod livepatch-sample || flunk "rmmod livepatch-sample"
		mark off patch
	fi
}
expect() { # name got
	local want=0
	ison $1 && want=$N
	[ "$2" = "$want" ] || flunk "$step: $1 counted $2 of $N calls (on:$on)"
}
check() {
	local p0 p1 k text bad=0
	step=$1
	text=$(cat /proc/cmdline)
	ison patch && text="this has been live patched"
	echo > trace
	p0=$(profile_hits $F)
	for k in $(seq $N); do
		[ "$(cat /proc/cmdline)" = "$text" ] || bad=$((bad + 1))
	done
	p1=$(profile_hits $F)
	[ $bad = 0 ] || flunk "$step: $bad of $N reads did not show '$text'"
	expect top "$(grep -c " $F <-" trace)"
	expect kp "$(grep -c "muxlp: " trace)"
	ison prof && expect prof $((p1 - p0))
	check_path
}
mux=0
[ -e set_tracer_filter ] && mux=1
check_path() {
	local path
	[ $mux = 1 ] && ison patch || return 0
	case "$on" in *" top "*|*" prof "*|*" kp "*) ;; *) return 0 ;; esac
	path=$(mux_path $F)
	[ "$path" = set ] ||
		flunk "$step: the patch and tracers on $F, path '$path': $(grep "^$F " enabled_functions)"
}

echo "p:muxlp $F" >> kprobe_events || flunk "kprobe event"

# Tracers first, then the patch; the patch leaves under them.
for t in top prof kp; do tracer on $t; done
check "tracers"
patch on; check "tracers, +patch"
patch off; check "tracers, -patch"
for t in top prof kp; do tracer off $t; done
result distro/livepatch/sample-after-tracers

# The patch first, then the tracers one by one, on and off.
patch on; check "patch"
for t in kp top prof; do tracer on $t; check "patch, +$t"; done
for t in top kp prof; do tracer off $t; check "patch, -$t"; done
patch off; check "none"
result distro/livepatch/sample-before-tracers

# Under load: a reader reads /proc/cmdline without pause while the patch
# comes and goes twice under the three tracers.  Every read shows the
# original text or the patched one, and every tracer counts every read.
orig=$(cat /proc/cmdline)
for t in top prof kp; do tracer on $t; done
step="under load"
old_kb=$(cat buffer_size_kb)
echo 8192 > buffer_size_kb
echo > trace
p0=$(profile_hits $F)
rm -f /tmp/lp.stop /tmp/lp.n
(
	n=0 bad=0
	while [ ! -e /tmp/lp.stop ]; do
		case "$(cat /proc/cmdline)" in
		"$orig"|"this has been live patched") ;;
		*) bad=$((bad + 1)) ;;
		esac
		n=$((n + 1))
	done
	echo $n $bad > /tmp/lp.n
) &
for k in 1 2; do patch on; patch off; done
touch /tmp/lp.stop
wait
p1=$(profile_hits $F)
read -r n bad < /tmp/lp.n
[ "$bad" = 0 ] || flunk "$step: $bad of $n reads showed neither text"
[ "$n" -gt 0 ] || flunk "$step: no read"
for got in "top $(grep -c " $F <-" trace)" "kp $(grep -c "muxlp: " trace)" \
	   "prof $((p1 - p0))"; do
	set -- $got
	[ "$2" = "$n" ] || flunk "$step: $1 counted $2 of $n reads"
done
for t in top prof kp; do tracer off $t; done
echo "$old_kb" > buffer_size_kb
result distro/livepatch/sample-under-load

echo "-:muxlp" >> kprobe_events

# 2. The livepatch with a BPF fentry and a BPF fexit program on the same
#    function (mux-bpf: one BPF trampoline, a direct call beside the
#    patch's IPMODIFY ops), the idea of upstream's livepatch_trampoline
#    selftest: every read shows the patched text and each program counts
#    each call, in every order of patch, fentry and fexit.  Upstream once
#    ran the unpatched function here (fixed in 2026: 56b3c85e153b,
#    3e9a18e1c3e9).
mkfifo /tmp/lpb.in /tmp/lpb.out
mux-bpf $F < /tmp/lpb.in > /tmp/lpb.out 2> /tmp/lpb.err &
exec 5> /tmp/lpb.in 6< /tmp/lpb.out
bpf() { # command: answer in $reply
	echo "$*" >&5
	if ! read -r reply <&6; then
		flunk "mux-bpf: no answer to '$*': $(cat /tmp/lpb.err)"
		return 1
	fi
	case "$reply" in error*) flunk "mux-bpf $*: $reply" ;; esac
}
prog() { # on|off fentry|fexit
	if [ $1 = on ]; then bpf attach $2; else bpf detach $2; fi
	mark $1 $2
}
bpf_check() {
	local k bad=0 text=$orig want
	step=$1
	ison patch && text="this has been live patched"
	bpf count
	for k in $(seq $N); do
		[ "$(cat /proc/cmdline)" = "$text" ] || bad=$((bad + 1))
	done
	bpf count
	[ $bad = 0 ] || flunk "$step: $bad of $N reads did not show '$text'"
	# "fentry E fexit X multi M fmod_ret R"
	set -- $reply
	want=0; ison fentry && want=$N
	[ "$2" = $want ] || flunk "$step: fentry counted $2 of $N calls (on:$on)"
	want=0; ison fexit && want=$N
	[ "$4" = $want ] || flunk "$step: fexit counted $4 of $N calls (on:$on)"
	if [ $mux = 1 ] && ison patch && { ison fentry || ison fexit; }; then
		[ "$(mux_path $F)" = set ] ||
			flunk "$step: the patch and BPF on $F, path '$(mux_path $F)'"
	fi
}
for order in "patch fentry fexit" "fentry fexit patch" "fentry patch fexit" \
	     "fexit patch fentry" "patch fexit fentry"; do
	for c in $order; do
		if [ $c = patch ]; then patch on; else prog on $c; fi
		bpf_check "on: $order (+$c)"
	done
	for c in $order; do
		if [ $c = patch ]; then patch off; else prog off $c; fi
		bpf_check "off: $order (-$c)"
	done
done
echo quit >&5
wait
result distro/livepatch/bpf-fentry-fexit

# Upstream's selftests.  They look for GNU options (date --rfc-3339,
# /bin/stat --format, sysctl --values) and kmod's insmod and modinfo, and
# only check that KDIR exists (their modules are built already).
ln -sf /opt/gnu/bin/stat /bin/stat
for t in /opt/livepatch/test-*.sh; do
	name=$(basename $t .sh)
	(cd /opt/livepatch && PATH=/opt/gnu/bin:$PATH KDIR=/opt/livepatch \
		timeout 600 bash ./$name.sh) > /tmp/klp.out 2>&1
	case $? in
	0) echo "RESULT distro/livepatch/$name PASS" ;;
	4) echo "RESULT distro/livepatch/$name SKIP" ;;
	*) echo "RESULT distro/livepatch/$name FAIL"
	   echo "---- $name:"; sed 's/^/    /' /tmp/klp.out | tail -30 ;;
	esac
done
