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

/* Whose calls are read.  A call's inclusive cost is at most its caller's
 * inclusive cost (which holds every call leaving it), and a cycle's call
 * of a member costs that member's: so when only calls of at least `thr`
 * matter, a caller, or a member of the cycle asked about, whose inclusive
 * cost is under it is left out unread (a function's callees are all read:
 * their inclusive costs bound nothing when a file's numbers disagree; and
 * all of a difference's, whose signs bound nothing).  The entity itself (a
 * call to itself) always. */
struct keep_arg {
	uint32_t self;
	int ev;
	int none;  /* only counting: keep nothing else */
	int prune; /* by the bound above */
	struct rank_thr thr;
};

static int keep_other(struct profile *p, uint32_t other, void *arg)
{
	const struct keep_arg *k = arg;
	if (other == k->self)
		return 1;
	if (k->none)
		return 0;
	return !k->prune || rank_shown(&k->thr, event_value(p, agg_incl(p->agg, other), k->ev));
}

/* The calls of entity id (callers or callees) summed per other entity,
 * whatever member of a cycle they went through (one box, one rectangle, one
 * edge each), in the one ordering of edges; with thr, only those that may
 * reach it are sure to be there; with `none`, none but those to itself.
 * *others: how many other entities it has calls with in all; *self_calls:
 * its calls to itself. */
static int edges_of(struct profile *p, uint32_t id, int callers, int ev, const struct rank_thr *thr,
		    int none, struct edge **out, uint32_t *others, cost_t *self_calls)
{
	struct keep_arg k = { .self = id, .ev = ev, .none = none };
	if (thr) {
		k.thr = *thr;
		k.prune = !p->ndiff && (callers || agg_is_cycle(profile_agg(p), id));
	}
	struct edge *ed;
	int nleft = 0;
	int n = query_edges_keep(p, id, callers, keep_other, &k, &ed, &nleft);
	if (n > 1)
		qsort(ed, (size_t)n, sizeof(*ed), cmp_other);
	int m = 0, self = 0;
	for (int i = 0; i < n; i++) {
		if (m && ed[m - 1].fn == ed[i].fn) {
			struct edge *d = &ed[m - 1];
			d->count = cost_add(d->count, ed[i].count);
			for (int e = 0; e < p->nreal; e++)
				d->cost[e] = cost_add(d->cost[e], ed[i].cost[e]);
			if (d->via != ed[i].via)
				d->via = NO_ID;
			continue;
		}
		if (m != i)
			ed[m] = ed[i];
		m++;
	}
	*self_calls = 0;
	for (int i = 0; i < m; i++)
		if (ed[i].fn == id) {
			self = 1;
			*self_calls = ed[i].count;
		}
	*others = (uint32_t)(m - self + nleft);
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

/* Draws the callers (or callees) of node u that pass the threshold;
 * returns how many other entities it has calls with that way. */
static uint32_t expand(struct build *b, uint32_t u, int callers)
{
	struct cgraph *g = b->g;
	struct edge *ed;
	uint32_t uid = g->node[u].id, others;
	cost_t self;
	int n = edges_of(b->p, uid, callers, b->ev, &b->thr, 0, &ed, &others, &self), drawn = 0;
	g->node[u].self_calls = self;
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
	return others;
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
	/* level by level: nodes are added in the order they are found; the
	 * callers and callees each has (NO_ID: not looked into) */
	uint32_t *up = xmalloc(CG_MAX_NODES * sizeof(*up)), *down = xmalloc(CG_MAX_NODES * sizeof(*down));
	for (uint32_t u = 0; u < g->nnodes; u++) {
		int d = g->node[u].dist;
		up[u] = d <= 0 && -d < depth ? expand(&b, u, 1) : NO_ID;
		down[u] = d >= 0 && d < depth ? expand(&b, u, 0) : NO_ID;
	}
	/* what is not drawn: the other entities of each node's calls, but
	 * those of drawn edges (and the calls to itself) */
	uint32_t *hup = xcalloc((size_t)g->nnodes + 1, sizeof(*hup));
	uint32_t *hdown = xcalloc((size_t)g->nnodes + 1, sizeof(*hdown));
	for (uint32_t i = 0; i < g->nedges; i++) {
		hup[g->edge[i].to]++;
		hdown[g->edge[i].from]++;
	}
	for (uint32_t u = 0; u < g->nnodes; u++) {
		struct cg_node *nd = &g->node[u];
		for (int callers = 0; callers < 2; callers++) {
			uint32_t others = callers ? up[u] : down[u];
			if (others == NO_ID) { /* only counted */
				struct edge *ed;
				cost_t self;
				edges_of(p, nd->id, callers, ev, NULL, 1, &ed, &others, &self);
				free(ed);
				if (!callers)
					nd->self_calls = self;
			}
			uint32_t have = callers ? hup[u] : hdown[u];
			uint32_t more = others > have ? others - have : 0;
			if (callers)
				nd->more_up = more;
			else
				nd->more_down = more;
		}
	}
	free(up);
	free(down);
	free(hup);
	free(hdown);
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
		  cost_t least, struct cm_part **out)
{
	struct edge *ed;
	struct rank_thr thr = { (double)least, 0 };
	uint32_t others;
	cost_t self;
	int n = edges_of(p, id, 0, ev, least > 0 ? &thr : NULL, 0, &ed, &others, &self), m = 0;
	struct cm_part *r = n ? xmalloc((size_t)n * sizeof(*r)) : NULL;
	for (int i = 0; i < n; i++) {
		cost_t v = event_value(p, ed[i].cost, ev);
		int inside = ed[i].fn == id;
		for (int k = 0; k < npath && !inside; k++)
			inside = path[k] == ed[i].fn;
		if (!call_kind_costed(ed[i].kind) || v <= 0 || v < least || inside)
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
