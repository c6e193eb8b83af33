// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: which trampoline a call site calls.
 *
 * When ftrace updates a site, it asks here first (ftrace_get_addr_new()
 * and ftrace_get_addr_curr() through the inline wrappers of ftrace_mux.h):
 * a site whose record's set has two tracers or more (fgraph's users
 * counted while there are two of them or more, ftrace_mux_graph.c), all
 * of them with IDs, calls that set's trampoline (made in
 * ftrace_mux_tramp.c) in the flavour its record's FTRACE_FL_REGS asks
 * for.  The record remembers the set whose trampoline its site was
 * patched to call, so that what the site calls now is known without
 * reading the text, as ftrace's verify-before-modify needs.
 */
#include <linux/ftrace.h>

#include "ftrace_internal.h"
#include "ftrace_mux_sets.h"
#include "ftrace_mux_site.h"
#include "ftrace_mux_tramp.h"

/**
 * ftrace_mux_site_set - the set whose trampoline a site should call
 * @rec: the site's record
 *
 * Return: the set, or NULL if the site keeps the path ftrace chooses
 * without sets (see the top of this file).
 */
struct ftrace_mux_set *ftrace_mux_site_set(struct dyn_ftrace *rec)
{
	unsigned long count = ftrace_rec_count(rec);
	struct ftrace_mux_set *set;

	/* Most records of an update: no lookup for them */
	if (!count || (count < 2 && !ftrace_mux_users_share()))
		return NULL;
	set = ftrace_mux_set_lookup(ftrace_mux_rec_set(rec->flags));
	if (!ftrace_mux_set_complete(set, count) || set->nr < 2)
		return NULL;
	return set;
}

/*
 * Does a tracer of @set want pt_regs?  A direct ops asks for them (on
 * x86, ftrace gives it SAVE_REGS so that ftrace_regs_caller serves it
 * beside other ops), but its function only writes ORIG_RAX, which the
 * ftrace_regs frame has too.  A set's tracers and their flags do not
 * change: the answer is kept, as each record of an update asks.
 */
static bool ftrace_mux_set_wants_regs(struct ftrace_mux_set *set)
{
	const struct ftrace_ops *ops;
	unsigned int i;
	u8 regs = READ_ONCE(set->regs);

	if (regs != FTRACE_MUX_SET_REGS_UNKNOWN)
		return regs == FTRACE_MUX_SET_REGS_YES;
	regs = FTRACE_MUX_SET_REGS_NO;
	for (i = 0; i < set->nr; i++) {
		ops = ftrace_mux_calls[set->ids[i]].ops;
		if ((ops->flags & FTRACE_OPS_FL_SAVE_REGS) &&
		    !(ops->flags & FTRACE_OPS_FL_DIRECT)) {
			regs = FTRACE_MUX_SET_REGS_YES;
			break;
		}
	}
	/* (the same answer whoever stores it first) */
	WRITE_ONCE(set->regs, regs);
	return regs == FTRACE_MUX_SET_REGS_YES;
}

/*
 * The flavour of @set's trampoline a site calls, from its record's
 * @flags: FTRACE_FL_REGS for the one it should call, FTRACE_FL_REGS_EN
 * for the one it was patched to.  A set's tracers do not change, so the
 * answer for a patched set is the one given when it was patched.
 */
static enum ftrace_mux_flavour ftrace_mux_flavour(struct ftrace_mux_set *set,
						  unsigned long flags,
						  unsigned long regs_flag)
{
	if (!(flags & regs_flag))
		return FTRACE_MUX_FENTRY;
	if (ftrace_mux_set_wants_regs(set))
		return FTRACE_MUX_FENTRY_REGS;
	return FTRACE_MUX_FENTRY_DIRECT;
}

/**
 * __ftrace_mux_addr_new - where a site shared by tracers should call
 * @rec: the site's record
 *
 * For ftrace_get_addr_new(), through ftrace_mux_addr_new(): the
 * trampoline of @rec's set, made now if no site had it before.
 *
 * Return: its address, or 0 for ftrace's own choice.
 */
unsigned long __ftrace_mux_addr_new(struct dyn_ftrace *rec)
{
	struct ftrace_mux_set *set = ftrace_mux_site_set(rec);

	if (!set)
		return 0;
	return ftrace_mux_set_tramp(set, ftrace_mux_flavour(set, rec->flags,
							    FTRACE_FL_REGS));
}

/**
 * ftrace_mux_rec_tramp - the trampoline a site calls now
 * @rec: the site's record
 *
 * The patched set's, in the flavour the site was patched with.  It comes
 * from the record, not the text, so that ftrace's verify-before-modify
 * compares the text with what the site should call.
 *
 * Return: the trampoline, or NULL.
 */
struct ftrace_mux_tramp *ftrace_mux_rec_tramp(struct dyn_ftrace *rec)
{
	struct ftrace_mux_set *set;
	u32 index;

	lockdep_assert_held(&ftrace_lock);
	index = ftrace_mux_rec_patched(rec->flags);
	if (index == FTRACE_MUX_SET_EMPTY)
		return NULL;
	/* Reaping keeps every patched set (ftrace_mux_sets_reap()) */
	set = ftrace_mux_set_lookup(index);
	if (WARN_ON_ONCE(!set))
		return NULL;
	return ftrace_mux_set_tramp_made(set, ftrace_mux_flavour(set, rec->flags,
								 FTRACE_FL_REGS_EN));
}

/**
 * __ftrace_mux_addr_curr - what a site patched to a set's trampoline calls
 * @rec: the site's record
 *
 * Return: the trampoline @rec's site calls now (from the record, see
 * ftrace_mux_rec_tramp()), or 0.
 */
unsigned long __ftrace_mux_addr_curr(struct dyn_ftrace *rec)
{
	struct ftrace_mux_tramp *t = ftrace_mux_rec_tramp(rec);

	return t ? t->start : 0;
}

/**
 * __ftrace_mux_rec_patched_update - remember the set a site calls
 * @rec: the site's record
 * @update: what ftrace_update_record() decided (FTRACE_UPDATE_*)
 *
 * Called by ftrace_update_record() with what it decided, right after
 * ftrace_get_addr_new() chose @rec's new call and before or after the
 * site is patched to it (the arch's choice): remember the set whose
 * trampoline that is, if it is one.  The flags are up to date already,
 * FTRACE_FL_REGS_EN included, and ftrace_mux_addr_new() made whatever
 * trampoline it returned, so this makes none.
 */
void __ftrace_mux_rec_patched_update(struct dyn_ftrace *rec, int update)
{
	struct ftrace_mux_set *set = NULL;
	unsigned long flags = rec->flags;
	u32 index = FTRACE_MUX_SET_EMPTY;

	if (update == FTRACE_UPDATE_IGNORE)
		return;
	if (update != FTRACE_UPDATE_MAKE_NOP)
		set = ftrace_mux_site_set(rec);
	if (set && ftrace_mux_set_tramp_made(set, ftrace_mux_flavour(set, flags,
							FTRACE_FL_REGS)))
		index = set->index;
	if (index == ftrace_mux_rec_patched(flags))
		return;
	flags &= ~FTRACE_MUX_PATCHED_FIELD;
	/* Detours and the tracefs files read the flags locklessly */
	WRITE_ONCE(rec->flags, flags | (unsigned long)index << FTRACE_MUX_PATCHED_SHIFT);
}

/**
 * __ftrace_mux_rec_changed - does a site need re-patching for its set
 * @rec: the site's record
 *
 * Does @rec need re-patching although ftrace's flags of it did not
 * change?  Its site should call another set's trampoline than it does.  Asked
 * outside the update too (__ftrace_hash_rec_update()), so it makes no
 * trampoline: a set whose trampoline could not be made counts as none.
 *
 * Return: true if its site should call another set's trampoline.
 */
bool __ftrace_mux_rec_changed(struct dyn_ftrace *rec)
{
	struct ftrace_mux_set *set = ftrace_mux_site_set(rec);
	u32 want = FTRACE_MUX_SET_EMPTY;

	if (set && !(set->no_tramp &
		     BIT(ftrace_mux_flavour(set, rec->flags, FTRACE_FL_REGS))))
		want = set->index;
	return want != ftrace_mux_rec_patched(rec->flags);
}
