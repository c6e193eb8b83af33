// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux on x86-64: where a mask's caller stub is, and what a patched
 * call site calls now.  Stub FTRACE_MUX_NR_STUBS, the lookup stub, serves
 * every mask with IDs beyond the static stubs.
 */
#include <linux/ftrace.h>
#include <linux/ftrace_mux.h>
#include <linux/uaccess.h>
#include <asm/ftrace_mux.h>
#include <asm/text-patching.h>

unsigned long arch_ftrace_mux_stub(unsigned long mask, bool regs)
{
	const u8 *base = regs ? ftrace_mux_regs_stubs : ftrace_mux_stubs;

	if (mask >= FTRACE_MUX_NR_STUBS)
		mask = FTRACE_MUX_NR_STUBS;
	return (unsigned long)base + mask * FTRACE_MUX_STUB_SIZE;
}

/*
 * The number of the stub at @addr: its mask, or FTRACE_MUX_NR_STUBS for
 * the lookup stub; -1 if @addr is no stub.
 */
long arch_ftrace_mux_stub_mask(unsigned long addr, bool *regs)
{
	const unsigned long size = (FTRACE_MUX_NR_STUBS + 1) * FTRACE_MUX_STUB_SIZE;
	unsigned long off;

	off = addr - (unsigned long)ftrace_mux_stubs;
	*regs = false;
	if (off >= size) {
		off = addr - (unsigned long)ftrace_mux_regs_stubs;
		*regs = true;
		if (off >= size)
			return -1;
	}
	if (off % FTRACE_MUX_STUB_SIZE)
		return -1;
	return off / FTRACE_MUX_STUB_SIZE;
}

/*
 * What the call at @ip calls, read from the text itself, or 0 if @ip holds
 * no call.  Callers hold ftrace_lock, so no patch of this site is in
 * flight: text_poke_bp() batches complete before ftrace_lock is released.
 */
unsigned long arch_ftrace_mux_call_target(unsigned long ip)
{
	u8 insn[CALL_INSN_SIZE];
	s32 rel;

	if (copy_from_kernel_nofault(insn, (void *)ip, CALL_INSN_SIZE))
		return 0;
	if (insn[0] != CALL_INSN_OPCODE)
		return 0;
	memcpy(&rel, insn + 1, sizeof(rel));
	return ip + CALL_INSN_SIZE + rel;
}
