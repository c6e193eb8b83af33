// SPDX-License-Identifier: GPL-2.0
/*
 * mux_harness: the knobs only the harness uses, kept out of the kernel's
 * detour test module (built by harness/build/build.sh against each kernel).
 *
 *   reg=N     register and unregister one more ftrace_ops with an empty
 *             callback on ftrace_mux_fentry_target (the detour test
 *             module's; load it first) N times; "reg_ns" then reads the
 *             median, 99th percentile and maximum of each, in ns:
 *             "REG_P50 REG_P99 REG_MAX UNREG_P50 UNREG_P99 UNREG_MAX"
 *             (harness/guest/bench.sh, registration latency)
 *   warn=1    WARN() once per write: the harness's proof that a warning
 *             reaches the console and fails the run (harness/guest/warn.sh)
 *   counter_ips="ADDR ADDR ..."
 *             adds call sites (hex, as available_filter_functions_addrs
 *             lists them) to the filter the next counters take; a blank
 *             line clears (an empty write never reaches the module)
 *   counters=N
 *             registers N more ftrace_ops, each on counter_ips' sites, each
 *             counting its calls in its own counter, as the ftrace-ops
 *             sample's tracers do; 0 unregisters them all.  "counters"
 *             reads the calls each counted (harness/guest/macro.sh: light
 *             tracers beside trace instances)
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>

#define MUX_HARNESS_REG_MAX	10000
#define MUX_HARNESS_COUNTERS	512
#define MUX_HARNESS_IPS		4096
static u64 mux_harness_reg_ns[6];

static void mux_harness_empty(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Sort @ns[@n] and put its median, 99th percentile and maximum in @out */
static void mux_harness_summary(u64 *ns, unsigned int n, u64 *out)
{
	sort(ns, n, sizeof(*ns), cmp_u64, NULL);
	out[0] = ns[n / 2];
	out[1] = ns[(n * 99) / 100];
	out[2] = ns[n - 1];
}

static int mux_harness_set_reg(const char *val, const struct kernel_param *kp)
{
	/* Writable: ftrace_set_filter() takes a char buffer it may cut */
	char twin[] = "ftrace_mux_fentry_target";
	u64 *reg = NULL, *unreg = NULL, t;
	struct ftrace_ops *op;
	unsigned int n, i;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (!n || n > MUX_HARNESS_REG_MAX)
		return -ERANGE;
	op = kzalloc(sizeof(*op), GFP_KERNEL);
	reg = kcalloc(n, sizeof(*reg), GFP_KERNEL);
	unreg = kcalloc(n, sizeof(*unreg), GFP_KERNEL);
	ret = -ENOMEM;
	if (!op || !reg || !unreg)
		goto out;
	op->func = mux_harness_empty;
	ret = ftrace_set_filter(op, twin, strlen(twin), 0);
	for (i = 0; i < n && !ret; i++) {
		t = ktime_get_ns();
		ret = register_ftrace_function(op);
		reg[i] = ktime_get_ns() - t;
		if (ret)
			break;
		t = ktime_get_ns();
		ret = unregister_ftrace_function(op);
		unreg[i] = ktime_get_ns() - t;
	}
	if (!ret) {
		mux_harness_summary(reg, n, &mux_harness_reg_ns[0]);
		mux_harness_summary(unreg, n, &mux_harness_reg_ns[3]);
	}
	ftrace_free_filter(op);
out:
	kfree(op);
	kfree(reg);
	kfree(unreg);
	return ret;
}

static int mux_harness_get_reg(char *buf, const struct kernel_param *kp)
{
	u64 *r = mux_harness_reg_ns;

	return sysfs_emit(buf, "%llu %llu %llu %llu %llu %llu\n",
			  r[0], r[1], r[2], r[3], r[4], r[5]);
}

static const struct kernel_param_ops mux_harness_reg_ops = {
	.set	= mux_harness_set_reg,
};
module_param_cb(reg, &mux_harness_reg_ops, NULL, 0200);
MODULE_PARM_DESC(reg, "register and unregister one more ftrace_ops this many times");

static const struct kernel_param_ops mux_harness_reg_ns_ops = {
	.get	= mux_harness_get_reg,
};
module_param_cb(reg_ns, &mux_harness_reg_ns_ops, NULL, 0444);
MODULE_PARM_DESC(reg_ns, "median, 99th percentile and maximum ns of reg's registrations, then unregistrations");

static int mux_harness_warn(const char *val, const struct kernel_param *kp)
{
	WARN(1, "mux_harness: warning on purpose\n");
	return 0;
}

static const struct kernel_param_ops mux_harness_warn_ops = {
	.set	= mux_harness_warn,
};
module_param_cb(warn, &mux_harness_warn_ops, NULL, 0200);
MODULE_PARM_DESC(warn, "WARN() once per write, for the harness");

struct mux_harness_counter {
	struct ftrace_ops ops;
	unsigned long calls;
};

static struct mux_harness_counter *mux_harness_counters[MUX_HARNESS_COUNTERS];
static unsigned int mux_harness_nr_counters;
static unsigned long *mux_harness_ips;
static unsigned int mux_harness_nr_ips;

static void mux_harness_count(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	container_of(op, struct mux_harness_counter, ops)->calls++;
}

/* Module parameters' handlers run under kernel_param_lock(): no own lock */
static int mux_harness_set_ips(const char *val, const struct kernel_param *kp)
{
	char *buf, *s, *tok;
	unsigned long ip;
	int ret = 0;

	if (!mux_harness_ips) {
		mux_harness_ips = kcalloc(MUX_HARNESS_IPS, sizeof(*mux_harness_ips),
					  GFP_KERNEL);
		if (!mux_harness_ips)
			return -ENOMEM;
	}
	buf = kstrdup(val, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	s = strim(buf);
	if (!*s)
		mux_harness_nr_ips = 0;
	while ((tok = strsep(&s, " \t\n")) && !ret) {
		if (!*tok)
			continue;
		ret = kstrtoul(tok, 16, &ip);
		if (!ret && mux_harness_nr_ips == MUX_HARNESS_IPS)
			ret = -ENOSPC;
		if (!ret)
			mux_harness_ips[mux_harness_nr_ips++] = ip;
	}
	kfree(buf);
	return ret;
}

static const struct kernel_param_ops mux_harness_ips_ops = {
	.set	= mux_harness_set_ips,
};
module_param_cb(counter_ips, &mux_harness_ips_ops, NULL, 0200);
MODULE_PARM_DESC(counter_ips, "call sites (hex) of the next counters' filter; empty clears");

static void mux_harness_stop_counters(void)
{
	struct mux_harness_counter *c;

	while (mux_harness_nr_counters) {
		c = mux_harness_counters[--mux_harness_nr_counters];
		unregister_ftrace_function(&c->ops);
		ftrace_free_filter(&c->ops);
		kfree(c);
	}
}

static int mux_harness_start_counter(void)
{
	struct mux_harness_counter *c;
	int ret;

	if (mux_harness_nr_counters == MUX_HARNESS_COUNTERS)
		return -ENOSPC;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->ops.func = mux_harness_count;
	ret = ftrace_set_filter_ips(&c->ops, mux_harness_ips,
				    mux_harness_nr_ips, 0, 1);
	if (!ret)
		ret = register_ftrace_function(&c->ops);
	if (ret) {
		ftrace_free_filter(&c->ops);
		kfree(c);
		return ret;
	}
	mux_harness_counters[mux_harness_nr_counters++] = c;
	return 0;
}

static int mux_harness_set_counters(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (!n) {
		mux_harness_stop_counters();
		return 0;
	}
	/* An empty filter would trace every function */
	if (!mux_harness_nr_ips)
		return -EINVAL;
	while (n-- && !ret)
		ret = mux_harness_start_counter();
	return ret;
}

static int mux_harness_get_counters(char *buf, const struct kernel_param *kp)
{
	int len = 0;
	unsigned int i;

	for (i = 0; i < mux_harness_nr_counters; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%s%lu", i ? " " : "",
				 READ_ONCE(mux_harness_counters[i]->calls));
	len += scnprintf(buf + len, PAGE_SIZE - len, "\n");
	return len;
}

static const struct kernel_param_ops mux_harness_counters_ops = {
	.set	= mux_harness_set_counters,
	.get	= mux_harness_get_counters,
};
module_param_cb(counters, &mux_harness_counters_ops, NULL, 0600);
MODULE_PARM_DESC(counters, "register this many counting tracers on counter_ips; 0 removes them");

static struct ftrace_ops mux_harness_kill_ops = {
	.func	= mux_harness_empty,
};
static struct task_struct *mux_harness_killer;
static void (*mux_harness_ftrace_kill)(void);

/* In the unregistering task only, once: ftrace dies there */
static int mux_harness_kill_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (READ_ONCE(mux_harness_killer) != current)
		return 0;
	WRITE_ONCE(mux_harness_killer, NULL);
	mux_harness_ftrace_kill();
	return 0;
}

static int mux_harness_set_kill(const char *val, const struct kernel_param *kp)
{
	struct kprobe probe = {
		.symbol_name	= "ftrace_lookup_ip",
		.pre_handler	= mux_harness_kill_pre,
	};
	char func[] = "ksys_sync";
	unsigned long addr;
	int ret;

	ret = kstrtoul(val, 16, &addr);
	if (ret)
		return ret;
	if (mux_harness_ftrace_kill)
		return -EBUSY;
	mux_harness_ftrace_kill = (void (*)(void))addr;
	ret = ftrace_set_filter(&mux_harness_kill_ops, func, strlen(func), 0);
	if (!ret)
		ret = register_ftrace_function(&mux_harness_kill_ops);
	if (ret)
		return ret;
	ret = register_kprobe(&probe);
	if (ret) {
		unregister_ftrace_function(&mux_harness_kill_ops);
		return ret;
	}
	/* From here the site may call the ops for good */
	__module_get(THIS_MODULE);
	WRITE_ONCE(mux_harness_killer, current);
	unregister_ftrace_function(&mux_harness_kill_ops);
	ret = READ_ONCE(mux_harness_killer) ? -EAGAIN : 0;
	WRITE_ONCE(mux_harness_killer, NULL);
	unregister_kprobe(&probe);
	return ret;
}

static const struct kernel_param_ops mux_harness_kill_param_ops = {
	.set	= mux_harness_set_kill,
};
module_param_cb(kill, &mux_harness_kill_param_ops, NULL, 0200);
MODULE_PARM_DESC(kill, "ftrace_kill()'s address: kill ftrace during an ops' shutdown");

static int __init mux_harness_init(void)
{
	return 0;
}
module_init(mux_harness_init);

static void __exit mux_harness_exit(void)
{
	mux_harness_stop_counters();
	kfree(mux_harness_ips);
}
module_exit(mux_harness_exit);

MODULE_AUTHOR("ftrace-mux developers");
MODULE_DESCRIPTION("Knobs of the ftrace-mux test harness");
MODULE_LICENSE("GPL");
