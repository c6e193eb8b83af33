// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of fgraph's entry through a list of users, as a set's
 * trampoline enters them (function_graph_enter_users()): a list made
 * before one of its users left must not enter a user now registered at
 * that address for a function outside its filter.
 *
 * This file is built with the function tracer's flags, so the targets
 * below have fentry call sites of their own.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>
#include <linux/overflow.h>

static noinline void ftrace_mux_graph_kunit_a(void) { asm volatile(""); }
static noinline void ftrace_mux_graph_kunit_b(void) { asm volatile(""); }

/* Their fentry sites: what a trampoline passes as the function */
static unsigned long ip_a, ip_b;
static atomic_t entered_a, entered_b;

/* Counts, and takes no return hook: fgraph drops the frame again */
static int notrace count_entry(struct ftrace_graph_ent *trace,
			       struct fgraph_ops *gops,
			       struct ftrace_regs *fregs)
{
	if (trace->func == ip_a)
		atomic_inc(&entered_a);
	else if (trace->func == ip_b)
		atomic_inc(&entered_b);
	return 0;
}

static void notrace no_return(struct ftrace_graph_ret *trace,
			      struct fgraph_ops *gops)
{
}

/* Enter @users for a call at fentry site @ip, as a set's trampoline does */
static int enter(struct fgraph_users *users, unsigned long ip)
{
	unsigned long ret_addr = _THIS_IP_;
	int ret;

	preempt_disable_notrace();
	ret = function_graph_enter_users(ret_addr, ip, 0, &ret_addr, users,
					 NULL);
	preempt_enable_notrace();
	return ret;
}

static void set_filter(struct kunit *test, struct fgraph_ops *gops,
		       void (*func)(void))
{
	char name[KSYM_NAME_LEN];

	snprintf(name, sizeof(name), "%ps", func);
	KUNIT_ASSERT_EQ(test, ftrace_set_filter(&gops->ops, name,
						strlen(name), 1), 0);
}

/*
 * The list holds @gops by address.  @gops leaves and registers again
 * with another filter: the same address, a user that wants b only.
 * Entering the stale list for a must skip it; for b it is entered.
 * Every call returns -EBUSY, as no user keeps the frame.
 */
static void stale_list(struct kunit *test)
{
	struct fgraph_users *users;
	struct fgraph_ops *gops;

	gops = kunit_kzalloc(test, sizeof(*gops), GFP_KERNEL);
	users = kunit_kzalloc(test, struct_size(users, gops, 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, gops);
	KUNIT_ASSERT_NOT_NULL(test, users);
	gops->entryfunc = count_entry;
	gops->retfunc = no_return;
	users->nr = 1;
	users->gops[0] = gops;
	ip_a = ftrace_location((unsigned long)ftrace_mux_graph_kunit_a);
	ip_b = ftrace_location((unsigned long)ftrace_mux_graph_kunit_b);
	KUNIT_ASSERT_NE(test, ip_a, 0);
	KUNIT_ASSERT_NE(test, ip_b, 0);
	atomic_set(&entered_a, 0);
	atomic_set(&entered_b, 0);

	set_filter(test, gops, ftrace_mux_graph_kunit_a);
	KUNIT_ASSERT_EQ(test, register_ftrace_graph(gops), 0);
	/* The first call checks the list, the second trusts it */
	KUNIT_EXPECT_EQ(test, enter(users, ip_a), -EBUSY);
	KUNIT_EXPECT_EQ(test, enter(users, ip_a), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&entered_a), 2);
	unregister_ftrace_graph(gops);

	set_filter(test, gops, ftrace_mux_graph_kunit_b);
	KUNIT_ASSERT_EQ(test, register_ftrace_graph(gops), 0);
	KUNIT_EXPECT_EQ(test, enter(users, ip_a), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&entered_a), 2);
	KUNIT_EXPECT_EQ(test, enter(users, ip_b), -EBUSY);
	KUNIT_EXPECT_EQ(test, atomic_read(&entered_b), 1);
	unregister_ftrace_graph(gops);
	ftrace_free_filter(&gops->ops);
}

static struct kunit_case ftrace_mux_graph_cases[] = {
	KUNIT_CASE(stale_list),
	{}
};

static struct kunit_suite ftrace_mux_graph_suite = {
	.name = "ftrace_mux_graph",
	.test_cases = ftrace_mux_graph_cases,
};
kunit_test_suite(ftrace_mux_graph_suite);

MODULE_DESCRIPTION("KUnit tests of ftrace-mux's lists of graph users");
MODULE_LICENSE("GPL");
