// SPDX-License-Identifier: GPL-2.0
/*
 * Functions the compiler also inlined, for the tests of detours on
 * inlined copies: ftrace_mux_inline_target(), which has an fentry call,
 * three times into two callers, and ftrace_mux_inline_notrace(), which
 * has none, once.  Each copy notes where it runs (an asm label), so that
 * the tests can name its site without debug info.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ftrace_mux_detour_test.h"

static atomic_long_t inline_calls, notrace_calls;
/*
 * Where each copy ran: the target's three inlined ones, the notrace
 * function's, then the two out-of-line ones.
 */
#define NR_INLINED	4
static unsigned long inline_sites[NR_INLINED + 2];

#define NOTE_SITE(copy) do {						\
	unsigned long here;						\
									\
	asm volatile("1: lea 1b(%%rip), %0" : "=r" (here));		\
	WRITE_ONCE(inline_sites[copy], here);				\
} while (0)

static int ftrace_mux_inline_target(int x, unsigned int copy)
{
	NOTE_SITE(copy);
	atomic_long_inc(&inline_calls);
	return x * 5 + 1;
}

/* No fentry call: its out-of-line copy needs a detour of its own */
static notrace int ftrace_mux_inline_notrace(int x, unsigned int copy)
{
	NOTE_SITE(copy);
	atomic_long_inc(&notrace_calls);
	return x * 7 + 2;
}

/*
 * flatten: every call in them inlined, whatever the compiler would do.
 * The first is also the benchmark of one inlined copy (bench_inline).
 */
noinline __attribute__((flatten)) int ftrace_mux_inline_caller1(int x)
{
	return ftrace_mux_inline_target(x, 0);
}

static noinline __attribute__((flatten)) int ftrace_mux_inline_caller2(int x)
{
	x = ftrace_mux_inline_target(x, 1);
	x = ftrace_mux_inline_notrace(x, 3);
	return ftrace_mux_inline_target(x ^ 3, 2);
}

/* Through pointers read at run time: the out-of-line copies */
static int (*ftrace_mux_inline_ptrs[])(int, unsigned int) = {
	ftrace_mux_inline_target,
	ftrace_mux_inline_notrace,
};

/*
 * Each caller @n times, and the out-of-line copies: 4 * @n calls of
 * ftrace_mux_inline_target(), @n of them through its fentry call, and
 * 2 * @n of ftrace_mux_inline_notrace(), @n of them out of line.
 */
void ftrace_mux_inline_run(unsigned long n)
{
	unsigned long i;
	int sum = 0;

	for (i = 0; i < n; i++) {
		sum += ftrace_mux_inline_caller1(sum);
		sum += ftrace_mux_inline_caller2(sum);
		sum += READ_ONCE(ftrace_mux_inline_ptrs[0])(sum, NR_INLINED);
		sum += READ_ONCE(ftrace_mux_inline_ptrs[1])(sum, NR_INLINED + 1);
		if (!(i & 1023))
			cond_resched();
	}
}

/* "TARGET NOTRACE": how many times each ran */
int ftrace_mux_inline_show_calls(char *buf)
{
	return sysfs_emit(buf, "%ld %ld\n", atomic_long_read(&inline_calls),
			  atomic_long_read(&notrace_calls));
}

/*
 * The inlined copies' sites as detour_functions takes them, one a line
 * ("MODULE:FUNC@CALLER+0xOFFSET"), once each has run.
 */
int ftrace_mux_inline_show_sites(char *buf)
{
	char sym[KSYM_SYMBOL_LEN], *slash;
	int i, len = 0;

	for (i = 0; i < NR_INLINED; i++) {
		if (!READ_ONCE(inline_sites[i]))
			continue;
		/* "CALLER+0xOFF/0xSIZE [MODULE]" */
		snprintf(sym, sizeof(sym), "%pS", (void *)inline_sites[i]);
		slash = strchr(sym, '/');
		if (slash)
			*slash = '\0';
		len += sysfs_emit_at(buf, len, "%s:ftrace_mux_inline_%s@%s\n",
				     KBUILD_MODNAME,
				     i == NR_INLINED - 1 ? "notrace" : "target", sym);
	}
	return len;
}
