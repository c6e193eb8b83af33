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
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <asm/ftrace_mux.h>

#include "ftrace_mux_detour.h"
#include "ftrace_mux_internal.h"
#include "trace.h"

#define FTRACE_MUX_NAME_LEN	64

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
 * Only tracers whose filter is the user's to set can be selected: the
 * function and function_graph tracers of trace arrays, the profiler and the
 * stack tracer.  The filters
 * of kprobes, fprobes, perf, BPF or modules belong to their owners.
 */
static bool ftrace_mux_is_tracer(const char *name, const char *tracer)
{
	size_t len = strlen(name), tlen = strlen(tracer);

	if (!strcmp(name, tracer))
		return true;
	/* "<instance>:<tracer>" */
	return len > tlen + 1 && name[len - tlen - 1] == ':' &&
	       !strcmp(name + len - tlen, tracer);
}

static bool ftrace_mux_selectable(const char *name)
{
	return ftrace_mux_is_tracer(name, "function") ||
	       ftrace_mux_is_tracer(name, "function_graph") ||
	       !strcmp(name, "function_profile") || !strcmp(name, "stack_trace");
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

/*
 * Called by enabled_functions' t_show() under ftrace_lock, for every
 * traced site: the mask of its tracers with IDs, how the site is served
 * and their names.  "set" is the trampoline of the site's set of tracers;
 * "tramp" is one ops' own trampoline, "direct" a direct call alone, and
 * "list" ftrace_caller with the list function, all upstream's paths;
 * "detour" a function without fentry call reached through a kprobe
 * (always with pt_regs).
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
		   id < 0 && !(op->flags & FTRACE_OPS_FL_SUBOP) ? ",no-id" : "");
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

/* Is a tracer of this name running?  For error messages. */
static bool ftrace_mux_running(const char *name)
{
	bool running;

	mutex_lock(&ftrace_lock);
	running = ftrace_mux_walk_tracers(ftrace_mux_name_is, (void *)name);
	mutex_unlock(&ftrace_lock);
	return running;
}

static struct ftrace_ops *ftrace_mux_edit_target(const char *name,
						 struct trace_array **trp);

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

/* Select a tracer by name, or "!name": unshare; nothing changes on error. */
static ssize_t ftrace_mux_tracers_write(struct file *file,
					const char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	char buf[FTRACE_MUX_NAME_LEN];
	struct trace_array *tr;
	struct ftrace_ops *found;
	bool share = false, nul;
	char *sel;
	int err;

	if (!cnt)
		return 0;
	if (cnt >= sizeof(buf)) {
		tracing_log_err(NULL, "function_tracers", "", ftrace_mux_errs,
				FTRACE_MUX_ERR_BAD_NAME, 0);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	/* A NUL inside the write is malformed, not the end of the name. */
	nul = strlen(buf) != cnt;
	sel = strim(buf);
	if (nul || !*sel || strpbrk(sel, " \t\n")) {
		tracing_log_err(NULL, "function_tracers", sel, ftrace_mux_errs,
				FTRACE_MUX_ERR_BAD_NAME, 0);
		return -EINVAL;
	}

	if (*sel == '!') {
		share = true;
		sel++;
	}

	if (!strcmp(sel, "function")) {
		/* "!function": it owns the global filter already */
		if (!share) {
			mutex_lock(&ftrace_lock);
			ftrace_mux_select(NULL);
			mutex_unlock(&ftrace_lock);
		}
		goto done;
	}
	if (!ftrace_mux_selectable(sel)) {
		if (ftrace_mux_running(sel)) {
			tracing_log_err(NULL, "function_tracers", sel, ftrace_mux_errs,
					FTRACE_MUX_ERR_NOT_SELECTABLE, 0);
			return -EPERM;
		}
		tracing_log_err(NULL, "function_tracers", sel, ftrace_mux_errs,
				FTRACE_MUX_ERR_UNKNOWN, 0);
		return -EINVAL;
	}
	/* Only these shared the global filter to begin with. */
	if (share && strcmp(sel, "function_profile") && strcmp(sel, "function_graph")) {
		tracing_log_err(NULL, "function_tracers", sel, ftrace_mux_errs,
				FTRACE_MUX_ERR_NOT_SHARED, 0);
		return -EPERM;
	}

	found = ftrace_mux_edit_target(sel, &tr);
	err = -EINVAL;
	/* Re-sharing works on a stopped tracer, selecting needs a running one. */
	if (!found) {
		tracing_log_err(NULL, "function_tracers", sel, ftrace_mux_errs,
				FTRACE_MUX_ERR_UNKNOWN, 0);
	} else if (share) {
		/* Takes the locks itself: the hash's regex_lock comes first */
		err = ftrace_ops_share_global_filter(found);
	} else {
		mutex_lock(&ftrace_lock);
		if (found->flags & FTRACE_OPS_FL_ENABLED) {
			err = ftrace_mux_select(found == ftrace_mux_global_ops() ?
						NULL : found);
		} else {
			tracing_log_err(NULL, "function_tracers", sel, ftrace_mux_errs,
					FTRACE_MUX_ERR_UNKNOWN, 0);
		}
		mutex_unlock(&ftrace_lock);
	}
	if (tr)
		trace_array_put(tr);
	if (err)
		return err;
done:
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

/*
 * The top-level set_ftrace_filter and set_ftrace_notrace edit the tracer
 * the opening program selected.  Called from their open() with the
 * top-level trace array in *@tr; leaves in *@tr and *@ops what
 * ftrace_regex_open() is to use.  A selected tracer that still shares the
 * global filter gets its own copy of it when the file is opened for
 * writing; if that fails, the open fails rather than edit the global
 * filter instead.
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

/*
 * An edit opened on @ops' own filter is closed after "!name" made @ops
 * share the global one again: ftrace_regex_release() drops it, since
 * committing it through @ops would rewrite the global filter behind its
 * other users.  Closing a file cannot fail, so say it in error_log.
 */
void ftrace_mux_edit_dropped(struct ftrace_ops *ops)
{
	char name[FTRACE_MUX_NAME_LEN];

	ftrace_mux_ops_name(ops, name, sizeof(name));
	tracing_log_err(NULL, "set_ftrace_filter", name, ftrace_mux_errs,
			FTRACE_MUX_ERR_RESHARED, 0);
}

/*
 * The one place a tracer's name is resolved, for editing its filter or
 * (when it runs) selecting it; NULL if there is none.  The function and
 * function_graph tracers of trace arrays exist while their array does,
 * running or not, and their array is pinned in *@trp; the profiler is
 * static and always there; the stack tracer is found while it runs.
 */
static struct ftrace_ops *ftrace_mux_edit_target(const char *name,
						 struct trace_array **trp)
{
	const char *colon = strrchr(name, ':'), *kind = name;
	struct trace_array *tr = NULL;
	struct ftrace_ops *ops = NULL;

	*trp = NULL;
	if (colon) {
		char *inst = kstrndup(name, colon - name, GFP_KERNEL);

		if (!inst)
			return NULL;
		tr = trace_array_find_get(inst);
		kfree(inst);
		kind = colon + 1;
	} else if (!strcmp(name, "function") || !strcmp(name, "function_graph")) {
		tr = top_trace_array();
		if (trace_array_get(tr) < 0)
			tr = NULL;
	} else if (!strcmp(name, "function_profile")) {
		return IS_ENABLED(CONFIG_FUNCTION_PROFILER) ? ftrace_profiler_ops() : NULL;
	} else if (!strcmp(name, "stack_trace")) {
		mutex_lock(&ftrace_lock);
		ops = ftrace_mux_walk_tracers(ftrace_mux_name_is, (void *)name);
		mutex_unlock(&ftrace_lock);
		return ops;
	}
	if (!tr)
		return NULL;

	if (!strcmp(kind, "function"))
		ops = tr->ops;
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	else if (!strcmp(kind, "function_graph") && tr->gops)
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

/* One edit of one named tracer's filter or notrace list, all or nothing. */
static ssize_t ftrace_mux_edit_write(struct file *file, const char __user *ubuf,
				     size_t cnt, loff_t *ppos)
{
	char *buf, *cmd, *name = NULL, *which, *op, *pat, *arg = NULL;
	struct trace_array *tr;
	struct ftrace_ops *ops;
	bool notrace_list, reset;
	int err = -EINVAL, type = FTRACE_MUX_ERR_BAD_EDIT;

	if (!cnt)
		return 0;
	if (cnt > FTRACE_MUX_EDIT_MAX) {
		tracing_log_err(NULL, "set_tracer_filter", "", ftrace_mux_errs, type, 0);
		return -EINVAL;
	}
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (strlen(buf) != cnt)		/* a NUL inside the write */
		goto log;
	cmd = strim(buf);
	name = strsep(&cmd, " \t");
	which = strsep(&cmd, " \t");
	op = strsep(&cmd, " \t");
	pat = cmd ? strim(cmd) : NULL;
	if (!name || !*name || !which || !op)
		goto log;
	if (!strcmp(which, "filter"))
		notrace_list = false;
	else if (!strcmp(which, "notrace"))
		notrace_list = true;
	else
		goto log;
	if (!strcmp(op, "reset")) {
		if (pat && *pat)
			goto log;
	} else if (!strcmp(op, "set") || !strcmp(op, "add") || !strcmp(op, "remove")) {
		/* One pattern, so that the edit is all or nothing */
		if (!pat || !*pat || strpbrk(pat, " \t\n"))
			goto log;
		arg = kasprintf(GFP_KERNEL, "%s%s", op[0] == 'r' ? "!" : "", pat);
		if (!arg) {
			err = -ENOMEM;
			goto out;
		}
	} else {
		goto log;
	}
	if (!ftrace_mux_selectable(name)) {
		bool running = ftrace_mux_running(name);

		type = running ? FTRACE_MUX_ERR_NOT_SELECTABLE : FTRACE_MUX_ERR_NOT_RUNNING;
		err = running ? -EPERM : -ENOENT;
		goto log;
	}
	ops = ftrace_mux_edit_target(name, &tr);
	if (!ops) {
		type = FTRACE_MUX_ERR_NOT_RUNNING;
		err = -ENOENT;
		goto log;
	}

	/* Editing a tracer other than "function" must not edit the global filter. */
	err = ops == top_trace_array()->ops ? 0 : ftrace_ops_separate_filter(ops);
	/* "reset" and "set" start from an empty list, in one hash move */
	reset = !arg || op[0] == 's';
	if (!err && notrace_list)
		err = ftrace_set_notrace(ops, arg, arg ? strlen(arg) : 0, reset);
	else if (!err)
		err = ftrace_set_filter(ops, arg, arg ? strlen(arg) : 0, reset);
	if (tr)
		trace_array_put(tr);
	if (err == -EINVAL || err == -EBUSY) {
		/* EBUSY: "!name" was written since the separation */
		type = err == -EINVAL ? FTRACE_MUX_ERR_NO_MATCH : FTRACE_MUX_ERR_RESHARED;
		goto log;
	}
	goto out;
log:
	tracing_log_err(NULL, "set_tracer_filter", name && *name ? name : "",
			ftrace_mux_errs, type, 0);
out:
	kfree(arg);
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
