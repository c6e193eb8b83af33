// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux BPF: fentry, fmod_ret and fexit programs called from lists,
 * not a trampoline.
 *
 * A BPF trampoline unrolls every program of its function into one image
 * of one page: at most BPF_MAX_TRAMP_LINKS (38) links, and every attach
 * and detach makes the whole image again.  Here an fentry, fmod_ret or
 * fexit link of a kernel function with an fentry call is put on one of
 * that function's three lists of links instead, and two tracers call
 * them.  A BPF LSM program (BPF_LSM_MAC) is one of those as a trampoline
 * runs it: on a hook that returns a value, an fmod_ret one; on a void
 * hook, an fexit one.
 *
 *   "bpf", an ftrace_ops, calls the fentry list of the function it is
 *   called for, then its fmod_ret list: if one of those returns non-zero,
 *   the call returns that without running the function;
 *   "bpf_exit", a function_graph user, saves the argument registers at
 *   the entry (fgraph's per-call data) and calls the fexit list at the
 *   return, with the return value after the arguments.
 *
 * Each is one tracer, one ID, a member of the sets of the functions that
 * have links it calls, beside their other tracers and their BPF
 * trampolines (which keep the programs this cannot call: a set's
 * trampoline calls one last, after the fentry list, and it returns
 * through fgraph's hook, before the fexit list).
 *
 *   site --> set's trampoline --> ftrace_mux_bpf_call(ip)
 *                 |                 |  f = the function of ip (hashed)
 *                 |                 |  ctx: [ func ][ nr_regs ][ arg0 ] ...
 *                 |                 |                           ^ ctx
 *                 |                 +--> prog --> prog --> ... --> prog
 *                 |                 +--> fmod_ret progs: non-zero ends
 *                 |                      the call (ip of a return)
 *                 +--> fgraph --> mux_bpf_exit_entry(): args saved
 *       return --> fgraph --> mux_bpf_exit_ret()
 *                               ctx: [ func ][ nr_regs ][ args ][ ret ]
 *                               +--> prog --> prog --> ... --> prog
 *
 * Of several fmod_ret programs, a trampoline runs them in order until
 * one returns non-zero, and that one wins: the outcome depends on the
 * order of attach, which independent attachers (security agents, each
 * with its policy) do not control.  Here every one runs on every call
 * (as every fentry program does, an auditing one too), and the call
 * ends if any returns non-zero, with the smallest value returned as a
 * signed int: for the error codes these functions return, the one of the
 * highest number.  A function of the set of values alone, not of their
 * order.  The "bpf" tracer is FTRACE_OPS_FL_OVERRIDE, so that a set's
 * trampoline calls it after the tracers that may write the ip too
 * (livepatch, kprobes): a program that ends the call ends it, whether
 * the function was livepatched or not, as on a trampoline.
 *
 * The context is the one a BPF trampoline builds on its stack, so that
 * bpf_get_func_ip() (ctx - 16), bpf_get_func_arg_cnt() (ctx - 8) and
 * bpf_get_func_ret() read the same.  RCU and the CPU are taken once per
 * call, not once per program; each program keeps its own recursion
 * count, run context (cookie) and statistics, as
 * __bpf_prog_enter_recur() gives them.
 *
 * Attaching adds a node to a list: no code is made, and the function's
 * site is patched only for the first link of a tracer and its last.
 * Sleepable programs, programs on BPF programs, BPF LSM programs of
 * cgroups (BPF_LSM_CGROUP, which have a shim of their own), functions
 * without an fentry call and functions with more than six argument
 * registers keep the BPF trampoline; so do fexit and fmod_ret programs
 * on a kernel without the return value in fgraph
 * (FUNCTION_GRAPH_RETVAL), and fmod_ret programs on a kernel without
 * FUNCTION_ERROR_INJECTION (the return a call is ended through) or on a
 * function whose trampoline has programs.  While a function's fmod_ret
 * programs are on its list, its trampoline takes no program (-EBUSY):
 * the trampoline, called after the call was ended, would see the
 * return's ip and lose the value.
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/error-injection.h>
#include <linux/filter.h>
#include <linux/ftrace.h>
#include <linux/ftrace_mux_bpf.h>
#include <linux/hash.h>
#include <linux/rculist.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/xarray.h>

/* The argument registers of x86-64's calling convention */
#define MUX_BPF_REGS	6

/*
 * Functions with fentry links, by fentry address: a fixed table, as its
 * lookup is on every call, where a hash_long() and a short walk cost a
 * few instructions.  A thousand functions leave one in a bucket on
 * average.
 */
#define MUX_BPF_HASH_BITS	10

#if defined(CONFIG_FUNCTION_GRAPH_TRACER) && \
	defined(CONFIG_FUNCTION_GRAPH_RETVAL)
#define MUX_BPF_EXIT	1
#else
#define MUX_BPF_EXIT	0
#endif

/* fmod_ret: the value reaches fexit programs, the return ends the call */
#define MUX_BPF_OVERRIDE \
	(MUX_BPF_EXIT && IS_ENABLED(CONFIG_FUNCTION_ERROR_INJECTION))

/* The kinds of links, each a list of a function's */
enum mux_bpf_kind {
	MUX_BPF_FENTRY,
	MUX_BPF_FEXIT,
	MUX_BPF_MODRET,
	MUX_BPF_KINDS
};

/* The tracers: "bpf" calls fentry and fmod_ret links, "bpf_exit" fexit */
enum mux_bpf_tracer_nr {
	MUX_BPF_ENTRY_TRACER,
	MUX_BPF_EXIT_TRACER,
	MUX_BPF_TRACERS
};

/* A function with links */
struct mux_bpf_func {
	struct hlist_node node;		/* in its bucket */
	unsigned long ip;		/* its fentry call: the key */
	unsigned long func;		/* its address, for bpf_get_func_ip() */
	unsigned int nr_regs;		/* argument registers its programs see */
	unsigned int nr_links[MUX_BPF_KINDS];
	/* of mux_bpf_link, newest first, by kind */
	struct hlist_head links[MUX_BPF_KINDS];
	struct xarray progs;		/* the links by program ID */
	struct rcu_head rcu;
};

/* One link: what a call needs of it, freed after a grace period */
struct mux_bpf_link {
	struct hlist_node node;
	struct bpf_prog *prog;
	u64 cookie;
	struct bpf_tramp_link *link;
	enum mux_bpf_kind kind;
	bool recur;			/* counts its recursion */
	struct rcu_head rcu;
};

/* Serializes attach and detach; nests inside the trampoline's mutex. */
static DEFINE_MUTEX(mux_bpf_mutex);
static struct hlist_head mux_bpf_funcs[1 << MUX_BPF_HASH_BITS];
/* Functions with links a tracer calls: it is registered if any */
static unsigned int mux_bpf_nr_funcs[MUX_BPF_TRACERS];

static enum mux_bpf_tracer_nr mux_bpf_tracer_of(enum mux_bpf_kind kind)
{
	return kind == MUX_BPF_FEXIT ? MUX_BPF_EXIT_TRACER : MUX_BPF_ENTRY_TRACER;
}

/* The links of @f that the tracer of @kind calls */
static unsigned int mux_bpf_tracer_links(struct mux_bpf_func *f,
					 enum mux_bpf_kind kind)
{
	if (mux_bpf_tracer_of(kind) == MUX_BPF_EXIT_TRACER)
		return f->nr_links[MUX_BPF_FEXIT];
	return f->nr_links[MUX_BPF_FENTRY] + f->nr_links[MUX_BPF_MODRET];
}

static struct hlist_head *mux_bpf_bucket(unsigned long ip)
{
	return &mux_bpf_funcs[hash_long(ip, MUX_BPF_HASH_BITS)];
}

/* Under RCU, or mux_bpf_mutex */
static struct mux_bpf_func *mux_bpf_find(unsigned long ip)
{
	struct mux_bpf_func *f;

	hlist_for_each_entry_rcu(f, mux_bpf_bucket(ip), node,
				 lockdep_is_held(&mux_bpf_mutex))
		if (f->ip == ip)
			return f;
	return NULL;
}

/* A program run with statistics on: bpf_prog_start_time()'s and its end */
static noinline int mux_bpf_run_stats(struct bpf_prog *prog, u64 *ctx)
{
	struct bpf_prog_stats *stats;
	unsigned long flags;
	u64 start = sched_clock();
	int ret;

	ret = prog->bpf_func(ctx, prog->insnsi);
	stats = this_cpu_ptr(prog->stats);
	flags = u64_stats_update_begin_irqsave(&stats->syncp);
	u64_stats_inc(&stats->cnt);
	u64_stats_add(&stats->nsecs, sched_clock() - start);
	u64_stats_update_end_irqrestore(&stats->syncp, flags);
	return ret;
}

/*
 * Run @l's program; its return value, 0 if it did not run (a miss).  A
 * BPF LSM program runs however deep it is nested, as a trampoline's
 * __bpf_prog_enter() runs it.
 */
static __always_inline int mux_bpf_run(struct mux_bpf_link *l, u64 *ctx,
				       struct bpf_tramp_run_ctx *run_ctx)
{
	struct bpf_prog *prog = l->prog;
	int ret = 0;

	if (unlikely(!l->recur)) {
		run_ctx->bpf_cookie = l->cookie;
		if (static_branch_unlikely(&bpf_stats_enabled_key))
			return mux_bpf_run_stats(prog, ctx);
		return prog->bpf_func(ctx, prog->insnsi);
	}
	if (likely(this_cpu_inc_return(*(prog->active)) == 1)) {
		run_ctx->bpf_cookie = l->cookie;
		if (static_branch_unlikely(&bpf_stats_enabled_key))
			ret = mux_bpf_run_stats(prog, ctx);
		else
			ret = prog->bpf_func(ctx, prog->insnsi);
	} else {
		bpf_prog_inc_misses_counter(prog);
	}
	this_cpu_dec(*(prog->active));
	return ret;
}

/*
 * The programs' per-CPU data needs them on one CPU.  None of them sleeps,
 * so preemption is turned off for the walk, cheaper than the
 * migrate_disable() a trampoline takes around each program; on
 * PREEMPT_RT, where their locks may sleep, migration is turned off.
 */
static __always_inline void mux_bpf_pin(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_disable();
	else
		preempt_disable_notrace();
}

static __always_inline void mux_bpf_unpin(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_enable();
	else
		preempt_enable_notrace();
}

/*
 * Run the links of @list, newest first, on @ctx; under RCU.  With @fold
 * (fmod_ret), return the smallest non-zero value they returned, or 0.
 */
static __always_inline int mux_bpf_run_list(struct hlist_head *list,
					    u64 *ctx, bool fold)
{
	/* Each field is written before a program reads it */
	struct bpf_tramp_run_ctx run_ctx __uninitialized;
	struct mux_bpf_link *l;
	int ret = 0, r;

	mux_bpf_pin();
	run_ctx.saved_run_ctx = bpf_set_run_ctx(&run_ctx.run_ctx);
	hlist_for_each_entry_rcu(l, list, node) {
		r = mux_bpf_run(l, ctx, &run_ctx);
		if (fold && r && (!ret || r < ret))
			ret = r;
	}
	bpf_reset_run_ctx(run_ctx.saved_run_ctx);
	mux_bpf_unpin();
	return ret;
}

/*
 * The fmod_ret links of @f, every one (see the top of this file); the
 * return value they see is 0, as each a trampoline runs sees.  If one
 * returned non-zero, the call returns the smallest such value without
 * running the function, as a BPF trampoline's would.  A program's
 * bpf_func() returns 32 bits: the value is sign-extended, which gives a
 * function of 64 every value error injection knows (-errno,
 * ERR_PTR(-errno), NULL, true), not an address.
 */
static noinline void mux_bpf_modret(struct mux_bpf_func *f, u64 *ctx,
				    struct ftrace_regs *fregs)
{
#if MUX_BPF_OVERRIDE
	int ret;

	ctx[f->nr_regs] = 0;
	ret = mux_bpf_run_list(&f->links[MUX_BPF_MODRET], ctx, true);
	if (ret) {
		ftrace_regs_set_return_value(fregs, ret);
		ftrace_override_function_with_return(fregs);
	}
#endif
}

static void ftrace_mux_bpf_call(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	/*
	 * and the return value's slot, for fmod_ret programs.  Not zeroed
	 * (INIT_STACK_ALL_ZERO) on every call: a program reads no slot past
	 * its function's arguments (the verifier's bound), which are
	 * written, as is the return value's slot before an fmod_ret
	 * program runs.
	 */
	u64 args[2 + MUX_BPF_REGS + 1] __uninitialized;
	struct mux_bpf_func *f;
	unsigned int i;

	rcu_read_lock();
	f = mux_bpf_find(ip);
	if (!f)
		goto out;
	args[0] = f->func;
	args[1] = f->nr_regs;
	for (i = 0; i < f->nr_regs; i++)
		args[2 + i] = ftrace_regs_get_argument(fregs, i);
	mux_bpf_run_list(&f->links[MUX_BPF_FENTRY], &args[2], false);
	if (MUX_BPF_OVERRIDE && !hlist_empty(&f->links[MUX_BPF_MODRET]))
		mux_bpf_modret(f, &args[2], fregs);
out:
	rcu_read_unlock();
}

/*
 * Without FTRACE_OPS_FL_RECURSION: each program counts its own recursion,
 * as in a BPF trampoline, so ftrace calls ftrace_mux_bpf_call() directly,
 * not through ftrace_ops_assist_func().  FUNC_ARGS: the programs' context
 * is the function's arguments, which the site of an inlined copy of it
 * does not have.  OVERRIDE: fmod_ret programs may end the call.
 */
static struct ftrace_ops mux_bpf_ops = {
	.func	= ftrace_mux_bpf_call,
	.flags	= FTRACE_OPS_FL_FUNC_ARGS | FTRACE_OPS_FL_OVERRIDE,
	.name	= "bpf",
};

#if MUX_BPF_EXIT
/*
 * A call the fexit programs did not see: fgraph's stack of the task had
 * no room for the arguments.  Counted as a miss of each, as a recursion.
 */
static noinline void mux_bpf_exit_missed(struct mux_bpf_func *f)
{
	struct mux_bpf_link *l;

	hlist_for_each_entry_rcu(l, &f->links[MUX_BPF_FEXIT], node)
		bpf_prog_inc_misses_counter(l->prog);
}

/* Keep the argument registers for the return, if @trace has fexit links */
static int mux_bpf_exit_entry(struct ftrace_graph_ent *trace,
			      struct fgraph_ops *gops,
			      struct ftrace_regs *fregs)
{
	struct mux_bpf_func *f;
	unsigned long *args;
	unsigned int i;
	int kept = 0;

	if (!fregs)
		return 0;
	rcu_read_lock();
	f = mux_bpf_find(trace->func);
	if (!f || hlist_empty(&f->links[MUX_BPF_FEXIT]))
		goto out;
	/* A word at least: fgraph has no empty data */
	args = fgraph_reserve_data(gops->idx,
				   max(f->nr_regs, 1U) * sizeof(*args));
	if (!args) {
		mux_bpf_exit_missed(f);
		goto out;
	}
	for (i = 0; i < f->nr_regs; i++)
		args[i] = ftrace_regs_get_argument(fregs, i);
	kept = 1;
out:
	rcu_read_unlock();
	return kept;
}

/* The fexit links of the returning function, on its arguments and value */
static void mux_bpf_exit_ret(struct ftrace_graph_ret *trace,
			     struct fgraph_ops *gops)
{
	/* Written up to the return value's slot, as above */
	u64 ctx[2 + MUX_BPF_REGS + 1] __uninitialized;
	struct mux_bpf_func *f;
	unsigned long *args;
	unsigned int i;
	int size;

	args = fgraph_retrieve_data(gops->idx, &size);
	if (!args)
		return;
	rcu_read_lock();
	/* Again: the links may have changed during the call */
	f = mux_bpf_find(trace->func);
	if (!f || size < f->nr_regs * sizeof(*args))
		goto out;
	ctx[0] = f->func;
	ctx[1] = f->nr_regs;
	for (i = 0; i < f->nr_regs; i++)
		ctx[2 + i] = args[i];
	ctx[2 + f->nr_regs] = trace->retval;
	mux_bpf_run_list(&f->links[MUX_BPF_FEXIT], &ctx[2], false);
out:
	rcu_read_unlock();
}

/*
 * A graph user, so that a call's arguments wait for its return on the
 * task's own shadow stack: no pool to run out of however many tasks are
 * inside the function.
 */
static struct fgraph_ops mux_bpf_exit_gops = {
	.entryfunc	= mux_bpf_exit_entry,
	.retfunc	= mux_bpf_exit_ret,
	.ops.name	= "bpf_exit",
};
#endif

/* The ops whose filter holds the functions with links of @kind */
static struct ftrace_ops *mux_bpf_tracer(enum mux_bpf_kind kind)
{
#if MUX_BPF_EXIT
	if (mux_bpf_tracer_of(kind) == MUX_BPF_EXIT_TRACER)
		return &mux_bpf_exit_gops.ops;
#endif
	return &mux_bpf_ops;
}

static int mux_bpf_tracer_start(enum mux_bpf_kind kind)
{
#if MUX_BPF_EXIT
	if (mux_bpf_tracer_of(kind) == MUX_BPF_EXIT_TRACER)
		return register_ftrace_graph(&mux_bpf_exit_gops);
#endif
	return register_ftrace_function(&mux_bpf_ops);
}

static void mux_bpf_tracer_stop(enum mux_bpf_kind kind)
{
#if MUX_BPF_EXIT
	if (mux_bpf_tracer_of(kind) == MUX_BPF_EXIT_TRACER) {
		unregister_ftrace_graph(&mux_bpf_exit_gops);
		return;
	}
#endif
	if (unregister_ftrace_function(&mux_bpf_ops))
		pr_warn("could not unregister the bpf tracer\n");
}

/* Has @tr programs of its own (it links each one this did not take)? */
static bool mux_bpf_tramp_busy(struct bpf_trampoline *tr)
{
	unsigned int i;

	for (i = 0; i < BPF_TRAMP_MAX; i++)
		if (tr->progs_cnt[i])
			return true;
	return false;
}

/*
 * The list @prog would go on, as its trampoline would run it (its
 * bpf_attach_type_to_tramp()): a BPF LSM program on a hook that returns
 * a value as an fmod_ret program, on a void one as a fexit program.
 */
static int mux_bpf_list_of(struct bpf_prog *prog)
{
	if (prog->type == BPF_PROG_TYPE_LSM &&
	    prog->expected_attach_type == BPF_LSM_MAC)
		return prog->aux->attach_func_proto->type ? MUX_BPF_MODRET :
							    MUX_BPF_FEXIT;
	if (prog->type != BPF_PROG_TYPE_TRACING)
		return -EOPNOTSUPP;
	switch (prog->expected_attach_type) {
	case BPF_TRACE_FENTRY:
		return MUX_BPF_FENTRY;
	case BPF_TRACE_FEXIT:
		return MUX_BPF_FEXIT;
	case BPF_MODIFY_RETURN:
		return MUX_BPF_MODRET;
	default:
		return -EOPNOTSUPP;
	}
}

/*
 * Which list of @tr's function @prog goes on, if this can serve it
 * there (else -EOPNOTSUPP), and how many argument registers its
 * programs see.
 */
static int mux_bpf_kind(struct bpf_prog *prog, struct bpf_trampoline *tr,
			unsigned int *nr_regs)
{
	const struct btf_func_model *m = &tr->func.model;
	unsigned int i, n = m->nr_args;
	int kind;

	if (prog->sleepable || prog->aux->dst_prog)
		return -EOPNOTSUPP;
	kind = mux_bpf_list_of(prog);
	if (kind < 0 || (kind == MUX_BPF_FEXIT && !MUX_BPF_EXIT))
		return -EOPNOTSUPP;
	/* See the top of this file */
	if (kind == MUX_BPF_MODRET &&
	    (!MUX_BPF_OVERRIDE || mux_bpf_tramp_busy(tr)))
		return -EOPNOTSUPP;
	/* A struct passed by value takes a register per 8 bytes */
	for (i = 0; i < m->nr_args; i++)
		n += (m->arg_size[i] + 7) / 8 - 1;
	if (n > MUX_BPF_REGS)
		return -EOPNOTSUPP;
	*nr_regs = n;
	return kind;
}

/* Let the tracer of @kind trace @ip: the first function registers it. */
static int mux_bpf_ops_add(enum mux_bpf_kind kind, unsigned long ip)
{
	struct ftrace_ops *ops = mux_bpf_tracer(kind);
	unsigned int *nr = &mux_bpf_nr_funcs[mux_bpf_tracer_of(kind)];
	int err;

	err = ftrace_set_filter_ip(ops, ip, 0, 0);
	if (err || (*nr)++)
		return err;
	err = mux_bpf_tracer_start(kind);
	if (err) {
		(*nr)--;
		ftrace_set_filter_ip(ops, ip, 1, 0);
	}
	return err;
}

/*
 * Stop tracing @ip for @kind; the last function stops the tracer first,
 * as an empty filter would trace every function.  Should taking @ip out
 * of the filter fail (no memory for the new hash), its calls find no
 * links and return: a cost, not an error.
 */
static void mux_bpf_ops_del(enum mux_bpf_kind kind, unsigned long ip)
{
	struct ftrace_ops *ops = mux_bpf_tracer(kind);

	if (!--mux_bpf_nr_funcs[mux_bpf_tracer_of(kind)])
		mux_bpf_tracer_stop(kind);
	if (ftrace_set_filter_ip(ops, ip, 1, 0))
		pr_warn_ratelimited("%s tracer keeps %ps in its filter\n",
				    ops->name, (void *)ip);
}

/* A function without links yet, found in the table from now on */
static struct mux_bpf_func *mux_bpf_func_add(unsigned long ip,
					     struct bpf_trampoline *tr,
					     unsigned int nr_regs)
{
	struct mux_bpf_func *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->ip = ip;
	f->func = (unsigned long)tr->func.addr;
	f->nr_regs = nr_regs;
	xa_init(&f->progs);
	hlist_add_head_rcu(&f->node, mux_bpf_bucket(ip));
	return f;
}

/* Take @f out of the table, if it has no links left */
static void mux_bpf_func_put(struct mux_bpf_func *f)
{
	if (f->nr_links[MUX_BPF_FENTRY] || f->nr_links[MUX_BPF_FEXIT] ||
	    f->nr_links[MUX_BPF_MODRET])
		return;
	hlist_del_rcu(&f->node);
	xa_destroy(&f->progs);
	/* A call may have found @f in the table: free after it */
	kfree_rcu(f, rcu);
}

/*
 * A program that @ip's trampoline is to link itself: refused while the
 * function's fmod_ret links are on its list (see the top of this file).
 */
static int mux_bpf_tramp_link(unsigned long ip)
{
	struct mux_bpf_func *f;

	guard(mutex)(&mux_bpf_mutex);
	f = mux_bpf_find(ip);
	return f && f->nr_links[MUX_BPF_MODRET] ? -EBUSY : -EOPNOTSUPP;
}

/**
 * ftrace_mux_bpf_link - put an fentry, fexit or fmod_ret link on its
 *                       function's list
 * @link: the link, of a program not yet linked to @tr
 * @tr: the BPF trampoline of its function, its mutex held
 *
 * Return: 0 if @link is on a list and sees its function's calls, an
 * error for its attacher, or -EOPNOTSUPP if @tr is to link it as before.
 */
int ftrace_mux_bpf_link(struct bpf_tramp_link *link, struct bpf_trampoline *tr)
{
	struct bpf_prog *prog = link->link.prog;
	struct mux_bpf_func *f;
	struct mux_bpf_link *l;
	unsigned int nr_regs;
	unsigned long ip;
	int kind, err;

	/* Called from the function's fentry call */
	ip = ftrace_location((unsigned long)tr->func.addr);
	if (!ip)
		return -EOPNOTSUPP;
	kind = mux_bpf_kind(prog, tr, &nr_regs);
	if (kind < 0)
		return mux_bpf_tramp_link(ip);

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->prog = prog;
	l->cookie = link->cookie;
	l->link = link;
	l->kind = kind;
	l->recur = bpf_prog_check_recur(prog);

	guard(mutex)(&mux_bpf_mutex);
	f = mux_bpf_find(ip) ?: mux_bpf_func_add(ip, tr, nr_regs);
	if (!f) {
		kfree(l);
		return -ENOMEM;
	}
	/*
	 * A program linked already is refused, as a trampoline refuses it:
	 * by its ID, so that an attach costs the same however many links
	 * the function has.
	 */
	err = xa_insert(&f->progs, prog->aux->id, l, GFP_KERNEL);
	if (err)
		goto fail;
	/* The tracer first: no program runs for an attach that fails */
	if (!mux_bpf_tracer_links(f, kind)) {
		err = mux_bpf_ops_add(kind, ip);
		if (err) {
			xa_erase(&f->progs, prog->aux->id);
			goto fail;
		}
	}
	hlist_add_head_rcu(&l->node, &f->links[kind]);
	f->nr_links[kind]++;
	return 0;
fail:
	kfree(l);
	mux_bpf_func_put(f);
	return err;
}

/**
 * ftrace_mux_bpf_unlink - take a link off its function's list
 * @link: the link
 * @tr: the BPF trampoline of its function, its mutex held
 *
 * Return: 0 if @link was on a list, -EOPNOTSUPP if @tr linked it itself.
 */
int ftrace_mux_bpf_unlink(struct bpf_tramp_link *link, struct bpf_trampoline *tr)
{
	struct mux_bpf_func *f;
	struct mux_bpf_link *l;
	unsigned long ip;

	/*
	 * Found by the function and the link alone: what decided at attach
	 * (the program's target, say) may have changed since.
	 */
	ip = ftrace_location((unsigned long)tr->func.addr);
	if (!ip)
		return -EOPNOTSUPP;

	guard(mutex)(&mux_bpf_mutex);
	f = mux_bpf_find(ip);
	if (!f)
		return -EOPNOTSUPP;
	l = xa_load(&f->progs, link->link.prog->aux->id);
	if (!l || l->link != link)
		return -EOPNOTSUPP;
	xa_erase(&f->progs, link->link.prog->aux->id);
	/*
	 * The program is freed after an RCU grace period at the earliest
	 * (bpf_prog_put()); a call runs it under rcu_read_lock().
	 */
	hlist_del_rcu(&l->node);
	f->nr_links[l->kind]--;
	if (!mux_bpf_tracer_links(f, l->kind))
		mux_bpf_ops_del(l->kind, ip);
	kfree_rcu(l, rcu);
	mux_bpf_func_put(f);
	return 0;
}
