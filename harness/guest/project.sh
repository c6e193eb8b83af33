#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# project.sh: ftrace-mux's own tests, in one VM: the trace-cmd scenarios,
# first, on the freshly booted kernel (ftracetest cases leave tracefs state
# behind that trace-cmd does not reset), then the ftracetest-format cases
# under test.d/ftrace-mux, then the command-line tool (last: it unmounts
# tracefs to see the tool mount it).
h=/opt/harness
sh $h/tracecmd.sh
if [ -d /opt/ftrace/test.d/ftrace-mux ]; then
	sh $h/ftracetest.sh ftrace-mux
fi
sh $h/tool.sh
