/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux detours (ftrace_mux_detour.c): their interface with the
 * ftrace core (ftrace.c), which keeps their records, and among their
 * files.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_DETOUR_H
#define _KERNEL_TRACE_FTRACE_MUX_DETOUR_H

#include <linux/mutex.h>
#include <linux/types.h>

struct dyn_ftrace;

#ifdef CONFIG_FTRACE_MUX_DETOUR
#define FTRACE_MUX_DETOURS		CONFIG_FTRACE_MUX_DETOURS

/* Provided by kernel/trace/ftrace.c, under ftrace_lock. */
bool ftrace_rec_is_detour(struct dyn_ftrace *rec);
struct dyn_ftrace *ftrace_detour_rec_add(unsigned long ip);
struct dyn_ftrace *ftrace_detour_rec_del(struct dyn_ftrace *rec);
/*
 * Provided by kernel/trace/ftrace.c with CONFIG_MODULES; takes
 * trace_types_lock and the regex_locks.
 */
void ftrace_detour_clear_hashes(unsigned long ip);

/*
 * Called by ftrace.c at the end of every update, under ftrace_lock and
 * before ftrace_mux_update_done() reaps sets: detours follow their
 * records' sets.
 */
void ftrace_mux_detours_update_done(void);

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
};


/* Held across a write's commands: the detours change under it */
extern struct mutex ftrace_mux_detour_mutex;
extern unsigned int ftrace_mux_nr_detours;

struct ftrace_mux_detour *ftrace_mux_detour_find_name(const char *sym);
int ftrace_mux_detour_vet(const char *sym, unsigned long *func, int *why);
int ftrace_mux_detour_add(unsigned long func, struct ftrace_mux_detour **out,
			  int *why);
void ftrace_mux_detour_remove(struct ftrace_mux_detour *d);
void ftrace_mux_detour_remove_all(void);
void ftrace_mux_detour_free_jumps(void);
void ftrace_mux_detours_show(struct seq_file *m);

/* The reach rule (ftrace_mux_detour_reach.c) */
int ftrace_mux_detour_reachable(unsigned long func);
bool ftrace_mux_detour_is_entry(unsigned long func);

/* The tracing core's text lies between these two (kernel/trace/Makefile). */
void ftrace_mux_text_start(void);
void ftrace_mux_text_end(void);
#else
static inline bool ftrace_rec_is_detour(struct dyn_ftrace *rec)
{
	return false;
}
static inline void ftrace_mux_detours_update_done(void) { }
#endif /* CONFIG_FTRACE_MUX_DETOUR */

#endif /* _KERNEL_TRACE_FTRACE_MUX_DETOUR_H */
