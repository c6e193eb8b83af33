// SPDX-License-Identifier: GPL-2.0
/*
 * BPF programs of the distro check: an fentry, an fexit and an fmod_ret
 * program (one BPF trampoline, attached through a direct call) and a
 * kprobe_multi program (an fprobe, one ftrace_ops of its own), each
 * counting the calls of one function.  The loader picks the function at load time.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

__u64 entry_hits;
__u64 exit_hits;
__u64 modret_hits;
__u64 multi_hits;

SEC("fentry")
int BPF_PROG(count_entry)
{
	__sync_fetch_and_add(&entry_hits, 1);
	return 0;
}

SEC("fexit")
int BPF_PROG(count_exit)
{
	__sync_fetch_and_add(&exit_hits, 1);
	return 0;
}

/* Counts, and leaves the return value alone (0: call the function) */
SEC("fmod_ret")
int BPF_PROG(count_modret)
{
	__sync_fetch_and_add(&modret_hits, 1);
	return 0;
}

SEC("kprobe.multi")
int count_multi(struct pt_regs *ctx)
{
	__sync_fetch_and_add(&multi_hits, 1);
	return 0;
}
