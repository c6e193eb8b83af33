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

#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/trace_recursion.h>
#include <linux/uaccess.h>

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

static DEFINE_MUTEX(ftrace_mux_detour_mutex);
static LIST_HEAD(ftrace_mux_detours);
static unsigned int ftrace_mux_nr_detours;
/* A removed detour's jump may still await kprobes' delayed unoptimizer. */
static bool ftrace_mux_detour_unopt_pending;
/* Jump entries of removed detours, kept until nothing can reach them */
static struct ftrace_mux_jump ftrace_mux_dead_jumps[FTRACE_MUX_DETOURS];
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

/* Is @op fgraph's ops, the one calling ftrace_graph_func()? */
static bool ftrace_mux_detour_is_graph(struct ftrace_ops *op)
{
	return op->func == ftrace_graph_func || op->saved_func == ftrace_graph_func;
}
#else
static bool ftrace_mux_detour_graph_ok(struct pt_regs *regs)
{
	return true;
}

static bool ftrace_mux_detour_is_graph(struct ftrace_ops *op)
{
	return false;
}
#endif

/*
 * Call the tracers of @set for one function, through the entries the
 * trampolines are made from.  IPMODIFY tracers are left out (see the
 * caller), and fgraph's unless @graph_ok.
 */
static __always_inline void ftrace_mux_detour_call(struct ftrace_mux_set *set,
						   unsigned long ip,
						   unsigned long parent_ip,
						   struct ftrace_regs *fregs,
						   bool graph_ok)
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
		if (!op || (op->flags & FTRACE_OPS_FL_IPMODIFY) ||
		    (!graph_ok && ftrace_mux_detour_is_graph(op)))
			continue;
		func(ip, parent_ip, op, fregs);
	}
}

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
	 * function here (an optimized kprobe does not support changing ip):
	 * it is left out, and ip is put back for kprobes.
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
			ftrace_mux_detour_call(set, ip, parent_ip, fregs, graph_ok);
	} else {
		/* A tracer without an ID: all of them through the list function */
		arch_ftrace_ops_list_func(ip, parent_ip, NULL, fregs);
	}
	instruction_pointer_set(regs, kp_ip);
	ftrace_test_recursion_unlock(bit);
	return 0;
}
NOKPROBE_SYMBOL(ftrace_mux_detour_pre);

/*
 * "jump" once kprobes has put the jump in place, "int3" before (kprobes
 * flags a probe optimized when it queues it for its delayed optimizer)
 * or instead.
 */
static const char *ftrace_mux_detour_state(struct ftrace_mux_detour *d)
{
	struct kprobe *p;
	bool jump;

	rcu_read_lock();
	p = get_kprobe(d->kp.addr);
	jump = p && kprobe_optimized(p) && !kprobe_queued(p);
	rcu_read_unlock();
	return jump ? "jump" : "int3";
}

/*
 * The detour trampoline of @d's set, at the end of an update and when a
 * detour is added.  Sets without one are walked in C, so this may come
 * late, or fail.  Trampolines are written under text_mutex, as ftrace
 * patches sites; neither caller holds it.
 */
static void ftrace_mux_detour_tramp(struct ftrace_mux_detour *d)
{
	struct ftrace_mux_set *set = ftrace_mux_rec_tracers(d->rec->flags);

	lockdep_assert_held(&ftrace_lock);
	/*
	 * Nothing traces the function: the empty set is static and never
	 * reaped, so a trampoline made for it would stay for good.
	 */
	if (!set || !set->nr)
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
 * Point @d's jump entry at what its record wants called now.  Under
 * ftrace_lock, and text_mutex.
 */
static void ftrace_mux_detour_repoint(struct ftrace_mux_detour *d)
{
	unsigned long flags = d->rec->flags;
	struct ftrace_mux_set *set;
	void *target = ftrace_stub;
	ftrace_mux_detour_fn tramp;

	lockdep_assert_held(&ftrace_lock);
	if (!d->jump.text)
		return;
	if (flags & FTRACE_FL_ENABLED) {
		set = ftrace_mux_rec_tracers(flags);
		tramp = ftrace_mux_set_complete(set, flags & FTRACE_REF_MAX) ?
			set->detour : NULL;
		target = tramp ? (void *)tramp : (void *)ftrace_mux_detour_list;
	}
	arch_ftrace_mux_jump_set_target(&d->jump, target);
}

void ftrace_mux_detours_update_done(void)
{
	struct ftrace_mux_detour *d;

	lockdep_assert_held(&ftrace_lock);
	/* After a failed update, leave everything as it is (see ftrace_mux.c) */
	if (ftrace_is_dead())
		return;
	list_for_each_entry(d, &ftrace_mux_detours, list)
		ftrace_mux_detour_tramp(d);
	mutex_lock(&text_mutex);
	list_for_each_entry(d, &ftrace_mux_detours, list)
		ftrace_mux_detour_repoint(d);
	mutex_unlock(&text_mutex);
}

/*
 * Free the jump entries of removed detours: kprobes' optimizer takes a
 * removed probe's jump out after a delay, then waits for RCU-tasks; and a
 * probe unoptimized at once (kprobes disarmed) may still have a task
 * preempted in a tracer called from the entry.
 */
static void ftrace_mux_detour_free_jumps(void)
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
		j = &ftrace_mux_dead_jumps[i];
		ftrace_mux_jump_gone(j->text, j->alloc);
		arch_ftrace_mux_jump_free(j);
	}
	mutex_unlock(&text_mutex);
	mutex_unlock(&ftrace_lock);
	ftrace_mux_nr_dead_jumps = 0;
}

static struct ftrace_mux_detour *ftrace_mux_detour_find(unsigned long func)
{
	struct ftrace_mux_detour *d;

	list_for_each_entry(d, &ftrace_mux_detours, list)
		if (d->func == func)
			return d;
	return NULL;
}

/* By the name it is listed with: "SYMBOL", or "MODULE:SYMBOL". */
static struct ftrace_mux_detour *ftrace_mux_detour_find_name(const char *sym)
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

enum {
	DETOUR_ERR_MALFORMED,
	DETOUR_ERR_NO_SYMBOL,
	DETOUR_ERR_AMBIGUOUS,
	DETOUR_ERR_NOT_TEXT,
	DETOUR_ERR_NOT_ENTRY,
	DETOUR_ERR_FENTRY,
	DETOUR_ERR_UNSAFE,
	DETOUR_ERR_TRACING,
	DETOUR_ERR_REACHED,
	DETOUR_ERR_NOMEM,
	DETOUR_ERR_EXISTS,
	DETOUR_ERR_FULL,
	DETOUR_ERR_KPROBE,
	DETOUR_ERR_NOT_DETOURED,
};

static const char * const ftrace_mux_detour_errs[] = {
	[DETOUR_ERR_MALFORMED]		= "Expected SYMBOL, MODULE:SYMBOL or !SYMBOL",
	[DETOUR_ERR_NO_SYMBOL]		= "No such symbol",
	[DETOUR_ERR_AMBIGUOUS]		= "Symbol is not unique",
	[DETOUR_ERR_NOT_TEXT]		= "Not a function in kernel or module text",
	[DETOUR_ERR_NOT_ENTRY]		=
		"Not where a function is entered (a .cold part or an inner label)",
	[DETOUR_ERR_FENTRY]		= "Has an fentry call: use set_ftrace_filter",
	[DETOUR_ERR_UNSAFE]		=
		"Unsafe to probe (kprobe blacklist, noinstr or entry code)",
	[DETOUR_ERR_TRACING]		=
		"Part of the tracing core, which tracers run (kernel/trace)",
	[DETOUR_ERR_REACHED]		=
		"Reached from the tracers' own code (ftrace, kprobes, the tracing core)",
	[DETOUR_ERR_NOMEM]		= "Out of memory",
	[DETOUR_ERR_EXISTS]		= "Already detoured",
	[DETOUR_ERR_FULL]		= "No free detour (CONFIG_FTRACE_MUX_DETOURS)",
	[DETOUR_ERR_KPROBE]		= "kprobes cannot probe this function",
	[DETOUR_ERR_NOT_DETOURED]	= "Not detoured",
};

static void ftrace_mux_detour_err(const char *cmd, int err)
{
	tracing_log_err(NULL, "detour_functions", cmd, ftrace_mux_detour_errs,
			err, 0);
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

/*
 * Resolve and vet @sym for a new detour: its address in *@func, or a
 * negative errno with the error_log index in *@why.
 */
static int ftrace_mux_detour_vet(const char *sym, unsigned long *func, int *why)
{
	unsigned long addr, size, offset;
	unsigned int n;
	int ret;

	*why = DETOUR_ERR_NO_SYMBOL;
	addr = kallsyms_lookup_name(sym);
	if (!addr)
		return -ENOENT;
	n = ftrace_mux_sym_count(sym);
	*why = DETOUR_ERR_AMBIGUOUS;
	if (n > 1)
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
	*why = DETOUR_ERR_FENTRY;
	if (ftrace_location(addr))
		return -EINVAL;
	/* The handler takes the word at the stack pointer for a return address */
	*why = DETOUR_ERR_NOT_ENTRY;
	if (strstr(sym, ".cold") || !ftrace_mux_detour_is_entry(addr))
		return -EINVAL;
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
	ret = ftrace_mux_detour_reachable(addr);
	if (ret > 0)
		return -EPERM;
	*why = DETOUR_ERR_NOMEM;
	if (ret < 0)
		return ret;
	*why = DETOUR_ERR_EXISTS;
	if (ftrace_mux_detour_find(addr))
		return -EEXIST;
	*func = addr;
	return 0;
}

static void ftrace_mux_detour_remove(struct ftrace_mux_detour *d);

/*
 * Make @d's jump entry, known to unwinders and kallsyms before kprobes
 * can jump to it.  It hands tracers the probe's address, as the handler
 * does, known now.  Without an entry a detour still works, through the
 * handler.
 */
static void ftrace_mux_detour_jump_make(struct ftrace_mux_detour *d)
{
	lockdep_assert_held(&ftrace_lock);
	guard(mutex)(&text_mutex);
	if (arch_ftrace_mux_jump_create(&d->jump, (unsigned long)d->kp.addr,
					ftrace_stub))
		return;
	if (ftrace_mux_jump_made(d->jump.text, d->jump.alloc)) {
		/* Nothing can have reached it */
		arch_ftrace_mux_jump_free(&d->jump);
		return;
	}
	d->kp.direct = d->jump.text;
}

/* Keep @d's jump entry for ftrace_mux_detour_free_jumps() */
static void ftrace_mux_detour_jump_bury(struct ftrace_mux_detour *d)
{
	if (!d->jump.text)
		return;
	if (ftrace_mux_nr_dead_jumps == ARRAY_SIZE(ftrace_mux_dead_jumps))
		ftrace_mux_detour_free_jumps();
	ftrace_mux_dead_jumps[ftrace_mux_nr_dead_jumps++] = d->jump;
	d->jump.text = NULL;
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

static int ftrace_mux_detour_add(unsigned long func,
				 struct ftrace_mux_detour **out, int *why)
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
		ftrace_mux_detour_jump_make(d);
		list_add_tail(&d->list, &ftrace_mux_detours);
		/* Running tracers may want it already: no update makes it */
		ftrace_mux_detour_tramp(d);
		mutex_lock(&text_mutex);
		ftrace_mux_detour_repoint(d);
		mutex_unlock(&text_mutex);
	}
	mutex_unlock(&ftrace_lock);
	if (!d->rec) {
		unregister_kprobe(&d->kp);
		ftrace_mux_detour_jump_bury(d);
		kfree(mod_ip);
		kfree(d);
		*why = DETOUR_ERR_FULL;
		return -ENOSPC;
	}
	ftrace_mux_nr_detours++;
	/* From now on a filter can name it */
	ftrace_mux_detour_remember(mod_ip, d->rec->ip);

	ret = enable_kprobe(&d->kp);
	if (ret) {
		ftrace_mux_detour_remove(d);
		return ret;
	}
	*out = d;
	return 0;
}

static void ftrace_mux_detour_remove(struct ftrace_mux_detour *d)
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
	ftrace_mux_detour_unopt_pending = true;
	ftrace_mux_detour_jump_bury(d);
	kfree(d);
}

static void ftrace_mux_detour_remove_all(void)
{
	struct ftrace_mux_detour *d, *n;

	mutex_lock(&ftrace_mux_detour_mutex);
	list_for_each_entry_safe(d, n, &ftrace_mux_detours, list)
		ftrace_mux_detour_remove(d);
	ftrace_mux_detour_free_jumps();
	mutex_unlock(&ftrace_mux_detour_mutex);
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

/* detour_functions */

static bool ftrace_mux_detour_valid_sym(const char *sym)
{
	const char *p;

	if (!*sym || strlen(sym) >= KSYM_NAME_LEN)
		return false;
	for (p = sym; *p; p++)
		if (!isascii(*p) || (!isalnum(*p) && !strchr("_.$:", *p)))
			return false;
	return strchr(sym, ':') == strrchr(sym, ':') && *sym != ':';
}

struct ftrace_mux_detour_cmd {
	char				*sym;
	bool				del;
	unsigned long			func;
	struct ftrace_mux_detour	*d;
};

/* Vet one command of a write; @cmds holds the ones before it. */
static int ftrace_mux_detour_vet_cmd(struct ftrace_mux_detour_cmd *cmds,
				     int i, int *nr_after, int *why)
{
	struct ftrace_mux_detour_cmd *c = &cmds[i];
	int j, ret;

	*why = DETOUR_ERR_MALFORMED;
	if (!ftrace_mux_detour_valid_sym(c->sym))
		return -EINVAL;
	if (c->del) {
		*why = DETOUR_ERR_NOT_DETOURED;
		c->d = ftrace_mux_detour_find_name(c->sym);
		for (j = 0; j < i && c->d; j++)
			if (cmds[j].del && cmds[j].d == c->d)
				c->d = NULL;
		if (!c->d)
			return -ENOENT;
		(*nr_after)--;
		return 0;
	}
	ret = ftrace_mux_detour_vet(c->sym, &c->func, why);
	if (ret)
		return ret;
	for (j = 0; j < i; j++) {
		if (!cmds[j].del && cmds[j].func == c->func) {
			*why = DETOUR_ERR_EXISTS;
			return -EEXIST;
		}
	}
	*why = DETOUR_ERR_FULL;
	if (++(*nr_after) > FTRACE_MUX_DETOURS)
		return -ENOSPC;
	return 0;
}

/*
 * Carry out one write's commands, "SYMBOL" or "!SYMBOL" separated by
 * white space.  All are vetted first and additions are undone if one
 * fails (kprobes may still refuse), so a failed write changes nothing;
 * removals, which cannot fail, come last.
 */
static int ftrace_mux_detour_cmds(char *buf)
{
	struct ftrace_mux_detour_cmd *cmds;
	int i, n = 0, nr_after, why = 0, ret = 0;
	char *p = buf, *tok;

	while ((tok = strsep(&p, " \t\n\r\v\f")))
		n += !!*tok;
	if (!n)
		return 0;
	cmds = kcalloc(n, sizeof(*cmds), GFP_KERNEL);
	if (!cmds)
		return -ENOMEM;
	/* strsep() left a NUL after each token; walk them again */
	for (i = 0, tok = buf; i < n; tok += strlen(tok) + 1) {
		if (!*tok)
			continue;
		cmds[i].del = *tok == '!';
		cmds[i++].sym = tok + (*tok == '!');
	}

	mutex_lock(&ftrace_mux_detour_mutex);
	nr_after = ftrace_mux_nr_detours;
	for (i = 0; i < n && !ret; i++)
		ret = ftrace_mux_detour_vet_cmd(cmds, i, &nr_after, &why);
	if (ret) {
		i--;
		goto out;
	}
	for (i = 0; i < n && !ret; i++) {
		if (!cmds[i].del)
			ret = ftrace_mux_detour_add(cmds[i].func, &cmds[i].d, &why);
	}
	if (ret) {
		int failed = --i;

		while (i-- > 0)
			if (!cmds[i].del)
				ftrace_mux_detour_remove(cmds[i].d);
		i = failed;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (cmds[i].del)
			ftrace_mux_detour_remove(cmds[i].d);
out:
	ftrace_mux_detour_free_jumps();
	mutex_unlock(&ftrace_mux_detour_mutex);
	if (ret)
		ftrace_mux_detour_err(cmds[i].sym - cmds[i].del, why);
	kfree(cmds);
	return ret;
}

/*
 * A write's last, unterminated command waits here for more or for close.
 * Writers of one open file are serialized by @lock: pwrite() bypasses the
 * file position lock, and the length check and copy must go together.
 */
struct ftrace_mux_detour_file {
	struct mutex	lock;
	size_t		len;
	char		buf[];
};

#define DETOUR_WRITE_MAX	(PAGE_SIZE - sizeof(struct ftrace_mux_detour_file))

static int ftrace_mux_detour_show(struct seq_file *m, void *v)
{
	struct ftrace_mux_detour *d;

	mutex_lock(&ftrace_mux_detour_mutex);
	list_for_each_entry(d, &ftrace_mux_detours, list) {
		seq_printf(m, "%s %s", d->name, ftrace_mux_detour_state(d));
		if (d->mod[0])
			seq_printf(m, " [%s]", d->mod);
		seq_putc(m, '\n');
	}
	mutex_unlock(&ftrace_mux_detour_mutex);
	return 0;
}

static int ftrace_mux_detour_open(struct inode *inode, struct file *file)
{
	struct ftrace_mux_detour_file *f = NULL;
	int ret;

	ret = tracing_check_open_get_tr(NULL);
	if (ret)
		return ret;
	if (file->f_mode & FMODE_WRITE) {
		f = kzalloc(PAGE_SIZE, GFP_KERNEL);
		if (!f)
			return -ENOMEM;
		mutex_init(&f->lock);
		if (file->f_flags & O_TRUNC)
			ftrace_mux_detour_remove_all();
	}
	if (file->f_mode & FMODE_READ) {
		ret = single_open(file, ftrace_mux_detour_show, NULL);
		if (ret) {
			if (file->f_mode & FMODE_WRITE)
				kfree(f);
			return ret;
		}
		if (file->f_mode & FMODE_WRITE)
			((struct seq_file *)file->private_data)->private = f;
	} else {
		file->private_data = f;
	}
	return 0;
}

static struct ftrace_mux_detour_file *ftrace_mux_detour_file(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

/*
 * Take @cnt bytes: complete commands run as each piece of at most a page
 * arrives (a piece's commands all or nothing), the unterminated rest
 * waits.  A fault stops the write where it happened, nothing of the piece
 * it hit pending.
 */
static ssize_t ftrace_mux_detour_write_locked(struct ftrace_mux_detour_file *f,
					      const char __user *ubuf, size_t cnt)
{
	size_t taken = 0, n, done;
	char *end, save;
	int ret;

	while (taken < cnt) {
		n = min(cnt - taken, DETOUR_WRITE_MAX - 1 - f->len);
		if (!n) {
			/* One command as long as a page: no symbol is */
			ret = -E2BIG;
			goto malformed;
		}
		if (copy_from_user(f->buf + f->len, ubuf + taken, n)) {
			f->buf[f->len] = '\0';
			return taken ?: -EFAULT;
		}
		f->buf[f->len + n] = '\0';
		/* A NUL in a command is malformed, not its end. */
		if (memchr(f->buf + f->len, '\0', n)) {
			ret = -EINVAL;
			goto malformed;
		}
		f->len += n;
		taken += n;

		/* Complete commands end in white space; the rest waits. */
		for (end = f->buf + f->len; end > f->buf && !isspace(end[-1]); end--)
			;
		done = end - f->buf;
		if (!done)
			continue;
		save = *end;
		*end = '\0';
		ret = ftrace_mux_detour_cmds(f->buf);
		*end = save;
		f->len -= done;
		memmove(f->buf, f->buf + done, f->len + 1);
		if (ret) {
			f->len = 0;
			f->buf[0] = '\0';
			return ret;
		}
	}
	return cnt;

malformed:
	f->len = 0;
	f->buf[0] = '\0';
	ftrace_mux_detour_err("", DETOUR_ERR_MALFORMED);
	return ret;
}

static ssize_t ftrace_mux_detour_write(struct file *file, const char __user *ubuf,
				       size_t cnt, loff_t *ppos)
{
	struct ftrace_mux_detour_file *f = ftrace_mux_detour_file(file);
	ssize_t ret;

	if (!cnt)
		return 0;
	mutex_lock(&f->lock);
	ret = ftrace_mux_detour_write_locked(f, ubuf, cnt);
	mutex_unlock(&f->lock);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static int ftrace_mux_detour_release(struct inode *inode, struct file *file)
{
	struct ftrace_mux_detour_file *f;

	if (file->f_mode & FMODE_WRITE) {
		f = ftrace_mux_detour_file(file);
		/*
		 * Like set_ftrace_filter, the last command may end at the last
		 * close, which cannot fail: an error goes to error_log only.
		 * (Not in .flush: that runs at every close of a shared file,
		 * a forked child's too, in the middle of a command.)
		 */
		if (f->len)
			ftrace_mux_detour_cmds(f->buf);
		kfree(f);
	}
	if (file->f_mode & FMODE_READ)
		single_release(inode, file);
	trace_array_put(NULL);
	return 0;
}

static const struct file_operations ftrace_mux_detour_fops = {
	.open		= ftrace_mux_detour_open,
	.read		= seq_read,
	.write		= ftrace_mux_detour_write,
	.llseek		= tracing_lseek,
	.release	= ftrace_mux_detour_release,
};

static __init int ftrace_mux_detour_init(void)
{
	int ret = register_module_notifier(&ftrace_mux_detour_module_nb);

	if (ret)
		return ret;
	if (tracing_init_dentry())
		return 0;
	trace_create_file("detour_functions", TRACE_MODE_WRITE, NULL, NULL,
			  &ftrace_mux_detour_fops);
	return 0;
}
fs_initcall(ftrace_mux_detour_init);
