/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux caller stubs: one per mask of the first FTRACE_MUX_STUB_BITS
 * tracer IDs, in two families (ftrace_regs and full pt_regs), generated
 * here by the assembler rather than written out.
 *
 * A call site wanted by the tracers in "mask" calls stub number "mask".
 * The stub puts the mask in %r11, which is dead at a function's fentry
 * call (caller-clobbered, carries no argument), and jumps to the common
 * caller in ftrace_64.S; that saves the registers exactly like
 * ftrace_caller and passes the mask on to ftrace_mux_dispatch().  The stub
 * does not touch the stack, so the caller sees the frame it would have
 * seen if the site had called it directly, and the unwinder needs nothing
 * more than UNWIND_HINT_FUNC.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/unwind_hints.h>
#include <asm/ftrace_mux.h>

.macro FTRACE_MUX_STUBS caller
	.set .Lmux_mask, 0
	.rept (1 << CONFIG_FTRACE_MUX_STUB_BITS)
	.balign FTRACE_MUX_STUB_SIZE, 0xcc
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	movl	$.Lmux_mask, %r11d
	jmp	\caller
	.set .Lmux_mask, .Lmux_mask + 1
	.endr
	.balign FTRACE_MUX_STUB_SIZE, 0xcc
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
