#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# project.sh: ftrace-mux's own tests, in one VM: the trace-cmd scenarios,
# first, on the freshly booted kernel (ftracetest cases leave tracefs state
# behind that trace-cmd does not reset), then the ftracetest-format cases
# under test.d/ftrace-mux.  The command-line tool has a VM of its own
# (the "tool" part, tool.sh).
h=/opt/harness
sh $h/tracecmd.sh
if [ -d /opt/ftrace/test.d/ftrace-mux ]; then
	sh $h/ftracetest.sh ftrace-mux
fi
