/* mrc.c -- reading the miss-ratio curves of a profile (mrc.h), and the
 * data caches it says it simulated.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "mrc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

int mrc_is_line(const char *s, size_t len)
{
	return (len >= 12 && memcmp(s, "# cgtui mrc ", 12) == 0) ||
	       (len >= 6 && memcmp(s, "# mrc-", 6) == 0);
}

/* A decimal number at s (after blanks) into *v; the end, or NULL. */
static const char *num(const char *s, uint64_t *v)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return NULL;
	uint64_t x = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return NULL;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return s;
}

/* The number after `key` in s (a copy ended by NUL), or -1. */
static int after(const char *s, const char *key, uint64_t *v)
{
	const char *k = strstr(s, key);
	return k && num(k + strlen(key), v) ? 0 : -1;
}

static int fail(struct mrc_reader *r, char *why, size_t n, const char *what)
{
	snprintf(why, n, "%s", what);
	r->state = -1;
	return -1;
}

static int header(struct mrc_reader *r, const char *s, char *why, size_t n)
{
	uint64_t ver, line, k0, top, thr, one;
	const char *t = num(s + 12, &ver);
	if (!t || *t != ':')
		return fail(r, why, n, "'# cgtui mrc' without a format number");
	if (ver != 1) {
		snprintf(why, n, "miss-ratio curves of format %llu: not read (this cgtui reads format 1)",
			 (unsigned long long)ver);
		r->state = -1;
		return -1;
	}
	if (r->state)
		return fail(r, why, n, "a second '# cgtui mrc' header in one file");
	if (after(t, "lines of ", &line) || line == 0 || (line & (line - 1)) || line > (1u << 30))
		return fail(r, why, n, "'lines of N B': N missing or not a power of two");
	if (after(t, "sizes 2^", &k0) || k0 != 0 || after(t, ".. 2^", &top) ||
	    top >= MRC_MAX_SIZES)
		return fail(r, why, n, "'sizes 2^0 .. 2^K lines': missing, or K above 47");
	const char *st = strstr(t, "sampling threshold ");
	if (!st || after(st, "threshold ", &thr) || after(st, " of ", &one) || one == 0 ||
	    one > UINT32_MAX || thr > one)
		return fail(r, why, n, "'sampling threshold T of ONE': missing or T above ONE");
	r->d.line = (unsigned)line;
	r->d.nsizes = (int)top + 1;
	r->d.threshold = (uint32_t)thr;
	r->d.one = (uint32_t)one;
	r->state = 1;
	return 0;
}

/* SAMPLES ACCESSES M0 .. M(nsizes-1) of an mrc-total or mrc-fn line */
static int curve(struct mrc_reader *r, const char *what, const char *s, struct mrc_curve *c,
		 char *why, size_t n)
{
	uint64_t v[MRC_MAX_SIZES + 2];
	int want = r->d.nsizes + 2, got = 0;
	const char *t = s;
	for (;;) {
		while (*t == ' ' || *t == '\t')
			t++;
		if (!*t)
			break;
		if (got == want || !(t = num(t, &v[got])) || (*t && *t != ' ' && *t != '\t')) {
			snprintf(why, n, "%s: not %d numbers (samples, accesses, misses at 2^0 .. 2^%d lines)",
				 what, want, r->d.nsizes - 1);
			r->state = -1;
			return -1;
		}
		got++;
	}
	if (got != want) {
		snprintf(why, n, "%s: %d numbers, not %d (samples, accesses, misses at 2^0 .. 2^%d lines)",
			 what, got, want, r->d.nsizes - 1);
		r->state = -1;
		return -1;
	}
	for (int k = 1; k < r->d.nsizes; k++)
		if (v[2 + k] > v[2 + k - 1]) {
			snprintf(why, n, "%s: more misses at 2^%d lines (%llu) than at 2^%d (%llu)", what,
				 k, (unsigned long long)v[2 + k], k - 1, (unsigned long long)v[1 + k]);
			r->state = -1;
			return -1;
		}
	memset(c, 0, sizeof(*c));
	c->samples = v[0];
	c->accesses = v[1];
	for (int k = 0; k < r->d.nsizes; k++)
		c->miss[k] = v[2 + k];
	return 0;
}

/* "fl=FILE fn=FUNCTION": a function name may hold " fn=", a file name not */
static int name(struct mrc_reader *r, const char *s, char *why, size_t n)
{
	struct mrc_curve *c = &r->d.fns[r->d.nfns - 1];
	const char *f = strstr(s, " fn=");
	if (strncmp(s, "fl=", 3) != 0 || !f)
		return fail(r, why, n, "mrc-name: not 'fl=FILE fn=FUNCTION'");
	c->file = xstrndup(s + 3, (size_t)(f - s - 3));
	c->fn = xstrdup(f + 4);
	r->pending = 0;
	return 0;
}

int mrc_read_line(struct mrc_reader *r, const char *s, size_t len, char *why, size_t n)
{
	if (r->state < 0)
		return 0;
	char *line = xstrndup(s, len);
	int rc = 0;
	const char *v;
	if (strncmp(line, "# cgtui mrc ", 12) == 0) {
		rc = header(r, line, why, n);
	} else if (!r->state) {
		rc = fail(r, why, n, "a '# mrc-' line before the '# cgtui mrc' header");
	} else if (r->pending && strncmp(line, "# mrc-name: ", 12) != 0) {
		rc = fail(r, why, n, "mrc-fn line not followed by its mrc-name line");
	} else if (strncmp(line, "# mrc-total:", 12) == 0) {
		if (r->has_total)
			rc = fail(r, why, n, "a second mrc-total line");
		else if ((rc = curve(r, "mrc-total", line + 12, &r->d.total, why, n)) == 0)
			r->has_total = 1;
	} else if (strncmp(line, "# mrc-fn:", 9) == 0) {
		VEC_RESERVE(r->d.fns, r->d.capfns, r->d.nfns + 1);
		if ((rc = curve(r, "mrc-fn", line + 9, &r->d.fns[r->d.nfns], why, n)) == 0) {
			r->d.nfns++;
			r->pending = 1;
		}
	} else if (strncmp(line, "# mrc-name: ", 12) == 0) {
		if (!r->pending)
			rc = fail(r, why, n, "mrc-name line without an mrc-fn line before it");
		else
			rc = name(r, line + 12, why, n);
	} else if (strncmp(line, "# mrc-few: ", 11) == 0) {
		uint64_t few, min;
		if (!(v = num(line + 11, &few)) || after(v, " fewer than ", &min))
			rc = fail(r, why, n, "mrc-few: not 'N functions with fewer than K samples'");
		else
			r->d.few += few, r->d.few_min = min;
	} /* other "# mrc-" lines: a later version's additions, ignored */
	free(line);
	return rc;
}

static void curve_free(struct mrc_curve *c)
{
	free(c->file);
	free(c->fn);
}

void mrc_free(struct mrc_data *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nfns; i++)
		curve_free(&d->fns[i]);
	free(d->fns);
	free(d->files);
	free(d);
}

void mrc_reader_free(struct mrc_reader *r)
{
	for (size_t i = 0; i < r->d.nfns; i++)
		curve_free(&r->d.fns[i]);
	free(r->d.fns);
	free(r);
}

static int same_curve(const struct mrc_curve *a, const struct mrc_curve *b, int nsizes)
{
	if (a->samples != b->samples || a->accesses != b->accesses)
		return 0;
	for (int k = 0; k < nsizes; k++)
		if (a->miss[k] != b->miss[k])
			return 0;
	return 1;
}

static int add_curve(struct mrc_curve *to, const struct mrc_curve *c, int nsizes)
{
	if (to->samples > UINT64_MAX - c->samples || to->accesses > UINT64_MAX - c->accesses)
		return -1;
	for (int k = 0; k < nsizes; k++)
		if (to->miss[k] > UINT64_MAX - c->miss[k])
			return -1;
	to->samples += c->samples;
	to->accesses += c->accesses;
	for (int k = 0; k < nsizes; k++)
		to->miss[k] += c->miss[k];
	return 0;
}

static struct mrc_curve *find_fn(struct mrc_data *d, const char *file, const char *fn)
{
	for (size_t i = 0; i < d->nfns; i++)
		if (strcmp(d->fns[i].fn, fn) == 0 && strcmp(d->fns[i].file, file) == 0)
			return &d->fns[i];
	return NULL;
}

int mrc_reader_end(struct mrc_reader *r, struct profile *p, char *why, size_t n)
{
	struct mrc_data *d = &r->d;
	int rc = 0;
	if (r->state > 0 && r->pending) {
		snprintf(why, n, "the file ends after an mrc-fn line without its mrc-name line");
		rc = -1;
	} else if (r->state > 0 && !r->has_total) {
		snprintf(why, n, "'# cgtui mrc' header without an mrc-total line");
		rc = -1;
	}
	if (rc || r->state <= 0) {
		mrc_reader_free(r);
		return rc;
	}
	struct mrc_data *to = p->mrc;
	if (!to) {
		to = p->mrc = xcalloc(1, sizeof(*to));
		*to = *d;
		to->files = xmalloc(sizeof(*to->files));
		to->files[to->nfiles++] = d->total;
		free(r);
		return 0;
	}
	int seen = 0;
	for (size_t i = 0; i < to->nfiles && !seen; i++)
		seen = same_curve(&to->files[i], &d->total, d->nsizes);
	if (to->line != d->line || to->nsizes != d->nsizes) {
		snprintf(why, n, "curves of %u B lines and %d sizes: not those of the file before (%u B, %d)",
			 d->line, d->nsizes, to->line, to->nsizes);
		rc = -1;
	} else if (!seen) {
		to->files = xreallocarray(to->files, to->nfiles + 1, sizeof(*to->files));
		to->files[to->nfiles++] = d->total;
		/* another part of the run: its counts add up */
		if (add_curve(&to->total, &d->total, d->nsizes) < 0) {
			snprintf(why, n, "the curves' counts pass 2^64");
			rc = -1;
		}
		for (size_t i = 0; !rc && i < d->nfns; i++) {
			struct mrc_curve *c = &d->fns[i], *t = find_fn(to, c->file, c->fn);
			if (t) {
				add_curve(t, c, d->nsizes);
				continue;
			}
			VEC_RESERVE(to->fns, to->capfns, to->nfns + 1);
			to->fns[to->nfns++] = *c;
			c->file = c->fn = NULL;
		}
		to->few += d->few;
		if (d->threshold < to->threshold)
			to->threshold = d->threshold;
	}
	mrc_reader_free(r);
	return rc;
}

const struct mrc_curve *mrc_of_fn(const struct profile *p, uint32_t fn)
{
	const struct mrc_data *d = p->mrc;
	if (!d || fn == NO_ID || fn >= p->nfns)
		return NULL;
	const char *name = fn_name(p, fn);
	const struct function *f = &p->fns[fn];
	const char *file = f->file != NO_ID ? file_name(p, f->file) : "";
	const struct mrc_curve *any = NULL;
	for (size_t i = 0; i < d->nfns; i++) {
		if (strcmp(d->fns[i].fn, name) != 0)
			continue;
		if (strcmp(d->fns[i].file, file) == 0)
			return &d->fns[i];
		if (!any)
			any = &d->fns[i];
	}
	return any;
}

double mrc_ratio(const struct mrc_curve *c, int k)
{
	if (!c->accesses)
		return -1;
	double r = (double)c->miss[k] / (double)c->accesses;
	return r > 1 ? 1 : r; /* SHARDS's estimate may pass the accesses */
}

double mrc_ratio_at(const struct mrc_data *d, const struct mrc_curve *c, double lines)
{
	if (!c->accesses || lines < 1)
		return -1;
	double x = log2(lines);
	if (x > d->nsizes - 1)
		return -1;
	int k = (int)x;
	if (k >= d->nsizes - 1)
		return mrc_ratio(c, d->nsizes - 1);
	double f = x - k;
	return mrc_ratio(c, k) * (1 - f) + mrc_ratio(c, k + 1) * f;
}

/* "D1 cache: 32768 B, 64 B, ..." (cachegrind, callgrind, our tool) and
 * "L2 cache: 2097152 B, ..." (our models; "L2@big" is another model's) */
int mrc_levels(const struct profile *p, struct mrc_level *out, int max)
{
	int n = 0;
	for (int i = 0; i < p->ndesc && n < max; i++) {
		const char *s = p->desc[i], *c = strstr(s, " cache: ");
		size_t len = c ? (size_t)(c - s) : 0;
		if (!c || len == 0 || len >= sizeof(out->name) || memchr(s, '@', len) ||
		    memchr(s, ' ', len))
			continue;
		if (s[0] == 'I' || s[len - 1] == 'I') /* I1, L1I: instructions */
			continue;
		uint64_t size;
		const char *t = num(c + 8, &size);
		if (!t || strncmp(t, " B,", 3) != 0 || size == 0)
			continue;
		memcpy(out[n].name, s, len);
		out[n].name[len] = 0;
		out[n].size = size;
		n++;
	}
	return n;
}
