/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux tracer sets: the set of tracers a call site serves, interned
 * so that a record holds a 16-bit index (see ftrace_mux_sets.c).
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_SETS_H
#define _KERNEL_TRACE_FTRACE_MUX_SETS_H

#include <linux/list.h>
#include <linux/types.h>

#include "ftrace_mux.h"

struct ftrace_mux_tramp;

/* The empty set: no tracer of ours, or no tracer at all. */
#define FTRACE_MUX_SET_EMPTY	0U
/*
 * The set could not be made (no memory, or all FTRACE_MUX_SETS_MAX
 * indexes taken): the site takes upstream's list function, which tests
 * every tracer's hashes, until the record is recomputed
 * (ftrace_mux_rec_recompute()).  Never a patched set: it has no trampoline.
 */
#define FTRACE_MUX_SET_UNKNOWN	0xffffU
#define FTRACE_MUX_SETS_MAX	(FTRACE_MUX_SET_UNKNOWN - 1)

/* Whether a tracer of a set wants pt_regs, once asked (ftrace_mux.c) */
enum {
	FTRACE_MUX_SET_REGS_UNKNOWN,
	FTRACE_MUX_SET_REGS_NO,
	FTRACE_MUX_SET_REGS_YES,
};

struct ftrace_mux_set {
	unsigned int	nr;		/* tracers in the set */
	u32		index;		/* what records hold */
	u32		hash;		/* of ids[] */
	unsigned long	pins;		/* holders other than records */
	u32		seen;		/* reap generation a record had it */
	bool		reaped;		/* out of the table, not yet freed */
	u8		no_tramp;	/* flavours that could not be made */
	u8		regs;		/* FTRACE_MUX_SET_REGS_* */
	/* Its trampolines, by flavour (ftrace_mux_tramp.c) */
	struct ftrace_mux_tramp *tramp[FTRACE_MUX_FLAVOURS];
	/* Its detour trampoline once made, for handlers without locks */
	ftrace_mux_detour_fn detour;
	/* The last transition each way, for updates over many records. */
	u32		add_id, add_to;
	u32		del_id, del_to;
	struct hlist_node node;		/* in the interning table */
	struct list_head dead;		/* waiting for the grace periods */
	u32		ids[] __counted_by(nr);	/* ascending tracer IDs */
};

u32 ftrace_mux_set_with(u32 from, u32 id);
u32 ftrace_mux_set_without(u32 from, u32 id);
u32 ftrace_mux_set_intern(const u32 *ids, unsigned int nr);
void ftrace_mux_set_pin(u32 index);
void ftrace_mux_set_unpin(u32 index);
struct ftrace_mux_set *ftrace_mux_set_lookup(u32 index);
int ftrace_mux_set_pos(const struct ftrace_mux_set *set, u32 id);
void ftrace_mux_sets_reap(void);
void ftrace_mux_sets_update_done(void);
void ftrace_mux_sets_drop_id(u32 id);
void ftrace_mux_sets_count(unsigned long *live, unsigned long *dead);

/* ftrace_mux_tramp.c */
unsigned long ftrace_mux_set_tramp(struct ftrace_mux_set *set,
				   enum ftrace_mux_flavour flavour);
struct ftrace_mux_tramp *ftrace_mux_set_tramp_made(struct ftrace_mux_set *set,
						   enum ftrace_mux_flavour flavour);
void ftrace_mux_tramps_set_func(u32 id, void *func);
void ftrace_mux_tramps_retire(struct ftrace_mux_set *set);
void ftrace_mux_tramps_free(struct ftrace_mux_set *set);
void ftrace_mux_tramps_count(unsigned long *nr, unsigned long *bytes);
int ftrace_mux_jump_made(void *text, unsigned int size);
void ftrace_mux_jump_gone(void *text, unsigned int size);
#if IS_ENABLED(CONFIG_FTRACE_MUX_KUNIT_TEST)
void ftrace_mux_sets_limit(u32 max);
void ftrace_mux_sets_flush(void);
#endif

#endif /* _KERNEL_TRACE_FTRACE_MUX_SETS_H */
