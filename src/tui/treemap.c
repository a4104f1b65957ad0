/* treemap.c -- a nested squarified treemap on a character grid; see
 * treemap.h.  No curses here: tests/unit/test-graph.c checks it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "treemap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/util.h"

/* The worst aspect ratio of a row of areas (sum s, largest hi, smallest
 * lo) laid along a side of length side. */
static double worst(double s, double hi, double lo, double side)
{
	double a = side * side * hi / (s * s), b = s * s / (side * side * lo);
	return a > b ? a : b;
}

struct exact {
	double x, y, w, h;
};

/* Squarifies areas a[0..n) into the rectangle r (all in units where a cell
 * is square): rows along the shorter side, each as long as the worst
 * aspect ratio in it improves. */
static void squarify(const double *a, int n, struct exact r, struct exact *out)
{
	int i = 0;
	while (i < n) {
		if (r.w <= 0 || r.h <= 0) {
			for (; i < n; i++)
				out[i] = (struct exact){ r.x, r.y, 0, 0 };
			return;
		}
		double side = r.w < r.h ? r.w : r.h, s = 0, hi = 0, lo = 0, prev = INFINITY;
		int j = i;
		while (j < n) {
			double s2 = s + a[j];
			double hi2 = j == i || a[j] > hi ? a[j] : hi, lo2 = j == i || a[j] < lo ? a[j] : lo;
			double wv = worst(s2, hi2, lo2, side);
			if (j > i && wv > prev)
				break;
			s = s2;
			hi = hi2;
			lo = lo2;
			prev = wv;
			j++;
		}
		if (s <= 0) { /* only empty areas left */
			for (; i < n; i++)
				out[i] = (struct exact){ r.x, r.y, 0, 0 };
			return;
		}
		if (r.w >= r.h) { /* a column on the left */
			double t = j == n ? r.w : s / r.h, y = r.y;
			for (int k = i; k < j; k++) {
				double hk = a[k] / t;
				out[k] = (struct exact){ r.x, y, t, hk };
				y += hk;
			}
			if (j == n) /* the last row ends at the edge, whatever the rounding */
				out[j - 1].h = r.y + r.h - out[j - 1].y;
			r.x += t;
			r.w -= t;
		} else { /* a row along the top */
			double t = j == n ? r.h : s / r.w, x = r.x;
			for (int k = i; k < j; k++) {
				double wk = a[k] / t;
				out[k] = (struct exact){ x, r.y, wk, t };
				x += wk;
			}
			if (j == n)
				out[j - 1].w = r.x + r.w - out[j - 1].x;
			r.y += t;
			r.h -= t;
		}
		i = j;
	}
}

static int rnd(double v)
{
	return (int)floor(v + 0.5);
}

static int add_node(struct treemap *m, uint32_t id, int parent, double value, double whole)
{
	VEC_RESERVE(m->node, m->cap, m->n + 1);
	struct tm_node *nd = &m->node[m->n];
	memset(nd, 0, sizeof(*nd));
	nd->id = id;
	nd->parent = parent;
	nd->depth = parent < 0 ? 0 : m->node[parent].depth + 1;
	nd->value = value;
	nd->whole = whole;
	return m->n++;
}

/* Lays out the children of node p inside its frame, then theirs. */
static void children(struct treemap *m, int p, tm_children_fn fn, void *arg)
{
	struct tm_node *nd = &m->node[p];
	int maxd = m->max_depth > 0 ? m->max_depth : 12;
	if (nd->w < 4 || nd->h < 3 || nd->depth >= maxd || m->n >= TM_MAX_NODES)
		return;
	struct tm_child *c = NULL;
	int n = fn(arg, m, p, &c);
	double sum = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		if (c[i].value > 0) { /* (nothing to draw for the others) */
			c[k++] = c[i];
			sum += c[i].value;
		}
	n = k;
	nd = &m->node[p];
	double whole = nd->whole > sum ? nd->whole : sum;
	if (!n || whole <= 0) {
		free(c);
		return;
	}
	double asp = m->aspect > 0 ? m->aspect : 2;
	int ix = nd->x + 1, iy = nd->y + 1, iw = nd->w - 2, ih = nd->h - 2;
	double area = (double)iw * ih * asp, pv = nd->value;
	/* the children, then what is the parent's own (not drawn) */
	double *a = xmalloc(((size_t)n + 1) * sizeof(*a));
	struct exact *r = xmalloc(((size_t)n + 1) * sizeof(*r));
	for (int i = 0; i < n; i++)
		a[i] = area * c[i].value / whole;
	a[n] = area * (whole - sum) / whole;
	squarify(a, n + (whole > sum), (struct exact){ ix, iy * asp, iw, ih * asp }, r);
	int first = m->n, added = 0;
	for (int i = 0; i < n && m->n < TM_MAX_NODES; i++) {
		struct exact e = { r[i].x, r[i].y / asp, r[i].w, r[i].h / asp };
		int x0 = rnd(e.x), x1 = rnd(e.x + e.w), y0 = rnd(e.y), y1 = rnd(e.y + e.h);
		if (x1 <= x0 || y1 <= y0)
			continue; /* less than a cell */
		int q = add_node(m, c[i].id, p, pv * c[i].value / whole, c[i].whole);
		struct tm_node *qn = &m->node[q];
		qn->x = x0;
		qn->y = y0;
		qn->w = x1 - x0;
		qn->h = y1 - y0;
		qn->ex = e.x;
		qn->ey = e.y;
		qn->ew = e.w;
		qn->eh = e.h;
		added++;
	}
	if (m->n >= TM_MAX_NODES)
		m->truncated = 1;
	m->node[p].first = first;
	m->node[p].nchild = added;
	free(a);
	free(r);
	free(c);
	for (int i = 0; i < added; i++)
		children(m, first + i, fn, arg);
}

void tm_layout(struct treemap *m, int x, int y, int w, int h, uint32_t root, double whole,
	       tm_children_fn fn, void *arg)
{
	m->n = 0;
	m->truncated = 0;
	if (w < 1 || h < 1)
		return;
	int r = add_node(m, root, -1, whole, whole);
	struct tm_node *nd = &m->node[r];
	nd->x = x;
	nd->y = y;
	nd->w = w;
	nd->h = h;
	nd->ex = x;
	nd->ey = y;
	nd->ew = w;
	nd->eh = h;
	children(m, r, fn, arg);
}

void tm_free(struct treemap *m)
{
	free(m->node);
	m->node = NULL;
	m->n = m->cap = 0;
}

int tm_at(const struct treemap *m, int x, int y)
{
	int at = -1;
	for (int i = 0; i < m->n; i++) {
		const struct tm_node *nd = &m->node[i];
		if (x >= nd->x && x < nd->x + nd->w && y >= nd->y && y < nd->y + nd->h &&
		    (at < 0 || nd->depth > m->node[at].depth))
			at = i;
	}
	return at;
}
