// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: names of the function tracers, as function_tracers and
 * enabled_functions show them.
 *
 * A tracer is known by its ops' name, set by the subsystem that
 * registers it (struct ftrace_ops::name); the function tracer and
 * function_graph of a trace instance are "<instance>:function" and
 * "<instance>:function_graph".  An ops without a name (a module's) is
 * named after its callback symbol, which is stable across its
 * registration.
 *
 * function_graph and the profiler (when it is built on the graph tracer)
 * are not ftrace_ops of their own on the call sites: they are subops of
 * fgraph's one manager ops, "fgraph", which dispatches to them; each
 * carries its name in its fgraph_ops' ops, and an unnamed one is named
 * after its entry callback.
 */
#include <linux/kallsyms.h>
#include <linux/string.h>

#include "ftrace_mux_internal.h"
#include "trace.h"

/**
 * ftrace_mux_ops_trace_array - the trace array whose tracer an ops is
 * @ops: the ops
 *
 * By identity, as ftrace_pid_func() and fgraph_pid_func() know it.  Only
 * a trace array's tracers are FTRACE_OPS_FL_PID; its function tracer's
 * ftrace_ops carries the array in ->private, its function_graph tracer's
 * fgraph_ops (made by fgraph_init_ops(), a subop while it runs) in the
 * fgraph_ops' ->private.
 *
 * Return: the trace array whose function or function_graph tracer @ops
 * is, or NULL.
 */
struct trace_array *ftrace_mux_ops_trace_array(struct ftrace_ops *ops)
{
	if (!(ops->flags & FTRACE_OPS_FL_PID))
		return NULL;
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	if (ops->flags & (FTRACE_OPS_FL_SUBOP | FTRACE_OPS_GRAPH_STUB))
		return container_of(ops, struct fgraph_ops, ops)->private;
#endif
	return ops->private;
}

/* The callback an unnamed @ops is known by */
static unsigned long ftrace_mux_ops_callback(struct ftrace_ops *ops)
{
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	if (ops->flags & FTRACE_OPS_FL_SUBOP) {
		struct fgraph_ops *gops = container_of(ops, struct fgraph_ops, ops);

		return (unsigned long)(gops->saved_func ?: gops->entryfunc);
	}
#endif
	return (unsigned long)(ops->saved_func ?: ops->func);
}

/**
 * ftrace_mux_ops_name - the name of a tracer, as users see it
 * @ops: the ops
 * @buf: out, the name
 * @size: the size of @buf
 *
 * The ops' name, "INSTANCE:name" for an instance's tracer; for an ops
 * without a name, its callback's symbol, else "ops@" and a hashed
 * address.
 */
void ftrace_mux_ops_name(struct ftrace_ops *ops, char *buf, size_t size)
{
	char sym[KSYM_NAME_LEN];
	struct trace_array *tr;

	if (!ops->name) {
		if (lookup_symbol_name(ftrace_mux_ops_callback(ops), sym))
			snprintf(buf, size, "ops@%p", ops);
		else
			strscpy(buf, sym, size);
		return;
	}
	tr = ftrace_mux_ops_trace_array(ops);
	if (tr && tr->name)
		snprintf(buf, size, "%s:%s", tr->name, ops->name);
	else
		strscpy(buf, ops->name, size);
}
