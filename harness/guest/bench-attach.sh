#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-attach.sh: what attaching the inlined copies of ten partially
# inlined functions costs (harness/bench/attach.sh runs it under -icount
# on the distro-like kernel, whose vmlinux with DWARF is /run/vmlinux).
#
# The sites the tool finds are attached in one write of detour_functions
# and, apart, registered at the same addresses as kprobe events (one
# write each) and enabled (one write): each timed from fork to exit, five
# rounds after one that warms up (the first detour on kernel text works
# out the tracers' reach, ftrace_mux_detour_reach.c).  Prints
# "attach SITES WRITE REGISTER ENABLE" per round, guest ns.
T=/sys/kernel/tracing
V=/run/vmlinux
TIME=/run/mux-time
fail() { echo "bench-attach: $*" >&2; exit 1; }
. /run/bench-lib.sh
# The functions of distro-inline.sh's timed step
TIMED=$(grep -v '^#' /opt/harness/inline-timed.list)
cd $T || exit 1
echo 0 > /proc/sys/kernel/kptr_restrict
# shellcheck disable=SC2086  # the functions: words
ftrace-mux detour inline --vmlinux $V --list-sites $TIMED > /tmp/sites ||
	fail "listing the sites"
n=$(wc -l < /tmp/sites)
echo "cat /tmp/sites > $T/detour_functions" > /tmp/sites.sh
sed 's/^[^@]*@//' /tmp/sites | awk -v t=$T '
	{ printf "echo \"p:muxattach/s%d %s\" >> %s/kprobe_events\n", NR, $1, t }' \
	> /tmp/register.sh
echo "echo 1 > $T/events/muxattach/enable" > /tmp/enable.sh
for round in 0 1 2 3 4 5; do
	settle
	w=$($TIME run /bin/sh /tmp/sites.sh) || fail "writing the sites"
	[ "$(grep -c @ detour_functions)" = "$n" ] || fail "not every site taken"
	echo > detour_functions
	settle
	r=$($TIME run /bin/sh /tmp/register.sh) || fail "registering the events"
	e=$($TIME run /bin/sh /tmp/enable.sh) || fail "enabling the events"
	[ "$(grep -c '^p:muxattach/' kprobe_events)" = "$n" ] || fail "not every event taken"
	echo 0 > events/muxattach/enable
	echo > kprobe_events
	[ $round = 0 ] || echo "attach $n $w $r $e"
done
