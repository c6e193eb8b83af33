// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux BPF: fentry programs called from a list, not a trampoline.
 *
 * A BPF trampoline unrolls every program of its function into one image
 * of one page: at most BPF_MAX_TRAMP_LINKS (38) links, and every attach
 * and detach makes the whole image again.  Here an fentry link of a
 * kernel function with an fentry call is put on that function's list of
 * links instead, and one ftrace_ops, "bpf", calls the list of the function
 * it is called for.  The ops is one tracer: one ID, a member of the sets
 * of every function that has such links, beside the function's other
 * tracers and its BPF trampoline (which keeps the fexit and fmod_ret
 * programs, and runs after this).
 *
 *   site --> set's trampoline --> ftrace_mux_bpf_call(ip)
 *                                   |  f = the function of ip (hashed)
 *                                   |  ctx: [ func ][ nr_regs ][ arg0 ] ...
 *                                   |                           ^ ctx
 *                                   +--> prog --> prog --> ... --> prog
 *
 * The context is the one a BPF trampoline builds on its stack, so that
 * bpf_get_func_ip() (ctx - 16) and bpf_get_func_arg_cnt() (ctx - 8) read
 * the same.  RCU and the CPU are taken once per call, not once per
 * program; each program keeps its own recursion count, run context
 * (cookie) and statistics, as __bpf_prog_enter_recur() gives them.
 *
 * Attaching adds a node to a list: no code is made, and the function's
 * site is patched only for its first link and its last.  Sleepable
 * programs, programs on BPF programs, functions without an fentry call
 * and functions with more than six argument registers keep the BPF
 * trampoline.
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/bpf.h>
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

/* A function with fentry links */
struct mux_bpf_func {
	struct hlist_node node;		/* in its bucket */
	unsigned long ip;		/* its fentry call: the key */
	unsigned long func;		/* its address, for bpf_get_func_ip() */
	unsigned int nr_regs;		/* argument registers its programs see */
	unsigned int nr_links;
	struct hlist_head links;	/* of mux_bpf_link, newest first */
	struct xarray progs;		/* the links by program ID */
	struct rcu_head rcu;
};

/* One fentry link: what a call needs of it, freed after a grace period */
struct mux_bpf_link {
	struct hlist_node node;
	struct bpf_prog *prog;
	u64 cookie;
	struct bpf_tramp_link *link;
	struct rcu_head rcu;
};

/* Serializes attach and detach; nests inside the trampoline's mutex. */
static DEFINE_MUTEX(mux_bpf_mutex);
static struct hlist_head mux_bpf_funcs[1 << MUX_BPF_HASH_BITS];
static unsigned int mux_bpf_nr_funcs;

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

static void ftrace_mux_bpf_call(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs);

/*
 * Without FTRACE_OPS_FL_RECURSION: each program counts its own recursion,
 * as in a BPF trampoline, so ftrace calls ftrace_mux_bpf_call() directly,
 * not through ftrace_ops_assist_func().
 */
static struct ftrace_ops mux_bpf_ops = {
	.func	= ftrace_mux_bpf_call,
	.name	= "bpf",
};

/* A program run with statistics on: bpf_prog_start_time()'s and its end */
static noinline void mux_bpf_run_stats(struct bpf_prog *prog, u64 *ctx)
{
	struct bpf_prog_stats *stats;
	unsigned long flags;
	u64 start = sched_clock();

	prog->bpf_func(ctx, prog->insnsi);
	stats = this_cpu_ptr(prog->stats);
	flags = u64_stats_update_begin_irqsave(&stats->syncp);
	u64_stats_inc(&stats->cnt);
	u64_stats_add(&stats->nsecs, sched_clock() - start);
	u64_stats_update_end_irqrestore(&stats->syncp, flags);
}

static __always_inline void mux_bpf_run(struct mux_bpf_link *l, u64 *ctx,
					struct bpf_tramp_run_ctx *run_ctx)
{
	struct bpf_prog *prog = l->prog;

	if (likely(this_cpu_inc_return(*(prog->active)) == 1)) {
		run_ctx->bpf_cookie = l->cookie;
		if (static_branch_unlikely(&bpf_stats_enabled_key))
			mux_bpf_run_stats(prog, ctx);
		else
			prog->bpf_func(ctx, prog->insnsi);
	} else {
		bpf_prog_inc_misses_counter(prog);
	}
	this_cpu_dec(*(prog->active));
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

static void ftrace_mux_bpf_call(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct bpf_tramp_run_ctx run_ctx;
	u64 args[2 + MUX_BPF_REGS];
	struct mux_bpf_func *f;
	struct mux_bpf_link *l;
	unsigned int i;

	rcu_read_lock();
	f = mux_bpf_find(ip);
	if (!f)
		goto out;
	args[0] = f->func;
	args[1] = f->nr_regs;
	for (i = 0; i < f->nr_regs; i++)
		args[2 + i] = ftrace_regs_get_argument(fregs, i);
	mux_bpf_pin();
	run_ctx.saved_run_ctx = bpf_set_run_ctx(&run_ctx.run_ctx);
	hlist_for_each_entry_rcu(l, &f->links, node)
		mux_bpf_run(l, &args[2], &run_ctx);
	bpf_reset_run_ctx(run_ctx.saved_run_ctx);
	mux_bpf_unpin();
out:
	rcu_read_unlock();
}

/*
 * Where @tr's programs would be called from, if this can serve @prog
 * there: the function's fentry call, else 0.
 */
static unsigned long mux_bpf_site(struct bpf_prog *prog,
				  struct bpf_trampoline *tr,
				  unsigned int *nr_regs)
{
	const struct btf_func_model *m = &tr->func.model;
	unsigned int i, n = m->nr_args;

	if (prog->type != BPF_PROG_TYPE_TRACING ||
	    prog->expected_attach_type != BPF_TRACE_FENTRY ||
	    prog->sleepable || prog->aux->dst_prog)
		return 0;
	/* A struct passed by value takes a register per 8 bytes */
	for (i = 0; i < m->nr_args; i++)
		n += (m->arg_size[i] + 7) / 8 - 1;
	if (n > MUX_BPF_REGS)
		return 0;
	*nr_regs = n;
	return ftrace_location((unsigned long)tr->func.addr);
}

/* Let the ops trace @ip: the first function registers it. */
static int mux_bpf_ops_add(unsigned long ip)
{
	int err;

	err = ftrace_set_filter_ip(&mux_bpf_ops, ip, 0, 0);
	if (err || mux_bpf_nr_funcs++)
		return err;
	err = register_ftrace_function(&mux_bpf_ops);
	if (err) {
		mux_bpf_nr_funcs--;
		ftrace_set_filter_ip(&mux_bpf_ops, ip, 1, 0);
	}
	return err;
}

/*
 * Stop tracing @ip; the last function unregisters the ops first, as an
 * empty filter would trace every function.  Should taking @ip out of the
 * filter fail (no memory for the new hash), its calls find no function
 * and return: a cost, not an error.
 */
static void mux_bpf_ops_del(unsigned long ip)
{
	if (!--mux_bpf_nr_funcs && unregister_ftrace_function(&mux_bpf_ops))
		pr_warn("could not unregister the bpf tracer\n");
	if (ftrace_set_filter_ip(&mux_bpf_ops, ip, 1, 0))
		pr_warn_ratelimited("bpf tracer keeps %ps in its filter\n",
				    (void *)ip);
}

/**
 * ftrace_mux_bpf_link - put an fentry link on its function's list
 * @link: the link, of a program not yet linked to @tr
 * @tr: the BPF trampoline of its function, its mutex held
 *
 * Return: 0 if @link is on the list and sees its function's calls, an
 * error for its attacher, or -EOPNOTSUPP if @tr is to link it as before.
 */
int ftrace_mux_bpf_link(struct bpf_tramp_link *link, struct bpf_trampoline *tr)
{
	struct bpf_prog *prog = link->link.prog;
	struct mux_bpf_func *f;
	struct mux_bpf_link *l;
	unsigned int nr_regs;
	unsigned long ip;
	int err;

	ip = mux_bpf_site(prog, tr, &nr_regs);
	if (!ip)
		return -EOPNOTSUPP;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->prog = prog;
	l->cookie = link->cookie;
	l->link = link;

	guard(mutex)(&mux_bpf_mutex);
	f = mux_bpf_find(ip);
	if (f) {
		/*
		 * A program linked already is refused, as a trampoline
		 * refuses it: by its ID, so that an attach costs the same
		 * however many links the function has.
		 */
		err = xa_insert(&f->progs, prog->aux->id, l, GFP_KERNEL);
		if (err) {
			kfree(l);
			return err;
		}
		hlist_add_head_rcu(&l->node, &f->links);
		f->nr_links++;
		return 0;
	}

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		kfree(l);
		return -ENOMEM;
	}
	f->ip = ip;
	f->func = (unsigned long)tr->func.addr;
	f->nr_regs = nr_regs;
	f->nr_links = 1;
	xa_init(&f->progs);
	hlist_add_head(&l->node, &f->links);
	err = xa_insert(&f->progs, prog->aux->id, l, GFP_KERNEL);
	if (err) {
		kfree(l);
		kfree(f);
		return err;
	}
	hlist_add_head_rcu(&f->node, mux_bpf_bucket(ip));
	err = mux_bpf_ops_add(ip);
	if (err) {
		hlist_del_rcu(&f->node);
		xa_destroy(&f->progs);
		/* A call may have found @f in the table: free after it */
		kfree_rcu(l, rcu);
		kfree_rcu(f, rcu);
	}
	return err;
}

/**
 * ftrace_mux_bpf_unlink - take an fentry link off its function's list
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
	kfree_rcu(l, rcu);
	if (--f->nr_links)
		return 0;
	mux_bpf_ops_del(ip);
	hlist_del_rcu(&f->node);
	xa_destroy(&f->progs);
	kfree_rcu(f, rcu);
	return 0;
}
