/* partial.h -- the self costs of a profile still being loaded: what the
 * explorer's loading screen shows (issue 19).  No terminal here.
 *
 * The loader's progress callback runs on the thread that loads, between
 * two lines of the file (load.h): the blocks read so far are then in the
 * line store, each closed block's cost per file summed in ls.ff/ffcost
 * (linestore.h); the block still open is not.  partial_update() adds the
 * entries made since its last call into per-function self costs, so a
 * refresh costs the new blocks only, not the whole profile again, and
 * nothing is read from the file or asked of the loader.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_PARTIAL_H
#define CGTUI_PARTIAL_H

#include "model.h"

struct partial {
	int nreal;
	cost_t *self;     /* nfns * nreal: each function's self cost so far */
	uint32_t nfns, cap;
	uint32_t ff_done; /* ls.ff entries added */
	cost_t totals[MAX_EVENTS];
	uint64_t added;   /* entries added in all */
	/* one event's self costs, one after the other (partial_column): a
	 * pass over 400,000 functions reads 3 MB, not the 41 MB of self */
	cost_t *col;
	int col_ev;       /* its event, -1 for none */
};

void partial_init(struct partial *pc);
void partial_free(struct partial *pc);
/* Adds p's blocks closed since the last call (from the start when p's
 * events changed, or its line store was started again).  Only between two
 * of the loader's lines: from its progress callback, or after the load. */
void partial_update(struct partial *pc, const struct profile *p);
/* fn's self cost so far (nreal values; zeros for a function not seen yet) */
const cost_t *partial_self(const struct partial *pc, uint32_t fn);
/* Every function's self cost of real event ev so far (nfns values), kept
 * up to date by the updates until another event is asked for. */
const cost_t *partial_column(struct partial *pc, int ev);
/* The k functions with a cost of event ev (real) that come first in the
 * one ordering (rank.h, RANK_VIEW) of their self costs so far, into out
 * (room for k), in no order; how many (fewer when fewer have a cost).  One
 * pass over the functions, a heap of k: the top of 400,000 without
 * ordering them all. */
size_t partial_top(struct partial *pc, const struct profile *p, int ev, uint32_t *out, size_t k);

#endif
