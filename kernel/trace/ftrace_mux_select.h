/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: which tracer a program's top-level filter files edit
 * (ftrace_mux_select.c).  All under ftrace_lock.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_SELECT_H
#define _KERNEL_TRACE_FTRACE_MUX_SELECT_H

struct ftrace_ops;
struct seq_file;

struct ftrace_ops *ftrace_mux_selection(void);
int ftrace_mux_select(struct ftrace_ops *ops);
void ftrace_mux_unselect(struct ftrace_ops *ops);
void ftrace_mux_show_selectors(struct seq_file *m, struct ftrace_ops *ops);

#endif /* _KERNEL_TRACE_FTRACE_MUX_SELECT_H */
