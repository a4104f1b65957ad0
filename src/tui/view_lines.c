/* view_lines.c -- a function's costliest source lines, costliest first:
 * what the detail pane shows for a profile without calls (Cachegrind's),
 * where callers and callees would be empty.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/format.h"
#include "profile/query.h"
#include "profile/rank.h"
#include "tui.h"

struct lrow {
	uint32_t file, line;
	const cost_t *cost;
};

struct lines {
	struct lrow *r;
	int n;
	struct file_lines *fl; /* one per file the function's costs are in */
	int nfl;
	char *text;            /* the last row_text */
};

static void lines_free(struct view *v)
{
	struct lines *l = v->data;
	if (!l)
		return;
	for (int i = 0; i < l->nfl; i++)
		file_lines_free(&l->fl[i]);
	free(l->fl);
	free(l->r);
	free(l->text);
	free(l);
	v->data = NULL;
}

static int cmp_row(const void *x, const void *y, void *arg)
{
	struct tui *t = arg;
	const struct lrow *a = x, *b = y;
	cost_t va = event_value(t->p, a->cost, t->set.sort_event);
	cost_t vb = event_value(t->p, b->cost, t->set.sort_event);
	struct rank_key ka = { &va, file_name(t->p, a->file), a->line };
	struct rank_key kb = { &vb, file_name(t->p, b->file), b->line };
	struct rank_order o = { NULL, 1, RANK_VIEW };
	return rank_cmp(&ka, &kb, &o);
}

static void update(struct view *v)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	lines_free(v);
	struct lines *l = xcalloc(1, sizeof(*l));
	v->data = l;
	v->nrows = 0;
	if (v->fn == NO_ID || v->fn >= p->nfns)
		return;
	uint32_t *files;
	cost_t *fc;
	l->nfl = query_fn_files(p, v->fn, &files, &fc);
	l->fl = xcalloc((size_t)l->nfl + 1, sizeof(*l->fl));
	struct rank_thr thr = rank_threshold(p, t->set.sort_event, t->set.threshold);
	int cap = 0;
	for (int i = 0; i < l->nfl; i++) {
		query_fn_file_lines(p, v->fn, files[i], &l->fl[i]);
		for (uint32_t k = 0; k < l->fl[i].n; k++) {
			const cost_t *c = &l->fl[i].cost[(size_t)k * p->nreal];
			if (!rank_shown(&thr, event_value(p, c, t->set.sort_event)))
				continue;
			VEC_RESERVE(l->r, cap, l->n + 1);
			l->r[l->n++] = (struct lrow){ files[i], l->fl[i].line[k], c };
		}
	}
	free(files);
	free(fc);
	if (l->n > 1)
		qsort_r(l->r, (size_t)l->n, sizeof(*l->r), cmp_row, t);
	v->nrows = l->n;
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	tui_fit_names(t, width, 1, 1);
	int cw = tui_cost_width(t, t->set.sort_event);
	char b[64];
	snprintf(b, sizeof(b), "Self %s", t->p->ev[t->set.sort_event].name);
	tui_put_right(t, y, 0, cw, b);
	char *l = tui_label(t, v->fn);
	char *h = xasprintf("Costliest lines of %s", l);
	tui_put(t, y, cw + 2, width - cw - 2, h);
	free(h);
	free(l);
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	const struct lrow *r = &((struct lines *)v->data)->r[row];
	tui_fit_names(t, width, 1, 1);
	int ev = t->set.sort_event, cw = tui_cost_width(t, ev);
	tui_cost_cell_ev(t, y, 0, cw, event_value(p, r->cost, ev), event_value(p, tui_totals(v), ev), ev);
	char *s = xasprintf("%s:%u", file_name(p, r->file), r->line);
	struct tui_text c;
	tui_text_begin(&c, v, y, cw + 2, width);
	tui_text_put(&c, s);
	tui_text_end(&c);
	free(s);
	(void)sel;
}

static const char *row_text(struct view *v, int row)
{
	struct lines *l = v->data;
	free(l->text);
	l->text = xasprintf("%s:%u", file_name(v->t->p, l->r[row].file), l->r[row].line);
	return l->text;
}

static int selected_line(struct view *v, const char **file, uint32_t *line)
{
	struct lines *l = v->data;
	if (!v->nrows)
		return 0;
	*file = file_name(v->t->p, l->r[v->sel].file);
	*line = l->r[v->sel].line;
	return 1;
}

const struct view_ops lines_ops = {
	.name = "costliest lines",
	.hint = "s:source  Esc:back  ?:help",
	.update = update,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_line = selected_line,
	.free = lines_free,
	.scrolls = 1,
};
