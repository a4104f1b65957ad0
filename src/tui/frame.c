/* frame.c -- drawing the explorer: the header and status lines, the
 * view's rows, the detail pane beside or below, and keeping the user's
 * place when a setting changes the rows.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/aggregate.h"
#include "profile/format.h"
#include "profile/query.h"
#include "profile/timeline.h"
#include "tui_int.h"

/* ---- drawing ------------------------------------------------------------------------------ */

#define TUI_MESSAGE_LINES 4 /* a message wraps over at most so many lines */

const char *tui_side_source(const struct profile *p, int sign)
{
	for (int k = 0; k < p->nparts; k++)
		if ((p->parts[k].sign < 0) == (sign < 0))
			return p->parts[k].source;
	return NULL;
}

void diff_label(const struct profile *p, char *buf, size_t n)
{
	const char *b = tui_side_source(p, 1), *a = tui_side_source(p, -1);
	if (p->ndiff && a && b)
		snprintf(buf, n, "difference: %s minus %s", b, a);
	else
		snprintf(buf, n, "%s", p->cmd && *p->cmd ? p->cmd : p->sources[0]);
}

/* A view's status-line hint ("KEY:what  KEY:what"), malloc'ed: on a
 * profile without calls (query_has_calls), without the keys that need them
 * (action_needs_calls) and an Enter that leads to callers and callees or
 * to a call. */
static char *status_hint(const struct tui *t, const char *hint)
{
	if (query_has_calls(t->p))
		return xstrdup(hint);
	char *out = xmalloc(strlen(hint) + 1), *o = out;
	for (const char *s = hint; *s;) {
		const char *e = strstr(s, "  "), *colon = strchr(s, ':');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		size_t klen = colon && colon < s + len ? (size_t)(colon - s) : len;
		int code = klen == 1 || (klen == 5 && !memcmp(s, "Enter", 5)) ? key_code(s, klen) : -1;
		int drop = code == '\n' ? memmem(s, len, "call", 4) != NULL
					: code >= 0 && action_needs_calls(key_action(code));
		if (!drop) {
			if (o > out)
				o = stpcpy(o, "  ");
			memcpy(o, s, len);
			o += len;
		}
		s += len;
		while (*s == ' ')
			s++;
	}
	*o = 0;
	return out;
}

/* A scope's time range alone ("Ir A to B"), to free: from the first of
 * the intervals it keeps to the last (timeline_range), which may end after
 * the range chosen (an interval open then), else as chosen */
static char *range_label(struct tui *t, const struct scope *s)
{
	struct scope k = { .kind = SCOPE_ALL, .ir0 = s->ir0, .ir1 = s->ir1 };
	const struct timeline *tl = tui_timeline(t);
	uint32_t a, b;
	if (tl && s->ir1) {
		timeline_range(tl, s->ir0, s->ir1, &a, &b);
		if (a < b) {
			k.ir0 = tl->start[a];
			k.ir1 = tl->end[b - 1];
		}
	}
	return scope_label(t->p, &k);
}

static void draw_header(struct tui *t)
{
	struct profile *p = t->p;
	char tot[48], line[512];
	format_count(tot, sizeof(tot), event_value(p, p->totals, t->set.sort_event));
	attron(A_REVERSE);
	move(0, 0);
	clrtoeol();
	for (int x = 0; x < t->cols; x++)
		mvaddch(0, x, ' ');
	char state[128] = "";
	if (t->live)
		t->live->state(t->live->arg, state, sizeof(state));
	snprintf(line, sizeof(line), "%s%s%s %s", state, *state ? " | " : "",
		 p->ev[t->set.sort_event].name, tot);
	int rw = (int)strlen(line);
	char what[512];
	diff_label(p, what, sizeof(what));
	tui_put(t, 0, 0, t->cols - rw - 1, what);
	mvprintw(0, t->cols - rw, "%s", line);
	attroff(A_REVERSE);
	char th[32];
	format_threshold(th, sizeof(th), t->set.threshold);
	char parts[80];
	parts_shown_label(parts, sizeof(parts), p);
	char events[256] = "";
	size_t el = 0;
	for (int k = 0; k < t->set.nshow && el + 1 < sizeof(events); k++)
		el += (size_t)snprintf(events + el, sizeof(events) - el, " %s", p->ev[t->set.show[k]].name);
	struct view *v = tui_view(t);
	const char *flt = v->filter;
	char zoom[320] = "";
	int whole = 0; /* "whole run, not ..." said */
	if (v->scope.kind != SCOPE_ALL) {
		struct scope k = v->scope; /* the kind's label: the time is said below */
		k.ir1 = 0;
		char *l = scope_label(p, &k);
		if (v->ops->scoped) {
			char pc[32];
			if (!v->zself) {
				v->zself = xcalloc((size_t)p->nreal, sizeof(cost_t));
				scope_self(p, &v->scope, v->zself);
			}
			fmt_percent(pc, sizeof(pc), event_value(p, v->zself, t->set.sort_event),
				    event_value(p, p->totals, t->set.sort_event));
			snprintf(zoom, sizeof(zoom), " | zoom: %s (self %s)", l, pc);
		} else {
			/* (the paths and one function's neighbours are of
			 * the whole run) */
			snprintf(zoom, sizeof(zoom), " | whole run, not %s", l);
			whole = 1;
		}
		free(l);
	}
	if (v->scope.ir1) {
		/* a time range: only the views with costs per interval show it */
		char *l = range_label(t, &v->scope);
		size_t zl = strlen(zoom);
		snprintf(zoom + zl, sizeof(zoom) - zl, "%s%s",
			 v->ops->timed ? " | time: " : whole ? " nor " : " | whole run, not ", l);
		free(l);
	}
	/* a time range's costs are self costs (recorded per interval), and
	 * so are a profile's without calls (query_has_calls); the functions
	 * list ordered by calls, name or file (.) says so */
	int incl = t->set.inclusive && query_has_calls(p) && !(v->scope.ir1 && v->ops->timed);
	char order[48] = "sort ";
	if (t->set.order && v->ops == &functions_ops &&
	    !(v->scope.ir1 && t->set.order == FN_BY_CALLS)) /* (a range has no calls) */
		snprintf(order, sizeof(order), "order by %s | ", fn_order_name(t->set.order));
	snprintf(line, sizeof(line), "%s%s%s%s%s | %s%s %s | threshold %s%% | %s%s%s%s | events:%s",
		 v->ops->name, zoom, flt ? " | filter /" : "", flt ? flt : "", flt ? "/" : "", order,
		 p->ev[t->set.sort_event].name,
		 incl ? "inclusive" : "self", th, parts,
		 p->ndiff ? " | difference" : "", t->set.cycles ? "" : " | cycles off: raw",
		 t->loader && t->loader->fold && *t->loader->fold ? " | f'N folded" : "", events);
	move(1, 0);
	clrtoeol();
	tui_put(t, 1, 0, t->cols, line);
}

static void draw_status(struct tui *t)
{
	move(t->lines - 1, 0);
	clrtoeol();
	if (t->message[0]) {
		/* all of it: a message longer than the line wraps onto the lines
		 * above, over the list, until the next key (the headers stay) */
		const char *line[TUI_MESSAGE_LINES];
		size_t len[TUI_MESSAGE_LINES];
		int n = 0, most = t->lines - 3 < TUI_MESSAGE_LINES ? t->lines - 3 : TUI_MESSAGE_LINES;
		for (const char *s = t->message; *s && n < most;) {
			line[n] = s;
			len[n] = n + 1 < most ? tui_wrap(t, s, t->cols) : strlen(s);
			s += len[n++];
			while (*s == ' ')
				s++;
		}
		attron(A_BOLD);
		for (int i = 0; i < n; i++) {
			char *l = xstrndup(line[i], len[i]);
			int y = t->lines - n + i;
			move(y, 0);
			clrtoeol();
			tui_put(t, y, 0, t->cols, l);
			free(l);
		}
		attroff(A_BOLD);
		return;
	}
	struct view *v = tui_view(t);
	char pos[64];
	snprintf(pos, sizeof(pos), "%d/%d", v->nrows ? v->sel + 1 : 0, v->nrows);
	char *hint = status_hint(t, v->ops->hint ? v->ops->hint : "?:help  Esc:back  q:quit");
	tui_put(t, t->lines - 1, 0, t->cols - (int)strlen(pos) - 1, hint);
	free(hint);
	mvprintw(t->lines - 1, t->cols - (int)strlen(pos), "%s", pos);
}

/* Draws rows of v in a pane: screen lines y0 .. y0+h-1, columns x0 .. x0+w-1. */
static void draw_rows(struct tui *t, struct view *v, int x0, int y0, int w, int h, int mark_sel)
{
	t->x0 = x0;
	for (int i = 0; i < h && v->top + i < v->nrows; i++) {
		int row = v->top + i, sel = mark_sel && row == v->sel;
		if (sel) {
			attron(A_REVERSE);
			for (int x = 0; x < w; x++)
				mvaddch(y0 + i, x0 + x, ' ');
		}
		v->ops->draw_row(v, row, y0 + i, w, sel);
		if (sel)
			attroff(A_REVERSE);
	}
	t->x0 = 0;
	t->slim = 0;
}

/* The detail pane: the callers and callees of the function selected in the
 * main list, beside it when the terminal is wide, below it when it is tall,
 * not at all when there is no room (or after D). */
static void draw_detail(struct tui *t, struct view *v, int *list_w)
{
	uint32_t fn = v->ops->selected_fn && v->ops != &calls_ops ? v->ops->selected_fn(v) : NO_ID;
	int side = t->cols >= 150, below = !side && t->lines >= 34;
	if (fn == NO_ID || t->detail_off || (!side && !below)) {
		t->list_h = 0;
		return;
	}
	if ((!t->detail || t->detail->fn != fn) && t->detail_prev && t->detail_prev->fn == fn) {
		struct view *d = t->detail; /* the one before: kept */
		t->detail = t->detail_prev;
		t->detail_prev = d;
	}
	if (t->detail && t->detail->fn == fn && t->detail->stale) {
		t->detail->stale = 0; /* the same function: its rows again (the
				       * view keeps what does not change) */
		t->detail->ops->update(t->detail);
	}
	if (!t->detail || t->detail->fn != fn) {
		view_free(t->detail_prev);
		t->detail_prev = t->detail;
		/* (a profile without calls: the function's costliest lines) */
		t->detail = view_new(t, query_has_calls(t->p) ? &calls_ops : &lines_ops, fn);
	}
	struct view *d = t->detail;
	int x0, y0, w, h;
	if (side) {
		*list_w = t->cols * 11 / 20;
		x0 = *list_w + 1;
		y0 = 3;
		w = t->cols - x0;
		h = t->lines - 4;
		t->list_h = h;
		for (int y = 2; y < t->lines - 1; y++) {
			if (t->utf8)
				mvaddwstr(y, *list_w, L"\u2502");
			else
				mvaddch(y, *list_w, '|');
		}
	} else {
		t->list_h = (t->lines - 5) / 2;
		x0 = 0;
		y0 = 3 + t->list_h + 1;
		w = t->cols;
		h = t->lines - 1 - y0;
		attron(A_UNDERLINE | A_BOLD);
		move(y0 - 1, 0);
		clrtoeol();
		t->x0 = x0;
		d->ops->draw_header(d, y0 - 1, w);
		t->x0 = 0;
		t->slim = 0;
		attroff(A_UNDERLINE | A_BOLD);
	}
	if (side) {
		attron(A_UNDERLINE | A_BOLD);
		t->x0 = x0;
		d->ops->draw_header(d, 2, w);
		t->x0 = 0;
		t->slim = 0;
		attroff(A_UNDERLINE | A_BOLD);
	}
	if (v->scope.ir1 && v->ops->timed && h > 1) {
		/* the list in a time range, the pane of the whole run (calls
		 * are not kept per interval): its first line says so */
		char *l = range_label(t, &v->scope), b[160];
		snprintf(b, sizeof(b), "whole run, not %s", l);
		free(l);
		move(y0, x0);
		if (!side)
			clrtoeol();
		tui_put(t, y0++, x0, w, b);
		h--;
	}
	/* all of it when it fits, else the function itself near the top */
	d->top = d->nrows <= h || d->sel < 2 ? 0 : d->sel - 2;
	draw_rows(t, d, x0, y0, w, h, 0);
}

/* Where the user is in a view: the selected row, its function, its source
 * line.  A setting that changes the rows (sort event, self/inclusive,
 * threshold, context) keeps the function or line selected. */
struct place {
	int sel, top;
	uint32_t fn;
	const char *file;
	uint32_t line;
};


static void place_get(struct view *v, struct place *pl)
{
	pl->sel = v->sel;
	pl->top = v->top;
	pl->fn = v->nrows && v->ops->selected_fn ? v->ops->selected_fn(v) : NO_ID;
	pl->file = NULL;
	if (!v->nrows || !v->ops->selected_line || !v->ops->selected_line(v, &pl->file, &pl->line))
		pl->file = NULL;
}

/* Is row r at pl's line (exact: and function), or (not exact) past it? */
static int place_at(struct view *v, int r, const struct place *pl, int exact)
{
	struct place now;
	int keep = v->sel;
	v->sel = r;
	place_get(v, &now);
	v->sel = keep;
	if (!now.file || strcmp(now.file, pl->file) != 0)
		return 0;
	return exact ? now.line == pl->line && now.fn == pl->fn : now.line >= pl->line;
}

/* the same place as pl: the same row if it still is, else the first row of
 * pl's line (or the next line shown), else of pl's function */
static void place_restore(struct view *v, const struct place *pl)
{
	struct place now;
	v->sel = pl->sel < v->nrows ? pl->sel : v->nrows - 1;
	if (v->sel < 0)
		v->sel = 0;
	place_get(v, &now);
	if (pl->file) {
		/* the same line and function (a call below a line has both): the
		 * row itself, else the first; else the line or the next one shown */
		int keep = v->sel;
		int at = place_at(v, keep, pl, 1) ? keep : -1;
		for (int exact = 1; exact >= 0 && at < 0; exact--)
			for (int r = 0; r < v->nrows && at < 0; r++)
				if (place_at(v, r, pl, exact))
					at = r;
		v->sel = at >= 0 ? at : keep;
	} else if (pl->fn != NO_ID) {
		/* the function hidden by an update before, if the user stayed on
		 * the row selected in its place; else this one */
		int again = v->lost && v->lost_in == pl->fn;
		uint32_t want = again ? v->lost_fn : pl->fn;
		int r = again ? row_of_fn(v, want) : -1;
		if (r < 0)
			r = now.fn == pl->fn ? v->sel : row_of_fn(v, pl->fn);
		if (r >= 0)
			v->sel = r;
		uint32_t in = v->nrows && v->ops->selected_fn ? v->ops->selected_fn(v) : want;
		v->lost = in != want;
		v->lost_fn = want;
		v->lost_in = in;
	}
	if (v->sel < 0)
		v->sel = 0;
	v->top = pl->top; /* the same rows shown, scrolled only to show the selection */
}

/* What an empty list says: a threshold too high, or a profile without costs
 * (a recorded program that ran another with exec: a script, a wrapper) */
static const char *empty_text(struct tui *t, struct view *v)
{
	if (v->filter) /* (trees match the rows shown: closed nodes are not searched) */
		return v->ops == &calltree_ops || v->ops == &callertree_ops
			       ? "(no open node matches the filter: | then Enter shows all)"
			       : "(no row matches the filter: | then Enter shows all)";
	for (int e = 0; e < t->p->nreal; e++)
		if (t->p->totals[e])
			return "(nothing to show: lower the threshold with -)";
	/* counting started by the program itself (cgtui.h), never started */
	for (int i = 0; i < t->p->ndesc; i++)
		if (strncmp(t->p->desc[i], "Options:", 8) == 0 &&
		    strstr(t->p->desc[i], "--instr-at-start=no"))
			return "(nothing counted: --instr-at-start=no and no "
			       "CGTUI_START_INSTRUMENTATION)";
	if (t->p->ndiff && parts_all_shown(t->p))
		return "(no difference: the two profiles have the same costs)";
	if (t->live && !t->live->running(t->live->arg))
		return "(nothing counted; a script or wrapper needs --trace-children=yes)";
	if (t->live) /* snapshots are written while it runs code, not while it waits */
		return "(nothing counted yet, or the program waits: its counts come when it runs)";
	return "(the profile has no costs)";
}

void draw(struct tui *t)
{
	erase();
	if (t->cols < MIN_COLS || t->lines < MIN_LINES) {
		tui_put(t, 0, 0, t->cols, "terminal too small");
		refresh();
		return;
	}
	struct view *v = tui_view(t);
	if (v->stale) { /* keep the user's place */
		struct place pl;
		place_get(v, &pl);
		v->stale = 0;
		v->ops->update(v);
		place_restore(v, &pl);
	}
	if (v->ops->draw) { /* a picture: the whole width, no detail pane */
		t->list_h = 0;
		list_goto(v, v->sel);
		draw_header(t);
		attron(A_UNDERLINE | A_BOLD);
		if (v->ops->draw_header)
			v->ops->draw_header(v, 2, t->cols);
		attroff(A_UNDERLINE | A_BOLD);
		v->ops->draw(v, 3, t->lines - 4, t->cols);
		draw_status(t);
		refresh();
		return;
	}
	int list_w = t->cols;
	draw_detail(t, v, &list_w);
	list_goto(v, v->sel);
	draw_header(t);
	attron(A_UNDERLINE | A_BOLD);
	if (v->ops->draw_header)
		v->ops->draw_header(v, 2, list_w);
	t->slim = 0;
	attroff(A_UNDERLINE | A_BOLD);
	draw_rows(t, v, 0, 3, list_w, list_page(t), 1);
	if (v->nrows == 0)
		tui_put(t, 3, 2, list_w - 2, empty_text(t, v));
	draw_status(t);
	refresh();
}

/* The row of v whose function is fn, or -1. */
int row_of_fn(struct view *v, uint32_t fn)
{
	if (!v->ops->selected_fn || fn == NO_ID)
		return -1;
	int keep = v->sel, found = -1;
	for (int r = 0; r < v->nrows && found < 0; r++) {
		v->sel = r;
		if (v->ops->selected_fn(v) == fn)
			found = r;
	}
	v->sel = keep;
	return found;
}

