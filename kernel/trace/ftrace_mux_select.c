// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: which tracer a program's top-level filter files edit.
 *
 * Writing a tracer's name to function_tracers selects it for the program
 * that wrote it, and for no one else: the top-level set_ftrace_filter and
 * set_ftrace_notrace that this program opens then edit the selected
 * tracer's filter.  Every other program, and so every tool that never
 * wrote function_tracers (perf, trace-cmd, an external command run by the
 * selecting shell), gets upstream's files: the global filter, which the
 * function tracer uses.  A tool that does not know ftrace-mux can then
 * never edit another tracer's filter by accident.
 *
 * "The program" is the writing process (its thread group) together with
 * its forks that have not exec'd, so that a shell's subshells, command
 * substitutions and pipelines of builtins keep the shell's selection:
 *
 *   sh (selects function_profile) ----- fork ----> ( subshell )  selected
 *     \                                               \
 *      fork + exec perf   not selected                 fork + exec cat  not
 *
 * A child that exec'd has task->self_exec_id != task->parent_exec_id
 * (fork copies the parent's self_exec_id into both, exec bumps the
 * former), which ends the walk up its parents; so does a parent whose
 * self_exec_id is not the child's parent_exec_id, as when an orphan was
 * reparented to a subreaper.
 *
 * A selection ends when its process writes "function" to function_tracers,
 * execs another program, or exits, and when the selected tracer stops
 * (removing an instance stops its tracers).  Selections are a short list
 * under ftrace_lock, each holding its process's struct pid, so that a pid
 * number reused by another process never inherits one; entries whose
 * process exited or exec'd are dropped whenever the list is searched.
 */
#include <linux/ftrace.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ftrace_internal.h"
#include "ftrace_mux_select.h"

struct ftrace_mux_selection {
	struct list_head	list;
	struct pid		*owner;		/* the selecting thread group */
	u64			exec_id;	/* its self_exec_id then */
	struct ftrace_ops	*ops;
};

/* Under ftrace_lock */
static LIST_HEAD(ftrace_mux_selections);

static void ftrace_mux_selection_free(struct ftrace_mux_selection *s)
{
	list_del(&s->list);
	put_pid(s->owner);
	kfree(s);
}

/* Is @s's program still the one that made it? */
static bool ftrace_mux_selection_live(struct ftrace_mux_selection *s)
{
	struct task_struct *t;
	bool live;

	rcu_read_lock();
	t = pid_task(s->owner, PIDTYPE_TGID);
	live = t && !(t->flags & PF_EXITING) &&
	       READ_ONCE(t->self_exec_id) == s->exec_id;
	rcu_read_unlock();
	return live;
}

/* Drop the selections that ended with their program. */
static void ftrace_mux_selections_reap(void)
{
	struct ftrace_mux_selection *s, *tmp;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry_safe(s, tmp, &ftrace_mux_selections, list)
		if (!ftrace_mux_selection_live(s))
			ftrace_mux_selection_free(s);
}

static struct ftrace_mux_selection *ftrace_mux_selection_of(struct pid *tgid)
{
	struct ftrace_mux_selection *s;

	list_for_each_entry(s, &ftrace_mux_selections, list)
		if (s->owner == tgid)
			return s;
	return NULL;
}

/*
 * The tracer the current program selected, NULL for none (the global
 * filter): its own selection, or that of the nearest parent it is a fork
 * of, with no exec between.
 */
struct ftrace_ops *ftrace_mux_selection(void)
{
	struct ftrace_mux_selection *s = NULL;
	struct task_struct *t, *parent;

	lockdep_assert_held(&ftrace_lock);
	ftrace_mux_selections_reap();
	if (list_empty(&ftrace_mux_selections))
		return NULL;
	rcu_read_lock();
	for (t = current; ; t = parent) {
		s = ftrace_mux_selection_of(task_tgid(t));
		if (s || READ_ONCE(t->self_exec_id) != t->parent_exec_id ||
		    is_global_init(t))
			break;
		/*
		 * A child whose parent exited is reparented to a subreaper
		 * or init, which it is no fork of: their exec ids differ.
		 */
		parent = rcu_dereference(t->real_parent);
		if (parent == t ||
		    t->parent_exec_id != READ_ONCE(parent->self_exec_id))
			break;
	}
	rcu_read_unlock();
	return s ? s->ops : NULL;
}

/*
 * Select @ops for the current process, or drop its selection if @ops is
 * NULL.  @ops must be running; its ftrace_mux_ops_stop() unselects it.
 */
int ftrace_mux_select(struct ftrace_ops *ops)
{
	struct ftrace_mux_selection *s;

	lockdep_assert_held(&ftrace_lock);
	ftrace_mux_selections_reap();
	s = ftrace_mux_selection_of(task_tgid(current));
	if (!ops) {
		if (s)
			ftrace_mux_selection_free(s);
		return 0;
	}
	if (!s) {
		s = kzalloc(sizeof(*s), GFP_KERNEL);
		if (!s)
			return -ENOMEM;
		s->owner = get_pid(task_tgid(current));
		list_add_tail(&s->list, &ftrace_mux_selections);
	}
	s->exec_id = READ_ONCE(current->self_exec_id);
	s->ops = ops;
	return 0;
}

/* @ops stopped: no program has it selected any more. */
void ftrace_mux_unselect(struct ftrace_ops *ops)
{
	struct ftrace_mux_selection *s, *tmp;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry_safe(s, tmp, &ftrace_mux_selections, list)
		if (s->ops == ops)
			ftrace_mux_selection_free(s);
}

/*
 * ",selected-by:PID" for each process that selected @ops, its pid as the
 * reader sees it (0 outside the reader's pid namespace).
 */
void ftrace_mux_show_selectors(struct seq_file *m, struct ftrace_ops *ops)
{
	struct ftrace_mux_selection *s;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(s, &ftrace_mux_selections, list)
		if (s->ops == ops && ftrace_mux_selection_live(s))
			seq_printf(m, ",selected-by:%d", pid_vnr(s->owner));
}
