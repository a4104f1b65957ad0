/* tree.h -- the explorer's trees, computed from the model: groups with their
 * entries (cg_annotate's file:function and function:file, and functions by
 * ELF object), and the call tree, grown one node at a time on demand.
 * No terminal here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_TREE_H
#define CGTUI_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* ---- groups ------------------------------------------------------------------ */

enum group_by {
	GROUP_FILE_FN, /* files, each with its functions (names) */
	GROUP_FN_FILE, /* function names, each with the files its costs are in */
	GROUP_OBJ_FN,  /* ELF objects (ob=), each with its functions */
};

struct gentry {
	uint32_t id;         /* a name (file:function), file (function:file) or function */
	uint32_t fn;         /* the function it stands for (NO_ID if none is known) */
	const cost_t *self;  /* nreal: its self cost */
	const cost_t *incl;  /* GROUP_OBJ_FN: the function's inclusive cost; else NULL */
	cost_t key;          /* set by groups_order: the value it is ordered by */
};

struct group {
	uint32_t id;         /* a file, function name or object */
	uint32_t fn;         /* GROUP_FN_FILE: the function of its first entry; else NO_ID */
	cost_t *total;       /* nreal: sum of its entries' self costs */
	struct gentry *e;    /* its entries */
	uint32_t ne;
	/* set by groups_order: */
	uint32_t nshown;     /* entries e[0..nshown) pass the threshold */
	int shown;           /* shown at all: some entry passes the threshold */
	cost_t key;          /* the event's value of total */
	cost_t cum;          /* the event's value summed over the shown groups up to this one */
};

struct groups {
	enum group_by by;
	struct group *g;     /* after groups_order: largest first */
	uint32_t ng;
	uint32_t nkeys;      /* group ids are below this (files, names or objects) */
	/* owned storage */
	struct gentry *pool;
	cost_t *totals;
	const struct filefn *ff; /* kept by the aggregation */
	size_t nff;
};

/* Groups the costs of p (aggregated on demand) by `by`. */
struct groups *groups_build(struct profile *p, enum group_by by);
/* Orders the groups by the event's value of their total and each group's
 * entries by that of their self cost (by_incl: GROUP_OBJ_FN's entries by
 * their inclusive cost), largest magnitude first, then by name; an entry is
 * shown when its magnitude is at least threshold percent of the event's
 * total (as cg_annotate), a group when any of its entries is; cum runs over
 * the shown groups. */
void groups_order(struct groups *gs, const struct profile *p, int event, double threshold,
		  int by_incl);
void groups_free(struct groups *gs);
/* The text of a group and of an entry. */
const char *group_name(const struct profile *p, const struct groups *gs, const struct group *g);
const char *gentry_name(const struct profile *p, const struct groups *gs, const struct gentry *e);

/* ---- the call tree ----------------------------------------------------------- */

/* Top-down, the roots are the functions that no function outside their own
 * cycle calls: those nobody calls but themselves (direct recursion does not
 * count), and, when no function outside a cycle calls into it, every function
 * of that cycle (which of them was entered first is not recorded).  Roots,
 * and each node's children, are ordered by the magnitude of their cost
 * (inclusive, or the edge's), largest first.  A node's children are its
 * callees, each with the call count and inclusive cost of the calls along
 * that edge (summed over the call sites).  Bottom-up, the one root is a
 * function and a node's children are its callers, with the calls
 * caller -> node.
 *
 * A function already on the path from the root to a node is shown (marked
 * CT_RECURSIVE) but never grown, so the tree is finite; nodes are made only
 * when their parent is grown, never eagerly.  Nodes under the threshold (as
 * in the functions view: magnitude below threshold percent of the event's
 * total, or zero when the total is not) are not made; nhidden counts them. */

enum {
	CT_GROWN = 1,     /* its children were made */
	CT_OPEN = 2,      /* its children are shown */
	CT_RECURSIVE = 4, /* its function is on the path above it */
	CT_LEAF = 8,      /* it has no callees (bottom-up: no callers) at all */
};

struct ctree_node {
	uint32_t fn;
	uint32_t parent;         /* NO_ID for a root */
	uint32_t depth;          /* 0 for a root */
	uint32_t first, nchild;  /* once grown: its children are nodes first .. first+nchild-1 */
	uint32_t nhidden;        /* children under the threshold (not made) */
	uint32_t flags;
	cost_t count;            /* calls along the edge (a root: all calls into it) */
	const cost_t *cost;      /* nreal: inclusive cost of the edge (a root: of the function) */
};

struct ctree {
	struct profile *p;
	int callers;             /* 1: bottom-up */
	uint32_t fn;             /* bottom-up: the root's function */
	int event;
	double threshold;
	struct ctree_node *node; /* the roots are nodes 0 .. nroots-1 */
	uint32_t nnodes, capnodes, nroots;
	uint32_t nroots_hidden;  /* roots under the threshold */
	/* owned storage */
	cost_t **chunks;         /* edge costs, one chunk per grown node */
	uint32_t nchunks, capchunks;
	uint32_t *slot;          /* per function: scratch, NO_ID when unused */
	uint8_t *onpath;         /* per function: scratch, 0 when unused */
};

/* A tree with its roots made: top-down (callers 0, fn NO_ID) or the callers
 * of fn (callers 1). */
struct ctree *ctree_new(struct profile *p, int callers, uint32_t fn, int event, double threshold);
/* The same tree for another event or threshold: the nodes that were grown and
 * open in old (and still pass the threshold) are grown and open again. */
struct ctree *ctree_regrow(const struct ctree *old, int event, double threshold);
void ctree_free(struct ctree *t);
/* Makes node n's children (once); 0 when it cannot have any (a leaf, or a
 * function already on its path).  Node pointers may move: index afresh. */
int ctree_grow(struct ctree *t, uint32_t n);
/* Opens (growing it first) or closes node n; returns 0 when n cannot open. */
int ctree_set_open(struct ctree *t, uint32_t n, int open);
/* Can node n have children (not a leaf, not recursive)? */
static inline int ctree_expandable(const struct ctree *t, uint32_t n)
{
	return !(t->node[n].flags & (CT_LEAF | CT_RECURSIVE));
}
/* The visible nodes in display order (the roots, and the children of open
 * nodes, depth first) into rows (room for t->nnodes); returns how many.  With
 * keep, only the nodes it accepts and their ancestors are listed. */
uint32_t ctree_rows(const struct ctree *t, uint32_t *rows,
		    int (*keep)(const struct ctree *t, uint32_t n, void *arg), void *arg);

#endif
