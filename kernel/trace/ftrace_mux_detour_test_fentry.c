// SPDX-License-Identifier: GPL-2.0
/*
 * The fentry twin of ftrace_mux_detour_target(): the same body, built with
 * an fentry call, so that the cost of one function reached through its
 * fentry site can be compared with one reached through a detour.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>

int ftrace_mux_fentry_target(int x);

noinline int ftrace_mux_fentry_target(int x)
{
	static atomic_long_t calls;

	atomic_long_inc(&calls);
	return x + 1;
}
