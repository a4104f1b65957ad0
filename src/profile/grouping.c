/* grouping.c -- items grouped by a key, in order (see grouping.h): a
 * counting sort, linear in the items and the keys.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "grouping.h"

#include <stdlib.h>

#include "model.h"

void grouping_make(struct grouping *g, const uint32_t *keyof, size_t n, uint32_t nkeys)
{
	/* gi[key]: its group, in the order of first appearance */
	uint32_t *gi = xmalloc(((size_t)nkeys + 1) * sizeof(*gi));
	for (uint32_t k = 0; k < nkeys; k++)
		gi[k] = NO_ID;
	g->ng = 0;
	size_t nin = 0;
	for (size_t i = 0; i < n; i++) {
		if (keyof[i] == NO_ID)
			continue;
		if (gi[keyof[i]] == NO_ID)
			gi[keyof[i]] = g->ng++;
		nin++;
	}
	g->key = xmalloc(((size_t)g->ng + 1) * sizeof(*g->key));
	g->start = xcalloc((size_t)g->ng + 2, sizeof(*g->start));
	g->item = xmalloc((nin + 1) * sizeof(*g->item));
	for (size_t i = 0; i < n; i++)
		if (keyof[i] != NO_ID) {
			g->key[gi[keyof[i]]] = keyof[i];
			g->start[gi[keyof[i]] + 1]++;
		}
	for (uint32_t k = 0; k < g->ng; k++)
		g->start[k + 1] += g->start[k];
	/* each group's next free place, from its start on */
	uint32_t *at = xmalloc(((size_t)g->ng + 1) * sizeof(*at));
	for (uint32_t k = 0; k < g->ng; k++)
		at[k] = g->start[k];
	for (size_t i = 0; i < n; i++)
		if (keyof[i] != NO_ID)
			g->item[at[gi[keyof[i]]]++] = (uint32_t)i;
	free(at);
	free(gi);
}

void grouping_free(struct grouping *g)
{
	free(g->key);
	free(g->start);
	free(g->item);
	g->key = g->start = g->item = NULL;
	g->ng = 0;
}
