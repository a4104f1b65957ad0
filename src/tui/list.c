/* list.c -- the one list engine every view is drawn with, the views and
 * their back/forward history, and searching and filtering rows (PCRE2).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "tui_int.h"

/* ---- the list engine ------------------------------------------------------------------ */

int list_page(struct tui *t)
{
	int h = t->list_h ? t->list_h : t->lines - 4;
	return h > 1 ? h : 1;
}

int list_seek(struct view *v, enum action a, int (*pred)(struct view *v, int row),
	      const char *what)
{
	int d = a == ACT_HOT_NEXT ? 1 : -1;
	for (int i = v->sel + d; i >= 0 && i < v->nrows; i += d)
		if (pred(v, i)) {
			list_goto(v, i);
			return 1;
		}
	tui_message(v->t, "no %s %s above the threshold", d > 0 ? "later" : "earlier", what);
	return 0;
}

void list_hottest(struct view *v, cost_t (*mag)(struct view *v, int row))
{
	int best = -1;
	cost_t bv = 0;
	for (int i = 0; i < v->nrows; i++) {
		cost_t c = mag(v, i);
		if (c >= 0 && (best < 0 || c > bv)) {
			best = i;
			bv = c;
		}
	}
	if (best >= 0)
		list_goto(v, best);
}

void tui_step_context(struct tui *t, enum action a)
{
	t->set.context += a == ACT_CTX_MORE ? 2 : -2;
	if (t->set.context < 0)
		t->set.context = 0;
	tui_message(t, "%d lines of context", t->set.context);
}

void list_goto(struct view *v, int row)
{
	if (row >= v->nrows)
		row = v->nrows - 1;
	if (row < 0)
		row = 0;
	v->sel = row;
	int h = list_page(v->t);
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + h)
		v->top = v->sel - h + 1;
	if (v->top > v->nrows - h)
		v->top = v->nrows - h;
	if (v->top < 0)
		v->top = 0;
}

int list_action(struct view *v, enum action a)
{
	switch (a) {
	case ACT_DOWN: list_move(v, 1); return 1;
	case ACT_UP: list_move(v, -1); return 1;
	case ACT_PGDN: list_page_move(v, 1); return 1;
	case ACT_PGUP: list_page_move(v, -1); return 1;
	case ACT_HOME: list_goto(v, 0); return 1;
	case ACT_END: list_goto(v, v->nrows - 1); return 1;
	default: return 0;
	}
}

void list_page_move(struct view *v, int dir)
{
	/* the view moves a whole page, the selection with it (to the first or
	 * last row at the ends) */
	int h = list_page(v->t);
	int top = v->top + dir * h, sel = v->sel + dir * h;
	if (top > v->nrows - h)
		top = v->nrows - h;
	if (top < 0)
		top = 0;
	if (sel >= v->nrows || (dir > 0 && top == v->top))
		sel = v->nrows - 1;
	if (sel < 0 || (dir < 0 && top == v->top))
		sel = 0;
	v->top = top;
	list_goto(v, sel);
}

void list_move(struct view *v, int delta)
{
	list_goto(v, v->sel + delta);
}

/* ---- views and history ---------------------------------------------------------------- */

struct view *view_new_in(struct tui *t, const struct view_ops *ops, uint32_t fn,
			 const struct scope *s)
{
	struct view *v = xcalloc(1, sizeof(*v));
	v->ops = ops;
	v->t = t;
	v->fn = fn;
	if (s)
		scope_copy(&v->scope, s);
	else
		scope_clear(&v->scope);
	ops->update(v);
	return v;
}

struct view *view_new(struct tui *t, const struct view_ops *ops, uint32_t fn)
{
	return view_new_in(t, ops, fn, t->nhist ? &tui_view(t)->scope : NULL);
}

void view_free(struct view *v)
{
	if (!v)
		return;
	if (v->ops->free)
		v->ops->free(v);
	free(v->filter);
	free(v->reveal);
	scope_clear(&v->scope);
	free(v->zself);
	free(v);
}

struct view *tui_view(struct tui *t)
{
	return t->hist[t->cur];
}

/* Shows v, dropping the forward history. */
void tui_push(struct tui *t, struct view *v)
{
	if (t->nhist) { /* drop what is ahead of the view shown */
		for (int i = t->cur + 1; i < t->nhist; i++)
			view_free(t->hist[i]);
		t->nhist = t->cur + 1;
	}
	if (t->nhist == TUI_HISTORY) {
		view_free(t->hist[0]);
		memmove(t->hist, t->hist + 1, sizeof(t->hist[0]) * (TUI_HISTORY - 1));
		t->nhist--;
	}
	t->hist[t->nhist] = v;
	t->cur = t->nhist++;
}

void tui_message(struct tui *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->message, sizeof(t->message), fmt, ap);
	va_end(ap);
}

/* After a settings change: every view kept is updated when next shown,
 * keeping its selected row where it can. */
void refresh_all(struct tui *t)
{
	for (int i = 0; i < t->nhist; i++)
		t->hist[i]->stale = 1;
	if (t->detail)
		t->detail->stale = 1;
	if (t->detail_prev)
		t->detail_prev->stale = 1;
}

/* ---- searching ------------------------------------------------------------------------ */

/* A search's or filter's expression, compiled once: caseless, multi-line
 * (^ and $ at each line of a row's text), JIT-compiled where PCRE2 can (a
 * search reads every one of 400,000 functions); NULL with *ec the error. */
static pcre2_code *pattern(const char *pat, int *ec)
{
	PCRE2_SIZE eo;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
				       PCRE2_CASELESS | PCRE2_MULTILINE, ec, &eo, NULL);
	if (re)
		(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* (else interpreted) */
	return re;
}

static pcre2_code *compile(struct tui *t, const char *pat)
{
	int ec;
	pcre2_code *re = pattern(pat, &ec);
	if (!re) {
		PCRE2_UCHAR msg[128];
		pcre2_get_error_message(ec, msg, sizeof(msg));
		tui_message(t, "bad regular expression: %s", (char *)msg);
	}
	return re;
}

static int row_matches(struct view *v, int row, const pcre2_code *re, pcre2_match_data *md)
{
	const char *s = v->ops->row_text ? v->ops->row_text(v, row) : NULL;
	return s && pcre2_match(re, (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0;
}

struct filter {
	pcre2_code *re;
	pcre2_match_data *md;
	int local; /* no match spans lines (line_local) */
};

/* Can no match of pat hold a newline, nor see past one?  Without an escape
 * (\n, \s, \R, \z ...), a class ([^x]), a group (lookarounds, (?s), verbs)
 * or a comment, PCRE2's only way to a newline is a literal one; ^ and $
 * (multi-line) are a line's ends, which are a part's ends when each line is
 * matched on its own. */
static int line_local(const char *pat)
{
	for (const unsigned char *c = (const unsigned char *)pat; *c; c++)
		if (*c < 0x20 || *c == 0x7f || strchr("\\[(#", *c))
			return 0;
	return 1;
}

struct filter *tui_filter_new(struct view *v)
{
	v->filters = 1;
	return tui_filter_of(v->filter);
}

struct filter *tui_filter_of(const char *expr)
{
	if (!expr)
		return NULL;
	int ec;
	pcre2_code *re = pattern(expr, &ec);
	if (!re)
		return NULL;
	struct filter *f = xcalloc(1, sizeof(*f));
	f->re = re;
	f->md = pcre2_match_data_create_from_pattern(re, NULL);
	f->local = line_local(expr);
	return f;
}

int tui_filter_match(struct filter *f, const char *text)
{
	return !f || pcre2_match(f->re, (PCRE2_SPTR)text, PCRE2_ZERO_TERMINATED, 0, 0, f->md,
				 NULL) >= 0;
}

int tui_filter_match_parts(struct filter *f, const char *const *part, const size_t *len, int n,
			   char **buf, size_t *cap)
{
	if (!f)
		return 1;
	if (n == 1 || f->local) {
		for (int i = 0; i < n; i++)
			if (pcre2_match(f->re, (PCRE2_SPTR)part[i], len[i], 0, 0, f->md, NULL) >= 0)
				return 1;
		return 0;
	}
	return tui_filter_match(f, tui_join_lines(part, len, n, buf, cap));
}

int tui_filter_parts_alone(const struct filter *f)
{
	return f && f->local;
}

const char *tui_join_lines(const char *const *part, const size_t *len, int n, char **buf,
			   size_t *cap)
{
	if (n == 1 && !part[0][len[0]])
		return part[0];
	size_t need = 0;
	for (int i = 0; i < n; i++)
		need += len[i] + 1;
	VEC_RESERVE(*buf, *cap, need);
	char *o = *buf;
	for (int i = 0; i < n; i++) {
		memcpy(o, part[i], len[i]);
		o += len[i];
		*o++ = i + 1 < n ? '\n' : 0;
	}
	return *buf;
}

void tui_filter_free(struct filter *f)
{
	if (!f)
		return;
	pcre2_match_data_free(f->md);
	pcre2_code_free(f->re);
	free(f);
}

void search(struct tui *t, int dir)
{
	struct view *v = tui_view(t);
	if (!t->search || !*t->search) {
		tui_message(t, "nothing searched yet (/ searches)");
		return;
	}
	pcre2_code *re = compile(t, t->search);
	if (!re)
		return;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	int wrapped = 0;
	for (int k = 1; k <= v->nrows; k++) {
		int row = ((v->sel + dir * k) % v->nrows + v->nrows) % v->nrows;
		wrapped |= dir > 0 ? row <= v->sel : row >= v->sel;
		if (row_matches(v, row, re, md)) {
			if (row == v->sel)
				tui_message(t, "/%s: this row is the only match", t->search);
			else if (wrapped)
				tui_message(t, "search wrapped to the %s", dir > 0 ? "top" : "bottom");
			list_goto(v, row);
			pcre2_match_data_free(md);
			pcre2_code_free(re);
			return;
		}
	}
	/* not among the rows: those under the threshold that match are shown */
	if (v->ops->under_shown) {
		free(v->reveal);
		v->reveal = xstrdup(t->search);
		v->ops->update(v);
		int n = v->ops->under_shown(v);
		for (int row = 0; n && row < v->nrows; row++)
			if (row_matches(v, row, re, md)) {
				list_goto(v, row);
				tui_message(t, "%d match%s under the threshold: shown", n,
					    n == 1 ? "" : "es");
				pcre2_match_data_free(md);
				pcre2_code_free(re);
				return;
			}
	}
	/* trees: only the open nodes' rows are searched */
	int groups = v->ops == &filefn_ops || v->ops == &fnfile_ops || v->ops == &objects_ops;
	if (groups || v->ops == &calltree_ops || v->ops == &callertree_ops)
		tui_message(t, "no match for /%s/ among the open nodes (Tab opens one%s)", t->search,
			    groups ? ", * all" : "");
	else
		tui_message(t, "no match for /%s/", t->search);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
}


int tui_pattern_ok(struct tui *t, const char *pat)
{
	pcre2_code *re = compile(t, pat);
	pcre2_code_free(re);
	return re != NULL;
}

int tui_axis_action(struct view *v, enum action a)
{
	if (!v->nrows)
		return 0;
	switch (a) {
	case ACT_LEFT:
		if (v->sel > 0)
			v->sel--;
		return 1;
	case ACT_RIGHT:
		if (v->sel + 1 < v->nrows)
			v->sel++;
		return 1;
	case ACT_ENTER: return 1;
	default: return 0;
	}
}
