// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux tracer sets.
 *
 * A call site serves the tracers whose filter selects its function and
 * whose notrace does not name it.  Few distinct such sets exist at a time
 * (a handful per tracing session, whatever the number of records), so each
 * is interned once and every dyn_ftrace record holds its set's index in the
 * otherwise unused upper half of its flags; the record grows by no byte.
 * Beside it sits the index of the set whose trampoline the site was last
 * patched to call, so that ftrace knows what a site calls without reading
 * its text, as it knows its own trampolines from the _EN flags:
 *
 *  63             48 47             32 31                              0
 * +-----------------+-----------------+--------------------------------+
 * |   patched set   |   wanted set    |  ftrace's flags and ref count  |
 * +-----------------+-----------------+--------------------------------+
 *
 *   0           the empty set (patched: the site calls no set's trampoline)
 *   1 .. 65534  an interned set, found with ftrace_mux_set_lookup()
 *   65535       unknown (wanted only): a set could not be made, the site
 *               takes the list function until the record is recomputed
 *
 * A set is immutable: a record moves to another set with one store of its
 * flags, so a CPU reading the index sees the old set or the new one, never
 * a set being built.  Sets never change; what a tracer ID calls does, through
 * ftrace_mux_calls[].
 *
 * Updates walk every record for one tracer at a time, so a set remembers
 * its last transition each way, (set, +id) and (set, -id): over 50,000
 * records moving from a few sets to a few others, nearly every step is
 * one compare, and the update stays linear in the records.
 *
 * Every write happens under ftrace_lock.  A set that no record holds is
 * reaped at the end of an update once the live sets have doubled since
 * the last reap (ftrace_mux_sets_update_done()), found by marking
 * the sets of every record rather than by counting: records come and go
 * in ftrace.c's own paths (modules, init text) without telling anyone,
 * and the walk costs what the update's own walk of the records costs.  A
 * reaped set leaves the interning table at once, but keeps its index, and
 * its memory, until CPUs that may have read the index are known to be
 * gone: reaping hands the sets to its caller, which frees them with
 * ftrace_mux_sets_release() after the RCU-tasks-rude and RCU-tasks grace
 * periods (the core's reclaim worker, ftrace_mux.c).
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/ftrace.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "ftrace_internal.h"
#include "ftrace_mux_sets.h"

#define NO_ID	U32_MAX		/* no cached transition */

static struct ftrace_mux_set empty_set = {
	.index = FTRACE_MUX_SET_EMPTY,
	.add_id = NO_ID,
	.del_id = NO_ID,
};

/* Hands out the indexes, under ftrace_lock. */
static DEFINE_XARRAY_ALLOC1(set_index);
/*
 * Index -> set for readers, detours on every call among them: a flat
 * array, so a lookup is two loads.  Written under ftrace_lock; grown by
 * replacing it with a larger copy, the old one freed after an RCU grace
 * period (readers hold ftrace_lock or run with preemption off).
 */
struct set_vec {
	struct rcu_head	rcu;
	u32		nr;
	struct ftrace_mux_set *sets[] __counted_by(nr);
};
static struct set_vec __rcu *set_vec;
/* Interning: ids[] -> set, under ftrace_lock. */
static DEFINE_HASHTABLE(set_table, 10);
static unsigned long nr_live;
/* Reap when this many sets are live: twice what the last reap kept. */
static unsigned long reap_at = 64;
/* The highest index handed out; lowered only by the KUnit tests. */
static u32 set_index_max = FTRACE_MUX_SETS_MAX;

/* Reaped, not yet released */
static unsigned long nr_dead;

/*
 * The ops of each ID and the function its own trampoline would call
 * (ftrace_ops_get_func(), so every ops gets the recursion and RCU
 * protection it asked for): what the trampolines are made to call, and
 * what detours call, read locklessly there.  A free ID calls
 * ftrace_stub(): a detour can still hold a set that was current before.
 */
struct ftrace_mux_call ftrace_mux_calls[FTRACE_MUX_IDS] __read_mostly = {
	[0 ... FTRACE_MUX_IDS - 1] = { .func = ftrace_stub },
};

/**
 * ftrace_mux_set_lookup - the set at an index
 * @index: the index
 *
 * For readers that hold RCU (or have preemption off).
 *
 * Return: the set, or NULL if there is none at @index.
 */
struct ftrace_mux_set *ftrace_mux_set_lookup(u32 index)
{
	struct set_vec *v;

	if (index == FTRACE_MUX_SET_EMPTY)
		return &empty_set;
	v = rcu_dereference_check(set_vec, lockdep_is_held(&ftrace_lock) ||
				  rcu_read_lock_any_held());
	/* FTRACE_MUX_SET_UNKNOWN is never below nr */
	if (!v || index >= v->nr)
		return NULL;
	return READ_ONCE(v->sets[index]);
}

/* Make @index's slot in set_vec say @set, growing it if need be. */
static int ftrace_mux_sets_store(u32 index, struct ftrace_mux_set *set)
{
	struct set_vec *v, *n;
	u32 nr;

	lockdep_assert_held(&ftrace_lock);
	v = rcu_dereference_protected(set_vec, lockdep_is_held(&ftrace_lock));
	if (!v || index >= v->nr) {
		if (!set)
			return 0;
		nr = max_t(u32, 64, roundup_pow_of_two(index + 1));
		n = kzalloc(struct_size(n, sets, nr), GFP_KERNEL);
		if (!n)
			return -ENOMEM;
		n->nr = nr;
		if (v)
			memcpy(n->sets, v->sets, flex_array_size(v, sets, v->nr));
		n->sets[index] = set;
		rcu_assign_pointer(set_vec, n);
		if (v)
			kfree_rcu(v, rcu);
		return 0;
	}
	WRITE_ONCE(v->sets[index], set);
	return 0;
}

static u32 ftrace_mux_ids_hash(const u32 *ids, unsigned int nr)
{
	return jhash2(ids, nr, nr);
}

static struct ftrace_mux_set *ftrace_mux_set_find(const u32 *ids, unsigned int nr, u32 hash)
{
	struct ftrace_mux_set *set;

	hash_for_each_possible(set_table, set, node, hash) {
		if (set->hash == hash && set->nr == nr &&
		    !memcmp(set->ids, ids, flex_array_size(set, ids, nr)))
			return set;
	}
	return NULL;
}

unsigned long ftrace_mux_user_ids[BITS_TO_LONGS(FTRACE_MUX_IDS)];
unsigned int ftrace_mux_nr_users;
unsigned int ftrace_mux_nr_leaving;

/* Publish @set (ids[] and nr filled in), or free it if that fails. */
static u32 ftrace_mux_set_publish(struct ftrace_mux_set *set)
{
	unsigned int i;
	u32 index;

	set->hash = ftrace_mux_ids_hash(set->ids, set->nr);
	set->users = 0;
	for (i = 0; i < set->nr; i++)
		set->users += ftrace_mux_id_is_user(set->ids[i]);
	set->add_id = set->del_id = NO_ID;
	set->pins = 0;
	set->seen = 0;
	set->reaped = false;
	set->no_tramp = 0;
	set->regs = FTRACE_MUX_SET_REGS_UNKNOWN;
	memset(set->tramp, 0, sizeof(set->tramp));
	set->detour = NULL;
	if (xa_alloc(&set_index, &index, set, XA_LIMIT(1, set_index_max),
		     GFP_KERNEL)) {
		kfree(set);
		return FTRACE_MUX_SET_UNKNOWN;
	}
	if (ftrace_mux_sets_store(index, set)) {
		xa_erase(&set_index, index);
		kfree(set);
		return FTRACE_MUX_SET_UNKNOWN;
	}
	set->index = index;
	hash_add(set_table, &set->node, set->hash);
	nr_live++;
	return index;
}

static struct ftrace_mux_set *ftrace_mux_set_alloc(unsigned int nr)
{
	struct ftrace_mux_set *set;

	set = kmalloc(struct_size(set, ids, nr), GFP_KERNEL);
	if (set)
		set->nr = nr;
	return set;
}

/**
 * ftrace_mux_set_intern - the index of a set of tracer IDs
 * @ids: the IDs, ascending, no repeats
 * @nr: how many
 *
 * The set is made if it does not exist yet.  Unless a record holds it
 * when the update ends, or it is pinned (ftrace_mux_set_pin()), it is
 * reaped then.
 *
 * Return: its index, or FTRACE_MUX_SET_UNKNOWN without memory or indexes.
 */
u32 ftrace_mux_set_intern(const u32 *ids, unsigned int nr)
{
	struct ftrace_mux_set *set;

	lockdep_assert_held(&ftrace_lock);
	if (!nr)
		return FTRACE_MUX_SET_EMPTY;
	set = ftrace_mux_set_find(ids, nr, ftrace_mux_ids_hash(ids, nr));
	if (set)
		return set->index;
	set = ftrace_mux_set_alloc(nr);
	if (!set)
		return FTRACE_MUX_SET_UNKNOWN;
	memcpy(set->ids, ids, flex_array_size(set, ids, nr));
	return ftrace_mux_set_publish(set);
}

/* Where @id goes in @set's ids[], and whether it is there. */
static unsigned int ftrace_mux_set_id_pos(const struct ftrace_mux_set *set, u32 id, bool *found)
{
	unsigned int lo = 0, hi = set->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (set->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < set->nr && set->ids[lo] == id;
	return lo;
}

/**
 * ftrace_mux_set_pos - where a tracer is in a set
 * @set: the set
 * @id: the tracer's ID
 *
 * Return: the position of @id in @set's ids[] (its call in a
 * trampoline), or -1.
 */
int ftrace_mux_set_pos(const struct ftrace_mux_set *set, u32 id)
{
	unsigned int pos;
	bool found;

	pos = ftrace_mux_set_id_pos(set, id, &found);
	return found ? pos : -1;
}

/*
 * The set with one tracer more or less: build the candidate in place,
 * then keep the interned twin if there is one.
 */
static u32 ftrace_mux_set_step(u32 from, u32 id, bool add)
{
	struct ftrace_mux_set *set, *cand, *twin;
	unsigned int pos, nr;
	bool found;
	u32 to;

	lockdep_assert_held(&ftrace_lock);
	set = ftrace_mux_set_lookup(from);
	if (!set)
		return FTRACE_MUX_SET_UNKNOWN;
	if (add && set->add_id == id)
		return set->add_to;
	if (!add && set->del_id == id)
		return set->del_to;

	pos = ftrace_mux_set_id_pos(set, id, &found);
	if (found == add)
		return from;
	nr = add ? set->nr + 1 : set->nr - 1;
	if (!nr) {
		to = FTRACE_MUX_SET_EMPTY;
		goto cache;
	}
	cand = ftrace_mux_set_alloc(nr);
	if (!cand)
		return FTRACE_MUX_SET_UNKNOWN;
	memcpy(cand->ids, set->ids, flex_array_size(set, ids, pos));
	if (add) {
		cand->ids[pos] = id;
		memcpy(cand->ids + pos + 1, set->ids + pos,
		       flex_array_size(set, ids, set->nr - pos));
	} else {
		memcpy(cand->ids + pos, set->ids + pos + 1,
		       flex_array_size(set, ids, set->nr - pos - 1));
	}
	twin = ftrace_mux_set_find(cand->ids, nr, ftrace_mux_ids_hash(cand->ids, nr));
	if (twin) {
		kfree(cand);
		to = twin->index;
	} else {
		to = ftrace_mux_set_publish(cand);
		if (to == FTRACE_MUX_SET_UNKNOWN)
			return to;
	}
cache:
	if (add) {
		set->add_id = id;
		set->add_to = to;
	} else {
		set->del_id = id;
		set->del_to = to;
	}
	return to;
}

/**
 * ftrace_mux_set_with - a set with one tracer more
 * @from: the set's index
 * @id: the tracer's ID
 *
 * Return: the index of the set @from with @id added.
 */
u32 ftrace_mux_set_with(u32 from, u32 id)
{
	return ftrace_mux_set_step(from, id, true);
}

/**
 * ftrace_mux_set_without - a set with one tracer less
 * @from: the set's index
 * @id: the tracer's ID
 *
 * Return: the index of the set @from with @id taken out.
 */
u32 ftrace_mux_set_without(u32 from, u32 id)
{
	return ftrace_mux_set_step(from, id, false);
}

/**
 * ftrace_mux_set_pin - keep a set that no record holds
 * @index: the set's index
 *
 * It is not reaped until ftrace_mux_set_unpin().
 */
void ftrace_mux_set_pin(u32 index)
{
	struct ftrace_mux_set *set;

	lockdep_assert_held(&ftrace_lock);
	set = ftrace_mux_set_lookup(index);
	if (set && index != FTRACE_MUX_SET_EMPTY)
		set->pins++;
}

/**
 * ftrace_mux_set_unpin - let a pinned set be reaped again
 * @index: the set's index
 */
void ftrace_mux_set_unpin(u32 index)
{
	struct ftrace_mux_set *set;

	lockdep_assert_held(&ftrace_lock);
	set = ftrace_mux_set_lookup(index);
	if (set && index != FTRACE_MUX_SET_EMPTY && !WARN_ON_ONCE(!set->pins))
		set->pins--;
}

static bool ftrace_mux_set_leads_to_reaped(u32 id, u32 to)
{
	struct ftrace_mux_set *set;

	if (id == NO_ID || to == FTRACE_MUX_SET_EMPTY)
		return false;
	set = ftrace_mux_set_lookup(to);
	return set && set->reaped;
}

/* Drop @set's cached transitions into reaped sets. */
static void ftrace_mux_set_forget_reaped(struct ftrace_mux_set *set)
{
	if (ftrace_mux_set_leads_to_reaped(set->add_id, set->add_to))
		set->add_id = NO_ID;
	if (ftrace_mux_set_leads_to_reaped(set->del_id, set->del_to))
		set->del_id = NO_ID;
}

/* Take @set out of the table: no record or site can come to it again. */
static void ftrace_mux_set_unhash(struct ftrace_mux_set *set, struct list_head *dead)
{
	hash_del(&set->node);
	set->reaped = true;
	list_add_tail(&set->dead, dead);
	nr_live--;
	nr_dead++;
}

/* @n sets were reaped: forget the transitions that lead to them. */
static unsigned long ftrace_mux_sets_bury(unsigned long n)
{
	struct ftrace_mux_set *set;
	int bkt;

	if (!n)
		return 0;
	ftrace_mux_set_forget_reaped(&empty_set);
	hash_for_each(set_table, bkt, set, node)
		ftrace_mux_set_forget_reaped(set);
	return n;
}

/* A record holds the set at @index: note it in reap @generation. */
static void ftrace_mux_sets_mark(u32 index, u32 generation)
{
	struct ftrace_mux_set *set;

	if (index == FTRACE_MUX_SET_EMPTY || index == FTRACE_MUX_SET_UNKNOWN)
		return;
	set = ftrace_mux_set_lookup(index);
	if (!WARN_ON_ONCE(!set || set->reaped))
		set->seen = generation;
}

/**
 * ftrace_mux_sets_reap - take the sets nothing holds out of the table
 * @dead: out, the list they go onto
 *
 * The sets that no record holds, wanted or patched, and no one pinned;
 * the transitions that lead to them are forgotten.
 *
 * Return: how many.
 */
unsigned long ftrace_mux_sets_reap(struct list_head *dead)
{
	static u32 generation;
	struct ftrace_rec_iter *iter;
	struct ftrace_mux_set *set;
	struct hlist_node *tmp;
	unsigned long n = 0;
	int bkt;

	lockdep_assert_held(&ftrace_lock);
	if (!nr_live)
		return 0;
	/* 0 is what a new set starts with: never a current generation. */
	if (!++generation)
		++generation;
	for_ftrace_rec_iter(iter) {
		unsigned long flags = ftrace_rec_iter_record(iter)->flags;

		ftrace_mux_sets_mark(ftrace_mux_rec_set(flags), generation);
		/* Equal once the update is done; kept apart in case it failed */
		ftrace_mux_sets_mark(ftrace_mux_rec_patched(flags), generation);
	}
	hash_for_each_safe(set_table, bkt, tmp, set, node) {
		if (set->pins || set->seen == generation)
			continue;
		ftrace_mux_set_unhash(set, dead);
		n++;
	}
	return ftrace_mux_sets_bury(n);
}

/**
 * ftrace_mux_sets_update_done - reap the sets at the end of an update
 * @dead: out, the list the reaped sets go onto
 *
 * Every patched site calls the trampoline of the set its record holds (or
 * is a nop), so a set no record holds is called by no site and may be
 * reaped, once enough of them have gathered.  Not earlier: in the middle
 * of an update, sites still call the sets their records held before it.
 *
 * Return: how many were reaped.
 */
unsigned long ftrace_mux_sets_update_done(struct list_head *dead)
{
	unsigned long n;

	lockdep_assert_held(&ftrace_lock);
	if (nr_live < reap_at)
		return 0;
	n = ftrace_mux_sets_reap(dead);
	reap_at = max(2 * nr_live, 64UL);
	return n;
}

/**
 * ftrace_mux_sets_drop_id - reap the sets holding a tracer given back
 * @id: the tracer's ID
 * @dead: out, the list the reaped sets go onto
 *
 * Its records have left @id and no site calls a set holding it
 * (ftrace_shutdown() has run the update).  Such sets go now, so that the
 * ID's next ops never finds a trampoline that calls the old one.
 *
 * Return: how many were reaped.
 */
unsigned long ftrace_mux_sets_drop_id(u32 id, struct list_head *dead)
{
	struct ftrace_mux_set *set;
	struct hlist_node *tmp;
	unsigned long n = 0;
	int bkt;

	lockdep_assert_held(&ftrace_lock);
	hash_for_each_safe(set_table, bkt, tmp, set, node) {
		if (ftrace_mux_set_pos(set, id) < 0)
			continue;
		WARN_ON_ONCE(set->pins);
		ftrace_mux_set_unhash(set, dead);
		n++;
	}
	return ftrace_mux_sets_bury(n);
}

/**
 * ftrace_mux_sets_release - free reaped sets
 * @dead: the reaped sets
 *
 * Frees them and their indexes, now that no CPU can hold them: the grace
 * periods have passed and their trampolines are gone
 * (ftrace_mux_tramps_free()).
 */
void ftrace_mux_sets_release(struct list_head *dead)
{
	struct ftrace_mux_set *set, *tmp;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry_safe(set, tmp, dead, dead) {
		ftrace_mux_sets_store(set->index, NULL);
		xa_erase(&set_index, set->index);
		list_del(&set->dead);
		kfree(set);
		nr_dead--;
	}
}

/**
 * ftrace_mux_sets_count - how many sets there are
 * @live: out, the sets in the table
 * @dead: out, the reaped sets not freed yet
 *
 * For function_tracers' summary and the tests.
 */
void ftrace_mux_sets_count(unsigned long *live, unsigned long *dead)
{
	lockdep_assert_held(&ftrace_lock);
	*live = nr_live;
	*dead = nr_dead;
}

#if IS_ENABLED(CONFIG_FTRACE_MUX_KUNIT_TEST)
/**
 * ftrace_mux_sets_limit - hand out set indexes up to a bound only
 * @max: the bound
 *
 * Exhaustion, for the tests.
 */
void ftrace_mux_sets_limit(u32 max)
{
	lockdep_assert_held(&ftrace_lock);
	set_index_max = max;
}
#endif
