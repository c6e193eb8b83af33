/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FTRACE_MUX_H
#define _ASM_X86_FTRACE_MUX_H

#include <linux/list.h>
#include <linux/types.h>

struct ftrace_mux_call;
struct ftrace_mux_set;
struct ftrace_regs;

/* What a set's trampoline is called from, and so how it is made */
enum ftrace_mux_flavour {
	FTRACE_MUX_FENTRY,		/* a call site, ftrace_regs */
	FTRACE_MUX_FENTRY_REGS,		/* a call site, full pt_regs */
	FTRACE_MUX_FENTRY_DIRECT,	/* ftrace_regs, then a direct call */
	FTRACE_MUX_DETOUR,		/* a detour's handler, as a C function */
	FTRACE_MUX_FLAVOURS
};

/* The type of a detour trampoline, the type its kCFI preamble carries */
typedef void (*ftrace_mux_detour_fn)(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_regs *fregs);

/*
 * A trampoline made for one set of tracers (arch/x86/kernel/ftrace_mux.c):
 * the template's prologue, then for each tracer of the set, in ID order,
 * a block of @block bytes ending in a direct call, then the epilogue.  A
 * detour's is called indirectly: a CFI preamble of @pre bytes precedes
 * @start, and @head bytes (ENDBR) precede the prologue.  @alloc bytes
 * from @start - @pre are its slot in a pack (ftrace_mux_pack.c).
 */
struct ftrace_mux_tramp {
	struct list_head	list;	/* all trampolines, RCU for unwinders */
	struct ftrace_mux_set	*set;	/* the set it serves */
	unsigned long		start;	/* what is called */
	unsigned int		size;	/* bytes of code from @start */
	unsigned int		alloc;	/* bytes of its slot, from @start - @pre */
	unsigned int		pre;	/* CFI preamble before @start */
	unsigned int		head;	/* ENDBR at @start */
	unsigned int		nr;	/* tracers called */
	unsigned int		body;	/* offset of the first block */
	unsigned int		block;	/* bytes per tracer */
	enum ftrace_mux_flavour	flavour;
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
 * A detour's jump entry (the template ftrace_mux_detour_jump in
 * ftrace_mux_64.S), @alloc bytes at @text in a pack; its call, at
 * @text + @call, calls @target.
 */
struct ftrace_mux_jump {
	void			*text;
	void			*target;
	unsigned int		alloc;
	unsigned int		call;
};

extern const u8 ftrace_mux_detour_jump[], ftrace_mux_detour_jump_ip[],
	ftrace_mux_detour_jump_call[], ftrace_mux_detour_jump_call_end[],
	ftrace_mux_detour_jump_end[];

int arch_ftrace_mux_jump_create(struct ftrace_mux_jump *j, unsigned long func,
				void *target);
void arch_ftrace_mux_jump_set_target(struct ftrace_mux_jump *j, void *target);
void arch_ftrace_mux_jump_free(struct ftrace_mux_jump *j);
unsigned long arch_ftrace_mux_jump_orc_ip(unsigned long text, unsigned long ip);

int arch_ftrace_mux_tramp_create(struct ftrace_mux_tramp *t,
				 const struct ftrace_mux_call *calls,
				 unsigned int nr, enum ftrace_mux_flavour flavour);
void arch_ftrace_mux_tramp_set_func(struct ftrace_mux_tramp *t,
				    unsigned int i, void *func);
void arch_ftrace_mux_tramp_free(struct ftrace_mux_tramp *t);
unsigned long arch_ftrace_mux_tramp_orc_ip(const struct ftrace_mux_tramp *t,
					   unsigned long ip);
/* For the KUnit tests */
unsigned long arch_ftrace_mux_call_target(unsigned long ip);

/* ftrace_mux_pack.c: where trampolines' text lives */
void *ftrace_mux_pack_alloc(unsigned int size);
void ftrace_mux_pack_write(void *text, const void *code, unsigned int len);
void ftrace_mux_pack_free(void *text, unsigned int size);
unsigned long ftrace_mux_pack_bytes(void);

#endif /* _ASM_X86_FTRACE_MUX_H */
