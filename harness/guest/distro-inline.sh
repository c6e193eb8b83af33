#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-inline.sh: every copy of partially inlined kernel functions, on
# the distro-like kernel, whose vmlinux (with DWARF) is /run/vmlinux.
#
# For each function of $COUNTED (each has an fentry call in its
# out-of-line copy and copies inlined into other callers; chosen from the
# debug info of the distro-like kernel, see docs/testing.md): the tool
# adds all its sites from the debug info; Debian's perf probe, from the
# same debug info, puts a kprobe event on every copy, the out-of-line one
# and each inlined one; the sites must be the inlined copies perf probes,
# address for address.  Then the function tracer, filtered on those
# functions, and the kprobe events count the same calls of a workload:
# each function's count must be the events' exactly, and some of them
# must come from the inlined copies (which the tracer misses without its
# sites: checked too).
#
# A BPF fentry program on one of them meanwhile sees the out-of-line
# copy's calls only, as many as perf probe's event there: at an inlined
# copy the registers are the caller's, not the function's arguments.
#
# Then the sites of the functions of $TIMED, 50 or more, are attached in
# one write of detour_functions and, apart, registered as kprobe events
# (one write each and one enable); both are timed, a figure for the
# performance doc ("inline-attach SITES NS NS"), not a pass mark.
. /opt/harness/lib.sh
T=/sys/kernel/tracing
V=/run/vmlinux
M=ftrace-mux
# Chosen from the debug info of the distro-like kernel: functions defined
# in a .c file (so inlined only there), traceable out of line, whose sites
# the detours take (the tracers' own code does not reach them), and which
# the workload below calls through an inlined copy too.
COUNTED="rtnl_unlock sock_from_file cpu_latency_qos_request_active"
# Ten such functions, in inline-timed.list
TIMED=$(grep -v '^#' /opt/harness/inline-timed.list)
TIME=/run/mux-time
cd $T || exit 1
[ -r $V ] || { echo "RESULT distro/inline/vmlinux FAIL"; exit 1; }
echo 0 > /proc/sys/kernel/kptr_restrict
echo 8192 > buffer_size_kb

# The address of kernel symbol $1 (hex, no 0x)
addr() {
	awk -v s="$1" '$3 == s { print $1; exit }' /proc/kallsyms
}
# Addresses are compared as offsets from _text: whole ones do not fit
# awk's doubles, and wrap in the shell's signed arithmetic.
TEXT=$((0x$(addr _text)))
# "SYM+OFF" (OFF decimal or 0x-hex) as an offset from _text, in decimal
resolve() {
	sym=${1%+*} off=${1##*+}
	[ "$sym" = "$1" ] && off=0
	a=$(addr "$sym")
	[ -n "$a" ] && echo $((0x$a + off - TEXT))
}

# rtnetlink dumps over a netlink socket, the CPU latency QoS file; and
# SIOCGIFCONF, which calls rtnl_unlock() out of line (from dev_ioctl.c)
workload() {
	for _ in 1 2 3 4 5; do
		ip link > /dev/null
		ip addr > /dev/null
		dd if=/dev/cpu_dma_latency of=/dev/null bs=4 count=1 2> /dev/null
		mux-ifconf 2
	done
}

# Lines of function tracer events of $1, and of kprobe events on it
traced() { grep -c ": $1 <-" trace || :; }
probed() { grep -cE ": $1(_[0-9]+)?: \(" trace || :; }
# Lines of perf probe's events at the out-of-line copy of $1: an event
# line shows where it was hit, "$1: (CALLER+0x...)" at an inlined copy
probed_out_of_line() { grep -cE ": $1(_[0-9]+)?: \($1\+" trace || :; }
# The function of $COUNTED a BPF fentry program counts
BPF_F=rtnl_unlock

: "the tool's sites are perf probe's inlined copies"
for f in $COUNTED; do
	$M detour inline --vmlinux $V --list-sites $f > /tmp/sites.$f 2> /tmp/err ||
		flunk "$f: the tool listed no sites: $(cat /tmp/err)"
	[ -s /tmp/sites.$f ] || flunk "$f: no inlined copy"
	perf probe -q -k $V -a $f > /tmp/perf 2>&1 || flunk "$f: perf probe: $(cat /tmp/perf)"
	for s in $(sed 's/^[^@]*@//' /tmp/sites.$f); do
		resolve "$s"
	done | sort > /tmp/want.$f
	# kprobe_events: "p:probe/F_1 SYM+OFF" (or an address), one per copy
	grep -E "^p:probe/$f(_[0-9]+)? " kprobe_events | while read -r _ at _; do
		case "$at" in
		0x*) echo $((at - TEXT)) ;;
		*) resolve "$at" ;;
		esac
	done | sort > /tmp/have.$f
	lo=$((0x$(addr $f) - TEXT))
	# perf's copies but the out-of-line one (which starts at $f)
	awk -v lo=$lo '$1 < lo || $1 >= lo + 64' /tmp/have.$f > /tmp/have-inl.$f
	[ $(wc -l < /tmp/have.$f) = $(($(wc -l < /tmp/want.$f) + 1)) ] &&
		cmp -s /tmp/want.$f /tmp/have-inl.$f ||
		flunk "$f: sites $(tr '\n' ' ' < /tmp/want.$f), perf probe $(tr '\n' ' ' < /tmp/have.$f)"
done
result distro/inline/sites-match-perf-probe

: "the function tracer and perf probe's events count the same calls"
for f in $COUNTED; do
	$M detour inline --vmlinux $V $f 2> /tmp/err || flunk "$f: $(cat /tmp/err)"
done
echo "$COUNTED" | tr ' ' '\n' > set_ftrace_filter
echo function > current_tracer
echo 1 > events/probe/enable
rm -f /tmp/bpf-go
mkfifo /tmp/bpf-go
mux-bpf-many --fentry $BPF_F 1 3 hold < /tmp/bpf-go > /tmp/bpf-held 2>&1 &
bpf_pid=$!
exec 3> /tmp/bpf-go
for _ in $(seq 100); do
	grep -q '^held$' /tmp/bpf-held && break
	sleep 0.1
done
grep -q '^held$' /tmp/bpf-held || flunk "BPF on $BPF_F: $(cat /tmp/bpf-held)"
echo > trace
workload
echo >&3
exec 3>&-
wait $bpf_pid || flunk "BPF on $BPF_F: $(cat /tmp/bpf-held)"
echo 0 > tracing_on
for f in $COUNTED; do
	t=$(traced $f) p=$(probed $f)
	echo "---- $f: function tracer $t, perf probe events $p"
	[ "$t" -gt 0 ] && [ "$t" = "$p" ] || flunk "$f: traced $t, probed $p"
	grep -q "overrun: [1-9]" per_cpu/cpu*/stats && flunk "the buffer overran"
done
result distro/inline/counts-match-perf-probe

: "a BPF fentry program sees the out-of-line copy's calls only"
b=$(sed -n 's/^count 0 //p' /tmp/bpf-held)
o=$(probed_out_of_line $BPF_F)
p=$(probed $BPF_F)
echo "---- $BPF_F: BPF fentry $b, perf probe events $p, at the out-of-line copy $o"
[ -n "$b" ] && [ "$b" = "$o" ] && [ "$o" -gt 0 ] && [ "$o" -lt "$p" ] ||
	flunk "$BPF_F: BPF fentry $b, perf probe events out of line $o of $p"
result distro/inline/bpf-out-of-line-only

: "without the sites the tracer misses the inlined copies' calls"
echo > detour_functions
echo > trace
echo 1 > tracing_on
workload
echo 0 > tracing_on
missed=0
for f in $COUNTED; do
	t=$(traced $f) p=$(probed $f)
	echo "---- $f without its sites: function tracer $t, perf probe events $p"
	[ "$t" -lt "$p" ] && missed=$((missed + 1))
done
[ $missed -gt 0 ] || flunk "no function had calls only its inlined copies saw"
result distro/inline/sites-add-calls
echo nop > current_tracer
echo > set_ftrace_filter
echo 0 > events/probe/enable
perf probe -q -d 'probe:*' > /dev/null 2>&1
echo > trace
echo 1 > tracing_on

: "attaching many sites: one write, against one kprobe event each"
# shellcheck disable=SC2086  # the functions: words
$M detour inline --vmlinux $V --list-sites $TIMED > /tmp/timed 2> /tmp/err ||
	flunk "listing: $(cat /tmp/err)"
n=$(wc -l < /tmp/timed)
[ "$n" -ge 50 ] || flunk "only $n sites"
# Each way as one shell script, timed from fork to exit
echo "cat /tmp/timed > $T/detour_functions" > /tmp/attach-sites.sh
sed 's/^[^@]*@//' /tmp/timed | awk -v t=$T '
	{ printf "echo \"p:muxtime/s%d %s\" >> %s/kprobe_events\n", NR, $1, t }
	END { printf "echo 1 > %s/events/muxtime/enable\n", t }' > /tmp/attach-events.sh
ours=$($TIME run /bin/sh /tmp/attach-sites.sh) || flunk "writing the sites"
[ $(grep -c '@' detour_functions) = "$n" ] || flunk "listed $(grep -c '@' detour_functions) of $n"
echo > detour_functions
theirs=$($TIME run /bin/sh /tmp/attach-events.sh) || flunk "the kprobe events"
[ $(grep -c '^p:muxtime/' kprobe_events) = "$n" ] ||
	flunk "$(grep -c '^p:muxtime/' kprobe_events) kprobe events of $n"
echo "---- $n sites: detour_functions $((ours / 1000)) us, kprobe events $((theirs / 1000)) us"
echo "inline-attach $n $ours $theirs"
echo 0 > events/muxtime/enable
sed -n 's/^p:\(muxtime\/[^ ]*\).*/-:\1/p' kprobe_events > /tmp/del
while read -r d; do echo "$d" >> kprobe_events; done < /tmp/del
result distro/inline/attach-many
