/* demangle.c -- mangled C++ function names demangled; see demangle.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "demangle.h"

#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

size_t profile_demangle(struct profile *p)
{
	size_t n = 0;
	/* function names only (files and objects are not symbols); a name
	 * made of a mangled symbol and callgrind's 'N or 'caller suffix
	 * keeps the suffix */
	uint8_t *is_fn = xcalloc((size_t)p->names.n + 1, 1);
	for (uint32_t f = 0; f < p->nfns; f++)
		is_fn[p->fns[f].name] = 1;
	for (uint32_t id = 0; id < p->names.n; id++) {
		const char *s = p->names.str[id];
		if (!is_fn[id] || strncmp(s, "_Z", 2) != 0)
			continue;
		const char *q = strchr(s, '\'');
		char *sym = q ? xstrndup(s, (size_t)(q - s)) : NULL;
		char *d = cplus_demangle(sym ? sym : s, DMGL_PARAMS | DMGL_ANSI);
		if (d) {
			char *full = q ? xasprintf("%s%s", d, q) : NULL;
			const char *t = full ? full : d;
			strtab_rename(&p->names, id, t, strlen(t));
			free(full);
			free(d);
			n++;
		}
		free(sym);
	}
	free(is_fn);
	return n;
}
