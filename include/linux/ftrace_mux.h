/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: one call site serving several function tracers.
 *
 * What code outside kernel/trace sees of it: the calls an architecture's
 * trampolines are made from, and the unwinder's question.  The hooks of
 * the ftrace core are in kernel/trace/ftrace_mux.h.
 *
 * See Documentation/trace/ftrace-mux.rst.
 */
#ifndef _LINUX_FTRACE_MUX_H
#define _LINUX_FTRACE_MUX_H

#include <linux/types.h>

struct ftrace_ops;
struct ftrace_regs;

#ifdef CONFIG_FTRACE_MUX
/* For one ID: what trampolines are made to call, and detours call. */
struct ftrace_mux_call {
	struct ftrace_ops	*ops;
	void			(*func)(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *op,
					struct ftrace_regs *fregs);
};

/* For the unwinder: the template ip that @ip in a trampoline unwinds as. */
unsigned long ftrace_mux_tramp_orc_ip(unsigned long ip);
#else
static inline unsigned long ftrace_mux_tramp_orc_ip(unsigned long ip)
{
	return 0;
}
#endif /* CONFIG_FTRACE_MUX */
#endif /* _LINUX_FTRACE_MUX_H */
