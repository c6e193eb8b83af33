/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux detours (ftrace_mux_detour.c): the interface among their
 * files.  What ftrace.c, which keeps their records, calls and provides
 * for them is in ftrace_mux.h.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_DETOUR_H
#define _KERNEL_TRACE_FTRACE_MUX_DETOUR_H

#include <linux/mutex.h>
#include <linux/types.h>

#include "ftrace_mux.h"

struct dyn_ftrace;
struct ftrace_mux_set;
struct ftrace_ops;
struct ftrace_regs;
struct kprobe;

#ifdef CONFIG_FTRACE_MUX_DETOUR
/* Sites of inlined copies: a kprobe each, no record */
#define FTRACE_MUX_DETOUR_SITES		1024

/* What ftrace_mux_detour.c gives the tracefs file (ftrace_mux_detour_file.c) */
struct ftrace_mux_detour;
struct seq_file;

/* Why a command of detour_functions failed: its line in error_log */
enum ftrace_mux_detour_why {
	DETOUR_ERR_MALFORMED,
	DETOUR_ERR_NO_SYMBOL,
	DETOUR_ERR_AMBIGUOUS,
	DETOUR_ERR_NOT_TEXT,
	DETOUR_ERR_NOT_ENTRY,
	DETOUR_ERR_FENTRY,
	DETOUR_ERR_UNSAFE,
	DETOUR_ERR_TRACING,
	DETOUR_ERR_REACHED,
	DETOUR_ERR_NOMEM,
	DETOUR_ERR_EXISTS,
	DETOUR_ERR_FULL,
	DETOUR_ERR_KPROBE,
	DETOUR_ERR_NOT_DETOURED,
	DETOUR_ERR_NO_COPY,
	DETOUR_ERR_SITE_RANGE,
	DETOUR_ERR_SITE_FENTRY,
	DETOUR_ERR_SITE_KPROBE,
	DETOUR_ERR_SITE_FULL,
};

/* Held across a write's commands: the detours change under it */
extern struct mutex ftrace_mux_detour_mutex;
extern unsigned int ftrace_mux_nr_detours;

struct ftrace_mux_detour *ftrace_mux_detour_find(unsigned long func);
struct ftrace_mux_detour *ftrace_mux_detour_find_name(const char *sym);
struct dyn_ftrace *ftrace_mux_detour_rec(struct ftrace_mux_detour *d);
unsigned long ftrace_mux_detour_func(struct ftrace_mux_detour *d);
int ftrace_mux_detour_resolve(const char *sym, unsigned long *func, int *why);
int ftrace_mux_detour_safe(unsigned long addr, unsigned long func, int *why);
int ftrace_mux_detour_vet(const char *sym, unsigned long *func, int *why);
int ftrace_mux_detour_add(unsigned long func, struct ftrace_mux_detour **out,
			  int *why);
int ftrace_mux_detour_arm(struct ftrace_mux_detour *d);
void ftrace_mux_detour_remove(struct ftrace_mux_detour *d);
void ftrace_mux_detour_remove_all(void);
void ftrace_mux_detour_free_jumps(void);
void ftrace_mux_detours_show(struct seq_file *m);

/* What detours share with the sites of inlined copies */
bool ftrace_mux_detour_is_graph(struct ftrace_ops *op);
void ftrace_mux_detour_call(struct ftrace_mux_set *set, unsigned long ip,
			    unsigned long parent_ip, struct ftrace_regs *fregs,
			    bool graph_ok, unsigned long skip);
const char *ftrace_mux_kprobe_state(struct kprobe *kp);
void ftrace_mux_detour_tramp(struct dyn_ftrace *rec);
struct ftrace_mux_jump;
void ftrace_mux_jump_make(struct ftrace_mux_jump *j, struct kprobe *kp,
			  unsigned long ip, void *data, void *target);
void ftrace_mux_jump_bury(struct ftrace_mux_jump *j, void *data);
void *ftrace_mux_jump_target(unsigned long flags, bool entry, void *fallback);

/* Sites of inlined copies (ftrace_mux_detour_site.c) */
struct ftrace_mux_site;
extern unsigned int ftrace_mux_nr_sites;

int ftrace_mux_site_vet(const char *spec, unsigned long *func,
			unsigned long *site, int *why);
struct ftrace_mux_site *ftrace_mux_site_find_spec(const char *spec);
int ftrace_mux_site_add(unsigned long func, unsigned long site,
			struct ftrace_mux_site **out, int *why);
int ftrace_mux_site_arm(struct ftrace_mux_site *s);
void ftrace_mux_site_remove(struct ftrace_mux_site *s);
unsigned int ftrace_mux_sites_remove_func(unsigned long func);
bool ftrace_mux_sites_of(unsigned long func);
void ftrace_mux_sites_remove_all(void);
void ftrace_mux_sites_show(struct seq_file *m);
void ftrace_mux_sites_show_rec(struct seq_file *m, struct dyn_ftrace *rec);

/* The reach rule (ftrace_mux_detour_reach.c) */
int ftrace_mux_detour_reachable(unsigned long func);
bool ftrace_mux_detour_is_entry(unsigned long func);

/* The tracing core's text lies between these two (kernel/trace/Makefile). */
void ftrace_mux_text_start(void);
void ftrace_mux_text_end(void);
#else
struct seq_file;
static inline void ftrace_mux_sites_show_rec(struct seq_file *m,
					     struct dyn_ftrace *rec) { }
#endif /* CONFIG_FTRACE_MUX_DETOUR */

#endif /* _KERNEL_TRACE_FTRACE_MUX_DETOUR_H */
