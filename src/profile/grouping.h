/* grouping.h -- the one rule of grouping that cg_annotate's file:function
 * and function:file lists (and the explorer's object:function tree) follow,
 * for the views (tree.c's groups) and the report (report/report.c's
 * sections) alike: items grouped by a key, the groups in the order of their
 * first item, each group's items in their own order; a file:function pair's
 * key is its file (by file) or its function's name, and its entry the other.
 * What a group holds (costs, thresholds, expanded events) is its user's.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_GROUPING_H
#define CGTUI_GROUPING_H

#include <stddef.h>
#include <stdint.h>

#include "aggregate.h"

struct grouping {
	uint32_t ng;
	uint32_t *key;   /* per group, its key */
	uint32_t *start; /* per group g, its items are item[start[g] .. start[g + 1]) */
	uint32_t *item;  /* the items' indices, group after group */
};

/* Groups items 0 .. n-1 by keyof[i] (below nkeys; NO_ID leaves item i
 * out).  Free with grouping_free. */
void grouping_make(struct grouping *g, const uint32_t *keyof, size_t n, uint32_t nkeys);
void grouping_free(struct grouping *g);

/* A file:function pair's group key and entry: by file, its file and its
 * function's name; else the other way round. */
static inline uint32_t filefn_key(const struct profile *p, const struct filefn *f, int by_file)
{
	return by_file ? f->file : filefn_name(p, f);
}
static inline uint32_t filefn_entry(const struct profile *p, const struct filefn *f, int by_file)
{
	return by_file ? filefn_name(p, f) : f->file;
}

#endif
