/* test-costs-avx2.c -- unit tests of the workers' AVX2 reader of a cost
 * line's costs (plain_costs_avx2() in src/profile/load/fastlex.h) against
 * the reader it stands in for, plain_costs_wide() (SSE2, or a character
 * at a time), on hand-made lines: numbers of 1 to 20 digits, lines across
 * a page's end and at the end of the mapped bytes, hex, compressed
 * subpositions, a line without its '\n', sums that wrap.  The expected
 * values are written out by hand from the text beside them (the Callgrind
 * format specification, 3.1.1 and 3.1.6, for what a cost line is); then
 * random lines, where the two readers must agree.  Skipped on a CPU
 * without AVX2.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profile/load/fastlex.h"
#include "tap.h"

#ifdef FASTNUM_AVX2

/* What a reader made of a line: the length up to the '\n' (-1: refused,
 * what was added then taken back from dst[] as runs.c does), the costs
 * added to dst[] (each 1000 before; lc[] 777), their count and sum. */
struct res {
	long long len;
	cost_t dst[16], lc[16];
	int n;
	uint64_t sum;
};

/* The costs at t (a line's text after its positions; lim: where the line
 * may not reach) read by plain_costs_avx2() (avx2 1) or plain_costs_wide(),
 * dst[] starting at d0 each. */
static struct res read_costs(const char *t, const char *lim, int nev, cost_t d0, int avx2)
{
	struct res r;
	memset(&r, 0, sizeof r);
	for (int i = 0; i < 16; i++) {
		r.dst[i] = d0;
		r.lc[i] = 777;
	}
	const char *e = avx2 ? plain_costs_avx2(t, lim, nev, r.dst, r.lc, &r.n, &r.sum)
			     : plain_costs_wide(t, lim, nev, r.dst, r.lc, &r.n, &r.sum);
	r.len = e ? e - t : -1;
	if (!e)
		for (int i = 0; i < r.n; i++)
			r.dst[i] = cost_add(r.dst[i], -r.lc[i]);
	return r;
}

static int same(const struct res *a, const struct res *b)
{
	if (a->len != b->len || memcmp(a->dst, b->dst, sizeof a->dst))
		return 0;
	if (a->len < 0)
		return 1;
	return a->n == b->n && a->sum == b->sum && !memcmp(a->lc, b->lc, sizeof a->lc);
}

/* Two pages, then one no access (at rend): the line s put so that it ends
 * endoff bytes before that (its '\n' included), the bytes before it 'Z',
 * those after it NUL. */
static char *page, *rend;
static long pagesz;

static const char *place(const char *s, size_t endoff)
{
	size_t len = strlen(s);
	memset(page, 'Z', 2 * (size_t)pagesz);
	char *t = rend - endoff - len;
	memcpy(t, s, len);
	memset(t + len, 0, endoff);
	return t;
}

/* s read by both with the loader's slack after it (lim far): both must
 * agree and give len, n, sum and the costs want[] (n of them, the rest of
 * lc[] untouched), from dst[] at 1000 each. */
static void check(const char *s, int nev, long long len, int n, uint64_t sum,
		  const cost_t *want, const char *what)
{
	static char buf[512];
	memset(buf, 'Z', sizeof buf);
	size_t l = strlen(s);
	memcpy(buf + 64, s, l);
	const char *t = buf + 64;
	struct res a = read_costs(t, t + FAST_MAX_LINE, nev, 1000, 1);
	struct res w = read_costs(t, t + FAST_MAX_LINE, nev, 1000, 0);
	int good = a.len == len;
	if (len >= 0) {
		good &= a.n == n && a.sum == sum;
		for (int i = 0; i < 16; i++)
			good &= a.lc[i] == (i < n ? want[i] : 777) &&
				a.dst[i] == (i < n ? 1000 + want[i] : 1000);
	} else {
		for (int i = 0; i < 16; i++)
			good &= a.dst[i] == 1000;
	}
	ok(good, "avx2: %s", what);
	ok(same(&a, &w), "avx2: %s: as plain_costs_wide()", what);
}

static void test_lengths(void)
{
	/* the first k digits of "12345678901234567890", k = 1 .. 18: 1, 12,
	 * 123, ..., each the one before times 10 plus k's last digit */
	cost_t want[19] = { 0 };
	for (int k = 1; k <= 18; k++)
		want[k] = want[k - 1] * 10 + k % 10;
	ok(want[8] == 12345678ll && want[18] == 123456789012345678ll,
	   "the first 8 and 18 digits: 12345678, 123456789012345678");
	const char digits[] = "12345678901234567890";
	for (int k = 1; k <= 20; k++) {
		char s[64], what[64];
		/* alone, then after "7 " and before " 5" */
		snprintf(s, sizeof s, "%.*s\n", k, digits);
		snprintf(what, sizeof what, "%d digits alone", k);
		cost_t v1[1] = { k <= 18 ? want[k] : 0 };
		if (k <= 18)
			check(s, 13, k, 1, (uint64_t)want[k], v1, what);
		else /* (19 digits and more: not a fast path's number) */
			check(s, 13, -1, 0, 0, NULL, what);
		snprintf(s, sizeof s, "7 %.*s 5\n", k, digits);
		snprintf(what, sizeof what, "7, %d digits, 5", k);
		cost_t v3[3] = { 7, k <= 18 ? want[k] : 0, 5 };
		if (k <= 18)
			check(s, 13, k + 4, 3, 12 + (uint64_t)want[k], v3, what);
		else
			check(s, 13, -1, 0, 0, NULL, what);
	}
}

static void test_lines(void)
{
	static const cost_t c13[13] = { 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 5, 3, 1234 };
	/* 1 + 1 + 1 + 5 + 3 + 1234 */
	check("1 0 1 0 0 0 0 0 0 1 5 3 1234\n", 13, 28, 13, 1245, c13, "13 costs");
	static const cost_t c13b[13] = { 100, 0, 100, 0, 0, 0, 0, 0, 0, 100, 50, 3, 12345678 };
	/* 100 * 3 + 50 + 3 + 12345678; the '\n' at 39, past the 32 bytes */
	check("100 0 100 0 0 0 0 0 0 100 50 3 12345678\n", 13, 39, 13, 12346031, c13b,
	      "13 costs, '\\n' at 39");
	static const cost_t c16[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	check("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", 16, 38, 16, 136, c16,
	      "16 costs 1 .. 16, '\\n' at 38");
	check("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n", 15, -1, 0, 0, NULL,
	      "16 costs 1 .. 16 for 15 events: refused, nothing left added");
	/* '\n' past the first 32 bytes, up to 60: the AVX2 reader's too */
	static const cost_t c9b[9] = { 12345678, 1234567, 123456, 12345, 1234, 123, 12, 1,
				       12345678 };
	/* 12345678 + 1234567 + ... + 1 = 13717416, + 12345678 */
	check("12345678 1234567 123456 12345 1234 123 12 1 12345678\n", 13, 52, 9, 26063094, c9b,
	      "9 costs of 8 down to 1 digits and 8, '\\n' at 52");
	static const cost_t c7[7] = { 10000000, 10000000, 10000000, 10000000, 10000000, 10000000,
				      123456 };
	/* 6 * 10^7 + 123456 */
	check("10000000 10000000 10000000 10000000 10000000 10000000 123456\n", 13, 60, 7,
	      60123456, c7, "'\\n' at 60");
	static const cost_t c7b[7] = { 10000000, 10000000, 10000000, 10000000, 10000000, 10000000,
				       1234567 };
	check("10000000 10000000 10000000 10000000 10000000 10000000 1234567\n", 13, 61, 7,
	      61234567, c7b, "'\\n' at 61");
	check("10000000 10000000 10000000 10000000 10000000 10000000 1234567  \n", 13, -1, 0, 0,
	      NULL, "two spaces at 61, '\\n' at 63: refused");
	check("10000000 10000000 10000000 10000000 10000000 x\n", 13, -1, 0, 0, NULL,
	      "'x' at 45: refused");
	check("1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n", 15, -1, 0, 0, NULL,
	      "16 costs of 1 for 15 events: refused, nothing left added");
	static const cost_t c5[5] = { 99999999, 9999, 9999, 9999, 1 };
	/* 99999999 + 3 * 9999 + 1 */
	check("99999999 9999 9999 9999 1\n", 13, 25, 5, 100029997, c5,
	      "8 nines, three of 4, then 1 (a second group of one)");
	static const cost_t c2[2] = { 1, 2 };
	check("1 2 \n", 13, 4, 2, 3, c2, "a space before the '\\n'");
	check("\n", 13, 0, 0, 0, NULL, "no cost");
	static const cost_t c0[4] = { 0, 0, 0, 0 };
	check("0 00 000 00000000\n", 13, 17, 4, 0, c0, "zeros of 1, 2, 3 and 8 digits");
	static const cost_t c8[2] = { 12345678, 87654321 };
	/* the '\n' at 31, the last byte of the 32 read at once */
	check("12345678 87654321              \n", 13, -1, 0, 0, NULL,
	      "spaces in a row before a '\\n' at 31: refused");
	check("12345678 87654321\n", 2, 17, 2, 99999999, c8, "two of 8 digits, 2 events");
	static const cost_t c15[15] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 12 };
	/* 14 x "1 " then "12": the '\n' at 30 */
	check("1 1 1 1 1 1 1 1 1 1 1 1 1 1 12\n", 16, 30, 15, 26, c15, "'\\n' at 30");
	static const cost_t c16b[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	/* 16 x "1 " less the last space: the '\n' at 31 */
	check("1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n", 16, 31, 16, 16, c16b, "'\\n' at 31");
	/* the '\n' at 32, past the 32 bytes: plain_costs_wide()'s */
	static const cost_t c9[9] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1 };
	check("1000 1000 1000 1000 1000 1000 1000 1000 1\n", 13, 41, 9, 8001, c9,
	      "'\\n' at 41, past the 32 bytes");
	check("0x10\n", 13, -1, 0, 0, NULL, "hex: refused");
	check("1 0x1f\n", 13, -1, 0, 0, NULL, "hex second: refused");
	check(" 1\n", 13, -1, 0, 0, NULL, "a space first: refused");
	check("1  2\n", 13, -1, 0, 0, NULL, "two spaces: refused");
	check("1 2\r\n", 13, -1, 0, 0, NULL, "\"\\r\\n\": refused");
	check("1 -2\n", 13, -1, 0, 0, NULL, "a negative cost: refused");
	check("1 2", 13, -1, 0, 0, NULL, "no '\\n' ('Z' after it): refused");
}

/* Lines whose last bytes, or whose '\n', are a page's last: the loads
 * of a field's 8 bytes across the page's end, or the line's end at the
 * end of what is readable (the loader keeps 256 bytes and more readable
 * after a line it reads: lim is then where the readable bytes end). */
static void test_page_end(void)
{
	static const char *const lines[] = {
		"1\n", "12345678\n", "88888888 7777777 666666 1\n", "1 22 333 4444 55555\n",
		"1 22 333 4444 55555 666666 7777777 88888888\n", "100 0 100 0 0 0 0 0 0 100 50 3\n",
		"1 2 \n", "1 2", "\n", "12345678 1234567 123456 12345 1234 123 12 1 12345678\n",
		"10000000 10000000 10000000 10000000 10000000 10000000 1234567\n",
	};
	int all = 1, fast = 1, fast2 = 1;
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
		for (size_t k = 0; k < 2 * 100; k++) {
			/* 1 .. 100 bytes before the readable end, or across the
			 * first page's end (a NUL at least after the line: the
			 * loader's slack) */
			size_t endoff = k < 100 ? 1 + k : (size_t)pagesz - 150 + k;
			const char *t = place(lines[i], endoff);
			const char *lim = rend - 1; /* (plain_costs() reads *lim) */
			struct res a = read_costs(t, lim, 13, 1000, 1);
			struct res w = read_costs(t, lim, 13, 1000, 0);
			all &= same(&a, &w);
			/* 64 bytes or more readable: the fast path's results */
			if (k >= 100 && i == 2)
				fast &= a.len == 25 && a.n == 4 && a.sum == 97333332 &&
					a.lc[0] == 88888888 && a.lc[3] == 1;
			if (k >= 100 && i == 3)
				fast2 &= a.len == 19 && a.n == 5 && a.sum == 60355 && a.lc[4] == 55555;
		}
	ok(all, "avx2: lines 1 .. 100 bytes before the readable end, and across a page's "
		"end: as plain_costs_wide()");
	/* 88888888 + 7777777 + 666666 + 1 */
	ok(fast, "avx2: 8, 7, 6 and 1 digits across a page's end: sum 97333332");
	/* 1 + 22 + 333 + 4444 + 55555 */
	ok(fast2, "avx2: 1 .. 5 digits across a page's end: sum 60355");
	/* a line without its '\n' at the readable end: refused, nothing
	 * added, no byte read past it (the page after it: no access) */
	const char *t = place("5 6", 1);
	struct res a = read_costs(t, rend - 1, 13, 1000, 1);
	ok(a.len == -1 && a.dst[0] == 1000 && a.dst[1] == 1000,
	   "avx2: \"5 6\" at the end without a '\\n': refused");
}

/* dst[] near 2^63: the sums wrap as cost_add() says, in both. */
static void test_wrap(void)
{
	static char buf[256];
	memset(buf, 0, sizeof buf);
	memcpy(buf, "10 99999999 3\n", 14);
	struct res a = read_costs(buf, buf + FAST_MAX_LINE - 64, 13, INT64_MAX - 5, 1);
	struct res w = read_costs(buf, buf + FAST_MAX_LINE - 64, 13, INT64_MAX - 5, 0);
	/* (2^63 - 1 - 5) + 10 = 2^63 + 4 -> -2^63 + 4; + 99999999 likewise */
	ok(a.len == 13 && a.dst[0] == INT64_MIN + 4 && a.dst[1] == INT64_MIN + 99999993 &&
		   a.dst[2] == INT64_MAX - 2 && a.sum == 100000012,
	   "avx2: sums past 2^63 - 1 wrap");
	ok(same(&a, &w), "avx2: the wrapped sums as plain_costs_wide()'s");
}

/* Whole lines with compressed subpositions (3.1.6), the positions read by
 * plain_positions_short() as runs.c reads them, then the costs by both. */
static void test_subpositions(void)
{
	static const struct {
		const char *s;
		int64_t p0, p1; /* after the line, from 10 and 20 */
		cost_t c0;
		int n;
	} lines[] = {
		{ "+3 -2 100 7\n", 13, 18, 100, 2 },
		{ "* * 5\n", 10, 20, 5, 1 },
		{ "0x1a +1 5\n", 26, 21, 5, 1 },
		{ "+1 * 12345678 1\n", 11, 20, 12345678, 2 },
		{ "-4 0x10 3 3 3 3 3\n", 6, 16, 3, 5 },
		{ "+2 +3\n", 12, 23, 0, 0 },
	};
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		static char buf[512];
		memset(buf, 0, sizeof buf);
		memcpy(buf, lines[i].s, strlen(lines[i].s));
		int64_t pos[2] = { 10, 20 };
		unsigned abs = 0;
		const char *t = plain_positions_short(buf, 2, pos, &abs);
		struct res a = { .len = -2 }, w = { .len = -3 };
		if (t) {
			a = read_costs(t, buf + FAST_MAX_LINE, 13, 1000, 1);
			w = read_costs(t, buf + FAST_MAX_LINE, 13, 1000, 0);
		}
		ok(t && pos[0] == lines[i].p0 && pos[1] == lines[i].p1 && a.n == lines[i].n &&
			   (a.n == 0 || a.lc[0] == lines[i].c0) &&
			   buf[(t - buf) + a.len] == '\n' && same(&a, &w),
		   "avx2: \"%.*s\": positions %lld %lld, first cost %lld", (int)strlen(lines[i].s) - 1,
		   lines[i].s, (long long)lines[i].p0, (long long)lines[i].p1,
		   (long long)lines[i].c0);
	}
}

/* The next of a fixed sequence of pseudo-random numbers (Knuth's MMIX
 * constants), its high bits. */
static uint64_t rnd(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 20;
}

/* The len bytes at s put off bytes into a buffer of 'Z's, read by both
 * with lim and nev: the AVX2 reader's result, *bad counted up (the first
 * five said) when the two differ. */
static struct res agree(const char *s, size_t len, size_t off, size_t lim, int nev, int *bad)
{
	static char buf[1024];
	memset(buf, 'Z', sizeof buf);
	memcpy(buf + off, s, len);
	const char *t = buf + off;
	struct res a = read_costs(t, t + lim, nev, 1000, 1);
	struct res w = read_costs(t, t + lim, nev, 1000, 0);
	if (!same(&a, &w) && (*bad)++ < 5) {
		printf("# differs at %zu, limit %zu, %d events on: ", off, lim, nev);
		for (size_t k = 0; k < len; k++)
			printf(s[k] == '\n' ? "\\n" : "%c", s[k]);
		printf("\n");
	}
	return a;
}

/* Random lines of digits, spaces, '\n' and a few others (a fixed seed),
 * at random places, limits and counts of events: the two agree.  (Lines
 * with 1 space in 2 up to 1 in 10: many fields, or long numbers.) */
static void test_random(void)
{
	static const char alpha[] = "01234567890123456789012345678901234567890123456789 \n\n*x+-";
	uint64_t x = 67;
	int bad = 0, many = 0;
	for (int i = 0; i < 300000; i++) {
		char s[96];
		size_t len = rnd(&x) % 90;
		unsigned sp = 2 + (unsigned)(rnd(&x) % 9);
		for (size_t k = 0; k < len; k++)
			s[k] = rnd(&x) % sp ? alpha[rnd(&x) % (sizeof alpha - 1)] : ' ';
		size_t off = rnd(&x) % 64, lim = rnd(&x) % 300;
		int nev = 1 + (int)(rnd(&x) % 16);
		struct res a = agree(s, len, off, lim, nev, &bad);
		many += a.len >= 0 && a.len < 32 && a.n >= 2;
	}
	is(bad, 0, "avx2: 300000 random lines read as plain_costs_wide() does");
	/* (that many taken, of 2 costs or more, '\n' in the 32 bytes) */
	ok(many > 10000, "avx2: %d random lines of 2 costs or more taken", many);
}

/* Random lines of 10 to 16 costs of 1 to 8 digits (20 to 140 bytes: the
 * '\n' in the first 32 bytes, in the next 32, or past them), one in four
 * with a flaw somewhere (a 9-digit cost, two spaces, a letter, a space
 * first, no '\n'), at random places, limits and counts of events: the two
 * agree. */
static void test_random_long(void)
{
	uint64_t x = 4242;
	int bad = 0, taken = 0;
	for (int i = 0; i < 200000; i++) {
		char s[256];
		size_t len = 0;
		int nf = 10 + (int)(rnd(&x) % 7);
		for (int f = 0; f < nf; f++) {
			int nd = 1 + (int)(rnd(&x) % 8);
			if (f)
				s[len++] = ' ';
			for (int k = 0; k < nd; k++)
				s[len++] = (char)('0' + rnd(&x) % 10);
		}
		s[len++] = '\n';
		if (rnd(&x) % 4 == 0) {
			static const char flaw[] = "9 xZ\n";
			size_t at = rnd(&x) % len;
			int kind = (int)(rnd(&x) % 4);
			if (kind == 0) { /* a cost of 9 digits or more */
				memmove(s + at + 8, s + at, len - at);
				memset(s + at, '7', 8);
				len += 8;
			} else {
				s[at] = flaw[rnd(&x) % (sizeof flaw - 1)];
			}
		}
		size_t off = rnd(&x) % 64, lim = 40 + rnd(&x) % 260;
		int nev = 1 + (int)(rnd(&x) % 16);
		struct res a = agree(s, len, off, lim, nev, &bad);
		taken += a.len > 32 && a.len <= 60;
	}
	is(bad, 0, "avx2: 200000 random lines of 10 to 16 costs read as plain_costs_wide() does");
	ok(taken > 10000, "avx2: %d of them taken with the '\\n' at 33 to 60", taken);
}

int main(void)
{
	if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("bmi") ||
	    !__builtin_cpu_supports("bmi2") || !__builtin_cpu_supports("popcnt")) {
		printf("1..0 # SKIP no AVX2 on this CPU\n");
		return 0;
	}
	pagesz = sysconf(_SC_PAGESIZE);
	page = mmap(NULL, 3 * (size_t)pagesz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	rend = page + 2 * pagesz;
	if (page == MAP_FAILED || mprotect(rend, (size_t)pagesz, PROT_NONE)) {
		printf("Bail out! mmap\n");
		return 1;
	}
	test_lengths();
	test_lines();
	test_page_end();
	test_wrap();
	test_subpositions();
	test_random();
	test_random_long();
	return tap_done();
}

#else

int main(void)
{
	printf("1..0 # SKIP not built with the AVX2 reader (x86-64 only)\n");
	return 0;
}

#endif
