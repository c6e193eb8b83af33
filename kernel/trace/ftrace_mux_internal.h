/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H
#define _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H

#include <linux/ftrace.h>
#include "ftrace_mux.h"

#include "ftrace_internal.h"
#include "ftrace_mux_sets.h"

struct seq_file;
struct trace_array;

struct ftrace_mux_stats {
	unsigned long no_id;	/* ops that started without an ID */
	unsigned long no_set;	/* records whose set could not be made */
	unsigned long no_tramp;	/* sets whose trampoline could not be made */
};

extern struct ftrace_mux_stats ftrace_mux_stats;
extern struct ftrace_ops __rcu *ftrace_mux_ops[FTRACE_MUX_IDS];

struct ftrace_mux_set *ftrace_mux_site_set(struct dyn_ftrace *rec);
struct ftrace_mux_tramp *ftrace_mux_rec_tramp(struct dyn_ftrace *rec);
void ftrace_mux_id_counts(unsigned int *busy, unsigned int *draining);
void ftrace_mux_ids_flush(void);
void ftrace_mux_ops_name(struct ftrace_ops *ops, char *buf, size_t size);
struct trace_array *ftrace_mux_ops_trace_array(struct ftrace_ops *ops);

/* ftrace_mux_select.c, under ftrace_lock */
struct ftrace_ops *ftrace_mux_selection(void);
int ftrace_mux_select(struct ftrace_ops *ops);
void ftrace_mux_show_selectors(struct seq_file *m, struct ftrace_ops *ops);

extern struct ftrace_mux_call ftrace_mux_calls[FTRACE_MUX_IDS];

#ifdef CONFIG_FTRACE_MUX_DETOUR
void ftrace_mux_detours_update_done(void);
int ftrace_mux_detour_reachable(unsigned long func);
bool ftrace_mux_detour_is_entry(unsigned long func);
#else
static inline void ftrace_mux_detours_update_done(void) { }
#endif

/*
 * The tracers that want the function (selected by their filter, not by
 * their notrace), from the record's flags; NULL if its set is unknown.
 * Under ftrace_lock, or with preemption off.
 */
static __always_inline struct ftrace_mux_set *ftrace_mux_rec_tracers(unsigned long flags)
{
	return ftrace_mux_set_lookup(ftrace_mux_rec_set(flags));
}

#endif /* _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H */
