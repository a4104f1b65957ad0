/* view_calltree.c -- the call tree, two ways: top-down from the program's
 * roots, each node's callees below it, and bottom-up from one function, each
 * node's callers below it.  Every node shows the inclusive cost and the count
 * of the calls along its edge; depth is indentation.  Tab opens and closes a
 * node, growing it on demand (src/profile/tree.c); a function already on the
 * path above is marked and never grown; cycle members carry <cycle N>.
 * Along calling contexts recorded beside the profile both are exact (the
 * callers those of the flame graph: cctx_callers), else estimated; the
 * title says which, and when the recorder cut paths short.  Enter opens the selected function's callers and callees.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/aggregate.h"
#include "profile/context.h"
#include "profile/tree.h"
#include "profile/format.h"
#include "tui.h"

struct ctview {
	struct ctree *tree;
	uint32_t *row; /* node of each row */
	uint32_t caprow;
	char *text;    /* the last row_text */
};

static void ct_free(struct view *v)
{
	struct ctview *d = v->data;
	if (!d)
		return;
	ctree_free(d->tree);
	free(d->row);
	free(d->text);
	free(d);
	v->data = NULL;
}

struct keep_arg {
	struct filter *f;
	struct tui *t;
};

static int keep(const struct ctree *t, uint32_t n, void *arg)
{
	struct keep_arg *k = arg;
	char *l = tui_edge_label(k->t, t->node[n].fn, t->node[n].via);
	int m = tui_filter_match(k->f, l);
	free(l);
	return m;
}

static void flatten(struct view *v)
{
	struct ctview *d = v->data;
	if (d->caprow < d->tree->nnodes + 1) {
		d->caprow = d->tree->nnodes + 1;
		d->row = xreallocarray(d->row, d->caprow, sizeof(*d->row));
	}
	struct keep_arg k = { tui_filter_new(v), v->t };
	v->nrows = (int)ctree_rows(d->tree, d->row, k.f ? keep : NULL, &k);
	tui_filter_free(k.f);
}

static void update(struct view *v, int callers)
{
	struct tui *t = v->t;
	struct ctview *d = v->data;
	if (!d) {
		d = xcalloc(1, sizeof(*d));
		/* the recorded paths when the profile has them */
		d->tree = ctree_recorded(t->p, callers, v->fn, t->set.sort_event, t->set.threshold);
		if (!d->tree)
			d->tree = ctree_new(t->p, callers, v->fn, t->set.sort_event, t->set.threshold);
		/* the first root starts open: the hottest root's callees, or the
		 * function's callers */
		if (d->tree->nroots)
			ctree_set_open(d->tree, 0, 1);
		v->data = d;
	} else if (d->tree->event != t->set.sort_event || d->tree->threshold != t->set.threshold ||
		   d->tree->cycles != t->p->agg->cycles) {
		struct ctree *nt = ctree_regrow(d->tree, t->set.sort_event, t->set.threshold);
		ctree_free(d->tree);
		d->tree = nt;
	}
	flatten(v);
}

static void update_down(struct view *v)
{
	update(v, 0);
}

static void update_up(struct view *v)
{
	update(v, 1);
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	struct ctview *d = v->data;
	tui_fit_names(t, width, 13, 1); /* (before the indentation) */
	int cw = tui_cost_width(t, t->set.sort_event);
	char b[64];
	snprintf(b, sizeof(b), "Incl %s", t->p->ev[t->set.sort_event].name);
	tui_put_right(t, y, 0, cw, b);
	tui_put_right(t, y, cw + 1, 9, "Calls");
	if (width <= cw + 12)
		return;
	char *title, *name = d->tree->callers ? tui_label(t, d->tree->fn) : NULL;
	/* (recorded paths the recorder's bound cut short: a callers tree's
	 * root is marked, a top-down tree has their cost) */
	const struct cctx *ctx = d->tree->ctx;
	int cut = ctx && (d->tree->callers ? ctx->node[ctx->root[0]].flags & CC_CUT
					   : event_value(t->p, ctx->cut, t->set.sort_event) != 0);
	const char *how = d->tree->estimated ? ", estimated"
			  : cut			 ? ", recorded (cut short)"
			  : ctx && d->tree->callers && !d->tree->cycles
				  ? ", recorded paths, on the stack" /* (not the raw inclusive) */
			  : ctx ? ", recorded paths"
				: "";
	if (d->tree->callers)
		title = xasprintf("Callers of %s, bottom-up%s", name, how);
	else if (d->tree->nroots_hidden)
		title = xasprintf("Call tree from the roots%s (%u shown, %u under the threshold)", how,
				  d->tree->nroots, d->tree->nroots_hidden);
	else
		title = xasprintf("Call tree from the roots%s (%u%s)", how, d->tree->nroots,
				  d->tree->nroots == 1 ? " root" : " roots");
	free(name);
	tui_put(t, y, cw + 12, width - cw - 12, title);
	free(title);
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct ctview *d = v->data;
	uint32_t n = d->row[row];
	const struct ctree_node *nd = &d->tree->node[n];
	int ev = t->set.sort_event;
	cost_t tot = event_value(p, tui_totals(v), ev);
	tui_fit_names(t, width, 13, 1);
	int cw = tui_cost_width(t, ev);
	char kt[32];
	uint32_t from = nd->parent == NO_ID ? nd->fn : d->tree->node[nd->parent].fn;
	const char *nc = call_kind_text(kt, sizeof(kt), nd->kind,
					agg_call_cycle_no(p->agg, from, nd->fn), cw);
	if (nc)
		tui_put_right(t, y, 0, cw, nc);
	else if (nd->cost)
		tui_cost_cell_ev(t, y, 0, cw, event_value(p, nd->cost, ev), tot, ev);
	char cnt[32] = "";
	if (nd->count)
		tui_fit_calls(cnt, sizeof(cnt), (long long)nd->count, 9, "x");
	tui_put_right(t, y, cw + 1, 9, cnt);
	int x = cw + 12;
	if (width <= x + 4)
		return;
	/* indentation: two columns a level, at most half of the room and what
	 * leaves the name TUI_NAME_ROOM columns; deeper levels say their depth */
	int room = width - x, ind = (int)(nd->depth < 10000 ? nd->depth : 10000) * 2;
	int most = room - 2 - TUI_NAME_ROOM < room / 2 ? room - 2 - TUI_NAME_ROOM : room / 2;
	if (ind > most) {
		char b[32];
		snprintf(b, sizeof(b), "%u ", nd->depth);
		ind = most - (int)strlen(b);
		if (ind < 0)
			ind = 0;
		if (!sel && t->color)
			attron(COLOR_PAIR(COL_FILE));
		tui_put(t, y, x + ind, width - x - ind, b);
		if (!sel && t->color)
			attroff(COLOR_PAIR(COL_FILE));
		ind += (int)strlen(b);
	}
	x += ind;
	const char *mark;
	if (nd->flags & CT_RECURSIVE)
		mark = t->utf8 ? "\u21ba " : "@ ";
	else if ((nd->flags & CT_LEAF) || !nd->cost)
		mark = "  ";
	else if (nd->flags & CT_OPEN)
		mark = t->utf8 ? "\u25be " : "- ";
	else
		mark = t->utf8 ? "\u25b8 " : "+ ";
	tui_put(t, y, x, 2, mark);
	x += 2;
	/* (the tree stays in place; its names scroll) */
	struct tui_text c;
	tui_text_begin(&c, v, y, x, width);
	char *label = tui_edge_label(t, nd->fn, nd->via);
	tui_text_put(&c, label);
	free(label);
	char *note = NULL;
	if (nd->flags & CT_RECURSIVE)
		note = xstrdup("(recursion: on the path above)");
	else if ((nd->flags & CT_OPEN) && nd->nhidden)
		note = xasprintf("(%u under the threshold)", nd->nhidden);
	tui_text_gap(&c, 2);
	if (note && tui_text_room(&c) > 4) {
		if (!sel && t->color)
			attron(COLOR_PAIR(COL_FILE));
		tui_text_put(&c, note);
		if (!sel && t->color)
			attroff(COLOR_PAIR(COL_FILE));
	}
	free(note);
	tui_text_end(&c);
}

static const char *row_text(struct view *v, int row)
{
	struct ctview *d = v->data;
	const struct ctree_node *nd = &d->tree->node[d->row[row]];
	free(d->text);
	d->text = tui_edge_label(v->t, nd->fn, nd->via);
	return d->text;
}

static uint32_t selected_fn(struct view *v)
{
	struct ctview *d = v->data;
	return v->nrows ? d->tree->node[d->row[v->sel]].fn : NO_ID;
}

/* Selects node n's row (it is listed). */
static void select_node(struct view *v, uint32_t n)
{
	struct ctview *d = v->data;
	for (int i = 0; i < v->nrows; i++)
		if (d->row[i] == n) {
			list_goto(v, i);
			return;
		}
}

/* Why node n cannot open (a message), or NULL. */
static const char *closed_why(struct view *v, uint32_t n, char *buf, size_t size)
{
	struct ctview *d = v->data;
	struct tui *t = v->t;
	const struct ctree_node *nd = &d->tree->node[n];
	char *name = tui_edge_label(t, nd->fn, nd->via);
	const char *r = NULL;
	if (nd->flags & CT_RECURSIVE)
		snprintf(buf, size, "%s is already on the path above: not opened (recursion)", name);
	else if (!nd->cost && nd->kind == CALL_RECURSIVE)
		snprintf(buf, size, "%s calls itself: the cost is in its outer call (not opened)", name);
	else if (!nd->cost)
		snprintf(buf, size, "a call inside <cycle %u>: the cost is in the calls into the cycle "
				    "(not opened)", agg_cycle_no(t->p->agg, nd->fn));
	else if ((nd->flags & CT_LEAF) && d->tree->ctx)
		snprintf(buf, size, d->tree->callers ? "%s: this path starts here (recorded)"
						     : "%s called nothing along this path (recorded)", name);
	else if (nd->flags & CT_LEAF)
		snprintf(buf, size, "%s has no %s", name, d->tree->callers ? "callers" : "callees");
	else
		buf = NULL;
	r = buf;
	free(name);
	return r;
}

/* * in a call tree: opens n, its hottest child, that one's ... down to a
 * node that cannot open (perf's E); the last is selected. */
static void open_hottest(struct view *v, uint32_t n)
{
	struct ctview *d = v->data;
	for (;;) {
		if (!ctree_set_open(d->tree, n, 1) || !d->tree->node[n].nchild)
			break;
		n = d->tree->node[n].first; /* children are ordered: the hottest first */
	}
	flatten(v);
	select_node(v, n);
}

static int action(struct view *v, enum action a)
{
	struct ctview *d = v->data;
	struct tui *t = v->t;
	if (!v->nrows)
		return 0;
	uint32_t n = d->row[v->sel];
	const struct ctree_node *nd = &d->tree->node[n];
	char why[512];
	switch (a) {
	case ACT_EXPAND_ALL:
		open_hottest(v, n);
		return 1;
	case ACT_COLLAPSE_ALL:
		for (uint32_t i = 0; i < d->tree->nnodes; i++)
			ctree_set_open(d->tree, i, 0);
		flatten(v);
		for (; d->tree->node[n].parent != NO_ID; n = d->tree->node[n].parent)
			;
		select_node(v, n);
		return 1;
	case ACT_LEFT:
		if (nd->flags & CT_OPEN) {
			ctree_set_open(d->tree, n, 0);
			flatten(v);
			select_node(v, n);
			return 1;
		}
		if (nd->parent == NO_ID)
			return 0; /* a closed root: back */
		select_node(v, nd->parent);
		return 1;
	case ACT_RIGHT:
		if (nd->flags & CT_OPEN) {
			if (nd->nchild)
				select_node(v, nd->first);
			return 1;
		}
		/* FALLTHROUGH */
	case ACT_EXPAND:
		if (closed_why(v, n, why, sizeof(why))) {
			tui_message(t, "%s", why);
			return 1;
		}
		ctree_set_open(d->tree, n, a == ACT_RIGHT || !(nd->flags & CT_OPEN));
		nd = &d->tree->node[n];
		if ((nd->flags & CT_OPEN) && !nd->nchild) {
			char *name = tui_edge_label(t, nd->fn, nd->via);
			tui_message(t, "all %u %s of %s are under the threshold", nd->nhidden,
				    d->tree->callers ? "callers" : "callees", name);
			free(name);
		}
		flatten(v);
		/* the node keeps its row when nothing is filtered; find it otherwise */
		select_node(v, n);
		return 1;
	default:
		return 0;
	}
}

const struct view_ops calltree_ops = {
	.name = "call tree",
	.hint = "Tab:open/close  Enter:callers+callees  s:source  o:sort  +/-:threshold  Esc:back  ?:help",
	.update = update_down,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = ct_free,
	.scrolls = 1,
};

const struct view_ops callertree_ops = {
	.name = "callers tree",
	.hint = "Tab:open/close  Enter:callers+callees  s:source  o:sort  +/-:threshold  Esc:back  ?:help",
	.update = update_up,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = ct_free,
	.scrolls = 1,
};
