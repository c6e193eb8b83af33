// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of ftrace-mux's x86 code, read from the text it writes: the
 * bytes of a set's trampoline in each flavour as copied from its template
 * and completed by a block per tracer, what the unwinder is told of each
 * of its instructions, the shared pages trampolines are packed in, the
 * call an fentry site is patched with, and call depth accounting over a
 * traced call.  The generic cases (kernel/trace/ftrace_mux_kunit.c) run
 * the same code from real sites through the hooks alone.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/ftrace_mux.h>
#include <linux/memory.h>
#include <linux/uaccess.h>
#include <asm/ftrace_mux.h>
#include <asm/ibt.h>
#include <asm/insn.h>
#include <asm/nospec-branch.h>
#include <asm/text-patching.h>

#define TRACERS	4

/* What each test tracer was last called with, and how often */
static struct {
	unsigned long ip, parent_ip;
	void *op;
	struct ftrace_regs *fregs;
	int calls;
} seen[TRACERS];

static void notrace saw(int n, unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	seen[n].ip = ip;
	seen[n].parent_ip = parent_ip;
	seen[n].op = op;
	seen[n].fregs = fregs;
	seen[n].calls++;
}

#define TRACER(n)							\
static void notrace tracer##n(unsigned long ip, unsigned long parent_ip, \
			      struct ftrace_ops *op, struct ftrace_regs *fregs) \
{									\
	saw(n, ip, parent_ip, op, fregs);				\
}
TRACER(0)
TRACER(1)
TRACER(2)
TRACER(3)

static const ftrace_func_t tracers[TRACERS] = { tracer0, tracer1, tracer2, tracer3 };

/* Never registered: the trampolines below are made by hand */
static struct ftrace_ops fake_ops[TRACERS];

/* An fentry target of this file's own, for the sites */
static noinline void ftrace_mux_x86_target(void)
{
	asm volatile("");
}

/* Where the trampolines' direct calls enter @func: past an ENDBR */
static unsigned long entry_of(const void *func)
{
	return (unsigned long)func + (is_endbr(*(u32 *)func) ? ENDBR_INSN_SIZE : 0);
}

struct template {
	const u8 *start, *body, *body_end, *end;
};

static const struct template templates[FTRACE_MUX_FLAVOURS] = {
	[FTRACE_MUX_FENTRY] = {
		ftrace_mux_caller, ftrace_mux_caller_body,
		ftrace_mux_caller_body_end, ftrace_mux_caller_end,
	},
	[FTRACE_MUX_FENTRY_REGS] = {
		ftrace_mux_regs_caller, ftrace_mux_regs_caller_body,
		ftrace_mux_regs_caller_body_end, ftrace_mux_regs_caller_end,
	},
	[FTRACE_MUX_FENTRY_DIRECT] = {
		ftrace_mux_direct_caller, ftrace_mux_direct_caller_body,
		ftrace_mux_direct_caller_body_end, ftrace_mux_direct_caller_end,
	},
	[FTRACE_MUX_DETOUR] = {
		ftrace_mux_detour_caller, ftrace_mux_detour_caller_body,
		ftrace_mux_detour_caller_body_end, ftrace_mux_detour_caller_end,
	},
};

static void tramp_free_action(void *t)
{
	mutex_lock(&text_mutex);
	arch_ftrace_mux_tramp_free(t);
	mutex_unlock(&text_mutex);
}

/* A trampoline of @flavour calling @calls, freed when the test ends */
static struct ftrace_mux_tramp *make_tramp(struct kunit *test,
					   enum ftrace_mux_flavour flavour,
					   const struct ftrace_mux_call *calls,
					   unsigned int nr)
{
	struct ftrace_mux_tramp *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->flavour = flavour;
	t->nr = nr;
	mutex_lock(&text_mutex);
	ret = arch_ftrace_mux_tramp_create(t, calls);
	mutex_unlock(&text_mutex);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tramp_free_action, t), 0);
	return t;
}

/* Decode the instruction at @ip of live text, or fail the test */
static void decode(struct kunit *test, struct insn *insn, unsigned long ip)
{
	KUNIT_ASSERT_EQ_MSG(test, insn_decode_kernel(insn, (void *)ip), 0,
			    "undecodable at %lx", ip);
}

/* The target of the rel32 call or jump @insn at @ip */
static unsigned long rel_target(const struct insn *insn, unsigned long ip)
{
	return ip + insn->length + insn->immediate.value;
}

/*
 * The block of tracer @i: its instructions end exactly at the next block
 * with a direct call of the tracer's function (past its ENDBR), and
 * "movabs $ops,%rdx" loads what the tracer gets as its ops.
 */
static void check_block(struct kunit *test, const struct ftrace_mux_tramp *t,
			unsigned int i, const struct ftrace_mux_call *call)
{
	unsigned long blk = t->start + t->arch.body + i * t->arch.block;
	unsigned long ip = blk, end = blk + t->arch.block, ops = 0;
	void *arg = call->arg ?: call->ops;
	bool loads_ops = false;
	struct insn insn;

	while (ip < end) {
		decode(test, &insn, ip);
		if (insn.opcode.bytes[0] == 0xba && X86_REX_W(insn.rex_prefix.value)) {
			memcpy(&ops, (void *)ip + insn.length - sizeof(ops), sizeof(ops));
			loads_ops = true;
		}
		if (ip + insn.length == end)
			break;
		ip += insn.length;
	}
	KUNIT_EXPECT_EQ_MSG(test, ip + insn.length, end, "block %u overruns", i);
	KUNIT_EXPECT_EQ(test, insn.opcode.bytes[0], CALL_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, rel_target(&insn, ip), entry_of(call->func));
	KUNIT_EXPECT_TRUE(test, loads_ops);
	KUNIT_EXPECT_PTR_EQ(test, (void *)ops, arg);
	KUNIT_EXPECT_TRUE(test, arch_ftrace_mux_tramp_calls(t, i, call->func, &ops));
	KUNIT_EXPECT_PTR_EQ(test, (void *)ops, arg);
}

/*
 * Copied template code unwinds as the instruction it was copied from:
 * the same length, the same opcode (but for the jump to the direct call
 * tail that a set without a direct call has NOPed).
 */
static void check_copied(struct kunit *test, const struct ftrace_mux_tramp *t,
			 unsigned long ip, const struct insn *a,
			 const u8 *from, const u8 *to)
{
	unsigned long orig = arch_ftrace_mux_tramp_orc_ip(t, ip);
	struct insn b;

	KUNIT_ASSERT_TRUE_MSG(test, orig >= (unsigned long)from && orig < (unsigned long)to,
			      "copy %lx unwinds as %pS", ip, (void *)orig);
	decode(test, &b, orig);
	KUNIT_EXPECT_EQ_MSG(test, a->length, b.length, "at %pS", (void *)orig);
	if (!(b.opcode.bytes[0] == 0x0f && b.opcode.bytes[1] == 0x85))
		KUNIT_EXPECT_EQ_MSG(test, a->opcode.value, b.opcode.value,
				    "at %pS", (void *)orig);
}

/*
 * The whole trampoline decodes, instruction by instruction, from its
 * slot's start to its end: the CFI preamble and ENDBR of a detour's, the
 * template's prologue, the blocks, the epilogue, a return (or a jump to
 * the return thunk); int3 fills the rest of its slot.  Each instruction
 * unwinds as the template's that holds the same stack.
 */
static void check_layout(struct kunit *test, const struct ftrace_mux_tramp *t,
			 const struct ftrace_mux_call *calls)
{
	const struct template *tp = &templates[t->flavour];
	unsigned long tstart = entry_of(tp->start);
	unsigned long slot = t->start - t->pre, end = t->start + t->size;
	unsigned long body = t->start + t->arch.body;
	unsigned long epi = body + t->nr * t->arch.block, ip;
	struct insn insn;
	unsigned int i;
	u8 c;

	KUNIT_EXPECT_EQ(test, slot % 64, 0UL);
	KUNIT_EXPECT_LE(test, t->pre + t->size, t->arch.alloc);
	KUNIT_EXPECT_EQ(test, t->arch.body, t->arch.head + (unsigned int)
			((unsigned long)tp->body - tstart));
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_tramp_orc_ip(t, slot - 1), 0UL);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_tramp_orc_ip(t, end), 0UL);

	/* The preamble and the entry: nothing is pushed yet */
	for (ip = slot; ip < t->start + t->arch.head; ip += insn.length) {
		decode(test, &insn, ip);
		KUNIT_EXPECT_EQ(test, arch_ftrace_mux_tramp_orc_ip(t, ip), tstart);
	}
	KUNIT_EXPECT_EQ(test, ip, t->start + t->arch.head);
	for (; ip < body; ip += insn.length) {
		decode(test, &insn, ip);
		check_copied(test, t, ip, &insn, (u8 *)tstart, tp->body);
	}
	KUNIT_EXPECT_EQ(test, ip, body);
	for (i = 0; i < t->nr; i++) {
		if (calls[i].func)
			check_block(test, t, i, &calls[i]);
		KUNIT_EXPECT_EQ(test, arch_ftrace_mux_tramp_orc_ip(t, body + i * t->arch.block),
				(unsigned long)tp->body);
	}
	for (ip = epi; ip < end; ip += insn.length) {
		decode(test, &insn, ip);
		if (ip + insn.length == end)
			break;
		check_copied(test, t, ip, &insn, tp->body_end, tp->end);
	}
	/* The return */
	KUNIT_EXPECT_EQ(test, ip + insn.length, end);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_tramp_orc_ip(t, ip), (unsigned long)tp->end);
	if (insn.opcode.bytes[0] == JMP32_INSN_OPCODE)
		KUNIT_EXPECT_EQ(test, rel_target(&insn, ip), (unsigned long)x86_return_thunk);
	else
		KUNIT_EXPECT_EQ(test, insn.opcode.bytes[0], RET_INSN_OPCODE);
	for (ip = end; ip < slot + t->arch.alloc; ip++) {
		c = *(u8 *)ip;
		KUNIT_EXPECT_EQ_MSG(test, c, INT3_INSN_OPCODE, "at +%lu", ip - slot);
		if (c != INT3_INSN_OPCODE)
			break;
	}
}

/* Tracer i with fake ops i; the third's block passes an argument instead */
static void fill_calls(struct ftrace_mux_call *calls, unsigned int nr)
{
	unsigned int i;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < nr; i++) {
		calls[i].ops = &fake_ops[i];
		calls[i].func = tracers[i];
		calls[i].arg = i == 2 ? (void *)&seen : NULL;
	}
}

/* The fentry flavours, each with its template; a direct call is kept */
static void fentry_layout(struct kunit *test)
{
	static const enum ftrace_mux_flavour flavours[] = {
		FTRACE_MUX_FENTRY, FTRACE_MUX_FENTRY_REGS, FTRACE_MUX_FENTRY_DIRECT,
	};
	struct ftrace_mux_call calls[3];
	struct ftrace_mux_tramp *t;
	unsigned int i;

	fill_calls(calls, 3);
	for (i = 0; i < ARRAY_SIZE(flavours); i++) {
		fake_ops[0].flags = flavours[i] == FTRACE_MUX_FENTRY_DIRECT ?
				    FTRACE_OPS_FL_DIRECT : 0;
		t = make_tramp(test, flavours[i], calls, 3);
		/* Only the direct calls of patched sites reach it */
		KUNIT_EXPECT_EQ(test, t->pre, 0U);
		KUNIT_EXPECT_EQ(test, t->arch.head, 0U);
		check_layout(test, t, calls);
	}
	fake_ops[0].flags = 0;
}

/*
 * The detour flavour, called as a C function through a pointer of its
 * type: each tracer gets the three arguments and its ops (or its block's
 * argument); re-pointing a block changes that call alone.
 */
static void detour_layout(struct kunit *test)
{
	struct ftrace_mux_call calls[TRACERS];
	struct pt_regs regs = {};
	struct ftrace_regs *fregs = (struct ftrace_regs *)&regs;
	struct ftrace_mux_tramp *t;
	ftrace_mux_detour_fn fn;
	unsigned long ops;
	unsigned int i;

	fill_calls(calls, TRACERS);
	t = make_tramp(test, FTRACE_MUX_DETOUR, calls, TRACERS);
	KUNIT_EXPECT_EQ(test, t->arch.head, IS_ENABLED(CONFIG_X86_KERNEL_IBT) ?
			ENDBR_INSN_SIZE : 0U);
	check_layout(test, t, calls);

	fn = (ftrace_mux_detour_fn)t->start;
	fn(0x1234, 0x5678, fregs);
	for (i = 0; i < TRACERS; i++) {
		KUNIT_EXPECT_EQ(test, seen[i].calls, 1);
		KUNIT_EXPECT_EQ(test, seen[i].ip, 0x1234UL);
		KUNIT_EXPECT_EQ(test, seen[i].parent_ip, 0x5678UL);
		KUNIT_EXPECT_PTR_EQ(test, seen[i].op, calls[i].arg ?: calls[i].ops);
		KUNIT_EXPECT_PTR_EQ(test, seen[i].fregs, fregs);
	}

	arch_ftrace_mux_tramp_set_func(t, 1, tracer3);
	KUNIT_EXPECT_TRUE(test, arch_ftrace_mux_tramp_calls(t, 1, tracer3, &ops));
	KUNIT_EXPECT_PTR_EQ(test, (void *)ops, &fake_ops[1]);
	KUNIT_EXPECT_TRUE(test, arch_ftrace_mux_tramp_calls(t, 0, tracer0, &ops));
	fn(0x1234, 0x5678, fregs);
	KUNIT_EXPECT_EQ(test, seen[0].calls, 2);
	KUNIT_EXPECT_EQ(test, seen[1].calls, 1);
	KUNIT_EXPECT_EQ(test, seen[3].calls, 3);
}

/*
 * Blocks without a function (a set's graph users, entered elsewhere) jump
 * to the next block with one: the first of a run is the jump taken, the
 * rest of each is int3.
 */
static void skipped_blocks(struct kunit *test)
{
	struct ftrace_mux_call calls[TRACERS];
	struct pt_regs regs = {};
	struct ftrace_mux_tramp *t;
	unsigned long blk, to, ip;
	struct insn insn;
	unsigned int i;

	fill_calls(calls, TRACERS);
	calls[1].func = NULL;
	calls[2].func = NULL;
	t = make_tramp(test, FTRACE_MUX_DETOUR, calls, TRACERS);
	check_layout(test, t, calls);
	to = t->start + t->arch.body + 3 * t->arch.block;
	for (i = 1; i < 3; i++) {
		blk = t->start + t->arch.body + i * t->arch.block;
		decode(test, &insn, blk);
		KUNIT_EXPECT_TRUE(test, insn.opcode.bytes[0] == JMP8_INSN_OPCODE ||
				  insn.opcode.bytes[0] == JMP32_INSN_OPCODE);
		KUNIT_EXPECT_EQ(test, rel_target(&insn, blk), to);
		for (ip = blk + insn.length; ip < blk + t->arch.block; ip++)
			KUNIT_EXPECT_EQ(test, *(u8 *)ip, INT3_INSN_OPCODE);
	}

	((ftrace_mux_detour_fn)t->start)(1, 2, (struct ftrace_regs *)&regs);
	KUNIT_EXPECT_EQ(test, seen[0].calls, 1);
	KUNIT_EXPECT_EQ(test, seen[1].calls, 0);
	KUNIT_EXPECT_EQ(test, seen[2].calls, 0);
	KUNIT_EXPECT_EQ(test, seen[3].calls, 1);
}

/* Is @text, @len bytes, all int3? */
static bool all_int3(const void *text, unsigned int len)
{
	u8 buf[64];
	unsigned int i, n;

	for (; len; len -= n, text += n) {
		n = min_t(unsigned int, len, sizeof(buf));
		if (copy_from_kernel_nofault(buf, text, n))
			return false;
		for (i = 0; i < n; i++)
			if (buf[i] != INT3_INSN_OPCODE)
				return false;
	}
	return true;
}

/*
 * Small trampolines share a page in 64-byte slots, int3 where nothing is
 * written and again once freed; one over half a page gets pages of its
 * own; the bytes held come back to what they were.
 */
static void pack_slots(struct kunit *test)
{
	static const u8 code[] = { 0x90, RET_INSN_OPCODE };
	unsigned long before, held;
	u8 *a, *b, *big, *freed;

	/* No assertion while text_mutex is held: it would stay held */
	mutex_lock(&text_mutex);
	before = ftrace_mux_pack_bytes();
	a = ftrace_mux_pack_alloc(100);
	b = ftrace_mux_pack_alloc(130);
	big = ftrace_mux_pack_alloc(PAGE_SIZE / 2 + 1);
	held = ftrace_mux_pack_bytes();
	KUNIT_EXPECT_TRUE(test, a && b && big);
	if (!a || !b || !big)
		goto out;
	KUNIT_EXPECT_EQ(test, (unsigned long)a % 64, 0UL);
	KUNIT_EXPECT_EQ(test, (unsigned long)b % 64, 0UL);
	KUNIT_EXPECT_TRUE(test, a + 128 <= b || b + 192 <= a);
	KUNIT_EXPECT_EQ(test, (unsigned long)big % PAGE_SIZE, 0UL);
	KUNIT_EXPECT_TRUE(test, all_int3(a, 128) && all_int3(b, 192));
	KUNIT_EXPECT_TRUE(test, all_int3(big, PAGE_SIZE));
	/* big's page, and at most one new shared page */
	KUNIT_EXPECT_GE(test, held - before, PAGE_SIZE);
	KUNIT_EXPECT_LE(test, held - before, 2 * PAGE_SIZE);

	ftrace_mux_pack_write(a, code, sizeof(code));
	KUNIT_EXPECT_EQ(test, memcmp(a, code, sizeof(code)), 0);
	KUNIT_EXPECT_TRUE(test, all_int3(a + sizeof(code), 128 - sizeof(code)));
	ftrace_mux_pack_free(a, 100);
	freed = a;
	a = NULL;
	/* Where b keeps the page, the freed slot is int3 again */
	if (((unsigned long)freed & PAGE_MASK) == ((unsigned long)b & PAGE_MASK))
		KUNIT_EXPECT_TRUE(test, all_int3(freed, 128));
out:
	if (a)
		ftrace_mux_pack_free(a, 100);
	if (b)
		ftrace_mux_pack_free(b, 130);
	if (big)
		ftrace_mux_pack_free(big, PAGE_SIZE / 2 + 1);
	KUNIT_EXPECT_EQ(test, ftrace_mux_pack_bytes(), before);
	mutex_unlock(&text_mutex);
}

/* A tracer that counts, for the sites */
static atomic_t hits[12];

static void notrace count_hit(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&hits[(unsigned long)op->private]);
}

static struct ftrace_ops *site_ops(struct kunit *test, unsigned long n)
{
	struct ftrace_ops *ops = kunit_kzalloc(test, sizeof(*ops), GFP_KERNEL);
	char name[] = "ftrace_mux_x86_target";

	KUNIT_ASSERT_NOT_NULL(test, ops);
	ops->func = count_hit;
	ops->private = (void *)n;
	ops->flags = FTRACE_OPS_FL_RECURSION;
	atomic_set(&hits[n], 0);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter(ops, name, strlen(name), 1), 0);
	return ops;
}

static void site_ops_free(struct ftrace_ops **ops, int n)
{
	while (n--) {
		unregister_ftrace_function(ops[n]);
		ftrace_free_filter(ops[n]);
	}
}

/* The template whose copy the call at fentry site @ip calls, or 0 */
static unsigned long site_template(unsigned long ip)
{
	return ftrace_mux_tramp_orc_ip(arch_ftrace_mux_call_target(ip));
}

/*
 * An fentry site of two tracers is patched with a direct call of their
 * set's trampoline, copied from ftrace_mux_caller, and of the pt_regs
 * flavour once a third asks for registers; with none left the site is
 * ftrace's nop again.
 */
static void site_call(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)ftrace_mux_x86_target);
	struct ftrace_ops *ops[3];
	int i;

	KUNIT_ASSERT_NE(test, ip, 0UL);
	for (i = 0; i < 3; i++)
		ops[i] = site_ops(test, i);
	ops[2]->flags |= FTRACE_OPS_FL_SAVE_REGS;
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[0]), 0);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[1]), 0);
	KUNIT_EXPECT_EQ(test, site_template(ip), entry_of(ftrace_mux_caller));
	ftrace_mux_x86_target();
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[2]), 0);
	KUNIT_EXPECT_EQ(test, site_template(ip), entry_of(ftrace_mux_regs_caller));
	ftrace_mux_x86_target();
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[0]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[1]), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&hits[2]), 1);
	site_ops_free(ops, 3);
	KUNIT_EXPECT_TRUE(test, arch_ftrace_mux_site_is_nop(ip));
}

static void jump_free_action(void *j)
{
	mutex_lock(&text_mutex);
	arch_ftrace_mux_jump_free(j);
	mutex_unlock(&text_mutex);
}

static struct ftrace_mux_jump *make_jump(struct kunit *test, unsigned long at,
					 unsigned long ip, void *data)
{
	struct ftrace_mux_jump *j = kunit_kzalloc(test, sizeof(*j), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, j);
	mutex_lock(&text_mutex);
	ret = arch_ftrace_mux_jump_create(j, at, ip, data, tracer0);
	mutex_unlock(&text_mutex);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, jump_free_action, j), 0);
	return j;
}

/* The byte at @label of the template, in the copy @j */
static u8 *jump_at(const struct ftrace_mux_jump *j, const u8 *label, int off)
{
	return j->text + (label - ftrace_mux_detour_jump) + off;
}

/*
 * A detour's jump entry is the template byte for byte but for its
 * immediates (the probed address, the ip tracers see, the data for a
 * fallback) and its call, each instruction unwinding as the template's;
 * the call is re-pointed in place.  An address outside the top 2 GB is
 * refused.  At an inlined copy's site parent_ip is the site itself.
 */
static void jump_entry(struct kunit *test)
{
	const u8 *tpl = ftrace_mux_detour_jump;
	unsigned long at = (unsigned long)ftrace_mux_x86_target;
	unsigned long func = (unsigned long)ftrace_mux_x86_target + 1;
	unsigned int pre = ftrace_mux_detour_jump_call - tpl, tail;
	void *data = (void *)0x1122334455667788UL;
	struct ftrace_mux_jump *j, bad = {};
	unsigned long text, call;
	struct insn insn;
	s32 imm;
	u64 imm64;
	int ret;

	j = make_jump(test, at, at, data);
	text = (unsigned long)j->text;
	KUNIT_EXPECT_EQ(test, text % 64, 0UL);
	KUNIT_EXPECT_EQ(test, *jump_at(j, ftrace_mux_detour_jump_at, 0), 0x68);
	memcpy(&imm, jump_at(j, ftrace_mux_detour_jump_at, 1), sizeof(imm));
	KUNIT_EXPECT_EQ(test, (long)imm, (long)at);
	memcpy(&imm, jump_at(j, ftrace_mux_detour_jump_ip, 3), sizeof(imm));
	KUNIT_EXPECT_EQ(test, (long)imm, (long)at);
	memcpy(&imm64, jump_at(j, ftrace_mux_detour_jump_data, 2), sizeof(imm64));
	KUNIT_EXPECT_EQ(test, imm64, (u64)data);
	/* At a function's entry parent_ip is the return address: as built */
	KUNIT_EXPECT_EQ(test, *jump_at(j, ftrace_mux_detour_jump_parent, 4),
			ftrace_mux_detour_jump_parent[4]);
	KUNIT_EXPECT_EQ(test, memcmp(j->text, tpl, ftrace_mux_detour_jump_at - tpl + 1), 0);

	call = text + j->call;
	decode(test, &insn, call);
	KUNIT_EXPECT_EQ(test, insn.opcode.bytes[0], CALL_INSN_OPCODE);
	KUNIT_EXPECT_EQ(test, rel_target(&insn, call), entry_of(tracer0));
	tail = ftrace_mux_detour_jump_end - ftrace_mux_detour_jump_call_end;
	KUNIT_EXPECT_EQ(test, memcmp((void *)call + CALL_INSN_SIZE,
				     ftrace_mux_detour_jump_call_end, tail), 0);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_jump_orc_ip(text, text), (unsigned long)tpl);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_jump_orc_ip(text, text + pre - 1),
			(unsigned long)tpl + pre - 1);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_jump_orc_ip(text, call),
			(unsigned long)ftrace_mux_detour_jump_call);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_jump_orc_ip(text, call + CALL_INSN_SIZE),
			(unsigned long)ftrace_mux_detour_jump_call_end);
	KUNIT_EXPECT_EQ(test, arch_ftrace_mux_jump_orc_ip(text, call + CALL_INSN_SIZE + tail),
			(unsigned long)ftrace_mux_detour_jump_end);

	mutex_lock(&text_mutex);
	arch_ftrace_mux_jump_set_target(j, tracer1);
	mutex_unlock(&text_mutex);
	decode(test, &insn, call);
	KUNIT_EXPECT_EQ(test, rel_target(&insn, call), entry_of(tracer1));

	mutex_lock(&text_mutex);
	ret = arch_ftrace_mux_jump_create(&bad, 1UL << 40, 1UL << 40, NULL, tracer0);
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(test, ret, -ERANGE);
	KUNIT_EXPECT_NULL(test, bad.text);

	/* A site: the tracers see the function, parent_ip is the site */
	j = make_jump(test, at, func, NULL);
	memcpy(&imm, jump_at(j, ftrace_mux_detour_jump_ip, 3), sizeof(imm));
	KUNIT_EXPECT_EQ(test, (long)imm, (long)func);
	memcpy(&imm, jump_at(j, ftrace_mux_detour_jump_at, 1), sizeof(imm));
	KUNIT_EXPECT_EQ(test, (long)imm, (long)at);
	KUNIT_EXPECT_EQ(test, *jump_at(j, ftrace_mux_detour_jump_parent, 4), 24);
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

/* One call of the target, its site serving @nr tracers, must balance. */
static void expect_balanced(struct kunit *test, unsigned long ip, int nr)
{
	KUNIT_EXPECT_EQ_MSG(test, call_depth_drift(ftrace_mux_x86_target), 0L,
			    "%d tracers, site calls %ps", nr,
			    (void *)arch_ftrace_mux_call_target(ip));
}

/*
 * Call depth tracking (retbleed=stuff) must count each call once: every
 * return is counted, so a call counted twice leaves the depth too deep and
 * the return stack buffer is refilled later than the mitigation needs.
 * A set's trampoline accounts for the site's call, which ftrace patched
 * in, and before each direct call of a tracer, so a traced call adds as
 * many calls as returns, as ftrace_caller does.  Checked with 0 tracers,
 * 1 (its own trampoline), 2 (a set's trampoline, then its pt_regs twin)
 * and 12.  Meaningful only when booted with retbleed=stuff.
 */
static void call_depth(struct kunit *test)
{
	unsigned long ip = ftrace_location((unsigned long)ftrace_mux_x86_target);
	struct ftrace_ops *ops[12];
	int n = ARRAY_SIZE(ops), i;

	if (!cpu_feature_enabled(X86_FEATURE_CALL_DEPTH))
		kunit_skip(test, "call depth tracking is off (boot with retbleed=stuff)");
	KUNIT_ASSERT_NE(test, ip, 0UL);
	expect_balanced(test, ip, 0);

	for (i = 0; i < n; i++)
		ops[i] = site_ops(test, i);
	/* Its own trampoline, then a set's */
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[0]), 0);
	expect_balanced(test, ip, 1);
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[1]), 0);
	KUNIT_EXPECT_EQ(test, site_template(ip), entry_of(ftrace_mux_caller));
	expect_balanced(test, ip, 2);
	/* The pt_regs twin: ops[2] asks for registers. */
	ops[2]->flags |= FTRACE_OPS_FL_SAVE_REGS;
	KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[2]), 0);
	expect_balanced(test, ip, 3);
	/* Many tracers on one trampoline */
	for (i = 3; i < n; i++)
		KUNIT_ASSERT_EQ(test, register_ftrace_function(ops[i]), 0);
	expect_balanced(test, ip, n);
	KUNIT_EXPECT_EQ(test, site_template(ip), entry_of(ftrace_mux_regs_caller));
	/* Each expect_balanced() called the target once: ops[i] saw 4 - i calls */
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, atomic_read(&hits[i]), i < 3 ? 4 - i : 1);

	site_ops_free(ops, n);
	KUNIT_EXPECT_EQ(test, call_depth_drift(ftrace_mux_x86_target), 0L);
}
#else
static void call_depth(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_CALL_THUNKS_DEBUG");
}
#endif

static struct kunit_case ftrace_mux_x86_cases[] = {
	KUNIT_CASE(fentry_layout),
	KUNIT_CASE(detour_layout),
	KUNIT_CASE(skipped_blocks),
	KUNIT_CASE(pack_slots),
	KUNIT_CASE(site_call),
	KUNIT_CASE(jump_entry),
	KUNIT_CASE_SLOW(call_depth),
	{}
};

static struct kunit_suite ftrace_mux_x86_suite = {
	.name = "ftrace_mux_x86",
	.test_cases = ftrace_mux_x86_cases,
};
kunit_test_suite(ftrace_mux_x86_suite);

MODULE_DESCRIPTION("KUnit tests of ftrace-mux's x86 code");
MODULE_LICENSE("GPL");
