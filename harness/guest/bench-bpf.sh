#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-bpf.sh: the per-call cost of K BPF fentry links on one function,
# then of K fexit links, then of K fmod_ret links (each returning 0: the
# function runs), then of K BPF LSM programs on the hook of
# sched_getparam() (each returning 0: allowed), K from 0 to 1,000
# (mux-bpf-many bench; "percall 0" of each kind is its own call), under QEMU
# -icount; the unpatched kernel stops at its cap, 38.  Each link's
# program adds 1 to a slot of its own.  Lines "kind KIND", then
# "percall K NS", "attach K NS", "refused I: ..." of that kind.
F=__x64_sys_getcpu
echo "bench-bpf: $(uname -r)"
rc=0
for kind in fentry fexit fmodret lsm; do
	echo "kind $kind"
	[ $kind = lsm ] && F=bpf_lsm_task_getscheduler
	mux-bpf-many --$kind $F 1000 2000 bench 1 2 4 8 16 24 32 38 64 128 256 512 1000 ||
		rc=1
done
echo "bench-bpf: exit $rc"
