// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux detours on inlined copies of a function.
 *
 * A function the compiler inlined into some callers runs there without
 * its fentry call or its entry: set_ftrace_filter on its name misses
 * those calls.  A site is a kprobe at the start of one inlined copy,
 * written "FUNC@CALLER+OFFSET" (the tool finds them in the debug info,
 * as perf probe does).  It has no record of its own: its handler calls
 * the tracers of FUNC's record, the one of its fentry call or of its
 * detour, with FUNC as ip and the site as parent_ip.  So every filter,
 * notrace and selection that names FUNC covers every site of FUNC, the
 * profiler counts them under FUNC, and a trace reads "FUNC <-CALLER".
 *
 *	CALLER:  ...  [kprobe] inlined FUNC ...        FUNC:  call __fentry__
 *	                 |                                       |
 *	                 +--> tracers of FUNC's record <---------+
 *
 * An inlined copy returns nowhere, so no tracer can hook a return
 * there: fgraph is left out, and so are kprobes on FUNC's fentry call
 * (a kretprobe's among them) and fprobes with an exit handler
 * (FTRACE_OPS_FL_RETURN_HOOK), and IPMODIFY and OVERRIDE tracers (which
 * would redirect or end a function that has not been called).  The registers are the
 * caller's: tracers that read arguments see nothing of FUNC's, and those
 * that take them as FUNC's typed arguments (BPF programs,
 * FTRACE_OPS_FL_FUNC_ARGS) are left out too.
 *
 * Once kprobes has put its jump in place, a site alone at its address
 * skips kprobes' handler path as a detour does: the jump calls the
 * site's jump entry (ftrace_mux_jump_make()), which calls the detour
 * trampoline of FUNC's set, or, for a set that trampoline cannot serve
 * here, the handler (ftrace_mux_site_slow()).
 *
 * A site of a function without an fentry call needs that function's
 * detour (the record), so a write adds the detour first; "!FUNC"
 * removes the detour and every site of FUNC; the sites of a module go
 * with it, before its detours.  Under ftrace_mux_detour_mutex, like the
 * detours.
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_recursion.h>

#include "ftrace_internal.h"
#include "ftrace_mux_detour.h"
#include "ftrace_mux_sets.h"
#include "ftrace_mux_tramp.h"
#include "trace.h"

/* The caller's name, with FUNC's "MODULE:" before it */
#define SITE_CALLER_LEN		(KSYM_NAME_LEN + MODULE_NAME_LEN)

struct ftrace_mux_site {
	struct kprobe			kp;
	/* kp.direct: no text when it could not be made */
	struct ftrace_mux_jump		jump;
	/* FUNC's record: its detour's (which moves), else its fentry call's */
	struct ftrace_mux_detour	*owner;
	struct dyn_ftrace		*rec;
	unsigned long			func;
	struct list_head		list;
	/* Removed: its jump entry's fallback may still be entered */
	bool				dead;
	/* "[MODULE:]FUNC@CALLER+0xOFFSET", as detour_functions lists it */
	char				name[KSYM_NAME_LEN];
};

/* Changes under ftrace_mux_detour_mutex and ftrace_lock: either keeps it */
static LIST_HEAD(ftrace_mux_sites);
unsigned int ftrace_mux_nr_sites;

/*
 * The tracers a site leaves out: IPMODIFY and OVERRIDE ones (which would
 * redirect or end a function that has not been called), those that hook
 * the return (kretprobes and fprobes' exit handlers would replace a word
 * of the caller's frame; fgraph's users are left out apart) and those
 * that take the registers as FUNC's arguments (they hold the caller's).
 */
#define SITE_SKIP	(FTRACE_OPS_FL_IPMODIFY | FTRACE_OPS_FL_OVERRIDE | \
			 FTRACE_OPS_FL_RETURN_HOOK | FTRACE_OPS_FL_FUNC_ARGS)

/*
 * Every tracer that wants @ip, the way the list function finds them,
 * for a set with a tracer that has no ID; fgraph's users and SITE_SKIP
 * left out, as for the set's members.
 */
static void ftrace_mux_site_call_list(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_regs *fregs)
{
	struct ftrace_ops *op;

	do_for_each_ftrace_op(op, ftrace_ops_list) {
		if (op->flags & (FTRACE_OPS_FL_STUB | SITE_SKIP))
			continue;
		if (ftrace_mux_detour_is_graph(op)) {
			ftrace_profile_count_call(ip);
			continue;
		}
		if ((!(op->flags & FTRACE_OPS_FL_RCU) || rcu_is_watching()) &&
		    ftrace_ops_test(op, ip, NULL))
			op->func(ip, parent_ip, op, fregs);
	} while_for_each_ftrace_op(op);
}
NOKPROBE_SYMBOL(ftrace_mux_site_call_list);

/* FUNC's record: read without locks by the handler (a detour's moves) */
static struct dyn_ftrace *ftrace_mux_site_rec(struct ftrace_mux_site *s)
{
	return s->owner ? ftrace_mux_detour_rec(s->owner) : s->rec;
}
NOKPROBE_SYMBOL(ftrace_mux_site_rec);

/*
 * Called by kprobes at the site, preemption disabled.  The record and
 * the tracers it names stay valid until the grace periods that site and
 * detour removal and ftrace_shutdown() wait for.
 */
static int ftrace_mux_site_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct ftrace_mux_site *s = container_of(kp, struct ftrace_mux_site, kp);
	struct dyn_ftrace *rec = ftrace_mux_site_rec(s);
	unsigned long flags = READ_ONCE(rec->flags);
	unsigned long ip = rec->ip, parent_ip = (unsigned long)kp->addr, kp_ip;
	struct ftrace_regs *fregs = (struct ftrace_regs *)regs;
	struct ftrace_mux_set *set;
	int bit;

	if (!(flags & FTRACE_FL_ENABLED))
		return 0;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return 0;
	/*
	 * Tracers get FUNC as ip; the registers are the caller's at the
	 * site, where an unwinder starting from them must find the caller's
	 * frame (kprobes left ip past its int3).
	 */
	kp_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, parent_ip);
	set = ftrace_mux_rec_tracers(flags);
	if (ftrace_mux_set_complete(set, flags & FTRACE_REF_MAX)) {
		if (set)
			ftrace_mux_detour_call(set, ip, parent_ip, fregs, false,
					       SITE_SKIP);
	} else {
		ftrace_mux_site_call_list(ip, parent_ip, fregs);
	}
	instruction_pointer_set(regs, kp_ip);
	ftrace_test_recursion_unlock(bit);
	return 0;
}
NOKPROBE_SYMBOL(ftrace_mux_site_pre);

/*
 * The jump path's fallback, for a set whose detour trampoline cannot
 * serve a site (it would enter fgraph's users; a tracer has no ID; none
 * was made): the handler, as kprobes would have called it.  It is
 * entered preemptible: @s outlives its removal until no task can be
 * here (ftrace_mux_jump_bury()), but FUNC's detour may not, so a
 * removed site calls nothing (removal waits for a grace period).
 */
static void ftrace_mux_site_slow(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_regs *fregs,
				 struct ftrace_mux_site *s)
{
	preempt_disable_notrace();
	if (!READ_ONCE(s->dead))
		ftrace_mux_site_pre(&s->kp, (struct pt_regs *)fregs);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(ftrace_mux_site_slow);

/*
 * What @s's jump entry should call now: the set's detour trampoline
 * (which leaves IPMODIFY tracers out, as sites do) unless it would call
 * a tracer that hooks the return.  Under ftrace_lock.
 */
static void *ftrace_mux_site_target(struct ftrace_mux_site *s)
{
	return ftrace_mux_jump_target(ftrace_mux_site_rec(s)->flags, false,
				      ftrace_mux_site_slow);
}

/* Point @s's jump entry at its target.  Under ftrace_lock and text_mutex. */
static void ftrace_mux_site_repoint(struct ftrace_mux_site *s)
{
	if (s->jump.text)
		arch_ftrace_mux_jump_set_target(&s->jump, ftrace_mux_site_target(s));
}

/**
 * ftrace_mux_sites_repoint - re-point the sites after an update
 *
 * Called with ftrace_lock held at the end of ftrace_run_update_code(),
 * through ftrace_mux_detours_update_done(), after the detours.
 */
void ftrace_mux_sites_repoint(void)
{
	struct ftrace_mux_site *s;

	lockdep_assert_held(&ftrace_lock);
	if (ftrace_is_dead())
		return;
	list_for_each_entry(s, &ftrace_mux_sites, list)
		ftrace_mux_detour_tramp(ftrace_mux_site_rec(s));
	mutex_lock(&text_mutex);
	list_for_each_entry(s, &ftrace_mux_sites, list)
		ftrace_mux_site_repoint(s);
	mutex_unlock(&text_mutex);
}

/* Split "FUNC@CALLER+OFFSET" in place; the caller keeps FUNC's module. */
static int ftrace_mux_site_parse(char *spec, char *caller, size_t len,
				 unsigned long *off)
{
	char *at = strchr(spec, '@'), *plus, *colon;
	size_t modlen = 0;

	if (!at || strchr(at + 1, '@'))
		return -EINVAL;
	plus = strrchr(at, '+');
	if (!plus || plus == at + 1 || kstrtoul(plus + 1, 0, off))
		return -EINVAL;
	colon = strchr(spec, ':');
	if (colon && colon > at)
		return -EINVAL;
	if (colon)
		modlen = colon - spec + 1;
	if (modlen + (plus - at - 1) >= len)
		return -EINVAL;
	memcpy(caller, spec, modlen);
	memcpy(caller + modlen, at + 1, plus - at - 1);
	caller[modlen + (plus - at - 1)] = '\0';
	*at = '\0';
	return 0;
}

static struct ftrace_mux_site *ftrace_mux_site_find(unsigned long addr)
{
	struct ftrace_mux_site *s;

	list_for_each_entry(s, &ftrace_mux_sites, list)
		if ((unsigned long)s->kp.addr == addr)
			return s;
	return NULL;
}

/*
 * The addresses of FUNC, CALLER and the site that @spec names, the
 * symbols resolved as detours resolve them.
 */
static int ftrace_mux_site_resolve(const char *spec, unsigned long *func,
				   unsigned long *caller, unsigned long *site,
				   int *why)
{
	unsigned long off, size, offset;
	char *fn, *cl;
	int ret = -ENOMEM;

	*why = DETOUR_ERR_NOMEM;
	fn = kstrdup(spec, GFP_KERNEL);
	cl = kmalloc(SITE_CALLER_LEN, GFP_KERNEL);
	if (!fn || !cl)
		goto out;
	*why = DETOUR_ERR_MALFORMED;
	ret = ftrace_mux_site_parse(fn, cl, SITE_CALLER_LEN, &off);
	if (ret)
		goto out;
	ret = ftrace_mux_detour_resolve(fn, func, why);
	if (!ret)
		ret = ftrace_mux_detour_resolve(cl, caller, why);
	if (ret)
		goto out;
	*why = DETOUR_ERR_SITE_RANGE;
	ret = -ERANGE;
	if (!kallsyms_lookup_size_offset(*caller, &size, &offset) || off >= size ||
	    *caller == *func)
		goto out;
	*site = *caller + off;
	ret = 0;
out:
	kfree(cl);
	kfree(fn);
	return ret;
}

/**
 * ftrace_mux_site_vet - resolve and vet a site for a new detour
 * @spec: "[MODULE:]FUNC@CALLER+OFFSET"; CALLER is looked up in MODULE too
 * @func: set to FUNC's address
 * @site: set to the site's address
 * @why: set to the reason of a refusal (enum ftrace_mux_detour_why)
 *
 * FUNC must have an fentry call or a detour, or be detoured by the same
 * write before the site: the caller checks that last case, when this
 * returns -ENOENT with @why DETOUR_ERR_NO_COPY and @func set.  Under
 * ftrace_mux_detour_mutex.
 *
 * Return: 0, or a negative errno.
 */
int ftrace_mux_site_vet(const char *spec, unsigned long *func,
			unsigned long *site, int *why)
{
	unsigned long caller, addr;
	int ret;

	ret = ftrace_mux_site_resolve(spec, func, &caller, &addr, why);
	if (ret)
		return ret;
	*why = DETOUR_ERR_SITE_FENTRY;
	if (ftrace_location_range(addr, addr))
		return -EINVAL;
	/* Tracers must not run into it: the rule of detours, for CALLER */
	ret = ftrace_mux_detour_safe(addr, caller, why);
	if (ret)
		return ret;
	*why = DETOUR_ERR_EXISTS;
	if (ftrace_mux_site_find(addr))
		return -EEXIST;
	*site = addr;
	*why = DETOUR_ERR_NO_COPY;
	if (!ftrace_location(*func) && !ftrace_mux_detour_find(*func))
		return -ENOENT;
	return 0;
}

/**
 * ftrace_mux_site_find_spec - the site a command names
 * @spec: "[MODULE:]FUNC@CALLER+OFFSET"
 *
 * Under ftrace_mux_detour_mutex.
 *
 * Return: the site, or NULL.
 */
struct ftrace_mux_site *ftrace_mux_site_find_spec(const char *spec)
{
	unsigned long func, caller, addr;
	struct ftrace_mux_site *s;
	int why;

	if (ftrace_mux_site_resolve(spec, &func, &caller, &addr, &why))
		return NULL;
	s = ftrace_mux_site_find(addr);
	return s && s->func == func ? s : NULL;
}

/**
 * ftrace_mux_site_add - detour a site vetted by ftrace_mux_site_vet()
 * @func: FUNC's address
 * @site: the site's address
 * @out: set to the new site
 * @why: set to the reason of a failure (enum ftrace_mux_detour_why)
 *
 * Its probe is registered, disabled: the running tracers that want FUNC
 * trace the site once ftrace_mux_site_arm() enabled it.  Under
 * ftrace_mux_detour_mutex.
 *
 * Return: 0, or a negative errno.
 */
int ftrace_mux_site_add(unsigned long func, unsigned long site,
			struct ftrace_mux_site **out, int *why)
{
	const char *mod = NULL, *cmod;
	unsigned long size, offset;
	struct ftrace_mux_site *s;
	char *fname, *cname;
	int ret;

	lockdep_assert_held(&ftrace_mux_detour_mutex);
	*why = DETOUR_ERR_SITE_FULL;
	if (ftrace_mux_nr_sites >= FTRACE_MUX_DETOUR_SITES)
		return -ENOSPC;
	*why = DETOUR_ERR_NOMEM;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	fname = kmalloc(2 * KSYM_NAME_LEN, GFP_KERNEL);
	if (!s || !fname) {
		kfree(fname);
		kfree(s);
		return -ENOMEM;
	}
	s->func = func;
	cname = fname + KSYM_NAME_LEN;
	*why = DETOUR_ERR_NO_SYMBOL;
	if (!kallsyms_lookup(func, &size, &offset, (char **)&mod, fname) ||
	    !kallsyms_lookup(site, &size, &offset, (char **)&cmod, cname)) {
		kfree(fname);
		kfree(s);
		return -ENOENT;
	}
	snprintf(s->name, sizeof(s->name), "%s%s%s@%s+0x%lx", mod ?: "",
		 mod ? ":" : "", fname, cname, offset);
	kfree(fname);

	*why = DETOUR_ERR_SITE_KPROBE;
	s->kp.addr = (kprobe_opcode_t *)site;
	s->kp.pre_handler = ftrace_mux_site_pre;
	s->kp.flags = KPROBE_FLAG_DISABLED;
	ret = register_kprobe(&s->kp);
	if (ret) {
		kfree(s);
		return ret;
	}
	mutex_lock(&ftrace_lock);
	s->owner = ftrace_mux_detour_find(func);
	if (!s->owner)
		s->rec = ftrace_detour_fentry_rec(func);
	if (s->owner || s->rec) {
		/* Running tracers may want FUNC already: no update makes it */
		ftrace_mux_detour_tramp(ftrace_mux_site_rec(s));
		ftrace_mux_jump_make(&s->jump, &s->kp, ftrace_mux_site_rec(s)->ip,
				     s, ftrace_mux_site_target(s));
		list_add_tail(&s->list, &ftrace_mux_sites);
	}
	mutex_unlock(&ftrace_lock);
	if (!s->owner && !s->rec) {
		unregister_kprobe(&s->kp);
		kfree(s);
		*why = DETOUR_ERR_NO_COPY;
		return -ENOENT;
	}
	ftrace_mux_nr_sites++;
	*out = s;
	return 0;
}

/**
 * ftrace_mux_site_arm - put a new site's probe in place
 * @s: the site, from ftrace_mux_site_add()
 *
 * As ftrace_mux_detour_arm().  Under ftrace_mux_detour_mutex.
 *
 * Return: 0, or kprobes' errno; then the caller removes @s.
 */
int ftrace_mux_site_arm(struct ftrace_mux_site *s)
{
	lockdep_assert_held(&ftrace_mux_detour_mutex);
	return enable_kprobe(&s->kp);
}

/**
 * ftrace_mux_site_remove - remove a site
 * @s: the site
 *
 * Returns once no CPU runs its handler; its jump entry, which may
 * outlive the probe (kprobes' delayed unoptimizer), calls nothing and
 * is freed later with @s (ftrace_mux_detour_free_jumps()).  Under
 * ftrace_mux_detour_mutex.
 */
void ftrace_mux_site_remove(struct ftrace_mux_site *s)
{
	lockdep_assert_held(&ftrace_mux_detour_mutex);
	mutex_lock(&ftrace_lock);
	list_del(&s->list);
	WRITE_ONCE(s->dead, true);
	if (s->jump.text) {
		mutex_lock(&text_mutex);
		arch_ftrace_mux_jump_set_target(&s->jump, ftrace_stub);
		mutex_unlock(&text_mutex);
	}
	mutex_unlock(&ftrace_lock);
	/* Returns once no CPU runs the handler, nor the fallback past its test */
	unregister_kprobe(&s->kp);
	ftrace_mux_nr_sites--;
	ftrace_mux_jump_bury(&s->jump, s);
}

/**
 * ftrace_mux_sites_remove_func - remove every site of a function
 * @func: the function's address
 *
 * Before its detour goes: the sites read its record.  Under
 * ftrace_mux_detour_mutex.
 *
 * Return: how many sites were removed.
 */
unsigned int ftrace_mux_sites_remove_func(unsigned long func)
{
	struct ftrace_mux_site *s, *n;
	unsigned int nr = 0;

	lockdep_assert_held(&ftrace_mux_detour_mutex);
	list_for_each_entry_safe(s, n, &ftrace_mux_sites, list) {
		if (s->func == func) {
			ftrace_mux_site_remove(s);
			nr++;
		}
	}
	return nr;
}

/**
 * ftrace_mux_sites_of - does a function have sites?
 * @func: the function's address
 *
 * Under ftrace_mux_detour_mutex.
 *
 * Return: true if it has one at least.
 */
bool ftrace_mux_sites_of(unsigned long func)
{
	struct ftrace_mux_site *s;

	list_for_each_entry(s, &ftrace_mux_sites, list)
		if (s->func == func)
			return true;
	return false;
}

/**
 * ftrace_mux_sites_remove_all - remove every site
 *
 * Under ftrace_mux_detour_mutex.
 */
void ftrace_mux_sites_remove_all(void)
{
	struct ftrace_mux_site *s, *n;

	lockdep_assert_held(&ftrace_mux_detour_mutex);
	list_for_each_entry_safe(s, n, &ftrace_mux_sites, list)
		ftrace_mux_site_remove(s);
}

/**
 * ftrace_mux_sites_show - list the sites, as detour_functions does
 * @m: where
 *
 * One line each: "[MODULE:]FUNC@CALLER+0xOFFSET", then "jump" or "int3".
 * Under ftrace_mux_detour_mutex.
 */
void ftrace_mux_sites_show(struct seq_file *m)
{
	struct ftrace_mux_site *s;

	list_for_each_entry(s, &ftrace_mux_sites, list)
		seq_printf(m, "%s %s\n", s->name, ftrace_mux_kprobe_state(&s->kp));
}

/**
 * ftrace_mux_sites_show_rec - enabled_functions' column of inlined sites
 * @m: the seq_file
 * @rec: a traced record
 *
 * Where the record's function runs inlined and is traced with it, as
 * "\tinlined: CALLER+0xOFFSET,...".  Called by ftrace_mux_show_rec()
 * under ftrace_lock.
 */
void ftrace_mux_sites_show_rec(struct seq_file *m, struct dyn_ftrace *rec)
{
	struct ftrace_mux_site *s;
	bool first = true;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(s, &ftrace_mux_sites, list) {
		if (ftrace_mux_site_rec(s) != rec)
			continue;
		seq_printf(m, "%s%s", first ? "\tinlined: " : ",",
			   strchr(s->name, '@') + 1);
		first = false;
	}
}

/*
 * A module's sites go with it, and the sites of its functions in other
 * text, before its detours (whose records they read) and before kprobes'
 * own notifier (see ftrace_mux_detour_module_notify()).
 */
static int ftrace_mux_site_module_notify(struct notifier_block *nb,
					 unsigned long state, void *data)
{
	struct ftrace_mux_site *s, *n;
	struct module *mod = data;
	bool removed = false;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&ftrace_mux_detour_mutex);
	list_for_each_entry_safe(s, n, &ftrace_mux_sites, list) {
		if (within_module((unsigned long)s->kp.addr, mod) ||
		    within_module(s->func, mod)) {
			ftrace_mux_site_remove(s);
			removed = true;
		}
	}
	if (removed)
		wait_for_kprobe_optimizer();
	mutex_unlock(&ftrace_mux_detour_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block ftrace_mux_site_module_nb = {
	.notifier_call	= ftrace_mux_site_module_notify,
	.priority	= 2,	/* before the detours' (1) and kprobes' (0) */
};

static __init int ftrace_mux_site_init(void)
{
	return register_module_notifier(&ftrace_mux_site_module_nb);
}
fs_initcall(ftrace_mux_site_init);
