/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: one call site serving several function tracers.
 *
 * Every ftrace_ops that starts tracing gets a small ID.  Every dyn_ftrace
 * record keeps, in the upper half of its flags word, the index of the
 * interned set of tracers that want its function.  A call site wanted by
 * two or more tracers calls the trampoline made for its set, which calls
 * exactly those tracers, directly.
 *
 * This header is its interface with the ftrace core (ftrace.c): the hooks
 * the core calls and what the core provides for it.  See
 * Documentation/trace/ftrace-mux.rst.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_H
#define _KERNEL_TRACE_FTRACE_MUX_H

#include <linux/bits.h>
#include <linux/ftrace.h>
#include <linux/ftrace_mux.h>
#include <linux/types.h>

struct ftrace_ops;
struct dyn_ftrace;
struct seq_file;
struct trace_array;
struct file;

#ifdef CONFIG_FTRACE_MUX
#include "ftrace_mux_sets.h"
#include "ftrace_mux_graph.h"
#include "ftrace_mux_select.h"
#include "ftrace_mux_site.h"
#include "ftrace_mux_tramp.h"

/* Hooks called by kernel/trace/ftrace.c, all under ftrace_lock. */
void ftrace_mux_ops_start(struct ftrace_ops *ops);
void ftrace_mux_ops_stopping(struct ftrace_ops *ops);
void ftrace_mux_ops_stop(struct ftrace_ops *ops);
void ftrace_mux_update_done(int command);
/* fgraph's users, each a member of the sets (ftrace_mux_graph.c) */
void ftrace_mux_subops_start(struct ftrace_ops *ops, struct ftrace_ops *subops);
void ftrace_mux_subops_leaving(struct ftrace_ops *ops, struct ftrace_ops *subops,
			       bool leaving);
bool ftrace_mux_subops_stop(struct ftrace_ops *ops, struct ftrace_ops *subops);


/*
 * The per-record hooks run for every record of an update, and most
 * records have one tracer or none and call no set's trampoline: the
 * wrappers settle those inline, so an update over every function costs
 * little more than it does without ftrace-mux.  The others go to
 * ftrace_mux.c and ftrace_mux_site.c.
 */
void __ftrace_mux_rec_update(struct dyn_ftrace *rec, struct ftrace_ops *ops,
			     bool inc, bool in_filter, bool in_notrace);

/*
 * Account @ops on @rec (see ftrace_mux.c); ops without an ID have none.
 * Most records of an update hold no tracer (set 0, the empty set) and do
 * not get @ops either: nothing to do for them, without a call.
 */
static inline void ftrace_mux_rec_update(struct dyn_ftrace *rec,
					 struct ftrace_ops *ops, bool inc,
					 bool in_filter, bool in_notrace)
{
	if (!ops->mux_id)
		return;
	if (!ftrace_mux_rec_set(rec->flags) &&
	    !(inc && in_filter && !in_notrace))
		return;
	__ftrace_mux_rec_update(rec, ops, inc, in_filter, in_notrace);
}

/*
 * Without this, __ftrace_hash_rec_update() stops after the records of the
 * filter hash and would leave the ID in the sets of the others.
 */
static inline bool ftrace_mux_ops_needs_all_recs(struct ftrace_ops *ops)
{
	return ops->mux_id != 0;
}

/*
 * Can @rec's site call a set's trampoline?  Only with two tracers or
 * more, or one (fgraph's manager) and two users or more.
 */
static inline bool ftrace_mux_rec_may_share(struct dyn_ftrace *rec)
{
	return ftrace_rec_count(rec) >= 2 || ftrace_mux_users_share();
}

/* Where to point @rec's site, or 0 for ftrace's own choice */
static inline unsigned long ftrace_mux_addr_new(struct dyn_ftrace *rec)
{
	return ftrace_mux_rec_may_share(rec) ? __ftrace_mux_addr_new(rec) : 0;
}

/* What @rec's site calls now, or 0: only a site patched to a set's */
static inline unsigned long ftrace_mux_addr_curr(struct dyn_ftrace *rec)
{
	return ftrace_mux_rec_patched(rec->flags) ? __ftrace_mux_addr_curr(rec) : 0;
}

/* Does @rec's site call a set's trampoline, whatever ftrace's flags say? */
static inline bool ftrace_mux_rec_on_set(struct dyn_ftrace *rec)
{
	return ftrace_mux_rec_patched(rec->flags) != 0;
}

/* Does @rec's site call another set's trampoline than it should? */
static inline bool ftrace_mux_rec_changed(struct dyn_ftrace *rec)
{
	/* With fewer than two tracers it should call none */
	if (!ftrace_mux_rec_may_share(rec))
		return ftrace_mux_rec_patched(rec->flags) != 0;
	return __ftrace_mux_rec_changed(rec);
}

/* Remember which set's trampoline @rec's site calls after @update */
static inline void ftrace_mux_rec_patched_update(struct dyn_ftrace *rec,
						 int update)
{
	/* A site of fewer than two tracers that called none still calls none */
	if (update == FTRACE_UPDATE_IGNORE ||
	    (!ftrace_mux_rec_may_share(rec) && !ftrace_mux_rec_patched(rec->flags)))
		return;
	__ftrace_mux_rec_patched_update(rec, update);
}

/* The tracefs files (ftrace_mux_tracefs.c) */
void ftrace_mux_show_rec(struct seq_file *m, struct dyn_ftrace *rec);
int ftrace_mux_filter_target(struct trace_array **tr, struct ftrace_ops **ops,
			     struct file *file);
void ftrace_mux_edit_dropped(struct ftrace_ops *ops);

/*
 * Provided by kernel/trace/ftrace.c for ftrace-mux; they take the hash's
 * regex_lock and ftrace_lock, so the caller holds neither.
 */
int ftrace_ops_separate_filter(struct ftrace_ops *ops);
int ftrace_ops_share_global_filter(struct ftrace_ops *ops);
/* The profiler's ops, running or not (CONFIG_FUNCTION_PROFILER only). */
struct ftrace_ops *ftrace_profiler_ops(void);

void ftrace_mux_ops_update(struct ftrace_ops *ops);

/* Helpers for the tests and the tracefs interface. */
int ftrace_mux_ops_id(struct ftrace_ops *ops);

#else /* !CONFIG_FTRACE_MUX */

#define FTRACE_FL_MUX_SETS		0UL

static inline void ftrace_mux_ops_start(struct ftrace_ops *ops) { }
static inline void ftrace_mux_ops_stopping(struct ftrace_ops *ops) { }
static inline void ftrace_mux_ops_stop(struct ftrace_ops *ops) { }
static inline void ftrace_mux_ops_update(struct ftrace_ops *ops) { }
static inline void ftrace_mux_rec_update(struct dyn_ftrace *rec,
					 struct ftrace_ops *ops, bool inc,
					 bool in_filter, bool in_notrace) { }
static inline bool ftrace_mux_ops_needs_all_recs(struct ftrace_ops *ops)
{
	return false;
}
static inline unsigned long ftrace_mux_addr_new(struct dyn_ftrace *rec)
{
	return 0;
}
static inline unsigned long ftrace_mux_addr_curr(struct dyn_ftrace *rec)
{
	return 0;
}
static inline bool ftrace_mux_rec_changed(struct dyn_ftrace *rec)
{
	return false;
}

static inline bool ftrace_mux_rec_on_set(struct dyn_ftrace *rec)
{
	return false;
}
static inline void ftrace_mux_rec_patched_update(struct dyn_ftrace *rec,
						 int update) { }
static inline void ftrace_mux_update_done(int command) { }
static inline void ftrace_mux_subops_start(struct ftrace_ops *ops,
					   struct ftrace_ops *subops) { }
static inline void ftrace_mux_subops_leaving(struct ftrace_ops *ops,
					     struct ftrace_ops *subops,
					     bool leaving) { }
static inline bool ftrace_mux_subops_stop(struct ftrace_ops *ops,
					  struct ftrace_ops *subops)
{
	return false;
}
static inline bool ftrace_mux_graph_rec_sync(struct dyn_ftrace *rec)
{
	return false;
}

#define ftrace_mux_graph_recounts	0UL
static inline bool ftrace_mux_graph_sync_needed(struct ftrace_ops_hash *hash,
						unsigned long seq)
{
	return false;
}
static inline bool ftrace_mux_graph_sites_stale(void)
{
	return false;
}
static inline int ftrace_mux_get_kallsym(unsigned int symnum,
					 unsigned long *value, char *type,
					 char *name, char *module_name,
					 int *exported)
{
	return -ERANGE;
}
static inline int ftrace_mux_address_lookup(unsigned long addr,
					    unsigned long *size,
					    unsigned long *off, char *sym)
{
	return 0;
}
static inline void ftrace_mux_show_rec(struct seq_file *m,
				       struct dyn_ftrace *rec) { }
static inline int ftrace_mux_filter_target(struct trace_array **tr,
					   struct ftrace_ops **ops,
					   struct file *file)
{
	return 0;
}
static inline void ftrace_mux_edit_dropped(struct ftrace_ops *ops) { }
static inline void ftrace_mux_unselect(struct ftrace_ops *ops) { }

#endif /* CONFIG_FTRACE_MUX */

/*
 * Detours (ftrace_mux_detour*.c) trace functions without an fentry call
 * through kprobes; ftrace.c keeps their records.
 */
#ifdef CONFIG_FTRACE_MUX_DETOUR
#define FTRACE_MUX_DETOURS		CONFIG_FTRACE_MUX_DETOURS

/* Provided by kernel/trace/ftrace.c, under ftrace_lock. */
bool ftrace_rec_is_detour(struct dyn_ftrace *rec);
struct dyn_ftrace *ftrace_detour_rec_add(unsigned long ip);
struct dyn_ftrace *ftrace_detour_rec_del(struct dyn_ftrace *rec);
struct dyn_ftrace *ftrace_detour_fentry_rec(unsigned long func);
#if defined(CONFIG_FUNCTION_PROFILER) && defined(CONFIG_FUNCTION_GRAPH_TRACER)
void ftrace_profile_count_call(unsigned long ip);
#else
static inline void ftrace_profile_count_call(unsigned long ip) { }
#endif
/*
 * Provided by kernel/trace/ftrace.c with CONFIG_MODULES; takes
 * trace_types_lock and the regex_locks.
 */
void ftrace_detour_clear_hashes(unsigned long ip);

void ftrace_mux_detours_repoint(void);
void ftrace_mux_sites_repoint(void);

/*
 * Called by ftrace.c at the end of every update, under ftrace_lock and
 * before ftrace_mux_update_done() reaps sets: detours and sites follow
 * their records' sets.
 */
static inline void ftrace_mux_detours_update_done(void)
{
	ftrace_mux_detours_repoint();
	ftrace_mux_sites_repoint();
}
#else
static inline bool ftrace_rec_is_detour(struct dyn_ftrace *rec)
{
	return false;
}
static inline void ftrace_mux_detours_update_done(void) { }
#endif /* CONFIG_FTRACE_MUX_DETOUR */
#endif /* _KERNEL_TRACE_FTRACE_MUX_H */
