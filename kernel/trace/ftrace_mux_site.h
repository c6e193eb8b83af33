/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: which trampoline a call site calls (ftrace_mux_site.c).
 * Asked by ftrace.c through the inline wrappers of ftrace_mux.h, for the
 * records those cannot settle; under ftrace_lock.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_SITE_H
#define _KERNEL_TRACE_FTRACE_MUX_SITE_H

#include <linux/types.h>

struct dyn_ftrace;
struct ftrace_mux_set;
struct ftrace_mux_tramp;

unsigned long __ftrace_mux_addr_new(struct dyn_ftrace *rec);
unsigned long __ftrace_mux_addr_curr(struct dyn_ftrace *rec);
void __ftrace_mux_rec_patched_update(struct dyn_ftrace *rec, int update);
bool __ftrace_mux_rec_changed(struct dyn_ftrace *rec);

struct ftrace_mux_set *ftrace_mux_site_set(struct dyn_ftrace *rec);
struct ftrace_mux_tramp *ftrace_mux_rec_tramp(struct dyn_ftrace *rec);

#endif /* _KERNEL_TRACE_FTRACE_MUX_SITE_H */
