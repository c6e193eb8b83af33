// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux tool: parsing the kernel's ftrace-mux files, building the
 * lines written to them.  See mux-parse.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "mux-parse.h"

/* Must match FTRACE_MUX_EDIT_MAX in kernel/trace/ftrace_mux_tracefs.c */
#define MUX_EDIT_MAX	256

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Copy the next blank-separated word of *@p into @buf; false if none fits. */
static bool next_word(const char **p, char *buf, size_t size)
{
	const char *s = skip_space(*p), *e = s;
	size_t len;

	while (*e && *e != ' ' && *e != '\t' && *e != '\n')
		e++;
	len = e - s;
	if (!len || len >= size)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*p = e;
	return true;
}

static bool parse_ulong(const char *s, int base, unsigned long *val)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	*val = strtoul(s, &end, base);
	return *end == '\0';
}

/* Move the ",selected-by:PID" flags of @t into its selectors. */
static int split_selectors(struct mux_tracer *t)
{
	static const char tag[] = ",selected-by:";
	char *p, *end;
	long pid;

	while ((p = strstr(t->flags, tag))) {
		pid = strtol(p + sizeof(tag) - 1, &end, 10);
		if (end == p + sizeof(tag) - 1 || pid < 0 || pid > 0x7fffffff ||
		    (*end && *end != ',') || t->nr_selectors == MUX_SELECTORS_MAX)
			return -1;
		t->selectors[t->nr_selectors++] = pid;
		memmove(p, end, strlen(end) + 1);
	}
	return 0;
}

int mux_parse_tracer_line(const char *line, struct mux_tracer *t)
{
	char id[16], funcs[32];
	const char *p = line;
	unsigned long v;

	memset(t, 0, sizeof(*t));
	if (!*line || *line == '\n' || *line == '#')
		return 1;
	if (*p != '*' && *p != ' ')
		return -1;
	t->selected = *p == '*';
	p++;
	if (!next_word(&p, t->name, sizeof(t->name)) ||
	    !next_word(&p, id, sizeof(id)) ||
	    !next_word(&p, funcs, sizeof(funcs)) ||
	    !next_word(&p, t->flags, sizeof(t->flags)))
		return -1;
	if (*skip_space(p) && *skip_space(p) != '\n')
		return -1;
	if (!strcmp(id, "-")) {
		t->id = -1;
	} else {
		/* CONFIG_FTRACE_MUX_IDS is at most 1024 */
		if (!parse_ulong(id, 10, &v) || v > 1023)
			return -1;
		t->id = v;
	}
	if (!strcmp(funcs, "-")) {
		t->functions = -1;
	} else {
		if (!parse_ulong(funcs, 10, &v))
			return -1;
		t->functions = v;
	}
	if (split_selectors(t))
		return -1;
	t->own_filter = !strncmp(t->flags, "own-filter", 10);
	return 0;
}

int mux_parse_ids_line(const char *line, struct mux_ids *ids)
{
	memset(ids, 0, sizeof(*ids));
	if (strncmp(line, "# ids:", 6))
		return 1;
	if (sscanf(line,
		   "# ids: %u in use, %u draining, %u free of %u; tracers started without an id: %lu",
		   &ids->in_use, &ids->draining, &ids->free, &ids->total,
		   &ids->no_id) != 5)
		return -1;
	return 0;
}

int mux_parse_sets_line(const char *line, struct mux_sets *sets)
{
	memset(sets, 0, sizeof(*sets));
	if (strncmp(line, "# sets:", 7))
		return 1;
	if (sscanf(line,
		   "# sets: %lu live, %lu freeing; trampolines: %lu, %lu bytes; sets not made: %lu, trampolines not made: %lu",
		   &sets->live, &sets->freeing, &sets->tramps, &sets->bytes,
		   &sets->no_set, &sets->no_tramp) != 6)
		return -1;
	return 0;
}

/* "0", or "0x" and hexadecimal digits without leading zeros */
static bool valid_mask(const char *mask)
{
	const char *d = mask + 2;

	if (!strcmp(mask, "0"))
		return true;
	if (strncmp(mask, "0x", 2) || !*d || *d == '0')
		return false;
	for (; *d; d++)
		if (!isxdigit((unsigned char)*d) || isupper((unsigned char)*d))
			return false;
	return true;
}

int mux_parse_site_line(const char *line, struct mux_site *s)
{
	const char *p = line, *mux, *open, *close;
	char word[64];
	unsigned long v;
	size_t len;

	memset(s, 0, sizeof(*s));
	/* The line before goes on: ftrace's "\tdirect-->FUNC" */
	if (*p == '\t')
		return 1;
	if (!next_word(&p, s->func, sizeof(s->func)))
		return -1;
	p = skip_space(p);
	if (*p == '[') {		/* "func [module]" */
		close = strchr(p, ']');
		if (!close || close - p - 1 <= 0 ||
		    (size_t)(close - p - 1) >= sizeof(s->module))
			return -1;
		memcpy(s->module, p + 1, close - p - 1);
		s->module[close - p - 1] = '\0';
		p = close + 1;
	}
	if (!next_word(&p, word, sizeof(word)) || word[0] != '(')
		return -1;
	len = strlen(word);
	if (word[len - 1] != ')')
		return -1;
	word[len - 1] = '\0';
	if (!parse_ulong(word + 1, 10, &v))
		return -1;
	s->count = v;

	mux = strstr(p, "\tmux: ");
	if (!mux)
		return 1;
	p = mux + 6;
	if (!next_word(&p, s->mask, sizeof(s->mask)) || !valid_mask(s->mask))
		return -1;
	if (!next_word(&p, s->path, sizeof(s->path)))
		return -1;
	p = skip_space(p);
	if (*p == 'R' && (p[1] == ' ' || p[1] == '\t')) {
		s->regs = true;
		p = skip_space(p + 1);
	}
	open = p;
	if (*open != '[')
		return -1;
	close = strchr(open, ']');
	if (!close)
		return -1;
	s->names = strndup(open + 1, close - open - 1);
	return s->names ? 0 : -1;
}

void mux_site_free(struct mux_site *s)
{
	free(s->names);
	s->names = NULL;
}

int mux_mask_weight(const char *mask)
{
	int n = 0;

	if (!strncmp(mask, "0x", 2))
		for (mask += 2; *mask; mask++)
			n += __builtin_popcount(isdigit((unsigned char)*mask) ?
						*mask - '0' : *mask - 'a' + 10);
	return n;
}

bool mux_names_contain(const char *names, const char *name)
{
	size_t n = strlen(name);
	const char *p = names;

	if (!n)
		return false;
	while ((p = strstr(p, name))) {
		bool start = p == names || p[-1] == ',';
		bool end = p[n] == '\0' || p[n] == ',';

		if (start && end)
			return true;
		p += n;
	}
	return false;
}

/* Tracer names as the kernel prints them: no blanks, no control bytes. */
bool mux_valid_name(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (!*p || strlen(name) >= MUX_NAME_MAX)
		return false;
	for (; *p; p++)
		if (isspace(*p) || iscntrl(*p))
			return false;
	return true;
}

/* One pattern per edit: the kernel applies an edit all or nothing. */
bool mux_valid_pattern(const char *pattern)
{
	return mux_valid_name(pattern);
}

int mux_tracer_name(char *buf, size_t size, const char *instance,
		    const char *tracer)
{
	int n;

	if (instance)
		n = snprintf(buf, size, "%s:%s", instance, tracer);
	else
		n = snprintf(buf, size, "%s", tracer);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

int mux_build_edit(char *buf, size_t size, const char *tracer, bool notrace,
		   enum mux_edit edit, const char *pattern)
{
	const char *which = notrace ? "notrace" : "filter";
	int n;

	if (!mux_valid_name(tracer))
		return -1;
	switch (edit) {
	case MUX_EDIT_RESET:
		n = snprintf(buf, size, "%s %s reset", tracer, which);
		break;
	case MUX_EDIT_SET:
	case MUX_EDIT_ADD:
	case MUX_EDIT_REMOVE:
		if (!pattern || !mux_valid_pattern(pattern))
			return -1;
		n = snprintf(buf, size, "%s %s %s %s", tracer, which,
			     edit == MUX_EDIT_SET ? "set" :
			     edit == MUX_EDIT_ADD ? "add" : "remove", pattern);
		break;
	default:
		return -1;
	}
	if (n < 0 || (size_t)n >= size || n > MUX_EDIT_MAX)
		return -1;
	return 0;
}

void mux_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}
