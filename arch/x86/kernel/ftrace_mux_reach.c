// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux detours on x86-64: the instructions of the reach rule
 * (kernel/trace/ftrace_mux_detour_reach.c).
 *
 * The generic code follows the tracers' paths from function to function;
 * what it asks here is where a range of text leads, decoded with the
 * kernel's instruction decoder (as insn_jump_into_range() in
 * kprobes/opt.c decodes a function to find jumps into the bytes an
 * optimized kprobe replaces), and where those paths start in assembly.
 */
#include <linux/ftrace_mux.h>
#include <linux/kernel.h>
#include <asm/ftrace_mux.h>
#include <asm/insn.h>
#include <asm/text-patching.h>

/*
 * Entry points of the tracers' paths outside kernel/trace, by name (some
 * are static or assembly); names this kernel lacks are skipped.
 */
const char * const arch_ftrace_mux_reach_roots[] = {
	/* ftrace's callers and return hook (ftrace_64.S) */
	"ftrace_caller", "ftrace_regs_caller", "ftrace_stub",
	"ftrace_stub_graph", "return_to_handler", "__fentry__",
	"ftrace_mux_caller", "ftrace_mux_regs_caller",
	"ftrace_mux_detour_caller",
	/* kprobes' paths to a handler, and back */
	"kprobe_int3_handler", "kprobe_debug_handler", "optimized_callback",
	"kprobe_fault_handler", "kprobe_exceptions_notify",
	"kprobe_busy_begin", "kprobe_busy_end",
	NULL
};

/*
 * Where the instruction at @ip, decoded as @insn, calls or jumps to
 * directly, or 0: call, jmp and jcc with an immediate offset.
 */
static unsigned long reach_target(struct insn *insn, unsigned long ip)
{
	u8 op = insn->opcode.bytes[0];

	switch (op) {
	case 0xe8:		/* call rel32 */
	case 0xe9:		/* jmp rel32 */
	case 0xeb:		/* jmp rel8 */
	case 0x70 ... 0x7f:	/* jcc rel8 */
		break;
	case 0x0f:		/* jcc rel32 */
		if ((insn->opcode.bytes[1] & 0xf0) != 0x80)
			return 0;
		break;
	default:
		return 0;
	}
	return ip + insn->length + insn->immediate.value;
}

/* Padding between functions: NOPs and int3 */
static bool insn_is_pad(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];

	return op == 0x90 || op == INT3_INSN_OPCODE ||
	       (op == 0x0f && insn->opcode.bytes[1] == 0x1f);
}

/*
 * Is @insn, at @ip, a jump over int3s only?  Alternatives that were not
 * applied leave their NOPs, and a long run of them becomes such a jump
 * (add_nop()): it is padding, not the end of the flow.
 */
static bool insn_is_nop_jmp(struct insn *insn, unsigned long ip)
{
	u8 op = insn->opcode.bytes[0];
	unsigned long p, dest;

	if (op != 0xeb && op != 0xe9)
		return false;
	dest = reach_target(insn, ip);
	if (dest < ip + insn->length || dest - ip > 256)
		return false;
	for (p = ip + insn->length; p < dest; p++)
		if (*(u8 *)p != INT3_INSN_OPCODE)
			return false;
	return true;
}

/* Does execution never go on to the instruction after @insn? */
static bool insn_ends_flow(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];
	int reg;

	switch (op) {
	case 0xc2: case 0xc3: case 0xca: case 0xcb:	/* ret, lret */
	case 0xcf:					/* iret */
	case 0xe9: case 0xeb:				/* jmp */
		return true;
	case 0xff:					/* jmp *, ljmp * */
		reg = X86_MODRM_REG(insn->modrm.bytes[0]);
		return reg == 4 || reg == 5;
	case 0x0f:					/* ud2, sysret */
		return insn->opcode.bytes[1] == 0x0b || insn->opcode.bytes[1] == 0x07;
	}
	return false;
}

/*
 * Decode [@from, @to) of live kernel text; call @found(target) for every
 * direct call or jump leaving it, unless @found is NULL.  Returns the
 * first error of @found, 1 if execution can run off the end into what
 * follows (the last instruction but padding does not end the flow, or
 * the last one straddles @to), or 0.  Bytes that do not decode are
 * skipped one at a time and counted in *@undecoded: what is decoded out
 * of step can only add targets, which errs on the side of refusing.
 */
int arch_ftrace_mux_decode(unsigned long from, unsigned long to,
			   int (*found)(unsigned long), unsigned long *undecoded)
{
	bool open = true;
	unsigned long ip, dest;
	struct insn insn;
	int ret;

	for (ip = from; ip < to; ip += insn.length) {
		if (insn_decode_kernel(&insn, (void *)ip) < 0) {
			(*undecoded)++;
			insn.length = 1;
			open = true;
			continue;
		}
		dest = reach_target(&insn, ip);
		if (dest && found && (dest < from || dest >= to)) {
			ret = found(dest);
			if (ret)
				return ret;
		}
		if (insn_is_nop_jmp(&insn, ip))
			continue;
		if (insn_ends_flow(&insn))
			open = false;
		else if (!insn_is_pad(&insn))
			open = true;
	}
	return open || ip != to;
}
