#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# badinput.sh: every file ftrace-mux adds (and the top-level filter files
# under a selection) fed with bad input, table-driven.  Each row must get
# its errno, its error_log line where ftrace-mux reports that way, and
# change nothing; then concurrent bad and good writers from both CPUs.
# One RESULT line per row.
T=/sys/kernel/tracing
W=${MUX_WRITE:-mux-write}
cd $T || exit 1

. /opt/harness/lib.sh

# The state no bad write may change.
state() {
	cat function_tracers function_filters set_tracer_filter 2> /dev/null |
		grep -v '^# ids:'
	grep -v '^#' set_ftrace_filter
	grep -v '^#' set_ftrace_notrace
	cat current_tracer function_profile_enabled
	# (not the state column: kprobes optimizes a detour when it likes)
	awk '{ print $1 }' detour_functions 2> /dev/null
}

# Two tracers with filters of their own; the profiler selected, so the
# top-level filter files edit its filter.
echo ksys_sync > set_ftrace_filter
echo function > current_tracer
echo 1 > function_profile_enabled
echo "function_profile filter add __x64_sys_newuname" > set_tracer_filter
echo function_profile > function_tracers

long64=$(printf '%064d' 0 | tr 0 a)		# the name limit is 63 bytes
long257=$(printf '%0237d' 0 | tr 0 a)		# an edit is at most 256 bytes: 20 + 237

# row NAME FILE ERRNO LOG-SUBSTRING|- [-s TRACER] [-a] WRITE...  (mux-write's options)
row() {
	local name=$1 file=$2 want=$3 log=$4 got before after
	shift 4
	echo > error_log
	before=$(state | md5sum)
	local opts=""
	while [ "$1" = -a ] || [ "$1" = -s ]; do
		if [ "$1" = -s ]; then opts="$opts -s $2"; shift; else opts="$opts -a"; fi
		shift
	done
	# shellcheck disable=SC2086
	got=$($W $opts $file "$@" | tail -1)
	after=$(state | md5sum)
	if [ "$got" != "$want" ]; then
		result badinput/$name FAIL "got $got, want $want"
	elif [ "$before" != "$after" ]; then
		result badinput/$name FAIL "the state changed"
	elif [ "$log" != - ] && ! grep -qF "$log" error_log; then
		result badinput/$name FAIL "error_log lacks '$log': $(cat error_log)"
	else
		result badinput/$name PASS
	fi
}

F=function_tracers
row tracers-unknown $F EINVAL "No running function tracer has this name" nosuch
row tracers-empty $F "ok 0" - ''
row tracers-blank $F EINVAL "Expected one tracer name" '  \x09 \x0a'
row tracers-two-names $F EINVAL "Expected one tracer name" 'function function_profile'
row tracers-too-long $F EINVAL "Expected one tracer name" "$long64"
row tracers-1mib $F EINVAL "Expected one tracer name" '@1048576xa'
row tracers-not-utf8 $F EINVAL "No running function tracer has this name" '\xff\xfe\xc3'
row tracers-nul $F EINVAL "Expected one tracer name" 'function\x00_profile'
row tracers-partial $F EINVAL "No running function tracer has this name" 'func' 'tion'
# The whole file, "# ids:" line and selection mark included, byte for byte.
for bad in nosuch '!nosuch' 'inst:function' '!stack_trace'; do
	before=$(md5sum < $F)
	$W -a $F "$bad" > /dev/null
	after=$(md5sum < $F)
	[ "$before" = "$after" ] || break
done
if [ "$before" = "$after" ]; then
	result badinput/tracers-refused-identical PASS
else
	result badinput/tracers-refused-identical FAIL "'$bad' changed function_tracers"
fi
row tracers-owned $F EPERM "This tracer's filter belongs to its owner" fgraph
row tracers-unshare-other $F EPERM "Only function_profile and function_graph" '!stack_trace'

S=set_tracer_filter
row edit-unknown $S ENOENT "No such tracer, or it is not running" 'nosuch filter add vfs_read'
row edit-no-pattern $S EINVAL "Expected: NAME filter|notrace" 'function filter add'
row edit-bad-list $S EINVAL "Expected: NAME filter|notrace" 'function frob add vfs_read'
row edit-bad-op $S EINVAL "Expected: NAME filter|notrace" 'function filter frob vfs_read'
row edit-two-patterns $S EINVAL "Expected: NAME filter|notrace" 'function filter add vfs_read vfs_write'
row edit-reset-pattern $S EINVAL "Expected: NAME filter|notrace" 'function filter reset vfs_read'
row edit-blank $S EINVAL "Expected: NAME filter|notrace" '   '
row edit-empty $S "ok 0" - ''
row edit-too-long $S EINVAL "Expected: NAME filter|notrace" "function filter add $long257"
row edit-1mib $S EINVAL "Expected: NAME filter|notrace" '@1048576xa'
row edit-nul $S EINVAL "Expected: NAME filter|notrace" 'function filter add ksys\x00sync'
row edit-not-utf8 $S EINVAL "No function matches the pattern" 'function_profile filter add \xff\xfe'
row edit-no-match $S EINVAL "No function matches the pattern" 'function_profile filter add no_such_function_xyz'
row edit-owned $S EPERM "This tracer's filter belongs to its owner" 'fgraph filter add vfs_read'
row edit-partial $S EINVAL "Expected: NAME filter|notrace" 'function_profile filter' ' add vfs_read'

# detour_functions, opened for appending (truncating removes every
# detour): one detour installed, on the test module's second target.
D=detour_functions
modprobe ftrace_mux_detour_test
echo ftrace_mux_detour_target2 >> $D
long600=$(printf '%0600d' 0 | tr 0 a)		# KSYM_NAME_LEN is 512
row detour-unknown $D ENOENT "No such symbol" -a 'no_such_function_xyz\x0a'
row detour-empty $D "ok 0" - -a ''
row detour-blank $D "ok 5" - -a '  \x09 \x0a'
row detour-too-long $D EINVAL "Expected SYMBOL" -a "$long600\x0a"
row detour-1mib $D E2BIG "Expected SYMBOL" -a '@1048576xa'
row detour-not-utf8 $D EINVAL "Expected SYMBOL" -a '\xff\xfe\x0a'
row detour-nul $D EINVAL "Expected SYMBOL" -a 'ftrace_mux_detour_target\x00x\x0a'
row detour-partial $D ENOENT "No such symbol" -a 'no_such_' 'function_xyz\x0a'
row detour-fentry $D EINVAL "Has an fentry call" -a 'vfs_read\x0a'
row detour-site-no-offset $D EINVAL "Expected SYMBOL" -a 'vfs_read@ksys_read\x0a'
row detour-site-two-at $D EINVAL "Expected SYMBOL" -a 'vfs_read@@ksys_read+1\x0a'
row detour-site-range $D ERANGE "not inside CALLER" -a 'vfs_read@ksys_read+0x1000000\x0a'
row detour-site-self $D ERANGE "not inside CALLER" -a 'vfs_read@vfs_read+0x10\x0a'
# The inlined copy of a function that has neither fentry call nor detour
row detour-site-no-copy $D ENOENT "neither an fentry call nor a detour" \
	-a "$(grep notrace@ /sys/module/ftrace_mux_detour_test/parameters/inline_sites)\x0a"
row detour-site-unknown $D ENOENT "No such symbol" -a 'vfs_read@no_such_caller_xyz+0x10\x0a'
row detour-unsafe $D EPERM "Unsafe to probe" -a 'exc_nmi\x0a'
row detour-exists $D EEXIST "Already detoured" -a 'ftrace_mux_detour_target2\x0a'
row detour-not-detoured $D ENOENT "Not detoured" -a '!ftrace_mux_detour_target\x0a'
row detour-half-bad $D ENOENT "No such symbol" -a 'ftrace_mux_detour_target no_such_function_xyz\x0a'

# The top-level filter files, under the profiler's selection (mux-write's
# own: a selection is its program's): upstream's parser and errors (no
# error_log line), and nothing changes.
row selected-no-match set_ftrace_filter EINVAL - -s function_profile -a 'no_such_function_xyz\x0a'
row selected-notrace-no-match set_ftrace_notrace EINVAL - -s function_profile -a 'no_such_function_xyz\x0a'
row selected-1mib set_ftrace_filter EINVAL - -s function_profile -a '@1048576xa'

# Concurrent writers on both CPUs: one switches the selection and edits
# by name, the other writes garbage to ftrace-mux's files; afterwards the
# state is what the good writer left, and the kernel did not complain.
# (Not set_ftrace_filter: upstream, closing it writes back the copy of the
# filter taken at open even when every write failed, so a concurrent edit
# of the same filter can be lost; set_tracer_filter is the race-free way.)
pin() { local pid rest; read -r pid rest < /proc/self/stat; taskset -p $1 $pid > /dev/null; }
end=$(( $(date +%s) + 20 ))
(
	pin 1
	while [ $(date +%s) -lt $end ]; do
		echo function_profile > $F
		echo "function_profile filter add ksys_sync" > $S
		echo "function_profile filter remove ksys_sync" > $S
		echo function > $F
		echo ftrace_mux_detour_target >> $D
		echo '!ftrace_mux_detour_target' >> $D
	done
) &
(
	pin 2
	n=0
	while [ $(date +%s) -lt $end ]; do
		$W $F 'nosuch' '\xff' '@70000xa' > /dev/null
		$W $S 'nosuch filter add x' 'function filter add' '@5000xb' > /dev/null
		$W -a $D 'nosuch\x0a' '@70000xa' 'ftrace_mux_detour_target2\x0a' > /dev/null
		n=$((n + 1))
	done
	echo $n > /tmp/bad.rounds
) &
wait
sel=$(sed -n 's/^\*  \([^ ]*\) .*/\1/p' $F)
pf=$(grep -c '^\[function_profile\] __x64_sys_newuname$' function_filters)
pk=$(grep -c '^\[function_profile\] ksys_sync$' function_filters)
fk=$(grep -c '^\[        function\] ksys_sync$' function_filters)
dt=$(awk '{ print $1 }' $D | tr '\n' ' ')
if [ "$sel" = function ] && [ $pf = 1 ] && [ $pk = 0 ] && [ $fk = 1 ] &&
   [ "$dt" = "ftrace_mux_detour_target2 " ]; then
	result badinput/concurrent PASS
else
	result badinput/concurrent FAIL "selected $sel; detours: $dt; $(cat function_filters)"
fi
echo "STAT badinput_concurrent_rounds $(cat /tmp/bad.rounds)"

# Two writers of one open detour_functions at once, through pwrite(),
# which bypasses the file position lock: 3000 bytes each, unterminated, so
# the first waits in the file's buffer and the second no longer fits.
# Exactly one must be accepted in every round.
got=$(${MUX_PWRITE:-mux-pwrite} 100 $D 3000)
if [ "$got" = "rounds 100 both 0 one 100 none 0 other 0" ]; then
	result badinput/detour-pwrite-race PASS
else
	result badinput/detour-pwrite-race FAIL "$got"
fi

echo > $D
rmmod ftrace_mux_detour_test
echo 0 > function_profile_enabled
echo nop > current_tracer
echo > set_ftrace_filter
echo '!function_profile' > $F 2> /dev/null
echo function > $F
