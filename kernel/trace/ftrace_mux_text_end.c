// SPDX-License-Identifier: GPL-2.0
/* Linked last in kernel/trace: see ftrace_mux_text_start.c. */
#include "ftrace_mux_detour.h"

noinline void ftrace_mux_text_end(void) { }
