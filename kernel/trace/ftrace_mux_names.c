// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: names of the function tracers, as function_tracers and
 * enabled_functions show them.
 *
 * An ftrace_ops has no name of its own, so one is derived from what it
 * is: the function tracer of a trace instance is "<instance>:function",
 * the other in-kernel users are named after their callback, and any other
 * ops is named after its callback symbol, which is stable across its
 * registration.
 *
 * function_graph and the profiler (when it is built on the graph tracer)
 * are not ftrace_ops of their own on the call sites: they are subops of
 * fgraph's one manager ops, "fgraph", which dispatches to them.  A subop
 * is named after its entry callback.
 */
#include <linux/kallsyms.h>
#include <linux/string.h>

#include "ftrace_mux_internal.h"
#include "trace.h"

static const struct {
	const char *func;
	const char *name;
} ftrace_mux_known[] = {
	{ "ftrace_graph_func",		"fgraph" },
	{ "function_profile_call",	"function_profile" },
	{ "stack_trace_call",		"stack_trace" },
	{ "kprobe_ftrace_handler",	"kprobe" },
	{ "fprobe_handler",		"fprobe" },
	{ "fprobe_kprobe_handler",	"fprobe" },
	{ "perf_ftrace_function_call",	"perf" },
	{ "call_direct_funcs",		"direct" },
	{ "klp_ftrace_handler",		"livepatch" },
	{ "function_trace_probe_call",	"function_probe" },
};

/* The callbacks the function tracer of a trace_array runs. */
static bool ftrace_mux_is_function_tracer(const char *sym)
{
	return str_has_prefix(sym, "function_") && strstr(sym, "trace_call") &&
	       strcmp(sym, "function_trace_probe_call");
}

/* Its own frame: both name buffers on one would pass 1 KiB */
static noinline_for_stack void
ftrace_mux_subops_name(struct ftrace_ops *ops, char *buf, size_t size)
{
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	struct fgraph_ops *gops = container_of(ops, struct fgraph_ops, ops);
	trace_func_graph_ent_t entry = gops->saved_func ?: gops->entryfunc;
	char sym[KSYM_NAME_LEN];

	if (lookup_symbol_name((unsigned long)entry, sym))
		snprintf(sym, sizeof(sym), "subops@%p", ops);
	if (!strcmp(sym, "profile_graph_entry")) {
		strscpy(buf, "function_profile", size);
	} else if (str_has_prefix(sym, "trace_graph_entry")) {
		struct trace_array *tr = gops->private;

		if (tr && tr->name)
			snprintf(buf, size, "%s:function_graph", tr->name);
		else
			strscpy(buf, "function_graph", size);
	} else {
		strscpy(buf, sym, size);
	}
#else
	snprintf(buf, size, "subops@%p", ops);
#endif
}

void ftrace_mux_ops_name(struct ftrace_ops *ops, char *buf, size_t size)
{
	char sym[KSYM_NAME_LEN];
	ftrace_func_t func = ops->saved_func ?: ops->func;
	int i;

	if (ops->flags & FTRACE_OPS_FL_SUBOP) {
		ftrace_mux_subops_name(ops, buf, size);
		return;
	}

	if (lookup_symbol_name((unsigned long)func, sym))
		snprintf(sym, sizeof(sym), "ops@%p", ops);

	if (ftrace_mux_is_function_tracer(sym) && ops->private &&
	    (ops->flags & FTRACE_OPS_FL_PID)) {
		struct trace_array *tr = ops->private;

		if (tr->name)
			snprintf(buf, size, "%s:function", tr->name);
		else
			strscpy(buf, "function", size);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(ftrace_mux_known); i++) {
		if (!strcmp(sym, ftrace_mux_known[i].func)) {
			strscpy(buf, ftrace_mux_known[i].name, size);
			return;
		}
	}
	strscpy(buf, sym, size);
}
