// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux on x86-64: trampolines packed into shared pages.
 *
 * A set's trampoline is a few hundred bytes for a few tracers (about 40
 * plus 27 per tracer), and a tracing session makes one per distinct set
 * of tracers: a page each would cost 4 KiB for every combination of
 * instances, profiler and probes that occurs.  So trampolines share
 * pages, as BPF packs its programs (bpf_prog_pack in kernel/bpf/core.c):
 *
 *	pack: one page of execmem, read-only and executable from the start,
 *	      int3 where nothing lives, handed out in units of 64 bytes
 *
 *	+--------+--------+--------+--------+-------------------------+
 *	| set 3           | set 7  | set 12 |  free (int3)            |
 *	+--------+--------+--------+--------+-------------------------+
 *	 0        64       128      192      256                  4096
 *
 * A trampoline is written once, whole, with text_poke_copy() before any
 * site or handler can reach it, then every CPU is serialized so that none
 * runs stale bytes of the slot.  It is freed only after the grace periods
 * that let every CPU leave it (ftrace_mux_sets_free()): its slot is
 * refilled with int3 and given back, and a pack whose last slot goes is
 * freed.  A trampoline over half a page (some 140 tracers) gets pages of
 * its own, made the same way.
 *
 * Everything here runs under text_mutex, which ftrace holds while it
 * patches sites (ftrace_arch_code_modify_prepare()), when it asks for the
 * trampolines they are to call.  The pages are all ftrace-mux holds for
 * trampolines: ftrace_mux_pack_bytes() is what function_tracers reports.
 */
#define pr_fmt(fmt) "ftrace-mux: " fmt

#include <linux/bitmap.h>
#include <linux/execmem.h>
#include <linux/list.h>
#include <linux/memory.h>
#include <linux/set_memory.h>
#include <linux/slab.h>
#include <asm/ftrace_mux.h>
#include <asm/text-patching.h>

#define PACK_SIZE	PAGE_SIZE
#define PACK_UNIT	64
#define PACK_UNITS	(PACK_SIZE / PACK_UNIT)
/* Larger trampolines get pages of their own */
#define PACK_MAX	(PACK_SIZE / 2)

struct pack {
	struct list_head	list;
	void			*text;
	unsigned int		used;	/* units */
	DECLARE_BITMAP(map, PACK_UNITS);
};

static LIST_HEAD(packs);
static unsigned long pack_bytes;
static const u8 int3s[PACK_UNIT] = { [0 ... PACK_UNIT - 1] = INT3_INSN_OPCODE };

/* Fresh execmem pages, filled with int3, then read-only and executable. */
static void *text_alloc(size_t size)
{
	void *text = execmem_alloc(EXECMEM_FTRACE, size);

	if (!text)
		return NULL;
	memset(text, INT3_INSN_OPCODE, size);
	set_memory_rox((unsigned long)text, size >> PAGE_SHIFT);
	WRITE_ONCE(pack_bytes, pack_bytes + size);
	return text;
}

static void text_free(void *text, size_t size)
{
	execmem_free(text);
	WRITE_ONCE(pack_bytes, pack_bytes - size);
}

static struct pack *pack_new(void)
{
	struct pack *pack = kzalloc(sizeof(*pack), GFP_KERNEL);

	if (!pack)
		return NULL;
	pack->text = text_alloc(PACK_SIZE);
	if (!pack->text) {
		kfree(pack);
		return NULL;
	}
	list_add_tail(&pack->list, &packs);
	return pack;
}

/**
 * ftrace_mux_pack_alloc - room for a trampoline in the shared pages
 * @size: bytes wanted
 *
 * The room is filled with int3 until ftrace_mux_pack_write() writes it.
 *
 * Return: the room, or NULL without memory.
 */
void *ftrace_mux_pack_alloc(unsigned int size)
{
	unsigned int units = DIV_ROUND_UP(size, PACK_UNIT);
	struct pack *pack;
	unsigned long pos;
	void *text = NULL;

	lockdep_assert_held(&text_mutex);
	if (size > PACK_MAX)
		return text_alloc(PAGE_ALIGN(size));
	list_for_each_entry(pack, &packs, list) {
		pos = bitmap_find_next_zero_area(pack->map, PACK_UNITS, 0, units, 0);
		if (pos < PACK_UNITS)
			goto found;
	}
	pack = pack_new();
	if (!pack)
		return NULL;
	pos = 0;
found:
	bitmap_set(pack->map, pos, units);
	pack->used += units;
	text = pack->text + pos * PACK_UNIT;
	return text;
}

/**
 * ftrace_mux_pack_write - write a trampoline's code into its room
 * @text: room from ftrace_mux_pack_alloc() that nothing can reach yet
 * @code: the code
 * @len: its length in bytes
 *
 * Writes @code and makes every CPU see it.
 */
void ftrace_mux_pack_write(void *text, const void *code, unsigned int len)
{
	lockdep_assert_held(&text_mutex);
	text_poke_copy_locked(text, code, len, false);
	text_poke_sync();
}

/**
 * ftrace_mux_pack_free - give back a trampoline's room
 * @text: room from ftrace_mux_pack_alloc()
 * @size: its size
 *
 * Only once no CPU can be running in it.
 */
void ftrace_mux_pack_free(void *text, unsigned int size)
{
	unsigned int units = DIV_ROUND_UP(size, PACK_UNIT), i;
	struct pack *pack;

	lockdep_assert_held(&text_mutex);
	if (size > PACK_MAX) {
		text_free(text, PAGE_ALIGN(size));
		return;
	}
	list_for_each_entry(pack, &packs, list) {
		if (text < pack->text || text >= pack->text + PACK_SIZE)
			continue;
		/* Stale code is not left where a wild jump could run it */
		for (i = 0; i < units; i++)
			text_poke_copy_locked(text + i * PACK_UNIT, int3s,
					      PACK_UNIT, false);
		bitmap_clear(pack->map, (text - pack->text) / PACK_UNIT, units);
		pack->used -= units;
		if (!pack->used) {
			list_del(&pack->list);
			text_free(pack->text, PACK_SIZE);
			kfree(pack);
		}
		return;
	}
	WARN_ONCE(1, "ftrace-mux: freeing trampoline text %pS that no pack holds\n", text);
}

/**
 * ftrace_mux_pack_bytes - the memory held for trampolines
 *
 * Return: the bytes of the pages held for trampolines.
 */
unsigned long ftrace_mux_pack_bytes(void)
{
	return READ_ONCE(pack_bytes);
}
