// SPDX-License-Identifier: GPL-2.0
/*
 * mux-bpf-many: many independent BPF fentry, fexit or fmod_ret links on
 * one kernel function, each counting the calls it sees in a slot of its
 * own.
 *
 *   mux-bpf-many [--fentry | --fexit | --mixed | --fmodret | --lsm] [--modret E]
 *                [--reverse] [--patched] [--sleepable before|after]
 *                FUNCTION N CALLS
 *
 * loads N programs (program i adds 1 to slot i of one array map), attaches
 * each with its own link and prints how long each attach took in
 * nanoseconds ("attach I NS", for I = 1, 38, 39, 100, 1000 and N) or where
 * attaching stopped ("refused I: error"), and the function's line of
 * enabled_functions ("site LINE"); makes CALLS getcpu() system calls
 * and prints "slots S exact E" (E of the S linked slots counted exactly
 * CALLS, none other anything); detaches every other link, makes CALLS calls
 * again and prints the same for the half left; detaches the rest.  Exits 0
 * only when every line said what it should.
 *
 * The programs are fentry programs (--fentry, the default), or with
 * --fexit fexit programs, or
 * with --mixed both (the odd ones fexit).  Of the CALLS calls, the last
 * BAD pass an address that getcpu() cannot write, so that it fails with
 * EFAULT: a fexit program reads the return value and the first argument
 * register (the user's cpu pointer, in the pt_regs the function gets)
 * and adds 1 for a call that returned 0, EXIT_FAILED + EXIT_ARG1 for a
 * call that failed on pointer 1; so a slot proves the program saw each
 * return with its own value and the arguments of its own call.
 *
 * With --modret E, an fmod_ret program returning -E is linked first:
 * every call fails with E without running the function, the fentry
 * programs count it as before, and the fexit programs see the value the
 * fmod_ret program returned.
 *
 * With --fmodret the N programs are fmod_ret programs, each counting
 * the calls it sees and returning 0 but for three: N/3 (made odd)
 * returns -EPERM, N/2 (made even) -EACCES and 2N/3 (made odd) -ENOENT.
 * Each check round prints "errno NAME", what every call failed with
 * ("mixed" if they differ, "none" if the first ones succeeded), and
 * expects the rule of ftrace-mux: every program sees every call, and the
 * call fails with the highest errno of the linked ones: EACCES, then
 * ENOENT once every other link went.  --reverse attaches the links from
 * the last to the first.  --patched: the function itself fails every
 * call with ENOSYS (mux_klp_getcpu, a livepatch), which a round without
 * a denier, made once every link went, must show.
 *
 * With --lsm the N programs are BPF LSM programs on FUNCTION, the BPF
 * LSM hook of a security hook that returns a value, with the counting
 * and the deniers of --fmodret; the calls are sched_getparam() (the last
 * BAD on pointer 1), whose security hook is task_getscheduler: FUNCTION
 * bpf_lsm_task_getscheduler.
 *
 * --sleepable links a sleepable fentry program (which only a BPF
 * trampoline runs), counting in slot N, before the N links or after
 * them: "sleepable linked" or "sleepable refused: error".
 *
 *   mux-bpf-many FUNCTION N CALLS bench K...
 *
 * is the benchmark (under QEMU -icount shift=0 a guest nanosecond is an
 * instruction): with no link and then with each K of the ascending list
 * attached, "percall K NS", the median over five rounds of CALLS getcpu()
 * calls of the time per call, and "attach K NS", the time the K-th
 * attach took; it stops at the first refused link ("refused I: error").
 *
 *   mux-bpf-many FUNCTION N CALLS churn ROUNDS
 *
 * first attaches and detaches all N links ROUNDS times while a child
 * process calls getcpu() without pause (on the other CPU), then runs
 * the check above.
 *
 *   mux-bpf-many FUNCTION N CALLS then COMMAND
 *
 * is the check, with COMMAND run by sh once every link is attached
 * (loading a livepatch, say); a failing COMMAND fails the check.
 *
 *   mux-bpf-many FUNCTION N CALLS hold
 *
 * attaches the N links, prints "held", waits for a line on its standard
 * input while others call FUNCTION, then prints "count I C" (the calls
 * link I saw) for each and detaches them: for a function off the
 * getcpu() path, CALLS unused.
 *
 * FUNCTION must otherwise be on the getcpu() path (__x64_sys_getcpu), or
 * with --lsm on sched_getparam()'s.  The programs are BPF instructions written out here rather than a clang object: a
 * thousand copies of one program, which differ only in their slot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

/* The calls of a round that fail, and what a fexit program adds for one */
#define BAD		2
#define EXIT_FAILED	(1ULL << 20)
#define EXIT_ARG1	(1ULL << 40)

enum kind { FENTRY, FEXIT, FMODRET, LSM };
static const enum bpf_attach_type attach_type[] = {
	[FENTRY] = BPF_TRACE_FENTRY,
	[FEXIT] = BPF_TRACE_FEXIT,
	[FMODRET] = BPF_MODIFY_RETURN,
	[LSM] = BPF_LSM_MAC,
};

static int *prog_fd, *link_fd;
static unsigned long long *slot;
/* What program i is */
static char *kind;
/* The errno an fmod_ret program makes every call fail with, or 0 */
static int modret;
/* The errno fmod_ret program i returns (negated), or 0 */
static int *deny;
/* Attach from the last link to the first */
static int reverse;
/* What the function itself fails with (ENOSYS if livepatched), or 0 */
static int patched;
/* Link a sleepable fentry program before the links (1) or after (2) */
static int sleepable;
/* The calls are sched_getparam(), the programs BPF LSM ones (--lsm) */
static int lsm;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * fexit program @i on a function of one argument, struct pt_regs *regs:
 *   add = ret ? EXIT_FAILED : 1; if (regs->di == 1) add += EXIT_ARG1;
 *   lock *(u64 *)(&value + 8 * i) += add; return 0
 */
static int load_exit(int map_fd, int btf_id, int i)
{
	struct bpf_insn insns[] = {
		/* r7 = the return value, after the one argument */
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_7,
		  .src_reg = BPF_REG_1, .off = 8 },
		/* r2 = regs, r3 = regs->di */
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_2,
		  .src_reg = BPF_REG_1, .off = 0 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_3,
		  .src_reg = BPF_REG_2, .off = 14 * 8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_4, .imm = 1 },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_7, .off = 1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_4,
		  .imm = EXIT_FAILED },
		{ .code = BPF_JMP | BPF_JNE | BPF_K, .dst_reg = BPF_REG_3, .off = 3,
		  .imm = 1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_5, .imm = 1 },
		{ .code = BPF_ALU64 | BPF_LSH | BPF_K, .dst_reg = BPF_REG_5, .imm = 40 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_X, .dst_reg = BPF_REG_4,
		  .src_reg = BPF_REG_5 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_VALUE, .imm = map_fd },
		{ .imm = 8 * i },
		{ .code = BPF_STX | BPF_DW | BPF_ATOMIC, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_REG_4, .imm = BPF_ADD },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_FEXIT,
		    .attach_btf_id = btf_id);

	return bpf_prog_load(BPF_PROG_TYPE_TRACING, "mux_many_exit", "GPL",
			     insns, sizeof(insns) / sizeof(insns[0]), &opts);
}

/* An fmod_ret program: return -@err, so the function is not run */
static int load_modret(int btf_id, int err)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = -err },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_MODIFY_RETURN,
		    .attach_btf_id = btf_id);

	return bpf_prog_load(BPF_PROG_TYPE_TRACING, "mux_many_modret", "GPL",
			     insns, sizeof(insns) / sizeof(insns[0]), &opts);
}

/*
 * fentry program @i: lock *(u64 *)(&value + 8 * i) += 1; return 0;
 * as an fmod_ret or BPF LSM program (@type), it returns -deny[i];
 * sleepable with @flags BPF_F_SLEEPABLE
 */
static int load_flags(int map_fd, int btf_id, int i, enum bpf_attach_type type,
		      unsigned int flags)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_VALUE, .imm = map_fd },
		{ .imm = 8 * i },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2, .imm = 1 },
		{ .code = BPF_STX | BPF_DW | BPF_ATOMIC, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_REG_2, .imm = BPF_ADD },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = type == BPF_MODIFY_RETURN || type == BPF_LSM_MAC ?
			 -deny[i] : 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = type,
		    .attach_btf_id = btf_id,
		    .prog_flags = flags);

	return bpf_prog_load(type == BPF_LSM_MAC ? BPF_PROG_TYPE_LSM :
			     BPF_PROG_TYPE_TRACING, "mux_many", "GPL", insns,
			     sizeof(insns) / sizeof(insns[0]), &opts);
}

static int load(int map_fd, int btf_id, int i, enum bpf_attach_type type)
{
	return load_flags(map_fd, btf_id, i, type, 0);
}

/* The sleepable fentry program, counting in slot @n: "sleepable ..." */
static void link_sleepable(int map_fd, int btf_id, int n)
{
	int fd = load_flags(map_fd, btf_id, n, BPF_TRACE_FENTRY,
			    BPF_F_SLEEPABLE);

	if (fd < 0) {
		printf("sleepable load: %s\n", strerror(errno));
		return;
	}
	if (bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL) < 0)
		printf("sleepable refused: %s\n", strerror(errno));
	else
		printf("sleepable linked\n");
}

/* What program @i counts of a round of @calls calls (BAD of them failing) */
static unsigned long long expected(int i, unsigned long long calls)
{
	if (kind[i] != FEXIT)
		return calls;
	if (modret)
		return calls * EXIT_FAILED + BAD * EXIT_ARG1;
	return calls - BAD + BAD * (EXIT_FAILED + EXIT_ARG1);
}

/* Do the @n slots that @linked says are on count @calls, the others 0? */
static int check(int map_fd, int n, const char *linked, unsigned long long calls)
{
	int zero = 0, on = 0, exact = 0;

	if (bpf_map_lookup_elem(map_fd, &zero, slot)) {
		perror("mux-bpf-many: lookup");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		unsigned long long want = linked[i] ? expected(i, calls) : 0;

		if (linked[i])
			on++;
		if (slot[i] == want)
			exact += linked[i];
		else
			printf("slot %d: %#llx, expected %#llx\n", i, slot[i],
			       want);
	}
	printf("slots %d exact %d\n", on, exact);
	if (sleepable)
		printf("sleepable saw %llu\n", slot[n]);
	memset(slot, 0, (n + 1) * sizeof(*slot));
	bpf_map_update_elem(map_fd, &zero, slot, BPF_ANY);
	return on == exact && exact > 0 ? 0 : -1;
}

/* FUNCTION's line of enabled_functions, as "site LINE" */
static void show_site(const char *func)
{
	FILE *f = fopen("/sys/kernel/tracing/enabled_functions", "r");
	size_t len = strlen(func);
	char line[512];

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, func, len) && line[len] == ' ')
			printf("site %s", line);
	if (f)
		fclose(f);
}

/* One call, on pointer 1 if @bad: 0 or its errno */
static int call_one(int bad)
{
	unsigned int cpu, node;
	int param[4];
	long ret;

	if (lsm)
		ret = syscall(SYS_sched_getparam, 0, bad ? (void *)1 : param);
	else
		ret = syscall(SYS_getcpu, bad ? (unsigned int *)1 : &cpu,
			      &node, NULL);
	return ret < 0 ? errno : 0;
}

static void call(long calls)
{
	for (long k = 0; k < calls; k++)
		call_one(0);
}

static const char *errno_name(int e)
{
	switch (e) {
	case 0:		return "none";
	case EPERM:	return "EPERM";
	case ENOENT:	return "ENOENT";
	case EACCES:	return "EACCES";
	case EFAULT:	return "EFAULT";
	case ENOSYS:	return "ENOSYS";
	default:	return "other";
	}
}

/*
 * What every call fails with: the errno of --modret, or the highest of
 * the linked fmod_ret programs', or what the function does (0: it runs)
 */
static int denied(const char *linked, int n)
{
	int e = modret;

	for (int i = 0; i < n; i++)
		if (linked[i] && deny[i] > e)
			e = deny[i];
	return e ?: patched;
}

/*
 * A round of the check: @calls calls, the last BAD of them on pointer 1.
 * Each must fail with @want, an errno, or if that is 0 succeed (EFAULT
 * for the last BAD).  Prints "errno NAME" of the first call; returns -1
 * if a call did otherwise.
 */
static int call_round(long calls, int want)
{
	int first = -1, wrong = -1;

	for (long k = 0; k < calls; k++) {
		int bad = k >= calls - BAD;
		int expect = want ?: (bad ? EFAULT : 0);
		int got = call_one(bad);

		if (first < 0)
			first = got;
		if (got != expect && wrong < 0)
			wrong = got;
	}
	printf("errno %s\n", errno_name(first));
	if (wrong < 0)
		return 0;
	printf("%s: a call got %s, not %s\n", lsm ? "sched_getparam" : "getcpu",
	       errno_name(wrong),
	       errno_name(want));
	return -1;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Link program @i, the @nth link, as "refused NTH: error" if the kernel
 * will not.  Return: how long the attach took in ns, or -1.
 */
static long long attach(int i, int nth)
{
	long long t = now_ns();

	link_fd[i] = bpf_link_create(prog_fd[i], 0, attach_type[(int)kind[i]],
				     NULL);
	t = now_ns() - t;
	if (link_fd[i] < 0) {
		printf("refused %d: %s\n", nth, strerror(errno));
		return -1;
	}
	return t;
}

/* The median over five rounds of the time of one getcpu() call */
static long long percall(long calls)
{
	long long t[5];

	for (int r = 0; r < 5; r++) {
		t[r] = now_ns();
		call(calls);
		t[r] = now_ns() - t[r];
	}
	qsort(t, 5, sizeof(t[0]), cmp_ll);
	return t[2] / calls;
}

/* Attach up to each K of @ks in turn, timing calls at each */
static int bench(int n, long calls, char **ks, int nks)
{
	int i = 0;

	printf("percall 0 %lld\n", percall(calls));
	for (int k = 0; k < nks; k++) {
		int want = atoi(ks[k]);
		long long t = 0;

		for (; i < want && i < n; i++) {
			t = attach(i, i + 1);
			if (t < 0)
				return 0;
		}
		printf("attach %d %lld\n", i, t);
		printf("percall %d %lld\n", i, percall(calls));
	}
	return 0;
}

/* Attach the links, wait for a line on stdin, print what each counted */
static int hold(int map_fd, int n)
{
	char line[16];
	int zero = 0;

	for (int i = 0; i < n; i++)
		if (attach(i, i + 1) < 0)
			return -1;
	printf("held\n");
	if (!fgets(line, sizeof(line), stdin) ||
	    bpf_map_lookup_elem(map_fd, &zero, slot))
		return -1;
	for (int i = 0; i < n; i++) {
		printf("count %d %llu\n", i, slot[i]);
		close(link_fd[i]);
	}
	return 0;
}

/* Attach and detach every link @rounds times while a child calls */
static int churn(int n, int rounds)
{
	pid_t child = fork();
	int bad = 0;

	if (child < 0)
		return -1;
	if (!child)
		for (;;)
			call(1000);
	for (int r = 0; r < rounds && !bad; r++) {
		for (int i = 0; i < n; i++) {
			if (attach(i, i + 1) < 0) {
				bad = 1;
				n = i;
				break;
			}
		}
		for (int i = 0; i < n; i++)
			close(link_fd[i]);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	printf("churn %d rounds %s\n", rounds, bad ? "failed" : "done");
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct rlimit nofile = { 1 << 16, 1 << 16 };
	int map_fd, btf_id, n, linked_n = 0, bad = 0, zero = 0, kinds = -1;
	const char *then = NULL;
	long calls;
	struct btf *btf;
	char *linked;

	if (argc > 1 && !strcmp(argv[1], "--fentry"))
		kinds = 0;
	else if (argc > 1 && !strcmp(argv[1], "--fexit"))
		kinds = 1;
	else if (argc > 1 && !strcmp(argv[1], "--mixed"))
		kinds = 2;
	else if (argc > 1 && !strcmp(argv[1], "--fmodret"))
		kinds = 3;
	else if (argc > 1 && !strcmp(argv[1], "--lsm"))
		kinds = 4;
	lsm = kinds == 4;
	argc -= kinds >= 0;
	argv += kinds >= 0;
	if (argc > 2 && !strcmp(argv[1], "--modret")) {
		modret = atoi(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc > 1 && !strcmp(argv[1], "--reverse")) {
		reverse = 1;
		argc--;
		argv++;
	}
	if (argc > 1 && !strcmp(argv[1], "--patched")) {
		patched = ENOSYS;
		argc--;
		argv++;
	}
	if (argc > 2 && !strcmp(argv[1], "--sleepable")) {
		sleepable = strcmp(argv[2], "before") ? 2 : 1;
		argc -= 2;
		argv += 2;
	}
	if (argc == 6 && !strcmp(argv[4], "then"))
		then = argv[5];
	if (argc < 4 || atol(argv[3]) <= BAD ||
	    (argc > 4 && strcmp(argv[4], "bench") && !then &&
	     (strcmp(argv[4], "churn") || argc != 6) &&
	     (strcmp(argv[4], "hold") || argc != 5))) {
		fprintf(stderr, "usage: mux-bpf-many [--fentry | --fexit | --mixed | --fmodret | --lsm] [--modret E] [--reverse] [--patched] [--sleepable before|after] FUNCTION N CALLS [bench K... | churn ROUNDS | hold | then COMMAND]\n");
		return 2;
	}
	n = atoi(argv[2]);
	if (kinds >= 3 && n < 6) {
		fprintf(stderr, "mux-bpf-many: --fmodret and --lsm take 6 links or more\n");
		return 2;
	}
	calls = atol(argv[3]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	setrlimit(RLIMIT_NOFILE, &nofile);
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		perror("mux-bpf-many: vmlinux BTF");
		return 1;
	}
	btf_id = btf__find_by_name_kind(btf, argv[1], BTF_KIND_FUNC);
	if (btf_id < 0 || n < 1) {
		fprintf(stderr, "mux-bpf-many: no function %s in BTF\n", argv[1]);
		return 1;
	}
	/* and a slot for the sleepable program */
	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "mux_many", 4, 8 * (n + 1), 1, NULL);
	prog_fd = calloc(n, sizeof(*prog_fd));
	link_fd = calloc(n, sizeof(*link_fd));
	slot = calloc(n + 1, sizeof(*slot));
	linked = calloc(n, 1);
	kind = calloc(n, 1);
	deny = calloc(n, sizeof(*deny));
	if (map_fd < 0 || !prog_fd || !link_fd || !slot || !linked || !kind ||
	    !deny) {
		perror("mux-bpf-many: map");
		return 1;
	}
	/* The deniers of --fmodret; not in the benchmark, whose calls run */
	if (kinds >= 3 && (argc < 5 || strcmp(argv[4], "bench"))) {
		deny[(n / 3) | 1] = EPERM;
		deny[(n / 2) & ~1] = EACCES;
		deny[(2 * n / 3) | 1] = ENOENT;
	}
	for (int i = 0; i < n; i++) {
		kind[i] = kinds == 4 ? LSM : kinds == 3 ? FMODRET :
			  kinds == 1 || (kinds == 2 && i % 2) ? FEXIT : FENTRY;
		prog_fd[i] = kind[i] == FEXIT ? load_exit(map_fd, btf_id, i) :
			     load(map_fd, btf_id, i, attach_type[(int)kind[i]]);
		if (prog_fd[i] < 0) {
			printf("load %d: %s\n", i + 1, strerror(errno));
			return 1;
		}
	}
	if (modret) {
		int fd = load_modret(btf_id, modret);

		if (fd < 0 || bpf_link_create(fd, 0, BPF_MODIFY_RETURN, NULL) < 0) {
			printf("modret: %s\n", strerror(errno));
			return 1;
		}
		printf("modret linked\n");
	}
	if (argc > 4 && !strcmp(argv[4], "bench"))
		return bench(n, calls, argv + 5, argc - 5);
	if (argc > 4 && !strcmp(argv[4], "hold"))
		return hold(map_fd, n) ? 1 : 0;
	if (argc > 4 && churn(n, atoi(argv[5])))
		return 1;
	if (sleepable == 1)
		link_sleepable(map_fd, btf_id, n);
	for (int j = 0; j < n; j++) {
		int i = reverse ? n - 1 - j : j;
		long long t = attach(i, j + 1);

		if (t < 0)
			break;
		linked[i] = 1;
		linked_n++;
		if (j + 1 == 1 || j + 1 == 38 || j + 1 == 39 || j + 1 == 100 ||
		    j + 1 == 1000 || j + 1 == n)
			printf("attach %d %lld\n", j + 1, t);
	}
	printf("linked %d of %d\n", linked_n, n);
	if (sleepable == 2)
		link_sleepable(map_fd, btf_id, n);
	show_site(argv[1]);
	if (then && system(then)) {
		printf("then: %s failed\n", then);
		bad = 1;
	}
	bpf_map_update_elem(map_fd, &zero, slot, BPF_ANY);
	bad |= call_round(calls, denied(linked, n));
	bad |= check(map_fd, n, linked, calls);

	/* Every other link goes: the rest still count, exactly */
	for (int i = 0; i < n; i += 2) {
		if (linked[i])
			close(link_fd[i]);
		linked[i] = 0;
	}
	bad |= call_round(calls, denied(linked, n));
	bad |= check(map_fd, n, linked, calls);
	for (int i = 1; i < n; i += 2)
		if (linked[i])
			close(link_fd[i]);
	if (kinds >= 3 || patched) {
		/* No link left: the function's own outcome */
		memset(linked, 0, n);
		bad |= call_round(calls, denied(linked, n));
	}
	return bad || linked_n != n ? 1 : 0;
}
