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
 * Without a timeline the view says how to record one.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "profile/format.h"
#include "profile/timeline.h"
#include "tui.h"

#define MAX_ROWS 6 /* rows of each sparkline at most */
#define LEFT 2     /* columns before the first interval */

struct tview {
	struct timeline *tl;
	struct profile *of; /* the profile tl was read for */
	int read;           /* tried */
	int first;          /* the first interval shown */
	char text[64];      /* row_text's */
};

static struct timeline *tl_of(struct view *v)
{
	struct tview *d = v->data;
	return d ? d->tl : NULL;
}

static void update(struct view *v)
{
	if (!v->data)
		v->data = xcalloc(1, sizeof(struct tview));
	struct tview *d = v->data;
	if (!d->read || d->of != v->t->p) { /* read again for a profile loaded again */
		timeline_free(d->tl);
		d->tl = timeline_of(v->t->p);
		d->of = v->t->p;
		d->read = 1;
	}
	v->nrows = d->tl ? (int)d->tl->niv : 0;
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
	int n = snprintf(line, sizeof(line), "interval %u of %u, Ir %s to %s: %s %s, %s per Ir", i + 1,
			 tl->niv, a, b, ev, all, ra);
	if (v->fn != NO_ID && n > 0 && (size_t)n < sizeof(line)) {
		cost_t c = value(v, i, v->fn);
		char *name = tui_label(t, v->fn);
		format_count(f, sizeof(f), c);
		fmt_percent(pc, sizeof(pc), c, w);
		format_rate(rf, sizeof(rf), timeline_rate(tl, i, c));
		snprintf(line + n, sizeof(line) - (size_t)n, "; %s %s (%s), %s per Ir", name, f, pc, rf);
		free(name);
	}
	tui_put(t, y, 0, width, line);
}

static void glyph(int y, int x, wchar_t c)
{
	mvaddnwstr(y, x, &c, 1);
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
	snprintf(b, sizeof(b), "%s: %s per Ir by interval, top %s", name,
		 t->p->ev[t->set.sort_event].name, tops);
	free(name);
	tui_put(t, y, 0, w, b);
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
	}
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
	struct tview *d = v->data;
	if (d)
		timeline_free(d->tl);
	free(d);
	v->data = NULL;
}

const struct view_ops timeline_ops = {
	.name = "timeline",
	.hint = "Left/Right:interval  Home/End  Esc:back  s:source  8:curve  ?:help",
	.update = update,
	.draw_header = draw_header,
	.row_text = row_text,
	.action = tui_axis_action,
	.free = tv_free,
	.draw = draw,
};
