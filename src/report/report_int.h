/* report_int.h -- what the report's files share (report.c: the sections
 * and the whole report; tree.c: callers and callees, --tree; annotate.c:
 * the annotated source files): the column printer, the expanded cost
 * vectors, the file:function sections.  Not for other rooms.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_REPORT_INT_H
#define CGTUI_REPORT_INT_H

#include <stdio.h>

#include "report.h"
#include "profile/model.h"

struct ccp {
	FILE *out;
	const struct profile *p;
	const struct report_opts *o;
	const cost_t *summary; /* nevents */
	const int *show;
	int nshow;
	const char *prefix;
	int count_w[MAX_EVENTS], perc1_w[MAX_EVENTS], perc2_w[MAX_EVENTS];
};

/* A section of the report (file:function, function:file) as printed: its
 * groups (made by profile/grouping.h's rule) with their cost vectors
 * expanded to the derived events the report uses, and what the threshold
 * keeps.  An entry of a group: */
struct sec_entry {
	const char *name;
	cost_t *cc;
	int kept;
};
struct sec_group {
	const char *name;
	uint32_t id;
	uint32_t fnid; /* the function, when a group is one function */
	cost_t *outer;
	struct sec_entry *in;
	int nin, capin, nkept;
	int kept;
};

struct section {
	struct sec_group *g;
	int ng;
	int ccw;               /* the entries' cost vectors have this many events */
	struct sec_entry *pool_in; /* when set, every group's entries live here */
	cost_t *pool_cc;       /* and their cost vectors here */
	cost_t *pool_outer;    /* and the groups' */
};

void rep_ccp_init(struct ccp *c, const cost_t *min, const cost_t *max, const cost_t *mincum,
		     const cost_t *maxcum);
void rep_extremes(int n, const cost_t *cc, cost_t *min, cost_t *max);
void rep_print_events(const struct ccp *c, const char *suffix);
void rep_print_cc(const struct ccp *c, const cost_t *cc, const cost_t *cum, const char *suffix);
void rep_print_missing(const struct ccp *c, const char *suffix);
void rep_fancy(FILE *out, const char *title);
cost_t *rep_expand(const struct report_opts *o, const struct profile *p, const cost_t *real);
/* The threshold, on an expanded cost vector: rank_shown of the primary
 * sort event against the summary's. */
int rep_above(const struct report_opts *o, const cost_t *summary, const cost_t *cc);
void rep_expand_into(const struct report_opts *o, const struct profile *p, const cost_t *real,
			cost_t *x);
void rep_add_to(cost_t *dst, const cost_t *src, int n);
int rep_cmp_cc_name(const cost_t *a, const char *an, const cost_t *b, const char *bn,
		       const struct report_opts *o);
void rep_print_tree(FILE *out, struct profile *p, const struct report_opts *o,
		       const cost_t *summary, const struct section *s);
void rep_annotate_all(FILE *out, struct profile *p, const struct report_opts *o,
			 const cost_t *summary, const struct section *ffs);

#endif
