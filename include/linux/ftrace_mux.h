/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: one call site serving several function tracers.
 *
 * What an architecture implements and code outside kernel/trace sees of
 * it: the trampoline of a set and the calls it is made from, and the
 * unwinder's question.  The hooks of the ftrace core are in
 * kernel/trace/ftrace_mux.h.
 *
 * See Documentation/trace/ftrace-mux.rst.
 */
#ifndef _LINUX_FTRACE_MUX_H
#define _LINUX_FTRACE_MUX_H

#include <linux/list.h>
#include <linux/types.h>

struct fgraph_users;
struct ftrace_ops;
struct ftrace_regs;
struct ftrace_mux_set;

#ifdef CONFIG_FTRACE_MUX
#include <asm/ftrace_mux.h>

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
 * The trampoline made for one set of tracers and one @flavour, calling
 * its @nr tracers in ID order (kernel/trace/ftrace_mux_tramp.c).  The
 * architecture makes its code (arch_ftrace_mux_tramp_create()) and fills
 * @start, @size, @pre and @arch: a detour's is called indirectly, so a
 * CFI preamble of @pre bytes may precede @start.
 */
struct ftrace_mux_tramp {
	struct list_head	list;	/* all trampolines, RCU for unwinders */
	struct ftrace_mux_set	*set;	/* the set it serves */
	unsigned int		nr;	/* tracers called */
	enum ftrace_mux_flavour	flavour;
	unsigned long		start;	/* what is called */
	unsigned int		size;	/* bytes of code from @start */
	unsigned int		pre;	/* CFI preamble before @start */
	struct fgraph_users	*users;	/* the fgraph users it enters */
	struct arch_ftrace_mux_tramp arch;
};

/*
 * For one ID: what trampolines are made to call, and detours call.  A
 * trampoline's call passes @ops, or @arg if set (the list of fgraph's
 * users that one call enters, kernel/trace/ftrace_mux_graph.c).
 */
struct ftrace_mux_call {
	struct ftrace_ops	*ops;
	void			(*func)(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *op,
					struct ftrace_regs *fregs);
	void			*arg;
};

/*
 * What the architecture implements: the code of a set's trampoline, and
 * what the text says for the checks and the tests.
 */

/**
 * arch_ftrace_mux_tramp_create - make the code of a set's trampoline
 * @t: the trampoline, with its @flavour and @nr; the architecture fills
 *     @start, @size, @pre and @arch
 * @calls: what its @nr blocks call, one per tracer of the set, in ID order
 *
 * Under text_mutex.
 *
 * Return: 0, or a negative errno.
 */
int arch_ftrace_mux_tramp_create(struct ftrace_mux_tramp *t,
				 const struct ftrace_mux_call *calls);

/**
 * arch_ftrace_mux_tramp_set_func - re-point one call of a trampoline
 * @t: the trampoline, which CPUs may be running
 * @i: the block of its @i-th tracer
 * @func: what that block calls from now on
 *
 * As ftrace re-points an ops' own trampoline.  Under text_mutex.
 */
void arch_ftrace_mux_tramp_set_func(struct ftrace_mux_tramp *t,
				    unsigned int i, void *func);

/**
 * arch_ftrace_mux_tramp_free - free the code of a trampoline
 * @t: the trampoline, which no CPU can be in or reach any more
 *
 * Under text_mutex.
 */
void arch_ftrace_mux_tramp_free(struct ftrace_mux_tramp *t);

/**
 * arch_ftrace_mux_tramp_orc_ip - where an unwinder finds a trampoline's
 *                                unwind data
 * @t: the trampoline
 * @ip: an address in it
 *
 * From any context.
 *
 * Return: the ip of the template whose unwind data holds at @ip of @t,
 * or 0 if @ip is not in @t.
 */
unsigned long arch_ftrace_mux_tramp_orc_ip(const struct ftrace_mux_tramp *t,
					   unsigned long ip);

/**
 * arch_ftrace_mux_call_target - what the call at an fentry site calls
 * @ip: the site
 *
 * Read from the text, for function_tracers' check that a site is what its
 * record says, and the tests.  Under ftrace_lock.
 *
 * Return: the target, or 0 if @ip holds no call.
 */
unsigned long arch_ftrace_mux_call_target(unsigned long ip);

/**
 * arch_ftrace_mux_site_is_nop - is an fentry site the nop ftrace writes
 * @ip: the site
 *
 * Under ftrace_lock.
 *
 * Return: true if @ip holds the nop of a site that calls nothing.
 */
bool arch_ftrace_mux_site_is_nop(unsigned long ip);

/**
 * arch_ftrace_mux_tramp_calls - what a trampoline's block does, for the tests
 * @t: the trampoline
 * @i: the block of its @i-th tracer
 * @func: the function the block is expected to call
 * @ops: set to the ops the block passes
 *
 * Under ftrace_lock.
 *
 * Return: true if the block calls @func.
 */
bool arch_ftrace_mux_tramp_calls(const struct ftrace_mux_tramp *t, unsigned int i,
				 void *func, unsigned long *ops);

/**
 * arch_ftrace_mux_decode - where a range of live kernel text leads
 * @from: its start
 * @to: its end
 * @found: called with the target of every direct call or jump leaving the
 *         range, or NULL
 * @undecoded: incremented by the bytes that do not decode
 *
 * For the reach rule of detours (kernel/trace/ftrace_mux_detour_reach.c).
 *
 * Return: the first error of @found, 1 if execution can run off the end
 * into what follows, or 0.
 */
int arch_ftrace_mux_decode(unsigned long from, unsigned long to,
			   int (*found)(unsigned long), unsigned long *undecoded);

/*
 * Where the tracers' paths start outside kernel/trace (ftrace's entry
 * code, kprobes' handlers), by name; NULL-terminated.
 */
extern const char * const arch_ftrace_mux_reach_roots[];

/**
 * arch_ftrace_mux_jump_create - make a detour's or a site's jump entry
 * @j: the entry (struct ftrace_mux_jump is the architecture's)
 * @at: the probed address
 * @ip: what the entry hands its target as ip: @at for a detour on a
 *      function's entry, whose parent_ip is the return address there;
 *      else the traced function, and @at, a site of an inlined copy of
 *      it, is parent_ip and the pt_regs' ip
 * @data: handed to the target as a fourth argument (fallbacks use it)
 * @target: what the entry calls
 *
 * Under text_mutex.
 *
 * Return: 0, or a negative errno.
 */
int arch_ftrace_mux_jump_create(struct ftrace_mux_jump *j, unsigned long at,
				unsigned long ip, void *data, void *target);

/**
 * arch_ftrace_mux_jump_set_target - re-point a jump entry's call
 * @j: the entry, which CPUs may be running
 * @target: what it calls from now on
 *
 * Under text_mutex.
 */
void arch_ftrace_mux_jump_set_target(struct ftrace_mux_jump *j, void *target);

/**
 * arch_ftrace_mux_jump_free - free a jump entry
 * @j: the entry, which no CPU can be in or reach any more
 *
 * Under text_mutex.
 */
void arch_ftrace_mux_jump_free(struct ftrace_mux_jump *j);

/**
 * arch_ftrace_mux_jump_orc_ip - where an unwinder finds a jump entry's
 *                               unwind data
 * @text: the entry
 * @ip: an address in it
 *
 * From any context.
 *
 * Return: the ip of the template whose unwind data holds at @ip.
 */
unsigned long arch_ftrace_mux_jump_orc_ip(unsigned long text, unsigned long ip);

/* For the unwinder: the template ip that @ip in a trampoline unwinds as. */
unsigned long ftrace_mux_tramp_orc_ip(unsigned long ip);
#else
static inline unsigned long ftrace_mux_tramp_orc_ip(unsigned long ip)
{
	return 0;
}
#endif /* CONFIG_FTRACE_MUX */
#endif /* _LINUX_FTRACE_MUX_H */
