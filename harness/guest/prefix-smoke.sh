#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# prefix-smoke.sh: what harness/series/series-check.sh runs in the kernel
# of every prefix of the series, booted with the startup tests off (the
# boot part of make check runs them on the whole series).  Three function
# tracers on one function, exactly counted: on a prefix before ftrace-mux
# they share its site through the list function, on a later one through
# their set's trampoline.  Then nothing may be left enabled, and no KUnit
# suite the prefix built may have failed.
. /opt/harness/lib.sh
cd /sys/kernel/tracing || exit 1
n=20

syncs() { i=0; while [ $i -lt $n ]; do sync; i=$((i + 1)); done; }
traced() { grep -c ' ksys_sync <-' "$1"; }

echo ksys_sync > set_ftrace_filter
echo function > current_tracer
mkdir instances/smoke
echo ksys_sync > instances/smoke/set_ftrace_filter
echo function > instances/smoke/current_tracer
echo 1 > function_profile_enabled
echo 1 > tracing_on
echo 1 > instances/smoke/tracing_on
syncs
echo 0 > tracing_on
echo 0 > instances/smoke/tracing_on
echo 0 > function_profile_enabled
got="$(traced trace) $(traced instances/smoke/trace) $(profile_hits ksys_sync)"
[ "$got" = "$n $n $n" ] ||
	flunk "ksys_sync counted (function, instance, profiler) $got, not $n each"
result prefix/three-tracers

echo nop > current_tracer
echo nop > instances/smoke/current_tracer
rmdir instances/smoke
echo > set_ftrace_filter
left=$(wc -l < enabled_functions)
[ "$left" = 0 ] || flunk "$left functions still enabled: $(head -3 enabled_functions)"
result prefix/nothing-left

bad=$(dmesg | grep -E '^(\[[ 0-9.]*\] )?(not ok [0-9]+ |# Totals: .* fail:[1-9])')
[ -z "$bad" ] || flunk "KUnit: $bad"
ran=$(dmesg | grep -cE '^(\[[ 0-9.]*\] )?ok [0-9]+ ')
echo "prefix: $ran KUnit suites passed"
result prefix/kunit
[ "$results_failed" = 0 ]
