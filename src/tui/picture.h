/* picture.h -- what the views that are pictures rather than lists (the call
 * graph, the call map) draw with: a grid of line cells (graphlayout.h's
 * GL_N ... bits) shown through a window that may scroll, and texts on it
 * cut the same way wherever they are scrolled.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_PICTURE_H
#define CGTUI_PICTURE_H

#include <stdint.h>

#include "tui.h"

/* A cell with this bit is a rectangle too small for a frame: shaded. */
#define PIC_SHADE 16

struct pic_rect {
	int x, y, w, h;
	int frame_only; /* reverse video on its border only */
};

/* s cut to `room` columns with an ellipsis (malloc'ed). */
char *pic_cut(struct tui *t, const char *s, int room);
/* Text s at picture column cx in at most `room` columns, on screen line y:
 * as much of it as columns sx .. sx + w of the picture show. */
void pic_put(struct tui *t, int y, int cx, int sx, int w, int room, const char *s);
/* The cells of mask (mw x mh) from (sx, sy) on screen lines y0 .. y0 + h -
 * 1, w columns from t->x0 (as the texts); sel (or NULL) in reverse video. */
void pic_lines(struct tui *t, const uint8_t *mask, int mw, int mh, int sx, int sy, int y0, int h,
	       int w, const struct pic_rect *sel);

/* The arrows: their direction (dx, dy), 1; 0 for another action. */
int pic_arrow(enum action a, int *dx, int *dy);
/* Of rectangles r[first .. n), the nearest to r[sel] in direction (dx,
 * dy), by their centres: the distance along it, `across` times the
 * distance across, 3 for each level apart (level[] or NULL); -1 if none. */
int pic_nearest(const struct pic_rect *r, const int *level, int first, int n, int sel, int dx,
		int dy, double across);

#endif
