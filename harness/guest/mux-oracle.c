// SPDX-License-Identifier: GPL-2.0
/*
 * mux-oracle SEED STEPS: random steps over the kernel's function tracers,
 * each followed by calls of a few target functions a known number of
 * times and a check of what every tracer saw against a model.
 *
 * The targets are system calls no other task of the guest makes; target
 * i is called 2i + 3 times after each step.  The tracers:
 *   - NI trace instances "mux_oracle_N", each with nop, function or
 *     function_graph and a filter and notrace list of its own: its
 *     buffer's lines for a target (function_graph: entry and return);
 *   - the top-level tracer (nop, function or function_graph) on the
 *     global filter;
 *   - the function profiler, on the global filter or (after
 *     set_tracer_filter gave it one) its own, shared again by writing
 *     !function_profile: its hit counts;
 *   - a kprobe event on each target, enabled or not: kprobe_profile.
 * Instances are made and removed on the way, and ftrace_enabled turned
 * off (no tracer sees a call) and on.  The model predicts from the
 * steps alone which tracer sees which target: a filter (never empty here,
 * so that no buffer overflows) less the notrace list.
 *
 * Each step and each mismatch is printed; the exit status is the number
 * of steps with a mismatch (at most 100), 101 on a failed write, 102 on a
 * setup error.  Replaying the same seed replays the same steps.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <unistd.h>

#define T		"/sys/kernel/tracing"
#define NI		6	/* instances */
#define MAXT		6	/* targets */

enum tracer { NOP, FUNCTION, GRAPH };
static const char *const tracer_name[] = { "nop", "function", "function_graph" };

struct inst {
	bool exists;
	enum tracer tracer;
	unsigned int filter, notrace;	/* masks over the targets */
};

static struct {
	struct inst inst[NI];
	enum tracer top;
	unsigned int gfilter, gnotrace;
	bool prof, prof_own;
	unsigned int pfilter, pnotrace;
	unsigned int kprobes;		/* enabled kprobe events */
	bool off;			/* ftrace_enabled is 0 */
} m;

/* Candidates: system calls nothing else in the guest makes */
static const struct {
	const char *func;
	long nr;
} cand[] = {
	{ "__x64_sys_getpgid", SYS_getpgid },
	{ "__x64_sys_getsid", SYS_getsid },
	{ "__x64_sys_getppid", SYS_getppid },
	{ "__x64_sys_getpriority", SYS_getpriority },
	{ "__x64_sys_times", SYS_times },
	{ "__x64_sys_getpgrp", SYS_getpgrp },
	{ "__x64_sys_sysinfo", SYS_sysinfo },
	{ "__x64_sys_umask", SYS_umask },
};
static int tgt[MAXT], nt;
static unsigned int all;
static unsigned long long seed, seed0;
static int step;

static unsigned int rnd(unsigned int n)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (seed >> 33) % n;
}

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("oracle: seed %llu step %d: ", seed0, step);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	exit(code);
}

/* Write @s to @path (truncating unless @append); 0 or -errno */
static int try_write(const char *path, const char *s, bool append)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static void put(const char *path, const char *s, bool append)
{
	int ret = try_write(path, s, append);

	if (ret)
		die(101, "writing \"%s\" to %s: %s", s, path, strerror(-ret));
}

static char *slurp(const char *path)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0 || !buf)
		die(102, "reading %s: %s", path, strerror(errno));
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				die(102, "out of memory");
		}
	}
	if (n < 0)
		die(102, "reading %s: %s", path, strerror(errno));
	close(fd);
	buf[len] = 0;
	return buf;
}

static int count(const char *text, const char *a, const char *b)
{
	char pat[128];
	int n = 0;

	snprintf(pat, sizeof(pat), "%s%s", a, b);
	for (const char *p = text; (p = strstr(p, pat)); p += strlen(pat))
		n++;
	return n;
}

static const char *fn(int i)
{
	return cand[tgt[i]].func;
}

static void idir(char *buf, size_t len, int i, const char *file)
{
	snprintf(buf, len, T "/instances/mux_oracle_%d/%s", i, file);
}

/* Write the targets of @mask to filter file @path, one write each */
static void put_mask(const char *path, unsigned int mask)
{
	bool first = true;

	if (!mask) {
		put(path, "", false);
		return;
	}
	for (int i = 0; i < nt; i++)
		if (mask & (1u << i)) {
			put(path, fn(i), !first);
			first = false;
		}
}

/* Like put_mask(), through set_tracer_filter for the profiler */
static void put_prof(const char *which, unsigned int mask)
{
	char line[256];
	bool first = true;

	if (!mask) {
		snprintf(line, sizeof(line), "function_profile %s reset", which);
		put(T "/set_tracer_filter", line, false);
		return;
	}
	for (int i = 0; i < nt; i++)
		if (mask & (1u << i)) {
			snprintf(line, sizeof(line), "function_profile %s %s %s",
				 which, first ? "set" : "add", fn(i));
			put(T "/set_tracer_filter", line, false);
			first = false;
		}
}

static unsigned int some(void)
{
	return 1 + rnd(all);		/* never empty */
}

static unsigned int any(void)
{
	return rnd(3) ? 0 : rnd(all + 1);	/* mostly empty */
}

static void inst_tracer(int i, enum tracer t)
{
	char p[256];

	idir(p, sizeof(p), i, "current_tracer");
	put(p, tracer_name[t], false);
	m.inst[i].tracer = t;
}

static void inst_filters(int i)
{
	char p[256];

	m.inst[i].filter = some();
	m.inst[i].notrace = any();
	idir(p, sizeof(p), i, "set_ftrace_filter");
	put_mask(p, m.inst[i].filter);
	idir(p, sizeof(p), i, "set_ftrace_notrace");
	put_mask(p, m.inst[i].notrace);
}

/* One random step; its description in @what */
static void do_step(char *what, size_t len)
{
	int i = rnd(NI), k = rnd(MAXT);
	char p[256];

	switch (rnd(10)) {
	case 0:
	case 1:		/* an instance: made, or its tracer changed */
		if (!m.inst[i].exists) {
			snprintf(p, sizeof(p), T "/instances/mux_oracle_%d", i);
			if (mkdir(p, 0755))
				die(101, "mkdir %s: %s", p, strerror(errno));
			m.inst[i] = (struct inst){ .exists = true };
			idir(p, sizeof(p), i, "buffer_size_kb");
			put(p, "64", false);
			idir(p, sizeof(p), i, "options/funcgraph-tail");
			put(p, "1", false);
			inst_filters(i);
			snprintf(what, len, "mkdir %d", i);
		} else {
			inst_tracer(i, rnd(3));
			snprintf(what, len, "instance %d %s", i,
				 tracer_name[m.inst[i].tracer]);
		}
		break;
	case 2:		/* an instance's filters, its tracer running or not */
		if (!m.inst[i].exists)
			goto top;
		inst_filters(i);
		snprintf(what, len, "instance %d filter %#x notrace %#x", i,
			 m.inst[i].filter, m.inst[i].notrace);
		break;
	case 3:		/* an instance removed, its tracer running or not */
		if (!m.inst[i].exists)
			goto top;
		snprintf(p, sizeof(p), T "/instances/mux_oracle_%d", i);
		if (rmdir(p))
			die(101, "rmdir %s: %s", p, strerror(errno));
		m.inst[i].exists = false;
		snprintf(what, len, "rmdir %d", i);
		break;
	case 4:
top:		/* the top-level tracer */
		m.top = rnd(3);
		put(T "/current_tracer", tracer_name[m.top], false);
		snprintf(what, len, "top %s", tracer_name[m.top]);
		break;
	case 5:		/* the global filter */
		m.gfilter = some();
		m.gnotrace = any();
		put_mask(T "/set_ftrace_filter", m.gfilter);
		put_mask(T "/set_ftrace_notrace", m.gnotrace);
		snprintf(what, len, "global filter %#x notrace %#x", m.gfilter,
			 m.gnotrace);
		break;
	case 6:		/* the profiler on or off */
		m.prof = !m.prof;
		put(T "/function_profile_enabled", m.prof ? "1" : "0", false);
		snprintf(what, len, "profiler %s", m.prof ? "on" : "off");
		break;
	case 7:		/* the profiler's own filter, or the global one again */
		if (!m.prof)
			goto top;
		if (m.prof_own && rnd(2)) {
			put(T "/function_tracers", "!function_profile", false);
			m.prof_own = false;
			snprintf(what, len, "profiler shares the global filter");
		} else {
			m.pfilter = some();
			m.pnotrace = any();
			put_prof("filter", m.pfilter);
			put_prof("notrace", m.pnotrace);
			m.prof_own = true;
			snprintf(what, len, "profiler filter %#x notrace %#x",
				 m.pfilter, m.pnotrace);
		}
		break;
	case 9:		/* function tracing as a whole off or on */
		m.off = !m.off;
		put("/proc/sys/kernel/ftrace_enabled", m.off ? "0" : "1", false);
		snprintf(what, len, "ftrace_enabled %d", !m.off);
		break;
	case 8:		/* a kprobe event on or off */
		k %= nt;
		m.kprobes ^= 1u << k;
		snprintf(p, sizeof(p), T "/events/mux_oracle/mux_oracle_k%d/enable", k);
		put(p, m.kprobes & (1u << k) ? "1" : "0", false);
		snprintf(what, len, "kprobe %d %s", k,
			 m.kprobes & (1u << k) ? "on" : "off");
		break;
	}
}

static unsigned int wants_global(void)
{
	return m.gfilter & ~m.gnotrace;
}

static int calls(int i)
{
	return 2 * i + 3;
}

static void call_targets(void)
{
	struct tms tms;
	struct sysinfo_buf { char b[512]; } si;

	for (int i = 0; i < nt; i++)
		for (int n = 0; n < calls(i); n++) {
			switch (cand[tgt[i]].nr) {
			case SYS_times:
				syscall(SYS_times, &tms);
				break;
			case SYS_sysinfo:
				syscall(SYS_sysinfo, &si);
				break;
			case SYS_getpriority:
				syscall(SYS_getpriority, PRIO_PROCESS, 0);
				break;
			case SYS_umask:
				syscall(SYS_umask, 022);
				break;
			default:
				syscall(cand[tgt[i]].nr, 0);
			}
		}
}

/* Hits of each target in the profiler's per-CPU tables: @hits[nt] */
static void profile_hits(long *hits)
{
	char path[64];

	memset(hits, 0, sizeof(*hits) * nt);
	for (int cpu = 0; ; cpu++) {
		char *text, *line, *save;

		snprintf(path, sizeof(path), T "/trace_stat/function%d", cpu);
		if (access(path, R_OK))
			break;
		text = slurp(path);
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char name[128];
			long h;

			if (sscanf(line, " %127s %ld", name, &h) != 2)
				continue;
			for (int i = 0; i < nt; i++)
				if (!strcmp(name, fn(i)))
					hits[i] += h;
		}
		free(text);
	}
}

/* kprobe_profile's hits of each event: @hits[nt] */
static void kprobe_hits(long *hits)
{
	char *text = slurp(T "/kprobe_profile"), *line, *save;

	memset(hits, 0, sizeof(*hits) * nt);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int k;
		long h;

		if (sscanf(line, " mux_oracle_k%d %ld", &k, &h) == 2 &&
		    k >= 0 && k < nt)
			hits[k] = h;
	}
	free(text);
}

static int mismatches;

static void expect(const char *who, int i, const char *what, long got, long want)
{
	if (got == want)
		return;
	printf("MISMATCH seed %llu step %d: %s %s of %s: %ld, expected %ld\n",
	       seed0, step, who, what, fn(i), got, want);
	mismatches++;
}

/* A function or function_graph buffer's counts of each target */
static void check_buffer(const char *who, const char *path, enum tracer t,
			 unsigned int wants)
{
	char *text = slurp(path);

	if (m.off)
		wants = 0;

	for (int i = 0; i < nt; i++) {
		long want = wants & (1u << i) ? calls(i) : 0;

		if (t == FUNCTION) {
			expect(who, i, "calls", count(text, fn(i), " <-"), want);
		} else {
			int leaf = count(text, fn(i), "();");

			expect(who, i, "entries", leaf + count(text, fn(i), "() {"), want);
			expect(who, i, "returns",
			       leaf + count(text, "} /* ", fn(i)), want);
		}
	}
	free(text);
}

/* Empty every buffer that will be read, call the targets, compare */
static int check(void)
{
	long p0[MAXT], p1[MAXT], k0[MAXT], k1[MAXT];
	char p[256], who[32];

	mismatches = 0;
	for (int i = 0; i < NI; i++)
		if (m.inst[i].exists) {
			idir(p, sizeof(p), i, "trace");
			put(p, "", false);
		}
	put(T "/trace", "", false);
	profile_hits(p0);
	kprobe_hits(k0);

	call_targets();

	for (int i = 0; i < NI; i++) {
		struct inst *in = &m.inst[i];

		if (!in->exists || in->tracer == NOP)
			continue;
		snprintf(who, sizeof(who), "instance %d (%s)", i,
			 tracer_name[in->tracer]);
		idir(p, sizeof(p), i, "trace");
		check_buffer(who, p, in->tracer, in->filter & ~in->notrace);
	}
	if (m.top != NOP)
		check_buffer(m.top == FUNCTION ? "top (function)" :
			     "top (function_graph)", T "/trace", m.top,
			     wants_global());
	profile_hits(p1);
	kprobe_hits(k1);
	for (int i = 0; i < nt; i++) {
		unsigned int w = m.prof_own ? m.pfilter & ~m.pnotrace :
					      wants_global();

		expect("profiler", i, "hits", p1[i] - p0[i],
		       !m.off && m.prof && (w & (1u << i)) ? calls(i) : 0);
		expect("kprobe", i, "hits", k1[i] - k0[i],
		       !m.off && m.kprobes & (1u << i) ? calls(i) : 0);
	}
	return mismatches;
}

/* Everything back as at boot: instances, events, filters, profiler */
static void reset(void)
{
	char p[256];

	for (int i = 0; i < NI; i++) {
		snprintf(p, sizeof(p), T "/instances/mux_oracle_%d", i);
		rmdir(p);
	}
	put("/proc/sys/kernel/ftrace_enabled", "1", false);
	put(T "/current_tracer", "nop", false);
	/* The profiler keeps a filter of its own over a restart */
	put(T "/function_profile_enabled", "1", false);
	try_write(T "/function_tracers", "!function_profile", false);
	put(T "/function_profile_enabled", "0", false);
	try_write(T "/events/mux_oracle/enable", "0", false);
	try_write(T "/kprobe_events", "", false);
	put(T "/set_ftrace_filter", "", false);
	put(T "/set_ftrace_notrace", "", false);
	put(T "/options/funcgraph-tail", "0", false);
}

int main(int argc, char **argv)
{
	int steps, bad = 0;
	char *avail, line[256], what[256];

	if (argc != 3) {
		fprintf(stderr, "usage: mux-oracle SEED STEPS\n");
		return 102;
	}
	seed = seed0 = strtoull(argv[1], NULL, 0);
	steps = atoi(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);

	avail = slurp(T "/available_filter_functions");
	for (size_t c = 0; c < sizeof(cand) / sizeof(cand[0]) && nt < MAXT; c++) {
		char pat[128];

		snprintf(pat, sizeof(pat), "\n%s\n", cand[c].func);
		if (strstr(avail, pat))
			tgt[nt++] = c;
	}
	free(avail);
	if (nt < 4)
		die(102, "only %d target functions in available_filter_functions", nt);
	all = (1u << nt) - 1;

	reset();
	for (int i = 0; i < nt; i++) {
		snprintf(line, sizeof(line), "p:mux_oracle/mux_oracle_k%d %s", i, fn(i));
		put(T "/kprobe_events", line, true);
	}
	/*
	 * A kprobe event between a graph entry and its return (the same
	 * buffer, the top one) splits the leaf line: name the "}" lines
	 */
	put(T "/options/funcgraph-tail", "1", false);
	m.gfilter = all;
	put_mask(T "/set_ftrace_filter", all);
	printf("oracle: seed %llu, %d steps, targets:", seed, steps);
	for (int i = 0; i < nt; i++)
		printf(" %s", fn(i));
	printf("\n");

	for (step = 1; step <= steps; step++) {
		do_step(what, sizeof(what));
		printf("step %d: %s\n", step, what);
		if (check() && ++bad >= 100)
			break;
	}
	reset();
	printf("oracle: %d steps, %d with a mismatch\n", step - 1, bad);
	return bad;
}
