/* rank.c -- the threshold and the ordering; see rank.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "rank.h"

#include <string.h>

struct rank_thr rank_threshold_of(cost_t total, double percent)
{
	struct rank_thr t = { percent * (double)cost_mag(total) / 100.0, 1 };
	return t;
}

struct rank_thr rank_threshold(const struct profile *p, int ev, double percent)
{
	cost_t total = event_value(p, p->totals, ev);
	struct rank_thr t = rank_threshold_of(total, percent);
	t.zero_ok = total == 0 && !p->ndiff;
	return t;
}

int rank_shown(const struct rank_thr *t, cost_t v)
{
	if (v == 0 && !t->zero_ok)
		return 0;
	/* long double holds every 64-bit magnitude exactly: the comparison is
	 * that of the integer with the double limit, as Python makes it */
	return (long double)cost_mag(v) >= (long double)t->limit;
}

int rank_cmp(const struct rank_key *a, const struct rank_key *b, const struct rank_order *o)
{
	int n = o->ev ? o->nev : 1;
	for (int k = 0; k < n; k++) {
		int e = o->ev ? o->ev[k] : 0;
		uint64_t x = cost_mag(a->v[e]), y = cost_mag(b->v[e]);
		if (x != y)
			return x > y ? -1 : 1;
	}
	if (o->ties == RANK_REPORT) {
		int r = strcmp(a->name, b->name);
		return r > 0 ? -1 : r < 0;
	}
	for (int k = 0; k < n; k++) {
		int e = o->ev ? o->ev[k] : 0;
		if (a->v[e] != b->v[e])
			return a->v[e] > b->v[e] ? -1 : 1;
	}
	int r = strcmp(a->name, b->name);
	if (r)
		return r;
	return a->id < b->id ? -1 : a->id > b->id;
}
