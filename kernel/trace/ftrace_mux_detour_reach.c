// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux detours: which kernel functions the tracers' own paths reach.
 *
 * A detour is a kprobe, and a tracer it calls must never run into a
 * detoured function while kprobes handles a hit on this CPU: a hit while
 * kprobes single-steps is a BUG() ("Unrecoverable kprobe detected"), and
 * tracers run in that window whenever they trace kprobes' own functions
 * (the function tracer on every function).  Upstream avoids the question
 * by refusing kprobe events on functions without an fentry call unless
 * CONFIG_KPROBE_EVENTS_ON_NOTRACE; most of those are out-of-line copies
 * of inline functions (every __do_sys_*()), which is what users most want
 * to trace.  Detours take them, but not what the tracers' paths reach.
 *
 * Those paths start in the tracing core (the text between the markers
 * ftrace_mux_text_start() and _end(): tracers' callbacks, the ring
 * buffer, the trace clocks, fgraph's return hook), in ftrace's entry code
 * and in kprobes' handlers.  From there, every function they call or
 * jump to directly is found by decoding its live text, and so on until
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

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/xarray.h>
#include <asm/insn.h>
#include <asm/sections.h>

#include "ftrace_mux_detour.h"

/*
 * Entry points of the tracers' paths outside kernel/trace, by name (some
 * are static or assembly); names this kernel lacks are skipped.
 */
static const char * const ftrace_mux_reach_roots[] = {
	/* ftrace's callers and return hook (ftrace_64.S) */
	"ftrace_caller", "ftrace_regs_caller", "ftrace_stub",
	"ftrace_stub_graph", "return_to_handler", "__fentry__",
	"ftrace_mux_caller", "ftrace_mux_regs_caller",
	"ftrace_mux_detour_caller",
	/* kprobes' paths to a handler, and back */
	"kprobe_int3_handler", "kprobe_debug_handler", "optimized_callback",
	"kprobe_fault_handler", "kprobe_exceptions_notify",
	"kprobe_busy_begin", "kprobe_busy_end",
};

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
 * Where the instruction at @ip, decoded as @insn, calls or jumps to
 * directly, or 0: call, jmp and jcc with an immediate offset.
 */
static unsigned long ftrace_mux_reach_target(struct insn *insn, unsigned long ip)
{
	u8 op = insn->opcode.bytes[0];

	switch (op) {
	case 0xe8:		/* call rel32 */
	case 0xe9:		/* jmp rel32 */
	case 0xeb:		/* jmp rel8 */
	case 0x70 ... 0x7f:	/* jcc rel8 */
		break;
	case 0x0f:		/* jcc rel32 */
		if ((insn->opcode.bytes[1] & 0xf0) != 0x80)
			return 0;
		break;
	default:
		return 0;
	}
	return ip + insn->length + insn->immediate.value;
}

/* Padding between functions: NOPs and int3 */
static bool ftrace_mux_insn_pad(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];

	return op == 0x90 || op == INT3_INSN_OPCODE ||
	       (op == 0x0f && insn->opcode.bytes[1] == 0x1f);
}

/*
 * Is @insn, at @ip, a jump over int3s only?  Alternatives that were not
 * applied leave their NOPs, and a long run of them becomes such a jump
 * (add_nop()): it is padding, not the end of the flow.
 */
static bool ftrace_mux_insn_nop_jmp(struct insn *insn, unsigned long ip)
{
	u8 op = insn->opcode.bytes[0];
	unsigned long p, dest;

	if (op != 0xeb && op != 0xe9)
		return false;
	dest = ftrace_mux_reach_target(insn, ip);
	if (dest < ip + insn->length || dest - ip > 256)
		return false;
	for (p = ip + insn->length; p < dest; p++)
		if (*(u8 *)p != INT3_INSN_OPCODE)
			return false;
	return true;
}

/* Does execution never go on to the instruction after @insn? */
static bool ftrace_mux_insn_ends(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];
	int reg;

	switch (op) {
	case 0xc2: case 0xc3: case 0xca: case 0xcb:	/* ret, lret */
	case 0xcf:					/* iret */
	case 0xe9: case 0xeb:				/* jmp */
		return true;
	case 0xff:					/* jmp *, ljmp * */
		reg = X86_MODRM_REG(insn->modrm.bytes[0]);
		return reg == 4 || reg == 5;
	case 0x0f:					/* ud2, sysret */
		return insn->opcode.bytes[1] == 0x0b || insn->opcode.bytes[1] == 0x07;
	}
	return false;
}

/*
 * Decode [@from, @to); call @found(@data, target) for every direct branch
 * leaving it.  Returns the first error of @found, 1 if execution can run
 * off the end into what follows (the last instruction but padding does
 * not end the flow, or the last one straddles @to), or 0.
 */
static int ftrace_mux_decode(unsigned long from, unsigned long to,
			     int (*found)(unsigned long))
{
	bool open = true;
	unsigned long ip, dest;
	struct insn insn;
	int ret;

	for (ip = from; ip < to; ip += insn.length) {
		if (insn_decode_kernel(&insn, (void *)ip) < 0) {
			/*
			 * Data, or a byte the decoder does not know: go on a
			 * byte further.  What is decoded out of step can only
			 * add functions, which errs on the side of refusing.
			 */
			ftrace_mux_reach_undecoded++;
			insn.length = 1;
			open = true;
			continue;
		}
		dest = ftrace_mux_reach_target(&insn, ip);
		if (dest && found && (dest < from || dest >= to)) {
			ret = found(dest);
			if (ret)
				return ret;
		}
		if (ftrace_mux_insn_nop_jmp(&insn, ip))
			continue;
		if (ftrace_mux_insn_ends(&insn))
			open = false;
		else if (!ftrace_mux_insn_pad(&insn))
			open = true;
	}
	return open || ip != to;
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
	ret = ftrace_mux_decode(func, func + size, ftrace_mux_reach_add);
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
	for (i = 0; i < ARRAY_SIZE(ftrace_mux_reach_roots) && !ret; i++) {
		addr = kallsyms_lookup_name(ftrace_mux_reach_roots[i]);
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

/*
 * Can a tracer's path reach the kernel function at @func (its start)?
 * 1 if so, 0 if not, or -ENOMEM.  May sleep.
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

/*
 * Is the symbol at @func a place calls enter, rather than a label the
 * code before it runs into (an assembly routine's inner label)?  A
 * detour there would take whatever is on the stack for a return address,
 * and function_graph would replace it.
 */
bool ftrace_mux_detour_is_entry(unsigned long func)
{
	char name[KSYM_NAME_LEN];
	unsigned long size, off, prev;
	char *modname;
	bool probed;

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
	/* (after the ENDBR, when kprobes skips it) */
	probed = get_kprobe((void *)prev) || get_kprobe((void *)prev + 4);
	rcu_read_unlock();
	if (probed)
		return true;
	return ftrace_mux_decode(prev, func, NULL) == 0;
}
