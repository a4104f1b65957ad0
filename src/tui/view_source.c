/* view_source.c -- the annotated source of a function's file, opened at the
 * function: per-line costs, lines under the threshold hidden but for the
 * context around costly ones (gaps shown as "-- line N --"), the calls made
 * from a line below it, line 0, lines past the end, unreadable files.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile/aggregate.h"
#include "profile/query.h"
#include "profile/format.h"
#include "profile/rank.h"
#include "source/objcode.h"
#include "source/srcannot.h"
#include "source/srcfile.h"
#include "tui.h"

enum { R_NOTE, R_LINE, R_GAP, R_CALL };

struct srow {
	int kind;
	uint32_t line;
	int has_cost;
	cost_t cost[MAX_EVENTS];
	uint32_t callee;
	enum call_kind call; /* R_CALL: the cycle rule's kind */
	cost_t count;
	char *text; /* note text, or NULL for a source line */
	int hot;    /* above the threshold */
	int part;   /* the file part it belongs to */
};

/* A function's code may come from several files (Callgrind's fi=/fe=, e.g.
 * inline functions of a header): one part per file, its primary file first
 * (the whole file's costs, as cg_annotate shows it), then the others (this
 * function's costs only). */
struct spart {
	uint32_t file;
	struct srcann a; /* its rows (src/source/srcannot.c) */
	/* a difference: its lines' costs and the calls made from them in
	 * each side alone (the same rows' A and B), when the sides are loaded
	 * (sided) */
	struct file_lines side[2];
	struct call_site *calls[2];
	int ncalls[2];
	int sided;
};

struct src {
	struct srow *r;
	int n, cap;
	struct spart *parts;
	int nparts;
	struct objcode *oc; /* the function's object, opened once (kept across updates) */
	int oc_tried;
	int warn; /* 1 + the row of the first note that a file cannot be read or is newer */
	int ev[MAX_EVENTS], nev; /* the cost columns, for the width last drawn */
	int cx;                  /* the column after them */
	int dnw;                 /* a difference's A, B, B-A: their counts' width (0: none) */
};

/* Cost columns: as many shown events as leave 68 columns for the line
 * number and 60 of the source line. */
static void layout(struct view *v, int width)
{
	struct src *s = v->data;
	s->nev = tui_event_columns(v->t, width, 68, s->ev, &s->cx);
	s->dnw = 0;
	if (s->nparts && s->parts[0].sided) { /* a difference: the sort event's A, B, B-A */
		s->dnw = tui_diff_fit(v->t, width, 8, 0);
		s->cx = tui_diff_width(v->t, s->dnw, 0);
	}
	s->cx--; /* the space after the last column is the line number's */
}

/* Part pt's lines and calls in each side alone: the whole file's, or
 * (whole 0) the function's own there */
static void side_lines(struct view *v, struct spart *pt, int whole)
{
	struct tui *t = v->t;
	if (!t->p->ndiff || !tui_side(t, 1) || !tui_side(t, 2))
		return;
	const char *name = file_name(t->p, pt->file);
	for (int k = 0; k < 2; k++) {
		struct profile *sp = t->side[k];
		uint32_t f = strtab_find(&sp->files, name, strlen(name));
		uint32_t fn = tui_side_fn(t, k + 1, v->fn);
		if (whole) {
			query_file_lines(sp, f, &pt->side[k]);
			pt->ncalls[k] = query_file_calls(sp, f, &pt->calls[k]);
		} else if (fn != NO_ID) {
			query_fn_file_lines(sp, fn, f, &pt->side[k]);
			pt->ncalls[k] = query_fn_file_calls(sp, fn, f, &pt->calls[k]);
		}
	}
	pt->sided = 1;
}

/* Line `line`'s cost of the sort event in side k's lines fl (*in: whether
 * it has one there) */
static cost_t side_line(struct tui *t, int k, const struct file_lines *fl, uint32_t line, int *in)
{
	const struct profile *sp = t->side[k];
	uint32_t lo = 0, hi = fl->n;
	while (lo < hi) { /* (ordered by line) */
		uint32_t mid = lo + (hi - lo) / 2;
		if (fl->line[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	int se = tui_side_event(t, sp, t->set.sort_event);
	*in = lo < fl->n && fl->line[lo] == line;
	return *in && se >= 0 ? event_value(sp, &fl->cost[(size_t)lo * sp->nreal], se) : 0;
}

/* The cost of the sort event of the calls of kind `kind` from line `line`
 * to the difference's function callee in side k's calls cs (*in: whether
 * there are such calls).  Only the row's kind: a plain call row takes no
 * recursive calls, which have a row of their own. */
static cost_t side_call(struct tui *t, int k, const struct call_site *cs, int n, uint32_t line,
			uint32_t callee, enum call_kind kind, int *in)
{
	const struct profile *sp = t->side[k];
	uint32_t sc = tui_side_fn(t, k + 1, callee);
	int se = tui_side_event(t, sp, t->set.sort_event);
	cost_t c = 0;
	*in = 0;
	for (int i = 0; sc != NO_ID && i < n && cs[i].line <= line; i++) /* (ordered by line) */
		if (cs[i].line == line && cs[i].callee == sc && cs[i].kind == kind) {
			*in = 1;
			c += se < 0 ? 0 : event_value(sp, cs[i].cost, se);
		}
	return c;
}

/* Row r's A, B and B-A (0: not a difference's) */
static int diff_row(struct view *v, const struct srow *r, struct tui_abd *d)
{
	struct tui *t = v->t;
	struct src *s = v->data;
	struct tui_abd self;
	if (!s->dnw || !tui_side_costs(t, v->fn, 1, &self))
		return 0;
	const struct spart *pt = &s->parts[r->part];
	memset(d, 0, sizeof(*d));
	d->d = r->has_cost ? event_value(t->p, r->cost, t->set.sort_event) : 0;
	if (r->kind == R_LINE) {
		d->a = side_line(t, 0, &pt->side[0], r->line, &d->ina);
		d->b = side_line(t, 1, &pt->side[1], r->line, &d->inb);
	} else if (r->kind == R_CALL) {
		d->a = side_call(t, 0, pt->calls[0], pt->ncalls[0], r->line, r->callee, r->call,
				 &d->ina);
		d->b = side_call(t, 1, pt->calls[1], pt->ncalls[1], r->line, r->callee, r->call,
				 &d->inb);
		d->d = d->ina || d->inb ? d->b - d->a : d->d; /* (as the sides show it) */
	}
	/* r: shares of the function's own inclusive cost in each side */
	d->atot = t->set.relative ? self.a : self.atot;
	d->btot = t->set.relative ? self.b : self.btot;
	return 1;
}

/* The function's object (ob=) for its DWARF, or NULL. */
static struct objcode *object(struct view *v, struct src *s)
{
	struct profile *p = v->t->p;
	uint32_t ob = p->fns[v->fn].obj;
	if (!s->oc_tried && ob != NO_ID && *obj_name(p, ob)) {
		char e[256];
		s->oc = objcode_open(obj_name(p, ob), e, sizeof(e));
	}
	s->oc_tried = 1;
	return s->oc;
}

static void src_free(struct view *v)
{
	struct src *s = v->data;
	if (!s)
		return;
	for (int i = 0; i < s->n; i++)
		free(s->r[i].text);
	free(s->r);
	for (int i = 0; i < s->nparts; i++) {
		srcann_free(&s->parts[i].a);
		file_lines_free(&s->parts[i].side[0]);
		file_lines_free(&s->parts[i].side[1]);
		free(s->parts[i].calls[0]);
		free(s->parts[i].calls[1]);
	}
	free(s->parts);
	objcode_free(s->oc);
	free(s);
	v->data = NULL;
}

static struct srow *add(struct src *s, int kind)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->r = xreallocarray(s->r, (size_t)s->cap, sizeof(*s->r));
	}
	struct srow *r = &s->r[s->n++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	return r;
}

static void note(struct src *s, char *text)
{
	add(s, R_NOTE)->text = text;
}

/* "???": the profile does not know the code's file */
static int unknown_file(const char *name)
{
	return !*name || strcmp(name, "???") == 0;
}

/* The notes on part k's file: not known, not readable (and where it was
 * looked for), not identical under its original names, newer than the
 * profile or the object. */
static void file_notes(struct view *v, struct src *s, int k)
{
	struct profile *p = v->t->p;
	const struct srcann *a = &s->parts[k].a;
	uint32_t ob = p->fns[v->fn].obj;
	const char *obname = ob != NO_ID && *obj_name(p, ob) ? obj_name(p, ob) : NULL;
	int before = s->n;
	switch (a->status) {
	case SA_UNKNOWN: /* (a part after the first: some of its code, not all) */
		note(s, k ? xstrdup("this code has no source file in the profile (no debug "
				    "information?)")
			  : xasprintf("%s: no source file in the profile (no debug information?)",
				      fn_name(p, v->fn)));
		if (k) /* (not a warning about the function's own file) */
			return;
		break;
	case SA_UNREADABLE:
		note(s, xasprintf("%s: cannot read it (%s); tried:", a->name, strerror(a->err)));
		for (int i = 0; i < a->tried.n; i++)
			note(s, xasprintf("  %s", a->tried.path[i]));
		note(s, xstrdup("(d adds a directory or a FROM=TO substitution)"));
		break;
	case SA_NONIDENT:
		note(s, xasprintf("%s: its original files are not identical:", a->name));
		for (size_t i = 0; i < a->norig; i++)
			note(s, xasprintf("  %s", a->orig[i]));
		break;
	case SA_OK:
		if (a->nnewer)
			note(s, xasprintf("warning: %s is newer than %s: the annotation may be wrong",
					  a->sf.path, p->sources[a->newer[0]]));
		struct stat st;
		if (obname && stat(obname, &st) == 0 && a->sf.mtime > st.st_mtime)
			note(s, xasprintf("warning: %s is newer than %s: the annotation may be wrong",
					  a->sf.path, obname));
		break;
	}
	if (s->n > before && !s->warn)
		s->warn = before + 1;
}

/* The rows of part k: the file's lines (whole: of every function, else of
 * v->fn only) above the threshold with their context, the calls below the
 * lines (srcannot.c makes them).  Returns the row of the function's entry
 * line, or -1. */
static int add_part(struct view *v, struct src *s, int k, int whole)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct spart *pt = &s->parts[k];
	struct rank_thr thr = rank_threshold(p, t->set.sort_event, t->set.threshold);
	struct srcann_opts so = { .look = &t->look, .modfile = t->loader ? t->loader->modfile : NULL,
				  .fn = whole ? NO_ID : v->fn, .entry = v->fn, .event = t->set.sort_event,
				  .thr = &thr, .context = t->set.context, .calls = 1 };
	int nw = p->nwarnings;
	if (srcann_build(&pt->a, p, pt->file, &so) == SA_UNREADABLE) {
		/* then also in the object's compilation directories (DWARF) */
		struct objcode *oc = object(v, s);
		const char *const *cd;
		int ncd = oc ? objcode_comp_dirs(oc, &cd) : 0;
		if (ncd) {
			srcann_free(&pt->a);
			so.dirs = cd;
			so.ndirs = ncd;
			srcann_build(&pt->a, p, pt->file, &so);
		}
	}
	/* the profile file changed before its lines were read again */
	for (int i = nw; i < p->nwarnings; i++)
		note(s, xasprintf("warning: %s", p->warnings[i]));
	file_notes(v, s, k);
	side_lines(v, pt, whole);
	const struct srcann *a = &pt->a;
	int sel = -1;
	for (size_t i = 0; i < a->nrows; i++) {
		const struct srcann_row *x = &a->rows[i];
		struct srow *r = add(s, x->kind == SA_CALL ? R_CALL : x->kind == SA_GAP ? R_GAP : R_LINE);
		r->part = k;
		r->line = x->line;
		if (x->cost) {
			r->has_cost = 1;
			memcpy(r->cost, x->cost, sizeof(cost_t) * (size_t)p->nreal);
		}
		switch (x->kind) {
		case SA_LINE0:
			r->text = xstrdup("<unknown (line 0)>");
			break;
		case SA_LINE:
			r->hot = x->picked && x->cost;
			break;
		case SA_PAST:
			r->text = xasprintf("<line %u is past the end of the file>", x->line);
			break;
		case SA_GAP:
			r->text = x->hi == UINT32_MAX ? xasprintf("-- line %u .. hidden --", x->line)
						      : xasprintf("-- line %u .. %u hidden --", x->line, x->hi);
			break;
		case SA_CALL:
			r->callee = x->callee;
			r->call = x->call;
			r->count = x->count;
			break;
		}
		if (i == a->first)
			sel = s->n - 1;
	}
	return sel;
}

/* What the object's DWARF says was inlined into the function, one note per
 * call site: "fold inlined into hash_all at srcprog.c:17". */
static void inline_notes(struct view *v, struct src *s)
{
	struct profile *p = v->t->p;
	struct objcode *oc = object(v, s);
	if (!oc)
		return;
	const struct inlsite **in;
	int n = objcode_inlines_in(oc, fn_name(p, v->fn), &in);
	for (int i = 0; i < n; i++) {
		const char *f = in[i]->call_file ? in[i]->call_file : "?";
		const char *b = strrchr(f, '/');
		note(s, xasprintf("  %s inlined into %s at %s:%u (DWARF)", in[i]->name,
				  in[i]->caller ? in[i]->caller : "?", b ? b + 1 : f, in[i]->call_line));
	}
	free(in);
}

static void update(struct view *v)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	int ev = t->set.sort_event;
	int keep_sel = v->data != NULL;
	struct src *old = v->data;
	/* the line selected, found again in the new rows (a threshold or r
	 * changes which rows there are) */
	uint32_t at = 0;
	int at_part = 0;
	if (old && v->sel < old->n && old->r[v->sel].kind != R_NOTE) {
		at = old->r[v->sel].line;
		at_part = old->r[v->sel].part;
	}
	struct objcode *oc = old ? old->oc : NULL;
	int oc_tried = old ? old->oc_tried : 0;
	if (old)
		old->oc = NULL; /* kept */
	src_free(v);
	struct src *s = xcalloc(1, sizeof(*s));
	v->data = s;
	s->oc = oc;
	s->oc_tried = oc_tried;

	/* the parts: the primary file, then the others by cost */
	uint32_t *files;
	cost_t *fc;
	int nf = query_fn_files(p, v->fn, &files, &fc);
	s->parts = xcalloc((size_t)nf + 1, sizeof(*s->parts));
	s->parts[s->nparts++].file = p->fns[v->fn].file;
	int *order = xmalloc(((size_t)nf + 1) * sizeof(*order));
	int no = 0;
	for (int i = 0; i < nf; i++)
		if (files[i] != p->fns[v->fn].file)
			order[no++] = i;
	for (int i = 1; i < no; i++) /* few files: insertion sort, costliest first */
		for (int k = i; k > 0; k--) {
			cost_t a = event_value(p, &fc[(size_t)order[k - 1] * p->nreal], ev);
			cost_t b = event_value(p, &fc[(size_t)order[k] * p->nreal], ev);
			if (cost_mag(b) <= cost_mag(a))
				break;
			int x = order[k];
			order[k] = order[k - 1];
			order[k - 1] = x;
		}
	if (no) {
		note(s, xasprintf("%s's code comes from %d files: its own first, then the others "
				  "(inlined code), with its costs only",
				  fn_name(p, v->fn), no + 1));
		inline_notes(v, s);
	}
	/* the whole file, as cg_annotate shows it; of "???" only the function's
	 * own costs, as the other functions there have nothing in common; with
	 * r (percentages of the function shown) only its own costs too, so that
	 * every share is of a part of it (ARCHITECTURE: no share above 100%) */
	int sel = add_part(v, s, 0,
			   !t->set.relative && !unknown_file(file_name(p, s->parts[0].file)));
	for (int i = 0; i < no; i++) {
		struct spart *pt = &s->parts[s->nparts++];
		pt->file = files[order[i]];
		char num[48];
		format_count(num, sizeof(num), event_value(p, &fc[(size_t)order[i] * p->nreal], ev));
		note(s, xasprintf("== %s: %s %s of %s's code from this file ==", file_name(p, pt->file),
				  num, p->ev[ev].name, fn_name(p, v->fn)));
		add_part(v, s, s->nparts - 1, 0);
	}
	free(order);
	free(files);
	free(fc);
	v->nrows = s->n;
	if (keep_sel && at)
		for (int i = 0; i < s->n; i++)
			if (s->r[i].kind == R_LINE && s->r[i].part == at_part && s->r[i].line >= at) {
				list_goto(v, i);
				break;
			}
	if (!keep_sel && sel >= 0) {
		v->sel = sel;
		/* from the first row (the notes) when the function's line is on
		 * that page too, else with three rows above it */
		v->top = sel < list_page(t) - 3 ? 0 : sel - 3;
	}
	/* a file that cannot be read or is newer than the profile: said on the
	 * status line too when the view opens, as the note may be above the page */
	if (!keep_sel && s->warn)
		tui_message(t, "%s", s->r[s->warn - 1].text);
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct src *s = v->data;
	layout(v, width);
	if (s->dnw)
		tui_diff_header(t, y, 0, s->dnw, 0, "Self");
	else
		tui_event_headers(t, y, s->ev, s->nev);
	char *h = xasprintf("  Line  %s (%s%s)", file_name(p, p->fns[v->fn].file),
			    t->set.relative ? "only " : "", fn_name(p, v->fn));
	tui_put(t, y, s->cx, width - s->cx, h);
	free(h);
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct src *s = v->data;
	struct srow *r = &s->r[row];
	layout(v, width);
	int cx = s->cx;
	switch (r->kind) {
	case R_NOTE:
		attron(A_BOLD);
		tui_put(t, y, 0, width, r->text);
		attroff(A_BOLD);
		return;
	case R_GAP:
		tui_put(t, y, cx + 1, width - cx - 1, r->text);
		return;
	case R_CALL: {
		char kt[32];
		int w = s->dnw ? cx : tui_cost_width(t, s->ev[0]);
		struct tui_abd d;
		if (call_kind_costed(r->call) && diff_row(v, r, &d))
			tui_diff_cells(t, y, 0, s->dnw, 0, &d);
		else if (call_kind_costed(r->call))
			tui_cost_cells(v, y, s->ev, s->nev, r->cost);
		else
			tui_put_right(t, y, 0, w,
				      call_kind_text(kt, sizeof(kt), r->call,
						     agg_call_cycle_no(t->p->agg, r->callee, r->callee),
						     w));
		char *l = tui_label(t, r->callee);
		char *c = xasprintf("=> %s (%lldx)", l, (long long)r->count);
		free(l);
		struct tui_text tx;
		tui_text_begin(&tx, v, y, cx + 8, width);
		tui_text_gap(&tx, 1);
		if (!sel && t->color)
			attron(COLOR_PAIR(COL_FILE));
		tui_text_put(&tx, c);
		if (!sel && t->color)
			attroff(COLOR_PAIR(COL_FILE));
		tui_text_end(&tx);
		free(c);
		return;
	}
	default:
		break;
	}
	struct tui_abd d;
	int diff = diff_row(v, r, &d);
	if (diff && (r->has_cost || d.ina || d.inb)) {
		if (r->hot && !sel)
			attron(A_BOLD);
		tui_diff_cells(t, y, 0, s->dnw, 0, &d);
	} else if (r->has_cost && !diff) {
		if (r->hot && !sel)
			attron(A_BOLD);
		tui_cost_cells(v, y, s->ev, s->nev, r->cost);
	} else { /* (in a difference: under B-A) */
		tui_put_right(t, y, 0, diff ? cx : tui_count_width(t, s->ev[0]), ".");
	}
	char num[16];
	snprintf(num, sizeof(num), "%6u ", r->line);
	if (r->line)
		tui_put(t, y, cx + 1, 7, num);
	const struct srcfile *sf = &s->parts[r->part].a.sf;
	const char *text = r->text ? r->text
		: r->line && r->line <= sf->nlines ? sf->line[r->line - 1] : "";
	/* tabs to spaces, so the columns stay where they are */
	char buf[1024];
	size_t o = 0;
	for (const char *q = text; *q && o < sizeof(buf) - 9; q++) {
		if (*q == '\t') {
			do
				buf[o++] = ' ';
			while (o % 8);
		} else {
			buf[o++] = *q;
		}
	}
	buf[o] = 0;
	struct tui_text tx;
	tui_text_begin(&tx, v, y, cx + 8, width);
	tui_text_put(&tx, buf);
	tui_text_end(&tx);
	if (r->hot && !sel)
		attroff(A_BOLD);
}

static const char *row_text(struct view *v, int row)
{
	struct src *s = v->data;
	struct srow *r = &s->r[row];
	if (r->text)
		return r->text;
	if (r->kind == R_CALL)
		return fn_name(v->t->p, r->callee);
	const struct srcfile *sf = &s->parts[r->part].a.sf;
	return r->line && r->line <= sf->nlines ? sf->line[r->line - 1] : "";
}

/* On a call row, its callee; on a line that makes calls, the first of them
 * (Enter follows the call); else the function shown. */
static uint32_t selected_fn(struct view *v)
{
	struct src *s = v->data;
	if (!v->nrows)
		return v->fn;
	const struct srow *r = &s->r[v->sel];
	if (r->kind == R_CALL)
		return r->callee;
	if (r->kind == R_LINE && v->sel + 1 < v->nrows && r[1].kind == R_CALL &&
	    r[1].line == r->line && r[1].part == r->part)
		return r[1].callee;
	return v->fn;
}

static int selected_line(struct view *v, const char **file, uint32_t *line)
{
	struct src *s = v->data;
	if (!v->nrows || s->r[v->sel].kind == R_NOTE || !s->r[v->sel].line)
		return 0;
	*file = file_name(v->t->p, s->parts[s->r[v->sel].part].file);
	*line = s->r[v->sel].line;
	return 1;
}

static cost_t row_mag(struct view *v, int i)
{
	struct src *s = v->data;
	if (s->r[i].kind != R_LINE || !s->r[i].has_cost)
		return -1;
	return (cost_t)cost_mag(event_value(v->t->p, s->r[i].cost, v->t->set.sort_event));
}

static int hot_row(struct view *v, int i)
{
	struct src *s = v->data;
	return s->r[i].kind == R_LINE && s->r[i].hot;
}

static int action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	switch (a) {
	case ACT_HOTTEST:
		list_hottest(v, row_mag);
		return 1;
	case ACT_HOT_NEXT:
	case ACT_HOT_PREV:
		list_seek(v, a, hot_row, "line");
		return 1;
	case ACT_CTX_MORE:
	case ACT_CTX_LESS:
		tui_step_context(t, a);
		v->ops->update(v); /* on the line selected */
		return 1;
	default:
		return 0;
	}
}

const struct view_ops source_ops = {
	.name = "source",
	.hint = "H:hottest  ]/[:next/previous hot line  {/}:context  Enter:the call  Esc:back  ?:help",
	.update = update,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.selected_line = selected_line,
	.action = action,
	.free = src_free,
	.scrolls = 1,
};
