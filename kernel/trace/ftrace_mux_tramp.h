/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: the trampolines of tracer sets (ftrace_mux_tramp.c), and
 * the index by address that unwinders, kallsyms and perf read.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_TRAMP_H
#define _KERNEL_TRACE_FTRACE_MUX_TRAMP_H

#include <linux/ftrace_mux.h>
#include <linux/types.h>

struct ftrace_mux_set;

/* Under ftrace_lock */
unsigned long ftrace_mux_set_tramp(struct ftrace_mux_set *set,
				   enum ftrace_mux_flavour flavour);
struct ftrace_mux_tramp *ftrace_mux_set_tramp_made(struct ftrace_mux_set *set,
						   enum ftrace_mux_flavour flavour);
void ftrace_mux_tramps_set_func(u32 id, void *func);
void ftrace_mux_tramps_retire(struct ftrace_mux_set *set);
void ftrace_mux_tramps_free(struct ftrace_mux_set *set);
void ftrace_mux_tramps_count(unsigned long *nr, unsigned long *bytes,
			     unsigned long *failed);
int ftrace_mux_jump_made(void *text, unsigned int size);
void ftrace_mux_jump_gone(void *text, unsigned int size);

/* For kernel/kallsyms.c, through ftrace.c; from any context. */
int ftrace_mux_get_kallsym(unsigned int symnum, unsigned long *value,
			   char *type, char *name, char *module_name,
			   int *exported);
int ftrace_mux_address_lookup(unsigned long addr, unsigned long *size,
			      unsigned long *off, char *sym);

#endif /* _KERNEL_TRACE_FTRACE_MUX_TRAMP_H */
