/* graphplace.c -- the call graph's layout on the character grid: columns,
 * ports, tracks and rows, the edges' lines, and the grid drawn from them
 * (gl_raster, gl_glyph); the layers and their order come from
 * graphlayout.c.  No curses here: tests/unit/test-graph.c checks it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "graphlayout_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/util.h"

#define GAP 2     /* columns between two boxes (or a box and a line) */
#define PASSES 12 /* placement passes */

/* ---- columns ---------------------------------------------------------------------------- */

static double centre(const struct vnode *v)
{
	return v->x + v->w / 2.0;
}

/* Puts the vnodes of layer l as near `want` (their left columns) as their
 * order and the gaps allow, in the least squares (weighted): an isotonic
 * regression by pooling adjacent violators. */
static void place_layer(struct lay *L, int l, const double *want, const double *wt, double *buf,
			int *bn)
{
	int n = L->nin[l], nb = 0;
	double *off = buf, *bs = buf + n, *bw = buf + 2 * n;
	for (int k = 0; k < n; k++) {
		int v = L->order[l][k];
		off[k] = k ? off[k - 1] + L->v[L->order[l][k - 1]].w + GAP : 0;
		bs[nb] = (want[v] - off[k]) * wt[v];
		bw[nb] = wt[v];
		bn[nb] = 1;
		nb++;
		while (nb > 1 && bs[nb - 2] / bw[nb - 2] > bs[nb - 1] / bw[nb - 1]) {
			bs[nb - 2] += bs[nb - 1];
			bw[nb - 2] += bw[nb - 1];
			bn[nb - 2] += bn[nb - 1];
			nb--;
		}
	}
	for (int b = 0, k = 0; b < nb; b++) {
		double m = floor(bs[b] / bw[b] + 0.5);
		for (int i = 0; i < bn[b]; i++, k++)
			L->v[L->order[l][k]].x = (int)m + (int)off[k];
	}
}

static void columns(struct lay *L)
{
	int widest = 0;
	for (int l = 0; l < L->nl; l++) {
		int x = 0;
		for (int k = 0; k < L->nin[l]; k++) {
			struct vnode *v = &L->v[L->order[l][k]];
			v->x = x;
			x += v->w + GAP;
		}
		widest = x > widest ? x : widest;
	}
	for (int l = 0; l < L->nl; l++) { /* each layer centred */
		int n = L->nin[l];
		if (!n)
			continue;
		struct vnode *last = &L->v[L->order[l][n - 1]];
		int shift = (widest - (last->x + last->w + GAP)) / 2;
		for (int k = 0; k < n; k++)
			L->v[L->order[l][k]].x += shift;
	}
	double *want = xmalloc(((size_t)L->nv + 1) * sizeof(double));
	double *wt = xmalloc(((size_t)L->nv + 1) * sizeof(double));
	int maxn = 1;
	for (int l = 0; l < L->nl; l++)
		maxn = L->nin[l] > maxn ? L->nin[l] : maxn;
	double *buf = xmalloc((size_t)maxn * 3 * sizeof(double));
	int *bn = xmalloc((size_t)maxn * sizeof(int));
	for (int it = 0; it < PASSES; it++) {
		/* down, up, ... and the last two from both sides */
		int down = !(it & 1), both = it >= PASSES - 2;
		for (int i = 0; i < L->nl; i++) {
			int l = down ? i : L->nl - 1 - i;
			for (int k = 0; k < L->nin[l]; k++) {
				int v = L->order[l][k];
				double sum = 0;
				int cnt = 0;
				for (int side = 0; side < 2; side++) {
					if (!both && side != down)
						continue;
					const int *st = side ? L->in_start : L->out_start;
					const int *ix = side ? L->in_idx : L->out_idx;
					for (int j = st[v]; j < st[v + 1]; j++) {
						const struct seg *s = &L->s[ix[j]];
						sum += centre(&L->v[side ? s->up : s->lo]);
						cnt++;
					}
				}
				/* a dummy holds a long edge straight; a vnode without
				 * neighbours on that side stays where it is */
				want[v] = cnt ? sum / cnt - L->v[v].w / 2.0 : L->v[v].x;
				wt[v] = !cnt ? 0.05 : L->v[v].real < 0 ? 8 : 1;
			}
			place_layer(L, l, want, wt, buf, bn);
		}
	}
	int minx = 0;
	for (int v = 0; v < L->nv; v++)
		minx = v == 0 || L->v[v].x < minx ? L->v[v].x : minx;
	for (int v = 0; v < L->nv; v++)
		L->v[v].x -= minx;
	free(want);
	free(wt);
	free(buf);
	free(bn);
}

/* ---- ports and tracks ------------------------------------------------------------------- */

struct port_key {
	int s;
	double at;
};

static int cmp_port(const void *x, const void *y)
{
	const struct port_key *a = x, *b = y;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return a->s < b->s ? -1 : a->s > b->s;
}

/* The box widths: the text, the ports and labels of the top border, the
 * ports of the bottom one, the notes. */
static void widths(struct lay *L)
{
	const struct glayout *g = L->g;
	for (int v = 0; v < g->nnodes; v++) {
		const struct gl_node *nd = &g->node[v];
		int top = 2, nout = L->out_start[v + 1] - L->out_start[v];
		for (int i = L->in_start[v]; i < L->in_start[v + 1]; i++)
			top += 2 + g->edge[L->s[L->in_idx[i]].edge].label_w;
		top += nd->note_top ? nd->note_top + 2 : 1;
		int bottom = 2 + 2 * nout + (nd->note_bottom ? nd->note_bottom + 2 : 0);
		int w = nd->text_w + 4;
		w = top > w ? top : w;
		w = bottom > w ? bottom : w;
		L->v[v].w = w < 5 ? 5 : w;
	}
}

/* The top border's ports, left to right as the other ends stand, each
 * followed by its edge's label. */
static void top_ports(struct lay *L, struct port_key *tmp)
{
	struct glayout *g = L->g;
	for (int v = 0; v < L->nv; v++) {
		struct vnode *vn = &L->v[v];
		int n = 0;
		for (int i = L->in_start[v]; i < L->in_start[v + 1]; i++) {
			const struct seg *s = &L->s[L->in_idx[i]];
			tmp[n++] = (struct port_key){ L->in_idx[i], centre(&L->v[s->up]) };
		}
		if (vn->real < 0) {
			for (int i = 0; i < n; i++)
				L->s[tmp[i].s].x2 = vn->x;
			for (int i = L->out_start[v]; i < L->out_start[v + 1]; i++)
				L->s[L->out_idx[i]].x1 = vn->x;
			continue;
		}
		qsort(tmp, (size_t)n, sizeof(*tmp), cmp_port);
		int at = vn->x + 2;
		for (int i = 0; i < n; i++) {
			L->s[tmp[i].s].x2 = at;
			at += 2 + g->edge[L->s[tmp[i].s].edge].label_w;
		}
	}
}

/* The bottom border's ports: each as near straight above its other end as
 * the box allows, in the same order, never in a column another piece of
 * that channel uses. */
static void bottom_ports(struct lay *L, struct port_key *tmp, int width)
{
	struct glayout *g = L->g;
	unsigned char *used = xcalloc((size_t)width + 2, 1);
	for (int l = 0; l + 1 < L->nl; l++) {
		memset(used, 0, (size_t)width + 2);
		for (int k = 0; k < L->nin[l]; k++) {
			int v = L->order[l][k];
			for (int i = L->out_start[v]; i < L->out_start[v + 1]; i++) {
				const struct seg *s = &L->s[L->out_idx[i]];
				used[s->x2] = 1;
				if (L->v[v].real < 0)
					used[s->x1] = 1;
			}
		}
		for (int k = 0; k < L->nin[l]; k++) {
			int v = L->order[l][k];
			const struct vnode *vn = &L->v[v];
			if (vn->real < 0)
				continue;
			const struct gl_node *nd = &g->node[vn->real];
			int n = 0;
			for (int i = L->out_start[v]; i < L->out_start[v + 1]; i++)
				tmp[n++] = (struct port_key){ L->out_idx[i], L->s[L->out_idx[i]].x2 };
			qsort(tmp, (size_t)n, sizeof(*tmp), cmp_port);
			int lo = vn->x + 1;
			int hi = nd->note_bottom ? vn->x + vn->w - 2 - nd->note_bottom - 2 : vn->x + vn->w - 2;
			int prev = lo - 1;
			for (int i = 0; i < n; i++) {
				struct seg *s = &L->s[tmp[i].s];
				/* (a column left for each port after this one) */
				int top = hi - (n - 1 - i) > prev ? hi - (n - 1 - i) : hi;
				int want = s->x2 < prev + 1 ? prev + 1 : s->x2 > top ? top : s->x2, got = -1;
				for (int d = 0; got < 0 && d <= hi - lo; d++) {
					if (want - d > prev && want - d >= lo && want - d <= top &&
					    (!used[want - d] || want - d == s->x2))
						got = want - d;
					else if (want + d <= top && want + d > prev &&
						 (!used[want + d] || want + d == s->x2))
						got = want + d;
				}
				for (int c = lo; got < 0 && c <= hi; c++) /* out of order, then */
					if (!used[c])
						got = c;
				if (got < 0) /* no free column: a crowded box */
					got = want < lo ? lo : want > hi ? hi : want;
				s->x1 = got;
				used[got] = 1;
				prev = got > prev ? got : prev;
			}
		}
	}
	free(used);
}

static int within(int c, int a, int b)
{
	return a < b ? c > a && c < b : c > b && c < a;
}

/* Crossings of pieces a and b when a's track is above b's. */
static int cross_above(const struct seg *a, const struct seg *b)
{
	return within(b->x1, a->x1, a->x2) + within(a->x2, b->x1, b->x2);
}

/* The tracks of each channel: pieces that do not go straight down get a
 * row each, ordered so that each pair crosses the least it can (Copeland's
 * ranking of the pairs' preferences), rows shared where their spans are
 * apart. */
static void tracks(struct lay *L)
{
	int *list = xmalloc(((size_t)L->ns + 1) * sizeof(int));
	int *wins = xcalloc((size_t)L->ns + 1, sizeof(int));
	L->tracks = xcalloc((size_t)L->nl + 1, sizeof(int));
	for (int l = 0; l + 1 < L->nl; l++) {
		int n = 0;
		for (int i = 0; i < L->ns; i++)
			if (L->v[L->s[i].up].layer == l && L->s[i].x1 != L->s[i].x2)
				list[n++] = i;
		for (int i = 0; i < n; i++) {
			wins[list[i]] = 0;
			for (int j = 0; j < n; j++) {
				if (i == j)
					continue;
				const struct seg *a = &L->s[list[i]], *b = &L->s[list[j]];
				int ab = cross_above(a, b), ba = cross_above(b, a);
				if (ab < ba || (ab == ba && (a->x1 < b->x1) == (a->x1 < a->x2)))
					wins[list[i]]++;
			}
		}
		/* most wins first (insertion sort: channels are small) */
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && (wins[list[j]] > wins[list[j - 1]] ||
						  (wins[list[j]] == wins[list[j - 1]] &&
						   L->s[list[j]].x1 < L->s[list[j - 1]].x1)); j--) {
				int t = list[j];
				list[j] = list[j - 1];
				list[j - 1] = t;
			}
		/* a piece that leaves its box in the column where another comes
		 * into its box must turn above it (else their lines would meet):
		 * taken in that order, the ranking's where it is free to */
		for (int i = 0; i < n; i++) {
			int pick = i;
			for (int k = i; k < n; k++) {
				int blocked = 0;
				for (int j = i; j < n && !blocked; j++)
					blocked = j != k && L->s[list[j]].x1 == L->s[list[k]].x2;
				if (!blocked) {
					pick = k;
					break;
				}
			}
			int t = list[pick];
			memmove(&list[i + 1], &list[i], (size_t)(pick - i) * sizeof(int));
			list[i] = t;
		}
		int nt = 0;
		for (int i = 0; i < n; i++) {
			struct seg *a = &L->s[list[i]];
			int al = a->x1 < a->x2 ? a->x1 : a->x2, ar = a->x1 < a->x2 ? a->x2 : a->x1, t = 0;
			for (int j = 0; j < i; j++) {
				const struct seg *b = &L->s[list[j]];
				int bl = b->x1 < b->x2 ? b->x1 : b->x2, br = b->x1 < b->x2 ? b->x2 : b->x1;
				if (al <= br + 1 && bl <= ar + 1 && b->track + 1 > t)
					t = b->track + 1;
			}
			a->track = t;
			nt = t + 1 > nt ? t + 1 : nt;
		}
		L->tracks[l] = nt;
	}
	free(list);
	free(wins);
}

/* ---- lines -------------------------------------------------------------------------------- */

static void add_pt(struct gl_edge *e, int *cap, int x, int y)
{
	if (e->npts && e->pt[e->npts - 1].x == x && e->pt[e->npts - 1].y == y)
		return;
	/* the middle of three points in a line is no corner */
	if (e->npts >= 2) {
		struct gl_pt a = e->pt[e->npts - 2], b = e->pt[e->npts - 1];
		if ((a.x == b.x && b.x == x) || (a.y == b.y && b.y == y))
			e->npts--;
	}
	VEC_RESERVE(e->pt, *cap, e->npts + 1);
	e->pt[e->npts++] = (struct gl_pt){ x, y };
}

static void lines(struct lay *L)
{
	struct glayout *g = L->g;
	for (int e = 0; e < g->nedges; e++) {
		struct gl_edge *ed = &g->edge[e];
		int cap = 0;
		ed->npts = 0;
		ed->pt = NULL;
		for (int k = 0; k < L->nsegs[e]; k++) {
			const struct seg *s = &L->s[L->first[e] + k];
			const struct vnode *up = &L->v[s->up], *lo = &L->v[s->lo];
			add_pt(ed, &cap, s->x1, L->ytop[up->layer] + L->hb - 1);
			if (s->track >= 0) {
				int ty = L->ytop[up->layer] + L->hb + s->track;
				add_pt(ed, &cap, s->x1, ty);
				add_pt(ed, &cap, s->x2, ty);
			}
			add_pt(ed, &cap, s->x2, L->ytop[lo->layer]);
			if (lo->real < 0)
				add_pt(ed, &cap, s->x2, L->ytop[lo->layer] + L->hb - 1);
			else {
				ed->label_x = s->x2 + 1;
				ed->label_y = L->ytop[lo->layer];
			}
		}
	}
}

/* ---- all of the placing ------------------------------------------------------------------ */

void gl_place(struct lay *L)
{
	struct glayout *g = L->g;
	int n = g->nnodes;
	widths(L);
	columns(L);
	int width = 0, maxdeg = 1;
	for (int v = 0; v < L->nv; v++) {
		width = L->v[v].x + L->v[v].w > width ? L->v[v].x + L->v[v].w : width;
		int din = L->in_start[v + 1] - L->in_start[v], dout = L->out_start[v + 1] - L->out_start[v];
		maxdeg = din > maxdeg ? din : maxdeg;
		maxdeg = dout > maxdeg ? dout : maxdeg;
	}
	struct port_key *tmp = xmalloc((size_t)maxdeg * sizeof(*tmp));
	top_ports(L, tmp);
	bottom_ports(L, tmp, width);
	free(tmp);
	tracks(L);
	/* rows: the boxes' height, then each channel's tracks (at least one) */
	L->hb = 3;
	for (int i = 0; i < n; i++)
		L->hb = g->node[i].text_h + 2 > L->hb ? g->node[i].text_h + 2 : L->hb;
	L->ytop = xcalloc((size_t)L->nl + 1, sizeof(int));
	for (int l = 1; l < L->nl; l++)
		L->ytop[l] = L->ytop[l - 1] + L->hb + (L->tracks[l - 1] ? L->tracks[l - 1] : 1);
	for (int i = 0; i < n; i++) {
		struct gl_node *nd = &g->node[i];
		nd->layer = L->v[i].layer;
		nd->x = L->v[i].x;
		nd->w = L->v[i].w;
		nd->y = L->ytop[nd->layer];
		nd->h = L->hb;
		nd->note_top_x = nd->x + nd->w - 2 - nd->note_top;
		nd->note_bottom_x = nd->x + nd->w - 2 - nd->note_bottom;
	}
	lines(L);
	g->w = width;
	g->h = L->nl ? L->ytop[L->nl - 1] + L->hb : 0;
}

uint8_t *gl_raster(const struct glayout *g)
{
	size_t w = (size_t)(g->w > 0 ? g->w : 1), h = (size_t)(g->h > 0 ? g->h : 1);
	uint8_t *m = xcalloc(w * h, 1);
#define CELL(x, y) m[(size_t)(y) * w + (size_t)(x)]
	for (int i = 0; i < g->nnodes; i++) {
		const struct gl_node *nd = &g->node[i];
		int x0 = nd->x, x1 = nd->x + nd->w - 1, y0 = nd->y, y1 = nd->y + nd->h - 1;
		for (int x = x0; x <= x1; x++) {
			CELL(x, y0) |= (x > x0 ? GL_W : 0) | (x < x1 ? GL_E : 0);
			CELL(x, y1) |= (x > x0 ? GL_W : 0) | (x < x1 ? GL_E : 0);
		}
		for (int y = y0; y <= y1; y++) {
			CELL(x0, y) |= (y > y0 ? GL_N : 0) | (y < y1 ? GL_S : 0);
			CELL(x1, y) |= (y > y0 ? GL_N : 0) | (y < y1 ? GL_S : 0);
		}
	}
	for (int e = 0; e < g->nedges; e++) {
		const struct gl_edge *ed = &g->edge[e];
		for (int k = 0; k + 1 < ed->npts; k++) {
			struct gl_pt a = ed->pt[k], b = ed->pt[k + 1];
			if (a.x == b.x) {
				int d = b.y > a.y ? 1 : -1;
				for (int y = a.y; y != b.y; y += d) {
					CELL(a.x, y) |= d > 0 ? GL_S : GL_N;
					CELL(a.x, y + d) |= d > 0 ? GL_N : GL_S;
				}
			} else {
				int d = b.x > a.x ? 1 : -1;
				for (int x = a.x; x != b.x; x += d) {
					CELL(x, a.y) |= d > 0 ? GL_E : GL_W;
					CELL(x + d, a.y) |= d > 0 ? GL_W : GL_E;
				}
			}
		}
	}
#undef CELL
	return m;
}

wchar_t gl_glyph(uint8_t m, int utf8)
{
	static const wchar_t box[16] = {
		L' ',      L'\u2502', L'\u2500', L'\u2514', L'\u2502', L'\u2502', L'\u250c', L'\u251c',
		L'\u2500', L'\u2518', L'\u2500', L'\u2534', L'\u2510', L'\u2524', L'\u252c', L'\u253c',
	};
	static const wchar_t ascii[16] = {
		L' ', L'|', L'-', L'+', L'|', L'|', L'+', L'+', L'-', L'+', L'-', L'+', L'+', L'+', L'+', L'+',
	};
	return (utf8 ? box : ascii)[m & 15];
}
