// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the ftrace-mux tool's parsing code (cmocka), on
 * lines in the exact format the kernel prints.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mux-parse.h"

static void tracer_lines(void **state)
{
	struct mux_tracer t;

	(void)state;
	assert_int_equal(mux_parse_tracer_line(
		"*  function                   1         1  global-filter",
		&t), 0);
	assert_string_equal(t.name, "function");
	assert_int_equal(t.id, 1);
	assert_int_equal(t.functions, 1);
	assert_true(t.selected);
	assert_false(t.own_filter);

	assert_int_equal(mux_parse_tracer_line(
		"   function_profile           -         -  own-filter,fgraph-user",
		&t), 0);
	assert_string_equal(t.name, "function_profile");
	assert_int_equal(t.id, -1);
	assert_int_equal(t.functions, -1);
	assert_false(t.selected);
	assert_true(t.own_filter);
	assert_string_equal(t.flags, "own-filter,fgraph-user");
	assert_int_equal(t.nr_selectors, 0);

	/* the processes that selected it, out of the flags */
	assert_int_equal(mux_parse_tracer_line(
		"   function_profile           -         -  own-filter,fgraph-user,selected-by:990,selected-by:1234",
		&t), 0);
	assert_string_equal(t.flags, "own-filter,fgraph-user");
	assert_int_equal(t.nr_selectors, 2);
	assert_int_equal(t.selectors[0], 990);
	assert_int_equal(t.selectors[1], 1234);
	assert_true(t.own_filter);
	assert_int_equal(mux_parse_tracer_line(
		"   function_profile           -         -  own-filter,selected-by:",
		&t), -1);
	assert_int_equal(mux_parse_tracer_line(
		"   function_profile           -         -  own-filter,selected-by:9x",
		&t), -1);

	assert_int_equal(mux_parse_tracer_line(
		"   foo:function              15     21384  own-filter,regs",
		&t), 0);
	assert_string_equal(t.name, "foo:function");
	assert_int_equal(t.id, 15);
	assert_int_equal(t.functions, 21384);

	/* header, empty, malformed */
	assert_int_equal(mux_parse_tracer_line(
		"#  tracer                    id functions  flags",
		&t), 1);
	assert_int_equal(mux_parse_tracer_line("", &t), 1);
	assert_int_equal(mux_parse_tracer_line("x  function 1 1 global-filter", &t), -1);
	assert_int_equal(mux_parse_tracer_line("   function 1", &t), -1);
	assert_int_equal(mux_parse_tracer_line("   function x 1 global-filter", &t), -1);
	assert_int_equal(mux_parse_tracer_line("   function 1024 1 global-filter", &t), -1);
	assert_int_equal(mux_parse_tracer_line("   function 1023 1 global-filter", &t), 0);
	assert_int_equal(t.id, 1023);
	assert_int_equal(mux_parse_tracer_line("   function 1 -5 global-filter", &t), -1);
	assert_int_equal(mux_parse_tracer_line("   function 1 1 global-filter extra", &t), -1);
}

static void ids_line(void **state)
{
	struct mux_ids ids;

	(void)state;
	assert_int_equal(mux_parse_ids_line(
		"# ids: 3 in use, 1 draining, 12 free of 16; tracers started without an id: 2",
		&ids), 0);
	assert_int_equal(ids.in_use, 3);
	assert_int_equal(ids.draining, 1);
	assert_int_equal(ids.free, 12);
	assert_int_equal(ids.total, 16);
	assert_int_equal(ids.no_id, 2);
	assert_int_equal(mux_parse_ids_line("#  tracer id", &ids), 1);
	assert_int_equal(mux_parse_ids_line("# ids: three in use", &ids), -1);
}

static void sets_line(void **state)
{
	struct mux_sets sets;

	(void)state;
	assert_int_equal(mux_parse_sets_line(
		"# sets: 3 live, 1 freeing; trampolines: 2, 8192 bytes; sets not made: 0, trampolines not made: 1",
		&sets), 0);
	assert_int_equal(sets.live, 3);
	assert_int_equal(sets.freeing, 1);
	assert_int_equal(sets.tramps, 2);
	assert_int_equal(sets.bytes, 8192);
	assert_int_equal(sets.no_set, 0);
	assert_int_equal(sets.no_tramp, 1);
	assert_int_equal(mux_parse_sets_line("# ids: 3 in use", &sets), 1);
	assert_int_equal(mux_parse_sets_line("# sets: many", &sets), -1);
}

static void site_lines(void **state)
{
	struct mux_site s;

	(void)state;
	assert_int_equal(mux_parse_site_line(
		"ksys_sync (2)             ->arch_ftrace_ops_list_func+0x0/0x125\tmux: 0x6 set [function,fgraph]",
		&s), 0);
	assert_string_equal(s.func, "ksys_sync");
	assert_string_equal(s.module, "");
	assert_int_equal(s.count, 2);
	assert_string_equal(s.mask, "0x6");
	assert_string_equal(s.path, "set");
	assert_false(s.regs);
	assert_string_equal(s.names, "function,fgraph");
	assert_int_equal(mux_mask_weight(s.mask), 2);
	mux_site_free(&s);

	assert_int_equal(mux_parse_site_line(
		"tracee_relevant [ftrace_ops] (12)    R  \tmux: 0xfff set R [a,b]",
		&s), 0);
	assert_string_equal(s.func, "tracee_relevant");
	assert_string_equal(s.module, "ftrace_ops");
	assert_int_equal(s.count, 12);
	assert_string_equal(s.mask, "0xfff");
	assert_string_equal(s.path, "set");
	assert_true(s.regs);
	assert_string_equal(s.names, "a,b");
	assert_int_equal(mux_mask_weight(s.mask), 12);
	mux_site_free(&s);

	/* IDs beyond 63: a mask wider than a word, kept as printed */
	assert_int_equal(mux_parse_site_line(
		"f (3)\tmux: 0x10000000000000000000000000000000000000000000000000000000000000003 set [a,b,c]",
		&s), 0);
	assert_string_equal(s.mask,
		"0x10000000000000000000000000000000000000000000000000000000000000003");
	assert_int_equal(mux_mask_weight(s.mask), 3);
	mux_site_free(&s);

	/* a site whose only tracer has no ID: mask 0, printed without 0x */
	assert_int_equal(mux_parse_site_line(
		"vfs_read (1)   tramp: 0xffffffffa0000000 (call_direct_funcs+0x0/0x20)\tmux: 0 tramp []",
		&s), 0);
	assert_string_equal(s.mask, "0");
	assert_string_equal(s.path, "tramp");
	assert_string_equal(s.names, "");
	assert_int_equal(mux_mask_weight(s.mask), 0);
	mux_site_free(&s);

	/* ftrace's own format (no mux column), malformed */
	assert_int_equal(mux_parse_site_line("vfs_read (1)   tramp: 0xffffffffa0000000", &s), 1);
	/* a direct call's address, on a line of its own after its site's */
	assert_int_equal(mux_parse_site_line("\tdirect-->bpf_trampoline_6442463606+0x0/0x16d",
					     &s), 1);
	assert_int_equal(mux_parse_site_line("vfs_read 1", &s), -1);
	assert_int_equal(mux_parse_site_line("vfs_read (x)\tmux: 0x1 set [a]", &s), -1);
	assert_int_equal(mux_parse_site_line("vfs_read (2)\tmux: 0xzz set [a]", &s), -1);
	assert_int_equal(mux_parse_site_line("vfs_read (2)\tmux: 0x03 set [a]", &s), -1);
	assert_int_equal(mux_parse_site_line("vfs_read (2)\tmux: 0xA set [a]", &s), -1);
	assert_int_equal(mux_parse_site_line("vfs_read (2)\tmux: 0x set [a]", &s), -1);
	assert_int_equal(mux_parse_site_line("vfs_read (2)\tmux: 0x3 set a,b", &s), -1);
	assert_int_equal(mux_parse_site_line("vfs_read [mod (2)\tmux: 0x3 set [a]", &s), -1);
}

static void names(void **state)
{
	(void)state;
	assert_true(mux_names_contain("function,fgraph", "function"));
	assert_true(mux_names_contain("function,fgraph", "fgraph"));
	assert_false(mux_names_contain("function,fgraph", "graph"));
	assert_false(mux_names_contain("foo:function", "function"));
	assert_true(mux_names_contain("a,foo:function,b", "foo:function"));
	assert_false(mux_names_contain("", "function"));
	assert_false(mux_names_contain("function", ""));

	assert_true(mux_valid_name("foo:function"));
	assert_false(mux_valid_name(""));
	assert_false(mux_valid_name("two words"));
	assert_false(mux_valid_name("tab\tname"));
	assert_false(mux_valid_name("bell\a"));
}

static void edits(void **state)
{
	char buf[512], big[400];

	(void)state;
	assert_int_equal(mux_build_edit(buf, sizeof(buf), "function_profile", false,
					MUX_EDIT_ADD, "vfs_*"), 0);
	assert_string_equal(buf, "function_profile filter add vfs_*");
	assert_int_equal(mux_build_edit(buf, sizeof(buf), "function_profile", false,
					MUX_EDIT_SET, "ksys_sync"), 0);
	assert_string_equal(buf, "function_profile filter set ksys_sync");
	assert_int_equal(mux_build_edit(buf, sizeof(buf), "foo:function", true,
					MUX_EDIT_REMOVE, "*:mod:ext4"), 0);
	assert_string_equal(buf, "foo:function notrace remove *:mod:ext4");
	assert_int_equal(mux_build_edit(buf, sizeof(buf), "function", false,
					MUX_EDIT_RESET, NULL), 0);
	assert_string_equal(buf, "function filter reset");

	assert_int_equal(mux_build_edit(buf, sizeof(buf), "function", false,
					MUX_EDIT_ADD, NULL), -1);
	assert_int_equal(mux_build_edit(buf, sizeof(buf), "function", false,
					MUX_EDIT_ADD, "a b"), -1);
	assert_int_equal(mux_build_edit(buf, sizeof(buf), "bad name", false,
					MUX_EDIT_RESET, NULL), -1);
	/* over the kernel's 256-byte limit for one edit */
	memset(big, 'x', 120);
	big[120] = '\0';
	assert_int_equal(mux_build_edit(buf, sizeof(buf), "function", false,
					MUX_EDIT_ADD, big), 0);
	memset(big, 'x', 250);
	big[250] = '\0';
	assert_int_equal(mux_build_edit(buf, sizeof(buf), "function", false,
					MUX_EDIT_ADD, big), -1);
	assert_int_equal(mux_build_edit(buf, 10, "function", false,
					MUX_EDIT_RESET, NULL), -1);

	assert_int_equal(mux_tracer_name(buf, sizeof(buf), "foo", "function"), 0);
	assert_string_equal(buf, "foo:function");
	assert_int_equal(mux_tracer_name(buf, sizeof(buf), NULL, "function"), 0);
	assert_string_equal(buf, "function");
	assert_int_equal(mux_tracer_name(buf, 5, "foo", "function"), -1);
}

static void json(void **state)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(f);
	mux_json_string(f, "a\"b\\c\nd\te\x01");
	fclose(f);
	assert_string_equal(out, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	free(out);
	assert_int_equal(mux_mask_weight("0xf0f"), 8);
	assert_int_equal(mux_mask_weight("0"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tracer_lines),
		cmocka_unit_test(ids_line),
		cmocka_unit_test(sets_line),
		cmocka_unit_test(site_lines),
		cmocka_unit_test(names),
		cmocka_unit_test(edits),
		cmocka_unit_test(json),
	};

	return cmocka_run_group_tests_name("ftrace-mux parse", tests, NULL, NULL);
}
