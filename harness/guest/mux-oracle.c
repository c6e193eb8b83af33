// SPDX-License-Identifier: GPL-2.0
/*
 * mux-oracle SEED STEPS: random steps over the kernel's function tracers,
 * each followed by calls of a few target functions a known number of
 * times and a check of what every tracer saw against a model.
 *
 * The targets are system calls no other task of the guest makes; target
 * i is called 2i + 3 times after each step, the first half of the calls
 * on CPU 0 and the rest on CPU 1 when there are two.  The tracers:
 *   - NI trace instances "mux_oracle_N", each with nop, function or
 *     function_graph and a filter and notrace list of its own: its
 *     buffer's lines for a target (function_graph: entry and return);
 *   - the top-level tracer (nop, function or function_graph) on the
 *     global filter;
 *   - the function profiler, on the global filter or (after
 *     set_tracer_filter gave it one) its own, shared again by writing
 *     !function_profile: its hit counts;
 *   - a kprobe event on each target, enabled or not: kprobe_profile;
 *   - an fprobe entry and an fprobe exit event on each target, enabled
 *     or not: their lines in the top buffer;
 *   - counting tracers of the harness module (mux_harness, loaded and
 *     unloaded on the way), each on targets of its own, up to MAXC of
 *     them, past the IDs ftrace-mux has: each one's count;
 *   - the stack tracer on targets of its own, and the ftrace-direct
 *     sample's direct call (on wake_up_process): neither counts calls
 *     of the targets, so they are checked only for leaving the others'
 *     counts alone, and by the zero-effect check after the run;
 *   - on a kernel with BPF and livepatch (the distro-like one, where the
 *     guest has mux-bpf and livepatch-sample.ko): BPF fentry, fexit,
 *     fmod_ret (system calls only) and kprobe_multi programs on each
 *     target, attached and detached, through a mux-bpf loader per
 *     target: each program's count; and the livepatch sample, whose
 *     cmdline_proc_show() is then one more target (called by reading
 *     /proc/cmdline): every read must show the patched text while the
 *     patch is on and the original while it is off.  A patch cannot
 *     load while ftrace_enabled is 0, nor ftrace_enabled go to 0 while
 *     it is on (-EBUSY, FTRACE_OPS_FL_PERMANENT): both are expected;
 *   - where the kernel has detours, the detour test module
 *     (ftrace_mux_detour_test, loaded and unloaded on the way) gives two
 *     more targets: its fentry function ftrace_mux_fentry_target(), which
 *     filters can name while the module is loaded, and
 *     ftrace_mux_detour_target(), which has no fentry call and which
 *     filters can name while a detour (detour_functions, added and
 *     removed on the way) makes it traceable.  The instances, the
 *     top-level tracer, the profiler and the stack tracer take them in
 *     their filters; the events, BPF and the counting tracers (which
 *     filter by address) stay on the others.  A detour's removal leaves
 *     the filters' entries for it, which match it again once it is back;
 *     the module's removal makes them match nothing, ever (upstream's
 *     rule for a module's functions), but the filter is not empty.
 * Instances are made and removed on the way, and ftrace_enabled turned
 * off (no tracer sees a call) and on.  An instance's filter is written
 * through its own files, through set_tracer_filter, or through its
 * top-level files after selecting it in function_tracers; the
 * profiler's through set_tracer_filter or a selection.  The model
 * predicts from the steps alone which tracer sees which target: a filter
 * (never empty here, so that no buffer overflows) less the notrace list.
 *
 * Each step and each mismatch is printed.  A step is the values rnd()
 * drew for it, so a run is data: at the first mismatch the steps up to it
 * are shrunk (steps dropped while the rest, replayed from a fresh start,
 * still mismatch; at most MUX_ORACLE_SHRINK replayed steps, 2000 unless
 * set, 0: none) and printed as a line for
 *
 *   mux-oracle replay V,V,.../V,.../...
 *
 * which replays just those steps.  The exit status is the number of steps
 * with a mismatch (at most 100; 1 once shrunk, which ends the run), 101 on
 * a failed write, 102 on a setup error.  MUX_ORACLE_BREAK=1 breaks the
 * model on purpose (the profiler is expected to miss the first target
 * while an instance runs function_graph), so that the shrinking is tested.
 * MUX_ORACLE_ON_MISS=COMMAND runs COMMAND (a shell's) at a run's first
 * mismatch, while the state that made it is still there.
 * MUX_ORACLE_DETOURS=0 leaves the detour test module's targets out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
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
#include <sys/wait.h>
#include <unistd.h>

#define T		"/sys/kernel/tracing"
#define NI		6	/* instances */
#define NSYS		6	/* system calls among the targets */
#define MAXT		9	/* targets: those, cmdline_proc_show(), the
				   detour test module's two */
#define MAXC		300	/* counting tracers: past FTRACE_MUX_IDS (256) */
#define H		"/sys/module/mux_harness/parameters/"
#define DM		"ftrace_mux_detour_test"
#define DP		"/sys/module/" DM "/parameters/"
/* In a mask: filter entries a module's removal left, which match nothing */
#define DEAD		(1u << 31)

enum tracer { NOP, FUNCTION, GRAPH };
enum { FENTRY, FEXIT, MULTI, MODRET, NPROG };	/* BPF program kinds */
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
	unsigned int fentries, fexits;	/* enabled fprobe events */
	bool off;			/* ftrace_enabled is 0 */
	bool harness;			/* mux_harness is loaded */
	int nc;				/* its counting tracers */
	unsigned int cmask[MAXC];	/* the targets of each */
	bool stack, direct;		/* the stack tracer, ftrace-direct */
	unsigned int bpf[NPROG];	/* targets of each BPF program kind */
	bool klp;			/* the livepatch sample is on */
	bool dmod, detoured;		/* the detour test module, its detour */
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
	{ "cmdline_proc_show", -1 },	/* reading /proc/cmdline */
	/* The detour test module's, called through its parameters */
	{ "ftrace_mux_fentry_target", -2 },	/* bench_fentry=N */
	{ "ftrace_mux_detour_target", -3 },	/* bench=N, once detoured */
};
#define CMDLINE		-1
#define MOD_FENTRY	-2
#define MOD_DETOUR	-3
/*
 * Targets 0 to nb - 1 are the kernel's (base, a mask); then, where the
 * kernel has detours, the module's fentry function (tf) and its detour
 * (td), -1 otherwise
 */
static int tgt[MAXT], nt, nb, tf = -1, td = -1;
static unsigned int base;
static char step_miss[256];	/* found by a step itself, before its check */
static bool quiet;	/* shrinking: the tries print nothing */
static bool broken;	/* MUX_ORACLE_BREAK: the model wrong on purpose */
static char tgt_ip[MAXT][24];	/* call sites, for mux_harness' filters */
static unsigned int all;
static unsigned long long seed, seed0;
static int step;

/*
 * A step as data: what rnd() drew for it.  Replayed on another state (an
 * earlier step dropped) the same values may make another step, but the
 * run stays deterministic, which is all shrinking needs.
 */
#define MAXD		16
struct drawn {
	int n;
	unsigned int v[MAXD];
};
static struct drawn *rec;		/* the step being made, or NULL */
static const struct drawn *replaying;	/* the step being replayed */
static int replay_at;

static unsigned int rnd(unsigned int n)
{
	unsigned int v;

	if (replaying) {
		v = replay_at < replaying->n ? replaying->v[replay_at] : 0;
		replay_at++;
		return v % n;
	}
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	v = seed >> 33;
	if (rec) {		/* past MAXD: counted, and refused by main() */
		if (rec->n < MAXD)
			rec->v[rec->n] = v;
		rec->n++;
	}
	return v % n;
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

/*
 * A mismatch: printed (unless shrinking), counted, and the first of a
 * check kept, as what a shrunk run must still show
 */
static int mismatches;
static char first_miss[256];

static void miss(const char *fmt, ...)
{
	char text[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!mismatches++)
		snprintf(first_miss, sizeof(first_miss), "%s", text);
	if (quiet)
		return;
	printf("MISMATCH seed %llu step %d: %s\n", seed0, step, text);
	/* The state to look at, before the next step changes it */
	if (mismatches == 1 && getenv("MUX_ORACLE_ON_MISS")) {
		fflush(stdout);
		if (system(getenv("MUX_ORACLE_ON_MISS"))) {
		}
	}
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

/* All that @fd gives, then closed; EAGAIN (a drained trace_pipe) ends it */
static char *read_fd(int fd, const char *path)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
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
	if (n < 0 && errno != EAGAIN)
		die(102, "reading %s: %s", path, strerror(errno));
	close(fd);
	buf[len] = 0;
	return buf;
}

static char *slurp(const char *path)
{
	return read_fd(open(path, O_RDONLY), path);
}

/*
 * What buffer @dir holds, consumed through its trace_pipe: emptying it
 * through "trace" would wait for an RCU grace period each time
 */
static char *drain(const char *dir)
{
	char path[320];	/* @dir is at most 256 */

	snprintf(path, sizeof(path), "%s/trace_pipe", dir);
	return read_fd(open(path, O_RDONLY | O_NONBLOCK), path);
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

/* Like put_mask(), through set_tracer_filter for tracer @name */
static void put_edit(const char *name, const char *which, unsigned int mask)
{
	char line[256];
	bool first = true;

	if (!mask) {
		snprintf(line, sizeof(line), "%s %s reset", name, which);
		put(T "/set_tracer_filter", line, false);
		return;
	}
	for (int i = 0; i < nt; i++)
		if (mask & (1u << i)) {
			snprintf(line, sizeof(line), "%s %s %s %s", name,
				 which, first ? "set" : "add", fn(i));
			put(T "/set_tracer_filter", line, false);
			first = false;
		}
}

/*
 * Tracer @name's filter and notrace list through one of the three ways
 * (@files: its instance's own files, or NULL; @running: it can be
 * selected, which needs it running); returns the way taken
 */
static const char *put_filters(const char *name, const char *files,
			       bool running, unsigned int filter,
			       unsigned int notrace)
{
	char p[256];
	int way = rnd(3);

	if (!files && way == 2)
		way = rnd(2);
	if (!running && way == 1)
		way = files ? 2 : 0;
	switch (way) {
	case 0:
		put_edit(name, "filter", filter);
		put_edit(name, "notrace", notrace);
		return "set_tracer_filter";
	case 1:		/* this process's top-level files edit @name's */
		put(T "/function_tracers", name, false);
		put_mask(T "/set_ftrace_filter", filter);
		put_mask(T "/set_ftrace_notrace", notrace);
		put(T "/function_tracers", "function", false);
		return "selection";
	}
	snprintf(p, sizeof(p), "%s/set_ftrace_filter", files);
	put_mask(p, filter);
	snprintf(p, sizeof(p), "%s/set_ftrace_notrace", files);
	put_mask(p, notrace);
	return "its files";
}

static unsigned int bit(int i)
{
	return i < 0 ? 0 : 1u << i;
}

/* The targets that have a record, so that filters can name them */
static unsigned int live(void)
{
	return base | (m.dmod ? bit(tf) : 0) |
	       (m.dmod && m.detoured ? bit(td) : 0);
}

static unsigned int some(void)
{
	unsigned int v = (1 + rnd(all)) & live();

	return v ? v : 1;		/* never empty */
}

static unsigned int any(void)
{
	return rnd(3) ? 0 : rnd(all + 1) & live();	/* mostly empty */
}

static void inst_tracer(int i, enum tracer t)
{
	char p[256];

	idir(p, sizeof(p), i, "current_tracer");
	put(p, tracer_name[t], false);
	m.inst[i].tracer = t;
}

/*
 * An instance's filters, which its function and function_graph tracers
 * share (the graph tracer's ops point at the function tracer's hashes):
 * "NAME:function" or, while it runs, "NAME:function_graph" edits them
 */
static const char *inst_filters(int i)
{
	enum tracer t = m.inst[i].tracer;
	char name[64], dir[128];

	m.inst[i].filter = some();
	m.inst[i].notrace = any();
	snprintf(name, sizeof(name), "mux_oracle_%d:%s", i,
		 t == GRAPH ? "function_graph" : "function");
	snprintf(dir, sizeof(dir), T "/instances/mux_oracle_%d", i);
	return put_filters(name, dir, t != NOP, m.inst[i].filter,
			   m.inst[i].notrace);
}

/* The harness module's counters: one more on @mask, @n times */
static void add_counters(unsigned int mask, int n)
{
	char line[256] = "", num[16];

	for (int i = 0; i < nb; i++)
		if (mask & (1u << i)) {
			strcat(line, tgt_ip[i]);
			strcat(line, " ");
		}
	put(H "counter_ips", "\n", false);	/* "" would not reach it */
	put(H "counter_ips", line, false);
	snprintf(num, sizeof(num), "%d", n);
	put(H "counters", num, false);
	while (n--)
		m.cmask[m.nc++] = mask;
}

static void run(const char *cmd)
{
	int ret = system(cmd);

	if (ret)
		die(101, "%s: status %d", cmd, ret);
}

/* The counting tracers of the harness module: loaded, added, removed */
static void counters_step(char *what, size_t len)
{
	/* They filter by address: on the kernel's targets */
	unsigned int mask = some() & base ?: 1;
	int n;

	if (!m.harness) {
		run("modprobe mux_harness");
		m.harness = true;
		m.nc = 0;
		snprintf(what, len, "modprobe mux_harness");
		return;
	}
	switch (rnd(8)) {
	case 0:		/* its tracers stop as it goes */
		run("rmmod mux_harness");
		m.harness = false;
		m.nc = 0;
		snprintf(what, len, "rmmod mux_harness");
		return;
	case 1:
		put(H "counters", "0", false);
		m.nc = 0;
		snprintf(what, len, "counters off");
		return;
	case 2:		/* many at once: past the IDs in a few steps */
		n = MAXC - m.nc < 100 ? MAXC - m.nc : 100;
		break;
	default:
		n = m.nc < MAXC;
	}
	if (!n) {
		snprintf(what, len, "counters: %d already", m.nc);
		return;
	}
	add_counters(mask, n);
	snprintf(what, len, "counters +%d on %#x (%d)", n, mask, m.nc);
}

/* Event mux_oracle_<@kind><@k> flipped, on or off as bit @k of *@mask */
static void toggle_event(unsigned int *mask, char kind, int k,
			 const char *label, char *what, size_t len)
{
	char p[256];

	*mask ^= 1u << k;
	snprintf(p, sizeof(p), T "/events/mux_oracle/mux_oracle_%c%d/enable",
		 kind, k);
	put(p, *mask & (1u << k) ? "1" : "0", false);
	snprintf(what, len, "%s %d %s", label, k,
		 *mask & (1u << k) ? "on" : "off");
}

/*
 * BPF programs and the livepatch sample (the distro-like kernel).  One
 * mux-bpf loader a target, started at its first BPF step: it loads the
 * four programs for the target and attaches or detaches each on command
 * (harness/guest/bpf/mux-bpf.c).
 */
static const char *const prog_name[] = { "fentry", "fexit", "multi", "fmod_ret" };
#define KLP		"/sys/kernel/livepatch/livepatch_sample"
#define PATCHED		"this has been live patched"

static bool have_bpf;
static bool have_dmod;		/* detours, and their test module */
static char klp_ko[256];		/* livepatch-sample.ko, or "" */
static struct {
	pid_t pid;
	FILE *in, *out;
} ld[MAXT];
static int patched_reads, plain_reads;	/* of /proc/cmdline, in a check */

static bool is_syscall(int i)
{
	return cand[tgt[i]].nr >= 0;
}

static bool is_cmdline(int i)
{
	return cand[tgt[i]].nr == CMDLINE;
}

/* A line from target @i's loader for command @cmd */
static void loader_ask(int i, const char *cmd, char *ans, size_t len)
{
	if (fprintf(ld[i].in, "%s\n", cmd) < 0 || fflush(ld[i].in) ||
	    !fgets(ans, len, ld[i].out))
		die(102, "mux-bpf %s: no answer to %s", fn(i), cmd);
}

static void loader_start(int i)
{
	int to[2], from[2];

	if (ld[i].pid)
		return;
	/* Close-on-exec: another loader holding this one's input open would
	 * keep it from ever seeing its end */
	if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC))
		die(102, "pipe: %s", strerror(errno));
	ld[i].pid = fork();
	if (ld[i].pid < 0)
		die(102, "fork: %s", strerror(errno));
	if (!ld[i].pid) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		/* fmod_ret loads only on functions open to error injection */
		execlp("mux-bpf", "mux-bpf", fn(i), is_syscall(i) ? "fmod_ret" : NULL,
		       (char *)NULL);
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	ld[i].in = fdopen(to[1], "w");
	ld[i].out = fdopen(from[0], "r");
	if (!ld[i].in || !ld[i].out)
		die(102, "fdopen: %s", strerror(errno));
}

/* Each loaded program's calls since the last ask: @got[i][NPROG] */
static void bpf_counts(long got[][NPROG])
{
	char ans[256];

	for (int i = 0; i < nt; i++) {
		memset(got[i], 0, sizeof(got[i]));
		if (!ld[i].pid)
			continue;
		loader_ask(i, "count", ans, sizeof(ans));
		if (sscanf(ans, "fentry %ld fexit %ld multi %ld fmod_ret %ld",
			   &got[i][FENTRY], &got[i][FEXIT], &got[i][MULTI],
			   &got[i][MODRET]) != 4)
			die(102, "mux-bpf %s: count: %s", fn(i), ans);
	}
}

/* A BPF program on target @i attached or detached */
static void bpf_step(int i, char *what, size_t len)
{
	int p = rnd(NPROG);
	char cmd[64], ans[256];

	if (p == MODRET && !is_syscall(i))
		p = FENTRY;
	loader_start(i);
	m.bpf[p] ^= 1u << i;
	snprintf(cmd, sizeof(cmd), "%s %s", m.bpf[p] & (1u << i) ? "attach" : "detach",
		 prog_name[p]);
	loader_ask(i, cmd, ans, sizeof(ans));
	if (strcmp(ans, "ok\n"))
		die(101, "mux-bpf %s: %s: %s", fn(i), cmd, ans);
	snprintf(what, len, "bpf %s %s", cmd, fn(i));
}

/* Wait up to 60 s for shell condition @cond */
static bool wait_for(const char *cond)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "i=0; until %s; do i=$((i + 1)); [ $i -gt 600 ] && exit 1; sleep 0.1; done",
		 cond);
	return !system(cmd);
}

static void klp_off(void)
{
	put(KLP "/enabled", "0", false);
	if (!wait_for("[ ! -e " KLP " ]"))
		die(101, "the livepatch did not go away");
	run("rmmod livepatch_sample");
}

/*
 * The livepatch sample loaded or removed.  It registers a PERMANENT
 * ftrace_ops, which cannot come while ftrace_enabled is 0: then the
 * load must fail, and nothing change.
 */
static void klp_step(char *what, size_t len)
{
	char cmd[320];

	if (m.klp) {
		klp_off();
		m.klp = false;
		snprintf(what, len, "livepatch off");
		return;
	}
	snprintf(cmd, sizeof(cmd), "insmod %s 2>/dev/null", klp_ko);
	if (system(cmd)) {
		if (!m.off)
			die(101, "insmod livepatch-sample failed");
		snprintf(what, len, "livepatch refused: ftrace_enabled is 0");
		return;
	}
	if (m.off) {
		snprintf(step_miss, sizeof(step_miss),
			 "livepatch loaded while ftrace_enabled is 0");
		klp_off();
		snprintf(what, len, "livepatch loaded, ftrace_enabled 0 (wrong)");
		return;
	}
	if (!wait_for("[ \"$(cat " KLP "/transition)\" = 0 ]"))
		die(101, "the livepatch did not finish its transition");
	m.klp = true;
	snprintf(what, len, "livepatch on");
}

/* @mask's entries for @gone now match nothing, but are still there */
static void forget(unsigned int *mask, unsigned int gone)
{
	if (*mask & gone)
		*mask = (*mask & ~gone) | DEAD;
}

/* The detour test module loaded or removed, its detour added or removed */
static void dmod_step(char *what, size_t len)
{
	char line[128];

	if (!m.dmod) {
		run("modprobe " DM);
		m.dmod = true;
		m.detoured = false;
		snprintf(what, len, "modprobe " DM);
		return;
	}
	if (!rnd(3)) {
		unsigned int gone = bit(tf) | bit(td);

		/* Its detour goes with it, and its entries in the filters */
		run("rmmod " DM);
		m.dmod = m.detoured = false;
		for (int i = 0; i < NI; i++) {
			forget(&m.inst[i].filter, gone);
			forget(&m.inst[i].notrace, gone);
		}
		forget(&m.gfilter, gone);
		forget(&m.gnotrace, gone);
		forget(&m.pfilter, gone);
		forget(&m.pnotrace, gone);
		snprintf(what, len, "rmmod " DM);
		return;
	}
	m.detoured = !m.detoured;
	snprintf(line, sizeof(line), "%s%s\n", m.detoured ? "" : "!", fn(td));
	put(T "/detour_functions", line, true);
	snprintf(what, len, "detour %s %s", fn(td), m.detoured ? "added" : "removed");
}

/* One random step; its description in @what */
static void do_step(char *what, size_t len)
{
	int i = rnd(NI), k = rnd(nb);
	bool distro = have_bpf || *klp_ko;
	/* 0-13 everywhere, 14-16 the distro-like kernel's, 17-18 detours' */
	int kind = rnd(14 + (distro ? 3 : 0) + (td >= 0 ? 2 : 0));
	char p[256];

	if (kind >= 14 && !distro)
		kind += 3;
	switch (kind) {
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
			snprintf(what, len, "mkdir %d, filters through %s", i,
				 inst_filters(i));
		} else {
			inst_tracer(i, rnd(3));
			snprintf(what, len, "instance %d %s", i,
				 tracer_name[m.inst[i].tracer]);
		}
		break;
	case 2:		/* an instance's filters, its tracer running or not */
		if (!m.inst[i].exists)
			goto top;
		snprintf(what, len, "instance %d filter %#x notrace %#x through %s",
			 i, m.inst[i].filter, m.inst[i].notrace, inst_filters(i));
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
			m.prof_own = true;
			snprintf(what, len, "profiler filter %#x notrace %#x through %s",
				 m.pfilter, m.pnotrace,
				 put_filters("function_profile", NULL, true,
					     m.pfilter, m.pnotrace));
		}
		break;
	case 9:		/* function tracing as a whole off or on */
		if (!m.off && m.klp) {	/* the patch's ops is PERMANENT */
			int ret = try_write("/proc/sys/kernel/ftrace_enabled", "0", false);

			if (ret != -EBUSY)
				die(101, "ftrace_enabled 0 under a livepatch: %s",
				    ret ? strerror(-ret) : "taken");
			snprintf(what, len, "ftrace_enabled 0 refused: a livepatch is on");
			break;
		}
		m.off = !m.off;
		put("/proc/sys/kernel/ftrace_enabled", m.off ? "0" : "1", false);
		snprintf(what, len, "ftrace_enabled %d", !m.off);
		break;
	case 8:		/* a kprobe event on or off */
		toggle_event(&m.kprobes, 'k', k, "kprobe", what, len);
		break;
	case 10:	/* an fprobe event, entry or exit, on or off */
		if (rnd(2))
			toggle_event(&m.fentries, 'f', k, "fprobe", what, len);
		else
			toggle_event(&m.fexits, 'r', k, "fprobe %return", what, len);
		break;
	case 11:
	case 12:
		counters_step(what, len);
		break;
	case 13:	/* the stack tracer, or the direct call sample */
		if (rnd(2)) {
			m.stack = !m.stack;
			if (m.stack)
				put_mask(T "/stack_trace_filter", some());
			put("/proc/sys/kernel/stack_tracer_enabled",
			    m.stack ? "1" : "0", false);
			snprintf(what, len, "stack tracer %s", m.stack ? "on" : "off");
		} else {
			m.direct = !m.direct;
			run(m.direct ? "modprobe ftrace-direct" : "rmmod ftrace-direct");
			snprintf(what, len, "ftrace-direct %s", m.direct ? "in" : "out");
		}
		break;
	case 14:	/* the distro-like kernel's: BPF, livepatch */
	case 15:
	case 16:
		if (*klp_ko && (!have_bpf || !rnd(3)))
			klp_step(what, len);
		else if (have_bpf)
			bpf_step(k, what, len);
		break;
	case 17:	/* the detour test module and its detour */
	case 18:
		dmod_step(what, len);
		break;
	}
}

static unsigned int wants_global(void)
{
	return m.gfilter & ~m.gnotrace & live();
}

static int calls(int i)
{
	if ((i == tf || i == td) && !m.dmod)
		return 0;
	return 2 * i + 3;
}

static int ncpus;

/* Move to CPU @cpu (of the first two): the sites serve every CPU */
static void on_cpu(int cpu)
{
	cpu_set_t set;

	if (ncpus < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die(102, "sched_setaffinity: %s", strerror(errno));
}

/* One read of /proc/cmdline: one call of cmdline_proc_show() */
static void read_cmdline(void)
{
	char *text = slurp("/proc/cmdline");

	if (strstr(text, PATCHED))
		patched_reads++;
	else
		plain_reads++;
	free(text);
}

/* The module's target @i called @n times, by the writing CPU */
static void module_calls(int i, int n)
{
	char num[16];

	snprintf(num, sizeof(num), "%d", n);
	put(cand[tgt[i]].nr == MOD_FENTRY ? DP "bench_fentry" : DP "bench",
	    num, false);
}

/* Target i's calls, the first half on CPU 0, the rest on CPU 1 */
static void call_targets(void)
{
	struct tms tms;
	struct sysinfo_buf { char b[512]; } si;

	for (int i = 0; i < nt; i++) {
		if (i == tf || i == td) {
			if (!calls(i))
				continue;
			on_cpu(0);
			module_calls(i, calls(i) / 2);
			on_cpu(1);
			module_calls(i, calls(i) - calls(i) / 2);
			continue;
		}
		for (int n = 0; n < calls(i); n++) {
			if (n == 0 || n == calls(i) / 2)
				on_cpu(n != 0);
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
			case CMDLINE:
				read_cmdline();
				break;
			default:
				syscall(cand[tgt[i]].nr, 0);
			}
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

/* Per target, the checks in which some tracer should see its calls */
static long seen[MAXT];

static void expect(const char *who, int i, const char *what, long got, long want)
{
	if (!quiet)
		seen[i] += want > 0;
	if (got != want)
		miss("%s %s of %s: %ld, expected %ld", who, what, fn(i), got, want);
}

/* A function or function_graph buffer's counts of each target */
static void check_buffer(const char *who, const char *text, enum tracer t,
			 unsigned int wants)
{
	wants &= live();
	if (m.off)
		wants = 0;

	for (int i = 0; i < nt; i++) {
		long want = wants & (1u << i) ? calls(i) : 0;
		char name[96];
		int leaf;

		if (t == FUNCTION) {
			expect(who, i, "calls", count(text, fn(i), " <-"), want);
			continue;
		}
		/* function_graph names a module's function with its module */
		snprintf(name, sizeof(name), "%s%s", fn(i),
			 i == tf || i == td ? " [" DM "]" : "");
		leaf = count(text, name, "();");

		expect(who, i, "entries", leaf + count(text, name, "() {"), want);
		expect(who, i, "returns", leaf + count(text, "} /* ", name), want);
	}
}

/* Each counting tracer's calls so far: @got[m.nc] */
static void counter_calls(long *got)
{
	char *text, *s;

	if (!m.nc)
		return;
	text = slurp(H "counters");
	s = text;
	for (int c = 0; c < m.nc; c++) {
		char *end;

		got[c] = strtol(s, &end, 10);
		if (end == s)
			die(102, "counters: %d of %d", c, m.nc);
		s = end;
	}
	free(text);
}

/* An instance runs function_graph: when MUX_ORACLE_BREAK breaks the model */
static bool graph_instance(void)
{
	for (int i = 0; i < NI; i++)
		if (m.inst[i].exists && m.inst[i].tracer == GRAPH)
			return true;
	return false;
}

/* Empty every buffer that will be read, call the targets, compare */
static int check(void)
{
	long p0[MAXT], p1[MAXT], k0[MAXT], k1[MAXT], c0[MAXC], c1[MAXC];
	long b1[MAXT][NPROG];
	char p[256], who[32], *text;

	mismatches = 0;
	if (*step_miss) {
		miss("%s", step_miss);
		*step_miss = 0;
	}
	for (int i = 0; i < NI; i++)
		if (m.inst[i].exists) {
			snprintf(p, sizeof(p), T "/instances/mux_oracle_%d", i);
			free(drain(p));
		}
	free(drain(T));
	profile_hits(p0);
	kprobe_hits(k0);
	counter_calls(c0);
	bpf_counts(b1);		/* zeroes them */
	patched_reads = plain_reads = 0;

	call_targets();

	for (int i = 0; i < NI; i++) {
		struct inst *in = &m.inst[i];

		if (!in->exists || in->tracer == NOP)
			continue;
		snprintf(who, sizeof(who), "instance %d (%s)", i,
			 tracer_name[in->tracer]);
		snprintf(p, sizeof(p), T "/instances/mux_oracle_%d", i);
		text = drain(p);
		check_buffer(who, text, in->tracer, in->filter & ~in->notrace);
		free(text);
	}
	text = drain(T);
	if (m.top != NOP)
		check_buffer(m.top == FUNCTION ? "top (function)" :
			     "top (function_graph)", text, m.top,
			     wants_global());
	if (m.fentries | m.fexits) {
		char pat[32];

		for (int i = 0; i < nt; i++) {
			snprintf(pat, sizeof(pat), "mux_oracle_f%d: (", i);
			expect("fprobe", i, "entries", count(text, pat, ""),
			       !m.off && m.fentries & (1u << i) ? calls(i) : 0);
			snprintf(pat, sizeof(pat), "mux_oracle_r%d: (", i);
			expect("fprobe", i, "returns", count(text, pat, ""),
			       !m.off && m.fexits & (1u << i) ? calls(i) : 0);
		}
	}
	free(text);
	counter_calls(c1);
	for (int c = 0; c < m.nc; c++) {
		long want = 0;

		for (int i = 0; i < nt; i++)
			if (!m.off && m.cmask[c] & (1u << i))
				want += calls(i);
		if (c1[c] - c0[c] != want)
			miss("counter %d of %d (targets %#x) calls: %ld, expected %ld",
			     c, m.nc, m.cmask[c], c1[c] - c0[c], want);
	}
	profile_hits(p1);
	kprobe_hits(k1);
	bpf_counts(b1);
	for (int i = 0; i < nt; i++) {
		for (int b = 0; b < NPROG; b++)
			if (ld[i].pid)
				expect(prog_name[b], i, "BPF calls", b1[i][b],
				       !m.off && m.bpf[b] & (1u << i) ? calls(i) : 0);
		if (is_cmdline(i)) {
			expect("livepatch", i, "patched reads", patched_reads,
			       m.klp ? calls(i) : 0);
			expect("livepatch", i, "original reads", plain_reads,
			       m.klp ? 0 : calls(i));
		}
		unsigned int w = m.prof_own ? m.pfilter & ~m.pnotrace & live() :
					      wants_global();

		if (broken && i == 0 && graph_instance())
			w = 0;
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
	try_write(T "/dynamic_events", "", false);
	try_write("/proc/sys/kernel/stack_tracer_enabled", "0", false);
	try_write(T "/stack_trace_filter", "", false);
	/* Not loaded at the start: an error, and nothing to do */
	try_write(T "/detour_functions", "\n", false);
	if (system("rmmod mux_harness 2>/dev/null; rmmod ftrace-direct 2>/dev/null; "
		   "rmmod " DM " 2>/dev/null")) {
	}
	/* A loader detaches its programs and ends at the end of its input */
	for (int i = 0; i < MAXT; i++)
		if (ld[i].pid) {
			fclose(ld[i].in);
			fclose(ld[i].out);
			waitpid(ld[i].pid, NULL, 0);
			ld[i].pid = 0;
		}
	if (!access(KLP, F_OK))
		klp_off();
	m.harness = m.direct = false;
	m.nc = 0;
	put(T "/set_ftrace_filter", "", false);
	put(T "/set_ftrace_notrace", "", false);
	put(T "/options/funcgraph-tail", "0", false);
}

/* Where module @name.ko is under /lib/modules, in @path; "" if nowhere */
static void module_path(const char *name, char *path, size_t len)
{
	char cmd[128];
	FILE *f;

	*path = 0;
	snprintf(cmd, sizeof(cmd), "find /lib/modules -name %s.ko", name);
	f = popen(cmd, "r");
	if (f && fgets(path, len, f))
		path[strcspn(path, "\n")] = 0;
	if (f)
		pclose(f);
}

/*
 * BPF's loader and the livepatch sample, where the guest has them; the
 * detour test module, where the kernel has detours
 */
static void find_distro(void)
{
	const char *detours = getenv("MUX_ORACLE_DETOURS");
	char dmod_ko[256];

	/* MUX_ORACLE_DETOURS=0: without them (their open finds, testing.md) */
	module_path(DM, dmod_ko, sizeof(dmod_ko));
	have_dmod = !access(T "/detour_functions", W_OK) && *dmod_ko &&
		    !(detours && !strcmp(detours, "0"));
	have_bpf = !system("command -v mux-bpf > /dev/null");
	module_path("livepatch-sample", klp_ko, sizeof(klp_ko));
}

/* The targets: the candidates the kernel can trace, and their sites */
static void find_targets(void)
{
	char *avail = slurp(T "/available_filter_functions");

	for (size_t c = 0; c < sizeof(cand) / sizeof(cand[0]); c++) {
		char pat[128];

		if (cand[c].nr == CMDLINE ? !*klp_ko : cand[c].nr >= 0 && nt == NSYS)
			continue;
		if (cand[c].nr < CMDLINE) {
			/* Not yet loaded: the module's targets, if detours are there */
			if (have_dmod)
				tgt[nt++] = c;
			continue;
		}
		snprintf(pat, sizeof(pat), "\n%s\n", cand[c].func);
		if (strstr(avail, pat))
			tgt[nt++] = c;
	}
	free(avail);
	nb = nt - (have_dmod ? 2 : 0);
	if (nb < 4)
		die(102, "only %d target functions in available_filter_functions", nb);
	for (int i = nb; i < nt; i++)
		*(cand[tgt[i]].nr == MOD_FENTRY ? &tf : &td) = i;
	all = (1u << nt) - 1;
	base = (1u << nb) - 1;

	avail = slurp(T "/available_filter_functions_addrs");
	for (int i = 0; i < nb; i++) {
		char pat[128], *at;

		snprintf(pat, sizeof(pat), " %s\n", fn(i));
		at = strstr(avail, pat);
		if (!at)
			die(102, "%s not in available_filter_functions_addrs", fn(i));
		while (at > avail && at[-1] != '\n')
			at--;
		snprintf(tgt_ip[i], sizeof(tgt_ip[i]), "%.*s",
			 (int)strcspn(at, " "), at);
	}
	free(avail);
}

/* A fresh start, kernel and model: the first step of every run and replay */
static void start(void)
{
	char line[256];

	reset();
	memset(&m, 0, sizeof(m));
	for (int i = 0; i < nb; i++) {
		snprintf(line, sizeof(line), "p:mux_oracle/mux_oracle_k%d %s", i, fn(i));
		put(T "/kprobe_events", line, true);
		snprintf(line, sizeof(line), "f:mux_oracle/mux_oracle_f%d %s", i, fn(i));
		put(T "/dynamic_events", line, true);
		snprintf(line, sizeof(line), "f:mux_oracle/mux_oracle_r%d %s%%return", i, fn(i));
		put(T "/dynamic_events", line, true);
	}
	/*
	 * A kprobe event between a graph entry and its return (the same
	 * buffer, the top one) splits the leaf line: name the "}" lines
	 */
	put(T "/options/funcgraph-tail", "1", false);
	m.gfilter = base;
	put_mask(T "/set_ftrace_filter", base);
}

/*
 * Steps @seq[0..@n) replayed from a fresh start, each checked; the
 * number of the first step with a mismatch, or 0
 */
static int replay_seq(struct drawn *const *seq, int n)
{
	char what[256];

	start();
	for (step = 1; step <= n; step++) {
		replaying = seq[step - 1];
		replay_at = 0;
		do_step(what, sizeof(what));
		replaying = NULL;
		if (!quiet)
			printf("step %d: %s\n", step, what);
		if (check())
			return step;
	}
	return 0;
}

/* The replay line of @seq[0..@n): "V,V,.../V,.../..." */
static void print_seq(struct drawn *const *seq, int n)
{
	printf("oracle: replay with: mux-oracle replay ");
	for (int j = 0; j < n; j++) {
		for (int d = 0; d < seq[j]->n && d < MAXD; d++)
			printf("%s%u", d ? "," : "", seq[j]->v[d]);
		printf("%s", j + 1 < n ? "/" : "\n");
	}
}

/*
 * A try's mismatch at step @at counts only as the one being shrunk (the
 * same first mismatch): another one is printed, never followed, so that
 * a mismatch that comes and goes cannot take the place of the one found
 */
static int same_miss(int at, const char *want, int try,
		     struct drawn *const *seq)
{
	if (!at || !strcmp(first_miss, want))
		return at;
	printf("oracle: another mismatch on the way (try %d, step %d): %s\n",
	       try, at, first_miss);
	print_seq(seq, at);
	return 0;
}

/*
 * Shrinking's step: replay @try[0..@len); if it still shows @want, it
 * becomes @seq and the new length is returned, else 0
 */
static int keep_if_same(struct drawn **seq, struct drawn **try, int len,
			const char *want, int tries, long *budget)
{
	int at;

	*budget -= len;
	at = same_miss(replay_seq(try, len), want, tries, try);
	if (at)
		memcpy(seq, try, sizeof(*seq) * at);
	return at;
}

/*
 * The steps up to a mismatch, fewer: drop runs of steps, halving their
 * length, then pairs, while the rest (replayed from a fresh start) still
 * show the same first mismatch, within @budget replayed steps.  Returns
 * the steps left in @seq.
 */
static int shrink(struct drawn **seq, int n, long budget)
{
	struct drawn **try = malloc(sizeof(*try) * n);
	int tries = 0, first = n;
	char want[256];

	if (!try)
		die(102, "out of memory");
	snprintf(want, sizeof(want), "%s", first_miss);
	quiet = true;
	budget -= n;
	if (!same_miss(replay_seq(seq, n), want, 0, seq)) {
		quiet = false;
		printf("oracle: the mismatch does not come back from a fresh start: not shrunk\n");
		free(try);
		return n;
	}
	for (int chunk = n / 2; chunk >= 1 && budget > 0; chunk /= 2) {
		for (int from = 0; from < n && budget > 0; ) {
			int len = 0, at;

			for (int j = 0; j < n; j++)
				if (j < from || j >= from + chunk)
					try[len++] = seq[j];
			if (!len)
				break;
			at = keep_if_same(seq, try, len, want, ++tries, &budget);
			if (at)		/* still wrong: keep the shorter run */
				n = at;
			else
				from += chunk;
		}
	}
	/* Steps that undo each other (a tracer on, then off) go in pairs */
	for (int a = 0; a < n && n <= 16 && budget > 0; a++)
		for (int b = a + 1; b < n && budget > 0; b++) {
			int len = 0, at;

			for (int j = 0; j < n; j++)
				if (j != a && j != b)
					try[len++] = seq[j];
			at = keep_if_same(seq, try, len, want, ++tries, &budget);
			if (at) {
				n = at;
				a = -1;		/* from the start again */
				break;
			}
		}
	quiet = false;
	free(try);
	printf("oracle: shrunk from %d to %d steps (%d tries%s)\n", first, n,
	       tries, budget > 0 ? "" : ", budget spent");
	return n;
}

/* "V,V/V,..." into @seq; the number of steps */
static int parse_seq(char *text, struct drawn ***seq)
{
	int n = 1, j = 0;
	char *st, *save;

	for (const char *c = text; *c; c++)
		n += *c == '/';
	*seq = calloc(n, sizeof(**seq));
	if (!*seq)
		die(102, "out of memory");
	for (st = strtok_r(text, "/", &save); st; st = strtok_r(NULL, "/", &save)) {
		struct drawn *d = calloc(1, sizeof(*d));
		char *end;

		if (!d)
			die(102, "out of memory");
		for (char *v = st; *v && d->n < MAXD; v = *end ? end + 1 : end) {
			d->v[d->n++] = strtoul(v, &end, 10);
			if (end == v || (*end && *end != ','))
				die(102, "replay: bad step \"%s\"", st);
		}
		(*seq)[j++] = d;
	}
	return j;
}

int main(int argc, char **argv)
{
	int steps, bad = 0;
	long budget = 2000;
	char what[256], *env;
	struct drawn **hist, **seq;

	if (argc != 3) {
		fprintf(stderr, "usage: mux-oracle SEED STEPS | mux-oracle replay SEQUENCE\n");
		return 102;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* A BPF loader that died: an error to report, not a silent end */
	signal(SIGPIPE, SIG_IGN);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	find_distro();
	env = getenv("MUX_ORACLE_BREAK");
	broken = env && !strcmp(env, "1");
	env = getenv("MUX_ORACLE_SHRINK");
	if (env)
		budget = atol(env);
	find_targets();

	if (!strcmp(argv[1], "replay")) {
		steps = parse_seq(argv[2], &seq);
		printf("oracle: replay of %d steps\n", steps);
		bad = replay_seq(seq, steps);
		reset();
		printf("oracle: %s\n", bad ? "the mismatch came back" : "no mismatch");
		return !!bad;
	}

	seed = seed0 = strtoull(argv[1], NULL, 0);
	steps = atoi(argv[2]);
	hist = calloc(steps + 1, sizeof(*hist));
	if (!hist)
		die(102, "out of memory");
	start();
	printf("oracle: seed %llu, %d steps, targets:", seed, steps);
	for (int i = 0; i < nt; i++)
		printf(" %s", fn(i));
	printf("\n");

	for (step = 1; step <= steps; step++) {
		hist[step - 1] = rec = calloc(1, sizeof(*rec));
		if (!rec)
			die(102, "out of memory");
		do_step(what, sizeof(what));
		if (rec->n > MAXD)
			die(102, "a step drew %d values, more than %d", rec->n, MAXD);
		rec = NULL;
		printf("step %d: %s\n", step, what);
		if (!check())
			continue;
		if (budget > 0) {
			int n = shrink(hist, step, budget);

			print_seq(hist, n);
			printf("oracle: the shrunk steps:\n");
			replay_seq(hist, n);
			bad = 1;
			step = n + 1;
			break;
		}
		if (++bad >= 100)
			break;
	}
	reset();
	/* So that a run that never traced a target shows it */
	printf("oracle: expected sightings per target:");
	for (int i = 0; i < nt; i++)
		printf(" %s %ld", fn(i), seen[i]);
	printf("\noracle: %d steps, %d with a mismatch\n", step - 1, bad);
	return bad;
}
