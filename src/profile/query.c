/* query.c -- callers/callees, per-line costs, call sites, orderings.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "query.h"
#include "aggregate.h"

#include <stdlib.h>
#include <string.h>

int query_edges(struct profile *p, uint32_t f, int callers, struct edge **out)
{
	const struct agg *a = profile_agg(p);
	const uint32_t *start = callers ? a->in_start : a->out_start;
	const uint32_t *idx = callers ? a->in_idx : a->out_idx;
	struct edge *ed = NULL;
	int n = 0, cap = 0;
	for (uint32_t k = start[f]; k < start[f + 1]; k++) {
		const struct call_rec *c = &p->calls[idx[k]];
		uint32_t other = callers ? c->caller : c->callee;
		int j;
		for (j = 0; j < n; j++)
			if (ed[j].fn == other)
				break;
		if (j == n) {
			VEC_RESERVE(ed, cap, n + 1);
			memset(&ed[n], 0, sizeof(ed[n]));
			ed[n].fn = other;
			n++;
		}
		ed[j].count = cost_add(ed[j].count, c->count);
		cost_t cc[MAX_EVENTS];
		call_cost(p, idx[k], cc);
		for (int e = 0; e < p->nreal; e++)
			ed[j].cost[e] = cost_add(ed[j].cost[e], cc[e]);
	}
	*out = ed;
	return n;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

struct lrec {
	uint32_t line;
	uint64_t off; /* index of its cost vector */
};

static int cmp_lrec(const void *x, const void *y)
{
	const struct lrec *a = x, *b = y;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* The lines of file in functions fns[0..nf), summed per line. */
static void lines_of(struct profile *p, const uint32_t *fns, size_t nf, uint32_t file,
		     struct file_lines *out)
{
	size_t nr = (size_t)p->nreal, n = 0, cap = 0;
	struct lrec *r = NULL;
	cost_t *pool = NULL;
	size_t poolcap = 0;
	for (size_t i = 0; i < nf; i++) {
		struct line_iter it;
		for (line_iter_fn(&it, &p->ls, fns[i]); line_iter_next(&it);) {
			if (it.file != file)
				continue;
			VEC_RESERVE(r, cap, n + 1);
			if ((n + 1) * nr > poolcap) {
				poolcap = poolcap ? poolcap * 2 : 64 * nr;
				pool = xreallocarray(pool, poolcap, sizeof(cost_t));
			}
			memcpy(&pool[n * nr], it.cost, nr * sizeof(cost_t));
			r[n].line = it.line;
			r[n].off = n;
			n++;
		}
	}
	if (n)
		qsort(r, n, sizeof(*r), cmp_lrec);
	out->line = xmalloc((n ? n : 1) * sizeof(*out->line));
	out->cost = xcalloc((n ? n : 1) * (nr ? nr : 1), sizeof(cost_t));
	uint32_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (!m || out->line[m - 1] != r[i].line) {
			out->line[m] = r[i].line;
			m++;
		}
		cost_t *d = &out->cost[(size_t)(m - 1) * nr];
		const cost_t *c = &pool[r[i].off * nr];
		for (size_t e = 0; e < nr; e++)
			d[e] = cost_add(d[e], c[e]);
	}
	out->n = m;
	free(r);
	free(pool);
}

void query_file_lines(struct profile *p, uint32_t file, struct file_lines *out)
{
	const struct agg *a = profile_agg(p);
	/* only the functions with costs in this file, each once */
	uint32_t *fns = NULL;
	size_t nf = 0;
	if (file < a->nfiles) {
		size_t m = a->file_start[file + 1] - a->file_start[file];
		fns = xmalloc((m + 1) * sizeof(*fns));
		for (uint32_t k = a->file_start[file]; k < a->file_start[file + 1]; k++)
			fns[nf++] = p->ls.ff[a->file_idx[k]].fn;
		/* each function once: sort and drop repeats (no per-call table
		 * of all functions: a report annotates many files) */
		if (nf > 1)
			qsort(fns, nf, sizeof(*fns), cmp_u32);
		size_t w = 0;
		for (size_t i = 0; i < nf; i++)
			if (!w || fns[w - 1] != fns[i])
				fns[w++] = fns[i];
		nf = w;
	}
	lines_of(p, fns, nf, file, out);
	free(fns);
}

void query_fn_file_lines(struct profile *p, uint32_t fn, uint32_t file, struct file_lines *out)
{
	lines_of(p, &fn, 1, file, out);
}

int query_fn_files(struct profile *p, uint32_t fn, uint32_t **files, cost_t **costs)
{
	uint32_t *f = NULL;
	cost_t *c = NULL;
	int n = 0, cap = 0;
	size_t nr = (size_t)p->nreal;
	struct line_iter it;
	for (line_iter_fn(&it, &p->ls, fn); line_iter_next(&it);) {
		int k;
		for (k = 0; k < n && f[k] != it.file; k++)
			;
		if (k == n) {
			if (n == cap) {
				cap = cap ? 2 * cap : 4;
				f = xreallocarray(f, (size_t)cap, sizeof(*f));
				c = xreallocarray(c, (size_t)cap * (nr ? nr : 1), sizeof(*c));
			}
			memset(&c[(size_t)n * nr], 0, nr * sizeof(*c));
			f[n++] = it.file;
		}
		for (size_t e = 0; e < nr; e++)
			c[(size_t)k * nr + e] = cost_add(c[(size_t)k * nr + e], it.cost[e]);
	}
	*files = f;
	*costs = c;
	return n;
}

void file_lines_free(struct file_lines *fl)
{
	free(fl->line);
	free(fl->cost);
	memset(fl, 0, sizeof(*fl));
}

static int cmp_site(const void *x, const void *y)
{
	const struct call_site *a = x, *b = y;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->callee < b->callee ? -1 : a->callee > b->callee;
}

int query_file_calls(const struct profile *p, uint32_t file, struct call_site **out)
{
	return query_fn_file_calls(p, NO_ID, file, out);
}

int query_fn_file_calls(const struct profile *p, uint32_t fn, uint32_t file, struct call_site **out)
{
	struct call_site *s = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t r = 0; r < p->ncalls; r++) {
		const struct call_rec *c = &p->calls[r];
		if (c->file != file || (fn != NO_ID && c->caller != fn))
			continue;
		VEC_RESERVE(s, cap, n + 1);
		memset(&s[n], 0, sizeof(s[n]));
		s[n].line = c->line;
		s[n].callee = c->callee;
		s[n].count = c->count;
		call_cost(p, r, s[n].cost);
		n++;
	}
	if (n)
		qsort(s, n, sizeof(*s), cmp_site);
	/* one entry per (line, callee) */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && s[m - 1].line == s[i].line && s[m - 1].callee == s[i].callee) {
			s[m - 1].count = cost_add(s[m - 1].count, s[i].count);
			for (int e = 0; e < p->nreal; e++)
				s[m - 1].cost[e] = cost_add(s[m - 1].cost[e], s[i].cost[e]);
		} else {
			s[m++] = s[i];
		}
	}
	*out = s;
	return (int)m;
}

struct sortctx {
	const struct profile *p;
	const cost_t *(*key)(const struct profile *p, uint32_t fn, void *arg);
	void *arg;
	int event;
};
static struct sortctx sctx;

static int cmp_fn(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	cost_t va = event_value(sctx.p, sctx.key(sctx.p, a, sctx.arg), sctx.event);
	cost_t vb = event_value(sctx.p, sctx.key(sctx.p, b, sctx.arg), sctx.event);
	if (va != vb)
		return va > vb ? -1 : 1;
	int r = strcmp(fn_name(sctx.p, a), fn_name(sctx.p, b));
	return r ? r : (a < b ? -1 : a > b);
}

void query_sort_fns(const struct profile *p, uint32_t *fns, size_t n,
		    const cost_t *(*key)(const struct profile *p, uint32_t fn, void *arg),
		    void *arg, int event)
{
	sctx = (struct sortctx){ p, key, arg, event };
	if (n > 1)
		qsort(fns, n, sizeof(*fns), cmp_fn);
}

static struct profile *order_p;
static enum fn_order order_by;

static int cmp_order(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	const struct profile *p = order_p;
	int r = 0;
	if (order_by == FN_BY_CALLS) {
		cost_t ca = p->agg->fn_ncalls[a], cb = p->agg->fn_ncalls[b];
		r = ca > cb ? -1 : ca < cb;
	} else if (order_by == FN_BY_FILE) {
		r = strcmp(file_name(p, p->fns[a].file), file_name(p, p->fns[b].file));
	}
	if (!r)
		r = strcmp(fn_name(p, a), fn_name(p, b));
	return r ? r : (a < b ? -1 : a > b);
}

void query_order_fns(struct profile *p, uint32_t *fns, size_t n, enum fn_order by)
{
	profile_agg(p);
	order_p = p;
	order_by = by;
	if (n > 1)
		qsort(fns, n, sizeof(*fns), cmp_order);
}
