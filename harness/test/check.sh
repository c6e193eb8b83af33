#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [mux|debug|distro|cov] [PART...]: the test suite against the built
# kernel, as named parts.  Without PART, every part of the variant (the
# whole suite); "list" prints the parts; "missing" runs the parts that have
# no passing row for this commit in the results file.
#
# Each part is one VM (or, for "host", commands on the host) and reports
# RESULT lines; a VM whose console shows a kernel Oops/BUG/WARNING/lockdep/
# KASAN report counts as one more failure, as does a VM that timed out or
# died before reporting.  The VMs run two at a time (one host thread each,
# see docs/testing.md; CHECK_JOBS=1 runs one, leaving a core for other
# work).  Each part appends its row to out/results.tsv (harness/test/results.sh)
# when it ends, and the run ends with one line "N passed, M failed" over
# the parts it ran.
set -uo pipefail
# One compound command: bash reads it whole before running it, so the
# script may be edited while a long run goes on.
{
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
variant=${1:-mux}
[ $# -gt 0 ] && shift
. harness/build/variants.sh
variant_load "$variant" || { echo "check: unknown variant $variant" >&2; exit 2; }
res=$v_out/check kdir=$v_out obj=$v_obj base=$v_base
. harness/test/ftracetest-groups.sh
. harness/test/results.sh

# Upstream ftracetest results of the unpatched kernel (make check-baseline);
# the debug run holds itself to the normal baseline's.
expect=tests/ftracetest-baseline.txt
[ "$variant" = distro ] && expect=tests/ftracetest-baseline-distro.txt
timeout=${CHECK_TIMEOUT:-1500}
stress=${STRESS_SECONDS:-120}
if [ "$variant" = debug ]; then
	timeout=$((timeout * 8))
	# 120 s on the debug kernel goes round each stress loop about once.
	stress=${STRESS_SECONDS:-600}
fi

# On the debug kernel, the project's cases as five parts
DEBUG_SWEEPS="ftrace-mux/detour-sweep.tc ftrace-mux/detour-refusals.tc"
DEBUG_PROJECT_PARTS="scale-share-race scale-many-tracers scale-ftrace-ops-sample project project-sweeps"

# The variant's parts, the longest first so that the short ones fill in
# beside them.  "warn" checks the harness itself: a warning on purpose
# must be reported.
all_parts() {
	local p
	# The fixes series alone: its test cases pass on its kernel, each
	# reproduction fails on the unpatched one (a VM each: some kill
	# ftrace), and so do the ORC and kill checks.
	if [ "$variant" = fixes ]; then
		echo fixes
		for p in $(fix_cases new); do
			p=${p##*/}
			echo "stock-${p%.tc}"
		done
		echo kill kill-stock orc
		return
	fi
	if [ "$variant" = debug ]; then
		# 20 to 50 times slower: a VM per slow case, the detour sweeps
		# apart (50 min for the project part whole, 933 s of it the sweep)
		echo $DEBUG_PROJECT_PARTS
	else
		echo scale project
	fi
	echo reliability
	# Random steps over the tracers against a model (mux-oracle.c)
	echo oracle
	for p in $UPSTREAM_PARTS; do echo "upstream-$p"; done
	echo boot tool
	# The tool on the unpatched kernel: it must say there is no ftrace-mux.
	[ "$variant" != debug ] && echo stock
	echo warn
	# ftrace killed during a shutdown: no site calls freed text; the
	# unpatched kernel's Oops there is the reproduction of the fix.
	echo kill
	[ "$variant" != debug ] && echo kill-stock
	# Production users beside the tracers, on both kernels of the variant;
	# and each kernel booted with call depth tracking on.
	if [ "$variant" = distro ]; then
		echo "stuff-scale-$variant"
		for p in "$variant" "$base"; do
			echo "bpf-$p" "bpf-many-$p" "bpf-selftests-$p" "livepatch-$p" "stuff-$p"
		done
		# Partially inlined kernel functions against perf probe (DWARF)
		echo "inline-$variant"
	fi
	echo host
}
# fix_cases [new]: the ftracetest cases (group/file.tc) the fixes series
# adds or changes, or only those it adds
fix_cases() {
	awk -v new="${1:-}" '
		/^diff --git / { f = $4; sub(/^b\//, "", f); next }
		f ~ /test\.d\/.*\.tc$/ && (new == "" || /^new file mode/) {
			sub(/.*test\.d\//, "", f); print f; f = ""
		}' patches/fixes/0*.patch | sort -u
}
mapfile -t known < <(all_parts | tr ' ' '\n')
# Parts run only when named: the oracle's long runs, each within the 40
# minutes of a part: thirteen of 8,000 steps on the mux kernel (seeds
# 1001-1004 x 2,000 in oracle-long-1, and so on; about 0.28 s a step
# beside other VMs), four of 2,500 on the debug kernel (seed
# 1001 in oracle-long-1, ...; 0.9 s a step there) and on the distro-like
# kernel (BPF and livepatch among the steps)
long_parts() {
	local k n
	case "$variant" in
	mux)	n=13 ;;
	debug|distro) n=4 ;;
	*)	return 0 ;;
	esac
	for k in $(seq "$n"); do echo "oracle-long-$k"; done
}
mapfile -t named < <(long_parts)

case "${1:-all}" in
list)
	printf '%s\n' "${known[@]}" "${named[@]}"
	exit 0 ;;
all)	parts=("${known[@]}") ;;
missing)
	mapfile -t parts < <(results_missing "$variant" "${known[@]}")
	if [ ${#parts[@]} = 0 ]; then
		echo "check: every $variant part passed on $(results_commit) already"
		results_verdict "$variant" "${known[@]}"
		exit 0
	fi ;;
*)	parts=("$@")
	for p in "${parts[@]}"; do
		printf '%s\n' "${known[@]}" "${named[@]}" | grep -qx -- "$p" ||
			{ echo "check: no part $p on $variant (make check PARTS=list)" >&2; exit 2; }
	done ;;
esac

mkdir -p "$res"
for p in "${parts[@]}"; do rm -f "$res/$p".*; done
# The commit the kernel was built from (build.sh notes it before it starts):
# the tree may change during the build or the run.  A later commit whose
# diff is inert keeps the build's; any other change makes the rows dirty,
# since the VMs run this tree's guest scripts on the kernel built before.
commit=$(results_commit)
built=$(cat "$kdir/commit" 2>/dev/null || true)
if [ -n "$built" ] && [ "$built" != "$commit" ]; then
	if results_carries "$built" "$commit"; then
		commit=$built
	else
		echo "check: the tree changed since the $variant kernel was built ($built):" \
			"rows marked dirty; rebuild for rows that count" >&2
		commit=${built%-dirty}-dirty
	fi
fi

# name [vm options] script [args...]: run one VM, leaving NAME.out,
# NAME.err, NAME.console, NAME.rc, NAME.secs
vmjob() {
	local name=$1 t0=$SECONDS; shift
	harness/test/vm --variant "$variant" --timeout "$timeout" \
		--console "$res/$name.console" "$@" > "$res/$name.out" 2> "$res/$name.err"
	echo $? > "$res/$name.rc"
	echo $((SECONDS - t0)) > "$res/$name.secs"
}
# The host's part: its commands, the series against the new files, the
# tool's parsing code and the built kernel's ORC unwind table.
hostjob() {
	local t0=$SECONDS
	# Every host command the harness runs comes from a package deps.sh installs.
	harness/deps.sh --check > "$res/host.out" 2>&1
	[ "$variant" = distro ] &&
		harness/deps.sh --check distro | sed 's|host/|host/distro/|' >> "$res/host.out"
	# The series in patches/ reproduces every new file (make devtree-sync,
	# make export-patches when not)
	( . harness/build/newfiles.sh; newfiles_series_check ) >> "$res/host.out" 2>&1
	make -s -C tools/tracing/ftrace-mux O="$repo/build/tool" test > "$res/unit.out" 2>&1
	echo $? > "$res/unit.rc"
	harness/test/orc-check.sh "$kdir/vmlinux" "$obj/tools/objtool/objtool" > "$res/orc.out" 2>&1
	echo $((SECONDS - t0)) > "$res/host.secs"
}

run_part() {
	local quiet="ftrace=nop kunit.enable=0" t0=$SECONDS k seeds
	local stuff="spectre_v2=retpoline retbleed=stuff,force"
	case "$1" in
	upstream-*)
		ftracetest_vm "${1#upstream-}" "$variant" "$timeout" "$res"
		echo $? > "$res/$1.rc"
		echo $((SECONDS - t0)) > "$res/$1.secs" ;;
	boot)	vmjob boot harness/guest/dmesg.sh ;;
	project)
		# shellcheck disable=SC2086
		vmjob project --append "$quiet" harness/guest/project.sh skip \
			$([ "$variant" = debug ] && echo $DEBUG_SWEEPS) ;;
	project-sweeps)
		# shellcheck disable=SC2086
		vmjob "$1" --append "$quiet" harness/guest/project.sh cases $DEBUG_SWEEPS ;;
	scale)	vmjob scale --append "$quiet" harness/guest/project.sh scale ;;
	scale-*) vmjob "$1" --append "$quiet" harness/guest/project.sh scale \
			"ftrace-mux/${1#scale-}.tc" ;;
	tool)	vmjob tool --append "$quiet" harness/guest/tool.sh ;;
	# Bad input, the bounded stress run and, on the debug and coverage
	# kernels, injected allocation failures (reliability.sh).
	reliability)
		vmjob reliability --append "$quiet" harness/guest/reliability.sh \
			"$stress" "$(case "$variant" in debug|cov) echo "${FAULTS_MAX:-40}" ;; esac)" ;;
	# Seeds 1 to 3, or 1 on the debug kernel, 20 to 50 times slower;
	# and the check of its shrinking
	oracle)	# shellcheck disable=SC2086  # the seeds: words
		vmjob oracle --append "$quiet" harness/guest/oracle.sh \
			"${ORACLE_STEPS:-$([ "$variant" = debug ] && echo 150 || echo 500)}" \
			${ORACLE_SEEDS:-shrink $([ "$variant" = debug ] && echo 1 || echo 1 2 3)} ;;
	oracle-long-*)
		k=${1#oracle-long-}
		seeds="$((k * 1000 + 1))"
		[ "$variant" != mux ] ||
			seeds="$seeds $((k * 1000 + 2)) $((k * 1000 + 3)) $((k * 1000 + 4))"
		# shellcheck disable=SC2086  # the seeds: words
		vmjob "$1" --timeout 2700 --append "$quiet" harness/guest/oracle.sh \
			"${ORACLE_STEPS:-$([ "$variant" = mux ] && echo 2000 || echo 2500)}" $seeds ;;
	stock)	vmjob stock --variant "$base" --timeout 300 --append "$quiet" \
			harness/guest/tool.sh stock ;;
	warn)	vmjob warn --timeout 300 --append "$quiet" harness/guest/warn.sh ;;
	kill)	vmjob kill --timeout 300 --append "$quiet" harness/guest/kill.sh ;;
	kill-stock)
		vmjob kill-stock --variant "$base" --timeout 300 --append "$quiet" \
			harness/guest/kill.sh ;;
	fixes)	# shellcheck disable=SC2046  # the cases: words
		vmjob fixes --append "$quiet" harness/guest/ftracetest.sh $(fix_cases) ;;
	stock-*)
		k=$(fix_cases new | grep "/${1#stock-}\.tc$")
		vmjob "$1" --variant "$base" --timeout 600 --append "$quiet" \
			--file "tools/testing/selftests/ftrace/test.d/$k" \
			harness/guest/ftracetest.sh "$k" ;;
	orc)	t0=$SECONDS
		harness/test/orc-check.sh "$kdir/vmlinux" "$obj/tools/objtool/objtool" > "$res/orc.out" 2>&1
		# The unpatched kernel's, its variant loaded in a subshell
		( variant_load "$base"
		  harness/test/orc-check.sh "$v_out/vmlinux" "$v_obj/tools/objtool/objtool" ) \
			> "$res/orc-stock.out" 2>&1
		echo $((SECONDS - t0)) > "$res/orc.secs" ;;
	# A thousand fentry links on one function (the cap on the unpatched)
	bpf-many-*)
		vmjob "$1" --variant "${1#bpf-many-}" --append "$quiet" harness/guest/distro-bpf-many.sh ;;
	# Upstream's BPF selftests of trampolines (test_progs)
	bpf-selftests-*)
		vmjob "$1" --variant "${1#bpf-selftests-}" --append "$quiet" \
			harness/guest/distro-bpf-selftests.sh ;;
	bpf-*)	vmjob "$1" --variant "${1#bpf-}" --append "$quiet" harness/guest/distro-bpf.sh ;;
	# The vmlinux with its DWARF (120 MB) goes into the guest's RAM
	inline-*)
		gcc -static -O2 -o "$res/mux-time" harness/bench/mux-time.c
		vmjob "$1" --variant "${1#inline-}" --mem 4096 --append "$quiet" \
			--file "$kdir/vmlinux" --file "$res/mux-time" harness/guest/distro-inline.sh ;;
	livepatch-*)
		vmjob "$1" --variant "${1#livepatch-}" --append "$quiet" \
			harness/guest/distro-livepatch.sh ;;
	# KUnit runs only its call depth case (distro-stuff.sh).
	stuff-scale-*)
		vmjob "$1" --variant "${1#stuff-scale-}" --append "$quiet $stuff" \
			harness/guest/distro-stuff.sh scale ;;
	stuff-*) vmjob "$1" --variant "${1#stuff-}" \
			--append "ftrace=nop kunit.filter_glob=ftrace_mux_x86.call_depth $stuff" \
			harness/guest/distro-stuff.sh ;;
	host)	hostjob ;;
	esac
}

# Each part's verdict: one line per check, "ok KEY" or "bad KEY: why",
# in $res/PART.verdict.
vm_verdict() {
	local rc
	rc=$(cat "$res/$1.rc" 2>/dev/null || echo missing)
	case "$rc" in
	125) echo "bad vm/$1: kernel reported a problem"; sed 's/^/    /' "$res/$1.err" | head -20 ;;
	124) echo "bad vm/$1: timed out or died"; sed 's/^/    /' "$res/$1.err" | tail -20 ;;
	143) echo "bad vm/$1: stopped by a signal from outside (no row)" ;;
	missing) echo "bad vm/$1: did not run" ;;
	*) echo "ok vm/$1" ;;
	esac
}
results_of() { grep '^RESULT ' "$res/$1.out" 2>/dev/null | cut -d' ' -f2-3; }
# A VM that ran but whose script's output is lost has not passed
results_there() {
	grep -q '^RESULT ' "$res/$1.out" 2>/dev/null ||
		echo "bad $1: no RESULT line in $res/$1.out"
}
verdicts() {
	while read -r key got; do
		if [ "$got" = PASS ]; then echo "ok $key"; else echo "bad $key: $got"; fi
	done
}
# Upstream's BPF selftests against their results on the unpatched kernel
# (tests/bpf-selftests-baseline-distro.txt, which
# harness/test/bpf-selftests-baseline.sh writes): on ftrace-mux each case
# that passes there passes; on the unpatched kernel each gives the result
# the file has, so that the file stays true.
selftests_verdict() {
	local p=$1 file=tests/bpf-selftests-baseline-distro.txt want key got
	[ -f "$file" ] || { echo "bad no $file: record it with harness/test/bpf-selftests-baseline.sh"; return; }
	while read -r want key _; do
		case "$want" in \#*|"") continue ;; esac
		# A name test_progs reports twice counts once if both agree
		got=$(results_of "$p" | awk -v k="$key" '$1 == k { r = r == "" || r == $2 ? $2 : "MIXED" }
			END { print r }')
		if [ "$p" = "bpf-selftests-$base" ]; then
			if [ "$got" = "$want" ]; then echo "ok $base/$key"
			else echo "bad $base/$key: ${got:-not run} (the file has $want)"; fi
		elif [ "$want" = PASS ]; then
			if [ "$got" = PASS ]; then echo "ok $key"
			else echo "bad $key: ${got:-not run} (unpatched: PASS)"; fi
		elif [ "$got" = PASS ]; then
			echo "note: $key passes here (unpatched: $want)" >&2
		fi
	done < "$file"
	# A case the file lacks: the list of cases changed without the file
	results_of "$p" | while read -r key got; do
		awk -v k="$key" '$2 == k { f = 1 } END { exit !f }' "$file" ||
			echo "bad $key: $got, a case the file lacks"
	done
}
part_verdict() {
	local p=$1 want key got
	case "$p" in
	boot)
		vm_verdict boot
		# Boot-time selftests and KUnit.
		{
			grep -v '^RESULT ' "$res/boot.out" | awk -f harness/test/boot-results.awk
			grep '^RESULT ' "$res/boot.out"
		} > "$res/boot.results"
		grep -q . "$res/boot.results" ||
			echo "bad boot: no FTRACE_STARTUP_TEST or KUnit results in the boot log"
		grep '^RESULT ' "$res/boot.results" | cut -d' ' -f2-3 | verdicts ;;
	upstream-*)
		vm_verdict "$p"
		# Upstream ftracetest against the baseline's expectations, for
		# the cases this part runs.
		[ -f "$expect" ] ||
			{ echo "bad no $expect: record it with harness/test/ftracetest-baseline.sh $base"; return; }
		results_of "$p" > "$res/$p.results"
		while read -r want key _; do
			case "$want" in \#*|"") continue ;; esac
			[ "$(upstream_part_of "$key")" = "${p#upstream-}" ] || continue
			got=$(awk -v k="$key" '$1 == k { print $2 }' "$res/$p.results")
			# XFAIL is a case's own way to pass: the failure it expects happened.
			if [ "$want" = PASS ] || [ "$want" = XFAIL ]; then
				if [ "$got" = "$want" ]; then echo "ok $key"
				else echo "bad ftracetest $key: ${got:-not run} (baseline: $want)"; fi
			elif [ "$got" = PASS ]; then
				echo "note: ftracetest $key now passes (baseline: $want)" >&2
			fi
		done < <(grep -v '^\s*#' "$expect")
		# A case the baseline does not have is one the series adds (the
		# fixes' reproductions): it must pass.
		while read -r key got _; do
			grep -q "^[A-Z]* $key\( \|$\)" "$expect" && continue
			if [ "$got" = PASS ]; then echo "ok $key"
			else echo "bad ftracetest $key: $got (a case the series adds)"; fi
		done < "$res/$p.results" ;;
	project|project-*|scale|scale-*|tool|reliability|oracle|oracle-*|stock|kill)
		vm_verdict "$p"
		results_there "$p"
		results_of "$p" | verdicts
		[ "$p" = reliability ] && grep '^STAT ' "$res/reliability.out" > "$res/reliability.stats" ;;
	warn)
		if [ "$(cat "$res/warn.rc")" = 125 ] && grep -q "warning on purpose" "$res/warn.console" &&
		   grep -q "WARNING:" "$res/warn.err"; then
			echo "ok harness/warn-reported"
		else
			echo "bad harness/warn-reported: a warning on purpose went unreported"
		fi ;;
	kill-stock)
		# The unpatched kernel frees the trampoline its site still
		# calls: sync's first call of ksys_sync fetches from freed text
		if [ "$(cat "$res/$p.rc")" = 125 ] && grep -q "RESULT kill/killed PASS" "$res/$p.out" &&
		   ! grep -q "RESULT kill/site-survives" "$res/$p.out" &&
		   grep -q "supervisor instruction fetch" "$res/$p.console" &&
		   grep -q "ksys_sync" "$res/$p.console"; then
			echo "ok fixes/kill-stock-reproduced"
		else
			echo "bad fixes/kill-stock-reproduced: the unpatched kernel survived (or was not killed)"
			sed 's/^/    /' "$res/$p.out" | tail -5
		fi ;;
	fixes)	vm_verdict "$p"
		results_there "$p"
		results_of "$p" | verdicts ;;
	stock-*)
		# The unpatched kernel fails the reproduction (a kernel report
		# is part of some: ftrace killed)
		k=$(fix_cases new | grep "/${p#stock-}\.tc$")
		case "$(cat "$res/$p.rc" 2>/dev/null)" in
		124|143|"") vm_verdict "$p" ;;
		*)	if [ "$(results_of "$p" | awk -v k="$k" '$1 == k { print $2 }')" = FAIL ]; then
				echo "ok fixes/$k-reproduced"
			else
				echo "bad fixes/$k-reproduced: the unpatched kernel gave $(results_of "$p" | tr '\n' ' ')"
			fi ;;
		esac ;;
	orc)	grep '^RESULT ' "$res/orc.out" | cut -d' ' -f2-3 | verdicts
		if grep -q '^RESULT orc/return_to_handler FAIL' "$res/orc-stock.out"; then
			echo "ok fixes/orc-reproduced"
		else
			echo "bad fixes/orc-reproduced: the unpatched kernel's ORC table has no bad entry"
		fi ;;
	bpf-selftests-*)
		vm_verdict "$p"
		results_there "$p"
		selftests_verdict "$p" ;;
	bpf-*|livepatch-*|stuff-*|inline-*)
		vm_verdict "$p"
		results_there "$p"
		# The unpatched twin's results count too, under its name: a
		# check that fails there is a broken check.
		case "$p" in
		*-"$base") results_of "$p" | sed "s|^|$base/|" ;;
		*) results_of "$p" ;;
		esac | verdicts ;;
	host)
		results_of host | verdicts
		grep -q '^RESULT ' "$res/orc.out" ||
			echo "bad orc: the ORC check did not run ($res/orc.out)"
		grep '^RESULT ' "$res/orc.out" | cut -d' ' -f2-3 | verdicts
		# cmocka: "[       OK ] name" / "[  FAILED  ] name", one per test
		sed -n 's/^\[       OK \] \(.*\)/ok unit\/\1/p; s/^\[  FAILED  \] \([a-z_]*\)$/bad unit\/\1: FAIL/p' \
			"$res/unit.out"
		if [ "$(cat "$res/unit.rc")" != 0 ]; then
			echo "bad unit: the host unit tests did not build or run"
			sed 's/^/    /' "$res/unit.out" | tail -20
		fi ;;
	esac
}

# A part's verdict and its row in the results file, as soon as it ends:
# a run cut short keeps the rows of the parts that finished.
record_part() {
	local p=$1 np nf reports secs
	part_verdict "$p" > "$res/$p.verdict"
	# Seconds per ftracetest case, where a part's time goes
	grep -s '^TIME ' "$res/$p.out" | cut -d' ' -f2- > "$res/$p.times"
	np=$(grep -c '^ok ' "$res/$p.verdict")
	nf=$(grep -c '^bad ' "$res/$p.verdict")
	secs=$(cat "$res/$p.secs" 2>/dev/null || echo 0)
	reports=0
	# (the unpatched kernel's report is the reproduction in kill-stock
	# and stock-*)
	case "$p" in warn|kill-stock|stock-*) ;; *)
		[ "$(cat "$res/$p.rc" 2>/dev/null)" = 125 ] && reports=1 ;;
	esac
	# A run cut from outside says nothing about the commit.
	if [ "$(cat "$res/$p.rc" 2>/dev/null)" = 143 ]; then
		echo "check: $p: stopped by a signal, no row"
		return
	fi
	results_add "$commit" "$variant" "$p" "$np" "$nf" "$secs" "$reports"
	echo "check: $p: $np passed, $nf failed, $secs s"
}

start=$SECONDS
echo "check: parts ${parts[*]} on the $variant kernel of $commit (logs in $res/)"
results_init
for p in "${parts[@]}"; do
	while [ "$(jobs -rp | wc -l)" -ge "${CHECK_JOBS:-2}" ]; do wait -n; done
	{ run_part "$p"; record_part "$p"; } &
done
wait

pass=0 fail=0
for p in "${parts[@]}"; do
	np=$(grep -c '^ok ' "$res/$p.verdict" 2>/dev/null)
	nf=$(grep -c '^bad ' "$res/$p.verdict" 2>/dev/null)
	[ -f "$res/$p.verdict" ] || nf=1
	sed -n 's/^bad /FAIL: /p; /^    /p' "$res/$p.verdict" 2>/dev/null
	pass=$((pass + ${np:-0})) fail=$((fail + ${nf:-0}))
done

for p in "${parts[@]}"; do
	# (a stock-* case fails on purpose)
	case "$p" in stock-*) continue ;; esac
	if grep -qs '^---- ' "$res/$p.out"; then
		echo "(logs of cases that did not pass: $res/$p.out)"
		break
	fi
done
echo "check: $((SECONDS - start)) s; per part (s): $(for p in "${parts[@]}"; do
	printf '%s %s, ' "$p" "$(cat "$res/$p.secs" 2>/dev/null || echo -)"; done | sed 's/, $//')"
# What the whole suite of this commit still needs, when this was not it.
if [ ${#parts[@]} != ${#known[@]} ]; then
	results_verdict "$variant" "${known[@]}"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
exit
}
