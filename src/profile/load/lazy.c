/* lazy.c -- deferred line records: where a block's cost lines are, and
 * reading them again when a reader wants them.
 *
 * The body's cost lines (format spec 3.1.1, "Basic Structure") and the
 * lines that may stand between them -- calls= and its cost line (3.1.3,
 * "Associations"), jump=/jcnd=, cfn=/cfi=/cfl=/cob=, jfi=/jfn= -- are read
 * again here with the parser's own functions (parse_positions(),
 * parse_costs_into(): subposition compression, 3.1.6, and "*" included);
 * every other line ends a segment.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* With load_opts.lazy_lines, a file read in place keeps only per-file sums
 * of each block (see linestore.h), and the loader notes where the block's
 * lines are: segments, runs of lines that can be read again on their own.
 * A segment is cost lines and the lines that may come between them without
 * changing where costs go (calls=, jump=, jcnd=, cfn=, cfi=, cfl=, cob=,
 * jfi=, jfn=: the keys K_SEGMENT marks in load_int.h's table); it starts
 * at a cost line, with the parser's state then (the file, the positions, a
 * pending call, the format, and the previous cost line's values when a
 * cost "*" in it needs them), and any other line ends it.  When a reader
 * wants a function's lines, profile_need_lines() reads its segments again
 * with the same parsing functions into the line store.  The file stays
 * mapped while the profile lives (it must not change meanwhile: its name's
 * stat is compared with the one at load time). */

/* How a segment's lines are read: the parser's settings then. */
struct lz_format {
	int npos, nign, linek, instrk, nev, sign;
	int8_t slot[MAX_SUBPOS];
	int evmap[MAX_EVENTS];
};

struct lz_src {
	char *path;
	const char *base;
	size_t size;
	struct stat st; /* as it was loaded: the file must still be so */
};

/* The segments are kept coded (seg_put): a 1 GB profile has a million,
 * 48 bytes each as struct lz_seg, about 12 coded.  Each is its fields'
 * differences from the segment before as varints, exact at any size; at
 * every LZ_MARK-th segment the differences start from zero again, and a
 * mark notes where it is and its chunk, so a chunk's segments are found by
 * a binary search of the marks and read from the mark before them. */
#define LZ_MARK 32

struct lz_mark {
	uint64_t off;   /* in sbuf */
	uint32_t chunk; /* of the segment there */
};

/* A segment being read from sbuf (seg_first, seg_next). */
struct lz_cursor {
	size_t i;          /* its index */
	uint64_t off;      /* where the next one is */
	struct lz_seg g;   /* it (and the base of the next one's differences) */
};

struct lazy_lines {
	struct lz_src *src;
	uint32_t nsrc, capsrc;
	struct lz_format *fmt;
	uint32_t nfmt, capfmt;
	uint8_t *sbuf;      /* the segments, coded, in chunk order */
	size_t slen, scap;
	struct lz_mark *mark; /* one every LZ_MARK segments */
	size_t nmark, capmark;
	size_t nseg;
	struct lz_seg prev; /* the last one put: the base of the next */
	cost_t *lc;         /* lastcost values (nev) kept for segments */
	size_t nlc, caplc;
	/* the few segments that need them (a cost "*" before any other value):
	 * where their values start in lc, by segment, in segment order */
	struct lz_star {
		size_t seg, lc;
	} *star;
	size_t nstar, capstar;
};

static void lazy_free(void *v)
{
	struct lazy_lines *lz = v;
	for (uint32_t i = 0; i < lz->nsrc; i++) {
		munmap((void *)lz->src[i].base, lz->src[i].size);
		free(lz->src[i].path);
	}
	free(lz->src);
	free(lz->fmt);
	free(lz->sbuf);
	free(lz->mark);
	free(lz->lc);
	free(lz->star);
	free(lz);
}

/* The index of the parser's present format, added when new. */
static uint32_t lz_format_now(struct parser *ps)
{
	struct lazy_lines *lz = ps->lz;
	/* the last one, nearly always (a segment starts at every run of
	 * cost lines): compared field by field, nothing built */
	const struct lz_format *l = lz->nfmt ? &lz->fmt[lz->nfmt - 1] : NULL;
	if (l && l->npos == ps->npos && l->nign == ps->nign && l->linek == ps->linek &&
	    l->instrk == ps->instrk && l->nev == ps->nev && l->sign == ps->o->sign &&
	    !memcmp(l->slot, ps->slot, sizeof(l->slot)) &&
	    !memcmp(l->evmap, ps->evmap, (size_t)ps->nev * sizeof(int)))
		return lz->nfmt - 1; /* (its evmap beyond nev is 0, as below) */
	struct lz_format f;
	memset(&f, 0, sizeof(f));
	f.npos = ps->npos;
	f.nign = ps->nign;
	memcpy(f.slot, ps->slot, sizeof(f.slot));
	f.linek = ps->linek;
	f.instrk = ps->instrk;
	f.nev = ps->nev;
	f.sign = ps->o->sign;
	memcpy(f.evmap, ps->evmap, (size_t)ps->nev * sizeof(int));
	VEC_RESERVE(lz->fmt, lz->capfmt, lz->nfmt + 1);
	lz->fmt[lz->nfmt] = f;
	return lz->nfmt++;
}

/* The difference b - a, and a + d, of 64-bit values, wrapping: exact. */
static uint64_t diff64(uint64_t a, uint64_t b)
{
	return zigzag((int64_t)(b - a));
}

static uint64_t undiff64(uint64_t a, uint64_t d)
{
	return a + (uint64_t)unzigzag(d);
}

/* Appends segment g to sbuf (see LZ_MARK). */
static void seg_put(struct lazy_lines *lz, const struct lz_seg *g)
{
	if (lz->nseg % LZ_MARK == 0) {
		VEC_RESERVE(lz->mark, lz->capmark, lz->nmark + 1);
		lz->mark[lz->nmark++] = (struct lz_mark){ lz->slen, g->chunk };
		memset(&lz->prev, 0, sizeof(lz->prev));
	}
	VEC_RESERVE(lz->sbuf, lz->scap, lz->slen + 8 * 10);
	const struct lz_seg *b = &lz->prev;
	uint8_t *o = lz->sbuf + lz->slen;
	o = varint_put(o, g->chunk - b->chunk); /* (in chunk order) */
	o = varint_put(o, diff64(b->end, g->start));
	o = varint_put(o, g->end - g->start);
	o = varint_put(o, diff64((uint64_t)b->last[0], (uint64_t)g->last[0]));
	o = varint_put(o, diff64((uint64_t)b->last[1], (uint64_t)g->last[1]));
	o = varint_put(o, g->src);
	o = varint_put(o, g->fi);
	o = varint_put(o, (uint64_t)g->fmt << 1 | g->call);
	lz->slen = (size_t)(o - lz->sbuf);
	lz->prev = *g;
	lz->nseg++;
}

/* The next segment after c's (c->g the one before, or zeroed at a mark). */
static void seg_next(const struct lazy_lines *lz, struct lz_cursor *c)
{
	const uint8_t *o = lz->sbuf + c->off;
	struct lz_seg *g = &c->g;
	uint64_t u;
	o = varint_get(o, &u);
	g->chunk += (uint32_t)u;
	o = varint_get(o, &u);
	g->start = undiff64(g->end, u);
	o = varint_get(o, &u);
	g->end = g->start + u;
	o = varint_get(o, &u);
	g->last[0] = (int64_t)undiff64((uint64_t)g->last[0], u);
	o = varint_get(o, &u);
	g->last[1] = (int64_t)undiff64((uint64_t)g->last[1], u);
	o = varint_get(o, &u);
	g->src = (uint32_t)u;
	o = varint_get(o, &u);
	g->fi = (uint32_t)u;
	o = varint_get(o, &u);
	g->fmt = (uint32_t)(u >> 1) & 0x7fffffff;
	g->call = u & 1;
	c->off = (uint64_t)(o - lz->sbuf);
}

/* c at the first segment of chunk `chunk`: 1; 0 when it has none (c at
 * the first one of a later chunk, or c->i lz->nseg without one). */
static int mark_below(const void *m, const void *chunk)
{
	return ((const struct lz_mark *)m)->chunk < *(const uint32_t *)chunk;
}

static int seg_first(const struct lazy_lines *lz, uint32_t chunk, struct lz_cursor *c)
{
	c->i = lz->nseg;
	/* the last mark before the chunk's first segment: the first whose
	 * chunk is not below it, less one (a chunk may start before a mark) */
	size_t lo = first_not_below(lz->mark, lz->nmark, sizeof(*lz->mark), mark_below, &chunk);
	if (lo)
		lo--;
	for (size_t i = lo * LZ_MARK; i < lz->nseg; i++) {
		if (i % LZ_MARK == 0) {
			memset(c, 0, sizeof(*c));
			c->off = lz->mark[i / LZ_MARK].off;
		}
		seg_next(lz, c);
		c->i = i;
		if (c->g.chunk >= chunk)
			return c->g.chunk == chunk;
	}
	c->i = lz->nseg;
	return 0;
}

/* c at the segment after it, if there is one in the same chunk. */
static int seg_more(const struct lazy_lines *lz, struct lz_cursor *c)
{
	uint32_t chunk = c->g.chunk;
	if (++c->i >= lz->nseg)
		return 0;
	if (c->i % LZ_MARK == 0) {
		memset(&c->g, 0, sizeof(c->g));
		c->off = lz->mark[c->i / LZ_MARK].off;
	}
	seg_next(lz, c);
	return c->g.chunk == chunk;
}

void seg_open_at(struct parser *ps, uint64_t off)
{
	struct lz_seg *g = &ps->seg;
	g->start = off;
	g->last[0] = ps->last[0];
	g->last[1] = ps->last[1];
	g->src = ps->lz_src;
	g->fi = ps->fi;
	g->fmt = lz_format_now(ps);
	g->call = ps->pending == PEND_CALL;
	memcpy(ps->seg_lc, ps->lastcost, (size_t)ps->nev * sizeof(cost_t));
	ps->seg_star = 0;
	ps->seg_open = 1;
}

void seg_end(struct parser *ps, uint64_t off)
{
	if (!ps->seg_open)
		return;
	ps->seg_open = 0;
	struct linestore *ls = &ps->p->ls;
	struct lazy_lines *lz = ps->lz;
	if (off <= ps->seg.start || ls->open_fn == UINT32_MAX || !ls->an)
		return; /* nothing in it, or no cost in it went to a block */
	ps->seg.end = off;
	ps->seg.chunk = ls->nchunks;
	if (ps->seg_star) { /* its reader needs the values before it */
		size_t nev = (size_t)lz->fmt[ps->seg.fmt].nev;
		VEC_RESERVE(lz->lc, lz->caplc, lz->nlc + nev);
		memcpy(&lz->lc[lz->nlc], ps->seg_lc, nev * sizeof(cost_t));
		VEC_RESERVE(lz->star, lz->capstar, lz->nstar + 1);
		lz->star[lz->nstar++] = (struct lz_star){ lz->nseg, lz->nlc };
		lz->nlc += nev;
	}
	seg_put(lz, &ps->seg);
}

void seg_line(struct parser *ps, uint64_t off, const char *t, size_t l)
{
	const char *u = t;
	while (u < t + l && is_space(*u))
		u++;
	if (u < t + l && cost_start(*u)) {
		seg_start(ps, off);
		return;
	}
	if (!(fkey_flags(line_key(t, '=')) & K_SEGMENT))
		seg_end(ps, off);
}


/* A cost line read again: into the line store's open block, unless it is
 * a call's. */
static int replay_cost(struct parser *rp, struct linestore *ls, const char *s)
{
	int64_t pos[3];
	default_positions(rp);
	s = parse_positions(rp, s, pos, 1);
	if (!s || check_line_range(rp, pos) < 0)
		return -1;
	rp->last[0] = pos[0];
	rp->last[1] = pos[1];
	if (rp->pending == PEND_CALL) {
		cost_t c[MAX_EVENTS];
		rp->pending = PEND_NONE;
		memset(c, 0, sizeof(c));
		return parse_costs_into(rp, s, c, 0);
	}
	rp->pending = PEND_NONE;
	cost_t *dst = linestore_slot(ls, rp->fi, line_of(rp, pos));
	linestore_width(ls, ls->nreal);
	return parse_costs_into(rp, s, dst, 0);
}

static int cmp_star(const void *a, const void *b)
{
	size_t x = ((const struct lz_star *)a)->seg, y = ((const struct lz_star *)b)->seg;
	return (x > y) - (x < y);
}

/* Segment i's lastcost values in lz->lc, or NULL when it needs none. */
static const cost_t *seg_lastcost(const struct lazy_lines *lz, size_t i)
{
	struct lz_star key = { .seg = i };
	const struct lz_star *f = lz->nstar ? bsearch(&key, lz->star, lz->nstar, sizeof(key), cmp_star)
					    : NULL;
	return f ? &lz->lc[f->lc] : NULL;
}

/* Reads segment g (the i-th) again into the line store's open block. */
static int replay_seg(struct profile *p, const struct lazy_lines *lz, const struct lz_seg *g,
		      size_t i, struct scratch *sc, char *err, size_t errsz)
{
	const struct lz_src *src = &lz->src[g->src];
	const struct lz_format *f = &lz->fmt[g->fmt];
	struct load_opts lo = { .sign = f->sign };
	struct parser rp;
	memset(&rp, 0, sizeof(rp));
	rp.p = p;
	rp.o = &lo;
	rp.path = src->path;
	rp.err = err;
	rp.errsz = errsz;
	rp.npos = f->npos;
	rp.nign = f->nign;
	memcpy(rp.slot, f->slot, sizeof(rp.slot));
	rp.linek = f->linek;
	rp.instrk = f->instrk;
	rp.nev = f->nev;
	memcpy(rp.evmap, f->evmap, sizeof(rp.evmap));
	rp.have_events = 1;
	rp.last[0] = g->last[0];
	rp.last[1] = g->last[1];
	rp.fi = g->fi;
	rp.pending = g->call ? PEND_CALL : PEND_NONE;
	const cost_t *lc = seg_lastcost(lz, i);
	if (lc)
		memcpy(rp.lastcost, lc, (size_t)f->nev * sizeof(cost_t));
	const char *s = src->base + g->start, *end = src->base + g->end;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *t = skip_ws(line_copy(sc, s, &l));
		enum fkey key;
		if (cost_start(*t)) {
			if (replay_cost(&rp, &p->ls, t) < 0)
				return -1;
		} else if ((key = line_key(t, '=')) == FK_CALLS) {
			default_positions(&rp);
			rp.pending = PEND_CALL;
		} else if (key == FK_JUMP || key == FK_JCND) {
			default_positions(&rp);
			rp.pending = PEND_JUMP;
		}
		s = nl ? nl + 1 : end;
	}
	return 0;
}

/* By its name (no descriptor is kept: a run's thousand per-thread files
 * would use as many): another file there, or this one written since. */
static int src_changed(const struct lz_src *src)
{
	struct stat st;
	return stat(src->path, &st) < 0 || st.st_size != src->st.st_size ||
	       st.st_ino != src->st.st_ino || st.st_dev != src->st.st_dev ||
	       st.st_mtim.tv_sec != src->st.st_mtim.tv_sec ||
	       st.st_mtim.tv_nsec != src->st.st_mtim.tv_nsec;
}

/* Reads the segments of a chunk, from first's, again. */
static int replay_segs_in(struct profile *p, const struct lazy_lines *lz,
			  const struct lz_cursor *first, struct scratch *sc, char *err, size_t errsz)
{
	struct lz_cursor c = *first;
	do {
		const struct lz_seg *g = &c.g;
		if (src_changed(&lz->src[g->src])) {
			snprintf(err, errsz, "%s: changed since it was loaded", lz->src[g->src].path);
			return -1;
		}
		if (replay_seg(p, lz, g, c.i, sc, err, errsz) < 0)
			return -1;
	} while (seg_more(lz, &c));
	return 0;
}

/* replay_segs_in(), a SIGBUS (the file shrank under the mapping) caught. */
static int replay_segs(struct profile *p, const struct lazy_lines *lz,
		       const struct lz_cursor *first, struct scratch *sc, char *err, size_t errsz)
{
	const char *path = lz->src[first->g.src].path;
	sigjmp_buf jb, *volatile prev = NULL;
	int rc;
	if (sigsetjmp(jb, 1)) {
		snprintf(err, errsz, "%s: the file shrank", path);
		rc = -1;
	} else {
		prev = bus_guard(&jb);
		rc = replay_segs_in(p, lz, first, sc, err, errsz);
	}
	bus_guard(prev);
	return rc;
}

/* Makes deferred chunk c's records from its segments. */
static int replay_chunk(struct profile *p, struct lazy_lines *lz, uint32_t c)
{
	struct linestore *ls = &p->ls;
	struct lz_cursor first;
	int found = seg_first(lz, c, &first);
	char err[512] = "";
	struct scratch sc = { 0 };
	int rc = 0;
	linestore_begin(ls, ls->chunks[c].fn);
	if (found)
		rc = replay_segs(p, lz, &first, &sc, err, sizeof(err));
	free(sc.buf);
	if (linestore_refill(ls, c, rc == 0) < 0) {
		if (!err[0])
			snprintf(err, sizeof(err), "%s: changed since it was loaded",
				 first.i < lz->nseg ? lz->src[first.g.src].path : "the profile");
		profile_warn(p, "%s; some line costs are not shown", err);
		return -1;
	}
	return 0;
}

/* The line provider registered on the model (profile_need_lines). */
static int need_lines(struct profile *p, void *lazy, uint32_t fn)
{
	struct linestore *ls = &p->ls;
	if (!ls->nlazy || fn >= ls->nfn_cap)
		return 0;
	int rc = 0;
	for (uint32_t c = ls->fn_first[fn]; c != UINT32_MAX; c = ls->chunks[c].next)
		if (ls->chunks[c].lazy && replay_chunk(p, lazy, c) < 0)
			rc = -1;
	return rc;
}

void lazy_add_src(struct parser *ps, const char *base, size_t size, const struct stat *st)
{
	struct profile *p = ps->p;
	if (!p->lazy) {
		p->lazy = xcalloc(1, sizeof(struct lazy_lines));
		p->lazy_free = lazy_free;
		p->lazy_lines = need_lines;
	}
	struct lazy_lines *lz = p->lazy;
	VEC_RESERVE(lz->src, lz->capsrc, lz->nsrc + 1);
	lz->src[lz->nsrc] = (struct lz_src){ .path = xstrdup(ps->path), .base = base,
					     .size = size, .st = *st };
	ps->lz = lz;
	ps->lz_src = lz->nsrc++;
	p->ls.lazy = 1;
}
