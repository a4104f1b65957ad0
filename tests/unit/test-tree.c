/* test-tree.c -- unit tests of the explorer's trees (src/profile/tree.c):
 * file:function, function:file and object groups; the call tree's roots,
 * children, recursion stop, on-demand growth, threshold and regrowth.  Every
 * expected number is computed by hand, as the comment beside it shows.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "profile/aggregate.h"
#include "profile/load.h"
#include "profile/model.h"
#include "profile/query.h"
#include "profile/tree.h"
#include "fixture.h"
#include "tap.h"


/* Mutual recursion in a library: main (in /bin/prog) calls a once (90);
 * a calls b twice (80), b calls a once (70).  Self: main 10, a 50, b 40:
 * total 100. */
static const char rec_example[] = "events: Ir\n"
				  "ob=/bin/prog\nfl=prog.c\nfn=main\n1 10\n"
				  "cob=/lib/librec.so\ncfl=rec.c\ncfn=a\ncalls=1 5\n2 90\n"
				  "ob=/lib/librec.so\nfl=rec.c\nfn=a\n5 50\ncfn=b\ncalls=2 10\n6 80\n"
				  "fn=b\n10 40\ncfn=a\ncalls=1 5\n11 70\n";

static const char *gname(struct profile *p, struct groups *gs, uint32_t k)
{
	return group_name(p, gs, &gs->g[k]);
}

static const char *ename(struct profile *p, struct groups *gs, uint32_t k, uint32_t i)
{
	return gentry_name(p, gs, &gs->g[k].e[i]);
}

/* When the job ahead runs (agg_ahead_allowed): with --jobs=N > 1 always;
 * with the default (0) whenever the machine has a second core, however
 * busy -- the job runs after the load and the first screen, while the
 * explorer waits for a key, unlike the loader's threads, which load_jobs()
 * cuts down on a busy machine; never with --jobs=1 or on one core by
 * default.  And trees_prepare() with the default jobs starts it on this
 * machine when it has two cores, whatever its load average. */
static void test_ahead_rule(void)
{
	ok(agg_ahead_allowed(0, 2) && agg_ahead_allowed(0, 64), "default jobs, 2 or 64 cores: ahead");
	ok(!agg_ahead_allowed(0, 1), "default jobs, one core: not ahead");
	ok(!agg_ahead_allowed(1, 2) && !agg_ahead_allowed(1, 1), "--jobs=1: not ahead");
	ok(agg_ahead_allowed(2, 1) && agg_ahead_allowed(8, 2), "--jobs=2 or 8: ahead, as asked");
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double la = -1;
	(void)getloadavg(&la, 1);
	struct profile p;
	ok(load(&p, spec_example) == 0, "spec example loads: %s", lasterr);
	p.jobs = 0;
	trees_prepare(&p, 0);
	is(p.agg->bg_running, ncpu > 1,
	   "default jobs, %ld cores, load average %.2f: the job %s", ncpu, la,
	   ncpu > 1 ? "runs" : "does not run");
	agg_wait(p.agg);
	profile_free(&p);
}

/* A job that counts to 400 in steps of 0.2 ms, asking agg_stop_wanted()
 * before each (where it waits while held). */
static int held_count;

static void *counting_job(void *arg)
{
	struct agg *a = arg;
	for (int i = 0; i < 400; i++) {
		if (agg_stop_wanted(a))
			return NULL;
		__atomic_add_fetch(&held_count, 1, __ATOMIC_RELAXED);
		nanosleep(&(struct timespec){ 0, 200000 }, NULL);
	}
	return NULL;
}

static int count_now(void)
{
	return __atomic_load_n(&held_count, __ATOMIC_RELAXED);
}

/* The job ahead held while a key is handled (agg_hold): held, it counts
 * at most one more (the step it was in) over 60 ms, where it would have
 * counted ~300; released, it goes on; waited for while held (agg_wait),
 * it is released and counts to the end, no deadlock; asked to stop while
 * held (cycle detection turned off), it wakes and stops before the end;
 * and agg_yield() on the thread that holds it returns at once. */
static void test_hold(void)
{
	struct profile p;
	ok(load(&p, spec_example) == 0, "spec example loads: %s", lasterr);
	p.jobs = 2;
	struct agg *a = (struct agg *)profile_agg(&p);
	for (int mode = 0; mode < 2; mode++) {
		held_count = 0;
		ok(agg_background(&p, counting_job, a) == 0, "mode %d: the job starts", mode);
		profile_hold_job(&p, 1);
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL); /* (it reaches a check) */
		int c1 = count_now();
		nanosleep(&(struct timespec){ 0, 60000000 }, NULL);
		int c2 = count_now();
		ok(c2 - c1 <= 1 && c2 < 400, "mode %d: held, %d then %d over 60 ms", mode, c1, c2);
		agg_yield(a); /* (this thread is not the job: no wait) */
		ok(1, "mode %d: agg_yield on the holder's thread returned", mode);
		if (mode == 0) {
			profile_hold_job(&p, 0);
			nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
			ok(count_now() > c2, "released: it goes on (%d > %d)", count_now(), c2);
			profile_hold_job(&p, 1);
			agg_wait(a); /* (held: released by the wait) */
			is(count_now(), 400, "waited for while held: counted to the end");
		} else {
			profile_set_cycles(&p, 0); /* (asks it to stop, waits) */
			ok(!a->bg_running && count_now() < 400,
			   "asked to stop while held: stopped at %d of 400", count_now());
			profile_set_cycles(&p, 1);
		}
	}
	profile_free(&p);
}

/* The job ahead asked to stop while it makes the file:function pairs
 * (cycle detection turned off right after the first screen): it leaves
 * them to whoever asks, and what `f` then shows is whole.  70,000
 * functions fN in 7 files (N % 7), each with self cost N % 5 + 1: more
 * than 65,536 blocks, so that the job, held at once, waits at a check
 * inside agg_filefn and stops there.  Each file's total, by the same
 * formula summed here, and 10,000 entries each; five tries, the stop
 * seen in at least one (the pairs not made by the job). */
static void test_pairs_stopped(void)
{
	enum { N = 70000 };
	struct text tx = { 0 };
	textf(&tx, "events: Ir\n");
	for (int i = 0; i < N; i++)
		textf(&tx, "fl=file%d.c\nfn=f%d\n%d %d\n", i % 7, i, i + 1, i % 5 + 1);
	cost_t want[7] = { 0 };
	for (int i = 0; i < N; i++)
		want[i % 7] += i % 5 + 1;
	int stopped = 0;
	for (int attempt = 0; attempt < 5; attempt++) {
		struct profile p;
		ok(load(&p, tx.s) == 0, "70,000 functions load: %s", lasterr);
		p.jobs = 2;
		trees_prepare(&p, 0);
		profile_hold_job(&p, 1);
		profile_set_cycles(&p, 0); /* (asks the job to stop, waits) */
		stopped += !p.agg->have_ff;
		struct groups *gs = groups_build(&p, GROUP_FILE_FN, NULL);
		groups_order(gs, &p, 0, 0, 0);
		int good = gs->ng == 7;
		for (uint32_t k = 0; good && k < gs->ng; k++) {
			int f = atoi(gname(&p, gs, k) + 4);
			good = gs->g[k].key == want[f] && gs->g[k].ne == N / 7;
		}
		ok(good, "try %d: 7 files, each at its total (%lld for file0.c), 10,000 entries",
		   attempt, (long long)want[0]);
		groups_free(gs);
		profile_free(&p);
	}
	ok(stopped > 0, "the job stopped inside the pairs in %d of 5 tries", stopped);
	free(tx.s);
}

/* (ahead: the pairs made on a thread of their own first, trees_prepare) */
static void test_filefn(int ahead)
{
	struct profile p;
	ok(load(&p, spec_example) == 0, "spec example loads: %s", lasterr);
	if (ahead) {
		p.jobs = 2;
		trees_prepare(&p, 0);
	}
	struct groups *gs = groups_build(&p, GROUP_FILE_FN, NULL);
	groups_order(gs, &p, 0, 0.1, 0);
	is(gs->ng, 2, "file:function: two files");
	/* file2.c = func2 700; file1.c = func1 100 + main 20 = 120 */
	is_str(gname(&p, gs, 0), "file2.c", "file2.c first (700)");
	is(gs->g[0].key, 700, "file2.c total 700");
	is(gs->g[0].cum, 700, "cumulative after file2.c: 700");
	is(gs->g[0].ne, 1, "file2.c: one function");
	is_str(ename(&p, gs, 0, 0), "func2", "file2.c: func2");
	is(gs->g[0].e[0].fn, fn(&p, "func2"), "the entry is the function func2");
	is_str(gname(&p, gs, 1), "file1.c", "file1.c second (120)");
	is(gs->g[1].key, 120, "file1.c total 100 + 20");
	is(gs->g[1].cum, 820, "cumulative after file1.c: 700 + 120 = 820");
	is_str(ename(&p, gs, 1, 0), "func1", "file1.c: func1 (100) first");
	is_str(ename(&p, gs, 1, 1), "main", "file1.c: then main (20)");
	is(gs->g[1].e[1].key, 20, "main's self cost 20");
	is(gs->g[1].nshown, 2, "threshold 0.1%% of 820 = 0.82: both shown");
	is(gs->g[0].fn, NO_ID, "a file group is no function");

	/* threshold 10%: 82 -- main (20) is hidden, file1.c still shown by
	 * func1, and its total is still 120 */
	groups_order(gs, &p, 0, 10, 0);
	is(gs->g[1].nshown, 1, "10%%: file1.c shows func1 only");
	ok(gs->g[1].shown, "10%%: file1.c shown");
	is(gs->g[1].cum, 820, "10%%: cumulative still 820");
	/* threshold 50%: 410 -- only func2 (700) */
	groups_order(gs, &p, 0, 50, 0);
	ok(gs->g[0].shown && !gs->g[1].shown, "50%%: only file2.c shown");
	is(gs->g[1].cum, 700, "50%%: a hidden group adds nothing to the cumulative cost");
	groups_free(gs);

	gs = groups_build(&p, GROUP_FN_FILE, NULL);
	groups_order(gs, &p, 0, 0.1, 0);
	is(gs->ng, 3, "function:file: three functions");
	/* func2 700, func1 100, main 20; cumulative 700, 800, 820 */
	is_str(gname(&p, gs, 0), "func2", "func2 first");
	is_str(gname(&p, gs, 1), "func1", "func1 second");
	is_str(gname(&p, gs, 2), "main", "main third");
	is(gs->g[1].cum, 800, "cumulative after func1: 700 + 100");
	is(gs->g[2].cum, 820, "cumulative after main: 820");
	is_str(ename(&p, gs, 2, 0), "file1.c", "main: file1.c");
	is(gs->g[2].fn, fn(&p, "main"), "a function group is its function");
	is(gs->g[0].e[0].fn, fn(&p, "func2"), "func2's file entry is func2");
	groups_free(gs);

	gs = groups_build(&p, GROUP_OBJ_FN, NULL);
	groups_order(gs, &p, 0, 0.1, 1);
	is(gs->ng, 1, "objects: no ob= lines, one (unnamed) object");
	is_str(gname(&p, gs, 0), "", "its name is empty");
	is(gs->g[0].key, 820, "its total: all self costs");
	/* by inclusive: main 820, func2 700, func1 400 */
	is_str(ename(&p, gs, 0, 0), "main", "by inclusive: main (820)");
	is_str(ename(&p, gs, 0, 1), "func2", "then func2 (700)");
	is_str(ename(&p, gs, 0, 2), "func1", "then func1 (400)");
	is(gs->g[0].e[2].incl[0], 400, "func1 inclusive 400");
	is(gs->g[0].e[2].self[0], 100, "func1 self 100");
	groups_order(gs, &p, 0, 0.1, 0);
	/* by self: func2 700, func1 100, main 20 */
	is_str(ename(&p, gs, 0, 0), "func2", "by self: func2 (700)");
	is_str(ename(&p, gs, 0, 2), "main", "by self: main last (20)");
	groups_free(gs);
	profile_free(&p);

	/* objects named by ob=: /bin/prog has main (10), /lib/librec.so a and
	 * b (50 + 40 = 90) */
	ok(load(&p, rec_example) == 0, "recursion example loads: %s", lasterr);
	gs = groups_build(&p, GROUP_OBJ_FN, NULL);
	groups_order(gs, &p, 0, 0.1, 0);
	is(gs->ng, 2, "two objects");
	is_str(gname(&p, gs, 0), "/lib/librec.so", "the library first (90)");
	is(gs->g[0].key, 90, "library: 50 + 40");
	is(gs->g[0].cum, 90, "cumulative 90");
	is_str(ename(&p, gs, 0, 0), "a", "a (self 50) before b (40)");
	is(gs->g[1].key, 10, "/bin/prog: main's 10");
	is(gs->g[1].cum, 100, "cumulative 100");
	groups_free(gs);
	profile_free(&p);

	/* Cachegrind: static functions of the same name in two files are two
	 * functions; each (file, name) entry finds its own */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=helper\n1 5\nfl=b.c\nfn=helper\n1 7\n") == 0,
	   "two static helpers: %s", lasterr);
	is(p.nfns, 2, "two functions named helper");
	gs = groups_build(&p, GROUP_FN_FILE, NULL);
	groups_order(gs, &p, 0, 0, 0);
	is(gs->ng, 1, "one function name");
	is(gs->g[0].ne, 2, "in two files");
	is_str(ename(&p, gs, 0, 0), "b.c", "b.c (7) first");
	is_str(file_name(&p, p.fns[gs->g[0].e[0].fn].file), "b.c", "b.c's helper is b.c's function");
	is_str(file_name(&p, p.fns[gs->g[0].e[1].fn].file), "a.c", "a.c's helper is a.c's function");
	groups_free(gs);
	profile_free(&p);
}

/* A file of six functions, three under the threshold among them, and a
 * derived event: the group's total and value, and its shown entries in
 * order, worked out by hand. */
static void test_group_hidden(void)
{
	struct profile p;
	ok(load(&p, "event: Sum = Ir + 2 Dr\nevents: Ir Dr\nfl=a.c\n"
		    "fn=z\n1 1 0\nfn=b\n2 50 1\nfn=y\n3 2 0\nfn=c\n4 50 1\nfn=x\n5 3 0\n"
		    "fn=d\n6 40 20\n") == 0,
	   "six functions: %s", lasterr);
	int sum = profile_event_index(&p, "Sum", 3);
	ok(sum >= p.nreal, "derived event Sum");
	struct groups *gs = groups_build(&p, GROUP_FILE_FN, NULL);
	/* Sum: z 1, b 52, y 2, c 52, x 3, d 80: total 190; 10% is 19: b, c,
	 * d shown, d first (80), then b and c (52 each) by name */
	groups_order(gs, &p, sum, 10, 0);
	is(gs->ng, 1, "one file");
	is(gs->g[0].ne, 6, "six entries");
	is(gs->g[0].key, 190, "a.c's Sum: 1 + 52 + 2 + 52 + 3 + 80");
	is(gs->g[0].nshown, 3, "three of six at 10%% of 190");
	is_str(ename(&p, gs, 0, 0), "d", "d first (80)");
	is_str(ename(&p, gs, 0, 1), "b", "then b (52, by name)");
	is_str(ename(&p, gs, 0, 2), "c", "then c (52)");
	is(gs->g[0].e[0].key, 80, "d's Sum 40 + 2 * 20");
	cost_t tot[MAX_EVENTS];
	group_total(&p, gs, &gs->g[0], tot);
	ok(tot[0] == 146 && tot[1] == 22, "a.c's total: Ir 1+50+2+50+3+40, Dr 1+1+20");
	/* by Ir at 30% of 146 = 43.8: b and c (50) only */
	groups_order(gs, &p, 0, 30, 0);
	is(gs->g[0].key, 146, "a.c's Ir 146");
	is(gs->g[0].nshown, 2, "two shown at 30%%");
	is_str(ename(&p, gs, 0, 0), "b", "b first (50, by name)");
	is_str(ename(&p, gs, 0, 1), "c", "then c");
	groups_free(gs);
	profile_free(&p);
}

/* ctree_share against llroundl of the long double quotient (the rule it
 * keeps), on halves, signs, the 2^61 edge and random values; and a few by
 * hand. */
static void test_share(void)
{
	is(ctree_share(1, 1, 2), 1, "1 * 1/2 = 0.5 rounds away from zero: 1");
	is(ctree_share(-1, 1, 2), -1, "-1 * 1/2 = -0.5: -1");
	is(ctree_share(3, 1, 2), 2, "3 * 1/2 = 1.5: 2");
	is(ctree_share(10, 1, 3), 3, "10 * 1/3 = 3.33: 3");
	is(ctree_share(10, 2, 3), 7, "10 * 2/3 = 6.67: 7");
	is(ctree_share(7, -2, 4), -4, "7 * -2/4 = -3.5: -4");
	is(ctree_share(5, 0, 9), 0, "no part: 0");
	int bad = 0, n = 0;
	uint64_t x = 88172645463325252ULL;
	for (int i = 0; i < 200000; i++) {
		/* xorshift64; magnitudes of every size up to 2^62 */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		cost_t c = (cost_t)(x >> (x % 62));
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		cost_t whole = (cost_t)((x >> (x % 62)) | 1) & INT64_MAX;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		cost_t part = (cost_t)(x % (uint64_t)whole);
		if (i % 3 == 0)
			c = -c;
		if (i % 5 == 0)
			part = -part;
		if (i % 7 == 0) /* a half: whole even, c * part an odd multiple of whole / 2 */
			whole = 2 * (whole / 4 + 1), c = 2 * (c % 1000) + 1, part = whole / 2;
		cost_t want = (cost_t)llroundl((long double)c * (long double)part / (long double)whole);
		if (part != whole && ctree_share(c, part, whole) != want && bad++ < 5)
			printf("# share(%lld, %lld, %lld) = %lld, llroundl %lld\n", (long long)c, (long long)part,
			     (long long)whole, (long long)ctree_share(c, part, whole), (long long)want);
		n++;
	}
	ok(!bad, "%d random shares as llroundl (%d differ)", n, bad);
	/* at the edge: |c * part| just under and over 2^61 */
	cost_t c61 = (cost_t)1 << 30, p61 = ((cost_t)1 << 31) - 1, w = 3;
	is(ctree_share(c61, p61, w),
	   (cost_t)llroundl((long double)c61 * (long double)p61 / (long double)w), "just under 2^61");
	is(ctree_share(c61, p61 + 2, w),
	   (cost_t)llroundl((long double)c61 * (long double)(p61 + 2) / (long double)w), "just over 2^61");
}

/* Estimated shares (as a flame graph's paths) of a cycle's members, some
 * under the threshold.  main (self 10, 0) calls p (45, 16) and q (45, 17),
 * each of which calls a; a (self 60, 1), b (25, 2) and c (5, 30) call each
 * other round: <cycle 1>, whose inclusive cost is its members' self, 90 and
 * 33 (no call leaves it); total 100 Ir, 33 Dr.  main's root 100, 33; main;p
 * 45 and 16, main;p;<cycle 1> the same (p's one call).  Its members at the
 * shares of 45 and 16 their inclusive costs bring, over their sum 90 and
 * 33, each the difference of the rounded running shares: Ir a 45 * 60/90 =
 * 30, b 45 * 85/90 = 42.5 -> 43, less 30: 13, c 45 - 43 = 2; Dr a 16 * 1/33
 * = 0.48 -> 0, b 16 * 3/33 = 1.45 -> 1, c 16 - 1 = 15.  At 10% of 100 Ir,
 * c (2) is under. */
static void test_members_estimated(void)
{
	struct profile p;
	ok(load(&p, "events: Ir Dr\nfl=m.c\nfn=main\n1 10 0\ncfn=p\ncalls=1 1\n2 45 16\n"
		    "cfn=q\ncalls=1 1\n2 45 17\nfn=p\ncfn=a\ncalls=1 1\n9 45 16\n"
		    "fn=q\ncfn=a\ncalls=1 1\n9 45 17\n"
		    "fn=a\n3 60 1\ncfn=b\ncalls=1 1\n4 30 32\nfn=b\n5 25 2\ncfn=c\ncalls=1 1\n6 5 30\n"
		    "fn=c\n7 5 30\ncfn=a\ncalls=1 1\n8 90 33\n") == 0,
	   "a cycle of three: %s", lasterr);
	uint32_t a = fn(&p, "a"), b = fn(&p, "b"), c = fn(&p, "c"), pp = fn(&p, "p");
	for (int k = 0; k < 2; k++) {
		double thr = k ? 1 : 10;
		struct ctree *t = ctree_new(&p, 0, NO_ID, 0, thr);
		t->estimated = 1;
		is(t->nroots, 1, "one root, main");
		ok(ctree_grow(t, 0) && t->node[0].nchild == 2, "main's two children");
		uint32_t np = t->node[0].first;
		ok(t->node[np].fn == pp && t->node[np].cost[0] == 45 && t->node[np].cost[1] == 16,
		   "p first (45, by name): 45 and 16");
		ok(ctree_grow(t, np) && t->node[np].nchild == 1, "p's one child");
		uint32_t cyc = t->node[np].first;
		ok(agg_is_cycle(p.agg, t->node[cyc].fn) && t->node[cyc].cost[0] == 45 &&
			   t->node[cyc].cost[1] == 16,
		   "<cycle 1> under p: 45 and 16");
		ok(ctree_grow(t, cyc), "<cycle 1> grown");
		is(t->node[cyc].nchild, k ? 3 : 2, "%g%%: members shown", thr);
		is(t->node[cyc].nhidden, k ? 0 : 1, "%g%%: members under the threshold", thr);
		uint32_t m0 = t->node[cyc].first;
		ok(t->node[m0].fn == a && t->node[m0].cost[0] == 30 && t->node[m0].cost[1] == 0,
		   "a first: 30 and 0");
		ok(t->node[m0 + 1].fn == b && t->node[m0 + 1].cost[0] == 13 && t->node[m0 + 1].cost[1] == 1,
		   "then b: 13 and 1");
		if (k)
			ok(t->node[m0 + 2].fn == c && t->node[m0 + 2].cost[0] == 2 &&
				   t->node[m0 + 2].cost[1] == 15,
			   "1%%: c last: 2 and 15");
		ctree_free(t);
	}
	profile_free(&p);
}

/* A cycle of BIG_M members m000 .. m299 called round (m_i calls m_i+1, the
 * last m000; each such call 1 Ir, inside the cycle: no part of an
 * inclusive cost), none calling out: a member's inclusive cost is its self
 * (big_self), the cycle's their sum S.  main (self 10 0) calls p (self 50
 * 5) and q (self 40 4); p calls m000 for C1 = S * 3 / 7 (Ir) and S * 5 /
 * 11 (Dr), q for the rest.  main is the root at its whole cost, so p's
 * node is p's whole cost and the cycle's node under p the edge's exact
 * cost C1 (tree.h).  Its members' shares of C1, by tree.h's rule,
 * computed here in 128-bit integers (not ctree_share): each member, in the
 * cycle's order (agg.cyc_fn), gets round(C1 * upto / S) less round(C1 *
 * before / S), rounded half away from zero, upto and before the sums of
 * the members' inclusive costs up to and before it; shown when |share| is
 * at least percent * total / 100 (rank.h's rule, a share of 0 never). */
enum { BIG_M = 300 };

static void big_self(int i, cost_t *c)
{
	/* a few large members (5 of Ir, 7 of Dr) among many small ones */
	c[0] = i % 61 == 5 ? 4000 + 13 * i : 1 + (i * 37) % 9;
	c[1] = i % 47 == 11 ? 3000 + 7 * i : (i * 53) % 4;
}

static cost_t ref_share(cost_t n, cost_t x, cost_t w)
{
	__int128 num = (__int128)n * x, den = w;
	__int128 q = ((num < 0 ? -num : num) * 2 + den) / (2 * den);
	return (cost_t)(num < 0 ? -q : q);
}

/* Checks the cycle's node cyc (under p, at c1) against the rule above for
 * event ev and percent: returns how many children or counts differ. */
static int big_check(struct profile *p, struct ctree *t, uint32_t cyc, const cost_t *c1,
		     const cost_t *sum, int ev, double percent)
{
	const struct agg *a = p->agg;
	cost_t want[BIG_M][2];
	int shown[BIG_M], nshown = 0, bad = 0;
	cost_t before[2] = { 0, 0 };
	double limit = percent * (double)p->totals[ev] / 100.0;
	for (uint32_t i = 0; i < BIG_M; i++) {
		uint32_t m = a->cyc_fn[a->cyc_start[0] + i];
		cost_t c[2];
		big_self(atoi(fn_name(p, m) + 1), c);
		for (int e = 0; e < 2; e++) {
			want[i][e] = ref_share(c1[e], before[e] + c[e], sum[e]) - ref_share(c1[e], before[e], sum[e]);
			before[e] += c[e];
		}
		shown[i] = want[i][ev] != 0 && (long double)llabs(want[i][ev]) >= (long double)limit;
		nshown += shown[i];
	}
	if (!ctree_grow(t, cyc) || t->node[cyc].nchild != (uint32_t)nshown ||
	    t->node[cyc].nhidden != (uint32_t)(BIG_M - nshown)) {
		printf("# event %d, %g%%: %u shown, %u hidden; want %d and %d\n", ev, percent,
		       t->node[cyc].nchild, t->node[cyc].nhidden, nshown, BIG_M - nshown);
		bad++;
	}
	for (uint32_t j = 0; j < t->node[cyc].nchild; j++) {
		const struct ctree_node *k = &t->node[t->node[cyc].first + j];
		uint32_t i = 0;
		while (i < BIG_M && a->cyc_fn[a->cyc_start[0] + i] != k->fn)
			i++;
		if (i == BIG_M || !shown[i] || k->cost[0] != want[i][0] || k->cost[1] != want[i][1]) {
			if (bad++ < 5)
				printf("# event %d, %g%%: %s at %lld %lld\n", ev, percent, fn_name(p, k->fn),
				       (long long)k->cost[0], (long long)k->cost[1]);
		}
	}
	return bad;
}

/* The cycle's node of a tree of p (event ev, percent): main, p, <cycle 1> */
static uint32_t big_cycle_node(struct profile *p, struct ctree *t, const cost_t *c1)
{
	uint32_t pp = fn(p, "p");
	if (!t->nroots || !ctree_grow(t, 0))
		return NO_ID;
	for (uint32_t j = 0; j < t->node[0].nchild; j++) {
		uint32_t n = t->node[0].first + j;
		if (t->node[n].fn != pp || !ctree_grow(t, n) || t->node[n].nchild != 1)
			continue;
		uint32_t c = t->node[n].first;
		if (agg_is_cycle(p->agg, t->node[c].fn) && t->node[c].cost[0] == c1[0] &&
		    t->node[c].cost[1] == c1[1])
			return c;
	}
	return NO_ID;
}

/* The estimated members' shares of a cycle of 300, kept between trees
 * (member_sums: the running sums by blocks of 64, only the blocks where a
 * member may pass the threshold read): the children of the cycle's node,
 * at every threshold in a list and at each member's own share (the
 * threshold right at it), both events, against the rule above -- on one
 * profile, the trees made one after the other (the sums kept from the
 * first), with cycle detection turned off and on between them, and the
 * sums made by the job ahead; the block sums themselves against sums made
 * here. */
static void test_members_blocks(void)
{
	struct text tx = { 0 };
	cost_t sum[2] = { 0, 0 };
	for (int i = 0; i < BIG_M; i++) {
		cost_t c[2];
		big_self(i, c);
		sum[0] += c[0], sum[1] += c[1];
	}
	cost_t c1[2] = { sum[0] * 3 / 7, sum[1] * 5 / 11 }, c2[2] = { sum[0] - c1[0], sum[1] - c1[1] };
	textf(&tx, "events: Ir Dr\nfl=m.c\nfn=main\n1 10 0\ncfn=p\ncalls=1 1\n2 %lld %lld\n"
		   "cfn=q\ncalls=1 1\n3 %lld %lld\nfn=p\n4 50 5\ncfn=m000\ncalls=1 1\n5 %lld %lld\n"
		   "fn=q\n6 40 4\ncfn=m000\ncalls=1 1\n7 %lld %lld\n",
	      (long long)(50 + c1[0]), (long long)(5 + c1[1]), (long long)(40 + c2[0]),
	      (long long)(4 + c2[1]), (long long)c1[0], (long long)c1[1], (long long)c2[0],
	      (long long)c2[1]);
	for (int i = 0; i < BIG_M; i++) {
		cost_t c[2];
		big_self(i, c);
		textf(&tx, "fn=m%03d\n%d %lld %lld\ncfn=m%03d\ncalls=1 1\n%d 1 0\n", i, 10 + i, (long long)c[0],
		      (long long)c[1], (i + 1) % BIG_M, 10 + i);
	}
	static const double pct[] = { 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.01, 0.001, 0 };
	for (int ahead = 0; ahead < 2; ahead++) {
		struct profile p;
		ok(load(&p, tx.s) == 0, "a cycle of %d: %s", BIG_M, lasterr);
		const struct agg *a = profile_agg(&p);
		ok(a->ncycles == 1 && a->cyc_start[1] - a->cyc_start[0] == BIG_M &&
			   agg_incl(a, agg_cycle_ent(a, 1))[0] == sum[0] &&
			   agg_incl(a, agg_cycle_ent(a, 1))[1] == sum[1],
		   "one cycle of %d members, inclusive S = %lld %lld", BIG_M, (long long)sum[0],
		   (long long)sum[1]);
		if (ahead) { /* the sums made on a thread of their own */
			p.jobs = 2;
			trees_prepare(&p, 0);
		}
		int bad = 0, trees = 0;
		for (int round = 0; round < 3; round++) {
			if (round == 1) { /* detection off: members at their own costs, no cycle */
				profile_set_cycles(&p, 0);
				struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0.1);
				ok(!t->estimated && big_cycle_node(&p, t, c1) == NO_ID,
				   "detection off: not estimated, no cycle under p");
				ctree_free(t);
				profile_set_cycles(&p, 1);
			}
			for (int ev = 0; ev < 2; ev++) {
				for (size_t k = 0; k < sizeof(pct) / sizeof(*pct); k++) {
					struct ctree *t = ctree_new(&p, 0, NO_ID, ev, pct[k]);
					uint32_t cyc = big_cycle_node(&p, t, c1);
					bad += cyc == NO_ID ? 1 : big_check(&p, t, cyc, c1, sum, ev, pct[k]);
					trees++;
					ctree_free(t);
				}
				/* each member's own share as the threshold: at the
				 * edge of the blocks' bound */
				cost_t before = 0;
				for (uint32_t i = 0; round == 0 && i < BIG_M; i++) {
					cost_t c[2];
					big_self(atoi(fn_name(&p, a->cyc_fn[a->cyc_start[0] + i]) + 1), c);
					cost_t v = ref_share(c1[ev], before + c[ev], sum[ev]) -
						   ref_share(c1[ev], before, sum[ev]);
					before += c[ev];
					if (!v)
						continue;
					double pc = (double)v * 100.0 / (double)p.totals[ev];
					struct ctree *t = ctree_new(&p, 0, NO_ID, ev, pc);
					uint32_t cyc = big_cycle_node(&p, t, c1);
					bad += cyc == NO_ID ? 1 : big_check(&p, t, cyc, c1, sum, ev, pc);
					trees++;
					ctree_free(t);
				}
			}
		}
		ok(!bad, "%s: %d trees' members as the rule says (%d differ)",
		   ahead ? "sums made ahead" : "sums made by the first tree", trees, bad);
		/* the kept block sums: before each block of 64, all, the largest */
		int sbad = !a->have_msum;
		for (uint32_t b = 0; !sbad && b < (BIG_M + 63) / 64; b++) {
			cost_t pre[2] = { 0, 0 }, big[2] = { 0, 0 };
			for (uint32_t i = 0; i < BIG_M; i++) {
				cost_t c[2];
				big_self(atoi(fn_name(&p, a->cyc_fn[a->cyc_start[0] + i]) + 1), c);
				for (int e = 0; e < 2; e++) {
					if (i < 64 * b)
						pre[e] += c[e];
					else if (i < 64 * (b + 1) && c[e] > big[e])
						big[e] = c[e];
				}
			}
			const cost_t *row = &a->msum[(size_t)a->msum_at[0] * 2];
			uint32_t nb = (BIG_M + 63) / 64;
			sbad |= row[b * 2] != pre[0] || row[b * 2 + 1] != pre[1] ||
				row[(nb + 1 + b) * 2] != big[0] || row[(nb + 1 + b) * 2 + 1] != big[1];
			sbad |= row[nb * 2] != sum[0] || row[nb * 2 + 1] != sum[1];
		}
		ok(!sbad, "%s: the kept sums before each block, of all, and each block's largest",
		   ahead ? "ahead" : "first tree");
		profile_free(&p);
	}
	free(tx.s);
}

/* The call tree's roots where the file's calls reach less than their
 * callees' inclusive costs, two events.  By hand: main self 10 0 calls x
 * (40 5), y (30 4) and a (100 20): inclusive 180 29, called by none.  x
 * self 50 7, called for 40 5: 10 2 no call reaches.  y self 30 9, called
 * for 30 4: 0 5 (a root of Dr only).  a (self 60 10) and b (self 50 12)
 * call each other: <cycle 1>, inclusive 110 22, called from outside for
 * 100 20: 10 2.  Each event's tree has the roots whose part in that
 * event is not nothing (find_roots() keeps those of any event, once):
 * checked against the hand figures, in both orders of asking, and with
 * the roots found on a thread of their own (trees_prepare, two jobs) while
 * this one waits for nothing, or turns cycle detection off and on again
 * (which waits for them).  y also calls itself (4 1, inside its own cost:
 * no root's part); with detection off its inclusive cost is callgrind's,
 * self + every call: y 34 10, a 60 10 + 50 12 = 110 22, b 50 12 + 5 1 =
 * 55 13, main 180 29. */
/* main calls x, y and a; y calls itself; a and b call each other (cycle
 * 1): test_roots_partial's and test_roots_on_the_way's profile */
static const char roots_txt[] = "events: Ir Dr\nfl=m.c\nfn=main\n1 10 0\n"
				"cfn=x\ncalls=1 1\n2 40 5\ncfn=y\ncalls=1 1\n2 30 4\n"
				"cfn=a\ncalls=1 1\n2 100 20\n"
				"fn=x\n3 50 7\nfn=y\n4 30 9\ncfn=y\ncalls=1 4\n4 4 1\n"
				"fn=a\n5 60 10\ncfn=b\ncalls=1 1\n6 50 12\n"
				"fn=b\n7 50 12\ncfn=a\ncalls=1 1\n8 5 1\n";

static void test_roots_partial(void)
{
	const char *txt = roots_txt;
	for (int mode = 0; mode < 6; mode++) {
		int order = mode & 1, prepare = mode >> 1; /* 1: ahead, 2: and C twice */
		struct profile p;
		ok(load(&p, txt) == 0, "partial roots load: %s", lasterr);
		p.jobs = 2;
		const struct agg *a = profile_agg(&p);
		if (prepare)
			trees_prepare(&p, 0);
		if (prepare == 2) {
			profile_set_cycles(&p, 0);
			a = p.agg;
			uint32_t yy = fn(&p, "y"), aa = fn(&p, "a"), bb = fn(&p, "b"), mm = fn(&p, "main");
			ok(agg_incl(a, yy)[0] == 34 && agg_incl(a, yy)[1] == 10 &&
			   agg_incl(a, aa)[0] == 110 && agg_incl(a, aa)[1] == 22 &&
			   agg_incl(a, bb)[0] == 55 && agg_incl(a, bb)[1] == 13 &&
			   agg_incl(a, mm)[0] == 180 && agg_incl(a, mm)[1] == 29,
			   "detection off: y 34 10, a 110 22, b 55 13, main 180 29");
			profile_set_cycles(&p, 1);
		}
		uint32_t main_ = fn(&p, "main"), x = fn(&p, "x"), y = fn(&p, "y");
		uint32_t cyc = agg_cycle_ent(a, 1);
		for (int k = 0; k < 2; k++) {
			int ev = order ? 1 - k : k;
			struct ctree *t = ctree_new(&p, 0, NO_ID, ev, 0);
			/* expected roots of event ev: (entity, Ir, Dr) */
			const cost_t want[4][3] = { { main_, 180, 29 }, { x, 10, 2 },
						    { cyc, 10, 2 }, { y, 0, 5 } };
			uint32_t nwant = ev == 0 ? 3 : 4, found = 0;
			is(t->nroots, nwant, "mode %d, event %d: %u roots", mode, ev, nwant);
			for (uint32_t r = 0; r < t->nroots; r++)
				for (uint32_t w = 0; w < nwant; w++)
					if ((cost_t)t->node[r].fn == want[w][0] &&
					    t->node[r].cost[0] == want[w][1] && t->node[r].cost[1] == want[w][2])
						found++;
			is(found, nwant, "mode %d, event %d: each root at its hand costs", mode, ev);
			ctree_free(t);
		}
		profile_free(&p);
	}
}

/* The roots are found for the event a tree asks for, and only its values
 * are kept (one cost a root, not a row of every event): a derived event W
 * = Ir - 2 Dr has its own.  The profile of test_roots_partial with x self
 * 50 10, so by hand each root's part no call reaches (Ir, Dr; W): main 180
 * 29 (122), x 10 5 (0: a root of Ir and Dr, not of W), <cycle 1> 10 2 (6),
 * y 0 5 (-10: a negative part, shown as it is).  Each tree's roots show
 * every event's part (made for the roots shown), whichever event was asked
 * for first; asking again for an event reuses its roots (no new entry);
 * with the roots found ahead for W (trees_prepare, two jobs), the same. */
static void test_roots_event(void)
{
	static const char txt[] = "event: W = Ir - 2 Dr\nevents: Ir Dr\nfl=m.c\nfn=main\n1 10 0\n"
				  "cfn=x\ncalls=1 1\n2 40 5\ncfn=y\ncalls=1 1\n2 30 4\n"
				  "cfn=a\ncalls=1 1\n2 100 20\n"
				  "fn=x\n3 50 10\nfn=y\n4 30 9\ncfn=y\ncalls=1 4\n4 4 1\n"
				  "fn=a\n5 60 10\ncfn=b\ncalls=1 1\n6 50 12\n"
				  "fn=b\n7 50 12\ncfn=a\ncalls=1 1\n8 5 1\n";
	for (int ahead = 0; ahead < 2; ahead++) {
		struct profile p;
		ok(load(&p, txt) == 0, "roots by event load: %s", lasterr);
		is(p.nevents, 3, "two events and W");
		p.jobs = 2;
		const struct agg *a = profile_agg(&p);
		if (ahead) {
			trees_prepare(&p, 2);
			agg_wait(p.agg);
			ok(a->roots && a->roots->event == 2 && a->roots->have == 1 && !a->roots->next,
			   "ahead: the roots of W found, no other event's");
		}
		uint32_t cyc = agg_cycle_ent(a, 1);
		const cost_t want[4][4] = { { fn(&p, "main"), 180, 29, 122 }, { fn(&p, "x"), 10, 5, 0 },
					    { cyc, 10, 2, 6 }, { fn(&p, "y"), 0, 5, -10 } };
		const int evs[4] = { 2, 0, 1, 2 };
		for (int k = 0; k < 4; k++) {
			int ev = evs[k];
			struct ctree *t = ctree_new(&p, 0, NO_ID, ev, 0);
			uint32_t nwant = 0, found = 0;
			for (int w = 0; w < 4; w++)
				nwant += want[w][ev + 1] != 0;
			is(t->nroots, nwant, "ahead %d, event %d: %u roots", ahead, ev, nwant);
			for (uint32_t r = 0; r < t->nroots; r++)
				for (int w = 0; w < 4; w++)
					if ((cost_t)t->node[r].fn == want[w][0] && want[w][ev + 1] &&
					    t->node[r].cost[0] == want[w][1] && t->node[r].cost[1] == want[w][2])
						found++;
			is(found, nwant, "ahead %d, event %d: each root at its hand costs (both events)",
			   ahead, ev);
			ctree_free(t);
			/* kept: the event's values of its roots, in order of id */
			const struct agg_roots *ro = a->roots;
			while (ro && ro->event != ev)
				ro = ro->next;
			int good = ro && ro->have == 1 && ro->n == nwant;
			for (uint32_t i = 0; good && i < ro->n; i++) {
				int j = 0;
				while (j < 4 && (cost_t)ro->ent[i] != want[j][0])
					j++;
				good = j < 4 && ro->val[i] == want[j][ev + 1] &&
				       (i == 0 || ro->ent[i - 1] < ro->ent[i]);
			}
			ok(good, "ahead %d, event %d: %u roots kept, each at that event's part", ahead, ev,
			   nwant);
		}
		int nent = 0;
		for (const struct agg_roots *ro = a->roots; ro; ro = ro->next)
			nent++;
		is(nent, 3, "ahead %d: one entry each for W, Ir and Dr (W asked for twice)", ahead);
		profile_free(&p);
	}
}

/* The roots of event 0 made by the aggregation on its way (agg_roots0:
 * the explorer, whose first t would otherwise find them after the first
 * screen): those of test_roots_partial by hand, main 180 29, x 10 2,
 * <cycle 1> (a, b) 10 2, and the calls into the cycle from outside (main's
 * into a, 100 20: cyc_in); the tree then uses them, finding none again; at
 * one and two threads.  And on a profile of 300 functions with calls at
 * random (cycles, calls to itself, several blocks of one function), every
 * event-0 root, its value and every cycle's calls from outside equal what
 * the tree finds itself (find_roots) in the same profile loaded without. */
static void test_roots_on_the_way(void)
{
	const char *txt = roots_txt;
	for (int jobs = 1; jobs <= 2; jobs++) {
		struct profile p;
		ok(load(&p, txt) == 0, "roots on the way: load: %s", lasterr);
		p.jobs = jobs;
		p.agg_roots0 = 1;
		const struct agg *a = profile_agg(&p);
		const struct agg_roots *ro = a->roots;
		uint32_t cyc = agg_cycle_ent(a, 1);
		const cost_t want[3][2] = { { fn(&p, "main"), 180 }, { fn(&p, "x"), 10 }, { cyc, 10 } };
		int good = ro && ro->event == 0 && ro->have == 1 && !ro->next && ro->n == 3 &&
			   a->ncycles == 1 && ro->cyc_in[0] == 100 && ro->cyc_in[1] == 20;
		for (uint32_t i = 0; good && i < 3; i++) {
			int j = 0;
			while (j < 3 && (cost_t)ro->ent[i] != want[j][0])
				j++;
			good = j < 3 && ro->val[i] == want[j][1];
		}
		ok(good, "%d job(s): event 0's roots made by the aggregation: main 180, x 10, "
			 "<cycle 1> 10; calls into the cycle 100 20", jobs);
		struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0);
		uint32_t found = 0;
		for (uint32_t r = 0; r < t->nroots; r++)
			found += (t->node[r].fn == fn(&p, "main") && t->node[r].cost[0] == 180 &&
				  t->node[r].cost[1] == 29) ||
				 (t->node[r].fn == fn(&p, "x") && t->node[r].cost[0] == 10 &&
				  t->node[r].cost[1] == 2) ||
				 (t->node[r].fn == cyc && t->node[r].cost[0] == 10 && t->node[r].cost[1] == 2);
		ok(t->nroots == 3 && found == 3 && a->roots == ro && !ro->next,
		   "%d job(s): the tree's roots are those, at their hand costs in both events, "
		   "found once", jobs);
		ctree_free(t);
		profile_free(&p);
	}
	/* at random */
	struct text tx = { 0 };
	textf(&tx, "events: Ir Dr\nfl=r.c\n");
	unsigned seed = 12345;
	for (int blk = 0; blk < 420; blk++) {
		seed = seed * 1103515245u + 12345u;
		int f = (int)(seed >> 8) % 300;
		textf(&tx, "fn=f%03d\n%d %u %u\n", f, blk + 1, (seed >> 4) % 50, (seed >> 12) % 7);
		for (int c = 0; c < 3; c++) {
			seed = seed * 1103515245u + 12345u;
			/* itself, forward, or back within its ten: a cycle in
			 * most tens */
			int k = (int)(seed >> 9) % 6;
			int to = k < 2 ? f : k < 5 ? (f + 1 + (int)(seed >> 13) % 4) % 300
					 : f - f % 10 + (int)(seed >> 13) % 10;
			textf(&tx, "cfn=f%03d\ncalls=%u 1\n%d %u %u\n", to, 1 + (seed >> 20) % 3, blk + 1,
			      (seed >> 5) % 400, (seed >> 14) % 30);
		}
	}
	struct profile p0, p1;
	ok(load(&p0, tx.s) == 0 && load(&p1, tx.s) == 0, "random calls: load: %s", lasterr);
	p0.jobs = p1.jobs = 2;
	p1.agg_roots0 = 1;
	const struct agg *a0 = profile_agg(&p0), *a1 = profile_agg(&p1);
	struct ctree *t0 = ctree_new(&p0, 0, NO_ID, 0, 0); /* (find_roots) */
	const struct agg_roots *r0 = a0->roots, *r1 = a1->roots;
	int same = r0 && r1 && r0->have == 1 && r1->have == 1 && r0->n == r1->n &&
		   a0->ncycles == a1->ncycles && a1->ncycles > 0 && r1->n > 0;
	for (uint32_t i = 0; same && i < r0->n; i++)
		same = r0->ent[i] == r1->ent[i] && r0->val[i] == r1->val[i];
	for (size_t i = 0; same && i < (size_t)a0->ncycles * 2; i++)
		same = r0->cyc_in[i] == r1->cyc_in[i];
	ok(same, "random calls: %u roots and the calls into %u cycles, the aggregation's as "
		 "find_roots'", r1 ? r1->n : 0, a1->ncycles);
	ctree_free(t0);
	profile_free(&p0);
	profile_free(&p1);
	free(tx.s);
}

/* A part's total is the run's full cost (format spec 3.1.7.1, "Cost Summary
 * Information": the summary: line "giving the full cost for the profile
 * run", which can be more than the cost lines carry).  Callgrind writes a
 * summary: a few events above its totals: line (the cost lines' sum) and
 * counts the calls' inclusive costs as it counts the summary, so the root
 * reaches the summary: here start's self 1 0 and its call into main 24 3
 * make 25 3, the cost lines add up to 23 2 (start 1 0, main 22 2).  By
 * hand: with the totals: line confirming the sum, the total is the
 * summary, 25 3, and the root is 100% of it, not 108.7% / 150%
 * (callgrind_annotate prints the summary as PROGRAM TOTALS too; main, whose
 * call claims 24 3 of its 22 2, is a root of -2 -1: the file's numbers as
 * they are).  A
 * summary below the sum cannot be the run's full cost: that event keeps the
 * sum.  Without a totals: line, or with one the costs disagree with, the
 * sum and a warning, as before. */
static void test_run_total(void)
{
	static const char body[] = "fl=m.c\nfn=start\n1 1 0\ncfn=main\ncalls=1 1\n2 24 3\n"
				   "fn=main\n3 22 2\n";
	static const struct {
		const char *summary, *totals;
		cost_t ir, i1mr;
		const char *warn; /* the start of the warning after "p.out:N: " */
	} c[] = {
		{ "summary: 25 3\n", "totals: 23 2\n", 25, 3, NULL },
		{ "summary: 25 1\n", "totals: 23 2\n", 25, 2, NULL },
		{ "summary: 20 1\n", "totals: 23 2\n", 23, 2, NULL },
		{ "summary: 25 3\n", "", 23, 2, "summary for Ir is 25 but the costs add up to 23" },
		{ "summary: 25 3\n", "totals: 22 2\n", 23, 2, "totals for Ir is 22 but the costs add up to 23" },
		{ "", "totals: 23 2\n", 23, 2, NULL },
	};
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		char *txt = xasprintf("events: Ir I1mr\n%s%s%s", c[k].summary, body, c[k].totals);
		struct profile p;
		ok(load(&p, txt) == 0, "run total %zu: load: %s", k, lasterr);
		ok(p.totals[0] == c[k].ir && p.totals[1] == c[k].i1mr && p.parts[0].totals[0] == c[k].ir,
		   "run total %zu: total %lld %lld (want %lld %lld)", k, (long long)p.totals[0],
		   (long long)p.totals[1], (long long)c[k].ir, (long long)c[k].i1mr);
		const char *w = p.nwarnings ? strstr(p.warnings[0], ": ") : NULL;
		ok(c[k].warn ? p.nwarnings == 1 && w && !strncmp(w + 2, c[k].warn, strlen(c[k].warn))
			     : p.nwarnings == 0,
		   "run total %zu: %s (%s)", k, c[k].warn ? c[k].warn : "no warning",
		   p.nwarnings ? p.warnings[0] : "none");
		if (k == 0) { /* the roots: start at 25 3, none above the total */
			profile_agg(&p);
			for (int ev = 0; ev < 2; ev++) {
				struct ctree *t = ctree_new(&p, 0, NO_ID, ev, 0);
				int start = 0, above = 0;
				for (uint32_t r = 0; r < t->nroots; r++) {
					start += t->node[r].fn == fn(&p, "start") &&
						 t->node[r].cost[0] == 25 && t->node[r].cost[1] == 3;
					above += t->node[r].cost[ev] > p.totals[ev];
				}
				ok(start == 1 && above == 0,
				   "run total: the root start at 25 3, no root above the total (event %d)",
				   ev);
				ctree_free(t);
			}
		}
		profile_free(&p);
		free(txt);
	}
	/* a difference, the second minus the first (the first read negated):
	 * each side's total its summary, 12 and 22, their difference 10 (the
	 * cost lines' 20 - 10 too); the first side raised in magnitude */
	char *fa = write_tmp("a.out", "events: Ir\nsummary: 12\nfl=a.c\nfn=main\n1 10\ntotals: 10\n", 54);
	char *fb = write_tmp("b.out", "events: Ir\nsummary: 22\nfl=a.c\nfn=main\n1 20\ntotals: 20\n", 54);
	struct load_opts neg = { .sign = -1 }, pos = { .sign = 1 };
	struct profile p;
	profile_init(&p);
	ok(profile_load(&p, fa, &neg, lasterr, sizeof(lasterr)) == 0 &&
	   profile_load(&p, fb, &pos, lasterr, sizeof(lasterr)) == 0, "difference: load: %s", lasterr);
	profile_finish(&p);
	ok(p.nparts == 2 && p.parts[0].totals[0] == -12 && p.parts[1].totals[0] == 22 &&
	   p.totals[0] == 10 && p.nwarnings == 0,
	   "difference: sides -12 and 22, total 10 (got %lld)", (long long)p.totals[0]);
	profile_free(&p);
	free(fa);
	free(fb);
}

static uint32_t child(struct ctree *t, uint32_t n, uint32_t i)
{
	return t->node[n].first + i;
}

static void test_calltree(void)
{
	struct profile p;
	ok(load(&p, spec_example) == 0, "spec example loads");
	uint32_t main_ = fn(&p, "main"), func1 = fn(&p, "func1"), func2 = fn(&p, "func2");
	struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0.1);
	/* roots: main only (func1 and func2 are called) */
	is(t->nroots, 1, "one root");
	is(t->node[0].fn, main_, "the root is main");
	is(t->node[0].cost[0], 820, "root cost: main's inclusive 820");
	is(t->node[0].count, 0, "nobody calls main");
	is(t->nnodes, 1, "nothing grown yet: one node");
	uint32_t rows[16];
	is(ctree_rows(t, rows, NULL, NULL), 1, "one row while closed");
	ok(ctree_set_open(t, 0, 1), "main opens");
	is(t->nnodes, 3, "main's two callees made, nothing deeper");
	/* main -> func1 1x 400 and main -> func2 3x 400: equal, by name */
	uint32_t n1 = child(t, 0, 0), n2 = child(t, 0, 1);
	is(t->node[n1].fn, func1, "first callee func1 (400, name first)");
	is(t->node[n1].count, 1, "main -> func1 once");
	is(t->node[n1].cost[0], 400, "main -> func1 400");
	is(t->node[n2].fn, func2, "second callee func2");
	is(t->node[n2].count, 3, "main -> func2 3 times");
	is(t->node[n2].cost[0], 400, "main -> func2 400");
	is(t->node[n2].depth, 1, "depth 1");
	ok(t->node[n2].flags & CT_LEAF, "func2 calls nothing: a leaf");
	ok(!(t->node[n2].flags & CT_GROWN), "func2 not grown");
	ok(!ctree_grow(t, n2), "a leaf cannot grow");
	ok(ctree_set_open(t, n1, 1), "func1 opens");
	is(t->nnodes, 4, "one node more: func1 -> func2");
	uint32_t n3 = child(t, n1, 0);
	is(t->node[n3].fn, func2, "func1 -> func2");
	is(t->node[n3].count, 2, "twice");
	is(t->node[n3].cost[0], 300, "300");
	is(t->node[n3].depth, 2, "depth 2");
	is(t->node[n3].parent, n1, "parent func1");
	/* display order: main, func1, func1's func2, main's func2 */
	is(ctree_rows(t, rows, NULL, NULL), 4, "four rows");
	ok(rows[0] == 0 && rows[1] == n1 && rows[2] == n3 && rows[3] == n2, "depth first");
	ctree_set_open(t, n1, 0);
	is(ctree_rows(t, rows, NULL, NULL), 3, "func1 closed: three rows");
	is(t->nnodes, 4, "closing keeps what was grown");
	ctree_set_open(t, n1, 1);

	/* threshold 40%: 328 -- func1 -> func2 (300) hidden; 50%: 410 --
	 * both of main's callees (400) hidden */
	struct ctree *t2 = ctree_regrow(t, 0, 40);
	ok((t2->node[0].flags & CT_OPEN) && t2->node[0].nchild == 2, "40%%: main open again, 2 callees");
	uint32_t m1 = child(t2, 0, 0);
	ok((t2->node[m1].flags & CT_OPEN) && t2->node[m1].nchild == 0, "40%%: func1 open, nothing shown");
	is(t2->node[m1].nhidden, 1, "40%%: one callee of func1 under the threshold");
	is(ctree_rows(t2, rows, NULL, NULL), 3, "40%%: three rows");
	struct ctree *t3 = ctree_regrow(t2, 0, 0.1);
	is(ctree_rows(t3, rows, NULL, NULL), 4, "back to 0.1%%: four rows again");
	ctree_free(t3);
	t3 = ctree_regrow(t, 0, 50);
	is(t3->node[0].nchild, 0, "50%%: main's callees all under the threshold");
	is(t3->node[0].nhidden, 2, "50%%: two hidden");
	ctree_free(t3);
	ctree_free(t2);

	ctree_free(t);

	/* bottom-up from func2: callers main 3x 400, func1 2x 300 */
	t = ctree_new(&p, 1, func2, 0, 0.1);
	is(t->nroots, 1, "bottom-up: one root");
	is(t->node[0].fn, func2, "the root is func2");
	is(t->node[0].cost[0], 700, "func2's inclusive 700");
	is(t->node[0].count, 5, "called 3 + 2 times");
	ctree_set_open(t, 0, 1);
	is(t->node[0].nchild, 2, "two callers");
	n1 = child(t, 0, 0);
	n2 = child(t, 0, 1);
	ok(t->node[n1].fn == main_ && t->node[n1].count == 3 && t->node[n1].cost[0] == 400,
	   "main: 3x 400");
	ok(t->node[n2].fn == func1 && t->node[n2].count == 2 && t->node[n2].cost[0] == 300,
	   "func1: 2x 300");
	ok(t->node[n1].flags & CT_LEAF, "nobody calls main: a leaf");
	ok(t->estimated, "bottom-up costs are estimates");
	ctree_set_open(t, n2, 1);
	n3 = child(t, n2, 0);
	/* the 300 of func2's cost that came through func1 came through its
	 * only caller, main: 300, not main's whole call to func1 (400) */
	ok(t->node[n3].fn == main_ && t->node[n3].count == 1 && t->node[n3].cost[0] == 300,
	   "func1's caller main: 1x, 300 of func2's cost");
	ctree_free(t);
	profile_free(&p);
}

static int keep_fn(const struct ctree *t, uint32_t n, void *arg)
{
	return t->node[n].fn == *(uint32_t *)arg;
}

static void test_filter(void)
{
	struct profile p;
	load(&p, spec_example);
	struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0.1);
	ctree_set_open(t, 0, 1);
	ctree_set_open(t, t->node[0].first, 1); /* func1 */
	uint32_t rows[16], want = fn(&p, "func1");
	/* func1 matches: main (its parent) and func1 */
	is(ctree_rows(t, rows, keep_fn, &want), 2, "filter func1: main and func1");
	ok(t->node[rows[1]].fn == want, "func1 listed under main");
	want = fn(&p, "main");
	is(ctree_rows(t, rows, keep_fn, &want), 1, "filter main: main only");
	want = fn(&p, "func2");
	is(ctree_rows(t, rows, keep_fn, &want), 4, "filter func2: both func2 rows and their parents");
	ctree_free(t);
	profile_free(&p);
}

/* grows every node that can grow until none is left; returns the nodes */
static uint32_t grow_all(struct ctree *t)
{
	for (uint32_t n = 0; n < t->nnodes && n < 100000; n++)
		ctree_set_open(t, n, 1);
	return t->nnodes;
}

static void test_recursion(void)
{
	struct profile p;
	ok(load(&p, rec_example) == 0, "recursion example loads");
	const struct agg *a = profile_agg(&p);
	uint32_t main_ = fn(&p, "main"), fa = fn(&p, "a"), fb = fn(&p, "b");
	ok(a->fn_cycle[fa] == 1 && a->fn_cycle[fb] == 1, "a and b are cycle 1");
	uint32_t cyc = agg_cycle_ent(a, 1);
	struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0.1);
	/* main calls into the cycle: main, at 100, is the one root */
	is(t->nroots, 1, "one root");
	ok(t->node[0].fn == main_ && t->node[0].cost[0] == 100, "main, 100");
	/* main -> <cycle 1> via a (1x 90) -> members a (incl 50, called 1x
	 * from outside) and b (40, 0x); a -> b (2x) and b -> a (1x) are calls
	 * inside the cycle: counts, no cost, not grown */
	is(grow_all(t), 6, "everything grown: 6 nodes, the tree stops");
	uint32_t nc = child(t, 0, 0);
	ok(t->node[nc].fn == cyc && t->node[nc].via == fa && t->node[nc].count == 1 &&
	   t->node[nc].cost[0] == 90, "<cycle 1> via a, 1x 90");
	uint32_t na = child(t, nc, 0), nb = child(t, nc, 1);
	ok(t->node[na].fn == fa && t->node[na].kind == CALL_MEMBER && t->node[na].count == 1 &&
	   t->node[na].cost[0] == 50, "member a: 1x, 50");
	ok(t->node[nb].fn == fb && t->node[nb].count == 0 && t->node[nb].cost[0] == 40,
	   "member b: 40");
	uint32_t nab = child(t, na, 0), nba = child(t, nb, 0);
	ok(t->node[nab].fn == fb && t->node[nab].kind == CALL_IN_CYCLE && t->node[nab].count == 2 &&
	   !t->node[nab].cost, "a -> b: 2x, in the cycle, no cost");
	ok(t->node[nba].fn == fa && t->node[nba].count == 1 && !t->node[nba].cost, "b -> a: 1x, no cost");
	ok(!ctree_set_open(t, nab, 1), "a call inside the cycle does not open");
	uint32_t rows[16];
	is(ctree_rows(t, rows, NULL, NULL), 6, "six rows");
	ctree_free(t);

	/* bottom-up from b (40): its cost comes through its cycle (40), and a
	 * calls it inside the cycle (2x, no cost); the cycle's only caller
	 * from outside is main (via a), which brought all 40 */
	t = ctree_new(&p, 1, fb, 0, 0.1);
	is(t->node[0].cost[0], 40, "b's inclusive: self 40 (no call leaves the cycle)");
	is(grow_all(t), 4, "bottom-up: b, <cycle 1>, a, main -- and stops");
	nc = child(t, 0, 0);
	ok(t->node[nc].fn == cyc && t->node[nc].cost[0] == 40, "b's caller: its cycle, 40");
	na = child(t, 0, 1);
	ok(t->node[na].fn == fa && t->node[na].kind == CALL_IN_CYCLE && t->node[na].count == 2 &&
	   !t->node[na].cost, "then a, 2x inside the cycle");
	uint32_t nm = child(t, nc, 0);
	ok(t->node[nm].fn == main_ && t->node[nm].via == fa && t->node[nm].cost[0] == 40,
	   "the cycle's caller: main via a, 40");
	ctree_free(t);
	profile_free(&p);

	/* direct recursion: main -> f, f -> f */
	ok(load(&p, "events: Ir\nfl=m.c\nfn=main\n1 1\ncfn=f\ncalls=1 1\n1 30\n"
		    "fn=f\n1 30\ncfn=f\ncalls=2 1\n1 50\n") == 0,
	   "direct recursion loads");
	t = ctree_new(&p, 0, NO_ID, 0, 0.1);
	is(t->nroots, 1, "f calls itself but main calls it: main is the one root");
	is(grow_all(t), 3, "main, f, f (recursive)");
	ok(t->node[2].fn == fn(&p, "f") && (t->node[2].flags & CT_RECURSIVE), "f under f: marked");
	ctree_free(t);
	profile_free(&p);

	/* a cycle nobody else calls: both of its functions are roots; a
	 * function only it calls itself is a root */
	ok(load(&p, "events: Ir\nfl=m.c\nfn=a\n1 5\ncfn=b\ncalls=1 1\n1 7\n"
		    "fn=b\n1 7\ncfn=a\ncalls=1 1\n1 3\n"
		    "fn=g\n1 2\ncfn=g\ncalls=1 1\n1 2\n") == 0,
	   "uncalled cycle loads");
	t = ctree_new(&p, 0, NO_ID, 0, 0);
	/* no call reaches the cycle (5 + 7) nor g (2: its call to itself is
	 * inside its own cost) */
	is(t->nroots, 2, "roots: the cycle and g");
	ok(t->node[0].fn == agg_cycle_ent(profile_agg(&p), 1) && t->node[0].cost[0] == 12 &&
	   t->node[1].fn == fn(&p, "g") && t->node[1].cost[0] == 2,
	   "ordered by cost: <cycle 1> 12, g 2");
	ctree_free(t);
	profile_free(&p);
}

/* node n's child for entity e (called via `via`, NO_ID: any), NO_ID if none */
static uint32_t child_of(const struct ctree *t, uint32_t n, uint32_t e, uint32_t via)
{
	for (uint32_t c = t->node[n].first; c < t->node[n].first + t->node[n].nchild; c++)
		if (t->node[c].fn == e && (via == NO_ID || t->node[c].via == via))
			return c;
	return NO_ID;
}

/* The numbers add up, whatever the profile: every node grown, no child above
 * its parent and a node's children (those with a cost) together not above
 * it.  Returns the nodes that break it (0). */
static int ct_contradictions(struct ctree *t)
{
	int bad = 0;
	grow_all(t);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		const struct ctree_node *nd = &t->node[n];
		if (!nd->cost || !(nd->flags & CT_GROWN))
			continue;
		cost_t sum = 0;
		for (uint32_t c = nd->first; c < nd->first + nd->nchild; c++) {
			const cost_t *cc = t->node[c].cost;
			if (!cc)
				continue;
			if (cc[0] > nd->cost[0]) {
				printf("#   node %u (%s) %lld above its parent %u's %lld\n", c,
				       t->node[c].fn < t->p->nfns ? fn_name(t->p, t->node[c].fn) : "<cycle>",
				       (long long)cc[0], n, (long long)nd->cost[0]);
				bad++;
			}
			sum += cc[0];
		}
		if (sum > nd->cost[0]) {
			printf("#   node %u: children %lld above its %lld\n", n, (long long)sum,
			       (long long)nd->cost[0]);
			bad++;
		}
	}
	return bad;
}

/* The top-down tree's shares (tree.h): a node's cost split among its
 * callees in proportion to the costs of their edges over the entity's
 * inclusive cost, counts the edges'.  All by hand. */
static void test_shares(void)
{
	struct profile p;
	/* main -> A (1x 11), main -> B (1x 91), A -> f (1x 10), B -> f (9x
	 * 90), f -> g (10x 95).  Self: main 1, A 1, B 1, f 5, g 95: total
	 * 103.  Inclusive: g 95, f 5 + 95 = 100 (= its calls 10 + 90), A 1 +
	 * 10 = 11, B 1 + 90 = 91, main 1 + 11 + 91 = 103: every call's cost is
	 * its callee's share, the file consistent. */
	ok(load(&p, "events: Ir\nfl=m.c\nfn=main\n1 1\ncfn=A\ncalls=1 1\n2 11\n"
		    "cfn=B\ncalls=1 1\n3 91\nfn=A\n4 1\ncfn=f\ncalls=1 1\n5 10\n"
		    "fn=B\n6 1\ncfn=f\ncalls=9 1\n7 90\nfn=f\n8 5\ncfn=g\ncalls=10 1\n9 95\n"
		    "fn=g\n10 95\n") == 0,
	   "shares example loads: %s", lasterr);
	uint32_t A = fn(&p, "A"), B = fn(&p, "B"), f = fn(&p, "f"), g = fn(&p, "g");
	struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0);
	ok(t->estimated, "top-down, detection on: estimated");
	is(t->nroots, 1, "one root");
	is(t->node[0].cost[0], 103, "main keeps its root cost 103");
	ok(ctree_grow(t, 0) && t->node[0].nchild == 2, "main: two callees");
	/* main is at its whole inclusive cost: its callees at their edges' */
	uint32_t nb = child(t, 0, 0), na = child(t, 0, 1);
	ok(t->node[nb].fn == B && t->node[nb].cost[0] == 91 && t->node[nb].count == 1, "B first: 1x 91");
	ok(t->node[na].fn == A && t->node[na].cost[0] == 11, "then A: 11");
	/* B (91 of its 91): f at its edge's 90, 9x */
	ok(ctree_grow(t, nb) && t->node[nb].nchild == 1, "B: one callee");
	uint32_t nbf = child(t, nb, 0);
	ok(t->node[nbf].fn == f && t->node[nbf].cost[0] == 90 && t->node[nbf].count == 9, "B > f: 9x 90");
	/* f there (90 of its 100): g 90 * 95/100 = 85.5 -> 86 (not the edge's
	 * 95, above f's 90), the edge's count 10x; f's self share 90 * 5/100
	 * = 4.5, the running sums 86 and 90 * 100/100 = 90: 4, 86 + 4 = 90 */
	ok(ctree_grow(t, nbf) && t->node[nbf].nchild == 1, "B > f: one callee");
	uint32_t nbfg = child(t, nbf, 0);
	ok(t->node[nbfg].fn == g && t->node[nbfg].count == 10, "B > f > g: the edge's 10x");
	is(t->node[nbfg].cost[0], 86, "B > f > g: 90 * 95/100 = 85.5 -> 86");
	/* A (11 of 11) > f 10 of its 100 > g 10 * 95/100 = 9.5 -> 10 */
	ok(ctree_grow(t, na) && ctree_grow(t, child(t, na, 0)), "A > f grown");
	uint32_t naf = child(t, na, 0), nafg = child(t, naf, 0);
	ok(t->node[naf].fn == f && t->node[naf].cost[0] == 10 && t->node[naf].count == 1, "A > f: 1x 10");
	ok(t->node[nafg].fn == g && t->node[nafg].cost[0] == 10 && t->node[nafg].count == 10,
	   "A > f > g: 10x, 10 * 95/100 = 9.5 -> 10");
	is(ct_contradictions(t), 0, "no child above its parent, the children within it");
	ctree_free(t);
	/* with detection off, as before: the edges' whole costs (g 95 under
	 * B > f 90), not estimated */
	profile_set_cycles(&p, 0);
	t = ctree_new(&p, 0, NO_ID, 0, 0);
	ok(!t->estimated, "detection off: not estimated");
	ctree_set_open(t, 0, 1);
	ctree_set_open(t, child(t, 0, 0), 1);
	ctree_set_open(t, child(t, child(t, 0, 0), 0), 1);
	is(t->node[child(t, child(t, child(t, 0, 0), 0), 0)].cost[0], 95, "detection off: B > f > g 95");
	ctree_free(t);
	profile_free(&p);

	/* direct recursion: main -> f (1x 40), main -> h (1x 21), h -> f (1x
	 * 20), f -> f (3x 30: inside f's own cost), f -> g (4x 50).  Self:
	 * main 1, h 1, f 10, g 50: total 62.  Inclusive (detection on: self
	 * and the calls leaving): g 50, f 10 + 50 = 60 (= 40 + 20 called), h
	 * 1 + 20 = 21, main 1 + 40 + 21 = 62. */
	ok(load(&p, "events: Ir\nfl=m.c\nfn=main\n1 1\ncfn=f\ncalls=1 1\n2 40\n"
		    "cfn=h\ncalls=1 1\n3 21\nfn=h\n4 1\ncfn=f\ncalls=1 1\n5 20\n"
		    "fn=f\n6 10\ncfn=f\ncalls=3 6\n7 30\ncfn=g\ncalls=4 1\n8 50\n"
		    "fn=g\n9 50\n") == 0,
	   "direct recursion loads: %s", lasterr);
	f = fn(&p, "f"), g = fn(&p, "g");
	uint32_t h = fn(&p, "h");
	t = ctree_new(&p, 0, NO_ID, 0, 0);
	is(ct_contradictions(t), 0, "recursion: the numbers add up");
	uint32_t nf = child_of(t, 0, f, NO_ID), nh = child_of(t, 0, h, NO_ID);
	ok(nf != NO_ID && nh != NO_ID && t->node[nf].cost[0] == 40 && t->node[nh].cost[0] == 21,
	   "main > f 40, main > h 21");
	/* f 40 of its 60: g 40 * 50/60 = 33.3 -> 33 (not 50), 4x; f -> f 3x
	 * without a cost */
	uint32_t nfg = child_of(t, nf, g, NO_ID), nff = child_of(t, nf, f, NO_ID);
	ok(nfg != NO_ID && t->node[nfg].cost[0] == 33 && t->node[nfg].count == 4,
	   "main > f > g: 4x, 40 * 50/60 = 33.3 -> 33");
	ok(nff != NO_ID && !t->node[nff].cost && t->node[nff].count == 3, "main > f > f: 3x, no cost");
	/* h 21 of 21 > f 20 (its edge's) of 60 > g 20 * 50/60 = 16.7 -> 17 */
	uint32_t nhf = child_of(t, nh, f, NO_ID), nhfg = nhf == NO_ID ? NO_ID : child_of(t, nhf, g, NO_ID);
	ok(nhf != NO_ID && t->node[nhf].cost[0] == 20, "main > h > f: 20");
	ok(nhfg != NO_ID && t->node[nhfg].cost[0] == 17, "main > h > f > g: 20 * 50/60 = 16.7 -> 17");
	ctree_free(t);
	profile_free(&p);

	/* mutual recursion, a cycle reached from two callers: main -> p (1x
	 * 61), main -> q (1x 41), p -> a (1x 60), q -> b (1x 40), a -> b (2x
	 * 50) and b -> a (1x 20) inside <cycle 1> {a, b}, a -> s (1x 30), b
	 * -> s (2x 40).  Self: main 1, p 1, q 1, a 10, b 20, s 70: total 103.
	 * Inclusive (detection on): s 70, a 10 + 30 = 40, b 20 + 40 = 60,
	 * <cycle 1> 30 + 70 = 100 (= 60 + 40 called from outside), p 61, q
	 * 41, main 103. */
	ok(load(&p, "events: Ir\nfl=m.c\nfn=main\n1 1\ncfn=p\ncalls=1 1\n2 61\n"
		    "cfn=q\ncalls=1 1\n3 41\nfn=p\n4 1\ncfn=a\ncalls=1 1\n5 60\n"
		    "fn=q\n6 1\ncfn=b\ncalls=1 1\n7 40\n"
		    "fn=a\n8 10\ncfn=b\ncalls=2 1\n9 50\ncfn=s\ncalls=1 1\n10 30\n"
		    "fn=b\n11 20\ncfn=a\ncalls=1 1\n12 20\ncfn=s\ncalls=2 1\n13 40\n"
		    "fn=s\n14 70\n") == 0,
	   "a cycle loads: %s", lasterr);
	const struct agg *ag = profile_agg(&p);
	uint32_t a = fn(&p, "a"), b = fn(&p, "b"), s = fn(&p, "s"), cyc = agg_cycle_ent(ag, 1);
	ok(ag->fn_cycle[a] == 1 && ag->fn_cycle[b] == 1, "a and b: <cycle 1>");
	t = ctree_new(&p, 0, NO_ID, 0, 0);
	is(ct_contradictions(t), 0, "a cycle: the numbers add up");
	uint32_t fp = fn(&p, "p"), fq = fn(&p, "q");
	/* main > p 61 and main > q 41 (main's whole 103: the edges').  p >
	 * <cycle 1> via a: 60 (p's whole); its members by their shares of its
	 * 100: a 60 * 40/100 = 24, b 60 * 60/100 = 36 (not 40 and 60, together
	 * above 60); the members' callees by their shares of the member's
	 * inclusive cost: a 24 > s 24 * 30/40 = 18 (1x), b 36 > s 36 * 40/60 =
	 * 24 (2x).  q > <cycle 1> via b: 40; b 40 * 60/100 = 24 > s 24 * 40/60
	 * = 16; a 40 * 40/100 = 16 > s 16 * 30/40 = 12.  The four paths of s:
	 * 18 + 24 + 16 + 12 = 70, its inclusive cost. */
	const struct {
		const char *what;
		uint32_t path[4];
		int len;
		cost_t cost, count;
	} want[] = {
		{ "main > p", { fp }, 1, 61, 1 },
		{ "main > q", { fq }, 1, 41, 1 },
		{ "p > <cycle 1>", { fp, cyc }, 2, 60, 1 },
		{ "p > <cycle 1> > a", { fp, cyc, a }, 3, 24, 1 },
		{ "p > <cycle 1> > b", { fp, cyc, b }, 3, 36, 1 },
		{ "p > <cycle 1> > a > s", { fp, cyc, a, s }, 4, 18, 1 },
		{ "p > <cycle 1> > b > s", { fp, cyc, b, s }, 4, 24, 2 },
		{ "q > <cycle 1>", { fq, cyc }, 2, 40, 1 },
		{ "q > <cycle 1> > b", { fq, cyc, b }, 3, 24, 1 },
		{ "q > <cycle 1> > a", { fq, cyc, a }, 3, 16, 1 },
		{ "q > <cycle 1> > b > s", { fq, cyc, b, s }, 4, 16, 2 },
		{ "q > <cycle 1> > a > s", { fq, cyc, a, s }, 4, 12, 1 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint32_t n = 0;
		for (int k = 0; k < want[i].len && n != NO_ID; k++)
			n = child_of(t, n, want[i].path[k], NO_ID);
		ok(n != NO_ID && t->node[n].cost[0] == want[i].cost && t->node[n].count == want[i].count,
		   "main > %s: %lldx, %lld", want[i].what, (long long)want[i].count,
		   (long long)want[i].cost);
	}
	ctree_free(t);
	profile_free(&p);
}

/* Loads `text` with `ctx` as the contexts file beside it. */
static int load_with_ctx(struct profile *p, const char *text, const char *ctx)
{
	if (load(p, text))
		return -1;
	char *path = xasprintf("%s.ctx", p->sources[0]);
	FILE *f = fopen(path, "w");
	fputs(ctx, f);
	fclose(f);
	free(path);
	return 0;
}

static void drop_ctx(struct profile *p)
{
	char *path = xasprintf("%s.ctx", p->sources[0]);
	unlink(path);
	free(path);
}

/* The top-down tree from recorded paths (ctree_recorded): exact. */
static void test_recorded_paths(void)
{
	struct profile p;
	/* main calls a (60) and b (40); a (self 30) calls c (30), b (self 30)
	 * calls c (10); c (self 20) calls d (20, self 20): total 100.  As
	 * recorded, d ran only under a;c: the paths' self costs main 0, a 30,
	 * a;c 10, a;c;d 20, b 30, b;c 10.  Inclusive: a;c;d 20, a;c 10 + 20 =
	 * 30, a 30 + 30 = 60, b;c 10, b 40, main 100.  (From the edges alone
	 * d's 20 would be split by c's calls, 30 : 10: 15 under a;c, 5 under
	 * b;c.) */
	static const char two[] = "events: Ir\nfl=x.c\nfn=main\n1 0\ncfn=a\ncalls=1 2\n1 60\n"
				  "cfn=b\ncalls=1 3\n1 40\nfn=a\n2 30\ncfn=c\ncalls=1 4\n2 30\n"
				  "fn=b\n3 30\ncfn=c\ncalls=1 4\n3 10\nfn=c\n4 20\ncfn=d\ncalls=1 5\n4 20\n"
				  "fn=d\n5 20\n";
	static const char two_ctx[] = "cgtui-contexts\t1\nevents:\tIr\n"
				      "fn:\t0\t\tx.c\tmain\nfn:\t1\t\tx.c\ta\nfn:\t2\t\tx.c\tb\n"
				      "fn:\t3\t\tx.c\tc\nfn:\t4\t\tx.c\td\n"
				      "ctx:\t0\t-1\t0\t0\t1\t0\t0\nctx:\t1\t0\t1\t1\t1\t0\t30\n"
				      "ctx:\t2\t1\t3\t1\t1\t0\t10\nctx:\t3\t2\t4\t1\t1\t0\t20\n"
				      "ctx:\t4\t0\t2\t1\t1\t0\t30\nctx:\t5\t4\t3\t1\t1\t0\t10\n";
	ok(load(&p, two) == 0, "two paths load: %s", lasterr);
	ok(!ctree_recorded(&p, 0, NO_ID, 0, 0), "no contexts file: no tree of recorded paths");
	profile_free(&p);
	ok(load_with_ctx(&p, two, two_ctx) == 0, "two paths with their contexts: %s", lasterr);
	uint32_t a = fn(&p, "a"), b = fn(&p, "b"), c = fn(&p, "c"), d = fn(&p, "d");
	struct ctree *t = ctree_recorded(&p, 0, NO_ID, 0, 0);
	ok(t && !t->estimated && t->ctx, "recorded: exact");
	if (!t) {
		drop_ctx(&p);
		profile_free(&p);
		return;
	}
	is(t->nroots, 1, "one root");
	is(t->node[0].cost[0], 100, "main 100");
	is(grow_all(t), 6, "six nodes, one a path");
	uint32_t na = child_of(t, 0, a, NO_ID), nb = child_of(t, 0, b, NO_ID);
	ok(na != NO_ID && t->node[na].cost[0] == 60 && t->node[na].count == 1, "main > a: 1x 60");
	ok(nb != NO_ID && t->node[nb].cost[0] == 40, "main > b: 40");
	uint32_t nac = child_of(t, na, c, NO_ID), nbc = child_of(t, nb, c, NO_ID);
	ok(nac != NO_ID && t->node[nac].cost[0] == 30, "main > a > c: 30");
	ok(nbc != NO_ID && t->node[nbc].cost[0] == 10 && (t->node[nbc].flags & CT_LEAF),
	   "main > b > c: 10, nothing below it");
	uint32_t nacd = child_of(t, nac, d, NO_ID);
	ok(nacd != NO_ID && t->node[nacd].cost[0] == 20 && t->node[nacd].count == 1,
	   "main > a > c > d: 1x 20 (estimated: 15)");
	is(ct_contradictions(t), 0, "recorded: the numbers add up");
	/* another threshold: the same paths, regrown from the same contexts
	 * (30% of 100: c under b (10) and d (20) hidden) */
	ctree_set_open(t, 0, 1);
	ctree_set_open(t, na, 1);
	struct ctree *t2 = ctree_regrow(t, 0, 30);
	ctree_free(t);
	ok(t2->ctx && t2->nroots == 1 && t2->node[0].nchild == 2, "30%%: main's a and b");
	uint32_t ma = child_of(t2, 0, a, NO_ID);
	ok(ma != NO_ID && (t2->node[ma].flags & CT_OPEN) && t2->node[ma].nchild == 1 &&
		   t2->node[t2->node[ma].first].cost[0] == 30,
	   "30%%: a open again, its c 30");
	ctree_free(t2);
	/* bottom-up, the callers of d along the recorded paths: d 20 under
	 * c, c under a, a under main, each 20 and d's one call through it; b
	 * never led to d (estimated from the edges: a 15, b 5) */
	t = ctree_recorded(&p, 1, d, 0, 0);
	ok(t && t->callers && t->fn == d && !t->estimated && t->ctx, "callers recorded: exact");
	if (t) {
		is(t->nroots, 1, "callers: one root");
		ok(t->node[0].fn == d && t->node[0].cost[0] == 20 && t->node[0].count == 1, "d 1x 20");
		is(grow_all(t), 4, "callers: d, c, a, main");
		uint32_t dc = child_of(t, 0, c, NO_ID);
		uint32_t dca = dc == NO_ID ? NO_ID : child_of(t, dc, a, NO_ID);
		ok(dc != NO_ID && t->node[dc].cost[0] == 20 && t->node[0].nchild == 1, "d < c: 20, alone");
		ok(dca != NO_ID && t->node[dca].cost[0] == 20 && t->node[dca].count == 1 &&
			   child_of(t, dc, b, NO_ID) == NO_ID,
		   "d < c < a: 1x 20, no b");
		/* regrown at 30%: the same callers, from the same paths */
		t2 = ctree_regrow(t, 0, 30);
		ctree_free(t);
		ok(t2->ctx && t2->callers && t2->fn == d && t2->node[0].cost[0] == 20,
		   "callers regrown: still recorded, d 20");
		ctree_free(t2);
	}
	drop_ctx(&p);
	profile_free(&p);

	/* two parts (dumps), main -> a in each: part 1 main self 1, a 1x 10;
	 * part 2 main self 2, a 2x 20.  Recorded per part; the tree has their
	 * paths together: main 1 + 10 + 2 + 20 = 33, its a 3x 30. */
	ok(load_with_ctx(&p, "events: Ir\npart: 1\nfl=x.c\nfn=main\n1 1\ncfn=a\ncalls=1 2\n1 10\n"
			     "fn=a\n2 10\npart: 2\nfl=x.c\nfn=main\n1 2\ncfn=a\ncalls=2 2\n1 20\n"
			     "fn=a\n2 20\n",
			 "cgtui-contexts\t1\nevents:\tIr\nfn:\t0\t\tx.c\tmain\nfn:\t1\t\tx.c\ta\n"
			 "part:\t1\nctx:\t0\t-1\t0\t0\t1\t0\t1\nctx:\t1\t0\t1\t1\t1\t0\t10\n"
			 "part:\t2\nctx:\t2\t-1\t0\t0\t1\t0\t2\nctx:\t3\t2\t1\t2\t1\t0\t20\n") == 0,
	   "two parts with their contexts: %s", lasterr);
	t = ctree_recorded(&p, 0, NO_ID, 0, 0);
	ok(t && t->nroots == 1 && t->node[0].fn == fn(&p, "main") && t->node[0].cost[0] == 33,
	   "the parts' roots together: main 33");
	ok(t && ctree_grow(t, 0) && t->node[0].nchild == 1 && t->node[1].cost[0] == 30 &&
		   t->node[1].count == 3,
	   "main > a: 3x 30");
	ctree_free(t);
	drop_ctx(&p);
	profile_free(&p);
}

static const cost_t *key_incl_of(const struct profile *p, uint32_t f, void *arg)
{
	(void)arg;
	return agg_incl(p->agg, f);
}

/* A difference's costs are negative and positive: roots and children are
 * ordered by magnitude, as the functions view, the groups and the report
 * order them (a big decrease before a small increase). */
static void test_diff_order(void)
{
	struct profile p;
	ok(load(&p, "events: Ir\nfl=a.c\nfn=main\n1 100\ncfn=fb\ncalls=1 2\n1 -9000\n"
		    "cfn=fc\ncalls=1 3\n1 500\nfn=fb\n2 -9000\nfn=fc\n3 500\nfn=z\n4 200\n") == 0,
	   "difference loads");
	/* inclusive: main 100 - 9000 + 500 = -8400, z 200 */
	struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0.1);
	is(t->nroots, 2, "roots: main and z");
	ok(t->node[0].fn == fn(&p, "main") && t->node[1].fn == fn(&p, "z"),
	   "main (-8,400) before z (200)");
	ok(ctree_set_open(t, 0, 1), "main opens");
	ok(t->node[0].nchild == 2 && t->node[child(t, 0, 0)].fn == fn(&p, "fb") &&
	   t->node[child(t, 0, 1)].fn == fn(&p, "fc"),
	   "main's callees: fb (-9,000) before fc (500)");
	ctree_free(t);
	/* the same order in the functions list */
	uint32_t fns[4] = { fn(&p, "fc"), fn(&p, "z"), fn(&p, "main"), fn(&p, "fb") };
	query_sort_fns(&p, fns, 4, key_incl_of, NULL, 0);
	ok(fns[0] == fn(&p, "fb") && fns[1] == fn(&p, "main") && fns[2] == fn(&p, "fc") &&
	   fns[3] == fn(&p, "z"),
	   "functions by inclusive: fb -9,000, main -8,400, fc 500, z 200");
	profile_free(&p);
}

/* Threads (two parts of one file): the main thread's main (self 10)
 * calls wrap (1x 5), wrap (self 1) calls clone (1x 4: its parent side,
 * self 4); the thread's clone (self 2) is its root and calls start (1x
 * 100), start (self 10) calls t1 (1x 90, self 90).  Totals: 15 + 102 =
 * 117.  clone's inclusive 106 (self 6, calls 100), of which wrap's call
 * reaches 4: its root 102, main's 15.  The calls into clone (4) are its
 * self's (6 covers them): start is at its edge's 100 under it, not
 * 102 * 100/106 = 96, and t1, called once, at its 90 (not 96 * 90/100 =
 * 86), as every other view says. */
static void test_thread_root(void)
{
	struct profile p;
	ok(load(&p, "events: Ir\npart: 1\nfl=x.c\nfn=main\n1 10\ncfn=wrap\ncalls=1 2\n1 5\n"
		    "fn=wrap\n2 1\ncfn=clone\ncalls=1 3\n2 4\nfn=clone\n3 4\n"
		    "part: 2\nfl=x.c\nfn=clone\n3 2\ncfn=start\ncalls=1 4\n3 100\n"
		    "fn=start\n4 10\ncfn=t1\ncalls=1 5\n4 90\nfn=t1\n5 90\n") == 0,
	   "threads example loads: %s", lasterr);
	is(p.nparts, 2, "two parts");
	struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0);
	ok(t->estimated && t->nroots == 2, "estimated, two roots");
	ok(t->node[0].fn == fn(&p, "clone") && t->node[0].cost[0] == 102, "clone's root: 106 - 4 = 102");
	ok(t->node[1].fn == fn(&p, "main") && t->node[1].cost[0] == 15, "main's: 15");
	ok(ctree_grow(t, 0) && t->node[0].nchild == 1, "clone: one callee");
	uint32_t ns = child(t, 0, 0);
	ok(t->node[ns].fn == fn(&p, "start"), "clone > start");
	is(t->node[ns].cost[0], 100, "clone > start: its edge's 100");
	ok(ctree_grow(t, ns) && t->node[ns].nchild == 1, "start: one callee");
	is(t->node[child(t, ns, 0)].cost[0], 90, "clone > start > t1: 90, its inclusive");
	ctree_free(t);
	profile_free(&p);
}

int main(void)
{
	if (fixture_start() < 0)
		return 99;
	test_filefn(0);
	test_filefn(1);
	test_ahead_rule();
	test_hold();
	test_pairs_stopped();
	test_group_hidden();
	test_share();
	test_members_estimated();
	test_members_blocks();
	test_calltree();
	test_roots_partial();
	test_roots_event();
	test_run_total();
	test_roots_on_the_way();
	test_filter();
	test_recursion();
	test_diff_order();
	test_shares();
	test_recorded_paths();
	test_thread_root();
	fixture_end();
	return tap_done();
}
