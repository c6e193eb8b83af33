#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-cfi.sh: ftrace-mux's shared-site tests on the kCFI kernel (out/cfi,
# make kernel-cfi).  With CONFIG_CFI_CLANG the list function reaches
# tracers through type-checked calls, a set's trampoline calls them
# directly, and a detour's handler calls its set's trampoline through a
# typed pointer, so that trampoline must carry the kCFI preamble of its
# type: KUnit's detour_tramp calls one that way.  A mismatch is a "CFI failure" on the
# console, which fails the VM.  Ends with "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
res=out/cfi/check
mkdir -p "$res"
grep -qx 'CONFIG_CFI_CLANG=y' out/cfi/config || { echo "check-cfi: out/cfi has no kCFI" >&2; exit 2; }
harness/test/vm --variant cfi --timeout 1800 --console "$res/console" \
	--append "ftrace=nop kunit.enable=0" harness/guest/ftracetest.sh \
	'ftrace-mux/shared-site.tc' 'ftrace-mux/instances.tc' 'ftrace-mux/ftrace-ops-sample.tc' \
	'ftrace-mux/function_graph.tc' 'ftrace-mux/kprobe.tc' 'ftrace-mux/lost-calls.tc' \
	'ftrace-mux/detour-tracers.tc' > "$res/out" 2> "$res/err"
rc=$?
# KUnit's ftrace_mux cases (the slow ones left out) on a boot of their own.
harness/test/vm --variant cfi --timeout 900 --console "$res/kunit.console" \
	--append "ftrace=nop kunit.filter=speed>slow" harness/guest/dmesg.sh \
	> "$res/kunit.out" 2> "$res/kunit.err"
krc=$?
grep -E '^\s*(not )?ok [0-9]+ [a-z_]+$' "$res/kunit.out" | grep -v ' ftrace_mux' |
	awk '{ print "RESULT kunit/" $NF " " ($1 == "ok" ? "PASS" : "FAIL") }' >> "$res/out"
grep -q 'ok [0-9]* detour_tramp$' "$res/kunit.out" ||
	echo "RESULT kunit/detour_tramp FAIL" >> "$res/out"
if [ $krc != 0 ]; then
	echo "FAIL: vm/cfi-kunit: exit $krc"
	sed 's/^/    /' "$res/kunit.err" | head -20
	rc=$krc
fi
pass=$(grep -c '^RESULT .* PASS$' "$res/out")
fail=$(grep -c '^RESULT ' "$res/out")
fail=$((fail - pass))
grep '^RESULT ' "$res/out"
if [ $rc != 0 ]; then
	echo "FAIL: vm/cfi: exit $rc"
	sed 's/^/    /' "$res/err" | head -20
	fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
