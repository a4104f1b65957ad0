/* view_flame.c -- the flame graph, drawn as an icicle: the program's
 * calling contexts (profile/context.h) from the roots at the top down to the
 * deepest calls, a row per depth, each frame as wide as its path's
 * inclusive cost, its children under it left to right (the largest first),
 * its name where it fits, its colour by its self cost.  The arrows move
 * between frames (Up to the caller, Down to the largest callee, Left/Right
 * along the row), Enter zooms into the selected frame (a step in the
 * history: Esc zooms out), a search (/) selects the matching frames, which
 * stand out, and the header says how much of the width they cover.  T
 * draws the callers of the selected frame's function the same way: the
 * function at the top, below it who called it along every recorded path
 * (cctx_callers).  What it shows comes from the profile loaded: the parts
 * (threads, dumps) P or --parts chose, all together otherwise.  Without recorded
 * contexts the paths are estimated from the call edges, and the header
 * says so; the cost on paths the recorder cut short (--max-contexts), drawn
 * in shorter paths, is said in a message when it is drawn.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "picture.h"
#include "profile/aggregate.h"
#include "profile/context.h"
#include "profile/format.h"
#include "tui.h"

struct frame {
	uint32_t node;   /* in the tree */
	int x, w, row;   /* cells; row = depth below the top */
	int match;       /* the search matches it */
};

/* The contexts of the whole run for a sort event, threshold and cycle
 * detection, shared by a flame view and the views zoomed into from it
 * (made once: half a second on 400,000 functions) */
struct fall {
	struct cctx *ctx;
	int event, cycles, refs;
	double threshold;
};

static void fall_drop(struct fall *a)
{
	if (a && !--a->refs) {
		cctx_free(a->ctx);
		free(a);
	}
}

struct fview {
	struct fall *all;    /* the contexts of the whole run */
	struct cctx *ctx;    /* all's, or the callers tree (own) */
	int own;
	uint32_t callers;    /* the callers of this entity, or NO_ID */
	uint32_t *zoom;      /* the path (entities) of the frame zoomed into */
	uint32_t nzoom;
	struct frame *f;
	int nf;
	size_t fcap;
	char **label;        /* per entity, made when first needed */
	uint32_t nlabel;
	cost_t whole;        /* what the width stands for */
	int w, h;            /* laid out for */
	int row0;            /* the first row shown */
	int event;
	char *search;        /* what the matches were computed for */
	cost_t matched;      /* the width the matches cover */
	/* renewed for newer data (renew), until built: the selected frame's
	 * path in its ids, the zoom path's length before it was mapped, and
	 * the name of the frame zoomed into (or whose callers are shown) */
	int renewed;
	uint32_t *selpath, nselpath;
	/* the path of the frame last selected (entities), kept while the
	 * selection is where build put it: a frame too narrow to draw at one
	 * width (its drawn caller selected meanwhile) is selected again when
	 * it fits */
	uint32_t *want, nwant;
	int selat;           /* the frame build selected */
	uint32_t wantzoom;
	char *was;
	char *note;          /* said when the view is next drawn (zoomed_out) */
};

static void fv_clear(struct fview *d)
{
	if (d->label)
		for (uint32_t i = 0; i < d->nlabel; i++)
			free(d->label[i]);
	free(d->label);
	d->label = NULL;
	free(d->f);
	d->f = NULL;
	d->nf = 0;
	d->fcap = 0;
	if (d->own)
		cctx_free(d->ctx);
	d->ctx = NULL;
	d->own = 0;
	free(d->search);
	d->search = NULL;
}

static void fv_free(struct view *v)
{
	struct fview *d = v->data;
	if (!d)
		return;
	fv_clear(d);
	fall_drop(d->all);
	free(d->zoom);
	free(d->selpath);
	free(d->want);
	free(d->was);
	free(d->note);
	free(d);
	v->data = NULL;
}

static const char *label_of(struct view *v, uint32_t id)
{
	struct fview *d = v->data;
	if (!d->label[id])
		d->label[id] = tui_label(v->t, id);
	return d->label[id];
}

/* The node the zoom path leads to (NO_ID: the roots). */
static uint32_t zoom_node(const struct fview *d)
{
	const struct cctx *t = d->ctx;
	uint32_t at = NO_ID;
	for (uint32_t i = 0; i < d->nzoom; i++) {
		const uint32_t *k = at == NO_ID ? t->root : &t->kid[t->node[at].first];
		uint32_t n = at == NO_ID ? t->nroots : t->node[at].nchild, next = NO_ID;
		for (uint32_t j = 0; j < n && next == NO_ID; j++)
			if (t->node[k[j]].fn == d->zoom[i])
				next = k[j];
		if (next == NO_ID)
			break;
		at = next;
	}
	return at;
}

/* Frames of node n (and below) from cell x (a fraction), depth row. */
static void place(struct view *v, uint32_t n, double x, int row, int maxrow)
{
	struct fview *d = v->data;
	const struct cctx *t = d->ctx;
	struct profile *p = v->t->p;
	cost_t c = event_value(p, cctx_incl(t, n), d->event);
	if (c <= 0 || row >= maxrow)
		return;
	double w = (double)c * d->w / (double)d->whole;
	if (w < 1)
		return; /* under a cell: neither it nor its callees drawn */
	/* (its ends rounded: a cell or more apart) */
	int x0 = (int)(x + 0.5), x1 = (int)(x + w + 0.5);
	VEC_RESERVE(d->f, d->fcap, (size_t)d->nf + 1);
	d->f[d->nf++] = (struct frame){ n, x0, x1 - x0, row, 0 };
	const struct cctx_node *nd = &t->node[n];
	for (uint32_t k = 0; k < nd->nchild; k++) {
		uint32_t ch = t->kid[nd->first + k];
		cost_t cc = event_value(p, cctx_incl(t, ch), d->event);
		if (cc <= 0)
			continue;
		place(v, ch, x, row + 1, maxrow);
		x += (double)cc * d->w / (double)d->whole;
	}
}

/* The frames for the current zoom in d->w cells. */
static void layout(struct view *v)
{
	struct fview *d = v->data;
	struct profile *p = v->t->p;
	const struct cctx *t = d->ctx;
	d->nf = 0; /* (the array kept for the next) */
	uint32_t z = zoom_node(d);
	d->whole = 0;
	if (z != NO_ID) {
		d->whole = event_value(p, cctx_incl(t, z), d->event);
	} else {
		for (uint32_t r = 0; r < t->nroots; r++) {
			cost_t c = event_value(p, cctx_incl(t, t->root[r]), d->event);
			if (c > 0)
				d->whole = cost_add(d->whole, c);
		}
	}
	if (d->whole <= 0 || d->w <= 0)
		return;
	/* rows below 200 are not drawn (no screen is that tall) */
	if (z != NO_ID) {
		place(v, z, 0, 0, 200);
	} else {
		double x = 0;
		for (uint32_t r = 0; r < t->nroots; r++) {
			cost_t c = event_value(p, cctx_incl(t, t->root[r]), d->event);
			if (c <= 0)
				continue;
			place(v, t->root[r], x, 0, 200);
			x += (double)c * d->w / (double)d->whole;
		}
	}
}

/* The path of frame i's node, below the zoom (entities, outermost first)
 * into path (room for depth + 1); returns its length. */
static uint32_t path_of(const struct cctx *t, uint32_t n, uint32_t *path)
{
	uint32_t len = t->node[n].depth + 1;
	for (uint32_t i = len; i-- > 0; n = t->node[n].parent)
		path[i] = t->node[n].fn;
	return len;
}

/* The frame whose node has this path (as far as it goes), or -1. */
static int frame_of_path(const struct fview *d, const uint32_t *path, uint32_t len)
{
	int best = -1;
	uint32_t bestlen = 0;
	uint32_t *pp = xmalloc(((size_t)len + 256) * sizeof(*pp));
	for (int i = 0; i < d->nf; i++) {
		uint32_t n = d->f[i].node;
		if (d->ctx->node[n].depth + 1 > len)
			continue;
		uint32_t l = path_of(d->ctx, n, pp);
		if (l > bestlen && memcmp(pp, path, (size_t)l * sizeof(*pp)) == 0) {
			best = i;
			bestlen = l;
		}
	}
	free(pp);
	return best;
}

/* Renewed for newer data (renew): zoomed into as much of the zoom path as
 * has cost in the newer data (a growing recording keeps every path; a file
 * loaded again or other parts may not), the whole graph when the function
 * whose callers were shown has none; said when that is not all of it (when
 * the view is next drawn: other parts are chosen in another view). */
static void zoomed_out(struct view *v)
{
	struct fview *d = v->data;
	struct profile *p = v->t->p;
	uint32_t z = zoom_node(d);
	while (z != NO_ID && event_value(p, cctx_incl(d->ctx, z), d->event) <= 0) /* (no frame) */
		z = d->ctx->node[z].parent;
	if (z == NO_ID && d->callers != NO_ID) {
		int any = 0;
		for (uint32_t r = 0; r < d->ctx->nroots; r++)
			any |= event_value(p, cctx_incl(d->ctx, d->ctx->root[r]), d->event) > 0;
		if (!any) {
			cctx_free(d->ctx);
			d->own = 0;
			d->ctx = d->all->ctx;
			d->callers = NO_ID;
			d->wantzoom = 1; /* (its path among the callers, if any, is lost) */
		}
	}
	uint32_t reached = z == NO_ID ? 0 : d->ctx->node[z].depth + 1;
	if (reached < d->wantzoom) {
		d->nzoom = reached;
		v->fn = z != NO_ID ? d->ctx->node[z].fn : d->callers;
		char *to = z != NO_ID ? xstrdup(label_of(v, v->fn))
			   : d->callers != NO_ID
				   ? xasprintf("the callers of %s", label_of(v, d->callers))
				   : xstrdup("the whole graph");
		free(d->note);
		d->note = xasprintf("%s has no cost in the profile now: zoomed out to %s", d->was, to);
		free(to);
	}
	free(d->was);
	d->was = NULL;
}

/* A cycle in the newer data (same_ent): the cycle its member is in now,
 * or the member itself when it is in none. */
#define CYCLE_OF 0x80000000u

static void cycles_found(const struct agg *a, uint32_t *path, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (path[i] != NO_ID && path[i] & CYCLE_OF) {
			uint32_t m = path[i] & ~CYCLE_OF, k = agg_cycle_no(a, m);
			path[i] = k ? agg_cycle_ent(a, k) : m;
		}
}

static void build(struct view *v)
{
	struct tui *t = v->t;
	struct fview *d = v->data;
	/* the selection's path, to find it again */
	uint32_t *keep = d->selpath, nkeep = d->nselpath;
	d->selpath = NULL;
	if (d->renewed) {
		const struct agg *a = profile_agg(t->p);
		cycles_found(a, keep, nkeep);
		cycles_found(a, d->zoom, d->nzoom);
		cycles_found(a, &d->callers, 1);
		d->renewed = 0;
	}
	if (!keep && d->want && v->sel == d->selat) { /* (not moved since) */
		keep = d->want;
		nkeep = d->nwant;
		d->want = NULL;
	}
	if (!keep && d->ctx && d->nf && v->sel < d->nf) {
		keep = xmalloc(((size_t)d->ctx->node[d->f[v->sel].node].depth + 1) * sizeof(*keep));
		nkeep = path_of(d->ctx, d->f[v->sel].node, keep);
	}
	free(d->want);
	d->want = NULL;
	fv_clear(d);
	d->event = t->set.sort_event;
	int cycles = profile_agg(t->p)->cycles;
	int made = 0;
	if (!d->all || d->all->event != d->event || d->all->threshold != t->set.threshold ||
	    d->all->cycles != cycles) {
		fall_drop(d->all);
		d->all = xcalloc(1, sizeof(*d->all));
		*d->all = (struct fall){ cctx_of(t->p, d->event, t->set.threshold), d->event, cycles,
					 1, t->set.threshold };
		made = 1;
	}
	if (d->callers != NO_ID) {
		d->ctx = cctx_callers(d->all->ctx, d->callers, -1);
		d->own = 1;
	} else {
		d->ctx = d->all->ctx;
	}
	if (made || d->own) /* (a shared one is in the event's order already) */
		cctx_order(d->ctx, d->event);
	d->nlabel = agg_nent(profile_agg(t->p)) + 1;
	d->label = xcalloc(d->nlabel, sizeof(char *));
	if (d->was)
		zoomed_out(v);
	/* the roots the bound left out: in no frame; the recorder's cut
	 * paths: their calls in a shorter path's frames; said once made */
	char *left = made && !d->note ? cctx_left_text(d->all->ctx, d->event) : NULL;
	char *cut = made && !d->note && !left && !d->all->ctx->estimated
			    ? cctx_cut_text(d->all->ctx, d->event)
			    : NULL;
	if (left)
		d->note = xasprintf("%s in no frame", left);
	else if (cut)
		d->note = xasprintf("%s by --max-contexts: drawn shorter", cut);
	free(left);
	free(cut);
	layout(v);
	v->nrows = d->nf;
	int s = keep ? frame_of_path(d, keep, nkeep) : -1;
	v->sel = s >= 0 ? s : 0;
	d->want = keep;
	d->nwant = nkeep;
	d->selat = v->sel;
}

static void update(struct view *v)
{
	struct tui *t = v->t;
	if (!v->data) {
		struct fview *d = xcalloc(1, sizeof(*d));
		d->callers = NO_ID;
		v->data = d;
		d->w = t->cols;
		d->h = t->lines - 4;
		/* opened from a view with a function selected: its widest frame */
		struct view *from = t->nhist ? tui_view(t) : NULL;
		uint32_t fn = from && from->ops->selected_fn ? from->ops->selected_fn(from) : v->fn;
		build(v);
		int best = -1;
		for (int i = 0; i < d->nf; i++)
			if (d->ctx->node[d->f[i].node].fn == fn && (best < 0 || d->f[i].w > d->f[best].w))
				best = i;
		if (best >= 0)
			v->sel = best;
		return;
	}
	build(v);
}

/* A flame view zoomed into (or the callers of) the selected frame: a new
 * view (a step in the history) made from this one's settings. */
static struct view *derived(struct view *v, int callers)
{
	struct fview *d = v->data, *nd = xcalloc(1, sizeof(*nd));
	const struct frame *f = &d->f[v->sel];
	nd->w = d->w;
	nd->h = d->h;
	nd->all = d->all; /* (the same contexts) */
	d->all->refs++;
	if (callers) {
		nd->callers = d->ctx->node[f->node].fn;
	} else {
		nd->callers = d->callers;
		nd->zoom = xmalloc(((size_t)d->ctx->node[f->node].depth + 1) * sizeof(*nd->zoom));
		nd->nzoom = path_of(d->ctx, f->node, nd->zoom);
	}
	struct view *w = xcalloc(1, sizeof(*w));
	w->ops = v->ops;
	w->t = v->t;
	w->fn = d->ctx->node[f->node].fn;
	w->data = nd;
	build(w);
	return w;
}

/* Entity e of p in np: a function by its names (tui_same_fn), a cycle as
 * CYCLE_OF its first member (np's cycles are found when it is shown:
 * cycles_found); NO_ID when np has no such function. */
static uint32_t same_ent(struct profile *p, uint32_t e, const struct profile *np)
{
	const struct agg *a = profile_agg(p);
	if (e == NO_ID || !agg_is_cycle(a, e))
		return tui_same_fn(p, e, np);
	uint32_t k = agg_cycle_no(a, e);
	uint32_t m = k ? tui_same_fn(p, a->cyc_fn[a->cyc_start[k - 1]], np) : NO_ID;
	return m == NO_ID ? NO_ID : m | CYCLE_OF;
}

/* Path (n entities of p) in np's ids, in place (same_ent): the length of
 * its part whose functions np has. */
static uint32_t same_path(struct profile *p, uint32_t *path, uint32_t n, const struct profile *np)
{
	for (uint32_t i = 0; i < n; i++)
		if ((path[i] = same_ent(p, path[i], np)) == NO_ID)
			return i;
	return n;
}

/* Newer data (tui_reload, before the profile is replaced by np): the zoom
 * path, the function whose callers are shown and the selected frame's path
 * kept in np's ids; what was made of the old profile dropped (build makes
 * it anew). */
static void renew(struct view *v, const struct profile *np)
{
	struct fview *d = v->data;
	struct profile *p = v->t->p;
	if (!d)
		return;
	d->renewed = 1;
	free(d->selpath);
	d->selpath = NULL;
	d->nselpath = 0;
	if (d->want && v->sel == d->selat) {
		d->selpath = xmalloc(((size_t)d->nwant + 1) * sizeof(*d->selpath));
		memcpy(d->selpath, d->want, (size_t)d->nwant * sizeof(*d->selpath));
		d->nselpath = same_path(p, d->selpath, d->nwant, np);
	} else if (d->ctx && d->nf && v->sel < d->nf) {
		uint32_t n = d->f[v->sel].node;
		d->selpath = xmalloc(((size_t)d->ctx->node[n].depth + 1) * sizeof(*d->selpath));
		d->nselpath = same_path(p, d->selpath, path_of(d->ctx, n, d->selpath), np);
	}
	free(d->was);
	d->was = NULL;
	d->wantzoom = d->nzoom;
	if (d->nzoom)
		d->was = xasprintf("the path to %s", label_of(v, d->zoom[d->nzoom - 1]));
	else if (d->callers != NO_ID)
		d->was = xstrdup(label_of(v, d->callers));
	d->nzoom = same_path(p, d->zoom, d->nzoom, np);
	if (d->callers != NO_ID && (d->callers = same_ent(p, d->callers, np)) == NO_ID) {
		d->nzoom = 0; /* (a path among its callers) */
		d->wantzoom = 1;
	}
	fv_clear(d);
	fall_drop(d->all);
	d->all = NULL;
}

/* ---- drawing -------------------------------------------------------------------------------- */

/* The width the search's matches cover below node n: a match's whole
 * width, counted once (not again for matches under it); ent[e] caches
 * whether entity e matches (-1: not known yet). */
static cost_t matched_below(struct view *v, struct filter *flt, int8_t *ent, uint32_t n)
{
	struct fview *d = v->data;
	const struct cctx *t = d->ctx;
	uint32_t e = t->node[n].fn;
	if (ent[e] < 0)
		ent[e] = (int8_t)(tui_filter_match(flt, label_of(v, e)) != 0);
	if (ent[e])
		return event_value(v->t->p, cctx_incl(t, n), d->event);
	cost_t sum = 0;
	for (uint32_t k = 0; k < t->node[n].nchild; k++)
		sum = cost_add(sum, matched_below(v, flt, ent, t->kid[t->node[n].first + k]));
	return sum;
}

/* Which frames the search matches, and the width its matches cover (of
 * every path shown, drawn or too narrow to draw). */
static void matches(struct view *v)
{
	struct tui *t = v->t;
	struct fview *d = v->data;
	if (d->search && t->search && strcmp(d->search, t->search) == 0)
		return;
	if (!d->search && !t->search) /* (a frame is made with no match) */
		return;
	free(d->search);
	d->search = t->search ? xstrdup(t->search) : NULL;
	d->matched = 0;
	for (int i = 0; i < d->nf; i++)
		d->f[i].match = 0;
	struct filter *flt = t->search ? tui_filter_of(t->search) : NULL;
	if (!flt)
		return;
	int8_t *ent = xmalloc(d->nlabel);
	memset(ent, -1, d->nlabel);
	for (int i = 0; i < d->nf; i++) {
		uint32_t e = d->ctx->node[d->f[i].node].fn;
		if (ent[e] < 0)
			ent[e] = (int8_t)(tui_filter_match(flt, label_of(v, e)) != 0);
		d->f[i].match = ent[e];
	}
	uint32_t z = zoom_node(d);
	if (z != NO_ID) {
		d->matched = matched_below(v, flt, ent, z);
	} else {
		for (uint32_t r = 0; r < d->ctx->nroots; r++)
			d->matched = cost_add(d->matched, matched_below(v, flt, ent, d->ctx->root[r]));
	}
	free(ent);
	tui_filter_free(flt);
}

static int heat(struct view *v, const struct frame *f)
{
	struct fview *d = v->data;
	cost_t s = event_value(v->t->p, cctx_self(d->ctx, f->node), d->event);
	double share = d->whole > 0 ? (double)s / (double)d->whole : 0;
	return share >= 0.05 ? COL_BAR_HIGH : share >= 0.01 ? COL_BAR_MID : COL_BAR_LOW;
}

static void pct_text(struct view *v, cost_t c, char *b, size_t n)
{
	struct tui *t = v->t;
	struct fview *d = v->data;
	cost_t tot = t->set.relative ? d->whole : event_value(t->p, t->p->totals, d->event);
	if (tot == 0)
		snprintf(b, n, "n/a");
	else
		snprintf(b, n, "%.1f%%", (double)c * 100.0 / (double)tot);
}

/* "N P%": c and its share (pct_text) */
static void amount_text(struct view *v, cost_t c, char *b, size_t n)
{
	char num[48], pc[32];
	format_count(num, sizeof(num), c);
	pct_text(v, c, pc, sizeof(pc));
	snprintf(b, n, "%s %s", num, pc);
}

static void draw(struct view *v, int y0, int h, int w)
{
	struct tui *t = v->t;
	struct fview *d = v->data;
	if (d->w != w || d->h != h) { /* resized: laid out again on the same frame */
		d->w = w;
		d->h = h;
		build(v);
	}
	if (!d->nf) {
		tui_put(t, y0, 2, w - 2, "(no cost to draw in this event)");
		return;
	}
	matches(v);
	const struct frame *s = &d->f[v->sel];
	/* the selected frame's row on screen */
	if (s->row < d->row0)
		d->row0 = s->row;
	if (s->row >= d->row0 + h)
		d->row0 = s->row - h + 1;
	for (int i = 0; i < d->nf; i++) {
		const struct frame *f = &d->f[i];
		int y = f->row - d->row0;
		if (y < 0 || y >= h)
			continue;
		int room = f->w - 1; /* the last cell: the frame's end */
		if (room > 0) {
			attr_t a = A_REVERSE;
			if (t->color)
				a |= COLOR_PAIR(heat(v, f));
			if (i == v->sel)
				a = A_BOLD | A_UNDERLINE;
			else if (f->match)
				a |= A_BOLD;
			attron(a);
			char *txt = NULL;
			const char *name = label_of(v, d->ctx->node[f->node].fn);
			char pc[32];
			pct_text(v, event_value(t->p, cctx_incl(d->ctx, f->node), d->event), pc,
				 sizeof(pc));
			if (tui_width(t, name) + 1 + (int)strlen(pc) <= room)
				txt = xasprintf("%s %s", name, pc);
			else if (room >= 2)
				txt = pic_cut(t, name, room);
			mvhline(y0 + y, f->x, ' ', room);
			if (txt)
				tui_put(t, y0 + y, f->x, room, txt);
			free(txt);
			attroff(a);
		}
		mvaddch(y0 + y, f->x + f->w - 1, f->match && i != v->sel ? '!' : '|');
	}
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	struct fview *d = v->data;
	if (d && d->note) {
		tui_message(t, "%s", d->note);
		free(d->note);
		d->note = NULL;
	}
	if (!d || !d->nf)
		return;
	matches(v); /* (made anew, it is drawn before the frames) */
	const struct frame *s = &d->f[v->sel];
	const struct cctx_node *nd = &d->ctx->node[s->node];
	char inc[96], slf[96], cnt[48], sm[96] = "";
	cost_t ci = event_value(t->p, cctx_incl(d->ctx, s->node), d->event);
	amount_text(v, ci, inc, sizeof(inc));
	amount_text(v, event_value(t->p, cctx_self(d->ctx, s->node), d->event), slf, sizeof(slf));
	format_count(cnt, sizeof(cnt), nd->count);
	if (d->search && *d->search) {
		char pm[32];
		pct_text(v, d->matched, pm, sizeof(pm));
		snprintf(sm, sizeof(sm), "  /%s: %s", d->search, pm);
	}
	/* the names cut where they are long, not the numbers after them; the
	 * calls, the recursion and the search's share after those, each
	 * where it fits whole */
	int x = tui_put(t, y, 0, width, d->ctx->estimated ? "[estimated] " : "");
	char *rest, more[160] = "", raw[160] = "";
	int split = nd->parent != NO_ID && nd->rcount && !(nd->flags & CC_ALLCALLS);
	const struct agg *a = profile_agg(t->p);
	if (d->callers != NO_ID) { /* "callers of f: g 12 3.4% of it through this path" */
		x += tui_put(t, y, x, width - x, "callers of ");
		x += tui_put(t, y, x, (width - x) / 3, label_of(v, d->callers));
		x += tui_put(t, y, x, width - x, ": ");
		/* (detection off, a recursive function's paths are its time
		 * on the stack, which its raw inclusive cost, recursive calls
		 * counted again, is more than: both said) */
		int stack = nd->parent == NO_ID && !a->cycles && nd->rcount;
		rest = xasprintf(" %s%s", inc,
				 nd->parent != NO_ID ? " through this path" : stack ? " on the stack" : "");
		if (stack) {
			char r[96];
			amount_text(v, event_value(t->p, agg_incl(a, d->callers), d->event), r, sizeof(r));
			snprintf(raw, sizeof(raw), ", raw %s", r);
		}
	} else {
		/* (an estimate's self holds its calls under the threshold,
		 * or cut, that are no frames: said so; a cycle's member's
		 * frame holds the members it called, more than its inclusive
		 * cost by the cycle rule along this path: both said) */
		cost_t own[MAX_EVENTS];
		cctx_own(d->ctx, s->node, own);
		cost_t co = event_value(t->p, own, d->event);
		char mem[160] = "";
		if (co != ci) {
			char o[96];
			amount_text(v, co, o, sizeof(o));
			snprintf(mem, sizeof(mem), " with the cycle, incl %s", o);
		}
		rest = xasprintf(": %s%s, self%s %s", inc, mem,
				 nd->flags & CC_MORE ? " and calls not shown" : "", slf);
		/* the calls from its parent, and the recursive ones folded
		 * into it apart (not told apart in an old contexts file) */
		if (split) {
			char rc[48];
			format_count(rc, sizeof(rc), nd->rcount);
			snprintf(more, sizeof(more), ", calls %s (+%s recursive)", cnt, rc);
		} else if (nd->parent != NO_ID) {
			snprintf(more, sizeof(more), ", calls %s", cnt);
		}
	}
	x += tui_put_named(t, y, x, width - x, label_of(v, nd->fn), rest);
	const char *tail[] = { raw, more, d->callers == NO_ID && nd->rec > 1 && !split ? ", recursive" : "",
			       sm };
	for (size_t i = 0; i < sizeof(tail) / sizeof(*tail) && tui_width(t, tail[i]) <= width - x; i++)
		x += tui_put(t, y, x, width - x, tail[i]);
	free(rest);
}

/* ---- moving ------------------------------------------------------------------------------- */

static int action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	struct fview *d = v->data;
	if (!d || !d->nf)
		return 0;
	const struct frame *s = &d->f[v->sel];
	int to = -1;
	switch (a) {
	case ACT_UP: /* the caller: the frame of the parent node */
		for (int i = v->sel; i-- > 0 && to < 0;)
			if (d->f[i].row == s->row - 1)
				to = i;
		break;
	case ACT_DOWN: /* the widest callee */
		for (int i = v->sel + 1; i < d->nf && d->f[i].row > s->row; i++)
			if (d->f[i].row == s->row + 1 && (to < 0 || d->f[i].w > d->f[to].w))
				to = i;
		break;
	case ACT_LEFT:
		for (int i = 0; i < d->nf; i++)
			if (d->f[i].row == s->row && d->f[i].x < s->x && (to < 0 || d->f[i].x > d->f[to].x))
				to = i;
		if (to < 0)
			return 1;
		break;
	case ACT_RIGHT:
		for (int i = 0; i < d->nf; i++)
			if (d->f[i].row == s->row && d->f[i].x > s->x && (to < 0 || d->f[i].x < d->f[to].x))
				to = i;
		if (to < 0)
			return 1;
		break;
	case ACT_HOME: to = 0; break;
	case ACT_END: to = d->nf - 1; break;
	case ACT_PGUP:
	case ACT_PGDN: return 1;
	case ACT_ENTER:
		if (v->sel == 0 && (d->nzoom || d->callers != NO_ID)) {
			tui_message(t, "zoomed into this frame already (Esc: out)");
			return 1;
		}
		tui_push(t, derived(v, 0));
		return 1;
	case ACT_CALLERTREE:
		tui_push(t, derived(v, 1));
		return 1;
	default: return 0;
	}
	if (to >= 0)
		v->sel = to;
	return 1;
}

static const char *row_text(struct view *v, int row)
{
	struct fview *d = v->data;
	return label_of(v, d->ctx->node[d->f[row].node].fn);
}

static uint32_t selected_fn(struct view *v)
{
	struct fview *d = v->data;
	return d && d->ctx && v->nrows && v->sel < d->nf ? d->ctx->node[d->f[v->sel].node].fn
							   : NO_ID;
}

const struct view_ops flame_ops = {
	.name = "flame graph",
	.hint = "arrows:move  Enter:zoom in  Esc:out  /:search  T:callers  4:graph  ?:help",
	.update = update,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = fv_free,
	.renew = renew,
	.draw = draw,
};
