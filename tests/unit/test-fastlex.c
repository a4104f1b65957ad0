/* test-fastlex.c -- unit tests of the fast paths' readers of a line's
 * parts (src/profile/load/fastlex.h): a decimal number (fast_dec), a
 * subposition (fast_subpos), a plain cost line's positions and costs
 * (plain_positions, plain_costs, and the workers' plain_positions_short
 * and plain_costs_wide, also compared with plain_positions and plain_costs
 * on tricky and random lines).  Every expected value is written out by
 * hand from the text beside it (the Callgrind format specification,
 * 3.1.1 and 3.1.6, for what a cost line is); the few that are long are
 * checked against libc's strtoull too, a reader written independently.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profile/load/fastlex.h"
#include "tap.h"

/* s read by fast_dec() with the bytes after it as given: the value, and
 * how many bytes it took (-1: refused) */
static long long dec(const char *s, uint64_t *v)
{
	*v = 12345; /* (left alone when refused) */
	const char *e = fast_dec(s, v);
	return e ? (long long)(e - s) : -1;
}

static void test_dec_lengths(void)
{
	/* the first n digits of "123456789012345678", n = 1 .. 18 */
	static const uint64_t want[19] = {
		0,
		1ull,
		12ull,
		123ull,
		1234ull,
		12345ull,
		123456ull,
		1234567ull,
		12345678ull,
		123456789ull,
		1234567890ull,
		12345678901ull,
		123456789012ull,
		1234567890123ull,
		12345678901234ull,
		123456789012345ull,
		1234567890123456ull,
		12345678901234567ull,
		123456789012345678ull,
	};
	const char digits[] = "123456789012345678";
	for (int n = 1; n <= 18; n++) {
		char b[64];
		memcpy(b, digits, (size_t)n);
		b[n] = ' ';
		memset(b + n + 1, '7', sizeof b - (size_t)n - 1); /* digits after the space */
		uint64_t v;
		is(dec(b, &v), n, "dec: %d digits: %d bytes taken", n, n);
		ok(v == want[n], "dec: %d digits: %llu", n, (unsigned long long)v);
		ok(v == strtoull(b, NULL, 10), "dec: %d digits: as strtoull reads them", n);
	}
	/* the same lengths of 9s: the largest value of each */
	uint64_t nines = 0;
	for (int n = 1; n <= 18; n++) {
		char b[32];
		memset(b, '9', (size_t)n);
		b[n] = '\n';
		nines = nines * 10 + 9;
		uint64_t v;
		is(dec(b, &v), n, "dec: %d nines: %d bytes", n, n);
		ok(v == nines, "dec: %d nines", n);
	}
}

static void test_dec_limits(void)
{
	uint64_t v;
	is(dec("999999999999999999 ", &v), 18, "dec: 10^18 - 1 (18 digits) is read");
	ok(v == 999999999999999999ull, "dec: 10^18 - 1");
	is(dec("100000000000000000\n", &v), 18, "dec: 10^17 (18 digits) is read");
	ok(v == 100000000000000000ull, "dec: 10^17");
	is(dec("1000000000000000000 ", &v), -1, "dec: 10^18 (19 digits) is refused");
	is(v, 12345, "dec: a refused number leaves the value alone");
	is(dec("1234567890123456789\n", &v), -1, "dec: 19 digits are refused");
	is(dec("12345678901234567890 ", &v), -1, "dec: 20 digits are refused");
	is(dec("99999999999999999999999999\n", &v), -1, "dec: 26 digits are refused");
	/* leading zeros count as digits: at most 18 in all */
	is(dec("000000000000000007 ", &v), 18, "dec: 17 zeros and 7: 18 digits, read");
	is(v, 7, "dec: 000000000000000007 is 7");
	is(dec("0000000000000000007 ", &v), -1, "dec: 18 zeros and 7: 19 digits, refused");
	is(dec("007\n", &v), 3, "dec: 007: 3 bytes");
	is(v, 7, "dec: 007 is 7");
	is(dec("0 ", &v), 1, "dec: 0: 1 byte");
	is(v, 0, "dec: 0 is 0");
	is(dec("00000000 ", &v), 8, "dec: 8 zeros: 8 bytes");
	is(v, 0, "dec: 8 zeros are 0");
	is(dec("0000000010 ", &v), 10, "dec: 8 zeros and 10: 10 bytes");
	is(v, 10, "dec: 0000000010 is 10");
	/* no digit */
	is(dec(" 1", &v), -1, "dec: a space first: refused");
	is(dec("", &v), -1, "dec: the empty string: refused");
	is(dec("x1", &v), -1, "dec: a letter first: refused");
	is(dec("+1", &v), -1, "dec: a sign is not fast_dec's");
	/* bytes just below '0' and just above '9' are not digits */
	is(dec("12/", &v), 2, "dec: '/' ends a number");
	is(dec("12:", &v), 2, "dec: ':' ends a number");
	is(dec("12\xb0", &v), 2, "dec: a byte 0xb0 ends a number");
	is(dec("12\xb9", &v), 2, "dec: a byte 0xb9 ends a number");
}

static void test_dec_ends(void)
{
	/* every end: the digits before it, the end where it is */
	static const char ends[] = { ' ', '\n', '\r', '\t', '/', ')', 0, 'a', 'x', '*', '-' };
	static const char *const nums[] = { "5", "42", "1234567", "12345678", "123456789",
					    "123456789012345678" };
	static const uint64_t vals[] = { 5, 42, 1234567, 12345678, 123456789,
					 123456789012345678ull };
	for (size_t i = 0; i < sizeof ends; i++)
		for (size_t j = 0; j < sizeof nums / sizeof *nums; j++) {
			char b[64];
			size_t l = strlen(nums[j]);
			memcpy(b, nums[j], l);
			b[l] = ends[i];
			memset(b + l + 1, '3', sizeof b - l - 1);
			uint64_t v;
			is(dec(b, &v), (long long)l, "dec: %s then byte %d: %zu bytes", nums[j],
			   ends[i], l);
			ok(v == vals[j], "dec: %s then byte %d: its value", nums[j], ends[i]);
		}
	/* a number that ends at the last byte of its buffer, its NUL after it:
	 * cost_line_fast() reads lines copied out (parse.c) with fast_dec(),
	 * and there is no slack after their NUL (a sanitizer build catches a
	 * read past it) */
	for (int n = 1; n <= 18; n++) {
		char *b = malloc((size_t)n + 1);
		memset(b, '4', (size_t)n);
		b[n] = 0;
		uint64_t v;
		is(dec(b, &v), n, "dec: %d fours at the end of the buffer", n);
		ok(v == strtoull(b, NULL, 10), "dec: %d fours at the end of the buffer: value", n);
		free(b);
	}
}

static void test_subpos(void)
{
	struct {
		const char *s;
		int64_t last, want;
		int len; /* -1: refused */
	} t[] = {
		{ "*\n", 17, 17, 1 },     /* the same as the last */
		{ "+4 ", 10, 14, 2 },     /* relative, 3.1.6 */
		{ "-3 ", 10, 7, 2 },
		{ "25\n", 10, 25, 2 },    /* absolute */
		{ "0x1f ", 0, 31, 4 },    /* hex */
		{ "0X1f ", 0, 0, 1 },     /* only "0x": the 0, then an 'X' (not a cost line) */
		{ "+0x10 ", 1, 17, 5 },
		{ "-0x10 ", 17, 1, 5 },
		{ "0x49d01 ", 0, 0x49d01, 7 },
		{ "0xDEADbeef ", 0, 0xdeadbeefll, 10 },
		{ "0x123456789abcdef ", 0, 0x123456789abcdefll, 17 }, /* 15 hex digits */
		{ "0x123456789abcdef0 ", 0, 0, -1 },                 /* 16: refused */
		{ "0x ", 0, 0, -1 },
		{ "+ ", 5, 5, -1 },
		{ "+123456789012345678 ", 1, 123456789012345679ll, 19 },
		{ "+1234567890123456789 ", 1, 1, -1 },
		{ "-0 ", 9, 9, 2 },
		{ "+007 ", 1, 8, 4 },
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		int64_t pos = t[i].last;
		const char *e = fast_subpos(t[i].s, &pos);
		is(e ? e - t[i].s : -1, t[i].len, "subpos: \"%.*s\": length", (int)strcspn(t[i].s, " \n"),
		   t[i].s);
		if (t[i].len >= 0)
			is(pos, t[i].want, "subpos: \"%.*s\" after %lld", (int)strcspn(t[i].s, " \n"),
			   t[i].s, (long long)t[i].last);
		else
			is(pos, t[i].last, "subpos: \"%.*s\" refused: the position left alone",
			   (int)strcspn(t[i].s, " \n"), t[i].s);
	}
}

/* One cost line read by plain_positions() then plain_costs() with npos
 * positions and nev events, the last positions being 100 and 200, from a
 * buffer with the loader's slack after it: the line's length up to its
 * '\n' (-1: refused), positions, costs added to dst (which starts at 1000
 * each), count. */
struct line_res {
	long long len;
	int64_t pos[2];
	cost_t dst[16], lc[16];
	int n;
	uint64_t sum;
};

static struct line_res line(const char *s, int npos, int nev)
{
	static char buf[4096];
	struct line_res r;
	memset(&r, 0, sizeof r);
	memset(buf, 'Z', sizeof buf);
	memcpy(buf, s, strlen(s));
	r.pos[0] = 100;
	r.pos[1] = 200;
	for (int i = 0; i < 16; i++)
		r.dst[i] = 1000;
	unsigned abs = 0;
	const char *t = plain_positions(buf, npos, r.pos, &abs);
	r.len = -1;
	r.n = -1;
	if (!t)
		return r;
	if (*t == '\n') {
		r.len = t - buf;
		r.n = 0;
		return r;
	}
	const char *e = plain_costs(t, buf + FAST_MAX_LINE, nev, r.dst, r.lc, &r.n, &r.sum);
	r.len = e ? e - buf : -1;
	return r;
}

static void test_lines(void)
{
	struct line_res r;
	/* the forms of the lead's 100 MB count, and the spec's */
	r = line("+4 * 100 0 0 1\n", 2, 13);
	is(r.len, 14, "line: +4 * 100 0 0 1: read to its end");
	ok(r.pos[0] == 104 && r.pos[1] == 200, "line: +4 *: positions 104 200");
	ok(r.n == 4 && r.dst[0] == 1100 && r.dst[1] == 1000 && r.dst[2] == 1000 &&
		   r.dst[3] == 1001 && r.dst[4] == 1000,
	   "line: +4 * 100 0 0 1: four costs added");
	is(r.sum, 101, "line: +4 * 100 0 0 1: sum 101");
	r = line("0x49d01 * 100 100 100 1 1 0 1\n", 2, 13);
	is(r.len, 29, "line: 0x49d01 * ...: read");
	ok(r.pos[0] == 0x49d01 && r.pos[1] == 200, "line: 0x49d01 *: 302337 200");
	ok(r.n == 7 && r.lc[6] == 1 && r.lc[2] == 100, "line: 0x49d01 * ...: seven costs");
	is(r.sum, 303, "line: 0x49d01 * ...: sum 100 * 3 + 3");
	r = line("+28 +1 2 0 0 1\n", 2, 13);
	ok(r.len == 14 && r.pos[0] == 128 && r.pos[1] == 201 && r.n == 4 && r.sum == 3,
	   "line: +28 +1 2 0 0 1: 128 201, four costs, sum 3");
	r = line("-3 -0x10 123456789012345678 7\n", 2, 13);
	ok(r.len == 29 && r.pos[0] == 97 && r.pos[1] == 184 && r.n == 2 &&
		   r.lc[0] == 123456789012345678ll && r.lc[1] == 7,
	   "line: -3 -0x10, an 18-digit cost and 7");
	r = line("16 8 12345678 123456789 87654321\n", 2, 3);
	ok(r.len == 32 && r.pos[0] == 16 && r.pos[1] == 8 && r.n == 3 && r.lc[0] == 12345678 &&
		   r.lc[1] == 123456789 && r.lc[2] == 87654321 && r.sum == 223456788,
	   "line: 8 and 9 digits: 12345678 + 123456789 + 87654321 = 223456788");
	r = line("* *\n", 2, 13);
	ok(r.len == 3 && r.pos[0] == 100 && r.pos[1] == 200 && r.n == 0, "line: * * and no cost");
	r = line("* * \n", 2, 13);
	ok(r.len == 4 && r.n == 0, "line: * * and a space: no cost");
	r = line("5\n", 2, 13);
	ok(r.len == 1 && r.pos[0] == 5 && r.pos[1] == 200, "line: one of two positions: the other stays");
	r = line("7 1 2 \n", 1, 13);
	ok(r.len == 6 && r.pos[0] == 7 && r.n == 2 && r.sum == 3, "line: a space before the end");
	r = line("7 0000000000000000000 \n", 1, 13);
	ok(r.len == -1 && r.n == 0, "line: a cost of 19 zeros: refused, nothing added");
	/* what the fast path leaves to the general parser, and what it added
	 * before it stopped (for the caller to take back: lc[0 .. n)) */
	r = line("7 1 1234567890123456789\n", 1, 13);
	ok(r.len == -1 && r.n == 1 && r.lc[0] == 1 && r.dst[0] == 1001 && r.dst[1] == 1000,
	   "line: a 19-digit cost: refused after one cost, which lc[] holds");
	r = line("7 1  2\n", 1, 13);
	ok(r.len == -1 && r.n == 1, "line: two spaces: refused after one cost");
	r = line("7 1\t2\n", 1, 13);
	ok(r.len == -1 && r.n == 1, "line: a tab: refused");
	r = line("7 1 2\r\n", 1, 13);
	ok(r.len == -1 && r.n == 2, "line: \"\\r\\n\": refused after two costs");
	r = line("7 1 2a\n", 1, 13);
	ok(r.len == -1 && r.n == 2, "line: a letter after a cost: refused");
	r = line("7 1 2 3\n", 1, 2);
	ok(r.len == -1 && r.n == 2 && r.dst[2] == 1000, "line: more costs than events: refused");
	r = line("7 1 -2\n", 1, 13);
	ok(r.len == -1 && r.n == 1, "line: a negative cost: refused");
	r = line("7 1 2", 1, 13); /* then the slack's 'Z's */
	ok(r.len == -1 && r.n == 2, "line: no '\\n' (the slack after it): refused");
	r = line("  7 1\n", 1, 13);
	ok(r.len == -1, "line: a space first: refused");
	r = line("7 +1\n", 1, 13);
	ok(r.len == -1 && r.n == 0, "line: a sign on a cost: refused");
}

/* The positions of s read by plain_positions_short() (the workers') or
 * plain_positions() from a buffer with the loader's slack after it, the
 * last positions being p0 and p1: where the costs start (-1: refused),
 * positions, the absolute ones' bits. */
struct pos_res {
	long long at;
	int64_t pos[2];
	unsigned abs;
};

static struct pos_res positions(const char *s, size_t len, int npos, int64_t p0, int64_t p1,
				int isshort)
{
	static char buf[256];
	struct pos_res r = { -1, { p0, p1 }, 0 };
	memset(buf, 'Z', sizeof buf);
	memcpy(buf, s, len);
	const char *t = isshort ? plain_positions_short(buf, npos, r.pos, &r.abs)
				: plain_positions(buf, npos, r.pos, &r.abs);
	if (t)
		r.at = t - buf;
	return r;
}

/* Whether plain_positions_short() reads s as plain_positions() does. */
static int positions_same(const char *s, size_t len, int npos, int64_t p0, int64_t p1)
{
	struct pos_res a = positions(s, len, npos, p0, p1, 0);
	struct pos_res b = positions(s, len, npos, p0, p1, 1);
	return a.at == b.at && (a.at < 0 || (a.pos[0] == b.pos[0] && a.pos[1] == b.pos[1] &&
					       a.abs == b.abs));
}

static void test_positions_short(void)
{
	/* spec 3.1.6: "+N" and "-N" relative to the last cost line's
	 * subposition, "*" the same; the last ones here are 100 and 200 (the
	 * lines from "+12 *" on are left to plain_positions()) */
	static const struct {
		const char *s;
		int npos;
		long long at; /* -1: refused */
		int64_t p0, p1;
		unsigned abs;
	} hand[] = {
		{ "+4 * 7\n", 2, 5, 104, 200, 0 },   { "+4 *\n", 2, 4, 104, 200, 0 },
		{ "+9 +3 1\n", 2, 6, 109, 203, 0 },  { "+9 -3\n", 2, 5, 109, 197, 0 },
		{ "+0 -0 5\n", 2, 6, 100, 200, 0 },  { "+12 * 5\n", 2, 6, 112, 200, 0 },
		{ "+4 17 5\n", 2, 6, 104, 17, 2 },   { "+4 +34 1\n", 2, 7, 104, 234, 0 },
		{ "+4 * 5\n", 1, 3, 104, 200, 0 },   { "+4 *x\n", 2, -1, 0, 0, 0 },
		{ "+4 +3x\n", 2, -1, 0, 0, 0 },      { "+4 + 1\n", 2, -1, 0, 0, 0 },
		{ "+4  * 1\n", 2, -1, 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof hand / sizeof *hand; i++) {
		struct pos_res r = positions(hand[i].s, strlen(hand[i].s), hand[i].npos, 100, 200, 1);
		ok(r.at == hand[i].at &&
			   (r.at < 0 || (r.pos[0] == hand[i].p0 && r.pos[1] == hand[i].p1 &&
					 r.abs == hand[i].abs)),
		   "short: \"%.*s\", %d subposition(s): %lld, %lld %lld", (int)strcspn(hand[i].s, "\n"),
		   hand[i].s, hand[i].npos, hand[i].at, (long long)hand[i].p0, (long long)hand[i].p1);
	}
	static const char *const tricky[] = {
		"+4 * 7\n", "+4 *\n", "+4 * \n", "+4 +3\n", "+4 -3 \n", "+4 +3 1\n", "+4 *x\n",
		"+4 +3x\n", "+4 + 1\n", "+4 - 1\n", "+4  * 1\n", "+4 ** 1\n", "+4 *\r\n", "+4 +3\r\n",
		"+4 0x10 1\n", "+0x4 * 1\n", "+4\n", "+4 \n", "+4 +\n", "+4 -\n", "+/ * 1\n",
		"+: * 1\n", "+4 +/ 1\n", "+4 +: 1\n", "+4 */ 1\n", "-4 * 1\n", "* * \n", "4 * 1\n",
		"+4 0 1\n", "+4 *\t1\n", "+4\t* 1\n", "++4 * 1\n", "+4 +-3 1\n",
	};
	for (size_t i = 0; i < sizeof tricky / sizeof *tricky; i++) {
		int all = 1;
		for (int npos = 1; npos <= 2; npos++) {
			all &= positions_same(tricky[i], strlen(tricky[i]), npos, 100, 200);
			all &= positions_same(tricky[i], strlen(tricky[i]), npos, INT64_MAX, INT64_MIN);
		}
		ok(all, "short: \"%.*s\" read as plain_positions() does", (int)strcspn(tricky[i], "\n"),
		   tricky[i]);
	}
	/* lines at random (a fixed seed): most begin with the forms it
	 * reads, "+D " then "*", "+D", "-D", each followed by a character
	 * that may end the subposition or not; the others are random bytes
	 * of a cost line and a few others */
	static const char alpha[] = "0123456789+-* \n\rx/:";
	static const char *const second[] = { "*", "+", "-", "+1", "-7", "+0", "9", "+12", "*9" };
	uint64_t x = 7;
	int bad = 0;
	for (int i = 0; i < 200000; i++) {
		char s[32];
		size_t len = 0;
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if ((x >> 60) < 12) {
			s[len++] = (x >> 59) % 2 ? '+' : alpha[(x >> 40) % (sizeof alpha - 1)];
			s[len++] = (char)('0' + (x >> 33) % 10);
			s[len++] = (x >> 50) % 8 ? ' ' : alpha[(x >> 20) % (sizeof alpha - 1)];
			const char *f = second[(x >> 44) % (sizeof second / sizeof *second)];
			memcpy(s + len, f, strlen(f));
			len += strlen(f);
		}
		while (len < 16) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			s[len++] = alpha[(x >> 33) % (sizeof alpha - 1)];
		}
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		int64_t p0 = (int64_t)(x >> 20) - ((int64_t)1 << 43), p1 = (int64_t)x;
		int npos = 1 + (int)((x >> 7) % 2);
		if (!positions_same(s, len, npos, p0, p1) && bad++ < 5)
			printf("# short: differs, %d subpositions: %.16s\n", npos, s);
	}
	is(bad, 0, "short: 200000 random lines read as plain_positions() does");
}

/* The costs s (a line's text after its positions) at off in a buffer with
 * the loader's slack after it, lim at off + limoff, read by plain_costs()
 * (wide 0) or plain_costs_wide() (1) into dst[] that starts at 1000 each:
 * the length up to the '\n' (-1: refused; what was added then taken back
 * from dst[] as the caller does, lc[0 .. n)), costs, count, sum. */
struct costs_res {
	long long len;
	cost_t dst[16], lc[16];
	int n;
	uint64_t sum;
};

static struct costs_res costs(const char *s, size_t len, size_t off, size_t limoff, int nev,
			      int wide)
{
	static char buf[1024];
	struct costs_res r;
	memset(&r, 0, sizeof r);
	memset(buf, 'Z', sizeof buf);
	memcpy(buf + off, s, len);
	for (int i = 0; i < 16; i++)
		r.dst[i] = 1000;
	const char *t = buf + off, *lim = t + limoff, *e;
	if (wide)
		e = plain_costs_wide(t, lim, nev, r.dst, r.lc, &r.n, &r.sum);
	else
		e = plain_costs(t, lim, nev, r.dst, r.lc, &r.n, &r.sum);
	r.len = e ? e - t : -1;
	if (!e)
		for (int i = 0; i < r.n; i++)
			r.dst[i] = cost_add(r.dst[i], -r.lc[i]);
	return r;
}

/* Whether plain_costs_wide() reads s as plain_costs() does: the same line
 * taken or refused, the same costs, count and sum; refused, nothing left
 * added. */
static int costs_same(const char *s, size_t len, size_t off, size_t limoff, int nev)
{
	struct costs_res a = costs(s, len, off, limoff, nev, 0);
	struct costs_res b = costs(s, len, off, limoff, nev, 1);
	if (a.len != b.len)
		return 0;
	for (int i = 0; i < 16; i++)
		if (a.dst[i] != b.dst[i] || (a.len < 0 && b.dst[i] != 1000))
			return 0;
	if (a.len < 0)
		return 1;
	if (a.n != b.n || a.sum != b.sum)
		return 0;
	return !memcmp(a.lc, b.lc, (size_t)a.n * sizeof(cost_t));
}

static void test_costs_wide(void)
{
	struct costs_res r;
#define WIDE(str, nev) costs(str, strlen(str), 0, FAST_MAX_LINE, nev, 1)
	r = WIDE("100 0 0 1\n", 13);
	ok(r.len == 9 && r.n == 4 && r.dst[0] == 1100 && r.dst[3] == 1001 && r.sum == 101,
	   "wide: 100 0 0 1: four costs, sum 101");
	r = WIDE("87654321 123456789 123456789012345678\n", 3);
	ok(r.len == 37 && r.n == 3 && r.lc[0] == 87654321 && r.lc[1] == 123456789 &&
		   r.lc[2] == 123456789012345678ll && r.sum == 123456789223456788ull,
	   "wide: 8, 9 and 18 digits: sum 123456789223456788");
	r = WIDE("1 1234567890123456789\n", 13);
	ok(r.len == -1 && r.dst[0] == 1000 && r.dst[1] == 1000, "wide: 19 digits: refused");
	r = WIDE("7 0000000000000000000\n", 13);
	ok(r.len == -1 && r.dst[0] == 1000, "wide: 19 zeros: refused");
	/* the '\n' in the second 32 bytes: 6 x "100000 " then "1" */
	r = WIDE("100000 100000 100000 100000 100000 100000 1\n", 16);
	ok(r.len == 43 && r.n == 7 && r.sum == 600001 && r.dst[6] == 1001,
	   "wide: '\\n' at 43: seven costs, sum 600001");
	/* longer than 64 bytes: 8 x "12345678 " */
	r = WIDE("12345678 12345678 12345678 12345678 12345678 12345678 12345678 12345678\n",
		 16);
	ok(r.len == 71 && r.n == 8 && r.sum == 98765424, "wide: 71 bytes: eight costs, sum 98765424");
	r = WIDE("\n", 13);
	ok(r.len == 0 && r.n == 0 && r.sum == 0, "wide: no cost");
	r = WIDE("1 2 \n", 13);
	ok(r.len == 4 && r.n == 2 && r.sum == 3, "wide: a space before the end");
	r = WIDE(" 1\n", 13);
	ok(r.len == -1, "wide: a space first: refused");
	r = WIDE("1  2\n", 13);
	ok(r.len == -1 && r.dst[0] == 1000, "wide: two spaces: refused");
	r = WIDE("1 2 3\n", 2);
	ok(r.len == -1 && r.dst[0] == 1000 && r.dst[1] == 1000 && r.dst[2] == 1000,
	   "wide: more costs than events: refused, nothing left added");
	/* a line the limit cuts: the number at lim is not read */
	r = costs("1 2 3\n", 6, 0, 4, 13, 1);
	ok(r.len == -1 && r.dst[0] == 1000 && r.dst[1] == 1000, "wide: a cost at the limit: refused");
	r = costs("1 2 3\n", 6, 0, 5, 13, 1);
	ok(r.len == 5 && r.sum == 6, "wide: the last cost before the limit: read");
	static const char *const tricky[] = {
		"1 2\r\n", "1 2a\n", "1\t2\n", "-2\n", "+1\n", "*\n", "0x10\n", "1 0x10\n",
		"1 /\n", "1 :\n", "1 \xb2\n", "1 2", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n",
		"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n", " \n", "  \n", "1 \n \n",
		"999999999999999999 999999999999999999\n", "000000001 00000000\n",
	};
	for (size_t i = 0; i < sizeof tricky / sizeof *tricky; i++) {
		int all = 1;
		for (int nev = 1; nev <= 16; nev++)
			for (size_t lim = 0; lim <= 80; lim++)
				all &= costs_same(tricky[i], strlen(tricky[i]), 0, lim, nev);
		ok(all, "wide: \"%.*s\" read as plain_costs() does, every nev and limit",
		   (int)strcspn(tricky[i], "\n"), tricky[i]);
	}
	/* lines of digits, spaces, '\n' and a few others at random (a fixed
	 * seed), each at a random place, limit and count of events */
	static const char alpha[] = "0123456789012345678901234567890123456789     \n\n\r*x+-/:\t";
	uint64_t x = 42;
	int bad = 0;
	for (int i = 0; i < 200000; i++) {
		char s[96];
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		size_t len = (size_t)(x >> 33) % 90;
		for (size_t k = 0; k < len; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			s[k] = (x >> 33) % 7 ? alpha[(x >> 40) % (sizeof alpha - 1)] : ' ';
		}
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		size_t off = (size_t)(x >> 33) % 64, lim = (size_t)(x >> 45) % 300;
		int nev = 1 + (int)((x >> 20) % 16);
		if (!costs_same(s, len, off, lim, nev) && bad++ < 5) {
			printf("# wide: differs at %zu, limit %zu, %d events on: ", off, lim, nev);
			for (size_t k = 0; k < len; k++)
				printf(s[k] == '\n' ? "\\n" : "%c", s[k]);
			printf("\n");
		}
	}
	is(bad, 0, "wide: 200000 random lines read as plain_costs() does");
#undef WIDE
}

int main(void)
{
	test_dec_lengths();
	test_dec_limits();
	test_dec_ends();
	test_subpos();
	test_lines();
	test_positions_short();
	test_costs_wide();
	return tap_done();
}
