#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# reliability.sh [STRESS_SECONDS] [FAULTS_MAX]: the bad-input table, the
# bounded stress run and, when FAULTS_MAX is given (debug and coverage kernels), the
# injected allocation failures, in this order, in one VM; the failure of
# the sets' index growth (faults-grow.sh) first, as it needs a fresh boot.
h=/opt/harness
. $h/lib.sh
# Live sets and trampolines of the fresh boot: stress.sh's no-leaks check
# comes back to them, so that it sees what badinput.sh left too.
STRESS_SETS0=$(sets_and_tramps)
export STRESS_SETS0
# What holds the module area (execmem: modules, trampolines, kprobes' insn
# pages), by caller, lazily freed ranges as "unpurged": one "MODAREA when
# count bytes caller" line each.  Only information, for an allocation
# failure there.
modarea() {
	with_kptrs awk -v when="$1" '$1 >= "0xffffffffa0000000" {
		who = ($3 == "unpurged") ? "unpurged" : $3
		sub(/\+.*/, "", who)
		n[who]++; b[who] += $2
	}
	END { for (w in n) printf "MODAREA %s %d %d %s\n", when, n[w], b[w], w }' /proc/vmallocinfo
}
modarea boot
[ -z "$2" ] || sh $h/faults-grow.sh
sh $h/badinput.sh
modarea badinput
sh $h/stress.sh "${1:-120}"
modarea stress
if [ -n "$2" ]; then
	sh $h/faults.sh "$2"
	modarea faults
fi
exit 0
