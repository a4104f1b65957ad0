/* aggregate.c -- self/inclusive costs, cycles (Tarjan, iterative), CSR call
 * lists, file:function pairs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "aggregate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void agg_free(struct agg *a)
{
	if (!a)
		return;
	free(a->fn_self);
	free(a->incl_cyc);
	free(a->incl_raw);
	free(a->fn_ncalls);
	free(a->fn_cycle);
	free(a->fn_selfcall);
	free(a->cyc_start);
	free(a->cyc_fn);
	free(a->out_start);
	free(a->out_idx);
	free(a->in_start);
	free(a->in_idx);
	free(a->cin_start);
	free(a->cin_idx);
	free(a->file_start);
	free(a->file_idx);
	if (a->have_ff)
		filefn_free(a->ff, a->nff);
	free(a->root_ent);
	free(a->root_cost);
	free(a);
}

/* Counting sort of call records by caller (by_callee 0) or callee. */
static void csr_build(uint32_t nkeys, const struct call_rec *calls, uint32_t nrec, int by_callee,
		      uint32_t **startp, uint32_t **idxp)
{
	uint32_t *start = xcalloc((size_t)nkeys + 1, sizeof(*start));
	uint32_t *idx = xmalloc(((size_t)nrec ? nrec : 1) * sizeof(*idx));
	for (uint32_t r = 0; r < nrec; r++)
		start[(by_callee ? calls[r].callee : calls[r].caller) + 1]++;
	for (uint32_t k = 0; k < nkeys; k++)
		start[k + 1] += start[k];
	uint32_t *fill = xmalloc(((size_t)nkeys + 1) * sizeof(*fill));
	memcpy(fill, start, ((size_t)nkeys + 1) * sizeof(*fill));
	for (uint32_t r = 0; r < nrec; r++)
		idx[fill[by_callee ? calls[r].callee : calls[r].caller]++] = r;
	free(fill);
	*startp = start;
	*idxp = idx;
}

/* Tarjan's strongly connected components without recursion.  comp[v] gets a
 * component number; returns the number of components. */
static uint32_t scc(const struct profile *p, const struct agg *a, uint32_t *comp)
{
	uint32_t n = p->nfns;
	uint32_t *index = xmalloc(((size_t)n + 1) * sizeof(*index));
	uint32_t *low = xmalloc(((size_t)n + 1) * sizeof(*low));
	uint32_t *stack = xmalloc(((size_t)n + 1) * sizeof(*stack));
	uint8_t *onstack = xcalloc((size_t)n + 1, 1);
	struct frame {
		uint32_t v, e;
	} *cs = xmalloc(((size_t)n + 1) * sizeof(*cs));
	for (uint32_t v = 0; v < n; v++)
		index[v] = UINT32_MAX;
	uint32_t next = 0, sp = 0, ncomp = 0;
	for (uint32_t root = 0; root < n; root++) {
		if (index[root] != UINT32_MAX)
			continue;
		uint32_t csp = 0;
		cs[csp++] = (struct frame){ root, a->out_start[root] };
		index[root] = low[root] = next++;
		stack[sp++] = root;
		onstack[root] = 1;
		while (csp) {
			struct frame *f = &cs[csp - 1];
			uint32_t v = f->v;
			if (f->e < a->out_start[v + 1]) {
				uint32_t w = p->calls[a->out_idx[f->e++]].callee;
				if (index[w] == UINT32_MAX) {
					index[w] = low[w] = next++;
					stack[sp++] = w;
					onstack[w] = 1;
					cs[csp++] = (struct frame){ w, a->out_start[w] };
				} else if (onstack[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			if (low[v] == index[v]) {
				uint32_t w;
				do {
					w = stack[--sp];
					onstack[w] = 0;
					comp[w] = ncomp;
				} while (w != v);
				ncomp++;
			}
			csp--;
			if (csp) {
				uint32_t u = cs[csp - 1].v;
				if (low[v] < low[u])
					low[u] = low[v];
			}
		}
	}
	free(index);
	free(low);
	free(stack);
	free(onstack);
	free(cs);
	return ncomp;
}

/* Calls into an entity that cost more than its inclusive cost: the file's
 * own numbers disagree (a hand-made or converted file, a dump taken while
 * calls were active).  Shown as they are, with one warning when the excess
 * is 0.1% of the total or more: callgrind itself writes a few instructions
 * more for calls that end the program or a thread (_Exit, start_thread)
 * than the callee's own costs hold, which no percentage shows. */
static void check_calls(struct profile *p, const struct agg *a, const cost_t *in)
{
	uint32_t nent = a->nfns + a->ncycles, worst = NO_ID, nbad = 0;
	if (!p->nreal || p->ndiff)
		return;
	uint64_t tol = cost_mag(p->totals[0]) / 1000;
	for (uint32_t e = 0; e < nent; e++) {
		if (e < a->nfns && a->fn_cycle[e])
			continue; /* its cycle is checked */
		cost_t inc = a->incl_cyc[(size_t)e * a->nreal];
		if (in[e] <= inc || inc < 0 || (uint64_t)in[e] - (uint64_t)inc < tol)
			continue;
		nbad++;
		if (worst == NO_ID || in[e] - inc > in[worst] - a->incl_cyc[(size_t)worst * a->nreal])
			worst = e;
	}
	if (worst == NO_ID)
		return;
	char name[256];
	if (worst < a->nfns) {
		snprintf(name, sizeof(name), "%s", fn_name(p, worst));
	} else {
		uint32_t k = worst - a->nfns + 1;
		snprintf(name, sizeof(name), "<cycle %u> (%s and %u more)", k,
			 fn_name(p, a->cyc_fn[a->cyc_start[k - 1]]),
			 a->cyc_start[k] - a->cyc_start[k - 1] - 1);
	}
	char more[64] = "";
	if (nbad > 1)
		snprintf(more, sizeof(more), " (and %u more)", nbad - 1);
	profile_warn(p, "%s: the calls into %s cost %lld %s, more than its inclusive cost, %lld%s: "
		     "the file's own numbers disagree; they are shown as they are",
		     p->nsources ? p->sources[0] : "the profile", name, (long long)in[worst],
		     p->ev[0].name, (long long)a->incl_cyc[(size_t)worst * a->nreal], more);
}

const struct agg *profile_agg(struct profile *p)
{
	if (p->agg)
		return p->agg;
	struct agg *a = xcalloc(1, sizeof(*a));
	int nr = a->nreal = p->nreal;
	uint32_t n = a->nfns = p->nfns;
	a->cycles = 1;
	a->fn_cycle = xcalloc((size_t)n + 1, sizeof(uint32_t));
	a->fn_selfcall = xcalloc((size_t)n + 1, 1);

	csr_build(n, p->calls, p->ncalls, 0, &a->out_start, &a->out_idx);
	csr_build(n, p->calls, p->ncalls, 1, &a->in_start, &a->in_idx);

	/* the cycles first: they are entities after the functions */
	uint32_t *comp = xmalloc(((size_t)n + 1) * sizeof(*comp));
	uint32_t ncomp = scc(p, a, comp);
	uint32_t *size = xcalloc((size_t)ncomp + 1, sizeof(*size));
	for (uint32_t v = 0; v < n; v++)
		size[comp[v]]++;
	/* number the cycles (components of two or more functions) in the
	 * order of their first function, and list their members */
	uint32_t *cycno = xcalloc((size_t)ncomp + 1, sizeof(*cycno));
	for (uint32_t v = 0; v < n; v++)
		if (size[comp[v]] > 1 && !cycno[comp[v]])
			cycno[comp[v]] = ++a->ncycles;
	uint32_t nc = a->ncycles;
	a->cyc_start = xcalloc((size_t)nc + 1, sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++) {
		a->fn_cycle[v] = cycno[comp[v]];
		if (a->fn_cycle[v])
			a->cyc_start[a->fn_cycle[v]]++;
	}
	for (uint32_t k = 0; k < nc; k++)
		a->cyc_start[k + 1] += a->cyc_start[k];
	a->cyc_fn = xmalloc(((size_t)a->cyc_start[nc] + 1) * sizeof(uint32_t));
	uint32_t *fill = xmalloc(((size_t)nc + 1) * sizeof(uint32_t));
	memcpy(fill, a->cyc_start, ((size_t)nc + 1) * sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++)
		if (a->fn_cycle[v])
			a->cyc_fn[fill[a->fn_cycle[v] - 1]++] = v;
	free(fill);

	size_t nent = (size_t)n + nc;
	size_t vec = (nent ? nent : 1) * (size_t)(nr ? nr : 1);
	a->fn_self = xcalloc(vec, sizeof(cost_t));
	a->fn_incl = a->incl_cyc = xcalloc(vec, sizeof(cost_t));
	a->fn_ncalls = xcalloc(nent + 1, sizeof(cost_t));

	const struct linestore *ls = &p->ls;
	for (uint32_t k = 0; k < ls->nff; k++) {
		cost_t *d = &a->fn_self[(size_t)ls->ff[k].fn * nr];
		const cost_t *c = &ls->ffcost[(size_t)k * nr];
		for (int e = 0; e < nr; e++)
			d[e] = cost_add(d[e], c[e]);
	}
	a->cin_start = xcalloc((size_t)nc + 2, sizeof(uint32_t));
	for (uint32_t r = 0; r < p->ncalls; r++) {
		const struct call_rec *c = &p->calls[r];
		a->fn_ncalls[c->callee] = cost_add(a->fn_ncalls[c->callee], c->count);
		if (c->caller == c->callee)
			a->fn_selfcall[c->caller] = 1;
		else if (a->fn_cycle[c->callee] && a->fn_cycle[c->caller] != a->fn_cycle[c->callee]) {
			uint32_t ce = n + a->fn_cycle[c->callee] - 1;
			a->fn_ncalls[ce] = cost_add(a->fn_ncalls[ce], c->count);
			a->cin_start[a->fn_cycle[c->callee]]++;
		}
	}
	for (uint32_t k = 0; k < nc; k++)
		a->cin_start[k + 1] += a->cin_start[k];
	a->cin_idx = xmalloc(((size_t)a->cin_start[nc] + 1) * sizeof(uint32_t));
	fill = xmalloc(((size_t)nc + 1) * sizeof(uint32_t));
	memcpy(fill, a->cin_start, ((size_t)nc + 1) * sizeof(uint32_t));
	for (uint32_t r = 0; nc && r < p->ncalls; r++) {
		const struct call_rec *c = &p->calls[r];
		if (c->caller != c->callee && a->fn_cycle[c->callee] &&
		    a->fn_cycle[c->caller] != a->fn_cycle[c->callee])
			a->cin_idx[fill[a->fn_cycle[c->callee] - 1]++] = r;
	}
	free(fill);

	/* block subtotals by file */
	a->nfiles = p->files.n;
	a->file_start = xcalloc((size_t)a->nfiles + 2, sizeof(uint32_t));
	a->file_idx = xmalloc(((size_t)ls->nff + 1) * sizeof(uint32_t));
	for (uint32_t k = 0; k < ls->nff; k++)
		a->file_start[ls->ff[k].file + 1]++;
	for (uint32_t f = 0; f < a->nfiles; f++)
		a->file_start[f + 1] += a->file_start[f];
	fill = xmalloc(((size_t)a->nfiles + 1) * sizeof(uint32_t));
	memcpy(fill, a->file_start, ((size_t)a->nfiles + 1) * sizeof(uint32_t));
	for (uint32_t k = 0; k < ls->nff; k++)
		a->file_idx[fill[ls->ff[k].file]++] = k;
	free(fill);

	/* inclusive: self + the calls that leave the function's component
	 * (the others are already inside those calls' costs); a cycle's: its
	 * members' self + the calls leaving it.  The first event of the calls
	 * into each entity is summed on the way, to check the file's numbers */
	cost_t *in = xcalloc(nent + 1, sizeof(cost_t));
	for (uint32_t v = 0; v < n; v++) {
		cost_t *inc = &a->incl_cyc[(size_t)v * nr];
		const cost_t *self = &a->fn_self[(size_t)v * nr];
		memcpy(inc, self, sizeof(cost_t) * (size_t)nr);
		for (uint32_t k = a->out_start[v]; k < a->out_start[v + 1]; k++) {
			uint32_t r = a->out_idx[k];
			if (comp[p->calls[r].callee] == comp[v])
				continue; /* recursion: already inside this call's cost */
			cost_t c[MAX_EVENTS];
			call_cost(p, r, c);
			for (int e = 0; e < nr; e++)
				inc[e] = cost_add(inc[e], c[e]);
			uint32_t to = p->calls[r].callee;
			if (nr)
				in[a->fn_cycle[to] ? n + a->fn_cycle[to] - 1 : to] += c[0];
		}
		if (a->fn_cycle[v]) {
			size_t ce = (size_t)(n + a->fn_cycle[v] - 1) * nr;
			for (int e = 0; e < nr; e++) {
				a->incl_cyc[ce + e] = cost_add(a->incl_cyc[ce + e], inc[e]);
				a->fn_self[ce + e] = cost_add(a->fn_self[ce + e], self[e]);
			}
		}
	}
	free(comp);
	free(size);
	free(cycno);
	check_calls(p, a, in);
	free(in);
	p->agg = a;
	return a;
}

void profile_set_cycles(struct profile *p, int on)
{
	struct agg *a = (struct agg *)profile_agg(p);
	a->cycles = !!on;
	if (on) {
		a->fn_incl = a->incl_cyc;
		return;
	}
	if (!a->incl_raw) {
		int nr = a->nreal;
		size_t vec = (size_t)(a->nfns ? a->nfns : 1) * (size_t)(nr ? nr : 1);
		a->incl_raw = xmalloc(vec * sizeof(cost_t));
		memcpy(a->incl_raw, a->fn_self, vec * sizeof(cost_t));
		for (uint32_t r = 0; r < p->ncalls; r++) {
			cost_t c[MAX_EVENTS];
			call_cost(p, r, c);
			cost_t *inc = &a->incl_raw[(size_t)p->calls[r].caller * nr];
			for (int e = 0; e < nr; e++)
				inc[e] = cost_add(inc[e], c[e]);
		}
	}
	a->fn_incl = a->incl_raw;
}


/* in filefn.off while grouping: the group has more than one block */
#define FF_MULTI ((size_t)1 << (sizeof(size_t) * 8 - 1))

/* how many entries ahead a loop over random reads fetches them */
#define AHEAD 8

/* the home slot of (file, name) in agg_filefn's hash of cap slots */
static inline size_t ff_home(uint32_t file, uint32_t name, size_t cap)
{
	return hash_mix((uint64_t)file << 32 | name) & (cap - 1);
}

struct filefn *agg_filefn(const struct profile *p, size_t *np)
{
	int nr = p->nreal;
	const struct linestore *ls = &p->ls;
	/* group the blocks' file subtotals (ls.ff) by (file, function name)
	 * with a hash; grp[q] is block q's group */
	size_t cap = 16;
	while (cap < (size_t)p->nfns * 2 + 16)
		cap *= 2;
	uint32_t *slots = hot_calloc(cap * sizeof(*slots));
	uint32_t *grp = xmalloc(((size_t)ls->nff + 1) * sizeof(*grp));
	struct filefn *ff = NULL;
	size_t n = 0, ffcap = 0;
	for (uint32_t q = 0; q < ls->nff; q++) {
		uint32_t file = ls->ff[q].file, name = p->fns[ls->ff[q].fn].name;
		/* the slot a few entries on is fetched now: with 400 K functions
		 * the table is megabytes and each probe's first read a miss */
		if (q + AHEAD < ls->nff) {
			const struct fnfile *a = &ls->ff[q + AHEAD];
			__builtin_prefetch(&slots[ff_home(a->file, p->fns[a->fn].name, cap)]);
		}
		if (n * 2 >= cap) {
			hot_free(slots, cap * sizeof(*slots));
			cap *= 2;
			slots = hot_calloc(cap * sizeof(*slots));
			for (size_t k = 0; k < n; k++) {
				size_t i = ff_home(ff[k].file, ff[k].name, cap);
				while (slots[i])
					i = (i + 1) & (cap - 1);
				slots[i] = (uint32_t)k + 1;
			}
		}
		size_t i = ff_home(file, name, cap);
		for (; slots[i]; i = (i + 1) & (cap - 1))
			if (ff[slots[i] - 1].file == file && ff[slots[i] - 1].name == name)
				break;
		if (!slots[i]) {
			VEC_RESERVE(ff, ffcap, n + 2);
			/* off: the first block, until the costs are placed */
			ff[n] = (struct filefn){ .file = file, .name = name, .fn = ls->ff[q].fn,
						 .off = q };
			slots[i] = (uint32_t)++n;
		} else {
			struct filefn *g = &ff[slots[i] - 1];
			if (p->fns[g->fn].file != file && p->fns[ls->ff[q].fn].file == file)
				g->fn = ls->ff[q].fn;
			g->off |= FF_MULTI;
		}
		grp[q] = slots[i] - 1;
	}
	hot_free(slots, cap * sizeof(*slots));
	/* A group of one block points at that block's subtotal: ls.ffcost
	 * lives as long as the profile and is not moved after loading
	 * (replaying deferred lines, linestore_refill, adds no block).  The
	 * others are summed into one pool, which the entry after the last
	 * keeps. */
	size_t nmulti = 0;
	for (size_t k = 0; k < n; k++)
		nmulti += (ff[k].off & FF_MULTI) != 0;
	cost_t *pool = nmulti ? xcalloc(nmulti * (size_t)nr, sizeof(cost_t)) : NULL;
	size_t m = 0;
	for (size_t k = 0; k < n; k++) {
		if (ff[k].off & FF_MULTI) {
			ff[k].cost = &pool[m * (size_t)nr];
			ff[k].off = m++;
		} else {
			ff[k].cost = &ls->ffcost[ff[k].off * (size_t)nr];
			ff[k].off = SIZE_MAX;
		}
	}
	for (uint32_t q = 0; q < ls->nff; q++) {
		struct filefn *g = &ff[grp[q]];
		if (g->off == SIZE_MAX)
			continue;
		cost_t *d = g->cost;
		const cost_t *c = &ls->ffcost[(size_t)q * nr];
		for (int e = 0; e < nr; e++)
			d[e] = cost_add(d[e], c[e]);
	}
	free(grp);
	VEC_RESERVE(ff, ffcap, n + 1);
	ff[n].cost = pool;
	*np = n; /* in no particular order: every reader orders by cost */
	return ff;
}

void filefn_free(struct filefn *ff, size_t n)
{
	if (ff)
		free(ff[n].cost);
	free(ff);
}

const struct filefn *agg_filefn_kept(struct profile *p, size_t *n)
{
	struct agg *a = (struct agg *)profile_agg(p);
	if (!a->have_ff) {
		a->ff = agg_filefn(p, &a->nff);
		a->have_ff = 1;
	}
	*n = a->nff;
	return a->ff;
}
