/* view_calls.c -- a function with its callers above and its callees below:
 * each edge with its call count and the inclusive cost of those calls.
 * Enter moves to the function of the selected row.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/aggregate.h"
#include "profile/query.h"
#include "profile/format.h"
#include "tui.h"

enum { ROW_TITLE, ROW_CALLER, ROW_SELF, ROW_CALLEE };

struct crow {
	int kind;
	uint32_t fn;
	enum call_kind call; /* the cycle rule's kind of the edge */
	cost_t count;
	cost_t cost[MAX_EVENTS];
	char *label;
};

struct clist {
	struct crow *r;
	int n;
};

static void cl_free(struct view *v)
{
	struct clist *l = v->data;
	if (!l)
		return;
	for (int i = 0; i < l->n; i++)
		free(l->r[i].label);
	free(l->r);
	free(l);
	v->data = NULL;
}

static void add(struct clist *l, int *cap, struct crow r)
{
	if (l->n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		l->r = xreallocarray(l->r, (size_t)*cap, sizeof(*l->r));
	}
	l->r[l->n++] = r;
}


static void update(struct view *v)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	const struct agg *a = profile_agg(p);
	cl_free(v);
	struct clist *l = xcalloc(1, sizeof(*l));
	int cap = 0;
	struct filter *f = tui_filter_new(v);
	for (int side = 0; side < 2; side++) {
		struct edge *ed;
		int n = query_edges(p, v->fn, side == 0, &ed);
		query_sort_edges(p, ed, (size_t)n, t->set.sort_event);
		if (side == 1) {
			struct crow self = { .kind = ROW_SELF, .fn = v->fn, .count = a->fn_ncalls[v->fn],
					     .label = tui_label(t, v->fn) };
			memcpy(self.cost, agg_incl(a, v->fn), sizeof(cost_t) * (size_t)p->nreal);
			add(l, &cap, self);
		}
		/* a profile without any call (Cachegrind's) cannot say who calls */
		char *title = p->ncalls ? xasprintf(side == 0 ? "%d caller%s" : "%d callee%s", n,
						    n == 1 ? "" : "s")
					: xstrdup(side == 0 ? "callers: the profile records no calls "
							      "(Cachegrind's do not)"
							    : "callees: none recorded");
		add(l, &cap, (struct crow){ .kind = ROW_TITLE, .fn = NO_ID, .label = title });
		for (int i = 0; i < n; i++) {
			char *label = tui_edge_label(t, ed[i].fn, ed[i].via);
			if (!tui_filter_match(f, label)) {
				free(label);
				continue;
			}
			struct crow r = { .kind = side == 0 ? ROW_CALLER : ROW_CALLEE, .fn = ed[i].fn,
					  .call = ed[i].kind, .count = ed[i].count, .label = label };
			memcpy(r.cost, ed[i].cost, sizeof(r.cost));
			add(l, &cap, r);
		}
		free(ed);
	}
	tui_filter_free(f);
	v->data = l;
	v->nrows = l->n;
	/* start on the function itself */
	for (int i = 0; i < l->n; i++)
		if (l->r[i].kind == ROW_SELF)
			v->sel = i;
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	int cw = tui_cost_width(t, t->set.sort_event);
	char b[64];
	snprintf(b, sizeof(b), "Incl %s", t->p->ev[t->set.sort_event].name);
	tui_put_right(t, y, 0, cw, b);
	tui_put_right(t, y, cw + 1, 9, "Calls");
	tui_put(t, y, cw + 12, width - cw - 12, "Callers / function / callees");
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct crow *r = &((struct clist *)v->data)->r[row];
	int ev = t->set.sort_event;
	cost_t tot = event_value(p, p->totals, ev);
	int cw = tui_cost_width(t, ev);
	if (t->set.relative) /* of the function shown: its inclusive cost */
		tot = event_value(p, agg_incl(p->agg, v->fn), ev);
	if (r->kind == ROW_TITLE) {
		attron(A_BOLD);
		tui_put(t, y, 0, width, r->label);
		attroff(A_BOLD);
		return;
	}
	char note[32];
	const char *nc = call_kind_text(note, sizeof(note), r->call,
					agg_cycle_no(p->agg, r->kind == ROW_CALLER ? r->fn : v->fn), cw);
	if (nc)
		tui_put_right(t, y, 0, cw, nc);
	else
		tui_cost_cell_ev(t, y, 0, cw, event_value(p, r->cost, ev), tot, ev);
	char cnt[32] = "";
	if (r->count)
		tui_fit_calls(cnt, sizeof(cnt), (long long)r->count, 9, "x");
	tui_put_right(t, y, cw + 1, 9, cnt);
	const char *mark = r->kind == ROW_CALLER ? "< " : r->kind == ROW_SELF ? "* " : "> ";
	tui_put(t, y, cw + 12, 2, mark);
	if (r->kind == ROW_SELF)
		attron(A_BOLD);
	tui_put(t, y, cw + 14, width - cw - 14, r->label);
	if (r->kind == ROW_SELF)
		attroff(A_BOLD);
	(void)sel;
}

static const char *row_text(struct view *v, int row)
{
	return ((struct clist *)v->data)->r[row].label;
}

static uint32_t selected_fn(struct view *v)
{
	return v->nrows ? ((struct clist *)v->data)->r[v->sel].fn : NO_ID;
}

const struct view_ops calls_ops = {
	.name = "callers and callees",
	.hint = "Enter:go to  Esc:back  l:forward  s:source  r:% of this function  T:callers tree  ?:help",
	.update = update,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.free = cl_free,
};
