/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux caller stubs and call lists, generated here by the assembler
 * rather than written out.
 *
 * There is one caller stub per mask of the first FTRACE_MUX_STUB_BITS
 * tracer IDs, in two families (ftrace_regs and full pt_regs), plus one
 * more per family, numbered FTRACE_MUX_NR_STUBS, for masks that use higher
 * IDs.  A call site wanted by the tracers in "mask" calls stub number
 * "mask".  The stub puts its number in %r11, which is dead at a function's
 * fentry call (caller-clobbered, carries no argument, and ftrace_caller
 * does not save it either), and jumps to the common caller in ftrace_64.S.
 * The stub does not touch the stack, so the caller sees the frame it would
 * have seen if the site had called it directly, and the unwinder needs
 * nothing more than UNWIND_HINT_FUNC.
 *
 * The common caller saves the registers like ftrace_caller, keeps ip and
 * parent_ip in %rbx and %r12, and calls the stub's call list, found in
 * ftrace_mux_lists[].  The list of a mask calls, for each ID in the mask,
 * ftrace_mux_calls[ID].func(ip, parent_ip, ftrace_mux_calls[ID].ops, fregs):
 * straight-line code, no loop and no test, one indirect call per tracer.
 * Call depth tracking (retbleed=stuff) accounts for those calls in the
 * indirect call thunks and, for the lookup call, in the call thunk that
 * the call site is redirected to at boot: unlike a call that ftrace
 * patches in at run time, they need no CALL_DEPTH_ACCOUNT of their own.
 * Both families share the lists.  The list of stub FTRACE_MUX_NR_STUBS
 * calls ftrace_mux_lookup_dispatch(), which finds the site's mask in its
 * dyn_ftrace record.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>
#include <asm/ftrace_mux.h>

#define STUB_BITS	CONFIG_FTRACE_MUX_STUB_BITS
#define NR_STUBS	(1 << STUB_BITS)

.macro FTRACE_MUX_STUBS caller
	.set .Lmux_stub, 0
	.rept NR_STUBS + 1
	.balign FTRACE_MUX_STUB_SIZE, 0xcc
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	movl	$.Lmux_stub, %r11d
	jmp	\caller
	.set .Lmux_stub, .Lmux_stub + 1
	.endr
	.balign FTRACE_MUX_STUB_SIZE, 0xcc
.endm

/* Call tracer \id: %rbx = ip, %r12 = parent_ip, fregs above our return. */
.macro FTRACE_MUX_CALL id
	movq	%rbx, %rdi
	movq	%r12, %rsi
	movq	ftrace_mux_calls + FTRACE_MUX_CALL_SIZE * \id(%rip), %rdx
	leaq	8(%rsp), %rcx
	movq	ftrace_mux_calls + FTRACE_MUX_CALL_SIZE * \id + FTRACE_MUX_CALL_FUNC(%rip), %rax
	CALL_NOSPEC rax
.endm

	.code64
	.section .text, "ax"

	.balign FTRACE_MUX_STUB_SIZE
SYM_CODE_START_NOALIGN(ftrace_mux_stubs)
	FTRACE_MUX_STUBS ftrace_mux_caller
SYM_CODE_END(ftrace_mux_stubs)

	.balign FTRACE_MUX_STUB_SIZE
SYM_CODE_START_NOALIGN(ftrace_mux_regs_stubs)
	FTRACE_MUX_STUBS ftrace_mux_regs_caller
SYM_CODE_END(ftrace_mux_regs_stubs)

/*
 * The lists, each a function called by the common caller, with its
 * address in ftrace_mux_lists[] at the index of its stub: the .quad
 * entries below land in .rodata in order, after this label.
 */
	.pushsection .rodata
	.balign 8
SYM_DATA_START(ftrace_mux_lists)
	.popsection

SYM_CODE_START(ftrace_mux_call_lists)
	.set .Lmux_mask, 0
	.rept NR_STUBS
	.pushsection .rodata
	.quad	1f
	.popsection
1:	UNWIND_HINT_FUNC
	ENDBR
#ifdef CONFIG_CFI_CLANG
	/*
	 * kCFI checks only indirect calls made from C, and FineIBT turns
	 * the ENDBR at a C function's start into a trap for other callers:
	 * the tracers are called from C, with the mask, by a direct call.
	 */
	.if .Lmux_mask
	movq	%rbx, %rdi
	movq	%r12, %rsi
	movl	$.Lmux_mask, %edx
	leaq	8(%rsp), %rcx
	call	ftrace_mux_mask_dispatch
	.endif
#else
	.set .Lmux_id, 0
	.rept STUB_BITS
	.if (.Lmux_mask >> .Lmux_id) & 1
	FTRACE_MUX_CALL .Lmux_id
	.endif
	.set .Lmux_id, .Lmux_id + 1
	.endr
#endif
	RET
	.set .Lmux_mask, .Lmux_mask + 1
	.endr

	/* Stub NR_STUBS: the mask is in the record. */
	.pushsection .rodata
	.quad	1f
	.popsection
1:	UNWIND_HINT_FUNC
	ENDBR
	movq	%rbx, %rdi
	movq	%r12, %rsi
	xorl	%edx, %edx
	leaq	8(%rsp), %rcx
	call	ftrace_mux_lookup_dispatch
	RET
SYM_CODE_END(ftrace_mux_call_lists)

	.pushsection .rodata
SYM_DATA_END(ftrace_mux_lists)
	.popsection
