/* loading.c -- the explorer's screen while a profile loads (loading.h).
 *
 * It is the explorer's own frame (frame.c's draw: the header with the
 * profile's command and the sort event's total, the settings line, the
 * column header, the rows, the status line) around one view of the list
 * engine whose rows are the functions seen so far, ordered by the sort
 * event's self cost read so far (profile/partial.h) with the list's one
 * ordering (query_fns_lazy) and threshold (rank_threshold, of the partial
 * total; when it leaves less than a page, a page of the first ones).  The settings line names the view "loading 43% | 512 MB/s | ETA
 * 1.2 s | partial self costs": every number on it is of the part read.
 * The view is drawn over a copy of the profile's struct whose totals are
 * the partial ones; the loading profile itself is only read.
 *
 * Keys come from curses without waiting (the load goes on between two
 * progress steps): the key table's moves (j k PgDn PgUp g G), o/O for the
 * sort event, % and B; q (and Ctrl-C, read as a key: the terminal is in raw
 * mode) give up the load; the other keys say they work once it is loaded.
 * The screen is redrawn when a key came or after REFRESH_MS.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loading.h"
#include "profile/partial.h"
#include "profile/query.h"
#include "profile/rank.h"
#include "tui_int.h"

#define REFRESH_MS 200

struct loading {
	struct tui t;
	struct view *v;
	struct view_ops ops;     /* loading_ops, named with the progress */
	char name[160];
	struct profile shadow;   /* the loading profile's struct, partial totals */
	struct partial pc;
	uint32_t *fns;
	struct fn_lazy *ord;
	SCREEN *scr;
	FILE *devnull;
	double after, last_draw; /* seconds */
	int shown, headless, taken, sort_set;
	struct tui_start start;  /* the command line's settings */
	char *sort;              /* the first --sort event, or NULL */
};

static const cost_t *key_partial(const struct profile *p, uint32_t fn, void *arg)
{
	(void)p;
	return partial_self(arg, fn);
}

static struct loading *of(struct view *v)
{
	return (struct loading *)((char *)v->t - offsetof(struct loading, t));
}

static void update(struct view *v)
{
	struct loading *ls = of(v);
	const struct profile *p = &ls->shadow;
	int ev = v->t->set.sort_event;
	query_fns_lazy_free(ls->ord);
	ls->fns = xreallocarray(ls->fns, (size_t)ls->pc.nfns + 1, sizeof(*ls->fns));
	struct rank_thr thr = rank_threshold(p, ev, v->t->set.threshold);
	const cost_t *col = partial_column(&ls->pc, ev);
	size_t n = 0;
	for (uint32_t fn = 0; fn < ls->pc.nfns; fn++)
		if (rank_shown(&thr, col[fn]))
			ls->fns[n++] = fn;
	/* fewer than a page above the threshold (400,000 functions, none
	 * with 0.1% of the total): the page's worth that come first */
	if (n < (size_t)v->t->lines)
		n = partial_top(&ls->pc, p, ev, ls->fns, (size_t)v->t->lines);
	ls->ord = query_fns_lazy(p, ls->fns, n, key_partial, &ls->pc, ev);
	v->nrows = (int)n;
}

static uint32_t selected_fn(struct view *v)
{
	return v->nrows ? query_fns_at(of(v)->ord, (size_t)v->sel) : NO_ID;
}

/* the functions view's columns for a profile without calls: the sort
 * event's self cost, the other shown events while there is room, the
 * function, its file and object */
static int columns(struct view *v, int width, int *ev, int *x)
{
	struct tui *t = v->t;
	int n = 0, cw = tui_cost_width(t, t->set.sort_event);
	*x = cw + 1;
	for (int k = 0; k < t->set.nshow; k++) {
		int e = t->set.show[k], w = tui_cost_width(t, e);
		if (e == t->set.sort_event || *x + w + 1 + 30 > width)
			continue;
		ev[n++] = e;
		*x += w + 1;
	}
	return n;
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	const struct profile *p = t->p;
	int ev[MAX_EVENTS], x, n = columns(v, width, ev, &x);
	char b[64];
	snprintf(b, sizeof(b), "Self %s", p->ev[t->set.sort_event].name);
	tui_put_right(t, y, 0, tui_cost_width(t, t->set.sort_event), b);
	int cx = tui_cost_width(t, t->set.sort_event) + 1;
	for (int k = 0; k < n; k++) {
		int w = tui_cost_width(t, ev[k]);
		tui_put_right(t, y, cx, w, p->ev[ev[k]].name);
		cx += w + 1;
	}
	tui_put(t, y, x, width - x, "Function (so far)");
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct loading *ls = of(v);
	const struct profile *p = t->p;
	uint32_t fn = query_fns_at(ls->ord, (size_t)row);
	const cost_t *c = partial_self(&ls->pc, fn);
	int ev[MAX_EVENTS], x, n = columns(v, width, ev, &x);
	int se = t->set.sort_event, cw = tui_cost_width(t, se);
	tui_cost_cell_ev(t, y, 0, cw, event_value(p, c, se), event_value(p, p->totals, se), se);
	int cx = cw + 1;
	for (int k = 0; k < n; k++) {
		int w = tui_cost_width(t, ev[k]);
		tui_cost_cell(t, y, cx, w, event_value(p, c, ev[k]), event_value(p, p->totals, ev[k]));
		cx += w + 1;
	}
	struct tui_text tx;
	tui_text_begin(&tx, v, y, x, width);
	tui_text_put(&tx, fn_name(p, fn));
	tui_text_gap(&tx, 2);
	if (!sel && t->color)
		attron(COLOR_PAIR(COL_FILE));
	char *where = xasprintf("%s%s%s", file_name(p, p->fns[fn].file),
				*obj_name(p, p->fns[fn].obj) ? "  " : "", obj_name(p, p->fns[fn].obj));
	tui_text_put(&tx, where);
	free(where);
	if (!sel && t->color)
		attroff(COLOR_PAIR(COL_FILE));
	tui_text_end(&tx);
}

static const struct view_ops loading_ops = {
	.name = "loading",
	.hint = "loading: the self costs read so far  j/k/PgDn/PgUp:move  o/O:sort event  q:quit",
	.update = update,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.selected_fn = selected_fn,
	.scrolls = 1,
};

struct loading *loading_new(const struct tui_start *start, const char *sort)
{
	const char *sp = getenv("CGTUI_SCRIPT"), *ms = getenv("CGTUI_LOADSCREEN_MS");
	int headless = sp && *sp;
	if (headless && !(ms && *ms))
		return NULL;
	struct loading *ls = xcalloc(1, sizeof(*ls));
	ls->headless = headless;
	ls->after = ms && *ms ? atof(ms) / 1e3 : 0.2;
	ls->t.headless = headless;
	ls->ops = loading_ops;
	ls->ops.name = ls->name;
	ls->last_draw = -1;
	if (start)
		ls->start = *start;
	else
		ls->start.sort_event = -1;
	ls->sort = sort ? xstrndup(sort, strcspn(sort, ",")) : NULL;
	partial_init(&ls->pc);
	return ls;
}

int loading_shown(const struct loading *ls)
{
	return ls && ls->shown;
}

/* the shadow profile: the loading one's struct, with the totals so far */
static void shadow_of(struct loading *ls, const struct profile *p)
{
	partial_update(&ls->pc, p);
	ls->shadow = *p;
	ls->shadow.totals = ls->pc.totals;
	ls->shadow.agg = NULL;
	ls->t.p = &ls->shadow;
}

static int open_it(struct loading *ls)
{
	struct tui *t = &ls->t;
	t->set.nshow = ls->shadow.nreal;
	for (int e = 0; e < ls->shadow.nreal; e++)
		t->set.show[e] = e;
	t->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	t->set.cycles = 1;
	tui_config(t);
	tui_apply_start(t, &ls->start);
	int e = ls->sort ? profile_event_index(&ls->shadow, ls->sort, strlen(ls->sort)) : -1;
	if (e >= 0 && e < ls->shadow.nreal)
		t->set.sort_event = e;
	t->set.inclusive = 0; /* (self costs only, so far) */
	t->detail_off = 1;    /* (no calls yet) */
	if (t->set.sort_event >= ls->shadow.nreal)
		t->set.sort_event = 0; /* (derived events come after the load) */
	if (ls->headless) {
		if (!getenv("COLUMNS"))
			setenv("COLUMNS", "80", 1);
		if (!getenv("LINES"))
			setenv("LINES", "24", 1);
		t->script = fopen(getenv("CGTUI_SCRIPT"), "r");
		if (!t->script)
			return -1;
	}
	const char *why;
	ls->scr = tui_open_screen(t, &ls->devnull, &why);
	if (!ls->scr) {
		tui_script_close(t);
		return -1;
	}
	set_term(ls->scr);
	util_on_fatal(tui_restore_terminal); /* (out of memory, say) */
	tui_screen_modes(t);
	raw(); /* Ctrl-C as a key: a clean end whatever the loader is doing */
	timeout(0);
	getmaxyx(stdscr, t->lines, t->cols);
	ls->v = xcalloc(1, sizeof(*ls->v));
	ls->v->ops = &ls->ops;
	ls->v->t = t;
	scope_clear(&ls->v->scope);
	t->hist[0] = ls->v;
	t->nhist = 1;
	t->cur = 0;
	ls->shown = 1;
	return 0;
}

static void name_it(struct loading *ls, uint64_t done, uint64_t total, double el)
{
	const char *sep = ls->t.utf8 ? " \u00b7 " : " | ";
	double rate = el > 0 ? (double)done / el : 0;
	char eta[32] = "";
	if (total > done && rate > 0)
		snprintf(eta, sizeof(eta), "%sETA %.1f s", sep, (double)(total - done) / rate);
	snprintf(ls->name, sizeof(ls->name), "loading %d%%%s%.0f MB/s%s%spartial self costs",
		 total ? (int)((double)done * 100 / (double)total) : 0, sep, rate / 1e6, eta, sep);
}

/* a key while loading: 1 to give up the load */
static int key(struct loading *ls, int c)
{
	struct tui *t = &ls->t;
	struct view *v = ls->v;
	if (c == 3 || c == -2)
		return 1;
	if (c == KEY_RESIZE) {
		getmaxyx(stdscr, t->lines, t->cols);
		clearok(stdscr, TRUE);
		return 0;
	}
	t->message[0] = 0;
	if (list_action(v, key_action(c)))
		return 0;
	switch (key_action(c)) {
	case ACT_QUIT: return 1;
	case ACT_SORT_NEXT:
	case ACT_SORT_PREV: {
		int n = ls->shadow.nreal, d = key_action(c) == ACT_SORT_NEXT ? 1 : n - 1;
		t->set.sort_event = n ? (t->set.sort_event + d) % n : 0;
		ls->sort_set = 1;
		v->stale = 1;
		break;
	}
	case ACT_PERCENT: t->set.percent = !t->set.percent; break;
	case ACT_BARS: t->set.bars = !t->set.bars; break;
	case ACT_REDRAW: clearok(stdscr, TRUE); break;
	default:
		tui_message(t, "still loading: that key works once the profile is loaded (q quits)");
	}
	return 0;
}

/* the frame again: the rows of the costs so far, the same row selected */
static void redraw(struct loading *ls, double el)
{
	struct view *v = ls->v;
	int sel = v->sel, top = v->top;
	v->stale = 0;
	update(v);
	v->top = top;
	list_goto(v, sel); /* (fewer rows now, perhaps) */
	draw(&ls->t);
	ls->last_draw = el;
}

int loading_due(const struct loading *ls, const struct profile *p, double el)
{
	return ls && el >= ls->after && p->ls.nreal > 0 && p->nsources;
}

int loading_tick(struct loading *ls, const struct profile *p, uint64_t done, uint64_t total,
		 double el)
{
	if (!loading_due(ls, p, el))
		return 0;
	if (!ls->shown) {
		shadow_of(ls, p);
		if (open_it(ls) < 0)
			return 0;
	}
	name_it(ls, done, total, el);
	struct tui *t = &ls->t;
	if (ls->headless) { /* the script's keys, up to the next :load-on */
		shadow_of(ls, p);
		redraw(ls, el);
		for (;;) {
			int c = next_key(t);
			if (c == -3)
				return 0;
			if (key(ls, c))
				return 1;
			if (ls->v->stale)
				redraw(ls, el);
		}
	}
	int any = 0, c;
	while ((c = getch()) != ERR) {
		if (key(ls, c))
			return 1;
		any = 1;
	}
	/* the costs read since, only when drawn (the keys move in the rows
	 * as they were) */
	if (any || ls->last_draw < 0 || (el - ls->last_draw) * 1e3 >= REFRESH_MS) {
		shadow_of(ls, p);
		redraw(ls, el);
	}
	return 0;
}

void loading_done(struct loading *ls, const struct profile *p)
{
	if (!loading_shown(ls))
		return;
	shadow_of(ls, p);
	snprintf(ls->name, sizeof(ls->name), "loaded%spreparing the explorer",
		 ls->t.utf8 ? " \u00b7 " : " | ");
	if (!ls->headless)
		redraw(ls, 0);
}

void loading_handover(struct loading *ls, void **scr, FILE **script, FILE **devnull, int *sort,
		      uint32_t *fn)
{
	*scr = NULL;
	*script = *devnull = NULL;
	*sort = -1;
	*fn = NO_ID;
	if (!loading_shown(ls))
		return;
	*scr = ls->scr;
	*script = ls->t.script;
	*devnull = ls->devnull;
	*sort = ls->sort_set ? ls->t.set.sort_event : -1;
	*fn = ls->v->sel ? selected_fn(ls->v) : NO_ID;
	ls->t.script = NULL;
	ls->taken = 1;
	/* what only it needed, before the explorer makes its own (the self
	 * costs so far: 41 MB for 400,000 functions of 13 events) */
	query_fns_lazy_free(ls->ord);
	ls->ord = NULL;
	free(ls->fns);
	ls->fns = NULL;
	partial_free(&ls->pc);
}

void loading_free(struct loading *ls)
{
	if (!ls)
		return;
	if (ls->shown && !ls->taken) {
		util_on_fatal(NULL);
		endwin();
		delscreen(ls->scr);
		if (ls->devnull)
			fclose(ls->devnull);
		tui_script_close(&ls->t);
	}
	if (ls->v) {
		scope_clear(&ls->v->scope);
		free(ls->v);
	}
	query_fns_lazy_free(ls->ord);
	free(ls->fns);
	partial_free(&ls->pc);
	free(ls->sort);
	free(ls);
}
