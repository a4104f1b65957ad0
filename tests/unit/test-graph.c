/* test-graph.c -- the call graph and the call map, without a terminal:
 *  - what they show of a profile (profile/callgraph.c), on hand-made
 *    profiles whose numbers are worked out by hand in the comments;
 *  - the call graph's drawing (src/tui/graphlayout.c): every line followed
 *    cell by cell from box to box through the raster, by a reader written
 *    here (it must reach the box the edge goes to, never touch another box,
 *    never meet another line but straight across), on hand-made graphs and
 *    on random ones;
 *  - the call map's rectangles (src/tui/treemap.c): inside their parent's
 *    frame, apart from each other, each side within one cell of the exact
 *    area of its share, worked out here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/aggregate.h"
#include "profile/callgraph.h"
#include "profile/load.h"
#include "profile/model.h"
#include "profile/query.h"
#include "tui/graphlayout.h"
#include "tui/treemap.h"
#include "fixture.h"
#include "tap.h"

/* ---- the profile's side --------------------------------------------------------------- */

/* The node of entity id in g, or -1. */
static int node_of(const struct cgraph *g, uint32_t id)
{
	for (uint32_t i = 0; i < g->nnodes; i++)
		if (g->node[i].id == id)
			return (int)i;
	return -1;
}

/* The edge from -> to (entities) in g, or NULL. */
static const struct cg_edge *edge_of(const struct cgraph *g, uint32_t from, uint32_t to)
{
	int f = node_of(g, from), t = node_of(g, to);
	for (uint32_t i = 0; f >= 0 && t >= 0 && i < g->nedges; i++)
		if ((int)g->edge[i].from == f && (int)g->edge[i].to == t)
			return &g->edge[i];
	return NULL;
}

static void test_spec_graph(void)
{
	/* The specification's example: main -> func1 1x 400, main -> func2 3x
	 * 400, func1 -> func2 2x 300; inclusive main 820, func1 400, func2
	 * 700; total 820. */
	struct profile p;
	if (load(&p, spec_example) != 0) {
		ok(0, "spec example loads: %s", lasterr);
		return;
	}
	uint32_t m = fn(&p, "main"), f1 = fn(&p, "func1"), f2 = fn(&p, "func2");
	struct cgraph g;
	cgraph_build(&p, m, 2, 0, 0.1, 8, &g);
	/* main's callees: 400 and 400, tied: by name, func1 first */
	is(g.nnodes, 3, "main, 2 levels: 3 boxes");
	ok(g.node[0].id == m && g.node[0].dist == 0, "main in the middle");
	ok(g.nnodes == 3 && g.node[1].id == f1 && g.node[2].id == f2 && g.node[1].dist == 1 &&
		   g.node[2].dist == 1, "func1 then func2, one call below (equal costs: by name)");
	is(g.nedges, 3, "3 calls drawn");
	const struct cg_edge *e = edge_of(&g, m, f1);
	ok(e && e->count == 1 && e->value == 400 && e->kind == CALL_PLAIN, "main -> func1 1x 400");
	e = edge_of(&g, m, f2);
	ok(e && e->count == 3 && e->value == 400, "main -> func2 3x 400");
	e = edge_of(&g, f1, f2);
	ok(e && e->count == 2 && e->value == 300, "func1 -> func2 2x 300 (found from func1, one level down)");
	int more = 0;
	for (uint32_t i = 0; i < g.nnodes; i++)
		more += (int)(g.node[i].more_up + g.node[i].more_down);
	is(more, 0, "nothing left out");
	cgraph_free(&g);

	/* one level: func1 is not looked into, its call of func2 is left out,
	 * on both ends */
	cgraph_build(&p, m, 1, 0, 0.1, 8, &g);
	ok(g.nedges == 2 && !edge_of(&g, f1, f2), "1 level: func1 -> func2 not drawn");
	ok(node_of(&g, f1) >= 0 && g.node[node_of(&g, f1)].more_down == 1 &&
		   g.node[node_of(&g, f2)].more_up == 1, "func1: +1 more callee; func2: +1 more caller");
	cgraph_free(&g);

	/* threshold 50% of 820 = 410: both of main's calls (400) are under it */
	cgraph_build(&p, m, 2, 0, 50, 8, &g);
	ok(g.nnodes == 1 && g.nedges == 0 && g.node[0].more_down == 2,
	   "threshold 50%%: main alone, +2 more callees");
	cgraph_free(&g);
	/* at most one callee a node */
	cgraph_build(&p, m, 2, 0, 0.1, 1, &g);
	ok(g.nnodes == 3 && g.node[0].more_down == 1 && edge_of(&g, m, f1) && !edge_of(&g, m, f2),
	   "cap 1: main -> func1 drawn, +1 more; func2 still under func1");
	cgraph_free(&g);

	/* func2 in the middle: its callers main (3x 400) and func1 (2x 300) one
	 * level up; two levels: func1's caller main is there already, so its
	 * call is drawn between them */
	cgraph_build(&p, f2, 2, 0, 0.1, 8, &g);
	ok(g.nnodes == 3 && g.node[1].id == m && g.node[1].dist == -1 && g.node[2].id == f1 &&
		   g.node[2].dist == -1, "func2: callers main then func1, one level up");
	e = edge_of(&g, m, f1);
	ok(g.nedges == 3 && e && e->count == 1, "and main -> func1 1x between them");
	cgraph_free(&g);

	/* the call map: main's parts are its calls' costs (400, 400; main's own
	 * 20 is what is left); func1's part is func2 (300); func2 has none */
	struct cm_part *pa;
	int n = callmap_parts(&p, m, 0, &m, 1, 0, &pa);
	ok(n == 2 && pa[0].id == f1 && pa[0].value == 400 && pa[1].id == f2 && pa[1].value == 400,
	   "map of main: func1 400, func2 400");
	free(pa);
	n = callmap_parts(&p, f1, 0, NULL, 0, 0, &pa);
	ok(n == 1 && pa[0].id == f2 && pa[0].value == 300 && pa[0].count == 2, "map of func1: func2 300");
	free(pa);
	n = callmap_parts(&p, f2, 0, NULL, 0, 0, &pa);
	ok(n == 0 && pa == NULL, "map of func2: no parts");
	profile_free(&p);
}

/* recursion.out of tests/tui: main calls a once (90); a and b call each
 * other: a -> b 2x 80, b -> a 1x 70; self main 10, a 50, b 40. */
static const char mutual[] = "events: Ir\n"
			     "fl=prog.c\nfn=main\n1 10\ncfn=a\ncalls=1 5\n2 90\n"
			     "fn=a\n5 50\ncfn=b\ncalls=2 10\n6 80\n"
			     "fn=b\n10 40\ncfn=a\ncalls=1 5\n11 70\n";

static void test_cycle_graph(void)
{
	struct profile p;
	if (load(&p, mutual) != 0) {
		ok(0, "mutual recursion loads: %s", lasterr);
		return;
	}
	const struct agg *ag = profile_agg(&p);
	uint32_t m = fn(&p, "main"), a = fn(&p, "a"), b = fn(&p, "b"), cyc = agg_cycle_ent(ag, 1);
	/* KCachegrind's cycle: <cycle 1> = {a, b}, self 90, inclusive 90 (no
	 * call leaves it); a's inclusive 50, b's 40 (their own: no call leaves
	 * the cycle from them) */
	struct cgraph g;
	cgraph_build(&p, m, 2, 0, 0.1, 8, &g);
	/* main -> <cycle 1> (the call into a: 1x 90), <cycle 1> -> a (1x from
	 * outside, 50), -> b (0x, 40); a and b two levels down are not looked
	 * into: each has one more caller and one more callee (the other, inside
	 * the cycle) */
	const struct cg_edge *e = edge_of(&g, m, cyc);
	ok(g.nnodes == 4 && e && e->count == 1 && e->value == 90 && e->kind == CALL_PLAIN,
	   "main -> <cycle 1> 1x 90, the cycle a box of its own");
	e = edge_of(&g, cyc, a);
	ok(e && e->kind == CALL_MEMBER && e->count == 1 && e->value == 50, "<cycle 1> -> a: 1x, 50");
	e = edge_of(&g, cyc, b);
	ok(e && e->kind == CALL_MEMBER && e->count == 0 && e->value == 40, "<cycle 1> -> b: 0x, 40");
	int ia = node_of(&g, a), ib = node_of(&g, b);
	ok(ia >= 0 && ib >= 0 && g.node[ia].more_up == 1 && g.node[ia].more_down == 1 &&
		   g.node[ib].more_up == 1 && g.node[ib].more_down == 1,
	   "a and b: +1 more caller, +1 more callee each (each other)");
	cgraph_free(&g);

	/* a in the middle: callers <cycle 1> (its cost, called once from
	 * outside) and b (1x, inside the cycle: no share); callee b (2x,
	 * inside); two levels: the cycle's caller main (via a), b's caller the
	 * cycle (0x from outside) */
	cgraph_build(&p, a, 2, 0, 0.1, 8, &g);
	e = edge_of(&g, b, a);
	ok(e && e->kind == CALL_IN_CYCLE && e->count == 1, "b -> a 1x, inside the cycle");
	e = edge_of(&g, a, b);
	ok(e && e->kind == CALL_IN_CYCLE && e->count == 2, "a -> b 2x, inside the cycle");
	ok(g.nnodes == 4 && node_of(&g, m) >= 0 && g.node[node_of(&g, m)].dist == -2 &&
		   g.node[node_of(&g, b)].dist == -1, "main two levels up, b one (found first as a caller)");
	e = edge_of(&g, cyc, b);
	ok(g.nedges == 5 && e && e->count == 0 && edge_of(&g, m, cyc), "5 calls: and <cycle 1> -> b, main -> <cycle 1>");
	cgraph_free(&g);

	/* the map: main's part is the cycle (90); the cycle's, its members
	 * (50, 40); a's: none (its call of b is inside the cycle) */
	struct cm_part *pa;
	int n = callmap_parts(&p, m, 0, NULL, 0, 0, &pa);
	ok(n == 1 && pa[0].id == cyc && pa[0].via == a && pa[0].value == 90, "map of main: <cycle 1> via a, 90");
	free(pa);
	n = callmap_parts(&p, cyc, 0, NULL, 0, 0, &pa);
	ok(n == 2 && pa[0].id == a && pa[0].value == 50 && pa[1].id == b && pa[1].value == 40,
	   "map of <cycle 1>: a 50, b 40 (they fill it: 90)");
	free(pa);
	n = callmap_parts(&p, a, 0, NULL, 0, 0, &pa);
	is(n, 0, "map of a: nothing (a -> b is inside the cycle)");
	free(pa);

	/* cycle detection off: every call as recorded; a's part is b (80),
	 * b's is a (70) unless the map is inside a already */
	profile_set_cycles(&p, 0);
	n = callmap_parts(&p, a, 0, NULL, 0, 0, &pa);
	ok(n == 1 && pa[0].id == b && pa[0].value == 80, "off: map of a: b 80");
	free(pa);
	uint32_t path[3] = { m, a, b };
	n = callmap_parts(&p, b, 0, path, 3, 0, &pa);
	is(n, 0, "off: b inside main > a: a is not entered again");
	free(pa);
	n = callmap_parts(&p, b, 0, &b, 1, 0, &pa);
	ok(n == 1 && pa[0].id == a && pa[0].value == 70, "off: map of b alone: a 70");
	free(pa);
	profile_free(&p);
}

/* f calls itself: main -> f 1x 100, f -> f 5x 80; self main 10, f 100. */
static const char selfrec[] = "events: Ir\n"
			      "fl=r.c\nfn=main\n1 10\ncfn=f\ncalls=1 5\n2 100\n"
			      "fn=f\n5 100\ncfn=f\ncalls=5 5\n6 80\n";

static void test_self_graph(void)
{
	struct profile p;
	if (load(&p, selfrec) != 0) {
		ok(0, "self recursion loads: %s", lasterr);
		return;
	}
	uint32_t m = fn(&p, "main"), f = fn(&p, "f");
	struct cgraph g;
	cgraph_build(&p, f, 2, 0, 0.1, 8, &g);
	ok(g.nnodes == 2 && g.nedges == 1 && edge_of(&g, m, f) && g.node[0].self_calls == 5 &&
		   g.node[0].more_up == 0 && g.node[0].more_down == 0,
	   "f: called by main, its 5 calls to itself in its box, no edge");
	cgraph_free(&g);
	struct cm_part *pa;
	int n = callmap_parts(&p, f, 0, NULL, 0, 0, &pa);
	is(n, 0, "map of f: its calls to itself are no part of it");
	free(pa);
	profile_free(&p);
}

/* query_edges_keep: the other entities left out are not read, and counted */
static int only(struct profile *p, uint32_t other, void *arg)
{
	(void)p;
	return arg && other == *(const uint32_t *)arg;
}

static void test_keep(void)
{
	struct profile p;
	if (load(&p, spec_example) != 0) {
		ok(0, "spec example loads: %s", lasterr);
		return;
	}
	uint32_t m = fn(&p, "main"), f1 = fn(&p, "func1"), f2 = fn(&p, "func2");
	struct edge *ed;
	int left = -1;
	int n = query_edges_keep(&p, f2, 1, only, &m, &ed, &left);
	ok(n == 1 && ed[0].fn == m && ed[0].count == 3 && ed[0].cost[0] == 400 && left == 1,
	   "callers of func2, main only: main 3x 400, func1 left out");
	free(ed);
	n = query_edges_keep(&p, f2, 1, only, NULL, &ed, &left);
	ok(n == 0 && left == 2, "none kept: 2 left out");
	free(ed);
	n = query_edges_keep(&p, m, 0, only, &f1, &ed, &left);
	ok(n == 1 && ed[0].fn == f1 && left == 1, "callees of main, func1 only");
	free(ed);
	/* the threshold of 50%% (410): main's calls of func2 (400) and func1
	 * (400, under the limit itself: its calls not read) are not drawn */
	struct cgraph g;
	cgraph_build(&p, f2, 2, 0, 50, 8, &g);
	ok(g.nnodes == 1 && g.node[0].more_up == 2, "func2 at 50%%: +2 more callers, counted unread");
	cgraph_free(&g);
	profile_free(&p);

	if (load(&p, mutual) != 0) {
		ok(0, "mutual recursion loads: %s", lasterr);
		return;
	}
	const struct agg *ag = profile_agg(&p);
	uint32_t a = fn(&p, "a"), b = fn(&p, "b"), cyc = agg_cycle_ent(ag, 1);
	m = fn(&p, "main");
	/* a cycle's callers are the calls from outside into it: main's call of
	 * a (1x 90); its callees, its members, with the calls from outside
	 * into each: a 1x (50), b 0x (40) */
	n = query_edges_keep(&p, cyc, 1, NULL, NULL, &ed, &left);
	ok(n == 1 && ed[0].fn == m && ed[0].via == a && ed[0].count == 1 && ed[0].cost[0] == 90 && left == 0,
	   "callers of <cycle 1>: main via a, 1x 90");
	free(ed);
	n = query_edges_keep(&p, cyc, 0, only, &a, &ed, &left);
	ok(n == 1 && ed[0].fn == a && ed[0].kind == CALL_MEMBER && ed[0].count == 1 && ed[0].cost[0] == 50 &&
		   left == 1, "callees of <cycle 1>, a only: a 1x 50; b left out");
	free(ed);
	n = query_edges_keep(&p, cyc, 0, only, &b, &ed, &left);
	ok(n == 1 && ed[0].fn == b && ed[0].count == 0 && ed[0].cost[0] == 40 && left == 1,
	   "b only: b 0x 40 (never called from outside)");
	free(ed);
	profile_free(&p);
}

/* ---- the call graph's drawing ---------------------------------------------------------- */

static int inside(const struct gl_node *b, int x, int y)
{
	return x >= b->x && x < b->x + b->w && y >= b->y && y < b->y + b->h;
}

/* The box whose border (or inside) holds cell (x, y), or -1. */
static int box_at(const struct glayout *g, int x, int y)
{
	for (int i = 0; i < g->nnodes; i++)
		if (inside(&g->node[i], x, y))
			return i;
	return -1;
}

static const int DX[16] = { [GL_N] = 0, [GL_E] = 1, [GL_S] = 0, [GL_W] = -1 };
static const int DY[16] = { [GL_N] = -1, [GL_E] = 0, [GL_S] = 1, [GL_W] = 0 };

static int opposite(int d)
{
	return d == GL_N ? GL_S : d == GL_S ? GL_N : d == GL_E ? GL_W : GL_E;
}

/* Follows the line leaving the bottom border of box `up` at column x down
 * the raster: straight on at a crossing (all four ways), round a corner,
 * never at a branch; returns the box whose top border it ends on (and the
 * column in *endx), -1 when it goes wrong (with why). */
static int follow(const struct glayout *g, const uint8_t *m, int up, int x, int *endx,
		  const char **why)
{
	int y = g->node[up].y + g->node[up].h - 1;
	if (m[(size_t)y * (size_t)g->w + (size_t)x] != (GL_E | GL_W | GL_S)) {
		*why = "no port on the bottom border";
		return -1;
	}
	int dir = GL_S;
	for (int steps = 0; steps < g->w * g->h; steps++) {
		x += DX[dir];
		y += DY[dir];
		if (x < 0 || y < 0 || x >= g->w || y >= g->h) {
			*why = "off the picture";
			return -1;
		}
		uint8_t c = m[(size_t)y * (size_t)g->w + (size_t)x];
		int b = box_at(g, x, y);
		if (b >= 0) { /* on a box: only down into a port on its top border */
			if (dir == GL_S && y == g->node[b].y && c == (GL_E | GL_W | GL_N)) {
				*endx = x;
				return b;
			}
			*why = "runs into a box";
			return -1;
		}
		int from = opposite(dir);
		if (!(c & from)) {
			*why = "the line breaks";
			return -1;
		}
		if (c == 15)
			continue; /* a crossing: straight on */
		int rest = c & ~from;
		if (rest != GL_N && rest != GL_E && rest != GL_S && rest != GL_W) {
			static char msg[64];
			snprintf(msg, sizeof(msg), "a branch (two lines meet) at %d,%d", x, y);
			*why = msg;
			return -1;
		}
		dir = rest;
	}
	*why = "goes round in circles";
	return -1;
}

/* The raster as text, to look at (SHOW=1 in the environment). */
static void show(const struct glayout *g, const uint8_t *m)
{
	static const char *const box[16] = { " ", "\u2502", "\u2500", "\u2514", "\u2502", "\u2502",
					      "\u250c", "\u251c", "\u2500", "\u2518", "\u2500", "\u2534",
					      "\u2510", "\u2524", "\u252c", "\u253c" };
	for (int y = 0; y < g->h; y++) {
		printf("# ");
		for (int x = 0; x < g->w; x++) {
			int b = box_at(g, x, y);
			if (b >= 0 && y == g->node[b].y + 1 && x == g->node[b].x + 1)
				printf("%c", 'A' + b % 26);
			else
				printf("%s", box[m[(size_t)y * (size_t)g->w + (size_t)x] & 15]);
		}
		printf("\n");
	}
}

/* Checks a laid out graph; returns the number of problems (each said). */
static int check_layout(struct glayout *g, const char *what)
{
	int bad = 0;
	uint8_t *m = gl_raster(g);
	/* boxes apart */
	for (int i = 0; i < g->nnodes; i++)
		for (int j = i + 1; j < g->nnodes; j++) {
			const struct gl_node *a = &g->node[i], *b = &g->node[j];
			if (a->x < b->x + b->w + 1 && b->x < a->x + a->w + 1 && a->y < b->y + b->h &&
			    b->y < a->y + a->h) {
				printf("# %s: boxes %d and %d overlap\n", what, i, j);
				bad++;
			}
		}
	/* insides empty */
	for (int i = 0; i < g->nnodes; i++) {
		const struct gl_node *b = &g->node[i];
		for (int y = b->y + 1; y < b->y + b->h - 1; y++)
			for (int x = b->x + 1; x < b->x + b->w - 1; x++)
				if (m[(size_t)y * (size_t)g->w + (size_t)x]) {
					printf("# %s: a line inside box %d\n", what, i);
					bad++;
				}
	}
	/* each edge: from its upper box to its lower one, ending at its
	 * label; the labels on plain border */
	unsigned char *lab = xcalloc((size_t)g->w * (size_t)g->h + 1, 1);
	for (int e = 0; e < g->nedges; e++) {
		const struct gl_edge *ed = &g->edge[e];
		int upper = ed->up ? ed->to : ed->from, lower = ed->up ? ed->from : ed->to, endx = -1;
		const char *why = "";
		if (g->node[upper].layer >= g->node[lower].layer) {
			printf("# %s: edge %d does not go down\n", what, e);
			bad++;
			continue;
		}
		if (ed->up != gl_upward(g, ed)) {
			printf("# %s: edge %d: up is not gl_upward's\n", what, e);
			bad++;
		}
		int got = ed->npts ? follow(g, m, upper, ed->pt[0].x, &endx, &why) : -1;
		if (got != lower || endx + 1 != ed->label_x || ed->label_y != g->node[lower].y) {
			printf("# %s: edge %d (%d -> %d) ends at box %d: %s\n", what, e, upper, lower, got,
			       got < 0 ? why : "the wrong box, or not at its label");
			bad++;
			continue;
		}
		const struct gl_node *lb = &g->node[lower];
		for (int k = 0; k < ed->label_w; k++) {
			int x = ed->label_x + k;
			size_t at = (size_t)ed->label_y * (size_t)g->w + (size_t)x;
			if (x >= lb->x + lb->w - 1 || m[at] != (GL_E | GL_W) || lab[at]) {
				printf("# %s: edge %d: label over something\n", what, e);
				bad++;
				break;
			}
			lab[at] = 1;
		}
	}
	/* the notes on plain border, clear of the labels */
	for (int i = 0; i < g->nnodes; i++) {
		const struct gl_node *b = &g->node[i];
		for (int side = 0; side < 2; side++) {
			int w = side ? b->note_bottom : b->note_top, x0 = side ? b->note_bottom_x : b->note_top_x;
			int y = side ? b->y + b->h - 1 : b->y;
			for (int x = x0; w && x < x0 + w; x++) {
				size_t at = (size_t)y * (size_t)g->w + (size_t)x;
				if (x <= b->x || x >= b->x + b->w - 1 || m[at] != (GL_E | GL_W) || lab[at]) {
					printf("# %s: box %d: its note over something\n", what, i);
					bad++;
					break;
				}
			}
		}
	}
	free(lab);
	if (bad && getenv("SHOW"))
		show(g, m);
	free(m);
	return bad;
}

static void test_layout_spec(void)
{
	/* main (0) -> func1 (1), main -> func2 (1), func1 -> func2: func1 and
	 * func2 are both one call below main; the call between them puts
	 * func2 a layer lower, and main -> func2 passes func1's layer */
	struct gl_node nd[3] = { { .key = 0, .text_w = 10, .text_h = 2 },
				 { .key = 1, .text_w = 10, .text_h = 2 },
				 { .key = 1, .text_w = 10, .text_h = 2 } };
	struct gl_edge ed[3] = { { .from = 0, .to = 1, .label_w = 2 },
				 { .from = 0, .to = 2, .label_w = 2 },
				 { .from = 1, .to = 2, .label_w = 2 } };
	struct glayout g = { .nnodes = 3, .nedges = 3, .node = nd, .edge = ed };
	gl_layout(&g);
	ok(g.nlayers == 3 && nd[0].layer == 0 && nd[1].layer == 1 && nd[2].layer == 2,
	   "main, func1, func2 in layers 0, 1, 2");
	ok(!ed[0].up && !ed[1].up && !ed[2].up, "every call drawn downwards");
	ok(nd[0].h == 4 && nd[1].y >= nd[0].y + 5 && nd[2].y >= nd[1].y + 5, "boxes 4 high, a channel between layers");
	is(g.crossings, 0, "no crossing");
	is(check_layout(&g, "spec"), 0, "every line from its box to its box");
	/* the long edge passes layer 1 beside func1, not through it */
	int ok_pass = 1;
	for (int k = 0; k + 1 < ed[1].npts; k++)
		if (ed[1].pt[k].x == ed[1].pt[k + 1].x && ed[1].pt[k].x >= nd[1].x &&
		    ed[1].pt[k].x < nd[1].x + nd[1].w && ed[1].pt[k].y <= nd[1].y &&
		    ed[1].pt[k + 1].y >= nd[1].y + nd[1].h - 1)
			ok_pass = 0;
	ok(ok_pass, "main -> func2 goes round func1");
	gl_free(&g);
}

static void test_layout_cycle(void)
{
	/* a in the middle (0); callers <cycle 1> (-1), b (-1); main (-2); a
	 * calls b (up: b is above), b calls a, the cycle calls a and b, main
	 * calls the cycle */
	struct gl_node nd[4] = { { .key = 0, .text_w = 8, .text_h = 2 }, { .key = -1, .text_w = 9, .text_h = 2 },
				 { .key = -1, .text_w = 8, .text_h = 2 }, { .key = -2, .text_w = 8, .text_h = 2 } };
	struct gl_edge ed[5] = { { .from = 1, .to = 0, .label_w = 2 }, { .from = 2, .to = 0, .label_w = 3 },
				 { .from = 0, .to = 2, .label_w = 4 }, { .from = 1, .to = 2, .label_w = 3 },
				 { .from = 3, .to = 1, .label_w = 2 } };
	struct glayout g = { .nnodes = 4, .nedges = 5, .node = nd, .edge = ed };
	gl_layout(&g);
	ok(ed[2].up && !ed[0].up && !ed[1].up && !ed[3].up && !ed[4].up, "a -> b drawn upward, the others down");
	ok(nd[3].layer < nd[1].layer && nd[1].layer < nd[2].layer && nd[2].layer < nd[0].layer,
	   "main, the cycle, b, a from the top (the cycle calls b: b below it)");
	is(check_layout(&g, "cycle"), 0, "two lines between b and a, each its own");
	gl_free(&g);
}

/* A small PRNG (the tests' own: the same graphs everywhere). */
static uint32_t rng = 12345;
static uint32_t next(uint32_t n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

static void test_layout_random(void)
{
	int bad = 0, graphs = 0, crossings = 0, trees = 0, tree_crossings = 0;
	for (int k = 0; k < 300; k++) {
		int n = 1 + (int)next(25), tree = k % 3 == 0;
		struct gl_node *nd = xcalloc((size_t)n, sizeof(*nd));
		struct gl_edge *ed = xcalloc((size_t)n * 4 + 1, sizeof(*ed));
		int ne = 0;
		for (int i = 1; i < n; i++) {
			/* like the builder: each node found from an earlier one,
			 * one level further from the centre */
			int par = (int)next((uint32_t)i);
			int dir = nd[par].key ? (nd[par].key > 0 ? 1 : -1) : (next(2) ? 1 : -1);
			nd[i].key = nd[par].key + dir;
			ed[ne++] = dir > 0 ? (struct gl_edge){ .from = par, .to = i }
					   : (struct gl_edge){ .from = i, .to = par };
		}
		for (int i = 0; !tree && i < n; i++) { /* and calls between any two */
			int extra = (int)next(3);
			for (int j = 0; j < extra; j++) {
				int o = (int)next((uint32_t)n);
				if (o != i)
					ed[ne++] = (struct gl_edge){ .from = i, .to = o };
			}
		}
		for (int i = 0; i < n; i++) {
			nd[i].text_w = 3 + (int)next(20);
			nd[i].text_h = 2;
			nd[i].note_top = next(4) ? 0 : 7;
			nd[i].note_bottom = next(4) ? 0 : 7;
		}
		for (int e = 0; e < ne; e++)
			ed[e].label_w = 2 + (int)next(6);
		struct glayout g = { .nnodes = n, .nedges = ne, .node = nd, .edge = ed };
		gl_layout(&g);
		char what[32];
		snprintf(what, sizeof(what), "random %d", k);
		bad += check_layout(&g, what) ? 1 : 0;
		graphs++;
		crossings += g.crossings;
		if (tree) {
			trees++;
			tree_crossings += g.crossings;
		}
		gl_free(&g);
		free(nd);
		free(ed);
	}
	is(bad, 0, "%d random graphs: every line followed from its box to its box", graphs);
	is(tree_crossings, 0, "%d random trees drawn without a crossing", trees);
	printf("# %d crossings in all\n", crossings);
}

/* ---- the call map's rectangles --------------------------------------------------------- */

/* A tree of values for the treemap: node ids index it. */
struct vt {
	double value, whole;
	int nkids, kid[8];
};
static const struct vt tree[] = {
	/* 0: the root, 100: parts 50, 30, 15 (5 its own) */
	{ 100, 100, 3, { 1, 2, 3 } },
	/* 1: 50 of the root's 100, a whole of 200 split 120 + 60 (20 own) */
	{ 50, 200, 2, { 4, 5 } },
	{ 30, 30, 0, { 0 } },
	/* 3: 15, a whole of 15 in 8 equal parts of 1.875 */
	{ 15, 15, 8, { 6, 6, 6, 6, 6, 6, 6, 6 } },
	{ 120, 120, 0, { 0 } },
	{ 60, 60, 0, { 0 } },
	{ 1.875, 1.875, 0, { 0 } },
};

static int kids(void *arg, const struct treemap *m, int node, struct tm_child **out)
{
	(void)arg;
	const struct vt *v = &tree[m->node[node].id];
	struct tm_child *c = xmalloc(8 * sizeof(*c));
	for (int i = 0; i < v->nkids; i++)
		c[i] = (struct tm_child){ (uint32_t)v->kid[i], tree[v->kid[i]].value, tree[v->kid[i]].whole };
	*out = c;
	return v->nkids;
}

/* Rectangles inside their parent's frame, apart, each side within a cell
 * of the exact one, its exact area its share; returns problems. */
static int check_map(const struct treemap *m, const char *what)
{
	int bad = 0;
	for (int i = 1; i < m->n; i++) {
		const struct tm_node *c = &m->node[i], *p = &m->node[c->parent];
		int ix = p->x + 1, iy = p->y + 1, iw = p->w - 2, ih = p->h - 2;
		if (c->x < ix || c->y < iy || c->x + c->w > ix + iw || c->y + c->h > iy + ih) {
			printf("# %s: %d outside its parent's frame\n", what, i);
			bad++;
		}
		/* its share of the inside: the value over the parent's whole
		 * (or the parts' sum when they are more) */
		double sum = 0;
		for (int k = 0; k < p->nchild; k++)
			sum += m->node[p->first + k].value;
		(void)sum;
		const struct vt *pv = &tree[p->id];
		double whole = 0;
		for (int k = 0; k < pv->nkids; k++)
			whole += tree[pv->kid[k]].value;
		whole = whole > pv->whole ? whole : pv->whole;
		double share = (double)iw * ih * tree[c->id].value / whole;
		if (fabs(c->ew * c->eh - share) > 1e-6 * (share + 1)) {
			printf("# %s: %d: exact area %g, its share %g\n", what, i, c->ew * c->eh, share);
			bad++;
		}
		if (fabs(c->x - c->ex) > 0.5 + 1e-9 || fabs(c->y - c->ey) > 0.5 + 1e-9 ||
		    fabs(c->x + c->w - c->ex - c->ew) > 0.5 + 1e-9 ||
		    fabs(c->y + c->h - c->ey - c->eh) > 0.5 + 1e-9) {
			printf("# %s: %d: an edge more than half a cell off\n", what, i);
			bad++;
		}
		if (fabs((double)c->w * c->h - share) > c->ew + c->eh + 1) {
			printf("# %s: %d: area %d, share %g\n", what, i, c->w * c->h, share);
			bad++;
		}
		for (int j = i + 1; j < m->n; j++) {
			const struct tm_node *d = &m->node[j];
			if (d->parent == c->parent && c->x < d->x + d->w && d->x < c->x + c->w &&
			    c->y < d->y + d->h && d->y < c->y + c->h) {
				printf("# %s: %d and %d overlap\n", what, i, j);
				bad++;
			}
		}
	}
	return bad;
}

static void test_treemap(void)
{
	struct treemap m = { 0 };
	tm_layout(&m, 0, 0, 80, 20, 0, 100, kids, NULL);
	ok(m.n >= 4 && m.node[0].w == 80 && m.node[0].h == 20, "the root fills 80x20");
	/* inside the frame 78x18 = 1404 cells: 50% 702, 30% 421.2, 15% 210.6 */
	ok(m.node[0].nchild == 3 && m.node[1].id == 1 && m.node[2].id == 2 && m.node[3].id == 3,
	   "three parts, largest first");
	double a1 = m.node[1].w * m.node[1].h, a2 = m.node[2].w * m.node[2].h, a3 = m.node[3].w * m.node[3].h;
	ok(fabs(a1 - 702) <= m.node[1].w + m.node[1].h + 1 && fabs(a2 - 421.2) <= m.node[2].w + m.node[2].h + 1 &&
		   fabs(a3 - 210.6) <= m.node[3].w + m.node[3].h + 1,
	   "areas 702, 421.2, 210.6 within a cell a side (%g, %g, %g)", a1, a2, a3);
	is(check_map(&m, "80x20"), 0, "every rectangle in its parent, apart, within a cell of its share");
	/* squarified: the half is about square on the screen (a cell twice as
	 * tall as wide): width near twice the height */
	double r = (double)m.node[1].w / (2.0 * m.node[1].h);
	ok(r > 0.5 && r < 2, "the half looks square (w / 2h = %.2f)", r);
	int sizes[][2] = { { 200, 47 }, { 40, 10 }, { 7, 5 }, { 3, 3 }, { 120, 33 } };
	int bad = 0;
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		char what[32];
		snprintf(what, sizeof(what), "%dx%d", sizes[k][0], sizes[k][1]);
		tm_layout(&m, 0, 0, sizes[k][0], sizes[k][1], 0, 100, kids, NULL);
		bad += check_map(&m, what);
	}
	is(bad, 0, "the same at 200x47, 40x10, 7x5, 3x3, 120x33");
	tm_layout(&m, 0, 0, 200, 47, 0, 100, kids, NULL);
	ok(tm_at(&m, 1, 1) > 0 && m.node[tm_at(&m, 1, 1)].depth >= 1, "tm_at: the deepest rectangle at a cell");
	tm_free(&m);
}

/* every node the same again: the map stops when rectangles are too small */
static int endless(void *arg, const struct treemap *m, int node, struct tm_child **out)
{
	(void)arg;
	(void)m;
	(void)node;
	struct tm_child *c = xmalloc(sizeof(*c));
	c[0] = (struct tm_child){ 7, 90, 100 };
	*out = c;
	return 1;
}

static void test_treemap_deep(void)
{
	struct treemap m = { 0 };
	tm_layout(&m, 0, 0, 200, 50, 7, 100, endless, NULL);
	int deepest = 0;
	for (int i = 0; i < m.n; i++)
		deepest = m.node[i].depth > deepest ? m.node[i].depth : deepest;
	ok(m.n > 5 && m.n <= 13 && deepest <= 12, "a part of itself: %d levels, then no more", deepest);
	tm_free(&m);
}

int main(void)
{
	if (fixture_start() < 0)
		return 99;
	test_spec_graph();
	test_cycle_graph();
	test_self_graph();
	test_keep();
	test_layout_spec();
	test_layout_cycle();
	test_layout_random();
	test_treemap();
	test_treemap_deep();
	fixture_end();
	return tap_done();
}
