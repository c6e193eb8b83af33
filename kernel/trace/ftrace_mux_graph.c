// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: function_graph's users as members of a set.
 *
 * fgraph puts one ftrace_ops of its own on the call sites, a manager whose
 * hashes are the union of its users' (each fgraph_ops has an ops of its
 * own, a subops, for its filter), and whose function, ftrace_graph_func(),
 * tests every user's filter on every call, as the list function does for
 * ftrace_ops.  Here each user gets a tracer ID too, and a record's set
 * holds, beside the manager's ID, the IDs of the users that want its
 * function.  The set's trampoline enters exactly those users, once, in
 * the block of the first of the manager and its users
 * (ftrace_graph_users_func(), function_graph_enter_users()); the blocks
 * of the others are skipped, one jump over each run of them:
 *
 *   record's set     { function, fgraph, graph-A, graph-B }
 *   trampoline       call function's func                 (function)
 *                    call ftrace_graph_users_func({A, B}) (fgraph)
 *                    jmp over this block and B's          (graph-A)
 *                    not reached                          (graph-B)
 *
 * ftrace counts the manager once in a record, so a set's users are not in
 * ftrace_rec_count() (set->users; ftrace_mux_site.c).
 *
 * fgraph enters a lone user through a static call, testing no filter,
 * which is all a set's trampoline would save.  So while fgraph has one
 * user, a site of the manager alone keeps fgraph's own path, and the
 * sites move to the sets' trampolines when a second user starts and back
 * when it stops (ftrace_mux_users_share(), ftrace_mux_graph_sites_stale()).
 * The records' sets hold the users all along.
 *
 * The users in a record's set follow the manager's: wherever ftrace
 * accounts the manager on a record (ftrace_mux_rec_update()), the users
 * are worked out again from their hashes (ftrace_mux_graph_rec()), and a
 * user can want only what the union wants.  When a user comes or goes or
 * changes its filter without changing the union, no record of the
 * manager is accounted: ftrace.c then walks every record
 * (ftrace_mux_graph_rec_sync()) and updates the sites whose set changed.
 * If a user could not get an ID, no record holds any user and the
 * manager's function tests them all, as fgraph does on its own.
 *
 * A user's ID is entered from the set's trampoline only: its call in
 * ftrace_mux_calls[] is ftrace_stub(), so a detour's walk of the set in C
 * calls the manager's function, which tests every user.
 */
#include <linux/ftrace.h>
#include <linux/slab.h>

#include "ftrace_internal.h"
#include "ftrace_mux_sets.h"
#include "ftrace_mux_graph.h"

#if defined(CONFIG_FUNCTION_GRAPH_TRACER) && defined(ftrace_graph_users_func)
#define FTRACE_MUX_GRAPH	1
#else
#define FTRACE_MUX_GRAPH	0
#endif

/* fgraph's manager ops, once a user of it started */
static struct ftrace_ops *graph_manager;

/* Records the manager was accounted on: ftrace_mux_graph_sync_needed() */
unsigned long ftrace_mux_graph_recounts;

/* ftrace_mux_users_share() when ftrace last updated the sites */
static bool graph_sites_shared;

/**
 * ftrace_mux_graph_manages - is an ops fgraph's manager?
 * @ops: the ops
 *
 * Return: true if @ops is fgraph's manager, whose users get IDs of their
 * own.
 */
bool ftrace_mux_graph_manages(struct ftrace_ops *ops)
{
#if FTRACE_MUX_GRAPH
	return ops->func == ftrace_graph_func;
#else
	return false;
#endif
}

/**
 * ftrace_mux_graph_is_manager - is an ops the started manager?
 * @ops: the ops
 *
 * Return: true if @ops is the manager whose users are members of the
 * sets now.
 */
bool ftrace_mux_graph_is_manager(const struct ftrace_ops *ops)
{
	return graph_manager && ops == graph_manager;
}

/**
 * ftrace_mux_graph_user_start - a graph user becomes a member of sets
 * @manager: fgraph's manager
 * @user: the user, which got its ID (or none)
 */
void ftrace_mux_graph_user_start(struct ftrace_ops *manager,
				 struct ftrace_ops *user)
{
	int id = user->mux_id - 1;

	lockdep_assert_held(&ftrace_lock);
	graph_manager = manager;
	if (id < 0)
		return;
	__set_bit(id, ftrace_mux_user_ids);
	ftrace_mux_nr_users++;
	/* Entered by the set's trampoline only (see the top of this file) */
	WRITE_ONCE(ftrace_mux_calls[id].func, ftrace_stub);
}

/**
 * ftrace_mux_graph_user_leaving - a graph user is leaving, or stays
 * @id: the user's ID
 * @leaving: true if it is leaving, false if it stays after all
 *
 * While ftrace updates the manager's records without it, the users
 * share the sites only if two others are left.  So when one is left, the
 * update sends its sites back to fgraph's own path, rather than to a
 * trampoline made for it alone that a second update would throw away.
 */
void ftrace_mux_graph_user_leaving(int id, bool leaving)
{
	lockdep_assert_held(&ftrace_lock);
	if (id >= 0 && test_bit(id, ftrace_mux_user_ids))
		ftrace_mux_nr_leaving = leaving;
}

/**
 * ftrace_mux_graph_user_stop - a graph user stopped
 * @id: the ID it held, which no record holds any more
 */
void ftrace_mux_graph_user_stop(int id)
{
	lockdep_assert_held(&ftrace_lock);
	if (id < 0 || !__test_and_clear_bit(id, ftrace_mux_user_ids))
		return;
	ftrace_mux_nr_users--;
	ftrace_mux_nr_leaving = 0;
}

/**
 * ftrace_mux_graph_update_done - ftrace updated every site
 *
 * The sites follow ftrace_mux_users_share() now.
 */
void ftrace_mux_graph_update_done(void)
{
	graph_sites_shared = ftrace_mux_users_share();
}

/**
 * ftrace_mux_graph_sites_stale - must fgraph's sites move without a change of set?
 *
 * Did fgraph's users start or stop sharing the sets' trampolines since
 * the sites were last updated?  Then the sites of the manager must move,
 * though no record's set changed: a second user took no function of the
 * first, or the last but one left.
 *
 * Return: true if the sites of fgraph's manager must be updated.
 */
bool ftrace_mux_graph_sites_stale(void)
{
	lockdep_assert_held(&ftrace_lock);
	return graph_sites_shared != ftrace_mux_users_share();
}

/**
 * ftrace_mux_graph_rec - a set with the graph users a record wants
 * @rec: the record
 * @index: the set
 * @wanted: does the manager want @rec's function?
 *
 * The set @index with, in place of the users it holds, those that want
 * @rec's function: none unless the manager wants it, and none at all
 * while a user has no ID.
 *
 * Return: the set's index; FTRACE_MUX_SET_UNKNOWN stays so.
 */
u32 ftrace_mux_graph_rec(struct dyn_ftrace *rec, u32 index, bool wanted)
{
	/* Too large for the stack; ftrace_lock serializes their users */
	static u32 want[FTRACE_MUX_IDS], ids[FTRACE_MUX_IDS];
	struct ftrace_mux_set *set;
	unsigned int nw = 0, nr = 0, i, j;
	struct ftrace_ops *op;
	u32 id;

	lockdep_assert_held(&ftrace_lock);
	set = ftrace_mux_set_lookup(index);
	if (!set || !graph_manager)
		return index;
	ftrace_mux_graph_recounts++;
	if (!set->users && !wanted)
		return index;
	if (wanted) {
		list_for_each_entry(op, &graph_manager->subop_list, list) {
			if (!op->mux_id) {
				nw = 0;
				break;
			}
			/* fgraph's own test of a user (function_graph_enter()) */
			if (!ftrace_ops_test(op, rec->ip, NULL))
				continue;
			/* In ID order, as in a set */
			id = op->mux_id - 1;
			for (i = nw++; i > 0 && want[i - 1] > id; i--)
				want[i] = want[i - 1];
			want[i] = id;
		}
	}
	/* The same users as now: most records */
	for (i = 0, j = 0; i < set->nr; i++) {
		if (!ftrace_mux_id_is_user(set->ids[i]))
			continue;
		if (j >= nw || want[j] != set->ids[i])
			break;
		j++;
	}
	if (i == set->nr && j == nw)
		return index;
	/* The tracers that are not users, merged with @want */
	for (i = 0, j = 0; i < set->nr || j < nw;) {
		if (i < set->nr && ftrace_mux_id_is_user(set->ids[i])) {
			i++;
			continue;
		}
		if (j == nw || (i < set->nr && set->ids[i] < want[j]))
			ids[nr++] = set->ids[i++];
		else
			ids[nr++] = want[j++];
	}
	return ftrace_mux_set_intern(ids, nr);
}

/**
 * ftrace_mux_graph_rec_sync - bring a record's graph users in line
 * @rec: the record
 *
 * Bring the users in @rec's set in line with their hashes, as they are
 * now.  For a walk over every record, when no accounting of the manager
 * did it.
 *
 * Return: true if @rec's set changed.
 */
bool ftrace_mux_graph_rec_sync(struct dyn_ftrace *rec)
{
	u32 from = ftrace_mux_rec_set(rec->flags), to;
	struct ftrace_mux_set *set;
	bool wanted;

	set = ftrace_mux_set_lookup(from);
	if (!set || !graph_manager)
		return false;
	wanted = graph_manager->mux_id &&
		 ftrace_mux_set_pos(set, graph_manager->mux_id - 1) >= 0;
	to = ftrace_mux_graph_rec(rec, from, wanted);
	if (to == from)
		return false;
	WRITE_ONCE(rec->flags, ftrace_mux_flags_with_set(rec->flags, to));
	return true;
}

/**
 * ftrace_mux_graph_sync_needed - must ftrace walk every record for the graph users?
 * @hash: the hash that changed, or NULL when a user came or went
 * @seq: ftrace_mux_graph_recounts before the change
 *
 * Not when the change accounted the manager on the records: that brought
 * their users in line already.  Else only if a user reads @hash.
 *
 * Return: true if every record must be walked with
 * ftrace_mux_graph_rec_sync().
 */
bool ftrace_mux_graph_sync_needed(struct ftrace_ops_hash *hash, unsigned long seq)
{
	struct ftrace_ops *op;

	lockdep_assert_held(&ftrace_lock);
	if (!ftrace_mux_nr_users || !graph_manager || seq != ftrace_mux_graph_recounts)
		return false;
	if (!hash)
		return true;
	list_for_each_entry(op, &graph_manager->subop_list, list)
		if (op->func_hash == hash)
			return true;
	return false;
}

/**
 * ftrace_mux_graph_grouped - is a member's call one of the graph users'?
 * @set: the set
 * @id: a member of @set
 *
 * Return: true if @id's block in @set's trampoline is one of its users'
 * (or the manager's).
 */
bool ftrace_mux_graph_grouped(const struct ftrace_mux_set *set, u32 id)
{
	return set->users && (ftrace_mux_id_is_user(id) ||
			      ftrace_mux_graph_is_manager(ftrace_mux_calls[id].ops));
}

/**
 * ftrace_mux_graph_calls - what a set's trampoline calls, users together
 * @set: the set
 * @calls: in and out, the calls by position in @set
 * @users: out, the list of users the trampoline enters, for it to free
 *
 * The first block of the manager and the users enters *@users; the
 * others' calls are cleared.
 *
 * Return: 0, -EINVAL if a user stopped since @set was made, or -ENOMEM.
 */
int ftrace_mux_graph_calls(const struct ftrace_mux_set *set,
			   struct ftrace_mux_call *calls,
			   struct fgraph_users **users)
{
	struct fgraph_users *u;
	unsigned int i, n = 0;
	int first = -1;

	*users = NULL;
	if (!set->users)
		return 0;
	if (!FTRACE_MUX_GRAPH)
		return -EINVAL;
	u = kzalloc(struct_size(u, gops, set->users), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	for (i = 0; i < set->nr; i++) {
		if (!ftrace_mux_graph_grouped(set, set->ids[i]))
			continue;
		if (ftrace_mux_id_is_user(set->ids[i]) && n < set->users)
			u->gops[n++] = container_of(calls[i].ops,
						    struct fgraph_ops, ops);
		if (first < 0)
			first = i;
		else
			calls[i].func = NULL;
	}
	/* A user stopped since the set was made: no trampoline for it */
	if (n != set->users) {
		kfree(u);
		return -EINVAL;
	}
	u->nr = n;
#if FTRACE_MUX_GRAPH
	calls[first].arg = u;
	calls[first].func = ftrace_graph_users_func;
#endif
	*users = u;
	return 0;
}
