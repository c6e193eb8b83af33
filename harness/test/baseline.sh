# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# baseline.sh: sourced by the scripts that record a test suite's results
# on the unpatched kernel (ftracetest-baseline.sh, bpf-selftests-baseline.sh).
#
#   baseline_lines EXPECT   read "RESULT KEY R" lines on stdin, print
#                           "R KEY" for each, with the reason ("# ...")
#                           EXPECT already gives after KEY
baseline_lines() {
	local expect=$1 key r why
	while read -r _ key r; do
		why=$(awk -v k="$key" '$2 == k && /#/ { sub(/^[^#]*#/, "#"); print; exit }' \
			"$expect" 2>/dev/null || true)
		if [ -n "$why" ]; then echo "$r $key  $why"; else echo "$r $key"; fi
	done
}
