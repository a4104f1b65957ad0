/* context.h -- calling-context trees: a node per distinct call path from a
 * thread's root, with the self cost and the calls of that path; made exact
 * by the recorder or estimated from the call edges of any Callgrind file.
 * The flame graph, the callers (bottom-up) tree and the folded stacks are
 * read from it.  No terminal here.
 *
 * A node is an entity (aggregate.h: a function, or in an estimated tree
 * with cycle detection on a cycle) under its parent.  Recursion is folded:
 * a call to a function already on the path is given to its earlier
 * occurrence (its `rec` counts how deep recursion went there), so no
 * function is twice on a path and the tree is finite.  Every cost is in one
 * node's self, so a node's inclusive cost (self + its descendants') is the
 * cost of every call along its path, and an entity's inclusive cost is the
 * sum over its nodes.
 *
 * Estimated (cctx_estimate): the top-down call tree with estimated shares
 * (tree.h: each call's cost split among the paths into its caller in
 * proportion to their costs; the one cycle rule, so no path goes round a
 * cycle), a node's self being its cost less its children's.  Nodes under
 * the threshold (rank.h) are left to their parent (a root, having none, is
 * kept whatever its cost: the paths add up to the total).  The size is bounded:
 * the largest paths (by the event's value) are made and grown first, roots
 * as other nodes; past max_nodes a node is not grown -- its callees' cost
 * stays in it, counted in `cut` -- and a root not yet made is left out: its
 * cost is in no node, counted in `cut` and in `left` (with `nleft`), which
 * the paths' readers must say (a Cachegrind file's functions are all roots).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_CONTEXT_H
#define CGTUI_CONTEXT_H

#include <stdint.h>
#include <stdio.h>

#include "model.h"

/* The estimate's default bound: a million nodes (about 100 MB with 13
 * events; 30 MB with one).  For tests, CGTUI_CTX_NODES (environment, a
 * number from 1) sets it lower or higher. */
#define CCTX_MAX_NODES_DEFAULT (1u << 20)

enum {
	CC_CUT = 1,   /* not grown (the bound, or the recorder's --max-contexts):
		       * its self holds costs of paths below it */
	CC_SMALL = 2, /* an estimate's node some calls of which, under the
		       * threshold, are not nodes: its self holds their costs */
	CC_MORE = CC_CUT | CC_SMALL, /* its self is more than the function's */
	CC_ALLCALLS = 4, /* count holds its recursive calls too, not told apart
			  * (a contexts file of version 1); rcount 0 */
};

struct cctx_node {
	uint32_t fn;            /* the entity */
	uint32_t parent;        /* NO_ID for a root */
	uint32_t depth;         /* 0 for a root */
	uint32_t first, nchild; /* after cctx_finish: children kid[first .. first+nchild) */
	uint32_t rec;           /* 1, or the deepest recursion folded into it */
	uint32_t flags;
	int part;               /* the part (thread) of its path, 0-based; -1: all */
	cost_t count;           /* calls from its parent along the path (estimated:
				 * the edge's); see CC_ALLCALLS */
	cost_t rcount;          /* the recursive calls folded into it (recorded:
				 * made with a frame of it live, estimated: the
				 * edges' back into it); not in count */
};

struct cctx {
	struct profile *p;
	int nreal;
	int estimated;          /* made from call edges, not recorded */
	struct cctx_node *node;
	uint32_t n, cap;
	cost_t *self, *incl;    /* n * nreal; incl made by cctx_finish */
	uint32_t *kid;          /* children lists (cctx_finish) */
	uint32_t *root, nroots; /* the roots, in the order added */
	cost_t cut[MAX_EVENTS]; /* cost on cut paths (in CC_CUT nodes' self,
				 * and the roots left out's: `left`) */
	uint32_t nleft;         /* an estimate's roots left out by the bound */
	cost_t left[MAX_EVENTS]; /* their cost, in no node */
};

static inline const cost_t *cctx_self(const struct cctx *t, uint32_t n)
{
	return &t->self[(size_t)n * (size_t)t->nreal];
}
static inline const cost_t *cctx_incl(const struct cctx *t, uint32_t n)
{
	return &t->incl[(size_t)n * (size_t)t->nreal];
}

/* An empty tree of p's events. */
struct cctx *cctx_new(struct profile *p, int estimated);
void cctx_free(struct cctx *t);
/* Adds a node under parent (NO_ID: a root; a parent is added before its
 * children) with self cost `self` (nreal; NULL: zero); returns its index.
 * Children keep the order they are added in. */
uint32_t cctx_add(struct cctx *t, uint32_t parent, uint32_t fn, cost_t count, const cost_t *self,
		  int part);
/* Adds `c` (nreal) to node n's self cost. */
void cctx_add_self(struct cctx *t, uint32_t n, const cost_t *c);
/* Adds src's calls (count, rcount, CC_ALLCALLS) to dst's, the two kinds
 * apart unless one of them has them together. */
void cctx_add_calls(struct cctx_node *dst, const struct cctx_node *src);
/* After the last cctx_add: the children lists and the inclusive costs. */
void cctx_finish(struct cctx *t);

/* What the bound left out of an estimate (nleft, left) for `event`:
 * "N roots left out at M contexts, the smallest: X EV (P%)" (P of the
 * total; "1 root" for one), which a reader of its paths follows with where
 * that cost is not; NULL when nothing was left out.  Free it. */
char *cctx_left_text(const struct cctx *t, int event);

/* The cost on cut paths (cut) for `event`: "N EV (P%) on paths cut short"
 * (P of the total), which a reader follows with what that means; NULL
 * when there is none.  Free it. */
char *cctx_cut_text(const struct cctx *t, int event);

/* Orders every node's children by the inclusive cost of `event` (rank.h's
 * one ordering: the largest magnitude first, then by name). */
void cctx_order(struct cctx *t, int event);

/* The estimate from p's call edges (see above), ordered as the call tree
 * for `event` (rank.h); threshold in percent; max_nodes 0: the default. */
struct cctx *cctx_estimate(struct profile *p, int event, double threshold, uint32_t max_nodes);

/* Recorded contexts are kept in a file beside each profile file, PROFILE.ctx,
 * so that the profile stays a Callgrind file every reader reads unchanged.
 * Its format (version 2), one record a line, fields separated by one tab
 * (names may hold blanks):
 *
 *   cgtui-contexts<TAB>2
 *   events:<TAB>Ir<TAB>Dr ...          the profile's events, in its order
 *   part:<TAB>N                        the nodes after it are of the file's
 *                                      `part: N` (default: its first part)
 *   fn:<TAB>K<TAB>OBJECT<TAB>FILE<TAB>NAME   function K (from 0) of this
 *                                      file: as the profile names it
 *   ctx:<TAB>N<TAB>P<TAB>K<TAB>CALLS<TAB>RCALLS<TAB>REC<TAB>CUT<TAB>C1<TAB>C2 ...
 *       node N (from 0, in order) under node P (-1: a root; P < N) for
 *       function K, called CALLS times from P along its path (entered with
 *       no frame of it live) and RCALLS times more by the recursion folded
 *       into it, REC the deepest recursion folded into it (1: none; RCALLS
 *       0), CUT 1 when paths below it were cut (--max-contexts) and their
 *       costs are in its self, C1... its self cost per event
 *   cut:<TAB>C1<TAB>C2 ...             the cost on cut paths (per part)
 *
 * Version 1 (written by older recorders) is read too: its ctx: lines have
 * no RCALLS, their CALLS being every call, recursive ones included
 * (CC_ALLCALLS).
 *
 * Reads PROFILE.ctx for the profile file `source` (one of p->sources) into
 * t (parts mapped to p's): 0, 1 when there is no such file, -1 with
 * "FILE:LINE: what is wrong" in err. */
int cctx_read(struct cctx *t, const char *source, char *err, size_t errsz);

/* The lines of the files the recorder writes beside a profile (.ctx, and
 * .time: timeline.h): line split at tabs into f (room for max), returns
 * how many; a decimal number (the whole field), 0 or -1; the function of p
 * named (object, file, name) as the profile names it (when the object or
 * file is not one of p's, the first of that name), NO_ID if none. */
int beside_fields(char *line, char **f, int max);
int beside_num(const char *s, long long *v);
uint32_t beside_find_fn(const struct profile *p, const char *obj, const char *file, const char *name);

/* The contexts of p for the views: the recorded ones when the profile has
 * them (for every file loaded), else the estimate (ordered for `event`,
 * threshold as the call tree's; a recorded tree keeps every node); free
 * with cctx_free.  A file beside that cannot be read is said in a warning
 * of p, and the estimate is used. */
struct cctx *cctx_of(struct profile *p, int event, double threshold);

/* The recorded contexts alone: cctx_of's when the profile has them, else
 * NULL (warn: a file beside that cannot be read is said in a warning). */
struct cctx *cctx_recorded(struct profile *p, int event, int warn);

/* The paths of every part together (the parts' nodes of one path made one,
 * their costs and counts summed; part -1); finished, in no order. */
struct cctx *cctx_merged(const struct cctx *t);

/* Every node with its path (entities, the root first; depth + 1 long), depth
 * first, children in order; only those of part `part` (-1: all). */
typedef void (*cctx_visit_fn)(void *arg, const struct cctx *t, uint32_t n, const uint32_t *path,
			      uint32_t len);
void cctx_walk(const struct cctx *t, int part, cctx_visit_fn visit, void *arg);

/* Node n's cost as its function's own along its path (nreal into c): the
 * one cycle rule (ARCHITECTURE.md), where that function is a cycle's member
 * (detection on), its self there and the calls it makes out of its cycle
 * (its children of no member: a call leaving the cycle has no member below
 * it), not the other members' below it; else its inclusive cost.  Summed
 * over a function's nodes it is the function's inclusive cost with
 * detection on (every cost is in one node, recursion in the earlier
 * occurrence); with it off, its time on the stack, which callgrind's raw
 * inclusive of a recursive function is more than. */
void cctx_own(const struct cctx *t, uint32_t n, cost_t *c);

/* The callers tree of entity fn: its root is fn at the sum over its nodes
 * of their cctx_own (its inclusive cost), a node's children are the callers
 * along those paths (node n's path reversed from fn), each at the cost fn
 * has when called through that chain (exact when t is).  A node's self is
 * what paths that start at it bring.  Part as in cctx_walk. */
struct cctx *cctx_callers(const struct cctx *t, uint32_t fn, int part);

/* Folded stacks (flamegraph.pl, inferno): a line "a;b;c N" for each node
 * whose self cost of event `event` is positive, N that value, frames named
 * by fn_label (';' in a name becomes ':', line breaks blanks).  Part as in
 * cctx_walk. */
void cctx_folded(struct cctx *t, int part, int event, FILE *out);

#endif
