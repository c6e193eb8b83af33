// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: which tracer a program's top-level filter files edit.
 *
 * Writing a tracer's name to function_tracers selects it for the program
 * that wrote it, and for no one else: the top-level set_ftrace_filter and
 * set_ftrace_notrace that this program opens then edit the selected
 * tracer's filter.  Every other program, and so every tool that never
 * wrote function_tracers (perf, trace-cmd, an external command run by the
 * selecting shell), gets the files as they are without ftrace-mux: the
 * global filter, which the function tracer uses.  A tool that does not
 * know ftrace-mux can then never edit another tracer's filter by accident.
 *
 * "The program" is a process and the processes forked from it since it
 * last exec'd, each of which carries the same task->ftrace_mux_program:
 * a number every exec draws anew (ftrace_mux_exec()) and fork copies.
 * So a shell's subshells, command substitutions and pipelines of
 * builtins are its program, and share its selection; an external
 * command is a program of its own, and so is an orphan reparented to a
 * subreaper, or a child forked before its parent exec'd: the kernel
 * records who is what, nothing is inferred:
 *
 *   sh (program 7, selects function_profile) -- fork --> ( subshell )  7
 *     \                                                    \
 *      fork + exec perf   8, not selected                  fork + exec cat  9
 *
 * Any process of the program selects for the whole program, and ends its
 * selection by writing "function".  A selection also ends when the
 * process it is held for (the eldest of the program among the writer's
 * parents: the shell, for a subshell's write) execs another program or
 * its thread group exits, and when the selected tracer stops (removing an
 * instance stops its tracers).  Selections are a short list under
 * ftrace_lock, each holding that process's struct pid, so that a pid
 * number reused by another process never inherits one; entries whose
 * process exited or exec'd are dropped whenever the list is searched.
 */
#include <linux/ftrace.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ftrace_internal.h"
#include "ftrace_mux_select.h"

struct ftrace_mux_selection {
	struct list_head	list;
	u64			program;	/* whose selection */
	struct pid		*owner;		/* the thread group it is held for */
	struct ftrace_ops	*ops;
};

/* Under ftrace_lock */
static LIST_HEAD(ftrace_mux_selections);

static atomic64_t ftrace_mux_programs = ATOMIC64_INIT(0);

/**
 * ftrace_mux_exec - start a new program for a task that exec'd
 * @task: the task
 *
 * Its forks will be that program too, until they exec.  Called by
 * begin_new_exec(), past the point of no return.
 */
void ftrace_mux_exec(struct task_struct *task)
{
	WRITE_ONCE(task->ftrace_mux_program, atomic64_inc_return(&ftrace_mux_programs));
}

static void ftrace_mux_selection_free(struct ftrace_mux_selection *s)
{
	list_del(&s->list);
	put_pid(s->owner);
	kfree(s);
}

/* Does the thread group @s is held for still run @s's program? */
static bool ftrace_mux_selection_live(struct ftrace_mux_selection *s)
{
	struct task_struct *t;
	bool live;

	rcu_read_lock();
	/* The group leader, a zombie while other threads of it run */
	t = pid_task(s->owner, PIDTYPE_TGID);
	live = t && atomic_read(&t->signal->live) > 0 &&
	       READ_ONCE(t->ftrace_mux_program) == s->program;
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

static struct ftrace_mux_selection *ftrace_mux_selection_of(u64 program)
{
	struct ftrace_mux_selection *s;

	list_for_each_entry(s, &ftrace_mux_selections, list)
		if (s->program == program)
			return s;
	return NULL;
}

/**
 * ftrace_mux_selection - the tracer the current program selected
 *
 * Return: the selected ops, or NULL for none (the global filter).
 */
struct ftrace_ops *ftrace_mux_selection(void)
{
	struct ftrace_mux_selection *s;

	lockdep_assert_held(&ftrace_lock);
	ftrace_mux_selections_reap();
	s = ftrace_mux_selection_of(READ_ONCE(current->ftrace_mux_program));
	return s ? s->ops : NULL;
}

/*
 * The thread group a selection of the current program is held for: the
 * eldest process of the program among the current one's parents.
 */
static struct pid *ftrace_mux_program_owner(void)
{
	u64 program = READ_ONCE(current->ftrace_mux_program);
	struct task_struct *t, *parent;
	struct pid *owner;

	rcu_read_lock();
	for (t = current; !is_global_init(t); t = parent) {
		parent = rcu_dereference(t->real_parent);
		if (parent == t || READ_ONCE(parent->ftrace_mux_program) != program)
			break;
	}
	owner = get_pid(task_tgid(t));
	rcu_read_unlock();
	return owner;
}

/**
 * ftrace_mux_select - select a tracer for the current program
 * @ops: the running ops to select, or NULL to end the selection
 *
 * @ops' ftrace_mux_ops_stop() unselects it.
 *
 * Return: 0, or a negative errno.
 */
int ftrace_mux_select(struct ftrace_ops *ops)
{
	u64 program = READ_ONCE(current->ftrace_mux_program);
	struct ftrace_mux_selection *s;

	lockdep_assert_held(&ftrace_lock);
	ftrace_mux_selections_reap();
	s = ftrace_mux_selection_of(program);
	if (!ops) {
		if (s)
			ftrace_mux_selection_free(s);
		return 0;
	}
	if (!s) {
		s = kzalloc(sizeof(*s), GFP_KERNEL);
		if (!s)
			return -ENOMEM;
		s->program = program;
		s->owner = ftrace_mux_program_owner();
		list_add_tail(&s->list, &ftrace_mux_selections);
	}
	s->ops = ops;
	return 0;
}

/**
 * ftrace_mux_unselect - end every selection of a stopped tracer
 * @ops: the ops that stopped
 *
 * Called with ftrace_lock held: no program has @ops selected any more.
 */
void ftrace_mux_unselect(struct ftrace_ops *ops)
{
	struct ftrace_mux_selection *s, *tmp;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry_safe(s, tmp, &ftrace_mux_selections, list)
		if (s->ops == ops)
			ftrace_mux_selection_free(s);
}

/**
 * ftrace_mux_show_selectors - the processes that selected a tracer
 * @m: the seq_file
 * @ops: the tracer
 *
 * ",selected-by:PID" for each, its pid as the reader sees it (0 outside
 * the reader's pid namespace).
 */
void ftrace_mux_show_selectors(struct seq_file *m, struct ftrace_ops *ops)
{
	struct ftrace_mux_selection *s;

	lockdep_assert_held(&ftrace_lock);
	list_for_each_entry(s, &ftrace_mux_selections, list)
		if (s->ops == ops && ftrace_mux_selection_live(s))
			seq_printf(m, ",selected-by:%d", pid_vnr(s->owner));
}
