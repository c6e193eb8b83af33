// SPDX-License-Identifier: GPL-2.0
/*
 * mux-write: write to a tracefs file exactly as told, for the bad-input
 * tests: one write() per argument, on one open file, and report each
 * result, so that partial writes, NUL bytes and huge writes can be fed.
 *
 *   mux-write [-a] FILE ARG...
 *
 * Each ARG is one write(); in ARG, \xHH is a byte (\x00 a NUL), \\ a
 * backslash, and "@NxC" N copies of byte C (e.g. @1048576xa).  -a opens
 * with O_APPEND, otherwise O_TRUNC.  Prints one line per write: "ok N" or
 * the errno's name, and exits 0 if every write succeeded, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	default: return "E?";
	}
}

static size_t decode(const char *arg, char **out)
{
	size_t len = 0, cap = strlen(arg) + 1;
	char *buf;

	if (arg[0] == '@') {
		char *x;
		unsigned long n = strtoul(arg + 1, &x, 10);

		if (*x != 'x' || !x[1] || n > (64UL << 20))
			exit(2);
		buf = malloc(n ? n : 1);
		if (!buf)
			exit(2);
		memset(buf, x[1], n);
		*out = buf;
		return n;
	}
	buf = malloc(cap);
	if (!buf)
		exit(2);
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

int main(int argc, char **argv)
{
	int i = 1, fd, flags = O_WRONLY | O_TRUNC, bad = 0;

	if (argc > 1 && !strcmp(argv[1], "-a")) {
		flags = O_WRONLY | O_APPEND;
		i++;
	}
	if (argc - i < 1) {
		fprintf(stderr, "usage: mux-write [-a] FILE ARG...\n");
		return 2;
	}
	fd = open(argv[i], flags);
	if (fd < 0) {
		printf("open %s\n", errname(errno));
		return 1;
	}
	for (i++; i < argc; i++) {
		char *buf;
		size_t len = decode(argv[i], &buf);
		ssize_t ret = write(fd, buf, len);

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
