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
	uint32_t fn, via;
	enum call_kind call; /* the cycle rule's kind of the edge */
	cost_t count;
	const cost_t *cost;  /* the edge's (in clist's ed), or the function's */
	char *label;         /* made when first drawn or searched */
	int filled;          /* row_at filled it in (rows are made zeroed) */
};

struct clist {
	struct crow *r;
	int n;
	struct edge *ed[2];  /* callers, callees */
	/* a cycle's callees are its members, made rows from its member list
	 * (query_member_order), no edges made (ed[1] NULL) */
	const uint32_t *member;
	/* without a filter, rows lazy[s] .. of side s are its edges in the
	 * order ord[s] puts them in as they are read (row_at) */
	struct edge_order *ord[2];
	int lazy[2];
	/* what the edges are of: kept by an update for another sort event,
	 * threshold or filter, and their orders for the same sort event
	 * without a filter */
	uint32_t fn;
	int cycles, ned[2], event;
	/* a difference: the function's callers and callees in each side
	 * alone (side[k][s]: side k + 1's of side s of the list), as
	 * query_edges makes them there (A and B: diff_edge) */
	struct edge *sed[2][2];
	int nsed[2][2];
};

static void cl_free(struct view *v)
{
	struct clist *l = v->data;
	if (!l)
		return;
	for (int i = 0; i < l->n; i++)
		free(l->r[i].label);
	free(l->r);
	free(l->ed[0]);
	free(l->ed[1]);
	query_edge_order_free(l->ord[0]);
	query_edge_order_free(l->ord[1]);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 2; i++)
			free(l->sed[k][i]);
	free(l);
	v->data = NULL;
}

/* (l->r has room for every row) */
static void add(struct clist *l, struct crow r)
{
	r.filled = 1;
	l->r[l->n++] = r;
}

/* The row of the edge of side s at index i (in ed[s], or of the members) */
static struct crow edge_row(struct view *v, int s, uint32_t i)
{
	struct clist *l = v->data;
	struct profile *p = v->t->p;
	if (!l->ed[s]) { /* a cycle's member: the edge query_edges() makes */
		uint32_t m = l->member[i];
		return (struct crow){ .kind = ROW_CALLEE, .fn = m, .via = NO_ID, .call = CALL_MEMBER,
				      .count = query_member_calls(p, m), .cost = agg_incl(p->agg, m) };
	}
	const struct edge *e = &l->ed[s][i];
	return (struct crow){ .kind = s ? ROW_CALLEE : ROW_CALLER, .fn = e->fn, .via = e->via,
			      .call = e->kind, .count = e->count, .cost = e->cost };
}

/* Row `row` about to be shown or read: an edge's row is filled in from
 * its side's order, which orders only as far as it needs (a cycle's
 * 300,000 members: the page shown). */
static struct crow *row_at(struct view *v, int row)
{
	struct clist *l = v->data;
	struct crow *r = &l->r[row];
	if (r->filled)
		return r;
	int s = row >= l->lazy[1];
	*r = edge_row(v, s, query_edge_at(l->ord[s], (size_t)(row - l->lazy[s])));
	r->filled = 1;
	return r;
}

/* A row's label, made once: a cycle's hundreds of thousands of members
 * are labelled only when shown (or searched). */
static const char *row_label(struct view *v, struct crow *r)
{
	if (!r->label)
		r->label = r->kind == ROW_SELF ? tui_label(v->t, r->fn) : tui_edge_label(v->t, r->fn, r->via);
	return r->label;
}

static void update(struct view *v)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	const struct agg *a = profile_agg(p);
	/* the same function's edges, with cycle detection as it was: kept (a
	 * newer profile or another part is a new view, or freed before) */
	struct clist *old = v->data;
	struct edge *kept[2] = { NULL, NULL };
	struct edge_order *kord[2] = { NULL, NULL };
	int nkept[2] = { -1, -1 };
	struct filter *f = tui_filter_new(v);
	if (old && old->fn == v->fn && old->cycles == t->set.cycles)
		for (int s = 0; s < 2; s++) {
			kept[s] = old->ed[s];
			nkept[s] = old->ned[s];
			old->ed[s] = NULL;
			if (!f && old->event == t->set.sort_event) {
				kord[s] = old->ord[s];
				old->ord[s] = NULL;
			}
		}
	cl_free(v);
	struct clist *l = xcalloc(1, sizeof(*l));
	l->fn = v->fn;
	l->cycles = t->set.cycles;
	l->event = t->set.sort_event;
	/* (with cycle detection off there is no cycle entity to show) */
	int members = agg_is_cycle(a, v->fn) && agg_cycle_no(a, v->fn);
	if (members) {
		uint32_t k = agg_cycle_no(a, v->fn);
		l->member = &a->cyc_fn[a->cyc_start[k - 1]];
	}
	for (int side = 0; side < 2; side++) {
		l->ed[side] = kept[side];
		if (nkept[side] >= 0)
			l->ned[side] = nkept[side];
		else if (side == 1 && members)
			l->ned[side] = (int)(a->cyc_start[agg_cycle_no(a, v->fn)] -
					     a->cyc_start[agg_cycle_no(a, v->fn) - 1]);
		else
			l->ned[side] = query_edges(p, v->fn, side == 0, &l->ed[side]);
	}
	for (int k = 0; k < 2 && p->ndiff; k++) { /* (the A and B columns) */
		struct profile *sp = tui_side(t, k + 1);
		uint32_t sf = sp ? tui_side_fn(t, k + 1, v->fn) : NO_ID;
		for (int i = 0; i < 2 && sf != NO_ID; i++)
			l->nsed[k][i] = query_edges(sp, sf, i == 0, &l->sed[k][i]);
	}
	/* zeroed: the pages of rows never shown stay untouched */
	l->r = xcalloc((size_t)l->ned[0] + (size_t)l->ned[1] + 3, sizeof(*l->r));
	int self_row = 0;
	for (int side = 0; side < 2; side++) {
		struct edge *ed = l->ed[side];
		int n = l->ned[side];
		/* with a filter, all of them in order; else the page shown */
		uint32_t *order = NULL;
		if (f && !ed && n) { /* the members: the same order, read whole */
			struct edge_order *o = query_member_order(p, v->fn, t->set.sort_event);
			order = xmalloc(((size_t)n + 1) * sizeof(*order));
			for (int i = 0; i < n; i++)
				order[i] = query_edge_at(o, (size_t)i);
			query_edge_order_free(o);
		} else if (f) {
			order = xmalloc(((size_t)n + 1) * sizeof(*order));
			query_order_edges(p, ed, (size_t)n, t->set.sort_event, order);
		} else if (kord[side]) {
			l->ord[side] = kord[side];
		} else {
			l->ord[side] = !ed && side == 1
				? query_member_order(p, v->fn, t->set.sort_event)
				: query_edge_order(p, ed, (size_t)n, t->set.sort_event);
		}
		if (side == 1) {
			struct crow self = { .kind = ROW_SELF, .fn = v->fn, .via = NO_ID,
					     .count = a->fn_ncalls[v->fn], .cost = agg_incl(a, v->fn) };
			self_row = l->n;
			add(l, self);
		}
		/* a profile without any call (Cachegrind's) cannot say who calls */
		char *title = query_has_calls(p) ? xasprintf(side == 0 ? "%d caller%s" : "%d callee%s", n,
						    n == 1 ? "" : "s")
					: xstrdup(side == 0 ? "callers: the profile records no calls "
							      "(Cachegrind's do not)"
							    : "callees: none recorded");
		add(l, (struct crow){ .kind = ROW_TITLE, .fn = NO_ID, .label = title });
		if (!f) { /* rows made zeroed: filled in by row_at */
			l->lazy[side] = l->n;
			l->n += n;
			continue;
		}
		v->data = l; /* (edge_row reads it) */
		for (int i = 0; i < n; i++) {
			struct crow r = edge_row(v, side, order[i]);
			if (!tui_filter_match(f, row_label(v, &r))) {
				free(r.label);
				continue;
			}
			add(l, r);
		}
		free(order);
	}
	tui_filter_free(f);
	v->data = l;
	v->nrows = l->n;
	v->sel = self_row; /* start on the function itself */
}

/* The function at the other end of a call (a cycle called: the member
 * called), NO_ID for a cycle itself (a member's call of its own cycle) */
static uint32_t call_end(const struct profile *p, uint32_t fn, uint32_t via)
{
	return via != NO_ID ? via : fn < p->nfns ? fn : NO_ID;
}

/* A difference's A, B and B-A of row r (inclusive costs of the calls, or
 * of the function): 0 when the sides are not there. */
static int diff_row(struct view *v, const struct crow *r, struct tui_abd *d)
{
	struct tui *t = v->t;
	struct clist *l = v->data;
	int ev = t->set.sort_event;
	struct tui_abd self;
	if (!tui_side_costs(t, v->fn, 1, &self))
		return 0;
	if (r->kind == ROW_SELF || (r->kind == ROW_CALLEE && r->call == CALL_MEMBER)) {
		/* the function, or a cycle's member: its own inclusive cost */
		tui_side_costs(t, r->fn, 1, d);
	} else { /* the calls between the same two functions in each side */
		uint32_t end = call_end(t->p, r->fn, r->via);
		int s = r->kind == ROW_CALLEE;
		for (int k = 0; k < 2; k++) {
			const struct profile *sp = t->side[k];
			uint32_t se = end == NO_ID ? NO_ID : tui_side_fn(t, k + 1, end);
			int sev = tui_side_event(t, sp, ev), in = 0;
			cost_t c = 0;
			for (int i = 0; se != NO_ID && i < l->nsed[k][s]; i++) {
				const struct edge *e = &l->sed[k][s][i];
				if (call_end(sp, e->fn, e->via) != se)
					continue;
				in = 1;
				c += sev < 0 ? 0 : event_value(sp, e->cost, sev);
			}
			*(k ? &d->inb : &d->ina) = in;
			*(k ? &d->b : &d->a) = c;
		}
		/* (B-A: the difference's own, its records' B minus A) */
		d->d = event_value(t->p, r->cost, ev);
	}
	/* r: shares of the function's own inclusive cost in each side */
	d->atot = t->set.relative ? self.a : self.atot;
	d->btot = t->set.relative ? self.b : self.btot;
	return 1;
}

/* The columns before the call counts: a difference's A, B and B-A (the
 * sides loaded), else the sort event's cost; *nw is the width of their
 * counts (0: no difference's) */
static int cells_width(struct view *v, int width, int *nw)
{
	struct tui *t = v->t;
	*nw = 0;
	if (t->p->ndiff && t->side[0] && t->side[1]) {
		*nw = tui_diff_fit(t, width, 13, 0);
		return tui_diff_width(t, *nw, 0);
	}
	tui_fit_names(t, width, 13, 1);
	return tui_cost_width(t, t->set.sort_event) + 1;
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	int nw, x = cells_width(v, width, &nw);
	char b[64];
	snprintf(b, sizeof(b), "Incl %s", t->p->ev[t->set.sort_event].name);
	if (nw)
		tui_diff_header(t, y, 0, nw, 0, "Incl");
	else
		tui_put_right(t, y, 0, x - 1, b);
	tui_put_right(t, y, x, 9, "Calls");
	tui_put(t, y, x + 11, width - x - 11, "Callers / function / callees");
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct crow *r = row_at(v, row);
	int ev = t->set.sort_event;
	cost_t tot = event_value(p, tui_totals(v), ev);
	int nw, x = cells_width(v, width, &nw), cw = x - 1;
	if (r->kind == ROW_TITLE) {
		attron(A_BOLD);
		tui_put(t, y, 0, width, r->label);
		attroff(A_BOLD);
		return;
	}
	char note[32];
	const char *nc = call_kind_text(note, sizeof(note), r->call,
					r->kind == ROW_CALLER ? agg_call_cycle_no(p->agg, r->fn, v->fn)
							      : agg_call_cycle_no(p->agg, v->fn, r->fn),
					cw);
	struct tui_abd d;
	if (nc)
		tui_put_right(t, y, 0, cw, nc);
	else if (nw && diff_row(v, r, &d))
		tui_diff_cells(t, y, 0, nw, 0, &d);
	else
		tui_cost_cell_ev(t, y, 0, cw, event_value(p, r->cost, ev), tot, ev);
	char cnt[32] = "";
	if (r->count)
		tui_fit_calls(cnt, sizeof(cnt), (long long)r->count, 9, "x");
	tui_put_right(t, y, x, 9, cnt);
	const char *mark = r->kind == ROW_CALLER ? "< " : r->kind == ROW_SELF ? "* " : "> ";
	tui_put(t, y, x + 11, 2, mark);
	struct tui_text c;
	tui_text_begin(&c, v, y, x + 13, width);
	if (r->kind == ROW_SELF)
		attron(A_BOLD);
	tui_text_put(&c, row_label(v, r));
	if (r->kind == ROW_SELF)
		attroff(A_BOLD);
	tui_text_end(&c);
	(void)sel;
}

static const char *row_text(struct view *v, int row)
{
	return row_label(v, row_at(v, row));
}

static uint32_t selected_fn(struct view *v)
{
	return v->nrows ? row_at(v, v->sel)->fn : NO_ID;
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
	.scrolls = 1,
};
