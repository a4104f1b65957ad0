/* view_graph.c -- the call graph (KCachegrind's, in text): the function (or
 * cycle) the view is about in a box in the middle, its callers up to N
 * levels above and its callees N levels below ({ } one fewer or one more;
 * 2 at first), each a box with its name and inclusive cost, each call a
 * line ending in its count on the box it goes into: "↑" when it goes up
 * (drawn reversed), "↺" when it has no share of the total (inside a cycle,
 * the one cycle rule), "+k more" on a border for the calls not drawn
 * (under the threshold, or beyond the levels).  The arrows move between
 * boxes, Enter centres the graph on the selected one (a step in the history:
 * Esc comes back), s, c, T, 5 ... open the selected function.  A click
 * selects a box, a double click or a click on the selected one centres.  What is
 * drawn is profile/callgraph.c's; where, graphlayout.c's.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "graphlayout.h"
#include "picture.h"
#include "profile/aggregate.h"
#include "profile/callgraph.h"
#include "profile/format.h"
#include "profile/query.h"
#include "tui.h"

#define CAP 8       /* callers or callees drawn for a node, at most */
#define MAX_DEPTH 8

struct gview {
	struct cgraph cg;
	struct glayout gl;
	uint8_t *mask;
	char **full;                         /* per node, its label */
	char **name, **cost, **ntop, **nbot; /* per node, as drawn */
	char **elabel;                       /* per edge */
	int sx, sy, placed;                  /* the part of the picture shown */
	int ox, oy;                          /* on screen from this column, line */
	int rel, pct;                        /* the settings its texts were made with */
};

static void gv_clear(struct gview *d)
{
	for (uint32_t i = 0; i < d->cg.nnodes; i++) {
		free(d->full[i]);
		free(d->name[i]);
		free(d->cost[i]);
		free(d->ntop[i]);
		free(d->nbot[i]);
	}
	for (int e = 0; e < d->gl.nedges; e++)
		free(d->elabel[e]);
	free(d->full);
	free(d->name);
	free(d->cost);
	free(d->ntop);
	free(d->nbot);
	free(d->elabel);
	gl_free(&d->gl);
	free(d->gl.node);
	free(d->gl.edge);
	free(d->mask);
	cgraph_free(&d->cg);
	memset(d, 0, sizeof(*d));
}

static void gv_free(struct view *v)
{
	struct gview *d = v->data;
	if (!d)
		return;
	gv_clear(d);
	free(d);
	v->data = NULL;
}

static int depth_of(struct tui *t)
{
	return t->set.graph_depth > 0 ? t->set.graph_depth : 2;
}

/* The widest a name is drawn in a box. */
static int name_room(struct tui *t)
{
	int w = t->cols / 4;
	return w < 16 ? 16 : w > 40 ? 40 : w;
}

static void update(struct view *v)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	const struct agg *a = profile_agg(p);
	struct gview *d = v->data;
	if (!d)
		v->data = d = xcalloc(1, sizeof(*d));
	gv_clear(d);
	int ev = t->set.sort_event;
	cgraph_build(p, v->fn, depth_of(t), ev, t->set.threshold, CAP, &d->cg);
	d->rel = t->set.relative;
	d->pct = t->set.percent;
	uint32_t n = d->cg.nnodes;
	cost_t tot = event_value(p, tui_totals(v), ev);
	d->full = xcalloc(n, sizeof(char *));
	d->name = xcalloc(n, sizeof(char *));
	d->cost = xcalloc(n, sizeof(char *));
	d->ntop = xcalloc(n, sizeof(char *));
	d->nbot = xcalloc(n, sizeof(char *));
	d->gl.nnodes = (int)n;
	d->gl.node = xcalloc(n, sizeof(*d->gl.node));
	for (uint32_t i = 0; i < n; i++) {
		const struct cg_node *c = &d->cg.node[i];
		char cnt[48], pc[32] = "", rec[48] = "";
		d->full[i] = tui_label(t, c->id);
		d->name[i] = pic_cut(t, d->full[i], name_room(t));
		cost_t inc = event_value(p, agg_incl(a, c->id), ev);
		format_count(cnt, sizeof(cnt), inc);
		/* with r, a share of the function shown: of its own box only, as
		 * another's inclusive cost is not a part of it (a caller's holds
		 * it, a callee's may hold calls from elsewhere) */
		if (t->set.percent && (!t->set.relative || c->id == v->fn))
			fmt_percent(pc, sizeof(pc), inc, tot);
		if (c->self_calls) { /* a call to itself: its count, no share */
			char k[32];
			tui_fit_calls(k, sizeof(k), (long long)c->self_calls, 8, "x");
			snprintf(rec, sizeof(rec), " %s%s", t->utf8 ? "\u21ba" : "@", k);
		}
		d->cost[i] = xasprintf("%s%s%s%s", cnt, *pc ? " " : "", pc, rec);
		if (c->more_up)
			d->ntop[i] = xasprintf("+%u more", c->more_up);
		if (c->more_down)
			d->nbot[i] = xasprintf("+%u more", c->more_down);
		struct gl_node *g = &d->gl.node[i];
		g->key = c->dist;
		int nw = tui_width(t, d->name[i]), cw = tui_width(t, d->cost[i]);
		g->text_w = nw > cw ? nw : cw;
		g->text_h = 2;
		g->note_top = d->ntop[i] ? tui_width(t, d->ntop[i]) : 0;
		g->note_bottom = d->nbot[i] ? tui_width(t, d->nbot[i]) : 0;
	}
	d->gl.nedges = (int)d->cg.nedges;
	d->gl.edge = xcalloc(d->cg.nedges + 1, sizeof(*d->gl.edge));
	d->elabel = xcalloc(d->cg.nedges + 1, sizeof(char *));
	for (uint32_t e = 0; e < d->cg.nedges; e++) {
		d->gl.edge[e].from = (int)d->cg.edge[e].from;
		d->gl.edge[e].to = (int)d->cg.edge[e].to;
	}
	gl_orient(&d->gl); /* which calls go up */
	for (uint32_t e = 0; e < d->cg.nedges; e++) {
		const struct cg_edge *c = &d->cg.edge[e];
		struct gl_edge *g = &d->gl.edge[e];
		/* no count for calls=0 (a difference, a file's calls=0 line), as
		 * the lists show none; a cycle's member called only from inside
		 * keeps its 0x (its calls from outside) */
		char k[32] = "";
		if (c->count || c->kind == CALL_MEMBER)
			tui_fit_calls(k, sizeof(k), (long long)c->count, 8, "x");
		d->elabel[e] = xasprintf("%s%s%s", gl_upward(&d->gl, g) ? (t->utf8 ? "\u2191" : "^") : "", k,
					 call_kind_costed(c->kind) ? "" : t->utf8 ? "\u21ba" : "@");
		g->label_w = tui_width(t, d->elabel[e]);
	}
	gl_layout(&d->gl);
	d->mask = gl_raster(&d->gl);
	v->nrows = (int)n;
	if (v->sel >= v->nrows)
		v->sel = 0;
	if (d->cg.truncated)
		tui_message(t, "call graph: the first %d functions only (raise the threshold with +)",
			    CG_MAX_NODES);
}

/* Made again, the same box selected when it still is there. */
static void relayout(struct view *v)
{
	struct gview *d = v->data;
	uint32_t keep = d->cg.node[v->sel].id;
	update(v);
	for (uint32_t i = 0; i < d->cg.nnodes; i++)
		if (d->cg.node[i].id == keep)
			v->sel = (int)i;
}

/* ---- drawing ------------------------------------------------------------------------------ */

/* Scrolls so that the selected box is shown (all of it when it fits), in
 * the middle when it was not. */
static void scroll_to(struct gview *d, const struct gl_node *b, int h, int w)
{
	int shown = d->placed && b->x >= d->sx && b->x + b->w <= d->sx + w && b->y >= d->sy &&
		    b->y + b->h <= d->sy + h;
	if (!shown) {
		d->sx = b->w >= w ? b->x : b->x + b->w / 2 - w / 2;
		d->sy = b->h >= h ? b->y : b->y + b->h / 2 - h / 2;
	}
	if (d->sx > d->gl.w - w)
		d->sx = d->gl.w - w;
	if (d->sy > d->gl.h - h)
		d->sy = d->gl.h - h;
	d->sx = d->sx < 0 ? 0 : d->sx;
	d->sy = d->sy < 0 ? 0 : d->sy;
	d->placed = 1;
}

static void draw(struct view *v, int y0, int h, int w)
{
	struct tui *t = v->t;
	struct gview *d = v->data;
	if (!d || !d->cg.nnodes || h <= 0)
		return;
	if (d->rel != t->set.relative || d->pct != t->set.percent) /* r, %: texts again */
		relayout(v);
	const struct gl_node *sb = &d->gl.node[v->sel];
	/* a picture narrower than the screen in the middle of it */
	if (d->gl.w < w) {
		t->x0 = (w - d->gl.w) / 2;
		w = d->gl.w;
	}
	scroll_to(d, sb, h, w);
	d->ox = t->x0;
	d->oy = y0;
	struct pic_rect sr = { sb->x, sb->y, sb->w, sb->h, 0 };
	pic_lines(t, d->mask, d->gl.w, d->gl.h, d->sx, d->sy, y0, h, w, &sr);
	/* the texts: in each box, on its borders, the edges' labels */
	for (int i = 0; i < d->gl.nnodes; i++) {
		const struct gl_node *b = &d->gl.node[i];
		if (b->x + b->w <= d->sx || b->x >= d->sx + w || b->y + b->h <= d->sy || b->y >= d->sy + h)
			continue;
		int sel = i == v->sel;
		if (sel)
			attron(A_REVERSE);
		int ny = b->y + 1 - d->sy, cy = b->y + 2 - d->sy;
		if (i == 0)
			attron(A_BOLD);
		if (ny >= 0 && ny < h)
			pic_put(t, y0 + ny, b->x + 2, d->sx, w, b->w - 4, d->name[i]);
		if (i == 0)
			attroff(A_BOLD);
		if (cy >= 0 && cy < h)
			pic_put(t, y0 + cy, b->x + 2, d->sx, w, b->w - 4, d->cost[i]);
		if (d->ntop[i] && b->y - d->sy >= 0 && b->y - d->sy < h)
			pic_put(t, y0 + b->y - d->sy, b->note_top_x, d->sx, w, b->note_top, d->ntop[i]);
		int by = b->y + b->h - 1 - d->sy;
		if (d->nbot[i] && by >= 0 && by < h)
			pic_put(t, y0 + by, b->note_bottom_x, d->sx, w, b->note_bottom, d->nbot[i]);
		if (sel)
			attroff(A_REVERSE);
	}
	for (int e = 0; e < d->gl.nedges; e++) {
		const struct gl_edge *g = &d->gl.edge[e];
		int ly = g->label_y - d->sy;
		if (ly < 0 || ly >= h || g->label_x >= d->sx + w || g->label_x + g->label_w <= d->sx)
			continue;
		int lower = g->up ? g->from : g->to, sel = lower == v->sel;
		if (sel)
			attron(A_REVERSE);
		pic_put(t, y0 + ly, g->label_x, d->sx, w, g->label_w, d->elabel[e]);
		if (sel)
			attroff(A_REVERSE);
	}
	t->x0 = 0;
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	struct gview *d = v->data;
	if (!d || !d->cg.nnodes)
		return;
	struct profile *p = t->p;
	const struct agg *a = profile_agg(p);
	const struct cg_node *c = &d->cg.node[v->sel];
	char *name = tui_label(t, c->id), cnt[48], pc[32] = "";
	int ev = t->set.sort_event;
	cost_t inc = event_value(p, agg_incl(a, c->id), ev);
	format_count(cnt, sizeof(cnt), inc);
	fmt_percent(pc, sizeof(pc), inc, event_value(p, p->totals, ev));
	char calls[64] = "";
	if (a->fn_ncalls[c->id])
		snprintf(calls, sizeof(calls), ", called %lldx%s", (long long)a->fn_ncalls[c->id],
			 c->id >= a->nfns ? " from outside" : "");
	char *left = xasprintf(": incl %s %s%s", cnt, pc, calls);
	char *right = !query_has_calls(p) ? xstrdup("no calls in the profile (Cachegrind's have none)")
		    : xasprintf("%d level%s ({ })  %s call up  %s in a cycle", depth_of(t),
				depth_of(t) == 1 ? "" : "s", t->utf8 ? "\u2191" : "^",
				t->utf8 ? "\u21ba" : "@");
	int rw = tui_width(t, right), lw = tui_width(t, name) + tui_width(t, left);
	if (lw + 2 + rw <= width) {
		tui_put_named(t, y, 0, width, name, left);
		tui_put(t, y, width - rw, rw, right);
	} else {
		tui_put_named(t, y, 0, width, name, left);
	}
	free(name);
	free(left);
	free(right);
}

/* ---- moving ------------------------------------------------------------------------------- */

/* The box nearest the selected one in direction (dx, dy): up and down,
 * in the nearest layer that has boxes, the nearest there; left and right,
 * the next in the same layer. */
static int nearest(const struct gview *d, int sel, int dx, int dy)
{
	struct pic_rect *r = xmalloc((size_t)d->gl.nnodes * sizeof(*r));
	for (int i = 0; i < d->gl.nnodes; i++) {
		const struct gl_node *b = &d->gl.node[i];
		r[i] = (struct pic_rect){ b->x, b->y, b->w, b->h, 0 };
	}
	int to = pic_nearest(r, NULL, 0, d->gl.nnodes, sel, dx, dy, dy ? 0.01 : 100);
	free(r);
	return to >= 0 && dx && d->gl.node[to].layer != d->gl.node[sel].layer ? -1 : to;
}

static int action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	struct gview *d = v->data;
	if (!d || !d->cg.nnodes)
		return 0;
	int to = -2, dx, dy;
	if (pic_arrow(a, &dx, &dy)) {
		to = nearest(d, v->sel, dx, dy);
		if (to >= 0)
			v->sel = to;
		return 1;
	}
	switch (a) {
	case ACT_PGUP:
	case ACT_PGDN: { /* as many layers as a page shows */
		int k = (t->lines - 4) / (d->gl.node[0].h + 1);
		to = v->sel;
		for (int i = 0; i < (k > 1 ? k : 1); i++) {
			int n = nearest(d, to, 0, a == ACT_PGDN ? 1 : -1);
			if (n < 0)
				break;
			to = n;
		}
		break;
	}
	case ACT_HOME: to = 0; break;
	case ACT_END: to = (int)d->cg.nnodes - 1; break;
	case ACT_ENTER: {
		uint32_t id = d->cg.node[v->sel].id;
		if (v->sel == 0) {
			tui_message(t, "already in the middle (c: its callers and callees as a list)");
			return 1;
		}
		tui_push(t, view_new(t, &callgraph_ops, id));
		return 1;
	}
	case ACT_CTX_MORE:
	case ACT_CTX_LESS: {
		int dp = depth_of(t) + (a == ACT_CTX_MORE ? 1 : -1);
		if (dp < 1 || dp > MAX_DEPTH) {
			tui_message(t, "call graph: %d to %d levels", 1, MAX_DEPTH);
			return 1;
		}
		t->set.graph_depth = dp;
		relayout(v);
		tui_message(t, "call graph: %d level%s of callers and callees", dp, dp == 1 ? "" : "s");
		return 1;
	}
	default: return 0;
	}
	if (to >= 0)
		v->sel = to;
	return 1;
}

/* The box at screen column x, line y, as last drawn. */
static int hit(struct view *v, int x, int y)
{
	struct gview *d = v->data;
	if (!d || !d->placed)
		return -1;
	int px = x - d->ox + d->sx, py = y - d->oy + d->sy;
	for (int i = 0; i < d->gl.nnodes; i++) {
		const struct gl_node *b = &d->gl.node[i];
		if (px >= b->x && px < b->x + b->w && py >= b->y && py < b->y + b->h)
			return i;
	}
	return -1;
}

static const char *row_text(struct view *v, int row)
{
	struct gview *d = v->data;
	return d->full[row];
}

static uint32_t selected_fn(struct view *v)
{
	struct gview *d = v->data;
	return d && v->nrows ? d->cg.node[v->sel].id : NO_ID;
}

const struct view_ops callgraph_ops = {
	.name = "call graph",
	.hint = "arrows:move  Enter:centre  Esc:back  {/}:levels  s:source  c:list  5:map  ?:help",
	.update = update,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = gv_free,
	.draw = draw,
	.hit = hit,
};
