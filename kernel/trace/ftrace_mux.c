// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: multiplexing the function tracers on one call site.
 *
 * Without it, a call site wanted by one ftrace_ops calls that ops' own
 * trampoline, but a site wanted by two or more calls ftrace_ops_list_func(),
 * which walks every registered ops and looks the ip up in each one's hashes:
 * the cost of a traced function grows with the number of tracers anywhere
 * in the system.
 *
 * Here every ops that starts tracing gets an ID (ftrace_mux_ops_start()).
 * Each dyn_ftrace record holds the index of its interned set of tracers
 * (ftrace_mux_sets.c), kept exact by __ftrace_hash_rec_update() and
 * referenced_filters() through ftrace_mux_rec_update().  A site whose
 * tracers all have IDs, two or more of them, is patched to call its set's
 * trampoline (ftrace_mux_site.c, ftrace_mux_tramp.c), which calls
 * exactly those tracers, each directly.  A direct ops (a BPF trampoline)
 * is one of them: its function sets the address the trampoline then
 * calls, as with ftrace_regs_caller.  Sites with one tracer keep
 * the ops' own trampoline or direct call; sites with a tracer
 * without an ID, or a set whose trampoline could not be made, keep
 * the list function.
 *
 * Teardown, in this order.  Each step frees only what nothing can reach
 * any more, and waits for CPUs that may still be in it; nobody waits under
 * ftrace_lock:
 *
 *  1. An ops stops (ftrace_shutdown()): ftrace_mux_ops_stopping() lets its
 *     ID leave every record's set as the records are left, and the update
 *     re-patches the sites to the sets they hold now.
 *  2. ftrace_mux_ops_stop(): its ftrace_mux_calls[] entry calls
 *     ftrace_stub(), the sets holding the ID are reaped (step 4) and the
 *     ID is given back, to be handed out again only after the grace
 *     periods (step 5).
 *     With kernel.ftrace_enabled=0 there is no update, and none is
 *     needed: every site is a nop then, a loading module's too.
 *  3. If that update failed, ftrace is dead and sites may call anything:
 *     the ID is retired instead, its calls in every trampoline pointed at
 *     ftrace_stub(), and nothing is freed, as ftrace leaks the ops'
 *     own trampolines then.
 *  4. Sets that no record holds or was patched to are taken out of the
 *     table at the end of such an update (ftrace_mux_sets_reap()), and
 *     their trampolines out of the list and the index (no kallsyms entry,
 *     no lookup): ftrace_mux_bury().
 *  5. One work item, ftrace_mux_reclaim(), waits once for tasks-RCU-rude
 *     and tasks-RCU, the grace periods ftrace_shutdown() waits for before
 *     freeing a dynamic trampoline, for everything steps 2-4 gave it; then
 *     frees the trampolines, then the sets and their indexes, then lets
 *     the IDs be handed out again.
 *
 * Detours (ftrace_mux_detour.c) free what is theirs in their own process
 * context: a removed detour's jump entry only after kprobes' optimizer has
 * taken the jump out, which takes kprobe_mutex and so cannot be waited
 * for under a lock this worker's callers hold.
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/bitmap.h>
#include <linux/ftrace.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include "trace.h"
#include "ftrace_mux.h"
#include "ftrace_mux_graph.h"
#include "ftrace_mux_internal.h"

struct ftrace_mux_stats ftrace_mux_stats;

/* The ops holding each ID, for the tracefs files. */
struct ftrace_ops __rcu *ftrace_mux_ops[FTRACE_MUX_IDS];

/* IDs held by a started ops, and IDs given back but maybe still in use. */
static DECLARE_BITMAP(ftrace_mux_busy, FTRACE_MUX_IDS);
static DECLARE_BITMAP(ftrace_mux_draining, FTRACE_MUX_IDS);
/* IDs of ops being shut down: their bits go as their records are left. */
static DECLARE_BITMAP(ftrace_mux_stopping, FTRACE_MUX_IDS);
/*
 * IDs of ops that stopped after a failed update disabled ftrace: a site
 * may still call a trampoline of a set holding one, so the sets stay.
 */
static DECLARE_BITMAP(ftrace_mux_retired, FTRACE_MUX_IDS);

/* Sets reaped, with their trampolines retired, waiting for reclaim */
static LIST_HEAD(ftrace_mux_dead_sets);

/*
 * Free what was taken out of use (see the top of this file).  A CPU in a
 * trampoline or a detour made before still runs it, reads the set and
 * calls the old ops for its IDs: the same two grace periods that
 * ftrace_shutdown() waits for before freeing a dynamic trampoline cover
 * it, tasks-RCU-rude for CPUs inside with preemption off, tasks-RCU for
 * tasks preempted there.  A work item waits for them, not the task that
 * stopped a tracer: that holds ftrace_lock, and would hold every other
 * ftrace user for as long.  Whatever is given back meanwhile queues the
 * work again.
 */
static void ftrace_mux_reclaim(struct work_struct *work)
{
	DECLARE_BITMAP(ids, FTRACE_MUX_IDS);
	struct ftrace_mux_set *set;
	LIST_HEAD(sets);

	mutex_lock(&ftrace_lock);
	bitmap_copy(ids, ftrace_mux_draining, FTRACE_MUX_IDS);
	list_splice_init(&ftrace_mux_dead_sets, &sets);
	mutex_unlock(&ftrace_lock);
	if (bitmap_empty(ids, FTRACE_MUX_IDS) && list_empty(&sets))
		return;

	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();

	mutex_lock(&ftrace_lock);
	list_for_each_entry(set, &sets, dead)
		ftrace_mux_tramps_free(set);
	ftrace_mux_sets_release(&sets);
	bitmap_andnot(ftrace_mux_draining, ftrace_mux_draining, ids, FTRACE_MUX_IDS);
	mutex_unlock(&ftrace_lock);
}
static DECLARE_WORK(ftrace_mux_reclaim_work, ftrace_mux_reclaim);

/* The @n sets on @dead were reaped: retire their trampolines, reclaim them. */
static void ftrace_mux_bury(struct list_head *dead, unsigned long n)
{
	struct ftrace_mux_set *set;

	lockdep_assert_held(&ftrace_lock);
	if (!n)
		return;
	list_for_each_entry(set, dead, dead)
		ftrace_mux_tramps_retire(set);
	list_splice_tail_init(dead, &ftrace_mux_dead_sets);
	schedule_work(&ftrace_mux_reclaim_work);
}

/* Tracer @id is given back: its sets go now, the ID after the grace periods. */
static void ftrace_mux_id_drain(unsigned long id)
{
	LIST_HEAD(dead);

	ftrace_mux_bury(&dead, ftrace_mux_sets_drop_id(id, &dead));
	__set_bit(id, ftrace_mux_draining);
	schedule_work(&ftrace_mux_reclaim_work);
}

#if IS_ENABLED(CONFIG_FTRACE_MUX_KUNIT_TEST)
/**
 * ftrace_mux_reap - reap every set no record holds, now
 *
 * For the KUnit tests: every set that no record holds or was patched to
 * goes, without waiting for enough of them to gather.
 */
void ftrace_mux_reap(void)
{
	LIST_HEAD(dead);

	ftrace_mux_bury(&dead, ftrace_mux_sets_reap(&dead));
}

/**
 * ftrace_mux_reclaim_flush - wait until what was given back is freed
 *
 * For the KUnit tests.
 */
void ftrace_mux_reclaim_flush(void)
{
	flush_work(&ftrace_mux_reclaim_work);
}
#endif

/*
 * A free ID, or -ENOSPC when every ID is held, draining or retired: the
 * ops then traces through the list function, as beyond the last ID.
 */
static int ftrace_mux_alloc_id(void)
{
	DECLARE_BITMAP(avail, FTRACE_MUX_IDS);
	unsigned long id;

	bitmap_or(avail, ftrace_mux_busy, ftrace_mux_draining, FTRACE_MUX_IDS);
	bitmap_or(avail, avail, ftrace_mux_retired, FTRACE_MUX_IDS);
	id = find_first_zero_bit(avail, FTRACE_MUX_IDS);
	if (id >= FTRACE_MUX_IDS)
		return -ENOSPC;
	__set_bit(id, ftrace_mux_busy);
	return id;
}

/**
 * ftrace_mux_id_counts - how many tracer IDs are taken
 * @busy: out, the IDs held by started ops
 * @draining: out, the IDs given back that are not free yet
 *
 * Called with ftrace_lock held.
 */
void ftrace_mux_id_counts(unsigned int *busy, unsigned int *draining)
{
	lockdep_assert_held(&ftrace_lock);
	*busy = bitmap_weight(ftrace_mux_busy, FTRACE_MUX_IDS);
	/* Retired IDs are given back too, and wait longer */
	*draining = bitmap_weight(ftrace_mux_draining, FTRACE_MUX_IDS) +
		    bitmap_weight(ftrace_mux_retired, FTRACE_MUX_IDS);
}

/**
 * ftrace_mux_ops_id - an ops' tracer ID
 * @ops: the ops
 *
 * Return: its ID, or -1 if it has none (not started, or none was free).
 */
int ftrace_mux_ops_id(struct ftrace_ops *ops)
{
	return ops->mux_id - 1;
}

/**
 * ftrace_mux_ops_update - follow a change of the function an ops calls
 * @ops: the ops whose function changed
 *
 * Called whenever ftrace re-points @ops' own trampoline, because the
 * function to call for it changed (PID filtering, for one): the
 * trampolines of the sets holding @ops call the new one too.
 */
void ftrace_mux_ops_update(struct ftrace_ops *ops)
{
	int id = ftrace_mux_ops_id(ops);
	ftrace_func_t func = ftrace_ops_get_func(ops);

	/* fgraph's users are entered by the trampolines, not called */
	if (id < 0 || ftrace_mux_calls[id].func == func ||
	    ftrace_mux_id_is_user(id))
		return;
	WRITE_ONCE(ftrace_mux_calls[id].func, func);
	ftrace_mux_tramps_set_func(id, func);
}

/**
 * ftrace_mux_ops_start - give a starting ops a tracer ID
 * @ops: the ops that starts tracing
 *
 * Called with ftrace_lock held when @ops starts tracing, before its
 * records are accounted, so that they can hold @ops in their sets.  When
 * no ID is free, @ops is traced through the list function, as it would
 * be without ftrace-mux.
 */
void ftrace_mux_ops_start(struct ftrace_ops *ops)
{
	int id;

	lockdep_assert_held(&ftrace_lock);
	if (WARN_ON_ONCE(ops->mux_id))
		return;
	/*
	 * A stub stands in for a direct call while it is being changed
	 * (__modify_ftrace_direct()): it is there to send the site to the
	 * list function, and comes and goes with every BPF update.
	 */
	if (ops->flags & FTRACE_OPS_FL_STUB)
		return;

	id = ftrace_mux_alloc_id();
	if (id < 0) {
		char name[FTRACE_MUX_NAME_LEN];

		/* Still traced, by the list function; say so once. */
		ftrace_mux_ops_name(ops, name, sizeof(name));
		pr_info_once("no free tracer ID for %s; its functions use the list function\n",
			     name);
		ftrace_mux_stats.no_id++;
		return;
	}
	ops->mux_id = id + 1;
	rcu_assign_pointer(ftrace_mux_ops[id], ops);
	/* The ID drained, so no detour reads the entry: ops before func anyway. */
	WRITE_ONCE(ftrace_mux_calls[id].ops, ops);
	/* Pairs with smp_rmb() in ftrace_mux_detour_call() */
	smp_wmb();
	/*
	 * No set holds the ID yet (ftrace_mux_sets_drop_id()).  An fgraph
	 * user has no function of its own: the trampolines enter it.
	 */
	WRITE_ONCE(ftrace_mux_calls[id].func, ftrace_ops_get_func(ops) ?: ftrace_stub);
}

/**
 * ftrace_mux_ops_stopping - note that an ops is about to stop
 * @ops: the ops that stops tracing
 *
 * Called by ftrace_shutdown() with ftrace_lock held, before @ops'
 * records are un-accounted.
 */
void ftrace_mux_ops_stopping(struct ftrace_ops *ops)
{
	int id = ftrace_mux_ops_id(ops);

	lockdep_assert_held(&ftrace_lock);
	if (id >= 0)
		__set_bit(id, ftrace_mux_stopping);
}

/**
 * ftrace_mux_ops_stop - release the tracer ID of an ops that stopped
 * @ops: the ops that stopped tracing
 *
 * Called with ftrace_lock held when @ops has stopped tracing and its
 * records no longer hold it, before ftrace_shutdown() waits for CPUs to
 * leave the trampolines.
 */
void ftrace_mux_ops_stop(struct ftrace_ops *ops)
{
	int id = ftrace_mux_ops_id(ops);

	lockdep_assert_held(&ftrace_lock);
	/* A stopped tracer is no longer selectable */
	ftrace_mux_unselect(ops);
	if (id < 0)
		return;
	RCU_INIT_POINTER(ftrace_mux_ops[id], NULL);
	/* .ops stays: a CPU may have read it and not yet .func */
	WRITE_ONCE(ftrace_mux_calls[id].func, ftrace_stub);
	__clear_bit(id, ftrace_mux_busy);
	__clear_bit(id, ftrace_mux_stopping);
	ops->mux_id = 0;
	if (!ftrace_is_dead()) {
		/*
		 * ftrace_shutdown() re-patched the sites, or they are all
		 * nops (ftrace_enabled=0): none reaches the sets.
		 */
		ftrace_mux_id_drain(id);
		return;
	}
	/*
	 * Sites may call anything: keep the sets, but never call the
	 * stopped ops from them again: it may be freed.
	 */
	ftrace_mux_tramps_set_func(id, ftrace_stub);
	__set_bit(id, ftrace_mux_retired);
}

/**
 * ftrace_mux_subops_start - give a joining subops a tracer ID
 * @ops: the manager whose list @subops joined
 * @subops: the subops
 *
 * If @ops is fgraph's, @subops is a user of it and gets an ID of its own
 * (ftrace_mux_graph.c), before any record is accounted with it.
 */
void ftrace_mux_subops_start(struct ftrace_ops *ops, struct ftrace_ops *subops)
{
	lockdep_assert_held(&ftrace_lock);
	if (!ftrace_mux_graph_manages(ops))
		return;
	ftrace_mux_ops_start(subops);
	ftrace_mux_graph_user_start(ops, subops);
}

/**
 * ftrace_mux_subops_leaving - note a subops leaving its manager
 * @ops: the manager whose list @subops left
 * @subops: the subops
 * @leaving: true before ftrace updates @ops' records without @subops,
 *	false when @subops is back on the list because that failed
 */
void ftrace_mux_subops_leaving(struct ftrace_ops *ops, struct ftrace_ops *subops,
			       bool leaving)
{
	lockdep_assert_held(&ftrace_lock);
	if (ftrace_mux_graph_manages(ops))
		ftrace_mux_graph_user_leaving(ftrace_mux_ops_id(subops), leaving);
}

/**
 * ftrace_mux_subops_stop - release the tracer ID of a subops that left
 * @ops: the manager whose list @subops left
 * @subops: the subops
 *
 * Called once no record holds @subops any more (ftrace.c updated or
 * walked them): its ID goes as an ops' does.
 *
 * Return: true if the sites must be updated again
 * (ftrace_mux_users_share() changed, and the updates since did not move
 * them).
 */
bool ftrace_mux_subops_stop(struct ftrace_ops *ops, struct ftrace_ops *subops)
{
	int id = ftrace_mux_ops_id(subops);

	lockdep_assert_held(&ftrace_lock);
	if (!ftrace_mux_graph_manages(ops))
		return false;
	ftrace_mux_ops_stop(subops);
	ftrace_mux_graph_user_stop(id);
	return ftrace_mux_graph_sites_stale();
}

/*
 * The set of @rec's tracers worked out from every started ops' hashes,
 * for a record whose set could not be made before (no memory).
 */
static u32 ftrace_mux_rec_recompute(struct dyn_ftrace *rec)
{
	/* Too large for the stack; ftrace_lock serializes its users */
	static u32 ids[FTRACE_MUX_IDS];
	struct ftrace_ops_hash *h;
	struct ftrace_ops *op;
	unsigned int nr = 0;
	bool manager = false;
	int id;

	lockdep_assert_held(&ftrace_lock);
	for (id = 0; id < FTRACE_MUX_IDS; id++) {
		op = rcu_dereference_protected(ftrace_mux_ops[id],
					       lockdep_is_held(&ftrace_lock));
		/* fgraph's users: ftrace_mux_graph_rec() below */
		if (!op || test_bit(id, ftrace_mux_stopping) ||
		    ftrace_mux_id_is_user(id))
			continue;
		h = op->func_hash;
		if ((ftrace_hash_empty(h->filter_hash) ||
		     ftrace_lookup_ip(h->filter_hash, rec->ip)) &&
		    !ftrace_lookup_ip(h->notrace_hash, rec->ip)) {
			ids[nr++] = id;
			manager |= ftrace_mux_graph_is_manager(op);
		}
	}
	return ftrace_mux_graph_rec(rec, ftrace_mux_set_intern(ids, nr), manager);
}

/**
 * __ftrace_mux_rec_update - account an ops on a record's set
 * @rec: the record
 * @ops: the ops, one with an ID
 * @inc: @ops is put on the records (else taken off)
 * @in_filter: @ops' filter selects @rec's function, or is empty
 * @in_notrace: @ops' notrace names it
 *
 * With @inc, @ops joins the record's set if its
 * filter selects the function (or is empty) and its notrace does not name
 * it, and leaves it otherwise; without, it leaves, but only when @ops is
 * stopping.
 *
 * A filter change takes the ops off every record and puts it back
 * (ftrace_hash_rec_disable_modify(), then _enable_modify()), and detours
 * read the set live: leaving in between would drop calls of functions that
 * the new filter still selects.  So the set changes in one store, when the
 * ops is put back, and meanwhile it still holds the ops, as the site's old
 * trampoline does until it is re-patched.  Only ops with an ID get here
 * (the inline ftrace_mux_rec_update()).
 */
void __ftrace_mux_rec_update(struct dyn_ftrace *rec, struct ftrace_ops *ops,
			     bool inc, bool in_filter, bool in_notrace)
{
	int id = ftrace_mux_ops_id(ops);
	unsigned long flags;
	bool wanted;
	u32 from, to;

	if (!inc && !test_bit(id, ftrace_mux_stopping))
		return;
	flags = rec->flags;
	from = ftrace_mux_rec_set(flags);
	wanted = inc && in_filter && !in_notrace;
	if (from == FTRACE_MUX_SET_UNKNOWN)
		to = ftrace_mux_rec_recompute(rec);
	else if (wanted)
		to = ftrace_mux_set_with(from, id);
	else
		to = ftrace_mux_set_without(from, id);
	/* fgraph's users follow it (ftrace_mux_graph.c) */
	if (ftrace_mux_graph_is_manager(ops))
		to = ftrace_mux_graph_rec(rec, to, wanted);
	if (to == from)
		return;
	if (to == FTRACE_MUX_SET_UNKNOWN)
		ftrace_mux_stats.no_set++;
	WRITE_ONCE(rec->flags, ftrace_mux_flags_with_set(flags, to));
}

/**
 * ftrace_mux_update_done - free what the sites no longer call
 * @command: the FTRACE_* command ftrace_run_update_code() ran
 *
 * Called at the end of ftrace_run_update_code().  Only an update that
 * walked every record leaves each site calling what its record says, so
 * only then may the sets no record holds go.
 */
void ftrace_mux_update_done(int command)
{
	LIST_HEAD(dead);

	/*
	 * After a failed update sites may call anything: free nothing, as
	 * ftrace leaks the ops' own trampolines once it is disabled.
	 */
	if (ftrace_is_dead())
		return;
	if (!(command & (FTRACE_UPDATE_CALLS | FTRACE_DISABLE_CALLS)))
		return;
	ftrace_mux_bury(&dead, ftrace_mux_sets_update_done(&dead));
	ftrace_mux_graph_update_done();
}
