// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace-mux detours: the tracefs file detour_functions.
 *
 * Reading it lists the detours (ftrace_mux_detours_show()), then the
 * sites of inlined copies (ftrace_mux_sites_show()).  A write is a list
 * of commands separated by white space: "SYMBOL" or "MODULE:SYMBOL"
 * detours a function, "SYMBOL@CALLER+OFFSET" (or "MODULE:...") one
 * inlined copy of it, "!" before either removes it, and "!SYMBOL"
 * removes every site of the function too.  Each piece of a write runs
 * all its commands or none, and says why not in error_log.  Opening it
 * with O_TRUNC removes every detour and site.  What a detour is and how
 * it is put in place: ftrace_mux_detour.c; a site:
 * ftrace_mux_detour_site.c.
 */
#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ftrace_mux_detour.h"
#include "trace.h"

static const char * const ftrace_mux_detour_errs[] = {
	[DETOUR_ERR_MALFORMED]		=
		"Expected SYMBOL, MODULE:SYMBOL or SYMBOL@CALLER+OFFSET, or ! before one",
	[DETOUR_ERR_NO_SYMBOL]		= "No such symbol",
	[DETOUR_ERR_AMBIGUOUS]		= "Symbol is not unique",
	[DETOUR_ERR_NOT_TEXT]		= "Not a function in kernel or module text",
	[DETOUR_ERR_NOT_ENTRY]		=
		"Not where a function is entered (a .cold part or an inner label)",
	[DETOUR_ERR_FENTRY]		= "Has an fentry call: use set_ftrace_filter",
	[DETOUR_ERR_UNSAFE]		=
		"Unsafe to probe (kprobe blacklist, noinstr or entry code)",
	[DETOUR_ERR_TRACING]		=
		"Part of the tracing core, which tracers run (kernel/trace)",
	[DETOUR_ERR_REACHED]		=
		"Reached from the tracers' own code (ftrace, kprobes, the tracing core)",
	[DETOUR_ERR_NOMEM]		= "Out of memory",
	[DETOUR_ERR_EXISTS]		= "Already detoured",
	[DETOUR_ERR_FULL]		= "No free detour (CONFIG_FTRACE_MUX_DETOURS)",
	[DETOUR_ERR_KPROBE]		= "kprobes cannot probe this function",
	[DETOUR_ERR_NOT_DETOURED]	= "Not detoured",
	[DETOUR_ERR_NO_COPY]		=
		"The function has neither an fentry call nor a detour: detour it first",
	[DETOUR_ERR_SITE_RANGE]		=
		"The offset is not inside CALLER, or CALLER is the function",
	[DETOUR_ERR_SITE_FENTRY]	= "The site is an fentry call",
	[DETOUR_ERR_SITE_KPROBE]	=
		"kprobes cannot probe the site (not an instruction boundary?)",
	[DETOUR_ERR_SITE_FULL]		= "No free site (1024 at most)",
};

static void ftrace_mux_detour_err(const char *cmd, int err)
{
	tracing_log_err(NULL, "detour_functions", cmd, ftrace_mux_detour_errs,
			err, 0);
}

/* The characters of a command; ftrace_mux_site_vet() parses a site's */
static bool ftrace_mux_detour_valid_sym(const char *sym)
{
	const char *p;

	if (!*sym || strlen(sym) >= KSYM_NAME_LEN)
		return false;
	for (p = sym; *p; p++)
		if (!isascii(*p) || (!isalnum(*p) && !strchr("_.$:@+", *p)))
			return false;
	if (!strchr(sym, '@') && strchr(sym, '+'))
		return false;
	return strchr(sym, ':') == strrchr(sym, ':') && *sym != ':';
}

struct ftrace_mux_detour_cmd {
	char				*sym;
	bool				del;
	bool				site;
	unsigned long			func;
	unsigned long			addr;	/* the site's */
	struct ftrace_mux_detour	*d;
	struct ftrace_mux_site		*s;
};

/* Vet the removal of a site, or of a function with its sites. */
static int ftrace_mux_detour_vet_del(struct ftrace_mux_detour_cmd *cmds,
				     int i, int *nr_after, int *why)
{
	struct ftrace_mux_detour_cmd *c = &cmds[i];
	int j;

	*why = DETOUR_ERR_NOT_DETOURED;
	if (c->site) {
		c->s = ftrace_mux_site_find_spec(c->sym);
		for (j = 0; j < i && c->s; j++)
			if (cmds[j].del && cmds[j].s == c->s)
				c->s = NULL;
		return c->s ? 0 : -ENOENT;
	}
	c->d = ftrace_mux_detour_find_name(c->sym);
	if (c->d)
		c->func = ftrace_mux_detour_func(c->d);
	else if (ftrace_mux_detour_resolve(c->sym, &c->func, why) ||
		 !ftrace_mux_sites_of(c->func))
		c->func = 0;
	*why = DETOUR_ERR_NOT_DETOURED;
	for (j = 0; j < i && c->func; j++)
		if (cmds[j].del && !cmds[j].site && cmds[j].func == c->func)
			c->func = 0;
	if (!c->func)
		return -ENOENT;
	if (c->d)
		(*nr_after)--;
	return 0;
}

/* Vet a new site; @cmds holds the commands before it. */
static int ftrace_mux_detour_vet_site(struct ftrace_mux_detour_cmd *cmds,
				      int i, int *why)
{
	struct ftrace_mux_detour_cmd *c = &cmds[i];
	int j, ret;

	ret = ftrace_mux_site_vet(c->sym, &c->func, &c->addr, why);
	/* A function without an fentry call, detoured by this write first */
	for (j = 0; j < i && ret == -ENOENT && *why == DETOUR_ERR_NO_COPY; j++)
		if (!cmds[j].del && !cmds[j].site && cmds[j].func == c->func)
			ret = 0;
	if (ret)
		return ret;
	for (j = 0; j < i; j++) {
		if (!cmds[j].del && cmds[j].site && cmds[j].addr == c->addr) {
			*why = DETOUR_ERR_EXISTS;
			return -EEXIST;
		}
	}
	return 0;
}

/* Vet one command of a write; @cmds holds the ones before it. */
static int ftrace_mux_detour_vet_cmd(struct ftrace_mux_detour_cmd *cmds,
				     int i, int *nr_after, int *why)
{
	struct ftrace_mux_detour_cmd *c = &cmds[i];
	int j, ret;

	*why = DETOUR_ERR_MALFORMED;
	if (!ftrace_mux_detour_valid_sym(c->sym))
		return -EINVAL;
	c->site = strchr(c->sym, '@');
	if (c->del)
		return ftrace_mux_detour_vet_del(cmds, i, nr_after, why);
	if (c->site)
		return ftrace_mux_detour_vet_site(cmds, i, why);
	ret = ftrace_mux_detour_vet(c->sym, &c->func, why);
	if (ret)
		return ret;
	for (j = 0; j < i; j++) {
		if (!cmds[j].del && !cmds[j].site && cmds[j].func == c->func) {
			*why = DETOUR_ERR_EXISTS;
			return -EEXIST;
		}
	}
	*why = DETOUR_ERR_FULL;
	if (++(*nr_after) > FTRACE_MUX_DETOURS)
		return -ENOSPC;
	return 0;
}

/* Add what @c adds, its probe registered and disabled */
static int ftrace_mux_detour_cmd_add(struct ftrace_mux_detour_cmd *c, int *why)
{
	if (c->del)
		return 0;
	if (c->site)
		return ftrace_mux_site_add(c->func, c->addr, &c->s, why);
	return ftrace_mux_detour_add(c->func, &c->d, why);
}

/* Enable the probe of what @c added */
static int ftrace_mux_detour_cmd_arm(struct ftrace_mux_detour_cmd *c, int *why)
{
	if (c->del)
		return 0;
	if (c->site) {
		*why = DETOUR_ERR_SITE_KPROBE;
		return ftrace_mux_site_arm(c->s);
	}
	*why = DETOUR_ERR_KPROBE;
	return ftrace_mux_detour_arm(c->d);
}

/*
 * Carry out one write's commands.  All are vetted first; additions are
 * made in order (a function's detour before its sites), then their
 * probes enabled (ftrace_mux_detour_arm()), and all are undone if one
 * fails (kprobes may still refuse), so a failed write changes nothing;
 * removals, which cannot fail, come last: sites, then functions with
 * theirs (the sites read the detour's record).
 */
static int ftrace_mux_detour_cmds(char *buf)
{
	struct ftrace_mux_detour_cmd *cmds;
	int i, n = 0, added, failed, nr_after, why = 0, ret = 0;
	char *p = buf, *tok;

	while ((tok = strsep(&p, " \t\n\r\v\f")))
		n += !!*tok;
	if (!n)
		return 0;
	cmds = kcalloc(n, sizeof(*cmds), GFP_KERNEL);
	if (!cmds)
		return -ENOMEM;
	/* strsep() left a NUL after each token; walk them again */
	for (i = 0, tok = buf; i < n; tok += strlen(tok) + 1) {
		if (!*tok)
			continue;
		cmds[i].del = *tok == '!';
		cmds[i++].sym = tok + (*tok == '!');
	}

	mutex_lock(&ftrace_mux_detour_mutex);
	nr_after = ftrace_mux_nr_detours;
	for (i = 0; i < n && !ret; i++)
		ret = ftrace_mux_detour_vet_cmd(cmds, i, &nr_after, &why);
	if (ret) {
		i--;
		goto out;
	}
	for (added = 0; added < n && !ret; added++)
		ret = ftrace_mux_detour_cmd_add(&cmds[added], &why);
	if (ret) {
		failed = --added;
	} else {
		for (i = 0; i < n && !ret; i++)
			ret = ftrace_mux_detour_cmd_arm(&cmds[i], &why);
		failed = i - 1;
	}
	if (ret) {
		for (i = added; i-- > 0; ) {
			if (cmds[i].del)
				continue;
			if (cmds[i].site)
				ftrace_mux_site_remove(cmds[i].s);
			else
				ftrace_mux_detour_remove(cmds[i].d);
		}
		i = failed;
		goto out;
	}
	for (i = 0; i < n; i++)
		if (cmds[i].del && cmds[i].site)
			ftrace_mux_site_remove(cmds[i].s);
	for (i = 0; i < n; i++) {
		if (!cmds[i].del || cmds[i].site)
			continue;
		ftrace_mux_sites_remove_func(cmds[i].func);
		if (cmds[i].d)
			ftrace_mux_detour_remove(cmds[i].d);
	}
out:
	ftrace_mux_detour_free_jumps();
	mutex_unlock(&ftrace_mux_detour_mutex);
	if (ret)
		ftrace_mux_detour_err(cmds[i].sym - cmds[i].del, why);
	kfree(cmds);
	return ret;
}

/*
 * A write's last, unterminated command waits here for more or for close.
 * Writers of one open file are serialized by @lock: pwrite() bypasses the
 * file position lock, and the length check and copy must go together.
 */
struct ftrace_mux_detour_file {
	struct mutex	lock;
	size_t		len;
	char		buf[];
};

#define DETOUR_WRITE_MAX	(PAGE_SIZE - sizeof(struct ftrace_mux_detour_file))

static int ftrace_mux_detour_show(struct seq_file *m, void *v)
{
	mutex_lock(&ftrace_mux_detour_mutex);
	ftrace_mux_detours_show(m);
	ftrace_mux_sites_show(m);
	mutex_unlock(&ftrace_mux_detour_mutex);
	return 0;
}

static int ftrace_mux_detour_open(struct inode *inode, struct file *file)
{
	struct ftrace_mux_detour_file *f = NULL;
	int ret;

	ret = tracing_check_open_get_tr(NULL);
	if (ret)
		return ret;
	if (file->f_mode & FMODE_WRITE) {
		f = kzalloc(PAGE_SIZE, GFP_KERNEL);
		if (!f)
			return -ENOMEM;
		mutex_init(&f->lock);
		if (file->f_flags & O_TRUNC) {
			mutex_lock(&ftrace_mux_detour_mutex);
			ftrace_mux_sites_remove_all();
			ftrace_mux_detour_remove_all();
			mutex_unlock(&ftrace_mux_detour_mutex);
		}
	}
	if (file->f_mode & FMODE_READ) {
		ret = single_open(file, ftrace_mux_detour_show, NULL);
		if (ret) {
			if (file->f_mode & FMODE_WRITE)
				kfree(f);
			return ret;
		}
		if (file->f_mode & FMODE_WRITE)
			((struct seq_file *)file->private_data)->private = f;
	} else {
		file->private_data = f;
	}
	return 0;
}

static struct ftrace_mux_detour_file *ftrace_mux_detour_file(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

/*
 * Take @cnt bytes: complete commands run as each piece of at most a page
 * arrives (a piece's commands all or nothing), the unterminated rest
 * waits.  A fault stops the write where it happened, nothing of the piece
 * it hit pending.
 */
static ssize_t ftrace_mux_detour_write_locked(struct ftrace_mux_detour_file *f,
					      const char __user *ubuf, size_t cnt)
{
	size_t taken = 0, n, done;
	char *end, save;
	int ret;

	while (taken < cnt) {
		n = min(cnt - taken, DETOUR_WRITE_MAX - 1 - f->len);
		if (!n) {
			/* One command as long as a page: no symbol is */
			ret = -E2BIG;
			goto malformed;
		}
		if (copy_from_user(f->buf + f->len, ubuf + taken, n)) {
			f->buf[f->len] = '\0';
			return taken ?: -EFAULT;
		}
		f->buf[f->len + n] = '\0';
		/* A NUL in a command is malformed, not its end. */
		if (memchr(f->buf + f->len, '\0', n)) {
			ret = -EINVAL;
			goto malformed;
		}
		f->len += n;
		taken += n;

		/* Complete commands end in white space; the rest waits. */
		for (end = f->buf + f->len; end > f->buf && !isspace(end[-1]); end--)
			;
		done = end - f->buf;
		if (!done)
			continue;
		save = *end;
		*end = '\0';
		ret = ftrace_mux_detour_cmds(f->buf);
		*end = save;
		f->len -= done;
		memmove(f->buf, f->buf + done, f->len + 1);
		if (ret) {
			f->len = 0;
			f->buf[0] = '\0';
			return ret;
		}
	}
	return cnt;

malformed:
	f->len = 0;
	f->buf[0] = '\0';
	ftrace_mux_detour_err("", DETOUR_ERR_MALFORMED);
	return ret;
}

static ssize_t ftrace_mux_detour_write(struct file *file, const char __user *ubuf,
				       size_t cnt, loff_t *ppos)
{
	struct ftrace_mux_detour_file *f = ftrace_mux_detour_file(file);
	ssize_t ret;

	if (!cnt)
		return 0;
	mutex_lock(&f->lock);
	ret = ftrace_mux_detour_write_locked(f, ubuf, cnt);
	mutex_unlock(&f->lock);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static int ftrace_mux_detour_release(struct inode *inode, struct file *file)
{
	struct ftrace_mux_detour_file *f;

	if (file->f_mode & FMODE_WRITE) {
		f = ftrace_mux_detour_file(file);
		/*
		 * Like set_ftrace_filter, the last command may end at the last
		 * close, which cannot fail: an error goes to error_log only.
		 * (Not in .flush: that runs at every close of a shared file,
		 * a forked child's too, in the middle of a command.)
		 */
		if (f->len)
			ftrace_mux_detour_cmds(f->buf);
		kfree(f);
	}
	if (file->f_mode & FMODE_READ)
		single_release(inode, file);
	trace_array_put(NULL);
	return 0;
}

static const struct file_operations ftrace_mux_detour_fops = {
	.open		= ftrace_mux_detour_open,
	.read		= seq_read,
	.write		= ftrace_mux_detour_write,
	.llseek		= tracing_lseek,
	.release	= ftrace_mux_detour_release,
};

static __init int ftrace_mux_detour_file_init(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_create_file("detour_functions", TRACE_MODE_WRITE, NULL, NULL,
			  &ftrace_mux_detour_fops);
	return 0;
}
fs_initcall(ftrace_mux_detour_file_init);
