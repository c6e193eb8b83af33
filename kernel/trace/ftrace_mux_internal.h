/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H
#define _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H

#include <linux/ftrace.h>
#include <linux/ftrace_mux.h>

#include "ftrace_internal.h"
#include "ftrace_mux_sets.h"

struct seq_file;

struct ftrace_mux_stats {
	unsigned long no_id;	/* ops that started without an ID */
	unsigned long no_set;	/* records whose set could not be made */
	unsigned long no_tramp;	/* sets whose trampoline could not be made */
};

extern struct ftrace_mux_stats ftrace_mux_stats;
extern struct ftrace_ops __rcu *ftrace_mux_ops[FTRACE_MUX_IDS];

unsigned long ftrace_mux_site_mask(struct dyn_ftrace *rec);
bool ftrace_mux_ops_eligible(struct ftrace_ops *ops);
void ftrace_mux_id_counts(unsigned int *busy, unsigned int *draining);
void ftrace_mux_ops_name(struct ftrace_ops *ops, char *buf, size_t size);

extern struct ftrace_mux_call ftrace_mux_calls[FTRACE_MUX_IDS];

/*
 * The tracers that want the function (selected by their filter, not by
 * their notrace), as a mask of IDs, from the record's flags; 0 if its set
 * is unknown.  Under ftrace_lock, or with preemption off.
 */
static __always_inline unsigned long ftrace_mux_rec_mask(unsigned long flags)
{
	struct ftrace_mux_set *set = ftrace_mux_set_lookup(ftrace_mux_rec_set(flags));

	return set ? set->mask : 0;
}

/*
 * Call the tracers of @mask for one function, through the entries the
 * trampolines are made from.  Tracers whose flags include any of @skip
 * are left out (see the caller).  Inlined into the detour handler,
 * notrace and NOKPROBE.
 */
static __always_inline void ftrace_mux_call_mask(unsigned long mask,
						 unsigned long ip,
						 unsigned long parent_ip,
						 struct ftrace_regs *fregs,
						 unsigned long skip)
{
	struct ftrace_mux_call *call;
	struct ftrace_ops *op;
	ftrace_func_t func;

	for (; mask; mask &= mask - 1) {
		call = &ftrace_mux_calls[__ffs(mask)];
		op = READ_ONCE(call->ops);
		/* .ops is written before .func: smp_wmb() in ftrace_mux_ops_start() */
		smp_rmb();
		func = READ_ONCE(call->func);
		if (!op || (op->flags & skip))
			continue;
		func(ip, parent_ip, op, fregs);
	}
}

#endif /* _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H */
