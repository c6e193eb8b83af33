# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# both.sh, sourced by harness/bench/bench.sh and harness/bench/macro.sh: one guest
# script on a variant's kernel and on its unpatched twin at once.
#
# run_both TAG VARIANT BASE OUT VM-ARG... boots VARIANT and BASE under
# -icount (harness/test/vm --icount VM-ARG..., the guest script and its
# arguments last), each VM's output in OUT/mux.txt and OUT/baseline.txt,
# its stderr in OUT/*.err, its console in OUT/*.console; exits 1 if
# either run failed, showing their stderr.
run_both() {
	local tag=$1 variant=$2 base=$3 out=$4 start v k p rc=0
	local pids=()
	shift 4
	start=$(date +%s)
	# The files are named mux.* and baseline.* whatever the variant.
	for v in mux baseline; do
		k=$variant
		[ $v = baseline ] && k=$base
		harness/test/vm --variant "$k" --icount --console "$out/$v.console" "$@" \
			> "$out/$v.txt" 2> "$out/$v.err" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	if [ $rc != 0 ]; then
		echo "$tag: a run failed:" >&2
		tail -n 20 "$out"/*.err >&2
		exit 1
	fi
	echo "$tag: both runs done in $(( $(date +%s) - start )) s"
}
