/* test-timeline.c -- unit tests of the timeline reader (src/profile/
 * timeline.c) on PROFILE.time files written by hand: the intervals, their
 * totals and each function's cost as written, matched to the profile's
 * functions by (object, file, name), and every kind of bad input refused
 * with its FILE:LINE.  The numbers are the hand-made files' own; that the
 * functions' costs summed over the intervals are their self costs is
 * checked against the profile text (also by hand).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/aggregate.h"
#include "profile/load.h"
#include "profile/model.h"
#include "profile/timeline.h"
#include "fixture.h"
#include "tap.h"

/* Self costs (Ir Dr): main 30 4, a 50 10 (in /bin/prog), b 20 6, and a
 * second `a` in /lib/other.so with 7 1 (the timeline names the first). */
static const char prof[] = "events: Ir Dr\n"
			   "ob=/bin/prog\nfl=x.c\nfn=main\n1 30 4\nfn=a\n2 50 10\nfn=b\n3 20 6\n"
			   "ob=/lib/other.so\nfl=x.c\nfn=a\n9 7 1\n";

/* Three intervals of Ir [0,40) [40,80) [80,100):
 *   1: main 10 2, a 30 4  -> totals 40 6
 *   2: a 20 6, b 20 2     -> totals 40 8
 *   3: main 20 2, b 0 4   -> totals 20 6
 * summed: main 30 4, a 50 10, b 20 6 (the profile's self costs). */
static const char good[] = "cgtui-timeline\t1\n"
			   "events:\tIr\tDr\n"
			   "length:\t40\n"
			   "fn:\t0\t/bin/prog\tx.c\tmain\n"
			   "fn:\t1\t/bin/prog\tx.c\ta\n"
			   "fn:\t2\t/bin/prog\tx.c\tb\n"
			   "iv:\t0\t40\t40\t6\n"
			   "c:\t0\t10\t2\n"
			   "c:\t1\t30\t4\n"
			   "iv:\t40\t80\t40\t8\n"
			   "c:\t1\t20\t6\n"
			   "c:\t2\t20\t2\n"
			   "iv:\t80\t100\t20\t6\n"
			   "c:\t0\t20\t2\n"
			   "c:\t2\t0\t4\n";

static uint32_t fn_in(struct profile *p, const char *name, const char *obj)
{
	for (uint32_t f = 0; f < p->nfns; f++)
		if (strcmp(fn_name(p, f), name) == 0 && strcmp(obj_name(p, p->fns[f].obj), obj) == 0)
			return f;
	return NO_ID;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void test_good(void)
{
	struct profile p;
	ok(load(&p, prof) == 0, "profile loads: %s", lasterr);
	ok(timeline_of(&p) == NULL, "no .time file: no timeline");
	is(p.nwarnings, 0, "and no warning");
	char *path = xasprintf("%s.time", p.sources[0]);
	put(path, good);
	struct timeline *tl = timeline_of(&p);
	ok(tl != NULL, "the timeline beside the profile is read");
	if (!tl)
		return;
	is(p.nwarnings, 0, "without a warning");
	is(tl->niv, 3, "three intervals");
	is(tl->length, 40, "length 40");
	static const uint64_t st[] = { 0, 40, 80 }, en[] = { 40, 80, 100 };
	static const cost_t tot[3][2] = { { 40, 6 }, { 40, 8 }, { 20, 6 } };
	for (uint32_t i = 0; i < 3; i++) {
		is(tl->start[i], st[i], "interval %u starts at %llu", i, (unsigned long long)st[i]);
		is(tl->end[i], en[i], "interval %u ends at %llu", i, (unsigned long long)en[i]);
		is(timeline_total(tl, i)[0], tot[i][0], "interval %u: Ir %lld", i, (long long)tot[i][0]);
		is(timeline_total(tl, i)[1], tot[i][1], "interval %u: Dr %lld", i, (long long)tot[i][1]);
	}
	uint32_t m = fn(&p, "main"), a = fn_in(&p, "a", "/bin/prog"),
		 b = fn_in(&p, "b", "/bin/prog"), a2 = fn_in(&p, "a", "/lib/other.so");
	ok(m != NO_ID && a != NO_ID && b != NO_ID && a2 != NO_ID, "four functions");
	static const cost_t want_a[3][2] = { { 30, 4 }, { 20, 6 }, { 0, 0 } };
	static const cost_t want_b[3][2] = { { 0, 0 }, { 20, 2 }, { 0, 4 } };
	cost_t c[2];
	for (uint32_t i = 0; i < 3; i++) {
		timeline_cost(tl, i, a, c);
		ok(c[0] == want_a[i][0] && c[1] == want_a[i][1], "a (/bin/prog) in interval %u: %lld %lld",
		   i, (long long)c[0], (long long)c[1]);
		timeline_cost(tl, i, b, c);
		ok(c[0] == want_b[i][0] && c[1] == want_b[i][1], "b in interval %u: %lld %lld", i,
		   (long long)c[0], (long long)c[1]);
		timeline_cost(tl, i, a2, c);
		ok(c[0] == 0 && c[1] == 0, "a of /lib/other.so: nothing in interval %u", i);
	}
	/* summed over the intervals: the profile's self costs */
	const struct agg *g = profile_agg(&p);
	uint32_t fns[] = { m, a, b };
	for (size_t k = 0; k < 3; k++) {
		cost_t s[2] = { 0, 0 };
		for (uint32_t i = 0; i < tl->niv; i++) {
			timeline_cost(tl, i, fns[k], c);
			s[0] += c[0];
			s[1] += c[1];
		}
		ok(s[0] == agg_self(g, fns[k])[0] && s[1] == agg_self(g, fns[k])[1],
		   "%s: summed over the intervals, its self cost", fn_name(&p, fns[k]));
	}

	/* a range of the run (a time scope): its whole intervals; its totals
	 * and each function's cost the sum of those intervals', by hand from
	 * `good`: Ir 40 to 100 is intervals 2 and 3, totals 40+20 = 60 and
	 * 8+6 = 14; a 20 6, b 20+0 = 20 and 2+4 = 6, main 0+20 = 20 and 2 */
	uint32_t i0, i1;
	timeline_range(tl, 40, 100, &i0, &i1);
	ok(i0 == 1 && i1 == 3, "Ir 40 to 100: intervals 2 and 3 (%u %u)", i0, i1);
	timeline_range(tl, 30, 90, &i0, &i1);
	ok(i0 == 1 && i1 == 2, "Ir 30 to 90: interval 2 (40 to 80) only (%u %u)", i0, i1);
	timeline_range(tl, 45, 90, &i0, &i1);
	ok(i0 == i1, "Ir 45 to 90: no whole interval (%u %u)", i0, i1);
	timeline_range(tl, 0, 0, &i0, &i1);
	ok(i0 == 0 && i1 == 3, "no range: all three (%u %u)", i0, i1);
	cost_t *self = calloc((size_t)agg_nent(g) * 2, sizeof(cost_t)), rt[2];
	timeline_range_self(tl, 1, 3, self, rt);
	ok(rt[0] == 60 && rt[1] == 14, "the range's totals: Ir 60, Dr 14 (%lld %lld)", (long long)rt[0],
	   (long long)rt[1]);
	static const struct {
		const char *name;
		cost_t ir, dr;
	} want_r[] = { { "main", 20, 2 }, { "a", 20, 6 }, { "b", 20, 6 } };
	cost_t sum[2] = { 0, 0 };
	for (size_t k = 0; k < 3; k++) {
		const cost_t *r = &self[(size_t)fns[k] * 2];
		ok(r[0] == want_r[k].ir && r[1] == want_r[k].dr, "%s in the range: %lld %lld",
		   want_r[k].name, (long long)r[0], (long long)r[1]);
		sum[0] += r[0];
		sum[1] += r[1];
	}
	ok(self[(size_t)a2 * 2] == 0 && self[(size_t)a2 * 2 + 1] == 0, "a of /lib/other.so: nothing");
	ok(sum[0] == rt[0] && sum[1] == rt[1], "the functions' costs add up to the range's totals");
	free(self);
	timeline_free(tl);

	/* bad files: FILE:LINE, no timeline, a warning; the profile stays */
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "", ":1: empty" },
		{ "cgtui-contexts\t1\n", ":1: not a cgtui timeline" },
		{ "cgtui-timeline\t2\n", ":1: a timeline of another version" },
		{ "cgtui-timeline\t1\nevents:\tDr\tIr\n", ":2: its events are not the profile's" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nlength:\t0\n", ":3: expected length:" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nfn:\t0\t/bin/prog\tx.c\tnosuch\n",
		  ":3: a function the profile does not have" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nfn:\t1\t/bin/prog\tx.c\tmain\n",
		  ":3: expected fn:" },
		{ "cgtui-timeline\t1\niv:\t0\t40\t40\t6\n", ":2: an iv: or c: line before the events: line" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\niv:\t5\t40\t35\t6\n",
		  ":3: an interval must start where the one before ended" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\niv:\t0\t40\t40\t6\niv:\t41\t50\t9\t0\n",
		  ":4: an interval must start where the one before ended" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\niv:\t0\t0\t0\t0\n", ":3: an interval must end after" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\niv:\t0\t40\t39\t6\n", ":3: END - START must be" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\niv:\t0\t40\t40\n", ":3: expected iv:" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nfn:\t0\t/bin/prog\tx.c\tmain\nc:\t0\t1\t1\n",
		  ":4: a c: line before the first iv: line" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\niv:\t0\t40\t40\t6\nc:\t0\t40\t6\n",
		  ":4: a function not defined by a fn: line" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nfn:\t0\t/bin/prog\tx.c\tmain\niv:\t0\t40\t40\t6\n"
		  "c:\t0\t-1\t6\n",
		  ":5: expected c:" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nfn:\t0\t/bin/prog\tx.c\tmain\niv:\t0\t40\t40\t6\n"
		  "c:\t0\t20\t3\nc:\t0\t20\t3\n",
		  ":6: a function twice in one interval" },
		/* the sum is checked when the interval ends: at the next iv: line
		 * or the end of the file, said at the interval's own line */
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nfn:\t0\t/bin/prog\tx.c\tmain\niv:\t0\t40\t40\t6\n"
		  "c:\t0\t40\t5\niv:\t40\t50\t10\t0\n",
		  ":4: the interval's totals are not the sum of its c: lines" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nfn:\t0\t/bin/prog\tx.c\tmain\niv:\t0\t40\t40\t6\n"
		  "c:\t0\t40\t6\niv:\t40\t50\t10\t1\nc:\t0\t10\t0\n",
		  ":6: the interval's totals are not the sum of its c: lines" },
		{ "cgtui-timeline\t1\nevents:\tIr\tDr\nwhat:\t1\n", ":3: unknown line" },
		{ "cgtui-timeline\t1\n", ":1: no events: line" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(path, bad[i].text);
		char err[512] = "";
		struct timeline *e = NULL;
		is(timeline_read(&p, p.sources[0], &e, err, sizeof(err)), -1, "bad file %zu refused", i);
		ok(e == NULL && strstr(err, path) == err && strstr(err, bad[i].why) &&
			   err[strlen(path)] == ':',
		   "bad file %zu: %s", i, err);
		int nw = p.nwarnings;
		ok(timeline_of(&p) == NULL && p.nwarnings == nw + 1, "bad file %zu: a warning, no timeline",
		   i);
	}
	unlink(path);
	free(path);
	profile_free(&p);
}

int main(void)
{
	if (fixture_start() < 0)
		return 99;
	test_good();
	fixture_end();
	return tap_done();
}
