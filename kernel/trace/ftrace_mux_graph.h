/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux: function_graph's users as members of a set
 * (ftrace_mux_graph.c).  All under ftrace_lock.
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_GRAPH_H
#define _KERNEL_TRACE_FTRACE_MUX_GRAPH_H

#include <linux/types.h>

struct dyn_ftrace;
struct fgraph_users;
struct ftrace_mux_call;
struct ftrace_mux_set;
struct ftrace_ops;
struct ftrace_ops_hash;

extern unsigned long ftrace_mux_graph_recounts;

bool ftrace_mux_graph_manages(struct ftrace_ops *ops);
bool ftrace_mux_graph_is_manager(const struct ftrace_ops *ops);
void ftrace_mux_graph_user_start(struct ftrace_ops *manager,
				 struct ftrace_ops *user);
void ftrace_mux_graph_user_leaving(int id, bool leaving);
void ftrace_mux_graph_user_stop(int id);
void ftrace_mux_graph_update_done(void);
bool ftrace_mux_graph_sites_stale(void);
u32 ftrace_mux_graph_rec(struct dyn_ftrace *rec, u32 index, bool wanted);
bool ftrace_mux_graph_rec_sync(struct dyn_ftrace *rec);
bool ftrace_mux_graph_sync_needed(struct ftrace_ops_hash *hash, unsigned long seq);
int ftrace_mux_graph_calls(const struct ftrace_mux_set *set,
			   struct ftrace_mux_call *calls,
			   struct fgraph_users **users);
bool ftrace_mux_graph_grouped(const struct ftrace_mux_set *set, u32 id);

#endif /* _KERNEL_TRACE_FTRACE_MUX_GRAPH_H */
