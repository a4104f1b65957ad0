/* partial.c -- self costs of a profile being loaded (partial.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "partial.h"

static const cost_t zeros[MAX_EVENTS];

void partial_init(struct partial *pc)
{
	memset(pc, 0, sizeof(*pc));
}

void partial_free(struct partial *pc)
{
	free(pc->self);
	partial_init(pc);
}

void partial_update(struct partial *pc, const struct profile *p)
{
	const struct linestore *ls = &p->ls;
	int nr = ls->nreal;
	if (nr != pc->nreal || ls->nff < pc->ff_done || nr <= 0 || nr > MAX_EVENTS) {
		free(pc->self);
		partial_init(pc);
		pc->nreal = nr > 0 && nr <= MAX_EVENTS ? nr : 0;
		if (!pc->nreal)
			return;
	}
	if (p->nfns > pc->cap) {
		uint32_t cap = pc->cap ? pc->cap : 1024;
		while (cap < p->nfns)
			cap *= 2;
		pc->self = xreallocarray(pc->self, (size_t)cap * (size_t)nr, sizeof(cost_t));
		memset(pc->self + (size_t)pc->cap * (size_t)nr, 0,
		       (size_t)(cap - pc->cap) * (size_t)nr * sizeof(cost_t));
		pc->cap = cap;
	}
	pc->nfns = p->nfns;
	for (uint32_t k = pc->ff_done; k < ls->nff; k++) {
		uint32_t fn = ls->ff[k].fn;
		if (fn >= pc->nfns)
			continue; /* (never: a block's function is made first) */
		const cost_t *c = &ls->ffcost[(size_t)k * (size_t)nr];
		cost_t *s = &pc->self[(size_t)fn * (size_t)nr];
		for (int e = 0; e < nr; e++) {
			s[e] = cost_add(s[e], c[e]);
			pc->totals[e] = cost_add(pc->totals[e], c[e]);
		}
	}
	pc->added += ls->nff - pc->ff_done;
	pc->ff_done = ls->nff;
}

const cost_t *partial_self(const struct partial *pc, uint32_t fn)
{
	return fn < pc->nfns && pc->self ? &pc->self[(size_t)fn * (size_t)pc->nreal] : zeros;
}
