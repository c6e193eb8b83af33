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
