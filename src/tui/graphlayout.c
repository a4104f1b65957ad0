/* graphlayout.c -- a layered call graph on a character grid: its layers
 * and their order (graphplace.c places it on the grid); see graphlayout.h.
 * No curses here: tests/unit/test-graph.c checks it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "graphlayout_int.h"

#include <stdlib.h>
#include <string.h>

#include "profile/util.h"

#define SWEEPS 12 /* barycentre sweeps, down and up */

static int add_vnode(struct lay *L, int layer, int w, int real)
{
	VEC_RESERVE(L->v, L->capv, L->nv + 1);
	L->v[L->nv] = (struct vnode){ .layer = layer, .w = w, .real = real };
	return L->nv++;
}

static void add_seg(struct lay *L, int up, int lo, int edge)
{
	VEC_RESERVE(L->s, L->caps, L->ns + 1);
	L->s[L->ns++] = (struct seg){ .up = up, .lo = lo, .edge = edge, .track = -1 };
}

/* ---- layers ---------------------------------------------------------------------------- */

static int cmp_key(const void *x, const void *y, void *arg)
{
	const struct glayout *g = arg;
	int a = *(const int *)x, b = *(const int *)y;
	if (g->node[a].key != g->node[b].key)
		return g->node[a].key < g->node[b].key ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int cmp_rank(const void *x, const void *y, void *arg)
{
	const struct glayout *g = arg;
	int a = *(const int *)x, b = *(const int *)y;
	return g->node[a].rank < g->node[b].rank ? -1 : g->node[a].rank > g->node[b].rank;
}

/* Edges by the rank of one end (ascending), for relaxing in a topological
 * order. */
struct edge_rank {
	int e, r;
};

static int cmp_edge_rank(const void *x, const void *y)
{
	const struct edge_rank *a = x, *b = y;
	if (a->r != b->r)
		return a->r < b->r ? -1 : 1;
	return a->e < b->e ? -1 : a->e > b->e;
}

void gl_orient(struct glayout *g)
{
	int n = g->nnodes;
	int *ord = xmalloc(((size_t)n + 1) * sizeof(int)), *indeg = xcalloc((size_t)n + 1, sizeof(int));
	unsigned char *done = xcalloc((size_t)n + 1, 1);
	for (int i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, (size_t)n, sizeof(*ord), cmp_key, g);
	for (int e = 0; e < g->nedges; e++) {
		const struct gl_edge *ed = &g->edge[e];
		if (ed->from != ed->to && g->node[ed->from].key == g->node[ed->to].key)
			indeg[ed->to]++;
	}
	int pos = 0;
	for (int a = 0; a < n;) {
		int b = a;
		while (b < n && g->node[ord[b]].key == g->node[ord[a]].key)
			b++;
		/* the calls within a key in their direction: the first node
		 * no other of the key calls (a cycle: the first left) */
		for (int k = a; k < b; k++) {
			int pick = -1;
			for (int i = a; i < b && pick < 0; i++)
				if (!done[ord[i]] && !indeg[ord[i]])
					pick = ord[i];
			for (int i = a; i < b && pick < 0; i++)
				if (!done[ord[i]])
					pick = ord[i];
			done[pick] = 1;
			g->node[pick].rank = pos++;
			for (int e = 0; e < g->nedges; e++) {
				const struct gl_edge *ed = &g->edge[e];
				if (ed->from == pick && ed->to != pick && !done[ed->to] &&
				    g->node[ed->to].key == g->node[pick].key)
					indeg[ed->to]--;
			}
		}
		a = b;
	}
	free(ord);
	free(indeg);
	free(done);
}

int gl_upward(const struct glayout *g, const struct gl_edge *e)
{
	return g->node[e->from].rank > g->node[e->to].rank;
}

/* Each edge made to point down (from the lower rank to the higher: a
 * DAG), then the layers: below the centre, one more than the
 * lowest caller at or below it; above, one less than the highest callee at
 * or above it (so callers and callees each sit as near the centre as their
 * calls allow). */
static void layers(struct lay *L, int *layer, int *upper, int *lower)
{
	struct glayout *g = L->g;
	int n = g->nnodes, ne = g->nedges;
	int *rank = xmalloc(((size_t)n + 1) * sizeof(*rank));
	for (int i = 0; i < n; i++)
		rank[i] = g->node[i].rank;
	for (int e = 0; e < ne; e++) {
		struct gl_edge *ed = &g->edge[e];
		ed->up = gl_upward(g, ed);
		upper[e] = ed->up ? ed->to : ed->from;
		lower[e] = ed->up ? ed->from : ed->to;
	}
	for (int i = 0; i < n; i++) {
		int k = g->node[i].key;
		layer[i] = k > 0 ? 1 : k < 0 ? -1 : 0;
	}
	struct edge_rank *er = xmalloc(((size_t)ne + 1) * sizeof(*er));
	for (int e = 0; e < ne; e++)
		er[e] = (struct edge_rank){ e, rank[upper[e]] };
	qsort(er, (size_t)ne, sizeof(*er), cmp_edge_rank);
	for (int i = 0; i < ne; i++) { /* down from the centre */
		int u = upper[er[i].e], w = lower[er[i].e];
		if (g->node[u].key >= 0 && g->node[w].key >= 0 && layer[w] < layer[u] + 1)
			layer[w] = layer[u] + 1;
	}
	for (int e = 0; e < ne; e++)
		er[e] = (struct edge_rank){ e, rank[lower[e]] };
	qsort(er, (size_t)ne, sizeof(*er), cmp_edge_rank);
	for (int i = ne - 1; i >= 0; i--) { /* up from it */
		int u = upper[er[i].e], w = lower[er[i].e];
		if (g->node[u].key < 0 && g->node[w].key <= 0 && layer[u] > layer[w] - 1)
			layer[u] = layer[w] - 1;
	}
	int lo = 0, hi = 0;
	for (int i = 0; i < n; i++) {
		lo = layer[i] < lo ? layer[i] : lo;
		hi = layer[i] > hi ? layer[i] : hi;
	}
	for (int i = 0; i < n; i++)
		layer[i] -= lo;
	L->nl = n ? hi - lo + 1 : 0;
	free(er);
	free(rank);
}

/* The pieces above and below each vnode. */
static void index_segs(struct lay *L)
{
	L->in_start = xcalloc((size_t)L->nv + 2, sizeof(int));
	L->out_start = xcalloc((size_t)L->nv + 2, sizeof(int));
	L->in_idx = xmalloc(((size_t)L->ns + 1) * sizeof(int));
	L->out_idx = xmalloc(((size_t)L->ns + 1) * sizeof(int));
	for (int i = 0; i < L->ns; i++) {
		L->in_start[L->s[i].lo + 1]++;
		L->out_start[L->s[i].up + 1]++;
	}
	for (int v = 0; v < L->nv; v++) {
		L->in_start[v + 1] += L->in_start[v];
		L->out_start[v + 1] += L->out_start[v];
	}
	int *fi = xmalloc(((size_t)L->nv + 1) * sizeof(int)), *fo = xmalloc(((size_t)L->nv + 1) * sizeof(int));
	memcpy(fi, L->in_start, (size_t)L->nv * sizeof(int));
	memcpy(fo, L->out_start, (size_t)L->nv * sizeof(int));
	for (int i = 0; i < L->ns; i++) {
		L->in_idx[fi[L->s[i].lo]++] = i;
		L->out_idx[fo[L->s[i].up]++] = i;
	}
	free(fi);
	free(fo);
}

/* ---- order within layers ---------------------------------------------------------------- */

static long crossings(const struct lay *L)
{
	long c = 0;
	for (int l = 0; l + 1 < L->nl; l++)
		for (int k = 0; k < L->nin[l]; k++) {
			int a = L->order[l][k];
			for (int i = L->out_start[a]; i < L->out_start[a + 1]; i++) {
				const struct seg *s = &L->s[L->out_idx[i]];
				/* against the pieces of the vnodes right of a */
				for (int k2 = k + 1; k2 < L->nin[l]; k2++) {
					int b = L->order[l][k2];
					for (int j = L->out_start[b]; j < L->out_start[b + 1]; j++)
						if (L->v[L->s[L->out_idx[j]].lo].pos < L->v[s->lo].pos)
							c++;
				}
			}
		}
	return c;
}

struct bary {
	double b;
	int v, pos;
};

static int cmp_bary(const void *x, const void *y)
{
	const struct bary *a = x, *b = y;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* Orders layer l by the mean position of each vnode's neighbours above
 * (down) or below; one without any keeps its place. */
static void sort_layer(struct lay *L, int l, int down, struct bary *tmp)
{
	int n = L->nin[l];
	for (int k = 0; k < n; k++) {
		int v = L->order[l][k];
		const int *st = down ? L->in_start : L->out_start, *ix = down ? L->in_idx : L->out_idx;
		double sum = 0;
		int cnt = 0;
		for (int i = st[v]; i < st[v + 1]; i++) {
			const struct seg *s = &L->s[ix[i]];
			sum += L->v[down ? s->up : s->lo].pos;
			cnt++;
		}
		tmp[k] = (struct bary){ cnt ? sum / cnt : k, v, k };
	}
	qsort(tmp, (size_t)n, sizeof(*tmp), cmp_bary);
	for (int k = 0; k < n; k++) {
		L->order[l][k] = tmp[k].v;
		L->v[tmp[k].v].pos = k;
	}
}

static void save_order(const struct lay *L, int *to)
{
	for (int v = 0; v < L->nv; v++)
		to[v] = L->v[v].pos;
}

static void restore_order(struct lay *L, const int *from)
{
	for (int v = 0; v < L->nv; v++) {
		L->v[v].pos = from[v];
		L->order[L->v[v].layer][from[v]] = v;
	}
}

static void order(struct lay *L)
{
	int maxn = 1;
	for (int l = 0; l < L->nl; l++)
		maxn = L->nin[l] > maxn ? L->nin[l] : maxn;
	struct bary *tmp = xmalloc((size_t)maxn * sizeof(*tmp));
	int *best = xmalloc(((size_t)L->nv + 1) * sizeof(int));
	save_order(L, best);
	long bc = crossings(L);
	for (int it = 0; it < SWEEPS && bc > 0; it++) {
		int down = !(it & 1);
		for (int i = 1; i < L->nl; i++)
			sort_layer(L, down ? i : L->nl - 1 - i, down, tmp);
		long c = crossings(L);
		if (c < bc) {
			bc = c;
			save_order(L, best);
		}
	}
	restore_order(L, best);
	L->g->crossings = (int)bc;
	free(best);
	free(tmp);
}

/* ---- all of it ---------------------------------------------------------------------------- */

void gl_layout(struct glayout *g)
{
	struct lay L = { .g = g };
	int n = g->nnodes, ne = g->nedges;
	gl_orient(g);
	int *layer = xmalloc(((size_t)n + 1) * sizeof(int));
	int *upper = xmalloc(((size_t)ne + 1) * sizeof(int)), *lower = xmalloc(((size_t)ne + 1) * sizeof(int));
	layers(&L, layer, upper, lower);
	g->nlayers = L.nl;
	for (int i = 0; i < n; i++)
		add_vnode(&L, layer[i], 1, i);
	L.first = xmalloc(((size_t)ne + 1) * sizeof(int));
	L.nsegs = xmalloc(((size_t)ne + 1) * sizeof(int));
	for (int e = 0; e < ne; e++) { /* a dummy in each layer a long edge passes */
		int prev = upper[e];
		L.first[e] = L.ns;
		for (int l = layer[upper[e]] + 1; l < layer[lower[e]]; l++) {
			int d = add_vnode(&L, l, 1, -1);
			add_seg(&L, prev, d, e);
			prev = d;
		}
		add_seg(&L, prev, lower[e], e);
		L.nsegs[e] = L.ns - L.first[e];
	}
	index_segs(&L);
	/* first order: the nodes as found (the costliest first), then the dummies */
	L.order = xcalloc((size_t)L.nl + 1, sizeof(int *));
	L.nin = xcalloc((size_t)L.nl + 1, sizeof(int));
	for (int v = 0; v < L.nv; v++)
		L.nin[L.v[v].layer]++;
	for (int l = 0; l < L.nl; l++) {
		L.order[l] = xmalloc(((size_t)L.nin[l] + 1) * sizeof(int));
		L.nin[l] = 0;
	}
	int *ord = xmalloc(((size_t)n + 1) * sizeof(int));
	for (int i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, (size_t)n, sizeof(*ord), cmp_rank, g);
	for (int i = 0; i < L.nv; i++) {
		int v = i < n ? ord[i] : i;
		struct vnode *vn = &L.v[v];
		vn->pos = L.nin[vn->layer];
		L.order[vn->layer][L.nin[vn->layer]++] = v;
	}
	free(ord);
	order(&L);
	gl_place(&L);
	for (int l = 0; l < L.nl; l++)
		free(L.order[l]);
	free(L.order);
	free(L.nin);
	free(L.in_start);
	free(L.in_idx);
	free(L.out_start);
	free(L.out_idx);
	free(L.ytop);
	free(L.tracks);
	free(L.first);
	free(L.nsegs);
	free(L.v);
	free(L.s);
	free(layer);
	free(upper);
	free(lower);
}

void gl_free(struct glayout *g)
{
	for (int e = 0; e < g->nedges; e++) {
		free(g->edge[e].pt);
		g->edge[e].pt = NULL;
		g->edge[e].npts = 0;
	}
}
