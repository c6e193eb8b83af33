// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux: see and edit the multiplexed function tracers of a kernel
 * with ftrace-mux, through libtracefs.
 *
 * Exit status: 0 on success, 1 on a usage error, 2 when the kernel (or
 * the system) refuses: no ftrace-mux, no tracefs, no permission, or a
 * write the kernel rejected, whose error_log line is shown.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>
#include <unistd.h>

#include <linux/compiler.h>
#include <linux/kernel.h>

#include "mux-parse.h"
#include "mux-sites.h"

#define EXIT_USAGE	1
#define EXIT_KERNEL	2

static const char *progname = "ftrace-mux";

static const char usage_text[] =
"usage: ftrace-mux [--instance NAME] COMMAND [ARGS]\n"
"\n"
"  list [--json]                       the function tracers, their IDs and filters\n"
"  filter TRACER [--notrace] [--add | --remove | --reset] [PATTERN...]\n"
"                                      set a tracer's filter (or notrace list) to\n"
"                                      the PATTERNs; --add, --remove edit it\n"
"  show [--tracer NAME] [--json] [PATTERN]\n"
"                                      per traced function: its tracers and path\n"
"  stat [--json]                       IDs, sites per path, sets, detours\n"
"  detour add|remove SYMBOL...         install or remove detours\n"
"  detour list [--json]                the detours and their state\n"
"  detour inline [--list-sites] [--partial] [--vmlinux FILE] FUNCTION...\n"
"                                      trace every inlined copy of each FUNCTION\n"
"                                      too, from debug info: all or none\n"
"\n"
"  --instance NAME  the tracers of trace instance NAME (TRACER means NAME:TRACER)\n"
"  --help           this text\n";

/* Print the message and exit; a usage error also points at --help. */
static void __noreturn __printf(2, 3)
die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (status == EXIT_USAGE)
		fprintf(stderr, "Try '%s --help'.\n", progname);
	exit(status);
}

#define usage_error(...)	die(EXIT_USAGE, __VA_ARGS__)
#define kernel_error(...)	die(EXIT_KERNEL, __VA_ARGS__)

/* tracefs mounted (libtracefs mounts it if it can) and ftrace-mux there. */
static void require_mux(void)
{
	const char *dir = tracefs_tracing_dir();

	if (!dir)
		kernel_error("tracefs is not mounted and could not be mounted: %s",
			     strerror(errno ? errno : ENODEV));
	if (access(dir, R_OK | X_OK))
		kernel_error("cannot access %s: %s%s", dir, strerror(errno),
			     errno == EACCES ? " (permission denied: run as root)" : "");
	if (!tracefs_file_exists(NULL, "function_tracers"))
		kernel_error("this kernel has no ftrace-mux: %s/function_tracers does not exist",
			     dir);
}

static char *read_file(const char *file)
{
	char *buf;
	int size;

	errno = 0;
	buf = tracefs_instance_file_read(NULL, file, &size);
	if (!buf) {
		if (errno == EACCES || errno == EPERM)
			kernel_error("cannot read %s: permission denied (run as root)", file);
		/* an empty file reads as NULL */
		if (!errno || errno == ENODATA)
			return strdup("");
		kernel_error("cannot read %s: %s", file, strerror(errno));
	}
	return buf;
}

/* 0, or the errno of the kernel's refusal of @cmd */
static int try_write_file(const char *file, const char *cmd, bool append)
{
	int ret;

	errno = 0;
	ret = append ? tracefs_instance_file_append(NULL, file, cmd) :
		       tracefs_instance_file_write(NULL, file, cmd);
	if (ret >= 0)
		return 0;
	return errno ? errno : EINVAL;
}

/* Say that the kernel refused @cmd with @errnum, with its error_log line. */
static void __noreturn
report_refusal(const char *file, const char *cmd, int errnum)
{
	char *err;

	if (errnum == EACCES || errnum == EPERM)
		fprintf(stderr, "%s: %s: %s\n", progname, file, strerror(errnum));
	else
		fprintf(stderr, "%s: the kernel refused \"%s\": %s\n", progname, cmd,
			strerror(errnum));
	err = tracefs_error_last(NULL);
	if (err && *err)
		fprintf(stderr, "error_log: %s\n", err);
	free(err);
	exit(EXIT_KERNEL);
}

/* Write @cmd to @file; on a refusal, say so and exit. */
static void write_file(const char *file, const char *cmd, bool append)
{
	int err = try_write_file(file, cmd, append);

	if (err)
		report_refusal(file, cmd, err);
}

/* Does tracer @name belong to @instance (NULL: any)? */
static bool in_instance(const char *name, const char *instance)
{
	size_t n;

	if (!instance)
		return true;
	n = strlen(instance);
	return !strncmp(name, instance, n) && name[n] == ':';
}

/* Room for one more element at the end of *@arr, which holds @nr. */
static void *grow(void *arr, int nr, size_t size)
{
	arr = realloc(arr, (nr + 1) * size);
	if (!arr)
		kernel_error("out of memory");
	return arr;
}

struct tracers {
	struct mux_tracer *t;
	int nr;
	struct mux_ids ids;
	bool have_ids;
	struct mux_sets sets;
	bool have_sets;
};

static void load_tracers(struct tracers *tr)
{
	char *buf = read_file("function_tracers"), *line, *save = NULL;
	struct mux_tracer t;
	int ret;

	memset(tr, 0, sizeof(*tr));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct mux_ids ids;
		struct mux_sets sets;

		if (!mux_parse_ids_line(line, &ids)) {
			tr->ids = ids;
			tr->have_ids = true;
			continue;
		}
		if (!mux_parse_sets_line(line, &sets)) {
			tr->sets = sets;
			tr->have_sets = true;
			continue;
		}
		ret = mux_parse_tracer_line(line, &t);
		if (ret > 0)
			continue;
		if (ret < 0)
			kernel_error("cannot parse function_tracers line: %s", line);
		tr->t = grow(tr->t, tr->nr, sizeof(*tr->t));
		tr->t[tr->nr++] = t;
	}
	free(buf);
}

static int cmd_list(int argc, char **argv, const char *instance)
{
	bool json = false;
	struct tracers tr;
	int i, j, n = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else
			usage_error("list: unexpected argument '%s'", argv[i]);
	}
	require_mux();
	load_tracers(&tr);
	if (json) {
		printf("{\"tracers\": [");
		for (i = 0; i < tr.nr; i++) {
			struct mux_tracer *t = &tr.t[i];

			if (!in_instance(t->name, instance))
				continue;
			printf("%s\n  {\"name\": ", n++ ? "," : "");
			mux_json_string(stdout, t->name);
			if (t->id >= 0)
				printf(", \"id\": %d, \"functions\": %ld", t->id, t->functions);
			else
				printf(", \"id\": null, \"functions\": null");
			printf(", \"filter\": \"%s\", \"selected_by\": [",
			       t->own_filter ? "own" : "global");
			for (j = 0; j < t->nr_selectors; j++)
				printf("%s%d", j ? ", " : "", t->selectors[j]);
			printf("], \"flags\": ");
			mux_json_string(stdout, t->flags);
			printf("}");
		}
		printf("\n]");
		if (tr.have_ids)
			printf(
			       ", \"ids\": {\"in_use\": %u, \"draining\": %u, \"free\": %u, \"total\": %u, \"no_id\": %lu}",
			       tr.ids.in_use, tr.ids.draining, tr.ids.free, tr.ids.total,
			       tr.ids.no_id);
		printf("}\n");
	} else {
		printf("%-3s %-28s %9s  %-7s %s\n", "ID", "TRACER", "FUNCTIONS",
		       "FILTER", "SELECTED BY");
		for (i = 0; i < tr.nr; i++) {
			struct mux_tracer *t = &tr.t[i];
			char id[16] = "-", funcs[24] = "-";

			if (!in_instance(t->name, instance))
				continue;
			if (t->id >= 0) {
				snprintf(id, sizeof(id), "%d", t->id);
				snprintf(funcs, sizeof(funcs), "%ld", t->functions);
			}
			printf("%-3s %-28s %9s  %-7s", id, t->name, funcs,
			       t->own_filter ? "own" : "global");
			for (j = 0; j < t->nr_selectors; j++)
				printf("%s%d", j ? "," : " ", t->selectors[j]);
			printf("\n");
		}
	}
	free(tr.t);
	return 0;
}

/*
 * The entries of @name's filter (or notrace list), as function_filters
 * lists them, one "set" then "add"s that put them back; "reset" if none.
 */
static char **saved_entries(const char *name, bool notrace, int *nr)
{
	char *buf = read_file("function_filters"), *line, *save = NULL;
	char **cmds = NULL, tracer[MUX_NAME_MAX], func[256];
	enum mux_edit edit = MUX_EDIT_SET;

	*nr = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f = func;
		bool negated;

		if (sscanf(line, "[ %63[^]]] %255s", tracer, func) != 2 || strcmp(tracer, name))
			continue;
		negated = *f == '!';
		if (negated != notrace || !strcmp(f, "####"))
			continue;
		f += notrace;
		/* an entry of a module that went, no longer a function */
		if (!strncmp(f, "0x", 2))
			continue;
		cmds = realloc(cmds, (*nr + 1) * sizeof(*cmds));
		if (!cmds)
			kernel_error("out of memory");
		cmds[*nr] = malloc(512);
		if (!cmds[*nr])
			kernel_error("out of memory");
		if (mux_build_edit(cmds[*nr], 512, name, notrace, edit, f))
			continue;
		edit = MUX_EDIT_ADD;
		(*nr)++;
	}
	free(buf);
	return cmds;
}

static int cmd_filter(int argc, char **argv, const char *instance)
{
	enum mux_edit edit = MUX_EDIT_SET;
	const char *tracer = NULL, **pat;
	char name[MUX_NAME_MAX], cmd[512];
	bool notrace = false;
	int i, nr_pat = 0, nr_edit = 0;

	pat = calloc(argc, sizeof(*pat));
	if (!pat)
		kernel_error("out of memory");

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--notrace")) {
			notrace = true;
		} else if (!strcmp(argv[i], "--add")) {
			edit = MUX_EDIT_ADD;
			nr_edit++;
		} else if (!strcmp(argv[i], "--remove")) {
			edit = MUX_EDIT_REMOVE;
			nr_edit++;
		} else if (!strcmp(argv[i], "--reset")) {
			edit = MUX_EDIT_RESET;
			nr_edit++;
		} else if (argv[i][0] == '-' && argv[i][1] == '-') {
			usage_error("filter: unknown option '%s'", argv[i]);
		} else if (!tracer) {
			tracer = argv[i];
		} else {
			pat[nr_pat++] = argv[i];
		}
	}
	if (!tracer)
		usage_error("filter: no tracer named");
	if (nr_edit > 1)
		usage_error("filter: give at most one of --add, --remove, --reset");
	if (edit == MUX_EDIT_RESET ? nr_pat != 0 : nr_pat == 0)
		usage_error(edit == MUX_EDIT_RESET ? "filter --reset takes no pattern" :
			    "filter: no pattern given");
	if (mux_tracer_name(name, sizeof(name), instance, tracer) || !mux_valid_name(name))
		usage_error("filter: bad tracer name '%s'", tracer);

	/* Check every pattern before the first write. */
	for (i = 0; i < nr_pat; i++)
		if (mux_build_edit(cmd, sizeof(cmd), name, notrace, edit, pat[i]))
			usage_error("filter: bad pattern '%s'", pat[i]);
	require_mux();
	if (!tracefs_file_exists(NULL, "set_tracer_filter"))
		kernel_error("this kernel has no set_tracer_filter");
	if (edit == MUX_EDIT_RESET) {
		mux_build_edit(cmd, sizeof(cmd), name, notrace, edit, NULL);
		write_file("set_tracer_filter", cmd, false);
		return 0;
	}
	if (edit == MUX_EDIT_SET && nr_pat > 1) {
		char **old;
		int nr_old, err;

		/*
		 * One "set" replaces the list atomically; the rest are "add"s.
		 * If one of those is refused, the old list is put back, so the
		 * command changes all or nothing, as a write of the kernel.
		 */
		old = saved_entries(name, notrace, &nr_old);
		for (i = 0; i < nr_pat; i++) {
			mux_build_edit(cmd, sizeof(cmd), name, notrace,
				       i ? MUX_EDIT_ADD : MUX_EDIT_SET, pat[i]);
			err = try_write_file("set_tracer_filter", cmd, false);
			if (err)
				break;
		}
		if (i < nr_pat && i > 0) {
			char reset[512];

			mux_build_edit(reset, sizeof(reset), name, notrace, MUX_EDIT_RESET, NULL);
			try_write_file("set_tracer_filter", nr_old ? old[0] : reset, false);
			for (int k = 1; k < nr_old; k++)
				try_write_file("set_tracer_filter", old[k], false);
		}
		for (int k = 0; k < nr_old; k++)
			free(old[k]);
		free(old);
		if (i < nr_pat)
			report_refusal("set_tracer_filter", cmd, err);
		free(pat);
		return 0;
	}
	for (i = 0; i < nr_pat; i++) {
		mux_build_edit(cmd, sizeof(cmd), name, notrace, edit, pat[i]);
		write_file("set_tracer_filter", cmd, false);
	}
	free(pat);
	return 0;
}

struct sites {
	struct mux_site *s;
	int nr;
};

static void load_sites(struct sites *st)
{
	char *buf = read_file("enabled_functions"), *line, *save = NULL;
	struct mux_site s;
	int ret;

	memset(st, 0, sizeof(*st));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		ret = mux_parse_site_line(line, &s);
		if (ret < 0)
			kernel_error("cannot parse enabled_functions line: %s", line);
		if (ret > 0)		/* no mux column */
			continue;
		st->s = grow(st->s, st->nr, sizeof(*st->s));
		st->s[st->nr++] = s;
	}
	free(buf);
}

static void free_sites(struct sites *st)
{
	for (int i = 0; i < st->nr; i++)
		mux_site_free(&st->s[i]);
	free(st->s);
}

static void json_names(const char *names)
{
	char *copy = strdup(names), *tok, *save = NULL;
	int n = 0;

	if (!copy)
		kernel_error("out of memory");
	printf("[");
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		printf("%s", n++ ? ", " : "");
		mux_json_string(stdout, tok);
	}
	printf("]");
	free(copy);
}

static int cmd_show(int argc, char **argv, const char *instance)
{
	const char *tracer = NULL, *pattern = NULL;
	char name[MUX_NAME_MAX];
	struct sites st;
	bool json = false;
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--tracer") && i + 1 < argc)
			tracer = argv[++i];
		else if (argv[i][0] == '-')
			usage_error("show: unknown option '%s'", argv[i]);
		else if (!pattern)
			pattern = argv[i];
		else
			usage_error("show: one pattern at most");
	}
	if (tracer && (mux_tracer_name(name, sizeof(name), instance, tracer) ||
		       !mux_valid_name(name)))
		usage_error("show: bad tracer name '%s'", tracer);
	require_mux();
	load_sites(&st);
	if (!json)
		printf("%-40s %-8s %-7s %s\n", "FUNCTION", "MASK", "PATH", "TRACERS");
	else
		printf("{\"sites\": [");
	for (i = 0; i < st.nr; i++) {
		struct mux_site *s = &st.s[i];

		if (pattern && fnmatch(pattern, s->func, 0))
			continue;
		if (tracer && !mux_names_contain(s->names, name))
			continue;
		if (!tracer && instance) {
			/* any tracer of the instance */
			char *copy = strdup(s->names), *tok, *save = NULL;
			bool found = false;

			for (tok = strtok_r(copy, ",", &save); tok && !found;
			     tok = strtok_r(NULL, ",", &save))
				found = in_instance(tok, instance);
			free(copy);
			if (!found)
				continue;
		}
		if (json) {
			printf("%s\n  {\"function\": ", n++ ? "," : "");
			mux_json_string(stdout, s->func);
			printf(", \"module\": ");
			if (*s->module)
				mux_json_string(stdout, s->module);
			else
				printf("null");
			printf(", \"mask\": \"%s\", \"path\": ", s->mask);
			mux_json_string(stdout, s->path);
			printf(", \"regs\": %s, \"ops\": %lu, \"tracers\": ",
			       s->regs ? "true" : "false", s->count);
			json_names(s->names);
			printf("}");
		} else {
			char func[320];

			snprintf(func, sizeof(func), *s->module ? "%s [%s]" : "%s",
				 s->func, s->module);
			printf("%-40s %-8s %-7s %s%s\n", func, s->mask, s->path,
			       *s->names ? s->names : "-", s->regs ? " (regs)" : "");
			n++;
		}
	}
	if (json)
		printf("\n]}\n");
	free_sites(&st);
	return 0;
}

static const char *const paths[] = { "set", "tramp", "direct", "list", "detour" };
#define NR_PATHS ARRAY_SIZE(paths)

static int cmd_stat(int argc, char **argv, const char *instance)
{
	unsigned long per_path[NR_PATHS] = { }, other_paths = 0;
	struct tracers tr;
	struct sites st;
	bool json = false, have_detours;
	unsigned long detours = 0, detours_jump = 0;
	size_t p;
	int i;

	(void)instance;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else
			usage_error("stat: unexpected argument '%s'", argv[i]);
	}
	require_mux();
	load_tracers(&tr);
	load_sites(&st);
	for (i = 0; i < st.nr; i++) {
		for (p = 0; p < NR_PATHS; p++)
			if (!strcmp(st.s[i].path, paths[p]))
				break;
		if (p == NR_PATHS)
			other_paths++;
		else
			per_path[p]++;
	}
	have_detours = tracefs_file_exists(NULL, "detour_functions");
	if (have_detours) {
		char *buf = read_file("detour_functions"), *line, *save = NULL;

		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char sym[256], state[64];

			if (*line == '#')
				continue;
			detours++;
			/* "SYMBOL STATE [MODULE]": the state, not a symbol with "jump" in it */
			if (sscanf(line, "%255s %63s", sym, state) == 2 && !strcmp(state, "jump"))
				detours_jump++;
		}
		free(buf);
	}
	if (json) {
		printf("{\"ids\": ");
		if (tr.have_ids)
			printf(
			       "{\"in_use\": %u, \"draining\": %u, \"free\": %u, \"total\": %u, \"no_id\": %lu}",
			       tr.ids.in_use, tr.ids.draining, tr.ids.free, tr.ids.total,
			       tr.ids.no_id);
		else
			printf("null");
		printf(", \"tracers\": %d, \"sites\": {", tr.nr);
		for (p = 0; p < NR_PATHS; p++)
			printf("%s\"%s\": %lu", p ? ", " : "", paths[p], per_path[p]);
		printf("}, \"sets\": ");
		if (tr.have_sets)
			printf(
			       "{\"live\": %lu, \"freeing\": %lu, \"trampolines\": %lu, \"trampoline_bytes\": %lu, \"not_made\": %lu, \"trampolines_not_made\": %lu}",
			       tr.sets.live, tr.sets.freeing, tr.sets.tramps, tr.sets.bytes,
			       tr.sets.no_set, tr.sets.no_tramp);
		else
			printf("null");
		printf(", \"detours\": ");
		if (have_detours)
			printf("{\"total\": %lu, \"jump\": %lu, \"int3\": %lu}}\n",
			       detours, detours_jump, detours - detours_jump);
		else
			printf("null}\n");
	} else {
		if (tr.have_ids)
			printf(
			       "tracer IDs:   %u in use, %u draining, %u free of %u; %lu tracers started without one\n",
			       tr.ids.in_use, tr.ids.draining, tr.ids.free, tr.ids.total,
			       tr.ids.no_id);
		printf("tracers:      %d\n", tr.nr);
		printf("sites:       ");
		for (p = 0; p < NR_PATHS; p++)
			printf(" %s %lu", paths[p], per_path[p]);
		printf("\n");
		if (tr.have_sets)
			printf(
			       "sets:         %lu live, %lu freeing; %lu trampolines, %lu bytes; not made: %lu sets, %lu trampolines\n",
			       tr.sets.live, tr.sets.freeing, tr.sets.tramps, tr.sets.bytes,
			       tr.sets.no_set, tr.sets.no_tramp);
		if (have_detours)
			printf("detours:      %lu (%lu jump, %lu int3)\n", detours,
			       detours_jump, detours - detours_jump);
		else
			printf("detours:      not supported by this kernel\n");
	}
	free(tr.t);
	free_sites(&st);
	return 0;
}

/* Is @func ("FUNC" or "MODULE:FUNC") a function with an fentry call? */
static bool has_fentry(const char *func)
{
	const char *colon = strchr(func, ':');
	char *buf = read_file("available_filter_functions"), *line, *save = NULL;
	size_t modlen = colon ? (size_t)(colon - func) : 0;
	const char *name = colon ? colon + 1 : func;
	bool found = false;

	for (line = strtok_r(buf, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t n = strcspn(line, " ");

		if (n != strlen(name) || strncmp(line, name, n))
			continue;
		/* "name" for the kernel's, "name [module]" for a module's */
		found = colon ? line[n] == ' ' && !strncmp(line + n + 2, func, modlen) &&
				line[n + 2 + modlen] == ']' : line[n] == '\0';
	}
	free(buf);
	return found;
}

/*
 * detour inline: FUNCTION's detour unless it has an fentry call, and a
 * site for each inlined copy the debug info shows, in one write: the
 * kernel takes all or none.  --partial writes each on its own and says
 * which the kernel refused; --list-sites only prints the sites.
 */
static int cmd_detour_inline(int argc, char **argv)
{
	bool list = false, partial = false;
	const char *vmlinux = NULL, **funcs;
	size_t len = 1, i, refused = 0;
	char err[1024], *cmds, *p;
	struct mux_sites *sites;
	int a, f, nf = 0, ret;

	funcs = calloc(argc, sizeof(*funcs));
	if (!funcs)
		kernel_error("out of memory");
	for (a = 2; a < argc; a++) {
		if (!strcmp(argv[a], "--list-sites"))
			list = true;
		else if (!strcmp(argv[a], "--partial"))
			partial = true;
		else if (!strcmp(argv[a], "--vmlinux") && a + 1 < argc)
			vmlinux = argv[++a];
		else if (argv[a][0] == '-')
			usage_error("detour inline: unknown option '%s'", argv[a]);
		else if (!mux_valid_name(argv[a]) || strpbrk(argv[a], "@+"))
			usage_error("detour inline: bad function '%s'", argv[a]);
		else
			funcs[nf++] = argv[a];
	}
	if (!nf)
		usage_error("detour inline: no function given");
	require_mux();
	if (!list && !tracefs_file_exists(NULL, "detour_functions"))
		kernel_error("this kernel has no detours (no detour_functions in tracefs)");
	sites = calloc(nf, sizeof(*sites));
	if (!sites)
		kernel_error("out of memory");
	for (f = 0; f < nf; f++) {
		if (mux_sites_find(funcs[f], vmlinux, &sites[f], err, sizeof(err)))
			kernel_error("%s", err);
		for (i = 0; i < sites[f].nr; i++)
			len += strlen(sites[f].spec[i]) + 1;
		len += strlen(funcs[f]) + 1;
	}
	cmds = malloc(len);
	if (!cmds)
		kernel_error("out of memory");
	p = cmds;
	*p = '\0';
	for (f = 0; f < nf; f++) {
		if (list) {
			for (i = 0; i < sites[f].nr; i++)
				printf("%s\n", sites[f].spec[i]);
			continue;
		}
		/*
		 * The function itself first: a site needs its record.  Each
		 * command ends in a newline, so the kernel runs it in write()
		 * and can refuse it there.
		 */
		if (!has_fentry(funcs[f]))
			p += sprintf(p, "%s\n", funcs[f]);
		if (partial && *cmds) {
			write_file("detour_functions", cmds, true);
			p = cmds;
			*p = '\0';
		}
		for (i = 0; i < sites[f].nr; i++) {
			p += sprintf(p, "%s\n", sites[f].spec[i]);
			if (!partial)
				continue;
			ret = try_write_file("detour_functions", cmds, true);
			p = cmds;
			*p = '\0';
			if (ret) {
				char *e = tracefs_error_last(NULL);

				fprintf(stderr, "%s: refused %s: %s%s%s\n", progname,
					sites[f].spec[i], strerror(ret), e ? ": " : "", e ?: "");
				free(e);
				refused++;
			}
		}
	}
	if (!list && !partial && *cmds)
		write_file("detour_functions", cmds, true);
	if (partial && refused)
		fprintf(stderr, "%s: %zu site(s) refused, the others traced\n",
			progname, refused);
	for (f = 0; f < nf; f++)
		mux_sites_free(&sites[f]);
	free(sites);
	free(funcs);
	free(cmds);
	return 0;
}

static int cmd_detour(int argc, char **argv, const char *instance)
{
	char *cmds, *p;
	bool json = false;
	size_t len;
	int i;

	(void)instance;
	if (argc < 2)
		usage_error("detour: add, remove, list or inline");
	if (!strcmp(argv[1], "inline"))
		return cmd_detour_inline(argc, argv);
	if (!strcmp(argv[1], "list")) {
		for (i = 2; i < argc; i++) {
			if (!strcmp(argv[i], "--json"))
				json = true;
			else
				usage_error("detour list: unexpected argument '%s'", argv[i]);
		}
	} else if (!strcmp(argv[1], "add") || !strcmp(argv[1], "remove")) {
		if (argc < 3)
			usage_error("detour %s: no symbol given", argv[1]);
		for (i = 2; i < argc; i++)
			if (!mux_valid_name(argv[i]))
				usage_error("detour: bad symbol '%s'", argv[i]);
	} else {
		usage_error("detour: unknown subcommand '%s'", argv[1]);
	}
	require_mux();
	if (!tracefs_file_exists(NULL, "detour_functions"))
		kernel_error("this kernel has no detours (no detour_functions in tracefs)");
	if (!strcmp(argv[1], "list")) {
		char *buf = read_file("detour_functions"), *line, *save = NULL;
		int n = 0;

		if (json)
			printf("{\"detours\": [");
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char sym[256], state[64];

			if (*line == '#')
				continue;
			if (!json) {
				printf("%s\n", line);
				continue;
			}
			if (sscanf(line, "%255s %63s", sym, state) != 2)
				kernel_error("cannot parse detour_functions line: %s", line);
			printf("%s\n  {\"symbol\": ", n++ ? "," : "");
			mux_json_string(stdout, sym);
			printf(", \"state\": ");
			mux_json_string(stdout, state);
			printf("}");
		}
		if (json)
			printf("\n]}\n");
		free(buf);
		return 0;
	}
	/*
	 * One write, so the kernel takes all or none of them; terminated, so
	 * it acts on it (and can refuse it) in write().
	 */
	len = 0;
	for (i = 2; i < argc; i++)
		len += strlen(argv[i]) + 2;
	cmds = malloc(len + 1);
	if (!cmds)
		kernel_error("out of memory");
	for (p = cmds, i = 2; i < argc; i++)
		p += sprintf(p, "%s%s%c", argv[1][0] == 'r' ? "!" : "", argv[i],
			     i + 1 < argc ? ' ' : '\n');
	write_file("detour_functions", cmds, true);
	free(cmds);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv, const char *instance);
} commands[] = {
	{ "list", cmd_list },
	{ "filter", cmd_filter },
	{ "show", cmd_show },
	{ "stat", cmd_stat },
	{ "detour", cmd_detour },
};

int main(int argc, char **argv)
{
	const char *instance = NULL;
	size_t i;
	int arg = 1;

	while (arg < argc && argv[arg][0] == '-') {
		if (!strcmp(argv[arg], "--help") || !strcmp(argv[arg], "-h")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(argv[arg], "--instance") && arg + 1 < argc) {
			instance = argv[arg + 1];
			arg += 2;
		} else {
			usage_error("unknown option '%s'", argv[arg]);
		}
	}
	if (arg >= argc)
		usage_error("no command given");
	if (instance && (!mux_valid_name(instance) || strchr(instance, ':')))
		usage_error("bad instance name '%s'", instance);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (!strcmp(argv[arg], commands[i].name)) {
			if (instance && !tracefs_instance_exists(instance)) {
				require_mux();
				kernel_error("no trace instance named '%s'", instance);
			}
			return commands[i].fn(argc - arg, argv + arg, instance);
		}
	}
	if (!strcmp(argv[arg], "help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	usage_error("unknown command '%s'", argv[arg]);
	return EXIT_USAGE;
}
