// SPDX-License-Identifier: GPL-2.0
/*
 * mux-bpf: attach and detach BPF fentry, fexit, fmod_ret and kprobe_multi
 * programs on one kernel function, on command, so that a shell test can
 * interleave them with ftrace's own tracers and check every count.
 *
 *   mux-bpf FUNCTION [fmod_ret]
 *
 * loads the fmod_ret program only when asked: the verifier accepts it
 * only on functions open to error injection (system calls, for one).  It
 * reads one command a line from stdin and answers one line on stdout:
 *
 *   attach fentry|fexit|fmod_ret|multi	"ok" or "error: ..."
 *   detach fentry|fexit|fmod_ret|multi	"ok" or "error: ..."
 *   call N			makes N getcpu() system calls, "ok"
 *   count			"fentry E fexit X multi M fmod_ret R", the
 *				calls since the last count
 *   quit
 *
 * FUNCTION is what the programs attach to; call N only reaches it when it
 * is on the getcpu() path (__x64_sys_getcpu).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "mux_count.skel.h"

static struct mux_count *skel;
#define NR_PROGS 4
static struct bpf_link *links[NR_PROGS];
static const char *const names[NR_PROGS] = { "fentry", "fexit", "multi", "fmod_ret" };
static bool want_modret;

static int which(const char *name)
{
	for (int i = 0; i < NR_PROGS; i++)
		if (name && !strcmp(name, names[i]))
			return i;
	return -1;
}

/* A counter's value, leaving 0 in one step */
static unsigned long long take(__u64 *counter)
{
	return __atomic_exchange_n(counter, 0, __ATOMIC_SEQ_CST);
}

static int attach(int i, const char *func)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts);
	struct bpf_link *link;

	if (links[i])
		return -EBUSY;
	switch (i) {
	case 0:
		link = bpf_program__attach(skel->progs.count_entry);
		break;
	case 1:
		link = bpf_program__attach(skel->progs.count_exit);
		break;
	case 3:
		if (!want_modret)
			return -ENOENT;
		link = bpf_program__attach(skel->progs.count_modret);
		break;
	default:
		link = bpf_program__attach_kprobe_multi_opts(skel->progs.count_multi,
							    func, &opts);
		break;
	}
	if (!link)
		return -errno;
	links[i] = link;
	return 0;
}

static int detach(int i)
{
	int err;

	if (!links[i])
		return -ENOENT;
	err = bpf_link__destroy(links[i]);
	links[i] = NULL;
	return err;
}

int main(int argc, char **argv)
{
	char line[128], cmd[16], arg[64];
	int err, i;

	if (argc == 3 && !strcmp(argv[2], "fmod_ret"))
		want_modret = true;
	else if (argc != 2) {
		fprintf(stderr, "usage: mux-bpf FUNCTION [fmod_ret]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	skel = mux_count__open();
	if (!skel) {
		fprintf(stderr, "mux-bpf: open: %s\n", strerror(errno));
		return 1;
	}
	err = bpf_program__set_attach_target(skel->progs.count_entry, 0, argv[1]);
	if (!err)
		err = bpf_program__set_attach_target(skel->progs.count_exit, 0, argv[1]);
	if (!err && want_modret)
		err = bpf_program__set_attach_target(skel->progs.count_modret, 0, argv[1]);
	if (!err && !want_modret)
		err = bpf_program__set_autoload(skel->progs.count_modret, false);
	if (!err)
		err = mux_count__load(skel);
	if (err) {
		fprintf(stderr, "mux-bpf: load for %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		arg[0] = '\0';
		if (sscanf(line, "%15s %63s", cmd, arg) < 1)
			continue;
		if (!strcmp(cmd, "quit"))
			break;
		if (!strcmp(cmd, "attach") || !strcmp(cmd, "detach")) {
			i = which(arg);
			if (i < 0) {
				printf("error: no program %s\n", arg);
				continue;
			}
			err = cmd[0] == 'a' ? attach(i, argv[1]) : detach(i);
			if (err)
				printf("error: %s %s: %s\n", cmd, arg, strerror(-err));
			else
				printf("ok\n");
		} else if (!strcmp(cmd, "call")) {
			unsigned int cpu, node;
			long n = strtol(arg, NULL, 10);

			for (long k = 0; k < n; k++)
				syscall(SYS_getcpu, &cpu, &node, NULL);
			printf("ok\n");
		} else if (!strcmp(cmd, "count")) {
			/*
			 * Taken and zeroed at once, before the answer: the
			 * asker calls the functions as soon as it has read
			 * it, maybe on another CPU while this task is still
			 * here, and zeroing after the answer lost those
			 * calls now and then.
			 */
			printf("fentry %llu fexit %llu multi %llu fmod_ret %llu\n",
			       take(&skel->bss->entry_hits),
			       take(&skel->bss->exit_hits),
			       take(&skel->bss->multi_hits),
			       take(&skel->bss->modret_hits));
		} else {
			printf("error: unknown command %s\n", cmd);
		}
	}
	for (i = 0; i < NR_PROGS; i++)
		detach(i);
	mux_count__destroy(skel);
	return 0;
}
