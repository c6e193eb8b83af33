# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# lib.sh: helpers of the guest checks, sourced from /opt/harness.
#
#   flunk MESSAGE       note a failure of the current check
#   result KEY [PASS | FAIL WHY]
#                       print "RESULT KEY PASS|FAIL" (FAIL if flunked or
#                       told so, with the notes) and reset; the FAILs are
#                       counted in $results_failed
#   mark on|off NAME    keep "$on", the consumers that are on
#   ison NAME           true if NAME is on
#   mux_path FUNC       how ftrace-mux serves FUNC's site (set, tramp,
#                       direct, list, detour), from enabled_functions
#   sets_settle         wait (up to 120 s) until no set or trampoline
#                       given back waits to be freed
#   sets_live           the number of live sets
#   sets_and_tramps     "LIVE TRAMPOLINES": live sets and their trampolines
#   sets_not_made       how many sets could not be made (allocations failed)
#   with_kptrs CMD...   run CMD with kernel addresses shown to root
#   ksyms_range REGEX   "0xLO 0xHI": from the first function whose name
#                       matches REGEX to the end of the last, from kallsyms
#   profile_hits FUNC   the profiler's hits of FUNC, summed over the CPUs
fail=0 why="" on=" " results_failed=0
flunk() { fail=1; why="$why
    $*"; }
result() {
	[ "${2:-}" = FAIL ] && flunk "${3:-}"
	if [ $fail = 0 ]; then
		echo "RESULT $1 PASS"
	else
		echo "RESULT $1 FAIL"
		echo "---- $1:$why"
		results_failed=$((results_failed + 1))
	fi
	fail=0 why=""
}
mark() {
	if [ "$1" = on ]; then on="$on$2 "; else on=$(echo "$on" | sed "s/ $2 / /"); fi
}
ison() { case "$on" in *" $1 "*) return 0 ;; esac; return 1; }
mux_path() {
	grep "^$1 " /sys/kernel/tracing/enabled_functions |
		sed -n 's/.*mux: [^ ]* \([a-z]*\).*/\1/p'
}
sets_settle() {
	local i=0
	while ! grep -q '^# sets: [0-9]* live, 0 freeing' /sys/kernel/tracing/function_tracers &&
	      [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
sets_live() {
	sed -n 's/^# sets: \([0-9]*\) live.*/\1/p' /sys/kernel/tracing/function_tracers
}
sets_and_tramps() {
	sed -n 's/^# sets: \([0-9]*\) live, [0-9]* freeing; trampolines: \([0-9]*\),.*/\1 \2/p' \
		/sys/kernel/tracing/function_tracers
}
sets_not_made() {
	sed -n 's/.*; sets not made: \([0-9]*\),.*/\1/p' /sys/kernel/tracing/function_tracers
}
with_kptrs() {
	# (%pK hashes unless kptr_restrict is 1, which shows root the address)
	local kr rc
	kr=$(cat /proc/sys/kernel/kptr_restrict)
	echo 1 > /proc/sys/kernel/kptr_restrict
	"$@"
	rc=$?
	echo "$kr" > /proc/sys/kernel/kptr_restrict
	return $rc
}
ksyms_range() {
	# (same-width hex addresses: sorted and compared as strings)
	with_kptrs sort /proc/kallsyms | awk -v re="$1" '
		at != "" && $1 != at { if ($1 > hi) hi = $1; at = "" }
		$3 ~ re {
			if (lo == "" || $1 < lo) lo = $1
			at = $1
		}
		END { if (lo != "" && hi != "") print "0x" lo, "0x" hi }'
}

# The profiler's owner: a process that enables the profiler, selects it
# in function_tracers, gives it the filter $1 and stays (the same
# program: no exec), as a user's shell would while other tools run,
# until owner_go; its pid in $owner.  Its selection must show.  Needs $T.
owner_start() { # filter
	local n=0

	echo 1 > $T/function_profile_enabled
	rm -f /tmp/owner.ready /tmp/owner.stop
	sh -c "cd $T; echo function_profile > function_tracers; echo $1 > set_ftrace_filter
		echo ready > /tmp/owner.ready
		while [ ! -e /tmp/owner.stop ]; do sleep 0.2; done" &
	owner=$!
	while [ ! -e /tmp/owner.ready ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	grep -q "^   function_profile .*,selected-by:$owner\$" $T/function_tracers ||
		flunk "the owner's selection is not shown: $(cat $T/function_tracers)"
}
owner_go() {
	touch /tmp/owner.stop
	wait $owner
}
profile_hits() {
	cat /sys/kernel/tracing/trace_stat/function* 2> /dev/null |
		awk -v f="$1" '$1 == f { n += $2 } END { print n + 0 }'
}
