#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [mux|debug|distro]: the whole test suite against the built
# kernel.  On distro, also the BPF and livepatch checks on it and on its
# unpatched twin, and a boot with call depth tracking (retbleed=stuff).
#
# Every part runs in its own VM, two at a time (one host thread each, see
# README), and reports RESULT lines; this script counts them and ends with
# one line "N passed, M failed".  A VM whose console shows a kernel
# Oops/BUG/WARNING/lockdep/KASAN report counts as one more failure, as does
# a VM that timed out or died before reporting.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2
variant=${1:-mux}
. harness/variants.sh
variant_load "$variant" || { echo "check: unknown variant $variant" >&2; exit 2; }
res=$v_out/check kdir=$v_out obj=$v_obj base=$v_base
# Upstream ftracetest results of the unpatched kernel (make check-baseline);
# the debug run holds itself to the normal baseline's.
expect=tests/ftracetest-baseline.txt
[ "$variant" = distro ] && expect=tests/ftracetest-baseline-distro.txt
rm -rf "$res"; mkdir -p "$res"
. harness/ftracetest-groups.sh
upvms=""
for part in $UPSTREAM_PARTS; do upvms="$upvms upstream-$part"; done
timeout=${CHECK_TIMEOUT:-1500}
stress=${STRESS_SECONDS:-120}
if [ "$variant" = debug ]; then
	timeout=$((timeout * 8))
	# 120 s on the debug kernel goes round each stress loop about once.
	stress=${STRESS_SECONDS:-600}
fi

# name script [args...]: run one VM, leaving NAME.out, NAME.console, NAME.rc
vmjob() {
	local name=$1; shift
	harness/vm --variant "$variant" --timeout "$timeout" \
		--console "$res/$name.console" "$@" > "$res/$name.out" 2> "$res/$name.err"
	echo $? > "$res/$name.rc"
}
# part: one VM of upstream ftracetest (ftracetest-groups.sh), likewise
upjob() {
	ftracetest_vm "$1" "$variant" "$timeout" "$res"
	echo $? > "$res/upstream-$1.rc"
}

start=$(date +%s)
echo "check: running the suite on the $variant kernel (logs in $res/)"
# The longest first, so that the short ones fill in beside them.
upjob a1 &
upjob a2 &
wait -n
vmjob boot harness/guest/dmesg.sh &
wait -n
upjob b &
wait -n
upjob c &
wait -n
vmjob project --append "ftrace=nop kunit.enable=0" harness/guest/project.sh &
wait -n
# Bad input, the bounded stress run and, on the debug kernel, injected
# allocation failures (reliability.sh).
vmjob reliability --append "ftrace=nop kunit.enable=0" harness/guest/reliability.sh \
	"$stress" "$([ "$variant" = debug ] && echo "${FAULTS_MAX:-40}")" &
wait -n
# The tool on the unpatched kernel: it must say there is no ftrace-mux.
if [ "$variant" != debug ]; then
	harness/vm --variant "$base" --timeout 300 --console "$res/stock.console" \
		--append "ftrace=nop kunit.enable=0" harness/guest/tool.sh stock \
		> "$res/stock.out" 2> "$res/stock.err"
	echo $? > "$res/stock.rc"
fi
# A warning on purpose: the console scan must report it (exit status 125).
harness/vm --variant "$variant" --timeout 300 --console "$res/warn.console" \
	--append "ftrace=nop kunit.enable=0" harness/guest/warn.sh \
	> "$res/warn.out" 2> "$res/warn.err"
echo $? > "$res/warn.rc"
# Production users beside the tracers, on both kernels of the variant; and
# the patched kernel booted with call depth tracking on.
distro_vms=""
slot() { while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done; }
if [ "$variant" = distro ]; then
	for k in "$variant" "$base"; do
		slot
		vmjob "bpf-$k" --variant "$k" --append "ftrace=nop kunit.enable=0" \
			harness/guest/distro-bpf.sh &
		slot
		vmjob "livepatch-$k" --variant "$k" --append "ftrace=nop kunit.enable=0" \
			harness/guest/distro-livepatch.sh &
		slot
		# KUnit runs only its call depth case (distro-stuff.sh).
		vmjob "stuff-$k" --variant "$k" \
			--append "ftrace=nop kunit.filter_glob=ftrace_mux.call_depth spectre_v2=retpoline retbleed=stuff,force" \
			harness/guest/distro-stuff.sh &
		distro_vms="$distro_vms bpf-$k livepatch-$k stuff-$k"
	done
fi
wait
end=$(date +%s)

# Every host command the harness runs comes from a package deps.sh installs.
harness/deps.sh --check > "$res/host.out" 2>&1
[ "$variant" = distro ] && harness/deps.sh --check distro | sed 's|host/|host/distro/|' >> "$res/host.out"

# The tool's parsing code, on the host.
make -s -C tools/tracing/ftrace-mux O="$repo/build/tool" test > "$res/unit.out" 2>&1
echo $? > "$res/unit.rc"
# The built kernel's ORC unwind table, on the host.
harness/orc-check.sh "$kdir/vmlinux" "$obj/tools/objtool/objtool" > "$res/orc.out" 2>&1

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

vms="boot$upvms project reliability$distro_vms"
[ -f "$res/stock.rc" ] && vms="$vms stock"
for name in $vms; do
	rc=$(cat "$res/$name.rc")
	case "$rc" in
	125) bad "vm/$name: kernel reported a problem"; sed 's/^/    /' "$res/$name.err" | head -20 ;;
	124) bad "vm/$name: timed out or died"; sed 's/^/    /' "$res/$name.err" | tail -20 ;;
	*) ok ;;
	esac
done

# Boot-time selftests and KUnit.
{
	grep -v '^RESULT ' "$res/boot.out" | awk -f harness/boot-results.awk
	grep '^RESULT ' "$res/boot.out"
} > "$res/boot.results"
if ! grep -q . "$res/boot.results"; then
	bad "boot: no FTRACE_STARTUP_TEST or KUnit results in the boot log"
fi

# Upstream ftracetest against the baseline expectations.
[ -f "$expect" ] || bad "no $expect: record it with harness/ftracetest-baseline.sh $base"
for part in $UPSTREAM_PARTS; do cat "$res/upstream-$part.out"; done | grep '^RESULT ' > "$res/upstream.results"
while read -r want key _; do
	case "$want" in \#*|"") continue ;; esac
	got=$(awk -v k="$key" '$2 == k { print $3 }' "$res/upstream.results")
	# XFAIL is a case's own way to pass: the failure it expects happened.
	if [ "$want" = PASS ] || [ "$want" = XFAIL ]; then
		if [ "$got" = "$want" ]; then ok; else bad "ftracetest $key: ${got:-not run} (baseline: $want)"; fi
	elif [ "$got" = PASS ]; then
		echo "note: ftracetest $key now passes (baseline: $want)"
	fi
done < <(grep -v '^\s*#' "$expect")
awk '{ print $2 }' "$res/upstream.results" | while read -r key; do
	grep -q "^[A-Z]* $key\( \|$\)" "$expect" || echo "note: ftracetest $key is not in $expect"
done

# Everything else reports its own verdict.
cat "$res/boot.results" > "$res/own.results"
grep '^RESULT ' "$res/project.out" >> "$res/own.results"
[ -f "$res/stock.out" ] && grep '^RESULT ' "$res/stock.out" >> "$res/own.results"
grep '^RESULT ' "$res/reliability.out" >> "$res/own.results"
for name in $distro_vms; do
	# The unpatched twin's results count too, under its name: a check
	# that fails there is a broken check.
	case $name in
	*-"$base") sed -n "s|^RESULT \([^ ]*\)|RESULT $base/\1|p" "$res/$name.out" ;;
	*) grep '^RESULT ' "$res/$name.out" ;;
	esac >> "$res/own.results"
done
grep '^RESULT ' "$res/orc.out" | cut -d' ' -f1-3 >> "$res/own.results"
grep '^RESULT ' "$res/host.out" >> "$res/own.results"
if [ "$(cat "$res/warn.rc")" = 125 ] && grep -q "warning on purpose" "$res/warn.console" &&
   grep -q "WARNING:" "$res/warn.err"; then
	echo "RESULT harness/warn-reported PASS" >> "$res/own.results"
else
	echo "RESULT harness/warn-reported FAIL" >> "$res/own.results"
fi
grep -q '^RESULT ' "$res/orc.out" || bad "orc: the ORC check did not run ($res/orc.out)"
grep '^STAT ' "$res/reliability.out" > "$res/reliability.stats"
# cmocka: "[       OK ] name" / "[  FAILED  ] name", one per test
sed -n 's/^\[       OK \] \(.*\)/RESULT unit\/\1 PASS/p; s/^\[  FAILED  \] \([a-z_]*\)$/RESULT unit\/\1 FAIL/p' \
	"$res/unit.out" >> "$res/own.results"
if [ "$(cat "$res/unit.rc")" != 0 ]; then
	bad "unit: the host unit tests did not build or run"
	sed 's/^/    /' "$res/unit.out" | tail -20
fi
while read -r _ key got; do
	if [ "$got" = PASS ]; then ok; else bad "$key: $got"; fi
done < "$res/own.results"

for name in $upvms project stock reliability$distro_vms; do
	if grep -qs '^---- ' "$res/$name.out"; then
		echo "(logs of cases that did not pass: $res/$name.out)"
		break
	fi
done
echo "check: suite ran in $((end - start)) s"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
