#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [mux|distro]: ftrace-mux beside the unpatched kernel of the
# same config.
#
# Boots the variant's kernel (out/ or out/distro/) and its unpatched twin
# (out/baseline/, out/baseline-distro/), each under QEMU -icount shift=0
# -smp 1 (one guest ns == one instruction, repeatable to the unit), runs
# harness/guest/bench.sh in both at once, and writes under out/bench/
# (out/distro/bench/):
#   percall.csv, percall.md, percall.png   ns/call from samples/ftrace/ftrace-ops.ko
#   update.csv, update.md                  guest ns to change what is traced
#   memory.md                              bytes added, from the built kernels
#   detour.csv, detour.md                  one function via fentry, detour, kprobe;
#                                          distro: a BPF fentry program beside K tracers
#   reglat.csv, reglat.md                  registration latency, K others live
#   sets.csv, sets.md                      an update beside 10,000 live sets (from
#                                          the boot's KUnit case update_scales)
#   graph/graph.csv, graph/graph.md        function_graph's users (harness/bench/graph.sh)
# BENCH_QUICK=1 runs the per-call part only.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. harness/build/variants.sh
variant=${1:-mux}
variant_load "$variant" && [ -n "$v_base" ] || { echo "bench: no baseline for $variant" >&2; exit 2; }
kout=$v_out base=$v_base
variant_load "$base"
bout=$v_out
out=$kout/bench
mkdir -p "$out"
gcc -static -O2 -Wall -Wextra -o "$out/mux-time" harness/bench/mux-time.c

arg=""
[ "${BENCH_QUICK:-0}" = 1 ] && arg=quick
echo "bench: running the benchmark on both kernels (QEMU -icount, about 17 minutes)"
. harness/bench/both.sh
# shellcheck disable=SC2086  # $arg: nothing or one word
run_both bench "$variant" "$base" "$out" --timeout 2400 --file "$out/mux-time" --file harness/guest/bench-lib.sh \
	harness/guest/bench.sh $arg

python3 harness/bench/tabulate.py "$out" "$bout/vmlinux" "$kout/vmlinux"
gnuplot -e "dat='$out/percall.dat'; png='$out/percall.png'" harness/bench/percall.gp
cat "$out/percall.md"
[ -f "$out/update.md" ] && cat "$out/update.md"
cat "$out/memory.md"
[ -f "$out/detour.md" ] && cat "$out/detour.md"
[ -f "$out/reglat.md" ] && cat "$out/reglat.md"
[ -f "$out/sets.md" ] && cat "$out/sets.md"
echo "bench: tables, CSV and plot in $out/"
# function_graph's users (its own pair of VMs)
[ "${BENCH_QUICK:-0}" = 1 ] || harness/bench/graph.sh "$variant"
