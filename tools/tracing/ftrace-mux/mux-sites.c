// SPDX-License-Identifier: GPL-2.0
/*
 * The inlined copies of a kernel function, from debug info.
 *
 * Without LTO a function is inlined only in its own compilation unit, so
 * the copies of FUNC are the DW_TAG_inlined_subroutine entries of the
 * unit that holds FUNC's out-of-line copy whose abstract origin is named
 * FUNC; each starts at its entry pc (the address perf probe takes for the
 * same copy).  libdwfl lays out a module's sections and applies its
 * relocations, so addresses, symbols and offsets agree in one module.
 * Copies in init text are left out: it is gone once the kernel or the
 * module has started.  The debug info must be the running kernel's: its
 * build ID is checked against the kernel's (or the module's) notes.
 */
#include <dirent.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/kernel.h>

#include "mux-sites.h"

#define NT_GNU_BUILD_ID_TYPE	3

struct walk {
	const char	*func;
	Dwfl_Module	*mod;
	const char	*modname;	/* NULL for vmlinux */
	struct mux_sites *sites;
	Dwarf_Addr	*seen;
	int		failed;
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf	= dwfl_build_id_find_elf,
	.find_debuginfo	= dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* The GNU build ID among the ELF notes in @path; its length, or 0. */
static size_t read_build_id(const char *path, unsigned char *id, size_t max)
{
	unsigned char buf[4096];
	size_t off = 0, n;
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		uint32_t namesz, descsz, type;
		size_t name_off, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		name_off = off + 12;
		desc_off = name_off + ((namesz + 3) & ~3u);
		if (desc_off + descsz > n)
			break;
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 &&
		    !memcmp(buf + name_off, "GNU", 4) && descsz <= max) {
			memcpy(id, buf + desc_off, descsz);
			return descsz;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return 0;
}

/* Is @mod's debug info the running kernel's (or loaded module's)? */
static bool same_build(Dwfl_Module *mod, const char *modname)
{
	unsigned char want[64];
	const unsigned char *have;
	char path[512];
	GElf_Addr vaddr;
	size_t wlen;
	int hlen;

	if (modname)
		snprintf(path, sizeof(path), "/sys/module/%s/notes/.note.gnu.build-id",
			 modname);
	else
		snprintf(path, sizeof(path), "/sys/kernel/notes");
	wlen = read_build_id(path, want, sizeof(want));
	hlen = dwfl_module_build_id(mod, &have, &vaddr);
	/* No build ID on either side: nothing to check by */
	if (!wlen || hlen <= 0)
		return !wlen && hlen <= 0;
	return (size_t)hlen == wlen && !memcmp(have, want, wlen);
}

static bool has_debuginfo(const char *path, const char *modname)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	bool ok = false;

	if (!dwfl)
		return false;
	mod = dwfl_report_offline(dwfl, modname ?: "kernel", path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod && dwfl_module_getdwarf(mod, &bias))
		ok = true;
	dwfl_end(dwfl);
	return ok;
}

/* Search @dir recursively for @name; the first hit with debug info. */
static char *find_file(const char *dir, const char *name, const char *modname, int depth)
{
	struct dirent *e;
	char *hit = NULL;
	DIR *d;

	if (depth > 8)
		return NULL;
	d = opendir(dir);
	if (!d)
		return NULL;
	while (!hit && (e = readdir(d))) {
		char *path;

		if (e->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			break;
		if (e->d_type == DT_DIR) {
			hit = find_file(path, name, modname, depth + 1);
			free(path);
		} else if (!strncmp(e->d_name, name, strlen(name)) &&
			   (e->d_name[strlen(name)] == '\0' || e->d_name[strlen(name)] == '.') &&
			   has_debuginfo(path, modname)) {
			hit = path;
		} else {
			free(path);
		}
	}
	closedir(d);
	return hit;
}

/* A module's file name: its name, with '-' for any '_' it was built with */
static char *find_module_file(const char *modname)
{
	static const char *const roots[] = {
		"/usr/lib/debug/lib/modules/", "/lib/modules/",
	};
	char dir[512], ko[256], *hit = NULL, *p;
	struct utsname u;
	unsigned int i, dash;

	if (uname(&u))
		return NULL;
	for (dash = 0; dash < 2 && !hit; dash++) {
		snprintf(ko, sizeof(ko), "%s.ko", modname);
		for (p = ko; dash && *p; p++)
			if (*p == '_')
				*p = '-';
		for (i = 0; i < ARRAY_SIZE(roots) && !hit; i++) {
			snprintf(dir, sizeof(dir), "%s%s", roots[i], u.release);
			hit = find_file(dir, ko, modname, 0);
		}
	}
	return hit;
}

static char *find_vmlinux(void)
{
	/* Before and after the release */
	static const char *const places[][2] = {
		{ "/usr/lib/debug/boot/vmlinux-", "" },
		{ "/usr/lib/debug/lib/modules/", "/vmlinux" },
		{ "/boot/vmlinux-", "" },
		{ "/lib/modules/", "/build/vmlinux" },
	};
	struct utsname u;
	char path[512];
	unsigned int i;

	if (uname(&u))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(places); i++) {
		snprintf(path, sizeof(path), "%s%s%s", places[i][0], u.release,
			 places[i][1]);
		if (!access(path, R_OK) && has_debuginfo(path, NULL))
			return strdup(path);
	}
	return NULL;
}

/*
 * Which object holds @func, from /proc/kallsyms: "" for vmlinux, a
 * module's name, or NULL with @err set.
 */
static char *func_owner(const char *func, char *err, size_t errlen)
{
	char line[1024], name[512], mod[256], *owner = NULL;
	unsigned int n = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f) {
		snprintf(err, errlen, "cannot read /proc/kallsyms: %s", strerror(errno));
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		char type;
		int k;

		mod[0] = '\0';
		k = sscanf(line, "%*s %c %511s [%255[^]]]", &type, name, mod);
		if (k < 2 || (type != 't' && type != 'T') || strcmp(name, func))
			continue;
		if (n++ == 0)
			owner = strdup(mod);
	}
	fclose(f);
	if (!n)
		snprintf(err, errlen, "%s: no such function in the running kernel", func);
	if (n > 1) {
		snprintf(err, errlen, "%s: %u functions have that name", func, n);
		free(owner);
		owner = NULL;
	}
	return owner;
}

static bool in_init_text(Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Addr a = addr, bias;
	Elf_Scn *scn = dwfl_module_address_section(mod, &a, &bias);
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t shstrndx;
	GElf_Shdr shdr;
	const char *name;

	if (!scn || !elf || elf_getshdrstrndx(elf, &shstrndx) || !gelf_getshdr(scn, &shdr))
		return false;
	name = elf_strptr(elf, shstrndx, shdr.sh_name);
	return name && !strncmp(name, ".init", 5);
}

static int add_site(struct walk *w, Dwarf_Addr addr)
{
	const char *caller;
	GElf_Off off;
	GElf_Sym sym;
	char **spec;
	size_t i;

	for (i = 0; i < w->sites->nr; i++)
		if (w->seen[i] == addr)
			return 0;
	if (in_init_text(w->mod, addr))
		return 0;
	caller = dwfl_module_addrinfo(w->mod, addr, &off, &sym, NULL, NULL, NULL);
	if (!caller || !strcmp(caller, w->func))
		return 0;
	spec = realloc(w->sites->spec, (w->sites->nr + 1) * sizeof(*spec));
	if (!spec)
		return -1;
	w->sites->spec = spec;
	w->seen = realloc(w->seen, (w->sites->nr + 1) * sizeof(*w->seen));
	if (!w->seen)
		return -1;
	if (asprintf(&spec[w->sites->nr], "%s%s%s@%s+0x%llx", w->modname ?: "",
		     w->modname ? ":" : "", w->func, caller,
		     (unsigned long long)off) < 0)
		return -1;
	w->seen[w->sites->nr++] = addr;
	return 0;
}

/* Where an inlined copy starts: its entry pc, else its first range */
static bool copy_entry(Dwarf_Die *die, Dwarf_Addr *pc)
{
	Dwarf_Addr base, start, end;

	if (!dwarf_entrypc(die, pc))
		return true;
	if (dwarf_ranges(die, 0, &base, &start, &end) > 0) {
		*pc = start;
		return true;
	}
	return false;
}

static void walk_die(struct walk *w, Dwarf_Die *die, Dwarf_Addr bias)
{
	Dwarf_Die child, origin;
	Dwarf_Attribute attr;
	const char *name;
	Dwarf_Addr pc;

	if (dwarf_tag(die) == DW_TAG_inlined_subroutine &&
	    dwarf_attr(die, DW_AT_abstract_origin, &attr) &&
	    dwarf_formref_die(&attr, &origin)) {
		name = dwarf_formstring(dwarf_attr_integrate(&origin, DW_AT_name, &attr));
		if (name && !strcmp(name, w->func) && copy_entry(die, &pc) &&
		    add_site(w, pc + bias))
			w->failed = 1;
	}
	if (dwarf_child(die, &child))
		return;
	do
		walk_die(w, &child, bias);
	while (!w->failed && !dwarf_siblingof(&child, &child));
}

/* The address of @func's out-of-line copy in @mod; 0 if none or several */
static GElf_Addr func_addr(Dwfl_Module *mod, const char *func, unsigned int *n)
{
	int i, nsyms = dwfl_module_getsymtab(mod);
	GElf_Addr addr = 0, a;
	const char *name;
	GElf_Sym sym;

	*n = 0;
	for (i = 1; i < nsyms; i++) {
		name = dwfl_module_getsym_info(mod, i, &sym, &a, NULL, NULL, NULL);
		if (name && GELF_ST_TYPE(sym.st_info) == STT_FUNC && !strcmp(name, func)) {
			addr = a;
			(*n)++;
		}
	}
	return *n == 1 ? addr : 0;
}

int mux_sites_find(const char *func, const char *vmlinux,
		   struct mux_sites *sites, char *err, size_t errlen)
{
	const char *colon = strchr(func, ':');
	char *owner = NULL, *path = NULL;
	struct walk w = { .sites = sites };
	Dwfl *dwfl = NULL;
	Dwarf_Addr bias;
	Dwarf_Die *cu;
	GElf_Addr addr;
	unsigned int n;
	int ret = -1;

	memset(sites, 0, sizeof(*sites));
	if (colon) {
		owner = strndup(func, colon - func);
		func = colon + 1;
	} else {
		owner = func_owner(func, err, errlen);
		if (!owner)
			return -1;
	}
	w.func = func;
	w.modname = *owner ? owner : NULL;
	if (w.modname)
		path = find_module_file(w.modname);
	else
		path = vmlinux ? strdup(vmlinux) : find_vmlinux();
	if (!path) {
		if (w.modname)
			snprintf(err, errlen,
				 "no debug info for module %s (its -dbg package, or CONFIG_DEBUG_INFO)",
				 w.modname);
		else
			snprintf(err, errlen,
				 "no vmlinux with debug info for this kernel (--vmlinux FILE, or a -dbg package)");
		goto out;
	}
	dwfl = dwfl_begin(&offline_callbacks);
	w.mod = dwfl ? dwfl_report_offline(dwfl, w.modname ?: "kernel", path, -1) : NULL;
	if (dwfl)
		dwfl_report_end(dwfl, NULL, NULL);
	if (!w.mod || !dwfl_module_getdwarf(w.mod, &bias)) {
		snprintf(err, errlen, "%s: no debug info: %s", path, dwfl_errmsg(-1));
		goto out;
	}
	if (!same_build(w.mod, w.modname)) {
		snprintf(err, errlen, "%s is not the running %s's build (build IDs differ)",
			 path, w.modname ? "module" : "kernel");
		goto out;
	}
	addr = func_addr(w.mod, func, &n);
	if (n > 1) {
		snprintf(err, errlen, "%s: %u functions have that name in %s", func, n, path);
		goto out;
	}
	if (!n) {
		snprintf(err, errlen, "%s: no out-of-line copy in %s, so nothing can name it",
			 func, path);
		goto out;
	}
	cu = dwfl_module_addrdie(w.mod, addr, &bias);
	if (!cu) {
		snprintf(err, errlen, "%s: no compilation unit holds it in %s", func, path);
		goto out;
	}
	walk_die(&w, cu, bias);
	if (w.failed) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	sites->debuginfo = path;
	path = NULL;
	ret = 0;
out:
	if (ret)
		mux_sites_free(sites);
	free(w.seen);
	if (dwfl)
		dwfl_end(dwfl);
	free(path);
	free(owner);
	return ret;
}

void mux_sites_free(struct mux_sites *sites)
{
	size_t i;

	for (i = 0; i < sites->nr; i++)
		free(sites->spec[i]);
	free(sites->spec);
	free(sites->debuginfo);
	memset(sites, 0, sizeof(*sites));
}
