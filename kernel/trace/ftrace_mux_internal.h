/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: what the core (ftrace_mux.c) and the tracer names
 * (ftrace_mux_names.c) give the tracefs files, detours and the tests.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H
#define _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H

#include <linux/ftrace.h>
#include "ftrace_mux.h"

#include "ftrace_internal.h"

struct trace_array;

struct ftrace_mux_stats {
	unsigned long no_id;	/* ops that started without an ID */
	unsigned long no_set;	/* records whose set could not be made */
};

extern struct ftrace_mux_stats ftrace_mux_stats;
extern struct ftrace_ops __rcu *ftrace_mux_ops[FTRACE_MUX_IDS];

void ftrace_mux_id_counts(unsigned int *busy, unsigned int *draining);
/* Room for a tracer's name, INSTANCE:tracer included (ftrace_mux_ops_name()) */
#define FTRACE_MUX_NAME_LEN	64
void ftrace_mux_ops_name(struct ftrace_ops *ops, char *buf, size_t size);
struct trace_array *ftrace_mux_ops_trace_array(struct ftrace_ops *ops);

#if IS_ENABLED(CONFIG_FTRACE_MUX_KUNIT_TEST)
void ftrace_mux_reap(void);
void ftrace_mux_reclaim_flush(void);
#endif

#endif /* _KERNEL_TRACE_FTRACE_MUX_INTERNAL_H */
