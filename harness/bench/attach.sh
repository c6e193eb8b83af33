#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# attach.sh: the cost of attaching every inlined copy of ten partially
# inlined functions of the distro-like kernel (out/distro/, whose vmlinux
# has DWARF), in one write of detour_functions against the same sites as
# kprobe events, under QEMU -icount shift=0 -smp 1 (guest ns ==
# instructions, plus idle waits).  Runs harness/guest/bench-attach.sh and
# writes out/distro/bench/attach.csv and attach.md (medians of five
# rounds).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
out=out/distro/bench
mkdir -p "$out"
gcc -static -O2 -Wall -Wextra -o "$out/mux-time" harness/bench/mux-time.c
echo "bench-attach: five rounds on the distro-like kernel (QEMU -icount, about 8 minutes)"
harness/test/vm --variant distro --icount --mem 4096 --timeout 1800 \
	--file out/distro/vmlinux --file "$out/mux-time" --file harness/guest/bench-lib.sh \
	harness/guest/bench-attach.sh > "$out/attach.txt"
grep '^attach ' "$out/attach.txt" | awk '
	BEGIN { print "sites,write_ns,register_ns,enable_ns" }
	{ print $2 "," $3 "," $4 "," $5 }' > "$out/attach.csv"
python3 - "$out/attach.csv" "$(cat out/distro/commit)" > "$out/attach.md" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
if len(rows) != 5:
    sys.exit("bench-attach: %d rounds, not 5" % len(rows))
med = lambda k: statistics.median(int(r[k]) for r in rows)
n = int(rows[0]["sites"])
w, r, e = med("write_ns"), med("register_ns"), med("enable_ns")
print("Attaching %d inlined copies, distro-like kernel of %s, -icount "
      "(median of 5; guest instructions, thousands):\n" % (n, sys.argv[2]))
print("| way | total | per site |")
print("|---|---:|---:|")
print("| one write of detour_functions | %d | %d |" % (w / 1000, w / n / 1000))
print("| kprobe events: register | %d | %d |" % (r / 1000, r / n / 1000))
print("| kprobe events: enable | %d | %d |" % (e / 1000, e / n / 1000))
print("| kprobe events, both | %d | %d |" % ((r + e) / 1000, (r + e) / n / 1000))
print("\nsites / events: %.2f" % (w / (r + e)))
PY
cat "$out/attach.md"
