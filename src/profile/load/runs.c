/* runs.c -- the runs of plain cost lines that worker threads read
 * (par.c): chunk_runs() sums them without the parser's state, run_apply()
 * gives a run's summary to the parser where its state allows (see par.c's
 * comment for the whole scheme).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "fastlex.h"

#include <stdlib.h>
#include <string.h>

/* The counts of what a worker has written into a chunk, kept in its own
 * memory while it reads the chunk and given to the chunk at the end: the
 * reader reads the chunk before it at every run, whose cache line this
 * one's fields may share.  The arrays themselves are put in the chunk as
 * soon as they grow: after a SIGBUS, par.c drops the counts, and no array
 * is lost. */
struct chunk_out {
	struct run_sum *rs;
	cost_t *vals;
	size_t nrs, nvals, nids;
};

/* Room in c for one more run of at most nev columns: its summary, and its
 * sums then last costs (the place returned, zeroed for the sums). */
static cost_t *chunk_room(struct par_chunk *c, struct chunk_out *o, int nev)
{
	if (o->nrs == c->caprs) {
		c->caprs = c->caprs ? c->caprs * 2 : 256;
		o->rs = c->rs = xreallocarray(c->rs, c->caprs, sizeof(*c->rs));
	}
	size_t w = nev > 16 ? (size_t)nev : 16;
	if (o->nvals + 2 * w > c->capvals) {
		c->capvals = c->capvals ? c->capvals * 2 : 4096;
		while (c->capvals < o->nvals + 2 * w)
			c->capvals *= 2;
		o->vals = c->vals = xreallocarray(c->vals, c->capvals, sizeof(cost_t));
	}
	cost_t *v = o->vals + o->nvals;
	if (nev > 16)
		memset(v, 0, (size_t)nev * sizeof(cost_t));
	else /* (a few stores: gcc makes a memset of any size a rep stos) */
#pragma GCC unroll 16
		for (int i = 0; i < 16; i++)
			v[i] = 0;
	return v;
}

/* The id of a name line at s ("(N)" after the key k, of kind ns), and
 * the hash of the name it defines, kept for the reader's prefetch
 * (par.c's ids_ahead()); nothing before lim is read.  Ids of 2^30 or
 * more, or lines 4 GB into a chunk, are not (a prefetch is advice only:
 * the name is hashed as names.c would intern it without --mod-funcname,
 * --mod-filename or folded contexts).  The line's '\n' when it was found
 * (after a name), else NULL. */
static const char *chunk_id(struct par_chunk *c, struct chunk_out *o, const char *base,
			    const char *s, const char *lim, enum fkey k, int ns)
{
	const char *v = s + fkey_len(k) + 1, *e;
	uint64_t x, off = (uint64_t)(s - base) - c->start;
	if (*v != '(' || !(e = fast_dec(v + 1, &x)) || *e != ')' || x >= (1u << 30) ||
	    off > UINT32_MAX)
		return NULL;
	uint32_t h = 0;
	const char *nl = NULL;
	if (is_space(e[1])) {
		const char *name = e + 2, *ne;
		if ((ne = nl = memchr(name, '\n', (size_t)(lim - name)))) {
			while (ne > name && (is_space(ne[-1]) || ne[-1] == '\r'))
				ne--;
			if (ne > name)
				h = (uint32_t)hash_bytes(name, (size_t)(ne - name));
		}
	}
	VEC_RESERVE(c->ids, c->capids, o->nids + 1);
	c->ids[o->nids++] = (struct par_id){ (uint32_t)off, (uint32_t)ns << 30 | (uint32_t)x, h };
	return nl;
}

/* The last costs of each column (lc[]) of a run of lines from s to e, that
 * chunk_runs() read: the lines read again. */
static void run_lastcost(const char *s, const char *e, int npos, int nev, cost_t *lc)
{
	cost_t scratch[MAX_EVENTS] = { 0 };
	while (s < e) {
		if (cost_start(*s)) {
			int64_t pos[2] = { 0, 0 };
			unsigned abs = 0;
			int n;
			uint64_t sum;
			const char *t = plain_positions(s, npos, pos, &abs);
			if (t)
				plain_costs(t, s + FAST_MAX_LINE, nev, scratch, lc, &n, &sum);
		}
		s = (const char *)memchr(s, '\n', (size_t)(e - s)) + 1;
	}
}

/* Deltas of the line number beyond this are not followed (run_sum.dmin):
 * base + delta stays exact in 64 bits. */
#define DELTA_MAX ((int64_t)1 << 40)
/* A jump line taken into the run: a bit of its rabs, beside the
 * subpositions' (one variable fewer in the loop). */
#define RUN_JUMPED 0x100u
/* The lines this far ahead of a run's are fetched into the cache: the
 * hardware's prefetch stops at each page's end. */
#define RUN_PREFETCH 1024

/* chunk_runs(), the costs read by plain_costs_avx2() (avx2) or
 * plain_costs_wide(). */
static inline __attribute__((always_inline)) uint64_t
runs_read(struct par_chunk *c, const char *base, const char *fast_end, int npos, int nev,
	  int linek, int jumps, uint64_t len, const size_t *reader_in, size_t idx, int avx2)
{
	const char *s = base + c->start, *end = s + len;
	if (end > fast_end)
		end = fast_end;
	int pend = 0; /* the next cost line is not one of a run (below) */
	struct chunk_out o = { c->rs, c->vals, c->nrs, c->nvals, c->nids };
	/* the costs of the last line that had each column, written in place
	 * (a line that turns out not to be plain spoils them: run_lastcost()
	 * reads them again; zeroed: a run's end copies 16 of them) */
	cost_t lc[MAX_EVENTS] = { 0 };
	while (s < end) {
		const char *nl = NULL;
		/* the reader has come into the chunk: what is left is its own
		 * (the runs found so far are ahead of it) */
		if (reader_in && __atomic_load_n(reader_in, __ATOMIC_ACQUIRE) >= idx)
			break;
		if (!cost_start(*s)) {
			enum fkey key = line_key(s, '=');
			int ns = fkey_ns(key);
			if (ns != NS_NONE)
				nl = chunk_id(c, &o, base, s, fast_end + FAST_MAX_LINE + 32, key, ns);
			/* the cost line after calls=/jump=/jcnd= is the call's
			 * or the jump's (the first after fn= opens the block:
			 * the reader's fast paths do that, its runs start
			 * there) */
			if (key == FK_CALLS || key == FK_JUMP || key == FK_JCND)
				pend = 1;
			else if (!(fkey_flags(key) & K_INCALL))
				pend = 0;
			goto next_line;
		}
		if (pend) {
			pend = 0;
			goto next_line;
		}
		const char *start = s;
		/* the sums, in the chunk's values; lc[] is written up to the
		 * run's width */
		cost_t *sums = chunk_room(c, &o, nev);
		const char *run_end = (size_t)(end - s) > RUN_MAX ? s + RUN_MAX : end;
		int spoilt = 0;
		/* a jump line read (jline; its counts' sum jn), taken into the
		 * run with the cost line after it, else the run ends before it */
		const char *jline = NULL;
		uint64_t jn = 0;
		/* the summary's fields, in locals while the run is read, written
		 * once at its end (dmin > dmax: no relative line number read;
		 * RUN_JUMPED in rabs: a jump line taken in) */
		int64_t p0 = 0, p1 = 0, dmin = INT64_MAX, dmax = INT64_MIN;
		unsigned rabs = 0;
		int width = 0;
		uint64_t rsum = 0, nlines = 0, rjumps = 0;
		while (s < run_end) {
			__builtin_prefetch(s + RUN_PREFETCH);
			int64_t pos[2] = { p0, p1 };
			unsigned abs = rabs;
			const char *t = plain_positions_short(s, npos, pos, &abs);
			if (!t)
				break;
			int lrel = linek >= 0 && !(abs >> linek & 1);
			if (linek >= 0) {
				/* (no branch on lrel: a run mixes lines that give
				 * their number as a delta and lines that do not) */
				int64_t d = pos[linek];
				uint64_t u = lrel ? (uint64_t)d + (uint64_t)DELTA_MAX : (uint64_t)d;
				if (u > (lrel ? 2 * (uint64_t)DELTA_MAX : (uint64_t)UINT32_MAX - 1))
					break;
				dmin = lrel && d < dmin ? d : dmin;
				dmax = lrel && d > dmax ? d : dmax;
			}
			int n;
			uint64_t sum = 0;
			/* (rsum is at most 2^62: rsum + sum wraps only with sum above) */
#ifdef FASTNUM_AVX2
			if (avx2)
				t = plain_costs_avx2(t, s + FAST_MAX_LINE, nev, sums, lc, &n, &sum);
			else
#endif
				t = plain_costs_wide(t, s + FAST_MAX_LINE, nev, sums, lc, &n, &sum);
			if (!t ||
			    ((sum > ((uint64_t)1 << 62)) | (rsum + sum > ((uint64_t)1 << 62)))) {
				for (int i = 0; i < n; i++)
					sums[i] = cost_add(sums[i], -lc[i]);
				spoilt = n > 0;
				break;
			}
			width = n > width ? n : width;
			rsum += sum;
			p0 = pos[0];
			p1 = pos[1];
			rabs = abs;
			nlines++;
			if (jline) {
				nlines++;
				rjumps += jn;
				rabs |= RUN_JUMPED;
				jline = NULL;
			}
			s = t + 1;
			if (cost_start(*s))
				continue;
			/* jump=/jcnd= not kept (load_opts.skip_jumps) */
			if (!jumps || !(t = plain_jump_line(s, npos, &jn)) ||
			    rjumps + jn > ((uint64_t)1 << 62))
				break;
			jline = s;
			s = t;
		}
		if (jline)
			s = jline;
		/* a relative line number read (that of the line ending the run
		 * counted too: run_apply() then checks one line more than it
		 * needs) */
		int rel = dmin <= dmax;
		if (!rel)
			dmin = dmax = 0;
		if (nlines) {
			if (spoilt)
				run_lastcost(start, s, npos, nev, lc);
			struct run_sum *d = &o.rs[o.nrs++];
			d->start = (uint64_t)(start - base);
			d->end = (uint64_t)(s - base);
			d->nlines = nlines;
			d->sum = rsum;
			d->jumps = rjumps;
			d->pos[0] = p0;
			d->pos[1] = p1;
			d->dmin = dmin;
			d->dmax = dmax;
			d->vals = o.nvals;
			d->abs = (uint8_t)rabs; /* (not RUN_JUMPED) */
			d->width = (uint8_t)width;
			d->rel_line = (uint8_t)rel;
			d->jumped = !!(rabs & RUN_JUMPED);
			/* (16 stores, not a call of memcpy(): chunk_room() left
			 * room for 2 * 16 values) */
			if (nev <= 16)
#pragma GCC unroll 16
				for (int i = 0; i < 16; i++)
					sums[width + i] = lc[i];
			else
				for (int i = 0; i < width; i++)
					sums[width + i] = lc[i];
			o.nvals += 2 * (size_t)width;
			continue;
		}
next_line:
		if (!nl)
			nl = memchr(s, '\n', (size_t)(fast_end + FAST_MAX_LINE + 32 - s));
		if (!nl)
			break;
		s = nl + 1;
	}
	c->nrs = o.nrs;
	c->nvals = o.nvals;
	c->nids = o.nids;
	return (uint64_t)(s - base) - c->start;
}

#ifdef FASTNUM_AVX2
/* (flatten: the helpers above inlined, as they are in chunk_runs(), which
 * calls them once: about 4% of the time else) */
static AVX2_TARGET __attribute__((flatten)) uint64_t
runs_read_avx2(struct par_chunk *c, const char *base, const char *fast_end, int npos, int nev,
	       int linek, int jumps, uint64_t len, const size_t *reader_in, size_t idx)
{
	return runs_read(c, base, fast_end, npos, nev, linek, jumps, len, reader_in, idx, 1);
}
#endif

int costs_avx2(void)
{
#ifdef FASTNUM_AVX2
	const char *no = getenv("CGTUI_NO_SIMD");
	return !(no && *no == '1') && __builtin_cpu_supports("avx2") &&
	       __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
	       __builtin_cpu_supports("popcnt");
#else
	return 0;
#endif
}

uint64_t chunk_runs(struct par_chunk *c, const char *base, const char *fast_end, int npos,
		    int nev, int linek, int jumps, uint64_t len, const size_t *reader_in, size_t idx)
{
#ifdef FASTNUM_AVX2
	if (costs_avx2())
		return runs_read_avx2(c, base, fast_end, npos, nev, linek, jumps, len, reader_in,
				      idx);
#endif
	return runs_read(c, base, fast_end, npos, nev, linek, jumps, len, reader_in, idx, 0);
}

/* A summary of the run at off (chunk_runs()) applied to the parser, if the
 * parser's state is one the summary holds for: 1, or 0 (nothing done). */
int run_apply(struct parser *ps, const struct run_sum *r, const cost_t *vals)
{
	struct profile *p = ps->p;
	if (!p->ls.lazy || !fast_cheap(ps) || r->sum > fast_room(p))
		return 0;
	/* jump lines: as spec_fast() and cost_line_fast() read them when not
	 * kept; a sum passing 2^63-1 is said by the reader at its line */
	uint64_t *jm = &p->jumpmag[ps->o->sign < 0];
	if (r->jumped && (!ps->o->skip_jumps || ps->o->instr || ps->stale ||
			  r->jumps > (uint64_t)INT64_MAX - *jm))
		return 0;
	if (r->rel_line) {
		int64_t b = ps->last[ps->linek];
		if (b < -((int64_t)1 << 62) || b > ((int64_t)1 << 62) || b + r->dmin < 0 ||
		    b + r->dmax > (int64_t)UINT32_MAX - 1)
			return 0;
	}
	int w = r->width;
	cost_t *dst = linestore_slot(&p->ls, ps->fi, 0);
	for (int i = 0; i < w; i++) {
		dst[i] = cost_add(dst[i], vals[i]);
		ps->lastcost[i] = vals[w + i];
	}
	linestore_width(&p->ls, r->width);
	p->fastsum += r->sum;
	for (int k = 0; k < 2; k++)
		ps->last[k] = r->abs >> k & 1 ? r->pos[k]
					      : (int64_t)((uint64_t)ps->last[k] + (uint64_t)r->pos[k]);
	ps->any_cost = 1;
	if (r->jumped) {
		/* (cost_line_fast() gives the line after a jump every event) */
		linestore_width(&p->ls, ps->nev);
		*jm += r->jumps;
		ps->jfi = NO_ID;
		p->is_callgrind = 1;
		ps->cg_fmt = 1;
	}
	return 1;
}
