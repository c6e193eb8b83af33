#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# reliability.sh [STRESS_SECONDS] [FAULTS_MAX]: the bad-input table, the
# bounded stress run and, when FAULTS_MAX is given (debug kernel), the
# injected allocation failures, in this order, in one VM.
h=/opt/harness
sh $h/badinput.sh
sh $h/stress.sh "${1:-120}"
[ -n "$2" ] && sh $h/faults.sh "$2"
exit 0
