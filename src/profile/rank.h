/* rank.h -- the one threshold rule and the one ordering of costed rows,
 * called by every view, the trees and the report.  No terminal here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_RANK_H
#define CGTUI_RANK_H

#include <stdint.h>

#include "model.h"

/* The threshold (cg_annotate's rule): a row is shown when the magnitude of
 * its sort event's value is at least `percent` percent of the magnitude of
 * that event's total, the limit computed as percent * |total| / 100 in
 * double precision, as cg_annotate does.  A zero is no cost: it is shown only
 * when zero_ok (the report, which prints what cg_annotate prints at
 * threshold 0), or, in the views, when the whole total is zero and the
 * profile is not a difference (there is nothing else to show). */
struct rank_thr {
	double limit;
	int zero_ok;
};
/* The views' threshold for event ev of p. */
struct rank_thr rank_threshold(const struct profile *p, int ev, double percent);
/* The report's: a threshold of `percent` of total (a summary line's value). */
struct rank_thr rank_threshold_of(cost_t total, double percent);
int rank_shown(const struct rank_thr *t, cost_t v);

/* The one ordering: the largest magnitude first (a difference's big decreases
 * among the first), comparing the values v[ev[0]], v[ev[1]] ... in turn
 * (ev NULL: v[0] only); then, on a tie, RANK_VIEW orders the larger value
 * first, then by name A..Z, then by id, and RANK_REPORT follows cg_annotate
 * (which sorts (magnitudes, name) in reverse): the name Z..A. */
enum rank_ties { RANK_VIEW, RANK_REPORT };
struct rank_key {
	const cost_t *v;
	const char *name;
	uint32_t id;
};
struct rank_order {
	const int *ev;
	int nev;
	enum rank_ties ties;
};
int rank_cmp(const struct rank_key *a, const struct rank_key *b, const struct rank_order *o);
/* Its part before the names (the values a and b of the keys): 0 when they
 * tie there (for a caller whose names cost something to find). */
int rank_cmp_values(const cost_t *a, const cost_t *b, const struct rank_order *o);

/* Rows put in order as they are read (an incremental quicksort): a list of
 * 400,000 rows of which a page is shown costs a pass or two over them, not
 * a sort.  rank_lazy_at(l, i) puts the i-th element of base's order in its
 * place, partitioning only the part of the array around i (later reads
 * near it are cheap; reading them all costs a sort).  cmp must be a total
 * order (no two elements equal), so the order is that of a full sort
 * whatever was read first. */
struct rank_lazy {
	char *base;
	size_t n, size;
	int (*cmp)(const void *a, const void *b, void *arg);
	void *arg;
	unsigned char *done; /* done[i]: element i is in its place */
	char *tmp;           /* one element (swaps) */
};
void rank_lazy_init(struct rank_lazy *l, void *base, size_t n, size_t size,
		    int (*cmp)(const void *a, const void *b, void *arg), void *arg);
/* The i-th element (i < l->n) in order. */
void *rank_lazy_at(struct rank_lazy *l, size_t i);
/* Frees what init allocated (not base). */
void rank_lazy_free(struct rank_lazy *l);

#endif
