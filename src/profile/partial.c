/* partial.c -- self costs of a profile being loaded (partial.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "partial.h"
#include "rank.h"

static const cost_t zeros[MAX_EVENTS];

void partial_init(struct partial *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->col_ev = -1;
}

void partial_free(struct partial *pc)
{
	free(pc->self);
	free(pc->col);
	partial_init(pc);
}

void partial_update(struct partial *pc, const struct profile *p)
{
	const struct linestore *ls = &p->ls;
	int nr = ls->nreal;
	if (nr != pc->nreal || ls->nff < pc->ff_done || nr <= 0 || nr > MAX_EVENTS) {
		partial_free(pc);
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
		pc->col = xreallocarray(pc->col, cap, sizeof(cost_t));
		memset(pc->col + pc->cap, 0, (size_t)(cap - pc->cap) * sizeof(cost_t));
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
		if (pc->col_ev >= 0)
			pc->col[fn] = s[pc->col_ev];
	}
	pc->added += ls->nff - pc->ff_done;
	pc->ff_done = ls->nff;
}

const cost_t *partial_self(const struct partial *pc, uint32_t fn)
{
	return fn < pc->nfns && pc->self ? &pc->self[(size_t)fn * (size_t)pc->nreal] : zeros;
}

const cost_t *partial_column(struct partial *pc, int ev)
{
	if (!pc->col || ev < 0 || ev >= pc->nreal)
		return zeros; /* (no function yet: none is read) */
	if (ev != pc->col_ev) {
		for (uint32_t fn = 0; fn < pc->nfns; fn++)
			pc->col[fn] = pc->self[(size_t)fn * (size_t)pc->nreal + (size_t)ev];
		pc->col_ev = ev;
	}
	return pc->col;
}

/* Does fn come after gn in the one ordering of their values v? */
static int after(const struct profile *p, uint32_t fn, cost_t fv, uint32_t gn, cost_t gv)
{
	struct rank_order o = { NULL, 1, RANK_VIEW };
	int r = rank_cmp_values(&fv, &gv, &o);
	if (r) /* (most often: no names to find) */
		return r > 0;
	struct rank_key a = { &fv, fn_name(p, fn), fn }, b = { &gv, fn_name(p, gn), gn };
	return rank_cmp(&a, &b, &o) > 0;
}

size_t partial_top(struct partial *pc, const struct profile *p, int ev, uint32_t *out, size_t k)
{
	/* out[0] is the one of the k that comes last (a heap of them) */
	const cost_t *col = partial_column(pc, ev);
	size_t n = 0;
	for (uint32_t fn = 0; fn < pc->nfns && k; fn++) {
		cost_t v = col[fn];
		if (!v)
			continue;
		size_t i;
		if (n < k) { /* up from the bottom */
			for (i = n++; i > 0; i = (i - 1) / 2) {
				uint32_t up = out[(i - 1) / 2];
				if (!after(p, fn, v, up, col[up]))
					break;
				out[i] = up;
			}
			out[i] = fn;
			continue;
		}
		if (after(p, fn, v, out[0], col[out[0]]))
			continue; /* after all k */
		for (i = 0;;) { /* down from the top */
			size_t c = 2 * i + 1;
			if (c >= n)
				break;
			cost_t cv = col[out[c]];
			if (c + 1 < n) {
				cost_t dv = col[out[c + 1]];
				if (after(p, out[c + 1], dv, out[c], cv)) {
					c++;
					cv = dv;
				}
			}
			if (!after(p, out[c], cv, fn, v))
				break;
			out[i] = out[c];
			i = c;
		}
		out[i] = fn;
	}
	return n;
}
