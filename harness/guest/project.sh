#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# project.sh: ftrace-mux's own tests, in one VM: the ftracetest-format cases
# under test.d/ftrace-mux and the trace-cmd scenarios.
h=/opt/harness
if [ -d /opt/ftrace/test.d/ftrace-mux ]; then
	sh $h/ftracetest.sh ftrace-mux
fi
sh $h/tracecmd.sh
