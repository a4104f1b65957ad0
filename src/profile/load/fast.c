/* fast.c -- the fast paths: the common lines of a profile's body read in
 * place, in one pass, and the loop that reads a mapped file with them.
 *
 * Most of a Callgrind file is cost lines (format spec 3.1.1, "Basic
 * Structure"): subpositions, relative ones included (3.1.6, "Subposition
 * Compression"), then short decimal counts; between them, calls= and the
 * names of a call by compressed id (3.1.3, "Associations"; 3.1.5, "Name
 * Compression"), jump=/jcnd=, fi=/fe=.  These are read here in their
 * simplest form only, straight into the model; anything else -- or a line
 * these functions are not sure of -- is left untouched to the general
 * parser (parse.c), which reads the whole grammar and says what is wrong.
 * The loop over a mapped file is here too, so that the runs of cost lines
 * stay in one function the compiler can keep in registers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "fastlex.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* A fast path's line of n positive values v[], of events 0 .. n-1 (for the
 * line store or a call record), summing to sum, joins the sums; 0 (nothing
 * added) when one does not fit for sure: the general parser then reads the
 * line again.  cheap: they join fastsum. */
static inline int fast_line_sums(struct profile *p, const cost_t *v, int n, uint64_t sum,
				 int cheap)
{
	if (cheap) { /* sum: of at most 16 values below 10^18 (fast_dec): no wrap */
		if (sum > fast_room(p))
			return 0;
		p->fastsum += sum;
		return 1;
	}
	for (int i = 0; i < n; i++)
		if (!sum_fits(p, 0, i, (uint64_t)v[i], 0))
			return 0;
	for (int i = 0; i < n; i++)
		sum_add(p, 0, i, (uint64_t)v[i]);
	return 1;
}

/* The line number of a fast path's cost line at pos (0 without one) in
 * *line: 0 when it is beyond the line store's range (cost_line() says
 * what is wrong), else 1. */
static inline int fast_line_of(const struct parser *ps, const int64_t pos[2], uint32_t *line)
{
	*line = 0;
	if (ps->linek < 0)
		return 1;
	if ((uint64_t)pos[ps->linek] > (uint64_t)UINT32_MAX - 1)
		return 0;
	*line = (uint32_t)pos[ps->linek];
	return 1;
}

/* Are a fast path's self costs summed over all events (fastsum)?  Not
 * when summag is exact, nor with more than 16 events (a line's sum could
 * wrap). */
/* The common cost line, read in one pass: every subposition "N", "+N", "-N"
 * or "*", every cost a short decimal, in a block already open, events in
 * the profile's order, not a diff's first file.  The line ends at '\n' (or
 * "\r\n", or the NUL of a line copied out when nul_ends); nothing at or
 * after lim is read, so it works in place
 * in a mapped file.  Returns where the next line starts, or NULL to leave
 * the line to cost_line() (nothing has been changed then). */
const char *cost_line_fast(struct parser *ps, const char *s, const char *lim, int nul_ends)
{
	struct profile *p = ps->p;
	int64_t pos[2] = { ps->last[0], ps->last[1] };
	for (int k = 0; k < ps->npos; k++) {
		while (s < lim && (*s == ' ' || *s == '\t'))
			s++;
		if (s >= lim)
			return NULL;
		if (!(s = fast_subpos(s, &pos[k])))
			return NULL;
		if (*s != ' ' && *s != '\t' && !line_end(*s))
			return NULL;
	}
	uint32_t line;
	if (!fast_line_of(ps, pos, &line))
		return NULL;
	/* the costs are added where they go as they are read, and taken back
	 * if the line turns out not to be one for this path */
	cost_t callc[MAX_EVENTS], *dst;
	int pend = ps->pending;
	if (pend == PEND_CALL) {
		memset(callc, 0, sizeof(cost_t) * (size_t)p->nreal);
		dst = callc;
	} else {
		/* deferred blocks are summed per file only */
		dst = linestore_slot(&p->ls, ps->fi, p->ls.lazy ? 0 : line);
		linestore_width(&p->ls, ps->nev);
	}
	cost_t *lc = ps->lastcost;
	int n = 0, nev = ps->nev;
	uint64_t sum = 0; /* of the values (fast_line_sums()) */
	while (s < lim && *s == ' ')
		s++;
	if (s < lim && !line_end(*s)) {
		for (;;) {
			uint64_t x;
			const char *e;
			if (n >= nev || !(e = fast_dec(s, &x)))
				goto undo;
			s = e;
			sum += x;
			dst[n] = cost_add(dst[n], (cost_t)x);
			lc[n++] = (cost_t)x;
			if (*s == ' ') {
				do
					s++;
				while (s < lim && *s == ' ');
				if (s < lim && !line_end(*s))
					continue;
			}
			if (s < lim && line_end(*s))
				break;
			goto undo;
		}
	}
	if (s >= lim)
		goto undo;
	/* the end of the line: "\n", "\r\n", or the NUL that ends a line
	 * copied out; in the mapped file a NUL is binary data, for
	 * parse_line() to report */
	if (*s == 0 && !nul_ends)
		goto undo;
	if (*s == '\r') {
		if (s + 1 >= lim || s[1] != '\n')
			goto undo;
		s++;
	}
	/* a sum passing 2^63-1 (or perhaps) is for cost_line() to say */
	if (!fast_line_sums(p, lc, n, sum, fast_cheap(ps)))
		goto undo;
	ps->last[0] = pos[0];
	ps->last[1] = pos[1];
	ps->any_cost = 1;
	if (pend == PEND_CALL)
		finish_call(ps, line, callc, pos);
	else if (pend == PEND_JUMP)
		finish_jump(ps, line, pos);
	return s + 1;
undo:
	if (dst != callc)
		for (int i = 0; i < n; i++)
			dst[i] = cost_add(dst[i], -lc[i]);
	return NULL;
}

/* The cost line after calls= in its simplest form, the form fast_run_as()
 * takes (plain_positions(), plain_costs(): single spaces, short decimal
 * costs, '\n' at the end, fewer subpositions than the positions: line's
 * keeping the last line's): the call made, as cost_line_fast() would make
 * it, without its search for blanks and ends at every step.  Nothing at or
 * after s + FAST_MAX_LINE + 32 is read.  Returns the next line, or NULL
 * (nothing but lastcost changed: cost_line_fast() and cost_line() read the
 * line again). */
static inline __attribute__((always_inline)) const char *
call_line_as(struct parser *ps, const char *s, const int avx2)
{
	struct profile *p = ps->p;
	int64_t pos[2] = { ps->last[0], ps->last[1] };
	unsigned abs = 0;
	const char *t = plain_positions(s, ps->npos, pos, &abs);
	if (!t)
		return NULL;
	uint32_t line;
	if (!fast_line_of(ps, pos, &line))
		return NULL;
	/* (plain_costs_avx2() adds to 16 values at least: zeroed) */
	cost_t callc[MAX_EVENTS];
	memset(callc, 0, sizeof(cost_t) * (size_t)(avx2 && p->nreal < 16 ? 16 : p->nreal));
	int n;
	uint64_t sum = 0;
#ifdef FASTNUM_AVX2
	if (avx2)
		t = plain_costs_avx2(t, s + FAST_MAX_LINE, ps->nev, callc, ps->lastcost, &n, &sum);
	else
#endif
		t = plain_costs(t, s + FAST_MAX_LINE, ps->nev, callc, ps->lastcost, &n, &sum);
	if (!t || !fast_line_sums(p, ps->lastcost, n, sum, fast_cheap(ps)))
		return NULL;
	ps->last[0] = pos[0];
	ps->last[1] = pos[1];
	ps->any_cost = 1;
	finish_call(ps, line, callc, pos);
	return t + 1;
}

#ifdef FASTNUM_AVX2
/* (flatten: plain_costs_avx2() inlined) */
static AVX2_TARGET __attribute__((flatten)) const char *call_line_avx2(struct parser *ps,
								      const char *s)
{
	return call_line_as(ps, s, 1);
}
#endif

/* call_line_as(), the costs read with AVX2 when avx2 (costs_avx2()) */
static inline const char *call_line_plain(struct parser *ps, const char *s, int avx2)
{
#ifdef FASTNUM_AVX2
	if (avx2)
		return call_line_avx2(ps, s);
#else
	(void)avx2;
#endif
	return call_line_as(ps, s, 0);
}

/* A run of plain cost lines, nothing pending (no calls=/jump= before): the
 * parser's position, file and line store stay in locals.  A line is taken
 * only in its simplest form, single spaces, short decimal costs, ending at
 * '\n'; it is read whole before anything changes, so the first line that is
 * not that form stops the run, untouched, for cost_line_fast() and
 * cost_line().  Nothing at or after end + FAST_MAX_LINE + 32 is read.
 * Returns where it stopped; *nlines says how many lines it took. */
static inline __attribute__((always_inline)) const char *
fast_run_as(struct parser *ps, const char *s, const char *end, uint64_t *nlines, const int cheap,
	    const int perfile, const int avx2)
{
	struct linestore *ls = &ps->p->ls;
	const int npos = ps->npos, linek = ps->linek, nev = ps->nev;
	const uint32_t fi = ps->fi;
	/* perfile (ls->lazy: deferred blocks are summed per file only; or no
	 * line numbers): every line goes to the one slot, taken at the first
	 * line (the line store then hands out no other before the run ends),
	 * and its width is the widest line's, said once at the end */
	cost_t *fdst = NULL;
	int fwidth = 0;
	/* (avx2, perfile only: the lines' costs summed here, 16 of them --
	 * plain_costs_avx2() adds 0 to those past a line's last -- and added
	 * to the slot at the end) */
	cost_t acc[16] = { 0 };
	int64_t last0 = ps->last[0], last1 = ps->last[1];
	cost_t *lc = ps->lastcost;
	/* the sums (fast_line_sums()): in fastsum, room being what is left,
	 * or per event */
	uint64_t room0 = cheap ? fast_room(ps->p) : 0, room = room0;
	uint64_t nl = 0;
	/* jump lines not kept, as spec_fast() and cost_line_fast() would
	 * read them: their counts summed (jsum) within jumpmag's bound; one
	 * read (jline, jn) is taken with the cost line after it, else the
	 * run stops before it */
	const int jumps = ps->o->skip_jumps && !ps->o->instr && !ps->stale;
	const uint64_t jroom = (uint64_t)INT64_MAX - ps->p->jumpmag[ps->o->sign < 0];
	uint64_t jsum = 0, jn = 0;
	const char *jline = NULL;
	int jumped = 0;
	while (s < end) {
		const char *t;
		int64_t pos[2] = { last0, last1 };
		unsigned abs = 0;
		if (!(t = plain_positions_short(s, npos, pos, &abs)))
			goto out;
		if (linek >= 0 && (uint64_t)pos[linek] > (uint64_t)UINT32_MAX - 1)
			goto out;
		/* added as read; taken back if the line is not for this path (the
		 * general parser then reads it again, lastcost included) */
		cost_t *dst = perfile ? fdst ? fdst : (fdst = linestore_slot(ls, fi, 0))
				      : linestore_slot(ls, fi, (uint32_t)pos[linek]);
		int n;
		uint64_t sum = 0;
#ifdef FASTNUM_AVX2
		if (avx2) {
			dst = acc;
			t = plain_costs_avx2(t, s + FAST_MAX_LINE, nev, dst, lc, &n, &sum);
		} else
#endif
			t = plain_costs(t, s + FAST_MAX_LINE, nev, dst, lc, &n, &sum);
		if (!t)
			goto undo;
		/* a sum passing 2^63-1 (or perhaps) is for cost_line() to say */
		if (cheap) {
			if (sum > room)
				goto undo;
			room -= sum;
		} else if (!fast_line_sums(ps->p, lc, n, sum, 0)) {
			goto undo;
		}
		/* (cost_line_fast() gives the line after a jump every event) */
		if (perfile)
			fwidth = fwidth > (jline ? nev : n) ? fwidth : jline ? nev : n;
		else
			linestore_width(ls, jline ? nev : n);
		last0 = pos[0];
		last1 = pos[1];
		nl++;
		if (jline) {
			nl++;
			jsum += jn;
			jumped = 1;
			jline = NULL;
		}
		s = t + 1;
		if (cost_start(*s))
			continue;
		if (!jumps || !(t = plain_jump_line(s, npos, &jn)) || jn > jroom - jsum)
			break;
		jline = s;
		s = t;
		continue;
undo:
		for (int i = 0; i < n; i++)
			dst[i] = cost_add(dst[i], -lc[i]);
		break;
	}
out:
	if (avx2 && fdst)
		for (int i = 0; i < fwidth; i++)
			fdst[i] = cost_add(fdst[i], acc[i]);
	if (fdst)
		linestore_width(ls, fwidth);
	if (jline)
		s = jline;
	ps->p->fastsum += room0 - room;
	if (nl) {
		ps->last[0] = last0;
		ps->last[1] = last1;
		ps->any_cost = 1;
	}
	if (jumped) { /* what set_jump() sets */
		ps->p->jumpmag[ps->o->sign < 0] += jsum;
		ps->jfi = NO_ID;
		ps->p->is_callgrind = 1;
		ps->cg_fmt = 1;
	}
	*nlines = nl;
	return s;
}

#ifdef FASTNUM_AVX2
/* (flatten: plain_costs_avx2() inlined, as in runs.c's loop) */
static AVX2_TARGET __attribute__((flatten)) const char *
fast_run_avx2(struct parser *ps, const char *s, const char *end, uint64_t *nlines)
{
	return fast_run_as(ps, s, end, nlines, 1, 1, 1);
}
#endif

/* fast_run_as() made for each way of counting the sums; with AVX2 (avx2:
 * costs_avx2()) for the commonest, one slot per file summed in fastsum
 * (fast_cheap(): at most 16 events, what plain_costs_avx2() reads) */
static const char *fast_run(struct parser *ps, const char *s, const char *end,
			    uint64_t *nlines, int avx2)
{
	if (ps->p->ls.lazy || ps->linek < 0) { /* one slot per file */
#ifdef FASTNUM_AVX2
		if (avx2 && fast_cheap(ps))
			return fast_run_avx2(ps, s, end, nlines);
#else
		(void)avx2;
#endif
		return fast_cheap(ps) ? fast_run_as(ps, s, end, nlines, 1, 1, 0)
				      : fast_run_as(ps, s, end, nlines, 0, 1, 0);
	}
	return fast_cheap(ps) ? fast_run_as(ps, s, end, nlines, 1, 0, 0)
			      : fast_run_as(ps, s, end, nlines, 0, 0, 0);
}

/* "(N)\n" with N already defined in map: the interned name in *id and the
 * next line, or NULL. */
static const char *known_id(struct idmap *m, const char *s, uint32_t *id)
{
	uint64_t x;
	if (*s != '(' || !(s = fast_dec(s + 1, &x)) || s[0] != ')' || s[1] != '\n')
		return NULL;
	uint32_t *v = idmap_slot(m, (int64_t)x, 0);
	if (!v || !*v || (*v & ID_PENDING))
		return NULL;
	*id = *v - 1;
	return s + 2;
}


/* The common specification lines of a body, read in place in the mapped
 * file (no copy, no search for the line's end): cfn=/cfi=/cfl=/cob=/fi=/fe=
 * with an id already defined, calls=, jump= and jcnd= with plain numbers
 * (key: line_key() of the line at s).
 * Only in the state fast_state() allows, at least FAST_MAX_LINE + 32 bytes
 * before the end.  Returns the next line, or NULL to leave the line to
 * parse_line() (nothing has been changed then). */
static const char *spec_fast(struct parser *ps, const char *s, enum fkey key)
{
	uint32_t id;
	uint64_t a, b;
	int64_t tpos[2];
	const char *t;
	/* between calls= and its cost line, only what K_INCALL says: the
	 * general parser says what is wrong */
	if (ps->pending == PEND_CALL && !(fkey_flags(key) & K_INCALL))
		return NULL;
	s += fkey_len(key) + 1; /* the value */
	switch (key) {
	case FK_CFN:
	case FK_CFI:
	case FK_CFL:
	case FK_COB:
	case FK_FI:
	case FK_FE:
		if (!(t = known_id(ns_map(ps, fkey_ns(key)), s, &id)))
			return NULL;
		if (key == FK_CFN)
			set_cfn(ps, id);
		else if (key == FK_COB)
			set_cob(ps, id);
		else if (key == FK_FI || key == FK_FE)
			set_fi(ps, id);
		else
			ps->cfl = id;
		return t;
	case FK_CALLS:
	case FK_JUMP:
	case FK_JCND:
		break;
	default:
		return NULL;
	}
	if (ps->stale) /* relative targets need checking: parse_line() */
		return NULL;
	tpos[0] = ps->last[0];
	tpos[1] = ps->last[1];
	if (key == FK_CALLS) {
		/* a sum passing 2^63-1 is said by calls_line() */
		if (ps->cfn == NO_ID || !(t = fast_dec(s, &a)) ||
		    !(t = fast_target(t, ps->npos, tpos)) || set_call(ps, a, tpos) < 0)
			return NULL;
		return t;
	}
	int cond = key == FK_JCND;
	if (!(t = fast_jump(s, cond, ps->npos, &a, &b, tpos)) ||
	    set_jump(ps, cond, a, b, tpos) < 0)
		return NULL;
	return t;
}

/* ---- reading a mapped file ----------------------------------------------- */

/* The file's pages are mapped in ahead of the reader, 4 MiB per call,
 * rather than by a page fault every few pages (a fault costs microseconds
 * in a virtual machine).  Advice only: without it the faults do the same. */
#define MAP_AHEAD (4u << 20)
static void map_ahead(struct mapread *m)
{
#ifdef MADV_POPULATE_READ
	if (m->ready >= m->end || (size_t)(m->ready - m->s) > MAP_AHEAD / 2)
		return;
	size_t n = (size_t)(m->end - m->ready) < MAP_AHEAD ? (size_t)(m->end - m->ready) : MAP_AHEAD;
	/* (not again where a worker has: par_mapped()) */
	if (!par_mapped(m, m->ready))
		madvise((void *)m->ready, n, MADV_POPULATE_READ);
	m->ready += n;
#else
	(void)m;
#endif
}

/* The offset at which the reader next has something to do besides the
 * lines (read_mapped_lines()): pages to map ahead (map_ahead()), to drop,
 * or progress to show. */
static uint64_t next_check(const struct mapread *m, int progress)
{
	uint64_t at = (uint64_t)(m->dropped - m->base) + DROP_EVERY;
	/* (the workers drop them a little later: not looked at every line
	 * meanwhile, par_drops()) */
	uint64_t soon = (uint64_t)(m->s - m->base) + (1u << 20);
	at = at > soon ? at : soon;
#ifdef MADV_POPULATE_READ
	if (m->ready < m->end) {
		uint64_t r = (uint64_t)(m->ready - m->base);
		r = r > MAP_AHEAD / 2 ? r - MAP_AHEAD / 2 : 0;
		at = r < at ? r : at;
	}
#endif
	if (progress && m->next_progress < at)
		at = m->next_progress;
	return at;
}

int read_mapped_lines(struct parser *ps, struct mapread *m)
{
	const struct load_opts *o = ps->o;
	int fast = fast_state(ps);
	/* bytes to spare: a number starting before the limit is read up to 20
	 * digits */
	const char *fast_end = m->end - (FAST_MAX_LINE + 32);
	map_ahead(m);
	m->check_at = next_check(m, o->progress != NULL);
	while (m->s < m->end) {
		const char *s = m->s;
		ps->lineno++;
		/* the first cost line of a block opens it, as cost_line()
		 * would, and is read by the fast paths like the others */
		if (!fast && s < fast_end && cost_start(*s) && fast_state_opening(ps)) {
			need_fn(ps, "cost line");
			linestore_begin(&ps->p->ls, ps->fn);
			fast = 1;
		}
		if (fast && s < fast_end && cost_start(*s)) {
			if (ps->lz)
				seg_start(ps, (uint64_t)(s - m->base));
			/* runs of cost lines stay in this loop, for at most RUN_MAX
			 * bytes: a function of many megabytes still has its pages
			 * mapped ahead and dropped behind, and progress shown (at
			 * done:); lineno counts the line at next, not done yet when
			 * the loop ends */
			const char *run_end = (size_t)(fast_end - s) > RUN_MAX ? s + RUN_MAX : fast_end;
			const char *next = s, *t;
			for (;;) {
				if (ps->pending == PEND_NONE) {
					uint64_t nl;
					const char *r = m->par_off ? NULL : par_run(ps, m, next, &nl);
					next = r ? r : fast_run(ps, next, run_end, &nl, m->avx2);
					ps->lineno += nl;
					if (next >= run_end || !cost_start(*next))
						break;
				}
				/* (a call's cost line: most often in the form
				 * call_line_plain() reads) */
				if (!(ps->pending == PEND_CALL && (t = call_line_plain(ps, next, m->avx2))) &&
				    !(t = cost_line_fast(ps, next, next + FAST_MAX_LINE, 0)))
					break;
				next = t;
				ps->lineno++;
				if (next >= run_end || !cost_start(*next))
					break;
			}
			if (next != s) {
				m->s = next;
				ps->lineno--; /* counted again above */
				ps->totals_last = 0;
				goto done;
			}
		}
		const char *nl;
		if (*s == '\n') { /* an empty line: ignored, but it ends a segment */
			if (ps->lz)
				seg_end(ps, (uint64_t)(s - m->base));
			m->s = s + 1;
			goto done;
		}
		enum fkey key = FK_NONE;
		if (fast && s < fast_end) {
			key = line_key(s, '=');
			/* fi=/fe= end a segment (elsewhere seg_line() says so) */
			if (ps->lz && (key == FK_FI || key == FK_FE))
				seg_end(ps, (uint64_t)(s - m->base));
			if ((nl = spec_fast(ps, s, key))) {
				m->s = nl;
				ps->totals_last = 0;
				goto done;
			}
		}
		nl = memchr(s, '\n', (size_t)(m->end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(m->end - s);
		if (l >= MAX_LINE_LEN)
			return perr(ps, "line longer than %u MiB", MAX_LINE_LEN >> 20);
		/* a name line spec_fast() did not take ("(N) name", fn=, ...):
		 * read in place, not copied out, when parse_line() would find
		 * nothing wrong before key_line() */
		if (key != FK_NONE && fkey_ns(key) != NS_NONE && nl && l && s[l - 1] != '\r' &&
		    (ps->pending != PEND_CALL || (fkey_flags(key) & K_INCALL)) && !memchr(s, 0, l)) {
			if (ps->lz)
				seg_line(ps, (uint64_t)(s - m->base), s, l);
			ps->totals_last = 0;
			if (key_line(ps, key, s, fkey_len(key), l) < 0)
				return -1;
			fast = fast_state(ps);
			m->s = nl + 1;
			goto done;
		}
		if (ps->skip_block && cost_start(*s)) { /* not wanted: not even copied */
			ps->pending = PEND_NONE;
			ps->stale = 1;
		} else {
			char *t = line_copy(&m->sc, s, &l);
			if (ps->lz)
				seg_line(ps, (uint64_t)(s - m->base), t, l);
			if (!nl) { /* the last line, cut short */
				m->s = m->end;
				return parse_cut_line(ps, t, l, (uint64_t)(s - m->base));
			}
			if (parse_line(ps, t, l) < 0)
				return -1;
			fast = fast_state(ps);
		}
		m->s = nl ? nl + 1 : m->end;
done:;
		/* what is done every few megabytes, looked at once a line only
		 * as far as whether one of them is due (check_at) */
		uint64_t done = (uint64_t)(m->s - m->base);
		if (done < m->check_at)
			continue;
		map_ahead(m);
		if ((size_t)(m->s - m->dropped) >= DROP_EVERY) {
			/* the pages read dropped: by the workers while there are */
			const char *upto = m->base + ((size_t)(m->s - m->base) & ~(size_t)4095);
			if (!par_drops(m, upto)) {
				madvise((void *)m->dropped, (size_t)(upto - m->dropped), MADV_DONTNEED);
				m->dropped = upto;
			}
		}
		if (o->progress && done >= m->next_progress) {
			m->next_progress = done + (8u << 20);
			if (o->progress(o->progress_arg, done, (uint64_t)(m->end - m->base))) {
				snprintf(ps->err, ps->errsz, "%s: loading cancelled", ps->path);
				return LOAD_CANCELLED;
			}
		}
		m->check_at = next_check(m, o->progress != NULL);
	}
	return 0;
}
