/* tree.c -- groups (file:function, function:file, object:function) and the
 * call tree grown on demand; see tree.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "tree.h"
#include "aggregate.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mag(cost_t v)
{
	return cost_mag(v);
}

/* Is |v| at least threshold percent of |total|? */
static int over(cost_t v, cost_t total, double threshold)
{
	long double t = (long double)threshold * (long double)mag(total) / 100.0L;
	return (long double)mag(v) >= t;
}

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

struct groups *groups_build(struct profile *p, enum group_by by)
{
	const struct agg *a = profile_agg(p);
	int nr = p->nreal ? p->nreal : 1;
	struct groups *gs = xcalloc(1, sizeof(*gs));
	gs->by = by;
	size_t n; /* entries */
	if (by == GROUP_OBJ_FN) {
		gs->nkeys = p->objs.n;
		n = p->nfns;
	} else {
		gs->nkeys = by == GROUP_FILE_FN ? p->files.n : p->names.n;
		gs->ff = agg_filefn_kept(p, &gs->nff);
		n = gs->nff;
	}
	/* counting sort of the entries by group */
	uint32_t *gi = xmalloc(((size_t)gs->nkeys + 1) * sizeof(*gi));
	for (uint32_t k = 0; k < gs->nkeys; k++)
		gi[k] = NO_ID;
	uint32_t *keyof = xmalloc((n + 1) * sizeof(*keyof));
	for (size_t i = 0; i < n; i++) {
		keyof[i] = by == GROUP_OBJ_FN ? p->fns[i].obj
			   : by == GROUP_FILE_FN ? gs->ff[i].file
						 : gs->ff[i].name;
		if (gi[keyof[i]] == NO_ID)
			gi[keyof[i]] = gs->ng++;
	}
	gs->g = xcalloc((size_t)gs->ng + 1, sizeof(*gs->g));
	gs->pool = xcalloc(n + 1, sizeof(*gs->pool));
	gs->totals = xcalloc(((size_t)gs->ng + 1) * (size_t)nr, sizeof(cost_t));
	for (size_t i = 0; i < n; i++)
		gs->g[gi[keyof[i]]].ne++;
	size_t off = 0;
	for (uint32_t k = 0; k < gs->ng; k++) {
		gs->g[k].e = gs->pool + off;
		off += gs->g[k].ne;
		gs->g[k].ne = 0;
		gs->g[k].fn = NO_ID;
		gs->g[k].total = gs->totals + (size_t)k * (size_t)nr;
	}
	for (size_t i = 0; i < n; i++) {
		struct group *g = &gs->g[gi[keyof[i]]];
		struct gentry *e = &g->e[g->ne++];
		g->id = keyof[i];
		if (by == GROUP_OBJ_FN) {
			e->id = e->fn = (uint32_t)i;
			e->self = agg_self(a, (uint32_t)i);
			e->incl = agg_incl(a, (uint32_t)i);
		} else {
			e->id = by == GROUP_FILE_FN ? gs->ff[i].name : gs->ff[i].file;
			e->fn = gs->ff[i].fn;
			e->self = gs->ff[i].cost;
		}
		for (int k = 0; k < p->nreal; k++)
			g->total[k] = cost_add(g->total[k], e->self[k]);
	}
	free(keyof);
	free(gi);
	return gs;
}

void groups_free(struct groups *gs)
{
	if (!gs)
		return;
	free(gs->pool);
	free(gs->totals);
	free(gs->g);
	free(gs);
}

static const struct profile *order_p;
static const struct groups *order_gs;

static int cmp_gentry(const void *x, const void *y)
{
	const struct gentry *a = x, *b = y;
	if (mag(a->key) != mag(b->key))
		return mag(a->key) > mag(b->key) ? -1 : 1;
	int r = strcmp(gentry_name(order_p, order_gs, a), gentry_name(order_p, order_gs, b));
	if (r)
		return r;
	return a->id < b->id ? -1 : a->id > b->id;
}

static int cmp_group(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	if (mag(a->key) != mag(b->key))
		return mag(a->key) > mag(b->key) ? -1 : 1;
	int r = strcmp(group_name(order_p, order_gs, a), group_name(order_p, order_gs, b));
	if (r)
		return r;
	return a->id < b->id ? -1 : a->id > b->id;
}

void groups_order(struct groups *gs, const struct profile *p, int event, double threshold,
		  int by_incl)
{
	cost_t total = event_value(p, p->totals, event);
	order_p = p;
	order_gs = gs;
	uint32_t nshown = 0;
	for (uint32_t k = 0; k < gs->ng; k++) {
		struct group *g = &gs->g[k];
		g->key = event_value(p, g->total, event);
		uint32_t above = 0;
		for (uint32_t i = 0; i < g->ne; i++) {
			struct gentry *e = &g->e[i];
			e->key = event_value(p, by_incl && e->incl ? e->incl : e->self, event);
			above += over(e->key, total, threshold);
		}
		/* only groups that are shown need their entries in order */
		if (above && g->ne > 1)
			qsort(g->e, g->ne, sizeof(*g->e), cmp_gentry);
		g->nshown = above;
		g->shown = above > 0;
		nshown += g->shown;
		if (gs->by == GROUP_FN_FILE)
			g->fn = g->ne ? g->e[0].fn : NO_ID;
	}
	/* the shown groups first, in order; the others after them, as they are
	 * (a million functions under the threshold need no sorting) */
	uint32_t w = 0;
	for (uint32_t k = 0; k < gs->ng; k++)
		if (gs->g[k].shown) {
			struct group tmp = gs->g[w];
			gs->g[w++] = gs->g[k];
			gs->g[k] = tmp;
		}
	if (nshown > 1)
		qsort(gs->g, nshown, sizeof(*gs->g), cmp_group);
	cost_t cum = 0;
	for (uint32_t k = 0; k < gs->ng; k++) {
		if (gs->g[k].shown)
			cum = cost_add(cum, gs->g[k].key);
		gs->g[k].cum = cum;
	}
}

/* ---- the call tree ----------------------------------------------------------- */

/* Shown in the tree?  As in the functions view. */
static int ct_passes(const struct ctree *t, cost_t v)
{
	cost_t total = event_value(t->p, t->p->totals, t->event);
	return over(v, total, t->threshold) && !(v == 0 && total != 0);
}

static int has_edges(const struct ctree *t, uint32_t fn)
{
	const struct agg *a = t->p->agg;
	return t->callers ? a->in_start[fn] < a->in_start[fn + 1]
			  : a->out_start[fn] < a->out_start[fn + 1];
}

static uint32_t new_node(struct ctree *t, uint32_t fn, uint32_t parent, cost_t count,
			 const cost_t *cost)
{
	VEC_RESERVE(t->node, t->capnodes, (size_t)t->nnodes + 1);
	struct ctree_node *n = &t->node[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->fn = fn;
	n->parent = parent;
	n->depth = parent == NO_ID ? 0 : t->node[parent].depth + 1;
	n->count = count;
	n->cost = cost;
	if (!has_edges(t, fn))
		n->flags |= CT_LEAF;
	return t->nnodes++;
}

/* Sorting made nodes: the event's value of the edge, largest first, then
 * the name. */
struct ct_sort {
	uint32_t fn;
	cost_t key;
	size_t at; /* index of its count and cost in the scratch arrays */
};
static const struct profile *ct_p;

static int cmp_ct(const void *x, const void *y)
{
	const struct ct_sort *a = x, *b = y;
	/* the biggest first, either way (a difference's negative costs) */
	if (mag(a->key) != mag(b->key))
		return mag(a->key) > mag(b->key) ? -1 : 1;
	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	int r = strcmp(fn_name(ct_p, a->fn), fn_name(ct_p, b->fn));
	if (r)
		return r;
	return a->fn < b->fn ? -1 : a->fn > b->fn;
}

struct ctree *ctree_new(struct profile *p, int callers, uint32_t fn, int event, double threshold)
{
	const struct agg *a = profile_agg(p);
	struct ctree *t = xcalloc(1, sizeof(*t));
	t->p = p;
	t->callers = !!callers;
	t->fn = callers ? fn : NO_ID;
	t->event = event;
	t->threshold = threshold;
	if (callers) {
		new_node(t, fn, NO_ID, a->fn_ncalls[fn], agg_incl(a, fn));
		t->nroots = 1;
		return t;
	}
	/* called from outside its cycle (calls to itself do not count), and
	 * cycles into which some function outside calls */
	uint8_t *called = xcalloc((size_t)p->nfns + 1, 1);
	uint8_t *cycle_called = xcalloc((size_t)a->ncycles + 1, 1);
	for (uint32_t k = 0; k < p->ncalls; k++) {
		uint32_t from = p->calls[k].caller, to = p->calls[k].callee;
		if (from == to || (a->fn_cycle[to] && a->fn_cycle[from] == a->fn_cycle[to]))
			continue;
		called[to] = 1;
		cycle_called[a->fn_cycle[to]] = 1;
	}
	struct ct_sort *r = NULL;
	size_t nr = 0, cap = 0;
	for (uint32_t f = 0; f < p->nfns; f++) {
		if (called[f] || (a->fn_cycle[f] && cycle_called[a->fn_cycle[f]]))
			continue;
		cost_t v = event_value(p, agg_incl(a, f), event);
		if (!ct_passes(t, v)) {
			t->nroots_hidden++;
			continue;
		}
		VEC_RESERVE(r, cap, nr + 1);
		r[nr++] = (struct ct_sort){ f, v, 0 };
	}
	ct_p = p;
	if (nr > 1)
		qsort(r, nr, sizeof(*r), cmp_ct);
	for (size_t i = 0; i < nr; i++)
		new_node(t, r[i].fn, NO_ID, a->fn_ncalls[r[i].fn], agg_incl(a, r[i].fn));
	t->nroots = t->nnodes;
	free(r);
	free(called);
	free(cycle_called);
	return t;
}

void ctree_free(struct ctree *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->node);
	free(t->slot);
	free(t->onpath);
	free(t);
}

static void scratch(struct ctree *t)
{
	if (t->slot)
		return;
	uint32_t n = t->p->nfns;
	t->slot = xmalloc(((size_t)n + 1) * sizeof(*t->slot));
	for (uint32_t f = 0; f <= n; f++)
		t->slot[f] = NO_ID;
	t->onpath = xcalloc((size_t)n + 1, 1);
}

int ctree_grow(struct ctree *t, uint32_t n)
{
	if (t->node[n].flags & CT_GROWN)
		return 1;
	if (!ctree_expandable(t, n))
		return 0;
	struct profile *p = t->p;
	const struct agg *a = p->agg;
	size_t nr = (size_t)(p->nreal ? p->nreal : 1);
	scratch(t);
	for (uint32_t x = n; x != NO_ID; x = t->node[x].parent)
		t->onpath[t->node[x].fn] = 1;
	/* one entry per distinct callee (caller), summed over the call sites */
	uint32_t fn = t->node[n].fn;
	const uint32_t *start = t->callers ? a->in_start : a->out_start;
	const uint32_t *idx = t->callers ? a->in_idx : a->out_idx;
	struct ct_sort *e = NULL;
	cost_t *count = NULL, *cost = NULL;
	size_t ne = 0, cap = 0, costcap = 0;
	for (uint32_t k = start[fn]; k < start[fn + 1]; k++) {
		const struct call_rec *c = &p->calls[idx[k]];
		uint32_t other = t->callers ? c->caller : c->callee;
		if (t->slot[other] == NO_ID) {
			size_t oldcap = cap;
			VEC_RESERVE(e, cap, ne + 1);
			if (cap != oldcap)
				count = xreallocarray(count, cap, sizeof(*count));
			if (cap * nr > costcap) {
				costcap = cap * nr;
				cost = xreallocarray(cost, costcap, sizeof(*cost));
			}
			e[ne] = (struct ct_sort){ other, 0, ne };
			count[ne] = 0;
			memset(&cost[ne * nr], 0, nr * sizeof(*cost));
			t->slot[other] = (uint32_t)ne++;
		}
		size_t j = t->slot[other];
		cost_t cc[MAX_EVENTS];
		call_cost(p, idx[k], cc);
		count[j] = cost_add(count[j], c->count);
		for (int ev = 0; ev < p->nreal; ev++)
			cost[j * nr + (size_t)ev] = cost_add(cost[j * nr + (size_t)ev], cc[ev]);
	}
	size_t kept = 0;
	uint32_t hidden = 0;
	for (size_t j = 0; j < ne; j++) {
		t->slot[e[j].fn] = NO_ID;
		e[j].key = event_value(p, &cost[j * nr], t->event);
		if (ct_passes(t, e[j].key))
			e[kept++] = e[j];
		else
			hidden++;
	}
	ct_p = p;
	if (kept > 1)
		qsort(e, kept, sizeof(*e), cmp_ct);
	cost_t *chunk = NULL;
	if (kept) {
		chunk = xmalloc(kept * nr * sizeof(*chunk));
		VEC_RESERVE(t->chunks, t->capchunks, (size_t)t->nchunks + 1);
		t->chunks[t->nchunks++] = chunk;
	}
	uint32_t first = t->nnodes;
	for (size_t j = 0; j < kept; j++) {
		memcpy(&chunk[j * nr], &cost[e[j].at * nr], nr * sizeof(*chunk));
		uint32_t m = new_node(t, e[j].fn, n, count[e[j].at], &chunk[j * nr]);
		if (t->onpath[e[j].fn])
			t->node[m].flags |= CT_RECURSIVE;
	}
	for (uint32_t x = n; x != NO_ID; x = t->node[x].parent)
		t->onpath[t->node[x].fn] = 0;
	struct ctree_node *node = &t->node[n];
	node->first = first;
	node->nchild = (uint32_t)kept;
	node->nhidden = hidden;
	node->flags |= CT_GROWN;
	free(e);
	free(count);
	free(cost);
	return 1;
}

int ctree_set_open(struct ctree *t, uint32_t n, int open)
{
	if (!open) {
		t->node[n].flags &= ~(uint32_t)CT_OPEN;
		return 1;
	}
	if (!ctree_grow(t, n))
		return 0;
	t->node[n].flags |= CT_OPEN;
	return 1;
}

struct ctree *ctree_regrow(const struct ctree *old, int event, double threshold)
{
	struct ctree *t = ctree_new(old->p, old->callers, old->fn, event, threshold);
	if (!old->nnodes)
		return t;
	scratch(t);
	uint32_t *map = xmalloc((size_t)old->nnodes * sizeof(*map));
	for (uint32_t i = 0; i < old->nnodes; i++)
		map[i] = NO_ID;
	/* the roots, by function */
	for (uint32_t i = 0; i < t->nroots; i++)
		t->slot[t->node[i].fn] = i;
	for (uint32_t i = 0; i < old->nroots; i++)
		map[i] = t->slot[old->node[i].fn];
	for (uint32_t i = 0; i < t->nroots; i++)
		t->slot[t->node[i].fn] = NO_ID;
	/* parents come before their children: one pass in node order */
	for (uint32_t o = 0; o < old->nnodes; o++) {
		const struct ctree_node *on = &old->node[o];
		uint32_t m = map[o];
		if (m == NO_ID || !(on->flags & CT_GROWN) || !ctree_grow(t, m))
			continue;
		if (on->flags & CT_OPEN)
			t->node[m].flags |= CT_OPEN;
		const struct ctree_node *nn = &t->node[m];
		for (uint32_t c = nn->first; c < nn->first + nn->nchild; c++)
			t->slot[t->node[c].fn] = c;
		for (uint32_t c = on->first; c < on->first + on->nchild; c++)
			map[c] = t->slot[old->node[c].fn];
		for (uint32_t c = nn->first; c < nn->first + nn->nchild; c++)
			t->slot[t->node[c].fn] = NO_ID;
	}
	free(map);
	return t;
}

uint32_t ctree_rows(const struct ctree *t, uint32_t *rows,
		    int (*keep)(const struct ctree *t, uint32_t n, void *arg), void *arg)
{
	uint32_t m = 0, sp = 0;
	uint32_t *stack = xmalloc(((size_t)t->nnodes + 1) * sizeof(*stack));
	for (uint32_t i = t->nroots; i-- > 0;)
		stack[sp++] = i;
	while (sp) {
		uint32_t x = stack[--sp];
		rows[m++] = x;
		const struct ctree_node *n = &t->node[x];
		if (n->flags & CT_OPEN)
			for (uint32_t c = n->first + n->nchild; c-- > n->first;)
				stack[sp++] = c;
	}
	free(stack);
	if (!keep)
		return m;
	uint8_t *mark = xcalloc((size_t)t->nnodes + 1, 1);
	for (uint32_t i = 0; i < m; i++) {
		if (!keep(t, rows[i], arg))
			continue;
		for (uint32_t x = rows[i]; x != NO_ID && !mark[x]; x = t->node[x].parent)
			mark[x] = 1;
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < m; i++)
		if (mark[rows[i]])
			rows[k++] = rows[i];
	free(mark);
	return k;
}
