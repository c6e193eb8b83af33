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
#include <asm/nospec-branch.h>

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
