/* test-context.c -- unit tests of calling-context trees (src/profile/context.c):
 * the estimate from call edges (shares, the bound, recursion folded), trees
 * made node by node as the recorder's are, the callers tree and folded
 * stacks.  Every expected number is computed by hand from the call edges,
 * as the comment beside it shows.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/aggregate.h"
#include "profile/context.h"
#include "profile/load.h"
#include "profile/model.h"
#include "fixture.h"
#include "tap.h"

/* The folded stacks of t (event 0, every part) as a string. */
static char *folded(struct cctx *t, int part)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cctx_folded(t, part, 0, f);
	fclose(f);
	return buf;
}

/* The child of node n for entity fn, NO_ID if none. */
static uint32_t kid(const struct cctx *t, uint32_t n, uint32_t fn)
{
	for (uint32_t k = 0; k < t->node[n].nchild; k++)
		if (t->node[t->kid[t->node[n].first + k]].fn == fn)
			return t->kid[t->node[n].first + k];
	return NO_ID;
}

/* Writes text as the contexts file beside p's first file; returns its
 * path (free it). */
static char *put_ctx(const struct profile *p, const char *text)
{
	char *path = xasprintf("%s.ctx", p->sources[0]);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

/* The spec's example: main self 20 calls func1 (400) and func2 3x (400);
 * func1 self 100 calls func2 2x (300); func2 self 700. */
static void test_estimate_spec(void)
{
	struct profile p;
	ok(load(&p, spec_example) == 0, "spec example loads: %s", lasterr);
	uint32_t main_ = fn(&p, "main"), func1 = fn(&p, "func1"), func2 = fn(&p, "func2");
	struct cctx *t = cctx_estimate(&p, 0, 0, 0);
	ok(t->estimated, "made from call edges: estimated");
	is(t->nroots, 1, "one root");
	uint32_t m = t->root[0];
	is(t->node[m].fn, main_, "the root is main");
	is(cctx_incl(t, m)[0], 820, "main's path: everything, 820");
	is(cctx_self(t, m)[0], 20, "main's self 20");
	uint32_t f1 = kid(t, m, func1), f2 = kid(t, m, func2);
	ok(f1 != NO_ID && f2 != NO_ID, "main's children func1 and func2");
	/* main -> func1: 820 * 400/820 = 400; func1 -> func2 on it:
	 * 400 * 300/400 = 300; func1's self there 400 - 300 = 100 */
	is(cctx_incl(t, f1)[0], 400, "main;func1 400");
	is(cctx_self(t, f1)[0], 100, "main;func1 self 100");
	is(t->node[f1].count, 1, "main -> func1: 1 call");
	uint32_t f12 = kid(t, f1, func2);
	is(cctx_self(t, f12)[0], 300, "main;func1;func2 300");
	is(t->node[f12].depth, 2, "at depth 2");
	is(cctx_self(t, f2)[0], 400, "main;func2 400");
	is(t->node[f2].count, 3, "main -> func2: 3 calls");
	/* rank order: func1 and func2 both 400, then by name */
	char *s = folded(t, -1);
	is_str(s, "main 20\nmain;func1 100\nmain;func1;func2 300\nmain;func2 400\n",
	       "folded stacks, each path's self cost");
	free(s);

	/* callers of func2: 700 = 400 from main + 300 through func1 */
	struct cctx *c = cctx_callers(t, func2, -1);
	is(c->nroots, 1, "callers: one root");
	is(cctx_incl(c, c->root[0])[0], 700, "func2 700 in all");
	is(c->node[c->root[0]].count, 5, "called 3 + 2 times");
	uint32_t cm = kid(c, c->root[0], main_), cf = kid(c, c->root[0], func1);
	is(cctx_incl(c, cm)[0], 400, "func2 via main directly: 400");
	is(cctx_incl(c, cf)[0], 300, "func2 via func1: 300");
	is(cctx_self(c, cf)[0], 0, "func1 is no root: nothing starts there");
	uint32_t cfm = kid(c, cf, main_);
	is(cctx_incl(c, cfm)[0], 300, "func2 via main;func1: 300");
	is(c->node[cfm].depth, 2, "main is two callers up");
	cctx_free(c);
	cctx_free(t);

	/* the bound: three nodes.  main grown (its two children make three);
	 * then func1 (400, made first) is not grown: cut, its callee's 300
	 * in its self; func2 is a leaf, nothing cut */
	t = cctx_estimate(&p, 0, 0, 3);
	is(t->n, 3, "bound 3: three nodes");
	f1 = kid(t, t->root[0], func1);
	is(cctx_self(t, f1)[0], 400, "main;func1 keeps func2's 300");
	ok(t->node[f1].flags & CC_CUT, "main;func1 is cut");
	ok(!(t->node[kid(t, t->root[0], func2)].flags & CC_CUT), "main;func2 is a leaf, not cut");
	is(t->cut[0], 400, "400 on cut paths");
	s = folded(t, -1);
	is_str(s, "main 20\nmain;func1 400\nmain;func2 400\n", "folded stacks: still 820 in all");
	free(s);
	cctx_free(t);
	profile_free(&p);
}

/* The bound counts the roots: a Cachegrind file's functions are all roots.
 * Five functions, 150 in all; at three nodes the three largest are kept
 * (a 50, b 40, c 30) and d 20 and e 10 are left out: 30 in no node. */
static const char five_roots[] = "events: Ir\n"
				 "fl=x.c\nfn=e\n1 10\nfn=b\n2 40\nfn=a\n3 50\nfn=d\n4 20\nfn=c\n5 30\n";
/* main (self 10) calls a (self 100); b (5) and c (3) are roots of their
 * own: 118 in all.  At two nodes main and main;a are made, b and c left
 * out, 8. */
static const char small_roots[] = "events: Ir\n"
				  "fl=x.c\nfn=main\n1 10\ncfn=a\ncalls=1 2\n1 100\nfn=a\n2 100\n"
				  "fn=b\n3 5\nfn=c\n4 3\n";

/* The sum of the folded stacks' numbers. */
static long long folded_sum(const char *s)
{
	long long sum = 0;
	for (const char *l = s; l && *l;) {
		const char *nl = strchr(l, '\n'), *sp = NULL;
		for (const char *c = l; c < nl; c++)
			if (*c == ' ')
				sp = c;
		if (sp)
			sum += atoll(sp + 1);
		l = nl + 1;
	}
	return sum;
}

static void test_estimate_roots_bound(void)
{
	struct profile p;
	ok(load(&p, five_roots) == 0, "five roots load: %s", lasterr);
	struct cctx *t = cctx_estimate(&p, 0, 0, 0);
	is(t->nroots, 5, "no bound reached: every root kept");
	is(t->nleft, 0, "none left out");
	char *s = folded(t, -1);
	is(folded_sum(s), 150, "the stacks add up to 150");
	free(s);
	cctx_free(t);

	t = cctx_estimate(&p, 0, 0, 3);
	is(t->n, 3, "bound 3: three nodes");
	is(t->nroots, 3, "three roots");
	s = folded(t, -1);
	is_str(s, "a 50\nb 40\nc 30\n", "the three largest roots, in rank order");
	is(folded_sum(s), 120, "their stacks: 120");
	free(s);
	is(t->nleft, 2, "d and e left out");
	is(t->left[0], 30, "their cost: 20 + 10");
	is(t->cut[0], 30, "counted as cut");
	struct cctx *m = cctx_merged(t);
	is(m->nleft, 2, "merged: still two left out");
	is(m->left[0], 30, "merged: still 30");
	cctx_free(m);
	cctx_free(t);
	profile_free(&p);

	ok(load(&p, small_roots) == 0, "small roots load: %s", lasterr);
	t = cctx_estimate(&p, 0, 0, 2);
	is(t->n, 2, "bound 2: two nodes");
	s = folded(t, -1);
	is_str(s, "main 10\nmain;a 100\n", "main's path grown before the smaller roots");
	free(s);
	ok(!(t->node[t->root[0]].flags & CC_CUT), "main is grown, not cut");
	is(t->nleft, 2, "b and c left out");
	is(t->left[0], 8, "their cost: 5 + 3");
	is(t->cut[0], 8, "nothing else cut");
	cctx_free(t);
	profile_free(&p);
}

/* Shares on a diamond: main calls a (60) and b (40), both call c (a's 30,
 * b's 10); c (self 20) calls d (20, self 20).  a self 30, b self 30, main
 * self 0: total 100. */
static const char diamond[] = "events: Ir\n"
			      "fl=x.c\nfn=main\n1 0\ncfn=a\ncalls=1 2\n1 60\ncfn=b\ncalls=1 3\n1 40\n"
			      "fn=a\n2 30\ncfn=c\ncalls=1 4\n2 30\n"
			      "fn=b\n3 30\ncfn=c\ncalls=1 4\n3 10\n"
			      "fn=c\n4 20\ncfn=d\ncalls=1 5\n4 20\n"
			      "fn=d\n5 20\n";

static void test_estimate_diamond(void)
{
	struct profile p;
	ok(load(&p, diamond) == 0, "diamond loads: %s", lasterr);
	uint32_t c = fn(&p, "c"), d = fn(&p, "d");
	struct cctx *t = cctx_estimate(&p, 0, 0, 0);
	uint32_t m = t->root[0];
	uint32_t ac = kid(t, kid(t, m, fn(&p, "a")), c), bc = kid(t, kid(t, m, fn(&p, "b")), c);
	/* c's 40 (self 20, d 20) split 30 : 10 between its callers; d's 20
	 * the same way: 20 * 30/40 = 15 and 20 * 10/40 = 5 */
	is(cctx_incl(t, ac)[0], 30, "main;a;c 30");
	is(cctx_self(t, kid(t, ac, d))[0], 15, "main;a;c;d 30 * 20/40 = 15");
	is(cctx_self(t, ac)[0], 15, "main;a;c self 30 - 15 = 15");
	is(cctx_self(t, kid(t, bc, d))[0], 5, "main;b;c;d 10 * 20/40 = 5");
	is(cctx_self(t, bc)[0], 5, "main;b;c self 10 - 5 = 5");
	/* d's callers: 15 via a, 5 via b, both through c */
	struct cctx *cl = cctx_callers(t, d, -1);
	uint32_t dc = kid(cl, cl->root[0], c);
	is(cctx_incl(cl, cl->root[0])[0], 20, "d: 20");
	is(cctx_incl(cl, kid(cl, dc, fn(&p, "a")))[0], 15, "d via a;c: 15");
	is(cctx_incl(cl, kid(cl, dc, fn(&p, "b")))[0], 5, "d via b;c: 5");
	cctx_free(cl);
	cctx_free(t);
	profile_free(&p);
}

/* Recursion, cycle detection off: main (self 10) calls a once (90); a
 * (self 50) calls b twice (80); b (self 40) calls a once (70).  Inclusive
 * costs callgrind_annotate's: main 100, a 50 + 80 = 130, b 40 + 70 = 110.
 * main;a = 100 * 90/100 = 90; main;a;b = 90 * 80/130 = 55.38 -> 55; b's
 * call of a on that path 55 * 70/110 = 35 is a call of a function on the
 * path: folded into main;a, whose self becomes 90 - 55 + 35 = 70, and b's
 * self 55 - 35 = 20.  Without detection a root is an entity nobody but
 * itself calls, or its cycle when nothing outside the cycle calls any of
 * it (tree.h): main alone (a and b, a cycle, are entered from main). */
static const char rec_example[] = "events: Ir\n"
				  "ob=/bin/prog\nfl=prog.c\nfn=main\n1 10\n"
				  "cob=/lib/librec.so\ncfl=rec.c\ncfn=a\ncalls=1 5\n2 90\n"
				  "ob=/lib/librec.so\nfl=rec.c\nfn=a\n5 50\ncfn=b\ncalls=2 10\n6 80\n"
				  "fn=b\n10 40\ncfn=a\ncalls=1 5\n11 70\n";

static void test_estimate_recursion(void)
{
	struct profile p;
	ok(load(&p, rec_example) == 0, "recursion loads: %s", lasterr);
	profile_set_cycles(&p, 0);
	uint32_t a = fn(&p, "a"), b = fn(&p, "b");
	struct cctx *t = cctx_estimate(&p, 0, 0, 0);
	is(t->n, 3, "three nodes: main, main;a, main;a;b (a again is folded)");
	is(t->nroots, 1, "one root: main (100); b, called in a cycle main enters, is none");
	uint32_t na = kid(t, t->root[0], a), nb = kid(t, na, b);
	is(cctx_self(t, na)[0], 70, "main;a self 90 - 55 + 35 = 70");
	is(t->node[na].rec, 2, "a recursed there");
	is(t->node[na].count, 1, "main;a: called once from main (the edge main -> a)");
	is(t->node[na].rcount, 1, "main;a: once more by the recursion (b -> a, folded)");
	is(cctx_self(t, nb)[0], 20, "main;a;b self 55 - 35 = 20");
	ok(kid(t, nb, a) == NO_ID, "no second a on the path");
	is(cctx_incl(t, t->root[0])[0], 100, "main's root: 100, the total");
	cctx_free(t);

	/* with detection on, a and b are <cycle 1>: main;<cycle 1> */
	profile_set_cycles(&p, 1);
	t = cctx_estimate(&p, 0, 0, 0);
	char *s = folded(t, -1);
	/* the cycle's members are its children: a 50 + the call to b ...
	 * members' inclusive costs are KCachegrind's; the paths add up to
	 * the 100 of the whole */
	cost_t sum = 0;
	for (uint32_t n = 0; n < t->n; n++)
		sum += cctx_self(t, n)[0];
	is(sum, 100, "detection on: the self costs add up to the total 100");
	ok(strstr(s, "main;<cycle 1>") != NULL, "the path goes into <cycle 1>: %s", s);
	free(s);
	cctx_free(t);
	profile_free(&p);
}

/* A tree made node by node, as the recorder's: two threads. */
static void test_built(void)
{
	struct profile p;
	ok(load(&p, spec_example) == 0, "spec example loads");
	uint32_t main_ = fn(&p, "main"), func1 = fn(&p, "func1"), func2 = fn(&p, "func2");
	struct cctx *t = cctx_new(&p, 0);
	cost_t c10[1] = { 10 }, c7[1] = { 7 }, c5[1] = { 5 }, c3[1] = { 3 };
	uint32_t r0 = cctx_add(t, NO_ID, main_, 0, c10, 0);
	uint32_t x = cctx_add(t, r0, func1, 2, c7, 0);
	cctx_add(t, x, func2, 4, c5, 0);
	cctx_add(t, r0, func2, 1, c3, 0);
	uint32_t r1 = cctx_add(t, NO_ID, func1, 0, c3, 1);
	cctx_add(t, r1, func2, 1, c7, 1);
	cctx_finish(t);
	ok(!t->estimated, "recorded: exact");
	is(t->nroots, 2, "two roots, one per thread");
	is(cctx_incl(t, r0)[0], 25, "thread 1: 10 + 7 + 5 + 3");
	is(cctx_incl(t, x)[0], 12, "main;func1: 7 + 5");
	is(cctx_incl(t, r1)[0], 10, "thread 2: 3 + 7");
	char *s = folded(t, 1);
	is_str(s, "func1 3\nfunc1;func2 7\n", "thread 2's stacks alone");
	free(s);
	/* func2's callers over both threads: 5 + 3 + 7 = 15 */
	struct cctx *c = cctx_callers(t, func2, -1);
	is(cctx_incl(c, c->root[0])[0], 15, "func2 in all threads: 15");
	is(c->node[c->root[0]].count, 6, "called 4 + 1 + 1 times");
	uint32_t cf = kid(c, c->root[0], func1);
	is(cctx_incl(c, cf)[0], 12, "via func1: 5 (thread 1) + 7 (thread 2)");
	is(cctx_self(c, cf)[0], 7, "7 of it where func1 is the root (thread 2)");
	is(cctx_incl(c, kid(c, cf, main_))[0], 5, "via main;func1: 5");
	cctx_free(c);
	c = cctx_callers(t, func2, 0);
	is(cctx_incl(c, c->root[0])[0], 8, "func2 in thread 1: 5 + 3");
	cctx_free(c);
	cctx_free(t);
	profile_free(&p);
}

/* Recorded contexts beside the diamond's profile (PROFILE.ctx): what really
 * ran, which the call edges cannot tell -- c's callee d ran only when a
 * called c.  Self costs: main;a 30, main;a;c 10, main;a;c;d 20, main;b 30,
 * main;b;c 10 (c: 10 + 10 = 20 and d: 20, the flat profile's selves; the
 * estimate gave main;a;c;d 15 and main;b;c;d 5). */
static const char diamond_ctx[] = "cgtui-contexts\t1\n"
				  "events:\tIr\n"
				  "fn:\t0\t\tx.c\tmain\n"
				  "fn:\t1\t\tx.c\ta\n"
				  "fn:\t2\t\tx.c\tb\n"
				  "fn:\t3\t\tx.c\tc\n"
				  "fn:\t4\t\tx.c\td\n"
				  "ctx:\t0\t-1\t0\t0\t1\t0\t0\n"
				  "ctx:\t1\t0\t1\t1\t1\t0\t30\n"
				  "ctx:\t2\t1\t3\t1\t1\t0\t10\n"
				  "ctx:\t3\t2\t4\t1\t1\t0\t20\n"
				  "ctx:\t4\t0\t2\t1\t1\t0\t30\n"
				  "ctx:\t5\t4\t3\t1\t1\t0\t10\n";

static void test_recorded(void)
{
	struct profile p;
	ok(load(&p, diamond) == 0, "diamond loads: %s", lasterr);
	char *ctxpath = put_ctx(&p, diamond_ctx);
	struct cctx *t = cctx_of(&p, 0, 0.1);
	ok(!t->estimated, "a contexts file beside the profile: exact");
	is(t->n, 6, "six nodes, as recorded");
	char *s = folded(t, -1);
	is_str(s, "main;a 30\nmain;a;c 10\nmain;a;c;d 20\nmain;b 30\nmain;b;c 10\n",
	       "folded stacks as recorded: d only under a");
	free(s);
	/* every function's self over its contexts = the flat profile's */
	const struct agg *a = profile_agg(&p);
	for (uint32_t fn_ = 0; fn_ < p.nfns; fn_++) {
		cost_t sum = 0;
		for (uint32_t n = 0; n < t->n; n++)
			if (t->node[n].fn == fn_)
				sum += cctx_self(t, n)[0];
		is(sum, agg_self(a, fn_)[0], "%s: self over its contexts = flat self", fn_name(&p, fn_));
	}
	struct cctx *c = cctx_callers(t, fn(&p, "d"), -1);
	uint32_t dc = kid(c, c->root[0], fn(&p, "c"));
	is(cctx_incl(c, kid(c, dc, fn(&p, "a")))[0], 20, "d via a;c: all of its 20");
	ok(kid(c, dc, fn(&p, "b")) == NO_ID, "d never via b");
	cctx_free(c);
	cctx_free(t);

	/* broken files: said as FILE:LINE, and the estimate used */
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "cgtui-contexts\t3\n", ":1: a contexts file of another version" },
		{ "cgtui-contexts\t1\nevents:\tDr\n", ":2: its events are not the profile's" },
		{ "cgtui-contexts\t1\nevents:\tIr\nfn:\t0\t\tx.c\tnosuch\n",
		  ":3: a function the profile does not have" },
		{ "cgtui-contexts\t1\nevents:\tIr\nfn:\t0\t\tx.c\tmain\nctx:\t0\t0\t0\t0\t1\t0\t5\n",
		  ":4: a parent must come before its children" },
		{ "cgtui-contexts\t1\nevents:\tIr\nfn:\t0\t\tx.c\tmain\nctx:\t0\t-1\t0\t0\t1\t0\n",
		  ":4: expected ctx:" },
		/* version 2: RCALLS after CALLS, never with REC 1 */
		{ "cgtui-contexts\t2\nevents:\tIr\nfn:\t0\t\tx.c\tmain\nctx:\t0\t-1\t0\t0\t1\t0\t5\n",
		  ":4: expected ctx:<TAB>N<TAB>PARENT<TAB>FN<TAB>CALLS<TAB>RCALLS" },
		{ "cgtui-contexts\t2\nevents:\tIr\nfn:\t0\t\tx.c\tmain\nctx:\t0\t-1\t0\t1\t3\t1\t0\t5\n",
		  ":4: recursive calls (RCALLS) with no recursion (REC 1)" },
		{ "cgtui-contexts\t2\nevents:\tIr\nfn:\t0\t\tx.c\tmain\nctx:\t0\t-1\t0\t-1\t0\t1\t0\t5\n",
		  ":4: CALLS and RCALLS must be 0 or more" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		free(put_ctx(&p, bad[i].text));
		struct cctx *e = cctx_new(&p, 0);
		char err[512] = "";
		is(cctx_read(e, p.sources[0], err, sizeof(err)), -1, "bad file %zu refused", i);
		ok(strstr(err, ctxpath) == err && strstr(err, bad[i].why), "%s", err);
		cctx_free(e);
		int nw = p.nwarnings;
		t = cctx_of(&p, 0, 0.1);
		ok(t->estimated && p.nwarnings == nw + 1, "bad file %zu: a warning, the estimate used", i);
		cctx_free(t);
	}

	/* version 2: the calls from the parent and the recursive ones apart
	 * (main;a entered 3 times from main, 4 more by a recursion 3 deep);
	 * version 1's together */
	static const char v2[] = "cgtui-contexts\t2\nevents:\tIr\n"
				 "fn:\t0\t\tx.c\tmain\nfn:\t1\t\tx.c\ta\n"
				 "ctx:\t0\t-1\t0\t0\t0\t1\t0\t0\n"
				 "ctx:\t1\t0\t1\t3\t4\t3\t0\t30\n";
	free(put_ctx(&p, v2));
	t = cctx_of(&p, 0, 0.1);
	ok(!t->estimated, "version 2 read: exact");
	uint32_t va = kid(t, t->root[0], fn(&p, "a"));
	ok(va != NO_ID && t->node[va].count == 3 && t->node[va].rcount == 4 &&
		   t->node[va].rec == 3 && !(t->node[va].flags & CC_ALLCALLS),
	   "main;a: 3 calls from main, 4 recursive, 3 deep");
	cctx_free(t);
	free(put_ctx(&p, diamond_ctx));
	t = cctx_of(&p, 0, 0.1);
	va = kid(t, t->root[0], fn(&p, "a"));
	ok(t->node[va].count == 1 && t->node[va].rcount == 0 && t->node[va].flags & CC_ALLCALLS,
	   "version 1: every call in count, not told apart");
	cctx_free(t);
	/* summed (parts merged, callers): apart while both have them apart,
	 * together once one has them together */
	struct cctx_node x = { .count = 3, .rcount = 4 }, y = { .count = 2, .rcount = 5 };
	struct cctx_node old = { .count = 10, .flags = CC_ALLCALLS };
	cctx_add_calls(&x, &y);
	ok(x.count == 5 && x.rcount == 9 && !(x.flags & CC_ALLCALLS), "3+4 and 2+5: 5+9");
	cctx_add_calls(&x, &old);
	ok(x.count == 24 && x.rcount == 0 && x.flags & CC_ALLCALLS, "5+9 and 10 together: 24");
	cctx_add_calls(&old, &y);
	ok(old.count == 17 && old.rcount == 0 && old.flags & CC_ALLCALLS, "10 and 2+5: 17");
	unlink(ctxpath);
	free(ctxpath);
	profile_free(&p);
}

/* A cycle's members with recorded paths (tests/tui/cyclepaths.out, by
 * hand): main (self 10) calls a and c; a -> b -> c -> a -> b -> c, each
 * call self 5, each b calling heavy (self 100).  The paths, recursion
 * folded into the earlier occurrence: main 10, main;a 10, main;a;b 10,
 * main;a;b;heavy 200, main;a;b;c 10, main;c 5 (total 245).  The cycle
 * rule: a member's inclusive cost is its self and the calls it makes out
 * of the cycle: a 10, b 10 + 200 = 210, c 15; their time on the stack
 * (detection off) a 230, b 220, c 15. */
static const char cyc_out[] = "events: Ir\n"
			      "fl=x.c\nfn=main\n1 10\ncfn=a\ncalls=1 2\n1 230\ncfn=c\ncalls=1 4\n1 5\n"
			      "fn=a\n2 10\ncfn=b\ncalls=2 3\n2 330\n"
			      "fn=b\n3 10\ncfn=heavy\ncalls=2 5\n3 200\ncfn=c\ncalls=2 4\n3 125\n"
			      "fn=c\n4 15\ncfn=a\ncalls=1 2\n4 115\n"
			      "fn=heavy\n5 200\n";
static const char cyc_ctx[] = "cgtui-contexts\t2\nevents:\tIr\n"
			      "fn:\t0\t\tx.c\tmain\nfn:\t1\t\tx.c\ta\nfn:\t2\t\tx.c\tb\n"
			      "fn:\t3\t\tx.c\tc\nfn:\t4\t\tx.c\theavy\n"
			      "ctx:\t0\t-1\t0\t0\t0\t1\t0\t10\n"
			      "ctx:\t1\t0\t1\t1\t1\t2\t0\t10\n"
			      "ctx:\t2\t1\t2\t1\t1\t2\t0\t10\n"
			      "ctx:\t3\t2\t4\t2\t0\t1\t0\t200\n"
			      "ctx:\t4\t2\t3\t1\t1\t2\t0\t10\n"
			      "ctx:\t5\t0\t3\t1\t0\t1\t0\t5\n";

static void test_recorded_cycle(void)
{
	struct profile p;
	ok(load(&p, cyc_out) == 0, "the cycle's profile loads: %s", lasterr);
	char *ctxpath = put_ctx(&p, cyc_ctx);
	static const struct {
		const char *name;
		cost_t on, off; /* detection on: the cycle rule; off: on the stack */
	} want[] = { { "a", 10, 230 }, { "b", 210, 220 }, { "c", 15, 15 }, { "heavy", 200, 200 } };
	for (int on = 1; on >= 0; on--) {
		profile_set_cycles(&p, on);
		struct cctx *t = cctx_of(&p, 0, 0.1);
		ok(!t->estimated && t->n == 6, "detection %s: the six nodes recorded", on ? "on" : "off");
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			uint32_t m = fn(&p, want[i].name);
			cost_t sum = 0, own[MAX_EVENTS];
			for (uint32_t n = 0; n < t->n; n++)
				if (t->node[n].fn == m) {
					cctx_own(t, n, own);
					sum += own[0];
				}
			cost_t w = on ? want[i].on : want[i].off;
			is(sum, w, "detection %s: %s's own over its nodes", on ? "on" : "off", want[i].name);
			struct cctx *c = cctx_callers(t, m, -1);
			is(cctx_incl(c, c->root[0])[0], w, "detection %s: %s's callers tree from %lld",
			   on ? "on" : "off", want[i].name, (long long)w);
			if (on)
				is(cctx_incl(c, c->root[0])[0], agg_incl(profile_agg(&p), m)[0],
				   "%s: as the functions list says", want[i].name);
			cctx_free(c);
		}
		/* c's callers: b 10 (main;a;b;c), main 5 (main;c) */
		struct cctx *c = cctx_callers(t, fn(&p, "c"), -1);
		is(cctx_incl(c, kid(c, c->root[0], fn(&p, "b")))[0], 10, "c via b: 10");
		is(cctx_incl(c, kid(c, c->root[0], fn(&p, "main")))[0], 5, "c via main: 5");
		cctx_free(c);
		cctx_free(t);
	}
	unlink(ctxpath);
	free(ctxpath);
	profile_free(&p);
}

int main(void)
{
	if (fixture_start() < 0)
		return 99;
	test_estimate_spec();
	test_estimate_diamond();
	test_estimate_recursion();
	test_estimate_roots_bound();
	test_built();
	test_recorded();
	test_recorded_cycle();
	fixture_end();
	return tap_done();
}
