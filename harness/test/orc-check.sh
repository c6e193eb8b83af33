#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# orc-check.sh VMLINUX OBJTOOL: check the kernel's ORC unwind table.
#
# A "call" entry whose CFA is %rsp + 0 tells the unwinder that the return
# address lies below the stack pointer, so the next frame starts where this
# one did and the unwinder prints "stack going in the wrong direction".
# Upstream 6.12 has exactly one such entry, at return_to_handler's
# "call .Ldo_rop" (fixed by the first patch of the series); the debug run
# met it as that warning.  Prints RESULT lines like the guest scripts.
set -uo pipefail
vmlinux=$1 objtool=$2

dump=$(mktemp)
trap 'rm -f "$dump"' EXIT
if ! "$objtool" --dump "$vmlinux" > "$dump" 2>&1 || ! grep -q ':type:call sp:sp+' "$dump"; then
	echo "RESULT orc/dump FAIL (objtool --dump gave no ORC table)"
	exit 0
fi
echo "RESULT orc/dump PASS"

bad=$(grep -c ':type:call sp:sp+0 ' "$dump")
if [ "$bad" = 0 ]; then
	echo "RESULT orc/no-return-address-below-sp PASS"
else
	grep ':type:call sp:sp+0 ' "$dump" | head -5 | sed 's/^/    /'
	echo "RESULT orc/no-return-address-below-sp FAIL ($bad entries)"
fi

read -r start size < <(nm -S "$vmlinux" | awk '$4 == "return_to_handler" { print $1, $2 }')
if [ -z "${start:-}" ]; then
	echo "RESULT orc/return_to_handler FAIL (no symbol)"
	exit 0
fi
entries=$(awk -v s="$start" -v n="$size" '
	# The low 32 bits only: awk numbers are doubles.
	function hex(h,   i, v, c) {
		h = substr(h, length(h) - 7)
		v = 0
		for (i = 1; i <= length(h); i++) {
			c = index("0123456789abcdef", substr(h, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	BEGIN { lo = hex(s); hi = lo + hex(n) }
	{ a = hex(substr($1, 1, 16)); if (a >= lo && a < hi) print }' "$dump")
# The last three entries: the ftrace_regs frame, then nothing to unwind
# from "call .Ldo_rop" on while the return address is only in %rdi, then
# a function frame at the final RET.
tail3=$(echo "$entries" | tail -3 | sed 's/^[0-9a-f]*:type://; s/ bp:.*//' | tr '\n' ' ')
if echo "$tail3" | grep -Eq '^call sp:sp\+(1[0-9]|[2-9][0-9]|[1-9][0-9][0-9]+) \(und\) sp:\(und\) call sp:sp\+8 $'; then
	echo "RESULT orc/return_to_handler PASS"
else
	echo "$entries" | sed 's/^/    /'
	echo "RESULT orc/return_to_handler FAIL"
fi
