/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The template of the trampolines detours call (arch/x86/kernel/ftrace_mux.c).
 *
 * A detour's handler is C, called by kprobes with a pt_regs, so unlike the
 * templates in ftrace_64.S this one is a C function:
 *
 *	void ftrace_mux_detour_caller(unsigned long ip, unsigned long parent_ip,
 *				      struct ftrace_regs *fregs);
 *
 * It keeps its three arguments in callee-saved registers, where each
 * tracer's block of a copy finds them, in place of the one call between
 * _body and _body_end.  It is never run itself; the unwinder reads its
 * ORC data for every copy.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

	.code64
	.section .text, "ax"

SYM_FUNC_START(ftrace_mux_detour_caller)
	pushq %rbp
	movq %rsp, %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	movq %rdi, %rbx
	movq %rsi, %r12
	movq %rdx, %r13
SYM_INNER_LABEL(ftrace_mux_detour_caller_body, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movq %rbx, %rdi
	movq %r12, %rsi
	xorl %edx, %edx
	movq %r13, %rcx
	call ftrace_stub
SYM_INNER_LABEL(ftrace_mux_detour_caller_body_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
SYM_INNER_LABEL(ftrace_mux_detour_caller_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_FUNC_END(ftrace_mux_detour_caller)
/* Copied into each trampoline: never probed (see ftrace_64.S) */
_ASM_NOKPROBE(ftrace_mux_detour_caller)
_ASM_NOKPROBE(ftrace_mux_detour_caller_body)
_ASM_NOKPROBE(ftrace_mux_detour_caller_body_end)
_ASM_NOKPROBE(ftrace_mux_detour_caller_end)

/*
 * The template of a detour's jump entry (ftrace_mux.c, the detour in
 * kernel/trace/ftrace_mux_detour.c, the site of an inlined copy in
 * kernel/trace/ftrace_mux_detour_site.c): the function kprobes' buffer
 * calls in place of its handlers (kprobe.direct) while the detour is the
 * only probe at its address.  It is entered with the stack as at that
 * address plus the return address into the buffer, and must preserve
 * every register and the flags: the function may be an assembly routine
 * with conventions of its own.  So it builds the pt_regs the handler
 * would get (ip the probed address, sp the one there), calls the set's
 * detour trampoline (or a fallback) with it as a C function would, and
 * restores it all.  A copy is made for each detour and site, with the
 * probed address at _at and the function tracers see as ip at _ip
 * (immediates sign-extended: kernel and module text lie in the top 2 GB),
 * parent_ip loaded at _parent (the return address at a function's entry;
 * at an inlined copy's site, the site itself: only the displacement
 * differs), the detour or site at _data for a fallback, and a call depth
 * account and the call at _call.  Copied byte for byte (no relocation):
 * no %rip-relative operand or relative branch may go in it.
 */
SYM_CODE_START(ftrace_mux_detour_jump)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	pushq $__KERNEL_DS
	pushq %rsp			/* sp, less 16: fixed below */
	pushfq
	addq $16, 8(%rsp)		/* the flags are saved */
	pushq $__KERNEL_CS
SYM_INNER_LABEL(ftrace_mux_detour_jump_at, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	.byte 0x68			/* pushq $imm32: ip, the probed address */
	.long 0
	pushq $-1			/* orig_ax */
	pushq %rdi
	pushq %rsi
SYM_INNER_LABEL(ftrace_mux_detour_jump_parent, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* The return address above the buffer's; at a site, 24(%rsp): ip */
	movq 72(%rsp), %rsi
	pushq %rdx
	pushq %rcx
	pushq %rax
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
SYM_INNER_LABEL(ftrace_mux_detour_jump_ip, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	.byte 0x48, 0xc7, 0xc7		/* movq $imm32,%rdi: ip for tracers */
	.long 0
SYM_INNER_LABEL(ftrace_mux_detour_jump_data, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	movabsq $0, %rcx		/* the detour or site, for a fallback */
	movq %rsp, %rdx			/* fregs */
	/*
	 * During the call the stack holds the pt_regs of the probed address:
	 * an unwinder steps through them as through an exception frame, to
	 * the function (or the caller of an inlined copy) and its callers,
	 * never into kprobes' buffer.
	 */
	UNWIND_HINT_REGS
SYM_INNER_LABEL(ftrace_mux_detour_jump_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	call ftrace_stub
SYM_INNER_LABEL(ftrace_mux_detour_jump_call_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Back to the frame: pt_regs above the return into the buffer */
	UNWIND_HINT sp_reg=ORC_REG_SP sp_offset=SS+16 type=UNWIND_HINT_TYPE_CALL
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rax
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
	addq $24, %rsp			/* orig_ax, ip, cs */
	popfq
	leaq 16(%rsp), %rsp		/* sp, ss; the flags untouched */
SYM_INNER_LABEL(ftrace_mux_detour_jump_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_CODE_END(ftrace_mux_detour_jump)
/* Copied into each jump entry: never probed */
_ASM_NOKPROBE(ftrace_mux_detour_jump)
_ASM_NOKPROBE(ftrace_mux_detour_jump_at)
_ASM_NOKPROBE(ftrace_mux_detour_jump_parent)
_ASM_NOKPROBE(ftrace_mux_detour_jump_ip)
_ASM_NOKPROBE(ftrace_mux_detour_jump_data)
_ASM_NOKPROBE(ftrace_mux_detour_jump_call)
_ASM_NOKPROBE(ftrace_mux_detour_jump_call_end)
_ASM_NOKPROBE(ftrace_mux_detour_jump_end)
