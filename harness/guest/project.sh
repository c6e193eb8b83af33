#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# project.sh [scale]: ftrace-mux's own tests.  Without an argument, the
# trace-cmd scenarios, first, on the freshly booted kernel (ftracetest
# cases leave tracefs state behind that trace-cmd does not reset), then
# the ftracetest-format cases under test.d/ftrace-mux but the slow ones;
# with "scale", those: hundreds of tracers on one function and the
# profiler's filter rewritten under load, most of the time of the whole
# (the "scale" part, so that the two run side by side).  The command-line
# tool has a VM of its own (the "tool" part, tool.sh).
h=/opt/harness
slow="ftrace-mux/many-tracers.tc ftrace-mux/ftrace-ops-sample.tc ftrace-mux/share-race.tc"
[ -d /opt/ftrace/test.d/ftrace-mux ] || { echo "RESULT project/cases MISSING"; exit 1; }
if [ "$1" = scale ]; then
	# shellcheck disable=SC2086
	sh $h/ftracetest.sh $slow
	exit
fi
sh $h/tracecmd.sh
# shellcheck disable=SC2086
sh $h/ftracetest.sh ftrace-mux $(for c in $slow; do echo "!$c"; done)
