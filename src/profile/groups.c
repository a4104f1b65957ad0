/* groups.c -- the groups of the file:function, function:file and
 * object:function trees, and their order; see tree.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "tree.h"
#include "aggregate.h"
#include "format.h"
#include "grouping.h"
#include "query.h"
#include "rank.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- groups ------------------------------------------------------------------ */

const char *group_name(const struct profile *p, const struct groups *gs, const struct group *g)
{
	switch (gs->by) {
	case GROUP_FILE_FN: return file_name(p, g->id);
	case GROUP_FN_FILE: return p->names.str[g->id];
	default: return obj_name(p, g->id);
	}
}

const char *gentry_name(const struct profile *p, const struct groups *gs, const struct gentry *e)
{
	switch (gs->by) {
	case GROUP_FILE_FN: return p->names.str[e->id];
	case GROUP_FN_FILE: return file_name(p, e->id);
	default: return fn_name(p, e->id);
	}
}

struct groups *groups_build(struct profile *p, enum group_by by, const struct scope *s)
{
	profile_agg(p); /* (groups_order reads it) */
	struct groups *gs = xcalloc(1, sizeof(*gs));
	gs->by = by;
	if (by == GROUP_OBJ_FN) {
		gs->nkeys = p->objs.n;
		gs->nsrc = p->nfns;
	} else {
		gs->nkeys = by == GROUP_FILE_FN ? p->files.n : p->names.n;
		gs->ff = agg_filefn_kept(p, &gs->nff, &gs->ffpool);
		gs->nsrc = gs->nff;
	}
	size_t n = gs->nsrc;
	/* each key's group, numbered in the order of their first entries: the
	 * entries refer to it (keyof), so that groups_order's passes over
	 * them, in the order of their costs in memory, also meet the groups in
	 * about their order (most of 400,000 function names have one entry) */
	uint32_t *gi = xmalloc(((size_t)gs->nkeys + 1) * sizeof(*gi));
	uint32_t *gkey = xmalloc(((size_t)gs->nkeys + 1) * sizeof(*gkey));
	memset(gi, 0xff, ((size_t)gs->nkeys + 1) * sizeof(*gi));
	gs->keyof = xmalloc((n + 1) * sizeof(*gs->keyof));
	gs->gcnt = xcalloc((size_t)gs->nkeys + 1, sizeof(*gs->gcnt));
	for (size_t i = 0; i < n; i++) {
		/* (by name: a pair's is its function's, whose record and the
		 * name's group are read at random, fetched a few pairs on) */
		if (by == GROUP_FN_FILE && i + 2 * AGG_AHEAD < n)
			__builtin_prefetch(&p->fns[gs->ff[i + 2 * AGG_AHEAD].fn]);
		if (by == GROUP_FN_FILE && i + AGG_AHEAD < n)
			__builtin_prefetch(&gi[filefn_name(p, &gs->ff[i + AGG_AHEAD])]);
		uint32_t k = by == GROUP_OBJ_FN ? p->fns[i].obj : filefn_key(p, &gs->ff[i], by == GROUP_FILE_FN);
		uint32_t fn = by == GROUP_OBJ_FN ? (uint32_t)i : gs->ff[i].fn;
		if (k == NO_ID || (s && s->kind != SCOPE_ALL && (fn == NO_ID || !scope_keeps(p, s, fn)))) {
			gs->keyof[i] = NO_ID; /* out of the scope */
			continue;
		}
		if (gi[k] == NO_ID) {
			gkey[gs->ng] = k;
			gi[k] = gs->ng++;
		}
		gs->keyof[i] = gi[k];
		gs->gcnt[gi[k]]++;
	}
	free(gi);
	gs->g = xcalloc((size_t)gs->ng + 1, sizeof(*gs->g));
	for (uint32_t x = 0; x < gs->ng; x++)
		gs->g[x] = (struct group){ .id = gkey[x], .ix = x, .ne = gs->gcnt[x], .fn = NO_ID };
	free(gkey);
	gs->gsum = xmalloc(((size_t)gs->ng + 1) * sizeof(*gs->gsum));
	return gs;
}

void group_total(const struct profile *p, const struct groups *gs, const struct group *g, cost_t *total)
{
	memset(total, 0, (size_t)p->nreal * sizeof(*total));
	for (size_t i = 0; i < gs->nsrc; i++) {
		if (gs->keyof[i] != g->ix)
			continue;
		const cost_t *c = gs->by == GROUP_OBJ_FN ? agg_self(p->agg, (uint32_t)i) : filefn_cost(p, gs->ffpool, &gs->ff[i]);
		for (int e = 0; e < p->nreal; e++)
			total[e] = cost_add(total[e], c[e]);
	}
}

void groups_free(struct groups *gs)
{
	if (!gs)
		return;
	free(gs->pool);
	free(gs->g);
	free(gs->keyof);
	free(gs->gsum);
	free(gs->gcnt);
	free(gs->sh);
	free(gs);
}

struct order_ctx {
	const struct profile *p;
	const struct groups *gs;
};

static int cmp_gentry(const void *x, const void *y, void *arg)
{
	const struct order_ctx *c = arg;
	const struct gentry *a = x, *b = y;
	struct rank_key ka = { &a->key, gentry_name(c->p, c->gs, a), a->id };
	struct rank_key kb = { &b->key, gentry_name(c->p, c->gs, b), b->id };
	struct rank_order o = { NULL, 1, RANK_VIEW };
	return rank_cmp(&ka, &kb, &o);
}

static int cmp_group(const void *x, const void *y, void *arg)
{
	const struct order_ctx *c = arg;
	const struct group *a = x, *b = y;
	struct rank_key ka = { &a->key, group_name(c->p, c->gs, a), a->id };
	struct rank_key kb = { &b->key, group_name(c->p, c->gs, b), b->id };
	struct rank_order o = { NULL, 1, RANK_VIEW };
	return rank_cmp(&ka, &kb, &o);
}

void groups_order(struct groups *gs, const struct profile *p, int event, double threshold,
		  int by_incl)
{
	struct rank_thr thr = rank_threshold(p, event, threshold);
	struct order_ctx ctx = { p, gs };
	int obj = gs->by == GROUP_OBJ_FN, incl = obj && by_incl;
	/* one pass over the entries in the order of their costs in memory (the
	 * functions', or the aggregation's file:function pairs'): each key's
	 * total of the event (its value is linear in the costs: event_value,
	 * cost_add and cost_mul wrap alike) and its shown entries, noted; the
	 * entries are made for the shown ones only -- a few hundred thousand
	 * under the threshold cost one read each */
	memset(gs->gsum, 0, ((size_t)gs->ng + 1) * sizeof(*gs->gsum));
	memset(gs->gcnt, 0, ((size_t)gs->ng + 1) * sizeof(*gs->gcnt));
	size_t nsh = 0;
	for (size_t i = 0; i < gs->nsrc; i++) {
		uint32_t x = gs->keyof[i];
		if (obj && i + AGG_AHEAD < gs->nsrc) { /* (rows read at random: agg_fetch) */
			agg_fetch(p->agg, agg_self(p->agg, (uint32_t)(i + AGG_AHEAD)), event);
			if (incl)
				agg_fetch(p->agg, agg_incl(p->agg, (uint32_t)(i + AGG_AHEAD)), event);
		}
		if (x == NO_ID)
			continue;
		cost_t self = event_value(p, obj ? agg_self(p->agg, (uint32_t)i) : filefn_cost(p, gs->ffpool, &gs->ff[i]),
					   event);
		gs->gsum[x] = cost_add(gs->gsum[x], self);
		cost_t key = incl ? event_value(p, agg_incl(p->agg, (uint32_t)i), event) : self;
		if (!rank_shown(&thr, key))
			continue;
		if (nsh == gs->shcap) {
			gs->shcap = gs->shcap ? gs->shcap * 2 : 1024;
			gs->sh = xrealloc(gs->sh, gs->shcap * sizeof(*gs->sh));
		}
		gs->sh[nsh++] = (struct gshown){ (uint32_t)i, key };
		gs->gcnt[x]++;
	}
	free(gs->pool);
	gs->pool = xmalloc((nsh + 1) * sizeof(*gs->pool));
	/* one pass over the groups: their totals, the shown ones to the front
	 * (only they are ordered: a million functions under the threshold need
	 * no sorting), and each shown group's place in the pool (gcnt, from its
	 * count to where its entries begin, then to their end as they are put
	 * there) */
	uint32_t nshown = 0, at = 0;
	for (uint32_t k = 0; k < gs->ng; k++) {
		struct group *g = &gs->g[k];
		g->key = gs->gsum[g->ix];
		g->nshown = gs->gcnt[g->ix];
		g->shown = g->nshown > 0;
		if (!g->shown) {
			g->e = gs->pool;
			g->fn = NO_ID;
			continue;
		}
		g->e = gs->pool + at;
		gs->gcnt[g->ix] = at;
		at += g->nshown;
		if (k != nshown) {
			struct group tmp = gs->g[nshown];
			gs->g[nshown] = *g;
			*g = tmp;
		}
		nshown++;
	}
	for (size_t j = 0; j < nsh; j++) {
		uint32_t i = gs->sh[j].src;
		struct gentry *e = &gs->pool[gs->gcnt[gs->keyof[i]]++];
		if (obj)
			*e = (struct gentry){ .id = i, .fn = i, .src = i, .self = agg_self(p->agg, i),
					      .incl = agg_incl(p->agg, i), .key = gs->sh[j].key };
		else
			*e = (struct gentry){ .id = filefn_entry(p, &gs->ff[i], gs->by == GROUP_FILE_FN),
					      .fn = gs->ff[i].fn, .src = i, .self = filefn_cost(p, gs->ffpool, &gs->ff[i]),
					      .key = gs->sh[j].key };
	}
	for (uint32_t k = 0; k < nshown; k++) {
		struct group *g = &gs->g[k];
		if (g->nshown > 1)
			qsort_r(g->e, g->nshown, sizeof(*g->e), cmp_gentry, &ctx);
		if (gs->by == GROUP_FN_FILE)
			g->fn = g->e[0].fn;
	}
	if (nshown > 1)
		qsort_r(gs->g, nshown, sizeof(*gs->g), cmp_group, &ctx);
	cost_t cum = 0;
	for (uint32_t k = 0; k < gs->ng; k++) {
		if (gs->g[k].shown)
			cum = cost_add(cum, gs->g[k].key);
		gs->g[k].cum = cum;
	}
}
