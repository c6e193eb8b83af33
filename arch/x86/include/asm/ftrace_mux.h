/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FTRACE_MUX_H
#define _ASM_X86_FTRACE_MUX_H

/*
 * Every caller stub is "movl $stub, %r11d; jmp ftrace_mux{,_regs}_caller"
 * padded to this size, so a stub's address gives its number and back.
 */
#define FTRACE_MUX_STUB_SIZE	16

/* Layout of struct ftrace_mux_call, for the call lists. */
#define FTRACE_MUX_CALL_SIZE	16
#define FTRACE_MUX_CALL_FUNC	8

#ifndef __ASSEMBLY__
#include <linux/types.h>

/* Code in ftrace_mux_stubs.S and ftrace_64.S, never called from C */
extern const u8 ftrace_mux_stubs[], ftrace_mux_regs_stubs[];
extern const u8 ftrace_mux_caller[], ftrace_mux_regs_caller[];
extern const unsigned long ftrace_mux_lists[];

unsigned long arch_ftrace_mux_stub(unsigned long mask, bool regs);
long arch_ftrace_mux_stub_mask(unsigned long addr, bool *regs);
unsigned long arch_ftrace_mux_call_target(unsigned long ip);

#endif /* __ASSEMBLY__ */
#endif /* _ASM_X86_FTRACE_MUX_H */
