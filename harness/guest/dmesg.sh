#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel log of this boot: the startup tests and KUnit report there.
dmesg
