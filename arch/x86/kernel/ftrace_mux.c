// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux on x86-64: the trampoline of a set of tracers.
 *
 * Like the per-ops trampolines of arch/x86/kernel/ftrace.c, a set's
 * trampoline is a copy of a template in ftrace_64.S (ftrace_mux_caller,
 * ftrace_mux_direct_caller or ftrace_mux_regs_caller), but where the
 * template calls one function the copy calls each tracer of the set in
 * turn, directly:
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
 *
 * A set with a direct call (register_ftrace_direct(), BPF trampolines)
 * has its direct ops' function store the address to call in ORIG_RAX.
 * Its template, ftrace_mux_direct_caller (or the regs one, if another
 * tracer of the set wants pt_regs), ends as ftrace_regs_caller does, with
 * a jump to a tail that turns the return into a call of that address; the
 * copy keeps the jump, relocated to the template's own tail, which runs
 * in place.  Copies of the regs template for sets without a direct call
 * have the jump NOPed, as the ops' own trampolines do.
 *
 * A detour's handler calls its set's trampoline as a C function,
 * indirectly, so that copy is made from a C-callable template
 * (ftrace_mux_64.S) and starts like a BPF program: the kCFI or FineIBT
 * preamble of a function of its type, then ENDBR (or FineIBT's poisoned
 * one).  Its tracers' blocks read the arguments from callee-saved
 * registers; a tracer a detour must not call (see ftrace_mux_detour.c)
 * gets a block that jumps over itself (and any such blocks after it).
 */
#include <linux/cfi.h>
#include <linux/ftrace.h>
#include <linux/ftrace_mux.h>
#include <linux/memory.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/alternative.h>
#include <asm/ftrace_mux.h>
#include <asm/ibt.h>
#include <asm/nops.h>
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
static const u8 block_fregs_detour[] = {
	0x4c, 0x89, 0xe9,		/* mov %r13,%rcx (fregs) */
};
static_assert(sizeof(block_fregs) == sizeof(block_fregs_detour));

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
	const u8 *jmp;		/* the jump to the direct call tail, or NULL */
};

/* The template of each flavour: ftrace_64.S and ftrace_mux_64.S */
static const struct template templates[FTRACE_MUX_FLAVOURS] = {
	[FTRACE_MUX_FENTRY] = {
		ftrace_mux_caller, ftrace_mux_caller_body,
		ftrace_mux_caller_body_end, ftrace_mux_caller_end, NULL,
	},
	[FTRACE_MUX_FENTRY_REGS] = {
		ftrace_mux_regs_caller, ftrace_mux_regs_caller_body,
		ftrace_mux_regs_caller_body_end, ftrace_mux_regs_caller_end,
		ftrace_mux_regs_caller_jmp,
	},
	[FTRACE_MUX_FENTRY_DIRECT] = {
		ftrace_mux_direct_caller, ftrace_mux_direct_caller_body,
		ftrace_mux_direct_caller_body_end, ftrace_mux_direct_caller_end,
		ftrace_mux_direct_caller_jmp,
	},
	[FTRACE_MUX_DETOUR] = {
		ftrace_mux_detour_caller, ftrace_mux_detour_caller_body,
		ftrace_mux_detour_caller_body_end, ftrace_mux_detour_caller_end,
		NULL,
	},
};

static void get_template(struct template *tp, enum ftrace_mux_flavour flavour)
{
	*tp = templates[flavour];
	if (is_endbr(*(const u32 *)tp->start))
		tp->start += ENDBR_INSN_SIZE;
}

/*
 * A trampoline is generated in a buffer, then copied into its text
 * (ftrace_mux_pack.c): code at buffer address p will run at p + @off.
 */

/* Copy template code to @dst, fixing its %rip-relative operands. */
static u8 *copy_template(u8 *dst, long off, const u8 *from, const u8 *to)
{
	size_t len = to - from;

	memcpy(dst, from, len);
	text_poke_apply_relocation(dst, dst + off, len, (u8 *)from, len);
	return dst + len;
}

/* Does @flavour keep ip and parent_ip in the frame, not in registers? */
static bool in_frame(enum ftrace_mux_flavour flavour)
{
	return flavour == FTRACE_MUX_FENTRY || flavour == FTRACE_MUX_FENTRY_DIRECT;
}

/*
 * The block of @call, @size bytes; with no function, a jump over it and
 * the @skip - 1 blocks after it that have none either (the rest never
 * runs: int3), so that a run of them, like a set's graph users grouped in
 * one block, costs one jump.  Their calls are never re-pointed
 * (ftrace_mux_tramps_set_func()).
 */
static u8 *emit_block(u8 *p, long off, const struct ftrace_mux_call *call,
		      enum ftrace_mux_flavour flavour, unsigned int size,
		      unsigned int skip)
{
	unsigned long ops = (unsigned long)(call->arg ?: call->ops);
	unsigned int len = skip * size;

	if (!call->func) {
		memset(p, INT3_INSN_OPCODE, size);
		if (len - JMP8_INSN_SIZE <= S8_MAX) {
			p[0] = JMP8_INSN_OPCODE;
			p[1] = len - JMP8_INSN_SIZE;
		} else {
			__text_gen_insn(p, JMP32_INSN_OPCODE, p + off,
					p + off + len, JMP32_INSN_SIZE);
		}
		return p + size;
	}
	/* The detour template keeps ip and parent_ip where regs does */
	if (in_frame(flavour)) {
		memcpy(p, block_args, sizeof(block_args));
		p += sizeof(block_args);
	} else {
		memcpy(p, block_args_regs, sizeof(block_args_regs));
		p += sizeof(block_args_regs);
	}
	memcpy(p, &ops, BLOCK_OPS_SIZE);
	p += BLOCK_OPS_SIZE;
	if (flavour == FTRACE_MUX_DETOUR)
		memcpy(p, block_fregs_detour, sizeof(block_fregs_detour));
	else
		memcpy(p, block_fregs, sizeof(block_fregs));
	p += sizeof(block_fregs);
	/* The tracer's return is counted: count its call, as BPF's JIT does */
	x86_call_depth_emit_accounting(&p, NULL, p + off);
	__text_gen_insn(p, CALL_INSN_OPCODE, p + off, call_dest(call->func),
			CALL_INSN_SIZE);
	return p + CALL_INSN_SIZE;
}

/* Bytes of call depth accounting before each emitted call */
static unsigned int accounting_size(void)
{
	u8 acct[64], *p = acct;

	return x86_call_depth_emit_accounting(&p, NULL, acct);
}

static unsigned int block_size(enum ftrace_mux_flavour flavour)
{
	unsigned int args;

	args = in_frame(flavour) ? sizeof(block_args) : sizeof(block_args_regs);
	return args + BLOCK_OPS_SIZE + sizeof(block_fregs) + accounting_size() +
	       CALL_INSN_SIZE;
}

#define JNZ32_INSN_SIZE	6

/* Does one of the tracers make a direct call (call_direct_funcs())? */
static bool calls_direct(const struct ftrace_mux_call *calls, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (calls[i].ops->flags & FTRACE_OPS_FL_DIRECT)
			return true;
	return false;
}

/*
 * Keep the copied jump to the direct call tail for a set with a direct
 * call, or NOP it.  @epi is where the epilogue was copied to.
 */
static int fix_direct_jmp(u8 *epi, const struct template *tp, bool direct)
{
	u8 *ip;

	if (!tp->jmp)
		return direct ? -EINVAL : 0;
	ip = epi + (tp->jmp - tp->body_end);
	/* A jnz with a 32-bit offset: {disp32} in ftrace_64.S */
	if (WARN_ON_ONCE(ip[0] != 0x0f || ip[1] != 0x85))
		return -EINVAL;
	if (!direct)
		memcpy(ip, x86_nops[JNZ32_INSN_SIZE], JNZ32_INSN_SIZE);
	return 0;
}

/*
 * A C function of the type of a detour trampoline: the hash in its CFI
 * preamble is the one the handler's indirect call checks.
 */
static void ftrace_mux_detour_type(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_regs *fregs)
{
}

#ifdef CONFIG_X86_KERNEL_IBT
static u8 *emit_endbr(u8 *p, bool poison)
{
	u32 insn = poison ? gen_endbr_poison() : gen_endbr();

	memcpy(p, &insn, ENDBR_INSN_SIZE);
	return p + ENDBR_INSN_SIZE;
}
#else
static u8 *emit_endbr(u8 *p, bool poison)
{
	return p;
}
#endif

/* FineIBT's check after the preamble's ENDBR: subl $hash,%r10d; jz 1f; ud2; nop */
static const u8 fineibt_sub[] = { 0x41, 0x81, 0xea };
static const u8 fineibt_rest[] = { 0x74, 0x07, 0x0f, 0x0b, BYTES_NOP1 };
/* kCFI's preamble: movl $hash,%eax, then NOPs up to cfi_get_offset() */
#define KCFI_MOVL_OPCODE	0xb8

/*
 * What precedes the prologue of a detour trampoline, which the handler
 * calls through a pointer, laid out as the BPF JIT lays out a program
 * (emit_cfi()): the preamble kCFI or FineIBT checks, then the entry's
 * ENDBR (poisoned under FineIBT, whose preamble has the live one).
 * Returns the end; *@pre is the bytes before the entry, *@head from it.
 */
static u8 *emit_detour_entry(u8 *p, unsigned int *pre, unsigned int *head)
{
	u32 hash = cfi_get_func_hash(ftrace_mux_detour_type);
	u8 *start = p, *entry;

	switch (cfi_mode) {
	case CFI_FINEIBT:
		p = emit_endbr(p, false);
		memcpy(p, fineibt_sub, sizeof(fineibt_sub));
		p += sizeof(fineibt_sub);
		memcpy(p, &hash, sizeof(hash));
		p += sizeof(hash);
		memcpy(p, fineibt_rest, sizeof(fineibt_rest));
		p += sizeof(fineibt_rest);
		entry = p;
		p = emit_endbr(p, true);
		break;
	case CFI_KCFI:
		*p++ = KCFI_MOVL_OPCODE;
		memcpy(p, &hash, sizeof(hash));
		p += sizeof(hash);
		while (p - start < cfi_get_offset())
			*p++ = BYTES_NOP1;
		entry = p;
		p = emit_endbr(p, false);
		break;
	default:
		entry = p;
		p = emit_endbr(p, false);
		break;
	}
	*pre = entry - start;
	*head = p - entry;
	return p;
}

/* A return, through the return thunk where the CPU wants one */
static u8 *emit_return(u8 *p, long off)
{
	if (cpu_wants_rethunk_at(p + off)) {
		__text_gen_insn(p, JMP32_INSN_OPCODE, p + off, x86_return_thunk,
				JMP32_INSN_SIZE);
		return p + JMP32_INSN_SIZE;
	}
	*p++ = RET_INSN_OPCODE;
	return p;
}

/* Replace the call at @ip, which CPUs may be running, by a call of @func */
static void poke_call(void *ip, void *func)
{
	u8 insn[CALL_INSN_SIZE];

	lockdep_assert_held(&text_mutex);
	__text_gen_insn(insn, CALL_INSN_OPCODE, ip, call_dest(func), CALL_INSN_SIZE);
	text_poke_bp(ip, insn, CALL_INSN_SIZE, NULL);
}

/*
 * Make @t, the trampoline calling the @nr tracers of @calls in order.
 * May sleep; the text is read-only when this returns.
 */
int arch_ftrace_mux_tramp_create(struct ftrace_mux_tramp *t,
				 const struct ftrace_mux_call *calls)
{
	enum ftrace_mux_flavour flavour = t->flavour;
	unsigned int nr = t->nr;
	u8 entry[32], *p, *buf, *epi, *text;
	struct template tp;
	unsigned int i, size, skip;
	int ret = 0;
	long off;

	get_template(&tp, flavour);
	t->pre = 0;
	t->arch.head = 0;
	if (flavour == FTRACE_MUX_DETOUR)
		emit_detour_entry(entry, &t->pre, &t->arch.head);
	t->arch.body = t->arch.head + (tp.body - tp.start);
	t->arch.block = block_size(flavour);
	size = t->pre + t->arch.body + nr * t->arch.block +
	       (tp.end - tp.body_end) + JMP32_INSN_SIZE;
	t->arch.alloc = ALIGN(size, 16);
	buf = kmalloc(t->arch.alloc, GFP_KERNEL);
	text = buf ? ftrace_mux_pack_alloc(t->arch.alloc) : NULL;
	if (!text) {
		kfree(buf);
		return -ENOMEM;
	}
	off = text - buf;

	p = buf;
	if (flavour == FTRACE_MUX_DETOUR)
		p = emit_detour_entry(p, &t->pre, &t->arch.head);
	p = copy_template(p, off, tp.start, tp.body);
	for (i = 0; i < nr; i++) {
		for (skip = 0; i + skip < nr && !calls[i + skip].func; skip++)
			;
		p = emit_block(p, off, &calls[i], flavour, t->arch.block,
			       skip);
	}
	epi = p;
	p = copy_template(p, off, tp.body_end, tp.end);
	/* A detour has no direct call to make: its ops is called, as in C */
	if (flavour != FTRACE_MUX_DETOUR)
		ret = fix_direct_jmp(epi, &tp, calls_direct(calls, nr));
	if (ret) {
		/* Nothing can have reached it */
		ftrace_mux_pack_free(text, t->arch.alloc);
		kfree(buf);
		return ret;
	}
	p = emit_return(p, off);
	t->start = (unsigned long)text + t->pre;
	t->size = p + off - (u8 *)t->start;
	memset(p, INT3_INSN_OPCODE, buf + t->arch.alloc - p);
	ftrace_mux_pack_write(text, buf, t->arch.alloc);
	kfree(buf);
	return 0;
}

/*
 * Make @j, the jump entry of a detour or site at @at, calling @target:
 * the template, its immediates, and a direct call (accounted for call
 * depth tracking, as a tracer's block is).  Under text_mutex.
 */
int arch_ftrace_mux_jump_create(struct ftrace_mux_jump *j, unsigned long at,
				unsigned long ip, void *data, void *target)
{
	const u8 *start = ftrace_mux_detour_jump, *call = ftrace_mux_detour_jump_call;
	const u8 *call_end = ftrace_mux_detour_jump_call_end;
	const u8 *end = ftrace_mux_detour_jump_end;
	s32 imm_at = at, imm_ip = ip;
	u64 imm_data = (unsigned long)data;
	unsigned int size;
	u8 *buf, *p;
	long off;

	lockdep_assert_held(&text_mutex);
	/* pushq and movq $imm32 sign-extend */
	if ((long)imm_at != (long)at || (long)imm_ip != (long)ip)
		return -ERANGE;
	size = (call - start) + accounting_size() + CALL_INSN_SIZE +
	       (end - call_end) + JMP32_INSN_SIZE;
	j->alloc = ALIGN(size, 16);
	buf = kmalloc(j->alloc, GFP_KERNEL);
	j->text = buf ? ftrace_mux_pack_alloc(j->alloc) : NULL;
	if (!j->text) {
		kfree(buf);
		return -ENOMEM;
	}
	off = (u8 *)j->text - buf;
	/*
	 * Copied as it is, as kprobes copies its optprobe template: the
	 * template has no %rip-relative operand and no relative branch
	 * outside the call and the return emitted here.
	 */
	memcpy(buf, start, call - start);
	p = buf + (call - start);
	/* The immediates at _at (68 imm32), _ip (48 c7 c7 imm32), _data (48 b9 imm64) */
	memcpy(buf + (ftrace_mux_detour_jump_at - start) + 1, &imm_at, sizeof(imm_at));
	memcpy(buf + (ftrace_mux_detour_jump_ip - start) + 3, &imm_ip, sizeof(imm_ip));
	memcpy(buf + (ftrace_mux_detour_jump_data - start) + 2, &imm_data,
	       sizeof(imm_data));
	/*
	 * At a site parent_ip is the probed address: the displacement of
	 * _parent's movq (48 8b 74 24 disp8) points at the pushed ip.
	 */
	if (at != ip)
		buf[ftrace_mux_detour_jump_parent - start + 4] = 24;
	x86_call_depth_emit_accounting(&p, NULL, p + off);
	j->call = p - buf;
	j->target = target;
	__text_gen_insn(p, CALL_INSN_OPCODE, p + off, call_dest(target),
			CALL_INSN_SIZE);
	p += CALL_INSN_SIZE;
	memcpy(p, call_end, end - call_end);
	p = emit_return(p + (end - call_end), off);
	memset(p, INT3_INSN_OPCODE, buf + j->alloc - p);
	ftrace_mux_pack_write(j->text, buf, j->alloc);
	kfree(buf);
	return 0;
}

/*
 * The ip of the template whose unwind data holds at @ip of the jump entry
 * at @text: the same offset before the call and after it, the template's
 * call for the call depth accounting and the call, where the template
 * has the pt_regs hint (an unwinder asks for the ip before the return
 * address).
 */
unsigned long arch_ftrace_mux_jump_orc_ip(unsigned long text, unsigned long ip)
{
	unsigned long call = ftrace_mux_detour_jump_call - ftrace_mux_detour_jump;
	unsigned long emitted = accounting_size() + CALL_INSN_SIZE;
	unsigned long off = ip - text;

	if (off < call)
		return (unsigned long)ftrace_mux_detour_jump + off;
	if (off < call + emitted)
		return (unsigned long)ftrace_mux_detour_jump_call;
	off -= emitted - CALL_INSN_SIZE;
	if (off >= ftrace_mux_detour_jump_end - ftrace_mux_detour_jump)
		return (unsigned long)ftrace_mux_detour_jump_end;
	return (unsigned long)ftrace_mux_detour_jump + off;
}

/* Re-point the call of @j, which CPUs may be running.  Under text_mutex. */
void arch_ftrace_mux_jump_set_target(struct ftrace_mux_jump *j, void *target)
{
	if (j->target == target)
		return;
	poke_call(j->text + j->call, target);
	j->target = target;
}

/* Once no CPU can be in @j or reach it.  Under text_mutex. */
void arch_ftrace_mux_jump_free(struct ftrace_mux_jump *j)
{
	ftrace_mux_pack_free(j->text, j->alloc);
	j->text = NULL;
}

/*
 * Point the call of tracer @i of @t at @func, as ftrace re-points an
 * ops' own trampoline (arch_ftrace_update_trampoline()).
 */
void arch_ftrace_mux_tramp_set_func(struct ftrace_mux_tramp *t,
				    unsigned int i, void *func)
{
	void *ip = (void *)t->start + t->arch.body + (i + 1) * t->arch.block - CALL_INSN_SIZE;

	mutex_lock(&text_mutex);
	poke_call(ip, func);
	mutex_unlock(&text_mutex);
}

/* Only once no CPU can be in @t: after the RCU-tasks grace periods. */
void arch_ftrace_mux_tramp_free(struct ftrace_mux_tramp *t)
{
	ftrace_mux_pack_free((void *)(t->start - t->pre), t->arch.alloc);
}

/*
 * The ip of the template whose unwind data holds at @ip of @t: its first
 * instruction in the CFI preamble and the ENDBR (nothing pushed yet), the
 * same offset in the prologue and the epilogue, the template's call for
 * every ip of the tracers' blocks (the stack is the same there), its
 * return after.  0 if @ip is not in @t.
 */
unsigned long arch_ftrace_mux_tramp_orc_ip(const struct ftrace_mux_tramp *t,
					   unsigned long ip)
{
	unsigned long off = ip - t->start, epi;
	struct template tp;

	if (ip < t->start - t->pre || (ip >= t->start && off >= t->size))
		return 0;
	get_template(&tp, t->flavour);
	if (ip < t->start + t->arch.head)
		return (unsigned long)tp.start;
	if (off < t->arch.body)
		return (unsigned long)tp.start + off - t->arch.head;
	epi = t->arch.body + t->nr * t->arch.block;
	if (off < epi)
		return (unsigned long)tp.body;
	off -= epi;
	if (off < tp.end - tp.body_end)
		return (unsigned long)tp.body_end + off;
	return (unsigned long)tp.end;
}

/*
 * What the call at @ip calls, read from the text itself, or 0 if @ip holds
 * no call: for the check that every site's text is what its record says
 * (function_tracers) and for the tests; ftrace itself goes by the record.
 * Callers hold ftrace_lock, so no patch of this site is in flight:
 * text_poke_bp() batches complete before ftrace_lock is released.
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

/*
 * What the block of the @i-th tracer of @t passes as its ops, in *@ops,
 * and whether it calls @func (where a direct call enters it, see
 * call_dest()): read from the text, for the tests.  Under ftrace_lock.
 */
bool arch_ftrace_mux_tramp_calls(const struct ftrace_mux_tramp *t, unsigned int i,
				 void *func, unsigned long *ops)
{
	unsigned long blk = t->start + t->arch.body + i * t->arch.block;
	unsigned long call = blk + t->arch.block - CALL_INSN_SIZE;
	unsigned long imm = call - accounting_size() - sizeof(block_fregs) -
			    BLOCK_OPS_SIZE;

	if (copy_from_kernel_nofault(ops, (void *)imm, BLOCK_OPS_SIZE))
		return false;
	return arch_ftrace_mux_call_target(call) == (unsigned long)call_dest(func);
}

/*
 * Is the text at @ip the nop that ftrace writes over an fentry call that
 * calls nothing (ftrace_nop_replace()), as at boot?  Under ftrace_lock.
 */
bool arch_ftrace_mux_site_is_nop(unsigned long ip)
{
	u8 insn[MCOUNT_INSN_SIZE];

	return !copy_from_kernel_nofault(insn, (void *)ip, MCOUNT_INSN_SIZE) &&
	       !memcmp(insn, x86_nops[MCOUNT_INSN_SIZE], MCOUNT_INSN_SIZE);
}
