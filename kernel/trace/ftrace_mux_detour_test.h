/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The detour test module's inlined copies (ftrace_mux_detour_test_inline.c),
 * driven from its parameters (ftrace_mux_detour_targets.c).
 */
#ifndef _KERNEL_TRACE_FTRACE_MUX_DETOUR_TEST_H
#define _KERNEL_TRACE_FTRACE_MUX_DETOUR_TEST_H

int ftrace_mux_inline_caller1(int x);
void ftrace_mux_inline_run(unsigned long n);
int ftrace_mux_inline_show_calls(char *buf);
int ftrace_mux_inline_show_sites(char *buf);

#endif /* _KERNEL_TRACE_FTRACE_MUX_DETOUR_TEST_H */
