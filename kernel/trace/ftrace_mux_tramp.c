// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: the trampolines of tracer sets.
 *
 * A set that a patched call site serves gets a trampoline, in the flavour
 * the site needs (ftrace_regs; ftrace_regs, then the call a direct ops
 * asked for; or full pt_regs), made the first time ftrace asks where to
 * point such a site (ftrace_mux_addr_new()) and shared by every site with
 * that set.  A set that a detour serves gets one of a fourth flavour, a C
 * function its handler calls (made at the end of the update,
 * ftrace_mux_detours_update_done(); until then the handler walks the set
 * in C).  It calls each tracer of the set directly
 * (arch_ftrace_mux_tramp_create()), with the ops of the tracer's ID baked
 * in: a set is dropped when one of its IDs is given back, so an ID's ops
 * never changes under a trampoline, only the function to call for it
 * (ftrace_mux_tramps_set_func()).
 *
 * A trampoline goes with its set: out of the list and the index when the
 * set is reaped, which happens only when no site calls it any more (at the
 * end of an update, see ftrace_mux_sets_update_done()), freed after the
 * RCU-tasks grace periods, before the set (the core's reclaim worker,
 * ftrace_mux.c).  Unwinders and %pS find trampolines by address, from any
 * context, in a latch tree (tramp_find()); everything else runs under
 * ftrace_lock.  Which trampoline a site calls is known from its record
 * (the patched set, ftrace_mux_rec_patched()), never read back from its
 * text: the text is what ftrace verifies against that before every change.
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/ftrace.h>
#include <linux/ftrace_mux.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/perf_event.h>
#include <linux/rbtree_latch.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "ftrace_internal.h"
#include "ftrace_mux_graph.h"
#include "ftrace_mux_sets.h"
#include "ftrace_mux_tramp.h"

static LIST_HEAD(tramps);

/*
 * Trampolines by address, for unwinders and %pS from any context, NMI
 * included: a latch tree (as BPF keeps its programs and modules their
 * text) of the extents of trampolines and of detours' jump entries
 * (ftrace_mux_detour.c), which are code that stack traces go through
 * too.  A lookup costs O(log n) however many sets live and calls nothing
 * traceable; an insertion or removal is O(log n) under ftrace_lock.  A
 * node is freed after an RCU grace period, the trampoline it names after
 * the RCU-tasks ones its set waits for.
 */
struct tramp_node {
	struct latch_tree_node	ltn;
	unsigned long		lo, hi;		/* [lo, hi) */
	struct ftrace_mux_tramp	*t;		/* NULL: a jump entry */
	struct list_head	jumps;		/* jump entries, for kallsyms */
	struct rcu_head		rcu;
};
static struct latch_tree_root tramp_tree __cacheline_aligned;
static LIST_HEAD(jump_nodes);

static __always_inline struct tramp_node *tramp_node_of(struct latch_tree_node *n)
{
	return container_of(n, struct tramp_node, ltn);
}

static __always_inline bool tramp_less(struct latch_tree_node *a,
				       struct latch_tree_node *b)
{
	return tramp_node_of(a)->lo < tramp_node_of(b)->lo;
}

static __always_inline int tramp_comp(void *key, struct latch_tree_node *n)
{
	unsigned long ip = (unsigned long)key;
	struct tramp_node *tn = tramp_node_of(n);

	if (ip < tn->lo)
		return -1;
	if (ip >= tn->hi)
		return 1;
	return 0;
}

static const struct latch_tree_ops tramp_tree_ops = {
	.less	= tramp_less,
	.comp	= tramp_comp,
};

/*
 * For function_tracers: how many live (their pages: ftrace_mux_pack.c),
 * and how often one could not be made.
 */
static unsigned long nr_tramps;
static unsigned long nr_failed;

/*
 * Trampolines have symbols, as ftrace's own do, so that stack traces,
 * perf and Intel PT decoders see them: ftrace_mux_tramp_<set>, with the
 * flavour after it, <set> the index records hold (function_tracers).
 * Jump entries are all ftrace_mux_detour_jump, as ftrace's own
 * trampolines are all ftrace_trampoline: the function they serve is the
 * next frame of a stack trace.
 */
static const char * const flavour_suffix[FTRACE_MUX_FLAVOURS] = {
	[FTRACE_MUX_FENTRY]		= "",
	[FTRACE_MUX_FENTRY_REGS]	= "_regs",
	[FTRACE_MUX_FENTRY_DIRECT]	= "_direct",
	[FTRACE_MUX_DETOUR]		= "_detour",
};
#define JUMP_NAME	"ftrace_mux_detour_jump"

/* Index [@lo, @hi), @t's or a jump entry's; -ENOMEM if it cannot */
static int index_add(unsigned long lo, unsigned long hi, struct ftrace_mux_tramp *t)
{
	struct tramp_node *tn;

	lockdep_assert_held(&ftrace_lock);
	tn = kzalloc(sizeof(*tn), GFP_KERNEL);
	if (!tn)
		return -ENOMEM;
	tn->lo = lo;
	tn->hi = hi;
	tn->t = t;
	latch_tree_insert(&tn->ltn, &tramp_tree, &tramp_tree_ops);
	if (!t)
		list_add_tail_rcu(&tn->jumps, &jump_nodes);
	return 0;
}

/* Take the extent starting at @lo out of the index. */
static void index_del(unsigned long lo)
{
	struct latch_tree_node *n;
	struct tramp_node *tn;

	lockdep_assert_held(&ftrace_lock);
	n = latch_tree_find((void *)lo, &tramp_tree, &tramp_tree_ops);
	if (WARN_ON_ONCE(!n))
		return;
	tn = tramp_node_of(n);
	latch_tree_erase(&tn->ltn, &tramp_tree, &tramp_tree_ops);
	if (!tn->t)
		list_del_rcu(&tn->jumps);
	kfree_rcu(tn, rcu);
}

/*
 * The extent holding @ip, copied to *@found; preemption off, or
 * ftrace_lock.  False if none does.
 */
/* What a lookup reads of a node: the fields no update changes */
struct tramp_hit {
	unsigned long		lo, hi;
	struct ftrace_mux_tramp	*t;
};

static __always_inline bool tramp_find(unsigned long ip, struct tramp_hit *found)
{
	struct latch_tree_node *n;
	struct tramp_node *tn;

	n = latch_tree_find((void *)ip, &tramp_tree, &tramp_tree_ops);
	if (!n)
		return false;
	tn = tramp_node_of(n);
	found->lo = tn->lo;
	found->hi = tn->hi;
	found->t = tn->t;
	return true;
}

static unsigned long tramp_lo(const struct ftrace_mux_tramp *t)
{
	return t->start - t->pre;
}

static int ftrace_mux_tramp_name(const struct ftrace_mux_tramp *t, char *buf)
{
	return snprintf(buf, KSYM_NAME_LEN, "ftrace_mux_tramp_%u%s",
			t->set->index, flavour_suffix[t->flavour]);
}

/*
 * Tell perf that text named @name, @size bytes at @addr, comes or goes;
 * when it comes, its bytes too, for decoders that read the text from
 * events (as BPF and kprobes do for theirs).
 */
static void ftrace_mux_ksymbol(unsigned long addr, unsigned int size,
			       bool unregister, const char *name)
{
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, addr, size,
			   unregister, name);
	if (!unregister)
		perf_event_text_poke((void *)addr, NULL, 0, (void *)addr, size);
}

static void ftrace_mux_tramp_ksymbol(const struct ftrace_mux_tramp *t, bool unregister)
{
	char name[KSYM_NAME_LEN];

	ftrace_mux_tramp_name(t, name);
	ftrace_mux_ksymbol(t->start, t->size, unregister, name);
}

/**
 * ftrace_mux_get_kallsym - /proc/kallsyms' entries of the trampolines
 * @symnum: which entry, counted after ftrace's own trampolines
 *	(ftrace_get_trampoline_kallsym())
 * @value: out, its address
 * @type: out, its symbol type
 * @name: out, its name (KSYM_NAME_LEN)
 * @module_name: out, its module's name (MODULE_NAME_LEN)
 * @exported: out, 0
 *
 * The sets' trampolines come first, then the detours' jump entries.
 *
 * Return: 0, or -ERANGE past the last.
 */
int ftrace_mux_get_kallsym(unsigned int symnum, unsigned long *value,
			   char *type, char *name, char *module_name,
			   int *exported)
{
	struct ftrace_mux_tramp *t;
	struct tramp_node *tn;

	guard(rcu)();
	list_for_each_entry_rcu(t, &tramps, list) {
		if (symnum--)
			continue;
		*value = t->start;
		ftrace_mux_tramp_name(t, name);
		goto found;
	}
	list_for_each_entry_rcu(tn, &jump_nodes, jumps) {
		if (symnum--)
			continue;
		*value = tn->lo;
		strscpy(name, JUMP_NAME, KSYM_NAME_LEN);
		goto found;
	}
	return -ERANGE;
found:
	*type = 't';
	strscpy(module_name, "__builtin__ftrace", MODULE_NAME_LEN);
	*exported = 0;
	return 0;
}

/**
 * ftrace_mux_address_lookup - name the trampoline holding an address
 * @addr: the address
 * @size: out, the trampoline's size (may be NULL)
 * @off: out, @addr's offset in it (may be NULL)
 * @sym: out, its name (KSYM_NAME_LEN)
 *
 * For kallsyms_lookup() and %pS.
 *
 * Return: the length of the name written to @sym, or 0 if no trampoline
 * holds @addr.
 */
int ftrace_mux_address_lookup(unsigned long addr, unsigned long *size,
			      unsigned long *off, char *sym)
{
	struct tramp_hit e;
	unsigned long start;
	int ret = 0;

	preempt_disable_notrace();
	if (!tramp_find(addr, &e))
		goto out;
	/* Not a trampoline's CFI preamble, which precedes its symbol */
	start = e.t ? e.t->start : e.lo;
	if (addr < start)
		goto out;
	if (size)
		*size = e.hi - start;
	if (off)
		*off = addr - start;
	if (e.t)
		ret = ftrace_mux_tramp_name(e.t, sym);
	else
		ret = strscpy(sym, JUMP_NAME, KSYM_NAME_LEN);
out:
	preempt_enable_notrace();
	return ret;
}

/**
 * ftrace_mux_jump_made - a detour's jump entry is made
 * @text: its start
 * @size: its size
 *
 * It is known to unwinders and kallsyms until ftrace_mux_jump_gone().
 *
 * Return: 0, or -ENOMEM if the index cannot take it; then it must not be
 * used.
 */
int ftrace_mux_jump_made(void *text, unsigned int size)
{
	int ret;

	lockdep_assert_held(&ftrace_lock);
	ret = index_add((unsigned long)text, (unsigned long)text + size, NULL);
	if (!ret)
		ftrace_mux_ksymbol((unsigned long)text, size, false, JUMP_NAME);
	return ret;
}

/**
 * ftrace_mux_jump_gone - a detour's jump entry is to be freed
 * @text: its start
 * @size: its size
 *
 * Nothing runs it any more.
 */
void ftrace_mux_jump_gone(void *text, unsigned int size)
{
	lockdep_assert_held(&ftrace_lock);
	index_del((unsigned long)text);
	ftrace_mux_ksymbol((unsigned long)text, size, true, JUMP_NAME);
}

/*
 * A detour does not call the tracers that write the ip (IPMODIFY ones,
 * which redirect the function, and OVERRIDE ones, which end the call):
 * an optimized kprobe cannot change the ip (ftrace_mux_detour.c).  Their
 * blocks in a detour trampoline jump over themselves.
 */
static bool ftrace_mux_tramp_skips(enum ftrace_mux_flavour flavour,
				   const struct ftrace_ops *ops)
{
	return flavour == FTRACE_MUX_DETOUR &&
	       (ops->flags & (FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_OVERRIDE));
}

/*
 * The tracers that may end the call (OVERRIDE) are called after the
 * set's others, which may write the ip too (livepatch its new function,
 * a kprobe the ip past its probe) and would undo the return: whatever
 * the order of their IDs, the call ends when one of them says so.  The
 * others keep their order.
 */
static void ftrace_mux_tramp_order(struct ftrace_mux_call *calls,
				   unsigned int nr)
{
	struct ftrace_mux_call c;
	unsigned int i, last = nr;

	for (i = nr; i-- > 0;) {
		if (!(calls[i].ops->flags & FTRACE_OPS_FL_OVERRIDE))
			continue;
		c = calls[i];
		memmove(&calls[i], &calls[i + 1],
			(--last - i) * sizeof(*calls));
		calls[last] = c;
	}
}

/**
 * ftrace_mux_set_tramp - a set's trampoline, made if need be
 * @set: the set
 * @flavour: the trampoline's flavour
 *
 * Under text_mutex too, as in ftrace's updates
 * (ftrace_arch_code_modify_prepare()): the trampoline's text is written
 * as sites are.
 *
 * Return: the start of the trampoline, or 0 if it cannot be made; then
 * the site takes the list function (a detour, its C walk of the set).
 */
unsigned long ftrace_mux_set_tramp(struct ftrace_mux_set *set,
				   enum ftrace_mux_flavour flavour)
{
	struct ftrace_mux_tramp *t = set->tramp[flavour];
	struct ftrace_mux_call *calls;
	unsigned int i;
	int ret = -ENOMEM;

	lockdep_assert_held(&ftrace_lock);
	lockdep_assert_held(&text_mutex);
	if (t)
		return t->start;
	/* Tried and failed: not again for every record of the set */
	if (set->no_tramp & BIT(flavour))
		return 0;
	calls = kmalloc_array(set->nr, sizeof(*calls), GFP_KERNEL);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (calls && t) {
		for (i = 0; i < set->nr; i++) {
			calls[i] = ftrace_mux_calls[set->ids[i]];
			if (ftrace_mux_tramp_skips(flavour, calls[i].ops))
				calls[i].func = NULL;
		}
		/* fgraph's users are entered together, from one block */
		ret = ftrace_mux_graph_calls(set, calls, &t->users);
		ftrace_mux_tramp_order(calls, set->nr);
		/* Lookups through the index read t->set: set before publishing */
		t->set = set;
		t->flavour = flavour;
		t->nr = set->nr;
		if (!ret)
			ret = arch_ftrace_mux_tramp_create(t, calls);
		/* Unwinders must know it before anything can call it */
		if (!ret) {
			ret = index_add(tramp_lo(t), t->start + t->size, t);
			/* Nothing calls it yet: no grace period to wait for */
			if (ret)
				arch_ftrace_mux_tramp_free(t);
		}
	}
	kfree(calls);
	if (ret) {
		if (t)
			kfree(t->users);
		kfree(t);
		/*
		 * Not tried again for every record of the set once its code
		 * could not be made; an allocation may succeed next time.
		 */
		if (ret != -ENOMEM)
			set->no_tramp |= BIT(flavour);
		nr_failed++;
		return 0;
	}
	list_add_tail_rcu(&t->list, &tramps);
	ftrace_mux_tramp_ksymbol(t, false);
	set->tramp[flavour] = t;
	if (flavour == FTRACE_MUX_DETOUR) {
		/* The text is complete and read-only before a handler sees it */
		smp_store_release(&set->detour, (ftrace_mux_detour_fn)t->start);
	}
	nr_tramps++;
	return t->start;
}

/**
 * ftrace_mux_set_tramp_made - a set's trampoline, if it was made
 * @set: the set
 * @flavour: the trampoline's flavour
 *
 * Return: what ftrace_mux_set_tramp() returned for it, without making
 * one, or NULL.
 */
struct ftrace_mux_tramp *ftrace_mux_set_tramp_made(struct ftrace_mux_set *set,
						   enum ftrace_mux_flavour flavour)
{
	lockdep_assert_held(&ftrace_lock);
	return set->tramp[flavour];
}

/**
 * ftrace_mux_tramps_set_func - re-point a tracer's call in every trampoline
 * @id: the tracer's ID
 * @func: its new function
 */
void ftrace_mux_tramps_set_func(u32 id, void *func)
{
	struct ftrace_mux_tramp *t;
	int pos;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(t, &tramps, list) {
		pos = ftrace_mux_set_pos(t->set, id);
		if (pos >= 0 &&
		    !ftrace_mux_tramp_skips(t->flavour, ftrace_mux_calls[id].ops) &&
		    !ftrace_mux_graph_grouped(t->set, id))
			arch_ftrace_mux_tramp_set_func(t, pos, func);
	}
}

/**
 * ftrace_mux_tramps_retire - a set's trampolines are no longer called
 * @set: the set, reaped
 */
void ftrace_mux_tramps_retire(struct ftrace_mux_set *set)
{
	struct ftrace_mux_tramp *t;
	int f;

	lockdep_assert_held(&ftrace_lock);
	for (f = 0; f < FTRACE_MUX_FLAVOURS; f++) {
		t = set->tramp[f];
		if (!t)
			continue;
		list_del_rcu(&t->list);
		index_del(tramp_lo(t));
		ftrace_mux_tramp_ksymbol(t, true);
		nr_tramps--;
	}
}

/**
 * ftrace_mux_tramps_free - free a reaped set's trampolines
 * @set: the set
 *
 * After the grace periods that let every CPU leave them.
 */
void ftrace_mux_tramps_free(struct ftrace_mux_set *set)
{
	int f;

	guard(mutex)(&text_mutex);
	for (f = 0; f < FTRACE_MUX_FLAVOURS; f++) {
		if (!set->tramp[f])
			continue;
		arch_ftrace_mux_tramp_free(set->tramp[f]);
		kfree(set->tramp[f]->users);
		kfree(set->tramp[f]);
		set->tramp[f] = NULL;
	}
}

/**
 * ftrace_mux_tramps_count - how many trampolines there are
 * @nr: out, the live trampolines
 * @bytes: out, the bytes of the pages held for them
 * @failed: out, how many could not be made
 *
 * Called with ftrace_lock held.
 */
void ftrace_mux_tramps_count(unsigned long *nr, unsigned long *bytes,
			     unsigned long *failed)
{
	lockdep_assert_held(&ftrace_lock);
	*nr = nr_tramps;
	*failed = nr_failed;
	/* Pages still held for reaped ones count until they are freed */
	*bytes = ftrace_mux_pack_bytes();
}

/**
 * ftrace_mux_tramp_orc_ip - where a trampoline's unwind data comes from
 * @ip: an address, maybe in a trampoline
 *
 * For the ORC unwinder and is_ftrace_trampoline(), from any context.
 *
 * Return: the ip in the template whose unwind data holds at @ip, or 0 if
 * @ip is in no trampoline.
 */
unsigned long ftrace_mux_tramp_orc_ip(unsigned long ip)
{
	struct tramp_hit e;
	unsigned long ret = 0;

	preempt_disable_notrace();
	if (tramp_find(ip, &e))
		ret = e.t ? arch_ftrace_mux_tramp_orc_ip(e.t, ip) :
			    arch_ftrace_mux_jump_orc_ip(e.lo, ip);
	preempt_enable_notrace();
	return ret;
}
