// SPDX-License-Identifier: GPL-2.0
/*
 * mux-pwrite: two processes pwrite() to one open tracefs file at once, to
 * catch writers of a shared open file that are not serialized.
 *
 *   mux-pwrite ROUNDS FILE SIZE
 *
 * Each round opens FILE for writing (O_APPEND), forks two children that
 * wait on one pipe and then pwrite() SIZE bytes of 'a' at offset 0, and
 * closes it.  Prints "rounds R both B one O none N other X": B counts
 * rounds where both writes were accepted, O where exactly one was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int writer(int fd, int go, size_t size)
{
	char *buf = malloc(size), c;

	if (!buf || read(go, &c, 1) != 1)
		return 3;
	memset(buf, 'a', size);
	if (pwrite(fd, buf, size, 0) == (ssize_t)size)
		return 0;
	return errno == E2BIG ? 1 : 2;
}

int main(int argc, char **argv)
{
	unsigned long rounds, size, r, both = 0, one = 0, none = 0, other = 0;
	int i, fd, p[2], st, ok;
	pid_t pid[2];

	if (argc != 4) {
		fprintf(stderr, "usage: mux-pwrite ROUNDS FILE SIZE\n");
		return 2;
	}
	rounds = strtoul(argv[1], NULL, 0);
	size = strtoul(argv[3], NULL, 0);
	for (r = 0; r < rounds; r++) {
		fd = open(argv[2], O_WRONLY | O_APPEND);
		if (fd < 0 || pipe(p)) {
			perror(argv[2]);
			return 2;
		}
		for (i = 0; i < 2; i++) {
			pid[i] = fork();
			if (pid[i] == 0)
				_exit(writer(fd, p[0], size));
		}
		if (write(p[1], "gg", 2) != 2)
			return 2;
		ok = 0;
		for (i = 0; i < 2; i++) {
			if (waitpid(pid[i], &st, 0) < 0 || !WIFEXITED(st) ||
			    WEXITSTATUS(st) > 1)
				other++;
			else
				ok += WEXITSTATUS(st) == 0;
		}
		close(p[0]);
		close(p[1]);
		close(fd);
		if (ok == 2)
			both++;
		else if (ok == 1)
			one++;
		else
			none++;
	}
	printf("rounds %lu both %lu one %lu none %lu other %lu\n",
	       rounds, both, one, none, other);
	return both || other;
}
