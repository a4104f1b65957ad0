/* report.h -- cg_annotate-style text report (the layout of cg_annotate 3.21+),
 * with callgrind_annotate's --inclusive and --tree additions.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_REPORT_H
#define CGTUI_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "profile/model.h"

enum { TREE_NONE = 0, TREE_CALLER = 1, TREE_CALLING = 2, TREE_BOTH = 3 };

struct srclookup;
struct modname;

struct report_opts {
	int show[MAX_EVENTS], nshow; /* event indices; nshow 0 = all real events */
	int sort[MAX_EVENTS], nsort; /* nsort 0 = all recorded events */
	double threshold;            /* percent of the primary sort event */
	int show_percs;
	int annotate;
	int context;
	int inclusive;
	int tree;
	const char *invocation;      /* our command line, for the metadata */
	const char *const *src_dirs; /* where relative source names are tried */
	int nsrc_dirs;
	const struct srclookup *look; /* substitutions (and more dirs), or NULL */
	/* --mod-filename, remembering originals (modname_keep_originals), or
	 * NULL: a file is annotated from the sources of its original names */
	const struct modname *modfile;
	uint64_t used_derived;       /* (report_write's: the derived events it computes) */
};

void report_opts_default(struct report_opts *o);
/* Parses "A,B,C" into event indices; 0 or -1 with a message in err. */
int report_parse_events(const struct profile *p, const char *list, int *out, int *n,
			const char *what, char *err, size_t errsz);
void report_write(FILE *out, struct profile *p, const struct report_opts *o);

#endif
