#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# warn.sh: make the kernel WARN() on purpose.  check.sh expects this VM to
# be reported as a kernel problem (harness/test/vm's exit status 125): the proof
# that the test kernels have BUG() support and the console scan sees it.
modprobe mux_harness || exit 1
echo 1 > /sys/module/mux_harness/parameters/warn
echo "warned"
