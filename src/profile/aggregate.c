/* aggregate.c -- self/inclusive costs, cycles (Tarjan, iterative), CSR call
 * lists, file:function pairs, and the background job that makes them.
 *
 * (Over 800 lines, on purpose: the passes share struct agg_run, its task
 * pool and the job's stepping, which a split into files would have to
 * export to each other; each pass is a function of its own here.)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "aggregate.h"
#include "load.h"
#include "scope.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* how many entries ahead a loop over random reads fetches them */
#define AHEAD 8

void agg_free(struct agg *a)
{
	if (!a)
		return;
	if (a->bg_running) /* (its work is of no use now) */
		agg_ask_stop(a);
	agg_wait(a);
	free(a->self_ix);
	free(a->self_rows);
	free(a->incl_ix);
	free(a->incl_rows);
	free(a->raw_ix);
	free(a->raw_rows);
	free(a->fn_out);
	free(a->fn_ncalls);
	free(a->fn_cycle);
	free(a->fn_selfcall);
	free(a->side_cycle);
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
		filefn_free(a->ff, a->ff_pool);
	filefn_free(a->way_ff, a->way_pool);
	for (struct agg_roots *r = a->roots, *next; r; r = next) {
		next = r->next;
		free(r->ent);
		free(r->val);
		free(r->cyc_in);
		free(r);
	}
	free(a->msum_at);
	free(a->msum);
	free(a);
}

/* Counting sort of call records by caller (by_callee 0) or callee; with
 * `other`, the other end of each (the callee of each caller's records):
 * what Tarjan's walk reads in order, not through the records.  Each key's
 * count is kept two places on, so that after the sums start[key + 1] is
 * where key's records begin, and, moved on as they are placed, ends as
 * where the next key's begin: no copy of the array to fill (1.6 MB at
 * 400,000 functions, while the other list and the components are made). */
static void csr_build(uint32_t nkeys, const struct call_rec *calls, uint32_t nrec, int by_callee,
		      uint32_t **startp, uint32_t **idxp, uint32_t **otherp)
{
	uint32_t *start = xcalloc((size_t)nkeys + 2, sizeof(*start));
	uint32_t *idx = xmalloc(((size_t)nrec ? nrec : 1) * sizeof(*idx));
	uint32_t *other = otherp ? xmalloc(((size_t)nrec ? nrec : 1) * sizeof(*other)) : NULL;
	for (uint32_t r = 0; r < nrec; r++)
		start[(by_callee ? calls[r].callee : calls[r].caller) + 2]++;
	for (uint32_t k = 1; k <= nkeys; k++)
		start[k + 1] += start[k];
	for (uint32_t r = 0; r < nrec; r++) {
		uint32_t at = start[(by_callee ? calls[r].callee : calls[r].caller) + 1]++;
		idx[at] = r;
		if (other)
			other[at] = by_callee ? calls[r].caller : calls[r].callee;
	}
	*startp = start;
	*idxp = idx;
	if (otherp)
		*otherp = other;
}

/* Tarjan's strongly connected components without recursion over the n
 * functions, v's callees being to[start[v] .. start[v + 1]).  cyc[v] gets
 * 0 for a component of one function, else the number (1-based, in the
 * order they are found) of its cycle, a component of several; returns the
 * number of cycles (no array of a number for every component to count
 * their functions in again: 4 passes over the functions, 5 ms at 400,000,
 * were 1).  A function's
 * index and low link are side by side (one cache line for both, read at
 * random); one placed in a component gets the index DONE, which no low
 * link passes: "on the stack" is "visited and not DONE". */
static uint32_t scc(uint32_t n, const uint32_t *start, const uint32_t *to, uint32_t *cyc)
{
	enum { UNSEEN = UINT32_MAX, DONE = UINT32_MAX - 1 };
	struct tnode {
		uint32_t index, low;
	} *t = xmalloc(((size_t)n + 1) * sizeof(*t));
	uint32_t *stack = xmalloc(((size_t)n + 1) * sizeof(*stack));
	struct frame {
		uint32_t v, e;
	} *cs = xmalloc(((size_t)n + 1) * sizeof(*cs));
	for (uint32_t v = 0; v < n; v++)
		t[v].index = UNSEEN;
	uint32_t next = 0, sp = 0, ncyc = 0;
	for (uint32_t root = 0; root < n; root++) {
		if (t[root].index != UNSEEN)
			continue;
		uint32_t csp = 0;
		cs[csp++] = (struct frame){ root, start[root] };
		t[root].index = t[root].low = next++;
		stack[sp++] = root;
		while (csp) {
			struct frame *f = &cs[csp - 1];
			uint32_t v = f->v;
			if (f->e < start[v + 1]) {
				uint32_t w = to[f->e++];
				/* the callees are scattered: the one after
				 * next is fetched while this one is read */
				if (f->e + 1 < start[v + 1])
					__builtin_prefetch(&t[to[f->e + 1]]);
				if (t[w].index == UNSEEN) {
					t[w].index = t[w].low = next++;
					stack[sp++] = w;
					cs[csp++] = (struct frame){ w, start[w] };
				} else if (t[w].index < t[v].low) { /* on the stack */
					t[v].low = t[w].index;
				}
				continue;
			}
			if (t[v].low == t[v].index) { /* (v and those above it) */
				uint32_t w = stack[--sp], k = w == v ? 0 : ++ncyc;
				t[w].index = DONE;
				cyc[w] = k;
				while (w != v) {
					w = stack[--sp];
					t[w].index = DONE;
					cyc[w] = k;
				}
			}
			csp--;
			if (csp) {
				uint32_t u = cs[csp - 1].v;
				if (t[v].low < t[u].low)
					t[u].low = t[v].low;
			}
		}
	}
	free(t);
	free(stack);
	free(cs);
	return ncyc;
}

/* Calls into an entity that cost more than its inclusive cost: the file's
 * own numbers disagree (a hand-made or converted file, a dump taken while
 * calls were active).  Shown as they are, with one warning when the excess
 * is 0.1% of the total or more: callgrind itself writes a few instructions
 * more for calls that end the program or a thread (_Exit, start_thread)
 * than the callee's own costs hold, which no percentage shows.  struct
 * excess: what the entities checked (excess_note) show, the worst first
 * met of those the most over. */
struct excess {
	uint64_t tol;
	uint32_t nbad, worst; /* (worst: NO_ID for none) */
	cost_t in, inc;       /* the worst's calls and inclusive cost */
};

/* Entity e, whose calls from others cost `in` in event 0 and inclusive
 * cost inc */
static void excess_note(struct excess *x, uint32_t e, cost_t in, cost_t inc)
{
	if (in <= inc || inc < 0 || (uint64_t)in - (uint64_t)inc < x->tol)
		return;
	x->nbad++;
	if (x->worst == NO_ID || in - inc > x->in - x->inc) {
		x->worst = e;
		x->in = in;
		x->inc = inc;
	}
}

/* Is the check made?  (Not without events, nor of a difference.)  Its
 * start in *x. */
static int excess_begin(const struct profile *p, struct excess *x)
{
	if (!p->nreal || p->ndiff)
		return 0;
	*x = (struct excess){ .tol = cost_mag(p->totals[0]) / 1000, .worst = NO_ID };
	return 1;
}

/* The warning of check x, if any */
static void excess_warn(struct profile *p, const struct agg *a, const struct excess *x)
{
	uint32_t worst = x->worst;
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
	if (x->nbad > 1)
		snprintf(more, sizeof(more), " (and %u more)", x->nbad - 1);
	profile_warn(p, "%s: the calls into %s cost %lld %s, more than its inclusive cost, %lld%s: "
		     "the file's own numbers disagree; they are shown as they are",
		     p->nsources ? p->sources[0] : "the profile", name, (long long)x->in,
		     p->ev[0].name, (long long)x->inc, more);
}

const cost_t *agg_roots_incl(const struct profile *p, const struct agg *a, uint32_t e,
			    cost_t *buf)
{
	if (e >= a->nfns || !(a->fn_out[e] & AGG_OUT_SIDES))
		return agg_incl_cycles(a, e);
	memcpy(buf, agg_self(a, e), (size_t)a->nreal * sizeof(*buf));
	for (uint32_t i = a->out_start[e]; i < a->out_start[e + 1]; i++) {
		uint32_t x = a->out_idx[i];
		if (p->calls[x].callee == e)
			continue;
		cost_t cc[MAX_EVENTS];
		call_cost(p, x, cc);
		for (int ev = 0; ev < a->nreal; ev++)
			buf[ev] = cost_add(buf[ev], cc[ev]);
	}
	return buf;
}

/* agg_roots_keep's pass over the entities [lo, hi) (see there), the kept
 * moved down to calls[*n] and ent[*n], calls[] read from *at when rowed;
 * with x, each one's calls into it checked too (struct excess: calls[] is
 * then in event 0), and with ev -1 only that. */
static void roots_pass(const struct profile *p, const struct agg *a, int ev, cost_t *calls,
		       int rowed, uint32_t lo, uint32_t hi, uint32_t *at, uint32_t *ent, uint32_t *n,
		       struct excess *x)
{
	for (uint32_t e = lo; e < hi; e++) {
		if (e + AGG_AHEAD < hi) /* (rows read at random: agg_fetch) */
			agg_fetch(a, agg_incl_cycles(a, e + AGG_AHEAD), ev < 0 ? 0 : ev);
		if (!agg_is_cycle(a, e) && a->fn_cycle[e])
			continue; /* a member: its cycle is the entity */
		uint32_t i = rowed ? (*at)++ : e;
		cost_t buf[MAX_EVENTS];
		const cost_t *inc = agg_roots_incl(p, a, e, buf);
		if (x)
			excess_note(x, e, calls[i], inc[0]);
		if (ev < 0)
			continue;
		cost_t d = (cost_t)((uint64_t)event_value(p, inc, ev) - (uint64_t)calls[i]);
		if (!d)
			continue;
		calls[*n] = d;
		ent[(*n)++] = e;
	}
}

/* r's roots: the first n of calls and of r->ent (see agg_roots_keep) */
static void roots_done(struct agg_roots *r, uint32_t n, cost_t *calls, cost_t *cyc_in)
{
	r->n = n;
	r->ent = xreallocarray(r->ent, (size_t)n + 1, sizeof(*r->ent));
	r->val = xreallocarray(calls, (size_t)n + 1, sizeof(cost_t));
	r->cyc_in = cyc_in;
}

/* ---- the work, on threads -------------------------------------------------------------- */

/* Tasks [next, ntask) that whichever thread is free takes in order */
struct task_list {
	uint32_t ntask, next; /* next: the task to take (atomic) */
	void (*task)(void *arg, uint32_t t);
	void *arg;
};

static void *task_worker(void *arg)
{
	struct task_list *l = arg;
	for (uint32_t t; (t = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED)) < l->ntask;)
		l->task(l->arg, t);
	return NULL;
}

/* Runs l's tasks on up to nth threads, this one among them (one that
 * cannot be started leaves its tasks to the others). */
static void run_tasks(struct task_list *l, uint32_t nth)
{
	/* (another thread may be taking them already: agg_finish) */
	uint32_t next = __atomic_load_n(&l->next, __ATOMIC_RELAXED);
	uint32_t left = next < l->ntask ? l->ntask - next : 0;
	nth = nth < left ? nth : left;
	uint32_t started = 0;
	pthread_t *th = xcalloc((size_t)nth + 1, sizeof(*th));
	for (uint32_t i = 1; i < nth; i++)
		if (pthread_create(&th[started], NULL, task_worker, l) == 0)
			started++;
	task_worker(l);
	for (uint32_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	free(th);
}

/* What the threads of one aggregation share.  A phase is a list of tasks
 * that whichever thread is free takes in order; no two tasks write the same
 * place, and the sums are of 64-bit values with wrap-around (cost_add),
 * whose result is the same in any order: the aggregation is the same at
 * any number of threads. */
struct agg_run {
	struct profile *p;
	struct agg *a;
	uint32_t nth;             /* threads, and parts of a split task */
	void (*task)(struct agg_run *r, uint32_t t);
	uint32_t *to, ncyc;       /* the callees in out_idx's order; the cycles
				   * found (phase 1's task 0) */
	uint32_t *bound;          /* nth + 1: part k sums the calls of the callers
				   * [bound[k], bound[k + 1]) */
	uint32_t **into;          /* per part: the calls from outside into the
				   * cycles' members (incl_part) */
	size_t *ninto;
	cost_t **cyc_count;       /* per part, if any: their counts by cycle */
	uint32_t nparts;          /* phase 2's parts of the inclusive costs */
	cost_t **in;              /* per part: the first event of the
				   * calls into each entity */
	cost_t **cyc;             /* per part, with p->agg_roots0: every event of
				   * the calls into each cycle (ncycles rows) */
	cost_t **cyc_sum;         /* per part, if there are cycles: its members'
				   * self costs by cycle (ncycles rows), then
				   * their calls leaving the cycle (ncycles rows) */
};

static void phase_task(void *arg, uint32_t t)
{
	struct agg_run *r = arg;
	r->task(r, t);
}

/* Runs tasks [0, ntask) on up to r->nth threads (run_tasks) */
static void agg_phase(struct agg_run *r, uint32_t ntask, void (*task)(struct agg_run *, uint32_t))
{
	r->task = task;
	struct task_list l = { ntask, 0, phase_task, r };
	run_tasks(&l, r->nth);
}

/* The row of its own of entity id (see agg.self_ix), to write */
static cost_t *own_self(struct agg *a, uint32_t id)
{
	return &a->self_rows[(size_t)(a->self_ix[id] - a->self_nff) * (size_t)a->nreal];
}

/* Which functions have a self row of their own (see agg.self_ix): those
 * whose costs are in several block subtotals, and one row of zeros for
 * those in none; the others have their one subtotal's.  Returns how many
 * rows of their own there are, the row of zeros included. */
static uint32_t self_plan(const struct profile *p, struct agg *a)
{
	enum { NONE = NO_ID, SEVERAL = NO_ID - 1 };
	const struct linestore *ls = &p->ls;
	uint32_t n = a->nfns, *ix = a->self_ix = xmalloc(((size_t)n + 1) * sizeof(*ix));
	memset(ix, 0xff, ((size_t)n + 1) * sizeof(*ix)); /* (NONE) */
	/* both kinds of index in 32 bits, below SEVERAL: the subtotals, then
	 * at most a row for each function and one for each cycle (of two
	 * functions or more) */
	int share = a->nreal > 0 && (uint64_t)ls->nff + 2 * (uint64_t)n + 2 < SEVERAL;
	for (uint32_t k = 0; k < ls->nff; k++) {
		uint32_t *x = &ix[ls->ff[k].fn];
		*x = *x == NONE && share ? k : SEVERAL;
	}
	a->self_ff = ls->ffcost;
	a->self_nff = share ? ls->nff : 0;
	uint32_t nrow = 1;
	for (uint32_t v = 0; v < n; v++) {
		if (ix[v] == NONE)
			ix[v] = a->self_nff;
		else if (ix[v] == SEVERAL)
			ix[v] = a->self_nff + nrow++;
	}
	return nrow;
}

static struct filefn *filefn_make(const struct profile *p, const struct agg *a, struct agg *job,
				  size_t *np, cost_t **poolp);

/* The calls into each function counted, and those to itself noted
 * (count_cycles counts those into the cycles). */
static void count_calls(const struct profile *p, struct agg *a)
{
	for (uint32_t x = 0; x < p->ncalls; x++) {
		const struct call_rec *c = &p->calls[x];
		if (x + AHEAD < p->ncalls) /* (read at random) */
			__builtin_prefetch(&a->fn_ncalls[p->calls[x + AHEAD].callee], 1);
		a->fn_ncalls[c->callee] = cost_add(a->fn_ncalls[c->callee], call_count(p, x));
		if (c->caller == c->callee)
			a->fn_selfcall[c->caller] = 1;
	}
}

/* Phase 1: the call lists, then the components (the longest task, first);
 * the calls by callee; the block subtotals by file (and with them, for the
 * report, the file:function pairs); the calls counted (they need no
 * component: here, they fill the time the other tasks leave the second
 * thread while the components are found); the self costs, in nth parts of
 * the functions (each reads every block's function, sums its own). */
static void phase1(struct agg_run *r, uint32_t t)
{
	struct profile *p = r->p;
	struct agg *a = r->a;
	const struct linestore *ls = &p->ls;
	uint32_t n = a->nfns;
	int nr = a->nreal;
	if (t == 0) {
		csr_build(n, p->calls, p->ncalls, 0, &a->out_start, &a->out_idx, &r->to);
		/* (numbered as found: agg_finish numbers them again; a
		 * difference has none of its own: the calls of both sides
		 * together make cycles neither has, agg_take_side) */
		r->ncyc = p->ndiff ? 0 : scc(n, a->out_start, r->to, a->fn_cycle);
		/* which functions call out of their component, which inside */
		for (uint32_t v = 0; v < n; v++)
			for (uint32_t e = a->out_start[v]; e < a->out_start[v + 1]; e++)
				a->fn_out[v] |= agg_call_kind(a, v, r->to[e]) == CALL_PLAIN ? AGG_OUT_LEAVES
											    : AGG_OUT_INSIDE;
		free(r->to);
		r->to = NULL;
	} else if (t == 1) {
		csr_build(n, p->calls, p->ncalls, 1, &a->in_start, &a->in_idx, NULL);
	} else if (t == 2) {
		a->nfiles = p->files.n;
		a->file_start = xcalloc((size_t)a->nfiles + 2, sizeof(uint32_t));
		a->file_idx = xmalloc(((size_t)ls->nff + 1) * sizeof(uint32_t));
		for (uint32_t k = 0; k < ls->nff; k++)
			a->file_start[ls->ff[k].file + 1]++;
		for (uint32_t f = 0; f < a->nfiles; f++)
			a->file_start[f + 1] += a->file_start[f];
		uint32_t *fill = xmalloc(((size_t)a->nfiles + 1) * sizeof(uint32_t));
		memcpy(fill, a->file_start, ((size_t)a->nfiles + 1) * sizeof(uint32_t));
		for (uint32_t k = 0; k < ls->nff; k++)
			a->file_idx[fill[ls->ff[k].file]++] = k;
		free(fill);
		/* the report's pairs, from the blocks by file, while the
		 * longest task (the components) goes on */
		if (p->agg_pairs)
			a->way_ff = filefn_make(p, a, NULL, &a->way_nff, &a->way_pool);
	} else if (t == 3) {
		count_calls(p, a);
	} else { /* (the rows of their own: self_plan) */
		uint32_t lo = agg_part_start(n, t - 4, r->nth), hi = agg_part_start(n, t - 3, r->nth);
		for (uint32_t k = 0; k < ls->nff; k++) {
			uint32_t fn = ls->ff[k].fn;
			if (k + AHEAD < ls->nff) /* (read at random) */
				__builtin_prefetch(&a->self_ix[ls->ff[k + AHEAD].fn]);
			if (fn < lo || fn >= hi || a->self_ix[fn] < a->self_nff)
				continue; /* (its row is this one) */
			cost_t *d = own_self(a, fn);
			const cost_t *c = &ls->ffcost[(size_t)k * nr];
			for (int e = 0; e < nr; e++)
				d[e] = cost_add(d[e], c[e]);
		}
	}
}

/* The calls from outside into each cycle (cin_*), and their count in the
 * cycle's entity: incl_part's lists merged in the records' order, then put
 * in their cycles' order, each cycle's in the records'. */
static void count_cycles(struct agg_run *r)
{
	struct profile *p = r->p;
	struct agg *a = r->a;
	uint32_t n = a->nfns, nc = a->ncycles;
	size_t ninto = 0, *at = xcalloc(r->nparts, sizeof(*at));
	for (uint32_t k = 0; k < r->nparts; k++) {
		ninto += r->ninto[k];
		for (uint32_t c = 0; r->cyc_count[k] && c < nc; c++)
			a->fn_ncalls[n + c] = cost_add(a->fn_ncalls[n + c], r->cyc_count[k][c]);
		free(r->cyc_count[k]);
	}
	uint32_t *into = xmalloc((ninto + 1) * sizeof(*into));
	a->cin_start = xcalloc((size_t)nc + 2, sizeof(uint32_t));
	for (size_t i = 0; i < ninto; i++) {
		uint32_t best = NO_ID;
		for (uint32_t k = 0; k < r->nparts; k++)
			if (at[k] < r->ninto[k] &&
			    (best == NO_ID || r->into[k][at[k]] < r->into[best][at[best]]))
				best = k;
		into[i] = r->into[best][at[best]++];
		a->cin_start[a->fn_cycle[p->calls[into[i]].callee]]++;
	}
	for (uint32_t k = 0; k < r->nparts; k++)
		free(r->into[k]);
	free(at);
	for (uint32_t k = 0; k < nc; k++)
		a->cin_start[k + 1] += a->cin_start[k];
	a->cin_idx = xmalloc((ninto + 1) * sizeof(uint32_t));
	uint32_t *fill = xmalloc(((size_t)nc + 1) * sizeof(uint32_t));
	memcpy(fill, a->cin_start, ((size_t)nc + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < ninto; i++)
		a->cin_idx[fill[a->fn_cycle[p->calls[into[i]].callee] - 1]++] = into[i];
	free(fill);
	free(into);
}

/* Inclusive costs of part k of the functions: self + the calls that leave
 * the function's component (the others are already inside those calls'
 * costs), in the rows of those that have such calls (incl_ix); the first
 * event of each such call summed into its callee's entity, to check the
 * file's numbers; those into a cycle's member kept (count_cycles).  A
 * cycle's members' self costs and calls leaving it are summed by cycle
 * (cycle_sums: one read of each member's self row, which is read here
 * anyway when it has an inclusive row).  The records are read in their
 * order, each part taking its callers'.  Phase 2: nparts of these. */
static void incl_part(struct agg_run *r, uint32_t k)
{
	const struct profile *p = r->p;
	struct agg *a = r->a;
	int nr = a->nreal;
	uint32_t n = a->nfns, lo = r->bound[k], hi = r->bound[k + 1];
	cost_t *cs = r->cyc_sum ? r->cyc_sum[k] : NULL;
	cost_t *cl = cs ? cs + (size_t)a->ncycles * nr : NULL;
	for (uint32_t v = lo; v < hi; v++) {
		if (v + AGG_AHEAD < hi && (a->incl_ix[v + AGG_AHEAD] != NO_ID ||
					   a->fn_cycle[v + AGG_AHEAD])) { /* (rows read at random) */
			const cost_t *f = agg_self(a, v + AGG_AHEAD);
			__builtin_prefetch(f);
			__builtin_prefetch(f + (nr ? nr - 1 : 0));
		}
		uint32_t c = a->fn_cycle[v];
		if (a->incl_ix[v] == NO_ID && !c)
			continue;
		const cost_t *s = agg_self(a, v);
		if (a->incl_ix[v] != NO_ID)
			memcpy(&a->incl_rows[(size_t)a->incl_ix[v] * nr], s, sizeof(cost_t) * (size_t)nr);
		if (c) {
			cost_t *d = &cs[(size_t)(c - 1) * nr];
			for (int e = 0; e < nr; e++)
				d[e] = cost_add(d[e], s[e]);
		}
	}
	cost_t *in = r->in[k];
	uint32_t *into = NULL;
	size_t ninto = 0, capinto = 0;
	for (uint32_t x = 0; x < p->ncalls; x++) {
		const struct call_rec *c = &p->calls[x];
		uint32_t v = c->caller, to = c->callee;
		/* (cycles and rows read at random: the ends' cycles and the
		 * row's place fetched 2 * AHEAD records on, the row and the
		 * callee's sum AHEAD on) */
		if (x + 2 * AHEAD < p->ncalls) {
			const struct call_rec *f = &p->calls[x + 2 * AHEAD];
			if (f->caller >= lo && f->caller < hi) {
				__builtin_prefetch(&a->fn_cycle[f->callee]);
				__builtin_prefetch(&a->fn_cycle[f->caller]);
				__builtin_prefetch(&a->incl_ix[f->caller]);
			}
		}
		if (x + AHEAD < p->ncalls) {
			const struct call_rec *f = &p->calls[x + AHEAD];
			if (f->caller >= lo && f->caller < hi && a->incl_ix[f->caller] != NO_ID) {
				const cost_t *row = &a->incl_rows[(size_t)a->incl_ix[f->caller] * nr];
				__builtin_prefetch(row, 1);
				__builtin_prefetch(row + (nr ? nr - 1 : 0), 1);
				__builtin_prefetch(&in[f->callee], 1);
			}
		}
		/* (the call leaves v's component: the cycles tell, read for
		 * the callee anyway, not the components) */
		if (v < lo || v >= hi || agg_call_kind(a, v, to) != CALL_PLAIN)
			continue;
		cost_t cc[MAX_EVENTS], count = call_count_cost(p, x, cc);
		cost_t *inc = &a->incl_rows[(size_t)a->incl_ix[v] * nr]; /* (it has one) */
		for (int e = 0; e < nr; e++)
			inc[e] = cost_add(inc[e], cc[e]);
		if (a->fn_cycle[v]) { /* (it leaves v's cycle) */
			cost_t *d = &cl[(size_t)(a->fn_cycle[v] - 1) * nr];
			for (int e = 0; e < nr; e++)
				d[e] = cost_add(d[e], cc[e]);
		}
		if (nr) {
			cost_t *d = &in[a->fn_cycle[to] ? n + a->fn_cycle[to] - 1 : to];
			*d = cost_add(*d, cc[0]);
		}
		if (!a->fn_cycle[to])
			continue;
		/* a call from outside into a cycle's member (its component
		 * is the cycle; a function calling itself is in its own) */
		VEC_RESERVE(into, capinto, ninto + 1);
		into[ninto++] = x;
		if (!r->cyc_count[k])
			r->cyc_count[k] = xcalloc((size_t)a->ncycles + 1, sizeof(cost_t));
		cost_t *cn = &r->cyc_count[k][a->fn_cycle[to] - 1];
		*cn = cost_add(*cn, count);
		if (r->cyc) {
			if (!r->cyc[k])
				r->cyc[k] = xcalloc((size_t)a->ncycles * (size_t)nr + 1, sizeof(cost_t));
			cost_t *d = &r->cyc[k][(size_t)(a->fn_cycle[to] - 1) * (size_t)nr];
			for (int e = 0; e < nr; e++)
				d[e] = cost_add(d[e], cc[e]);
		}
	}
	r->into[k] = into;
	r->ninto[k] = ninto;
}

/* Detection off, part k of the functions: self + every call is the
 * inclusive cost with detection on (self + the calls leaving the
 * component) plus the calls inside it (a cycle's members', a function's to
 * itself), in the rows of those that make such calls (raw_ix): only those
 * calls are decoded, the records read in their order.  A difference's
 * function whose inclusive cost is its sides' (AGG_OUT_SIDES) has a row
 * too: its self + every call. */
static void raw_part(struct agg_run *r, uint32_t k)
{
	const struct profile *p = r->p;
	struct agg *a = r->a;
	int nr = a->nreal;
	uint32_t lo = r->bound[k], hi = r->bound[k + 1];
	for (uint32_t v = lo; v < hi; v++)
		if (a->raw_ix[v] != NO_ID)
			memcpy(&a->raw_rows[(size_t)a->raw_ix[v] * nr],
			       a->fn_out[v] & AGG_OUT_SIDES ? agg_self(a, v) : agg_incl_cycles(a, v),
			       sizeof(cost_t) * (size_t)nr);
	for (uint32_t x = 0; x < p->ncalls; x++) {
		const struct call_rec *c = &p->calls[x];
		uint32_t v = c->caller, to = c->callee;
		/* (cycles and rows read at random: a row's place fetched
		 * 2 * AHEAD records on, the row itself AHEAD on) */
		if (x + 2 * AHEAD < p->ncalls)
			__builtin_prefetch(&a->raw_ix[p->calls[x + 2 * AHEAD].caller]);
		if (x + AHEAD < p->ncalls) {
			const struct call_rec *n = &p->calls[x + AHEAD];
			__builtin_prefetch(&a->fn_cycle[n->callee]);
			if (n->caller >= lo && n->caller < hi && a->raw_ix[n->caller] != NO_ID)
				__builtin_prefetch(&a->raw_rows[(size_t)a->raw_ix[n->caller] * nr], 1);
		}
		if (v < lo || v >= hi ||
		    (to != v && !(a->fn_out[v] & AGG_OUT_SIDES) &&
		     (!a->fn_cycle[v] || a->fn_cycle[to] != a->fn_cycle[v])))
			continue; /* leaves the component: counted */
		cost_t cc[MAX_EVENTS];
		call_cost(p, x, cc);
		cost_t *inc = &a->raw_rows[(size_t)a->raw_ix[v] * nr]; /* (it has one) */
		for (int e = 0; e < nr; e++)
			inc[e] = cost_add(inc[e], cc[e]);
	}
}

/* A cycle's self cost is its members', its inclusive cost theirs (their
 * self costs and the calls leaving it): the sums of incl_part's parts
 * added into the cycles' rows. */
static void cycle_sums(struct agg_run *r)
{
	struct agg *a = r->a;
	int nr = a->nreal;
	uint32_t nc = a->ncycles;
	for (uint32_t k = 0; k < r->nparts; k++) {
		const cost_t *cs = r->cyc_sum[k], *cl = cs + (size_t)nc * nr;
		for (uint32_t c = 0; c < nc; c++) {
			uint32_t ce = a->nfns + c;
			cost_t *s = own_self(a, ce), *inc = NULL;
			if (a->incl_ix[ce] != NO_ID)
				inc = &a->incl_rows[(size_t)a->incl_ix[ce] * nr];
			const cost_t *ms = &cs[(size_t)c * nr], *ml = &cl[(size_t)c * nr];
			for (int e = 0; e < nr; e++) {
				s[e] = cost_add(s[e], ms[e]);
				if (inc)
					inc[e] = cost_add(inc[e], cost_add(ms[e], ml[e]));
			}
		}
		free(r->cyc_sum[k]);
	}
	free(r->cyc_sum);
	r->cyc_sum = NULL;
}

/* The callers of each of nth parts: about as many calls each. */
static int u32_below(const void *x, const void *want)
{
	return *(const uint32_t *)x < *(const uint64_t *)want;
}

static uint32_t *call_parts(const struct agg *a, uint32_t nth, uint64_t ncalls)
{
	uint32_t *b = xmalloc(((size_t)nth + 1) * sizeof(*b));
	b[0] = 0;
	for (uint32_t k = 1; k < nth; k++) {
		uint64_t want = ncalls * k / nth; /* the first v with out_start[v] >= want */
		b[k] = b[k - 1] + (uint32_t)first_not_below(&a->out_start[b[k - 1]], a->nfns - b[k - 1],
							    sizeof(uint32_t), u32_below, &want);
	}
	b[nth] = a->nfns;
	return b;
}

static uint32_t agg_threads(const struct profile *p)
{
	int j = load_jobs(p->jobs);
	return j < 1 ? 1 : (uint32_t)j;
}

uint32_t agg_parts(const struct profile *p, uint32_t n)
{
	return n < AGG_PART_MIN ? 1 : agg_threads(p);
}

void agg_parallel(const struct profile *p, uint32_t ntask, void (*task)(void *arg, uint32_t k),
		  void *arg)
{
	struct task_list l = { ntask, 0, task, arg };
	run_tasks(&l, agg_threads(p));
}

static double agg_clock(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void agg_roots_keep(const struct profile *p, const struct agg *a, struct agg_roots *r,
		    cost_t *calls, int rowed, cost_t *cyc_in)
{
	/* one pass, the kept moved down in place (the n-th kept is at most
	 * the n-th row); their ids in an array of one per entity, cut to
	 * size at the end */
	uint32_t nent = agg_nent(a), n = 0, at = 0;
	r->ent = xmalloc(((size_t)nent + 1) * sizeof(*r->ent));
	roots_pass(p, a, r->event, calls, rowed, 0, nent, &at, r->ent, &n, NULL);
	roots_done(r, n, calls, cyc_in);
}

/* An aggregation begun (agg_start): its run, and the thread that finds
 * the components (phase 1's task 0) */
struct agg_early {
	struct agg_run r;
	double t0;
	pthread_t th;
	int started;
	/* the other tasks of phase 1, which the thread takes on when its own
	 * is done, once agg_finish has them (join), or none (closed): the
	 * thread waits for one or the other */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct task_list *join;
	int closed;
};

static struct agg_early *agg_prepare(struct profile *p)
{
	struct agg_early *e = xcalloc(1, sizeof(*e));
	e->t0 = agg_clock();
	struct agg *a = xcalloc(1, sizeof(*a));
	a->nreal = p->nreal;
	uint32_t n = a->nfns = p->nfns;
	a->cycles = 1;
	a->fn_cycle = xcalloc((size_t)n + 1, sizeof(uint32_t));
	a->fn_selfcall = xcalloc((size_t)n + 1, 1);
	a->fn_out = xcalloc((size_t)n + 1, 1);
	e->r = (struct agg_run){ .p = p, .a = a, .nth = agg_threads(p) };
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->cond, NULL);
	return e;
}

static void *early_components(void *arg)
{
	struct agg_early *e = arg;
	phase1(&e->r, 0);
	pthread_mutex_lock(&e->lock);
	while (!e->join && !e->closed)
		pthread_cond_wait(&e->cond, &e->lock);
	struct task_list *l = e->join;
	pthread_mutex_unlock(&e->lock);
	if (l)
		task_worker(l);
	return NULL;
}

/* The thread of e takes on the tasks of l (NULL: none, it ends) */
static void early_hand(struct agg_early *e, struct task_list *l)
{
	pthread_mutex_lock(&e->lock);
	if (l)
		e->join = l;
	else
		e->closed = 1;
	pthread_cond_signal(&e->cond);
	pthread_mutex_unlock(&e->lock);
}

struct agg_early *agg_start(struct profile *p)
{
	if (p->agg || agg_threads(p) < 2)
		return NULL;
	struct agg_early *e = agg_prepare(p);
	e->started = pthread_create(&e->th, NULL, early_components, e) == 0;
	return e;
}

/* Waits for the thread of e, if any, which has no tasks to take on but
 * those handed (early_hand) already: its work is done. */
static void early_join(struct agg_early *e)
{
	if (e->started) {
		early_hand(e, NULL);
		pthread_join(e->th, NULL);
	}
	e->started = 0;
}

/* e itself freed, its thread done */
static void early_end(struct agg_early *e)
{
	early_join(e);
	pthread_cond_destroy(&e->cond);
	pthread_mutex_destroy(&e->lock);
	free(e);
}

void agg_early_free(struct agg_early *e)
{
	if (!e)
		return;
	early_join(e);
	free(e->r.to);
	agg_free(e->r.a);
	early_end(e);
}

const struct agg *profile_agg(struct profile *p)
{
	return agg_finish(p, NULL);
}

const struct agg *agg_finish(struct profile *p, struct agg_early *early)
{
	if (p->agg) {
		agg_early_free(early);
		return p->agg;
	}
	int dbg = env_flag("CGTUI_PAR_DEBUG");
	struct agg_early *ea = early ? early : agg_prepare(p);
	/* (the fields a thread of agg_start only reads: its task 0 writes
	 * ea->r's to and ncyc) */
	struct agg_run r = { .p = ea->r.p, .a = ea->r.a, .nth = ea->r.nth };
	struct agg *a = r.a;
	int nr = a->nreal;
	uint32_t n = a->nfns;
	double t0 = ea->t0;
	/* the self costs first in the functions' rows, the cycles' added
	 * when they are known */
	size_t row = sizeof(cost_t) * (size_t)(nr ? nr : 1);
	uint32_t nself = self_plan(p, a);
	a->self_rows = xcalloc(nself, row);
	/* the calls into the functions, counted in phase 1 (the cycles'
	 * later; made here, not with the other arrays in agg_prepare: there,
	 * the explorer's paused peak at 1 GB was 1.1 MB higher) */
	a->fn_ncalls = xcalloc((size_t)n + 1, sizeof(cost_t));
	/* (the components found meanwhile by a thread of their own: the
	 * others' tasks, which it takes on when done, one of the threads) */
	int ahead = ea->started;
	r.task = phase1;
	struct task_list l = { 4 + r.nth, ahead ? 1 : 0, phase_task, &r };
	if (ahead)
		early_hand(ea, &l);
	run_tasks(&l, r.nth - (ahead && r.nth > 1));
	if (ahead) {
		early_join(ea);
		r.ncyc = ea->r.ncyc;
	}
	early_end(ea);
	double t1 = agg_clock();

	/* the cycles: they are entities after the functions, numbered in the
	 * order of their first function (the first met in a pass over the
	 * functions), their members listed */
	uint32_t nc = a->ncycles = r.ncyc, found = 0;
	uint32_t *renum = xcalloc((size_t)nc + 1, sizeof(*renum)); /* (by scc's number) */
	a->cyc_start = xcalloc((size_t)nc + 1, sizeof(uint32_t));
	for (uint32_t v = 0; v < n; v++) {
		uint32_t k = a->fn_cycle[v];
		if (!k)
			continue;
		if (!renum[k])
			renum[k] = ++found;
		a->fn_cycle[v] = renum[k];
		a->cyc_start[renum[k]]++;
	}
	free(renum);
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
	a->self_ix = xreallocarray(a->self_ix, nent + 1, sizeof(uint32_t));
	for (uint32_t k = 1; k <= nc; k++)
		a->self_ix[n + k - 1] = a->self_nff + nself + k - 1;
	a->self_rows = xrealloc(a->self_rows, (nself + nc) * row);
	memset((char *)a->self_rows + (size_t)nself * row, 0, nc * row);
	/* the rows of inclusive costs: the functions' that call out of
	 * their component, the cycles' one of whose members does (see
	 * incl_ix) */
	a->incl_ix = xmalloc((nent + 1) * sizeof(uint32_t));
	uint32_t nrow = 0;
	for (uint32_t v = 0; v < n; v++)
		a->incl_ix[v] = a->fn_out[v] & AGG_OUT_LEAVES ? nrow++ : NO_ID;
	for (uint32_t k = 1; k <= nc; k++) {
		a->incl_ix[n + k - 1] = NO_ID;
		for (uint32_t i = a->cyc_start[k - 1]; i < a->cyc_start[k]; i++)
			if (a->incl_ix[a->cyc_fn[i]] != NO_ID) {
				a->incl_ix[n + k - 1] = nrow++;
				break;
			}
	}
	a->nincl = nrow;
	a->incl_rows = xcalloc((size_t)nrow + 1, row);
	a->fn_ncalls = xreallocarray(a->fn_ncalls, nent + 1, sizeof(cost_t));
	memset(&a->fn_ncalls[n], 0, (nc + 1) * sizeof(cost_t));
	/* (as many parts as threads; the calls are counted in phase 1, and
	 * those into the cycles with the inclusive costs: counted in a task
	 * of phase 2, a 1 GB profile's 1.7 M calls left the second thread
	 * idle 26 ms of its 73, and one part more to fill it took 3 MB more
	 * at 400 K functions, the explorer's peak over 0.35x the file) */
	r.nparts = r.nth;
	r.bound = call_parts(a, r.nparts, p->ncalls);
	r.into = xcalloc(r.nparts, sizeof(*r.into));
	r.ninto = xcalloc(r.nparts, sizeof(*r.ninto));
	r.cyc_count = xcalloc(r.nparts, sizeof(*r.cyc_count));
	r.in = xcalloc(r.nparts, sizeof(*r.in));
	/* (made here, not in the part's thread: in[0] is kept, and from
	 * another thread's malloc arena the explorer's paused peak at 1 GB
	 * was 1.9 MB higher) */
	for (uint32_t k = 0; k < r.nparts; k++)
		r.in[k] = xcalloc((size_t)n + nc + 1, sizeof(cost_t));
	/* (the roots of event 0 on the way: the calls into each entity from
	 * others, in[], are theirs; with detection on, as it is here) */
	int roots0 = p->agg_roots0 && nr > 0;
	if (roots0)
		r.cyc = xcalloc(r.nparts, sizeof(*r.cyc));
	if (nc) {
		r.cyc_sum = xcalloc(r.nparts, sizeof(*r.cyc_sum));
		for (uint32_t k = 0; k < r.nparts; k++)
			r.cyc_sum[k] = xcalloc(2 * (size_t)nc * (size_t)nr + 1, sizeof(cost_t));
	}
	agg_phase(&r, r.nparts, incl_part);
	count_cycles(&r);
	if (nc)
		cycle_sums(&r);
	free(r.into);
	free(r.ninto);
	free(r.cyc_count);
	free(r.bound);
	double t2 = agg_clock();

	cost_t *in = r.in[0];
	for (uint32_t k = 1; k < r.nparts; k++) {
		for (size_t e = 0; e < nent; e++)
			in[e] = cost_add(in[e], r.in[k][e]);
		free(r.in[k]);
	}
	free(r.in);
	/* the calls into each entity checked, and the roots of event 0 kept,
	 * in one pass that reads each one's row once (roots_pass; not in
	 * parts: the roots' array made beside the parts' sums, the explorer's
	 * paused peak at 1 GB was 3 MB higher) */
	struct excess x;
	int check = excess_begin(p, &x);
	uint32_t at = 0, nkept = 0;
	if (roots0) {
		size_t ncc = (size_t)nc * (size_t)nr;
		cost_t *cyc = xcalloc(ncc + 1, sizeof(cost_t));
		for (uint32_t k = 0; k < r.nparts; k++) {
			for (size_t i = 0; r.cyc[k] && i < ncc; i++)
				cyc[i] = cost_add(cyc[i], r.cyc[k][i]);
			free(r.cyc[k]);
		}
		free(r.cyc);
		struct agg_roots *ro = xcalloc(1, sizeof(*ro));
		ro->ent = xmalloc((nent + 1) * sizeof(*ro->ent));
		roots_pass(p, a, 0, in, 0, 0, (uint32_t)nent, &at, ro->ent, &nkept, check ? &x : NULL);
		roots_done(ro, nkept, in, cyc);
		ro->have = 1;
		a->roots = ro;
	} else {
		if (check)
			roots_pass(p, a, -1, in, 0, 0, (uint32_t)nent, &at, NULL, &nkept, &x);
		free(in);
	}
	if (check)
		excess_warn(p, a, &x);
	p->agg = a;
	if (dbg)
		fprintf(stderr, "cgtui: agg: %u thread%s, %.3f s wall (calls, cycles, self: %.3f s; "
				"inclusive: %.3f s)%s\n",
			r.nth, r.nth == 1 ? "" : "s", agg_clock() - t0, t1 - t0, t2 - t1,
			ahead ? "; the components begun before the profile was finished" : "");
	return a;
}

/* A job of agg_background: when it ends, every step is done.  (At the
 * priority of the rest: a reader waits for it, and a thread given a lower
 * one cannot be given its own back.) */
/* the aggregation whose job this thread runs (agg_yield: set by the
 * thread itself, not read from a->bg, which pthread_create may store only
 * after the job has begun) */
static __thread struct agg *job_of;

static void *bg_run(void *arg)
{
	struct agg *a = arg;
	job_of = a;
	a->bg_job(a->bg_arg);
	pthread_mutex_lock(&a->bg_lock);
	a->bg_steps = INT_MAX;
	pthread_cond_broadcast(&a->bg_cond);
	pthread_mutex_unlock(&a->bg_lock);
	return NULL;
}

int agg_ahead_allowed(int jobs, long ncpu)
{
	return jobs > 1 || (jobs == 0 && ncpu > 1);
}

int agg_background(struct profile *p, void *(*job)(void *), void *arg)
{
	struct agg *a = (struct agg *)profile_agg(p);
	agg_wait(a);
	if (!agg_ahead_allowed(p->jobs, sysconf(_SC_NPROCESSORS_ONLN)))
		return -1;
	pthread_mutex_init(&a->bg_lock, NULL);
	pthread_cond_init(&a->bg_cond, NULL);
	a->bg_steps = 0;
	a->bg_hold = 0;
	a->bg_job = job;
	a->bg_arg = arg;
	a->bg_running = 1; /* (before the thread: it reads it) */
	if (pthread_create(&a->bg, NULL, bg_run, a) != 0) {
		a->bg_running = 0;
		pthread_cond_destroy(&a->bg_cond);
		pthread_mutex_destroy(&a->bg_lock);
		return -1;
	}
	return 0;
}

void agg_wait(struct agg *a)
{
	if (a->bg_running) {
		agg_hold(a, 0); /* (waited for: it goes on at once) */
		pthread_join(a->bg, NULL);
		pthread_cond_destroy(&a->bg_cond);
		pthread_mutex_destroy(&a->bg_lock);
		a->bg_running = 0;
	}
}

void agg_step_done(struct agg *a)
{
	if (!a->bg_running)
		return; /* (not in a job) */
	pthread_mutex_lock(&a->bg_lock);
	a->bg_steps++;
	pthread_cond_broadcast(&a->bg_cond);
	pthread_mutex_unlock(&a->bg_lock);
}

void agg_wait_step(struct agg *a, int k)
{
	if (!a->bg_running)
		return;
	pthread_mutex_lock(&a->bg_lock);
	if (a->bg_steps < k && a->bg_hold) { /* (waited for: it goes on at once) */
		a->bg_hold = 0;
		pthread_cond_broadcast(&a->bg_cond);
	}
	while (a->bg_steps < k)
		pthread_cond_wait(&a->bg_cond, &a->bg_lock);
	pthread_mutex_unlock(&a->bg_lock);
}

void agg_hold(struct agg *a, int on)
{
	if (!a || !a->bg_running)
		return;
	pthread_mutex_lock(&a->bg_lock);
	a->bg_hold = on;
	if (!on)
		pthread_cond_broadcast(&a->bg_cond);
	pthread_mutex_unlock(&a->bg_lock);
}

void profile_hold_job(struct profile *p, int on)
{
	agg_hold(p->agg, on);
}

void agg_ask_stop(struct agg *a)
{
	pthread_mutex_lock(&a->bg_lock);
	__atomic_store_n(&a->bg_stop, 1, __ATOMIC_RELAXED);
	pthread_cond_broadcast(&a->bg_cond); /* (a held job wakes to stop) */
	pthread_mutex_unlock(&a->bg_lock);
}

void agg_yield(struct agg *a)
{
	if (!a || job_of != a)
		return; /* (not the job: whoever holds it does not wait for itself) */
	pthread_mutex_lock(&a->bg_lock);
	while (a->bg_hold && !__atomic_load_n(&a->bg_stop, __ATOMIC_RELAXED))
		pthread_cond_wait(&a->bg_cond, &a->bg_lock);
	pthread_mutex_unlock(&a->bg_lock);
}

int agg_stop_wanted(struct agg *a)
{
	agg_yield(a);
	return __atomic_load_n(&a->bg_stop, __ATOMIC_RELAXED);
}

void profile_set_cycles(struct profile *p, int on)
{
	struct agg *a = (struct agg *)profile_agg(p);
	if (a->bg_running && !on != !a->cycles) {
		agg_ask_stop(a);
		agg_wait(a);
		a->bg_stop = 0;
	}
	agg_wait(a);
	double t0 = agg_clock();
	if (!on && !a->raw_ix) { /* self + every call, in parts as above (raw_part) */
		size_t row = sizeof(cost_t) * (size_t)(a->nreal ? a->nreal : 1);
		uint32_t nrow = 0;
		a->raw_ix = xmalloc(((size_t)a->nfns + 1) * sizeof(uint32_t));
		for (uint32_t v = 0; v < a->nfns; v++)
			a->raw_ix[v] = a->fn_out[v] & (AGG_OUT_INSIDE | AGG_OUT_SIDES) ? nrow++ : NO_ID;
		a->nraw = nrow;
		a->raw_rows = xmalloc(((size_t)nrow + 1) * row);
		struct agg_run r = { .p = p, .a = a, .nth = agg_threads(p) };
		r.bound = call_parts(a, r.nth, p->ncalls);
		agg_phase(&r, r.nth, raw_part);
		free(r.bound);
		if (env_flag("CGTUI_PAR_DEBUG"))
			fprintf(stderr, "cgtui: agg: detection off: %u rows, %u thread%s, %.3f s wall\n",
				a->nraw, r.nth, r.nth == 1 ? "" : "s", agg_clock() - t0);
	}
	a->cycles = !!on;
}

int diff_side_parts(const struct profile *p, int side, struct partset *ps)
{
	if (parts_all_shown(p))
		return 0;
	int n = 0, any = 0;
	for (int k = 1; k <= p->nparts; k++)
		n += (p->parts[k - 1].sign < 0) == (side == 1);
	ps->nbits = n;
	ps->bits = xcalloc((size_t)(n + 63) / 64 + 1, sizeof(*ps->bits));
	for (int k = 1, j = 0; k <= p->nparts; k++) {
		if ((p->parts[k - 1].sign < 0) != (side == 1))
			continue;
		if (part_shown(p, k)) { /* (scope.h: bit j for part j + 1) */
			ps->bits[j / 64] |= (uint64_t)1 << (j % 64);
			any = 1;
		}
		j++;
	}
	return any ? 1 : -1;
}

/* The index of each of p's real events among s's (-1: none), by name */
static void side_events(const struct profile *p, const struct profile *s, int *ev)
{
	for (int e = 0; e < p->nreal; e++) {
		ev[e] = -1;
		for (int se = 0; se < s->nreal && ev[e] < 0; se++)
			if (!strcmp(s->ev[se].name, p->ev[e].name))
				ev[e] = se;
	}
}

void agg_take_side(struct profile *p, struct profile *s, int second)
{
	struct agg *a = (struct agg *)profile_agg(p);
	agg_wait(a);
	const struct agg *sa = profile_agg(s);
	int nr = a->nreal, ev[MAX_EVENTS];
	uint32_t nincl = 0;
	size_t row = sizeof(cost_t) * (size_t)(nr ? nr : 1);
	profile_index_fn_text(p);
	side_events(p, s, ev);
	/* s's cycles' members as p's functions (NO_ID: not there), and the
	 * rows they need */
	uint32_t *as = xmalloc(((size_t)sa->nfns + 1) * sizeof(*as));
	for (uint32_t sf = 0; sf < sa->nfns; sf++) {
		uint32_t f = as[sf] = sa->fn_cycle[sf] ? profile_fn_like(p, s, sf) : NO_ID;
		if (f == NO_ID)
			continue;
		if (!a->side_cycle) /* (its calls in that cycle: agg_call_kind) */
			a->side_cycle = xcalloc(2 * (size_t)a->nfns + 1, sizeof(*a->side_cycle));
		a->side_cycle[2 * (size_t)f + (second ? 1 : 0)] = sa->fn_cycle[sf];
		if (!(a->fn_out[f] & AGG_OUT_SIDES))
			nincl += a->incl_ix[f] == NO_ID;
	}
	if (nincl)
		a->incl_rows = xrealloc(a->incl_rows, ((size_t)a->nincl + nincl + 1) * row);
	for (uint32_t sf = 0; sf < sa->nfns; sf++) {
		uint32_t f = as[sf];
		if (f == NO_ID)
			continue;
		if (!(a->fn_out[f] & AGG_OUT_SIDES)) { /* (a row of its own) */
			if (a->incl_ix[f] == NO_ID) {
				a->incl_ix[f] = a->nincl++;
				memcpy(&a->incl_rows[(size_t)a->incl_ix[f] * nr], agg_self(a, f),
				       (size_t)nr * sizeof(cost_t));
			}
			a->fn_out[f] |= AGG_OUT_SIDES;
		}
		/* in s, its inclusive cost is without its calls to the other
		 * members of its cycle */
		cost_t *d = &a->incl_rows[(size_t)a->incl_ix[f] * nr];
		for (uint32_t i = sa->out_start[sf]; i < sa->out_start[sf + 1]; i++) {
			uint32_t x = sa->out_idx[i], to = s->calls[x].callee;
			if (to == sf || sa->fn_cycle[to] != sa->fn_cycle[sf])
				continue;
			cost_t cc[MAX_EVENTS];
			call_cost(s, x, cc);
			for (int e = 0; e < nr; e++) {
				cost_t v = ev[e] < 0 ? 0 : cc[ev[e]];
				d[e] = cost_add(d[e], second ? (cost_t)(0 - (uint64_t)v) : v);
			}
		}
	}
	free(as);
}

/* A block of a file:function pair that is not its first (agg_filefn):
 * block q, whose pair's first block is head */
struct ff_dup {
	uint32_t q, head;
};

static int cmp_ff_dup(const void *x, const void *y)
{
	const struct ff_dup *a = x, *b = y;
	return a->q < b->q ? -1 : a->q > b->q;
}

/* The pair of block q (agg_filefn): those of the blocks that are a pair's
 * first are numbered in their order, so block q's is q less the dup[0..d)
 * before it, d of them; a dup's (dup[d].q == q) is its head's. */
static int ff_dup_below(const void *dup, const void *q)
{
	return ((const struct ff_dup *)dup)->q < *(const uint32_t *)q;
}

static size_t ff_pair(const struct ff_dup *dup, size_t ndup, size_t d, uint32_t q)
{
	if (d == ndup || dup[d].q != q)
		return q - d;
	uint32_t h = dup[d].head; /* (the dups before h: all before q) */
	return h - first_not_below(dup, d, sizeof(*dup), ff_dup_below, &h);
}

/* agg_filefn()'s pairs from a's blocks by file; job: the aggregation
 * whose job ahead may be asked to stop (NULL: never) */
static struct filefn *filefn_make(const struct profile *p, const struct agg *a, struct agg *job,
				  size_t *np, cost_t **poolp)
{
	int nr = p->nreal;
	const struct linestore *ls = &p->ls;
	/* group the blocks' file subtotals (ls.ff) by (file, function name):
	 * file by file (the aggregation's file_idx, each file's blocks in
	 * their order), a name's first block in the file (mark[name]) is
	 * its group's, the head; the others are noted in dup (706,951
	 * blocks of a 1 GB profile have 385: no array of a group per block,
	 * which the pairs would find beside them in memory) */
	uint32_t *mark = xcalloc((size_t)p->names.n + 1, sizeof(*mark));
	struct ff_dup *dup = NULL;
	size_t ndup = 0, capdup = 0;
	const uint32_t nk = a->file_start[a->nfiles], *fx = a->file_idx;
	for (uint32_t f = 0; f < a->nfiles; f++) {
		for (uint32_t k = a->file_start[f]; k < a->file_start[f + 1]; k++) {
			/* (a job ahead: not while a key is handled, nor when its
			 * work is of no use: left for whoever asks) */
			if (!(k & 0xffff) && job && agg_stop_wanted(job)) {
				free(mark);
				free(dup);
				*np = 0;
				*poolp = NULL;
				return NULL;
			}
			/* (each block's subtotal, its function and the function's
			 * name's mark are read at random, one leading to the next:
			 * fetched 3, 2 and 1 times AHEAD blocks on) */
			if (k + 3 * AHEAD < nk)
				__builtin_prefetch(&ls->ff[fx[k + 3 * AHEAD]]);
			if (k + 2 * AHEAD < nk)
				__builtin_prefetch(&p->fns[ls->ff[fx[k + 2 * AHEAD]].fn]);
			if (k + AHEAD < nk)
				__builtin_prefetch(&mark[p->fns[ls->ff[fx[k + AHEAD]].fn].name], 1);
			uint32_t q = fx[k], name = p->fns[ls->ff[q].fn].name, at = mark[name];
			if (at < q && ls->ff[at].file == f && p->fns[ls->ff[at].fn].name == name) {
				VEC_RESERVE(dup, capdup, ndup + 1);
				dup[ndup++] = (struct ff_dup){ q, at };
			} else {
				mark[name] = q;
			}
		}
	}
	free(mark);
	if (ndup > 1)
		qsort(dup, ndup, sizeof(*dup), cmp_ff_dup);
	/* the groups in the order of their first blocks; a group's function
	 * is its first block's, or the first whose own file it is */
	size_t n = ls->nff - ndup;
	struct filefn *ff = xmalloc((n + 1) * sizeof(*ff));
	size_t nmulti = 0;
	for (uint32_t q = 0, d = 0; q < ls->nff; q++) {
		if (!(q & 0xffff) && job && agg_stop_wanted(job)) {
			free(ff);
			free(dup);
			*np = 0;
			*poolp = NULL;
			return NULL;
		}
		uint32_t file = ls->ff[q].file, fn = ls->ff[q].fn;
		struct filefn *g = &ff[ff_pair(dup, ndup, d, q)];
		if (d == ndup || dup[d].q != q) {
			*g = (struct filefn){ .file = file, .fn = fn, .row = q };
			continue;
		}
		d++;
		if (p->fns[g->fn].file != file && p->fns[fn].file == file)
			g->fn = fn;
		if (g->row < FILEFN_POOL)
			g->row = FILEFN_POOL + (uint32_t)nmulti++;
	}
	/* A group of one block has that block's subtotal: ls.ffcost lives
	 * as long as the profile and is not moved after loading (replaying
	 * deferred lines, linestore_refill, adds no block).  The others are
	 * summed into one pool (fewer than FILEFN_POOL rows: the blocks,
	 * nreal costs each, are fewer than that): every block of such a
	 * group, its first too, adds to its row there. */
	cost_t *pool = nmulti ? xcalloc(nmulti * (size_t)nr, sizeof(cost_t)) : NULL;
	for (uint32_t q = 0, d = 0; nmulti && q < ls->nff; q++) {
		const struct filefn *g = &ff[ff_pair(dup, ndup, d, q)];
		d += d < ndup && dup[d].q == q;
		if (g->row < FILEFN_POOL)
			continue;
		cost_t *c = &pool[(size_t)(g->row - FILEFN_POOL) * nr];
		const cost_t *b = &ls->ffcost[(size_t)q * nr];
		for (int e = 0; e < nr; e++)
			c[e] = cost_add(c[e], b[e]);
	}
	free(dup);
	*poolp = pool;
	*np = n; /* in no particular order: every reader orders by cost */
	return ff;
}

struct filefn *agg_filefn(struct profile *p, size_t *np, cost_t **poolp)
{
	struct agg *a = (struct agg *)profile_agg(p);
	if (!a->way_ff)
		return filefn_make(p, a, a, np, poolp);
	struct filefn *ff = a->way_ff; /* (made on the aggregation's way) */
	*np = a->way_nff;
	*poolp = a->way_pool;
	a->way_ff = NULL;
	a->way_pool = NULL;
	return ff;
}

void filefn_free(struct filefn *ff, cost_t *pool)
{
	free(pool);
	free(ff);
}

void agg_filefn_ahead(struct profile *p)
{
	struct agg *a = p->agg;
	if (!a->have_ff) {
		a->ff = agg_filefn(p, &a->nff, &a->ff_pool);
		a->have_ff = a->ff != NULL; /* (NULL: asked to stop) */
	}
	agg_step_done(a);
}

const struct filefn *agg_filefn_kept(struct profile *p, size_t *n, const cost_t **pool)
{
	struct agg *a = (struct agg *)profile_agg(p);
	agg_wait_step(a, 1); /* (made meanwhile: agg_filefn_ahead) */
	if (!a->have_ff) {
		a->ff = agg_filefn(p, &a->nff, &a->ff_pool);
		a->have_ff = 1;
	}
	*n = a->nff;
	*pool = a->ff_pool;
	return a->ff;
}
