/* test-rules.c -- the rules every view and the report share, on hand-made
 * profiles whose expected numbers are worked out by hand in the comments:
 * the threshold and the ordering (rank.c: cg_annotate's), the cycle rule
 * (KCachegrind's cycles, calls without a share), the call tree's roots and
 * the estimated callers tree, a function's identity (object, file, name),
 * folding callgrind's recursion levels, the check of a file's calls, the
 * parts in the order they ran, grouping (file:function's rule).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "profile/aggregate.h"
#include "profile/demangle.h"
#include "profile/format.h"
#include "profile/grouping.h"
#include "profile/load.h"
#include "profile/model.h"
#include "profile/query.h"
#include "profile/rank.h"
#include "profile/scope.h"
#include "profile/tree.h"
#include "fixture.h"
#include "tap.h"

static char *tmp_text(const char *name, const char *text)
{
	return write_tmp(name, text, strlen(text));
}

/* The edge of id's callers (callers 1) or callees to other via via, NULL if none. */
static const struct edge *edge_to(const struct edge *ed, int n, uint32_t other, uint32_t via)
{
	for (int i = 0; i < n; i++)
		if (ed[i].fn == other && ed[i].via == via)
			return &ed[i];
	return NULL;
}

static void test_rank(void)
{
	/* cg_annotate: threshold = 0.1 * |3000000| / 100 in doubles, which
	 * is 3000.0 exactly (0.1 * 3000000 rounds to 300000.0), and a row is
	 * shown when |cost| >= it */
	struct rank_thr t = rank_threshold_of(3000000, 0.1);
	ok(rank_shown(&t, 3000) && rank_shown(&t, -3000), "3,000 of 3,000,000 at 0.1%%: shown, as cg_annotate");
	ok(!rank_shown(&t, 2999), "2,999: not");
	/* 1% of 7: 0.07; 0 is below it, and a zero is shown only at 0% */
	t = rank_threshold_of(7, 1);
	ok(!rank_shown(&t, 0) && rank_shown(&t, 1), "1%% of 7: 0 hidden, 1 shown");
	t = rank_threshold_of(7, 0);
	ok(rank_shown(&t, 0), "the report at 0%%: a zero row is shown (cg_annotate prints it)");
	/* ordering: magnitude first, then (views) the larger value, then A..Z */
	cost_t v[4] = { -50, 50, 50, 7 };
	struct rank_key k0 = { &v[0], "b", 0 }, k1 = { &v[1], "z", 1 }, k2 = { &v[2], "a", 2 },
			k3 = { &v[3], "a", 3 };
	struct rank_order view = { NULL, 1, RANK_VIEW }, rep = { NULL, 1, RANK_REPORT };
	ok(rank_cmp(&k1, &k0, &view) < 0, "views: 50 before -50 (same magnitude, larger value)");
	ok(rank_cmp(&k2, &k1, &view) < 0, "views: a before z at equal cost");
	ok(rank_cmp(&k1, &k2, &rep) < 0, "report: z before a at equal cost (cg_annotate sorts in reverse)");
	ok(rank_cmp(&k0, &k3, &rep) < 0 && rank_cmp(&k0, &k3, &view) < 0, "-50 before 7 (magnitude)");
}

/* main (self 10) -> a 1x 90; a (50) -> b 2x 80; b (40) -> a 1x 70; b -> c
 * 1x 0; and f (5) calls itself: main -> f 1x 25, f -> f 3x 60, f self 25.
 * Total: 10 + 50 + 40 + 25 = 125.  Cycle {a, b}: self 90, no call leaves
 * it but b -> c (0), inclusive 90.  f: no cycle (one function), inclusive
 * its self 25 (its calls to itself are inside its outer call). */
static const char cyc[] = "events: Ir\nfl=m.c\nfn=main\n1 10\ncfn=a\ncalls=1 1\n1 90\n"
			  "cfn=f\ncalls=1 1\n1 25\n"
			  "fn=a\n2 50\ncfn=b\ncalls=2 3\n2 80\n"
			  "fn=b\n3 40\ncfn=a\ncalls=1 2\n3 70\ncfn=c\ncalls=1 9\n3 0\n"
			  "fn=c\n9 0\n"
			  "fn=f\n4 25\ncfn=f\ncalls=3 4\n4 60\n";

static void test_cycle_rule(void)
{
	struct profile p;
	ok(load(&p, cyc) == 0, "cycle example loads: %s", lasterr);
	const struct agg *a = profile_agg(&p);
	uint32_t m = fn(&p, "main"), fa = fn(&p, "a"), fb = fn(&p, "b"), ff = fn(&p, "f");
	is(a->ncycles, 1, "one cycle: a and b (f calling itself is none)");
	uint32_t c = agg_cycle_ent(a, 1);
	is(agg_nent(a), p.nfns + 1, "the cycle is an entity after the functions");
	is(agg_self(a, c)[0], 90, "<cycle 1> self: a 50 + b 40");
	is(agg_incl(a, c)[0], 90, "<cycle 1> inclusive: 90 (b -> c costs 0)");
	is(a->fn_ncalls[c], 1, "<cycle 1> called once from outside (main -> a)");
	is(agg_incl(a, fa)[0], 50, "a: 50, its calls inside the cycle not counted");
	is(agg_incl(a, ff)[0], 25, "f: 25, its calls to itself not counted again");
	is(agg_incl(a, m)[0], 125, "main: everything");
	char *l = fn_label(&p, fa), *lc = fn_label(&p, c);
	ok(!strcmp(l, "a <cycle 1>") && !strcmp(lc, "<cycle 1>"), "labels: 'a <cycle 1>', '<cycle 1>'");
	free(l);
	free(lc);

	is(agg_call_kind(a, fa, fb), CALL_IN_CYCLE, "a -> b: inside the cycle");
	is(agg_call_kind(a, ff, ff), CALL_RECURSIVE, "f -> f: recursive");
	is(agg_call_kind(a, m, fa), CALL_PLAIN, "main -> a: a plain call");
	ok(!call_kind_costed(CALL_IN_CYCLE) && !call_kind_costed(CALL_RECURSIVE) &&
	   call_kind_costed(CALL_PLAIN) && call_kind_costed(CALL_MEMBER),
	   "only plain and member calls have a share of the total");

	struct edge *ed;
	int n = query_edges(&p, fa, 1, &ed);
	/* a's callers: b (inside, 1x) and its cycle (main's 1 call, at a's 50) */
	const struct edge *e1 = edge_to(ed, n, fb, NO_ID), *e2 = edge_to(ed, n, c, NO_ID);
	ok(n == 2 && e1 && e1->kind == CALL_IN_CYCLE && e1->count == 1 && e2 &&
	   e2->kind == CALL_MEMBER && e2->count == 1 && e2->cost[0] == 50,
	   "a's callers: b inside the cycle 1x; <cycle 1> 1x at a's 50");
	free(ed);
	n = query_edges(&p, m, 0, &ed);
	e1 = edge_to(ed, n, c, fa);
	ok(n == 2 && e1 && e1->kind == CALL_PLAIN && e1->count == 1 && e1->cost[0] == 90,
	   "main's callees: <cycle 1> via a, 1x 90 (and f)");
	free(ed);
	n = query_edges(&p, c, 0, &ed);
	e1 = edge_to(ed, n, fa, NO_ID);
	e2 = edge_to(ed, n, fb, NO_ID);
	ok(n == 2 && e1 && e1->cost[0] == 50 && e1->count == 1 && e2 && e2->cost[0] == 40 &&
	   e2->count == 0, "<cycle 1>'s callees: its members, a 1x 50, b 40");
	free(ed);
	n = query_edges(&p, c, 1, &ed);
	e1 = edge_to(ed, n, m, fa);
	ok(n == 1 && e1 && e1->cost[0] == 90, "<cycle 1>'s callers: main via a, 90");
	free(ed);

	/* detection off: callgrind_annotate's numbers, self + every call:
	 * a 50 + 80 = 130, b 40 + 70 + 0 = 110, f 25 + 60 = 85 */
	profile_set_cycles(&p, 0);
	a = p.agg;
	ok(agg_incl(a, fa)[0] == 130 && agg_incl(a, fb)[0] == 110 && agg_incl(a, ff)[0] == 85,
	   "cycles off: a 130, b 110, f 85 (above main's 125: raw)");
	is(agg_nent(a), p.nfns, "cycles off: no cycle entity");
	is(agg_call_kind(a, fa, fb), CALL_PLAIN, "cycles off: every call plain");
	l = fn_label(&p, fa);
	ok(!strcmp(l, "a"), "cycles off: no <cycle N> in labels");
	free(l);
	profile_set_cycles(&p, 1);
	is(agg_incl(p.agg, fa)[0], 50, "on again: a 50");
	profile_free(&p);
}

/* Two threads, as callgrind --separate-threads=yes writes them, loaded
 * together.  Thread 1: main (self 10) calls clone 1x 15 (clone's
 * thread-1 half, self 15).  Thread 2: clone (self 5) calls start 1x 70
 * (self 70).  Total 100.  Only 15 of clone's 90 is reached by a call: the
 * roots are main (10 + 15 = 25) and clone (90 - 15 = 75), adding up to
 * 100. */
static void test_roots(void)
{
	struct profile p;
	profile_init(&p);
	char *t1 = tmp_text("t-01", "thread: 1\nevents: Ir\nfl=a.c\nfn=main\n1 10\ncfn=clone\ncalls=1 5\n1 15\n"
				     "fn=clone\n5 15\n");
	char *t2 = tmp_text("t-02", "thread: 2\nevents: Ir\nfl=a.c\nfn=clone\n5 5\ncfn=start\ncalls=1 7\n5 70\n"
				     "fn=start\n7 70\n");
	ok(profile_load(&p, t1, NULL, lasterr, sizeof(lasterr)) == 0 &&
	   profile_load(&p, t2, NULL, lasterr, sizeof(lasterr)) == 0, "two threads load: %s", lasterr);
	profile_finish(&p);
	free(t1);
	free(t2);
	is(p.totals[0], 100, "total 100");
	struct ctree *t = ctree_new(&p, 0, NO_ID, 0, 0);
	is(t->nroots, 2, "two roots: main and clone");
	ok(t->node[0].fn == fn(&p, "clone") && t->node[0].cost[0] == 75 &&
	   t->node[1].fn == fn(&p, "main") && t->node[1].cost[0] == 25,
	   "clone 75 (its thread), main 25: they add up to 100");
	ctree_free(t);
	/* bottom-up from start (70): its one caller clone brought it all;
	 * clone's caller main brought 15 of clone's 90, so 70 * 15 / 90 ~ 12 */
	t = ctree_new(&p, 1, fn(&p, "start"), 0, 0);
	ctree_set_open(t, 0, 1);
	uint32_t nc = t->node[0].first;
	ok(t->node[0].nchild == 1 && t->node[nc].fn == fn(&p, "clone") && t->node[nc].cost[0] == 70,
	   "callers of start: clone, 70");
	ctree_set_open(t, nc, 1);
	uint32_t nm = t->node[nc].first;
	ok(t->node[nc].nchild == 1 && t->node[nm].fn == fn(&p, "main") && t->node[nm].cost[0] == 12,
	   "clone's caller main: 70 x 15 / 90 = 11.7, 12 (estimated, below the root)");
	ctree_free(t);
	profile_free(&p);
}

static void test_identity(void)
{
	struct profile p;
	/* two static functions f in a.c and b.c of one object, each with its
	 * own cost, called from main in a.c (one with cfi=b.c) */
	ok(load(&p, "events: Ir\nob=x.so\nfl=a.c\nfn=main\n1 1\ncfn=f\ncalls=1 2\n1 3\n"
		    "cfi=b.c\ncfn=f\ncalls=1 2\n1 4\nfn=f\n2 3\nfl=b.c\nfn=f\n2 4\n") == 0,
	   "statics load: %s", lasterr);
	int nf = 0;
	for (uint32_t f = 0; f < p.nfns; f++)
		nf += !strcmp(fn_name(&p, f), "f");
	is(nf, 2, "two functions f (object, file and name, as KCachegrind keys them)");
	is(p.nwarnings, 0, "and no call costs more than its callee");
	profile_free(&p);
	/* a call from inlined code (fi=h.h) without cfi=: the callee is in
	 * h.h, the file of the lines around the call, as callgrind writes it */
	ok(load(&p, "events: Ir\ncreator: callgrind-3.19.0\nfl=a.c\nfn=main\n1 1\nfi=h.h\n"
		    "5 1\ncfn=g\ncalls=1 7\n5 2\nfl=h.h\nfn=g\n7 2\n") == 0, "fi= call loads: %s", lasterr);
	nf = 0;
	for (uint32_t f = 0; f < p.nfns; f++)
		nf += !strcmp(fn_name(&p, f), "g");
	ok(nf == 1 && !strcmp(file_name(&p, p.fns[fn(&p, "g")].file), "h.h"), "one g, in h.h");
	profile_free(&p);
}

static void test_fold(void)
{
	struct profile p;
	const char *rec = "fl=a.c\nfn=main\n1 1\ncfn=f\ncalls=1 2\n1 9\n"
			  "fn=f\n2 3\ncfn=f'2\ncalls=1 2\n2 6\nfn=f'2\n2 6\n";
	for (int k = 0; k < 2; k++) {
		char text[512];
		snprintf(text, sizeof(text), "events: Ir\ncreator: %s\n%s",
			 k ? "pyprof2calltree" : "callgrind-3.19.0", rec);
		profile_init(&p);
		char *path = write_tmp("fold.out", text, strlen(text));
		struct load_opts lo = { .sign = 1, .fold_contexts = 1 };
		ok(profile_load(&p, path, &lo, lasterr, sizeof(lasterr)) == 0, "loads: %s", lasterr);
		profile_finish(&p);
		free(path);
		if (!k) {
			/* f'2 is f: self 3 + 6, and f calls itself */
			uint32_t f = fn(&p, "f");
			const struct agg *a = profile_agg(&p);
			ok(f != NO_ID && fn(&p, "f'2") == NO_ID && agg_self(a, f)[0] == 9 &&
			   a->fn_selfcall[f], "callgrind's file: f'2 folded into f (self 9, calls itself)");
		} else {
			ok(fn(&p, "f'2") != NO_ID, "another producer's f'2 is left alone");
		}
		profile_free(&p);
	}
}

/* The one label with template arguments folded, and a cycle's list of its
 * members, by hand: v<int>::a and v<int>::b call each other (<cycle 1>).
 * Folding is of the names: "v<...>::a <cycle 1>", and the cycle stays
 * "<cycle 1>" (it was folded to "<...>" as if a template).  The members'
 * list cut at room 30: "2 functions:" (12) + " v<int>::a" fits (12 + 9 + 2
 * <= 30), v<int>::b would not (22 + 9 + 2 > 30): ", ..." in its place. */
static void test_labels(void)
{
	struct profile p;
	ok(load(&p, "events: Ir\nfl=m.c\nfn=main\n1 1\ncfn=v<int>::a\ncalls=1 1\n1 9\n"
		    "fn=v<int>::a\n2 4\ncfn=v<int>::b\ncalls=1 3\n2 5\n"
		    "fn=v<int>::b\n3 3\ncfn=v<int>::a\ncalls=1 2\n3 2\n") == 0,
	   "templated cycle loads: %s", lasterr);
	const struct agg *a = profile_agg(&p);
	uint32_t fa = fn(&p, "v<int>::a"), c = agg_cycle_ent(a, 1);
	char *s = fn_label_ex(&p, fa, LABEL_FOLD_TEMPLATES);
	ok(!strcmp(s, "v<...>::a <cycle 1>"), "folded member: 'v<...>::a <cycle 1>' (%s)", s);
	free(s);
	s = fn_label_ex(&p, c, LABEL_FOLD_TEMPLATES);
	ok(!strcmp(s, "<cycle 1>"), "folded cycle: '<cycle 1>', no template (%s)", s);
	free(s);
	s = edge_label_ex(&p, c, fa, LABEL_FOLD_TEMPLATES);
	ok(!strcmp(s, "<cycle 1> via v<...>::a"), "folded edge: '<cycle 1> via v<...>::a' (%s)", s);
	free(s);
	s = edge_label(&p, c, fa);
	ok(!strcmp(s, "<cycle 1> via v<int>::a"), "edge: '<cycle 1> via v<int>::a' (%s)", s);
	free(s);
	s = cycle_members(&p, c, SIZE_MAX);
	ok(!strcmp(s, "2 functions: v<int>::a, v<int>::b"), "members: all (%s)", s);
	free(s);
	s = cycle_members(&p, c, 30);
	ok(!strcmp(s, "2 functions: v<int>::a, ..."), "members cut at 30: '..., ...' (%s)", s);
	free(s);
	s = cycle_members(&p, c, 33);
	ok(!strcmp(s, "2 functions: v<int>::a, v<int>::b"), "members at 33: both (%s)", s);
	free(s);
	profile_free(&p);
}

static void test_check_calls(void)
{
	struct profile p;
	/* main -> g 1x 2000 but g's own cost is 10: 1,990 too much, of a
	 * total of 2,010: one warning naming g */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=main\n1 0\ncfn=g\ncalls=1 2\n1 2000\nfn=g\n2 10\n") == 0,
	   "inconsistent file loads");
	profile_agg(&p);
	ok(p.nwarnings == 1 && strstr(p.warnings[0], "calls into g cost 2000") &&
	   strstr(p.warnings[0], "own numbers disagree"), "one warning: %s",
	   p.nwarnings ? p.warnings[0] : "(none)");
	profile_free(&p);
}

/* Itanium C++ ABI by hand: _ZN3foo3barEv is foo::bar() (N..E a nested
 * name: 3foo 3bar; v: no parameters); _ZN3foo3bazEi foo::baz(int) */
static void test_demangle(void)
{
	struct profile p;
	ok(load(&p, "events: Ir\ncreator: callgrind-3.19.0\nfl=_Za.c\nfn=_ZN3foo3barEv\n1 1\n"
		    "cfn=_ZN3foo3bazEi'2\ncalls=1 2\n1 2\nfn=_ZN3foo3bazEi'2\n2 2\nfn=main\n3 3\n") == 0,
	   "mangled profile loads: %s", lasterr);
	is(profile_demangle(&p), 2, "two names demangled");
	ok(fn(&p, "foo::bar()") != NO_ID && fn(&p, "foo::baz(int)'2") != NO_ID && fn(&p, "main") != NO_ID,
	   "foo::bar(), foo::baz(int)'2 (callgrind's level kept), main as it was");
	ok(!strcmp(file_name(&p, p.fns[fn(&p, "main")].file), "_Za.c"), "a file name is no symbol");
	profile_free(&p);
}

static void test_parts_order(void)
{
	struct profile p;
	profile_init(&p);
	char *a = tmp_text("d.3", "part: 3\ndesc: Timerange: Basic block 200 - 300\nevents: Ir\nfl=a.c\nfn=f\n1 3\n");
	char *b = tmp_text("d.1", "part: 1\ndesc: Timerange: Basic block 0 - 100\nevents: Ir\nfl=a.c\nfn=f\n1 1\n");
	char *c = tmp_text("d.2", "part: 2\ndesc: Timerange: Basic block 100 - 200\nevents: Ir\nfl=a.c\nfn=f\n1 2\n");
	ok(profile_load(&p, a, NULL, lasterr, sizeof(lasterr)) == 0 &&
	   profile_load(&p, b, NULL, lasterr, sizeof(lasterr)) == 0 &&
	   profile_load(&p, c, NULL, lasterr, sizeof(lasterr)) == 0, "three dumps load: %s", lasterr);
	profile_finish(&p);
	int *o = profile_parts_by_time(&p);
	ok(p.parts[o[0]].number == 1 && p.parts[o[1]].number == 2 && p.parts[o[2]].number == 3,
	   "named 3, 1, 2: listed 1, 2, 3 as they ran");
	char buf[64];
	part_label(buf, sizeof(buf), &p, 1);
	ok(!strcmp(buf, "part 3 of 3"), "the first loaded is 'part 3 of 3' (%s)", buf);
	free(o);
	free(a);
	free(b);
	free(c);
	profile_free(&p);
}

/* name_class: the qualifier before the last "::" outside template
 * arguments and parentheses, read by hand from each name */
static void class_is(const char *name, const char *want)
{
	size_t n;
	const char *c = name_class(name, &n);
	char got[256];
	snprintf(got, sizeof(got), "%.*s", (int)n, c);
	ok(strcmp(got, want) == 0, "class of %s: '%s' (got '%s')", name, want, got);
}

static void test_scope(void)
{
	class_is("main", "");
	class_is("0x0000000000401000", "");
	class_is("???", "");
	class_is("std::vector<int, std::allocator<int> >::push_back(int const&)",
		 "std::vector<int, std::allocator<int> >");
	class_is("void std::vector<int>::_M_realloc_insert<int const&>(__gnu_cxx::__normal_iterator<int*, "
		 "std::vector<int> >, int const&)", "std::vector<int>");
	class_is("ns::C::operator<(ns::C const&) const", "ns::C");
	class_is("ns::C::operator()(int)", "ns::C");
	class_is("ns::C::operator new(unsigned long)", "ns::C");
	class_is("ns::C::operator<< <int>(int)", "ns::C");
	class_is("(anonymous namespace)::helper(int)", "(anonymous namespace)");
	class_is("a::b::f'2", "a::b");
	class_is("std::function<void (int)>::operator()(int) const", "std::function<void (int)>");
	class_is("f(std::map<int, int>::iterator)", "");

	/* the specification's example: main, func1 (file1.c), func2 (file2.c)
	 * in one object; self 20, 100, 700 */
	struct profile p;
	char *text = xasprintf("ob=prog\n%s", spec_example);
	ok(load(&p, text) == 0, "spec example loads: %s", lasterr);
	free(text);
	uint32_t m = fn(&p, "main"), f1 = fn(&p, "func1"), f2 = fn(&p, "func2");
	struct scope s = { .kind = SCOPE_FILE, .id = p.fns[f2].file };
	ok(!scope_keeps(&p, &s, m) && !scope_keeps(&p, &s, f1) && scope_keeps(&p, &s, f2),
	   "file2.c keeps func2 only");
	cost_t c[MAX_EVENTS];
	scope_self(&p, &s, c);
	is((int)c[0], 700, "file2.c's self: func2's 700");
	s = (struct scope){ .kind = SCOPE_FILE, .id = p.fns[m].file };
	scope_self(&p, &s, c);
	is((int)c[0], 120, "file1.c's self: main 20 + func1 100");
	/* the objects tree in file1.c's scope: one group, prog, of main and
	 * func1, its total theirs (120), not the object's 820 */
	struct groups *gs = groups_build(&p, GROUP_OBJ_FN, &s);
	cost_t tot[MAX_EVENTS];
	if (gs->ng == 1)
		group_total(&p, gs, &gs->g[0], tot);
	ok(gs->ng == 1 && gs->g[0].ne == 2 && tot[0] == 120,
	   "file1.c's objects tree: prog with 2 functions, 120");
	groups_free(gs);
	s = (struct scope){ .kind = SCOPE_OBJECT, .id = p.fns[m].obj };
	scope_self(&p, &s, c);
	is((int)c[0], 820, "the object's self: the total, 820");
	char *l = scope_label(&p, &s);
	ok(strcmp(l, "object prog") == 0, "its label: %s", l);
	free(l);
	struct scope of[3];
	int n = scope_of_fn(&p, f1, of, 3);
	ok(n == 2 && of[0].kind == SCOPE_OBJECT && of[1].kind == SCOPE_FILE,
	   "func1 (a C name): an object and a file, no class");
	profile_free(&p);

	/* classes, nested ones and a cycle: a::X::f <-> a::Y::g call each
	 * other (one cycle), b::h is alone; self 1, 2, 4 */
	ok(load(&p, "events: Ir\nfl=x.cc\nfn=a::X::f()\n1 1\ncfn=a::Y::g()\ncalls=1 2\n1 6\n"
		    "fn=a::Y::g()\n2 2\ncfn=a::X::f()\ncalls=1 1\n2 3\ncfn=b::h()\ncalls=1 3\n2 4\n"
		    "fn=b::h()\n3 4\n") == 0, "classes load: %s", lasterr);
	struct scope a = { .kind = SCOPE_CLASS, .id = NO_ID, .cls = xstrdup("a") }, ax = { .kind = SCOPE_CLASS, .id = NO_ID, .cls = xstrdup("a::X") };
	uint32_t ff = fn(&p, "a::X::f()"), g = fn(&p, "a::Y::g()"), h = fn(&p, "b::h()");
	ok(scope_keeps(&p, &a, ff) && scope_keeps(&p, &a, g) && !scope_keeps(&p, &a, h),
	   "namespace a keeps a::X::f and a::Y::g (nested classes), not b::h");
	ok(scope_keeps(&p, &ax, ff) && !scope_keeps(&p, &ax, g), "class a::X keeps f only");
	struct scope ab = { .kind = SCOPE_CLASS, .id = NO_ID, .cls = xstrdup("a::") };
	ok(!scope_keeps(&p, &ab, ff), "'a::' is no class of a::X::f (whole names only)");
	scope_clear(&ab);
	const struct agg *ag = profile_agg(&p);
	ok(ag->ncycles == 1, "f and g make a cycle");
	uint32_t cy = agg_cycle_ent(ag, 1);
	ok(scope_keeps(&p, &ax, cy), "the cycle is kept by a::X (one member is)");
	struct scope bs = { .kind = SCOPE_CLASS, .id = NO_ID, .cls = xstrdup("b") };
	ok(!scope_keeps(&p, &bs, cy), "and not by b (no member is)");
	scope_self(&p, &a, c);
	is((int)c[0], 3, "namespace a's self: 1 + 2");
	scope_clear(&a);
	scope_clear(&ax);
	scope_clear(&bs);
	profile_free(&p);
}

/* A function with 2,500 callees (more than a view orders at first):
 * callee k costs (k * 7919) % 2500 + 1 (every value 1..2500 once, as 7919
 * is prime to 2500), so by cost the i-th is the callee costing 2500 - i.
 * query_edge_order's order read first at the end (as the detail pane
 * reads the last callers), then in the middle, then everything from the
 * start: each read is the callee costing 2500 - i. */
static void test_order_part(void)
{
	enum { N = 2500 };
	struct text tx = { 0 };
	textf(&tx, "events: Ir\nfl=a.c\nfn=main\n1 1\n");
	for (int k = 0; k < N; k++)
		textf(&tx, "cfn=f%04d\ncalls=1 2\n1 %d\n", k, (k * 7919) % N + 1);
	for (int k = 0; k < N; k++)
		textf(&tx, "fn=f%04d\n2 %d\n", k, (k * 7919) % N + 1);
	struct profile p;
	ok(load(&p, tx.s) == 0, "2,500 callees load: %s", lasterr);
	free(tx.s);
	struct edge *ed;
	int n = query_edges(&p, fn(&p, "main"), 0, &ed);
	is(n, N, "main has 2,500 callees");
	struct edge_order *o = query_edge_order(&p, ed, N, 0);
	int good = 1;
	for (int i = N - 1; i >= N - 3; i--)
		good &= ed[query_edge_at(o, (size_t)i)].cost[0] == N - i;
	ok(good, "the last 3 read first: the callees costing 3, 2, 1");
	good = ed[query_edge_at(o, 1250)].cost[0] == 1250;
	ok(good, "then the 1251st: the callee costing 1250");
	good = 1;
	for (int i = 0; i < N; i++)
		good &= ed[query_edge_at(o, (size_t)i)].cost[0] == N - i;
	ok(good, "then all 2,500 in order of cost");
	query_edge_order_free(o);
	free(ed);
	profile_free(&p);
}

/* The process's resident set now and at its peak (kB), the peak made the
 * present one first when reset (proc(5): clear_refs 5). */
static long rss_kb(const char *what, int reset)
{
	if (reset) {
		FILE *c = fopen("/proc/self/clear_refs", "w");
		if (!c)
			return -1;
		fputs("5", c);
		fclose(c);
	}
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, what, strlen(what)))
			v = atol(line + strlen(what));
	if (f)
		fclose(f);
	return v;
}

/* A function called by 50,000 others (13 events: caller k's call costs
 * k + e in event e, by hand): its callers' edges summed in the block they
 * are returned in, the costs not copied there from another (a cycle's
 * 60,000 callers in the detail pane: 6 MB more at the explorer's peak).
 * Large blocks are fresh mappings (a fixed mmap threshold), so the peak
 * of the resident set while the edges are made is their block and the
 * hash table, with room to spare, not the block twice. */
static void test_edges_block(void)
{
	enum { N = 50000, NE = 13 };
	struct text tx = { 0 };
	textf(&tx, "events: A B C D E F G H I J K L M\nfl=a.c\nfn=hub\n1 1\n");
	for (int k = 0; k < N; k++) {
		textf(&tx, "fn=c%05d\ncfn=hub\ncalls=1 1\n2", k);
		for (int e = 0; e < NE; e++)
			textf(&tx, " %d", k + e);
		textf(&tx, "\n");
	}
	struct profile p;
	ok(load(&p, tx.s) == 0, "50,000 callers load: %s", lasterr);
	free(tx.s);
	profile_agg(&p);
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	int known = heap_known() && rss_kb("VmHWM:", 1) > 0;
	long rss0 = rss_kb("VmRSS:", 0);
	struct edge *ed;
	int n = query_edges(&p, fn(&p, "hub"), 1, &ed);
	long grown = rss_kb("VmHWM:", 0) - rss0;
	is(n, N, "hub: 50,000 callers");
	int good = 1;
	for (int i = 0; i < n; i++) {
		int k = atoi(fn_name(&p, ed[i].fn) + 1);
		good &= ed[i].count == 1;
		for (int e = 0; e < NE; e++)
			good &= ed[i].cost[e] == k + e;
	}
	ok(good, "each caller's edge: once, its costs by hand");
	if (known)
		ok(grown * 1024 < (long)malloc_usable_size(ed) + 2 * 1024 * 1024,
		   "the resident set's peak grew by %ld kB for a block of %zu kB", grown,
		   malloc_usable_size(ed) / 1024);
	else
		printf("# the resident set's peak is not known here\n");
	free(ed);
	profile_free(&p);
}

/* A cycle of 20,000 members with 13 events (main calls m00000; mK calls
 * mK+1, the last m00000): by the one cycle rule a member's inclusive cost
 * is its self cost (no call leaves the cycle), so the cycle's callee mK
 * costs, in event e, (K / 2 + 1) * (e + 1), by hand.  Its 20,000 edges
 * are small: the members' costs are not copied into them (13 costs an
 * edge were 2.6 MB more; the detail pane of a 1 GB profile's cycle of
 * 293,586 members built 97 MB), so the edges' block holds the edges and
 * no cost.  Pairs tie on every event: by name, A..Z (rank.h), so the
 * i-th callee by cost is m(N - i) when i is odd, else m(N - 2 - i),
 * read in pieces (query_edge_order, in less than 18 bytes an edge: a
 * key and a mark) and as a whole (query_order_edges). */
static void test_cycle_members(void)
{
	enum { N = 20000, NE = 13 };
	struct text tx = { 0 };
	textf(&tx, "events: A B C D E F G H I J K L M\nfl=a.c\nfn=main\n1 1\n"
				"cfn=m00000\ncalls=1 2\n1 1\n");
	for (int k = 0; k < N; k++) {
		textf(&tx, "fn=m%05d\n2", k);
		for (int e = 0; e < NE; e++)
			textf(&tx, " %d", (k / 2 + 1) * (e + 1));
		textf(&tx, "\ncfn=m%05d\ncalls=1 3\n3 1\n", (k + 1) % N);
	}
	struct profile p;
	ok(load(&p, tx.s) == 0, "a cycle of 20,000 loads: %s", lasterr);
	free(tx.s);
	const struct agg *a = profile_agg(&p);
	uint32_t c = agg_cycle_ent(a, agg_cycle_no(a, fn(&p, "m00000")));
	struct edge *ed;
	int n = query_edges(&p, c, 0, &ed);
	is(n, N, "the cycle's callees: its 20,000 members");
	int good = 1;
	for (int i = 0; i < n; i++) {
		int k = atoi(fn_name(&p, ed[i].fn) + 1);
		good &= ed[i].kind == CALL_MEMBER;
		for (int e = 0; e < NE; e++)
			good &= ed[i].cost[e] == (cost_t)(k / 2 + 1) * (e + 1);
	}
	ok(good, "each member's edge: its self cost in the 13 events, by hand");
	ok(malloc_usable_size(ed) < (size_t)n * sizeof(*ed) + 4096,
	   "the edges' block: %zu bytes for %d edges of %zu (no copy of their costs)",
	   malloc_usable_size(ed), n, sizeof(*ed));
	int known = heap_known();
	size_t before = heap_used();
	struct edge_order *o = query_edge_order(&p, ed, (size_t)n, 5);
	if (known) /* (24 bytes a key before, 56 before that) */
		ok(heap_used() - before < (size_t)n * 18, "its order: %zu bytes for %d edges",
		   heap_used() - before, n);
	else
		printf("# the heap in use is not known here (a sanitizer's allocator)\n");
	uint32_t *order = xmalloc((size_t)n * sizeof(*order));
	query_order_edges(&p, ed, (size_t)n, 5, order);
	good = 1;
	int whole = 1;
	for (int i = 0; i < n; i += i < 10 || i > N - 10 ? 1 : 997) {
		char want[16];
		snprintf(want, sizeof(want), "m%05d", i % 2 ? N - i : N - 2 - i);
		good &= !strcmp(fn_name(&p, ed[query_edge_at(o, (size_t)i)].fn), want);
		whole &= !strcmp(fn_name(&p, ed[order[i]].fn), want);
	}
	ok(good, "read in pieces: by cost, then a tie by name");
	ok(whole, "ordered as a whole: the same");
	free(order);
	query_edge_order_free(o);
	/* the same order without the edges (the detail pane of a cycle): each
	 * read is the member by hand, called from outside (main) m00000 once */
	before = heap_used();
	o = query_member_order(&p, c, 5);
	if (known)
		ok(heap_used() - before < (size_t)n * 18, "the members' order: %zu bytes for %d",
		   heap_used() - before, n);
	const uint32_t *mem = &a->cyc_fn[a->cyc_start[agg_cycle_no(a, c) - 1]];
	good = 1;
	for (int i = 0; i < n; i += i < 10 || i > N - 10 ? 1 : 997) {
		char want[16];
		snprintf(want, sizeof(want), "m%05d", i % 2 ? N - i : N - 2 - i);
		good &= !strcmp(fn_name(&p, mem[query_edge_at(o, (size_t)i)]), want);
	}
	ok(good, "the members read in pieces without edges: the same order");
	query_edge_order_free(o);
	ok(query_member_calls(&p, fn(&p, "m00000")) == 1 && query_member_calls(&p, fn(&p, "m00001")) == 0 &&
		   query_member_calls(&p, fn(&p, "m19999")) == 0,
	   "the calls into members from outside: m00000 1 (main), m00001 and m19999 none");
	free(ed);
	profile_free(&p);
}

/* The inclusive rows (aggregate.h, incl_ix): 13 events, each value below
 * times (event + 1).  main (self 1) calls N leaves k (self (k % 100) + 1,
 * the calls the same), x 1x 35 and r 1x 3; x (10) -> y 1x 40; y (20) ->
 * x 1x 7, y -> z 1x 5; z (5); r (3) -> r 1x 2.  By hand, detection on:
 * {x, y} is cycle 1, self 30; x's inclusive its self 10 (its one call
 * stays in the cycle), y's 20 + 5, the cycle's 10 + 25 = 35; r's its
 * self 3 (its call to itself is inside its outer call); z and the leaves
 * their self; main's 1 + sum(leaves) + 35 + 3.  Off: x 10 + 40 = 50, y 20
 * + 7 + 5 = 32, r 3 + 2 = 5, the rest as on.  Only main, y and the cycle
 * have a row of their own with detection on, only x, y and r off: the
 * aggregation's heap grows by less than 48 bytes a function (a second row
 * of 104 before, and a self row of 104 before the self rows were the line
 * store's subtotals: test_self_rows), detection off by less than 8 (a row
 * of 104 before). */
static void test_incl_rows(void)
{
	enum { N = 20000, NE = 13 };
	struct text tx = { 0 };
	long long leaves = 0;
	textf(&tx, "events: A B C D E F G H I J K L M\nfl=a.c\nfn=main\n1");
	for (int e = 0; e < NE; e++)
		textf(&tx, " %d", e + 1);
	for (int k = 0; k < N; k++) {
		textf(&tx, "\ncfn=l%05d\ncalls=1 2\n1", k);
		for (int e = 0; e < NE; e++)
			textf(&tx, " %d", (k % 100 + 1) * (e + 1));
		leaves += k % 100 + 1;
	}
	static const struct {
		const char *from, *to;
		int cost;
	} call[] = { { "main", "x", 35 }, { "main", "r", 3 }, { "x", "y", 40 },
		     { "y", "x", 7 },     { "y", "z", 5 },    { "r", "r", 2 } };
	static const struct {
		const char *name;
		int self;
	} fns[] = { { "x", 10 }, { "y", 20 }, { "z", 5 }, { "r", 3 } };
	for (size_t c = 0; c < 2; c++) {
		textf(&tx, "\ncfn=%s\ncalls=1 2\n1", call[c].to);
		for (int e = 0; e < NE; e++)
			textf(&tx, " %d", call[c].cost * (e + 1));
	}
	for (int k = 0; k < N; k++) {
		textf(&tx, "\nfn=l%05d\n2", k);
		for (int e = 0; e < NE; e++)
			textf(&tx, " %d", (k % 100 + 1) * (e + 1));
	}
	for (size_t f = 0; f < sizeof(fns) / sizeof(fns[0]); f++) {
		textf(&tx, "\nfn=%s\n3", fns[f].name);
		for (int e = 0; e < NE; e++)
			textf(&tx, " %d", fns[f].self * (e + 1));
		for (size_t c = 2; c < sizeof(call) / sizeof(call[0]); c++) {
			if (strcmp(call[c].from, fns[f].name))
				continue;
			textf(&tx, "\ncfn=%s\ncalls=1 3\n3", call[c].to);
			for (int e = 0; e < NE; e++)
				textf(&tx, " %d", call[c].cost * (e + 1));
		}
	}
	textf(&tx, "\n");
	struct profile p;
	ok(load(&p, tx.s) == 0, "main, 20,000 leaves, a cycle and a recursive function load: %s",
	   lasterr);
	free(tx.s);
	int known = heap_known();
	size_t before = heap_used();
	const struct agg *a = profile_agg(&p);
	size_t grew = heap_used() - before;
	uint32_t x = fn(&p, "x"), y = fn(&p, "y"), z = fn(&p, "z"), r = fn(&p, "r"), m = fn(&p, "main");
	uint32_t ce = agg_cycle_ent(a, 1);
	ok(a->ncycles == 1 && agg_cycle_no(a, x) == 1 && agg_cycle_no(a, y) == 1,
	   "one cycle: x and y");
	long long on[][2] = { { m, 1 + leaves + 35 + 3 }, { x, 10 }, { y, 25 }, { z, 5 }, { r, 3 },
			      { ce, 35 }, { fn(&p, "l00042"), 43 }, { fn(&p, "l19999"), 100 } };
	int good = 1;
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++)
		for (int e = 0; e < NE; e++)
			good &= agg_incl(a, (uint32_t)on[i][0])[e] == (cost_t)(on[i][1] * (e + 1));
	ok(good, "detection on: the inclusive costs by hand in the 13 events");
	ok(agg_self(a, ce)[12] == 30 * 13 && agg_self(a, y)[0] == 20, "the self costs: cycle 30, y 20");
	is(a->nincl, 3, "rows of their own: main, y and the cycle");
	ok(agg_incl(a, x) == agg_self(a, x) && agg_incl(a, z) == agg_self(a, z) &&
		   agg_incl(a, fn(&p, "l00007")) == agg_self(a, fn(&p, "l00007")),
	   "x, z and a leaf: their self row");
	if (known)
		ok(grew < (size_t)(N + 6) * 48, "the aggregation: %zu bytes for %d functions (< 48 each)",
		   grew, N + 6);
	else
		printf("# the heap in use is not known here (a sanitizer's allocator)\n");
	before = heap_used();
	profile_set_cycles(&p, 0);
	grew = heap_used() - before;
	long long off[][2] = { { m, 1 + leaves + 35 + 3 }, { x, 50 }, { y, 32 }, { z, 5 }, { r, 5 },
			       { fn(&p, "l00042"), 43 } };
	good = 1;
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		for (int e = 0; e < NE; e++)
			good &= agg_incl(a, (uint32_t)off[i][0])[e] == (cost_t)(off[i][1] * (e + 1));
	ok(good && agg_nent(a) == N + 5, "detection off: no cycle; the inclusive costs by hand");
	is(a->nraw, 3, "rows of their own off: x, y and r");
	if (known)
		ok(grew < (size_t)(N + 5) * 8, "detection off: %zu bytes for %d functions (< 8 each)",
		   grew, N + 5);
	profile_set_cycles(&p, 1);
	ok(agg_incl(a, y)[1] == 50 && agg_incl(a, r)[0] == 3, "on again: y 25, r 3");
	profile_free(&p);
}

/* The self rows (aggregate.h, self_ix), events Ir Dr: "one" in one block
 * (3 4); "two" in one block of two files, a.c (5 6) then h.h by fi= (7 8);
 * "again" in two blocks (1 1, 100 200); x (10 20) and y (30 40) call each
 * other; "callee" is only called (x calls it), never defined.  By hand:
 * one 3 4, two 12 14, again 101 201, x 10 20, y 30 40, cycle {x, y} 40 60,
 * callee 0 0; totals 156 279.  A function in one block subtotal of the
 * line store has that subtotal as its self row, not a copy of it (it was
 * a copy before): "one" and x, y; the others' are sums.  Then N functions
 * of 13 events each in one block: the aggregation's heap grows by less
 * than 48 bytes a function, no row of 104 bytes for each (there was one
 * before). */
static void test_self_rows(void)
{
	struct profile p;
	ok(load(&p, "events: Ir Dr\nfl=a.c\nfn=one\n1 3 4\nfn=two\n2 5 6\nfi=h.h\n3 7 8\n"
		    "fn=again\n4 1 1\nfn=x\n5 10 20\ncfn=y\ncalls=1 9\n5 1 1\n"
		    "cfn=callee\ncalls=2 9\n5 2 2\nfn=y\n6 30 40\ncfn=x\ncalls=1 5\n6 1 1\n"
		    "fn=again\n7 100 200\n") == 0,
	   "one, two, again (twice), x, y and a callee load: %s", lasterr);
	const struct agg *a = profile_agg(&p);
	static const struct {
		const char *name;
		cost_t ir, dr;
	} want[] = { { "one", 3, 4 }, { "two", 12, 14 }, { "again", 101, 201 },
		     { "x", 10, 20 },   { "y", 30, 40 },   { "callee", 0, 0 } };
	int good = 1;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint32_t f = fn(&p, want[i].name);
		good &= f != NO_ID && agg_self(a, f)[0] == want[i].ir && agg_self(a, f)[1] == want[i].dr;
	}
	ok(good, "the self costs by hand: one 3 4, two 12 14, again 101 201, x 10 20, y 30 40, "
		 "callee 0 0");
	uint32_t ce = agg_cycle_ent(a, 1);
	ok(a->ncycles == 1 && agg_self(a, ce)[0] == 40 && agg_self(a, ce)[1] == 60,
	   "the cycle of x and y: self 40 60");
	ok(p.totals[0] == 156 && p.totals[1] == 279, "totals 156 279");
	/* the line store's subtotals of one, x and y (one each) */
	int shared = 0, copies = 0;
	const char *single[] = { "one", "x", "y" };
	for (size_t i = 0; i < 3; i++) {
		uint32_t f = fn(&p, single[i]), blocks = 0, at = 0;
		for (uint32_t k = 0; k < p.ls.nff; k++)
			if (p.ls.ff[k].fn == f)
				blocks++, at = k;
		shared += blocks == 1 && agg_self(a, f) == &p.ls.ffcost[(size_t)at * 2];
	}
	for (uint32_t k = 0; k < p.ls.nff; k++)
		copies += agg_self(a, fn(&p, "two")) == &p.ls.ffcost[(size_t)k * 2] ||
			  agg_self(a, fn(&p, "again")) == &p.ls.ffcost[(size_t)k * 2];
	ok(shared == 3 && copies == 0,
	   "one, x and y: their one subtotal is their self row; two and again: a sum of their own");
	profile_free(&p);

	enum { N = 20000, NE = 13 };
	struct text tx = { 0 };
	textf(&tx, "events:");
	for (int e = 0; e < NE; e++)
		textf(&tx, " E%d", e);
	textf(&tx, "\nfl=f.c\n");
	for (int k = 0; k < N; k++) {
		textf(&tx, "fn=f%05d\n1", k);
		for (int e = 0; e < NE; e++)
			textf(&tx, " %d", k + e);
		textf(&tx, "\n");
	}
	ok(load(&p, tx.s) == 0, "%d functions of 13 events load: %s", N, lasterr);
	free(tx.s);
	int known = heap_known();
	size_t before = heap_used();
	a = profile_agg(&p);
	size_t grew = heap_used() - before;
	uint32_t f = fn(&p, "f12345");
	ok(agg_self(a, f)[0] == 12345 && agg_self(a, f)[12] == 12345 + 12,
	   "f12345: self 12345 .. 12357");
	if (known)
		ok(grew < (size_t)N * 48, "the aggregation: %zu bytes for %d functions (< 48 each)",
		   grew, N);
	else
		printf("# the heap in use is not known here (a sanitizer's allocator)\n");
	profile_free(&p);
}

/* cg_annotate's file:function pairs (agg_filefn): s of objects A and B,
 * both in a.c, are one pair (1 + 100), s's lines in h.h (fi=) another (10);
 * g of A has lines only in h.h (2), g of B is h.h's own (4): one pair h.h:g
 * of 6 whose function is B's (its own file), though A's block comes first.
 * Then 20,000 functions each in a file of its own: 20,000 pairs, each a
 * 12-byte entry naming its block's subtotal by its row, its name its
 * function's (24 bytes with the name and a pointer to the subtotal,
 * before; 32 in a block grown by doubling, before that).  The same pairs
 * made by the aggregation on its way (agg_pairs, the report's), at 1 and 2
 * threads, handed over once. */
static const char two_objects[] = "events: Ir\nob=A\nfl=a.c\nfn=s\n1 1\nfi=h.h\n2 10\nob=B\nfl=a.c\n"
				  "fn=s\n3 100\nob=A\nfl=x.c\nfn=g\nfi=h.h\n7 2\nob=B\nfl=h.h\n"
				  "fn=g\n8 4\n";

static void check_two_objects_pairs(const struct profile *p, const struct filefn *ff, size_t n,
				    const cost_t *pool, const char *how)
{
	is(n, 3, "%s: three pairs: a.c:s, h.h:s, h.h:g", how);
	cost_t got[3] = { -1, -1, -1 };
	uint32_t gfn = NO_ID;
	const char *const pair[3][2] = { { "a.c", "s" }, { "h.h", "s" }, { "h.h", "g" } };
	for (size_t i = 0; ff && i < n; i++)
		for (int k = 0; k < 3; k++)
			if (!strcmp(file_name(p, ff[i].file), pair[k][0]) &&
			    !strcmp(p->names.str[filefn_name(p, &ff[i])], pair[k][1])) {
				got[k] = filefn_cost(p, pool, &ff[i])[0];
				if (k == 2)
					gfn = ff[i].fn;
			}
	ok(got[0] == 101 && got[1] == 10 && got[2] == 6, "%s: a.c:s 1 + 100, h.h:s 10, h.h:g 2 + 4",
	   how);
	ok(gfn != NO_ID && !strcmp(obj_name(p, p->fns[gfn].obj), "B"),
	   "%s: h.h:g's function: B's, whose own file h.h is", how);
}

static void test_filefn_pairs(void)
{
	struct profile p;
	ok(load(&p, two_objects) == 0, "two objects' s and g: %s", lasterr);
	size_t n;
	cost_t *pool;
	struct filefn *ff = agg_filefn(&p, &n, &pool);
	check_two_objects_pairs(&p, ff, n, pool, "asked for");
	filefn_free(ff, pool);
	profile_free(&p);
	for (int jobs = 1; jobs <= 2; jobs++) {
		char how[64];
		snprintf(how, sizeof(how), "made on the aggregation's way, %d thread%s", jobs,
			 jobs > 1 ? "s" : "");
		ok(load(&p, two_objects) == 0, "%s: %s", how, lasterr);
		p.jobs = jobs;
		p.agg_pairs = 1;
		const struct agg *a = profile_agg(&p);
		ok(a->way_ff != NULL && a->way_nff == 3, "%s: there before anyone asks", how);
		const struct filefn *made = a->way_ff;
		ff = agg_filefn(&p, &n, &pool);
		ok(ff == made && a->way_ff == NULL, "%s: handed over, once", how);
		check_two_objects_pairs(&p, ff, n, pool, how);
		filefn_free(ff, pool);
		ff = agg_filefn(&p, &n, &pool); /* (made again) */
		check_two_objects_pairs(&p, ff, n, pool, "asked for again");
		filefn_free(ff, pool);
		profile_free(&p);
	}

	enum { N = 20000 };
	struct text tx = { 0 };
	textf(&tx, "events: Ir\n");
	for (int k = 0; k < N; k++)
		textf(&tx, "fl=f%05d.c\nfn=f%05d\n1 %d\n", k, k, k + 1);
	ok(load(&p, tx.s) == 0, "20,000 functions in their own files: %s", lasterr);
	free(tx.s);
	ff = agg_filefn(&p, &n, &pool);
	int good = n == N;
	for (size_t i = 0; good && i < n; i++)
		good = filefn_cost(&p, pool, &ff[i])[0] == atoi(p.names.str[filefn_name(&p, &ff[i])] + 1) + 1 && ff[i].fn != NO_ID &&
		       p.fns[ff[i].fn].file == ff[i].file;
	ok(good, "20,000 pairs, each its function's one block, by hand");
	ok(malloc_usable_size(ff) < (n + 1) * 12 + 4096, "their entries: %zu bytes for %zu",
	   malloc_usable_size(ff), n);
	filefn_free(ff, pool);
	profile_free(&p);
}

/* rank_lazy against a full sort: 20,000 distinct numbers (i * 7919 mod
 * 20011, a prime: all different) read in a scattered order, then in turn;
 * and an array already in order (quicksort's bad case, cut short). */
static int cmp_u32(const void *x, const void *y, void *arg)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	(void)arg;
	return a < b ? -1 : a > b;
}

static void test_lazy(void)
{
	enum { N = 20000, P = 20011 };
	uint32_t *v = xmalloc(N * sizeof(*v)), *w = xmalloc(N * sizeof(*w));
	for (uint32_t i = 0; i < N; i++)
		v[i] = w[i] = (uint32_t)(((uint64_t)i * 7919) % P);
	qsort_r(w, N, sizeof(*w), cmp_u32, NULL);
	struct rank_lazy l;
	rank_lazy_init(&l, v, N, sizeof(*v), cmp_u32, NULL);
	int good = 1;
	for (size_t k = 0; k < 50; k++) {
		size_t i = (k * 7907) % N;
		good &= *(uint32_t *)rank_lazy_at(&l, i) == w[i];
	}
	ok(good, "50 scattered reads: each the element a full sort puts there");
	for (size_t i = 0; i < N; i++)
		good &= *(uint32_t *)rank_lazy_at(&l, i) == w[i];
	ok(good && memcmp(v, w, N * sizeof(*v)) == 0, "then all in turn: the full sort's order");
	rank_lazy_free(&l);
	rank_lazy_init(&l, v, N, sizeof(*v), cmp_u32, NULL);
	ok(*(uint32_t *)rank_lazy_at(&l, N / 3) == w[N / 3] &&
		   *(uint32_t *)rank_lazy_at(&l, N - 1) == w[N - 1],
	   "an array in order already: read where it is");
	rank_lazy_free(&l);
	free(v);
	free(w);
}

/* A page read at either end of a long list (a cycle's 300,000 members, the
 * first 45 shown; a function's 60,000 callers, the last 2): the rows a
 * full sort puts there, for at most 1.25 comparisons per element, where
 * halving the list down to the page costs more than 2 (n, n/2, n/4 ...
 * with pivots that fall near the middle). */
static long lazy_ncmp;
static int cmp_u32_counted(const void *x, const void *y, void *arg)
{
	lazy_ncmp++;
	return cmp_u32(x, y, arg);
}

enum { LAZY_N = 300000, LAZY_P = 300007 };
/* v: LAZY_N distinct numbers in a scattered order, in l, none compared */
static void lazy_scattered(uint32_t *v, struct rank_lazy *l)
{
	for (uint32_t i = 0; i < LAZY_N; i++)
		v[i] = (uint32_t)(((uint64_t)i * 104729) % LAZY_P);
	rank_lazy_init(l, v, LAZY_N, sizeof(*v), cmp_u32_counted, NULL);
	lazy_ncmp = 0;
}

static void test_lazy_page(void)
{
	enum { N = LAZY_N, PAGE = 45 };
	uint32_t *v = xmalloc(N * sizeof(*v)), *w = xmalloc(N * sizeof(*w));
	for (uint32_t i = 0; i < N; i++)
		w[i] = (uint32_t)(((uint64_t)i * 104729) % LAZY_P);
	qsort_r(w, N, sizeof(*w), cmp_u32, NULL);
	for (int end = 0; end < 2; end++) {
		struct rank_lazy l;
		lazy_scattered(v, &l);
		int good = 1;
		for (size_t k = 0; k < PAGE; k++) {
			size_t i = end ? N - 1 - k : k;
			good &= *(uint32_t *)rank_lazy_at(&l, i) == w[i];
		}
		ok(good, "lazy order, the %s %d of %d: those of a full sort", end ? "last" : "first",
		   PAGE, N);
		ok(lazy_ncmp <= N + N / 4, "lazy order, the %s %d of %d: %ld comparisons, at most %d",
		   end ? "last" : "first", PAGE, N, lazy_ncmp, N + N / 4);
		rank_lazy_free(&l);
	}
	/* and all of them in turn (a filter's rows): about what a sort costs,
	 * at most 1.5 n log2 n (each part cut unevenly: 4 times that) */
	struct rank_lazy l;
	lazy_scattered(v, &l);
	int good = 1;
	for (size_t i = 0; i < N; i++)
		good &= *(uint32_t *)rank_lazy_at(&l, i) == w[i];
	long most = 0;
	for (long m = N; m > 1; m = (m + 1) / 2)
		most += 3 * (long)N / 2; /* (log2 n rounded up) */
	ok(good && lazy_ncmp <= most, "lazy order, all %d in turn: %ld comparisons, at most %ld", N,
	   lazy_ncmp, most);
	rank_lazy_free(&l);
	free(v);
	free(w);
}

/* Grouping (grouping.h): keys 7 3 7 NO_ID 0 3 7 for items 0..6: groups in
 * the order of their first item, 7 (items 0 2 6), 3 (1 5), 0 (4); item 3
 * left out.  By hand, as cg_annotate lists a file's functions in the order
 * it met them before sorting. */
static void test_grouping(void)
{
	const uint32_t keyof[7] = { 7, 3, 7, NO_ID, 0, 3, 7 };
	struct grouping g;
	grouping_make(&g, keyof, 7, 8);
	is(g.ng, 3, "grouping: 3 groups");
	static const uint32_t key[3] = { 7, 3, 0 }, start[4] = { 0, 3, 5, 6 };
	static const uint32_t item[6] = { 0, 2, 6, 1, 5, 4 };
	int same = g.ng == 3;
	for (int k = 0; same && k < 3; k++)
		same = g.key[k] == key[k] && g.start[k] == start[k] && g.start[k + 1] == start[k + 1];
	for (int i = 0; same && i < 6; i++)
		same = g.item[i] == item[i];
	ok(same, "grouping: keys 7 3 0 in order of first appearance, items 0 2 6 | 1 5 | 4");
	grouping_free(&g);
	grouping_make(&g, keyof, 0, 8);
	is(g.ng, 0, "grouping: no items, no groups");
	grouping_free(&g);
	/* (a pair's name is its function's: function 1 is named 9) */
	struct function fns[2] = { { .name = 5 }, { .name = 9 } };
	struct profile fp = { .fns = fns };
	struct filefn f = { .file = 4, .fn = 1 };
	ok(filefn_key(&fp, &f, 1) == 4 && filefn_entry(&fp, &f, 1) == 9 && filefn_key(&fp, &f, 0) == 9 &&
		   filefn_entry(&fp, &f, 0) == 4,
	   "grouping: a pair's key is its file by file, its name by function, the entry the other");
}

int main(void)
{
	if (fixture_start() < 0)
		return 99;
	test_rank();
	test_grouping();
	test_cycle_rule();
	test_roots();
	test_identity();
	test_fold();
	test_labels();
	test_check_calls();
	test_parts_order();
	test_demangle();
	test_scope();
	test_order_part();
	test_cycle_members();
	test_edges_block();
	test_lazy();
	test_lazy_page();
	test_incl_rows();
	test_self_rows();
	test_filefn_pairs();
	fixture_end();
	return tap_done();
}
