/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace-mux tool: parsing what the kernel's ftrace-mux files print, and
 * building what the tool writes.  Pure functions, no tracefs access, so
 * that the host unit tests (tests/test-parse.c) cover them.
 */
#ifndef _MUX_PARSE_H
#define _MUX_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MUX_NAME_MAX	128
/* A site's mask as the kernel prints it: "0", or "0x" and up to 1024 IDs */
#define MUX_MASK_MAX	(2 + 1024 / 4 + 1)

/* Processes shown as having selected one tracer, at most */
#define MUX_SELECTORS_MAX	16

/*
 * One line of function_tracers: "[* ]  NAME  ID  FUNCTIONS  FLAGS".  "*"
 * marks what the reader's own set_ftrace_filter edits; the processes that
 * selected the tracer are ",selected-by:PID" flags, kept apart here.
 */
struct mux_tracer {
	char name[MUX_NAME_MAX];
	int id;			/* -1: the tracer has no ID */
	long functions;		/* -1: unknown (no ID) */
	bool selected;
	bool own_filter;
	char flags[MUX_NAME_MAX];	/* without the selected-by flags */
	int nr_selectors;
	int selectors[MUX_SELECTORS_MAX];
};

/* The "# ids:" summary line of function_tracers. */
struct mux_ids {
	unsigned int in_use, draining, free, total;
	unsigned long no_id;
};

/* The "# sets:" summary line of function_tracers. */
struct mux_sets {
	unsigned long live, freeing, tramps, bytes, no_set, no_tramp;
};

/* One line of enabled_functions, with ftrace-mux's "mux:" column. */
struct mux_site {
	char func[256];
	char module[64];
	unsigned long count;	/* ftrace's reference count: ops on the site */
	char mask[MUX_MASK_MAX];	/* IDs of the tracers on it, hex */
	char path[16];		/* set, tramp, direct, list, detour */
	bool regs;
	char *names;		/* comma separated, as printed; mux_site_free() */
};

enum mux_edit {
	MUX_EDIT_SET,
	MUX_EDIT_ADD,
	MUX_EDIT_REMOVE,
	MUX_EDIT_RESET,
};

/* 0: parsed; 1: a comment or empty line; -1: malformed */
int mux_parse_tracer_line(const char *line, struct mux_tracer *t);
int mux_parse_ids_line(const char *line, struct mux_ids *ids);
int mux_parse_sets_line(const char *line, struct mux_sets *sets);
/*
 * 0: parsed; 1: a traced function without a mux column, or a line that
 * goes on with the one before ("\tdirect-->FUNC"); -1: malformed.
 * On 0, s->names is allocated: mux_site_free() it.
 */
int mux_parse_site_line(const char *line, struct mux_site *s);
void mux_site_free(struct mux_site *s);
/* How many IDs a mask as printed holds */
int mux_mask_weight(const char *mask);

bool mux_names_contain(const char *names, const char *name);
bool mux_valid_name(const char *name);
bool mux_valid_pattern(const char *pattern);

/* "INSTANCE:TRACER", or TRACER when @instance is NULL; -1 if too long. */
int mux_tracer_name(char *buf, size_t size, const char *instance,
		    const char *tracer);
/* The set_tracer_filter command for one edit; -1 if too long or bad. */
int mux_build_edit(char *buf, size_t size, const char *tracer, bool notrace,
		   enum mux_edit edit, const char *pattern);

void mux_json_string(FILE *f, const char *s);

#endif /* _MUX_PARSE_H */
