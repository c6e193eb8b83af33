#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An open find (docs/testing.md): on the mux kernel this ends in a
# ftrace_verify_code WARNING and ftrace_bug at the last "ftrace_enabled 1"
# (kernel code of 88237b2, met at 20be691):
#   harness/test/vm tests/oracle/module-site-ftrace-bug.sh
# The stack tracer keeps its entry for the removed module's function, so
# the module loaded again while ftrace_enabled is 0 has its site patched
# to the stack tracer's trampoline; a filter written then adds a tracer.
T=/sys/kernel/tracing; F=ftrace_mux_fentry_target
modprobe ftrace_mux_detour_test
echo $F > $T/stack_trace_filter
echo 1 > /proc/sys/kernel/stack_tracer_enabled
mkdir $T/instances/a; echo $F > $T/instances/a/set_ftrace_filter; echo function > $T/instances/a/current_tracer
echo $F > $T/set_ftrace_filter; echo function > $T/current_tracer
grep $F $T/enabled_functions
echo 0 > /proc/sys/kernel/ftrace_enabled
rmmod ftrace_mux_detour_test
modprobe ftrace_mux_detour_test
echo "loaded while off:"; grep $F $T/enabled_functions
echo 1 > /proc/sys/kernel/ftrace_enabled
echo "enable: $(cat /proc/sys/kernel/ftrace_enabled 2>&1)"
grep $F $T/enabled_functions
echo 0 > /proc/sys/kernel/ftrace_enabled
rmmod ftrace_mux_detour_test
modprobe ftrace_mux_detour_test
echo $F > $T/instances/a/set_ftrace_filter
echo "filter while off:"; grep $F $T/enabled_functions
echo 1 > /proc/sys/kernel/ftrace_enabled
echo "enable: $(cat /proc/sys/kernel/ftrace_enabled 2>&1)"
grep $F $T/enabled_functions
cat /proc/sys/kernel/ftrace_enabled
