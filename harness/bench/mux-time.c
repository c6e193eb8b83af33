// SPDX-License-Identifier: GPL-2.0
/*
 * mux-time: time one tracefs write or one module load/unload inside the
 * benchmark VM, with nothing else (no fork, no exec, no shell) inside the
 * timed interval.  Under QEMU -icount shift=0 one guest nanosecond is one
 * executed instruction, so the figure is an instruction count (plus any
 * virtual time the guest spent idle, waiting for grace periods).
 *
 *   mux-time write FILE STRING     open(O_WRONLY|O_TRUNC), time write()
 *   mux-time append FILE STRING    open(O_WRONLY|O_APPEND), time write()
 *   mux-time insmod MODULE.ko [PARAMS]
 *   mux-time rmmod NAME
 *   mux-time run PROGRAM [ARG...]  fork, exec and wait for PROGRAM, its
 *                                  stdout discarded (the macro benchmark's
 *                                  workloads); with MUX_TIME_COUNTERS=FILE
 *                                  in the environment, also prints
 *                                  "mux-time counted N" on stderr: how much
 *                                  the sum of FILE's numbers (counting
 *                                  tracers' calls) grew over the interval
 *   mux-time getpid N              N getpid() system calls (the graph
 *                                  rows: __do_sys_getpid traced)
 *
 * Prints the interval in ns on stdout; exits 1 if the operation failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The sum of the numbers in @fd's file, or -1 if it cannot be read. */
static long long sum_of(int fd)
{
	char buf[4096], *p, *end;
	long long sum = 0;
	ssize_t len;

	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len < 0 || len == sizeof(buf) - 1)
		return -1;
	buf[len] = '\0';
	for (p = buf; ; p = end) {
		long long v = strtoll(p, &end, 10);

		if (end == p)
			break;
		sum += v;
	}
	return sum;
}

static int usage(void)
{
	fprintf(stderr, "usage: mux-time write|append FILE STRING | insmod KO [PARAMS] | rmmod NAME | run PROGRAM [ARG...] | getpid N\n");
	return 2;
}

int main(int argc, char **argv)
{
	long long t0, t1;
	long ret;

	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "write") || !strcmp(argv[1], "append")) {
		int flags = O_WRONLY | (argv[1][0] == 'w' ? O_TRUNC : O_APPEND);
		size_t len;
		int fd;

		if (argc != 4)
			return usage();
		fd = open(argv[2], flags);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		len = strlen(argv[3]);
		t0 = now_ns();
		ret = write(fd, argv[3], len);
		t1 = now_ns();
		if (ret != (long)len) {
			fprintf(stderr, "write %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		t0 = t1 - t0;
		t1 = now_ns();
		/* The release does the update for some files: time it too. */
		close(fd);
		t0 += now_ns() - t1;
	} else if (!strcmp(argv[1], "insmod")) {
		const char *params = argc > 3 ? argv[3] : "";
		int fd = open(argv[2], O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		t0 = now_ns();
		ret = syscall(SYS_finit_module, fd, params, 0);
		t1 = now_ns();
		if (ret) {
			fprintf(stderr, "insmod %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		t0 = t1 - t0;
	} else if (!strcmp(argv[1], "rmmod")) {
		t0 = now_ns();
		ret = syscall(SYS_delete_module, argv[2], O_NONBLOCK);
		t1 = now_ns();
		if (ret) {
			fprintf(stderr, "rmmod %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		t0 = t1 - t0;
	} else if (!strcmp(argv[1], "run")) {
		const char *counters = getenv("MUX_TIME_COUNTERS");
		long long c0 = 0, c1 = 0;
		int cfd = -1;
		pid_t pid;
		int status;

		/*
		 * Read right outside the interval: the count holds the
		 * program's calls and those of the two reads' own syscalls,
		 * not the shell's work around the run.
		 */
		if (counters) {
			cfd = open(counters, O_RDONLY | O_CLOEXEC);
			if (cfd < 0 || (c0 = sum_of(cfd)) < 0) {
				perror(counters);
				return 1;
			}
		}
		t0 = now_ns();
		pid = fork();
		if (pid == 0) {
			/* Our stdout carries the figure: the program's goes away */
			int null = open("/dev/null", O_WRONLY);

			if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
				_exit(127);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			perror("run");
			return 1;
		}
		t1 = now_ns();
		if (cfd >= 0)
			c1 = sum_of(cfd);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "run %s: status %#x\n", argv[2], status);
			return 1;
		}
		t0 = t1 - t0;
		if (cfd >= 0) {
			if (c1 < 0) {
				perror(counters);
				return 1;
			}
			fprintf(stderr, "mux-time counted %lld\n", c1 - c0);
		}
	} else if (!strcmp(argv[1], "getpid")) {
		long n = atol(argv[2]), i;

		if (n <= 0)
			return usage();
		t0 = now_ns();
		/* syscall(), not getpid(): no library may answer from a cache */
		for (i = 0; i < n; i++)
			syscall(SYS_getpid);
		t0 = now_ns() - t0;
	} else {
		return usage();
	}
	printf("%lld\n", t0);
	return 0;
}
