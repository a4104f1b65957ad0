/* view_map.c -- the call map (KCachegrind's): the function's inclusive cost
 * as the whole screen, split among its callees in proportion to what their
 * calls cost, each of those split among its own callees, and so on while
 * the rectangles hold a frame; what is left in a rectangle is the
 * function's own cost.  Only calls whose cost is a share of the total are
 * parts (profile/callgraph.c's callmap_parts: the one cycle rule), so no
 * part is bigger than its whole and a cycle is entered once, through its
 * members.  Below the first level the areas are estimates: a callee's
 * callees are split in proportion to all its calls, whoever made them.
 * The arrows move between rectangles, Enter zooms into the selected one (a
 * step in the history: Esc zooms out); a click selects the innermost
 * rectangle under it, a double click or a click on the selected one zooms.  The geometry is treemap.c's.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphlayout.h"
#include "picture.h"
#include "profile/aggregate.h"
#include "profile/callgraph.h"
#include "profile/format.h"
#include "treemap.h"
#include "tui.h"

struct mview {
	struct treemap tm;
	char **label;  /* each node's fn_label */
	char **text;   /* what its frame says, made when first drawn (NULL) */
	int text_rel;  /* ... with percentages of the function shown */
	uint8_t *mask; /* frames */
	int w, h;      /* the size laid out for */
	int oy;        /* drawn from this screen line (and column 0) */
};

static void mv_clear(struct mview *d)
{
	for (int i = 0; i < d->tm.n; i++) {
		free(d->label[i]);
		if (d->text)
			free(d->text[i]);
	}
	free(d->label);
	free(d->text);
	d->text = NULL;
	free(d->mask);
	tm_free(&d->tm);
	d->label = NULL;
	d->mask = NULL;
	d->w = d->h = 0;
}

static void mv_free(struct view *v)
{
	struct mview *d = v->data;
	if (!d)
		return;
	mv_clear(d);
	free(d);
	v->data = NULL;
}

/* The treemap's children: the parts of the node's entity, none of them an
 * entity it is already inside. */
static int parts_of(void *arg, const struct treemap *m, int node, struct tm_child **out)
{
	struct view *v = arg;
	struct profile *p = v->t->p;
	const struct agg *a = profile_agg(p);
	int ev = v->t->set.sort_event;
	uint32_t path[64];
	int np = 0;
	for (int i = node; i >= 0 && np < 64; i = m->node[i].parent)
		path[np++] = m->node[i].id;
	/* parts under half a cell of the inside are not drawn: not read */
	const struct tm_node *nd = &m->node[node];
	double cells = (double)(nd->w - 2) * (nd->h - 2);
	cost_t least = cells > 0 ? (cost_t)(nd->whole * 0.5 / cells) : 0;
	struct cm_part *pa;
	int n = callmap_parts(p, nd->id, ev, path, np, least, &pa);
	struct tm_child *c = n ? xmalloc((size_t)n * sizeof(*c)) : NULL;
	for (int i = 0; i < n; i++)
		c[i] = (struct tm_child){ pa[i].id, (double)pa[i].value,
					  (double)event_value(p, agg_incl(a, pa[i].id), ev) };
	free(pa);
	*out = c;
	return n;
}

/* Lays the map out in w x h cells and makes its frames. */
static void layout(struct view *v, int w, int h)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct mview *d = v->data;
	mv_clear(d);
	d->w = w;
	d->h = h;
	double whole = (double)event_value(p, agg_incl(profile_agg(p), v->fn), t->set.sort_event);
	if (whole > 0 && w > 0 && h > 0)
		tm_layout(&d->tm, 0, 0, w, h, v->fn, whole, parts_of, v);
	d->label = xcalloc((size_t)d->tm.n + 1, sizeof(char *));
	d->mask = xcalloc((size_t)(w > 0 ? w : 1) * (size_t)(h > 0 ? h : 1), 1);
	for (int i = 0; i < d->tm.n; i++) {
		const struct tm_node *nd = &d->tm.node[i];
		d->label[i] = tui_label(t, nd->id);
		for (int y = nd->y; y < nd->y + nd->h; y++)
			for (int x = nd->x; x < nd->x + nd->w; x++) {
				uint8_t *c = &d->mask[(size_t)y * (size_t)w + (size_t)x];
				if (nd->w < 2 || nd->h < 2) {
					*c = PIC_SHADE;
					continue;
				}
				int top = y == nd->y, bot = y == nd->y + nd->h - 1;
				int left = x == nd->x, right = x == nd->x + nd->w - 1;
				*c = 0;
				if (top || bot)
					*c |= (left ? 0 : GL_W) | (right ? 0 : GL_E);
				if (left || right)
					*c |= (top ? 0 : GL_N) | (bot ? 0 : GL_S);
			}
	}
	v->nrows = d->tm.n;
	if (v->sel >= v->nrows || (v->sel == 0 && v->nrows > 1))
		v->sel = v->nrows > 1 ? 1 : 0; /* the largest callee */
	if (d->tm.truncated)
		tui_message(t, "call map: the first %d rectangles only", TM_MAX_NODES);
}

static void update(struct view *v)
{
	struct tui *t = v->t;
	if (!v->data)
		v->data = xcalloc(1, sizeof(struct mview));
	layout(v, t->cols, t->lines - 4);
}

/* "name 12.3%" in room columns: the name cut first, then the share gone. */
static char *label_text(struct tui *t, const char *name, const char *pc, int room)
{
	int nw = tui_width(t, name), pw = (int)strlen(pc);
	if (nw + 1 + pw <= room)
		return xasprintf("%s %s", name, pc);
	if (room - pw - 1 >= 4) {
		char *c = pic_cut(t, name, room - pw - 1), *r = xasprintf("%s %s", c, pc);
		free(c);
		return r;
	}
	return pic_cut(t, name, room);
}

static cost_t total_of(struct view *v)
{
	return event_value(v->t->p, tui_totals(v), v->t->set.sort_event);
}

static void pct(struct view *v, const struct tm_node *nd, char *b, size_t n)
{
	cost_t tot = total_of(v);
	if (tot == 0)
		snprintf(b, n, "n/a");
	else
		snprintf(b, n, "%.1f%%", nd->value * 100.0 / (double)tot);
}

static void draw(struct view *v, int y0, int h, int w)
{
	struct tui *t = v->t;
	struct mview *d = v->data;
	if (d->w != w || d->h != h) { /* resized: laid out again, on the same callee */
		uint32_t keep = v->nrows ? d->tm.node[v->sel].id : NO_ID;
		layout(v, w, h);
		for (int i = 1; i < d->tm.n; i++)
			if (d->tm.node[i].id == keep) {
				v->sel = i;
				break;
			}
	}
	if (!d->tm.n) {
		tui_put(t, y0, 2, w - 2, "(no cost to draw in this event)");
		return;
	}
	d->oy = y0;
	const struct tm_node *s = &d->tm.node[v->sel];
	struct pic_rect sr = { s->x, s->y, s->w, s->h, 1 };
	pic_lines(t, d->mask, d->w, d->h, 0, 0, y0, h, w, &sr);
	if (d->text && d->text_rel != t->set.relative) {
		for (int i = 0; i < d->tm.n; i++)
			free(d->text[i]);
		free(d->text);
		d->text = NULL;
	}
	if (!d->text) {
		d->text = xcalloc((size_t)d->tm.n, sizeof(char *));
		d->text_rel = t->set.relative;
		for (int i = 0; i < d->tm.n; i++) {
			const struct tm_node *nd = &d->tm.node[i];
			char pc[32];
			/* on the frame's top, or over a one-line strip */
			int room = nd->h >= 2 ? nd->w - 2 : nd->w;
			if (room < 2 || (nd->h >= 2 && nd->w < 4))
				continue;
			pct(v, nd, pc, sizeof(pc));
			d->text[i] = label_text(t, d->label[i], pc, room);
		}
	}
	for (int i = 0; i < d->tm.n; i++) {
		const struct tm_node *nd = &d->tm.node[i];
		if (!d->text[i])
			continue;
		if (i == v->sel)
			attron(A_REVERSE);
		if (i == 0)
			attron(A_BOLD);
		if (nd->h >= 2)
			tui_put(t, y0 + nd->y, nd->x + 1, nd->w - 2, d->text[i]);
		else
			tui_put(t, y0 + nd->y, nd->x, nd->w, d->text[i]);
		if (i == 0)
			attroff(A_BOLD);
		if (i == v->sel)
			attroff(A_REVERSE);
	}
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	struct mview *d = v->data;
	if (!d || !d->tm.n)
		return;
	const struct tm_node *s = &d->tm.node[v->sel];
	char cnt[48], pc[32];
	format_count(cnt, sizeof(cnt), (cost_t)(s->value + 0.5));
	pct(v, s, pc, sizeof(pc));
	char *l = xasprintf(": %s%s %s", s->depth > 1 ? "~" : "", cnt, pc);
	int x = tui_put_named(t, y, 0, width, d->label[v->sel], l);
	if (s->depth > 1)
		tui_put(t, y, x, width - x, " (estimated: below the first level, areas are split as "
					    "the callee's calls cost)");
	free(l);
}

/* ---- moving ------------------------------------------------------------------------------- */

static int action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	struct mview *d = v->data;
	if (!d || !d->tm.n)
		return 0;
	int to = -2, dx, dy;
	if (pic_arrow(a, &dx, &dy)) {
		/* the nearest rectangle that way, by centres, a level's
		 * difference counting as 3 cells */
		struct pic_rect *r = xmalloc((size_t)d->tm.n * sizeof(*r));
		int *lv = xmalloc((size_t)d->tm.n * sizeof(*lv));
		for (int i = 0; i < d->tm.n; i++) {
			const struct tm_node *nd = &d->tm.node[i];
			r[i] = (struct pic_rect){ nd->x, nd->y, nd->w, nd->h, 0 };
			lv[i] = nd->depth;
		}
		to = pic_nearest(r, lv, 1, d->tm.n, v->sel, dx, dy, 2);
		free(r);
		free(lv);
		if (to >= 0)
			v->sel = to;
		return 1;
	}
	switch (a) {
	case ACT_HOME: to = d->tm.n > 1 ? 1 : 0; break;
	case ACT_END: to = d->tm.n - 1; break;
	case ACT_PGUP:
	case ACT_PGDN: return 1;
	case ACT_ENTER:
		if (v->sel == 0) {
			tui_message(t, "the whole map already (Esc: back)");
			return 1;
		}
		tui_push(t, view_new(t, &callmap_ops, d->tm.node[v->sel].id));
		return 1;
	default: return 0;
	}
	if (to >= 0)
		v->sel = to;
	return 1;
}

/* The innermost rectangle at screen column x, line y, as last drawn. */
static int hit(struct view *v, int x, int y)
{
	struct mview *d = v->data;
	if (!d || !d->tm.n)
		return -1;
	int py = y - d->oy, best = -1;
	for (int i = 0; i < d->tm.n; i++) {
		const struct tm_node *nd = &d->tm.node[i];
		if (x >= nd->x && x < nd->x + nd->w && py >= nd->y && py < nd->y + nd->h &&
		    (best < 0 || nd->depth > d->tm.node[best].depth))
			best = i;
	}
	return best;
}

static const char *row_text(struct view *v, int row)
{
	return ((struct mview *)v->data)->label[row];
}

static uint32_t selected_fn(struct view *v)
{
	struct mview *d = v->data;
	return d && v->nrows ? d->tm.node[v->sel].id : NO_ID;
}

const struct view_ops callmap_ops = {
	.name = "call map",
	.hint = "arrows:move  Enter:zoom in  Esc:zoom out  s:source  4:graph  r:% of this  ?:help",
	.update = update,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = mv_free,
	.draw = draw,
	.hit = hit,
};
