#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# distro-bpf-selftests.sh: upstream's BPF selftests of trampolines
# (/opt/bpf-selftests, harness/build/bpf-selftests.sh: test_progs with the
# fentry, fexit, fmod_ret, trampoline cap, helper and kprobe_multi cases,
# bpf_testmod built for this kernel), run as upstream runs them.
# One RESULT line per case and subtest, with test_progs' verdict: PASS,
# FAIL or SKIP.  check.sh holds them against the unpatched kernel's
# (tests/bpf-selftests-baseline-distro.txt).  Only upstream interfaces:
# the same script runs on the unpatched kernel.
cd /opt/bpf-selftests || exit 1
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
# shellcheck disable=SC3045  # busybox ash has -l
ulimit -l unlimited
# test_progs' log of every case that did not pass, for the part's .out
# uprobe_multi_test is built for functions bpf_cookie calls; its cases
# need a binary of the selftests' that is not built
./test_progs -d uprobe_multi_test > /tmp/test_progs.log 2>&1
echo "test_progs exit $?"
# Each result once: test_progs repeats the failed cases under "All error
# logs:", before its summary
sed '/^All error logs:/q; /^Summary:/q' /tmp/test_progs.log | grep -E '^#[0-9/]+ ' | sed 's/^#[0-9/]* *//' |
	while IFS= read -r line; do
		name=$(echo "${line%:*}" | tr ' ' _)
		case ${line##*:} in
		OK)	echo "RESULT selftests-bpf/$name PASS" ;;
		SKIP)	echo "RESULT selftests-bpf/$name SKIP" ;;
		*)	echo "RESULT selftests-bpf/$name FAIL" ;;
		esac
	done
grep -E '^Summary:' /tmp/test_progs.log
# What the failing cases said (test_progs prints a case's log only when
# it fails), for whoever reads the part's output
sed -n '/^#[0-9/]* .*:FAIL$/,/^#[0-9/]* .*:OK$/p' /tmp/test_progs.log | head -400
