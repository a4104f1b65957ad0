/* treemap.h -- a nested, squarified treemap on a character grid (the call
 * map view's geometry; no curses, no profile here).  Each rectangle has a
 * frame; its children share what is inside the frame, each an area in
 * proportion to its value, the rest of it (the parent's own part) left
 * empty after them.  Rectangles are laid out as Bruls, Huizing and van
 * Wijk's squarified treemaps, measuring a cell as `aspect` times as tall as
 * it is wide, so that they look square on a terminal, then rounded to the
 * grid by their edges: each edge is within half a cell of the exact one, so
 * each side is within one cell of it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_TREEMAP_H
#define CGTUI_TREEMAP_H

#include <stdint.h>

struct tm_node {
	uint32_t id;
	int parent;           /* node index, -1 for the root */
	int depth;            /* 0 for the root */
	double value;         /* in the root's units (its share of the root
			       * is value / the root's value) */
	double whole;         /* what its children's values are parts of, in
			       * the callback's units */
	int x, y, w, h;       /* on the grid, the frame included */
	double ex, ey, ew, eh; /* the exact rectangle it is rounded from */
	int first, nchild;    /* its children: nodes first .. first + nchild */
};

struct tm_child {
	uint32_t id;
	double value; /* its part of the parent's whole */
	double whole; /* what its own children are parts of */
};

struct treemap;
/* The children of node `node` (largest value first), into *out
 * (malloc'ed, freed by the treemap); returns how many. */
typedef int (*tm_children_fn)(void *arg, const struct treemap *m, int node,
			      struct tm_child **out);

struct treemap {
	struct tm_node *node;
	int n, cap;
	int max_depth; /* levels below the root (0: 12) */
	double aspect; /* a cell's height in widths (0: 2) */
	int truncated; /* TM_MAX_NODES reached */
};

#define TM_MAX_NODES 20000

/* Lays out root (value = whole = `whole`) in the rectangle (x, y, w, h),
 * and inside each rectangle big enough to hold a frame and something, its
 * children from fn. */
void tm_layout(struct treemap *m, int x, int y, int w, int h, uint32_t root, double whole,
	       tm_children_fn fn, void *arg);
void tm_free(struct treemap *m);
/* The node whose rectangle holds cell (x, y), the deepest; -1 if none. */
int tm_at(const struct treemap *m, int x, int y);

#endif
