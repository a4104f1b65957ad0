/* graphlayout_int.h -- what the two halves of the call graph's layout
 * share: graphlayout.c makes the layers and their order, graphplace.c
 * places the boxes and routes the edges on the grid.  Not for other files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_GRAPHLAYOUT_INT_H
#define CGTUI_GRAPHLAYOUT_INT_H

#include "graphlayout.h"

/* A box, or a dummy: where a long edge passes a layer (one column). */
struct vnode {
	int layer, w, x, pos;
	int real; /* the node, or -1 for a dummy */
};

/* An edge between two adjacent layers: an edge, or one piece of a long one. */
struct seg {
	int up, lo; /* vnodes */
	int edge;
	int x1, x2; /* ports: on up's bottom border, on lo's top border */
	int track;  /* its row in the channel, -1 when it goes straight down */
};

struct lay {
	struct glayout *g;
	struct vnode *v;
	int nv, capv;
	struct seg *s;
	int ns, caps;
	int *first, *nsegs; /* each edge's pieces: s[first[e] .. first[e] + nsegs[e]) */
	int nl;
	int **order; /* the vnodes of each layer, left to right */
	int *nin;    /* how many */
	/* each vnode's pieces above and below it (CSR) */
	int *in_start, *in_idx, *out_start, *out_idx;
	int hb;      /* the boxes' height */
	int *ytop;   /* each layer's first row */
	int *tracks; /* the tracks of the channel below each layer */
};

/* Columns, ports, tracks, rows and each edge's points, for the layers in
 * the order L has them (L->order): sets g's nodes' places, edges' points
 * and size. */
void gl_place(struct lay *L);

#endif
