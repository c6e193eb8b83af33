#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf-selftests-baseline.sh: run upstream's BPF selftests of trampolines on
# the unpatched distro-like kernel (the part bpf-selftests-baseline-distro
# of make check-distro) and rewrite tests/bpf-selftests-baseline-distro.txt
# with each case's result there.  Reasons already written after a case
# ("# ...") are kept.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. harness/build/variants.sh
. harness/test/baseline.sh
variant_load distro
out=$v_out/check/bpf-selftests-baseline-distro.out
expect=tests/bpf-selftests-baseline-distro.txt
harness/test/check.sh distro bpf-selftests-baseline-distro || :
grep -q '^RESULT ' "$out" || { echo "bpf-selftests-baseline: no results in $out" >&2; exit 1; }
{
	echo "# SPDX-License-Identifier: GPL-2.0"
	echo "# Upstream's BPF selftests of trampolines (harness/build/bpf-selftests.sh)"
	echo "# on the unpatched 6.12 kernel with config/distro.config, written by"
	echo "# harness/test/bpf-selftests-baseline.sh. make check-distro requires every"
	echo "# PASS case to pass on ftrace-mux; the others are listed with the reason"
	echo "# they do not pass on the unpatched kernel."
	grep '^RESULT ' "$out" | baseline_lines "$expect"
} > "$expect.new"
mv "$expect.new" "$expect"
grep -c '^PASS ' "$expect" | sed 's/$/ cases pass on the unpatched kernel/'
grep -v '^PASS \|^#' "$expect" || true
