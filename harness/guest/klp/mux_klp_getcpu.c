// SPDX-License-Identifier: GPL-2.0
/*
 * mux_klp_getcpu: a livepatch of getcpu(2) that fails every call with
 * ENOSYS, so that a test knows which version of the function ran (or
 * that none did: an fmod_ret program ended the call).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/livepatch.h>
#include <linux/ptrace.h>

static asmlinkage long mux_klp_getcpu(const struct pt_regs *regs)
{
	return -ENOSYS;
}

static struct klp_func funcs[] = {
	{
		.old_name = "__x64_sys_getcpu",
		.new_func = mux_klp_getcpu,
	}, {}
};

static struct klp_object objs[] = {
	{
		/* vmlinux */
		.funcs = funcs,
	}, {}
};

static struct klp_patch patch = {
	.mod = THIS_MODULE,
	.objs = objs,
};

static int __init mux_klp_getcpu_init(void)
{
	return klp_enable_patch(&patch);
}

static void __exit mux_klp_getcpu_exit(void)
{
}

module_init(mux_klp_getcpu_init);
module_exit(mux_klp_getcpu_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftrace-mux test: a livepatch of getcpu(2) that fails with ENOSYS");
MODULE_INFO(livepatch, "Y");
