/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux tracer sets: the set of tracers a call site serves, interned
 * so that a record holds a 16-bit index (see ftrace_mux_sets.c), and what
 * each tracer ID of a set calls.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_SETS_H
#define _KERNEL_TRACE_FTRACE_MUX_SETS_H

#include <linux/bits.h>
#include <linux/ftrace_mux.h>
#include <linux/list.h>
#include <linux/types.h>

#define FTRACE_MUX_IDS			CONFIG_FTRACE_MUX_IDS

/*
 * Bits 32-63 of dyn_ftrace::flags, which ftrace leaves unused on 64-bit,
 * hold two 16-bit set indexes (the picture is in ftrace_mux_sets.c), so a
 * record costs no extra byte: the set the record wants (its tracers now)
 * and the set whose trampoline its site was last patched to call.  They
 * differ during an update, between ftrace_mux_rec_update() and the site's
 * re-patching.
 */
#define FTRACE_FL_MUX_SETS		GENMASK(63, 32)

#define FTRACE_MUX_SET_SHIFT		32
#define FTRACE_MUX_PATCHED_SHIFT	48
#define FTRACE_MUX_SET_FIELD		GENMASK_ULL(47, 32)
#define FTRACE_MUX_PATCHED_FIELD	GENMASK_ULL(63, 48)

/* The set @flags' record wants */
static __always_inline u32 ftrace_mux_rec_set(unsigned long flags)
{
	return (flags & FTRACE_MUX_SET_FIELD) >> FTRACE_MUX_SET_SHIFT;
}

/* @flags with the wanted set @index */
static __always_inline unsigned long ftrace_mux_flags_with_set(unsigned long flags,
							       u32 index)
{
	return (flags & ~FTRACE_MUX_SET_FIELD) |
	       (unsigned long)index << FTRACE_MUX_SET_SHIFT;
}

/* The set whose trampoline the site calls; 0 (the empty set) if none */
static __always_inline u32 ftrace_mux_rec_patched(unsigned long flags)
{
	return (flags & FTRACE_MUX_PATCHED_FIELD) >> FTRACE_MUX_PATCHED_SHIFT;
}

struct ftrace_mux_tramp;

/* The empty set: no tracer of ours, or no tracer at all. */
#define FTRACE_MUX_SET_EMPTY	0U
/*
 * The set could not be made (no memory, or all FTRACE_MUX_SETS_MAX
 * indexes taken): the site takes the list function, which tests
 * every tracer's hashes, until the record is recomputed
 * (ftrace_mux_rec_recompute()).  Never a patched set: it has no trampoline.
 */
#define FTRACE_MUX_SET_UNKNOWN	0xffffU
#define FTRACE_MUX_SETS_MAX	(FTRACE_MUX_SET_UNKNOWN - 1)

/* Whether a tracer of a set wants pt_regs, once asked (ftrace_mux_site.c) */
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
	/* IDs of fgraph's users: not in ftrace's count (ftrace_mux_graph.c) */
	unsigned int	users;
	/* Its trampolines, by flavour (ftrace_mux_tramp.c) */
	struct ftrace_mux_tramp *tramp[FTRACE_MUX_FLAVOURS];
	/* Its detour trampoline once made, for handlers without locks */
	ftrace_mux_detour_fn detour;
	/* The last transition each way, for updates over many records. */
	u32		add_id, add_to;
	u32		del_id, del_to;
	struct hlist_node node;		/* in the interning table */
	struct list_head dead;		/* reaped: waiting for the grace periods */
	u32		ids[] __counted_by(nr);	/* ascending tracer IDs */
};

/*
 * For each tracer ID, what trampolines are made to call and detours call;
 * written by the core (ftrace_mux.c) as tracers start and stop.
 */
extern struct ftrace_mux_call ftrace_mux_calls[FTRACE_MUX_IDS];

/*
 * The IDs held by fgraph's users (ftrace_mux_graph.c), which a set's
 * trampoline enters together, and how many: a set counts its users when
 * it is made, and an ID is a user's until it is given back.
 */
extern unsigned long ftrace_mux_user_ids[BITS_TO_LONGS(FTRACE_MUX_IDS)];
extern unsigned int ftrace_mux_nr_users;
/* 1 while a user's records are updated without it (it still holds its ID) */
extern unsigned int ftrace_mux_nr_leaving;

static inline bool ftrace_mux_id_is_user(u32 id)
{
	/* (the sets' KUnit test makes sets of IDs beyond the real ones) */
	return id < FTRACE_MUX_IDS && test_bit(id, ftrace_mux_user_ids);
}

/*
 * Does @set hold every tracer of a record that ftrace counts @count
 * tracers on?  Not when one of them has no ID.  ftrace counts fgraph's
 * manager, not its users.
 */
static inline bool ftrace_mux_set_complete(const struct ftrace_mux_set *set,
					   unsigned long count)
{
	return set && set->nr - set->users == count;
}

/*
 * Do the sites of fgraph's manager and its users call the sets'
 * trampolines?  Only with two users or more: fgraph enters a lone user
 * through a static call, testing no filter, which is all a set's
 * trampoline would save; so its sites keep fgraph's own path.
 */
static inline bool ftrace_mux_users_share(void)
{
	/* One leaving counts as gone: the update it asks for moves the sites */
	return ftrace_mux_nr_users - ftrace_mux_nr_leaving >= 2;
}

/* Under ftrace_lock */
u32 ftrace_mux_set_with(u32 from, u32 id);
u32 ftrace_mux_set_without(u32 from, u32 id);
u32 ftrace_mux_set_intern(const u32 *ids, unsigned int nr);
void ftrace_mux_set_pin(u32 index);
void ftrace_mux_set_unpin(u32 index);
/* Under ftrace_lock, RCU or with preemption off */
struct ftrace_mux_set *ftrace_mux_set_lookup(u32 index);
int ftrace_mux_set_pos(const struct ftrace_mux_set *set, u32 id);

/*
 * Reaping takes sets out of the table onto @dead (linked by ->dead); the
 * caller frees them with ftrace_mux_sets_release() after the grace
 * periods, when no CPU can hold their index.
 */
unsigned long ftrace_mux_sets_reap(struct list_head *dead);
unsigned long ftrace_mux_sets_update_done(struct list_head *dead);
unsigned long ftrace_mux_sets_drop_id(u32 id, struct list_head *dead);
void ftrace_mux_sets_release(struct list_head *dead);
void ftrace_mux_sets_count(unsigned long *live, unsigned long *dead);

/*
 * The tracers that want the function (selected by their filter, not by
 * their notrace), from the record's flags; NULL if its set is unknown.
 * Under ftrace_lock, or with preemption off.
 */
static __always_inline struct ftrace_mux_set *ftrace_mux_rec_tracers(unsigned long flags)
{
	return ftrace_mux_set_lookup(ftrace_mux_rec_set(flags));
}

#if IS_ENABLED(CONFIG_FTRACE_MUX_KUNIT_TEST)
void ftrace_mux_sets_limit(u32 max);
#endif

#endif /* _KERNEL_TRACE_FTRACE_MUX_SETS_H */
