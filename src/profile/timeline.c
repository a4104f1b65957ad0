/* timeline.c -- PROFILE.time, the recorder's time axis (timeline.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "context.h"
#include "util.h"

void timeline_free(struct timeline *tl)
{
	if (!tl)
		return;
	free(tl->start);
	free(tl->end);
	free(tl->total);
	free(tl->cfirst);
	free(tl->cfn);
	free(tl->cost);
	free(tl);
}

/* The reader's state: the timeline being made and what the checks need. */
struct treader {
	struct timeline *tl;
	size_t ivcap, ccap;
	uint32_t *fnmap, nfn; /* the file's function K -> the profile's */
	size_t fncap;
	uint32_t *last_iv;    /* per K: 1 + the last interval it had a c: line in */
	size_t lastcap;
	cost_t sum[MAX_EVENTS]; /* the current interval's c: lines summed */
	long long iv_line;    /* the current interval's line number */
	long long bad_line;   /* what is wrong is at this line, not the one read */
	int ir;               /* the index of Ir, -1 if none, -2 before events: */
};

static const char sum_wrong[] = "the interval's totals are not the sum of its c: lines";

/* The interval before (if any) is complete: its c: lines sum to its totals. */
static int interval_done(struct treader *r)
{
	struct timeline *tl = r->tl;
	if (!tl->niv)
		return 0;
	tl->cfirst[tl->niv] = tl->nc;
	const cost_t *t = timeline_total(tl, tl->niv - 1);
	for (int e = 0; e < tl->nreal; e++)
		if (r->sum[e] != t[e])
			return -1;
	return 0;
}

/* Reads one line (split into f[0 .. n)); NULL, or what is wrong. */
static const char *read_line(struct treader *r, char **f, int n, long long lno)
{
	struct timeline *tl = r->tl;
	struct profile *p = tl->p;
	int nr = tl->nreal;
	long long v[3];
	if (strcmp(f[0], "events:") == 0) {
		if (n - 1 != nr)
			return "its events are not the profile's";
		for (int e = 0; e < nr; e++)
			if (strcmp(f[e + 1], p->ev[e].name) != 0)
				return "its events are not the profile's";
		r->ir = -1;
		for (int e = 0; e < nr; e++)
			if (strcmp(p->ev[e].name, "Ir") == 0)
				r->ir = e;
		return NULL;
	}
	if (strcmp(f[0], "length:") == 0) {
		if (n != 2 || beside_num(f[1], &v[0]) < 0 || v[0] < 1)
			return "expected length:<TAB>N, N at least 1";
		tl->length = (uint64_t)v[0];
		return NULL;
	}
	if (strcmp(f[0], "fn:") == 0) {
		if (n != 5 || beside_num(f[1], &v[0]) < 0 || v[0] != r->nfn)
			return "expected fn:<TAB>K<TAB>OBJECT<TAB>FILE<TAB>NAME, K the next number";
		VEC_RESERVE(r->fnmap, r->fncap, (size_t)r->nfn + 1);
		r->fnmap[r->nfn] = beside_find_fn(p, f[2], f[3], f[4]);
		if (r->fnmap[r->nfn] == NO_ID)
			return "a function the profile does not have";
		VEC_RESERVE(r->last_iv, r->lastcap, (size_t)r->nfn + 1);
		r->last_iv[r->nfn++] = 0;
		return NULL;
	}
	int is_iv = strcmp(f[0], "iv:") == 0;
	if (!is_iv && strcmp(f[0], "c:") != 0)
		return "unknown line";
	if (r->ir == -2)
		return "an iv: or c: line before the events: line";
	int lead = is_iv ? 2 : 1, bad = n != 1 + lead + nr;
	cost_t c[MAX_EVENTS];
	for (int i = 0; i < lead && !bad; i++)
		bad = beside_num(f[1 + i], &v[i]) < 0 || v[i] < 0;
	for (int e = 0; e < nr && !bad; e++) {
		long long x = 0;
		bad = beside_num(f[1 + lead + e], &x) < 0 || x < 0;
		c[e] = x;
	}
	if (bad)
		return is_iv ? "expected iv:<TAB>START<TAB>END and a total per event, none negative"
			     : "expected c:<TAB>K and a cost per event, none negative";
	if (is_iv) {
		uint64_t prev = tl->niv ? tl->end[tl->niv - 1] : 0;
		if ((uint64_t)v[0] != prev)
			return "an interval must start where the one before ended (the first at 0)";
		if (v[1] <= v[0])
			return "an interval must end after it starts";
		if (r->ir >= 0 && c[r->ir] != v[1] - v[0])
			return "END - START must be the interval's Ir";
		if (interval_done(r) < 0) {
			r->bad_line = r->iv_line;
			return sum_wrong;
		}
		uint32_t i = tl->niv;
		if (i + 2 > r->ivcap) {
			r->ivcap = r->ivcap ? 2 * r->ivcap : 64;
			tl->start = xreallocarray(tl->start, r->ivcap, sizeof(*tl->start));
			tl->end = xreallocarray(tl->end, r->ivcap, sizeof(*tl->end));
			tl->cfirst = xreallocarray(tl->cfirst, r->ivcap + 1, sizeof(*tl->cfirst));
			tl->total = xreallocarray(tl->total, r->ivcap * (size_t)nr, sizeof(cost_t));
		}
		tl->start[i] = (uint64_t)v[0];
		tl->end[i] = (uint64_t)v[1];
		tl->cfirst[i] = tl->nc;
		memcpy(&tl->total[(size_t)i * (size_t)nr], c, (size_t)nr * sizeof(cost_t));
		memset(r->sum, 0, sizeof(r->sum));
		tl->niv++;
		r->iv_line = lno;
		return NULL;
	}
	if (!tl->niv)
		return "a c: line before the first iv: line";
	if (v[0] >= r->nfn)
		return "a function not defined by a fn: line";
	if (r->last_iv[v[0]] == tl->niv)
		return "a function twice in one interval";
	r->last_iv[v[0]] = tl->niv;
	if (tl->nc + 1 > r->ccap) {
		r->ccap = r->ccap ? 2 * r->ccap : 256;
		tl->cfn = xreallocarray(tl->cfn, r->ccap, sizeof(*tl->cfn));
		tl->cost = xreallocarray(tl->cost, r->ccap * (size_t)nr, sizeof(cost_t));
	}
	tl->cfn[tl->nc] = r->fnmap[v[0]];
	memcpy(&tl->cost[(size_t)tl->nc * (size_t)nr], c, (size_t)nr * sizeof(cost_t));
	tl->nc++;
	for (int e = 0; e < nr; e++)
		r->sum[e] = cost_add(r->sum[e], c[e]);
	return NULL;
}

int timeline_read(struct profile *p, const char *source, struct timeline **out, char *err,
		  size_t errsz)
{
	char *path = xasprintf("%s.time", source);
	FILE *in = fopen(path, "r");
	*out = NULL;
	if (!in) {
		free(path);
		return 1;
	}
	profile_fn_index(p); /* (each fn: line looked up: beside_find_fn) */
	struct timeline *tl = xcalloc(1, sizeof(*tl));
	tl->p = p;
	tl->nreal = p->nreal;
	struct treader r = { .tl = tl, .ir = -2 };
	char *line = NULL, *f[MAX_EVENTS + 8];
	size_t cap = 0;
	ssize_t len;
	long long lno = 0, at = 0;
	const char *why = NULL;
	while (!why && (len = getline(&line, &cap, in)) >= 0) {
		at = ++lno;
		if (len && line[len - 1] == '\n')
			line[--len] = 0;
		if (len && line[len - 1] == '\r')
			line[--len] = 0;
		int n = beside_fields(line, f, MAX_EVENTS + 8);
		if (lno == 1) {
			if (n != 2 || strcmp(f[0], "cgtui-timeline") != 0)
				why = "not a cgtui timeline (no \"cgtui-timeline\" line)";
			else if (strcmp(f[1], "1") != 0)
				why = "a timeline of another version (this cgtui reads version 1)";
			continue;
		}
		why = read_line(&r, f, n, lno);
		if (why && r.bad_line)
			at = r.bad_line;
	}
	if (!why && lno == 0)
		why = "empty", at = 1;
	else if (!why && interval_done(&r) < 0)
		why = sum_wrong, at = r.iv_line;
	else if (!why && r.ir == -2)
		why = "no events: line", at = lno;
	int rc = 0;
	if (why) {
		snprintf(err, errsz, "%s:%lld: %s", path, at, why);
		timeline_free(tl);
		rc = -1;
	} else {
		if (!tl->cfirst)
			tl->cfirst = xcalloc(1, sizeof(*tl->cfirst));
		*out = tl;
	}
	free(line);
	free(r.fnmap);
	free(r.last_iv);
	free(path);
	fclose(in);
	return rc;
}

struct timeline *timeline_of(struct profile *p)
{
	if (p->ndiff)
		return NULL;
	struct timeline *tl = NULL;
	char err[512];
	for (int i = 0; i < p->nsources; i++) {
		struct timeline *one;
		int rc = timeline_read(p, p->sources[i], &one, err, sizeof(err));
		if (rc < 0) {
			profile_warn(p, "%s (no timeline)", err);
			timeline_free(tl);
			return NULL;
		}
		if (rc == 0 && tl) {
			profile_warn(p, "%s.time: timelines of several profile files are not combined "
					"(no timeline)",
				     p->sources[i]);
			timeline_free(one);
			timeline_free(tl);
			return NULL;
		}
		if (rc == 0)
			tl = one;
	}
	return tl;
}

void timeline_cost(const struct timeline *tl, uint32_t iv, uint32_t ent, cost_t *out)
{
	const struct agg *a = profile_agg(tl->p);
	uint32_t k = agg_is_cycle(a, ent) ? agg_cycle_no(a, ent) : 0;
	memset(out, 0, (size_t)tl->nreal * sizeof(cost_t));
	for (uint32_t j = tl->cfirst[iv]; j < tl->cfirst[iv + 1]; j++) {
		uint32_t f = tl->cfn[j];
		if (k ? agg_cycle_no(a, f) != k : f != ent)
			continue;
		for (int e = 0; e < tl->nreal; e++)
			out[e] = cost_add(out[e], tl->cost[(size_t)j * (size_t)tl->nreal + e]);
	}
}

void timeline_range(const struct timeline *tl, uint64_t ir0, uint64_t ir1, uint32_t *iv0,
		    uint32_t *iv1)
{
	uint32_t a = 0, b = tl->niv;
	if (ir1) {
		while (a < tl->niv && tl->start[a] < ir0)
			a++;
		b = a;
		while (b < tl->niv && tl->end[b] <= ir1)
			b++;
	}
	*iv0 = a;
	*iv1 = b;
}

void timeline_range_self(const struct timeline *tl, uint32_t iv0, uint32_t iv1, cost_t *self,
			 cost_t *tot)
{
	const struct agg *a = profile_agg(tl->p);
	size_t nr = (size_t)tl->nreal;
	memset(self, 0, (size_t)agg_nent(a) * nr * sizeof(cost_t));
	memset(tot, 0, nr * sizeof(cost_t));
	for (uint32_t iv = iv0; iv < iv1 && iv < tl->niv; iv++) {
		const cost_t *t = timeline_total(tl, iv);
		for (size_t e = 0; e < nr; e++)
			tot[e] = cost_add(tot[e], t[e]);
		for (uint32_t j = tl->cfirst[iv]; j < tl->cfirst[iv + 1]; j++) {
			uint32_t f = tl->cfn[j], k = agg_cycle_no(a, f);
			const cost_t *c = &tl->cost[(size_t)j * nr];
			cost_t *to = &self[(size_t)f * nr];
			cost_t *cy = k ? &self[(size_t)agg_cycle_ent(a, k) * nr] : NULL;
			for (size_t e = 0; e < nr; e++) {
				to[e] = cost_add(to[e], c[e]);
				if (cy)
					cy[e] = cost_add(cy[e], c[e]);
			}
		}
	}
}
