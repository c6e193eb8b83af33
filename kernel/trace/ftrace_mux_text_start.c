// SPDX-License-Identifier: GPL-2.0
/*
 * Linked first in kernel/trace (see its Makefile), so that the text
 * of the tracing core, all built without fentry calls, lies between
 * ftrace_mux_text_start() and ftrace_mux_text_end().  A tracer runs that
 * code on every call it records: detours refuse it (ftrace_mux_detour.c).
 */
#include <linux/compiler.h>
#include "ftrace_mux_detour.h"

noinline void ftrace_mux_text_start(void)
{
}
