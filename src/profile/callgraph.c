/* callgraph.c -- an entity's neighbourhood for the call graph, its parts
 * for the call map; see callgraph.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "callgraph.h"
#include "query.h"
#include "rank.h"

#include <stdlib.h>
#include <string.h>

static int cmp_other(const void *x, const void *y)
{
	const struct edge *a = x, *b = y;
	return a->fn < b->fn ? -1 : a->fn > b->fn;
}

/* query_edges with the calls of one entity summed whatever member of a
 * cycle they went through (one box, one rectangle, one edge each), in the
 * one ordering of edges. */
static int edges_of(struct profile *p, uint32_t id, int callers, int ev, struct edge **out)
{
	struct edge *ed;
	int n = query_edges(p, id, callers, &ed);
	if (n > 1)
		qsort(ed, (size_t)n, sizeof(*ed), cmp_other);
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (m && ed[m - 1].fn == ed[i].fn) {
			struct edge *d = &ed[m - 1];
			d->count = cost_add(d->count, ed[i].count);
			for (int k = 0; k < p->nreal; k++)
				d->cost[k] = cost_add(d->cost[k], ed[i].cost[k]);
			if (d->via != ed[i].via)
				d->via = NO_ID;
			continue;
		}
		if (m != i)
			ed[m] = ed[i];
		m++;
	}
	query_sort_edges(p, ed, (size_t)m, ev);
	*out = ed;
	return m;
}

/* ---- the neighbourhood ------------------------------------------------------------------ */

struct build {
	struct profile *p;
	const struct agg *a;
	struct cgraph *g;
	uint32_t capnodes, capedges;
	uint32_t *slot; /* entity -> node index + 1, open addressing */
	uint32_t mask;
	struct rank_thr thr;
	int ev, cap;
};

static uint32_t *slot_of(struct build *b, uint32_t id)
{
	uint32_t h = (uint32_t)hash_mix(id) & b->mask;
	while (b->slot[h] && b->g->node[b->slot[h] - 1].id != id)
		h = (h + 1) & b->mask;
	return &b->slot[h];
}

static uint32_t find_or_add(struct build *b, uint32_t id, int dist)
{
	uint32_t *s = slot_of(b, id);
	if (*s)
		return *s - 1;
	struct cgraph *g = b->g;
	if (g->nnodes >= CG_MAX_NODES) {
		g->truncated = 1;
		return NO_ID;
	}
	VEC_RESERVE(g->node, b->capnodes, g->nnodes + 1);
	g->node[g->nnodes] = (struct cg_node){ .id = id, .dist = dist };
	*s = ++g->nnodes;
	return g->nnodes - 1;
}

static int has_edge(const struct cgraph *g, uint32_t from, uint32_t to)
{
	for (uint32_t i = 0; i < g->nedges; i++)
		if (g->edge[i].from == from && g->edge[i].to == to)
			return 1;
	return 0;
}

/* Is the call drawn?  Its cost against the threshold; a call inside a
 * cycle, which has no share of the total, by the other entity's inclusive
 * cost. */
static int shown(struct build *b, const struct edge *e)
{
	cost_t v = call_kind_costed(e->kind) ? event_value(b->p, e->cost, b->ev)
					      : event_value(b->p, agg_incl(b->a, e->fn), b->ev);
	return rank_shown(&b->thr, v);
}

/* Draws the callers (or callees) of node u that pass the threshold. */
static void expand(struct build *b, uint32_t u, int callers)
{
	struct cgraph *g = b->g;
	struct edge *ed;
	uint32_t uid = g->node[u].id;
	int n = edges_of(b->p, uid, callers, b->ev, &ed), drawn = 0;
	for (int i = 0; i < n && drawn < b->cap; i++) {
		if (ed[i].fn == uid || !shown(b, &ed[i]))
			continue;
		uint32_t v = find_or_add(b, ed[i].fn, g->node[u].dist + (callers ? -1 : 1));
		if (v == NO_ID)
			break;
		uint32_t from = callers ? v : u, to = callers ? u : v;
		drawn++;
		if (has_edge(g, from, to)) /* found from its other end already */
			continue;
		VEC_RESERVE(g->edge, b->capedges, g->nedges + 1);
		g->edge[g->nedges++] = (struct cg_edge){
			.from = from, .to = to, .kind = ed[i].kind, .count = ed[i].count,
			.value = event_value(b->p, ed[i].cost, b->ev) };
	}
	free(ed);
}

void cgraph_build(struct profile *p, uint32_t centre, int depth, int ev, double percent,
		  int cap, struct cgraph *g)
{
	memset(g, 0, sizeof(*g));
	struct build b = { .p = p, .a = profile_agg(p), .g = g, .ev = ev, .cap = cap };
	b.thr = rank_threshold(p, ev, percent);
	b.mask = 1023; /* twice CG_MAX_NODES and more */
	b.slot = xcalloc(b.mask + 1, sizeof(*b.slot));
	g->depth = depth;
	find_or_add(&b, centre, 0);
	/* level by level: nodes are added in the order they are found */
	for (uint32_t u = 0; u < g->nnodes; u++) {
		int d = g->node[u].dist;
		if (d <= 0 && -d < depth)
			expand(&b, u, 1);
		if (d >= 0 && d < depth)
			expand(&b, u, 0);
	}
	/* what is not drawn: the other entities of each node's calls, but
	 * those of drawn edges (and the calls to itself) */
	uint32_t *up = xcalloc((size_t)g->nnodes + 1, sizeof(*up));
	uint32_t *down = xcalloc((size_t)g->nnodes + 1, sizeof(*down));
	for (uint32_t i = 0; i < g->nedges; i++) {
		up[g->edge[i].to]++;
		down[g->edge[i].from]++;
	}
	for (uint32_t u = 0; u < g->nnodes; u++) {
		struct cg_node *nd = &g->node[u];
		for (int callers = 0; callers < 2; callers++) {
			struct edge *ed;
			int n = edges_of(p, nd->id, callers, ev, &ed), others = 0;
			for (int i = 0; i < n; i++) {
				if (ed[i].fn != nd->id)
					others++;
				else
					nd->self_calls = ed[i].count;
			}
			free(ed);
			uint32_t have = callers ? up[u] : down[u];
			uint32_t more = (uint32_t)others > have ? (uint32_t)others - have : 0;
			if (callers)
				nd->more_up = more;
			else
				nd->more_down = more;
		}
	}
	free(up);
	free(down);
	free(b.slot);
}

void cgraph_free(struct cgraph *g)
{
	free(g->node);
	free(g->edge);
	memset(g, 0, sizeof(*g));
}

/* ---- the parts of a cost ----------------------------------------------------------------- */

int callmap_parts(struct profile *p, uint32_t id, int ev, const uint32_t *path, int npath,
		  struct cm_part **out)
{
	struct edge *ed;
	int n = edges_of(p, id, 0, ev, &ed), m = 0;
	struct cm_part *r = n ? xmalloc((size_t)n * sizeof(*r)) : NULL;
	for (int i = 0; i < n; i++) {
		cost_t v = event_value(p, ed[i].cost, ev);
		int inside = ed[i].fn == id;
		for (int k = 0; k < npath && !inside; k++)
			inside = path[k] == ed[i].fn;
		if (!call_kind_costed(ed[i].kind) || v <= 0 || inside)
			continue;
		r[m++] = (struct cm_part){ ed[i].fn, ed[i].via, v, ed[i].count };
	}
	free(ed);
	if (!m) {
		free(r);
		r = NULL;
	}
	*out = r;
	return m;
}
