/* view_groups.c -- three trees of groups, one engine: file:function (files
 * with their functions), function:file (function names with the files their
 * costs are in), as cg_annotate's sections, and objects (ELF objects with
 * their functions, self and inclusive).  A group row shows the group's total
 * of the sort event and the cumulative share of the groups down to it; Enter
 * or Tab opens and closes a group, * all of them.  The groups come from
 * src/profile/tree.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/aggregate.h"
#include "profile/format.h"
#include "profile/query.h"
#include "profile/tree.h"
#include "tui.h"

struct grow {
	uint32_t g; /* index in gs->g */
	uint32_t e; /* index in its entries, NO_ID for the group's own row */
};

struct gview {
	struct groups *gs;
	uint8_t *open; /* per group id */
	struct grow *row;
};

static void gv_free(struct view *v)
{
	struct gview *d = v->data;
	if (!d)
		return;
	groups_free(d->gs);
	free(d->open);
	free(d->row);
	free(d);
	v->data = NULL;
}

/* The rows: shown groups, and the shown entries of open ones.  With a filter,
 * a group whose name matches keeps all its entries, else only the matching
 * ones (and is left out when none does).  (Zoomed, the groups have the
 * entries in the scope only: groups_build.) */
static void flatten(struct view *v)
{
	struct gview *d = v->data;
	struct profile *p = v->t->p;
	struct groups *gs = d->gs;
	struct filter *f = tui_filter_new(v);
	int n = 0;
	for (uint32_t k = 0; k < gs->ng; k++) {
		struct group *g = &gs->g[k];
		if (!g->shown)
			continue;
		int all = tui_filter_match(f, group_name(p, gs, g));
		if (!all) {
			uint32_t i;
			for (i = 0; i < g->nshown; i++)
				if (tui_filter_match(f, gentry_name(p, gs, &g->e[i])))
					break;
			if (i == g->nshown)
				continue;
		}
		d->row[n++] = (struct grow){ k, NO_ID };
		if (!d->open[g->id])
			continue;
		for (uint32_t i = 0; i < g->nshown; i++)
			if (all || tui_filter_match(f, gentry_name(p, gs, &g->e[i])))
				d->row[n++] = (struct grow){ k, i };
	}
	tui_filter_free(f);
	v->nrows = n;
}

static void update(struct view *v, enum group_by by)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct gview *d = v->data;
	if (!d) {
		d = xcalloc(1, sizeof(*d));
		d->gs = groups_build(p, by, &v->scope);
		d->open = xmalloc((size_t)d->gs->nkeys + 1);
		/* cg_annotate shows its sections open; objects start as a summary */
		memset(d->open, by != GROUP_OBJ_FN, (size_t)d->gs->nkeys + 1);
		size_t nrows = (size_t)d->gs->ng;
		for (uint32_t k = 0; k < d->gs->ng; k++)
			nrows += d->gs->g[k].ne;
		d->row = xcalloc(nrows + 1, sizeof(*d->row));
		v->data = d;
	}
	groups_order(d->gs, p, t->set.sort_event, t->set.threshold, t->set.inclusive);
	flatten(v);
}

static void update_filefn(struct view *v)
{
	update(v, GROUP_FILE_FN);
}

static void update_fnfile(struct view *v)
{
	update(v, GROUP_FN_FILE);
}

static void update_objects(struct view *v)
{
	update(v, GROUP_OBJ_FN);
}

/* Columns: the cost of the sort event (a group's total, an entry's self
 * cost), objects: the inclusive cost (a profile with calls), the
 * cumulative share on group rows, then the tree. */
struct layout {
	int cw, incl_x, cum_x, cum_w, name_x;
};

static void layout(struct view *v, int width, struct layout *L)
{
	struct tui *t = v->t;
	struct gview *d = v->data;
	/* (an entry's name: after the cells, the cumulative share, the tree) */
	tui_fit_names(t, width, 12, d->gs->by == GROUP_OBJ_FN ? 2 : 1);
	L->cw = tui_cost_width(t, t->set.sort_event);
	int x = L->cw + 1;
	L->incl_x = -1;
	if (d->gs->by == GROUP_OBJ_FN && query_has_calls(t->p)) {
		L->incl_x = x;
		x += L->cw + 1;
	}
	L->cum_x = x;
	L->cum_w = t->set.percent ? 6 : L->cw;
	L->name_x = x + L->cum_w + 2;
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	struct gview *d = v->data;
	const char *ev = t->p->ev[t->set.sort_event].name;
	struct layout L;
	layout(v, width, &L);
	char b[80];
	snprintf(b, sizeof(b), "Self %s", ev);
	tui_put_right(t, y, 0, L.cw, b);
	if (L.incl_x >= 0) {
		snprintf(b, sizeof(b), "Incl %s", ev);
		tui_put_right(t, y, L.incl_x, L.cw, b);
	}
	tui_put_right(t, y, L.cum_x, L.cum_w, "Cumul");
	const char *title = d->gs->by == GROUP_FILE_FN	 ? "File / function"
			    : d->gs->by == GROUP_FN_FILE ? "Function / file"
							 : "Object / function";
	if (width > L.name_x)
		tui_put(t, y, L.name_x, width - L.name_x, title);
}

static const char *what(const struct groups *gs, uint32_t n)
{
	if (gs->by == GROUP_FN_FILE)
		return n == 1 ? "file" : "files";
	return n == 1 ? "function" : "functions";
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct gview *d = v->data;
	const struct grow *r = &d->row[row];
	const struct group *g = &d->gs->g[r->g];
	int ev = t->set.sort_event;
	cost_t tot = event_value(p, p->totals, ev);
	struct layout L;
	layout(v, width, &L);
	if (width <= L.name_x + 2)
		return;
	if (r->e == NO_ID) {
		char b[48];
		tui_cost_cell_ev(t, y, 0, L.cw, g->key, tot, ev);
		if (t->set.percent)
			fmt_percent(b, sizeof(b), g->cum, tot);
		else
			format_count(b, sizeof(b), g->cum);
		tui_put_right(t, y, L.cum_x, L.cum_w, b);
		const char *mark = d->open[g->id] ? (t->utf8 ? "\u25be " : "- ")
						  : (t->utf8 ? "\u25b8 " : "+ ");
		tui_put(t, y, L.name_x, 2, mark);
		const char *name = group_name(p, d->gs, g);
		if (!*name)
			name = d->gs->by == GROUP_OBJ_FN ? "(no object)" : "(unknown)";
		struct tui_text c;
		tui_text_begin(&c, v, y, L.name_x + 2, width);
		attron(A_BOLD);
		tui_text_put(&c, name);
		attroff(A_BOLD);
		tui_text_gap(&c, 2);
		if (tui_text_room(&c) > 4) {
			char *n = g->nshown < g->ne ? xasprintf("%u of %u %s", g->nshown, g->ne,
								 what(d->gs, g->ne))
						    : xasprintf("%u %s", g->ne, what(d->gs, g->ne));
			if (!sel && t->color)
				attron(COLOR_PAIR(COL_FILE));
			tui_text_put(&c, n);
			if (!sel && t->color)
				attroff(COLOR_PAIR(COL_FILE));
			free(n);
		}
		tui_text_end(&c);
		return;
	}
	const struct gentry *e = &g->e[r->e];
	tui_cost_cell_ev(t, y, 0, L.cw, event_value(p, e->self, ev), tot, ev);
	if (L.incl_x >= 0 && e->incl)
		tui_cost_cell_ev(t, y, L.incl_x, L.cw, event_value(p, e->incl, ev), tot, ev);
	char *label = d->gs->by != GROUP_FN_FILE && e->fn != NO_ID
			      ? tui_label(t, e->fn)
			      : xstrdup(gentry_name(p, d->gs, e));
	struct tui_text c;
	tui_text_begin(&c, v, y, L.name_x + 4, width);
	tui_text_put(&c, label);
	tui_text_end(&c);
	free(label);
}

static const char *row_text(struct view *v, int row)
{
	struct gview *d = v->data;
	const struct grow *r = &d->row[row];
	const struct group *g = &d->gs->g[r->g];
	return r->e == NO_ID ? group_name(v->t->p, d->gs, g) : gentry_name(v->t->p, d->gs, &g->e[r->e]);
}

static uint32_t selected_fn(struct view *v)
{
	struct gview *d = v->data;
	if (!v->nrows)
		return NO_ID;
	const struct grow *r = &d->row[v->sel];
	const struct group *g = &d->gs->g[r->g];
	return r->e == NO_ID ? g->fn : g->e[r->e].fn;
}

/* z on a file's or an object's row: that file or object. */
static int selected_scope(struct view *v, struct scope *s)
{
	struct gview *d = v->data;
	const struct grow *r = &d->row[v->sel];
	if (r->e != NO_ID || d->gs->by == GROUP_FN_FILE)
		return 0;
	*s = (struct scope){ .kind = d->gs->by == GROUP_OBJ_FN ? SCOPE_OBJECT : SCOPE_FILE, .id = d->gs->g[r->g].id };
	return 1;
}

/* Selects the row of group k (index in gs->g), if shown. */
static void select_group(struct view *v, uint32_t k)
{
	struct gview *d = v->data;
	for (int i = 0; i < v->nrows; i++)
		if (d->row[i].g == k && d->row[i].e == NO_ID) {
			list_goto(v, i);
			return;
		}
}

static int action(struct view *v, enum action a)
{
	struct gview *d = v->data;
	if (!v->nrows || (a != ACT_ENTER && a != ACT_EXPAND && a != ACT_EXPAND_ALL &&
			  a != ACT_COLLAPSE_ALL && a != ACT_LEFT && a != ACT_RIGHT))
		return 0;
	const struct grow *r = &d->row[v->sel];
	uint32_t k = r->g, id = d->gs->g[k].id;
	if ((a == ACT_ENTER || a == ACT_RIGHT) && r->e != NO_ID)
		return 0; /* an entry: its function's callers and callees */
	if (a == ACT_LEFT && r->e == NO_ID && !d->open[id])
		return 0; /* a closed group: back */
	if (a == ACT_EXPAND_ALL || a == ACT_COLLAPSE_ALL) {
		int any_closed = 0;
		for (int i = 0; i < v->nrows; i++)
			if (d->row[i].e == NO_ID && !d->open[d->gs->g[d->row[i].g].id])
				any_closed = 1;
		memset(d->open, a == ACT_EXPAND_ALL && any_closed, (size_t)d->gs->nkeys + 1);
	} else if (a == ACT_LEFT) {
		if (r->e == NO_ID)
			d->open[id] = 0; /* an open group closes */
		/* (an entry: to its group) */
	} else if (a == ACT_RIGHT) {
		d->open[id] = 1;
	} else if (r->e != NO_ID) {
		d->open[id] = 0; /* Tab on an entry closes its group */
	} else {
		d->open[id] = !d->open[id];
	}
	flatten(v);
	select_group(v, k);
	return 1;
}

const struct view_ops filefn_ops = {
	.name = "file:function",
	.hint = "Tab:open/close  *:all  Enter:callers+callees  s:source  o:sort  +/-:threshold  ?:help",
	.update = update_filefn,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = gv_free,
	.scoped = 1,
	.selected_scope = selected_scope,
	.scrolls = 1,
};

const struct view_ops fnfile_ops = {
	.name = "function:file",
	.hint = "Tab:open/close  *:all  Enter:callers+callees  s:source  o:sort  +/-:threshold  ?:help",
	.update = update_fnfile,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = gv_free,
	.scoped = 1,
	.selected_scope = selected_scope,
	.scrolls = 1,
};

const struct view_ops objects_ops = {
	.name = "objects",
	.hint = "Tab:open/close  *:all  Enter:callers+callees  I:incl/self  o:sort  +/-:threshold  ?:help",
	.update = update_objects,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = gv_free,
	.scoped = 1,
	.selected_scope = selected_scope,
	.scrolls = 1,
};
