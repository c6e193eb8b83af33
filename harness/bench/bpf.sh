#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bpf.sh: the per-call cost of K BPF fentry links on one function, of K
# fexit links, of K fmod_ret links and of K BPF LSM programs on one hook,
# K from 0 to 1,000, on the
# distro-like kernel (ftrace-mux's bpf and bpf_exit tracers) and its
# unpatched twin (a BPF trampoline, up to its cap of 38), under QEMU
# -icount shift=0 -smp 1 (guest ns == instructions).  Runs
# harness/guest/bench-bpf.sh on both and writes out/distro/bench/bpf/:
# bpf.csv, bpf.md (the table) and bpf.png (the plot).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
out=out/distro/bench/bpf
mkdir -p "$out"
echo "bench-bpf: both distro-like kernels (QEMU -icount, about 10 minutes)"
. harness/bench/both.sh
run_both bench-bpf distro baseline-distro "$out" --timeout 3000 harness/guest/bench-bpf.sh
for v in mux baseline; do
	grep -q '^bench-bpf: exit 0' "$out/$v.txt" ||
		{ echo "bench-bpf: the $v run failed" >&2; tail -5 "$out/$v.txt" >&2; exit 1; }
done
python3 - "$out" "$(cat out/distro/commit)" <<'PY'
import sys
out, commit = sys.argv[1], sys.argv[2]
kinds = ("fentry", "fexit", "fmodret", "lsm")
func = {"lsm": "`bpf_lsm_task_getscheduler` (under `sched_getparam()`)"}
def read(v):
    per = {k: {} for k in kinds}
    att = {k: {} for k in kinds}
    kind = None
    for line in open("%s/%s.txt" % (out, v)):
        f = line.split()
        if len(f) == 2 and f[0] == "kind":
            kind = f[1]
        elif len(f) == 3 and f[0] in ("percall", "attach"):
            (per if f[0] == "percall" else att)[kind][int(f[1])] = int(f[2])
    return per, att
mux, mux_att = read("mux")
base, base_att = read("baseline")
with open(out + "/bpf.csv", "w") as c:
    c.write("kind,links,ftrace_mux_ns,upstream_ns,ftrace_mux_attach_ns,upstream_attach_ns\n")
    for t in kinds:
        for k in sorted(mux[t]):
            c.write("%s,%d,%d,%s,%s,%s\n" % (t, k, mux[t][k], base[t].get(k, ""),
                                             mux_att[t].get(k, ""), base_att[t].get(k, "")))
# bpf.dat: one gnuplot block per kind, over the untraced call
with open(out + "/bpf.dat", "w") as d:
    for t in kinds:
        for k in sorted(mux[t]):
            if k:
                d.write("%d %d %s\n" % (k, mux[t][k] - mux[t][0],
                                        base[t][k] - base[t][0] if k in base[t] else "NaN"))
        d.write("\n\n")
def marg(p, a, b):
    return (p[b] - p[a]) / (b - a) if a in p and b in p else None
fmt = lambda x: "-" if x is None else "%.1f" % x
with open(out + "/bpf.md", "w") as m:
    for t in kinds:
        m.write("BPF %s links on %s, distro-like kernels of %s, "
                "-icount (guest instructions per call, median of 5 rounds of 2,000 "
                "calls; each program adds 1 to a map slot):\n\n"
                % (t, func.get(t, "`__x64_sys_getcpu`"), commit))
        m.write("| links | ftrace-mux | upstream | ftrace-mux attach (ns) | upstream attach (ns) |\n")
        m.write("|---:|---:|---:|---:|---:|\n")
        for k in sorted(mux[t]):
            m.write("| %d | %d | %s | %s | %s |\n" % (k, mux[t][k], base[t].get(k, "refused"),
                                                    mux_att[t].get(k, ""), base_att[t].get(k, "")))
        m.write("\nPer extra %s program: 1 to 38 links, ftrace-mux %s, upstream %s; "
                "38 to 1,000, ftrace-mux %s.\n\n" % (t, fmt(marg(mux[t], 1, 38)),
                                                 fmt(marg(base[t], 1, 38)),
                                                 fmt(marg(mux[t], 38, 1000))))
PY
gnuplot -e "dat='$out/bpf.dat'; png='$out/bpf.png'" harness/bench/bpf.gp
cat "$out/bpf.md"
