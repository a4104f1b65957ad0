/* srcannot.c -- the annotated rows of a source file; see srcannot.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "srcannot.h"
#include "profile/modname.h"
#include "profile/query.h"
#include "profile/rank.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "???" or nothing: the profile does not know the code's file */
static int unknown_file(const char *name)
{
	return !*name || strcmp(name, "???") == 0;
}

static struct srcann_row *row(struct srcann *a, size_t *cap, enum srcann_kind kind, uint32_t line)
{
	VEC_RESERVE(a->rows, *cap, a->nrows + 1);
	struct srcann_row *r = &a->rows[a->nrows++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->line = line;
	return r;
}

/* The rows of the calls made from `line` (cs ordered by line; *c moves on). */
static void call_rows(struct srcann *a, size_t *cap, const struct call_site *cs, int ncs, int *c,
		      uint32_t line)
{
	while (*c < ncs && cs[*c].line < line)
		(*c)++;
	for (; *c < ncs && cs[*c].line == line; (*c)++) {
		struct srcann_row *q = row(a, cap, SA_CALL, line);
		q->callee = cs[*c].callee;
		q->call = cs[*c].kind;
		q->count = cs[*c].count;
		q->cost = cs[*c].cost;
	}
}

/* Finds the file under its original names (see srcannot.h). */
static void find_file(struct srcann *a, struct profile *p, const struct srcann_opts *o)
{
	size_t n = o->modfile ? modname_originals(o->modfile, a->name, &a->orig) : 0;
	if (!n) {
		if (o->modfile)
			free(a->orig);
		a->orig = xmalloc(sizeof(*a->orig));
		a->orig[0] = a->name;
		n = 1;
	}
	a->norig = n;
	if (unknown_file(a->name)) {
		a->status = SA_UNKNOWN;
		return;
	}
	/* as cg_annotate: each pair of neighbours compared in turn,
	 * unreadable as soon as one cannot be read, not identical as soon as
	 * two differ */
	struct srcfile *src = xcalloc(n, sizeof(*src));
	a->status = SA_OK;
	size_t got = 0;
	for (size_t i = 0; i < n && a->status == SA_OK; i++, got++) {
		if ((a->err = srcfile_find(&src[i], a->orig[i], o->look, o->dirs, o->ndirs,
					   &a->tried))) {
			a->status = SA_UNREADABLE;
		} else if (i > 0) {
			int same = files_identical(src[i - 1].path, src[i].path);
			a->err = same < 0 ? errno : 0;
			a->status = same < 0 ? SA_UNREADABLE : same ? SA_OK : SA_NONIDENT;
		}
	}
	if (a->status == SA_OK) {
		/* identical: as old as the oldest of them */
		a->mtime_ns = src[0].mtime_ns;
		for (size_t i = 1; i < n; i++)
			if (src[i].mtime_ns < a->mtime_ns)
				a->mtime_ns = src[i].mtime_ns;
		for (int i = 0; i < p->nsources; i++) {
			int64_t data;
			if (file_mtime_ns(p->sources[i], &data) < 0)
				data = (int64_t)p->source_mtime[i] * 1000000000;
			if (a->mtime_ns > data) {
				a->newer = xreallocarray(a->newer, (size_t)a->nnewer + 1, sizeof(*a->newer));
				a->newer[a->nnewer++] = i;
			}
		}
		a->sf = src[0];
		memset(&src[0], 0, sizeof(src[0]));
	}
	for (size_t i = 0; i < got && i < n; i++)
		srcfile_free(&src[i]);
	free(src);
}

/* The first line fn's costs name in file (its entry: callgrind writes it
 * first), 0 if none. */
static uint32_t entry_line(struct profile *p, uint32_t fn, uint32_t file)
{
	struct line_iter it;
	profile_need_lines(p, fn);
	for (line_iter_fn(&it, &p->ls, fn); line_iter_next(&it);)
		if (it.file == file && it.line)
			return it.line;
	return 0;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

enum srcann_status srcann_build(struct srcann *a, struct profile *p, uint32_t file,
				const struct srcann_opts *o)
{
	memset(a, 0, sizeof(*a));
	a->name = file_name(p, file);
	a->first = SIZE_MAX;
	find_file(a, p, o);
	int nr = p->nreal;
	struct file_lines fl;
	if (o->fn == NO_ID)
		query_file_lines(p, file, &fl);
	else
		query_fn_file_lines(p, o->fn, file, &fl);
	a->lines = fl.line;
	a->pool = fl.cost;
	a->ncost = fl.n;
	struct call_site *cs = NULL;
	int ncs = o->calls || o->thr ? query_fn_file_calls(p, o->fn, file, &cs) : 0;

	/* the lines picked */
	uint32_t *pick = xmalloc(((size_t)fl.n + (size_t)ncs + 2) * sizeof(*pick));
	size_t np = 0;
	for (uint32_t i = 0; i < fl.n; i++) {
		if (!fl.line[i])
			continue;
		cost_t c = event_value(p, &fl.cost[(size_t)i * nr], o->event);
		if (!o->thr || (c != 0 && rank_shown(o->thr, c)))
			pick[np++] = fl.line[i];
	}
	for (int i = 0; o->thr && i < ncs; i++) {
		cost_t c = event_value(p, cs[i].cost, o->event);
		if (cs[i].line && call_kind_costed(cs[i].kind) && c != 0 && rank_shown(o->thr, c))
			pick[np++] = cs[i].line;
	}
	uint32_t entry = o->entry != NO_ID ? entry_line(p, o->entry, file) : 0;
	if (entry)
		pick[np++] = entry;
	if (np > 1)
		qsort(pick, np, sizeof(*pick), cmp_u32);
	size_t w = 0; /* once each */
	for (size_t i = 0; i < np; i++)
		if (!w || pick[w - 1] != pick[i])
			pick[w++] = pick[i];
	np = w;
	a->picked_any = np > 0;

	/* the ranges, as cg_annotate makes them: a picked line and `context`
	 * lines either side, joined with the next when they meet; without the
	 * file's text, no context.  Those that start past the end are none. */
	int readable = a->status == SA_OK;
	long ctx = readable && o->context > 0 ? o->context : 0;
	uint64_t end = readable ? a->sf.nlines : UINT32_MAX;
	size_t capr = 0;
	for (size_t i = 0; i < np;) {
		long lo = (long)pick[i] - ctx;
		if (lo < 1)
			lo = 1;
		size_t j = i;
		while (j + 1 < np && (long)pick[j] + 2 * ctx >= (long)pick[j + 1])
			j++;
		uint64_t hi = (uint64_t)pick[j] + (uint64_t)ctx;
		i = j + 1;
		if ((uint64_t)lo > end)
			break;
		VEC_RESERVE(a->ranges, capr, a->nranges + 1);
		a->ranges[a->nranges++] = (struct srcann_range){ (uint32_t)lo,
								 hi > UINT32_MAX ? UINT32_MAX : (uint32_t)hi };
	}

	/* the rows */
	size_t cap = 0;
	uint32_t k = 0; /* in fl */
	int c = 0;      /* in cs */
	if (fl.n && fl.line[0] == 0) {
		row(a, &cap, SA_LINE0, 0)->cost = fl.cost;
		k = 1;
	}
	while (c < ncs && cs[c].line == 0)
		c++;
	uint32_t shown_to = 0; /* the last line a range showed */
	for (size_t r = 0; r < a->nranges; r++) {
		uint32_t lo = a->ranges[r].lo, hi = a->ranges[r].hi;
		if ((uint64_t)hi > end)
			hi = (uint32_t)end;
		if (lo > shown_to + 1)
			row(a, &cap, SA_GAP, shown_to + 1)->hi = lo - 1;
		for (uint32_t l = lo; l <= hi; l++) {
			struct srcann_row *x = row(a, &cap, SA_LINE, l);
			x->range = (int)r;
			while (k < fl.n && fl.line[k] < l)
				k++;
			if (k < fl.n && fl.line[k] == l) {
				x->cost = &fl.cost[(size_t)k * nr];
				x->picked = bsearch(&l, pick, np, sizeof(*pick), cmp_u32) != NULL;
			}
			if (l == entry)
				a->first = a->nrows - 1;
			if (o->calls)
				call_rows(a, &cap, cs, ncs, &c, l);
			if (l == UINT32_MAX)
				break;
		}
		shown_to = hi;
	}
	/* to the end of the file, or without it to the last line named */
	uint32_t last = readable ? (uint32_t)a->sf.nlines : fl.n ? fl.line[fl.n - 1] : 0;
	if (last > shown_to)
		row(a, &cap, SA_GAP, shown_to + 1)->hi = last;
	/* lines the profile names past the end of the file */
	for (k = 0; readable && k < fl.n; k++) {
		if (fl.line[k] <= a->sf.nlines)
			continue;
		struct srcann_row *x = row(a, &cap, SA_PAST, fl.line[k]);
		x->cost = &fl.cost[(size_t)k * nr];
		if (fl.line[k] == entry)
			a->first = a->nrows - 1;
		if (o->calls)
			call_rows(a, &cap, cs, ncs, &c, fl.line[k]);
	}
	/* the call rows point into cs: kept */
	a->calls = cs;
	free(pick);
	return a->status;
}

void srcann_free(struct srcann *a)
{
	if (a->orig)
		free(a->orig);
	srcfile_free(&a->sf);
	srctried_free(&a->tried);
	free(a->newer);
	free(a->rows);
	free(a->ranges);
	free(a->pool);
	free(a->lines);
	free(a->calls);
	memset(a, 0, sizeof(*a));
}
