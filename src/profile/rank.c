/* rank.c -- the threshold and the ordering; see rank.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "rank.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

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

int rank_cmp_values(const cost_t *a, const cost_t *b, const struct rank_order *o)
{
	int n = o->ev ? o->nev : 1;
	for (int k = 0; k < n; k++) {
		int e = o->ev ? o->ev[k] : 0;
		uint64_t x = cost_mag(a[e]), y = cost_mag(b[e]);
		if (x != y)
			return x > y ? -1 : 1;
	}
	if (o->ties == RANK_REPORT)
		return 0;
	for (int k = 0; k < n; k++) {
		int e = o->ev ? o->ev[k] : 0;
		if (a[e] != b[e])
			return a[e] > b[e] ? -1 : 1;
	}
	return 0;
}

int rank_cmp(const struct rank_key *a, const struct rank_key *b, const struct rank_order *o)
{
	int r = rank_cmp_values(a->v, b->v, o);
	if (r)
		return r;
	r = strcmp(a->name, b->name);
	if (o->ties == RANK_REPORT)
		return r > 0 ? -1 : r < 0;
	if (r)
		return r;
	return a->id < b->id ? -1 : a->id > b->id;
}

void rank_lazy_init(struct rank_lazy *l, void *base, size_t n, size_t size,
		    int (*cmp)(const void *a, const void *b, void *arg), void *arg)
{
	l->base = base;
	l->n = n;
	l->size = size;
	l->cmp = cmp;
	l->arg = arg;
	l->done = xcalloc(n ? n : 1, 1);
	l->tmp = xmalloc(size ? size : 1);
}

void rank_lazy_free(struct rank_lazy *l)
{
	free(l->done);
	free(l->tmp);
	l->done = NULL;
	l->tmp = NULL;
}

#define EL(k) (l->base + (k) * l->size)

static void lazy_swap(struct rank_lazy *l, size_t a, size_t b)
{
	if (a == b)
		return;
	if (l->size == sizeof(uint32_t)) {
		uint32_t *x = (uint32_t *)(void *)EL(a), *y = (uint32_t *)(void *)EL(b), t = *x;
		*x = *y;
		*y = t;
		return;
	}
	if (l->size % sizeof(uint64_t) == 0 && (uintptr_t)l->base % sizeof(uint64_t) == 0) {
		/* word by word, inline (the keys are a few words) */
		uint64_t *x = (uint64_t *)(void *)EL(a), *y = (uint64_t *)(void *)EL(b);
		for (size_t w = 0; w < l->size / sizeof(uint64_t); w++) {
			uint64_t t = x[w];
			x[w] = y[w];
			y[w] = t;
		}
		return;
	}
	memcpy(l->tmp, EL(a), l->size);
	memcpy(EL(a), EL(b), l->size);
	memcpy(EL(b), l->tmp, l->size);
}

/* [a, b) in order: sorted, each in its place */
static void lazy_sort(struct rank_lazy *l, size_t a, size_t b)
{
	if (b - a > 1)
		qsort_r(EL(a), b - a, l->size, l->cmp, l->arg);
	memset(l->done + a, 1, b - a);
}

/* The pivot for finding i in [a, b), put at b - 1: the median of three,
 * or (skew) one of a sorted sample of the part's elements, the one just
 * past i's place in the sample's order, so that the side i is on is small
 * (the first page of 300,000 rows: a pass over them, then over a few
 * thousand, instead of halving 300,000 again and again).  Only the first
 * partition of the whole array is skewed: rows read in turn, each part
 * cut so unevenly, would cost four times a sort. */
enum { LAZY_SAMPLE = 128, LAZY_SAMPLED = 8 * LAZY_SAMPLE };
static void lazy_pivot(struct rank_lazy *l, size_t a, size_t b, size_t i, int skew)
{
	size_t hi = b - 1, m = b - a;
	if (!skew || m < LAZY_SAMPLED) {
		size_t mid = a + m / 2;
		/* the median of three at hi */
		if (l->cmp(EL(mid), EL(a), l->arg) < 0)
			lazy_swap(l, mid, a);
		if (l->cmp(EL(hi), EL(a), l->arg) < 0)
			lazy_swap(l, hi, a);
		if (l->cmp(EL(hi), EL(mid), l->arg) < 0)
			lazy_swap(l, hi, mid);
		lazy_swap(l, mid, hi);
		return;
	}
	/* the sample, elements evenly spaced, moved to the part's start
	 * (an element there before goes where the sample's was) and sorted */
	size_t s = LAZY_SAMPLE, step = m / s;
	for (size_t k = 1; k < s; k++)
		lazy_swap(l, a + k, a + k * step);
	qsort_r(EL(a), s, l->size, l->cmp, l->arg);
	/* i's place in the sample, and two more on the side of the part's
	 * middle (the sample's order is the part's only about) */
	size_t at = (i - a) * s / m, r;
	if (i - a < m / 2)
		r = at + 2 < s ? at + 2 : s - 1;
	else
		r = at > 2 ? at - 2 : 0;
	lazy_swap(l, a + r, hi);
}

void *rank_lazy_at(struct rank_lazy *l, size_t i)
{
	if (l->done[i])
		return EL(i);
	/* the part around i not yet in place: elements before it all come
	 * first, those after it all later (a partition made them so) */
	size_t a = i, b = i + 1;
	while (a > 0 && !l->done[a - 1])
		a--;
	while (b < l->n && !l->done[b])
		b++;
	/* quicksort's steps down to i's side only; a partition that goes
	 * badly too often (an unlucky order): that part sorted */
	int depth = 0, most = 16, skew = a == 0 && b == l->n;
	for (size_t m = b - a; m > 1; m >>= 1)
		most += 2;
	while (b - a > 16) {
		if (depth++ > most) {
			lazy_sort(l, a, b);
			return EL(i);
		}
		size_t hi = b - 1;
		lazy_pivot(l, a, b, i, skew);
		skew = 0;
		size_t s = a;
		for (size_t k = a; k < hi; k++)
			if (l->cmp(EL(k), EL(hi), l->arg) < 0)
				lazy_swap(l, k, s++);
		lazy_swap(l, s, hi);
		l->done[s] = 1;
		if (s == i)
			return EL(i);
		if (i < s)
			b = s;
		else
			a = s + 1;
	}
	lazy_sort(l, a, b);
	return EL(i);
}
#undef EL
