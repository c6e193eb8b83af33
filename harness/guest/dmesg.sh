#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel log of this boot: the startup tests and KUnit report there.
dmesg
# The tests above registered and dropped many ftrace_ops; every list ftrace
# keeps of them must still be walkable.  (A KUnit test that reused ops
# still on the trampoline list once made this read loop forever.)
if timeout 120 cat /proc/kallsyms > /dev/null; then
	echo "RESULT boot/kallsyms-after-selftests PASS"
else
	echo "RESULT boot/kallsyms-after-selftests FAIL"
fi
