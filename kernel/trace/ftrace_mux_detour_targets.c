// SPDX-License-Identifier: GPL-2.0
/*
 * Targets for the ftrace-mux detour tests.
 *
 * kernel/trace is built without fentry calls, so none of these functions
 * has one: set_ftrace_filter cannot name them until they are detoured.
 *
 *   echo N > /sys/module/ftrace_mux_detour_test/parameters/run
 *
 * calls each target N times on the writing CPU; "calls" reads back how
 * many times each target has run since the module was loaded, so the
 * tests can compare a tracer's count with the truth.
 *
 * For the benchmark (harness/guest/bench.sh):
 *   ops=K          register K ftrace_ops with an empty callback, filtered
 *                  on ftrace_mux_detour_target and its fentry twin
 *   kprobe=1       a kprobe with an empty pre-handler on the target
 *   bench=N        call ftrace_mux_detour_target() N times
 *   bench_fentry=N call ftrace_mux_fentry_target() N times
 *
 * And warn=1 warns on purpose, for the harness's console scan.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>

static atomic_long_t calls;

static noinline int ftrace_mux_detour_target(int x)
{
	atomic_long_inc(&calls);
	return x + 1;
}

static noinline int ftrace_mux_detour_target2(int x)
{
	return x ^ 0x5a;
}

/* Called through pointers read at run time: never inlined nor cloned */
static int (*ftrace_mux_detour_targets[])(int) = {
	ftrace_mux_detour_target,
	ftrace_mux_detour_target2,
};

static int ftrace_mux_detour_run(const char *val, const struct kernel_param *kp)
{
	unsigned long n, i;
	int j, sum = 0, ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	if (n > 10000000)
		return -ERANGE;
	/*
	 * A parameter write does not pin the module, and kprobes (so the
	 * detours) assume no code of a going module runs any more.
	 */
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	for (i = 0; i < n; i++) {
		for (j = 0; j < ARRAY_SIZE(ftrace_mux_detour_targets); j++)
			sum += READ_ONCE(ftrace_mux_detour_targets[j])(sum);
		if (!(i & 1023))
			cond_resched();
	}
	module_put(THIS_MODULE);
	return 0;
}

/* The benchmark's loops: nothing but the call. */
int ftrace_mux_fentry_target(int x);

static int ftrace_mux_detour_loop(const char *val, int (*fn)(int))
{
	unsigned long n, i;
	int ret, sum = 0;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	for (i = 0; i < n; i++)
		sum += fn(sum);
	module_put(THIS_MODULE);
	return 0;
}

static int (*ftrace_mux_bench_targets[])(int) = {
	ftrace_mux_detour_target,
	ftrace_mux_fentry_target,
};

static int ftrace_mux_detour_bench(const char *val, const struct kernel_param *kp)
{
	return ftrace_mux_detour_loop(val, READ_ONCE(ftrace_mux_bench_targets[0]));
}

static int ftrace_mux_detour_bench_fentry(const char *val, const struct kernel_param *kp)
{
	return ftrace_mux_detour_loop(val, READ_ONCE(ftrace_mux_bench_targets[1]));
}

static const struct kernel_param_ops ftrace_mux_detour_bench_ops = {
	.set	= ftrace_mux_detour_bench,
};
module_param_cb(bench, &ftrace_mux_detour_bench_ops, NULL, 0200);
MODULE_PARM_DESC(bench, "call ftrace_mux_detour_target() this many times");

static const struct kernel_param_ops ftrace_mux_detour_bench_fentry_ops = {
	.set	= ftrace_mux_detour_bench_fentry,
};
module_param_cb(bench_fentry, &ftrace_mux_detour_bench_fentry_ops, NULL, 0200);
MODULE_PARM_DESC(bench_fentry, "call ftrace_mux_fentry_target() this many times");

static void ftrace_mux_bench_func(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static struct ftrace_ops *ftrace_mux_bench_ops;
static unsigned int ftrace_mux_bench_nr;
static DEFINE_MUTEX(ftrace_mux_bench_lock);

static void ftrace_mux_bench_ops_free(void)
{
	while (ftrace_mux_bench_nr)
		unregister_ftrace_function(&ftrace_mux_bench_ops[--ftrace_mux_bench_nr]);
	kfree(ftrace_mux_bench_ops);
	ftrace_mux_bench_ops = NULL;
}

static int ftrace_mux_detour_set_ops(const char *val, const struct kernel_param *kp)
{
	/* Writable: ftrace_set_filter() takes a char buffer it may cut */
	char targets[] = "ftrace_mux_detour_target";
	char twin[] = "ftrace_mux_fentry_target";
	struct ftrace_ops *op;
	unsigned int k;
	int ret;

	ret = kstrtouint(val, 0, &k);
	if (ret)
		return ret;
	if (k > 64)
		return -ERANGE;
	mutex_lock(&ftrace_mux_bench_lock);
	ftrace_mux_bench_ops_free();
	ret = -ENOMEM;
	ftrace_mux_bench_ops = kcalloc(k, sizeof(*op), GFP_KERNEL);
	if (!ftrace_mux_bench_ops && k)
		goto out;
	for (ret = 0; ftrace_mux_bench_nr < k; ftrace_mux_bench_nr++) {
		op = &ftrace_mux_bench_ops[ftrace_mux_bench_nr];
		op->func = ftrace_mux_bench_func;
		/* The target matches only while it is detoured: that is fine */
		ftrace_set_filter(op, targets, strlen(targets), 0);
		ret = ftrace_set_filter(op, twin, strlen(twin), 0);
		if (!ret)
			ret = register_ftrace_function(op);
		if (ret) {
			ftrace_free_filter(op);
			ftrace_mux_bench_ops_free();
			break;
		}
	}
out:
	mutex_unlock(&ftrace_mux_bench_lock);
	return ret;
}

static const struct kernel_param_ops ftrace_mux_detour_ops_ops = {
	.set	= ftrace_mux_detour_set_ops,
};
module_param_cb(ops, &ftrace_mux_detour_ops_ops, NULL, 0200);
MODULE_PARM_DESC(ops, "register this many empty ftrace_ops on the targets");

static int ftrace_mux_bench_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe ftrace_mux_bench_kp = {
	.symbol_name	= "ftrace_mux_detour_target",
	.pre_handler	= ftrace_mux_bench_pre,
};
static bool ftrace_mux_bench_kp_on;

static int ftrace_mux_detour_set_kprobe(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret;

	ret = kstrtobool(val, &on);
	if (ret)
		return ret;
	mutex_lock(&ftrace_mux_bench_lock);
	if (on && !ftrace_mux_bench_kp_on) {
		/* A kprobe may be registered again only from a clean struct */
		ftrace_mux_bench_kp.addr = NULL;
		ftrace_mux_bench_kp.flags = 0;
		ret = register_kprobe(&ftrace_mux_bench_kp);
		ftrace_mux_bench_kp_on = !ret;
	} else if (!on && ftrace_mux_bench_kp_on) {
		unregister_kprobe(&ftrace_mux_bench_kp);
		ftrace_mux_bench_kp_on = false;
	}
	mutex_unlock(&ftrace_mux_bench_lock);
	return ret;
}

static const struct kernel_param_ops ftrace_mux_detour_kprobe_ops = {
	.set	= ftrace_mux_detour_set_kprobe,
};
module_param_cb(kprobe, &ftrace_mux_detour_kprobe_ops, NULL, 0200);
MODULE_PARM_DESC(kprobe, "1: a kprobe with an empty pre-handler on the target");

static const struct kernel_param_ops ftrace_mux_detour_run_ops = {
	.set	= ftrace_mux_detour_run,
};
module_param_cb(run, &ftrace_mux_detour_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "call each target this many times");

static int ftrace_mux_detour_calls(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&calls));
}

static const struct kernel_param_ops ftrace_mux_detour_calls_ops = {
	.get	= ftrace_mux_detour_calls,
};
module_param_cb(calls, &ftrace_mux_detour_calls_ops, NULL, 0444);
MODULE_PARM_DESC(calls, "how many times ftrace_mux_detour_target() ran");

/*
 * The harness's own check that a warning reaches the console and fails
 * the run: a test kernel built without BUG() support warns silently.
 */
static int ftrace_mux_detour_warn(const char *val, const struct kernel_param *kp)
{
	WARN(1, "ftrace_mux_detour_test: warning on purpose\n");
	return 0;
}

static const struct kernel_param_ops ftrace_mux_detour_warn_ops = {
	.set	= ftrace_mux_detour_warn,
};
module_param_cb(warn, &ftrace_mux_detour_warn_ops, NULL, 0200);
MODULE_PARM_DESC(warn, "WARN() once per write, for the harness");

static int __init ftrace_mux_detour_test_init(void)
{
	return 0;
}

static void __exit ftrace_mux_detour_test_exit(void)
{
	ftrace_mux_detour_set_kprobe("0", NULL);
	mutex_lock(&ftrace_mux_bench_lock);
	ftrace_mux_bench_ops_free();
	mutex_unlock(&ftrace_mux_bench_lock);
}

module_init(ftrace_mux_detour_test_init);
module_exit(ftrace_mux_detour_test_exit);

MODULE_AUTHOR("ftrace-mux developers");
MODULE_DESCRIPTION("Functions without fentry calls, for the detour tests");
MODULE_LICENSE("GPL");
