// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ftrace-mux, run on the kernel's own records: a set's
 * trampoline as made and unwound through, the per-record sets as ftrace
 * keeps them while real ftrace_ops register, change filters and go, the
 * choice of path, 40 tracers on one site, an IPMODIFY ops beside another,
 * an OVERRIDE ops called after an IPMODIFY one, a detour's trampoline
 * called as a C function, what ftrace expects a site to call before it
 * changes it, and the tracer ID allocator up to exhaustion.
 *
 * Only the architecture's hooks are used here: what x86 writes is read
 * by its own suite (arch/x86/kernel/ftrace_mux_kunit.c).
 *
 * This file is built with the function tracer's flags, so the targets
 * below have fentry call sites of their own.
 */
#include <kunit/test.h>
#include <linux/args.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>

#include "ftrace_mux.h"
#include "ftrace_mux_detour.h"
#include "ftrace_mux_internal.h"

static atomic_t hits[FTRACE_MUX_IDS + 2];

static noinline void ftrace_mux_kunit_target1(void) { asm volatile(""); }
static noinline void ftrace_mux_kunit_target2(void) { asm volatile(""); }

/* For IPMODIFY and OVERRIDE: which of the bodies ran. */
static atomic_t orig_runs, repl_runs, end_runs;
static noinline void ftrace_mux_kunit_orig(void) { atomic_inc(&orig_runs); }
static noinline void ftrace_mux_kunit_repl(void) { atomic_inc(&repl_runs); }
static noinline void ftrace_mux_kunit_end(void) { atomic_inc(&end_runs); }

static void notrace count_hit(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&hits[(unsigned long)op->private]);
}

/*
 * Fresh ops for every test, never reused: an ops that had a trampoline
 * stays on ftrace's trampoline list after unregistering unless it is
 * dynamic (allocated), in which case ftrace frees the trampoline and
 * unlinks it.  kunit_kzalloc() memory is freed after the test, when the
 * ops were unregistered (which waits for CPUs to leave them).
 */
static struct ftrace_ops *new_ops(struct kunit *test, unsigned long slot)
{
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = count_hit;
	ops->private = (void *)slot;
	ops->flags = FTRACE_OPS_FL_RECURSION;
	atomic_set(&hits[slot], 0);
	return ops;
}

static int set_filter(struct ftrace_ops *ops, const char *funcs, bool nt)
{
	char buf[128];

	strscpy(buf, funcs, sizeof(buf));
	if (nt)
		return ftrace_set_notrace(ops, buf, strlen(buf), 1);
	return ftrace_set_filter(ops, buf, strlen(buf), 1);
}

static struct dyn_ftrace *find_rec(void *func)
{
	unsigned long ip = ftrace_location((unsigned long)func);
	struct ftrace_rec_iter *iter;
	struct dyn_ftrace *rec;

	for_ftrace_rec_iter(iter) {
		rec = ftrace_rec_iter_record(iter);
		if (rec->ip == ip)
			return rec;
	}
	return NULL;
}

/* Does @set hold exactly the IDs of the @n tracers of @ops? */
static bool set_is(struct ftrace_mux_set *set, struct ftrace_ops **ops, int n)
{
	int i, id;

	if (!set || set->nr != n)
		return false;
	for (i = 0; i < n; i++) {
		id = ftrace_mux_ops_id(ops[i]);
		if (id < 0 || ftrace_mux_set_pos(set, id) < 0)
			return false;
	}
	return true;
}

/* Does @rec's set hold exactly the tracers named? */
/*
 * The sets and the sites' addresses are ftrace's state: read them as
 * ftrace does, under ftrace_lock (the lockdep kernel checks).
 */
static bool rec_holds_ops(struct dyn_ftrace *rec, struct ftrace_ops **ops, int n)
{
	bool ret;

	mutex_lock(&ftrace_lock);
	ret = set_is(ftrace_mux_rec_tracers(rec->flags), ops, n);
	mutex_unlock(&ftrace_lock);
	return ret;
}

#define rec_holds(rec, ...)						\
	rec_holds_ops(rec, (struct ftrace_ops *[]){ __VA_ARGS__ },	\
		      COUNT_ARGS(__VA_ARGS__))

/* What @rec's site calls, if it is a set's trampoline; else 0. */
static unsigned long site_addr(struct dyn_ftrace *rec)
{
	unsigned long addr;

	mutex_lock(&ftrace_lock);
	addr = ftrace_mux_addr_curr(rec);
	mutex_unlock(&ftrace_lock);
	return addr;
}

/* Does @rec's site serve one of the sets (with their trampolines)? */
static bool site_has_set(struct dyn_ftrace *rec)
{
	bool ret;

	mutex_lock(&ftrace_lock);
	ret = ftrace_mux_site_set(rec);
	mutex_unlock(&ftrace_lock);
	return ret;
}

/* The IDs of the set @rec's site calls, as a bitmask (synthetic, low IDs) */
static unsigned long site_ids(struct dyn_ftrace *rec)
{
	struct ftrace_mux_set *set = ftrace_mux_site_set(rec);
	unsigned long mask = 0;
	unsigned int i;

	for (i = 0; set && i < set->nr; i++)
		mask |= set->ids[i] < BITS_PER_LONG ? 1UL << set->ids[i] : ~0UL;
	return mask;
}

/* The trampoline @rec's site calls, or NULL. */
static struct ftrace_mux_tramp *site_tramp(struct dyn_ftrace *rec)
{
	struct ftrace_mux_tramp *t;

	mutex_lock(&ftrace_lock);
	t = ftrace_mux_rec_tramp(rec);
	mutex_unlock(&ftrace_lock);
	return t;
}

static unsigned long stack[16];
static unsigned int stack_len;

/* Record the stack the tracer sees, to unwind through the trampoline. */
static void notrace save_stack_hit(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	count_hit(ip, parent_ip, op, fregs);
	stack_len = stack_trace_save(stack, ARRAY_SIZE(stack), 0);
}

/*
 * Two tracers on target1: its site calls a trampoline that holds, for
 * each tracer in ID order, the ops and a direct call of its function; an
 * unwinder started in a tracer gets through it to the test (ORC data of
 * the template), and an ip past its end is no trampoline's.
 */
static noinline void tramp_layout(struct kunit *test)
{
	struct ftrace_ops *a = new_ops(test, 0), *b = new_ops(test, 1);
	struct ftrace_ops *byid[2];
	struct ftrace_mux_tramp *t;
	struct dyn_ftrace *rec;
	unsigned int i, found = 0;
	/* (off the stack: a KASAN kernel's frame would pass 1 KB) */
	char *sym = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	char name[32];

	KUNIT_ASSERT_NOT_NULL(test, sym);
	b->func = save_stack_hit;
	KUNIT_ASSERT_EQ(test, set_filter(a, "ftrace_mux_kunit_target1", false), 0);
	KUNIT_ASSERT_EQ(test, set_filter(b, "ftrace_mux_kunit_target1", false), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(a), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(b), 0);
	rec = find_rec(ftrace_mux_kunit_target1);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	t = site_tramp(rec);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->nr, 2U);
	KUNIT_EXPECT_EQ(test, t->flavour, FTRACE_MUX_FENTRY);
	byid[0] = ftrace_mux_ops_id(a) < ftrace_mux_ops_id(b) ? a : b;
	byid[1] = byid[0] == a ? b : a;
	for (i = 0; i < 2; i++) {
		unsigned long ops = 0;

		KUNIT_EXPECT_TRUE(test, arch_ftrace_mux_tramp_calls(t, i,
					(void *)ftrace_ops_get_func(byid[i]), &ops));
		KUNIT_EXPECT_PTR_EQ(test, (void *)ops, byid[i]);
	}
	/* Known to the unwinder from its first byte to its last */
	KUNIT_EXPECT_TRUE(test, is_ftrace_trampoline(t->start));
	KUNIT_EXPECT_NE(test, ftrace_mux_tramp_orc_ip(t->start + t->size - 1), 0UL);
	KUNIT_EXPECT_EQ(test, ftrace_mux_tramp_orc_ip(t->start + t->size), 0UL);

	/* Named after its set, for stack traces and perf */
	snprintf(name, sizeof(name), "ftrace_mux_tramp_%u", t->set->index);
	sprint_symbol_no_offset(sym, t->start);
	KUNIT_EXPECT_STREQ(test, sym, name);

	stack_len = 0;
	ftrace_mux_kunit_target1();
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 1);
	for (i = 0; i < stack_len; i++) {
		sprint_symbol_no_offset(sym, stack[i]);
		if (!strcmp(sym, "ftrace_mux_kunit_target1"))
			found |= 1;
		if (!strcmp(sym, "tramp_layout"))
			found |= 2;
		if (!strcmp(sym, name))
			found |= 4;
	}
	KUNIT_EXPECT_EQ_MSG(test, found, 7U, "%u frames, first %pS", stack_len,
			    (void *)stack[0]);

	unregister_ftrace_function(a);
	unregister_ftrace_function(b);
	ftrace_free_filter(a);
	ftrace_free_filter(b);
	KUNIT_EXPECT_EQ(test, site_addr(rec), 0UL);
}

/* A synthetic record's flags: the interned set of @mask, and @count. */
static unsigned long synth_flags(struct kunit *test, unsigned long mask,
				 unsigned long count)
{
	u32 ids[BITS_PER_LONG], index;
	unsigned int nr = 0;
	unsigned long id;

	for_each_set_bit(id, &mask, BITS_PER_LONG)
		ids[nr++] = id;
	index = ftrace_mux_set_intern(ids, nr);
	KUNIT_EXPECT_NE(test, index, FTRACE_MUX_SET_UNKNOWN);
	return (unsigned long)index << FTRACE_MUX_SET_SHIFT | count;
}

/*
 * Which sites take a set's trampoline, from synthetic records.  No set
 * is reaped meanwhile: that happens only at the end of an update.
 */
static void site_choice(struct kunit *test)
{
	static const u32 ids[] = { 0, FTRACE_MUX_IDS - 1 };
	struct dyn_ftrace rec = { };
	struct ftrace_mux_set *set;
	u32 index;

	mutex_lock(&ftrace_lock);
	rec.flags = synth_flags(test, 0x3, 2);
	KUNIT_EXPECT_EQ(test, site_ids(&rec), 0x3UL);
	rec.flags = synth_flags(test, 0x1, 1);	/* one tracer: its own trampoline */
	KUNIT_EXPECT_EQ(test, site_ids(&rec), 0UL);
	rec.flags = synth_flags(test, 0x3, 3);	/* a tracer without ID is on it */
	KUNIT_EXPECT_EQ(test, site_ids(&rec), 0UL);
	/* a direct call beside a tracer: the set's trampoline makes it */
	rec.flags = synth_flags(test, 0x3, 2) | FTRACE_FL_DIRECT | FTRACE_FL_REGS;
	KUNIT_EXPECT_EQ(test, site_ids(&rec), 0x3UL);
	/* a set that could not be made: the list function */
	rec.flags = (unsigned long)FTRACE_MUX_SET_UNKNOWN << FTRACE_MUX_SET_SHIFT | 2;
	KUNIT_EXPECT_EQ(test, site_ids(&rec), 0UL);
	/* any IDs, the last one too */
	index = ftrace_mux_set_intern(ids, ARRAY_SIZE(ids));
	KUNIT_EXPECT_NE(test, index, FTRACE_MUX_SET_UNKNOWN);
	rec.flags = (unsigned long)index << FTRACE_MUX_SET_SHIFT | 2;
	set = ftrace_mux_site_set(&rec);
	KUNIT_EXPECT_TRUE(test, set && set->nr == 2 && set->ids[0] == 0 &&
			  set->ids[1] == FTRACE_MUX_IDS - 1);
	ftrace_mux_reap();
	mutex_unlock(&ftrace_lock);
}

/*
 * Two tracers on target1, one on target2: target1 calls their set's
 * trampoline and both are called exactly once per call; moving one filter
 * re-patches the sites whose set changed, and the set's trampoline is
 * shared by the site that takes it next.
 */
static void shared_site(struct kunit *test)
{
	struct ftrace_ops *a = new_ops(test, 0), *b = new_ops(test, 1);
	struct dyn_ftrace *r1, *r2;
	unsigned long tramp;

	KUNIT_ASSERT_EQ(test, set_filter(a, "ftrace_mux_kunit_target1", false), 0);
	KUNIT_ASSERT_EQ(test, set_filter(b, "ftrace_mux_kunit_target*", false), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(a), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(b), 0);
	KUNIT_ASSERT_GE(test, ftrace_mux_ops_id(a), 0);
	KUNIT_ASSERT_GE(test, ftrace_mux_ops_id(b), 0);

	r1 = find_rec(ftrace_mux_kunit_target1);
	r2 = find_rec(ftrace_mux_kunit_target2);
	KUNIT_ASSERT_NOT_NULL(test, r1);
	KUNIT_ASSERT_NOT_NULL(test, r2);
	KUNIT_EXPECT_TRUE(test, rec_holds(r1, a, b));
	KUNIT_EXPECT_TRUE(test, rec_holds(r2, b));

	tramp = site_addr(r1);
	KUNIT_EXPECT_NE(test, tramp, 0UL);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_call_target(r1->ip), tramp);
	KUNIT_EXPECT_EQ(test, site_addr(r2), 0UL);

	ftrace_mux_kunit_target1();
	ftrace_mux_kunit_target1();
	ftrace_mux_kunit_target2();
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 3);

	/* Move a to target2: target1 now has one tracer, target2 two. */
	KUNIT_ASSERT_EQ(test, set_filter(a, "ftrace_mux_kunit_target2", false), 0);
	KUNIT_EXPECT_TRUE(test, rec_holds(r1, b));
	KUNIT_EXPECT_TRUE(test, rec_holds(r2, a, b));
	KUNIT_EXPECT_EQ(test, site_addr(r1), 0UL);
	KUNIT_EXPECT_EQ(test, site_addr(r2), tramp);
	atomic_set(&hits[0], 0);
	atomic_set(&hits[1], 0);
	ftrace_mux_kunit_target1();
	ftrace_mux_kunit_target2();
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 2);

	/* notrace over filter: b loses target2 */
	KUNIT_ASSERT_EQ(test, set_filter(b, "ftrace_mux_kunit_target2", true), 0);
	KUNIT_EXPECT_TRUE(test, rec_holds(r2, a));
	KUNIT_EXPECT_EQ(test, site_addr(r2), 0UL);

	unregister_ftrace_function(a);
	unregister_ftrace_function(b);
	KUNIT_EXPECT_EQ(test, ftrace_mux_ops_id(a), -1);
	KUNIT_EXPECT_EQ(test, ftrace_mux_ops_id(b), -1);
	KUNIT_EXPECT_EQ(test, r1->flags & FTRACE_FL_MUX_SETS, 0UL);
	KUNIT_EXPECT_EQ(test, r2->flags & FTRACE_FL_MUX_SETS, 0UL);
	ftrace_free_filter(a);
	ftrace_free_filter(b);
}

/*
 * Three tracers making two sets: a and b on both targets, c on target2
 * only, so that target1's site serves {a, b} and target2's {a, b, c}.
 * Filters only: the callers register them when they are ready to.
 */
static void abc_ops(struct kunit *test, struct ftrace_ops **ops)
{
	int i;

	for (i = 0; i < 3; i++)
		ops[i] = new_ops(test, i);
	KUNIT_ASSERT_EQ(test, set_filter(ops[0], "ftrace_mux_kunit_target*", false), 0);
	KUNIT_ASSERT_EQ(test, set_filter(ops[1], "ftrace_mux_kunit_target*", false), 0);
	KUNIT_ASSERT_EQ(test, set_filter(ops[2], "ftrace_mux_kunit_target2", false), 0);
}

static void free_filters(struct ftrace_ops **ops, int n)
{
	while (n--)
		ftrace_free_filter(ops[n]);
}

/*
 * What ftrace expects a site to call comes from the record, not from the
 * site's text: otherwise x86's verify-before-modify (ftrace_replace_code())
 * compares the text with itself and cannot catch text someone else
 * changed.  A copy of the record of a site of set {a, b} is given the
 * address of the site that calls set {a, b, c}'s trampoline, and ftrace
 * must still expect {a, b}'s.
 */
static void expected_call(struct kunit *test)
{
	struct ftrace_ops *ops[3], *a, *b, *c;
	unsigned long t1, t2, expected;
	struct dyn_ftrace *r1, *r2, copy;

	abc_ops(test, ops);
	a = ops[0];
	b = ops[1];
	c = ops[2];
	KUNIT_ASSERT_EQ(test, register_ftrace_function(a), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(b), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(c), 0);
	r1 = find_rec(ftrace_mux_kunit_target1);
	r2 = find_rec(ftrace_mux_kunit_target2);
	KUNIT_ASSERT_NOT_NULL(test, r1);
	KUNIT_ASSERT_NOT_NULL(test, r2);
	t1 = site_addr(r1);
	t2 = site_addr(r2);
	KUNIT_ASSERT_NE(test, t1, 0UL);
	KUNIT_ASSERT_NE(test, t2, 0UL);
	KUNIT_ASSERT_NE(test, t1, t2);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_call_target(r1->ip), t1);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_call_target(r2->ip), t2);

	copy = *r1;
	copy.ip = r2->ip;
	mutex_lock(&ftrace_lock);
	expected = ftrace_get_addr_curr(&copy);
	mutex_unlock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, expected, t1);

	/* Moves from the expected call verify and patch as usual */
	unregister_ftrace_function(c);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_call_target(r2->ip), site_addr(r2));
	ftrace_mux_kunit_target1();
	ftrace_mux_kunit_target2();
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[2]), 0);
	unregister_ftrace_function(a);
	unregister_ftrace_function(b);
	KUNIT_EXPECT_EQ(test, r1->flags & FTRACE_FL_MUX_SETS, 0UL);
	free_filters(ops, 3);
}

/*
 * 10,000 functions, each wanted by a set of its own of 14 tracers.  A
 * KASAN kernel under TCG makes the sets some 40 times slower (369 s for
 * 10,000, past KUnit's 300 s for a case), so 1,000 there.
 */
#define SCALE_OPS	14
#define SCALE_RECS	(IS_ENABLED(CONFIG_KASAN) ? 1000 : 10000)

/* The ips of SCALE_RECS functions no tracer traces now */
static unsigned long *scale_ips(struct kunit *test)
{
	unsigned long *ips = kunit_kcalloc(test, SCALE_RECS, sizeof(*ips), GFP_KERNEL);
	struct ftrace_rec_iter *iter;
	struct dyn_ftrace *rec;
	unsigned int n = 0;

	KUNIT_ASSERT_NOT_NULL(test, ips);
	mutex_lock(&ftrace_lock);
	for_ftrace_rec_iter(iter) {
		rec = ftrace_rec_iter_record(iter);
		if (ftrace_rec_count(rec) || ftrace_rec_is_detour(rec) ||
		    (rec->flags & FTRACE_FL_DISABLED) || is_kernel_inittext(rec->ip))
			continue;
		ips[n++] = rec->ip;
		if (n == SCALE_RECS)
			break;
	}
	mutex_unlock(&ftrace_lock);
	KUNIT_ASSERT_EQ(test, n, SCALE_RECS);
	return ips;
}

/*
 * Register SCALE_OPS tracers over the functions of @ips, tracer i on the
 * j-th when @want(i, j), then time registering one more tracer on one
 * other function: an update that looks at every record.  The fastest of
 * five, in ns.
 */
static u64 scale_update(struct kunit *test, unsigned long *ips,
			bool (*want)(unsigned int i, unsigned int j),
			unsigned long *nr_sets)
{
	struct ftrace_ops *ops[SCALE_OPS], *x = new_ops(test, SCALE_OPS);
	unsigned long *mine, dead, tramps, bytes, failed;
	unsigned int i, j, n;
	u64 best = U64_MAX, t;

	mine = kunit_kcalloc(test, SCALE_RECS, sizeof(*mine), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mine);
	t = ktime_get_ns();
	for (i = 0; i < SCALE_OPS; i++) {
		ops[i] = new_ops(test, i);
		for (j = 0, n = 0; j < SCALE_RECS; j++)
			if (want(i, j + 1))
				mine[n++] = ips[j];
		KUNIT_ASSERT_EQ(test, ftrace_set_filter_ips(ops[i], mine, n, 0, 0), 0);
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[i]), 0);
	}
	mutex_lock(&ftrace_lock);
	ftrace_mux_sets_count(nr_sets, &dead);
	ftrace_mux_tramps_count(&tramps, &bytes, &failed);
	mutex_unlock(&ftrace_lock);
	t = ktime_get_ns() - t;
	kunit_info(test, "%lu live sets, %lu trampolines, %lu bytes, made in %llu ms\n",
		   *nr_sets, tramps, bytes, t / NSEC_PER_MSEC);
	KUNIT_ASSERT_EQ(test, set_filter(x, "ftrace_mux_kunit_target1", false), 0);
	for (i = 0; i < 5; i++) {
		t = ktime_get_ns();
		KUNIT_ASSERT_EQ(test, register_ftrace_function(x), 0);
		t = ktime_get_ns() - t;
		unregister_ftrace_function(x);
		best = min(best, t);
	}
	ftrace_free_filter(x);
	for (i = 0; i < SCALE_OPS; i++) {
		unregister_ftrace_function(ops[i]);
		ftrace_free_filter(ops[i]);
	}
	return best;
}

/* Each function j traced by two neighbouring tracers: ten sets */
static bool scale_few(unsigned int i, unsigned int j)
{
	return j % SCALE_OPS == i || j % SCALE_OPS == (i + 1) % SCALE_OPS;
}

/* Tracer i on function j when bit i of j is set: a set per function */
static bool scale_many(unsigned int i, unsigned int j)
{
	return j & BIT(i);
}

/*
 * Sets at scale: 10,000 live sets, each with its trampoline, are made and
 * an update beside them works.  Each per-record step of an update (the
 * set a record wants, the trampoline its site calls, the check that it
 * changed) should take the same time as beside a few sets: the times are
 * printed, to be compared where they are repeatable (under an instruction
 * counting emulator), not here, where a shared host's noise would decide.
 */
static void update_scales(struct kunit *test)
{
	unsigned long *ips = scale_ips(test);
	unsigned long few_sets, many_sets;
	u64 few, many;

	few = scale_update(test, ips, scale_few, &few_sets);
	many = scale_update(test, ips, scale_many, &many_sets);
	kunit_info(test, "register with %lu live sets: %llu ns, with %lu: %llu ns\n",
		   few_sets, few, many_sets, many);
	KUNIT_EXPECT_GE(test, many_sets, (unsigned long)SCALE_RECS - SCALE_OPS);
}

/*
 * More tracers than IDs: the ones without an ID still trace, through the
 * list function, and every tracer is called exactly once per call.
 */
static void id_exhaustion(struct kunit *test)
{
	int n = FTRACE_MUX_IDS + 2, i, with_id = 0;
	struct ftrace_ops **ops, *again;
	struct dyn_ftrace *r1;

	ops = kunit_kcalloc(test, n, sizeof(*ops), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ops);
	for (i = 0; i < n; i++) {
		ops[i] = new_ops(test, i);
		KUNIT_ASSERT_EQ(test, set_filter(ops[i], "ftrace_mux_kunit_target1", false), 0);
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[i]), 0);
		if (ftrace_mux_ops_id(ops[i]) >= 0)
			with_id++;
	}
	/* Other tracers may hold IDs, but not all of them. */
	KUNIT_EXPECT_GT(test, with_id, 0);
	KUNIT_EXPECT_LT(test, with_id, n);

	r1 = find_rec(ftrace_mux_kunit_target1);
	KUNIT_ASSERT_NOT_NULL(test, r1);
	KUNIT_EXPECT_FALSE(test, site_has_set(r1));
	ftrace_mux_kunit_target1();
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&hits[i]), 1);

	for (i = 0; i < n; i++) {
		unregister_ftrace_function(ops[i]);
		ftrace_free_filter(ops[i]);
	}
	KUNIT_EXPECT_EQ(test, r1->flags & FTRACE_FL_MUX_SETS, 0UL);

	/* The IDs come back once the grace periods are over. */
	ftrace_mux_reclaim_flush();
	again = new_ops(test, 0);
	KUNIT_ASSERT_EQ(test, set_filter(again, "ftrace_mux_kunit_target1", false), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(again), 0);
	KUNIT_EXPECT_GE(test, ftrace_mux_ops_id(again), 0);
	unregister_ftrace_function(again);
	ftrace_free_filter(again);
}

/*
 * Many tracers on one site, 40 here: one trampoline calls every one of
 * them exactly once per call, and the two of them that also trace
 * target2 share a trampoline there.
 */
static void many_tracers(struct kunit *test)
{
	struct ftrace_ops *ops[40];
	int n = ARRAY_SIZE(ops), i;
	struct dyn_ftrace *r1, *r2;
	struct ftrace_mux_tramp *t;

	for (i = 0; i < n; i++) {
		ops[i] = new_ops(test, i);
		/* The first and the last also trace target2. */
		KUNIT_ASSERT_EQ(test, set_filter(ops[i], i == 0 || i == n - 1 ?
						 "ftrace_mux_kunit_target*" :
						 "ftrace_mux_kunit_target1",
						 false), 0);
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[i]), 0);
		/* Nothing else traces while the boot-time KUnit tests run. */
		KUNIT_ASSERT_GE(test, ftrace_mux_ops_id(ops[i]), 0);
	}
	r1 = find_rec(ftrace_mux_kunit_target1);
	r2 = find_rec(ftrace_mux_kunit_target2);
	KUNIT_ASSERT_NOT_NULL(test, r1);
	KUNIT_ASSERT_NOT_NULL(test, r2);
	t = site_tramp(r1);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->nr, (unsigned int)n);
	t = site_tramp(r2);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->nr, 2U);

	ftrace_mux_kunit_target1();
	ftrace_mux_kunit_target2();
	ftrace_mux_kunit_target2();
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&hits[i]),
				i == 0 || i == n - 1 ? 3 : 1);

	for (i = 0; i < n; i++) {
		unregister_ftrace_function(ops[i]);
		ftrace_free_filter(ops[i]);
	}
	KUNIT_EXPECT_EQ(test, r1->flags & FTRACE_FL_MUX_SETS, 0UL);
	KUNIT_EXPECT_EQ(test, site_addr(r1), 0UL);
}

/* Redirect the call like livepatch does: return into the replacement. */
static void notrace redirect_hit(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&hits[(unsigned long)op->private]);
	ftrace_regs_set_instruction_pointer(fregs, (unsigned long)ftrace_mux_kunit_repl);
}

/*
 * An IPMODIFY ops (livepatch's kind) and a plain one on one site: the site
 * takes the pt_regs flavour of its set's trampoline, both are called, and
 * the changed ip is honoured.
 */
static void ipmodify(struct kunit *test)
{
	struct ftrace_ops *redir = new_ops(test, 0), *plain = new_ops(test, 1);
	struct ftrace_mux_tramp *t;
	struct dyn_ftrace *rec;

	redir->func = redirect_hit;
	redir->flags |= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
	KUNIT_ASSERT_EQ(test, set_filter(redir, "ftrace_mux_kunit_orig", false), 0);
	KUNIT_ASSERT_EQ(test, set_filter(plain, "ftrace_mux_kunit_orig", false), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(redir), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(plain), 0);

	rec = find_rec(ftrace_mux_kunit_orig);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_TRUE(test, rec_holds(rec, redir, plain));
	t = site_tramp(rec);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->flavour, FTRACE_MUX_FENTRY_REGS);

	atomic_set(&orig_runs, 0);
	atomic_set(&repl_runs, 0);
	ftrace_mux_kunit_orig();
	ftrace_mux_kunit_orig();
	KUNIT_EXPECT_EQ(test, atomic_read(&orig_runs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&repl_runs), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 2);

	unregister_ftrace_function(redir);
	unregister_ftrace_function(plain);
	ftrace_free_filter(redir);
	ftrace_free_filter(plain);
	ftrace_mux_kunit_orig();
	KUNIT_EXPECT_EQ(test, atomic_read(&orig_runs), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&repl_runs), 2);
}

/* End the call as an OVERRIDE tracer does: its ip write goes elsewhere. */
static void notrace end_hit(unsigned long ip, unsigned long parent_ip,
			    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&hits[(unsigned long)op->private]);
	ftrace_regs_set_instruction_pointer(fregs, (unsigned long)ftrace_mux_kunit_end);
}

/*
 * An OVERRIDE ops and an IPMODIFY one on one site, in either order of
 * registration (so of IDs): the set's trampoline calls the OVERRIDE one
 * last, so that its ip is the one the call returns to.
 */
static void override_last(struct kunit *test)
{
	struct ftrace_ops *ops[2];
	struct ftrace_ops *end, *redir;
	struct dyn_ftrace *rec;
	int first;

	for (first = 0; first < 2; first++) {
		end = new_ops(test, 0);
		redir = new_ops(test, 1);
		end->func = end_hit;
		end->flags |= FTRACE_OPS_FL_OVERRIDE;
		redir->func = redirect_hit;
		redir->flags |= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
		ops[first] = end;
		ops[!first] = redir;
		KUNIT_ASSERT_EQ(test, set_filter(ops[0], "ftrace_mux_kunit_orig", false), 0);
		KUNIT_ASSERT_EQ(test, set_filter(ops[1], "ftrace_mux_kunit_orig", false), 0);
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[0]), 0);
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[1]), 0);
		rec = find_rec(ftrace_mux_kunit_orig);
		KUNIT_ASSERT_NOT_NULL(test, rec);
		KUNIT_EXPECT_TRUE(test, rec_holds(rec, end, redir));
		KUNIT_EXPECT_NOT_NULL(test, site_tramp(rec));

		atomic_set(&orig_runs, 0);
		atomic_set(&repl_runs, 0);
		atomic_set(&end_runs, 0);
		ftrace_mux_kunit_orig();
		ftrace_mux_kunit_orig();
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&end_runs), 2,
				    "OVERRIDE registered %s", first ? "second" : "first");
		KUNIT_EXPECT_EQ(test, atomic_read(&repl_runs), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&orig_runs), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 2);
		KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 2);

		unregister_ftrace_function(ops[0]);
		unregister_ftrace_function(ops[1]);
		ftrace_free_filter(ops[0]);
		ftrace_free_filter(ops[1]);
	}
}

/*
 * The detour flavour of a set's trampoline, called as a detour's handler
 * calls it: through a pointer of its type (a checked call under kCFI and
 * FineIBT, to an ENDBR under IBT).  It calls each tracer of the set once,
 * with the arguments it was given, except the IPMODIFY one, and an
 * unwinder started in a tracer gets through it to the caller.
 */
static noinline void detour_tramp(struct kunit *test)
{
	struct ftrace_ops *a = new_ops(test, 0), *b = new_ops(test, 1);
	struct ftrace_ops *redir = new_ops(test, 2);
	struct pt_regs regs = {};
	ftrace_mux_detour_fn fn;
	struct ftrace_mux_set *set;
	struct ftrace_mux_tramp *t;
	struct dyn_ftrace *rec;
	char *sym = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	unsigned int i;
	bool found = false;

	KUNIT_ASSERT_NOT_NULL(test, sym);
	b->func = save_stack_hit;
	redir->func = redirect_hit;
	redir->flags |= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
	KUNIT_ASSERT_EQ(test, set_filter(a, "ftrace_mux_kunit_target2", false), 0);
	KUNIT_ASSERT_EQ(test, set_filter(b, "ftrace_mux_kunit_target2", false), 0);
	KUNIT_ASSERT_EQ(test, set_filter(redir, "ftrace_mux_kunit_target2", false), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(a), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(b), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(redir), 0);
	rec = find_rec(ftrace_mux_kunit_target2);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_ASSERT_TRUE(test, rec_holds(rec, a, b, redir));

	mutex_lock(&ftrace_lock);
	mutex_lock(&text_mutex);
	set = ftrace_mux_rec_tracers(rec->flags);
	fn = (ftrace_mux_detour_fn)ftrace_mux_set_tramp(set, FTRACE_MUX_DETOUR);
	t = set->tramp[FTRACE_MUX_DETOUR];
	mutex_unlock(&text_mutex);
	mutex_unlock(&ftrace_lock);
	KUNIT_ASSERT_NOT_NULL(test, fn);
	KUNIT_EXPECT_PTR_EQ(test, (void *)fn, (void *)READ_ONCE(set->detour));
	KUNIT_EXPECT_EQ(test, t->nr, 3U);
	/* The preamble and the ENDBR unwind as the template's entry */
	KUNIT_EXPECT_EQ(test, ftrace_mux_tramp_orc_ip(t->start - t->pre),
			(unsigned long)ftrace_mux_tramp_orc_ip(t->start));
	KUNIT_EXPECT_EQ(test, ftrace_mux_tramp_orc_ip(t->start + t->size), 0UL);

	stack_len = 0;
	atomic_set(&hits[0], 0);
	atomic_set(&hits[1], 0);
	atomic_set(&hits[2], 0);
	/* As the handler calls it: the three arguments, nothing else */
	fn((unsigned long)ftrace_mux_kunit_target2, _THIS_IP_,
	   (struct ftrace_regs *)&regs);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[2]), 0);
	KUNIT_EXPECT_EQ(test, regs.ip, 0UL);
	for (i = 0; i < stack_len; i++) {
		sprint_symbol_no_offset(sym, stack[i]);
		if (!strcmp(sym, "detour_tramp"))
			found = true;
	}
	KUNIT_EXPECT_TRUE_MSG(test, found, "%u frames, first %pS", stack_len,
			      (void *)stack[0]);

	unregister_ftrace_function(a);
	unregister_ftrace_function(b);
	unregister_ftrace_function(redir);
	ftrace_free_filter(a);
	ftrace_free_filter(b);
	ftrace_free_filter(redir);
}

static struct kunit_case ftrace_mux_cases[] = {
	KUNIT_CASE(tramp_layout),
	KUNIT_CASE(site_choice),
	KUNIT_CASE(shared_site),
	KUNIT_CASE(expected_call),
	KUNIT_CASE_SLOW(many_tracers),
	KUNIT_CASE_SLOW(update_scales),
	KUNIT_CASE(ipmodify),
	KUNIT_CASE(override_last),
	KUNIT_CASE(detour_tramp),
	KUNIT_CASE_SLOW(id_exhaustion),
	{}
};

static struct kunit_suite ftrace_mux_suite = {
	.name = "ftrace_mux",
	.test_cases = ftrace_mux_cases,
};
kunit_test_suite(ftrace_mux_suite);

MODULE_DESCRIPTION("KUnit tests for ftrace-mux");
MODULE_LICENSE("GPL");
