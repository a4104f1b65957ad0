/* aggregate.h -- what is computed from a loaded profile: per-function self
 * and inclusive costs, call counts, callers/callees, cycles, and cg_annotate's
 * file:function / function:file groupings.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_AGGREGATE_H
#define CGTUI_AGGREGATE_H

#include "model.h"

struct agg {
	int nreal;
	uint32_t nfns;
	cost_t *fn_self;    /* nfns * nreal */
	cost_t *fn_incl;    /* nfns * nreal: self + calls leaving its cycle */
	cost_t *fn_ncalls;  /* calls into each function (sum of call counts) */
	uint32_t *fn_cycle; /* 0, or the 1-based cycle it belongs to */
	uint32_t ncycles;
	cost_t *cycle_incl; /* ncycles * nreal */
	/* call records by caller and by callee (CSR: start[fn]..start[fn+1]) */
	uint32_t *out_start, *out_idx;
	uint32_t *in_start, *in_idx;
	/* the line store's block subtotals (ls.ff) by file: which functions
	 * have costs in a file (CSR over file ids) */
	uint32_t nfiles;
	uint32_t *file_start, *file_idx;
	struct filefn *ff; /* agg_filefn_kept() */
	size_t nff;
	int have_ff;
};

/* Computes (or returns the cached) aggregation of p. */
const struct agg *profile_agg(struct profile *p);
void agg_free(struct agg *a);

static inline const cost_t *agg_self(const struct agg *a, uint32_t fn)
{
	return &a->fn_self[(size_t)fn * a->nreal];
}
static inline const cost_t *agg_incl(const struct agg *a, uint32_t fn)
{
	return &a->fn_incl[(size_t)fn * a->nreal];
}

/* One (file, function name) pair with its self cost: the rows of cg_annotate's
 * file:function and function:file sections.  The file is that of each cost
 * line (fi=/fe= aware); functions of the same name are one entry. */
struct filefn {
	uint32_t file, name;
	uint32_t fn;  /* a function of that name with costs in that file (the
		       * one whose own file it is, when there is one) */
	cost_t *cost; /* nreal: the line store's subtotal of its one block,
		       * or the sum of its blocks in a pool owned by the array */
	size_t off;   /* its place in the pool, SIZE_MAX when not there */
};
/* Returns an array of *n entries (free with filefn_free). */
struct filefn *agg_filefn(const struct profile *p, size_t *n);
/* The same, computed once and kept with the aggregation (do not free). */
const struct filefn *agg_filefn_kept(struct profile *p, size_t *n);
void filefn_free(struct filefn *ff, size_t n);

#endif
