/* picture.c -- drawing the picture views' grids and texts; see picture.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "graphlayout.h"
#include "picture.h"

char *pic_cut(struct tui *t, const char *s, int room)
{
	int full = tui_width(t, s);
	if (full <= room)
		return xstrdup(s);
	const char *ell = t->utf8 ? "\u2026" : "~";
	size_t n = strlen(s), end = 0;
	char *r = xmalloc(n + 4), ch[8];
	/* whole characters while they leave a column for the ellipsis, each
	 * as wide as tui_width says (an escaped byte is four) */
	for (int used = 0; end < n && room >= 1;) {
		size_t k = 1;
		while (t->utf8 && end + k < n && k < 4 && ((unsigned char)s[end + k] & 0xc0) == 0x80 &&
		       (unsigned char)s[end] >= 0xc0)
			k++;
		memcpy(ch, s + end, k);
		ch[k] = 0;
		int w = tui_width(t, ch);
		if (used + w > room - 1)
			break;
		used += w;
		end += k;
	}
	memcpy(r, s, end);
	r[end] = 0;
	if (room >= 1)
		strcat(r, ell);
	return r;
}

void pic_put(struct tui *t, int y, int cx, int sx, int w, int room, const char *s)
{
	int skip = sx - cx;
	if (skip <= 0) {
		int r = sx + w - cx;
		tui_put(t, y, cx - sx, room < r ? room : r, s);
		return;
	}
	/* it starts left of what is shown: its tail, from the first whole
	 * character at or right of the edge */
	int full = tui_width(t, s);
	if (full <= skip)
		return;
	for (const char *q = s + 1; *q; q++) {
		if (t->utf8 && ((unsigned char)*q & 0xc0) == 0x80)
			continue;
		int rest = tui_width(t, q), at = cx + full - rest;
		if (at >= sx) {
			int r = sx + w - at, rm = room - (full - rest);
			tui_put(t, y, at - sx, rm < r ? rm : r, q);
			return;
		}
	}
}

static wchar_t glyph(struct tui *t, uint8_t m)
{
	if (m & PIC_SHADE)
		return t->utf8 ? L'\u2591' : L':';
	return gl_glyph(m, t->utf8);
}

void pic_lines(struct tui *t, const uint8_t *mask, int mw, int mh, int sx, int sy, int y0, int h,
	       int w, const struct pic_rect *sel)
{
	wchar_t line[1024];
	int n = mw - sx < w ? mw - sx : w;
	if (n > 1023)
		n = 1023;
	for (int r = 0; r < h && sy + r < mh && n > 0; r++) {
		int cy = sy + r;
		const uint8_t *row = mask + (size_t)cy * (size_t)mw + (size_t)sx;
		for (int c = 0; c < n; c++)
			line[c] = glyph(t, row[c]);
		line[n] = 0;
		mvaddnwstr(y0 + r, t->x0, line, n);
		if (!sel || cy < sel->y || cy >= sel->y + sel->h)
			continue;
		int a = sel->x - sx, b = sel->x + sel->w - sx;
		a = a < 0 ? 0 : a;
		b = b > n ? n : b;
		attron(A_REVERSE);
		if (!sel->frame_only || cy == sel->y || cy == sel->y + sel->h - 1) {
			if (b > a)
				mvaddnwstr(y0 + r, t->x0 + a, line + a, b - a);
		} else { /* the sides */
			if (sel->x - sx >= 0 && sel->x - sx < n)
				mvaddnwstr(y0 + r, t->x0 + sel->x - sx, line + sel->x - sx, 1);
			int e = sel->x + sel->w - 1 - sx;
			if (e >= 0 && e < n)
				mvaddnwstr(y0 + r, t->x0 + e, line + e, 1);
		}
		attroff(A_REVERSE);
	}
}

int pic_arrow(enum action a, int *dx, int *dy)
{
	*dx = a == ACT_LEFT ? -1 : a == ACT_RIGHT ? 1 : 0;
	*dy = a == ACT_UP ? -1 : a == ACT_DOWN ? 1 : 0;
	return *dx || *dy;
}

int pic_nearest(const struct pic_rect *r, const int *level, int first, int n, int sel, int dx,
		int dy, double across)
{
	double sx = r[sel].x + r[sel].w / 2.0, sy = r[sel].y + r[sel].h / 2.0, bd = 0;
	int best = -1;
	for (int i = first; i < n; i++) {
		if (i == sel)
			continue;
		double cx = r[i].x + r[i].w / 2.0 - sx, cy = r[i].y + r[i].h / 2.0 - sy;
		double along = dx ? cx * dx : cy * dy, off = dx ? fabs(cy) : fabs(cx);
		if (along <= 0)
			continue;
		double d = along + across * off + (level ? 3 * abs(level[i] - level[sel]) : 0);
		if (best < 0 || d < bd) {
			best = i;
			bd = d;
		}
	}
	return best;
}
