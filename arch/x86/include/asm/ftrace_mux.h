/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FTRACE_MUX_H
#define _ASM_X86_FTRACE_MUX_H

#include <linux/types.h>

/*
 * The x86 part of a set's trampoline (struct ftrace_mux_tramp, made in
 * arch/x86/kernel/ftrace_mux.c): @head bytes (ENDBR) precede the
 * template's prologue, then each tracer of the set has a block of @block
 * bytes from @body, ending in a direct call, then the epilogue.  @alloc
 * bytes from the slot's start (@start - @pre) are its slot in a pack
 * (ftrace_mux_pack.c).
 */
struct arch_ftrace_mux_tramp {
	unsigned int		alloc;	/* bytes of its slot, from @start - @pre */
	unsigned int		head;	/* ENDBR at @start */
	unsigned int		body;	/* offset of the first block */
	unsigned int		block;	/* bytes per tracer */
};

/* Code in ftrace_64.S, never called: the templates. */
extern const u8 ftrace_mux_caller[], ftrace_mux_caller_body[],
	ftrace_mux_caller_body_end[], ftrace_mux_caller_end[];
extern const u8 ftrace_mux_regs_caller[], ftrace_mux_regs_caller_body[],
	ftrace_mux_regs_caller_body_end[], ftrace_mux_regs_caller_end[],
	ftrace_mux_regs_caller_jmp[];
extern const u8 ftrace_mux_direct_caller[], ftrace_mux_direct_caller_body[],
	ftrace_mux_direct_caller_body_end[], ftrace_mux_direct_caller_end[],
	ftrace_mux_direct_caller_jmp[];
/* In ftrace_mux_64.S */
extern const u8 ftrace_mux_detour_caller[], ftrace_mux_detour_caller_body[],
	ftrace_mux_detour_caller_body_end[], ftrace_mux_detour_caller_end[];

/*
 * A detour's or site's jump entry (the template ftrace_mux_detour_jump in
 * ftrace_mux_64.S), @alloc bytes at @text in a pack; its call, at
 * @text + @call, calls @target.
 */
struct ftrace_mux_jump {
	void			*text;
	void			*target;
	unsigned int		alloc;
	unsigned int		call;
};

extern const u8 ftrace_mux_detour_jump[], ftrace_mux_detour_jump_at[],
	ftrace_mux_detour_jump_parent[], ftrace_mux_detour_jump_ip[],
	ftrace_mux_detour_jump_data[], ftrace_mux_detour_jump_call[],
	ftrace_mux_detour_jump_call_end[], ftrace_mux_detour_jump_end[];

/* ftrace_mux_pack.c: where trampolines' text lives */
void *ftrace_mux_pack_alloc(unsigned int size);
void ftrace_mux_pack_write(void *text, const void *code, unsigned int len);
void ftrace_mux_pack_free(void *text, unsigned int size);
unsigned long ftrace_mux_pack_bytes(void);

#endif /* _ASM_X86_FTRACE_MUX_H */
