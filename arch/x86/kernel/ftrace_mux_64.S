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
 * kernel/trace/ftrace_mux_detour.c): the function kprobes' buffer calls in
 * place of its handlers (kprobe.direct) while the detour is the only probe
 * on its function.  It is entered with the stack as at the function's
 * entry plus the return address into the buffer, and must preserve every
 * register and the flags: the function may be an assembly routine with
 * conventions of its own.  So it builds the pt_regs the handler would get
 * (ip the function, sp the function's own, at its return address), calls
 * the set's detour trampoline (or a fallback) with it as a C function
 * would, and restores it all.  A copy is made for each detour, with the
 * function's address at _ip (sign-extended: kernel and module text lie in
 * the top 2 GB) and a call depth account and the call at _call.
 */
SYM_CODE_START(ftrace_mux_detour_jump)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	pushq $__KERNEL_DS
	pushq $0			/* sp, below */
	pushfq
	subq $24, %rsp			/* cs, ip, orig_ax */
	pushq %rdi
	pushq %rsi
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
	movq $__KERNEL_CS, CS(%rsp)
	movq $-1, ORIG_RAX(%rsp)
	/* The function's sp: above pt_regs and the return into the buffer */
	leaq SS+16(%rsp), %rsi
	movq %rsi, RSP(%rsp)
	movq (%rsi), %rsi		/* parent_ip */
	movq %rsp, %rdx			/* fregs */
SYM_INNER_LABEL(ftrace_mux_detour_jump_ip, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	.byte 0x48, 0xc7, 0xc7		/* movq $imm32,%rdi: the function */
	.long 0
	movq %rdi, RIP(%rsp)
	/*
	 * During the call the stack holds the pt_regs of the function at its
	 * first instruction: an unwinder steps through them as through an
	 * exception frame, to the function and its callers, never into
	 * kprobes' buffer.
	 */
	UNWIND_HINT_REGS
SYM_INNER_LABEL(ftrace_mux_detour_jump_call, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	call ftrace_stub
SYM_INNER_LABEL(ftrace_mux_detour_jump_call_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Back to the frame: pt_regs above the return into the buffer */
	UNWIND_HINT sp_reg=ORC_REG_SP sp_offset=SS+16 type=UNWIND_HINT_TYPE_CALL
	/* The flags go where ss was, to be popped last */
	movq EFLAGS(%rsp), %rdx
	movq %rdx, SS(%rsp)
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
	addq $40, %rsp			/* orig_ax, ip, cs, flags, sp */
	popfq
SYM_INNER_LABEL(ftrace_mux_detour_jump_end, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	RET
SYM_CODE_END(ftrace_mux_detour_jump)
/* Copied into each jump entry: never probed */
_ASM_NOKPROBE(ftrace_mux_detour_jump)
_ASM_NOKPROBE(ftrace_mux_detour_jump_ip)
_ASM_NOKPROBE(ftrace_mux_detour_jump_call)
_ASM_NOKPROBE(ftrace_mux_detour_jump_call_end)
_ASM_NOKPROBE(ftrace_mux_detour_jump_end)
