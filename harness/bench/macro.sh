#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# macro.sh [mux|distro] [REPS [SETUP...]]: what several function tracers cost real
# workloads, ftrace-mux beside the unpatched kernel of the same config.
#
# Boots both kernels under QEMU -icount shift=0 -smp 1 (one guest ns ==
# one instruction) and runs harness/guest/macro.sh in each at once: three
# workloads (perf bench sched messaging, a file-system walk, gzip) under
# the setups listed there, with F, the traced functions, from
# harness/bench/macro-functions.txt.  Writes under out/macro/
# (out/distro/macro/):
#   macro.csv, macro.md, macro.png   guest ns per run and what the tracers add
#   mux.txt, baseline.txt            the guests' records
#
# macro.sh profile: choose F anew.  Runs each workload once on the
# baseline with the function profiler on every function and writes the
# 256 functions with the most calls over the three (at least 64 of each
# workload's own hottest) to harness/bench/macro-functions.txt.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
. harness/build/variants.sh
variant=${1:-mux}
reps=${2:-3}
setups=("${@:3}")
if [ "$variant" = profile ]; then
	variant_load baseline
else
	variant_load "$variant" && [ -n "$v_base" ] ||
		{ echo "macro: no baseline for $variant" >&2; exit 2; }
fi
kout=$v_out
out=$kout/macro
[ "$variant" = profile ] && out=out/macro
mkdir -p "$out"
gcc -static -O2 -Wall -Wextra -o "$out/mux-time" harness/bench/mux-time.c
# The file-system workload's input: the first 100 headers of include/linux
# of the pristine tree, the same bytes on every machine.
[ -d build/pristine/include/linux ] ||
	harness/build/prepare-src.sh "${LINUX_TARBALL:-/usr/src/linux-source-6.12.tar.xz}" build/pristine
(cd build/pristine && find include/linux -maxdepth 1 -name '*.h' | LC_ALL=C sort |
	sed -n '1,100p' | tar cf - --owner=0 --group=0 --mtime=2026-01-01 -T -) > "$out/headers.tar"

if [ "$variant" = profile ]; then
	harness/test/vm --variant baseline --smp 1 --timeout 1800 --file "$out/mux-time" \
		--file "$out/headers.tar" harness/guest/macro.sh profile > "$out/profile.txt"
	python3 harness/bench/macro.py pick "$out/profile.txt" > harness/bench/macro-functions.txt
	echo "macro: F is $(wc -l < harness/bench/macro-functions.txt) functions: harness/bench/macro-functions.txt"
	exit 0
fi

base=$v_base
variant_load "$base"
cp harness/bench/macro-functions.txt "$out/macro-functions.txt"
echo "macro: three workloads under ${setups[*]:-every setup}, $reps runs each, on both kernels (QEMU -icount)"
. harness/bench/both.sh
# ftrace=nop skips the boot's FTRACE_STARTUP_TEST selftests, as a
# production kernel has none.  After them upstream's names cache (4 KB
# names, two to a slab) had a slab with a free name and ftrace-mux's had
# none; SLUB_TINY frees a slab once empty, so every getname() of the
# files workload allocated a slab on ftrace-mux and every putname()
# freed it: 2.0 ms of the workload's 28 (docs/performance.md).
run_both macro "$variant" "$base" "$out" --timeout 5400 --append "ftrace=nop kunit.enable=0" --file "$out/mux-time" \
	--file "$out/headers.tar" --file "$out/macro-functions.txt" \
	harness/guest/macro.sh run "$reps" "${setups[@]}"
python3 harness/bench/macro.py table "$out"
gnuplot -e "dat='$out/macro.dat'; png='$out/macro.png'" harness/bench/macro.gp
cat "$out/macro.md"
echo "macro: table, CSV and plot in $out/"
