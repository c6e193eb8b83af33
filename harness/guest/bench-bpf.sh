#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-bpf.sh: the per-call cost of K BPF fentry links on one function,
# K from 0 to 1,000 (mux-bpf-many bench), under QEMU -icount; the
# unpatched kernel stops at its cap, 38.  Each link's program adds 1 to a
# slot of its own.  Lines "percall K NS", "attach K NS", "refused I: ...".
F=__x64_sys_getcpu
echo "bench-bpf: $(uname -r)"
mux-bpf-many $F 1000 2000 bench 1 2 4 8 16 24 32 38 64 128 256 512 1000
echo "bench-bpf: exit $?"
