/* numparse-bench.c -- a micro-benchmark of the fast paths' number readers
 * (src/profile/load/fastlex.h): over every plain cost line of a mapped
 * Callgrind file, the positions and the costs are read and summed by the
 * present readers ("base": fastnum.h's fast_dec and fast_hex, the loop of
 * fastlex.h's plain cost line copied) and by candidates,
 * interleaved, and each one's median time and spread printed with its
 * ratio to base.  Every candidate must give base's sums and line counts
 * (checked; a difference is an error).
 *
 *   cc -std=c11 -O2 -o /tmp/numparse-bench bench/numparse-bench.c
 *   /tmp/numparse-bench FILE [ROUNDS] [VARIANT...]
 *
 * (the same flags as the project: baseline x86-64, no -march; the SSE2
 * candidate is built where __SSE2__ is defined).  Instructions and branch
 * mispredictions: run one variant under
 *   valgrind --tool=callgrind --branch-sim=yes /tmp/numparse-bench SLICE 1 NAME
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define MAXEV 32
#define INL static inline __attribute__((always_inline))

/* ---- base: the loader's number readers themselves (fastnum.h) ----------- */

#include "../src/profile/load/fastnum.h"

/* ---- candidate: SWAR, one 8-byte load per number ------------------------- */

/* the bytes of w that are not ASCII digits: 0x80 in each */
INL uint64_t swar_nondigit(uint64_t w)
{
	uint64_t y = w ^ 0x3030303030303030u; /* digits: 0 .. 9 */
	return (((y & 0x7f7f7f7f7f7f7f7fu) + 0x7676767676767676u) | y) & 0x8080808080808080u;
}

INL const char *swar_dec(const char *s, uint64_t *v)
{
	uint64_t w;
	memcpy(&w, s, 8);
	uint64_t nd = swar_nondigit(w);
	if (__builtin_expect(nd == 0, 0))
		return fast_dec(s, v); /* 8 digits or more */
	unsigned n = (unsigned)__builtin_ctzll(nd) >> 3;
	if (__builtin_expect(n == 0, 0))
		return NULL;
	*v = digits8_value(w, n);
	return s + n;
}

/* the same, but a 1-digit number first (the commonest) */
INL const char *swar1_dec(const char *s, uint64_t *v)
{
	unsigned d0 = (unsigned char)s[0] - '0', d1 = (unsigned char)s[1] - '0';
	if (d0 < 10 && d1 >= 10) {
		*v = d0;
		return s + 1;
	}
	return swar_dec(s, v);
}

/* ---- the line readers, one per number reader ----------------------------- */

#define DEFINE_LINE2(NAME, PDEC, DEC)                                                      \
	INL const char *NAME##_subpos(const char *s, int64_t *pos)                          \
	{                                                                                   \
		char c = *s;                                                                \
		if (c == '*')                                                               \
			return s + 1;                                                       \
		uint64_t x, l = (uint64_t)*pos;                                             \
		const char *d = s + (c == '+' || c == '-');                                 \
		if (d[0] == '0' && d[1] == 'x')                                             \
			s = fast_hex(d + 2, &x);                                            \
		else                                                                        \
			s = PDEC(d, &x);                                                    \
		if (s)                                                                      \
			*pos = (int64_t)(c == '+' ? l + x : c == '-' ? l - x : x);          \
		return s;                                                                   \
	}                                                                                   \
	/* the positions: where the costs start (or the '\n'), or NULL */                  \
	INL const char *NAME##_positions(const char *t, int npos, int64_t pos[2])          \
	{                                                                                   \
		for (int k = 0; k < npos; k++) {                                            \
			if (!(t = NAME##_subpos(t, &pos[k])))                               \
				return NULL;                                                \
			if (*t == '\n')                                                     \
				break;                                                      \
			if (*t != ' ')                                                      \
				return NULL;                                                \
			t++;                                                                \
		}                                                                           \
		return t;                                                                   \
	}                                                                                   \
	/* the costs at t, the n before them having summed to sm */                        \
	INL const char *NAME##_costs(const char *t, int nev, int64_t *dst, int n,           \
				     uint64_t sm, uint64_t *sum)                            \
	{                                                                                   \
		const char *lim = t + 256;                                                  \
		while (*t != '\n') {                                                        \
			uint64_t x;                                                         \
			if (n >= nev || t >= lim || !(t = DEC(t, &x)))                      \
				return NULL;                                                \
			sm += x;                                                            \
			dst[n++] += (int64_t)x;                                             \
			if (*t == ' ')                                                      \
				t++;                                                        \
			else if (*t != '\n')                                                \
				return NULL;                                                \
		}                                                                           \
		*sum += sm;                                                                 \
		return t;                                                                   \
	}                                                                                   \
	static const char *NAME##_line(const char *t, int npos, int nev, int64_t pos[2],     \
				       int64_t *dst, uint64_t *sum)                         \
	{                                                                                   \
		if (!(t = NAME##_positions(t, npos, pos)))                                  \
			return NULL;                                                        \
		return NAME##_costs(t, nev, dst, 0, 0, sum);                                \
	}

#define DEFINE_LINE(NAME, DEC) DEFINE_LINE2(NAME, DEC, DEC)
DEFINE_LINE(base, fast_dec)
DEFINE_LINE(swar, swar_dec)
DEFINE_LINE(swar1, swar1_dec)
DEFINE_LINE2(swarc, fast_dec, swar_dec) /* SWAR for the costs only */

/* ---- candidate: SWAR, the terminator taken from the same load ----------- */

/* the costs: each number's length and the byte after it from one 8-byte
 * load (no second load on the path to the next number); 1-digit numbers
 * by a branch first */
static const char *swart_line(const char *t, int npos, int nev, int64_t pos[2], int64_t *dst,
			      uint64_t *sum)
{
	if (!(t = swar_positions(t, npos, pos)))
		return NULL;
	const char *lim = t + 256;
	int n = 0;
	uint64_t sm = 0;
	if (*t == '\n')
		return t;
	for (;;) {
		uint64_t w, x;
		unsigned c;
		memcpy(&w, t, 8);
		uint64_t nd = swar_nondigit(w);
		if (__builtin_expect((nd & 0x80) || !nd || n >= nev || t >= lim, 0)) {
			const char *e; /* (no digit, 8 or more, or too many) */
			if (n >= nev || t >= lim || !(e = fast_dec(t, &x)))
				return NULL;
			c = (unsigned char)*e;
			t = e;
		} else {
			unsigned l = (unsigned)__builtin_ctzll(nd) >> 3;
			x = digits8_value(w, l);
			c = (unsigned)(w >> (8 * l)) & 0xff;
			t += l;
		}
		sm += x;
		dst[n++] += (int64_t)x;
		if (c == '\n')
			break;
		if (c != ' ')
			return NULL;
		t++;
		if (*t == '\n') /* a space at the end */
			break;
	}
	*sum += sm;
	return t;
}

#ifdef __SSE2__
/* ---- candidate: the line's separators found first (SSE2) ----------------- */

/* the costs at t: a 32-byte window's spaces and '\n' give each field's
 * start and length; fields of 1 .. 8 digits converted with digits8_value().
 * Lines longer than the window, or anything else, go to the base loop. */
static const char *sse_line(const char *t, int npos, int nev, int64_t pos[2], int64_t *dst,
			    uint64_t *sum)
{
	if (!(t = swar_positions(t, npos, pos)))
		return NULL;
	if (*t == '\n')
		return t;
	__m128i a = _mm_loadu_si128((const __m128i *)t);
	__m128i b = _mm_loadu_si128((const __m128i *)(t + 16));
	const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n');
	uint32_t msp = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, sp)) |
		       (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, sp)) << 16;
	uint32_t mnl = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, nl)) |
		       (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, nl)) << 16;
	int n = 0;
	uint64_t sm = 0;
	if (mnl) {
		unsigned e = (unsigned)__builtin_ctz(mnl); /* the '\n' */
		uint32_t seps = (msp | mnl) & (e == 31 ? 0xffffffffu : (2u << e) - 1);
		unsigned at = 0;
		while (seps) {
			unsigned end = (unsigned)__builtin_ctz(seps);
			unsigned len = end - at;
			if (len - 1 >= 8 || n >= nev)
				break; /* (empty field, or long: the loop) */
			uint64_t w;
			memcpy(&w, t + at, 8);
			if (swar_nondigit(w) & (~0ull >> (64 - 8 * len)))
				return NULL;
			uint64_t x = digits8_value(w, len);
			sm += x;
			dst[n++] += (int64_t)x;
			at = end + 1;
			seps &= seps - 1;
		}
		if (!seps) {
			*sum += sm;
			return t + e;
		}
		t += at;
	}
	/* longer than the window, or a field the above does not take */
	return swar_costs(t, nev, dst, n, sm, sum);
}

/* the costs at t: a window of 32 bytes (or 64 when wide and the first 32
 * have no '\n') checked at once (digits and single spaces up to the
 * '\n'), then each field's value from its known length, without a test
 * per field; a line longer than that: FALL's loop */
#define DEFINE_SSEV(NAME, POS, FALL, WIDE)                                                  \
	static const char *NAME##_line(const char *t, int npos, int nev, int64_t pos[2],     \
				       int64_t *dst, uint64_t *sum)                         \
	{                                                                                   \
		if (!(t = POS##_positions(t, npos, pos)))                                   \
			return NULL;                                                        \
		uint64_t msp, mnl, mdg;                                                     \
		lex_masks32(t, &msp, &mnl, &mdg);                                           \
		if (WIDE && __builtin_expect(!mnl, 0)) {                                    \
			uint64_t sp2, nl2, dg2;                                             \
			lex_masks32(t + 32, &sp2, &nl2, &dg2);                              \
			msp |= sp2 << 32;                                                   \
			mnl = nl2 << 32;                                                    \
			mdg |= dg2 << 32;                                                   \
		}                                                                           \
		if (__builtin_expect(!mnl, 0))                                              \
			return FALL##_costs(t, nev, dst, 0, 0, sum);                        \
		unsigned e = (unsigned)__builtin_ctzll(mnl);                                \
		uint64_t below = (1ull << e) - 1; /* (e <= 63) */                            \
		/* digits and spaces only, the first a digit, no two spaces together */     \
		if (((mdg | msp) & below) != below || (msp & 1) || (msp & (msp >> 1) & below)) \
			return e ? NULL : t;                                                \
		uint64_t seps = (msp & below) | 1ull << e;                                  \
		unsigned at = 0;                                                            \
		int n = 0;                                                                  \
		uint64_t sm = 0;                                                            \
		do {                                                                        \
			unsigned end = (unsigned)__builtin_ctzll(seps);                     \
			unsigned len = end - at;                                            \
			uint64_t x = 0;                                                     \
			if (__builtin_expect(len - 1 >= 8 || n >= nev, 0)) {                \
				if (len == 0)                                               \
					break; /* a space at the end, or none */            \
				if (n >= nev || len > 18)                                   \
					return NULL;                                        \
				fast_dec(t + at, &x);                                       \
			} else {                                                            \
				uint64_t w;                                                 \
				memcpy(&w, t + at, 8);                                      \
				x = digits8_value(w, len);                                     \
			}                                                                   \
			sm += x;                                                            \
			dst[n++] += (int64_t)x;                                             \
			at = end + 1;                                                       \
			seps &= seps - 1;                                                   \
		} while (seps);                                                             \
		*sum += sm;                                                                 \
		return t + e;                                                               \
	}

DEFINE_SSEV(ssev, base, swar, 0)
DEFINE_SSEV(ssevb, base, base, 0)
DEFINE_SSEV(ssev2, base, base, 1)
DEFINE_SSEV(ssev1, swar1, base, 1)

/* ---- candidate: the whole line's separators first (SSE2) ---------------- */

/* the spaces and '\n' of the 32 bytes at s: bit i for s[i] */
INL void sep_masks32(const char *s, uint64_t *sp, uint64_t *nl)
{
	__m128i a = _mm_loadu_si128((const __m128i *)s);
	__m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
	const __m128i vs = _mm_set1_epi8(' '), vn = _mm_set1_epi8('\n');
	*sp = (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, vs)) |
	      (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, vs)) << 16;
	*nl = (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, vn)) |
	      (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, vn)) << 16;
}

/* the len (0 .. 8) digits at s: their value in *v, or 0 when one of them
 * is not a digit (len 0: 1, *v 0) */
INL int swar_known(const char *s, unsigned len, uint64_t *v)
{
	uint64_t w;
	memcpy(&w, s, 8);
	uint64_t keep = len ? ~0ull >> (64 - 8 * len) : 0;
	w &= keep;
	uint64_t bad = swar_nondigit(w | (0x3030303030303030u & ~keep));
	uint64_t y = (w & 0x0f0f0f0f0f0f0f0fu) << ((64 - 8 * len) & 63);
	y &= len ? ~0ull : 0;
	y = (y * 10 + (y >> 8)) & 0x00ff00ff00ff00ffu;
	y = (y * (1 + (100ull << 16)) >> 16) & 0x0000ffff0000ffffu;
	*v = y * (1 + (10000ull << 32)) >> 32;
	return !bad;
}

static const char *line_line(const char *s, int npos, int nev, int64_t pos[2], int64_t *dst,
			     uint64_t *sum)
{
	uint64_t msp, mnl;
	sep_masks32(s, &msp, &mnl);
	if (!mnl) {
		uint64_t sp2, nl2;
		sep_masks32(s + 32, &sp2, &nl2);
		msp |= sp2 << 32;
		mnl = nl2 << 32;
		if (!mnl)
			return swar_line(s, npos, nev, pos, dst, sum);
	}
	unsigned e = (unsigned)__builtin_ctzll(mnl); /* the '\n' */
	uint64_t seps = (msp & (e == 63 ? ~0ull : (2ull << e) - 1)) | 1ull << e;
	unsigned at = 0;
	for (int k = 0; k < npos; k++) {
		unsigned end = (unsigned)__builtin_ctzll(seps);
		unsigned c = (unsigned char)s[at];
		unsigned sign = c == '+' || c == '-', star = c == '*';
		unsigned d = at + sign + star, len = end - d;
		uint64_t x, l = (uint64_t)pos[k];
		if (__builtin_expect(s[d] == '0' && s[d + 1] == 'x', 0)) {
			const char *h = fast_hex(s + d + 2, &x);
			if (!h || h != s + end)
				return NULL;
		} else if (len - 1 >= 8 - star) {
			const char *h;
			if (len > 8 && (h = fast_dec(s + d, &x)) && h == s + end)
				;
			else if (!(star && len == 0))
				return NULL;
		} else if (!swar_known(s + d, len, &x)) {
			return NULL;
		}
		pos[k] = (int64_t)(c == '+' ? l + x : c == '-' ? l - x : star ? l : x);
		if (end == e) /* the other positions stay */
			return s + e;
		at = end + 1;
		seps &= seps - 1;
	}
	int n = 0;
	uint64_t sm = 0;
	while (seps) {
		unsigned end = (unsigned)__builtin_ctzll(seps);
		unsigned len = end - at;
		uint64_t x;
		if (len - 1 >= 8 || n >= nev) {
			if (len == 0 && end == e)
				break; /* a space at the end */
			if (len <= 8 || n >= nev)
				return NULL;
			const char *h = fast_dec(s + at, &x);
			if (!h || h != s + end)
				return NULL;
		} else if (!swar_known(s + at, len, &x)) {
			return NULL;
		}
		sm += x;
		dst[n++] += (int64_t)x;
		at = end + 1;
		seps &= seps - 1;
	}
	*sum += sm;
	return s + e;
}
#endif

/* ---- the driver ---------------------------------------------------------- */

struct result {
	uint64_t lines, refused, sum, possum;
	int64_t ev[MAXEV];
};

typedef const char *(*line_fn)(const char *, int, int, int64_t[2], int64_t *, uint64_t *);

static int cost_start(char c)
{
	return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*';
}

static void run(line_fn f, const char *s, const char *end, int npos, int nev,
		struct result *r)
{
	memset(r, 0, sizeof *r);
	int64_t pos[2] = { 0, 0 };
	while (s < end) {
		if (cost_start(*s)) {
			int64_t p2[2] = { pos[0], pos[1] };
			const char *t = f(s, npos, nev, p2, r->ev, &r->sum);
			if (t) {
				pos[0] = p2[0];
				pos[1] = p2[1];
				r->possum += (uint64_t)p2[0] ^ (uint64_t)p2[1] << 1;
				r->lines++;
				s = t + 1;
				continue;
			}
			r->refused++;
		}
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		s = nl ? nl + 1 : end;
	}
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int count_words(const char *s)
{
	int n = 0;
	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\n' || !*s)
			return n;
		n++;
		while (*s && *s != ' ' && *s != '\n')
			s++;
	}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		line_fn f;
	} all[] = {
		{ "base", base_line },
		{ "swar", swar_line },
		{ "swar1", swar1_line },
		{ "swart", swart_line },
		{ "swarc", swarc_line },
#ifdef __SSE2__
		{ "sse", sse_line },
		{ "line", line_line },
		{ "ssev", ssev_line },
		{ "ssevb", ssevb_line },
		{ "ssev2", ssev2_line },
		{ "ssev1", ssev1_line },
#endif
	};
	enum { NALL = sizeof all / sizeof all[0] };
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [ROUNDS] [VARIANT...]\n", argv[0]);
		return 2;
	}
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	int pick[NALL], np = 0;
	for (int i = 3; i < argc; i++)
		for (int j = 0; j < (int)NALL; j++)
			if (!strcmp(argv[i], all[j].name))
				pick[np++] = j;
	if (!np)
		for (int j = 0; j < (int)NALL; j++)
			pick[np++] = j;
	int fd = open(argv[1], O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	const char *base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	if (base == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* the same slack as the loader: FAST_MAX_LINE + 32 bytes */
	const char *end = base + st.st_size - (256 + 32);
	const char *ev = memmem(base, (size_t)st.st_size, "\nevents:", 8);
	const char *ps = memmem(base, (size_t)st.st_size, "\npositions:", 11);
	int nev = ev ? count_words(ev + 8) : 1, npos = ps ? count_words(ps + 11) : 1;
	if (nev > MAXEV || npos > 2)
		return 1;
	double t[NALL][64];
	struct result ref, r;
	int first = 1;
	if (rounds > 64)
		rounds = 64;
	if (rounds < 1)
		rounds = 1;
	memset(&ref, 0, sizeof ref);
	for (int k = 0; k < rounds; k++)
		for (int i = 0; i < np; i++) {
			int j = pick[(i + k) % np]; /* interleaved, the order turning */
			double t0 = now();
			run(all[j].f, base, end, npos, nev, &r);
			t[j][k] = now() - t0;
			if (first) {
				ref = r;
				first = 0;
			} else if (memcmp(&ref, &r, sizeof r)) {
				fprintf(stderr, "%s: different result\n", all[j].name);
				return 1;
			}
		}
	printf("%s: %d events, %d positions, %llu cost lines read, %llu refused\n", argv[1], nev,
	       npos, (unsigned long long)ref.lines, (unsigned long long)ref.refused);
	double b = 0;
	for (int i = 0; i < np; i++) {
		int j = pick[i];
		qsort(t[j], (size_t)rounds, sizeof(double), cmpd);
		double med = t[j][rounds / 2];
		if (j == 0 || i == 0)
			b = b ? b : med;
		printf("%-6s median %.1f ms (min %.1f, max %.1f)  %.0f MB/s  %.3fx base\n",
		       all[j].name, med * 1e3, t[j][0] * 1e3, t[j][rounds - 1] * 1e3,
		       (double)st.st_size / med / 1e6, b / med);
	}
	return 0;
}
