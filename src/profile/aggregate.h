/* aggregate.h -- what is computed from a loaded profile: per-function self
 * and inclusive costs, call counts, callers/callees, cycles, and cg_annotate's
 * file:function / function:file groupings.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_AGGREGATE_H
#define CGTUI_AGGREGATE_H

#include <pthread.h>

#include "model.h"

/* The top-down call tree's roots for one event (tree.c: find_roots; event
 * 0's by the aggregation on its way, with profile.agg_roots0): the
 * entities whose inclusive cost the calls from other entities do not all
 * reach in that event, in order of id, and that part of it (the event's
 * value); the rows of all the events are made only for the roots a tree
 * shows, from the sums of the calls into each cycle (cyc_in, every
 * event: a cycle may have 300,000 callers) or the calls into the
 * function.  Entries are made by the explorer's thread and never move. */
struct agg_roots {
	struct agg_roots *next;
	int event;
	int have;           /* 0 not found, 1 found, 2 being found (tree.c) */
	uint32_t n, *ent;
	cost_t *val;
	cost_t *cyc_in;     /* ncycles rows of nreal */
};

/* The inclusive cost of entity e that the roots are found from (the rule
 * of agg_roots_keep): with detection on, but a difference's function
 * whose cost is its sides' (agg_take_side) has self + its calls to other
 * functions, B's minus A's, made in buf (nreal): less the calls into it
 * from others, that is the part of it no call reaches, B's minus A's. */
const cost_t *agg_roots_incl(const struct profile *p, const struct agg *a, uint32_t e,
			    cost_t *buf);
/* Keeps in r the roots of r->event (see struct agg_roots; the rule of
 * find_roots in tree.c): the entities, no cycle's member (its cycle is
 * one), whose inclusive cost in that event less calls[], the sum in that
 * event of the calls into each from other entities, is not nothing, and
 * that difference.  calls[] has a row for each entity that is no member,
 * in order of id, when rowed; else one for each id.  calls and cyc_in (the
 * calls into each cycle, every event) are taken (calls becomes r->val);
 * r->have is the caller's to set. */
void agg_roots_keep(const struct profile *p, const struct agg *a, struct agg_roots *r,
		    cost_t *calls, int rowed, cost_t *cyc_in);

/* Functions and cycles are entities of one id space: ids [0, nfns) are the
 * functions, [nfns, nfns + ncycles) the cycles (agg_cycle_ent).  A cycle is
 * what KCachegrind makes of a strongly connected component of two or more
 * functions of the call graph: its self cost is its members' self, its
 * inclusive cost that plus the calls leaving it, its calls those from
 * outside into its members. */
struct agg {
	int nreal;
	uint32_t nfns;
	uint32_t ncycles;   /* cycles found (whether shown or not) */
	int cycles;         /* cycle detection on (default): see profile_set_cycles */
	/* The self costs (read them with agg_self): a function whose costs
	 * are in one block subtotal of the line store (ls.ff, most are) has
	 * that row, which lives as long as the profile and is not moved after
	 * loading: self_ix[id] < self_nff is an index of ls.ffcost (self_ff).
	 * The others, the cycles and the functions of several blocks or of
	 * none, have a row of their own, self_rows[self_ix[id] - self_nff]
	 * (row 0: zeros, those of none).  400,000 functions of 13 events,
	 * 252,000 of them in one block, have 16 MB of rows instead of 42. */
	uint32_t *self_ix;  /* nfns + ncycles */
	const cost_t *self_ff;
	uint32_t self_nff;
	cost_t *self_rows;
	/* The inclusive costs (read them with agg_incl): a row of nreal for
	 * the entities that have one, in the order of their ids (a pass over
	 * the entities reads them in order), the others' the row below.
	 * With detection on, self + the calls leaving the function's
	 * component (KCachegrind's): incl_rows[incl_ix[id]], or the self row
	 * when incl_ix[id] is NO_ID (no such call: a leaf, a member calling
	 * only inside its cycle; a cycle none of whose members calls out).
	 * Off, self + every call, recursive ones too (callgrind_annotate's):
	 * raw_rows[raw_ix[id]], or the row with detection on when raw_ix[id]
	 * is NO_ID (no call inside its component); made when first asked
	 * for. */
	uint32_t *incl_ix;  /* nfns + ncycles */
	cost_t *incl_rows;
	uint32_t nincl;     /* rows in incl_rows */
	uint32_t *raw_ix;   /* nfns */
	cost_t *raw_rows;
	uint32_t nraw;
	/* nfns: a function's calls (AGG_OUT_LEAVES: one leaving its
	 * component, AGG_OUT_INSIDE: one inside it, itself included) */
	uint8_t *fn_out;
	cost_t *fn_ncalls;  /* (nfns + ncycles): calls into each (a cycle: from outside) */
	uint32_t *fn_cycle; /* nfns: 0, or the 1-based cycle it belongs to */
	uint8_t *fn_selfcall; /* nfns: it calls itself */
	/* a difference's (agg_take_side), NULL when no side has cycles: nfns
	 * pairs, the cycle each function belongs to in side A, in side B (0:
	 * none) */
	uint32_t *side_cycle;
	uint32_t *cyc_start, *cyc_fn; /* members of cycle k (1-based):
				       * cyc_fn[cyc_start[k - 1] .. cyc_start[k]) */
	/* call records by caller and by callee (CSR: start[fn]..start[fn+1]) */
	uint32_t *out_start, *out_idx;
	uint32_t *in_start, *in_idx;
	/* the calls from outside into each cycle's members: cycle k's are
	 * cin_idx[cin_start[k - 1] .. cin_start[k]) (a cycle's callers without
	 * reading the calls between its members) */
	uint32_t *cin_start, *cin_idx;
	/* the line store's block subtotals (ls.ff) by file: which functions
	 * have costs in a file (CSR over file ids) */
	uint32_t nfiles;
	uint32_t *file_start, *file_idx;
	struct filefn *ff; /* agg_filefn_kept() */
	cost_t *ff_pool;
	size_t nff;
	int have_ff;
	/* the pairs made on the aggregation's way (profile.agg_pairs), until
	 * agg_filefn() hands them over */
	struct filefn *way_ff;
	cost_t *way_pool;
	size_t way_nff;
	/* tree.c's top-down roots with cycle detection on, found for an
	 * event when a call tree first asks for it (they decode every call):
	 * a list of one entry per event asked for (struct agg_roots) */
	struct agg_roots *roots;
	struct agg_roots *roots_ahead; /* the job ahead's (trees_prepare) */
	/* tree.c's sums of the cycles' members' inclusive costs, by blocks of
	 * members in cyc_fn's order (member_sums), made when first needed:
	 * cycle k's rows (nreal each) from msum_at[k - 1] */
	uint32_t *msum_at;
	cost_t *msum;
	int have_msum;      /* as agg_roots.have */
	/* a job that reads the aggregation on a thread of its own while the
	 * explorer shows its first screen (agg_background: the groups'
	 * pairs, the roots), and writes only what nobody reads before
	 * agg_wait() or, for what it makes first, agg_wait_step() */
	pthread_t bg;
	int bg_running;
	pthread_mutex_t bg_lock;
	pthread_cond_t bg_cond;
	int bg_steps; /* the steps the job has done (agg_step_done) */
	int bg_stop;  /* (atomic) the job is asked to stop (agg_stop_wanted) */
	int bg_hold;  /* the job waits at its next agg_yield (agg_hold) */
	void *(*bg_job)(void *);
	void *bg_arg;
};

/* Computes (or returns the cached) aggregation of p. */
const struct agg *profile_agg(struct profile *p);
/* The aggregation begun before p is finished (profile_finish, the names
 * demangled), when it may use two threads: the call graph's components,
 * which read only the call records, found on a thread of its own.  NULL
 * when not begun.  Then agg_finish(p, early) is profile_agg(p) that takes
 * it on (early NULL: profile_agg), or agg_early_free(early) drops it. */
struct agg_early *agg_start(struct profile *p);
const struct agg *agg_finish(struct profile *p, struct agg_early *early);
void agg_early_free(struct agg_early *early);
void agg_free(struct agg *a);
/* Cycle detection on (the default) or off.  Off, there are no cycle
 * entities, no function is a member, every call is CALL_PLAIN and
 * inclusive costs are callgrind_annotate's (recursive calls counted again
 * at every level: they may pass the total). */
void profile_set_cycles(struct profile *p, int on);
/* A difference (p->ndiff) has no cycles of its own: the calls of both
 * sides together make cycles neither side has.  Its inclusive costs are
 * B's minus A's, each side aggregated alone with its own cycle rule: self
 * + the calls to other functions is that already, but for a function that
 * is a cycle's member in a side, whose inclusive cost there leaves out
 * its calls to the other members.  This takes those of side s (second:
 * B, else A) out of them (functions matched by their names' texts,
 * profile_fn_like), and with detection off they have self + every call
 * (B's minus A's).  A call's cost is its records', B's minus A's. */
void agg_take_side(struct profile *p, struct profile *s, int second);
struct partset;
/* The parts of a difference's side (1 the first, 2 the second) that the
 * difference p shows, by the side's own load index (its parts are those
 * of p of its sign, in the same order), in *ps: 0 when p shows all (ps
 * left empty), -1 when it shows none of them. */
int diff_side_parts(const struct profile *p, int side, struct partset *ps);
/* May a job run beside the explorer, given the profile's jobs (0: the
 * default) and the machine's online cores?  When more than one job was
 * asked for, or by default on a machine with a second core, busy or not:
 * unlike the loader's threads (load_jobs(), fewer on a busy machine), the
 * job runs after the load and the first screen, while the explorer waits
 * for a key, so it takes nothing from either; not with --jobs=1. */
int agg_ahead_allowed(int jobs, long ncpu);
/* Starts job(arg) on a thread of its own and returns 0; -1 without it
 * when agg_ahead_allowed() says no or no thread starts.  The job may read the
 * profile and the aggregation, which nobody changes before agg_wait():
 * agg_free and profile_set_cycles wait, and so must a reader of what the
 * job writes. */
int agg_background(struct profile *p, void *(*job)(void *), void *arg);
/* A pass over n entities (or the like) that reads the aggregation: in how
 * many parts it is made, one for each of the aggregation's threads, or one
 * when n is under AGG_PART_MIN (no thread started for less).  Then
 * agg_parallel runs task(arg, k) for each part k in [0, ntask) on those
 * threads, this one among them; a task writes only its part's. */
enum { AGG_PART_MIN = 65536 };
uint32_t agg_parts(const struct profile *p, uint32_t n);
/* The first of part k of nparts of [0, n) (part k: up to part k + 1's) */
static inline uint32_t agg_part_start(uint32_t n, uint32_t k, uint32_t nparts)
{
	return (uint32_t)((uint64_t)n * k / nparts);
}
void agg_parallel(const struct profile *p, uint32_t ntask, void (*task)(void *arg, uint32_t k),
		  void *arg);
/* Waits for the job agg_background started, if any. */
void agg_wait(struct agg *a);
/* The job has done one more step of its work; agg_wait_step(a, k) waits
 * until it has done k (or ended). */
void agg_step_done(struct agg *a);
void agg_wait_step(struct agg *a, int k);
/* Holds the job (on) while the caller handles a key, so that on a busy
 * machine the two do not share a core: the job waits at its next
 * agg_yield() until released (off), waited for (agg_wait, agg_wait_step)
 * or asked to stop.  Nothing without a job.  profile_hold_job: the same
 * for p's aggregation, if made. */
void agg_hold(struct agg *a, int on);
void profile_hold_job(struct profile *p, int on);
/* In the job, now and then: waits while it is held.  Called by any other
 * thread (the same work done without a job), returns at once. */
void agg_yield(struct agg *a);
/* Asks the job to stop what it is doing (and wakes it if held). */
void agg_ask_stop(struct agg *a);
/* Should the job stop what it is doing (leaving it undone)?  Asked by
 * profile_set_cycles, which would otherwise wait for work it makes moot,
 * and agg_free.  It first waits while held (agg_yield). */
int agg_stop_wanted(struct agg *a);

/* Entities: the functions, then (detection on) the cycles. */
static inline uint32_t agg_nent(const struct agg *a)
{
	return a->nfns + (a->cycles ? a->ncycles : 0);
}
static inline int agg_is_cycle(const struct agg *a, uint32_t id)
{
	return id >= a->nfns;
}
/* The cycle number (1-based) of a cycle entity, or of the cycle a function
 * belongs to; 0 for none (and always with detection off). */
static inline uint32_t agg_cycle_no(const struct agg *a, uint32_t id)
{
	if (!a->cycles)
		return 0;
	return id >= a->nfns ? id - a->nfns + 1 : a->fn_cycle[id];
}
/* The entity of cycle k (1-based). */
static inline uint32_t agg_cycle_ent(const struct agg *a, uint32_t k)
{
	return a->nfns + k - 1;
}

static inline const cost_t *agg_self(const struct agg *a, uint32_t id)
{
	uint32_t k = a->self_ix[id];
	if (k < a->self_nff)
		return &a->self_ff[(size_t)k * a->nreal];
	return &a->self_rows[(size_t)(k - a->self_nff) * a->nreal];
}
/* A pass over many entities, reading one event of each one's row (self or
 * inclusive), fetches the row of the one AGG_AHEAD places on while it reads
 * this one: the self rows of the functions in one block are the line
 * store's subtotals, in the file's order, not the ids' (see self_ix), so
 * such a pass reads them at random. */
enum { AGG_AHEAD = 16 };
static inline void agg_fetch(const struct agg *a, const cost_t *row, int event)
{
	__builtin_prefetch(&row[event < a->nreal ? event : 0]);
}
enum { AGG_OUT_LEAVES = 1, AGG_OUT_INSIDE = 2, AGG_OUT_SIDES = 4 /* agg_take_side */ };
/* The inclusive costs with detection on, whether it is on or not. */
static inline const cost_t *agg_incl_cycles(const struct agg *a, uint32_t id)
{
	uint32_t k = a->incl_ix[id];
	return k == NO_ID ? agg_self(a, id) : &a->incl_rows[(size_t)k * a->nreal];
}
/* The inclusive costs in force (detection on or off): see incl_ix. */
static inline const cost_t *agg_incl(const struct agg *a, uint32_t id)
{
	uint32_t k;
	if (!a->cycles && (k = a->raw_ix[id]) != NO_ID)
		return &a->raw_rows[(size_t)k * a->nreal];
	return agg_incl_cycles(a, id);
}

/* The one cycle rule for a call from one entity to another.  A call's
 * inclusive cost is a share of the total only when it is CALL_PLAIN or
 * CALL_MEMBER; inside a cycle, and from a function to itself, callgrind
 * counts the cost of nested calls again at every level, so those calls show
 * their count and are marked, never given a share. */
enum call_kind {
	CALL_PLAIN,     /* between components: its cost is exact */
	CALL_RECURSIVE, /* a function calling itself */
	CALL_IN_CYCLE,  /* between two members of one cycle */
	CALL_MEMBER,    /* a cycle to one of its members: the member's
			 * inclusive cost (KCachegrind's) */
};
/* A difference's call from `from` to `to`: the number of the cycle of a
 * side, A's else B's, that both belong to; 0 when none.  A call inside a
 * cycle in either side has no cost of its own there, so none in the
 * difference: it is a call in a cycle (agg_call_kind). */
static inline uint32_t agg_side_cycle(const struct agg *a, uint32_t from, uint32_t to)
{
	const uint32_t *c = a->side_cycle;
	if (!c || !a->cycles || from >= a->nfns || to >= a->nfns)
		return 0;
	for (int k = 0; k < 2; k++)
		if (c[2 * (size_t)from + k] && c[2 * (size_t)from + k] == c[2 * (size_t)to + k])
			return c[2 * (size_t)from + k];
	return 0;
}
/* The cycle number to name with a call from `from` to `to` of kind
 * CALL_IN_CYCLE: the caller's cycle, or in a difference its side's
 * (from == to: the callee's, where the caller is not known). */
static inline uint32_t agg_call_cycle_no(const struct agg *a, uint32_t from, uint32_t to)
{
	uint32_t k = agg_cycle_no(a, from);
	return k ? k : agg_side_cycle(a, from, to);
}
static inline enum call_kind agg_call_kind(const struct agg *a, uint32_t from, uint32_t to)
{
	if (!a->cycles)
		return CALL_PLAIN;
	if (from == to)
		return CALL_RECURSIVE;
	if (from >= a->nfns || to >= a->nfns)
		return CALL_MEMBER;
	if (a->fn_cycle[from] && a->fn_cycle[from] == a->fn_cycle[to])
		return CALL_IN_CYCLE;
	return agg_side_cycle(a, from, to) ? CALL_IN_CYCLE : CALL_PLAIN;
}
/* Is a call of that kind's cost shown as a share of the total? */
static inline int call_kind_costed(enum call_kind k)
{
	return k == CALL_PLAIN || k == CALL_MEMBER;
}

/* One (file, function name) pair with its self cost: the rows of cg_annotate's
 * file:function and function:file sections.  The file is that of each cost
 * line (fi=/fe= aware); functions of the same name are one entry.  12
 * bytes: 706,000 pairs of a 1 GB profile take 8.5 MB, not 17 with their
 * name and a pointer for the cost (read them with filefn_name,
 * filefn_cost). */
struct filefn {
	uint32_t file;
	uint32_t fn;  /* a function of that name with costs in that file (the
		       * one whose own file it is, when there is one) */
	uint32_t row; /* its cost (nreal): row `row` of the line store's block
		       * subtotals (ls.ffcost), that of its one block, or with
		       * FILEFN_POOL, row (row - FILEFN_POOL) of the array's
		       * pool: the sum of its blocks */
};
/* The pair's function name: its function's (the pairs are in about the
 * order of the functions' ids, so a pass over them reads the functions in
 * about their order) */
static inline uint32_t filefn_name(const struct profile *p, const struct filefn *f)
{
	return p->fns[f->fn].name;
}
enum { FILEFN_POOL = 0x80000000u };
static inline const cost_t *filefn_cost(const struct profile *p, const cost_t *pool,
					const struct filefn *f)
{
	if (f->row >= FILEFN_POOL)
		return &pool[(size_t)(f->row - FILEFN_POOL) * (size_t)p->nreal];
	return &p->ls.ffcost[(size_t)f->row * (size_t)p->nreal];
}
/* Returns an array of *n entries and the pool of their costs that are
 * sums (*pool; free both with filefn_free); the groups in the order of
 * their first blocks in the line store.  In a job ahead asked to stop
 * (agg_stop_wanted), NULL.  Those the aggregation made on its way
 * (profile.agg_pairs) are handed over, once. */
struct filefn *agg_filefn(struct profile *p, size_t *n, cost_t **pool);
/* The same, computed once and kept with the aggregation (do not free). */
const struct filefn *agg_filefn_kept(struct profile *p, size_t *n, const cost_t **pool);
/* The same made ahead by a job of agg_background, as its first step
 * (which agg_filefn_kept waits for): it reads the line store's block
 * subtotals (ls.ff, ls.ffcost), which nothing changes after loading, and
 * the functions' names; asked to stop, it leaves them to agg_filefn_kept. */
void agg_filefn_ahead(struct profile *p);
void filefn_free(struct filefn *ff, cost_t *pool);

#endif
