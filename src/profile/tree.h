/* tree.h -- the explorer's trees, computed from the model: groups with their
 * entries (cg_annotate's file:function and function:file, and functions by
 * ELF object), and the call tree, grown one node at a time on demand.
 * No terminal here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_TREE_H
#define CGTUI_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "model.h"
#include "scope.h"

/* ---- groups ------------------------------------------------------------------ */

enum group_by {
	GROUP_FILE_FN, /* files, each with its functions (names) */
	GROUP_FN_FILE, /* function names, each with the files its costs are in */
	GROUP_OBJ_FN,  /* ELF objects (ob=), each with its functions */
};

struct gentry {
	uint32_t id;         /* a name (file:function), file (function:file) or function */
	uint32_t fn;         /* the function it stands for (NO_ID if none is known) */
	uint32_t src;        /* its function (objects) or file:function pair (groups.ff) */
	const cost_t *self;  /* nreal: its self cost */
	const cost_t *incl;  /* GROUP_OBJ_FN: the function's inclusive cost; else NULL */
	cost_t key;          /* set by groups_order: the value it is ordered by */
};

struct group {
	uint32_t id;         /* a file, function name or object */
	uint32_t fn;         /* GROUP_FN_FILE, shown: the function of its first entry; else NO_ID */
	uint32_t ix;         /* its number, in the order of the first entries (groups.keyof) */
	uint32_t ne;         /* its entries (in the scope) */
	/* set by groups_order: */
	struct gentry *e;    /* its shown entries, in order */
	uint32_t nshown;     /* entries e[0..nshown) pass the threshold */
	int shown;           /* shown at all: some entry passes the threshold */
	cost_t key;          /* the event's value of its total (group_total) */
	cost_t cum;          /* the event's value summed over the shown groups up to this one */
};

struct groups {
	enum group_by by;
	struct group *g;     /* after groups_order: largest first */
	uint32_t ng;
	uint32_t nkeys;      /* group ids are below this (files, names or objects) */
	/* owned storage */
	struct gentry *pool; /* the shown entries, group by group */
	const struct filefn *ff; /* kept by the aggregation */
	const cost_t *ffpool;    /* (their costs: filefn_cost) */
	size_t nff;
	size_t nsrc;         /* the entries' sources: functions (objects), else ff */
	uint32_t *keyof;     /* per source: its group's ix, NO_ID when out of the scope */
	cost_t *gsum;        /* groups_order's, per group ix: the event's total */
	uint32_t *gcnt;      /* and its shown entries, then their place in pool */
	struct gshown { uint32_t src; cost_t key; } *sh; /* the shown entries noted */
	size_t shcap;
};

/* Groups the costs of p (aggregated on demand) by `by`, the entries of the
 * functions scope s keeps only (scope.h; NULL: all), so that a group's
 * total is that of what it lists. */
struct groups *groups_build(struct profile *p, enum group_by by, const struct scope *s);
/* Orders the groups by the event's value of their total and each group's
 * entries by that of their self cost (by_incl: GROUP_OBJ_FN's entries by
 * their inclusive cost), largest magnitude first, then by name; an entry is
 * shown when its magnitude is at least threshold percent of the event's
 * total (as cg_annotate), a group when any of its entries is; cum runs over
 * the shown groups.  Only the shown entries are made and ordered (g->e;
 * g->ne counts them all), so that a few hundred thousand functions under the
 * threshold cost a read each and no sorting. */
void groups_order(struct groups *gs, const struct profile *p, int event, double threshold,
		  int by_incl);
void groups_free(struct groups *gs);
/* A group's total (nreal): the sum of its entries' self costs (a pass over
 * all entries: for a few groups, not every one). */
void group_total(const struct profile *p, const struct groups *gs, const struct group *g,
		 cost_t *total);
/* The text of a group and of an entry. */
const char *group_name(const struct profile *p, const struct groups *gs, const struct group *g);
const char *gentry_name(const struct profile *p, const struct groups *gs, const struct gentry *e);

/* ---- the call tree ----------------------------------------------------------- */

/* Nodes are entities (functions, and with cycle detection on cycles; see
 * aggregate.h), joined by the edges query_edges() makes, so the one cycle
 * rule holds here too.
 *
 * Top-down, the roots are the entities whose inclusive cost is not all
 * reached through calls from other entities: the program's entry, every
 * thread's start, a function that also ran before it was first called.  A
 * root shows that part of its cost, so the roots add up to the total (with
 * detection off, where recursive calls are counted again, the entities
 * nobody calls, at their inclusive cost: nobody but itself, or its cycle
 * when nothing outside the cycle calls any of it).  A node's children are its
 * callees (summed over the call sites), a cycle's children its members.
 * What part of a callee's edge the calls along the path shown made is not
 * recorded in a Callgrind file, so a node's cost is split (ctree.estimated,
 * as the flame graph's paths: context.h): a node of entity F showing cost
 * N gives the callee along edge F -> G the share N * cost(F -> G) / W of
 * it, W being F's inclusive cost (its self and its calls that leave its
 * cycle, aggregate.h: the calls its children stand for, so their shares
 * and F's self share N * self(F) / W add up to N), or the sum
 * of those calls if that is more (a file whose calls cost more than
 * their callee).  A root that others call too (clone, a thread's first
 * function, which the thread that made it calls as well: its parent side
 * makes no call) has the calls into it taken from its self first: its
 * callees share the sum of its calls less the part of the calls into it
 * that its self does not cover (where it covers them all, as there, each
 * callee gets its edge's exact cost).  A cycle's node gives each member
 * N * incl(member) / W, W the cycle's inclusive cost or its members' sum
 * if more.  Each share is
 * the difference of the rounded running shares (ctree_share, children in
 * their order), so no child is above its node and the children add up to
 * no more than it.  A node at its entity's whole inclusive cost (a root
 * nobody calls, and below it every node whose function has that one
 * caller) gives its callees their edges' exact costs.  A child shows the
 * call count of its whole edge (not scaled: calls are whole, and the
 * count says how often F called G, over all paths).  With detection off
 * (recursive calls counted again in the inclusive costs), in a difference
 * and in a profile with negative costs (shares of sums of both signs say
 * nothing), a child shows its edge's whole cost instead, as before: not
 * estimated, and a child may then be above its node.  Recorded calling
 * contexts (context.h) give the exact paths instead: ctree_recorded.
 *
 * Bottom-up, the one root is an entity at its inclusive cost and a node's
 * children are its callers.  What part of a node's cost each caller's calls
 * brought is not recorded in a Callgrind file (only a call path would say):
 * it is estimated by splitting the node's cost among its callers in
 * proportion to the inclusive costs of their calls (ctree.estimated), so no
 * node is ever above the root's cost, and a node's children add up to no
 * more than the node (the rounding is that of their running sums).  In a difference, and with detection
 * off, the nodes show the calls' own costs instead.  Recorded calling
 * contexts give the exact callers instead (ctree_recorded, the flame
 * graph's callers: cctx_callers).
 *
 * A call inside a cycle or of a function to itself (CALL_IN_CYCLE,
 * CALL_RECURSIVE) shows its count but no cost (cost NULL) and is not
 * grown.  An entity already on the path from the root is shown (marked
 * CT_RECURSIVE) but never grown, so the tree is finite; nodes are made only
 * when their parent is grown.  Nodes under the threshold (rank.h; a node
 * without a cost by the inclusive cost of its entity) are not made; nhidden
 * counts them.  Roots and each node's children are ordered by rank_cmp,
 * those without a cost last. */

enum {
	CT_GROWN = 1,     /* its children were made */
	CT_OPEN = 2,      /* its children are shown */
	CT_RECURSIVE = 4, /* its entity is on the path above it */
	CT_LEAF = 8,      /* it has no callees (bottom-up: no callers) at all */
};

struct ctree_node {
	uint32_t fn;             /* the entity */
	uint32_t via;            /* a call into a cycle: the member called, else NO_ID */
	uint32_t parent;         /* NO_ID for a root */
	uint32_t depth;          /* 0 for a root */
	uint32_t first, nchild;  /* once grown: its children are nodes first .. first+nchild-1 */
	uint32_t nhidden;        /* children under the threshold (not made) */
	uint32_t flags;
	uint32_t cn;             /* from recorded paths: its node in ctree.ctx */
	enum call_kind kind;     /* of the call along its edge (CALL_PLAIN for a root) */
	cost_t count;            /* calls along the edge (a root: none) */
	const cost_t *cost;      /* nreal: its cost (see above), NULL for none */
};

struct ctree {
	struct profile *p;
	int callers;             /* 1: bottom-up */
	uint32_t fn;             /* bottom-up: the root's entity */
	int estimated;           /* costs split by the calls' shares (see
				  * above): set by ctree_new both ways with
				  * detection on, not in a difference (top-
				  * down: nor with negative costs); the paths
				  * of a flame graph set it before any node is
				  * grown (context.c), ctree_regrow keeps it */
	int cycles;              /* made with cycle detection on (agg.cycles) */
	struct cctx *ctx;        /* from recorded paths (ctree_recorded: every
				  * part's merged, or fn's callers), else NULL */
	uint32_t *ctx_refs;      /* the trees sharing ctx (regrown ones) */
	int event;
	double threshold;
	struct ctree_node *node; /* the roots are nodes 0 .. nroots-1 */
	uint32_t nnodes, capnodes, nroots;
	uint32_t nroots_hidden;  /* roots under the threshold */
	/* owned storage */
	cost_t **chunks;         /* node costs, one chunk per grown node */
	uint32_t nchunks, capchunks;
	uint32_t *slot;          /* per entity: scratch, NO_ID when unused */
	uint8_t *onpath;         /* per entity: scratch, 0 when unused */
};

/* A share of cost c: c * part / whole, rounded half away from zero (whole >
 * 0), as llroundl of the long double quotient (a bottom-up node's estimate). */
cost_t ctree_share(cost_t c, cost_t part, cost_t whole);
/* A tree with its roots made: top-down (callers 0, fn NO_ID) or the callers
 * of entity fn (callers 1). */
struct ctree *ctree_new(struct profile *p, int callers, uint32_t fn, int event, double threshold);
/* The tree from the calling contexts recorded beside the profile
 * (context.h: cctx_recorded), top-down (callers 0) or the callers of
 * function fn (callers 1), as ctree_new; NULL when it has none (or in a
 * difference, or for the callers of a cycle).  Exact: not estimated.
 * Top-down, its nodes are the recorded paths, every part's together: a
 * root is a path's first function at its inclusive cost, a node's
 * children the functions it called along that path, each at the cost and
 * count of those calls (recursion folded into the outer call as
 * recorded, so no function is twice on a path; functions, no cycles).
 * Bottom-up (cctx_callers), the one root is fn at the sum of its paths'
 * inclusive costs with all its calls, recursive ones too; a node's
 * children are the functions that called it along those paths, each at
 * the cost fn has when called through that chain and the calls of fn
 * made through it (recursive ones not); a node's cost less its
 * children's is that of the paths starting at it. */
struct ctree *ctree_recorded(struct profile *p, int callers, uint32_t fn, int event, double threshold);
/* Finds the top-down tree's roots for event (with cycle detection on:
 * they read every call) and the file:function pairs of the groups
 * (agg_filefn_kept) on a thread of its own while the caller does something
 * else (agg_background; the explorer's first screen); the first tree or
 * group to ask waits for them.  Nothing where agg_ahead_allowed() says no
 * (--jobs=1, or one core by default). */
void trees_prepare(struct profile *p, int event);
/* The same tree for another event or threshold: the nodes that were grown and
 * open in old (and still pass the threshold) are grown and open again. */
struct ctree *ctree_regrow(const struct ctree *old, int event, double threshold);
void ctree_free(struct ctree *t);
/* Makes node n's children (once); 0 when it cannot have any (a leaf, an
 * entity already on its path, a call without a cost).  Node pointers may
 * move: index afresh. */
int ctree_grow(struct ctree *t, uint32_t n);
/* Opens (growing it first) or closes node n; returns 0 when n cannot open. */
int ctree_set_open(struct ctree *t, uint32_t n, int open);
/* Can node n have children? */
static inline int ctree_expandable(const struct ctree *t, uint32_t n)
{
	return !(t->node[n].flags & (CT_LEAF | CT_RECURSIVE)) && t->node[n].cost;
}
/* The visible nodes in display order (the roots, and the children of open
 * nodes, depth first) into rows (room for t->nnodes); returns how many.  With
 * keep, only the nodes it accepts and their ancestors are listed. */
uint32_t ctree_rows(const struct ctree *t, uint32_t *rows,
		    int (*keep)(const struct ctree *t, uint32_t n, void *arg), void *arg);

#endif
