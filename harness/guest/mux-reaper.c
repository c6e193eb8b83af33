// SPDX-License-Identifier: GPL-2.0
/*
 * mux-reaper: an orphan reparented to a subreaper that exec'd, with the
 * exec counts of both equal, for select-owner.tc.  Run in the top of
 * tracefs:
 *
 *   mux-reaper DIR
 *
 * E (this process) becomes a child subreaper and forks H; H execs once
 * and forks H2, then exits, so H2 is reparented to E.  E execs once too,
 * as a container entrypoint that runs a helper and then execs its tool,
 * and selects function_profile in function_tracers.  H2 then writes
 * "vfs_read" to set_ftrace_filter.  H2's parent_exec_id (H's exec count)
 * equals E's exec count, yet H2 is no fork of the program E runs now: its
 * write must edit the global filter.  E writes its pid to DIR/reaper, H2
 * its parent's to DIR/ppid and "written" to DIR/done.  Exits 0 once H2
 * is reaped, 1 on an error.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static const char *dir;

static int put(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, text, strlen(text));
		close(fd);
	}
	if (n != (ssize_t)strlen(text)) {
		perror(file);
		return 1;
	}
	return 0;
}

static int put_in_dir(const char *name, const char *text)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return put(path, text);
}

static void again(const char *role)
{
	execl("/proc/self/exe", "mux-reaper", dir, role, (char *)NULL);
	perror("mux-reaper: exec");
	exit(1);
}

int main(int argc, char **argv)
{
	const char *role = argc > 2 ? argv[2] : "";
	char buf[32];
	pid_t h;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: mux-reaper DIR\n");
		return 1;
	}
	dir = argv[1];
	if (!strcmp(role, "helper")) {
		/* H, exec'd once: fork H2 and leave it an orphan */
		if (fork() == 0) {
			sleep(1);
			snprintf(buf, sizeof(buf), "%d\n", getppid());
			if (put_in_dir("ppid", buf) || put("set_ftrace_filter", "vfs_read\n"))
				exit(1);
			exit(put_in_dir("done", "written\n"));
		}
		return 0;
	}
	if (!strcmp(role, "tool")) {
		/* E, exec'd once since it forked H */
		snprintf(buf, sizeof(buf), "%d\n", getpid());
		if (put_in_dir("reaper", buf) || put("function_tracers", "function_profile\n"))
			return 1;
		/* H2, reparented here */
		while (wait(&st) > 0)
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				return 1;
		return 0;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) {
		perror("mux-reaper: PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	h = fork();
	if (h < 0)
		return 1;
	if (h == 0)
		again("helper");
	if (waitpid(h, &st, 0) != h || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1;
	again("tool");
}
