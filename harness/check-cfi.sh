#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-cfi.sh: ftrace-mux's shared-site tests on the kCFI kernel (out/cfi,
# make kernel-cfi).  With CONFIG_CFI_CLANG every call list reaches its
# tracers through ftrace_mux_mask_dispatch()'s type-checked calls; a
# mismatch is a "CFI failure" on the console, which fails the VM.  Ends with
# "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
res=out/cfi/check
mkdir -p "$res"
grep -qx 'CONFIG_CFI_CLANG=y' out/cfi/config || { echo "check-cfi: out/cfi has no kCFI" >&2; exit 2; }
harness/vm --variant cfi --timeout 1800 --console "$res/console" \
	--append "ftrace=nop kunit.enable=0" harness/guest/ftracetest.sh \
	'ftrace-mux/shared-site.tc' 'ftrace-mux/instances.tc' 'ftrace-mux/ftrace-ops-sample.tc' \
	'ftrace-mux/function_graph.tc' 'ftrace-mux/kprobe.tc' 'ftrace-mux/lost-calls.tc' \
	'ftrace-mux/detour-tracers.tc' > "$res/out" 2> "$res/err"
rc=$?
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
