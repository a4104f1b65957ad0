/* view_mrc.c -- the miss-ratio curve: the miss ratio of a fully associative
 * LRU cache by its size, for the selected function and for the whole run,
 * as the recorder measured it (--cache-mrc=yes; profile/mrc.h reads it).
 * Sizes on a log scale (2^0 .. 2^26 lines, shown in bytes), the miss
 * ratio from 0 to the smallest of 1, 2, 5, 10, 20, 50, 100% that holds
 * both curves; the data caches the profile simulated are marked at their
 * sizes (D1, LL; a model's L1D, L2 ...).  Left and Right choose a size,
 * whose numbers the header line gives.  A function without a curve of its
 * own (fewer sampled accesses than the recorder draws) says so, and the
 * whole run's is drawn.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "profile/format.h"
#include "profile/mrc.h"
#include "tui.h"

#define MAX_LEVELS 8
#define YLABEL 6 /* "12.5%" and the axis */

struct cview {
	char text[64]; /* row_text's */
	int chosen;    /* the first size chosen */
};

static const struct mrc_data *data_of(struct view *v)
{
	return v->t->p->ndiff ? NULL : v->t->p->mrc;
}

static const struct mrc_curve *fn_curve(struct view *v)
{
	return data_of(v) ? mrc_of_fn(v->t->p, v->fn) : NULL;
}

/* The size of 2^k lines, or of `bytes`, as "64B" "1K" "48K" "12M" "1.5G". */
static void size_text(char *b, size_t n, double bytes)
{
	static const char unit[] = "BKMGTPE";
	int u = 0;
	while (bytes >= 1024 && u < 6) {
		bytes /= 1024;
		u++;
	}
	if (bytes == floor(bytes))
		snprintf(b, n, "%.0f%c", bytes, unit[u]);
	else
		snprintf(b, n, "%.1f%c", bytes, unit[u]);
}

static void update(struct view *v)
{
	if (!v->data)
		v->data = xcalloc(1, sizeof(struct cview));
	const struct mrc_data *d = data_of(v);
	v->nrows = d ? d->nsizes : 0;
	if (!d)
		return;
	if (v->sel >= v->nrows)
		v->sel = v->nrows - 1;
	struct cview *cv = v->data;
	if (!cv->chosen) { /* at first: the first data cache's size, else 2^9 lines */
		struct mrc_level lv[1];
		int k = 9;
		if (mrc_levels(v->t->p, lv, 1) == 1)
			k = (int)lround(log2((double)lv[0].size / d->line));
		v->sel = k < 0 ? 0 : k >= d->nsizes ? d->nsizes - 1 : k;
		cv->chosen = 1;
	}
}

static void pct(char *b, size_t n, double r)
{
	if (r < 0)
		snprintf(b, n, "n/a");
	else
		snprintf(b, n, "%.2f%%", r * 100);
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	const struct mrc_data *d = data_of(v);
	if (!d || !v->nrows)
		return;
	const struct mrc_curve *c = fn_curve(v), *all = &d->total;
	int k = v->sel;
	char size[32], r[32], ra[32], mis[48], acc[48], line[512];
	size_text(size, sizeof(size), (double)d->line * (double)(1ULL << k));
	pct(ra, sizeof(ra), mrc_ratio(all, k));
	char *name = v->fn != NO_ID ? tui_label(t, v->fn) : xstrdup("the whole run");
	if (c) {
		pct(r, sizeof(r), mrc_ratio(c, k));
		format_count(mis, sizeof(mis), (cost_t)c->miss[k]);
		format_count(acc, sizeof(acc), (cost_t)c->accesses);
		snprintf(line, sizeof(line), ": at %s (2^%d lines) %s misses (%s of %s); whole run %s",
			 size, k, r, mis, acc, ra);
		tui_put_named(t, y, 0, width, name, line);
	} else {
		format_count(mis, sizeof(mis), (cost_t)all->miss[k]);
		format_count(acc, sizeof(acc), (cost_t)all->accesses);
		snprintf(line, sizeof(line), "whole run: at %s (2^%d lines) %s misses (%s of %s)", size,
			 k, ra, mis, acc);
		tui_put(t, y, 0, width, line);
	}
	free(name);
}

static void glyph(int y, int x, wchar_t c)
{
	mvaddnwstr(y, x, &c, 1);
}

/* The miss ratio at fractional size index kf (0 .. nsizes - 1) */
static double ratio_at(const struct mrc_curve *c, double kf, int n)
{
	int k = (int)kf;
	if (k >= n - 1)
		return mrc_ratio(c, n - 1);
	double f = kf - k;
	return mrc_ratio(c, k) * (1 - f) + mrc_ratio(c, k + 1) * f;
}

static void draw(struct view *v, int y0, int h, int w)
{
	struct tui *t = v->t;
	const struct mrc_data *d = data_of(v);
	if (!d) {
		tui_put(t, y0, 2, w - 2,
			t->p->ndiff ? "(no miss-ratio curves in a difference)"
				    : "(no miss-ratio curves: record with cgtui --cache-mrc=yes "
				      "PROGRAM)");
		return;
	}
	const struct mrc_curve *c = fn_curve(v), *all = &d->total;
	int n = d->nsizes, u = t->utf8;
	char b[512], s1[48], s2[48];
	/* the legend: what each mark is */
	format_count(s2, sizeof(s2), (cost_t)all->samples);
	char *name = v->fn != NO_ID ? tui_label(t, v->fn) : NULL;
	const char *dot = u ? "\u00b7" : ".";
	/* the function's name cut where it is long, not the numbers after it */
	int lx = 0;
	if (c) {
		format_count(s1, sizeof(s1), (cost_t)c->samples);
		lx = tui_put(t, y0, 0, w, u ? "\u2022 " : "* ");
		snprintf(b, sizeof(b), " (%s samples)  %s whole run (%s)", s1, dot, s2);
	} else if (name) {
		snprintf(b, sizeof(b), ": no curve of its own (fewer than %llu sampled data "
				       "accesses)  %s whole run (%s samples)",
			 (unsigned long long)(d->few_min ? d->few_min : 64), dot, s2);
	} else {
		snprintf(b, sizeof(b), "%s whole run (%s samples)", dot, s2);
	}
	lx += name ? tui_put_named(t, y0, lx, w - lx, name, b) : tui_put(t, y0, lx, w - lx, b);
	free(name);
	snprintf(b, sizeof(b), "; fully associative LRU, %u B lines%s", d->line,
		 d->threshold < d->one ? ", lines sampled" : "");
	tui_put(t, y0, lx, w - lx, b);
	/* the data caches simulated, and the main curve's ratio at their sizes */
	const struct mrc_curve *main = c ? c : all;
	struct mrc_level lv[MAX_LEVELS];
	int nl = mrc_levels(t->p, lv, MAX_LEVELS);
	size_t bl = 0;
	b[0] = 0;
	for (int i = 0; i < nl && bl < sizeof(b); i++) {
		char r[32];
		size_text(s1, sizeof(s1), (double)lv[i].size);
		double lines = (double)lv[i].size / d->line, x = mrc_ratio_at(d, main, lines);
		if (x < 0)
			snprintf(r, sizeof(r), "n/a");
		else
			snprintf(r, sizeof(r), "%.1f%%", x * 100);
		/* between two measured sizes: interpolated, "~" */
		int exact = lines == exp2(floor(log2(lines)));
		bl += (size_t)snprintf(b + bl, sizeof(b) - bl, "%s%s %s %s%s", i ? ", " : "at the caches' sizes: ",
				       lv[i].name, s1, exact ? "" : "~", r);
	}
	tui_put(t, y0 + 1, 0, w, b);

	/* the picture: a row for the caches' names, the plot, the axis, its labels */
	int ph = h - 5, pw = w - YLABEL - 1, px = YLABEL, py = y0 + 3;
	if (ph < 3 || pw < n) {
		tui_put(t, y0 + 2, 0, w, "(too small to draw: the header line has the numbers)");
		return;
	}
	/* the scale: 0 .. ymax */
	static const double steps[] = { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1 };
	double top = 0;
	for (int k = 0; k < n; k++) {
		double a = mrc_ratio(all, k), f = c ? mrc_ratio(c, k) : 0;
		top = a > top ? a : top;
		top = f > top ? f : top;
	}
	double ymax = 1;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (top <= steps[i] + 1e-12) {
			ymax = steps[i];
			break;
		}
	for (int r = 0; r < ph; r++) {
		char lab[16] = "";
		if (r == 0 || r == ph - 1 || r == (ph - 1) / 2)
			snprintf(lab, sizeof(lab), "%.3g%%", ymax * 100 * (1 - (double)r / (ph - 1)));
		tui_put_right(t, py + r, 0, YLABEL - 1, lab);
		glyph(py + r, px - 1, u ? L'\u2502' : L'|');
	}
	/* the axis: a tick at each size, labelled every second one */
	int ya = py + ph;
	glyph(ya, px - 1, u ? L'\u2514' : L'+');
	for (int x = 0; x < pw; x++)
		glyph(ya, px + x, u ? L'\u2500' : L'-');
	int last_end = -1;
	for (int k = 0; k < n; k++) {
		int x = px + (int)lround((double)k * (pw - 1) / (n - 1));
		if (k == v->sel)
			attron(A_REVERSE);
		glyph(ya, x, u ? L'\u252c' : L'+');
		if (k == v->sel)
			attroff(A_REVERSE);
		if (k % 2)
			continue;
		size_text(s1, sizeof(s1), (double)d->line * (double)(1ULL << k));
		int lw = (int)strlen(s1), at = x - lw / 2;
		if (at < 0)
			at = 0;
		if (at > last_end && at + lw <= w) {
			tui_put(t, ya + 1, at, lw, s1);
			last_end = at + lw;
		}
	}
	/* the caches' sizes: a dotted line, its name at the top */
	for (int i = 0; i < nl; i++) {
		double kf = log2((double)lv[i].size / d->line);
		if (kf < 0 || kf > n - 1)
			continue;
		int x = px + (int)lround(kf * (pw - 1) / (n - 1));
		for (int r = 0; r < ph; r++)
			glyph(py + r, x, u ? L'\u250a' : L':');
		glyph(py - 1, x, u ? L'\u250a' : L':');
		int lw = (int)strlen(lv[i].name);
		int at = x + 1 + lw <= px + pw ? x + 1 : x - lw;
		tui_put(t, py - 1, at, lw, lv[i].name);
	}
	/* the curves, the function's over the whole run's */
	for (int pass = 0; pass < 2; pass++) {
		const struct mrc_curve *cv = pass ? c : all;
		if (!cv || !cv->accesses)
			continue;
		for (int x = 0; x < pw; x++) {
			/* a size's own column shows its own value */
			double kf = (double)x * (n - 1) / (pw - 1);
			int k = (int)lround(kf);
			if (lround((double)k * (pw - 1) / (n - 1)) == x)
				kf = k;
			double r = ratio_at(cv, kf, n);
			int row = (int)lround((1 - r / ymax) * (ph - 1));
			int sel = kf == v->sel;
			if (sel)
				attron(A_REVERSE);
			glyph(py + row, px + x, pass ? (u ? L'\u2022' : L'*') : (u ? L'\u00b7' : L'.'));
			if (sel)
				attroff(A_REVERSE);
		}
	}
}

static const char *row_text(struct view *v, int row)
{
	struct cview *cv = v->data;
	snprintf(cv->text, sizeof(cv->text), "2^%d lines", row);
	return cv->text;
}

static void cv_free(struct view *v)
{
	free(v->data);
	v->data = NULL;
}

const struct view_ops mrc_ops = {
	.name = "miss-ratio curve",
	.hint = "Left/Right:cache size  Home/End  Esc:back  s:source  4:graph  ?:help",
	.update = update,
	.draw_header = draw_header,
	.row_text = row_text,
	.action = tui_axis_action,
	.free = cv_free,
	.draw = draw,
};
