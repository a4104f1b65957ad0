/* query.c -- callers/callees, per-line costs, call sites, orderings.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "query.h"
#include "aggregate.h"
#include "rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Edges being summed, found by (entity, via) in a small hash; the
 * entities left out (query_edges_keep), once each. */
struct edge_acc {
	/* one block: room for cap edges, then for cap edges' costs (the
	 * pool), made for as many as there can be (edge_room: the calls
	 * read), so that edges_done() only closes the gap, no copy of
	 * either made */
	struct edge *ed;
	/* the costs summed here: edge i's at pool[at[i] * nr], at[i] NO_ID
	 * for an edge whose cost is the aggregation's (a cycle's member) */
	cost_t *pool;
	uint32_t *at;
	size_t cap, npool, nr;
	uint32_t *slot; /* edge index + 1, 0 = empty */
	uint32_t mask;
	int n;
	int (*keep)(struct profile *p, uint32_t other, void *arg);
	void *arg;
	uint32_t *left; /* entity + 1, 0 = empty */
	uint32_t lmask;
	int nleft;
};

/* Is entity e's edge made?  One left out is counted once (`once`: e is
 * asked about once only, no need to remember it). */
static int kept_once(struct profile *p, struct edge_acc *x, uint32_t e, int once)
{
	if (!x->keep || x->keep(p, e, x->arg))
		return 1;
	if (once) {
		x->nleft++;
		return 0;
	}
	if ((uint32_t)(x->nleft + 1) * 2 > x->lmask) {
		uint32_t om = x->lmask, *old = x->left, ns = om ? (om + 1) * 2 : 64;
		x->left = xcalloc(ns, sizeof(*x->left));
		x->lmask = ns - 1;
		for (uint32_t i = 0; old && i <= om; i++)
			if (old[i]) {
				uint32_t h = (uint32_t)hash_mix(old[i]) & x->lmask;
				while (x->left[h])
					h = (h + 1) & x->lmask;
				x->left[h] = old[i];
			}
		free(old);
	}
	uint32_t h = (uint32_t)hash_mix(e + 1) & x->lmask;
	for (; x->left[h]; h = (h + 1) & x->lmask)
		if (x->left[h] == e + 1)
			return 0;
	x->left[h] = e + 1;
	x->nleft++;
	return 0;
}

static int kept(struct profile *p, struct edge_acc *x, uint32_t e)
{
	return kept_once(p, x, e, 0);
}

/* The edge of (fn, via) if it was made, else NULL. */
static struct edge *edge_find(struct edge_acc *x, uint32_t fn, uint32_t via)
{
	if (!x->mask)
		return NULL;
	uint32_t h = (uint32_t)hash_mix((uint64_t)fn << 32 | via) & x->mask;
	for (; x->slot[h]; h = (h + 1) & x->mask) {
		struct edge *e = &x->ed[x->slot[h] - 1];
		if (e->fn == fn && e->via == via)
			return e;
	}
	return NULL;
}

/* The edges' hash table made again with `size` slots (a power of two). */
static void edge_rehash(struct edge_acc *x, uint32_t size)
{
	free(x->slot);
	x->slot = xcalloc(size, sizeof(*x->slot));
	x->mask = size - 1;
	for (int i = 0; i < x->n; i++) {
		uint32_t h = (uint32_t)hash_mix((uint64_t)x->ed[i].fn << 32 | x->ed[i].via) & x->mask;
		while (x->slot[h])
			h = (h + 1) & x->mask;
		x->slot[h] = (uint32_t)i + 1;
	}
}

/* The bytes of n edges, rounded for the costs after them */
static size_t edges_head(size_t n)
{
	return (n * sizeof(struct edge) + 15) & ~(size_t)15;
}

/* Room for `want` edges in all and their costs (a new block, the edges
 * and costs so far moved once: at the start, none). */
static void edge_room(struct edge_acc *x, size_t want)
{
	if (want <= x->cap && x->ed)
		return;
	if (want < 4)
		want = 4;
	char *block = xmalloc(edges_head(want) + want * x->nr * sizeof(cost_t) + 1);
	cost_t *pool = (cost_t *)(void *)(block + edges_head(want));
	if (x->ed) {
		memcpy(block, x->ed, (size_t)x->n * sizeof(struct edge));
		memcpy(pool, x->pool, x->npool * x->nr * sizeof(cost_t));
		free(x->ed);
	}
	x->ed = (struct edge *)(void *)block;
	x->pool = pool;
	x->at = xreallocarray(x->at, want, sizeof(*x->at));
	x->cap = want;
}

/* The edge of (fn, via), made if new: with ext, its cost is ext (a
 * cycle member's inclusive cost in the aggregation, not copied: a cycle's
 * 300,000 members are 300,000 edges), else summed here. */
static struct edge *edge_get(struct edge_acc *x, uint32_t fn, uint32_t via, enum call_kind kind,
			     const cost_t *ext)
{
	if ((uint32_t)(x->n + 1) * 2 > x->mask)
		edge_rehash(x, x->mask ? (x->mask + 1) * 2 : 16);
	uint32_t h = (uint32_t)hash_mix((uint64_t)fn << 32 | via) & x->mask;
	for (; x->slot[h]; h = (h + 1) & x->mask) {
		struct edge *e = &x->ed[x->slot[h] - 1];
		if (e->fn == fn && e->via == via)
			return e;
	}
	if ((size_t)x->n == x->cap) /* (not reached: room is made for them all) */
		edge_room(x, x->cap * 2);
	struct edge *e = &x->ed[x->n];
	memset(e, 0, sizeof(*e));
	e->fn = fn;
	e->via = via;
	e->kind = kind;
	if (ext) {
		e->cost = (cost_t *)(uintptr_t)ext; /* (read only: query.h) */
		x->at[x->n] = NO_ID;
	} else {
		memset(&x->pool[x->npool * x->nr], 0, x->nr * sizeof(cost_t));
		x->at[x->n] = (uint32_t)x->npool++;
	}
	x->slot[h] = (uint32_t)++x->n;
	return e;
}

static struct edge *edge_at(struct edge_acc *x, uint32_t fn, uint32_t via, enum call_kind kind)
{
	return edge_get(x, fn, via, kind, NULL);
}

/* Room for n more edges, the table sized for them: as many as the calls
 * read (a cycle's callees: its members), known before they are read. */
static void edge_reserve(struct edge_acc *x, uint32_t n)
{
	edge_room(x, (size_t)x->n + n);
	uint32_t want = 16;
	while (want < ((uint32_t)x->n + n + 1) * 2 + 2)
		want *= 2;
	if (want - 1 > x->mask)
		edge_rehash(x, want);
}

/* Edge e's costs while they are collected (not an edge_ext one's). */
static cost_t *ecost(struct edge_acc *x, const struct edge *e)
{
	return &x->pool[(size_t)x->at[e - x->ed] * x->nr];
}

static void edge_add(const struct profile *p, struct edge_acc *x, struct edge *e, uint32_t r,
		     int cost)
{
	if (!cost) {
		e->count = cost_add(e->count, call_count(p, r));
		return;
	}
	cost_t cc[MAX_EVENTS], *c = ecost(x, e);
	e->count = cost_add(e->count, call_count_cost(p, r, cc));
	for (int k = 0; k < p->nreal; k++)
		c[k] = cost_add(c[k], cc[k]);
}

/* The edges and the costs summed here in one allocation (free() frees
 * both): the block made for them, the costs moved down after the edges
 * there are, the rest given back (a cycle's 300,000 members or 60,000
 * callers: no second copy of them at once). */
static struct edge *edges_done(struct edge_acc *x)
{
	edge_room(x, 0); /* (a block even without an edge) */
	size_t n = (size_t)x->n, head = edges_head(n);
	size_t pool = x->npool * x->nr * sizeof(cost_t);
	char *block = (char *)x->ed;
	if (pool)
		memmove(block + head, x->pool, pool);
	block = xrealloc(block, head + pool + 1);
	struct edge *ed = (struct edge *)(void *)block;
	cost_t *costs = (cost_t *)(void *)(block + head);
	for (size_t i = 0; i < n; i++)
		if (x->at[i] != NO_ID)
			ed[i].cost = &costs[(size_t)x->at[i] * x->nr];
	free(x->at);
	return ed;
}

/* A pass over call records idx[k], k < end, scattered in p->calls and
 * their costs in callbuf: the record 2 * AHEAD on fetched, and the costs
 * of the one AHEAD on (whose record came before), while k is read.
 * Inlined always: GCC 12 -O2 takes a function of prefetches alone for
 * one that does nothing and drops its calls. */
static inline __attribute__((always_inline)) void
calls_fetch(const struct profile *p, const uint32_t *idx, uint32_t k, uint32_t end)
{
	enum { AHEAD = 8 };
	if (k + 2 * AHEAD < end)
		__builtin_prefetch(&p->calls[idx[k + 2 * AHEAD]]);
	if (k + AHEAD < end)
		__builtin_prefetch(call_data(p, idx[k + AHEAD]));
}

/* The edges of function f (see query_edges). */
static void fn_edges(struct profile *p, const struct agg *a, uint32_t f, int callers,
		     struct edge_acc *x)
{
	const uint32_t *start = callers ? a->in_start : a->out_start;
	const uint32_t *idx = callers ? a->in_idx : a->out_idx;
	uint32_t mycyc = agg_cycle_no(a, f);
	/* a member's cost comes through its cycle, called from outside or not
	 * (an index: the edges move as they grow; -1 when left out) */
	int member = callers && mycyc;
	edge_reserve(x, start[f + 1] - start[f] + (uint32_t)member);
	int tocycle = member && kept(p, x, agg_cycle_ent(a, mycyc))
		? (int)(edge_get(x, agg_cycle_ent(a, mycyc), NO_ID, CALL_MEMBER, agg_incl(a, f)) - x->ed)
		: -1;
	for (uint32_t k = start[f]; k < start[f + 1]; k++) {
		calls_fetch(p, idx, k, start[f + 1]);
		const struct call_rec *c = &p->calls[idx[k]];
		uint32_t other = callers ? c->caller : c->callee;
		enum call_kind kind = agg_call_kind(a, c->caller, c->callee);
		uint32_t ocyc = agg_cycle_no(a, other);
		if (kind == CALL_PLAIN && member) {
			/* from outside into a member: a call of its cycle */
			if (tocycle >= 0)
				edge_add(p, x, &x->ed[tocycle], idx[k], 0);
		} else if (kind == CALL_PLAIN && !callers && ocyc) {
			if (kept(p, x, agg_cycle_ent(a, ocyc)))
				edge_add(p, x, edge_at(x, agg_cycle_ent(a, ocyc), other, kind), idx[k], 1);
		} else if (kept(p, x, other)) {
			edge_add(p, x, edge_at(x, other, NO_ID, kind), idx[k], 1);
		}
	}
}

int query_edges_keep(struct profile *p, uint32_t id, int callers,
		     int (*keep)(struct profile *p, uint32_t other, void *arg), void *arg,
		     struct edge **out, int *nleft)
{
	const struct agg *a = profile_agg(p);
	struct edge_acc x = { .keep = keep, .arg = arg, .nr = (size_t)(p->nreal ? p->nreal : 1) };
	if (!agg_is_cycle(a, id)) {
		fn_edges(p, a, id, callers, &x);
	} else {
		uint32_t k = agg_cycle_no(a, id);
		edge_reserve(&x, callers ? a->cin_start[k] - a->cin_start[k - 1]
					 : a->cyc_start[k] - a->cyc_start[k - 1]);
		/* its callees: its members, at their inclusive costs */
		for (uint32_t i = a->cyc_start[k - 1]; !callers && i < a->cyc_start[k]; i++) {
			uint32_t m = a->cyc_fn[i];
			if (kept_once(p, &x, m, 1))
				edge_get(&x, m, NO_ID, CALL_MEMBER, agg_incl(a, m));
		}
		/* the calls from outside into them: its callers (via the member
		 * called), or the counts of its calls of each member */
		for (uint32_t j = a->cin_start[k - 1]; j < a->cin_start[k]; j++) {
			calls_fetch(p, a->cin_idx, j, a->cin_start[k]);
			uint32_t r = a->cin_idx[j];
			const struct call_rec *c = &p->calls[r];
			if (!callers) {
				struct edge *me = edge_find(&x, c->callee, NO_ID);
				if (me)
					edge_add(p, &x, me, r, 0);
			} else if (kept(p, &x, c->caller)) {
				edge_add(p, &x, edge_at(&x, c->caller, c->callee, CALL_PLAIN), r, 1);
			}
		}
	}
	free(x.slot);
	free(x.left);
	if (nleft)
		*nleft = x.nleft;
	*out = edges_done(&x);
	return x.n;
}

int query_edges(struct profile *p, uint32_t id, int callers, struct edge **out)
{
	return query_edges_keep(p, id, callers, NULL, NULL, out, NULL);
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

int query_has_calls(const struct profile *p)
{
	return p->ncalls > 0;
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
	if (a->callee != b->callee)
		return a->callee < b->callee ? -1 : 1;
	return a->kind < b->kind ? -1 : a->kind > b->kind;
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
		s[n].caller = c->caller;
		s[n].kind = p->agg ? agg_call_kind(p->agg, c->caller, c->callee) : CALL_PLAIN;
		s[n].count = call_count_cost(p, r, s[n].cost);
		n++;
	}
	if (n)
		qsort(s, n, sizeof(*s), cmp_site);
	/* one entry per (line, callee) -- and kind: a line of a file's
	 * inlined code may call f from f and from another function */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && s[m - 1].line == s[i].line && s[m - 1].callee == s[i].callee &&
		    s[m - 1].kind == s[i].kind) {
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

/* A name to break ties with: a function's, or a cycle's "<cycle N>". */
static const char *tie_name(const struct profile *p, uint32_t id, char *buf, size_t n)
{
	if (id < p->nfns)
		return fn_name(p, id);
	snprintf(buf, n, "<cycle %u>", id - p->nfns + 1);
	return buf;
}

uint32_t query_fn_by_name(const struct profile *p, const char *name, uint32_t obj)
{
	uint32_t id = strtab_find(&p->names, name, strlen(name)), found = NO_ID;
	if (id == UINT32_MAX)
		return NO_ID;
	for (uint32_t f = 0; f < p->nfns; f++)
		if (p->fns[f].name == id) {
			if (obj == NO_ID || p->fns[f].obj == obj)
				return f;
			if (found == NO_ID)
				found = f;
		}
	return found;
}

/* An edge's sort key, made once: the edges are large (a cost per event),
 * so they are ordered through these and moved once.  Small (16 bytes: a
 * cycle's 300,000 members): the names that break ties, and the edges'
 * ends, are read from the edges when two values are equal. */
struct edgekey {
	cost_t v;           /* the event's cost, or (no share) the count */
	uint32_t i;         /* the edge's index */
	uint32_t costed;
};

/* What the keys are compared with: the edges they are of, or (ed NULL)
 * the cycle members (query_member_order). */
struct edgectx {
	const struct profile *p;
	const struct edge *ed;
	const uint32_t *member;
};

/* The ends of key i's edge: its other entity and its via. */
static void key_ends(const struct edgectx *c, uint32_t i, uint32_t *fn, uint32_t *via)
{
	if (c->ed) {
		*fn = c->ed[i].fn;
		*via = c->ed[i].via;
	} else {
		*fn = c->member[i];
		*via = NO_ID;
	}
}

static int cmp_edgekey(const void *x, const void *y, void *arg)
{
	const struct edgectx *c = arg;
	const struct edgekey *a = x, *b = y;
	if (a->costed != b->costed)
		return a->costed ? -1 : 1;
	struct rank_order o = { NULL, 1, RANK_VIEW };
	int r = rank_cmp_values(&a->v, &b->v, &o);
	if (r)
		return r;
	uint32_t fa, va, fb, vb;
	key_ends(c, a->i, &fa, &va);
	key_ends(c, b->i, &fb, &vb);
	char ba[32], bb[32];
	struct rank_key ka = { &a->v, tie_name(c->p, fa, ba, sizeof(ba)), fa };
	struct rank_key kb = { &b->v, tie_name(c->p, fb, bb, sizeof(bb)), fb };
	r = rank_cmp(&ka, &kb, &o);
	return r ? r : (va < vb ? -1 : va > vb);
}

/* The keys of ed[0..n) */
static struct edgekey *edge_keys(const struct profile *p, const struct edge *ed, size_t n,
				 int event)
{
	struct edgekey *k = xmalloc((n ? n : 1) * sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		struct edgekey *e = &k[i];
		const struct edge *d = &ed[i];
		e->costed = (uint32_t)call_kind_costed(d->kind);
		e->v = e->costed ? event_value(p, d->cost, event) : d->count;
		e->i = (uint32_t)i;
	}
	return k;
}

struct edge_order {
	struct edgekey *k;
	struct edgectx c;
	struct rank_lazy lazy;
};

struct edge_order *query_edge_order(const struct profile *p, const struct edge *ed, size_t n,
				    int event)
{
	struct edge_order *o = xmalloc(sizeof(*o));
	o->k = edge_keys(p, ed, n, event);
	o->c = (struct edgectx){ p, ed, NULL };
	rank_lazy_init(&o->lazy, o->k, n, sizeof(*o->k), cmp_edgekey, &o->c);
	return o;
}

struct edge_order *query_member_order(struct profile *p, uint32_t cycle, int event)
{
	const struct agg *a = profile_agg(p);
	uint32_t k = agg_cycle_no(a, cycle), first = a->cyc_start[k - 1];
	size_t n = a->cyc_start[k] - first;
	struct edge_order *o = xmalloc(sizeof(*o));
	o->k = xmalloc((n ? n : 1) * sizeof(*o->k));
	for (size_t i = 0; i < n; i++) { /* (an edge of each: CALL_MEMBER, costed) */
		if (i + AGG_AHEAD < n) /* (rows read at random: agg_fetch) */
			agg_fetch(a, agg_incl(a, a->cyc_fn[first + i + AGG_AHEAD]), event);
		o->k[i] = (struct edgekey){ event_value(p, agg_incl(a, a->cyc_fn[first + i]), event),
					    (uint32_t)i, 1 };
	}
	o->c = (struct edgectx){ p, NULL, &a->cyc_fn[first] };
	rank_lazy_init(&o->lazy, o->k, n, sizeof(*o->k), cmp_edgekey, &o->c);
	return o;
}

cost_t query_member_calls(struct profile *p, uint32_t member)
{
	const struct agg *a = profile_agg(p);
	uint32_t cyc = agg_cycle_no(a, member);
	cost_t n = 0;
	for (uint32_t j = a->in_start[member]; j < a->in_start[member + 1]; j++)
		if (agg_cycle_no(a, p->calls[a->in_idx[j]].caller) != cyc)
			n = cost_add(n, call_count(p, a->in_idx[j]));
	return n;
}

uint32_t query_edge_at(struct edge_order *o, size_t i)
{
	return ((const struct edgekey *)rank_lazy_at(&o->lazy, i))->i;
}

void query_edge_order_free(struct edge_order *o)
{
	if (!o)
		return;
	rank_lazy_free(&o->lazy);
	free(o->k);
	free(o);
}

void query_order_edges(const struct profile *p, const struct edge *ed, size_t n, int event,
		       uint32_t *order)
{
	struct edgekey *k = edge_keys(p, ed, n, event);
	struct edgectx c = { p, ed, NULL };
	if (n > 1)
		qsort_r(k, n, sizeof(*k), cmp_edgekey, &c);
	for (size_t i = 0; i < n; i++)
		order[i] = k[i].i;
	free(k);
}

void query_sort_edges(const struct profile *p, struct edge *ed, size_t n, int event)
{
	if (n < 2)
		return;
	uint32_t *order = xmalloc(n * sizeof(*order)), *to = xmalloc(n * sizeof(*to));
	query_order_edges(p, ed, n, event, order);
	/* the permutation applied in place, cycle by cycle: to[i] is where the
	 * edge now at i goes */
	for (size_t i = 0; i < n; i++)
		to[order[i]] = (uint32_t)i;
	free(order);
	for (size_t i = 0; i < n; i++) {
		while (to[i] != i) {
			uint32_t j = to[i];
			struct edge tmp = ed[j];
			ed[j] = ed[i];
			ed[i] = tmp;
			to[i] = to[j];
			to[j] = j;
		}
	}
	free(to);
}

struct sortctx {
	const struct profile *p;
	enum fn_order by;
};

/* A function's key in an order by cost: its value, read once */
struct fnkey {
	cost_t v;
	uint32_t fn;
};

static int cmp_fnkey(const void *x, const void *y, void *arg)
{
	const struct profile *p = arg;
	const struct fnkey *a = x, *b = y;
	struct rank_order o = { NULL, 1, RANK_VIEW };
	int r = rank_cmp_values(&a->v, &b->v, &o);
	if (r) /* (most often: no names to find) */
		return r;
	char ba[32], bb[32];
	struct rank_key ka = { &a->v, tie_name(p, a->fn, ba, sizeof(ba)), a->fn };
	struct rank_key kb = { &b->v, tie_name(p, b->fn, bb, sizeof(bb)), b->fn };
	return rank_cmp(&ka, &kb, &o);
}

static struct fnkey *fn_keys(const struct profile *p, const uint32_t *fns, size_t n,
			     const cost_t *(*key)(const struct profile *p, uint32_t fn, void *arg),
			     void *arg, int event)
{
	struct fnkey *k = xmalloc((n ? n : 1) * sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		if (i + AGG_AHEAD < n && p->agg) /* (rows read at random: agg_fetch) */
			agg_fetch(p->agg, key(p, fns[i + AGG_AHEAD], arg), event);
		k[i] = (struct fnkey){ event_value(p, key(p, fns[i], arg), event), fns[i] };
	}
	return k;
}

void query_sort_fns(const struct profile *p, uint32_t *fns, size_t n,
		    const cost_t *(*key)(const struct profile *p, uint32_t fn, void *arg),
		    void *arg, int event)
{
	if (n < 2)
		return;
	struct fnkey *k = fn_keys(p, fns, n, key, arg, event);
	qsort_r(k, n, sizeof(*k), cmp_fnkey, (void *)p);
	for (size_t i = 0; i < n; i++)
		fns[i] = k[i].fn;
	free(k);
}

static int cmp_order(const void *x, const void *y, void *arg)
{
	const struct sortctx *c = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	const struct profile *p = c->p;
	char ba[32], bb[32];
	int r = 0;
	if (c->by == FN_BY_CALLS) {
		cost_t ca = p->agg->fn_ncalls[a], cb = p->agg->fn_ncalls[b];
		r = ca > cb ? -1 : ca < cb;
	} else if (c->by == FN_BY_FILE) {
		/* a cycle has no file: after the functions */
		r = (a >= p->nfns) - (b >= p->nfns);
		if (!r && a < p->nfns)
			r = strcmp(file_name(p, p->fns[a].file), file_name(p, p->fns[b].file));
	}
	if (!r)
		r = strcmp(tie_name(p, a, ba, sizeof(ba)), tie_name(p, b, bb, sizeof(bb)));
	return r ? r : (a < b ? -1 : a > b);
}

struct fn_lazy {
	struct rank_lazy lazy;
	struct fnkey *k;  /* by cost; NULL: by fns itself */
	uint32_t *fns;
	struct sortctx c;
};

struct fn_lazy *query_fns_lazy(const struct profile *p, uint32_t *fns, size_t n,
			       const cost_t *(*key)(const struct profile *p, uint32_t fn, void *arg),
			       void *arg, int event)
{
	struct fn_lazy *o = xcalloc(1, sizeof(*o));
	o->k = fn_keys(p, fns, n, key, arg, event);
	o->fns = fns;
	rank_lazy_init(&o->lazy, o->k, n, sizeof(*o->k), cmp_fnkey, (void *)p);
	return o;
}

struct fn_lazy *query_fns_lazy_by(struct profile *p, uint32_t *fns, size_t n, enum fn_order by)
{
	profile_agg(p);
	struct fn_lazy *o = xcalloc(1, sizeof(*o));
	o->c = (struct sortctx){ p, by };
	o->fns = fns;
	rank_lazy_init(&o->lazy, fns, n, sizeof(*fns), cmp_order, &o->c);
	return o;
}

uint32_t query_fns_at(struct fn_lazy *o, size_t i)
{
	void *e = rank_lazy_at(&o->lazy, i);
	return o->k ? ((struct fnkey *)e)->fn : *(uint32_t *)e;
}

void query_fns_lazy_free(struct fn_lazy *o)
{
	if (!o)
		return;
	rank_lazy_free(&o->lazy);
	free(o->k);
	free(o);
}

void query_order_fns(struct profile *p, uint32_t *fns, size_t n, enum fn_order by)
{
	profile_agg(p);
	struct sortctx c = { p, by };
	if (n > 1)
		qsort_r(fns, n, sizeof(*fns), cmp_order, &c);
}
