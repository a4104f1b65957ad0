/* query.h -- what the views and the report ask of a loaded profile:
 * a function's callers and callees, a file's per-line costs and call sites,
 * functions ordered by a cost.  No terminal here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_QUERY_H
#define CGTUI_QUERY_H

#include "aggregate.h"
#include "model.h"

/* Whether the profile has inclusive costs: it records calls.  Without any
 * (every Cachegrind profile, a Callgrind file without calls= lines), a
 * function's inclusive cost is its self cost. */
int query_has_calls(const struct profile *p);

/* A caller or callee of an entity (a function or a cycle: aggregate.h),
 * summed over the call sites, as the one cycle rule makes it (with cycle
 * detection on, KCachegrind's): the callers of a cycle member are the
 * members calling it (CALL_IN_CYCLE), itself (CALL_RECURSIVE) and its cycle
 * (CALL_MEMBER: the calls from outside, at the member's inclusive cost); a
 * call from outside into a member is a call of its cycle "via" the member;
 * a cycle's callers are those calls, its callees its members.  With
 * detection off, every call as recorded (CALL_PLAIN). */
struct edge {
	uint32_t fn;        /* the other entity */
	uint32_t via;       /* into a cycle: the member called; else NO_ID */
	enum call_kind kind;
	cost_t count;
	cost_t *cost;       /* inclusive cost of the calls (real events); a
			     * share of the total only when call_kind_costed(kind);
			     * in the edges' own allocation (freeing the edges
			     * frees it), but a CALL_MEMBER edge's is its member's
			     * inclusive cost in the aggregation, read only (a
			     * cycle's 300,000 members: not copied) */
};
/* The callers (callers != 0) or callees of entity id, unordered; *out is
 * malloc'ed. */
int query_edges(struct profile *p, uint32_t id, int callers, struct edge **out);
/* The same, reading only the calls with the other entities (the cycle
 * of a call into one) for which keep(p, other, arg) holds (NULL: all):
 * for a cycle's callees, only those members' calls are read.  *nleft (if
 * not NULL) is how many other entities were left out. */
int query_edges_keep(struct profile *p, uint32_t id, int callers,
		     int (*keep)(struct profile *p, uint32_t other, void *arg), void *arg,
		     struct edge **out, int *nleft);
/* Orders edges: those with a cost (call_kind_costed) by rank_cmp on event,
 * then the others by their count, most first. */
void query_sort_edges(const struct profile *p, struct edge *ed, size_t n, int event);
/* The same order as indices, the edges left where they are: order[i] is
 * the index in ed of the i-th (an edge is large: a cost per event). */
void query_order_edges(const struct profile *p, const struct edge *ed, size_t n, int event,
		       uint32_t *order);
/* The same order made as it is read (rank_lazy): query_edge_at(o, i) is
 * the index in ed of the i-th edge, for a view that shows a page of a
 * cycle's 300,000 members (o reads ed's costs when made, and its ends
 * on a tie as it is read: ed must outlive o). */
struct edge_order;
struct edge_order *query_edge_order(const struct profile *p, const struct edge *ed, size_t n,
				    int event);
uint32_t query_edge_at(struct edge_order *o, size_t i);
void query_edge_order_free(struct edge_order *o);
/* The callees of cycle entity `cycle` (detection on) -- its members, as
 * query_edges() makes them: CALL_MEMBER at their inclusive costs -- in
 * the order query_edge_order() puts their edges, without the edges (a
 * cycle of 300,000 members: 9 MB less): query_edge_at(o, i) is the i-th's
 * index among the members (aggregate.h: cyc_fn from cyc_start[k - 1]).
 * query_member_calls() is a member's edge's count: the calls into it from
 * outside its cycle. */
struct edge_order *query_member_order(struct profile *p, uint32_t cycle, int event);
cost_t query_member_calls(struct profile *p, uint32_t member);

/* A file's self cost per line, summed over functions, ordered by line. */
struct file_lines {
	uint32_t n;
	uint32_t *line;
	cost_t *cost; /* n * nreal */
};
void query_file_lines(struct profile *p, uint32_t file, struct file_lines *out);
void file_lines_free(struct file_lines *fl);
/* The same for one function's lines in file (code from a header, inlined). */
void query_fn_file_lines(struct profile *p, uint32_t fn, uint32_t file, struct file_lines *out);
/* The files a function's costs are in (Callgrind's fi=/fe=), with its self
 * cost in each (nreal per file), in the order first met; both malloc'ed. */
int query_fn_files(struct profile *p, uint32_t fn, uint32_t **files, cost_t **costs);

/* Calls made from a file's lines, ordered by line then callee. */
struct call_site {
	uint32_t line, callee;
	uint32_t caller;     /* (of the first call summed into it) */
	enum call_kind kind; /* the cycle rule: cost a share of the total? */
	cost_t count;
	cost_t cost[MAX_EVENTS];
};
int query_file_calls(const struct profile *p, uint32_t file, struct call_site **out);
/* The same for the calls made by fn only (NO_ID: every function). */
int query_fn_file_calls(const struct profile *p, uint32_t fn, uint32_t file,
			struct call_site **out);

/* The function named name, preferring one of object obj (NO_ID: any);
 * NO_ID when there is none. */
uint32_t query_fn_by_name(const struct profile *p, const char *name, uint32_t obj);

/* Orders fns[0..n) by a cost of each, largest magnitude first (a
 * difference's big decreases among the first), then larger value, then by
 * name.  key(fn)
 * gives the cost vector (real events) and `event` which event (real or
 * derived) to compare. */
void query_sort_fns(const struct profile *p, uint32_t *fns, size_t n,
		    const cost_t *(*key)(const struct profile *p, uint32_t fn, void *arg),
		    void *arg, int event);

/* Orders fns[0..n) by something else than a cost: calls into each (most
 * first), name, or file then name. */
enum fn_order { FN_BY_CALLS = 1, FN_BY_NAME, FN_BY_FILE };
void query_order_fns(struct profile *p, uint32_t *fns, size_t n, enum fn_order by);

/* The orders of query_sort_fns and query_order_fns made as they are read
 * (rank_lazy): query_fns_at(o, i) is the i-th of fns[0..n) in order, for a
 * list of 400,000 functions of which a page is shown.  The cost order
 * reads each function's cost once, when made; the other orders move fns
 * itself (kept by the caller until the order is freed). */
struct fn_lazy;
struct fn_lazy *query_fns_lazy(const struct profile *p, uint32_t *fns, size_t n,
			       const cost_t *(*key)(const struct profile *p, uint32_t fn, void *arg),
			       void *arg, int event);
struct fn_lazy *query_fns_lazy_by(struct profile *p, uint32_t *fns, size_t n, enum fn_order by);
uint32_t query_fns_at(struct fn_lazy *o, size_t i);
void query_fns_lazy_free(struct fn_lazy *o);

#endif
