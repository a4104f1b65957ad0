/* text.c -- printing profile text safely: names come from files other people
 * wrote, so control bytes, invalid UTF-8 and bidirectional controls are shown
 * escaped and never reach the terminal; widths are display widths.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "profile/aggregate.h"
#include "profile/escape.h"
#include "profile/format.h"
#include "tui.h"

#define MAXW 1024


/* "\xNN" for a byte, "\u{NNNN}" for a character */
static int put_escape(wchar_t *out, int n, int wide, unsigned v)
{
	char b[16];
	int k = wide ? snprintf(b, sizeof(b), "\\u{%x}", v) : snprintf(b, sizeof(b), "\\x%02x", v);
	for (int i = 0; i < k && n + i < MAXW; i++)
		out[n + i] = (wchar_t)b[i];
	return k;
}

/* Decodes s into printable wide characters; returns how many. */
static int decode(struct tui *t, const char *s, wchar_t *out, int *widths)
{
	int n = 0;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	size_t len = strlen(s);
	while (len && n < MAXW - 12) {
		wchar_t c;
		size_t k;
		unsigned char b = (unsigned char)*s;
		if (b < 0x80) {
			c = b;
			k = 1;
		} else if (t->utf8) {
			k = mbrtowc(&c, s, len, &st);
			if (k == (size_t)-1 || k == (size_t)-2 || k == 0) {
				memset(&st, 0, sizeof(st));
				c = 0;
				k = 1;
			}
		} else {
			c = 0;
			k = 1;
		}
		int w = c ? wcwidth(c) : -1;
		if (!c || w < 0 || iswcntrl((wint_t)c) || codepoint_unsafe((uint32_t)c)) {
			int e;
			if (c && c >= 0x80)
				e = put_escape(out, n, 1, (unsigned)c);
			else
				e = put_escape(out, n, 0, b);
			for (int i = 0; i < e; i++)
				widths[n + i] = 1;
			n += e;
		} else {
			out[n] = c;
			widths[n] = w;
			n++;
		}
		s += k;
		len -= k;
	}
	return n;
}

char *tui_label(struct tui *t, uint32_t id)
{
	return fn_label_ex(t->p, id, t->set.fold_templates ? LABEL_FOLD_TEMPLATES : 0);
}

char *tui_edge_label(struct tui *t, uint32_t id, uint32_t via)
{
	return edge_label_ex(t->p, id, via, t->set.fold_templates ? LABEL_FOLD_TEMPLATES : 0);
}

int tui_width(struct tui *t, const char *s)
{
	wchar_t w[MAXW];
	int wd[MAXW];
	int n = decode(t, s, w, wd), total = 0;
	for (int i = 0; i < n; i++)
		total += wd[i];
	return total;
}

size_t tui_wrap(struct tui *t, const char *s, int room)
{
	size_t len = strlen(s), fit = 0, blank = 0;
	char buf[MAXW];
	for (size_t i = 1; i <= len && i < sizeof(buf); i++) {
		if (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
			continue; /* (inside a UTF-8 character) */
		memcpy(buf, s, i);
		buf[i] = 0;
		if (tui_width(t, buf) > room)
			break;
		fit = i;
		if (i < len && s[i] == ' ')
			blank = i;
	}
	if (fit == len)
		return len;
	return blank ? blank : fit ? fit : 1;
}

static int put_decoded(struct tui *t, int y, int x, int width, const wchar_t *w, const int *wd,
		       int n)
{
	int total = 0;
	for (int i = 0; i < n; i++)
		total += wd[i];
	int cut = total > width;
	int room = cut ? width - 1 : width; /* one column for the ellipsis */
	int used = 0, k = 0;
	while (k < n && used + wd[k] <= room) {
		used += wd[k];
		k++;
	}
	x += t->x0;
	if (room > 0 && k > 0)
		mvaddnwstr(y, x, w, k);
	if (cut && width > 0) {
		if (t->utf8)
			mvaddwstr(y, x + used, L"\u2026");
		else
			mvaddch(y, x + used, '~');
		used++;
	}
	return used;
}

int tui_put(struct tui *t, int y, int x, int width, const char *s)
{
	if (width <= 0)
		return 0;
	wchar_t w[MAXW];
	int wd[MAXW];
	int n = decode(t, s, w, wd);
	return put_decoded(t, y, x, width, w, wd, n);
}

void tui_text_begin(struct tui_text *c, struct view *v, int y, int x, int end)
{
	c->t = v->t;
	c->y = y;
	c->x = c->start = x;
	c->end = end;
	c->skip = c->scrolled = v->hscroll;
}

int tui_text_put(struct tui_text *c, const char *s)
{
	wchar_t w[MAXW];
	int wd[MAXW];
	int n = decode(c->t, s, w, wd), k = 0;
	while (k < n && c->skip > 0)
		c->skip -= wd[k++];
	if (c->skip < 0) { /* a wide character cut in half: a blank for its half */
		c->x -= c->skip;
		c->skip = 0;
	}
	if (k == n || c->x >= c->end)
		return 0;
	int used = put_decoded(c->t, c->y, c->x, c->end - c->x, w + k, wd + k, n - k);
	c->x += used;
	return used;
}

void tui_text_gap(struct tui_text *c, int n)
{
	if (c->skip >= n) {
		c->skip -= n;
		return;
	}
	c->x += n - c->skip;
	c->skip = 0;
}

int tui_text_room(const struct tui_text *c)
{
	return c->end - c->x + c->skip;
}

void tui_text_end(struct tui_text *c)
{
	if (!c->scrolled || c->start >= c->end)
		return;
	/* the mark of text left out, where the column starts */
	if (c->t->utf8)
		mvaddwstr(c->y, c->t->x0 + c->start, L"\u2026");
	else
		mvaddch(c->y, c->t->x0 + c->start, '~');
}

int tui_put_right(struct tui *t, int y, int x, int width, const char *s)
{
	int w = tui_width(t, s);
	if (w < width)
		x += width - w;
	return tui_put(t, y, x, width, s);
}

int tui_put_named(struct tui *t, int y, int x, int width, const char *name, const char *rest)
{
	int rw = tui_width(t, rest), nw = tui_width(t, name);
	/* the name keeps 8 columns at least (all of a shorter one): a rest
	 * wider than what is left is cut at its end */
	int room = width - rw, keep = nw < 8 ? nw : 8;
	if (room < keep)
		room = keep < width ? keep : width;
	int used = tui_put(t, y, x, room, name);
	return used + tui_put(t, y, x + used, width - used, rest);
}

void fmt_percent(char *b, size_t n, cost_t v, cost_t total)
{
	if (total == 0)
		snprintf(b, n, "n/a");
	else
		snprintf(b, n, "%.1f%%", (double)((long double)v * 100.0L / (long double)total));
}

/* The cells' percentages and the sort event's heat bar, as the settings
 * say, but not in a pane too narrow for them (tui_fit_names) */
static int with_percent(const struct tui *t)
{
	return t->set.percent && t->slim < 2;
}

static int with_bar(const struct tui *t, int ev)
{
	return t->set.bars && ev == t->set.sort_event && t->slim < 1;
}

void tui_fit_names(struct tui *t, int width, int fixed, int ncells)
{
	for (t->slim = 0; t->slim < 2; t->slim++)
		if (width - ncells * (tui_cost_width(t, t->set.sort_event) + 1) - fixed >= TUI_NAME_ROOM)
			break;
}

/* Columns a count needs: as many as v's digits and separators, with a
 * minus sign for a negative v. */
static int count_width(cost_t v)
{
	char b[48];
	format_count(b, sizeof(b), v);
	return (int)strlen(b);
}

int tui_cost_width(struct tui *t, int ev)
{
	const struct profile *p = t->p;
	int w = count_width(event_value(p, p->totals, ev));
	/* a difference: a function's count goes up to the larger of the two
	 * sides' totals, either way, however small the total difference (a
	 * side's parts, its threads or dumps, are the negative or positive ones) */
	uint64_t side[2] = { 0, 0 };
	for (int i = 0; p->ndiff && i < p->nparts; i++) {
		const cost_t *pt = p->parts[i].totals;
		int neg = 0;
		for (int e = 0; pt && e < p->nreal; e++)
			neg |= pt[e] < 0;
		if (pt)
			side[neg] += cost_mag(event_value(p, pt, ev));
	}
	for (int k = 0; k < 2; k++) {
		int sw = count_width(side[k] > INT64_MAX ? INT64_MIN : -(cost_t)side[k]);
		if (sw > w)
			w = sw;
	}
	if (w < 5)
		w = 5;
	return w + (with_percent(t) ? 7 : 0) + (with_bar(t, ev) ? TUI_BAR + 1 : 0);
}

int tui_count_width(struct tui *t, int ev)
{
	return tui_cost_width(t, ev) - (with_percent(t) ? 7 : 0) - (with_bar(t, ev) ? TUI_BAR + 1 : 0);
}

void tui_bar(struct tui *t, int y, int x, cost_t v, cost_t total)
{
	static const char *const eighth[8] = { "", "\u258f", "\u258e", "\u258d",
					       "\u258c", "\u258b", "\u258a", "\u2589" };
	x += t->x0;
	if (!v || !total)
		return;
	long double f = (long double)cost_mag(v) / (long double)cost_mag(total);
	if (f > 1)
		f = 1;
	int neg = v < 0 || (total < 0 && v > 0);
	int pair = neg ? COL_NEGATIVE : f >= 0.5L ? COL_BAR_HIGH : f >= 0.1L ? COL_BAR_MID : COL_BAR_LOW;
	if (t->color)
		attron(COLOR_PAIR(pair));
	if (!t->utf8) {
		int n = (int)llroundl(f * TUI_BAR);
		for (int i = 0; i < n; i++)
			mvaddch(y, neg ? x + TUI_BAR - 1 - i : x + i, '#');
	} else if (!neg) {
		int e = (int)llroundl(f * TUI_BAR * 8);
		move(y, x);
		for (int i = 0; i < e / 8; i++)
			addstr("\u2588");
		if (e % 8)
			addstr(eighth[e % 8]);
	} else { /* from the right: whole blocks, then a right half */
		int h = (int)llroundl(f * TUI_BAR * 2);
		int col = x + TUI_BAR - (h + 1) / 2;
		move(y, col);
		if (h % 2)
			addstr("\u2590");
		for (int i = 0; i < h / 2; i++)
			addstr("\u2588");
	}
	if (t->color)
		attroff(COLOR_PAIR(pair));
}

int tui_event_columns(struct tui *t, int width, int room, int *ev, int *end)
{
	int n = 0;
	ev[n++] = t->set.sort_event;
	int x = tui_cost_width(t, t->set.sort_event) + 1;
	for (int k = 0; k < t->set.nshow && n < MAX_EVENTS; k++) {
		int e = t->set.show[k];
		if (e == t->set.sort_event)
			continue;
		int w = tui_cost_width(t, e);
		if (x + w + 1 + room > width)
			break;
		ev[n++] = e;
		x += w + 1;
	}
	*end = x;
	return n;
}

void tui_event_headers(struct tui *t, int y, const int *ev, int n)
{
	int x = 0;
	for (int k = 0; k < n; k++) {
		int w = tui_cost_width(t, ev[k]);
		tui_put_right(t, y, x, w, t->p->ev[ev[k]].name);
		x += w + 1;
	}
}

const cost_t *tui_totals(struct view *v)
{
	struct profile *p = v->t->p;
	return v->t->set.relative && v->fn != NO_ID ? agg_incl(profile_agg(p), v->fn) : p->totals;
}

void tui_cost_cells(struct view *v, int y, const int *ev, int n, const cost_t *c)
{
	struct tui *t = v->t;
	const struct profile *p = t->p;
	const cost_t *tot = tui_totals(v);
	int x = 0;
	for (int k = 0; k < n; k++) {
		int w = tui_cost_width(t, ev[k]);
		tui_cost_cell_ev(t, y, x, w, event_value(p, c, ev[k]), event_value(p, tot, ev[k]),
				 ev[k]);
		x += w + 1;
	}
}

/* v in at most w columns: exactly when it fits, else rounded to thousands,
 * millions... with a k, M, G, T, P or E after it, never cut (a column is as
 * wide as the total, and a difference or a recursive call can exceed it). */
static void fit_count(char *b, size_t n, cost_t v, int w)
{
	static const char unit[] = "kMGTPE";
	format_count(b, n, v);
	long double scale = 1.0L;
	for (int u = 0; unit[u] && (int)strlen(b) > w; u++) {
		scale *= 1000.0L;
		char q[32];
		format_count(q, sizeof(q), (cost_t)llroundl((long double)v / scale));
		snprintf(b, n, "%s%c", q, unit[u]);
	}
}

void tui_fit_calls(char *b, size_t n, long long v, int w, const char *after)
{
	static const char unit[] = "kMGTPE";
	snprintf(b, n, "%lld%s", v, after);
	long double scale = 1.0L;
	for (int u = 0; unit[u] && (int)strlen(b) > w; u++) {
		scale *= 1000.0L;
		snprintf(b, n, "%lld%c%s", (long long)llroundl((long double)v / scale), unit[u], after);
	}
}

/* v's share of total in at most 6 columns: 12.3%, else 1234%, else huge% */
static void fit_percent(char *b, size_t n, cost_t v, cost_t total)
{
	fmt_percent(b, n, v, total);
	if (strlen(b) > 6 && total != 0)
		snprintf(b, n, "%.0f%%", (double)((long double)v * 100.0L / (long double)total));
	/* (the share's sign: a difference's total may be negative) */
	if (strlen(b) > 6)
		snprintf(b, n, "%shuge", (total ? (v < 0) != (total < 0) : v < 0) ? "-" : "");
}

void tui_cost_cell_ev(struct tui *t, int y, int x, int width, cost_t v, cost_t total, int ev)
{
	if (!with_bar(t, ev)) {
		tui_cost_cell(t, y, x, width, v, total);
		return;
	}
	tui_cost_cell(t, y, x, width - TUI_BAR - 1, v, total);
	tui_bar(t, y, x + width - TUI_BAR, v, total);
}

/* s right-aligned in width columns at (y, x) of the pane, in the negative
 * colour when neg */
static void put_signed(struct tui *t, int y, int x, int width, const char *s, int neg)
{
	if (neg && t->color)
		attron(COLOR_PAIR(COL_NEGATIVE));
	mvprintw(y, t->x0 + x, "%*.*s", width, width, s);
	if (neg && t->color)
		attroff(COLOR_PAIR(COL_NEGATIVE));
}

void tui_cost_cell(struct tui *t, int y, int x, int width, cost_t v, cost_t total)
{
	char c[48], pc[32] = "";
	int pct = with_percent(t), pw = pct ? 7 : 0;
	int cw = width - pw;
	fit_count(c, sizeof(c), v, cw);
	put_signed(t, y, x, cw, c, v < 0);
	if (!pct)
		return;
	if (v == 0)
		snprintf(pc, sizeof(pc), "      ");
	else
		fit_percent(pc, sizeof(pc), v, total);
	snprintf(c, sizeof(c), " %6.6s", pc);
	put_signed(t, y, x + cw, 7, c, v < 0);
}

/* ---- a difference's A, B, B-A and change -------------------------------------------------- */

/* The columns of A's and B's cells (count and share), and of B-A's (count
 * and bar), counts nw wide */
static int side_width(const struct tui *t, int nw)
{
	return nw + (with_percent(t) ? 7 : 0);
}

static int delta_width(const struct tui *t, int nw)
{
	return nw + (with_bar(t, t->set.sort_event) ? TUI_BAR + 1 : 0);
}

int tui_diff_width(const struct tui *t, int nw, int change)
{
	return 2 * (side_width(t, nw) + 1) + delta_width(t, nw) + 1 + (change ? TUI_CHANGE + 1 : 0);
}

int tui_diff_fit(struct tui *t, int width, int fixed, int change)
{
	int ev = t->set.sort_event;
	int nw = tui_count_width(t, ev);
	for (t->slim = 0; t->slim < 2; t->slim++)
		if (width - tui_diff_width(t, nw, change) - fixed >= TUI_NAME_ROOM)
			break;
	/* and then counts rounded (12,345k) rather than a name cut short */
	while (nw > 6 && width - tui_diff_width(t, nw, change) - fixed < TUI_NAME_ROOM)
		nw--;
	return nw;
}

/* the first of the texts that fits in width columns (the last if none) */
static const char *fitting(struct tui *t, int width, const char *const *s, int n)
{
	for (int i = 0; i < n - 1; i++)
		if (tui_width(t, s[i]) <= width)
			return s[i];
	return s[n - 1];
}

void tui_diff_header(struct tui *t, int y, int x, int nw, int change, const char *kind)
{
	const char *ev = t->p->ev[t->set.sort_event].name;
	int sw = side_width(t, nw), dw = delta_width(t, nw);
	for (int k = 0; k < 3; k++) {
		const char *side = k == 0 ? "A" : k == 1 ? "B" : "B-A";
		char full[96], mid[64];
		snprintf(full, sizeof(full), "%s %s %s", kind, ev, side);
		snprintf(mid, sizeof(mid), "%s %s", kind, side);
		const char *c[] = { full, mid, side };
		int w = k < 2 ? sw : dw;
		tui_put_right(t, y, x, w, fitting(t, w, c, 3));
		x += w + 1;
	}
	if (change)
		tui_put_right(t, y, x, TUI_CHANGE, "change");
}

void fmt_change(char *b, size_t n, const struct tui_abd *c)
{
	if (!c->ina && !c->inb) {
		snprintf(b, n, "%s", "");
	} else if (!c->ina) {
		snprintf(b, n, "new");
	} else if (!c->inb) {
		snprintf(b, n, "gone");
	} else if (c->a == 0) {
		snprintf(b, n, "%s", c->d ? "from 0" : "");
	} else {
		long double r = (long double)c->d * 100.0L / (long double)cost_mag(c->a);
		if (fabsl(r) < 999.95L)
			snprintf(b, n, "%+.1f%%", (double)r);
		else if (fabsl(r) < 99999.5L)
			snprintf(b, n, "%+.0f%%", (double)r);
		else
			snprintf(b, n, "%shuge", r < 0 ? "-" : "+");
	}
}

void tui_diff_cells(struct tui *t, int y, int x, int nw, int change, const struct tui_abd *c)
{
	int sw = side_width(t, nw);
	char b[48];
	/* a side without the function: blank, not a count of 0 */
	if (c->ina)
		tui_cost_cell(t, y, x, sw, c->a, c->atot);
	x += sw + 1;
	if (c->inb)
		tui_cost_cell(t, y, x, sw, c->b, c->btot);
	x += sw + 1;
	fit_count(b, sizeof(b), c->d, nw);
	put_signed(t, y, x, nw, b, c->d < 0);
	/* the change's bar: of the larger side's total (the difference's
	 * own total may be near 0) */
	if (with_bar(t, t->set.sort_event))
		tui_bar(t, y, x + nw + 1, c->d, cost_mag(c->atot) > cost_mag(c->btot) ? c->atot : c->btot);
	x += delta_width(t, nw) + 1;
	if (!change)
		return;
	fmt_change(b, sizeof(b), c);
	put_signed(t, y, x, TUI_CHANGE, b, c->d < 0);
}

