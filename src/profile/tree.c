/* tree.c -- the call tree grown on demand, top-down or callers, estimated
 * from the call edges or along recorded contexts; see tree.h.  (The
 * groups are groups.c's.)
 *
 * (Over 800 lines, on purpose: both forms of the tree share its node
 * store, growth, regrowth and rows, which a split would have to export.)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "tree.h"
#include "aggregate.h"
#include "context.h"
#include "format.h"
#include "grouping.h"
#include "query.h"
#include "rank.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the call tree ----------------------------------------------------------- */

static int has_edges(const struct ctree *t, uint32_t id)
{
	const struct agg *a = t->p->agg;
	if (agg_is_cycle(a, id)) {
		if (!t->callers)
			return 1; /* its members */
		uint32_t k = agg_cycle_no(a, id);
		for (uint32_t i = a->cyc_start[k - 1]; i < a->cyc_start[k]; i++) {
			uint32_t m = a->cyc_fn[i];
			for (uint32_t j = a->in_start[m]; j < a->in_start[m + 1]; j++)
				if (a->fn_cycle[t->p->calls[a->in_idx[j]].caller] != k)
					return 1;
		}
		return 0;
	}
	return t->callers ? a->in_start[id] < a->in_start[id + 1]
			  : a->out_start[id] < a->out_start[id + 1];
}

static uint32_t new_node(struct ctree *t, uint32_t fn, uint32_t via, uint32_t parent,
			 enum call_kind kind, cost_t count, const cost_t *cost)
{
	VEC_RESERVE(t->node, t->capnodes, (size_t)t->nnodes + 1);
	struct ctree_node *n = &t->node[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->fn = fn;
	n->via = via;
	n->cn = NO_ID;
	n->parent = parent;
	n->depth = parent == NO_ID ? 0 : t->node[parent].depth + 1;
	n->kind = kind;
	n->count = count;
	n->cost = cost;
	if (!has_edges(t, fn))
		n->flags |= CT_LEAF;
	return t->nnodes++;
}

/* Nodes to be made, sorted: those with a cost by rank_cmp, then those
 * without by their count. */
struct ct_sort {
	uint32_t fn, via;
	enum call_kind kind;
	cost_t key;  /* the event's value of its cost */
	cost_t count;
	int costed;
	size_t at;   /* index of its cost in the scratch array */
};

static int cmp_ct(const void *x, const void *y, void *arg)
{
	const struct profile *p = arg;
	const struct ct_sort *a = x, *b = y;
	if (a->costed != b->costed)
		return a->costed ? -1 : 1;
	cost_t ka = a->costed ? a->key : a->count, kb = b->costed ? b->key : b->count;
	char ba[32], bb[32];
	struct rank_key ra = { &ka, a->fn < p->nfns ? fn_name(p, a->fn) : ba, a->fn };
	struct rank_key rb = { &kb, b->fn < p->nfns ? fn_name(p, b->fn) : bb, b->fn };
	if (a->fn >= p->nfns)
		snprintf(ba, sizeof(ba), "<cycle %u>", a->fn - p->nfns + 1);
	if (b->fn >= p->nfns)
		snprintf(bb, sizeof(bb), "<cycle %u>", b->fn - p->nfns + 1);
	struct rank_order o = { NULL, 1, RANK_VIEW };
	int r = rank_cmp(&ra, &rb, &o);
	if (r || a->via == b->via)
		return r;
	return a->via < b->via ? -1 : 1;
}

/* Storage for the costs of nodes made together (freed with the tree). */
static cost_t *ct_chunk(struct ctree *t, size_t n)
{
	cost_t *c = xmalloc((n ? n : 1) * sizeof(*c));
	VEC_RESERVE(t->chunks, t->capchunks, (size_t)t->nchunks + 1);
	t->chunks[t->nchunks++] = c;
	return c;
}

/* Keeps those of e[0..*ne) above the threshold (in their order): *ne of
 * them; returns how many were not. */
static uint32_t shown_only(const struct ctree *t, struct ct_sort *e, size_t *ne)
{
	struct profile *p = t->p;
	const struct agg *a = p->agg;
	struct rank_thr thr = rank_threshold(p, t->event, t->threshold);
	size_t kept = 0;
	uint32_t hidden = 0;
	for (size_t j = 0; j < *ne; j++) {
		/* without a cost: by its entity's inclusive cost */
		cost_t v = e[j].costed ? e[j].key : event_value(p, agg_incl(a, e[j].fn), t->event);
		if (rank_shown(&thr, v))
			e[kept++] = e[j];
		else
			hidden++;
	}
	*ne = kept;
	return hidden;
}

/* Makes the nodes of e[0..ne) (costs in cost[], nreal each) under parent,
 * those above the threshold, in order; returns how many were hidden. */
static uint32_t make_nodes(struct ctree *t, uint32_t parent, struct ct_sort *e, size_t ne,
			   const cost_t *cost)
{
	struct profile *p = t->p;
	size_t nr = (size_t)(p->nreal ? p->nreal : 1);
	size_t kept = ne, ncost = 0;
	uint32_t hidden = shown_only(t, e, &kept);
	for (size_t j = 0; j < kept; j++)
		ncost += e[j].costed;
	if (kept > 1)
		qsort_r(e, kept, sizeof(*e), cmp_ct, p);
	cost_t *chunk = ncost ? ct_chunk(t, ncost * nr) : NULL;
	size_t c = 0;
	for (size_t j = 0; j < kept; j++) {
		const cost_t *nc = NULL;
		if (e[j].costed) {
			memcpy(&chunk[c * nr], &cost[e[j].at * nr], nr * sizeof(*chunk));
			nc = &chunk[c++ * nr];
		}
		uint32_t m = new_node(t, e[j].fn, e[j].via, parent, e[j].kind, e[j].count, nc);
		if (t->onpath && t->onpath[e[j].fn])
			t->node[m].flags |= CT_RECURSIVE;
	}
	return hidden;
}

static void scratch(struct ctree *t)
{
	if (t->slot)
		return;
	uint32_t n = agg_nent(t->p->agg);
	t->slot = xmalloc(((size_t)n + 1) * sizeof(*t->slot));
	for (uint32_t f = 0; f <= n; f++)
		t->slot[f] = NO_ID;
	t->onpath = xcalloc((size_t)n + 1, 1);
}

/* What the job ahead (trees_prepare) and the explorer's thread may both
 * make, once (the roots, the members' sums), in an aggregation field
 * *state: 0 not made, 1 made, 2 being made by whichever claimed it.  The
 * job claims it or leaves it (claim: 1 when it is the job's to make); the
 * explorer's thread claims it or, when the job has it, waits for the job
 * (must_make: 1 when it is the caller's to make, 0 when it is made): a
 * key that wants the roots does not wait for the pairs the job makes
 * first.  made() ends it (ok 0: left undone, the job asked to stop). */
static int claim(int *state)
{
	int s = 0;
	return __atomic_compare_exchange_n(state, &s, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static void made(int *state, int ok)
{
	__atomic_store_n(state, ok ? 1 : 0, __ATOMIC_RELEASE);
}

static int must_make(struct agg *a, int *state)
{
	for (;;) {
		if (__atomic_load_n(state, __ATOMIC_ACQUIRE) == 1)
			return 0;
		if (claim(state))
			return 1;
		agg_wait(a); /* (the job has it: made, or left undone, when it ends) */
	}
}

/* The entry of the roots for event (made empty when there is none): in
 * the explorer's thread only (trees_prepare, make_roots), which is where
 * entries are made. */
static struct agg_roots *roots_of(struct agg *a, int event)
{
	struct agg_roots *r;
	for (r = a->roots; r; r = r->next)
		if (r->event == event)
			return r;
	r = xcalloc(1, sizeof(*r));
	r->event = event;
	r->next = a->roots;
	a->roots = r;
	return r;
}

/* With detection on: each entity's inclusive cost less the calls into it
 * from other entities, in the one event of r (its value: a derived event
 * is a sum of products of the real ones, so the value of the difference is
 * the difference of the values, cost_add's arithmetic being modulo 2^64),
 * the entities for which that is not nothing kept in r: made once for
 * each event asked for (0.85 MB for 106,000 rows, where the rows of 13
 * events would be 11 MB; root_row makes those of the roots shown).  The
 * calls' sums have a row for each entity that is no cycle's member (a
 * member's calls from outside are its cycle's), in the order of their ids:
 * 106,000 rows, not 400,000, where a cycle has 300,000 members.  A
 * function's row is its entity's (ent_row: its cycle's for a member), so a
 * call adds to its callee's row when the caller's is another: a call
 * inside a cycle or to itself is no plain call (agg_call_kind).  The calls
 * in their order (their costs decoded as they come), the rows of a call's
 * two ends fetched 2 * AHEAD calls on, its sums AHEAD on.  In the job ahead
 * (job 1), left undone when asked to stop.  The caller has claimed
 * r->have. */
static void find_roots(struct profile *p, struct agg_roots *r, int job)
{
	enum { AHEAD = 8 };
	struct agg *a = p->agg;
	int ev = r->event;
	uint32_t nent = agg_nent(a), nc = p->ncalls, nfn_row = 0;
	/* (the rows: the functions that are no member, then the cycles,
	 * whose ids come after every function's) */
	uint32_t *ent_row = xmalloc(((size_t)a->nfns + 1) * sizeof(*ent_row));
	for (uint32_t f = 0; f < a->nfns; f++)
		if (!a->fn_cycle[f])
			ent_row[f] = nfn_row++;
	for (uint32_t f = 0; f < a->nfns; f++)
		if (a->fn_cycle[f])
			ent_row[f] = nfn_row + a->fn_cycle[f] - 1;
	uint32_t nrow = nfn_row + (nent - a->nfns);
	cost_t *rc = xcalloc((size_t)nrow + 1, sizeof(cost_t)); /* the calls' sums */
	size_t vn = (size_t)(p->nreal ? p->nreal : 1);
	cost_t *cyc = xcalloc(((size_t)a->ncycles + 1) * vn, sizeof(cost_t)); /* (every event) */
	const struct call_rec *calls = p->calls;
	for (uint32_t k = 0; k < nc; k++) {
		if (job && !(k & 0xffff) && agg_stop_wanted(a)) { /* (left for later) */
			free(rc);
			free(cyc);
			free(ent_row);
			made(&r->have, 0);
			return;
		}
		if (k + 2 * AHEAD < nc) {
			__builtin_prefetch(&ent_row[calls[k + 2 * AHEAD].caller]);
			__builtin_prefetch(&ent_row[calls[k + 2 * AHEAD].callee]);
		}
		if (k + AHEAD < nc) {
			uint32_t to = ent_row[calls[k + AHEAD].callee];
			if (to != ent_row[calls[k + AHEAD].caller])
				__builtin_prefetch(&rc[to], 1);
		}
		uint32_t to = ent_row[calls[k].callee];
		if (to == ent_row[calls[k].caller])
			continue; /* inside a cycle, or a function calling itself */
		cost_t cc[MAX_EVENTS];
		call_cost(p, k, cc);
		rc[to] = cost_add(rc[to], event_value(p, cc, ev));
		if (to >= nfn_row) /* (into a cycle) */
			for (int e = 0; e < p->nreal; e++)
				cyc[(to - nfn_row) * vn + (size_t)e] =
					cost_add(cyc[(to - nfn_row) * vn + (size_t)e], cc[e]);
	}
	free(ent_row);
	agg_roots_keep(p, a, r, rc, 1, cyc);
	made(&r->have, 1);
}

/* Root e's row (nreal) with detection on: its inclusive cost less the
 * calls into it from other entities (find_roots' difference in every
 * event): a cycle's calls from outside summed by find_roots (r), a
 * function's callers but itself read here. */
static void root_row(const struct profile *p, const struct agg_roots *r, uint32_t e, cost_t *row)
{
	const struct agg *a = p->agg;
	int nr = p->nreal;
	cost_t buf[MAX_EVENTS];
	memcpy(row, agg_roots_incl(p, a, e, buf), (size_t)nr * sizeof(cost_t));
	if (agg_is_cycle(a, e)) {
		const cost_t *in = &r->cyc_in[(size_t)(agg_cycle_no(a, e) - 1) * (size_t)nr];
		for (int ev = 0; ev < nr; ev++)
			row[ev] = (cost_t)((uint64_t)row[ev] - (uint64_t)in[ev]);
		return;
	}
	for (uint32_t j = a->in_start[e]; j < a->in_start[e + 1]; j++) {
		if (p->calls[a->in_idx[j]].caller == e)
			continue; /* (a function calling itself) */
		cost_t cc[MAX_EVENTS];
		call_cost(p, a->in_idx[j], cc);
		for (int ev = 0; ev < nr; ev++)
			row[ev] = (cost_t)((uint64_t)row[ev] - (uint64_t)cc[ev]);
	}
}

/* Members per block of member_sums */
enum { MBLOCK = 64 };

/* With detection on, for each cycle k of nm members, in the order of
 * cyc_fn, nb = nm / MBLOCK blocks (rounded up): the sums of the
 * members' inclusive costs before each block and of them all (nb + 1 rows
 * of nreal), then the largest of each block (nb rows; INT64_MAX in every
 * block of an event where a member's cost is negative or the sum passes
 * 2^63 - 1: no bound there), in agg.msum from row agg.msum_at[k - 1]:
 * what members_estimated reads instead of every member's row.  In the job
 * ahead (job 1), left undone when asked to stop.  The caller has claimed
 * agg.have_msum. */
static void member_sums(struct profile *p, int job)
{
	struct agg *a = p->agg;
	int nr = p->nreal;
	size_t vn = (size_t)(nr ? nr : 1);
	uint32_t nc = a->ncycles, rows = 0;
	uint32_t *at = xmalloc(((size_t)nc + 1) * sizeof(*at));
	for (uint32_t k = 1; k <= nc; k++) {
		at[k - 1] = rows;
		rows += 2 * ((a->cyc_start[k] - a->cyc_start[k - 1] + MBLOCK - 1) / MBLOCK) + 1;
	}
	at[nc] = rows;
	cost_t *ms = xmalloc(((size_t)rows + 1) * vn * sizeof(cost_t));
	for (uint32_t k = 1; k <= nc; k++) {
		if (job && agg_stop_wanted(a)) { /* (left for later) */
			free(at);
			free(ms);
			made(&a->have_msum, 0);
			return;
		}
		const uint32_t *mem = &a->cyc_fn[a->cyc_start[k - 1]];
		uint32_t nm = a->cyc_start[k] - a->cyc_start[k - 1], nb = (nm + MBLOCK - 1) / MBLOCK;
		cost_t *pre = &ms[(size_t)at[k - 1] * vn], *top = pre + (size_t)(nb + 1) * vn;
		cost_t sum[MAX_EVENTS] = { 0 };
		int nobound[MAX_EVENTS] = { 0 };
		for (uint32_t b = 0; b < nb; b++) {
			memcpy(&pre[b * vn], sum, (size_t)nr * sizeof(cost_t));
			cost_t *mx = &top[b * vn];
			memset(mx, 0, (size_t)nr * sizeof(cost_t));
			for (uint32_t i = b * MBLOCK; i < nm && i < (b + 1) * MBLOCK; i++) {
				const cost_t *c = agg_incl(a, mem[i]);
				for (int ev = 0; ev < nr; ev++) {
					nobound[ev] |= c[ev] < 0 || (uint64_t)sum[ev] + (uint64_t)c[ev] > INT64_MAX;
					sum[ev] = cost_add(sum[ev], c[ev]);
					if (c[ev] > mx[ev])
						mx[ev] = c[ev];
				}
			}
		}
		memcpy(&pre[nb * vn], sum, (size_t)nr * sizeof(cost_t));
		for (int ev = 0; ev < nr; ev++)
			for (uint32_t b = 0; nobound[ev] && b < nb; b++)
				top[b * vn + (size_t)ev] = INT64_MAX;
	}
	a->msum_at = at;
	a->msum = ms;
	made(&a->have_msum, 1);
}

static int roots_wanted(const struct profile *p, struct agg_roots *r)
{
	return p->agg->cycles && !__atomic_load_n(&r->have, __ATOMIC_ACQUIRE) && p->ncalls;
}

static int sums_wanted(const struct profile *p)
{
	return p->agg->cycles && !__atomic_load_n(&p->agg->have_msum, __ATOMIC_ACQUIRE) && p->agg->ncycles;
}

/* What the explorer's first keys would wait for: the file:function pairs
 * (f, u), its first step, then the roots for the event shown and the
 * members' sums (t, the flame graph), each unless the explorer's thread
 * has it */
static void *trees_job(void *arg)
{
	struct profile *p = arg;
	struct agg_roots *r = p->agg->roots_ahead;
	agg_filefn_ahead(p);
	if (roots_wanted(p, r) && claim(&r->have))
		find_roots(p, r, 1);
	if (sums_wanted(p) && claim(&p->agg->have_msum))
		member_sums(p, 1);
	return NULL;
}

void trees_prepare(struct profile *p, int event)
{
	struct agg *a = (struct agg *)profile_agg(p);
	if (a->bg_running)
		return;
	a->roots_ahead = roots_of(a, event);
	if (roots_wanted(p, a->roots_ahead) || sums_wanted(p) || !a->have_ff)
		(void)agg_background(p, trees_job, p);
}

/* The roots of the top-down tree (see tree.h): with detection on, the
 * entities whose inclusive cost is not all reached by calls from others
 * in the tree's event (find_roots), at that part of it: the rows of all
 * the events (root_row) for those above the threshold. */
static void make_roots(struct ctree *t)
{
	struct profile *p = t->p;
	struct agg *a = p->agg;
	int nr = p->nreal;
	size_t vn = (size_t)(nr ? nr : 1);
	uint32_t nent = agg_nent(a);
	struct ct_sort *r = NULL;
	size_t n = 0, cap = 0;
	struct agg_roots *ro = NULL;
	if (a->cycles) {
		ro = roots_of(a, t->event);
		/* (or found meanwhile: trees_prepare) */
		if (must_make(a, &ro->have))
			find_roots(p, ro, 0);
	}
	uint32_t ncand = ro ? ro->n : nent;
	/* (detection off: the cycles called from outside them, whose members
	 * are reached through those calls) */
	uint8_t *entered = NULL;
	if (!ro) {
		entered = xcalloc((size_t)a->ncycles + 1, 1);
		for (uint32_t x = 0; x < p->ncalls; x++) {
			uint32_t k = a->fn_cycle[p->calls[x].callee];
			if (k && a->fn_cycle[p->calls[x].caller] != k)
				entered[k] = 1;
		}
	}
	for (uint32_t i = 0; i < ncand; i++) {
		cost_t v;
		uint32_t e = ro ? ro->ent[i] : i;
		if (ro) {
			/* the part no call reaches (not zero): negative only
			 * where the file's calls cost more than their callee
			 * (shown as it is, the roots still add up) */
			v = ro->val[i];
		} else {
			/* nobody but itself (or its cycle, which nothing outside
			 * it calls) calls it */
			int called = a->fn_cycle[e] && entered[a->fn_cycle[e]];
			for (uint32_t j = a->in_start[e]; j < a->in_start[e + 1] && !called; j++) {
				uint32_t from = p->calls[a->in_idx[j]].caller;
				called = from != e && !(a->fn_cycle[e] && a->fn_cycle[from] == a->fn_cycle[e]);
			}
			if (called)
				continue;
			v = event_value(p, agg_incl(a, e), t->event);
		}
		VEC_RESERVE(r, cap, n + 1);
		r[n] = (struct ct_sort){ e, NO_ID, CALL_PLAIN, v, 0, 1, 0 };
		n++;
	}
	free(entered);
	uint32_t hidden = shown_only(t, r, &n);
	cost_t *cost = xmalloc((n ? n : 1) * vn * sizeof(*cost));
	for (size_t i = 0; i < n; i++) {
		if (ro)
			root_row(p, ro, r[i].fn, &cost[i * vn]);
		else
			memcpy(&cost[i * vn], agg_incl(a, r[i].fn), (size_t)nr * sizeof(cost_t));
		r[i].at = i;
	}
	t->nroots_hidden = hidden + make_nodes(t, NO_ID, r, n, cost);
	t->nroots = t->nnodes;
	free(cost);
	free(r);
}

/* Does the top-down tree split its nodes' costs by the calls' shares (see
 * tree.h)?  With detection on, in a profile that is no difference and has no
 * negative cost (where a share of a sum of both signs says nothing). */
static int shares_down(const struct profile *p)
{
	if (!p->agg->cycles || p->ndiff)
		return 0;
	for (int e = 0; e < p->nreal; e++)
		if (p->summag[1][e])
			return 0;
	return 1;
}

struct ctree *ctree_new(struct profile *p, int callers, uint32_t fn, int event, double threshold)
{
	const struct agg *a = profile_agg(p);
	struct ctree *t = xcalloc(1, sizeof(*t));
	t->p = p;
	t->callers = !!callers;
	t->fn = callers ? fn : NO_ID;
	t->event = event;
	t->threshold = threshold;
	t->cycles = a->cycles;
	t->estimated = callers ? a->cycles && !p->ndiff : shares_down(p);
	if (callers) {
		size_t nr = (size_t)(p->nreal ? p->nreal : 1);
		cost_t *c = ct_chunk(t, nr);
		memcpy(c, agg_incl(a, fn), (size_t)p->nreal * sizeof(cost_t));
		new_node(t, fn, NO_ID, NO_ID, CALL_PLAIN, a->fn_ncalls[fn], c);
		t->nroots = 1;
		return t;
	}
	make_roots(t);
	return t;
}

void ctree_free(struct ctree *t)
{
	if (!t)
		return;
	if (t->ctx && !--*t->ctx_refs) {
		cctx_free(t->ctx);
		free(t->ctx_refs);
	}
	for (uint32_t i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->node);
	free(t->slot);
	free(t->onpath);
	free(t);
}

/* Node m of t stands for node k of the recorded paths t->ctx: a leaf
 * where nothing was recorded below it. */
static void path_node(struct ctree *t, uint32_t m, uint32_t k)
{
	t->node[m].cn = k;
	t->node[m].flags &= ~(uint32_t)CT_LEAF;
	if (!t->ctx->node[k].nchild)
		t->node[m].flags |= CT_LEAF;
}

/* Makes the nodes of the recorded paths kids[0..nk) (nodes of t->ctx) under
 * parent, each at its inclusive cost and its calls (make_nodes' threshold
 * and order), a leaf where nothing was recorded below it; returns how many
 * were hidden. */
static uint32_t path_nodes(struct ctree *t, uint32_t parent, const uint32_t *kids, uint32_t nk)
{
	struct profile *p = t->p;
	int nr = p->nreal;
	size_t vn = (size_t)(nr ? nr : 1);
	struct ct_sort *e = xmalloc(((size_t)nk + 1) * sizeof(*e));
	cost_t *cost = xmalloc(((size_t)nk + 1) * vn * sizeof(*cost));
	for (uint32_t j = 0; j < nk; j++) {
		const struct cctx_node *c = &t->ctx->node[kids[j]];
		memcpy(&cost[j * vn], cctx_incl(t->ctx, kids[j]), (size_t)nr * sizeof(cost_t));
		e[j] = (struct ct_sort){ c->fn, NO_ID, CALL_PLAIN, event_value(p, &cost[j * vn], t->event),
					 parent == NO_ID ? 0 : c->count, 1, j };
	}
	uint32_t first = t->nnodes;
	uint32_t hidden = make_nodes(t, parent, e, nk, cost);
	/* (made in e's order) */
	for (uint32_t m = first; m < t->nnodes; m++)
		path_node(t, m, kids[e[m - first].at]);
	free(e);
	free(cost);
	return hidden;
}

/* A tree of the recorded paths ctx, shared with the trees counted in refs:
 * top-down (fn NO_ID), or the callers of fn (ctx made by cctx_callers). */
static struct ctree *paths_tree(struct profile *p, struct cctx *ctx, uint32_t *refs, uint32_t fn,
				int event, double threshold)
{
	struct ctree *t = xcalloc(1, sizeof(*t));
	t->p = p;
	t->callers = fn != NO_ID;
	t->fn = fn;
	t->event = event;
	t->threshold = threshold;
	t->cycles = profile_agg(p)->cycles;
	t->ctx = ctx;
	t->ctx_refs = refs;
	++*refs;
	if (t->callers) {
		/* the one root whatever its cost (ctree_new's), with every
		 * call of fn, recursive ones too (the aggregation's count) */
		uint32_t r = ctx->root[0];
		const struct cctx_node *c = &ctx->node[r];
		cost_t *cost = ct_chunk(t, (size_t)(p->nreal ? p->nreal : 1));
		memcpy(cost, cctx_incl(ctx, r), (size_t)p->nreal * sizeof(cost_t));
		path_node(t, new_node(t, fn, NO_ID, NO_ID, CALL_PLAIN, cost_add(c->count, c->rcount), cost), r);
		t->nroots = 1;
		return t;
	}
	t->nroots_hidden = path_nodes(t, NO_ID, ctx->root, ctx->nroots);
	t->nroots = t->nnodes;
	return t;
}

struct ctree *ctree_recorded(struct profile *p, int callers, uint32_t fn, int event, double threshold)
{
	/* (a cycle is no function of the paths: its callers are estimated) */
	if (p->ndiff || (callers && agg_is_cycle(profile_agg(p), fn)))
		return NULL;
	struct cctx *rec = cctx_recorded(p, event, 0);
	if (!rec)
		return NULL;
	/* the flame graph's callers (view_flame.c), or every part's paths
	 * together */
	struct cctx *all = callers ? cctx_callers(rec, fn, -1) : cctx_merged(rec);
	cctx_free(rec);
	return paths_tree(p, all, xcalloc(1, sizeof(uint32_t)), callers ? fn : NO_ID, event, threshold);
}

/* (see tree.h)  Where |c * part| < 2^61 that is
 * the exactly rounded quotient, made here in integers: the product is
 * exact in a long double, the quotient x = N / whole rounded to 64 bits
 * moves by under 1 / (8 whole), and x is either a half-integer
 * (representable, unmoved) or at least 1 / (2 whole) away from one, so
 * both round alike.  (llroundl is the bulk of a flame graph's estimate.) */
cost_t ctree_share(cost_t c, cost_t part, cost_t whole)
{
	if (part == whole)
		return c;
	uint64_t mc = cost_mag(c), mp = cost_mag(part), w = (uint64_t)whole;
	if (mp == 0 || mc <= ((UINT64_C(1) << 61) - 1) / mp) {
		uint64_t r = (2 * mc * mp + w) / (2 * w);
		return (c < 0) != (part < 0) ? (cost_t)(0 - r) : (cost_t)r;
	}
	return (cost_t)llroundl((long double)c * (long double)part / (long double)whole);
}

/* A cycle's member shown as its child (make_nodes' rule on the member's
 * inclusive cost, the cost of its edge) */
struct member_thr {
	struct rank_thr thr;
	int event;
};

static int member_shown(struct profile *p, uint32_t m, void *arg)
{
	const struct member_thr *k = arg;
	return rank_shown(&k->thr, event_value(p, agg_incl(p->agg, m), k->event));
}

/* Estimated, a cycle's children: its members, each at the share of the
 * cycle's cost its inclusive cost brings (as ctree_grow's shares of any
 * node, the members in their order).  The members' running sums are
 * kept with the aggregation by blocks (member_sums, made once): only the
 * blocks where a member may pass the threshold are read, their members'
 * shares of the event taken; those above it get the others and an edge
 * (query_edges_keep: the others are only counted, nleft), so 300,000
 * members under it are neither read nor make an edge.  Returns how many are in e and
 * cost (at: the place of a child's costs). */
static int keep_slot(struct profile *p, uint32_t m, void *arg)
{
	(void)p;
	return ((const struct ctree *)arg)->slot[m] != NO_ID;
}

static int members_estimated(struct ctree *t, uint32_t n, struct ct_sort **pe, cost_t **pcost,
			     int *nleft)
{
	struct profile *p = t->p;
	struct agg *a = p->agg;
	int nr = p->nreal, ev0 = t->event;
	size_t vn = (size_t)(nr ? nr : 1);
	uint32_t id = t->node[n].fn, k = agg_cycle_no(a, id);
	const uint32_t *mem = &a->cyc_fn[a->cyc_start[k - 1]];
	uint32_t nm = a->cyc_start[k] - a->cyc_start[k - 1], nb = (nm + MBLOCK - 1) / MBLOCK;
	if (must_make(a, &a->have_msum))
		member_sums(p, 0);
	const cost_t *pre = &a->msum[(size_t)a->msum_at[k - 1] * vn], *top = pre + (size_t)(nb + 1) * vn;
	const cost_t *mine = t->node[n].cost;
	cost_t whole[MAX_EVENTS], before[MAX_EVENTS];
	memcpy(whole, agg_incl(a, id), (size_t)nr * sizeof(cost_t));
	for (int ev = 0; ev < nr; ev++)
		if (pre[nb * vn + (size_t)ev] > whole[ev])
			whole[ev] = pre[nb * vn + (size_t)ev];
	struct rank_thr thr = rank_threshold(p, ev0, t->threshold);
	/* A block is read only when one of its members may be shown: a share
	 * N * (before + c) / W less N * before / W, each rounded (within 1/2,
	 * llroundl's within 1 more), is within 3 of N * c / W, which is at most
	 * N * (the block's largest c) / W.  (A zero shown, or no whole: every
	 * block.) */
	int prune = whole[ev0] > 0 && !thr.zero_ok;
	long double scale = prune ? (long double)cost_mag(mine[ev0]) / (long double)whole[ev0] : 0;
	cost_t *kc = NULL;
	size_t nk = 0, capk = 0;
	uint32_t *km = NULL;
	size_t capm = 0;
	for (uint32_t b = 0; b < nb; b++) {
		cost_t big = top[b * vn + (size_t)ev0];
		if (prune && big != INT64_MAX && scale * (long double)big + 4 < (long double)thr.limit)
			continue;
		memcpy(before, &pre[b * vn], (size_t)nr * sizeof(cost_t));
		for (uint32_t i = b * MBLOCK; i < nm && i < (b + 1) * MBLOCK; i++) {
			const cost_t *c = agg_incl(a, mem[i]);
			cost_t v = whole[ev0] > 0 ? ctree_share(mine[ev0], cost_add(before[ev0], c[ev0]),
								whole[ev0]) -
							    ctree_share(mine[ev0], before[ev0], whole[ev0])
						  : 0;
			int shown = rank_shown(&thr, v);
			if (shown) {
				VEC_RESERVE(kc, capk, (nk + 1) * vn);
				VEC_RESERVE(km, capm, nk + 1);
				km[nk] = mem[i];
				t->slot[mem[i]] = (uint32_t)nk;
			}
			for (int ev = 0; ev < nr; ev++) {
				if (whole[ev] <= 0) {
					if (shown)
						kc[nk * vn + (size_t)ev] = 0;
					continue;
				}
				cost_t upto = cost_add(before[ev], c[ev]);
				if (shown)
					kc[nk * vn + (size_t)ev] =
						ev == ev0 ? v
							  : ctree_share(mine[ev], upto, whole[ev]) -
								    ctree_share(mine[ev], before[ev], whole[ev]);
				before[ev] = upto;
			}
			nk += shown;
		}
	}
	struct edge *ed;
	int ne = query_edges_keep(p, id, 0, keep_slot, t, &ed, nleft);
	struct ct_sort *e = xmalloc(((size_t)ne + 1) * sizeof(*e));
	for (int j = 0; j < ne; j++) {
		size_t at = t->slot[ed[j].fn];
		e[j] = (struct ct_sort){ ed[j].fn, ed[j].via, ed[j].kind, kc[at * vn + (size_t)ev0],
					 ed[j].count, 1, at };
	}
	for (size_t i = 0; i < nk; i++)
		t->slot[km[i]] = NO_ID;
	free(km);
	free(ed);
	*pe = e;
	*pcost = kc ? kc : xmalloc(vn * sizeof(cost_t));
	return ne;
}

int ctree_grow(struct ctree *t, uint32_t n)
{
	if (t->node[n].flags & CT_GROWN)
		return 1;
	if (!ctree_expandable(t, n))
		return 0;
	struct profile *p = t->p;
	const struct agg *a = p->agg;
	int nr = p->nreal;
	size_t vn = (size_t)(nr ? nr : 1);
	scratch(t);
	if (t->ctx) {
		/* the functions called along this recorded path */
		const struct cctx_node *c = &t->ctx->node[t->node[n].cn];
		uint32_t first = t->nnodes;
		uint32_t hidden = path_nodes(t, n, &t->ctx->kid[c->first], c->nchild);
		struct ctree_node *node = &t->node[n];
		node->first = first;
		node->nchild = t->nnodes - first;
		node->nhidden = hidden;
		node->flags |= CT_GROWN;
		return 1;
	}
	for (uint32_t x = n; x != NO_ID; x = t->node[x].parent)
		t->onpath[t->node[x].fn] = 1;
	uint32_t id = t->node[n].fn;
	struct edge *ed;
	int ne, nleft = 0;
	struct ct_sort *e;
	cost_t *cost;
	if (!t->callers && t->estimated && agg_is_cycle(a, id) && t->event < nr) {
		ne = members_estimated(t, n, &e, &cost, &nleft);
		goto made;
	}
	if (!t->callers && !t->estimated && agg_is_cycle(a, id)) {
		/* a cycle's children are its members at their inclusive costs:
		 * those under the threshold are not read at all (300,000 of
		 * them in a big program), only counted */
		struct member_thr k = { rank_threshold(p, t->event, t->threshold), t->event };
		ne = query_edges_keep(p, id, 0, member_shown, &k, &ed, &nleft);
	} else
		ne = query_edges(p, id, t->callers, &ed);
	e = xmalloc(((size_t)ne + 1) * sizeof(*e));
	cost = xmalloc(((size_t)ne + 1) * vn * sizeof(*cost));
	/* bottom-up estimates: the node's cost split in proportion to the
	 * costs of its callers' calls, over their sum or the entity's
	 * inclusive cost, whichever is more */
	cost_t whole[MAX_EVENTS], root[MAX_EVENTS];
	const cost_t *mine = t->node[n].cost;
	if (t->estimated) {
		memcpy(whole, agg_incl(a, id), (size_t)nr * sizeof(cost_t));
		cost_t sum[MAX_EVENTS] = { 0 };
		for (int j = 0; j < ne; j++)
			if (call_kind_costed(ed[j].kind))
				for (int ev = 0; ev < nr; ev++)
					sum[ev] = cost_add(sum[ev], ed[j].cost[ev]);
		for (int ev = 0; ev < nr; ev++)
			if (sum[ev] > whole[ev])
				whole[ev] = sum[ev];
		if (!t->callers && t->node[n].parent == NO_ID) {
			/* a root others call too: their calls taken from its
			 * self first (see tree.h), its calls the rest */
			const cost_t *self = agg_self(a, id);
			for (int ev = 0; ev < nr; ev++) {
				cost_t in = whole[ev] - mine[ev], over = in - self[ev];
				root[ev] = mine[ev];
				if (in <= 0 || sum[ev] <= 0 || mine[ev] < 0)
					continue;
				root[ev] = sum[ev] - (over > 0 ? over : 0);
				if (root[ev] > mine[ev])
					root[ev] = mine[ev];
				if (root[ev] < 0)
					root[ev] = 0;
				whole[ev] = sum[ev];
			}
			mine = root;
		}
	}
	/* each share is the difference of the rounded shares of the calls up
	 * to it and before it: rounded, the children still add up to no more
	 * than the node */
	cost_t before[MAX_EVENTS] = { 0 };
	/* a real event's share alone says whether a child is under the
	 * threshold (make_nodes' rule): such a child (most of a cycle's
	 * 300,000 members) is not made, its other shares not needed */
	struct rank_thr thr = rank_threshold(p, t->event, t->threshold);
	int one = t->estimated && t->event < nr;
	for (int j = 0; j < ne; j++) {
		int costed = call_kind_costed(ed[j].kind);
		cost_t *c = &cost[(size_t)j * vn];
		if (!t->estimated || !costed) {
			for (int ev = 0; ev < nr; ev++)
				c[ev] = ed[j].cost[ev];
		} else {
			int all = 1;
			if (one) {
				int ev = t->event;
				c[ev] = whole[ev] > 0 ? ctree_share(mine[ev], cost_add(before[ev], ed[j].cost[ev]),
								    whole[ev]) -
								ctree_share(mine[ev], before[ev], whole[ev])
						      : 0;
				all = rank_shown(&thr, c[ev]);
			}
			for (int ev = 0; ev < nr; ev++) {
				if (whole[ev] <= 0) {
					c[ev] = 0;
					continue;
				}
				cost_t upto = cost_add(before[ev], ed[j].cost[ev]);
				if (all && !(one && ev == t->event))
					c[ev] = ctree_share(mine[ev], upto, whole[ev]) -
						ctree_share(mine[ev], before[ev], whole[ev]);
				before[ev] = upto;
			}
		}
		e[j] = (struct ct_sort){ ed[j].fn, ed[j].via, ed[j].kind,
					 costed ? event_value(p, c, t->event) : 0, ed[j].count, costed,
					 (size_t)j };
	}
	free(ed);
made:;
	uint32_t first = t->nnodes;
	uint32_t hidden = make_nodes(t, n, e, (size_t)ne, cost);
	for (uint32_t x = n; x != NO_ID; x = t->node[x].parent)
		t->onpath[t->node[x].fn] = 0;
	struct ctree_node *node = &t->node[n];
	node->first = first;
	node->nchild = t->nnodes - first;
	node->nhidden = hidden + (uint32_t)nleft;
	node->flags |= CT_GROWN;
	free(e);
	free(cost);
	return 1;
}

int ctree_set_open(struct ctree *t, uint32_t n, int open)
{
	if (!open) {
		t->node[n].flags &= ~(uint32_t)CT_OPEN;
		return 1;
	}
	if (!ctree_grow(t, n))
		return 0;
	t->node[n].flags |= CT_OPEN;
	return 1;
}

/* The node among first .. first+count-1 of tree t standing for the same
 * entity (and member called) as old node o, NO_ID if none; slot has the
 * first node of each entity among them. */
static uint32_t same_node(const struct ctree *t, const struct ctree_node *o, uint32_t first,
			  uint32_t count)
{
	uint32_t m = t->slot[o->fn];
	if (m == NO_ID)
		return NO_ID;
	for (; m < first + count && t->node[m].fn == o->fn; m++)
		if (t->node[m].via == o->via)
			return m;
	for (m = first; m < first + count; m++)
		if (t->node[m].fn == o->fn && t->node[m].via == o->via)
			return m;
	return NO_ID;
}

static void slots_set(struct ctree *t, uint32_t first, uint32_t count, int set)
{
	for (uint32_t c = first + count; c-- > first;)
		t->slot[t->node[c].fn] = set ? c : NO_ID;
}

struct ctree *ctree_regrow(const struct ctree *old, int event, double threshold)
{
	/* (a callers tree's costs follow the cycle rule: made anew when
	 * detection was turned on or off) */
	struct ctree *t = old->ctx && old->callers && old->cycles != profile_agg(old->p)->cycles
				  ? ctree_recorded(old->p, 1, old->fn, event, threshold)
				  : NULL;
	if (!t)
		t = old->ctx ? paths_tree(old->p, old->ctx, old->ctx_refs, old->fn, event, threshold)
			     : ctree_new(old->p, old->callers, old->fn, event, threshold);
	if (old->estimated && old->cycles == t->cycles)
		t->estimated = 1; /* (set by its maker: report/export.c's paths) */
	if (!old->nnodes)
		return t;
	scratch(t);
	uint32_t *map = xmalloc((size_t)old->nnodes * sizeof(*map));
	for (uint32_t i = 0; i < old->nnodes; i++)
		map[i] = NO_ID;
	/* the roots, by entity */
	slots_set(t, 0, t->nroots, 1);
	for (uint32_t i = 0; i < old->nroots; i++)
		map[i] = same_node(t, &old->node[i], 0, t->nroots);
	slots_set(t, 0, t->nroots, 0);
	/* parents come before their children: one pass in node order */
	for (uint32_t o = 0; o < old->nnodes; o++) {
		const struct ctree_node *on = &old->node[o];
		uint32_t m = map[o];
		if (m == NO_ID || !(on->flags & CT_GROWN) || !ctree_grow(t, m))
			continue;
		if (on->flags & CT_OPEN)
			t->node[m].flags |= CT_OPEN;
		uint32_t first = t->node[m].first, count = t->node[m].nchild;
		slots_set(t, first, count, 1);
		for (uint32_t c = on->first; c < on->first + on->nchild; c++)
			map[c] = same_node(t, &old->node[c], first, count);
		slots_set(t, first, count, 0);
	}
	free(map);
	return t;
}

uint32_t ctree_rows(const struct ctree *t, uint32_t *rows,
		    int (*keep)(const struct ctree *t, uint32_t n, void *arg), void *arg)
{
	uint32_t m = 0, sp = 0;
	uint32_t *stack = xmalloc(((size_t)t->nnodes + 1) * sizeof(*stack));
	for (uint32_t i = t->nroots; i-- > 0;)
		stack[sp++] = i;
	while (sp) {
		uint32_t x = stack[--sp];
		rows[m++] = x;
		const struct ctree_node *n = &t->node[x];
		if (n->flags & CT_OPEN)
			for (uint32_t c = n->first + n->nchild; c-- > n->first;)
				stack[sp++] = c;
	}
	free(stack);
	if (!keep)
		return m;
	uint8_t *mark = xcalloc((size_t)t->nnodes + 1, 1);
	for (uint32_t i = 0; i < m; i++) {
		if (!keep(t, rows[i], arg))
			continue;
		for (uint32_t x = rows[i]; x != NO_ID && !mark[x]; x = t->node[x].parent)
			mark[x] = 1;
	}
	uint32_t k = 0;
	for (uint32_t i = 0; i < m; i++)
		if (mark[rows[i]])
			rows[k++] = rows[i];
	free(mark);
	return k;
}
