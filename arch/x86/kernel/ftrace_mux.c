// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux on x86-64: the trampoline of a set of tracers.
 *
 * Like the per-ops trampolines of arch/x86/kernel/ftrace.c, a set's
 * trampoline is a copy of a template in ftrace_64.S, ftrace_mux_caller or
 * ftrace_mux_regs_caller, but where the template calls one function the
 * copy calls each tracer of the set in turn, directly:
 *
 *	prologue	template up to _body (ENDBR left out: only the
 *			direct calls of patched sites reach it)
 *	per tracer	load ip and parent_ip into %rdi, %rsi; movabs $ops,%rdx;
 *			mov %rsp,%rcx; [call depth accounting]; call func
 *	epilogue	template from _body_end up to _end
 *	return		ret, or a jump to the return thunk
 *
 * No table is read and no indirect call made, so neither a retpoline nor
 * kCFI stands between a site and its tracers.  The unwinder maps every ip
 * of the copy to the template's (arch_ftrace_mux_tramp_orc_ip()).
 */
#include <linux/execmem.h>
#include <linux/ftrace.h>
#include <linux/ftrace_mux.h>
#include <linux/memory.h>
#include <linux/set_memory.h>
#include <linux/uaccess.h>
#include <asm/alternative.h>
#include <asm/ftrace_mux.h>
#include <asm/ibt.h>
#include <asm/text-patching.h>

/*
 * The fixed part of a tracer's block, before accounting and the call: ip
 * and parent_ip from where the template keeps them (see ftrace_64.S),
 * then the ops.
 */
static const u8 block_args[] = {
	0x48, 0x8b, 0x3c, 0x24,		/* mov R15(%rsp),%rdi (ip) */
	0x48, 0x8b, 0x74, 0x24, 0x08,	/* mov R14(%rsp),%rsi (parent_ip) */
	0x48, 0xba,			/* movabs $ops,%rdx (imm64) */
};
static const u8 block_args_regs[] = {
	0x48, 0x89, 0xdf,		/* mov %rbx,%rdi (ip) */
	0x4c, 0x89, 0xe6,		/* mov %r12,%rsi (parent_ip) */
	0x48, 0xba,			/* movabs $ops,%rdx (imm64) */
};
#define BLOCK_OPS_SIZE	8
static const u8 block_fregs[] = {
	0x48, 0x89, 0xe1,		/* mov %rsp,%rcx (fregs) */
};

static_assert(offsetof(struct pt_regs, r15) == 0);
static_assert(offsetof(struct pt_regs, r14) == 8);

/*
 * Where to call @func: past its ENDBR, which a direct call need not run
 * (and FineIBT may have turned into something else).
 */
static void *call_dest(void *func)
{
	if (is_endbr(*(u32 *)func))
		return func + ENDBR_INSN_SIZE;
	return func;
}

struct template {
	const u8 *start, *body, *body_end, *end;
};

static void get_template(struct template *tp, bool regs)
{
	if (regs) {
		tp->start = ftrace_mux_regs_caller;
		tp->body = ftrace_mux_regs_caller_body;
		tp->body_end = ftrace_mux_regs_caller_body_end;
		tp->end = ftrace_mux_regs_caller_end;
	} else {
		tp->start = ftrace_mux_caller;
		tp->body = ftrace_mux_caller_body;
		tp->body_end = ftrace_mux_caller_body_end;
		tp->end = ftrace_mux_caller_end;
	}
	if (is_endbr(*(const u32 *)tp->start))
		tp->start += ENDBR_INSN_SIZE;
}

/* Copy template code to @dst, fixing its %rip-relative operands. */
static u8 *copy_template(u8 *dst, const u8 *from, const u8 *to)
{
	size_t len = to - from;

	memcpy(dst, from, len);
	text_poke_apply_relocation(dst, dst, len, (u8 *)from, len);
	return dst + len;
}

static u8 *emit_block(u8 *p, const struct ftrace_mux_call *call, bool regs)
{
	unsigned long ops = (unsigned long)call->ops;

	if (regs) {
		memcpy(p, block_args_regs, sizeof(block_args_regs));
		p += sizeof(block_args_regs);
	} else {
		memcpy(p, block_args, sizeof(block_args));
		p += sizeof(block_args);
	}
	memcpy(p, &ops, BLOCK_OPS_SIZE);
	p += BLOCK_OPS_SIZE;
	memcpy(p, block_fregs, sizeof(block_fregs));
	p += sizeof(block_fregs);
	/* The tracer's return is counted: count its call, as BPF's JIT does */
	x86_call_depth_emit_accounting(&p, NULL, p);
	__text_gen_insn(p, CALL_INSN_OPCODE, p, call_dest(call->func), CALL_INSN_SIZE);
	return p + CALL_INSN_SIZE;
}

/*
 * Make @t, the trampoline calling the @nr tracers of @calls in order.
 * May sleep; the text is read-only when this returns.
 */
int arch_ftrace_mux_tramp_create(struct ftrace_mux_tramp *t,
				 const struct ftrace_mux_call *calls,
				 unsigned int nr, bool regs)
{
	u8 acct[64], *p = acct, *buf;
	struct template tp;
	unsigned int i, size;

	get_template(&tp, regs);
	t->regs = regs;
	t->nr = nr;
	t->body = tp.body - tp.start;
	t->block = (regs ? sizeof(block_args_regs) : sizeof(block_args)) + BLOCK_OPS_SIZE + sizeof(block_fregs) +
		   x86_call_depth_emit_accounting(&p, NULL, acct) + CALL_INSN_SIZE;
	size = t->body + nr * t->block + (tp.end - tp.body_end) + JMP32_INSN_SIZE;
	t->alloc = ALIGN(size, 16);
	buf = execmem_alloc(EXECMEM_FTRACE, t->alloc);
	if (!buf)
		return -ENOMEM;

	p = copy_template(buf, tp.start, tp.body);
	for (i = 0; i < nr; i++)
		p = emit_block(p, &calls[i], regs);
	p = copy_template(p, tp.body_end, tp.end);
	if (cpu_wants_rethunk_at(p)) {
		__text_gen_insn(p, JMP32_INSN_OPCODE, p, x86_return_thunk,
				JMP32_INSN_SIZE);
		p += JMP32_INSN_SIZE;
	} else {
		*p++ = RET_INSN_OPCODE;
	}
	t->size = p - buf;
	memset(p, INT3_INSN_OPCODE, buf + t->alloc - p);
	t->start = (unsigned long)buf;
	set_memory_rox(t->start, DIV_ROUND_UP(t->alloc, PAGE_SIZE));
	return 0;
}

/*
 * Point the call of tracer @i of @t at @func, as ftrace re-points an
 * ops' own trampoline (arch_ftrace_update_trampoline()).
 */
void arch_ftrace_mux_tramp_set_func(struct ftrace_mux_tramp *t,
				    unsigned int i, void *func)
{
	void *ip = (void *)t->start + t->body + (i + 1) * t->block - CALL_INSN_SIZE;
	u8 insn[CALL_INSN_SIZE];

	__text_gen_insn(insn, CALL_INSN_OPCODE, ip, call_dest(func), CALL_INSN_SIZE);
	mutex_lock(&text_mutex);
	text_poke_bp(ip, insn, CALL_INSN_SIZE, NULL);
	mutex_unlock(&text_mutex);
}

/* Only once no CPU can be in @t: after the RCU-tasks grace periods. */
void arch_ftrace_mux_tramp_free(struct ftrace_mux_tramp *t)
{
	execmem_free((void *)t->start);
}

/*
 * The ip of the template whose unwind data holds at @ip of @t: the same
 * offset in the prologue and the epilogue, the template's call for every
 * ip of the tracers' blocks (the stack is the same there), its return
 * after.  0 if @ip is not in @t.
 */
unsigned long arch_ftrace_mux_tramp_orc_ip(const struct ftrace_mux_tramp *t,
					   unsigned long ip)
{
	unsigned long off = ip - t->start, epi;
	struct template tp;

	if (ip < t->start || off >= t->size)
		return 0;
	get_template(&tp, t->regs);
	if (off < t->body)
		return (unsigned long)tp.start + off;
	epi = t->body + t->nr * t->block;
	if (off < epi)
		return (unsigned long)tp.body;
	off -= epi;
	if (off < tp.end - tp.body_end)
		return (unsigned long)tp.body_end + off;
	return (unsigned long)tp.end;
}

/*
 * What the call at @ip calls, read from the text itself, or 0 if @ip holds
 * no call.  Callers hold ftrace_lock, so no patch of this site is in
 * flight: text_poke_bp() batches complete before ftrace_lock is released.
 */
unsigned long arch_ftrace_mux_call_target(unsigned long ip)
{
	u8 insn[CALL_INSN_SIZE];
	s32 rel;

	if (copy_from_kernel_nofault(insn, (void *)ip, CALL_INSN_SIZE))
		return 0;
	if (insn[0] != CALL_INSN_OPCODE)
		return 0;
	memcpy(&rel, insn + 1, sizeof(rel));
	return ip + CALL_INSN_SIZE + rel;
}
