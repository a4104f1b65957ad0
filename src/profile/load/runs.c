/* runs.c -- the runs of plain cost lines that worker threads read
 * (par.c): chunk_runs() sums them without the parser's state, run_apply()
 * gives a run's summary to the parser where its state allows (see par.c's
 * comment for the whole scheme).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "fastlex.h"

#include <string.h>

static void chunk_push(struct par_chunk *c, const struct run_sum *r, const cost_t *sums,
		       const cost_t *lc)
{
	if (c->nrs == c->caprs) {
		c->caprs = c->caprs ? c->caprs * 2 : 256;
		c->rs = xreallocarray(c->rs, c->caprs, sizeof(*c->rs));
	}
	size_t w = r->width;
	if (c->nvals + 2 * w > c->capvals) {
		c->capvals = c->capvals ? c->capvals * 2 : 4096;
		while (c->capvals < c->nvals + 2 * w)
			c->capvals *= 2;
		c->vals = xreallocarray(c->vals, c->capvals, sizeof(cost_t));
	}
	struct run_sum *d = &c->rs[c->nrs++];
	*d = *r;
	d->vals = c->nvals;
	if (!w)
		return; /* (lines of positions only: no values, perhaps no array) */
	cost_t *v = c->vals + c->nvals;
	for (size_t i = 0; i < w; i++) {
		v[i] = sums[i];
		v[w + i] = lc[i];
	}
	c->nvals += 2 * w;
}

/* The id of a name line at s ("(N)" after the key k, of kind ns), and
 * the hash of the name it defines, kept for the reader's prefetch
 * (par.c's ids_ahead()); nothing before lim is read.  Ids of 2^30 or
 * more, or lines 4 GB into a chunk, are not (a prefetch is advice only:
 * the name is hashed as names.c would intern it without --mod-funcname,
 * --mod-filename or folded contexts). */
static void chunk_id(struct par_chunk *c, const char *base, const char *s, const char *lim,
		     enum fkey k, int ns)
{
	const char *v = s + fkey_len(k) + 1, *e;
	uint64_t x, off = (uint64_t)(s - base) - c->start;
	if (*v != '(' || !(e = fast_dec(v + 1, &x)) || *e != ')' || x >= (1u << 30) ||
	    off > UINT32_MAX)
		return;
	uint32_t h = 0;
	if (is_space(e[1])) {
		const char *name = e + 2, *nl = memchr(name, '\n', (size_t)(lim - name));
		if (nl) {
			while (nl > name && (is_space(nl[-1]) || nl[-1] == '\r'))
				nl--;
			if (nl > name)
				h = (uint32_t)hash_bytes(name, (size_t)(nl - name));
		}
	}
	VEC_RESERVE(c->ids, c->capids, c->nids + 1);
	c->ids[c->nids++] = (struct par_id){ (uint32_t)off, (uint32_t)ns << 30 | (uint32_t)x, h };
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

uint64_t chunk_runs(struct par_chunk *c, const char *base, const char *fast_end, int npos,
		    int nev, int linek, int jumps, uint64_t len, const size_t *reader_in, size_t idx)
{
	const char *s = base + c->start, *end = s + len;
	if (end > fast_end)
		end = fast_end;
	int pend = 0; /* the next cost line is not one of a run (below) */
	/* the costs of the last line that had each column, written in place
	 * (a line that turns out not to be plain spoils them: run_lastcost()
	 * reads them again) */
	cost_t sums[MAX_EVENTS], lc[MAX_EVENTS];
	memset(sums, 0, sizeof(sums));
	while (s < end) {
		const char *nl;
		/* the reader has come into the chunk: what is left is its own
		 * (the runs found so far are ahead of it) */
		if (reader_in && __atomic_load_n(reader_in, __ATOMIC_ACQUIRE) >= idx)
			break;
		if (!cost_start(*s)) {
			enum fkey key = line_key(s, '=');
			int ns = fkey_ns(key);
			if (ns != NS_NONE)
				chunk_id(c, base, s, fast_end + FAST_MAX_LINE + 32, key, ns);
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
		struct run_sum r = { .start = (uint64_t)(s - base) };
		/* sums[] is 0 here; lc[] is written up to the run's width */
		const char *run_end = s + RUN_MAX;
		int spoilt = 0;
		/* a jump line read (jline; its counts' sum jn), taken into the
		 * run with the cost line after it, else the run ends before it */
		const char *jline = NULL;
		uint64_t jn = 0;
		/* the summary's fields, in locals while the run is read (r's
		 * address is taken: the compiler keeps them in memory) */
		int64_t p0 = 0, p1 = 0, dmin = 0, dmax = 0;
		unsigned rabs = 0;
		int width = 0, rel = 0, jumped = 0;
		uint64_t rsum = 0, nlines = 0, rjumps = 0;
		while (s < end && s < run_end) {
			int64_t pos[2] = { p0, p1 };
			unsigned abs = rabs;
			const char *t = plain_positions(s, npos, pos, &abs);
			if (!t)
				break;
			int lrel = linek >= 0 && !(abs >> linek & 1);
			if (linek >= 0) {
				int64_t d = pos[linek];
				if (!lrel) {
					if ((uint64_t)d > (uint64_t)UINT32_MAX - 1)
						break;
				} else {
					if (d < -DELTA_MAX || d > DELTA_MAX)
						break;
					dmin = !rel || d < dmin ? d : dmin;
					dmax = !rel || d > dmax ? d : dmax;
				}
			}
			int n;
			uint64_t sum = 0;
			if (!(t = plain_costs(t, s + FAST_MAX_LINE, nev, sums, lc, &n, &sum)) ||
			    sum > ((uint64_t)1 << 62) || rsum + sum > ((uint64_t)1 << 62)) {
				for (int i = 0; i < n; i++)
					sums[i] = cost_add(sums[i], -lc[i]);
				spoilt = n > 0;
				break;
			}
			rel |= lrel;
			width = n > width ? n : width;
			rsum += sum;
			p0 = pos[0];
			p1 = pos[1];
			rabs = abs;
			nlines++;
			if (jline) {
				nlines++;
				rjumps += jn;
				jumped = 1;
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
		r.pos[0] = p0;
		r.pos[1] = p1;
		r.dmin = dmin;
		r.dmax = dmax;
		r.abs = (uint8_t)rabs;
		r.width = (uint8_t)width;
		r.rel_line = (uint8_t)rel;
		r.jumped = (uint8_t)jumped;
		r.sum = rsum;
		r.nlines = nlines;
		r.jumps = rjumps;
		if (jline)
			s = jline;
		if (r.nlines) {
			if (spoilt)
				run_lastcost(base + r.start, s, npos, nev, lc);
			r.end = (uint64_t)(s - base);
			chunk_push(c, &r, sums, lc);
			memset(sums, 0, sizeof(cost_t) * r.width);
			continue;
		}
next_line:
		nl = memchr(s, '\n', (size_t)(fast_end + FAST_MAX_LINE + 32 - s));
		if (!nl)
			break;
		s = nl + 1;
	}
	return (uint64_t)(s - base) - c->start;
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
