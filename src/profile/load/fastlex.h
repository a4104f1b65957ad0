/* fastlex.h -- the fast paths' readers of the parts of a line, inline for
 * the loops that use them: fast.c's (the reader's) and runs.c's (the
 * workers' runs): numbers, subpositions, a plain cost line's positions and
 * costs, a call's or jump's target, a jump line not kept; and the room the
 * fast paths' sums have.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_FASTLEX_H
#define CGTUI_FASTLEX_H

#include "fastnum.h"
#include "load_int.h"

#include <stdint.h>
#include <string.h>

/* The room the fast paths' self costs have in fastsum: every event's sum
 * stays within 2^63-1 while fastsum + summax0 does. */
static inline uint64_t fast_room(const struct profile *p)
{
	return (uint64_t)INT64_MAX - p->summax0 - p->fastsum;
}

static inline int fast_cheap(const struct parser *ps)
{
	return !ps->p->sums_exact && ps->nev <= 16;
}

static inline int line_end(char c)
{
	return c == '\n' || c == 0 || c == '\r';
}

/* One subposition "*", "N", "+N", "-N" or with 0x hex numbers, relative
 * to *pos: the end, or NULL. */
static inline __attribute__((always_inline)) const char *fast_subpos(const char *s, int64_t *pos)
{
	char c = *s;
	if (c == '*')
		return s + 1;
	uint64_t x, l = (uint64_t)*pos;
	const char *d = s + (c == '+' || c == '-');
	if (d[0] == '0' && d[1] == 'x')
		s = fast_hex(d + 2, &x);
	else
		s = fast_dec(d, &x);
	if (s)
		*pos = (int64_t)(c == '+' ? l + x : c == '-' ? l - x : x);
	return s;
}

/* The subpositions of a plain cost line at t (single spaces, "N", "+N",
 * "-N", "*", 0x hex), each relative to pos[] and left there: where the
 * costs start (t of a line with no costs: its '\n'), or NULL.  abs gets a
 * bit per subposition given as an absolute value (par.c, which reads runs
 * of lines without knowing the positions before them). */
static inline __attribute__((always_inline)) const char *
plain_positions(const char *t, int npos, int64_t pos[2], unsigned *abs)
{
	for (int k = 0; k < npos; k++) {
		char c = *t;
		if (c != '+' && c != '-' && c != '*')
			*abs |= 1u << k;
		if (!(t = fast_subpos(t, &pos[k])))
			return NULL;
		if (*t == '\n')
			break; /* the other subpositions stay */
		if (*t != ' ')
			return NULL;
		t++;
	}
	return t;
}

/* plain_positions() for the runs of cost lines (the workers' in runs.c,
 * the reader's in fast.c's fast_run_as()): the same lines taken,
 * the same results, but two subpositions of the commonest forms, "+D "
 * then "* ", "+D " or "-D " (D a digit; '\n' for the last space; two
 * lines in three of a large Callgrind profile), read from one 8-byte load
 * at t (readable) with a few tests, not a character at a time, and no
 * branch on the second's form; others are plain_positions()'s.  (About
 * 6% less time in the workers, as much in the reader with one job.) */
static inline __attribute__((always_inline)) const char *
plain_positions_short(const char *t, int npos, int64_t pos[2], unsigned *abs)
{
	uint64_t w;
	__builtin_memcpy(&w, t, 8);
	uint64_t d0 = (w >> 8 & 0xff) - '0';
	if (npos == 2 && (w & 0xff) == '+' && d0 < 10 && (w >> 16 & 0xff) == ' ') {
		unsigned c = (unsigned)(w >> 24 & 0xff), a = (unsigned)(w >> 32 & 0xff);
		unsigned b = (unsigned)(w >> 40 & 0xff);
		uint64_t d1 = (uint64_t)a - '0';
		/* (no branch on the second's form: they come at random) */
		unsigned star = c == '*', plus = c == '+', minus = c == '-';
		unsigned end = star ? a : b;
		if ((star | ((plus | minus) & (d1 < 10))) & ((end == ' ') | (end == '\n'))) {
			uint64_t d = d1 & -(uint64_t)(plus | minus), neg = -(uint64_t)minus;
			pos[0] = (int64_t)((uint64_t)pos[0] + d0);
			pos[1] = (int64_t)((uint64_t)pos[1] + ((d ^ neg) - neg));
			return t + 5 - star + (end == ' ');
		}
	}
	return plain_positions(t, npos, pos, abs);
}

/* The costs of a plain cost line at t (after plain_positions(); lim: where
 * the line may not reach), added to dst[] and put in lc[]: the line's
 * '\n', or NULL when it is not plain (what was added is then in lc[0 ..
 * *n) for the caller to take back).  *sum: of the values, at most 16
 * below 10^18 each when nev <= 16. */
static inline __attribute__((always_inline)) const char *
plain_costs(const char *t, const char *lim, int nev, cost_t *dst, cost_t *lc, int *np,
	    uint64_t *sum)
{
	int n = 0;
	uint64_t sm = 0;
	while (*t != '\n') {
		uint64_t x;
		if (n >= nev || t >= lim || !(t = fast_dec(t, &x))) {
			*np = n;
			return NULL;
		}
		sm += x;
		dst[n] = cost_add(dst[n], (cost_t)x);
		lc[n++] = (cost_t)x;
		if (*t == ' ')
			t++;
		else if (*t != '\n') {
			*np = n;
			return NULL;
		}
	}
	*np = n;
	*sum = sm;
	return t;
}

/* plain_costs() for the workers' runs (runs.c): the same lines taken, the
 * same results, but a line whose '\n' is in the 64 bytes at t is checked
 * at once (digits and single spaces up to the '\n', SSE2 masks) and each
 * field's value read knowing its length.  Longer lines, or lines that may
 * reach lim, are plain_costs()'s.  (The reader's runs keep plain_costs()
 * without AVX2: there this gave nothing measurable.) */
static inline __attribute__((always_inline)) const char *
plain_costs_wide(const char *t, const char *lim, int nev, cost_t *dst, cost_t *lc, int *np,
		 uint64_t *sum)
{
#ifdef __SSE2__
	/* (the 64 bytes at t are read only where the line may have them) */
	if (__builtin_expect(lim - t < 64, 0))
		return plain_costs(t, lim, nev, dst, lc, np, sum);
	uint64_t msp, mnl, mdg;
	lex_masks32(t, &msp, &mnl, &mdg);
	if (__builtin_expect(!mnl, 0)) {
		uint64_t sp2, nl2, dg2;
		lex_masks32(t + 32, &sp2, &nl2, &dg2);
		msp |= sp2 << 32;
		mnl = nl2 << 32;
		mdg |= dg2 << 32;
	}
	if (__builtin_expect(!mnl, 0))
		return plain_costs(t, lim, nev, dst, lc, np, sum);
	unsigned e = (unsigned)__builtin_ctzll(mnl);
	uint64_t below = (1ull << e) - 1;
	*np = 0;
	/* digits and spaces only, a digit first, no two spaces together */
	if (((mdg | msp) & below) != below || (msp & below & 1) || (msp & (msp >> 1) & below))
		return NULL;
	uint64_t seps = (msp & below) | 1ull << e;
	unsigned at = 0;
	int n = 0;
	uint64_t sm = 0;
	do {
		unsigned end = (unsigned)__builtin_ctzll(seps);
		unsigned len = end - at;
		if (len == 0)
			break; /* the '\n' after a space, or at t */
		uint64_t x;
		if (n >= nev || !fast_dec_len(t + at, len, &x)) {
			*np = n;
			return NULL;
		}
		sm += x;
		dst[n] = cost_add(dst[n], (cost_t)x);
		lc[n++] = (cost_t)x;
		at = end + 1;
		seps &= seps - 1;
	} while (seps);
	*np = n;
	*sum = sm;
	return t + e;
#else
	return plain_costs(t, lim, nev, dst, lc, np, sum);
#endif
}

#ifdef FASTNUM_AVX2
/* plain_costs_wide() with AVX2, for the workers' runs (runs.c) and the
 * reader's (fast.c's fast_run_avx2()) on CPUs that have it: the same lines
 * taken, the same results.  A line whose '\n' is in the 32 bytes at t, or
 * in the 61 bytes at t with 80 readable before lim, of at most nev (<= 16)
 * costs of 1 to 8 digits, is read four fields at a time, with no branch
 * per field: each field's 8 bytes loaded and shifted as for
 * digits8_value(), the four converted together (digits8x4_value()), added
 * to dst[] and put in lc[] by lanes (a lane past the last field adds 0 and
 * leaves lc[] as it was: dst[] and lc[] hold 16 values).  Other lines are
 * plain_costs_wide()'s.  Not always_inline: an inline function's target
 * may not be more than its caller's, and this one is inlined in the AVX2
 * loops only (flatten).  noclone: with more than one caller, gcc made a
 * clone of it that the reader's runs called, not inlined (10% slower);
 * clang has no such attribute, nor makes such a clone.  (About 11% less
 * CPU time in the workers; the 1 GB load at 2 jobs 5% faster.  The lines
 * of 32 to 60 bytes, 6% of a large Callgrind profile's, took
 * plain_costs_wide() before.) */
#ifdef __clang__
#define NOCLONE
#else
#define NOCLONE __attribute__((noclone))
#endif
static inline AVX2_TARGET NOCLONE const char *
plain_costs_avx2(const char *t, const char *lim, int nev, cost_t *dst, cost_t *lc, int *np,
		 uint64_t *sum)
{
	if (__builtin_expect(lim - t < 64 || nev > 16, 0))
		return plain_costs_wide(t, lim, nev, dst, lc, np, sum);
	uint32_t sp32, nl32, dg32;
	lex_masks32_avx2(t, &sp32, &nl32, &dg32);
	uint64_t msp = sp32, mnl = nl32, mdg = dg32;
	/* the next 32 bytes when the '\n' is not in these, and the lanes
	 * past the last field (below) stay within the bytes readable: their
	 * loads reach 11 bytes past the '\n', and `ends' has a bit for each */
	if (__builtin_expect(!nl32, 0) && lim - t >= 80) {
		lex_masks32_avx2(t + 32, &sp32, &nl32, &dg32);
		msp |= (uint64_t)sp32 << 32;
		mnl = (uint64_t)nl32 << 32 & (((uint64_t)1 << 61) - 1);
		mdg |= (uint64_t)dg32 << 32;
	}
	unsigned e = (unsigned)__builtin_ctzll(mnl | (uint64_t)1 << 63);
	uint64_t below = ((uint64_t)1 << e) - 1, d = mdg & below, sp = msp & below;
	/* 9 digits in a row (r: bit i for digits at i .. i + 8) */
	uint64_t r = d & d >> 1;
	r &= r >> 2;
	r &= r >> 4;
	r &= d >> 8;
	int n = __builtin_popcountll(d & ~(d << 1));
	/* no '\n' in the bytes read, not digits and single spaces with a
	 * digit first (plain_costs_wide()'s checks), long numbers, more costs
	 * than events: plain_costs_wide()'s */
	if (__builtin_expect(!mnl || (d | sp) != below || (sp & (1 | sp >> 1)) || r || n > nev, 0))
		return plain_costs_wide(t, lim, nev, dst, lc, np, sum);
	/* the fields' ends: the spaces, the '\n' and every byte after it (the
	 * lanes past the last field: loads within the bytes read above, or
	 * the 80) */
	uint64_t ends = sp | ~0ull << e;
	unsigned at = 0;
	__m256i acc = _mm256_setzero_si256();
	const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
	for (int g = 0; g < n; g += 4) {
		uint64_t w[4];
#pragma GCC unroll 4
		for (int k = 0; k < 4; k++) {
			unsigned end = (unsigned)__builtin_ctzll(ends);
			uint64_t x;
			__builtin_memcpy(&x, t + at, 8);
			w[k] = x << ((64 - 8 * (end - at)) & 63);
			at = end + 1;
			ends &= ends - 1;
		}
		__m256i v = digits8x4_value(_mm256_setr_epi64x((long long)w[0], (long long)w[1],
								(long long)w[2], (long long)w[3]));
		__m256i m = _mm256_cmpgt_epi64(_mm256_set1_epi64x(n - g), lane);
		v = _mm256_and_si256(v, m);
		__m256i *dp = (__m256i *)(dst + g), *lp = (__m256i *)(lc + g);
		_mm256_storeu_si256(dp, _mm256_add_epi64(_mm256_loadu_si256(dp), v));
		_mm256_storeu_si256(lp, _mm256_blendv_epi8(_mm256_loadu_si256(lp), v, m));
		acc = _mm256_add_epi64(acc, v);
	}
	__m128i h = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
	*sum = (uint64_t)_mm_cvtsi128_si64(_mm_add_epi64(h, _mm_unpackhi_epi64(h, h)));
	*np = n;
	return t + e;
}
#endif

/* The target of calls=/jump=/jcnd= after the counts at s: " POS..." up to
 * the end of the line (a trailing space allowed), each subposition relative
 * to tpos[] (the last cost line's) and left there; missing trailing
 * subpositions keep it.  The next line, or NULL. */
static inline const char *fast_target(const char *s, int npos, int64_t tpos[2])
{
	for (int k = 0; k < npos && *s == ' ' && s[1] != '\n'; k++)
		if (!(s = fast_subpos(s + 1, &tpos[k])))
			return NULL;
	s += *s == ' ';
	return *s == '\n' ? s + 1 : NULL;
}

/* The value of a jump line at s (after "jump=" or "jcnd=", cond: the
 * latter) in its simplest form: "A POS..." or "A/B POS...", plain
 * numbers, the target relative to tpos[] as fast_target() reads it.  The
 * next line, or NULL.  (always_inline: runs.c's two loops use it, and
 * would call it.) */
static inline __attribute__((always_inline)) const char *
fast_jump(const char *s, int cond, int npos, uint64_t *a, uint64_t *b, int64_t tpos[2])
{
	*b = 0;
	if (!(s = fast_dec(s, a)) || (cond && (*s != '/' || !(s = fast_dec(s + 1, b)))))
		return NULL;
	return fast_target(s, npos, tpos);
}

/* A jump=/jcnd= line at s in the form fast_jump() reads, followed by a
 * cost line: where that starts, the sum of the counts in *n; else NULL.
 * The jumps are not kept (load_opts.skip_jumps): the fast runs of both the
 * reader and the workers take the two lines in. */
static inline const char *plain_jump_line_j(const char *s, int npos, uint64_t *n)
{
	int cond = !memcmp(s, "jcnd=", 5);
	if (!cond && memcmp(s, "jump=", 5))
		return NULL;
	uint64_t a, b;
	int64_t tpos[2] = { 0, 0 }; /* (checked, not kept) */
	const char *t = fast_jump(s + 5, cond, npos, &a, &b, tpos);
	if (!t || !cost_start(*t))
		return NULL;
	*n = a + b;
	return t;
}
/* (the lines that end most runs, not jumps, told at once where the run
 * is read: cob=, cfi=, cfn=, fi=, fe=, ...) */
static inline __attribute__((always_inline)) const char *plain_jump_line(const char *s, int npos,
									uint64_t *n)
{
	return *s == 'j' ? plain_jump_line_j(s, npos, n) : NULL;
}

#endif
