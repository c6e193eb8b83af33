#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftracetest.sh GROUP|GROUP/GLOB|!GROUP/GLOB...: run each test case of the
# given test.d groups (or the files of a group a glob names, to split a group
# between VMs; a glob after "!" names files to leave out) through
# ftracetest, one file at a time, and print one line per result:
#   RESULT <group/file.tc>[@instance] PASS|FAIL|UNRESOLVED|SKIP|XFAIL|UNDEFINED
# Keyed by file rather than ftracetest's running number, so results can be
# compared with a recorded baseline even when cases are added or removed.
# A GROUP/FILE.tc that test.d lacks is taken from /run/FILE.tc.
cd /opt/ftrace || exit 1
skip=""
for g in "$@"; do
	case "$g" in '!'*) skip="$skip ${g#!}" ;; esac
done
# skipped KEY: true if a "!" argument names KEY
skipped() {
	set -f
	for s in $skip; do
		# shellcheck disable=SC2254  # $s is a glob
		case "$1" in $s) set +f; return 0 ;; esac
	done
	set +f
	return 1
}
for g in "$@"; do
	case "$g" in '!'*) continue ;; esac
	# A case this tree lacks, copied into the VM (the fixes'
	# reproductions, on the unpatched kernel)
	if [ ! -e "test.d/$g" ] && [ -f "/run/${g##*/}" ]; then
		cp "/run/${g##*/}" "test.d/$g"
	fi
	if [ -d "test.d/$g" ]; then
		cases=$(find "test.d/$g" -name '*.tc' | sort)
	else
		cases=$(ls test.d/$g 2> /dev/null | grep '\.tc$')
	fi
	[ -n "$cases" ] || { echo "RESULT $g MISSING"; continue; }
	for tc in $cases; do
		key=${tc#test.d/}
		skipped "$key" && continue
		t0=$(date +%s)
		./ftracetest -K -l /tmp/ftlog "$tc" > /tmp/ft.out 2>&1
		# Where a part's time goes (check.sh keeps these in PART.times)
		echo "TIME $key $(($(date +%s) - t0))"
		grep -E '^(not )?ok [0-9]+ ' /tmp/ft.out | while read -r line; do
			case "$line" in
			*"# UNRESOLVED") r=UNRESOLVED ;;
			*"# SKIP") r=SKIP ;;
			*"# XFAIL") r=XFAIL ;;
			*"# error") r=UNDEFINED ;;
			"not ok"*) r=FAIL ;;
			*) r=PASS ;;
			esac
			inst=""
			case "$line" in *"(instance)"*) inst="@instance" ;; esac
			echo "RESULT $key$inst $r"
		done
		if ! grep -qE '^(not )?ok [0-9]+ ' /tmp/ft.out; then
			echo "RESULT $key NORESULT"
		fi
		# Show why a case did not pass; ftracetest keeps only those logs.
		for f in $(find /tmp/ftlog -name '*-log.*' 2>/dev/null); do
			echo "---- log of $key"
			tail -n 40 "$f"
		done
		rm -rf /tmp/ftlog
	done
done
