// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux detours: tracing functions that have no fentry call.
 *
 * A detour is a kprobe at the function's entry, with a pre-handler only,
 * so kprobes replaces it with a jump to an out-of-line buffer when it can
 * (optprobes) and keeps the int3 where it cannot.  kprobes already knows
 * instruction boundaries, jumps into the replaced bytes, CPUs sitting in
 * them, its blacklist and when buffers may be freed: detours add no
 * instruction handling of their own.
 *
 * The function gets a dyn_ftrace record in a page of ftrace's own that is
 * never patched (ftrace_detour_rec_add()), so set_ftrace_filter and
 * friends can name it and its set of tracers is kept exactly like any
 * site's.  The pre-handler reads the record's set and calls the set's
 * detour trampoline (ftrace_mux_tramp.c), made at the end of the update
 * that gave the record the set; until it is made, or if it cannot be, the
 * handler walks the set in C through the same ftrace_mux_calls[] entries.
 * Either way the function is ip, the caller parent_ip and the kprobe's
 * pt_regs the ftrace_regs: tracers need no special case.
 *
 * Once kprobes has put its jump in place, and while the detour is the
 * only probe on the function, the jump skips kprobes' handler path: the
 * buffer calls the detour's jump entry (kprobe.direct, made from the
 * template ftrace_mux_detour_jump in ftrace_mux_64.S), which saves the
 * registers as pt_regs and calls the set's trampoline directly.  Its
 * call is re-pointed at the end of every update (or to the list
 * function for a set the trampoline cannot serve, to ftrace_stub when
 * nothing traces the function), before sets are reaped.  Unwinders know
 * the entry (ftrace_mux_jump_made()): its pt_regs lead them to the
 * function and its callers.  A removed detour's entry is freed once
 * kprobes' optimizer has taken the jump out and no task can be in it
 * (RCU-tasks): ftrace_mux_detour_free_jumps().
 *
 * Locking: ftrace_mux_detour_mutex, then kprobe_mutex (inside kprobes),
 * then ftrace_lock.  kprobes takes ftrace_lock under kprobe_mutex, so
 * ftrace_lock is never held across a kprobe call here.  The list of
 * detours changes under both mutexes; either one keeps it stable.
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/trace_recursion.h>

#include "ftrace_internal.h"
#include "ftrace_mux_detour.h"
#include "ftrace_mux_sets.h"
#include "ftrace_mux_tramp.h"
#include "trace.h"

struct ftrace_mux_detour {
	struct kprobe		kp;
	/* kp.direct: no text when it could not be made */
	struct ftrace_mux_jump	jump;
	/* In ftrace's detour page; moves under ftrace_lock on removals */
	struct dyn_ftrace	*rec;
	unsigned long		func;		/* symbol address */
	struct list_head	list;
	char			name[KSYM_NAME_LEN];
	char			mod[MODULE_NAME_LEN];
};

DEFINE_MUTEX(ftrace_mux_detour_mutex);
static LIST_HEAD(ftrace_mux_detours);
unsigned int ftrace_mux_nr_detours;
/* A removed detour's jump may still await kprobes' delayed unoptimizer. */
static bool ftrace_mux_detour_unopt_pending;
/*
 * Jump entries of removed detours and sites, kept until nothing can reach
 * them, with what a fallback they call may still read (a site).  When
 * more are removed at once, the first ones are freed to make room.
 */
static struct ftrace_mux_dead_jump {
	struct ftrace_mux_jump	jump;
	void			*data;
} ftrace_mux_dead_jumps[256];
static unsigned int ftrace_mux_nr_dead_jumps;

/*
 * Where loaded modules' functions were ever detoured: filters keep naming
 * such a function after its detour is gone (they match again when it is
 * back), and must forget it with its module, as they forget the module's
 * fentry sites.  Under ftrace_mux_detour_mutex.
 */
struct ftrace_mux_detour_mod_ip {
	struct list_head	list;
	unsigned long		ip;
};
static LIST_HEAD(ftrace_mux_detour_mod_ips);

/*
 * Can function_graph hook this function's return now?  fgraph keeps the
 * returns it hooked on a per-task stack, last in first out, and the int3
 * and optprobe paths that lead here have fentry calls of their own: with
 * function_graph on those too, their hooked returns are on top, and
 * hooking the detoured function's return below them would make the first
 * of them to return pop the wrong one.  Their slots lie below the
 * function's stack pointer (same stack: #BP does not use an IST stack).
 */
#if defined(CONFIG_FUNCTION_GRAPH_TRACER) && defined(ftrace_graph_func)
static bool ftrace_mux_detour_graph_ok(struct pt_regs *regs)
{
	struct ftrace_ret_stack *top;

	/* Nothing hooked (the usual case): no call into fgraph on every hit */
	if (READ_ONCE(current->curr_ret_stack) <= 0)
		return true;
	top = ftrace_graph_get_ret_stack(current, 0);
	return !top || (unsigned long)top->retp > kernel_stack_pointer(regs);
}

/**
 * ftrace_mux_detour_is_graph - is an ops fgraph's
 * @op: the ops
 *
 * Return: whether @op is fgraph's ops, the one calling
 * ftrace_graph_func().
 */
bool ftrace_mux_detour_is_graph(struct ftrace_ops *op)
{
	return op->func == ftrace_graph_func || op->saved_func == ftrace_graph_func;
}
NOKPROBE_SYMBOL(ftrace_mux_detour_is_graph);
#else
static bool ftrace_mux_detour_graph_ok(struct pt_regs *regs)
{
	return true;
}

bool ftrace_mux_detour_is_graph(struct ftrace_ops *op)
{
	return false;
}
NOKPROBE_SYMBOL(ftrace_mux_detour_is_graph);
#endif

/**
 * ftrace_mux_detour_call - call a set's tracers for one function, in C
 * @set: the set
 * @ip: the function, as tracers see it
 * @parent_ip: where it was called from
 * @fregs: the probe's registers
 * @graph_ok: whether fgraph may hook the return (see the callers)
 * @skip: the ops flags of the tracers left out: at least IPMODIFY and
 *        OVERRIDE (an optimized kprobe cannot change ip); RETURN_HOOK and
 *        FUNC_ARGS too where this is not a function's entry
 *
 * Through the entries the trampolines are made from; fgraph's users
 * only if @graph_ok.  Preemption disabled, recursion guard taken.
 */
void ftrace_mux_detour_call(struct ftrace_mux_set *set, unsigned long ip,
			    unsigned long parent_ip, struct ftrace_regs *fregs,
			    bool graph_ok, unsigned long skip)
{
	struct ftrace_mux_call *call;
	struct ftrace_ops *op;
	ftrace_func_t func;
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		call = &ftrace_mux_calls[set->ids[i]];
		func = READ_ONCE(call->func);
		/* .ops is written before .func: smp_wmb() in ftrace_mux_ops_start() */
		smp_rmb();
		op = READ_ONCE(call->ops);
		if (!op || (op->flags & skip))
			continue;
		if (!graph_ok && ftrace_mux_detour_is_graph(op)) {
			/* Its return not hooked: fgraph's users miss the call */
			ftrace_profile_count_call(ip);
			continue;
		}
		func(ip, parent_ip, op, fregs);
	}
}
NOKPROBE_SYMBOL(ftrace_mux_detour_call);

/*
 * Called by kprobes at the function's entry, preemption disabled.  The
 * record and the tracers it names stay valid until the grace periods that
 * detour removal and ftrace_shutdown() wait for.
 */
static int ftrace_mux_detour_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct ftrace_mux_detour *d = container_of(kp, struct ftrace_mux_detour, kp);
	unsigned long flags = READ_ONCE(READ_ONCE(d->rec)->flags);
	unsigned long ip = (unsigned long)kp->addr, parent_ip, kp_ip;
	struct ftrace_regs *fregs = (struct ftrace_regs *)regs;
	struct ftrace_mux_set *set;
	ftrace_mux_detour_fn tramp;
	bool graph_ok;
	int bit;

	if (!(flags & FTRACE_FL_ENABLED))
		return 0;
	/* At the entry, the stack pointer points at the return address. */
	parent_ip = *(unsigned long *)kernel_stack_pointer(regs);
	/*
	 * The handler is a tracer callback like ftrace_caller's and takes
	 * the same recursion guard: a tracer that reaches a detoured
	 * function (a lib/ helper, say) records it once, and the functions
	 * it then runs, kprobes' single-step emulation among them, are not
	 * traced again from inside (the guard allows one transition).
	 */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return 0;
	/*
	 * The kprobe's pt_regs is what a SAVE_REGS caller hands over, but
	 * with ip past the int3; a tracer sees the function's address, as
	 * at an fentry site.  An IPMODIFY tracer cannot redirect the
	 * function here, nor an OVERRIDE one end its call (an optimized
	 * kprobe does not support changing ip): they are left out, and ip
	 * is put back for kprobes.
	 */
	kp_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, ip);
	set = ftrace_mux_rec_tracers(flags);
	graph_ok = ftrace_mux_detour_graph_ok(regs);
	/* Not graph_ok: the list function would call fgraph too */
	if (ftrace_mux_set_complete(set, flags & FTRACE_REF_MAX) || !graph_ok) {
		/* Its trampoline calls fgraph too: only when graph_ok */
		tramp = set && graph_ok ? smp_load_acquire(&set->detour) : NULL;
		if (tramp)
			tramp(ip, parent_ip, fregs);
		else if (set)
			ftrace_mux_detour_call(set, ip, parent_ip, fregs, graph_ok,
					       FTRACE_OPS_FL_IPMODIFY |
					       FTRACE_OPS_FL_OVERRIDE);
	} else {
		/* A tracer without an ID: all of them through the list function */
		arch_ftrace_ops_list_func(ip, parent_ip, NULL, fregs);
	}
	instruction_pointer_set(regs, kp_ip);
	ftrace_test_recursion_unlock(bit);
	return 0;
}
NOKPROBE_SYMBOL(ftrace_mux_detour_pre);

/**
 * ftrace_mux_kprobe_state - how a detour's kprobe is entered
 * @kp: the kprobe
 *
 * Return: "jump" once kprobes has put the jump in place, "int3" before
 * (kprobes flags a probe optimized when it queues it for its delayed
 * optimizer) or instead.
 */
const char *ftrace_mux_kprobe_state(struct kprobe *kp)
{
	struct kprobe *p;
	bool jump;

	rcu_read_lock();
	p = get_kprobe(kp->addr);
	jump = p && kprobe_optimized(p) && !kprobe_queued(p);
	rcu_read_unlock();
	return jump ? "jump" : "int3";
}

/**
 * ftrace_mux_detour_tramp - make the detour trampoline of a record's set
 * @rec: a detour's record, or the record of a function with sites
 *
 * At the end of an update and when a detour or site is added.  Sets
 * without one are walked in C, so this may come late, or fail.
 * Trampolines are written under text_mutex, as ftrace patches sites;
 * no caller holds it.  Under ftrace_lock.
 */
void ftrace_mux_detour_tramp(struct dyn_ftrace *rec)
{
	struct ftrace_mux_set *set = ftrace_mux_rec_tracers(rec->flags);

	lockdep_assert_held(&ftrace_lock);
	/*
	 * Nothing traces the function: the empty set is static and never
	 * reaped, so a trampoline made for it would stay for good.
	 */
	if (!(rec->flags & FTRACE_FL_ENABLED) || !set || !set->nr)
		return;
	mutex_lock(&text_mutex);
	ftrace_mux_set_tramp(set, FTRACE_MUX_DETOUR);
	mutex_unlock(&text_mutex);
}

/*
 * The jump path's fallback, for a set its trampoline cannot serve (a
 * tracer without an ID, or no trampoline made): every tracer the way
 * the list function calls it.  It takes the recursion guard and disables
 * preemption itself.
 */
static void ftrace_mux_detour_list(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_regs *fregs)
{
	arch_ftrace_ops_list_func(ip, parent_ip, NULL, fregs);
}
NOKPROBE_SYMBOL(ftrace_mux_detour_list);

/*
 * Has @set a member that only a call of the function can serve: one that
 * hooks its return (fgraph's manager, a kretprobe's or an fprobe's) or
 * takes its arguments from the registers (a BPF program's)?  Under
 * ftrace_lock.
 */
static bool ftrace_mux_set_needs_call(struct ftrace_mux_set *set)
{
	struct ftrace_ops *op;
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		op = ftrace_mux_calls[set->ids[i]].ops;
		if (op && (ftrace_mux_detour_is_graph(op) ||
			   (op->flags & (FTRACE_OPS_FL_RETURN_HOOK |
					 FTRACE_OPS_FL_FUNC_ARGS))))
			return true;
	}
	return false;
}

/**
 * ftrace_mux_jump_target - what a jump entry calls for a record
 * @flags: the record's flags
 * @entry: whether the entry is at a function's entry, where tracers may
 *         hook its return (a detour), or not (a site of an inlined copy)
 * @fallback: what to call where that trampoline cannot serve (a tracer
 *            without an ID, none made, or, not at an @entry, one that
 *            hooks the return or reads the arguments)
 *
 * Under ftrace_lock.
 *
 * Return: ftrace_stub when nothing traces the function, else the set's
 * detour trampoline or @fallback.
 */
void *ftrace_mux_jump_target(unsigned long flags, bool entry, void *fallback)
{
	struct ftrace_mux_set *set;

	lockdep_assert_held(&ftrace_lock);
	if (!(flags & FTRACE_FL_ENABLED))
		return ftrace_stub;
	set = ftrace_mux_rec_tracers(flags);
	if (!ftrace_mux_set_complete(set, flags & FTRACE_REF_MAX) || !set->detour ||
	    (!entry && ftrace_mux_set_needs_call(set)))
		return fallback;
	return set->detour;
}

/* What @d's jump entry should call now.  Under ftrace_lock. */
static void *ftrace_mux_detour_target(struct ftrace_mux_detour *d)
{
	return ftrace_mux_jump_target(d->rec->flags, true, ftrace_mux_detour_list);
}

/*
 * Point @d's jump entry at what its record wants called now.  Under
 * ftrace_lock, and text_mutex.
 */
static void ftrace_mux_detour_repoint(struct ftrace_mux_detour *d)
{
	if (d->jump.text)
		arch_ftrace_mux_jump_set_target(&d->jump, ftrace_mux_detour_target(d));
}

/**
 * ftrace_mux_detours_repoint - re-point the detours after an update
 *
 * Called with ftrace_lock held at the end of ftrace_run_update_code(),
 * through ftrace_mux_detours_update_done(): each detour calls its
 * record's set again, through the set's trampoline or, for one tracer,
 * that tracer.
 */
void ftrace_mux_detours_repoint(void)
{
	struct ftrace_mux_detour *d;

	lockdep_assert_held(&ftrace_lock);
	/* After a failed update, leave everything as it is (see ftrace_mux.c) */
	if (ftrace_is_dead())
		return;
	list_for_each_entry(d, &ftrace_mux_detours, list)
		ftrace_mux_detour_tramp(d->rec);
	mutex_lock(&text_mutex);
	list_for_each_entry(d, &ftrace_mux_detours, list)
		ftrace_mux_detour_repoint(d);
	mutex_unlock(&text_mutex);
}

/**
 * ftrace_mux_detour_free_jumps - free the jump entries of removed detours
 *
 * kprobes' optimizer takes a removed probe's jump out after a delay, then
 * waits for RCU-tasks; and a probe unoptimized at once (kprobes disarmed)
 * may still have a task preempted in a tracer called from the entry.
 * Sleeps; under ftrace_mux_detour_mutex.
 */
void ftrace_mux_detour_free_jumps(void)
{
	struct ftrace_mux_jump *j;
	unsigned int i;

	lockdep_assert_held(&ftrace_mux_detour_mutex);
	if (!ftrace_mux_nr_dead_jumps)
		return;
	wait_for_kprobe_optimizer();
	ftrace_mux_detour_unopt_pending = false;
	synchronize_rcu_tasks();
	mutex_lock(&ftrace_lock);
	mutex_lock(&text_mutex);
	for (i = 0; i < ftrace_mux_nr_dead_jumps; i++) {
		j = &ftrace_mux_dead_jumps[i].jump;
		ftrace_mux_jump_gone(j->text, j->alloc);
		arch_ftrace_mux_jump_free(j);
	}
	mutex_unlock(&text_mutex);
	mutex_unlock(&ftrace_lock);
	for (i = 0; i < ftrace_mux_nr_dead_jumps; i++)
		kfree(ftrace_mux_dead_jumps[i].data);
	ftrace_mux_nr_dead_jumps = 0;
}

/**
 * ftrace_mux_detour_find - the detour of a function, by address
 * @func: the function's address
 *
 * Under ftrace_mux_detour_mutex or ftrace_lock.
 *
 * Return: the detour, or NULL.
 */
struct ftrace_mux_detour *ftrace_mux_detour_find(unsigned long func)
{
	struct ftrace_mux_detour *d;

	list_for_each_entry(d, &ftrace_mux_detours, list)
		if (d->func == func)
			return d;
	return NULL;
}

/**
 * ftrace_mux_detour_rec - where a detour's record is now
 * @d: the detour
 *
 * The record moves when another detour's goes (ftrace_mux_detour_remove());
 * a caller not holding ftrace_lock reads it with preemption disabled, and
 * the slot stays unused until that has ended.
 *
 * Return: the record.
 */
struct dyn_ftrace *ftrace_mux_detour_rec(struct ftrace_mux_detour *d)
{
	return READ_ONCE(d->rec);
}
NOKPROBE_SYMBOL(ftrace_mux_detour_rec);

/**
 * ftrace_mux_detour_func - the function a detour traces
 * @d: the detour
 *
 * Return: its address.
 */
unsigned long ftrace_mux_detour_func(struct ftrace_mux_detour *d)
{
	return d->func;
}

/**
 * ftrace_mux_detour_find_name - the detour of a function, by name
 * @sym: the name it is listed with, "SYMBOL" or "MODULE:SYMBOL"
 *
 * Under ftrace_mux_detour_mutex.
 *
 * Return: the detour, or NULL.
 */
struct ftrace_mux_detour *ftrace_mux_detour_find_name(const char *sym)
{
	const char *colon = strchr(sym, ':');
	struct ftrace_mux_detour *d;
	size_t modlen = colon ? colon - sym : 0;

	list_for_each_entry(d, &ftrace_mux_detours, list) {
		if (colon && (strlen(d->mod) != modlen || strncmp(d->mod, sym, modlen)))
			continue;
		if (!strcmp(d->name, colon ? colon + 1 : sym))
			return d;
	}
	return NULL;
}

static int ftrace_mux_count_sym(void *data, unsigned long unused)
{
	(*(unsigned int *)data)++;
	return 0;
}

struct ftrace_mux_sym_count {
	const char	*name;
	unsigned int	count;
};

static int ftrace_mux_count_mod_sym(void *data, const char *name,
				    unsigned long unused)
{
	struct ftrace_mux_sym_count *c = data;

	if (!strcmp(name, c->name))
		c->count++;
	return 0;
}

/* How many functions @sym ("SYMBOL" or "MODULE:SYMBOL") may name. */
static unsigned int ftrace_mux_sym_count(const char *sym)
{
	struct ftrace_mux_sym_count c = { .name = sym };
	char modname[MODULE_NAME_LEN];
	const char *colon = strchr(sym, ':');
	const char *mod = NULL;

	if (colon) {
		if (colon - sym >= MODULE_NAME_LEN)
			return 0;
		strscpy(modname, sym, colon - sym + 1);
		mod = modname;
		c.name = colon + 1;
	} else {
		kallsyms_on_each_match_symbol(ftrace_mux_count_sym, sym, &c.count);
	}
	module_kallsyms_on_each_symbol(mod, ftrace_mux_count_mod_sym, &c);
	return c.count;
}

/**
 * ftrace_mux_detour_resolve - the address of a function that may be probed
 * @sym: "SYMBOL" or "MODULE:SYMBOL"
 * @func: set to its address
 * @why: set to the reason of a refusal (enum ftrace_mux_detour_why)
 *
 * The symbol must name one function, in kernel text or a live module's
 * text other than init text.
 *
 * Return: 0, or a negative errno.
 */
int ftrace_mux_detour_resolve(const char *sym, unsigned long *func, int *why)
{
	unsigned long addr, size, offset;

	*why = DETOUR_ERR_NO_SYMBOL;
	addr = kallsyms_lookup_name(sym);
	if (!addr)
		return -ENOENT;
	*why = DETOUR_ERR_AMBIGUOUS;
	if (ftrace_mux_sym_count(sym) > 1)
		return -EADDRNOTAVAIL;
	*why = DETOUR_ERR_NOT_TEXT;
	if (!kallsyms_lookup_size_offset(addr, &size, &offset) || offset)
		return -EINVAL;
	if (!core_kernel_text(addr) || is_kernel_inittext(addr)) {
		struct module *mod;
		bool ok;

		preempt_disable();
		mod = __module_text_address(addr);
		ok = mod && !within_module_init(addr, mod) && module_is_live(mod);
		preempt_enable();
		if (!ok)
			return -EINVAL;
	}
	*func = addr;
	return 0;
}

/**
 * ftrace_mux_detour_safe - may a probe that calls tracers go there?
 * @addr: where the probe goes
 * @func: the function that holds it
 * @why: set to the reason of a refusal (enum ftrace_mux_detour_why)
 *
 * Return: 0, or a negative errno.
 */
int ftrace_mux_detour_safe(unsigned long addr, unsigned long func, int *why)
{
	int ret;

	*why = DETOUR_ERR_UNSAFE;
	if (within_kprobe_blacklist(addr))
		return -EPERM;
	/*
	 * Many kernel functions without an fentry call are notrace because
	 * tracers run them (the tracing core, and the lib/ helpers it calls,
	 * such as find_next_bit() in fgraph's path), and a tracer that runs
	 * into a probe while kprobes handles one makes kprobes BUG().  A
	 * detour calls tracers: it refuses the tracing core, and any kernel
	 * function the tracers' own code reaches (ftrace_mux_detour_reach.c).
	 * Module functions are not in a tracer's path.
	 */
	*why = DETOUR_ERR_TRACING;
	if (addr >= (unsigned long)ftrace_mux_text_start &&
	    addr < (unsigned long)ftrace_mux_text_end)
		return -EPERM;
	*why = DETOUR_ERR_REACHED;
	ret = ftrace_mux_detour_reachable(func);
	if (ret > 0)
		return -EPERM;
	*why = DETOUR_ERR_NOMEM;
	return ret;
}

/**
 * ftrace_mux_detour_vet - resolve and vet a function for a new detour
 * @sym: "SYMBOL" or "MODULE:SYMBOL"
 * @func: set to its address
 * @why: set to the reason of a refusal (enum ftrace_mux_detour_why)
 *
 * Under ftrace_mux_detour_mutex.
 *
 * Return: 0, or a negative errno.
 */
int ftrace_mux_detour_vet(const char *sym, unsigned long *func, int *why)
{
	unsigned long addr;
	int ret;

	ret = ftrace_mux_detour_resolve(sym, &addr, why);
	if (ret)
		return ret;
	*why = DETOUR_ERR_FENTRY;
	if (ftrace_location(addr))
		return -EINVAL;
	/* The handler takes the word at the stack pointer for a return address */
	*why = DETOUR_ERR_NOT_ENTRY;
	if (strstr(sym, ".cold") || !ftrace_mux_detour_is_entry(addr))
		return -EINVAL;
	ret = ftrace_mux_detour_safe(addr, addr, why);
	if (ret)
		return ret;
	*why = DETOUR_ERR_EXISTS;
	if (ftrace_mux_detour_find(addr))
		return -EEXIST;
	*func = addr;
	return 0;
}

/**
 * ftrace_mux_jump_make - make the jump entry of a detour or site
 * @j: the entry
 * @kp: the kprobe, registered and disabled; its direct function is set
 * @ip: what tracers get as ip (arch_ftrace_mux_jump_create())
 * @data: what a fallback target gets as its fourth argument
 * @target: what the entry calls, until it is re-pointed
 *
 * The entry is known to unwinders and kallsyms before kprobes can jump
 * to it.  Without an entry a probe still works, through its handler.
 * Under ftrace_lock.
 */
void ftrace_mux_jump_make(struct ftrace_mux_jump *j, struct kprobe *kp,
			  unsigned long ip, void *data, void *target)
{
	lockdep_assert_held(&ftrace_lock);
	guard(mutex)(&text_mutex);
	if (arch_ftrace_mux_jump_create(j, (unsigned long)kp->addr, ip, data,
					target))
		return;
	if (ftrace_mux_jump_made(j->text, j->alloc)) {
		/* Nothing can have reached it */
		arch_ftrace_mux_jump_free(j);
		return;
	}
	kp->direct = j->text;
}

/**
 * ftrace_mux_jump_bury - free a removed probe's jump entry later
 * @j: the entry, whose probe is unregistered
 * @data: kfree()d with it (or now, without an entry), or NULL
 *
 * By ftrace_mux_detour_free_jumps(), once kprobes' optimizer has taken
 * the jump out and no task can be in the entry or what it calls.  Under
 * ftrace_mux_detour_mutex.
 */
void ftrace_mux_jump_bury(struct ftrace_mux_jump *j, void *data)
{
	lockdep_assert_held(&ftrace_mux_detour_mutex);
	ftrace_mux_detour_unopt_pending = true;
	if (!j->text) {
		kfree(data);
		return;
	}
	if (ftrace_mux_nr_dead_jumps == ARRAY_SIZE(ftrace_mux_dead_jumps))
		ftrace_mux_detour_free_jumps();
	ftrace_mux_dead_jumps[ftrace_mux_nr_dead_jumps].jump = *j;
	ftrace_mux_dead_jumps[ftrace_mux_nr_dead_jumps++].data = data;
	j->text = NULL;
}

/* Remember @ip, a module's function just detoured, in @m unless known */
static void ftrace_mux_detour_remember(struct ftrace_mux_detour_mod_ip *m,
				       unsigned long ip)
{
	struct ftrace_mux_detour_mod_ip *known;

	if (!m)
		return;
	list_for_each_entry(known, &ftrace_mux_detour_mod_ips, list) {
		if (known->ip == ip) {
			kfree(m);
			return;
		}
	}
	m->ip = ip;
	list_add(&m->list, &ftrace_mux_detour_mod_ips);
}

/**
 * ftrace_mux_detour_add - detour a function vetted by ftrace_mux_detour_vet()
 * @func: its address
 * @out: set to the new detour
 * @why: set to the reason of a failure (enum ftrace_mux_detour_why)
 *
 * Its probe is registered, disabled: the running tracers that want the
 * function trace it once ftrace_mux_detour_arm() enabled it.  Under
 * ftrace_mux_detour_mutex.
 *
 * Return: 0, or a negative errno.
 */
int ftrace_mux_detour_add(unsigned long func, struct ftrace_mux_detour **out,
			  int *why)
{
	struct ftrace_mux_detour_mod_ip *mod_ip = NULL;
	struct ftrace_mux_detour *d;
	const char *modname = NULL;
	unsigned long size, offset;
	int ret;

	lockdep_assert_held(&ftrace_mux_detour_mutex);
	*why = DETOUR_ERR_KPROBE;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->func = func;
	if (!kallsyms_lookup(func, &size, &offset, (char **)&modname, d->name)) {
		kfree(d);
		return -ENOENT;
	}
	if (modname) {
		strscpy(d->mod, modname);
		/* Before anything is registered: failing later undoes more */
		mod_ip = kmalloc(sizeof(*mod_ip), GFP_KERNEL);
		if (!mod_ip) {
			kfree(d);
			return -ENOMEM;
		}
	}

	/*
	 * Registered disabled: the record must exist before the handler can
	 * run, and its ip is where kprobes put the probe (after an ENDBR,
	 * where an fentry call would be).
	 */
	d->kp.addr = (kprobe_opcode_t *)func;
	d->kp.pre_handler = ftrace_mux_detour_pre;
	d->kp.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&d->kp);
	if (ret) {
		kfree(mod_ip);
		kfree(d);
		return ret;
	}
	mutex_lock(&ftrace_lock);
	d->rec = ftrace_detour_rec_add((unsigned long)d->kp.addr);
	if (d->rec) {
		/* Running tracers may want it already: no update makes it */
		ftrace_mux_detour_tramp(d->rec);
		ftrace_mux_jump_make(&d->jump, &d->kp, (unsigned long)d->kp.addr,
				     d, ftrace_mux_detour_target(d));
		list_add_tail(&d->list, &ftrace_mux_detours);
	}
	mutex_unlock(&ftrace_lock);
	if (!d->rec) {
		unregister_kprobe(&d->kp);
		ftrace_mux_jump_bury(&d->jump, NULL);
		kfree(mod_ip);
		kfree(d);
		*why = DETOUR_ERR_FULL;
		return -ENOSPC;
	}
	ftrace_mux_nr_detours++;
	/* From now on a filter can name it */
	ftrace_mux_detour_remember(mod_ip, d->rec->ip);
	*out = d;
	return 0;
}

/**
 * ftrace_mux_detour_arm - put a new detour's probe in place
 * @d: the detour, from ftrace_mux_detour_add()
 *
 * A write arms its detours and sites once all are added, so that kprobes'
 * optimizer, which the first one wakes, runs after the write and finds
 * them all queued: it puts their jumps in place in one batch.
 * Under ftrace_mux_detour_mutex.
 *
 * Return: 0, or kprobes' errno; then the caller removes @d.
 */
int ftrace_mux_detour_arm(struct ftrace_mux_detour *d)
{
	lockdep_assert_held(&ftrace_mux_detour_mutex);
	return enable_kprobe(&d->kp);
}

/**
 * ftrace_mux_detour_remove - remove a detour
 * @d: the detour
 *
 * Returns once no CPU runs its handler; its jump entry is freed later
 * (ftrace_mux_detour_free_jumps()).  Under ftrace_mux_detour_mutex.
 */
void ftrace_mux_detour_remove(struct ftrace_mux_detour *d)
{
	struct ftrace_mux_detour *other;
	struct dyn_ftrace *moved;

	lockdep_assert_held(&ftrace_mux_detour_mutex);
	/*
	 * The jump may outlive the probe (kprobes' delayed unoptimizer).  Off
	 * the list first, so that no update points it anywhere else: once
	 * the record is gone, its slot holds another detour's.
	 */
	mutex_lock(&ftrace_lock);
	list_del(&d->list);
	if (d->jump.text) {
		mutex_lock(&text_mutex);
		arch_ftrace_mux_jump_set_target(&d->jump, ftrace_stub);
		mutex_unlock(&text_mutex);
	}
	mutex_unlock(&ftrace_lock);
	/* Returns once no CPU is in the handler or the jump buffer. */
	unregister_kprobe(&d->kp);

	mutex_lock(&ftrace_lock);
	moved = ftrace_detour_rec_del(d->rec);
	if (moved != d->rec) {
		list_for_each_entry(other, &ftrace_mux_detours, list) {
			if (other->rec == moved) {
				WRITE_ONCE(other->rec, d->rec);
				break;
			}
		}
	}
	mutex_unlock(&ftrace_lock);
	/*
	 * A handler may still read the moved record's old slot: keep the
	 * slot unused until it has left (handlers run non-preemptible).
	 */
	if (moved != d->rec)
		synchronize_rcu();

	ftrace_mux_nr_detours--;
	ftrace_mux_jump_bury(&d->jump, NULL);
	kfree(d);
}

/**
 * ftrace_mux_detour_remove_all - remove every detour
 *
 * Their sites first (ftrace_mux_sites_remove_all()).  Under
 * ftrace_mux_detour_mutex.
 */
void ftrace_mux_detour_remove_all(void)
{
	struct ftrace_mux_detour *d, *n;

	lockdep_assert_held(&ftrace_mux_detour_mutex);
	list_for_each_entry_safe(d, n, &ftrace_mux_detours, list)
		ftrace_mux_detour_remove(d);
	ftrace_mux_detour_free_jumps();
}

/*
 * Detours on a module's functions go with the module.  This runs before
 * kprobes' own notifier, which kills the probes of a going module without
 * touching its text: a probe removed here, or earlier but still waiting
 * for the delayed unoptimizer, would then linger half-freed in kprobes'
 * table, and a probe registered at the same address once the module is
 * back would fail (or find it).  So the unoptimizer is flushed first.
 */
static int ftrace_mux_detour_module_notify(struct notifier_block *nb,
					   unsigned long state, void *data)
{
	struct ftrace_mux_detour_mod_ip *m, *next;
	struct module *mod = data;
	struct ftrace_mux_detour *d, *n;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ftrace_mux_detour_mutex);
	list_for_each_entry_safe(d, n, &ftrace_mux_detours, list) {
		if (within_module(d->func, mod))
			ftrace_mux_detour_remove(d);
	}
	/*
	 * Forgotten by the filters, like the module's fentry sites: the
	 * functions detoured now and those whose detour went before.
	 */
	list_for_each_entry_safe(m, next, &ftrace_mux_detour_mod_ips, list) {
		if (!within_module(m->ip, mod))
			continue;
		if (IS_ENABLED(CONFIG_MODULES))
			ftrace_detour_clear_hashes(m->ip);
		list_del(&m->list);
		kfree(m);
	}
	/* Waits for the optimizer when it has entries to free */
	ftrace_mux_detour_free_jumps();
	if (ftrace_mux_detour_unopt_pending) {
		wait_for_kprobe_optimizer();
		ftrace_mux_detour_unopt_pending = false;
	}
	mutex_unlock(&ftrace_mux_detour_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block ftrace_mux_detour_module_nb = {
	.notifier_call	= ftrace_mux_detour_module_notify,
	.priority	= 1,	/* before kprobes' (0) */
};

/**
 * ftrace_mux_detours_show - list the detours, as detour_functions does
 * @m: where
 *
 * One line each: the function's name, "jump" or "int3", and its module.
 * Under ftrace_mux_detour_mutex.
 */
void ftrace_mux_detours_show(struct seq_file *m)
{
	struct ftrace_mux_detour *d;

	list_for_each_entry(d, &ftrace_mux_detours, list) {
		seq_printf(m, "%s %s", d->name, ftrace_mux_kprobe_state(&d->kp));
		if (d->mod[0])
			seq_printf(m, " [%s]", d->mod);
		seq_putc(m, '\n');
	}
}

static __init int ftrace_mux_detour_init(void)
{
	return register_module_notifier(&ftrace_mux_detour_module_nb);
}
fs_initcall(ftrace_mux_detour_init);
