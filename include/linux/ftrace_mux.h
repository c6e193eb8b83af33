/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: one call site serving several function tracers.
 *
 * What an architecture implements and code outside kernel/trace sees of
 * it: the trampoline of a set and the calls it is made from, and the
 * unwinder's question.  The hooks of the ftrace core are in
 * kernel/trace/ftrace_mux.h.
 *
 * See Documentation/trace/ftrace-mux.rst.
 */
#ifndef _LINUX_FTRACE_MUX_H
#define _LINUX_FTRACE_MUX_H

#include <linux/list.h>
#include <linux/types.h>

struct fgraph_users;
struct ftrace_ops;
struct ftrace_regs;
struct ftrace_mux_set;

#ifdef CONFIG_FTRACE_MUX
#include <asm/ftrace_mux.h>

/* What a set's trampoline is called from, and so how it is made */
enum ftrace_mux_flavour {
	FTRACE_MUX_FENTRY,		/* a call site, ftrace_regs */
	FTRACE_MUX_FENTRY_REGS,		/* a call site, full pt_regs */
	FTRACE_MUX_FENTRY_DIRECT,	/* ftrace_regs, then a direct call */
	FTRACE_MUX_DETOUR,		/* a detour's handler, as a C function */
	FTRACE_MUX_FLAVOURS
};

/* The type of a detour trampoline, the type its kCFI preamble carries */
typedef void (*ftrace_mux_detour_fn)(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_regs *fregs);

/*
 * The trampoline made for one set of tracers and one @flavour, calling
 * its @nr tracers in ID order (kernel/trace/ftrace_mux_tramp.c).  The
 * architecture makes its code (arch_ftrace_mux_tramp_create()) and fills
 * @start, @size, @pre and @arch: a detour's is called indirectly, so a
 * CFI preamble of @pre bytes may precede @start.
 */
struct ftrace_mux_tramp {
	struct list_head	list;	/* all trampolines, RCU for unwinders */
	struct ftrace_mux_set	*set;	/* the set it serves */
	unsigned int		nr;	/* tracers called */
	enum ftrace_mux_flavour	flavour;
	unsigned long		start;	/* what is called */
	unsigned int		size;	/* bytes of code from @start */
	unsigned int		pre;	/* CFI preamble before @start */
	struct fgraph_users	*users;	/* the fgraph users it enters */
	struct arch_ftrace_mux_tramp arch;
};

/*
 * For one ID: what trampolines are made to call, and detours call.  A
 * trampoline's call passes @ops, or @arg if set (the list of fgraph's
 * users that one call enters, kernel/trace/ftrace_mux_graph.c).
 */
struct ftrace_mux_call {
	struct ftrace_ops	*ops;
	void			(*func)(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *op,
					struct ftrace_regs *fregs);
	void			*arg;
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
