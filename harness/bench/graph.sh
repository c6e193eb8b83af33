#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# graph.sh [mux|distro]: function_graph's users on ftrace-mux beside the
# unpatched kernel of the same config, both under QEMU -icount shift=0
# -smp 1 (harness/guest/bench-graph.sh in each): instructions per traced
# getpid() with 1 to 16 graph users on it and up to 15 on other functions,
# and the cost of starting and stopping one.  Writes graph.csv and
# graph.md under out/bench/ (out/distro/bench/).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. harness/build/variants.sh
variant=${1:-mux}
variant_load "$variant" && [ -n "$v_base" ] || { echo "graph: no baseline for $variant" >&2; exit 2; }
kout=$v_out base=$v_base
out=$kout/bench/graph
mkdir -p "$out"
gcc -static -O2 -Wall -Wextra -o "$out/mux-time" harness/bench/mux-time.c
echo "graph: function_graph's users on both kernels (QEMU -icount, about 10 minutes)"
. harness/bench/both.sh
run_both graph "$variant" "$base" "$out" --timeout 1800 --file "$out/mux-time" --file harness/guest/bench-lib.sh \
	harness/guest/bench-graph.sh
python3 harness/bench/graph.py "$out"
cat "$out/graph.md"
