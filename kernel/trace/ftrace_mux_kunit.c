// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ftrace-mux, run on the kernel's own records: the caller
 * stubs as built, the per-record masks as ftrace keeps them while real
 * ftrace_ops register, change filters and go, the choice of stub, the
 * lookup stub, an IPMODIFY ops beside another, the tracer ID allocator
 * up to exhaustion, and call depth accounting under retbleed=stuff.
 *
 * This file is built with the function tracer's flags, so the targets
 * below have fentry call sites of their own.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/ftrace_mux.h>
#include <asm/ftrace_mux.h>
#include <asm/nospec-branch.h>
#include <asm/text-patching.h>

#include "ftrace_mux_internal.h"

static atomic_t hits[FTRACE_MUX_IDS + 2];

static noinline void ftrace_mux_kunit_target1(void) { asm volatile(""); }
static noinline void ftrace_mux_kunit_target2(void) { asm volatile(""); }

/* For IPMODIFY: which of the two bodies ran. */
static atomic_t orig_runs, repl_runs;
static noinline void ftrace_mux_kunit_orig(void) { atomic_inc(&orig_runs); }
static noinline void ftrace_mux_kunit_repl(void) { atomic_inc(&repl_runs); }

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

static unsigned long id_bit(struct ftrace_ops *ops)
{
	int id = ftrace_mux_ops_id(ops);

	return id < 0 ? 0 : 1UL << id;
}

/*
 * Every stub is "movl $stub, %r11d; jmp caller" at its computed address,
 * the last one serving every mask beyond the others.
 */
static void stubs_layout(struct kunit *test)
{
	unsigned long mask, addr;
	int regs;

	for (regs = 0; regs < 2; regs++) {
		for (mask = 0; mask <= FTRACE_MUX_NR_STUBS; mask++) {
			const u8 *p;
			u32 imm;
			s32 rel;
			bool r;

			addr = arch_ftrace_mux_stub(mask, regs);
			p = (const u8 *)addr;
			KUNIT_ASSERT_EQ(test, p[0], 0x41);
			KUNIT_ASSERT_EQ(test, p[1], 0xbb);
			memcpy(&imm, p + 2, 4);
			KUNIT_ASSERT_EQ(test, (unsigned long)imm, mask);
			KUNIT_ASSERT_EQ(test, p[6], JMP32_INSN_OPCODE);
			memcpy(&rel, p + 7, 4);
			KUNIT_ASSERT_EQ(test, addr + 11 + rel,
					(unsigned long)(regs ? ftrace_mux_regs_caller :
							       ftrace_mux_caller));
			KUNIT_ASSERT_EQ(test, arch_ftrace_mux_stub_mask(addr, &r), (long)mask);
			KUNIT_ASSERT_EQ(test, r, (bool)regs);
		}
	}
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_stub(FTRACE_MUX_NR_STUBS | 1, 1),
			arch_ftrace_mux_stub(FTRACE_MUX_NR_STUBS, 1));
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_stub_mask(arch_ftrace_mux_stub(3, 0) + 1, &(bool){0}), -1L);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_stub_mask((unsigned long)ftrace_mux_caller, &(bool){0}), -1L);
}

/* Which sites take a stub, from synthetic records. */
static void site_choice(struct kunit *test)
{
	struct dyn_ftrace rec = { };

#define SET(filter, notrace, count) \
	(rec.flags = ((unsigned long)(filter) << FTRACE_MUX_FILTER_SHIFT) | \
		     ((unsigned long)(notrace) << FTRACE_MUX_NOTRACE_SHIFT) | (count))
	SET(0x3, 0, 2);
	KUNIT_EXPECT_EQ(test, ftrace_mux_site_mask(&rec), 0x3UL);
	SET(0x7, 0x4, 2);		/* notrace wins over filter */
	KUNIT_EXPECT_EQ(test, ftrace_mux_site_mask(&rec), 0x3UL);
	SET(0x1, 0, 1);			/* one tracer: its own trampoline */
	KUNIT_EXPECT_EQ(test, ftrace_mux_site_mask(&rec), 0UL);
	SET(0x3, 0, 3);			/* a tracer without ID is on it */
	KUNIT_EXPECT_EQ(test, ftrace_mux_site_mask(&rec), 0UL);
	SET(0x3, 0, 2);
	rec.flags |= FTRACE_FL_DIRECT;	/* direct calls keep upstream's path */
	KUNIT_EXPECT_EQ(test, ftrace_mux_site_mask(&rec), 0UL);
	if (FTRACE_MUX_STUB_BITS < FTRACE_MUX_IDS) {
		SET(BIT(FTRACE_MUX_STUB_BITS) | 1, 0, 2);	/* the lookup stub */
		KUNIT_EXPECT_EQ(test, ftrace_mux_site_mask(&rec),
				BIT(FTRACE_MUX_STUB_BITS) | 1);
	}
#undef SET
}

/*
 * Two tracers on target1, one on target2: target1 calls their stub and
 * both are called exactly once per call; moving one filter re-patches the
 * sites whose mask changed.
 */
static void masks_and_dispatch(struct kunit *test)
{
	struct ftrace_ops *a = new_ops(test, 0), *b = new_ops(test, 1);
	struct dyn_ftrace *r1, *r2;
	unsigned long stub;

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
	KUNIT_EXPECT_EQ(test, ftrace_mux_effective_mask(r1->flags), id_bit(a) | id_bit(b));
	KUNIT_EXPECT_EQ(test, ftrace_mux_effective_mask(r2->flags), id_bit(b));

	stub = arch_ftrace_mux_stub(id_bit(a) | id_bit(b), false);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_call_target(r1->ip), stub);
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r1), stub);
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r2), 0UL);

	ftrace_mux_kunit_target1();
	ftrace_mux_kunit_target1();
	ftrace_mux_kunit_target2();
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 3);

	/* Move a to target2: target1 now has one tracer, target2 two. */
	KUNIT_ASSERT_EQ(test, set_filter(a, "ftrace_mux_kunit_target2", false), 0);
	KUNIT_EXPECT_EQ(test, ftrace_mux_effective_mask(r1->flags), id_bit(b));
	KUNIT_EXPECT_EQ(test, ftrace_mux_effective_mask(r2->flags), id_bit(a) | id_bit(b));
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r1), 0UL);
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r2), stub);
	atomic_set(&hits[0], 0);
	atomic_set(&hits[1], 0);
	ftrace_mux_kunit_target1();
	ftrace_mux_kunit_target2();
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 2);

	/* notrace over filter: b keeps its filter bit, loses target2 */
	KUNIT_ASSERT_EQ(test, set_filter(b, "ftrace_mux_kunit_target2", true), 0);
	KUNIT_EXPECT_EQ(test, ftrace_mux_filter_mask(r2->flags) & id_bit(b), id_bit(b));
	KUNIT_EXPECT_EQ(test, ftrace_mux_notrace_mask(r2->flags) & id_bit(b), id_bit(b));
	KUNIT_EXPECT_EQ(test, ftrace_mux_effective_mask(r2->flags), id_bit(a));
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r2), 0UL);

	unregister_ftrace_function(a);
	unregister_ftrace_function(b);
	KUNIT_EXPECT_EQ(test, ftrace_mux_ops_id(a), -1);
	KUNIT_EXPECT_EQ(test, ftrace_mux_ops_id(b), -1);
	KUNIT_EXPECT_EQ(test, r1->flags & FTRACE_FL_MUX_MASKS, 0UL);
	KUNIT_EXPECT_EQ(test, r2->flags & FTRACE_FL_MUX_MASKS, 0UL);
	ftrace_free_filter(a);
	ftrace_free_filter(b);
}

/*
 * More tracers than IDs: the ones without an ID still trace, through the
 * list function, and every tracer is called exactly once per call.
 */
static void id_exhaustion(struct kunit *test)
{
	struct ftrace_ops *ops[FTRACE_MUX_IDS + 2], *again;
	int n = ARRAY_SIZE(ops), i, with_id = 0;
	struct dyn_ftrace *r1;

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
	KUNIT_EXPECT_EQ(test, ftrace_mux_site_mask(r1), 0UL);
	ftrace_mux_kunit_target1();
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&hits[i]), 1);

	for (i = 0; i < n; i++) {
		unregister_ftrace_function(ops[i]);
		ftrace_free_filter(ops[i]);
	}
	KUNIT_EXPECT_EQ(test, r1->flags & FTRACE_FL_MUX_MASKS, 0UL);

	/* The IDs came back: a new tracer gets one again. */
	again = new_ops(test, 0);
	KUNIT_ASSERT_EQ(test, set_filter(again, "ftrace_mux_kunit_target1", false), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(again), 0);
	KUNIT_EXPECT_GE(test, ftrace_mux_ops_id(again), 0);
	unregister_ftrace_function(again);
	ftrace_free_filter(again);
}

/*
 * More tracers than the static stubs cover: a site whose mask uses a
 * higher ID calls the lookup stub, and every tracer on it is still called
 * exactly once per call.
 */
static void lookup_stub(struct kunit *test)
{
	struct ftrace_ops *ops[FTRACE_MUX_STUB_BITS + 1];
	int n = ARRAY_SIZE(ops), i;
	struct dyn_ftrace *r1, *r2;
	unsigned long m1 = 0, m2;

	for (i = 0; i < n; i++) {
		ops[i] = new_ops(test, i);
		/* The first and the last also trace target2. */
		KUNIT_ASSERT_EQ(test, set_filter(ops[i], i == 0 || i == n - 1 ?
						 "ftrace_mux_kunit_target*" :
						 "ftrace_mux_kunit_target1",
						 false), 0);
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[i]), 0);
		m1 |= id_bit(ops[i]);
	}
	m2 = id_bit(ops[0]) | id_bit(ops[n - 1]);
	r1 = find_rec(ftrace_mux_kunit_target1);
	r2 = find_rec(ftrace_mux_kunit_target2);
	KUNIT_ASSERT_NOT_NULL(test, r1);
	KUNIT_ASSERT_NOT_NULL(test, r2);
	/* Nothing else traces while the boot-time KUnit tests run. */
	KUNIT_ASSERT_EQ(test, hweight_long(m1), n);
	KUNIT_ASSERT_GE(test, m1, FTRACE_MUX_NR_STUBS);

	KUNIT_EXPECT_EQ(test, ftrace_mux_effective_mask(r1->flags), m1);
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r1),
			arch_ftrace_mux_stub(FTRACE_MUX_NR_STUBS, false));
	if (m2 >= FTRACE_MUX_NR_STUBS)
		KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r2),
				arch_ftrace_mux_stub(FTRACE_MUX_NR_STUBS, false));
	else
		KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r2),
				arch_ftrace_mux_stub(m2, false));

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
	KUNIT_EXPECT_EQ(test, r1->flags & FTRACE_FL_MUX_MASKS, 0UL);
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(r1), 0UL);
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
 * takes the pt_regs stub, both are called, and the changed ip is honoured.
 */
static void ipmodify(struct kunit *test)
{
	struct ftrace_ops *redir = new_ops(test, 0), *plain = new_ops(test, 1);
	struct dyn_ftrace *rec;
	unsigned long mask;

	redir->func = redirect_hit;
	redir->flags |= FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_IPMODIFY;
	KUNIT_ASSERT_EQ(test, set_filter(redir, "ftrace_mux_kunit_orig", false), 0);
	KUNIT_ASSERT_EQ(test, set_filter(plain, "ftrace_mux_kunit_orig", false), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(redir), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(plain), 0);

	rec = find_rec(ftrace_mux_kunit_orig);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	mask = id_bit(redir) | id_bit(plain);
	KUNIT_EXPECT_EQ(test, ftrace_mux_effective_mask(rec->flags), mask);
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(rec), arch_ftrace_mux_stub(mask, true));

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

#ifdef CONFIG_CALL_THUNKS_DEBUG
/* Accounted calls minus returns over one call of fn, with irqs off. */
static long call_depth_drift(void (*fn)(void))
{
	unsigned long flags;
	u64 calls, rets;

	local_irq_save(flags);
	calls = this_cpu_read(__x86_call_count);
	rets = this_cpu_read(__x86_ret_count);
	fn();
	calls = this_cpu_read(__x86_call_count) - calls;
	rets = this_cpu_read(__x86_ret_count) - rets;
	local_irq_restore(flags);
	return (long)(calls - rets);
}

/*
 * Call depth tracking (retbleed=stuff) must count each call once: every
 * return is counted, so a call counted twice leaves the depth too deep and
 * the return stack buffer is refilled later than the mitigation needs.
 * The caller accounts for the site's call, which ftrace patched in, and
 * the kernel's call thunks for the calls of the list and of the tracers,
 * so a traced call adds as many calls as returns, as upstream's
 * ftrace_caller does.  Checked with 0 tracers, 1 (its own trampoline), 2
 * (a static stub, then its pt_regs twin) and more than the static stubs
 * cover (the lookup stub).  Meaningful only when booted with
 * retbleed=stuff; make check-distro does (distro-stuff.sh).
 */
/* One call of the target, its site serving @nr tracers, must balance. */
static void expect_balanced(struct kunit *test, struct dyn_ftrace *rec, int nr)
{
	KUNIT_EXPECT_EQ_MSG(test, call_depth_drift(ftrace_mux_kunit_target1), 0L,
			    "%d tracers, site calls %ps", nr,
			    (void *)ftrace_mux_addr_curr(rec));
}

static void call_depth(struct kunit *test)
{
	struct ftrace_ops *ops[FTRACE_MUX_STUB_BITS + 1];
	int n = ARRAY_SIZE(ops), i;
	struct dyn_ftrace *rec;

	if (!cpu_feature_enabled(X86_FEATURE_CALL_DEPTH))
		kunit_skip(test, "call depth tracking is off (boot with retbleed=stuff)");
	rec = find_rec(ftrace_mux_kunit_target1);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	expect_balanced(test, rec, 0);

	for (i = 0; i < n; i++) {
		ops[i] = new_ops(test, i);
		KUNIT_ASSERT_EQ(test, set_filter(ops[i], "ftrace_mux_kunit_target1", false), 0);
	}
	/* Its own trampoline, then a static stub */
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[0]), 0);
	expect_balanced(test, rec, 1);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[1]), 0);
	KUNIT_EXPECT_NE(test, ftrace_mux_addr_curr(rec), 0UL);
	expect_balanced(test, rec, 2);
	/* The pt_regs twin: ops[2] asks for registers. */
	ops[2]->flags |= FTRACE_OPS_FL_SAVE_REGS;
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[2]), 0);
	expect_balanced(test, rec, 3);
	/* More than the static stubs cover: the lookup stub */
	for (i = 3; i < n; i++)
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[i]), 0);
	expect_balanced(test, rec, n);
	KUNIT_EXPECT_EQ(test, ftrace_mux_addr_curr(rec),
			arch_ftrace_mux_stub(FTRACE_MUX_NR_STUBS, true));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&hits[i]), i == 0 ? 4 : i == 1 ? 3 : i == 2 ? 2 : 1);

	for (i = 0; i < n; i++) {
		unregister_ftrace_function(ops[i]);
		ftrace_free_filter(ops[i]);
	}
	KUNIT_EXPECT_EQ(test, call_depth_drift(ftrace_mux_kunit_target1), 0L);
}
#else
static void call_depth(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CALL_THUNKS_DEBUG");
}
#endif

static struct kunit_case ftrace_mux_cases[] = {
	KUNIT_CASE(stubs_layout),
	KUNIT_CASE(site_choice),
	KUNIT_CASE(masks_and_dispatch),
	KUNIT_CASE(lookup_stub),
	KUNIT_CASE(ipmodify),
	KUNIT_CASE(id_exhaustion),
	KUNIT_CASE_SLOW(call_depth),
	{}
};

static struct kunit_suite ftrace_mux_suite = {
	.name = "ftrace_mux",
	.test_cases = ftrace_mux_cases,
};
kunit_test_suite(ftrace_mux_suite);

MODULE_DESCRIPTION("KUnit tests for ftrace-mux");
MODULE_LICENSE("GPL");
