// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux detours: which kernel functions the tracers' own paths reach.
 *
 * A detour is a kprobe, and a tracer it calls must never run into a
 * detoured function while kprobes handles a hit on this CPU: a hit while
 * kprobes single-steps is a BUG() ("Unrecoverable kprobe detected"), and
 * tracers run in that window whenever they trace kprobes' own functions
 * (the function tracer on every function).  Kprobe events avoid the question
 * by refusing kprobe events on functions without an fentry call unless
 * CONFIG_KPROBE_EVENTS_ON_NOTRACE; most of those are out-of-line copies
 * of inline functions (every __do_sys_*()), which is what users most want
 * to trace.  Detours take them, but not what the tracers' paths reach.
 *
 * Those paths start in the tracing core (the text between the markers
 * ftrace_mux_text_start() and _end(): tracers' callbacks, the ring
 * buffer, the trace clocks, fgraph's return hook), in ftrace's entry code
 * and in kprobes' handlers (the architecture's arch_ftrace_mux_reach_roots[]).
 * From there, every function they call or jump to directly is found by
 * decoding its live text (arch_ftrace_mux_decode()), and so on until
 * nothing new is found: the closure is computed once, at the first
 * detour on kernel text, and kept (the kernel's text does not grow;
 * module functions are always allowed, no tracer path calls them).
 *
 * What a direct-call walk cannot see: indirect calls made outside the
 * tracing core (a BPF program's helpers, a module's ftrace_ops callback),
 * a static call retargeted after the walk, and NMI handlers that trace
 * while kprobes single-steps.  Those are left to the run-time guard of
 * the detour's handler, which drops a nested hit (as kprobes drops a hit
 * while its own handler runs).
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/ftrace_mux.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/xarray.h>
#include <asm/sections.h>

#include "ftrace_mux_detour.h"

/* Functions found, by offset from _stext; and the ones still to decode */
static DEFINE_XARRAY(ftrace_mux_reach);
static unsigned long *ftrace_mux_reach_todo;
static unsigned int ftrace_mux_reach_nr_todo, ftrace_mux_reach_max_todo;
static bool ftrace_mux_reach_done;
static DEFINE_MUTEX(ftrace_mux_reach_mutex);

/* For the log line: functions in the closure, bytes not decoded */
static unsigned long ftrace_mux_reach_funcs, ftrace_mux_reach_undecoded;

/*
 * Add the function holding @addr, if kernel text and not seen yet.
 * Returns 0 or -ENOMEM.
 */
static int ftrace_mux_reach_add(unsigned long addr)
{
	unsigned long size, off, *todo;
	unsigned int max;
	int ret;

	if (!core_kernel_text(addr))
		return 0;
	if (!kallsyms_lookup_size_offset(addr, &size, &off))
		return 0;
	addr -= off;
	ret = xa_insert(&ftrace_mux_reach, addr - (unsigned long)_stext,
			xa_mk_value(0), GFP_KERNEL);
	if (ret == -EBUSY)
		return 0;
	if (ret)
		return ret;
	ftrace_mux_reach_funcs++;
	if (ftrace_mux_reach_nr_todo == ftrace_mux_reach_max_todo) {
		max = max(1024U, 2 * ftrace_mux_reach_max_todo);
		todo = kvrealloc(ftrace_mux_reach_todo, max * sizeof(*todo),
				 GFP_KERNEL);
		if (!todo)
			return -ENOMEM;
		ftrace_mux_reach_todo = todo;
		ftrace_mux_reach_max_todo = max;
	}
	ftrace_mux_reach_todo[ftrace_mux_reach_nr_todo++] = addr;
	return 0;
}

/*
 * Decode the function at @func and add every function it leads to: those
 * it calls or jumps to, and the next symbol if it runs into it (an
 * assembly routine's inner labels, a C function falling into its .cold
 * part are separate symbols to kallsyms).
 */
static int ftrace_mux_reach_walk(unsigned long func)
{
	unsigned long size, off;
	int ret;

	if (!kallsyms_lookup_size_offset(func, &size, &off))
		return 0;
	ret = arch_ftrace_mux_decode(func, func + size, ftrace_mux_reach_add,
				     &ftrace_mux_reach_undecoded);
	if (ret == 1)
		ret = ftrace_mux_reach_add(func + size);
	cond_resched();
	return ret;
}

static int ftrace_mux_reach_compute(void)
{
	unsigned long start = (unsigned long)ftrace_mux_text_start;
	unsigned long end = (unsigned long)ftrace_mux_text_end;
	unsigned long addr, size, off;
	unsigned int i;
	int ret = 0;

	for (addr = start; addr < end && !ret; addr += size - off) {
		if (!kallsyms_lookup_size_offset(addr, &size, &off) || !size) {
			size = 1;
			off = 0;
			continue;
		}
		ret = ftrace_mux_reach_add(addr);
	}
	for (i = 0; arch_ftrace_mux_reach_roots[i] && !ret; i++) {
		addr = kallsyms_lookup_name(arch_ftrace_mux_reach_roots[i]);
		if (addr)
			ret = ftrace_mux_reach_add(addr);
	}
	while (ftrace_mux_reach_nr_todo && !ret) {
		addr = ftrace_mux_reach_todo[--ftrace_mux_reach_nr_todo];
		ret = ftrace_mux_reach_walk(addr);
	}
	kvfree(ftrace_mux_reach_todo);
	ftrace_mux_reach_todo = NULL;
	ftrace_mux_reach_nr_todo = 0;
	ftrace_mux_reach_max_todo = 0;
	if (ret) {
		/* Try again next time, from scratch */
		xa_destroy(&ftrace_mux_reach);
		ftrace_mux_reach_funcs = 0;
		ftrace_mux_reach_undecoded = 0;
		return ret;
	}
	pr_info("detours: %lu kernel functions reachable from the tracers' paths (%lu bytes not decoded)\n",
		ftrace_mux_reach_funcs, ftrace_mux_reach_undecoded);
	return 0;
}

/**
 * ftrace_mux_detour_reachable - can a tracer's path reach a function?
 * @func: the start of a kernel function
 *
 * May sleep.
 *
 * Return: 1 if the tracers' own code can reach @func, 0 if not, or
 * -ENOMEM.
 */
int ftrace_mux_detour_reachable(unsigned long func)
{
	int ret = 0;

	if (!core_kernel_text(func))
		return 0;
	mutex_lock(&ftrace_mux_reach_mutex);
	if (!ftrace_mux_reach_done) {
		ret = ftrace_mux_reach_compute();
		ftrace_mux_reach_done = !ret;
	}
	mutex_unlock(&ftrace_mux_reach_mutex);
	if (ret)
		return ret;
	return xa_load(&ftrace_mux_reach, func - (unsigned long)_stext) ? 1 : 0;
}

/* CALL_PADDING's __pfx_ and kCFI's __cfi_ symbols, before a function */
static bool ftrace_mux_sym_is_prefix(const char *name)
{
	return str_has_prefix(name, "__pfx_") || str_has_prefix(name, "__cfi_");
}

/**
 * ftrace_mux_detour_is_entry - is a symbol a place calls enter?
 * @func: the symbol's address
 *
 * Rather than a label the code before it runs into (an assembly
 * routine's inner label)?  A detour there would take whatever is on the
 * stack for a return address, and function_graph would replace it.
 *
 * Return: true if calls enter at @func.
 */
bool ftrace_mux_detour_is_entry(unsigned long func)
{
	char name[KSYM_NAME_LEN];
	unsigned long size, off, prev, undecoded = 0;
	char *modname;
	bool probed, entry;

	/* A prefix itself is not entered (but by a call depth thunk) */
	if (!lookup_symbol_name(func, name) && ftrace_mux_sym_is_prefix(name))
		return false;
	/* The symbol right before, with its name */
	if (!kallsyms_lookup(func - 1, &size, &off, &modname, name))
		return true;
	prev = func - 1 - off;
	/* Not the symbol right before: another module's, say */
	if (prev + size != func)
		return true;
	/*
	 * The function's own prefix: padding, a hash or FineIBT's preamble,
	 * which does run into the function, but only as a way in.
	 */
	if (ftrace_mux_sym_is_prefix(name))
		return true;
	/*
	 * A kprobe at the entry of the symbol before (another detour)
	 * changed its first instruction: it is a function, entered there,
	 * and its text no longer decodes as built.  Take @func's word.
	 */
	rcu_read_lock();
	/* (where kprobes puts it: after an ENDBR, say) */
	probed = get_kprobe((void *)prev) ||
		 get_kprobe(arch_adjust_kprobe_addr(prev, 0, &entry));
	rcu_read_unlock();
	if (probed)
		return true;
	return arch_ftrace_mux_decode(prev, func, NULL, &undecoded) == 0;
}
