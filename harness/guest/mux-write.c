// SPDX-License-Identifier: GPL-2.0
/*
 * mux-write: write to a tracefs file exactly as told, for the bad-input
 * tests: one write() per argument, on one open file, and report each
 * result, so that partial writes, NUL bytes and huge writes can be fed.
 * A selection in function_tracers belongs to the program that made it, so
 * -s first selects TRACER for this program (FILE in the current directory,
 * the top of tracefs).
 *
 *   mux-write [-s TRACER] [-a] FILE ARG...
 *   mux-write -s TRACER -R CMD
 *
 * -R runs "sh -c CMD" as this program's child, with this program a child
 * subreaper, and waits for every process CMD leaves behind: a process
 * whose parent exits is then reparented to the selecting program, which
 * must not hand it the selection (it is not a fork of this program).
 *
 * Each ARG is one write(); in ARG, \xHH is a byte (\x00 a NUL), \\ a
 * backslash, and "@NxC" N copies of byte C (e.g. @1048576xa), followed by
 * the rest of ARG.  "@fault:ARG" writes ARG from the end of a page whose
 * next page is not mapped, 16 bytes more than ARG: the write faults
 * after ARG.  -a opens
 * with O_APPEND, otherwise O_TRUNC.  Prints one line per write: "ok N" or
 * the errno's name, and exits 0 if every write succeeded, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case EFAULT: return "EFAULT";
	case E2BIG: return "E2BIG";
	case ENOSPC: return "ENOSPC";
	case EACCES: return "EACCES";
	case EEXIST: return "EEXIST";
	case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
	case ERANGE: return "ERANGE";
	case EILSEQ: return "EILSEQ";
	default: return "E?";
	}
}

static size_t decode(const char *arg, char **out)
{
	size_t len = 0, cap = strlen(arg) + 1;
	unsigned long n = 0;
	char *buf, c = 0;

	if (arg[0] == '@') {
		char *x;

		n = strtoul(arg + 1, &x, 10);
		if (*x != 'x' || !x[1] || n > (64UL << 20))
			exit(2);
		c = x[1];
		arg = x + 2;
		cap += n;
	}
	buf = malloc(cap);
	if (!buf)
		exit(2);
	memset(buf, c, n);
	len = n;
	for (; *arg; arg++) {
		if (arg[0] == '\\' && arg[1] == 'x' && arg[2] && arg[3]) {
			char hex[3] = { arg[2], arg[3], 0 };

			buf[len++] = (char)strtoul(hex, NULL, 16);
			arg += 3;
		} else if (arg[0] == '\\' && arg[1] == '\\') {
			buf[len++] = '\\';
			arg++;
		} else {
			buf[len++] = *arg;
		}
	}
	*out = buf;
	return len;
}

/* A copy of @len bytes of @buf ending where an unmapped page begins */
static char *before_hole(const char *buf, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t size = (len + page - 1) / page * page;
	char *map = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED || munmap(map + size, page))
		exit(2);
	memcpy(map + size - len, buf, len);
	return map + size - len;
}

int main(int argc, char **argv)
{
	int i = 1, fd, flags = O_WRONLY | O_TRUNC, bad = 0;

	if (argc > 2 && !strcmp(argv[1], "-s")) {
		fd = open("function_tracers", O_WRONLY);
		if (fd < 0 || write(fd, argv[2], strlen(argv[2])) < 0) {
			printf("select %s\n", errname(errno));
			return 1;
		}
		close(fd);
		i += 2;
	}
	if (argc == i + 2 && !strcmp(argv[i], "-R")) {
		pid_t pid;

		if (prctl(PR_SET_CHILD_SUBREAPER, 1))
			return 2;
		pid = fork();
		if (pid < 0)
			return 2;
		if (pid == 0) {
			execl("/bin/sh", "sh", "-c", argv[i + 1], (char *)NULL);
			_exit(2);
		}
		while (wait(NULL) > 0 || errno != ECHILD)
			;
		return 0;
	}
	if (argc > i && !strcmp(argv[i], "-a")) {
		flags = O_WRONLY | O_APPEND;
		i++;
	}
	if (argc - i < 1) {
		fprintf(stderr, "usage: mux-write [-s TRACER] [-a] FILE ARG... | -s TRACER -R CMD\n");
		return 2;
	}
	fd = open(argv[i], flags);
	if (fd < 0) {
		printf("open %s\n", errname(errno));
		return 1;
	}
	for (i++; i < argc; i++) {
		bool fault = !strncmp(argv[i], "@fault:", 7);
		char *buf, *from;
		size_t len = decode(argv[i] + (fault ? 7 : 0), &buf);
		ssize_t ret;

		from = buf;
		if (fault)
			from = before_hole(buf, len);
		ret = write(fd, from, len + (fault ? 16 : 0));

		if (ret < 0) {
			printf("%s\n", errname(errno));
			bad = 1;
		} else {
			printf("ok %zd\n", ret);
		}
		free(buf);
	}
	if (close(fd)) {
		printf("close %s\n", errname(errno));
		bad = 1;
	}
	return bad;
}
