// SPDX-License-Identifier: GPL-2.0
/*
 * mux-bpf-many: many independent BPF fentry links on one kernel function,
 * each counting the calls it sees in a slot of its own.
 *
 *   mux-bpf-many FUNCTION N CALLS
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
 * FUNCTION must be on the getcpu() path (__x64_sys_getcpu).  The programs
 * are BPF instructions written out here rather than a clang object: a
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

static int *prog_fd, *link_fd;
static unsigned long long *slot;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Program @i: lock *(u64 *)(&value + 8 * i) += 1; return 0 */
static int load(int map_fd, int btf_id, int i)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_PSEUDO_MAP_VALUE, .imm = map_fd },
		{ .imm = 8 * i },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2, .imm = 1 },
		{ .code = BPF_STX | BPF_DW | BPF_ATOMIC, .dst_reg = BPF_REG_1,
		  .src_reg = BPF_REG_2, .imm = BPF_ADD },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = btf_id);

	return bpf_prog_load(BPF_PROG_TYPE_TRACING, "mux_many", "GPL", insns,
			     sizeof(insns) / sizeof(insns[0]), &opts);
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
		if (linked[i])
			on++;
		if (slot[i] == (linked[i] ? calls : 0))
			exact += linked[i];
		else
			printf("slot %d: %llu calls, expected %llu\n", i, slot[i],
			       linked[i] ? calls : 0);
	}
	printf("slots %d exact %d\n", on, exact);
	memset(slot, 0, n * sizeof(*slot));
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

static void call(long calls)
{
	unsigned int cpu, node;

	for (long k = 0; k < calls; k++)
		syscall(SYS_getcpu, &cpu, &node, NULL);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * Link program @i, as "refused I: error" if the kernel will not.
 * Return: how long the attach took in ns, or -1.
 */
static long long attach(int i)
{
	long long t = now_ns();

	link_fd[i] = bpf_link_create(prog_fd[i], 0, BPF_TRACE_FENTRY, NULL);
	t = now_ns() - t;
	if (link_fd[i] < 0) {
		printf("refused %d: %s\n", i + 1, strerror(errno));
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
			t = attach(i);
			if (t < 0)
				return 0;
		}
		printf("attach %d %lld\n", i, t);
		printf("percall %d %lld\n", i, percall(calls));
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
			if (attach(i) < 0) {
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
	int map_fd, btf_id, n, linked_n = 0, bad = 0, zero = 0;
	long calls;
	struct btf *btf;
	char *linked;

	if (argc < 4 || (argc > 4 && strcmp(argv[4], "bench") &&
			  (strcmp(argv[4], "churn") || argc != 6))) {
		fprintf(stderr, "usage: mux-bpf-many FUNCTION N CALLS [bench K... | churn ROUNDS]\n");
		return 2;
	}
	n = atoi(argv[2]);
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
	map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "mux_many", 4, 8 * n, 1, NULL);
	prog_fd = calloc(n, sizeof(*prog_fd));
	link_fd = calloc(n, sizeof(*link_fd));
	slot = calloc(n, sizeof(*slot));
	linked = calloc(n, 1);
	if (map_fd < 0 || !prog_fd || !link_fd || !slot || !linked) {
		perror("mux-bpf-many: map");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		prog_fd[i] = load(map_fd, btf_id, i);
		if (prog_fd[i] < 0) {
			printf("load %d: %s\n", i + 1, strerror(errno));
			return 1;
		}
	}
	if (argc > 4 && !strcmp(argv[4], "bench"))
		return bench(n, calls, argv + 5, argc - 5);
	if (argc > 4 && churn(n, atoi(argv[5])))
		return 1;
	for (int i = 0; i < n; i++) {
		long long t = attach(i);

		if (t < 0)
			break;
		linked[i] = 1;
		linked_n++;
		if (i + 1 == 1 || i + 1 == 38 || i + 1 == 39 || i + 1 == 100 ||
		    i + 1 == 1000 || i + 1 == n)
			printf("attach %d %lld\n", i + 1, t);
	}
	printf("linked %d of %d\n", linked_n, n);
	show_site(argv[1]);
	bpf_map_update_elem(map_fd, &zero, slot, BPF_ANY);
	call(calls);
	bad |= check(map_fd, n, linked, calls);

	/* Every other link goes: the rest still count, exactly */
	for (int i = 0; i < n; i += 2) {
		if (linked[i])
			close(link_fd[i]);
		linked[i] = 0;
	}
	call(calls);
	bad |= check(map_fd, n, linked, calls);
	for (int i = 1; i < n; i += 2)
		if (linked[i])
			close(link_fd[i]);
	return bad || linked_n != n ? 1 : 0;
}
