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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>

#define MUX_HARNESS_REG_MAX	10000
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

MODULE_AUTHOR("ftrace-mux developers");
MODULE_DESCRIPTION("Knobs of the ftrace-mux test harness");
MODULE_LICENSE("GPL");
