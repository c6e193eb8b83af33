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
 * For the tests that count calls, and for measuring a path:
 *   ops=K          register K ftrace_ops with an empty callback, filtered
 *                  on ftrace_mux_detour_target, its fentry twin and
 *                  ftrace_mux_inline_target (below)
 *   count_ops=K    the same, each counting its calls; "op_counts" reads
 *                  "MIN MAX K" over them, so MIN == MAX == the calls made
 *                  shows every one was called exactly that often
 *   kprobe=1       a kprobe on the target whose pre-handler counts its
 *                  hits in "kprobe_hits" (any write zeroes it)
 *   bench=N        call ftrace_mux_detour_target() N times
 *   bench_fentry=N call ftrace_mux_fentry_target() N times
 *   bench_inline=N call ftrace_mux_inline_caller1() N times: one inlined
 *                  copy of ftrace_mux_inline_target() each (below)
 *
 * And fill=N calls each of the 64 capacity targets N times.
 *
 * For the sites of inlined copies (ftrace_mux_detour_test_inline.c):
 *   inline_run=N   call ftrace_mux_inline_target() 4 * N times: N
 *                  through its fentry call, 3 * N inlined; and
 *                  ftrace_mux_inline_notrace() 2 * N times: N out of
 *                  line (no fentry call), N inlined
 *   inline_calls   "TARGET NOTRACE": how many times each ran
 *   inline_sites   their inlined copies, as detour_functions takes them
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

#include "ftrace_mux_detour_test.h"

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

/*
 * More targets than there are detours, for the capacity tests: 64
 * functions ftrace_mux_detour_fill00() to _fill77(), called by "fill".
 */
#define FTRACE_MUX_FILL(n)						\
	static noinline int ftrace_mux_detour_fill##n(int x)		\
	{								\
		return x * 3 + 0##n;					\
	}
FTRACE_MUX_FILL(00)
FTRACE_MUX_FILL(01)
FTRACE_MUX_FILL(02)
FTRACE_MUX_FILL(03)
FTRACE_MUX_FILL(04)
FTRACE_MUX_FILL(05)
FTRACE_MUX_FILL(06)
FTRACE_MUX_FILL(07)
FTRACE_MUX_FILL(10)
FTRACE_MUX_FILL(11)
FTRACE_MUX_FILL(12)
FTRACE_MUX_FILL(13)
FTRACE_MUX_FILL(14)
FTRACE_MUX_FILL(15)
FTRACE_MUX_FILL(16)
FTRACE_MUX_FILL(17)
FTRACE_MUX_FILL(20)
FTRACE_MUX_FILL(21)
FTRACE_MUX_FILL(22)
FTRACE_MUX_FILL(23)
FTRACE_MUX_FILL(24)
FTRACE_MUX_FILL(25)
FTRACE_MUX_FILL(26)
FTRACE_MUX_FILL(27)
FTRACE_MUX_FILL(30)
FTRACE_MUX_FILL(31)
FTRACE_MUX_FILL(32)
FTRACE_MUX_FILL(33)
FTRACE_MUX_FILL(34)
FTRACE_MUX_FILL(35)
FTRACE_MUX_FILL(36)
FTRACE_MUX_FILL(37)
FTRACE_MUX_FILL(40)
FTRACE_MUX_FILL(41)
FTRACE_MUX_FILL(42)
FTRACE_MUX_FILL(43)
FTRACE_MUX_FILL(44)
FTRACE_MUX_FILL(45)
FTRACE_MUX_FILL(46)
FTRACE_MUX_FILL(47)
FTRACE_MUX_FILL(50)
FTRACE_MUX_FILL(51)
FTRACE_MUX_FILL(52)
FTRACE_MUX_FILL(53)
FTRACE_MUX_FILL(54)
FTRACE_MUX_FILL(55)
FTRACE_MUX_FILL(56)
FTRACE_MUX_FILL(57)
FTRACE_MUX_FILL(60)
FTRACE_MUX_FILL(61)
FTRACE_MUX_FILL(62)
FTRACE_MUX_FILL(63)
FTRACE_MUX_FILL(64)
FTRACE_MUX_FILL(65)
FTRACE_MUX_FILL(66)
FTRACE_MUX_FILL(67)
FTRACE_MUX_FILL(70)
FTRACE_MUX_FILL(71)
FTRACE_MUX_FILL(72)
FTRACE_MUX_FILL(73)
FTRACE_MUX_FILL(74)
FTRACE_MUX_FILL(75)
FTRACE_MUX_FILL(76)
FTRACE_MUX_FILL(77)

static int (*ftrace_mux_detour_fills[])(int) = {
	ftrace_mux_detour_fill00, ftrace_mux_detour_fill01, ftrace_mux_detour_fill02,
	ftrace_mux_detour_fill03, ftrace_mux_detour_fill04, ftrace_mux_detour_fill05,
	ftrace_mux_detour_fill06, ftrace_mux_detour_fill07, ftrace_mux_detour_fill10,
	ftrace_mux_detour_fill11, ftrace_mux_detour_fill12, ftrace_mux_detour_fill13,
	ftrace_mux_detour_fill14, ftrace_mux_detour_fill15, ftrace_mux_detour_fill16,
	ftrace_mux_detour_fill17, ftrace_mux_detour_fill20, ftrace_mux_detour_fill21,
	ftrace_mux_detour_fill22, ftrace_mux_detour_fill23, ftrace_mux_detour_fill24,
	ftrace_mux_detour_fill25, ftrace_mux_detour_fill26, ftrace_mux_detour_fill27,
	ftrace_mux_detour_fill30, ftrace_mux_detour_fill31, ftrace_mux_detour_fill32,
	ftrace_mux_detour_fill33, ftrace_mux_detour_fill34, ftrace_mux_detour_fill35,
	ftrace_mux_detour_fill36, ftrace_mux_detour_fill37, ftrace_mux_detour_fill40,
	ftrace_mux_detour_fill41, ftrace_mux_detour_fill42, ftrace_mux_detour_fill43,
	ftrace_mux_detour_fill44, ftrace_mux_detour_fill45, ftrace_mux_detour_fill46,
	ftrace_mux_detour_fill47, ftrace_mux_detour_fill50, ftrace_mux_detour_fill51,
	ftrace_mux_detour_fill52, ftrace_mux_detour_fill53, ftrace_mux_detour_fill54,
	ftrace_mux_detour_fill55, ftrace_mux_detour_fill56, ftrace_mux_detour_fill57,
	ftrace_mux_detour_fill60, ftrace_mux_detour_fill61, ftrace_mux_detour_fill62,
	ftrace_mux_detour_fill63, ftrace_mux_detour_fill64, ftrace_mux_detour_fill65,
	ftrace_mux_detour_fill66, ftrace_mux_detour_fill67, ftrace_mux_detour_fill70,
	ftrace_mux_detour_fill71, ftrace_mux_detour_fill72, ftrace_mux_detour_fill73,
	ftrace_mux_detour_fill74, ftrace_mux_detour_fill75, ftrace_mux_detour_fill76,
	ftrace_mux_detour_fill77,
};

/* Called through pointers read at run time: never inlined nor cloned */
static int (*ftrace_mux_detour_targets[])(int) = {
	ftrace_mux_detour_target,
	ftrace_mux_detour_target2,
};

/* Calls each of @fns, @nr of them, as many times as @val says. */
static int ftrace_mux_detour_run(const char *val, int (**fns)(int),
				 int nr, unsigned long max)
{
	unsigned long n, i;
	int j, sum = 0, ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	if (n > max)
		return -ERANGE;
	/*
	 * A parameter write does not pin the module, and kprobes (so the
	 * detours) assume no code of a going module runs any more.
	 */
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	for (i = 0; i < n; i++) {
		for (j = 0; j < nr; j++)
			sum += READ_ONCE(fns[j])(sum);
		if (!(i & 1023))
			cond_resched();
	}
	module_put(THIS_MODULE);
	return 0;
}

static int ftrace_mux_detour_run_targets(const char *val, const struct kernel_param *kp)
{
	return ftrace_mux_detour_run(val, ftrace_mux_detour_targets,
				     ARRAY_SIZE(ftrace_mux_detour_targets), 10000000);
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
	ftrace_mux_inline_caller1,
};

static int ftrace_mux_detour_bench(const char *val, const struct kernel_param *kp)
{
	return ftrace_mux_detour_loop(val, READ_ONCE(ftrace_mux_bench_targets[0]));
}

static int ftrace_mux_detour_bench_fentry(const char *val, const struct kernel_param *kp)
{
	return ftrace_mux_detour_loop(val, READ_ONCE(ftrace_mux_bench_targets[1]));
}

static int ftrace_mux_detour_bench_inline(const char *val, const struct kernel_param *kp)
{
	return ftrace_mux_detour_loop(val, READ_ONCE(ftrace_mux_bench_targets[2]));
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

static const struct kernel_param_ops ftrace_mux_detour_bench_inline_ops = {
	.set	= ftrace_mux_detour_bench_inline,
};
module_param_cb(bench_inline, &ftrace_mux_detour_bench_inline_ops, NULL, 0200);
MODULE_PARM_DESC(bench_inline, "call ftrace_mux_inline_caller1() this many times");

static void ftrace_mux_bench_func(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static void ftrace_mux_count_func(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_long_inc(op->private);
}

/* More than the default number of tracer IDs: some get none */
#define FTRACE_MUX_BENCH_MAX_OPS	300

static struct ftrace_ops *ftrace_mux_bench_ops;
static atomic_long_t *ftrace_mux_bench_counts;
static unsigned int ftrace_mux_bench_nr;
static DEFINE_MUTEX(ftrace_mux_bench_lock);

static void ftrace_mux_bench_ops_free(void)
{
	struct ftrace_ops *op;

	while (ftrace_mux_bench_nr) {
		op = &ftrace_mux_bench_ops[--ftrace_mux_bench_nr];
		unregister_ftrace_function(op);
		ftrace_free_filter(op);
	}
	kfree(ftrace_mux_bench_ops);
	ftrace_mux_bench_ops = NULL;
	kfree(ftrace_mux_bench_counts);
	ftrace_mux_bench_counts = NULL;
}

static int ftrace_mux_detour_set_ops(const char *val, const struct kernel_param *kp)
{
	bool count = kp->arg != NULL;
	/* Writable: ftrace_set_filter() takes a char buffer it may cut */
	char targets[] = "ftrace_mux_detour_target";
	char twin[] = "ftrace_mux_fentry_target";
	char inlined[] = "ftrace_mux_inline_target";
	struct ftrace_ops *op;
	unsigned int k;
	int ret;

	ret = kstrtouint(val, 0, &k);
	if (ret)
		return ret;
	if (k > FTRACE_MUX_BENCH_MAX_OPS)
		return -ERANGE;
	mutex_lock(&ftrace_mux_bench_lock);
	ftrace_mux_bench_ops_free();
	ret = -ENOMEM;
	ftrace_mux_bench_ops = kcalloc(k, sizeof(*op), GFP_KERNEL);
	ftrace_mux_bench_counts = kcalloc(k, sizeof(atomic_long_t), GFP_KERNEL);
	if ((!ftrace_mux_bench_ops || !ftrace_mux_bench_counts) && k) {
		ftrace_mux_bench_ops_free();
		goto out;
	}
	for (ret = 0; ftrace_mux_bench_nr < k; ftrace_mux_bench_nr++) {
		op = &ftrace_mux_bench_ops[ftrace_mux_bench_nr];
		op->func = count ? ftrace_mux_count_func : ftrace_mux_bench_func;
		op->private = &ftrace_mux_bench_counts[ftrace_mux_bench_nr];
		/* The target matches only while it is detoured: that is fine */
		ftrace_set_filter(op, targets, strlen(targets), 0);
		ftrace_set_filter(op, inlined, strlen(inlined), 0);
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
module_param_cb(count_ops, &ftrace_mux_detour_ops_ops, (void *)1, 0200);
MODULE_PARM_DESC(count_ops, "register this many counting ftrace_ops on the targets");

static int ftrace_mux_detour_op_counts(char *buf, const struct kernel_param *kp)
{
	long c, min = 0, max = 0;
	unsigned int i, nr;

	mutex_lock(&ftrace_mux_bench_lock);
	nr = ftrace_mux_bench_nr;
	for (i = 0; i < nr; i++) {
		c = atomic_long_read(&ftrace_mux_bench_counts[i]);
		min = i ? min_t(long, min, c) : c;
		max = i ? max_t(long, max, c) : c;
	}
	mutex_unlock(&ftrace_mux_bench_lock);
	return sysfs_emit(buf, "%ld %ld %u\n", min, max, nr);
}

static const struct kernel_param_ops ftrace_mux_detour_op_counts_ops = {
	.get	= ftrace_mux_detour_op_counts,
};
module_param_cb(op_counts, &ftrace_mux_detour_op_counts_ops, NULL, 0444);
MODULE_PARM_DESC(op_counts, "MIN MAX K: the fewest and most calls of the K counting ops");

static atomic_long_t ftrace_mux_bench_kp_hits;

static int ftrace_mux_bench_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_long_inc(&ftrace_mux_bench_kp_hits);
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

static int ftrace_mux_detour_get_kp_hits(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&ftrace_mux_bench_kp_hits));
}

static int ftrace_mux_detour_set_kp_hits(const char *val, const struct kernel_param *kp)
{
	atomic_long_set(&ftrace_mux_bench_kp_hits, 0);
	return 0;
}

static const struct kernel_param_ops ftrace_mux_detour_kp_hits_ops = {
	.get	= ftrace_mux_detour_get_kp_hits,
	.set	= ftrace_mux_detour_set_kp_hits,
};
module_param_cb(kprobe_hits, &ftrace_mux_detour_kp_hits_ops, NULL, 0600);
MODULE_PARM_DESC(kprobe_hits, "hits of that kprobe; any write zeroes it");

static const struct kernel_param_ops ftrace_mux_detour_run_ops = {
	.set	= ftrace_mux_detour_run_targets,
};
module_param_cb(run, &ftrace_mux_detour_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "call each target this many times");

static int ftrace_mux_detour_fill(const char *val, const struct kernel_param *kp)
{
	return ftrace_mux_detour_run(val, ftrace_mux_detour_fills,
				     ARRAY_SIZE(ftrace_mux_detour_fills), 100000);
}

static const struct kernel_param_ops ftrace_mux_detour_fill_ops = {
	.set	= ftrace_mux_detour_fill,
};
module_param_cb(fill, &ftrace_mux_detour_fill_ops, NULL, 0200);
MODULE_PARM_DESC(fill, "call each capacity target this many times");

static int ftrace_mux_detour_calls(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&calls));
}

static const struct kernel_param_ops ftrace_mux_detour_calls_ops = {
	.get	= ftrace_mux_detour_calls,
};
module_param_cb(calls, &ftrace_mux_detour_calls_ops, NULL, 0444);
MODULE_PARM_DESC(calls, "how many times ftrace_mux_detour_target() ran");

static int ftrace_mux_detour_inline_run(const char *val, const struct kernel_param *kp)
{
	unsigned long n;
	int ret;

	ret = kstrtoul(val, 0, &n);
	if (ret)
		return ret;
	if (n > 10000000)
		return -ERANGE;
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	ftrace_mux_inline_run(n);
	module_put(THIS_MODULE);
	return 0;
}

static const struct kernel_param_ops ftrace_mux_detour_inline_run_ops = {
	.set	= ftrace_mux_detour_inline_run,
};
module_param_cb(inline_run, &ftrace_mux_detour_inline_run_ops, NULL, 0200);
MODULE_PARM_DESC(inline_run, "call the inlined functions (4 and 2 times) this many times");

static int ftrace_mux_detour_get_inline_calls(char *buf, const struct kernel_param *kp)
{
	return ftrace_mux_inline_show_calls(buf);
}

static const struct kernel_param_ops ftrace_mux_detour_inline_calls_ops = {
	.get	= ftrace_mux_detour_get_inline_calls,
};
module_param_cb(inline_calls, &ftrace_mux_detour_inline_calls_ops, NULL, 0444);
MODULE_PARM_DESC(inline_calls, "TARGET NOTRACE: how many times each inlined function ran");

static int ftrace_mux_detour_get_inline_sites(char *buf, const struct kernel_param *kp)
{
	return ftrace_mux_inline_show_sites(buf);
}

static const struct kernel_param_ops ftrace_mux_detour_inline_sites_ops = {
	.get	= ftrace_mux_detour_get_inline_sites,
};
module_param_cb(inline_sites, &ftrace_mux_detour_inline_sites_ops, NULL, 0444);
MODULE_PARM_DESC(inline_sites, "the inlined copies' sites, for detour_functions");

static int __init ftrace_mux_detour_test_init(void)
{
	/* Each copy notes its site when it first runs */
	ftrace_mux_inline_run(1);
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
