/* view_functions.c -- the flat list of functions: inclusive and self cost of
 * the sort event, more shown events when the screen is wide, call counts,
 * name, file and object.  In a time range (scope.h; chosen in the
 * timeline), the self costs of that range, the only costs kept per
 * interval: one column, as a profile without calls, no call counts.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/aggregate.h"
#include "profile/query.h"
#include "profile/rank.h"
#include "profile/format.h"
#include "tui.h"

struct fnlist {
	uint32_t *fn;  /* the functions shown, in no order: ord orders them */
	struct fn_lazy *ord; /* (row_fn) */
	int under;     /* rows under the threshold, shown as they match */
	char **label;  /* "name <cycle N>", made when first drawn or read */
	char *scratch; /* the last row_text */
	size_t scap;
	/* each cycle's text as searched, "<cycle N>" and its members
	 * (cycle_members) a line each, made when first read and kept by
	 * updates while cycle detection stays as it was */
	char **members;
	uint32_t ncycles;
	int cycles;
	cost_t *rself; /* in a time range: every entity's self cost in it
			* (tui_range_self), else NULL */
	/* the filter's (|) and the search's reveal's matches among every
	 * entity, a bit each, with the expression they are for: a pass over
	 * 400,000 functions' texts made once, not at every update (each key
	 * of a session with a filter, or after a search that showed matches
	 * under the threshold); kept as members are */
	struct matches {
		char *expr;
		uint8_t *bit;
		uint32_t n; /* entities */
	} match[2];
};

static const cost_t *key_incl(const struct profile *p, uint32_t fn, void *arg)
{
	return agg_incl(p->agg, fn);
}

static const cost_t *key_self(const struct profile *p, uint32_t fn, void *arg)
{
	return agg_self(p->agg, fn);
}

static const cost_t *key_range(const struct profile *p, uint32_t fn, void *arg)
{
	return &((const cost_t *)arg)[(size_t)fn * (size_t)p->nreal];
}

/* The cost a row shows: its self cost in the time range, else inclusive
 * (incl) or self. */
static const cost_t *fn_cost(const struct view *v, uint32_t fn, int incl)
{
	const struct fnlist *l = v->data;
	const struct profile *p = v->t->p;
	if (l && l->rself)
		return key_range(p, fn, l->rself);
	return incl ? agg_incl(p->agg, fn) : agg_self(p->agg, fn);
}

/* What is searched and filtered: the label (or name), the file and the
 * object, one a line (expressions are matched multi-line: ^main$ finds the
 * function main); a cycle's members on its second line.  Its n parts
 * (returned) in part[] and len[]: a search reads every one of 400,000
 * functions, each where it is (tui_filter_match_parts). */
static int fn_parts(struct profile *p, struct fnlist *l, uint32_t fn, const char *label,
		    const char **part, size_t *len)
{
	const struct agg *a = p->agg;
	int n = 0;
	if (agg_is_cycle(a, fn)) {
		/* kept whole, "<cycle N>" and its members (300,000 on a big
		 * profile, megabytes), unless the row's label is another */
		char cl[32];
		uint32_t k = agg_cycle_no(a, fn);
		int cn = snprintf(cl, sizeof(cl), "<cycle %u>", k);
		if (!l->members) {
			l->ncycles = a->ncycles;
			l->members = xcalloc((size_t)l->ncycles + 1, sizeof(*l->members));
		}
		if (!l->members[k - 1]) {
			/* (joined by hand: megabytes through printf's
			 * buffers, twice, took a third of a first search) */
			char *m = cycle_members(p, fn, SIZE_MAX);
			size_t ml = strlen(m);
			char *j = xmalloc((size_t)cn + ml + 2);
			memcpy(j, cl, (size_t)cn);
			j[cn] = '\n';
			memcpy(j + cn + 1, m, ml + 1);
			l->members[k - 1] = j;
			free(m);
		}
		if (!label || !strcmp(label, cl)) {
			part[n] = l->members[k - 1];
			len[n++] = strlen(part[0]);
			return n;
		}
		part[n] = label;
		len[n++] = strlen(label);
		part[n] = l->members[k - 1] + cn + 1;
		len[n++] = strlen(part[1]);
		return n;
	}
	/* (the names' lengths as interned) */
	const struct function *f = &p->fns[fn];
	part[n] = label ? label : fn_name(p, fn);
	len[n++] = label ? strlen(label) : p->names.len[f->name];
	part[n] = file_name(p, f->file);
	len[n++] = p->files.len[f->file];
	part[n] = obj_name(p, f->obj);
	len[n++] = p->objs.len[f->obj];
	return n;
}

/* The same as one text (tui_join_lines). */
static const char *fn_text(struct profile *p, struct fnlist *l, uint32_t fn, const char *label,
			   char **buf, size_t *cap)
{
	const char *part[3];
	size_t len[3];
	int n = fn_parts(p, l, fn, label, part, len);
	return tui_join_lines(part, len, n, buf, cap);
}

static void matches_free(struct fnlist *l)
{
	for (int i = 0; i < 2; i++) {
		free(l->match[i].expr);
		free(l->match[i].bit);
		l->match[i] = (struct matches){ NULL, NULL, 0 };
	}
}

/* Does f match one part of a text (tui_filter_parts_alone): the part of
 * id `id` (a file, an object) looked up in memo (0: not yet, 1: no, 2:
 * yes), matched once for the thousands of functions that share it. */
static int part_matches(struct filter *f, uint8_t *memo, uint32_t id, const char *s, size_t len)
{
	if (!memo[id])
		memo[id] = (uint8_t)(1 + tui_filter_match_parts(f, &s, &len, 1, NULL, NULL));
	return memo[id] == 2;
}

/* The entities whose text (fn_parts) filter f matches, as bits: those of
 * *m when they are for the same expression (and entities), else found (a
 * pass over all) and kept there; NULL without a filter. */
static const uint8_t *matches(struct profile *p, struct fnlist *l, struct matches *m,
			      struct filter *f, const char *expr)
{
	if (!f)
		return NULL;
	const struct agg *a = p->agg;
	uint32_t nent = agg_nent(a);
	if (m->expr && !strcmp(m->expr, expr) && m->n == nent)
		return m->bit;
	free(m->expr);
	free(m->bit);
	m->n = nent;
	m->expr = xstrdup(expr);
	m->bit = xcalloc((size_t)nent / 8 + 1, 1);
	/* a function's name, file and object (fn_parts), each matched alone
	 * where the expression allows: its file and object once per file and
	 * object */
	int alone = tui_filter_parts_alone(f);
	uint8_t *fmemo = alone ? xcalloc((size_t)p->files.n + 1, 1) : NULL;
	uint8_t *omemo = alone ? xcalloc((size_t)p->objs.n + 1, 1) : NULL;
	size_t cap = 0;
	char *buf = NULL;
	for (uint32_t fn = 0; fn < nent; fn++) {
		const char *part[3];
		size_t len[3];
		int np = fn_parts(p, l, fn, NULL, part, len), hit;
		if (alone && np == 3 && !agg_is_cycle(a, fn))
			hit = tui_filter_match_parts(f, part, len, 1, &buf, &cap) ||
			      part_matches(f, fmemo, p->fns[fn].file, part[1], len[1]) ||
			      part_matches(f, omemo, p->fns[fn].obj, part[2], len[2]);
		else
			hit = tui_filter_match_parts(f, part, len, np, &buf, &cap);
		if (hit)
			m->bit[fn / 8] |= (uint8_t)(1u << (fn % 8));
	}
	free(buf);
	free(fmemo);
	free(omemo);
	return m->bit;
}

static int has_bit(const uint8_t *bit, uint32_t fn)
{
	return bit[fn / 8] >> (fn % 8) & 1;
}

static void members_free(struct fnlist *l)
{
	for (uint32_t k = 0; l->members && k < l->ncycles; k++)
		free(l->members[k]);
	free(l->members);
	l->members = NULL;
}

static void fl_free(struct view *v)
{
	struct fnlist *l = v->data;
	if (!l)
		return;
	for (int i = 0; i < v->nrows; i++)
		free(l->label[i]);
	free(l->label);
	query_fns_lazy_free(l->ord);
	free(l->fn);
	free(l->scratch);
	free(l->rself);
	members_free(l);
	matches_free(l);
	free(l);
	v->data = NULL;
}

/* What update's pass over the entities reads, and what each part finds */
struct fl_pass {
	struct view *v;
	struct rank_thr thr;
	const uint8_t *fbit, *rbit; /* the filter's and the reveal's matches */
	uint32_t nent, nparts;
	uint32_t *n; /* per part: its rows, in l->fn from its first entity on */
	int *under;  /* per part: those under the threshold */
};

/* Part k of update's pass: the rows of its entities */
static void fl_pass_part(void *arg, uint32_t k)
{
	struct fl_pass *f = arg;
	struct view *v = f->v;
	struct tui *t = v->t;
	struct profile *p = t->p;
	const struct agg *a = p->agg;
	struct fnlist *l = v->data;
	const uint8_t *fbit = f->fbit, *rbit = f->rbit;
	int ev = t->set.sort_event;
	uint32_t lo = agg_part_start(f->nent, k, f->nparts), hi = agg_part_start(f->nent, k + 1, f->nparts);
	uint32_t n = lo;
	for (uint32_t fn = lo; fn < hi; fn++) {
		if (fn + AGG_AHEAD < hi && !l->rself) /* (rows read at random: agg_fetch) */
			agg_fetch(a, fn_cost(v, fn + AGG_AHEAD, t->set.inclusive), ev);
		if (!scope_keeps(p, &v->scope, fn))
			continue;
		cost_t c = event_value(p, fn_cost(v, fn, t->set.inclusive), ev);
		int shown = rank_shown(&f->thr, c);
		if (!shown && !fbit && !rbit)
			continue;
		if (fbit || rbit) {
			int m = !fbit || has_bit(fbit, fn);
			int r = rbit && has_bit(rbit, fn);
			if (!(m && (shown || fbit || r)))
				continue;
			f->under[k] += !shown;
		}
		l->fn[n++] = fn;
	}
	f->n[k] = n - lo;
}

static void update(struct view *v)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	const struct agg *a = profile_agg(p);
	int ev = t->set.sort_event;
	struct fnlist *old = v->data;
	char **members = NULL;
	uint32_t ncycles = 0;
	struct matches match[2] = { { NULL, NULL, 0 }, { NULL, NULL, 0 } };
	if (old && old->cycles == t->set.cycles) { /* kept (fn_text) */
		members = old->members;
		ncycles = old->ncycles;
		old->members = NULL;
		memcpy(match, old->match, sizeof(match));
		memset(old->match, 0, sizeof(old->match));
	}
	fl_free(v);
	struct fnlist *l = xcalloc(1, sizeof(*l));
	l->members = members;
	l->ncycles = ncycles;
	memcpy(l->match, match, sizeof(match));
	l->cycles = t->set.cycles;
	uint32_t iv0, iv1;
	cost_t rtot[MAX_EVENTS];
	l->rself = tui_range_self(v, &iv0, &iv1, rtot);
	if (p->ndiff && !l->rself) { /* (each side alone, for the A and B columns: once) */
		tui_side(t, 1);
		tui_side(t, 2);
	}
	v->data = l; /* (fn_cost) */
	uint32_t nent = agg_nent(a);
	l->fn = xmalloc(((size_t)nent + 1) * sizeof(*l->fn));
	struct rank_thr thr = rank_threshold(p, ev, t->set.threshold);
	/* a filter, and a search that found nothing above the threshold, look
	 * at every function: the matches under the threshold are shown too */
	struct filter *f = tui_filter_new(v);
	struct filter *rv = tui_filter_of(v->reveal);
	const uint8_t *fbit = matches(p, l, &l->match[0], f, v->filter);
	const uint8_t *rbit = matches(p, l, &l->match[1], rv, v->reveal);
	tui_filter_free(rv);
	tui_filter_free(f);
	/* (in parts, on the aggregation's threads: 400,000 entities' rows
	 * read at random) */
	struct fl_pass pass = { v, thr, fbit, rbit, nent, agg_parts(p, nent), NULL, NULL };
	pass.n = xcalloc(pass.nparts, sizeof(*pass.n));
	pass.under = xcalloc(pass.nparts, sizeof(*pass.under));
	agg_parallel(p, pass.nparts, fl_pass_part, &pass);
	size_t n = 0;
	for (uint32_t k = 0; k < pass.nparts; k++) { /* (the parts' rows, one after another) */
		memmove(&l->fn[n], &l->fn[agg_part_start(nent, k, pass.nparts)],
			pass.n[k] * sizeof(*l->fn));
		n += pass.n[k];
		l->under += pass.under[k];
	}
	free(pass.n);
	free(pass.under);
	/* ordered as far as rows are shown or read (400,000 at threshold 0);
	 * a time range, without calls, by cost when the order is by calls */
	if (t->set.order && !(l->rself && t->set.order == FN_BY_CALLS))
		l->ord = query_fns_lazy_by(p, l->fn, n, (enum fn_order)t->set.order);
	else if (l->rself)
		l->ord = query_fns_lazy(p, l->fn, n, key_range, l->rself, ev);
	else
		l->ord = query_fns_lazy(p, l->fn, n, t->set.inclusive ? key_incl : key_self, NULL, ev);
	l->label = xcalloc(n + 1, sizeof(*l->label));
	v->data = l;
	v->nrows = (int)n;
}

/* The function of row `row`, and its label */
static uint32_t row_fn(struct view *v, int row)
{
	return query_fns_at(((struct fnlist *)v->data)->ord, (size_t)row);
}

static const char *row_label(struct view *v, int row)
{
	struct fnlist *l = v->data;
	if (!l->label[row])
		l->label[row] = tui_label(v->t, row_fn(v, row));
	return l->label[row];
}

/* Columns: inclusive, self, then the other shown events while there is room
 * for the name; calls; name; file.  In a difference: A, B, B-A and the
 * change of the sort event's inclusive or self cost (as I says), then the
 * other shown events' B-A. */
struct layout {
	int cw, ncols, calls_x, name_x, ev[MAX_EVENTS];
	int self, calls; /* the self and Called columns shown (not on a narrow screen) */
	int nocalls;     /* the profile records no calls */
	int diff, nw;    /* a difference's columns (each side loaded), their counts' width */
};

/* Does v list a time range's self costs (tui_range_self)? */
static int in_range(const struct view *v)
{
	return v->data && ((const struct fnlist *)v->data)->rself;
}

/* Does v show a difference's sides (not in a time range: the sides have
 * no timeline of their own)? */
static int shows_sides(struct view *v)
{
	struct tui *t = v->t;
	return t->p->ndiff && !in_range(v) && tui_side(t, 1) && tui_side(t, 2);
}

/* The cost compared in a difference: inclusive as I says, self without calls */
static int diff_incl(const struct view *v, const struct layout *L)
{
	return !L->nocalls && v->t->set.inclusive;
}

/* names get priority: Called goes, then Self, then the heat bar and the
 * percentage (tui_fit_names), before a name has fewer than TUI_NAME_ROOM
 * columns */
static void layout(struct view *v, int width, struct layout *L)
{
	struct tui *t = v->t;
	t->slim = 0;
	L->cw = tui_cost_width(t, t->set.sort_event);
	L->ncols = 0;
	/* a profile without calls (Cachegrind's): inclusive is self, one
	 * column, no call counts */
	L->nocalls = !query_has_calls(t->p) || in_range(v);
	L->diff = shows_sides(v);
	int x;
	if (L->diff) {
		L->self = 0;
		L->nw = tui_diff_fit(t, width, 0, 1);
		x = tui_diff_width(t, L->nw, 1);
		L->calls = !L->nocalls && width - x - 9 >= TUI_NAME_ROOM;
	} else {
		L->calls = !L->nocalls && width - 2 * (L->cw + 1) - 9 >= TUI_NAME_ROOM;
		L->self = !L->nocalls && (L->calls || width - (L->cw + 1) >= TUI_NAME_ROOM + L->cw + 1);
		if (!L->self) {
			tui_fit_names(t, width, 0, 1);
			L->cw = tui_cost_width(t, t->set.sort_event);
		}
		x = (L->self ? 2 : 1) * (L->cw + 1);
	}
	for (int k = 0; k < t->set.nshow; k++) {
		int e = t->set.show[k];
		if (e == t->set.sort_event)
			continue;
		int w = tui_cost_width(t, e);
		if (x + w + 1 + 8 + 30 > width)
			break;
		L->ev[L->ncols++] = e;
		x += w + 1;
	}
	L->calls_x = x;
	L->name_x = x + (L->calls ? 9 : 0);
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct layout L;
	layout(v, width, &L);
	char b[64];
	int x;
	if (L.diff) {
		tui_diff_header(t, y, 0, L.nw, 1, diff_incl(v, &L) ? "Incl" : "Self");
		x = tui_diff_width(t, L.nw, 1);
	} else {
		/* one column only: the one the list is ordered by */
		snprintf(b, sizeof(b), "%s %s",
			 !L.nocalls && (L.self || t->set.inclusive) ? "Incl" : "Self",
			 p->ev[t->set.sort_event].name);
		tui_put_right(t, y, 0, L.cw, b);
		snprintf(b, sizeof(b), "Self %s", p->ev[t->set.sort_event].name);
		if (L.self)
			tui_put_right(t, y, L.cw + 1, L.cw, b);
		x = (L.self ? 2 : 1) * (L.cw + 1);
	}
	for (int k = 0; k < L.ncols; k++) {
		int w = tui_cost_width(t, L.ev[k]);
		/* (a difference's other events: B-A alone) */
		snprintf(b, sizeof(b), "%s%s", L.diff ? "B-A " : "", p->ev[L.ev[k]].name);
		tui_put_right(t, y, x, w, b);
		x += w + 1;
	}
	if (L.calls)
		tui_put_right(t, y, L.calls_x, 8, "Called");
	tui_put(t, y, L.name_x, width - L.name_x, "Function");
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	const struct agg *a = p->agg;
	const struct fnlist *l = v->data;
	uint32_t fn = row_fn(v, row);
	struct layout L;
	layout(v, width, &L);
	int ev = t->set.sort_event, x;
	struct tui_abd d;
	if (L.diff && tui_side_costs(t, fn, diff_incl(v, &L), &d)) {
		tui_diff_cells(t, y, 0, L.nw, 1, &d);
		x = tui_diff_width(t, L.nw, 1);
	} else {
		tui_cost_cell_ev(t, y, 0, L.cw,
				 event_value(p, fn_cost(v, fn, L.self || t->set.inclusive), ev),
				 event_value(p, p->totals, ev), ev);
		if (L.self)
			tui_cost_cell_ev(t, y, L.cw + 1, L.cw, event_value(p, fn_cost(v, fn, 0), ev),
					 event_value(p, p->totals, ev), ev);
		x = (L.self ? 2 : 1) * (L.cw + 1);
	}
	for (int k = 0; k < L.ncols; k++) {
		int e = L.ev[k];
		cost_t tot = event_value(p, p->totals, e);
		int w = tui_cost_width(t, e);
		tui_cost_cell(t, y, x, w,
			      event_value(p, fn_cost(v, fn, t->set.inclusive), e),
			      tot);
		x += w + 1;
	}
	char calls[32] = "";
	if (a->fn_ncalls[fn] && !l->rself)
		tui_fit_calls(calls, sizeof(calls), (long long)a->fn_ncalls[fn], 8, "");
	if (L.calls)
		tui_put_right(t, y, L.calls_x, 8, calls);
	struct tui_text c;
	tui_text_begin(&c, v, y, L.name_x, width);
	tui_text_put(&c, row_label(v, row));
	tui_text_gap(&c, 2);
	int room = tui_text_room(&c);
	if (room > 4) {
		char *where = agg_is_cycle(a, fn) ? cycle_members(p, fn, (size_t)room)
			      : xasprintf("%s%s%s", file_name(p, p->fns[fn].file),
					  *obj_name(p, p->fns[fn].obj) ? "  " : "",
					  obj_name(p, p->fns[fn].obj));
		if (!sel && t->color)
			attron(COLOR_PAIR(COL_FILE));
		tui_text_put(&c, where);
		if (!sel && t->color)
			attroff(COLOR_PAIR(COL_FILE));
		free(where);
	}
	tui_text_end(&c);
}

static const char *row_text(struct view *v, int row)
{
	struct fnlist *l = v->data;
	const char *label = row_label(v, row);
	return fn_text(v->t->p, l, row_fn(v, row), label, &l->scratch, &l->scap);
}

static uint32_t selected_fn(struct view *v)
{
	return v->nrows ? row_fn(v, v->sel) : NO_ID;
}

static int under_shown(struct view *v)
{
	return v->data ? ((struct fnlist *)v->data)->under : 0;
}

/* . in a time range: no ordering by calls, which the range does not keep
 * (its list has no Called column): from cost on to name (the key's own
 * step after calls, actions.c) */
static int action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	if (a == ACT_ORDER && in_range(v) && t->set.order + 1 == FN_BY_CALLS)
		t->set.order = FN_BY_CALLS;
	return 0;
}

const struct view_ops functions_ops = {
	.name = "functions",
	.hint = "Enter:callers+callees  s:source  o:sort  I:incl/self  +/-:threshold  /:search  |:filter  ?:help  q:quit",
	.update = update,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.under_shown = under_shown,
	.action = action,
	.free = fl_free,
	.scoped = 1,
	.scrolls = 1,
	.timed = 1,
};
