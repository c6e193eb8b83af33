#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# macro.sh profile | run [REPS [SETUP...]]: what several function tracers cost real workloads,
# inside a VM booted with -icount shift=0 -smp 1 (guest ns == instructions
# executed, plus idle time).  harness/bench/macro.sh runs it on both kernels.
#
#   profile  the function profiler on every function during one run of
#            each workload; prints "hits WORKLOAD FUNCTION COUNT" for each
#            function called.  harness/bench/macro.sh picks the set F
#            (harness/bench/macro-functions.txt) from them.
#   run      each setup (below) with the functions of /run/macro-functions.txt
#            as F, each workload REPS times; prints
#            "macro SETUP WORKLOAD NS" per run, "calls SETUP WORKLOAD N"
#            (the events the setup's instances recorded in its last run)
#            and, in 64-same, "counted SETUP WORKLOAD N" (the calls its
#            counting tracers took in that run, all 56 together, within
#            the run's own interval: mux-time reads them).
#
# The setups, each with every tracer a trace instance's function tracer
# (what "trace-cmd start -B NAME -p function -l F..." makes) but in 64-same:
#   none          no tracer
#   one           one tracer on F
#   8-disjoint    8 tracers, each on its own eighth of F
#   8-same        8 tracers, each on all of F
#   64-same       64 tracers, each on all of F: the 8 instances of 8-same
#                 and 56 counting tracers of the harness module (the
#                 ftrace-ops sample's kind: one counter each).  64
#                 recording instances make the timer tick's traced
#                 functions outlast the tick: a run then never ends.
#   8-same+graph  8-same, plus the function profiler and function_graph
#                 (the top instance) on 8 functions of F
#   8-same+graph+bpf  8-same+graph, plus a BPF fentry program on each of
#                 the first 8 functions of F the verifier takes, 7 of
#                 them the graph's (the distro-like kernel's: needs mux-bpf)
# and the first four again with tracing_on 0 in every instance
# ("SETUP-norec"): the callbacks run but record nothing, so the
# difference is what the ring buffer writes cost.  REPS defaults to 3,
# the SETUPs to all of them.
T=/sys/kernel/tracing
TIME=/run/mux-time
mode=$1
[ $# -gt 0 ] && shift
REPS=${1:-3}
[ $# -gt 0 ] && shift
SETUPS=${*:-none one 8-disjoint 8-same 64-same 8-same+graph}
command -v mux-bpf > /dev/null && [ $# = 0 ] && SETUPS="$SETUPS 8-same+graph+bpf"
cd $T || exit 1
fail() { echo "macro: $*" >&2; exit 1; }

WORKLOADS="messaging files gzip"
# Each workload as one command line for mux-time run; output discarded.
workload() {
	local w=$1
	case $w in
	messaging)	# perf's scheduler benchmark, threads: 1 group of 20
			# senders and 20 receivers over sockets, 5 loops
		set -- perf bench sched messaging -t -g 1 -l 5 ;;
	files)		# unpack 100 kernel headers on tmpfs, walk them with
			# find, stat and cat, remove them
		set -- sh -c 'mkdir /tmp/w && tar xf /run/headers.tar -C /tmp/w &&
			find /tmp/w -type f | xargs stat > /dev/null &&
			find /tmp/w -type f | xargs cat > /dev/null && rm -rf /tmp/w' ;;
	gzip)		# compress the tar of those headers (0.5 MB)
		set -- sh -c 'gzip -c /run/headers.tar > /dev/null' ;;
	esac
	# (with counting tracers, mux-time also counts their calls in the run)
	if [ $NC -gt 0 ]; then
		MUX_TIME_COUNTERS=$H/counters $TIME run "$@"
	else
		$TIME run "$@"
	fi > /tmp/ns 2> /tmp/err < /dev/null || fail "$w: $(cat /tmp/err)"
	cat /tmp/ns
}

if [ "$mode" = profile ]; then
	for w in $WORKLOADS; do
		echo 0 > function_profile_enabled
		echo 1 > function_profile_enabled
		workload $w > /dev/null
		echo 0 > function_profile_enabled
		# trace_stat/function0: "  Function  Hit  Time  Avg  s^2"
		# Only what a filter can name: the profiler also counts a
		# few functions available_filter_functions leaves out.
		sed '1,2d' trace_stat/function0 |
			awk -v w=$w 'NR == FNR { ok[$1] = 1; next }
				($1 in ok) { print "hits", w, $1, $2 }' \
				available_filter_functions -
	done
	exit 0
fi

# F by index in available_filter_functions: one lookup per function on
# each filter write, where a name would be matched against every record.
[ -s /run/macro-functions.txt ] || fail "no /run/macro-functions.txt"
awk 'NR == FNR { want[$1] = 1; next } ($1 in want) { print FNR }' \
	/run/macro-functions.txt available_filter_functions > /tmp/F
nf=$(wc -l < /tmp/F)
[ "$nf" = "$(wc -l < /run/macro-functions.txt)" ] ||
	fail "only $nf of $(wc -l < /run/macro-functions.txt) functions of F are traceable"
F=$(cat /tmp/F)
eighth() { awk -v k=$1 '(NR - 1) % 8 == k' /tmp/F; }
H=/sys/module/mux_harness/parameters
NC=0
counters() {	# N: N counting tracers on F, beside the instances
	modprobe mux_harness || fail "no harness module"
	awk 'NR == FNR { want[$1] = 1; next } ($2 in want) { print $1 }' \
		/run/macro-functions.txt available_filter_functions_addrs > /tmp/ips
	[ "$(wc -l < /tmp/ips)" = "$nf" ] || fail "addresses of F: $(wc -l < /tmp/ips) of $nf"
	echo > $H/counter_ips
	# a module parameter takes at most a page a write: 128 a line; the
	# loop reads a file, not a pipe, so that fail() ends the script
	awk '{ printf "%s%s", NR % 128 == 1 ? "" : " ", $1 }
	     NR % 128 == 0 { print "" } END { if (NR % 128) print "" }' /tmp/ips > /tmp/ips.lines
	while read -r line; do
		echo $line > $H/counter_ips || fail "counter_ips"
	done < /tmp/ips.lines
	echo $1 > $H/counters || fail "$1 counters"
	NC=$1
}

NI=0 BPF=""
instances() {	# N filter-kind: N instances, each a function tracer
	local i=0
	while [ $i -lt $1 ]; do
		mkdir instances/m$i || fail "instance m$i"
		echo 64 > instances/m$i/buffer_size_kb
		if [ $2 = eighth ]; then
			eighth $i > instances/m$i/set_ftrace_filter
		else
			echo $F > instances/m$i/set_ftrace_filter
		fi || fail "m$i filter"
		echo function > instances/m$i/current_tracer || fail "m$i tracer"
		i=$((i + 1))
	done
	NI=$1
	echo "macro: $1 instances up at $(cut -d' ' -f1 /proc/uptime) s" > /dev/kmsg
}
recording() {	# 0|1
	local i=0
	while [ $i -lt $NI ]; do
		echo $1 > instances/m$i/tracing_on
		i=$((i + 1))
	done
}
recorded() {	# events the instances' buffers took, lost ones included
	local i=0 n=0 e
	while [ $i -lt $NI ]; do
		e=$(sed -n 's/^entries: //p; s/^overrun: //p' instances/m$i/per_cpu/cpu0/stats |
			awk '{ s += $1 } END { print s + 0 }')
		n=$((n + e))
		i=$((i + 1))
	done
	echo $n
}
clear_buffers() {
	local i=0
	while [ $i -lt $NI ]; do
		echo > instances/m$i/trace
		i=$((i + 1))
	done
}
teardown() {
	local i=0
	while [ $i -lt $NI ]; do
		echo nop > instances/m$i/current_tracer
		rmdir instances/m$i || fail "rmdir m$i"
		i=$((i + 1))
	done
	NI=0
	if [ $NC -gt 0 ]; then
		echo 0 > $H/counters || fail "counters off"
		rmmod mux_harness || fail "rmmod mux_harness"
		NC=0
	fi
}
measure() {	# setup-name
	local w r
	for w in $WORKLOADS; do
		r=0
		while [ $r -lt $REPS ]; do
			# (the count's own shell work before the events' window)
			[ -n "$BPF" ] && { bpf_counts > /dev/null; profiled > /tmp/prof0; }
			clear_buffers
			echo "macro $1 $w $(workload $w)"
			echo "macro: $1 $w run $r done at $(cut -d' ' -f1 /proc/uptime) s" > /dev/kmsg
			r=$((r + 1))
		done
		[ $NI -gt 0 ] && echo "calls $1 $w $(recorded)"
		[ $NC -gt 0 ] && echo "counted $1 $w $(sed -n 's/^mux-time counted //p' /tmp/err)"
		# Each program's calls in the last run, beside the profiler's
		# hits of its function ("-": not profiled) over a window inside
		# the programs': theirs also holds the asking of the loaders
		# (wc, tail, awk, sleep) and one reading of trace_stat
		if [ -n "$BPF" ]; then
			profiled > /tmp/prof1
			bpf_counts > /tmp/bpf.run
			awk -v s=$1 -v w=$w 'FILENAME == "/tmp/prof0" { h0[$1] = $2; next }
				FILENAME == "/tmp/prof1" { h1[$1] = $2; next }
				{ print "bpf", s, w, $1, $2, ($1 in h1) ? h1[$1] - h0[$1] : "-" }' \
				/tmp/prof0 /tmp/prof1 /tmp/bpf.run
		fi
	done
}

# Warm up: the first run of each workload pays for page cache and
# first-touch faults of the programs.
for w in $WORKLOADS; do workload $w > /dev/null; done

want() { case " $SETUPS " in *" $1 "*) return 0 ;; esac; return 1; }

want none && measure none
for s in one:1:all 8-disjoint:8:eighth 8-same:8:all 64-same:8:all; do
	name=${s%%:*} rest=${s#*:}
	want $name || continue
	instances ${rest%%:*} ${rest#*:}
	[ $name = 64-same ] && counters 56
	measure $name
	recording 0
	measure $name-norec
	teardown
done
want 8-same+graph || want 8-same+graph+bpf || exit 0

# The top instance's filter is function_graph's and the profiler's.
g=$(head -n 8 /run/macro-functions.txt)
graph() {	# on|off
	if [ $1 = on ]; then
		echo $g > set_ftrace_filter || fail "top filter"
		echo $g > set_graph_function || fail "set_graph_function"
		echo function_graph > current_tracer || fail "function_graph"
		echo 1 > function_profile_enabled || fail "profiler"
	else
		echo 0 > function_profile_enabled
		echo nop > current_tracer
		echo > set_graph_function
		echo > set_ftrace_filter
	fi
}
# The profiler's hits: "function hits" (one CPU under -icount)
profiled() { sed '1,2d' trace_stat/function0 | awk '{ print $1, $2 }'; }
# Each program's calls since the last ask, "function calls", and zeroes
# them: mux-bpf answers "fentry E fexit X ..." on its own output.
bpf_counts() {
	local e k f n w
	for e in $BPF; do
		set -- $(echo $e | tr : ' ')
		k=$3 f=$4
		n=$(wc -l < /tmp/bpf.$k)
		echo count > /tmp/bpf.in.$k
		w=0
		while [ "$(wc -l < /tmp/bpf.$k)" = "$n" ]; do
			w=$((w + 1))
			[ $w -gt 600 ] && fail "mux-bpf $f: no count"
			sleep 0.1
		done
		echo "$f $(tail -n 1 /tmp/bpf.$k | awk '$1 == "fentry" { print $2 }')"
	done
}
# A BPF fentry program on each of the first 8 functions of F the verifier
# takes (it refuses some, make_vfsuid() for one: a struct argument), the
# profiler's and function_graph's but those: mux-bpf, the distro check's
# loader, one BPF trampoline per function reached by a direct call from
# the site, each loader left running.  BPF: "sleep:loader:k:function"
# of each (see measure()).
bpf_on() {
	local f k=0 n=0 w p s
	command -v mux-bpf > /dev/null || fail "no mux-bpf: 8-same+graph+bpf needs the distro-like kernel"
	for f in $(cat /run/macro-functions.txt); do
		[ $n = 8 ] && break
		k=$((k + 1))
		# The loader reads a FIFO that a sleep holds open: killing the
		# sleep ends the loader, and its links go.  (Not a pipeline:
		# ash's wait would wait for the sleep too.)
		mkfifo /tmp/bpf.in.$k
		mux-bpf $f < /tmp/bpf.in.$k > /tmp/bpf.$k 2>&1 &
		p=$!
		sleep 100000 > /tmp/bpf.in.$k &
		s=$!
		echo attach fentry > /tmp/bpf.in.$k
		w=0
		until grep -q . /tmp/bpf.$k; do
			w=$((w + 1))
			[ $w -gt 600 ] && fail "mux-bpf $f: no answer"
			sleep 0.1
		done
		if [ "$(head -n 1 /tmp/bpf.$k)" = ok ]; then
			BPF="$BPF $s:$p:$k:$f"
			n=$((n + 1))
			echo "macro: BPF fentry on $f" > /dev/kmsg
		else
			kill $s; wait $s; wait $p
			echo "macro: BPF fentry refused on $f" > /dev/kmsg
		fi
	done
	[ $n = 8 ] || fail "BPF fentry on $n functions of F only"
}
bpf_off() {
	local sp
	for sp in $BPF; do
		set -- $(echo $sp | tr : ' ')
		kill $1
		wait $1
		wait $2
	done
	BPF=""
}

if want 8-same+graph; then
	instances 8 all
	graph on
	measure 8-same+graph
	graph off
	teardown
fi
# The programs first: the verifier, run under eight recording tracers on
# the spinlocks, took over ten minutes for one program
if want 8-same+graph+bpf; then
	bpf_on
	instances 8 all
	graph on
	measure 8-same+graph+bpf
	graph off
	teardown
	bpf_off
fi
