/* import_int.h -- what import.c and import_pprof.c share: an import under
 * way and the costs it sums before they go into the model.  Not for other
 * files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_IMPORT_INT_H
#define CGTUI_IMPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "import.h"
#include "modname.h"

/* Costs summed by a key of four numbers: self costs by (function, file,
 * line), calls by (caller, callee, file, line). */
struct acc {
	int nr;
	uint32_t *key; /* 4 per entry */
	cost_t *cost;  /* nr per entry */
	uint32_t n, cap;
	uint32_t *slot; /* entry + 1 */
	uint32_t mask;
};

/* An import under way: the file's part, its events mapped to the
 * profile's, and the costs summed before they go into the model. */
struct imp {
	struct profile *p;
	const struct load_opts *o;
	const char *path;
	char *err;
	size_t errsz;
	int nev, evmap[MAX_EVENTS];
	int keep;            /* costs are kept (not an instr sink, the part wanted) */
	uint32_t obj_none, file_none;
	struct acc self, calls;
};

/* One stack: frames[0] the outermost, each a function at a (file, line);
 * v its values in the file's event order. */
struct frame {
	uint32_t fn, file, line;
};

/* What load.c does when it opens a file: the profile's list of sources,
 * and a part for the file. */
void imp_begin(struct imp *m, const char *creator);
/* The file's events: those of the profile so far when it has some (each
 * must be one of them), else these; -1 with m->err set when not. */
int imp_events(struct imp *m, char **names, const char **longnames, int n);
/* A name of namespace t (a function's or a file's), with --mod-funcname or
 * --mod-filename applied. */
uint32_t imp_intern(struct strtab *t, const struct modname *mod, const char *s, size_t len);
/* The function (obj, file, name), made when new. */
uint32_t imp_fn(struct imp *m, uint32_t obj, uint32_t file, const char *name, size_t len);
/* One stack's values: self cost to its innermost frame, inclusive cost to
 * each call along it. */
void imp_stack(struct imp *m, const struct frame *fr, size_t n, const cost_t *v);
/* The sums into the model: self costs a block per function, then the
 * calls (each call site once, with a count of 0). */
void imp_end(struct imp *m);
/* Frees the sums (not the profile). */
void imp_free(struct imp *m);

#endif
