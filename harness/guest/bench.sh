#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [quick]: the benchmark, run inside a VM booted with
# -icount shift=0 -smp 1 (guest ns == instructions).  Prints one record
# per line for harness/bench/bench.sh to tabulate:
#   percall RELEVANT IRRELEVANT FLAGS NS_PER_CALL
#   update  WHAT OTHERS NS
#   boot    KEY VALUE
#   detour  PATH TRACERS NS_PER_CALL
#   reglat  OTHERS REG_P50 REG_P99 REG_MAX UNREG_P50 UNREG_P99 UNREG_MAX
T=/sys/kernel/tracing
MOD=/lib/modules/$(uname -r)/kernel/samples
TIME=/run/mux-time
CALLS=${CALLS:-100000}
cd $T || exit 1
fail() { echo "bench: $*" >&2; exit 1; }
. /run/bench-lib.sh || fail "no /run/bench-lib.sh"

# The ftrace-ops sample prints its result and refuses to stay loaded
# (init returns -EINVAL), so load it with one finit_module() call: busybox
# modprobe would retry with init_module() and run it twice.
percall() {	# relevant irrelevant flags-name [params]
	dmesg -c > /dev/null
	$TIME insmod $MOD/ftrace/ftrace-ops.ko "nr_function_calls=$CALLS \
		nr_ops_relevant=$1 nr_ops_irrelevant=$2 $4" > /dev/null 2>&1
	ns=$(dmesg | sed -n 's/.*(\([0-9]*\)ns \/ call).*/\1/p')
	[ -n "$ns" ] || { dmesg | tail -5 >&2; fail "no result for $*"; }
	dmesg | grep -q 'Counter called' && fail "wrong call count for $*"
	echo "percall $1 $2 $3 $ns"
}

dmesg | sed -n 's/.*ftrace: allocating \([0-9]*\) entries in \([0-9]*\) pages.*/boot records \1\nboot record_pages \2/p'

for r in 0 1 2 4 8 16; do
	for i in 0 8 32; do
		percall $r $i none
	done
done
for i in 0 32; do
	percall 64 $i none
done
for f in save_regs assist_recursion assist_rcu; do
	for r in 1 2 8; do
		for i in 0 32; do
			percall $r $i $f "$f=1"
		done
	done
done
# The sample's own count check (it checks the first ops of each kind).
percall 8 8 check_count "check_count=1"

# Detours (the ftrace-mux kernel only): one function through a detour, its
# fentry twin through its site, and a plain kprobe on it, with K tracers
# whose callbacks are empty (so the table shows the path, not the tracer).
P=/sys/module/ftrace_mux_detour_test/parameters
DN=100000
# Under -icount a path costs the same on every run: time until two runs in
# a row agree, so that kprobes' delayed optimizer (which flags a probe
# optimized before its jump is in place) has finished.
dcall() {	# path tracers param
	local ns per prev=-1 n=0
	while :; do
		ns=$($TIME write $P/$3 $DN) || fail "detour $1 $2"
		per=$((ns / DN))
		[ $per = $prev ] && break
		n=$((n + 1)); [ $n -lt 20 ] || fail "detour $1 $2: no stable figure ($prev, $per)"
		prev=$per
		sleep 0.5
	done
	echo "detour $1 $2 $per"
}
# Until detour_functions lists $1 (a detour or a site) as a jump
jump_in_place() {
	local n=0
	while ! grep -q "^$1 jump" detour_functions; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "$1 never became a jump"
		sleep 0.1
	done
}
optimized() {	# symbol
	local n=0
	while ! grep -q "$1+0x[0-9a-f]* .*\[OPTIMIZED\]" /sys/kernel/debug/kprobes/list; do
		n=$((n + 1)); [ $n -lt 100 ] || fail "$1 never optimized"
		sleep 0.1
	done
}
if [ -e detour_functions ]; then
	grep -q ' debugfs ' /proc/mounts || mount -t debugfs nodev /sys/kernel/debug
	modprobe ftrace_mux_detour_test || fail "no detour test module"
	dcall untraced 0 bench
	dcall untraced_fentry 0 bench_fentry
	echo 1 > $P/kprobe
	optimized ftrace_mux_detour_target
	dcall kprobe 1 bench
	echo 0 > $P/kprobe
	echo ftrace_mux_detour_target >> detour_functions
	jump_in_place ftrace_mux_detour_target
	dcall detour 0 bench
	for k in 1 2 8; do
		echo $k > $P/ops || fail "ops=$k"
		dcall detour $k bench
		dcall fentry $k bench_fentry
	done
	echo 0 > $P/ops
	# A site of an inlined copy: ftrace_mux_inline_caller1() runs one
	# copy of ftrace_mux_inline_target(), whose out-of-line copy has an
	# fentry call; the same K tracers as above.  Then one tracer that
	# writes the ring buffer: the function tracer at the fentry call and
	# at the site, and a kprobe event at the site.
	dcall untraced_inline 0 bench_inline
	site=$(grep '@ftrace_mux_inline_caller1+' $P/inline_sites)
	[ -n "$site" ] || fail "no site of ftrace_mux_inline_target in its caller"
	echo "$site" >> detour_functions || fail "site $site"
	jump_in_place "$site"
	dcall site 0 bench_inline
	for k in 1 2 8; do
		echo $k > $P/ops || fail "ops=$k"
		dcall site $k bench_inline
	done
	echo 0 > $P/ops
	echo 'ftrace_mux_fentry_target ftrace_mux_inline_target' > set_ftrace_filter
	echo function > current_tracer
	dcall function_fentry 1 bench_fentry
	dcall function_site 1 bench_inline
	echo nop > current_tracer
	echo > set_ftrace_filter
	echo "!$site" >> detour_functions || fail "!$site"
	# "MOD:FUNC@CALLER+0xOFF": a kprobe event takes "MOD:CALLER+OFF"
	echo "p:mux_site ${site%%:*}:${site#*@}" >> kprobe_events ||
		fail "kprobe event at $site"
	echo 1 > events/kprobes/mux_site/enable
	optimized ftrace_mux_inline_caller1
	dcall kprobe_event 1 bench_inline
	echo 0 > events/kprobes/mux_site/enable
	echo '-:mux_site' >> kprobe_events
	echo > trace
	# A BPF fentry program (a BPF trampoline, reached by a direct call)
	# on the fentry twin, alone and beside K tracers: the distro kernels
	# carry the loader.  Its count must be a whole number of runs.
	if command -v mux-bpf > /dev/null; then
		mkfifo /tmp/bpf.in /tmp/bpf.out
		mux-bpf ftrace_mux_fentry_target < /tmp/bpf.in > /tmp/bpf.out \
			2> /tmp/bpf.err &
		exec 3> /tmp/bpf.in 4< /tmp/bpf.out
		echo attach fentry >&3
		read -r reply <&4 || reply="no answer"
		[ "$reply" = ok ] || fail "mux-bpf: $reply $(cat /tmp/bpf.err)"
		for k in 0 2 8; do
			echo $k > $P/ops || fail "ops=$k"
			dcall bpf_fentry $k bench_fentry
		done
		echo 0 > $P/ops
		echo count >&3
		read -r _ e _ <&4
		[ -n "$e" ] && [ "$e" -gt 0 ] && [ $((e % DN)) = 0 ] ||
			fail "BPF fentry counted ${e:-nothing}, not whole runs of $DN"
		echo quit >&3
		exec 3>&- 4<&-
		wait
	fi
	echo > detour_functions
	rmmod ftrace_mux_detour_test
fi

[ "$1" = quick ] && exit 0

# Registration latency (the ftrace-mux kernel only: the harness's module
# times it on the detour test module's function): one more tracer registered and unregistered on the fentry twin
# 1,000 times, with K others live on the same function; every one of them
# takes a tracer ID, a set and a trampoline of its own.
if [ -e detour_functions ]; then
	modprobe ftrace_mux_detour_test || fail "no detour test module"
	modprobe mux_harness || fail "no harness module"
	H=/sys/module/mux_harness/parameters
	for k in 0 64; do
		echo $k > $P/ops || fail "ops=$k"
		echo 1000 > $H/reg || fail "reg with $k others"
		echo "reglat $k $(cat $H/reg_ns)"
	done
	echo 0 > $P/ops
	rmmod mux_harness
	rmmod ftrace_mux_detour_test
fi

# Updates, each from a settled state (settle() in bench-lib.sh)
pair() {	# what-a what-b others "mux-time args a" "mux-time args b"
	local a="" b="" r x
	set -f		# '*' is a filter, not a glob
	for r in 1 2 3; do
		settle
		x=$($TIME $4) || fail "$1 $3: mux-time $4"
		a="$a $x"
		settle
		x=$($TIME $5) || fail "$2 $3: mux-time $5"
		b="$b $x"
	done
	set +f
	echo "update $1 $3 $(median $a)"
	echo "update $2 $3 $(median $b)"
}
sample() {	# params: leave the ftrace-ops sample's tracers registered
	$TIME insmod $MOD/ftrace/ftrace-ops.ko "persist=1 nr_function_calls=1 $*" \
		> /dev/null || fail "ftrace-ops $*"
}

# The cost of change.  Filter every function for the function tracer, and
# back to one.
echo schedule > set_ftrace_filter
echo function > current_tracer
pair filter_all filter_one 0 "write set_ftrace_filter *" \
	"write set_ftrace_filter schedule"
echo nop > current_tracer
echo > set_ftrace_filter

# Enable and disable the function tracer (every function) with K other
# tracers registered on one function (the sample's relevant ops).
for k in 0 1 2 4 8 64; do
	[ $k -gt 0 ] && sample nr_ops_relevant=$k
	pair function_on function_off $k "write current_tracer function" \
		"write current_tracer nop"
	[ $k -gt 0 ] && rmmod ftrace-ops
done

# A tool starting on a busy system: 64 tracers (trace instances, as
# trace-cmd -B makes them) trace 64 functions each, 4,096 in all, when the
# function tracer starts and stops on every function.  Upstream, each of
# those sites goes from its tracer's own trampoline to the list function
# and back; here, to the trampoline of a set of two.
i=0
while [ $i -lt 64 ]; do
	mkdir instances/busy$i || fail "instance busy$i"
	echo 4 > instances/busy$i/buffer_size_kb
	# Functions by their index in available_filter_functions
	f="" j=1
	while [ $j -le 64 ]; do
		f="$f $((1000 + 64 * i + j))"
		j=$((j + 1))
	done
	echo $f > instances/busy$i/set_ftrace_filter || fail "busy$i filter"
	echo function > instances/busy$i/current_tracer
	i=$((i + 1))
done
pair function_on_busy function_off_busy 64 "write current_tracer function" \
	"write current_tracer nop"
i=0
while [ $i -lt 64 ]; do
	echo nop > instances/busy$i/current_tracer
	rmdir instances/busy$i
	i=$((i + 1))
done

# Load and unload a module while the function tracer (every function) and
# the sample's 2 relevant and 8 irrelevant tracers are active.
sample nr_ops_relevant=2 nr_ops_irrelevant=8
echo function > current_tracer
pair module_load module_unload 10 "insmod $MOD/trace_printk/trace-printk.ko" \
	"rmmod trace_printk"
echo nop > current_tracer
rmmod ftrace-ops

# What sets' trampolines take (ftrace-mux only): 2 and 64 tracers on one
# function, as function_tracers counts them right after the sample has
# registered its tracers one by one.  Each registration made the set of
# the tracers so far, and sets are reaped only once their number has
# doubled, so the count holds the sets on the way too: for 64 tracers,
# the 63 sets of 2 to 64 tracers and their trampolines, in pages.
for k in 2 64; do
	sample nr_ops_relevant=$k
	t=$(sed -n 's/^# sets: .*trampolines: \([0-9]*\), \([0-9]*\) bytes.*/\1 \2/p' \
		function_tracers 2>/dev/null)
	[ -n "$t" ] && echo "boot tramps_$k ${t% *}" && echo "boot tramp_bytes_$k ${t#* }"
	rmmod ftrace-ops
done
# Many sets at once (ftrace-mux only): seven function tracer instances
# over 127 functions, instance i tracing function j when bit i of j is
# set, make 127 sets, the 120 of them with two tracers or more on a
# trampoline; what their trampolines take in all.
if [ -e function_tracers ]; then
	funcs=$(sed -n '1001,1127{s/ .*//;p}' available_filter_functions)
	for i in 0 1 2 3 4 5 6; do
		mkdir instances/mem$i
		echo 4 > instances/mem$i/buffer_size_kb
		j=0 f=""
		for fn in $funcs; do
			j=$((j + 1))
			[ $(( (j >> i) & 1 )) = 1 ] && f="$f $fn"
		done
		echo $f > instances/mem$i/set_ftrace_filter || fail "instance $i filter"
		echo function > instances/mem$i/current_tracer
	done
	t=$(sed -n 's/^# sets: .*trampolines: \([0-9]*\), \([0-9]*\) bytes.*/\1 \2/p' \
		function_tracers)
	echo "boot tramps_7inst ${t% *}"
	echo "boot tramp_bytes_7inst ${t#* }"
	for i in 0 1 2 3 4 5 6; do
		echo nop > instances/mem$i/current_tracer
		rmdir instances/mem$i
	done
fi
echo "boot memfree_kb $(sed -n 's/^MemFree: *\([0-9]*\).*/\1/p' /proc/meminfo)"
