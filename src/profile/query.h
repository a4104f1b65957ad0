/* query.h -- what the views and the report ask of a loaded profile:
 * a function's callers and callees, a file's per-line costs and call sites,
 * functions ordered by a cost.  No terminal here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_QUERY_H
#define CGTUI_QUERY_H

#include "model.h"

/* A caller or callee of a function, summed over the call sites. */
struct edge {
	uint32_t fn;
	cost_t count;
	cost_t cost[MAX_EVENTS]; /* inclusive cost of the calls (real events) */
};
/* The callers (callers != 0) or callees of fn, unordered; *out is malloc'ed. */
int query_edges(struct profile *p, uint32_t fn, int callers, struct edge **out);

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
	cost_t count;
	cost_t cost[MAX_EVENTS];
};
int query_file_calls(const struct profile *p, uint32_t file, struct call_site **out);
/* The same for the calls made by fn only (NO_ID: every function). */
int query_fn_file_calls(const struct profile *p, uint32_t fn, uint32_t file,
			struct call_site **out);

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

#endif
