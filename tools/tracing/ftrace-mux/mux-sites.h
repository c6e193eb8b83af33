/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inlined copies of a kernel function, from the debug info of
 * vmlinux or of its module (elfutils' libdwfl), as detour_functions
 * takes them: "[MODULE:]FUNC@CALLER+0xOFFSET".
 */
#ifndef MUX_SITES_H
#define MUX_SITES_H

#include <stddef.h>

struct mux_sites {
	char	**spec;		/* one per inlined copy */
	size_t	nr;
	char	*debuginfo;	/* the file they were read from */
};

/*
 * Find the inlined copies of @func ("FUNC" or "MODULE:FUNC") in the
 * running kernel: vmlinux's debug info (@vmlinux, or the usual places),
 * or the loaded module's.  Returns 0, or -1 with a message in @err.
 */
int mux_sites_find(const char *func, const char *vmlinux,
		   struct mux_sites *sites, char *err, size_t errlen);
void mux_sites_free(struct mux_sites *sites);

#endif /* MUX_SITES_H */
