/* query.c -- callers/callees, per-line costs, call sites, orderings.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "query.h"
#include "aggregate.h"
#include "load.h"

#include <stdlib.h>
#include <string.h>

/* (the other function, the call record's place in the CSR list) */
struct epair {
	uint32_t other, k;
};

static int cmp_epair(const void *x, const void *y)
{
	const struct epair *a = x, *b = y;
	if (a->other != b->other)
		return a->other < b->other ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* One edge per other function, in the order first met.  A function with
 * many callees (a dispatcher calling 100,000 handlers) is sorted by callee
 * rather than looked through once per call record. */
int query_edges(struct profile *p, uint32_t f, int callers, struct edge **out)
{
	const struct agg *a = profile_agg(p);
	const uint32_t *start = callers ? a->in_start : a->out_start;
	const uint32_t *idx = callers ? a->in_idx : a->out_idx;
	uint32_t deg = start[f + 1] - start[f];
	struct epair *pr = xmalloc(((size_t)deg + 1) * sizeof(*pr));
	for (uint32_t k = 0; k < deg; k++) {
		const struct call_rec *c = &p->calls[idx[start[f] + k]];
		pr[k] = (struct epair){ callers ? c->caller : c->callee, k };
	}
	if (deg > 1)
		qsort(pr, deg, sizeof(*pr), cmp_epair);
	/* the first record of each other function, in record order */
	uint32_t n = 0;
	for (uint32_t k = 0; k < deg; k++)
		if (!k || pr[k].other != pr[k - 1].other)
			pr[n++] = pr[k];
	uint32_t *first = xcalloc((size_t)deg + 1, sizeof(*first)); /* k -> edge + 1 */
	struct edge *ed = xcalloc((size_t)n + 1, sizeof(*ed));
	for (uint32_t j = 0; j < n; j++)
		first[pr[j].k] = 1;
	uint32_t m = 0;
	for (uint32_t k = 0; k < deg; k++)
		if (first[k])
			first[k] = ++m;
	for (uint32_t j = 0; j < n; j++)
		ed[first[pr[j].k] - 1].fn = pr[j].other;
	/* edge of each record: that of its function's first record */
	for (uint32_t j = 0; j < n; j++)
		pr[j].k = first[pr[j].k] - 1;
	free(first);
	for (uint32_t k = 0; k < deg; k++) {
		uint32_t r = idx[start[f] + k];
		const struct call_rec *c = &p->calls[r];
		uint32_t other = callers ? c->caller : c->callee;
		/* binary search of the other function among the n firsts */
		uint32_t lo = 0, hi = n;
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (pr[mid].other <= other)
				lo = mid;
			else
				hi = mid;
		}
		struct edge *e = &ed[pr[lo].k];
		e->count = cost_add(e->count, c->count);
		cost_t cc[MAX_EVENTS];
		call_cost(p, r, cc);
		for (int ev = 0; ev < p->nreal; ev++)
			e->cost[ev] = cost_add(e->cost[ev], cc[ev]);
	}
	free(pr);
	*out = ed;
	return (int)n;
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

/* Line records being collected, to be summed per line (lines_done). */
struct lines_acc {
	struct lrec *r;
	cost_t *pool;
	size_t n, cap, poolcap;
};

/* Adds the records of `it` that are of file. */
static void lines_add(struct profile *p, struct line_iter *it, uint32_t file,
		      struct lines_acc *a)
{
	size_t nr = (size_t)p->nreal;
	while (line_iter_next(it)) {
		if (it->file != file)
			continue;
		VEC_RESERVE(a->r, a->cap, a->n + 1);
		if ((a->n + 1) * nr > a->poolcap) {
			a->poolcap = a->poolcap ? a->poolcap * 2 : 64 * nr;
			a->pool = xreallocarray(a->pool, a->poolcap, sizeof(cost_t));
		}
		memcpy(&a->pool[a->n * nr], it->cost, nr * sizeof(cost_t));
		a->r[a->n].line = it->line;
		a->r[a->n].off = a->n;
		a->n++;
	}
}

/* The records collected, summed per line, into out. */
static void lines_done(struct profile *p, struct lines_acc *a, struct file_lines *out)
{
	size_t nr = (size_t)p->nreal, n = a->n;
	struct lrec *r = a->r;
	cost_t *pool = a->pool;
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
	struct lines_acc acc = { 0 };
	/* only this file's runs of records (one per block with lines in it):
	 * a function with lines in thousands of files is not read again for
	 * each of them */
	if (file < a->nfiles)
		for (uint32_t k = a->file_start[file]; k < a->file_start[file + 1]; k++) {
			struct line_iter it;
			profile_need_lines(p, p->ls.ff[a->file_idx[k]].fn);
			line_iter_ff(&it, &p->ls, a->file_idx[k]);
			lines_add(p, &it, file, &acc);
		}
	lines_done(p, &acc, out);
}

void query_fn_file_lines(struct profile *p, uint32_t fn, uint32_t file, struct file_lines *out)
{
	struct lines_acc acc = { 0 };
	struct line_iter it;
	profile_need_lines(p, fn);
	line_iter_fn(&it, &p->ls, fn);
	lines_add(p, &it, file, &acc);
	lines_done(p, &acc, out);
}

int query_fn_files(struct profile *p, uint32_t fn, uint32_t **files, cost_t **costs)
{
	uint32_t *f = NULL;
	cost_t *c = NULL;
	int n = 0, cap = 0;
	size_t nr = (size_t)p->nreal;
	struct line_iter it;
	profile_need_lines(p, fn);
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
	/* the biggest first, either way (a difference's negative costs) */
	if (cost_mag(va) != cost_mag(vb))
		return cost_mag(va) > cost_mag(vb) ? -1 : 1;
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
