#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ftracetest-baseline.sh [baseline|baseline-distro]: run the upstream
# ftracetest groups that make check runs on the *unpatched* kernel
# (out/baseline/, or out/baseline-distro/ for make check-distro) and
# rewrite tests/ftracetest-baseline.txt (ftracetest-baseline-distro.txt)
# with each case's result there.  Reasons already written after a case
# ("# ...") are kept.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. harness/test/ftracetest-groups.sh
. harness/build/variants.sh
. harness/test/baseline.sh
variant=${1:-baseline}
variant_load "$variant" || { echo "ftracetest-baseline: unknown variant $variant" >&2; exit 2; }
res=$v_out/check
rm -f "$res"/upstream-*.out
mkdir -p "$res"
expect=tests/ftracetest-$variant.txt
config=config/ftrace-mux.config
[ "$variant" = baseline-distro ] && config="$config and config/distro.config"
# The same VMs as make check's, two at a time.
running=0
for part in $UPSTREAM_PARTS; do
	if [ $running = 2 ]; then wait -n || :; running=1; fi
	ftracetest_vm "$part" "$variant" 1500 "$res" &
	running=$((running + 1))
done
wait
{
	echo "# SPDX-License-Identifier: GPL-2.0"
	echo "# Upstream ftracetest on the unpatched 6.12 kernel with $config,"
	echo "# written by 'make check-baseline'. make check requires every PASS (and XFAIL)"
	echo "# case to give the same result; the others are listed with the reason they do"
	echo "# not pass on the baseline."
	cat "$res"/upstream-*.out | grep '^RESULT ' | baseline_lines "$expect"
} > "$expect.new"
mv "$expect.new" "$expect"
grep -c '^PASS ' "$expect" | sed 's/$/ cases pass on the baseline/'
grep -v '^PASS \|^#' "$expect" || true
