// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: the tracefs interface.
 *
 *   function_tracers    one line per running function tracer: "*" for the
 *                       one the reader's top-level filter files edit,
 *                       name, ID, functions it is called for, flags (with
 *                       "selected-by:PID" for each process that selected
 *                       it).  Writing a name selects that tracer for the
 *                       writing program (ftrace_mux_select.c): the
 *                       top-level set_ftrace_filter and set_ftrace_notrace
 *                       it opens then edit that tracer's filter; writing
 *                       "!function_profile" or "!function_graph" makes it
 *                       share the global filter again.
 *   function_filters    every tracer's filter and notrace entries, one per
 *                       line, "[  name] func" and "[  name] !func".
 *   set_tracer_filter   "NAME filter|notrace set|add|remove PATTERN" or
 *                       "NAME filter|notrace reset": edit a named tracer's
 *                       filter without touching the selection; "set"
 *                       replaces it, as "echo PATTERN > set_ftrace_filter".
 *
 * enabled_functions gains, on each traced site, how it is served, the mask
 * of its tracers and their names (ftrace_mux_show_rec()); function_tracers
 * ends with the counts of IDs, sets and trampolines.
 */
#include <linux/ftrace_mux.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "ftrace_mux_detour.h"
#include "ftrace_mux_internal.h"
#include "trace.h"

/* The top-level function tracer, whose filter is the global one. */
static struct ftrace_ops *ftrace_mux_global_ops(void)
{
	return top_trace_array()->ops;
}

/* The tracer the current program's top-level filter files edit. */
static struct ftrace_ops *ftrace_mux_selected_ops(void)
{
	return ftrace_mux_selection() ?: ftrace_mux_global_ops();
}

/*
 * The tracers whose filter is the user's to set, which can be selected or
 * edited by name: the function and function_graph tracers of each trace
 * array ("INSTANCE:function" names an instance's), the profiler and the
 * stack tracer.  The filters of kprobes, fprobes, perf, BPF or modules
 * belong to their owners.
 */
enum ftrace_mux_kind {
	FTRACE_MUX_FUNCTION,
	FTRACE_MUX_FUNCTION_GRAPH,
	FTRACE_MUX_PROFILE,
	FTRACE_MUX_STACK,
	FTRACE_MUX_NR_KINDS
};

static const struct {
	const char	*name;
	bool		per_array;	/* one in each trace array */
	bool		reshares;	/* shared the global filter to begin with */
} ftrace_mux_kinds[FTRACE_MUX_NR_KINDS] = {
	[FTRACE_MUX_FUNCTION]		= { "function",		true,	false },
	[FTRACE_MUX_FUNCTION_GRAPH]	= { "function_graph",	true,	true },
	[FTRACE_MUX_PROFILE]		= { "function_profile",	false,	true },
	[FTRACE_MUX_STACK]		= { "stack_trace",	false,	false },
};

/* The kind @name is, given with an instance's name before it or not; or -1 */
static int ftrace_mux_kind(const char *name, bool in_instance)
{
	int k;

	for (k = 0; k < FTRACE_MUX_NR_KINDS; k++) {
		if (!strcmp(name, ftrace_mux_kinds[k].name))
			return !in_instance || ftrace_mux_kinds[k].per_array ? k : -1;
	}
	return -1;
}

/* The kind of tracer @ops is, or -1 for one whose filter is its owner's */
static int ftrace_mux_ops_kind(struct ftrace_ops *ops)
{
	int k;

	if (IS_ENABLED(CONFIG_FUNCTION_PROFILER) && ops == ftrace_profiler_ops())
		return FTRACE_MUX_PROFILE;
	if (!ops->name)
		return -1;
	k = ftrace_mux_kind(ops->name, false);
	/* Only trace arrays have function and function_graph tracers */
	if (k >= 0 && ftrace_mux_kinds[k].per_array != !!ftrace_mux_ops_trace_array(ops))
		return -1;
	/* The profiler is the one above */
	return k == FTRACE_MUX_PROFILE ? -1 : k;
}

static bool ftrace_mux_selectable(struct ftrace_ops *ops)
{
	return ftrace_mux_ops_kind(ops) >= 0;
}

/*
 * Only the profiler and the top-level function_graph tracer shared the
 * global filter to begin with, so only they can share it again.
 */
static bool ftrace_mux_reshareable(struct ftrace_ops *ops)
{
	int k = ftrace_mux_ops_kind(ops);

	if (k < 0 || !ftrace_mux_kinds[k].reshares)
		return false;
	return !ftrace_mux_kinds[k].per_array ||
	       ftrace_mux_ops_trace_array(ops) == top_trace_array();
}

/* Names of the tracers of @set, comma separated. */
static void ftrace_mux_show_names(struct seq_file *m, struct ftrace_mux_set *set)
{
	char name[FTRACE_MUX_NAME_LEN];
	struct ftrace_ops *op;
	const char *sep = "";
	unsigned int i;

	for (i = 0; set && i < set->nr; i++) {
		op = rcu_dereference_protected(ftrace_mux_ops[set->ids[i]],
					       lockdep_is_held(&ftrace_lock));
		if (op)
			ftrace_mux_ops_name(op, name, sizeof(name));
		else
			strscpy(name, "?", sizeof(name));
		seq_printf(m, "%s%s", sep, name);
		sep = ",";
	}
}

/*
 * @set's IDs as one hexadecimal bitmask of any width, "0" for none, so
 * that up to 64 IDs read as one word.
 */
static void ftrace_mux_show_mask(struct seq_file *m, struct ftrace_mux_set *set)
{
	unsigned int nibble, i;
	u8 digit;

	if (!set || !set->nr) {
		seq_putc(m, '0');
		return;
	}
	seq_puts(m, "0x");
	/* ids[] ascends: walk it down alongside the digits */
	i = set->nr;
	for (nibble = set->ids[set->nr - 1] / 4 + 1; nibble--; ) {
		for (digit = 0; i && set->ids[i - 1] / 4 == nibble; i--)
			digit |= 1 << (set->ids[i - 1] % 4);
		seq_putc(m, hex_asc[digit]);
	}
}

/**
 * ftrace_mux_show_rec - enabled_functions' ftrace-mux column of a site
 * @m: the seq_file
 * @rec: the traced site's record
 *
 * Called by enabled_functions' t_show() under ftrace_lock, for every
 * traced site: the mask of its tracers with IDs, how the site is served
 * and their names.  "set" is the trampoline of the site's set of tracers;
 * "tramp" is one ops' own trampoline, "direct" a direct call alone, and
 * "list" ftrace_caller with the list function, all ftrace's own paths;
 * "detour" a function without fentry call reached through a kprobe
 * (always with pt_regs).  The sites of the function's inlined copies
 * come first, if it has any ("inlined:").
 */
void ftrace_mux_show_rec(struct seq_file *m, struct dyn_ftrace *rec)
{
	struct ftrace_mux_set *set = ftrace_mux_rec_tracers(rec->flags);
	struct ftrace_mux_tramp *t = ftrace_mux_rec_tramp(rec);
	bool regs = rec->flags & FTRACE_FL_REGS_EN;
	const char *path;

	if (ftrace_rec_is_detour(rec)) {
		path = "detour";
		regs = true;
	} else if (t) {
		path = "set";
		regs = t->flavour == FTRACE_MUX_FENTRY_REGS;
	} else if ((rec->flags & FTRACE_FL_DIRECT_EN) && ftrace_rec_count(rec) == 1) {
		/* Before TRAMP_EN: a direct ops may have a trampoline too */
		path = "direct";
	} else if (rec->flags & FTRACE_FL_TRAMP_EN) {
		path = "tramp";
	} else {
		path = "list";
	}
	/* Before the column below, whose tracers end the line */
	ftrace_mux_sites_show_rec(m, rec);
	seq_puts(m, "\tmux: ");
	ftrace_mux_show_mask(m, set);
	seq_printf(m, " %s%s [", path, regs ? " R" : "");
	ftrace_mux_show_names(m, set);
	seq_putc(m, ']');
}

struct ftrace_mux_site_count {
	unsigned long	traced;		/* sites that call something */
	unsigned long	on_set;		/* ... a set's trampoline */
	unsigned long	wrong;		/* text other than the record says */
};

/*
 * Is the text of @rec's site what its record says: the call ftrace
 * verifies before it changes the site, or the nop it left there at boot?
 * Detours have no fentry site of theirs.
 */
static bool ftrace_mux_site_as_recorded(struct dyn_ftrace *rec)
{
	if (ftrace_rec_is_detour(rec))
		return true;
	if (!(rec->flags & FTRACE_FL_ENABLED))
		return arch_ftrace_mux_site_is_nop(rec->ip);
	return arch_ftrace_mux_call_target(rec->ip) == ftrace_get_addr_curr(rec);
}

/*
 * Count, per ID, the functions its tracer is called for, and check every
 * site against its record: with no tracer left, every site is the nop it
 * was at boot (the selftests' zero-effect check).
 */
static void ftrace_mux_count_recs(unsigned long *count,
				  struct ftrace_mux_site_count *sites)
{
	struct ftrace_rec_iter *iter;
	struct ftrace_mux_set *set;
	struct dyn_ftrace *rec;
	unsigned int i;

	for_ftrace_rec_iter(iter) {
		rec = ftrace_rec_iter_record(iter);
		set = ftrace_mux_rec_tracers(rec->flags);
		for (i = 0; set && i < set->nr; i++)
			count[set->ids[i]]++;
		if (rec->flags & FTRACE_FL_ENABLED)
			sites->traced++;
		if (ftrace_mux_rec_patched(rec->flags))
			sites->on_set++;
		if (!ftrace_mux_site_as_recorded(rec))
			sites->wrong++;
	}
}

static void ftrace_mux_tracer_line(struct seq_file *m, struct ftrace_ops *op,
				   struct ftrace_ops *selected, unsigned long *count)
{
	char name[FTRACE_MUX_NAME_LEN];
	int id = ftrace_mux_ops_id(op);

	ftrace_mux_ops_name(op, name, sizeof(name));
	seq_printf(m, "%c  %-24s ", op == selected ? '*' : ' ', name);
	if (id >= 0)
		seq_printf(m, "%3d %9lu ", id, count[id]);
	else
		seq_printf(m, "%3s %9s ", "-", "-");
	seq_printf(m, " %s%s%s%s%s",
		   op->func_hash == &ftrace_mux_global_ops()->local_hash ?
		   "global-filter" : "own-filter",
		   op->flags & FTRACE_OPS_FL_SUBOP ? ",fgraph-user" : "",
		   op->flags & FTRACE_OPS_FL_SAVE_REGS ? ",regs" : "",
		   op->flags & FTRACE_OPS_FL_IPMODIFY ? ",ipmodify" : "",
		   id < 0 ? ",no-id" : "");
	ftrace_mux_show_selectors(m, op);
	seq_putc(m, '\n');
}

/*
 * Every running tracer: the ops on the call sites, each followed by the
 * subops it dispatches to (fgraph's users).  @fn returns true to stop.
 */
typedef bool (*ftrace_mux_tracer_fn)(struct ftrace_ops *op, void *data);

static struct ftrace_ops *ftrace_mux_walk_tracers(ftrace_mux_tracer_fn fn, void *data)
{
	struct ftrace_ops *op, *sub;

	lockdep_assert_held(&ftrace_lock);
	do_for_each_ftrace_op(op, ftrace_ops_list) {
		if (op == &ftrace_list_end || !(op->flags & FTRACE_OPS_FL_ENABLED))
			continue;
		if (fn(op, data))
			return op;
		list_for_each_entry(sub, &op->subop_list, list)
			if (fn(sub, data))
				return sub;
	} while_for_each_ftrace_op(op);
	return NULL;
}

struct ftrace_mux_show_data {
	struct seq_file *m;
	struct ftrace_ops *selected;
	unsigned long *count;
};

static bool ftrace_mux_show_one(struct ftrace_ops *op, void *data)
{
	struct ftrace_mux_show_data *d = data;

	ftrace_mux_tracer_line(d->m, op, d->selected, d->count);
	return false;
}

static int ftrace_mux_tracers_show(struct seq_file *m, void *v)
{
	/* Too large for the stack; under ftrace_lock */
	static unsigned long count[FTRACE_MUX_IDS];
	struct ftrace_mux_show_data d = { .m = m, .count = count };
	struct ftrace_mux_site_count sites = { };
	unsigned long live, dead, tramps, bytes, no_tramp;
	unsigned int busy, draining;

	mutex_lock(&ftrace_lock);
	memset(count, 0, sizeof(count));
	ftrace_mux_count_recs(count, &sites);
	ftrace_mux_id_counts(&busy, &draining);
	d.selected = ftrace_mux_selected_ops();
	seq_printf(m, "#  %-24s %3s %9s  %s\n", "tracer", "id", "functions", "flags");
	ftrace_mux_walk_tracers(ftrace_mux_show_one, &d);
	seq_printf(m, "# ids: %u in use, %u draining, %u free of %d; tracers started without an id: %lu\n",
		   busy, draining, FTRACE_MUX_IDS - busy - draining, FTRACE_MUX_IDS,
		   ftrace_mux_stats.no_id);
	ftrace_mux_sets_count(&live, &dead);
	ftrace_mux_tramps_count(&tramps, &bytes, &no_tramp);
	seq_printf(m, "# sets: %lu live, %lu freeing; trampolines: %lu, %lu bytes; sets not made: %lu, trampolines not made: %lu\n",
		   live, dead, tramps, bytes, ftrace_mux_stats.no_set, no_tramp);
	seq_printf(m, "# sites: %lu traced, %lu on a set's trampoline, %lu not as their record says\n",
		   sites.traced, sites.on_set, sites.wrong);
	mutex_unlock(&ftrace_lock);
	return 0;
}

static bool ftrace_mux_name_is(struct ftrace_ops *op, void *data)
{
	char name[FTRACE_MUX_NAME_LEN];

	ftrace_mux_ops_name(op, name, sizeof(name));
	return !strcmp(name, data);
}

static struct ftrace_ops *ftrace_mux_find(const char *name, struct trace_array **trp,
					  bool *tracer_name);

static int ftrace_mux_tracers_open(struct inode *inode, struct file *file)
{
	int ret = tracing_check_open_get_tr(NULL);

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && !(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, ftrace_mux_tracers_show, NULL);
}

static int ftrace_mux_tracers_release(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return single_release(inode, file);
	return 0;
}

enum {
	FTRACE_MUX_ERR_UNKNOWN,
	FTRACE_MUX_ERR_NOT_SELECTABLE,
	FTRACE_MUX_ERR_BAD_NAME,
	FTRACE_MUX_ERR_NOT_SHARED,
	FTRACE_MUX_ERR_BAD_EDIT,
	FTRACE_MUX_ERR_NOT_RUNNING,
	FTRACE_MUX_ERR_NO_MATCH,
	FTRACE_MUX_ERR_RESHARED,
};

static const char * const ftrace_mux_errs[] = {
	[FTRACE_MUX_ERR_UNKNOWN]	= "No running function tracer has this name",
	[FTRACE_MUX_ERR_NOT_SELECTABLE]	= "This tracer's filter belongs to its owner",
	[FTRACE_MUX_ERR_BAD_NAME]	= "Expected one tracer name",
	[FTRACE_MUX_ERR_NOT_SHARED]	=
		"Only function_profile and function_graph share the global filter",
	[FTRACE_MUX_ERR_BAD_EDIT]	=
		"Expected: NAME filter|notrace set|add|remove PATTERN, or NAME filter|notrace reset",
	[FTRACE_MUX_ERR_NOT_RUNNING]	= "No such tracer, or it is not running",
	[FTRACE_MUX_ERR_NO_MATCH]	= "No function matches the pattern",
	[FTRACE_MUX_ERR_RESHARED]	=
		"The tracer shares the global filter again: edit dropped",
};

static void ftrace_mux_err(const char *file, const char *name, int type)
{
	tracing_log_err(NULL, file, name ?: "", ftrace_mux_errs, type, 0);
}

/*
 * The @cnt bytes userspace wrote, as a string to kfree(), or an ERR_PTR:
 * -EINVAL if they are more than @max or hold a NUL (malformed, not the
 * end of the input), -EFAULT or -ENOMEM.
 */
static char *ftrace_mux_user_string(const char __user *ubuf, size_t cnt,
				    size_t max)
{
	char *buf;

	if (cnt > max)
		return ERR_PTR(-EINVAL);
	buf = memdup_user_nul(ubuf, cnt);
	if (!IS_ERR(buf) && strlen(buf) != cnt) {
		kfree(buf);
		return ERR_PTR(-EINVAL);
	}
	return buf;
}

/*
 * Select the tracer @sel names for the writing program, or with @share
 * let it share the global filter again.  Returns 0 or the error, logged.
 */
static int ftrace_mux_select_name(const char *sel, bool share)
{
	struct trace_array *tr;
	struct ftrace_ops *found;
	bool tracer_name;
	int err = 0;

	if (!strcmp(sel, "function")) {
		/* "!function": it owns the global filter already */
		if (!share) {
			mutex_lock(&ftrace_lock);
			ftrace_mux_select(NULL);
			mutex_unlock(&ftrace_lock);
		}
		return 0;
	}
	found = ftrace_mux_find(sel, &tr, &tracer_name);
	if (found && !ftrace_mux_selectable(found)) {
		ftrace_mux_err("function_tracers", sel, FTRACE_MUX_ERR_NOT_SELECTABLE);
		err = -EPERM;
	} else if (share && (found ? !ftrace_mux_reshareable(found) : tracer_name)) {
		ftrace_mux_err("function_tracers", sel, FTRACE_MUX_ERR_NOT_SHARED);
		err = -EPERM;
	} else if (!found) {
		ftrace_mux_err("function_tracers", sel, FTRACE_MUX_ERR_UNKNOWN);
		err = -EINVAL;
	} else if (share) {
		/* Re-sharing works on a stopped tracer; it takes the locks */
		err = ftrace_ops_share_global_filter(found);
	} else {
		/* Selecting needs a running one */
		mutex_lock(&ftrace_lock);
		if (found->flags & FTRACE_OPS_FL_ENABLED) {
			err = ftrace_mux_select(found == ftrace_mux_global_ops() ?
						NULL : found);
		} else {
			ftrace_mux_err("function_tracers", sel, FTRACE_MUX_ERR_UNKNOWN);
			err = -EINVAL;
		}
		mutex_unlock(&ftrace_lock);
	}
	if (tr)
		trace_array_put(tr);
	return err;
}

/* A tracer's name, or "!name": nothing changes on error. */
static ssize_t ftrace_mux_tracers_write(struct file *file,
					const char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	char *buf, *sel;
	bool share;
	int err;

	if (!cnt)
		return 0;
	buf = ftrace_mux_user_string(ubuf, cnt, FTRACE_MUX_NAME_LEN - 1);
	if (IS_ERR(buf)) {
		if (PTR_ERR(buf) == -EINVAL)
			ftrace_mux_err("function_tracers", NULL, FTRACE_MUX_ERR_BAD_NAME);
		return PTR_ERR(buf);
	}
	sel = strim(buf);
	if (!*sel || strpbrk(sel, " \t\n")) {
		ftrace_mux_err("function_tracers", sel, FTRACE_MUX_ERR_BAD_NAME);
		err = -EINVAL;
	} else {
		share = *sel == '!';
		err = ftrace_mux_select_name(sel + share, share);
	}
	kfree(buf);
	if (err)
		return err;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations ftrace_mux_tracers_fops = {
	.open		= ftrace_mux_tracers_open,
	.read		= seq_read,
	.write		= ftrace_mux_tracers_write,
	.llseek		= seq_lseek,
	.release	= ftrace_mux_tracers_release,
};

/**
 * ftrace_mux_filter_target - the tracer a top-level filter file edits
 * @tr: in, the top-level trace array; out, the one to edit
 * @ops: out, the ops whose filter to edit
 * @file: the set_ftrace_filter or set_ftrace_notrace being opened
 *
 * The top-level set_ftrace_filter and set_ftrace_notrace edit the tracer
 * the opening program selected.  Called from their open(); leaves in *@tr
 * and *@ops what ftrace_regex_open() is to use.  A selected tracer that
 * still shares the global filter gets its own copy of it when the file is
 * opened for writing; if that fails, the open fails rather than edit the
 * global filter instead.
 *
 * Return: 0, or a negative errno for open() to return.
 */
int ftrace_mux_filter_target(struct trace_array **tr, struct ftrace_ops **ops,
			     struct file *file)
{
	struct trace_array *sel_tr;
	struct ftrace_ops *sel;
	bool moved;
	int ret = 0;

	if (*tr && *tr != top_trace_array())
		return 0;
again:
	mutex_lock(&ftrace_lock);
	sel = ftrace_mux_selection();
	sel_tr = sel ? ftrace_mux_ops_trace_array(sel) : NULL;
	mutex_unlock(&ftrace_lock);
	if (!sel)
		return 0;
	/*
	 * Separating takes the hash's regex_lock, which nests outside
	 * ftrace_lock: pin a trace array's tracer meanwhile.  The pin is
	 * taken without ftrace_lock (trace_types_lock nests outside it), so
	 * the tracer may have stopped and its instance been replaced by one
	 * at the same address: a stop ends the selection, so it is still
	 * there only if the array pinned is the selected tracer's.
	 * ftrace_regex_open() pins it through the open.
	 */
	if (sel_tr && trace_array_get(sel_tr) < 0)
		goto again;
	mutex_lock(&ftrace_lock);
	moved = ftrace_mux_selection() != sel;
	mutex_unlock(&ftrace_lock);
	if (moved) {
		if (sel_tr)
			trace_array_put(sel_tr);
		goto again;
	}
	if (file->f_mode & FMODE_WRITE)
		ret = ftrace_ops_separate_filter(sel);
	if (!ret) {
		*ops = sel;
		*tr = sel_tr;
	}
	if (sel_tr)
		trace_array_put(sel_tr);
	return ret;
}

/**
 * ftrace_mux_edit_dropped - report an edit that could not be committed
 * @ops: the ops whose own filter the edit was opened on
 *
 * An edit opened on @ops' own filter is closed after "!name" made @ops
 * share the global one again: ftrace_regex_release() drops it, since
 * committing it through @ops would rewrite the global filter behind its
 * other users.  Closing a file cannot fail, so say it in error_log.
 */
void ftrace_mux_edit_dropped(struct ftrace_ops *ops)
{
	char name[FTRACE_MUX_NAME_LEN];

	ftrace_mux_ops_name(ops, name, sizeof(name));
	ftrace_mux_err("set_ftrace_filter", name, FTRACE_MUX_ERR_RESHARED);
}

/*
 * The one place a tracer's name is resolved, for editing its filter or
 * selecting it; NULL if there is none.  The function and function_graph
 * tracers of trace arrays exist while their array does, running or not,
 * and their array is pinned in *@trp; the profiler is static and always
 * there; any other tracer is found while it runs (to tell its owner's
 * filter from a mistyped name).  *@tracer_name says whether @name has
 * the form of a tracer the user may select, found or not.
 */
static struct ftrace_ops *ftrace_mux_find(const char *name, struct trace_array **trp,
					  bool *tracer_name)
{
	const char *colon = strrchr(name, ':');
	int kind = ftrace_mux_kind(colon ? colon + 1 : name, !!colon);
	struct trace_array *tr = NULL;
	struct ftrace_ops *ops = NULL;

	*trp = NULL;
	*tracer_name = kind >= 0;
	if (kind < 0 || kind == FTRACE_MUX_STACK) {
		mutex_lock(&ftrace_lock);
		ops = ftrace_mux_walk_tracers(ftrace_mux_name_is, (void *)name);
		mutex_unlock(&ftrace_lock);
		return ops;
	}
	if (kind == FTRACE_MUX_PROFILE)
		return IS_ENABLED(CONFIG_FUNCTION_PROFILER) ? ftrace_profiler_ops() : NULL;
	if (colon) {
		char *inst = kstrndup(name, colon - name, GFP_KERNEL);

		if (!inst)
			return NULL;
		tr = trace_array_find_get(inst);
		kfree(inst);
	} else {
		tr = top_trace_array();
		if (trace_array_get(tr) < 0)
			tr = NULL;
	}
	if (!tr)
		return NULL;

	if (kind == FTRACE_MUX_FUNCTION)
		ops = tr->ops;
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	else if (tr->gops)
		ops = &tr->gops->ops;
#endif
	if (!ops) {
		trace_array_put(tr);
		return NULL;
	}
	*trp = tr;
	return ops;
}

#define FTRACE_MUX_EDIT_MAX	256

/* One edit of set_tracer_filter, parsed */
struct ftrace_mux_edit {
	char	*name;
	bool	notrace_list;	/* the notrace list, not the filter */
	bool	reset;		/* start from an empty list */
	char	*pattern;	/* NULL for "reset"; "!PATTERN" for "remove" */
};

/*
 * Parse "NAME filter|notrace set|add|remove PATTERN" or "NAME
 * filter|notrace reset" from @buf into @e; -EINVAL if malformed.
 */
static int ftrace_mux_edit_parse(char *buf, struct ftrace_mux_edit *e)
{
	char *cmd = strim(buf), *which, *op, *pat;

	e->name = strsep(&cmd, " \t");
	which = strsep(&cmd, " \t");
	op = strsep(&cmd, " \t");
	pat = cmd ? strim(cmd) : NULL;
	if (!*e->name || !which || !op)
		return -EINVAL;
	if (strcmp(which, "filter") && strcmp(which, "notrace"))
		return -EINVAL;
	e->notrace_list = which[0] == 'n';
	if (!strcmp(op, "reset")) {
		e->reset = true;
		return pat && *pat ? -EINVAL : 0;
	}
	if (strcmp(op, "set") && strcmp(op, "add") && strcmp(op, "remove"))
		return -EINVAL;
	/* One pattern, so that the edit is all or nothing */
	if (!pat || !*pat || strpbrk(pat, " \t\n"))
		return -EINVAL;
	e->reset = op[0] == 's';
	e->pattern = kasprintf(GFP_KERNEL, "%s%s", op[0] == 'r' ? "!" : "", pat);
	return e->pattern ? 0 : -ENOMEM;
}

/* Make edit @e; returns 0 or the error, logged. */
static int ftrace_mux_edit_apply(struct ftrace_mux_edit *e)
{
	int len = e->pattern ? strlen(e->pattern) : 0;
	struct trace_array *tr;
	struct ftrace_ops *ops;
	bool tracer_name;
	int err;

	ops = ftrace_mux_find(e->name, &tr, &tracer_name);
	if (!ops) {
		ftrace_mux_err("set_tracer_filter", e->name, FTRACE_MUX_ERR_NOT_RUNNING);
		return -ENOENT;
	}
	if (!ftrace_mux_selectable(ops)) {
		ftrace_mux_err("set_tracer_filter", e->name, FTRACE_MUX_ERR_NOT_SELECTABLE);
		err = -EPERM;
		goto out;
	}
	/* Editing a tracer other than "function" must not edit the global filter. */
	err = ops == top_trace_array()->ops ? 0 : ftrace_ops_separate_filter(ops);
	if (!err && e->notrace_list)
		err = ftrace_set_notrace(ops, e->pattern, len, e->reset);
	else if (!err)
		err = ftrace_set_filter(ops, e->pattern, len, e->reset);
	/* EBUSY: "!name" was written since the separation */
	if (err == -EINVAL || err == -EBUSY)
		ftrace_mux_err("set_tracer_filter", e->name, err == -EINVAL ?
			       FTRACE_MUX_ERR_NO_MATCH : FTRACE_MUX_ERR_RESHARED);
out:
	if (tr)
		trace_array_put(tr);
	return err;
}

/* One edit of one named tracer's filter or notrace list, all or nothing. */
static ssize_t ftrace_mux_edit_write(struct file *file, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	struct ftrace_mux_edit e = { };
	char *buf;
	int err;

	if (!cnt)
		return 0;
	buf = ftrace_mux_user_string(ubuf, cnt, FTRACE_MUX_EDIT_MAX);
	if (IS_ERR(buf)) {
		if (PTR_ERR(buf) == -EINVAL)
			ftrace_mux_err("set_tracer_filter", NULL, FTRACE_MUX_ERR_BAD_EDIT);
		return PTR_ERR(buf);
	}
	err = ftrace_mux_edit_parse(buf, &e);
	if (err == -EINVAL)
		ftrace_mux_err("set_tracer_filter", e.name, FTRACE_MUX_ERR_BAD_EDIT);
	else if (!err)
		err = ftrace_mux_edit_apply(&e);
	kfree(e.pattern);
	kfree(buf);
	if (err)
		return err;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations ftrace_mux_edit_fops = {
	.open		= tracing_open_generic,
	.write		= ftrace_mux_edit_write,
	.llseek		= noop_llseek,
};

static void ftrace_mux_show_hash(struct seq_file *m, const char *name,
				 struct ftrace_hash *hash, bool nt)
{
	struct ftrace_func_entry *entry;
	int i;

	if (!hash || !hash->count) {
		if (!nt)
			seq_printf(m, "[%16s] #### all functions enabled ####\n", name);
		return;
	}
	/* An entry of a removed module's function is cleared to ip 0 */
	for (i = 0; i < (1 << hash->size_bits); i++)
		hlist_for_each_entry(entry, &hash->buckets[i], hlist)
			if (entry->ip)
				seq_printf(m, "[%16s] %s%ps\n", name, nt ? "!" : "",
					   (void *)entry->ip);
}

static bool ftrace_mux_filters_one(struct ftrace_ops *op, void *data)
{
	char name[FTRACE_MUX_NAME_LEN];
	struct seq_file *m = data;

	/* fgraph's hash is the union of its users', shown with them */
	if (!list_empty(&op->subop_list))
		return false;
	ftrace_mux_ops_name(op, name, sizeof(name));
	ftrace_mux_show_hash(m, name, op->func_hash->filter_hash, false);
	ftrace_mux_show_hash(m, name, op->func_hash->notrace_hash, true);
	return false;
}

static int ftrace_mux_filters_show(struct seq_file *m, void *v)
{
	mutex_lock(&ftrace_lock);
	ftrace_mux_walk_tracers(ftrace_mux_filters_one, m);
	mutex_unlock(&ftrace_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ftrace_mux_filters);

static __init int ftrace_mux_tracefs_init(void)
{
	int ret = tracing_init_dentry();

	if (ret)
		return 0;
	trace_create_file("function_tracers", TRACE_MODE_WRITE, NULL, NULL,
			  &ftrace_mux_tracers_fops);
	trace_create_file("function_filters", TRACE_MODE_READ, NULL, NULL,
			  &ftrace_mux_filters_fops);
	trace_create_file("set_tracer_filter", TRACE_MODE_WRITE, NULL, NULL,
			  &ftrace_mux_edit_fops);
	return 0;
}
fs_initcall(ftrace_mux_tracefs_init);
