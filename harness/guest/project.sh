#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# project.sh [scale [CASE...] | fast [CASE...] | cases CASE... | skip CASE...]:
# ftrace-mux's own tests.  Without an argument (or with "skip"), the trace-cmd
# scenarios and perf and trace-cmd beside tracers of their own
# (together.sh), first, on the freshly booted kernel (ftracetest cases leave
# tracefs state behind that trace-cmd does not reset), then the
# ftracetest-format cases under test.d/ftrace-mux but the slow ones and
# those named; with "scale", those slow ones, or the named ones of them:
# hundreds of tracers on one function and the profiler's filter rewritten
# under load, most of the time of the whole (the "scale" part, so that
# the two run side by side; on the debug kernel a part each).  The other
# cases end with zero-effect.tc: once they stopped, nothing is left.  "cases"
# runs just the named ones, "fast" is "skip" without the trace-cmd
# scenarios (distro-stuff.sh).  The command-line tool has a VM of its own
# (the "tool" part, tool.sh).
h=/opt/harness
slow="ftrace-mux/many-tracers.tc ftrace-mux/ftrace-ops-sample.tc ftrace-mux/share-race.tc"
# Run after the others: what they left behind must be nothing
last=ftrace-mux/zero-effect.tc
[ -d /opt/ftrace/test.d/ftrace-mux ] || { echo "RESULT project/cases MISSING"; exit 1; }
case "$1" in
scale)
	shift
	# shellcheck disable=SC2086
	sh $h/ftracetest.sh ${*:-$slow}
	exit ;;
cases)
	shift
	sh $h/ftracetest.sh "$@"
	exit ;;
fast)
	shift ;;
*)
	[ "$1" = skip ] && shift
	sh $h/tracecmd.sh
	sh $h/together.sh ;;
esac
# shellcheck disable=SC2086
sh $h/ftracetest.sh ftrace-mux $(for c in $slow $last "$@"; do echo "!$c"; done)
sh $h/ftracetest.sh $last
