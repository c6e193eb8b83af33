/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux BPF: the fentry, fmod_ret and fexit links of a kernel function
 * called from lists by two tracers, without a BPF trampoline's cap of
 * links (kernel/trace/ftrace_mux_bpf.c).
 */
#ifndef _LINUX_FTRACE_MUX_BPF_H
#define _LINUX_FTRACE_MUX_BPF_H

#include <linux/errno.h>

struct bpf_tramp_link;
struct bpf_trampoline;

#ifdef CONFIG_FTRACE_MUX_BPF
int ftrace_mux_bpf_link(struct bpf_tramp_link *link, struct bpf_trampoline *tr);
int ftrace_mux_bpf_unlink(struct bpf_tramp_link *link, struct bpf_trampoline *tr);
#else
static inline int ftrace_mux_bpf_link(struct bpf_tramp_link *link,
				      struct bpf_trampoline *tr)
{
	return -EOPNOTSUPP;
}

static inline int ftrace_mux_bpf_unlink(struct bpf_tramp_link *link,
					struct bpf_trampoline *tr)
{
	return -EOPNOTSUPP;
}
#endif
#endif /* _LINUX_FTRACE_MUX_BPF_H */
