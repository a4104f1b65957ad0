/* graphlayout.h -- a layered drawing of a call graph on a character grid
 * (the call graph view's geometry; no curses, no profile here): boxes in
 * layers, callers above callees, edges as lines of box-drawing characters
 * that never cross a box and never meet another edge but straight across
 * (one edge's corner is never on another's line), so that every line can be
 * followed from one box to the other.
 *
 * The steps are Sugiyama's: each edge is made to point down (a call from a
 * node below to one above is drawn reversed, `up`), layers by the longest
 * path from the centre (key 0) down and up, long edges through one dummy
 * column per layer they pass, crossings reduced by barycentre sweeps, then
 * columns by isotonic regression (each box as near the mean of its
 * neighbours as the order allows), ports on the borders and one horizontal
 * track per edge in the channel between two layers, ordered so that lines
 * cross as little as the ports allow.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_GRAPHLAYOUT_H
#define CGTUI_GRAPHLAYOUT_H

#include <stdint.h>
#include <wchar.h>

struct gl_node {
	/* in */
	int key;            /* orders the layers: callers < 0 < callees, the
			     * centre 0 (signed calls away); within a key, the
			     * node's index */
	int text_w, text_h; /* the text inside the box */
	int note_top;       /* width of a text on the top border (0: none) */
	int note_bottom;    /* the same on the bottom border */
	/* out */
	int rank;           /* gl_orient's order: key, then calls within a key */
	int layer, x, y, w, h;
	int note_top_x, note_bottom_x; /* where those texts start */
};

struct gl_pt {
	int x, y;
};

struct gl_edge {
	/* in */
	int from, to; /* node indexes: `from` calls `to` (not itself) */
	int label_w;  /* its label, after its port on the lower box's top border */
	/* out */
	int up;       /* drawn from `to` (above) down to `from`: a call upward */
	int label_x, label_y;
	int npts;
	struct gl_pt *pt; /* its line, corners only: from the upper box's
			   * bottom border to the lower box's top border */
};

struct glayout {
	/* in */
	int nnodes, nedges;
	struct gl_node *node;
	struct gl_edge *edge;
	/* out */
	int w, h;     /* the picture */
	int nlayers;
	int crossings; /* edges crossing between layers (the order's count) */
};

/* Orders the nodes (their rank): by key, and within a key as the calls
 * between them go (caller first; where they call each other round, the
 * lower index first).  gl_layout does it first. */
void gl_orient(struct glayout *g);
/* Is edge e drawn upward, from `to` down to `from` (after gl_orient): a
 * call from a node of a higher rank. */
int gl_upward(const struct glayout *g, const struct gl_edge *e);
/* Places the nodes and routes the edges (allocates the edges' points). */
void gl_layout(struct glayout *g);
/* Frees the points gl_layout allocated. */
void gl_free(struct glayout *g);

/* The picture's lines, w * h cells (malloc'ed), row by row: each cell the
 * directions its line goes (GL_N | GL_E ...): box borders and edges; 0
 * where there is none.  A box's inside is 0. */
enum { GL_N = 1, GL_E = 2, GL_S = 4, GL_W = 8 };
uint8_t *gl_raster(const struct glayout *g);
/* The character of a cell's lines: box drawing in UTF-8, else - | +. */
wchar_t gl_glyph(uint8_t mask, int utf8);

#endif
