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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

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

static int __init ftrace_mux_detour_test_init(void)
{
	return 0;
}

static void __exit ftrace_mux_detour_test_exit(void)
{
}

module_init(ftrace_mux_detour_test_init);
module_exit(ftrace_mux_detour_test_exit);

MODULE_AUTHOR("ftrace-mux developers");
MODULE_DESCRIPTION("Functions without fentry calls, for the detour tests");
MODULE_LICENSE("GPL");
