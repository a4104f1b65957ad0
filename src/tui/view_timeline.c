/* view_timeline.c -- the timeline: the sort event's rate per interval of
 * the run (its cost in the interval per instruction of the interval), as
 * the recorder kept it beside the profile (--timeline=yes; profile/
 * timeline.h reads PROFILE.time), drawn as a sparkline for the whole run
 * and, below it, for the function the view was opened on.  A rate, not
 * the raw cost, so that intervals of different lengths compare (the last
 * one is cut short by the end of the run) and phases of a run show as
 * plateaus of misses, loads, ... per instruction.
 *
 * One column per interval (from the left; scrolled to keep the cursor in
 * sight when there are more intervals than columns), its bar as high as
 * its rate's share of the largest interval's (each sparkline its own
 * scale, said above it): ROWS rows of eighth blocks (UTF-8: 8 * ROWS
 * levels) or of '#' (ASCII: ROWS levels), rounded to the nearest level, a
 * positive value at least the lowest one.  Left and Right move a cursor
 * (a ^ under the interval) whose Ir range, costs and rates the header line
 * gives.
 * V marks one end of a time range and, again, makes the range from the
 * mark to the cursor the scope (scope.h: ir0, ir1) of a new timeline view
 * (Esc: back): a line above the sparklines gives its totals, the sums of
 * its intervals (profile/timeline.c: timeline_range_self), and the views
 * opened from it show it when their costs are kept per interval (.timed:
 * the functions' self costs) and say "whole run" when not (frame.c).
 * Without a timeline the view says how to record one.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "profile/aggregate.h"
#include "profile/format.h"
#include "profile/timeline.h"
#include "tui.h"

#define MAX_ROWS 6 /* rows of each sparkline at most */
#define LEFT 2     /* columns before the first interval */

struct tview {
	int first;          /* the first interval shown */
	int mark;           /* V: the interval marked as a range's end, or -1 */
	char text[64];      /* row_text's */
};

struct timeline *tui_timeline(struct tui *t)
{
	if (!t->tl_read) { /* (swap_profile: read again for newer data) */
		t->tl = timeline_of(t->p);
		t->tl_read = 1;
	}
	return t->tl;
}

cost_t *tui_range_self(struct view *v, uint32_t *iv0, uint32_t *iv1, cost_t *tot)
{
	struct timeline *tl = tui_timeline(v->t);
	if (!tl || !v->scope.ir1)
		return NULL;
	timeline_range(tl, v->scope.ir0, v->scope.ir1, iv0, iv1);
	const struct agg *a = profile_agg(v->t->p);
	cost_t *self = xmalloc(((size_t)agg_nent(a) + 1) * (size_t)tl->nreal * sizeof(cost_t));
	timeline_range_self(tl, *iv0, *iv1, self, tot);
	return self;
}

static struct timeline *tl_of(struct view *v)
{
	return tui_timeline(v->t);
}

static void update(struct view *v)
{
	if (!v->data) {
		struct tview *d = xcalloc(1, sizeof(struct tview));
		d->mark = -1;
		v->data = d;
	}
	struct timeline *tl = tl_of(v);
	v->nrows = tl ? (int)tl->niv : 0;
	if (v->sel >= v->nrows)
		v->sel = v->nrows ? v->nrows - 1 : 0;
}

/* The sort event's value in interval i: the whole run's (fn NO_ID) or fn's. */
static cost_t value(struct view *v, uint32_t i, uint32_t fn)
{
	const struct timeline *tl = tl_of(v);
	if (fn == NO_ID)
		return event_value(v->t->p, timeline_total(tl, i), v->t->set.sort_event);
	cost_t c[MAX_EVENTS];
	timeline_cost(tl, i, fn, c);
	return event_value(v->t->p, c, v->t->set.sort_event);
}

/* The same per instruction of the interval. */
static double rate(struct view *v, uint32_t i, uint32_t fn)
{
	return timeline_rate(tl_of(v), i, value(v, i, fn));
}

static void format_rate(char *buf, size_t n, double r)
{
	snprintf(buf, n, "%.3g", r);
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	const struct timeline *tl = tl_of(v);
	if (!tl || !tl->niv)
		return;
	uint32_t i = (uint32_t)v->sel;
	char a[48], b[48], all[48], f[48], pc[32], ra[32], rf[32], line[512];
	format_count(a, sizeof(a), (cost_t)tl->start[i]);
	format_count(b, sizeof(b), (cost_t)tl->end[i]);
	cost_t w = value(v, i, NO_ID);
	format_count(all, sizeof(all), w);
	format_rate(ra, sizeof(ra), timeline_rate(tl, i, w));
	const char *ev = t->p->ev[t->set.sort_event].name;
	snprintf(line, sizeof(line), "interval %u of %u, Ir %s to %s: %s %s, %s per Ir", i + 1,
		 tl->niv, a, b, ev, all, ra);
	int x = tui_put(t, y, 0, width, line);
	if (v->fn == NO_ID)
		return;
	/* the function's name cut where it is long, not its numbers */
	x += tui_put(t, y, x, width - x, "; ");
	cost_t c = value(v, i, v->fn);
	char *name = tui_label(t, v->fn);
	format_count(f, sizeof(f), c);
	fmt_percent(pc, sizeof(pc), c, w);
	format_rate(rf, sizeof(rf), timeline_rate(tl, i, c));
	snprintf(line, sizeof(line), " %s (%s), %s per Ir", f, pc, rf);
	tui_put_named(t, y, x, width - x, name, line);
	free(name);
}

static void glyph(int y, int x, wchar_t c)
{
	mvaddnwstr(y, x, &c, 1);
}

/* Is interval i in the range chosen (the scope's) or being chosen (from
 * the mark to the cursor)?  Drawn '-' under it. */
static int in_range(struct view *v, uint32_t i)
{
	const struct tview *d = v->data;
	if (d->mark >= 0)
		return ((int)i >= d->mark && (int)i <= v->sel) || ((int)i <= d->mark && (int)i >= v->sel);
	uint32_t a, b;
	if (!v->scope.ir1)
		return 0;
	timeline_range(tl_of(v), v->scope.ir0, v->scope.ir1, &a, &b);
	return i >= a && i < b;
}

/* One sparkline of fn (NO_ID: the whole run) with its title at y and its
 * cursor line below it; intervals first .. first + cols - 1. */
static void sparkline(struct view *v, uint32_t fn, int y, int rows, int first, int cols, int w)
{
	struct tui *t = v->t;
	const struct timeline *tl = tl_of(v);
	int u = t->utf8, levels = u ? 8 * rows : rows;
	double top = 0;
	for (uint32_t i = 0; i < tl->niv; i++) {
		double x = rate(v, i, fn);
		top = x > top ? x : top;
	}
	char tops[48], b[512];
	format_rate(tops, sizeof(tops), top);
	char *name = fn == NO_ID ? xstrdup("whole run") : tui_label(t, fn);
	snprintf(b, sizeof(b), ": %s per Ir by interval, top %s", t->p->ev[t->set.sort_event].name,
		 tops);
	tui_put_named(t, y, 0, w, name, b);
	free(name);
	for (int c = 0; c < cols; c++) {
		uint32_t i = (uint32_t)(first + c);
		double x = rate(v, i, fn);
		long lv = 0;
		if (x > 0 && top > 0) {
			lv = lround(x * levels / top);
			if (lv < 1)
				lv = 1;
		}
		for (int r = 0; r < rows; r++) { /* r: from the bottom */
			int yy = y + rows - r;
			if (u) {
				long e = lv - 8L * r;
				if (e > 0)
					glyph(yy, LEFT + c, (wchar_t)(0x2580 + (e > 8 ? 8 : e)));
			} else if (lv > r) {
				glyph(yy, LEFT + c, L'#');
			}
		}
		if ((int)i == v->sel)
			glyph(y + rows + 1, LEFT + c, L'^');
		else if (in_range(v, i))
			glyph(y + rows + 1, LEFT + c, L'-');
	}
}

/* "range 2 to 4, Ir 100 to 400: Ir 300, 1 per Ir; phase1 240
 * (80.0%), 0.8 per Ir" (the sum of its intervals) */
static void range_line(struct view *v, int y, int w)
{
	struct tui *t = v->t;
	const struct timeline *tl = tl_of(v);
	uint32_t a, b;
	cost_t tot[MAX_EVENTS];
	cost_t *self = tui_range_self(v, &a, &b, tot);
	if (!self || a == b) {
		free(self);
		tui_put(t, y, 0, w, "range: no whole interval of this timeline in it");
		return;
	}
	int ev = t->set.sort_event;
	uint64_t ir = tl->end[b - 1] - tl->start[a];
	cost_t all = event_value(t->p, tot, ev);
	char s0[48], s1[48], c[48], r[32], line[512];
	format_count(s0, sizeof(s0), (cost_t)tl->start[a]);
	format_count(s1, sizeof(s1), (cost_t)tl->end[b - 1]);
	format_count(c, sizeof(c), all);
	format_rate(r, sizeof(r), ir ? (double)all / (double)ir : 0.0);
	int n = snprintf(line, sizeof(line), "range %u to %u, Ir %s to %s: %s %s, %s per Ir",
			 a + 1, b, s0, s1, t->p->ev[ev].name, c, r);
	if (v->fn != NO_ID && n > 0 && (size_t)n < sizeof(line)) {
		cost_t f = event_value(t->p, &self[(size_t)v->fn * (size_t)t->p->nreal], ev);
		char fc[48], pc[32], *name = tui_label(t, v->fn);
		format_count(fc, sizeof(fc), f);
		fmt_percent(pc, sizeof(pc), f, all);
		format_rate(r, sizeof(r), ir ? (double)f / (double)ir : 0.0);
		snprintf(line + n, sizeof(line) - (size_t)n, "; %s %s (%s), %s per Ir", name, fc, pc, r);
		free(name);
	}
	free(self);
	tui_put(t, y, 0, w, line);
}

/* V: the mark, or the range from it to the cursor as the scope (a new
 * view: Esc goes back to the scope before). */
static void mark_range(struct view *v)
{
	struct tui *t = v->t;
	struct tview *d = v->data;
	const struct timeline *tl = tl_of(v);
	if (!tl || !tl->niv) {
		tui_message(t, "V: no timeline to choose a range in");
		return;
	}
	if (d->mark < 0) {
		d->mark = v->sel;
		tui_message(t, "range from interval %d: V again at its other end", v->sel + 1);
		return;
	}
	int a = d->mark < v->sel ? d->mark : v->sel, b = d->mark < v->sel ? v->sel : d->mark;
	d->mark = -1;
	struct scope s;
	scope_copy(&s, &v->scope);
	s.ir0 = tl->start[a];
	s.ir1 = tl->end[b];
	/* the last interval may be open (a program being recorded): the range
	 * goes to its full length, so that it keeps the interval as it grows
	 * (the header gives the Ir of the intervals kept) */
	if ((uint32_t)b + 1 == tl->niv && tl->start[b] + tl->length > s.ir1)
		s.ir1 = tl->start[b] + tl->length;
	struct view *nv = view_new_in(t, &timeline_ops, v->fn, &s);
	nv->sel = v->sel;
	tui_push(t, nv);
	struct scope now = s; /* (its label: the Ir of the intervals chosen) */
	now.ir1 = tl->end[b];
	char *l = scope_label(t->p, &now);
	tui_message(t, "%s: the timeline and the functions' self costs show it, the other views "
		       "the whole run (Esc: back)", l);
	free(l);
	scope_clear(&s);
}

static int action(struct view *v, enum action a)
{
	if (a == ACT_RANGE) {
		mark_range(v);
		return 1;
	}
	return tui_axis_action(v, a);
}

static void draw(struct view *v, int y0, int h, int w)
{
	struct tui *t = v->t;
	struct tview *d = v->data;
	const struct timeline *tl = tl_of(v);
	if (!tl) {
		tui_put(t, y0, 2, w - 2,
			t->p->ndiff ? "(no timeline in a difference)"
				    : "(no timeline: record with cgtui --timeline=yes PROGRAM)");
		return;
	}
	if (!tl->niv) {
		tui_put(t, y0, 2, w - 2, "(the timeline has no intervals)");
		return;
	}
	if (v->scope.ir1) { /* a line for the range: its totals, its intervals' sum */
		range_line(v, y0, w);
		y0++;
		h--;
	}
	int rows = (h - 5) / 2, cols = w - LEFT - 1;
	if (rows > MAX_ROWS)
		rows = MAX_ROWS;
	if (rows < 1 || cols < 1) {
		tui_put(t, y0, 0, w, "(too small to draw: the header line has the numbers)");
		return;
	}
	if ((int)tl->niv <= cols)
		d->first = 0;
	else if (v->sel < d->first)
		d->first = v->sel;
	else if (v->sel >= d->first + cols)
		d->first = v->sel - cols + 1;
	int n = (int)tl->niv - d->first < cols ? (int)tl->niv - d->first : cols;
	sparkline(v, NO_ID, y0, rows, d->first, n, w);
	if (v->fn != NO_ID)
		sparkline(v, v->fn, y0 + rows + 3, rows, d->first, n, w);
}

static const char *row_text(struct view *v, int row)
{
	struct tview *d = v->data;
	snprintf(d->text, sizeof(d->text), "interval %d", row + 1);
	return d->text;
}

static void tv_free(struct view *v)
{
	free(v->data);
	v->data = NULL;
}

const struct view_ops timeline_ops = {
	.name = "timeline",
	.hint = "Left/Right:interval  V:range  Home/End  Esc:back  s:source  8:curve  ?:help",
	.update = update,
	.draw_header = draw_header,
	.row_text = row_text,
	.action = action,
	.free = tv_free,
	.draw = draw,
	.timed = 1,
};
