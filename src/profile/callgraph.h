/* callgraph.h -- what the call graph and the call map show of one entity
 * (a function or a cycle), computed from the model with the one cycle rule
 * (query_edges) and the one threshold (rank.h):
 *
 *  - its neighbourhood: the callers up to `depth` calls above it, the
 *    callees up to `depth` below, each entity once, and the calls between
 *    them over the threshold; for each entity, how many of its callers and
 *    callees are not drawn ("+k more");
 *  - its callees as parts of its inclusive cost, for a treemap: only the
 *    calls whose cost is a share of the total (call_kind_costed), so no
 *    part is larger than its whole and a cycle is never entered twice.
 *
 * No terminal and no geometry here (src/tui/graphlayout.c, treemap.c).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_CALLGRAPH_H
#define CGTUI_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"
#include "model.h"

struct cg_node {
	uint32_t id;        /* the entity */
	int dist;           /* calls away: -k a caller k levels up, +k a callee
			     * k levels down, 0 the centre */
	cost_t self_calls;  /* calls to itself (drawn in its box, not as an edge) */
	uint32_t more_up;   /* its callers not drawn (under the threshold, past
			     * the cap, or beyond the depth) */
	uint32_t more_down; /* its callees not drawn */
};

/* A call drawn: node `from` calls node `to` (indexes of nodes). */
struct cg_edge {
	uint32_t from, to;
	enum call_kind kind; /* the cycle rule: a share of the total only when
			      * call_kind_costed */
	cost_t count;
	cost_t value;        /* its inclusive cost in the event it was built
			      * for (meaningful only when costed) */
};

/* Nodes are in the order they were found: the centre first, then level by
 * level, the costliest calls of each node first (query_sort_edges). */
struct cgraph {
	struct cg_node *node;
	uint32_t nnodes;
	struct cg_edge *edge;
	uint32_t nedges;
	int depth, truncated; /* truncated: CG_MAX_NODES reached */
};

#define CG_MAX_NODES 400

/* The neighbourhood of entity `centre`: calls are drawn when their cost in
 * event `ev` passes the threshold of `percent` (a call without a share of
 * the total, inside a cycle: when the other entity's inclusive cost
 * passes it), at most `cap` callers and `cap` callees a node, the costliest
 * first.  A call to itself is not an edge: it is counted in self_calls. */
void cgraph_build(struct profile *p, uint32_t centre, int depth, int ev, double percent,
		  int cap, struct cgraph *g);
void cgraph_free(struct cgraph *g);

/* A part of an entity's inclusive cost: a callee reached by calls whose
 * cost is a share of the total, and that cost. */
struct cm_part {
	uint32_t id, via; /* the callee (a cycle: via the member called) */
	cost_t value;     /* the calls' inclusive cost in the event */
	cost_t count;
};
/* The callees of `id` that are parts of its inclusive cost in event ev,
 * largest first: only costed calls (call_kind_costed) with a positive
 * value of at least `least` (too small to draw: a cycle's other members are
 * not even read), none of them an entity of `path` (the entities the
 * treemap is already inside: with cycle detection off, recursion goes no
 * deeper).  Returns how many; *out is malloc'ed (NULL when none). */
int callmap_parts(struct profile *p, uint32_t id, int ev, const uint32_t *path, int npath,
		  cost_t least, struct cm_part **out);

#endif
