/* test-model.c -- unit tests of the loader, the model and aggregation.
 * Every expected number is computed by hand from the format specification
 * (Valgrind's "Callgrind Format Specification" and the Cachegrind manual),
 * as the comment beside it shows.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "profile/aggregate.h"
#include "profile/escape.h"
#include "profile/format.h"
#include "profile/instr.h"
#include "profile/load.h"
#include "profile/mrc.h"
#include "profile/model.h"
#include "profile/modname.h"
#include "profile/query.h"
#include "profile/scope.h"
#include "profile/util.h"
#include "report/report.h"
#include "fixture.h"
#include "tap.h"


static cost_t self(struct profile *p, const char *name, int e)
{
	uint32_t f = fn(p, name);
	return f == NO_ID ? -999999 : agg_self(profile_agg(p), f)[e];
}

static cost_t incl(struct profile *p, const char *name, int e)
{
	uint32_t f = fn(p, name);
	return f == NO_ID ? -999999 : agg_incl(profile_agg(p), f)[e];
}

static cost_t line_cost(struct profile *p, const char *fname, const char *file, uint32_t line, int e)
{
	cost_t v = 0;
	struct line_iter it;
	for (line_iter_all(&it, &p->ls); line_iter_next(&it);)
		if (strcmp(fn_name(p, it.fn), fname) == 0 &&
		    strcmp(file_name(p, it.file), file) == 0 && it.line == line)
			v += it.cost[e];
	return v;
}

/* Loads text followed by a 400-byte comment, so that its lines lie far
 * enough before the end of the mapped file for the loader's fast path. */
static int load_padded(struct profile *p, const char *text)
{
	size_t n = strlen(text) + 512;
	char *b = malloc(n);
	snprintf(b, n, "%s#%0400d\n", text, 0);
	int rc = load(p, b);
	free(b);
	return rc;
}

/* sum of count and cost over call sites caller -> callee */
static cost_t call(struct profile *p, const char *from, const char *to, cost_t *count, int e)
{
	cost_t v = 0;
	*count = 0;
	for (uint32_t r = 0; r < p->ncalls; r++) {
		if (strcmp(fn_name(p, p->calls[r].caller), from) != 0 ||
		    strcmp(fn_name(p, p->calls[r].callee), to) != 0)
			continue;
		cost_t c[MAX_EVENTS];
		call_cost(p, r, c);
		v += c[e];
		*count += call_count(p, r);
	}
	return v;
}

/* The self cost of event e of the function named name whose cost lines are
 * in file (the line store's block subtotals): functions of that name in
 * other files, or its lines in other files, are not counted. */
static cost_t ff_self(struct profile *p, const char *name, const char *file, int e)
{
	cost_t v = 0;
	for (uint32_t k = 0; k < p->ls.nff; k++)
		if (strcmp(fn_name(p, p->ls.ff[k].fn), name) == 0 &&
		    strcmp(file_name(p, p->ls.ff[k].file), file) == 0)
			v += p->ls.ffcost[(size_t)k * p->nreal + e];
	return v;
}

static void test_spec_example(void)
{
	struct profile p;
	ok(load(&p, spec_example) == 0, "spec example loads: %s", lasterr);
	/* self: main 20, func1 100, func2 700; total 820 */
	is(p.totals[0], 820, "total = 20 + 100 + 700");
	is(self(&p, "main", 0), 20, "self main");
	is(self(&p, "func1", 0), 100, "self func1");
	is(self(&p, "func2", 0), 700, "self func2");
	/* "Inclusive cost of main is 820": 20 + 400 (func1) + 400 (3 calls of func2) */
	is(incl(&p, "main", 0), 820, "inclusive main = 820 (spec)");
	is(incl(&p, "func1", 0), 400, "inclusive func1 = 100 + 300");
	is(incl(&p, "func2", 0), 700, "inclusive func2 = self");
	cost_t n;
	is(call(&p, "main", "func2", &n, 0), 400, "main->func2 inclusive");
	is(n, 3, "main->func2 called 3 times");
	is(call(&p, "func1", "func2", &n, 0), 300, "func1->func2 inclusive");
	is(n, 2, "func1->func2 called 2 times");
	const struct agg *a = profile_agg(&p);
	is(a->fn_ncalls[fn(&p, "func2")], 5, "func2 called 5 times in all");
	is(a->ncycles, 0, "no cycles");
	is(line_cost(&p, "main", "file1.c", 16, 0), 20, "call costs are not line self cost");
	profile_free(&p);
}

static void test_name_compression(void)
{
	struct profile p;
	/* the same example with compressed names, defined up front */
	ok(load(&p, "events: Instructions\n"
		    "fl=(1) file1.c\nfl=(2) file2.c\nfn=(1) main\nfn=(2) func1\nfn=(3) func2\n"
		    "fl=(1)\nfn=(1)\n16 20\ncfn=(2)\ncalls=1 50\n16 400\n"
		    "cfl=(2)\ncfn=(3)\ncalls=3 20\n16 400\n"
		    "fn=(2)\n51 100\ncfl=(2)\ncfn=(3)\ncalls=2 20\n51 300\n"
		    "fl=(2)\nfn=(3)\n20 700\n") == 0,
	   "compressed names load: %s", lasterr);
	is(p.totals[0], 820, "total 820");
	is(incl(&p, "main", 0), 820, "inclusive main 820");
	is(p.nfns, 3, "three functions (file ids and function ids are separate spaces)");
	profile_free(&p);

	/* separate id spaces: (1) is a file and a function and an object */
	ok(load(&p, "events: Ir\nob=(1) /bin/x\nfl=(1) a.c\nfn=(1) f\n1 5\n") == 0, "ids per kind");
	is_str(obj_name(&p, p.fns[0].obj), "/bin/x", "object (1)");
	is_str(file_name(&p, p.fns[0].file), "a.c", "file (1)");
	is_str(fn_name(&p, 0), "f", "function (1)");
	profile_free(&p);

	/* identical redefinition is accepted */
	ok(load(&p, "events: Ir\nfl=(1) a.c\nfn=(1) f\n1 5\nfl=(1) a.c\nfn=(1) f\n2 5\n") == 0,
	   "identical redefinition");
	is(self(&p, "f", 0), 10, "costs of both blocks");
	is(p.nwarnings, 0, "no warning for an identical redefinition");
	profile_free(&p);

	/* used before defined (old callgrind), defined later */
	ok(load(&p, "events: Ir\nfl=(1) a.c\nfn=(1) f\n1 5\ncob=(4)\ncfn=(2) g\ncalls=1 1\n1 3\n"
		    "ob=(4) /lib/libg.so\nfn=(2)\n1 3\n") == 0,
	   "forward reference to an object id: %s", lasterr);
	uint32_t g = fn(&p, "g");
	ok(g != NO_ID && strcmp(obj_name(&p, p.fns[g].obj), "/lib/libg.so") == 0,
	   "forward reference resolved to the later definition");
	profile_free(&p);

	/* issue 16's smallest case: (4872) is defined as J, then used; the
	 * 7 Ir are J's, no function is called "(4872)", nothing is undefined */
	ok(load(&p, "events: Ir\nfn=(3204) A\nfn=(3208) B\nfn=(3222) C\nfn=(2749) D\n"
		    "fn=(3910) E\nfn=(4006) F\nfn=(4008) G\nfn=(4018) H\nfn=(3912) I\n"
		    "fn=(4872) J\nfn=(4128) K\nfn=(4872)\n0 7\n") == 0,
	   "ids defined out of order load: %s", lasterr);
	is(self(&p, "J", 0), 7, "(4872) is J: its 7 Ir");
	ok(fn(&p, "(4872)") == NO_ID, "no function named (4872)");
	is(p.nwarnings, 0, "no warning");
	profile_free(&p);

	/* used before its definition, defined, then defined the same way again:
	 * one function g with all three costs (5 + 3 + 2), no warning */
	ok(load(&p, "events: Ir\nfl=(1) a.c\nfn=(7)\n1 5\nfn=(7) g\n1 3\nfn=(7) g\n1 2\n") == 0,
	   "forward reference, definition, identical definition: %s", lasterr);
	is(self(&p, "g", 0), 10, "one function g with 10 Ir");
	is(p.nfns, 1, "one function");
	is(p.nwarnings, 0, "no warning (%s)", p.nwarnings ? p.warnings[0] : "");
	profile_free(&p);

	/* ids never defined: one warning each, at the line of its first use */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=(3)\n1 5\ncob=(9)\ncfn=(3)\ncalls=1 1\n1 1\n"
		    "fn=(4)\n1 1\nfl=(2)\nfn=(4)\n2 2\n") == 0, "undefined ids: %s", lasterr);
	is(p.nwarnings, 4, "four ids never defined: four warnings");
	const char *want[4] = {
		"p.out:3: function id (3) is used but never defined; shown as (3)",
		"p.out:5: object id (9) is used but never defined; shown as (9)",
		"p.out:9: function id (4) is used but never defined; shown as (4)",
		"p.out:11: file id (2) is used but never defined; shown as (2)",
	};
	for (int i = 0; i < 4 && i < p.nwarnings; i++)
		is_str(strrchr(p.warnings[i], '/') + 1, want[i], "warning %d", i);
	/* a function is its object, file and name: (4) in a.c and in (2) */
	is(ff_self(&p, "(4)", "a.c", 0), 1, "function (4) in a.c: 1");
	is(ff_self(&p, "(4)", "(2)", 0), 2, "function (4) in file (2): 2");
	profile_free(&p);
}

/* Another profile's function found by its name, file and object
 * (profile_fn_like, what the explorer keeps its views on with newer data):
 * all three must match, and of two with the same texts the first is it. */
static void test_fn_like(void)
{
	struct profile p, q;
	/* q: g in a.c twice, by its name and by an id used before it is
	 * defined as g (two name ids of one text), then g in b.c and g in
	 * x.so's a.c */
	ok(load(&q, "events: Ir\nfl=a.c\nfn=g\n1 1\nfn=(7)\n1 2\nfn=(7) g\n1 3\nfl=b.c\nfn=g\n1 4\n"
		    "ob=x.so\nfl=a.c\nfn=g\n1 6\n") == 0,
	   "q loads: %s", lasterr);
	is(q.nfns, 4, "q: four functions");
	ok(q.nfns == 4 && q.fns[0].name != q.fns[1].name && !strcmp(fn_name(&q, 0), "g") &&
		   !strcmp(fn_name(&q, 1), "g") && q.fns[0].file == q.fns[1].file,
	   "q: functions 0 and 1 are g in a.c by two name ids");
	/* p: the same functions in another order, and g in c.c */
	ok(load(&p, "events: Ir\nob=x.so\nfl=a.c\nfn=g\n1 1\nob=\nfl=c.c\nfn=g\n1 1\nfl=b.c\nfn=g\n1 1\n"
		    "fl=a.c\nfn=g\n1 1\n") == 0,
	   "p loads: %s", lasterr);
	is(p.nfns, 4, "p: four functions");
	for (int indexed = 0; indexed < 2; indexed++) {
		if (indexed)
			profile_index_fn_text(&q);
		const char *how = indexed ? "indexed" : "one by one";
		is(profile_fn_like(&q, &p, 0), 3, "x.so's a.c's g: q's 3 (%s)", how);
		is(profile_fn_like(&q, &p, 1), NO_ID, "c.c's g: none in q (%s)", how);
		is(profile_fn_like(&q, &p, 2), 2, "b.c's g: q's 2 (%s)", how);
		is(profile_fn_like(&q, &p, 3), 0, "a.c's g: q's first of two, 0 (%s)", how);
	}
	profile_free(&p);
	profile_free(&q);
}

/* profile_fn_find: a function by its ids, through the function hash the
 * loader leaves part-filled, and after profile_fn_index() fills it: the
 * same answers (by hand from the file), none for ids no function has */
static void test_fn_find(void)
{
	struct profile p;
	ok(load(&p, "events: Ir\nfl=a.c\nfn=f\n1 1\nfn=g\n1 2\nfl=b.c\nfn=g\n1 3\nob=x.so\nfl=a.c\n"
		    "fn=h\n1 4\n") == 0,
	   "loads: %s", lasterr);
	uint32_t a = strtab_find(&p.files, "a.c", 3), b = strtab_find(&p.files, "b.c", 3);
	uint32_t g = strtab_find(&p.names, "g", 1), h = strtab_find(&p.names, "h", 1);
	uint32_t x = strtab_find(&p.objs, "x.so", 4);
	for (int filled = 0; filled < 2; filled++) {
		if (filled)
			profile_fn_index(&p);
		const char *how = filled ? "filled" : "as loaded";
		uint32_t f = profile_fn_find(&p, p.fns[1].obj, a, g);
		is(f, 1, "g in a.c: 1 (%s)", how);
		f = profile_fn_find(&p, p.fns[1].obj, b, g);
		is(f, 2, "g in b.c: 2 (%s)", how);
		f = profile_fn_find(&p, x, a, h);
		is(f, 3, "h in x.so's a.c: 3 (%s)", how);
		f = profile_fn_find(&p, p.fns[1].obj, a, h);
		is(f, NO_ID, "h in a.c outside x.so: none (%s)", how);
	}
	profile_free(&p);
}

static void test_subpositions(void)
{
	struct profile p;
	/* spec 3.1.6: 0x80001234 90 1 / +3 * 5 / +1 +1 6 -> lines 90, 90, 91 */
	ok(load(&p, "positions: instr line\nevents: ticks\nfl=a.c\nfn=func\n"
		    "0x80001234 90 1\n+3 * 5\n+1 +1 6\n") == 0,
	   "subposition compression: %s", lasterr);
	is(line_cost(&p, "func", "a.c", 90, 0), 6, "line 90 = 1 + 5");
	is(line_cost(&p, "func", "a.c", 91, 0), 6, "line 91 = 6");
	ok(p.has_instr && p.has_line, "positions instr and line");
	profile_free(&p);

	/* relative line numbers with positions: line; negative steps */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=f\n10 1\n+5 2\n-3 4\n* 8\n") == 0, "relative lines");
	is(line_cost(&p, "f", "a.c", 10, 0), 1, "line 10");
	is(line_cost(&p, "f", "a.c", 15, 0), 2, "line 15 (+5)");
	is(line_cost(&p, "f", "a.c", 12, 0), 12, "line 12 (-3, then *) = 4 + 8");
	profile_free(&p);

	/* positions: instr only -> all at line 0 */
	ok(load(&p, "positions: instr\nevents: Ir\nfl=a.c\nfn=f\n0x10 3\n+4 4\n") == 0, "instr only");
	is(line_cost(&p, "f", "a.c", 0, 0), 7, "instr-only costs land on line 0");
	profile_free(&p);
}

static void test_cachegrind(void)
{
	struct profile p;
	/* Cachegrind format: '.' is zero, missing trailing counts are zero */
	ok(load(&p, "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
		    "cmd: ./prog arg\nevents: Ir Dr Dw\n"
		    "fl=a.c\nfn=main\n3 10 . 2\n4 5\n5 1 1\n"
		    "fl=b.h\nfn=main\n7 100 50 25\nsummary: 116 51 27\n") == 0,
	   "cachegrind file: %s", lasterr);
	is(p.nreal, 3, "3 events");
	is(p.totals[0], 116, "Ir = 10+5+1+100");
	is(p.totals[1], 51, "Dr = 0+0+1+50");
	is(p.totals[2], 27, "Dw = 2+0+0+25");
	is(p.nwarnings, 0, "summary matches: no warning");
	is_str(p.cmd, "./prog arg", "cmd");
	is_str(p.desc[0], "I1 cache: 32768 B, 64 B, 8-way associative", "desc line");
	/* cachegrind files have no objects: main in a.c and main in b.h are
	 * two functions, as cg_annotate's file:function pairs */
	is(p.nfns, 2, "a.c:main and b.h:main are distinct");
	profile_free(&p);

	/* summary that does not match: a warning, the sum wins */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=f\n1 10\nsummary: 11\n") == 0, "bad summary loads");
	is(p.totals[0], 10, "totals = sum of self costs");
	is(p.nwarnings, 1, "one warning about the summary");
	profile_free(&p);

	/* cg_annotate 3.21+ (issue 16): in Cachegrind's format an fl= line
	 * starts the pseudo-function <unspecified> of that file until an fn=
	 * line: <unspecified> a.c gets 5 + 10, f a.c 3, <unspecified> b.c 4
	 * (Dr 2), g b.c 1 (Dr 1); 23 Ir and 4 Dr in all */
	ok(load(&p, "desc: I1 cache: 32768 B\ncmd: ./a\nevents: Ir Dr\nfl=a.c\n1 5 1\nfn=f\n2 3\n"
		    "fl=b.c\n3 4 2\nfn=g\n4 1 1\nfl=a.c\n5 10 0\nsummary: 23 4\n") == 0,
	   "cachegrind file with fl= not followed by fn=: %s", lasterr);
	is(p.nfns, 4, "four functions");
	is(ff_self(&p, "<unspecified>", "a.c", 0), 15, "<unspecified> in a.c: 5 + 10");
	is(ff_self(&p, "<unspecified>", "a.c", 1), 1, "<unspecified> in a.c Dr");
	is(ff_self(&p, "f", "a.c", 0), 3, "f in a.c");
	is(ff_self(&p, "<unspecified>", "b.c", 0), 4, "<unspecified> in b.c");
	is(ff_self(&p, "<unspecified>", "b.c", 1), 2, "<unspecified> in b.c Dr");
	is(ff_self(&p, "g", "b.c", 0), 1, "g in b.c");
	is(p.nwarnings, 0, "the summary matches");
	profile_free(&p);
	/* a cost line after fl= and before any fn=: <unspecified> too (it was
	 * an error) */
	ok(load(&p, "cmd: ./a\nevents: Ir\nfl=a.c\n1 7\n") == 0, "fl= then a cost line: %s",
	   lasterr);
	is(ff_self(&p, "<unspecified>", "a.c", 0), 7, "<unspecified> in a.c");
	profile_free(&p);
	/* in Callgrind's format the function goes on after fl= (as
	 * callgrind_annotate and KCachegrind read it), its cost lines in the
	 * new file: f gets 5 in a.c and 3 in b.c.  Cachegrind's format has a
	 * cmd: line (cg_annotate requires one) and nothing of the others
	 * before */
	static const char *const cgfmt[] = {
		"events: Ir\nfl=a.c\nfn=f\n1 5\nfl=b.c\n2 3\n",
		"version: 1\ncmd: ./a\nevents: Ir\nfl=a.c\nfn=f\n1 5\nfl=b.c\n2 3\n",
		"# callgrind format\nevents: Ir\nfl=a.c\nfn=f\n1 5\nfl=b.c\n2 3\n",
		"creator: callgrind-3.19.0\nevents: Ir\nfl=a.c\nfn=f\n1 5\nfl=b.c\n2 3\ntotals: 8\n",
		"positions: line\nevents: Ir\nfl=a.c\nfn=f\n1 5\nfl=b.c\n2 3\n",
		"cmd: ./a\nevents: Ir\nob=x\nfl=a.c\nfn=f\n1 5\nfl=b.c\n2 3\n",
		"cmd: ./a\nevents: Ir\nfl=(1) a.c\nfn=(1) f\n1 5\nfl=(2) b.c\n2 3\n",
		"cmd: ./a\nevents: Ir\nfl=a.c\nfn=f\n1 5\ncfn=g\ncalls=1 1\n1 1\nfl=b.c\n2 3\n",
	};
	for (size_t i = 0; i < sizeof(cgfmt) / sizeof(cgfmt[0]); i++) {
		ok(load(&p, cgfmt[i]) == 0, "callgrind format %zu: %s", i, lasterr);
		is(ff_self(&p, "f", "a.c", 0), 5, "callgrind format %zu: f in a.c", i);
		is(ff_self(&p, "f", "b.c", 0), 3, "callgrind format %zu: f in b.c after fl=", i);
		ok(fn(&p, "<unspecified>") == NO_ID, "callgrind format %zu: no <unspecified>", i);
		profile_free(&p);
	}
}

static void test_inline_files(void)
{
	struct profile p;
	/* fi=/fe= switch the file of the following cost lines until fn= */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=f\n1 1\nfi=h.h\n2 10\nfe=a.c\n3 100\nfi=h.h\n4 1000\n"
		    "fn=g\n5 7\n") == 0,
	   "fi/fe: %s", lasterr);
	is(line_cost(&p, "f", "a.c", 1, 0), 1, "f a.c:1");
	is(line_cost(&p, "f", "h.h", 2, 0), 10, "f h.h:2 (fi)");
	is(line_cost(&p, "f", "a.c", 3, 0), 100, "f a.c:3 (fe back)");
	is(line_cost(&p, "f", "h.h", 4, 0), 1000, "f h.h:4");
	is(line_cost(&p, "g", "a.c", 5, 0), 7, "fn= resets fi: g in a.c");
	is(self(&p, "f", 0), 1111, "f self across files");
	is_str(file_name(&p, p.fns[fn(&p, "f")].file), "a.c", "f's own file is its fl=");
	size_t n;
	cost_t *pool;
	struct filefn *ff = agg_filefn(&p, &n, &pool);
	is(n, 3, "file:function pairs a.c:f, h.h:f, a.c:g");
	filefn_free(ff, pool);
	profile_free(&p);

	/* A block's records are stored grouped by file, so that one file's
	 * lines are read without the others': files interleaved within a
	 * block, and f in a second block.  By hand: a.c: 1 -> 1, 3 -> 100,
	 * 5 -> 7 (g), 6 -> 3 (f again); h.h: 2 -> 10, 4 -> 1000 + 5. */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=f\n1 1\nfi=h.h\n2 10\nfe=a.c\n3 100\nfi=h.h\n4 1000\n"
		    "fn=g\n5 7\nfn=f\nfi=h.h\n4 5\nfe=a.c\n6 3\n") == 0,
	   "interleaved files: %s", lasterr);
	const uint32_t want_a[][2] = { { 1, 1 }, { 3, 100 }, { 5, 7 }, { 6, 3 } };
	const uint32_t want_h[][2] = { { 2, 10 }, { 4, 1005 } };
	const struct {
		const char *file;
		const uint32_t (*want)[2];
		uint32_t n;
	} cases[] = { { "a.c", want_a, 4 }, { "h.h", want_h, 2 } };
	for (int c = 0; c < 2; c++) {
		struct file_lines fl;
		query_file_lines(&p, strtab_find(&p.files, cases[c].file, strlen(cases[c].file)), &fl);
		int good = fl.n == cases[c].n;
		for (uint32_t i = 0; good && i < fl.n; i++)
			good = fl.line[i] == cases[c].want[i][0] &&
			       fl.cost[i] == (cost_t)cases[c].want[i][1];
		ok(good, "the lines of %s, from its runs of records only (%u lines)", cases[c].file,
		   fl.n);
		file_lines_free(&fl);
	}
	is(line_cost(&p, "f", "h.h", 4, 0), 1005, "every record still read in order: f h.h:4");
	is(line_cost(&p, "f", "a.c", 6, 0), 3, "f a.c:6 after a file's run");
	/* file:function pairs: f's two blocks are summed per file, g's one
	 * block is its own subtotal.  By hand: a.c:f 1+100+3, h.h:f
	 * 10+1000+5, a.c:g 7 */
	ff = agg_filefn(&p, &n, &pool);
	is(n, 3, "three file:function pairs over three blocks' subtotals");
	cost_t got[3] = { -1, -1, -1 };
	const char *const pair[3][2] = { { "a.c", "f" }, { "h.h", "f" }, { "a.c", "g" } };
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			if (!strcmp(file_name(&p, ff[i].file), pair[k][0]) &&
			    !strcmp(p.names.str[filefn_name(&p, &ff[i])], pair[k][1]))
				got[k] = filefn_cost(&p, pool, &ff[i])[0];
	is(got[0], 104, "a.c:f = 1 + 100 + 3 (two blocks)");
	is(got[1], 1015, "h.h:f = 10 + 1000 + 5 (two blocks)");
	is(got[2], 7, "a.c:g = 7 (one block)");
	filefn_free(ff, pool);
	profile_free(&p);
}

/* Cost lines that the loader's fast path (cost lines read in place in a
 * mapped file, at least a few hundred bytes before its end) starts and then
 * leaves to the general parser, and call and jump lines it completes.  The
 * same text is loaded three ways: short (the general parser only), padded
 * with a long comment (the fast path), and gzip-compressed (buffered).
 * Expected values by hand, line by line:
 *   L3 += 1 2 3; L3 += 4 -1 5 (negative: left to the general parser) = 5 1 8
 *   L4 = 10 0 2 ('.'); L4 += 7 1 1 (tab-separated) = 17 1 3
 *   L3 += 2 2 1 ('*' repeats the previous line's third cost, 1) = 7 3 9
 *   L5 = 1 (0X20: upper-case hex); L5 += 1234567890123456789 (19 digits)
 *   call f -> g x2 at line 5, inclusive 30 3 1; jump 6 -> 9 x3
 *   L6 = 1 1 1 (CRLF); g: L7 = 30 3 1 */
static void test_fast_path(void)
{
	static const char text[] =
		"positions: instr line\nevents: A B C\nfl=a.c\nfn=f\n"
		"0x10 3 1 2 3\n+2 * 4 -1 5\n+1 +1 10 . 2\n* *\t7\t1 1\n-3 -1 2 2 *\n"
		"0X20 5 1\n+1 5 1234567890123456789\n"
		"cfn=g\ncalls=2 0x30 7\n+1 5 30 3 1\njump=3 0x40 9\n+1 6\n+1 6 1 1 1\r\n"
		"fn=g\n0x30 7 30 3 1\n";
	char padded[sizeof(text) + 512];
	snprintf(padded, sizeof(padded), "%s#%0400d\n", text, 0);
	for (int way = 0; way < 3; way++) {
		static const char *const ways[] = { "short", "padded", "gzip" };
		const char *w = ways[way];
		struct profile p;
		int rc;
		if (way < 2) {
			rc = load(&p, way ? padded : text);
		} else {
			char *path = xasprintf("%s/fast.gz", tmpdir);
			gzFile gz = gzopen(path, "wb");
			gzputs(gz, padded);
			gzclose(gz);
			profile_init(&p);
			rc = profile_load(&p, path, NULL, lasterr, sizeof(lasterr));
			if (rc == 0)
				profile_finish(&p);
			free(path);
		}
		ok(rc == 0, "%s: loads: %s", w, lasterr);
		is(line_cost(&p, "f", "a.c", 3, 0), 7, "%s: line 3 A", w);
		is(line_cost(&p, "f", "a.c", 3, 1), 3, "%s: line 3 B (with -1)", w);
		is(line_cost(&p, "f", "a.c", 3, 2), 9, "%s: line 3 C (with *)", w);
		is(line_cost(&p, "f", "a.c", 4, 0), 17, "%s: line 4 A", w);
		is(line_cost(&p, "f", "a.c", 4, 1), 1, "%s: line 4 B", w);
		is(line_cost(&p, "f", "a.c", 4, 2), 3, "%s: line 4 C", w);
		is(line_cost(&p, "f", "a.c", 5, 0), 1234567890123456790, "%s: line 5 A", w);
		is(line_cost(&p, "f", "a.c", 5, 1), 0, "%s: line 5 B (call cost not self)", w);
		is(line_cost(&p, "f", "a.c", 6, 2), 1, "%s: line 6 C (CRLF)", w);
		is(line_cost(&p, "g", "a.c", 7, 0), 30, "%s: g line 7", w);
		cost_t n;
		is(call(&p, "f", "g", &n, 1), 3, "%s: call f -> g inclusive B", w);
		is(n, 2, "%s: call count", w);
		is(self(&p, "f", 2), 13, "%s: f self C = 9 + 3 + 1", w);
		is(incl(&p, "f", 2), 14, "%s: f inclusive C = 13 + 1", w);
		is(p.totals[0], 1234567890123456845, "%s: total A", w);
		size_t off = 0;
		struct jump_rec jr;
		int seen = 0;
		while (jump_next(&p, &off, &jr))
			seen += !jr.cond && jr.line == 6 && jr.tline == 9 && jr.executed == 3;
		is(seen, 1, "%s: jump 6 -> 9 x3", w);
		profile_free(&p);
	}
}

/* Hex subpositions with every hex letter, in both cases, relative and
 * absolute, read by the fast path (padded) and the general parser. */
static void test_hex_positions(void)
{
	static const char text[] = "events: A\nfl=a.c\nfn=f\n"
				   "0x9 1\n0xaf 2\n0xBC 3\n+0xd 4\n-0xe 5\n0xf0 6\n0xDEF 7\n0xbc 8\n";
	for (int way = 0; way < 2; way++) {
		const char *w = way ? "padded" : "short";
		struct profile p;
		ok((way ? load_padded(&p, text) : load(&p, text)) == 0, "%s: hex lines load: %s", w,
		   lasterr);
		is(line_cost(&p, "f", "a.c", 9, 0), 1, "%s: 0x9 is line 9", w);
		is(line_cost(&p, "f", "a.c", 175, 0), 2, "%s: 0xaf is line 175", w);
		is(line_cost(&p, "f", "a.c", 188, 0), 3 + 8, "%s: 0xBC and 0xbc are line 188", w);
		is(line_cost(&p, "f", "a.c", 201, 0), 4, "%s: +0xd after 188 is line 201", w);
		is(line_cost(&p, "f", "a.c", 187, 0), 5, "%s: -0xe after 201 is line 187", w);
		is(line_cost(&p, "f", "a.c", 240, 0), 6, "%s: 0xf0 is line 240", w);
		is(line_cost(&p, "f", "a.c", 3567, 0), 7, "%s: 0xDEF is line 3567", w);
		profile_free(&p);
	}
}

/* Runs of cost lines read in one go (the mapped file's fast path): the
 * forms it takes and those it leaves to the general parser, mixed; sums by
 * hand.  Then the line number of an error after such runs. */
static void test_fast_run(void)
{
	static const char text[] =
		"positions: instr line\nevents: A B C\nfl=a.c\nfn=f\n"
		"0x10 3 1 2 3\n"                 /* line 3: 1 2 3 (opens the block) */
		"+2 +1 4\n"                      /* line 4: 4 */
		"+1 * 5 6\n"                     /* line 4: 5 6 */
		"+1\n"                           /* line 4, no cost */
		"+1 -1 7 \n"                     /* line 3: 7, trailing space */
		"+1 +2 8  9\n"                   /* line 5: 8 9, two spaces */
		"+1 * 1 2 3\n"                   /* line 5: 1 2 3 */
		"+1 * 123456789012345678\n"      /* 18 digits */
		"+1 * 1234567890123456789\n"     /* 19 digits */
		"0x40 9 .\n"                     /* line 9: '.' */
		"* * 2 * 1\n"                    /* line 9: 2, B as the last B (2), 1 */
		"+1 +1 0 0 0\n";                 /* line 10: zeros */
	struct profile p;
	ok(load_padded(&p, text) == 0, "fast run: loads: %s", lasterr);
	is(line_cost(&p, "f", "a.c", 3, 0), 8, "fast run: line 3 A = 1 + 7");
	is(line_cost(&p, "f", "a.c", 3, 1), 2, "fast run: line 3 B");
	is(line_cost(&p, "f", "a.c", 4, 0), 9, "fast run: line 4 A = 4 + 5");
	is(line_cost(&p, "f", "a.c", 4, 1), 6, "fast run: line 4 B");
	is(line_cost(&p, "f", "a.c", 4, 2), 0, "fast run: line 4 C");
	is(line_cost(&p, "f", "a.c", 5, 0), 1358024679135802476,
	   "fast run: line 5 A = 8 + 1 + 123456789012345678 + 1234567890123456789");
	is(line_cost(&p, "f", "a.c", 5, 1), 11, "fast run: line 5 B = 9 + 2");
	is(line_cost(&p, "f", "a.c", 5, 2), 3, "fast run: line 5 C");
	is(line_cost(&p, "f", "a.c", 9, 0), 2, "fast run: line 9 A");
	is(line_cost(&p, "f", "a.c", 9, 1), 2, "fast run: line 9 B ('*')");
	is(line_cost(&p, "f", "a.c", 9, 2), 1, "fast run: line 9 C");
	is(line_cost(&p, "f", "a.c", 10, 0), 0, "fast run: line 10 A");
	is(self(&p, "f", 2), 7, "fast run: f self C = 3 + 3 + 1");
	profile_free(&p);

	static const char bad[] = "events: A B C\nfl=a.c\nfn=f\n"
				  "1 1\n2 2\n3 3\n"     /* lines 4-6 */
				  "cfn=g\ncalls=1 9\n3 5\n" /* lines 7-9 */
				  "4 4\n5 5\n"          /* lines 10-11 */
				  "6 1 2 3 4\n";        /* line 12: 4 costs, 3 events */
	ok(load_padded(&p, bad) != 0 && strstr(lasterr, "p.out:12: more costs"),
	   "fast run: error at line 12: %s", lasterr);
	profile_free(&p);
}

/* The specification lines read in place on the fast path (cfn=/cfi=/cob=/
 * fi=/fe= with known ids, calls=, jump=, jcnd=), mixed with the forms left
 * to the general parser; values by hand. */
static void test_fast_specs(void)
{
	static const char text[] =
		"positions: instr line\nevents: A B\nob=(1) a.out\nfl=(1) a.c\nfn=(1) main\n"
		"0x10 3 1\n\n+1 4 1\n"         /* a.c:3 A 1, a.c:4 A 1 */
		"cob=(1)\ncfi=(1)\ncfn=(2) g\n" /* g defined: general parser */
		"calls=2 0x40 9 \n+1 5 20 2\n"  /* main -> g 2x, A 20 B 2 */
		"cfn=(2)\ncalls=3 0x40\n* * 30\n" /* 3x, A 30, target line kept */
		"fi=(2) h.h\n+1 7 5\n"          /* h.h:7 A 5 */
		"fe=(1)\n+1 8 6\n"              /* a.c:8 A 6 */
		"fi=(2)\n+1 9 7\n"              /* h.h:9 A 7 */
		"jcnd=1/4 +5 +1 \n* *\n"        /* h.h:9 -> 10, 4 executed, 1 taken */
		"jump=3 0x80 12\n+1 10 \n"      /* h.h:10 -> 12, 3 times */
		"jcnd=2 5 +1 *\n* *\n"          /* space, general parser: 10 -> 10 */
		"cfn=(3) k\ncalls=1 0x90 20\n+1 11 4 4\n"; /* main -> k 1x, A 4 */
	struct profile p;
	cost_t n;
	ok(load_padded(&p, text) == 0, "fast specs: loads: %s", lasterr);
	is(line_cost(&p, "main", "a.c", 4, 0), 1, "fast specs: a.c:4");
	is(line_cost(&p, "main", "h.h", 7, 0), 5, "fast specs: h.h:7 (fi=)");
	is(line_cost(&p, "main", "a.c", 8, 0), 6, "fast specs: a.c:8 (fe=(1))");
	is(line_cost(&p, "main", "h.h", 9, 0), 7, "fast specs: h.h:9 (fi=(2))");
	is(self(&p, "main", 0), 20, "fast specs: main self A = 1 + 1 + 5 + 6 + 7");
	is(call(&p, "main", "g", &n, 0), 50, "fast specs: main -> g A = 20 + 30");
	is(n, 5, "fast specs: main -> g count 2 + 3");
	is(call(&p, "main", "g", &n, 1), 2, "fast specs: main -> g B");
	is(call(&p, "main", "k", &n, 0), 4, "fast specs: main -> k A");
	is(n, 1, "fast specs: main -> k count");
	size_t off = 0;
	struct jump_rec jr;
	int seen[3] = { 0, 0, 0 };
	while (jump_next(&p, &off, &jr)) {
		int hh = strcmp(file_name(&p, jr.file), "h.h") == 0 &&
			 strcmp(file_name(&p, jr.tfile), "h.h") == 0;
		seen[0] += hh && jr.cond && jr.line == 9 && jr.tline == 10 && jr.executed == 4 &&
			   jr.taken == 1;
		seen[1] += hh && !jr.cond && jr.line == 10 && jr.tline == 12 && jr.executed == 3;
		seen[2] += hh && jr.cond && jr.line == 10 && jr.tline == 10 && jr.executed == 5 &&
			   jr.taken == 2;
	}
	ok(seen[0] == 1 && seen[1] == 1 && seen[2] == 1,
	   "fast specs: jumps h.h:9->10 1/4, 10->12 x3, 10->10 2/5 (%d %d %d)", seen[0], seen[1],
	   seen[2]);
	profile_free(&p);

	static const char bad[] = "events: A\nfl=(1) a.c\nfn=(1) main\n1 1\n2 2\n"
				  "cfn=(2) g\ncalls=1 9\nfi=(1)\n"; /* line 8: no call cost */
	ok(load_padded(&p, bad) != 0 && strstr(lasterr, "p.out:8: calls= line not followed"),
	   "fast specs: error at line 8: %s", lasterr);
	profile_free(&p);
}

/* A cost of every length, 1 to 19 digits, each on its own line, with a
 * relative and an absolute position: the fast path reads up to 18 digits
 * and leaves a 19-digit cost to the general parser; each line's cost is
 * the first k digits of "1234567890123456789", written out below. */
static void test_number_lengths(void)
{
	static const cost_t want[20] = {
		0, 1, 12, 123, 1234, 12345, 123456, 1234567, 12345678, 123456789,
		1234567890, 12345678901, 123456789012, 1234567890123, 12345678901234,
		123456789012345, 1234567890123456, 12345678901234567, 123456789012345678,
		1234567890123456789,
	};
	const char digits[] = "1234567890123456789";
	char text[2048];
	int l = snprintf(text, sizeof text,
			 "positions: instr line\nevents: A B\nfl=(1) a.c\nfn=(1) f\n");
	for (int k = 1; k <= 19; k++) { /* instr 0x10 + k, line 10 * k: B = k */
		if (k == 1)
			l += snprintf(text + l, sizeof text - (size_t)l, "0x11 10");
		else if (k % 2)
			l += snprintf(text + l, sizeof text - (size_t)l, "+1 %d", 10 * k);
		else
			l += snprintf(text + l, sizeof text - (size_t)l, "+1 +10");
		l += snprintf(text + l, sizeof text - (size_t)l, " %.*s %d\n", k, digits, k);
	}
	for (int way = 0; way < 2; way++) {
		const char *w = way ? "padded" : "at the end";
		struct profile p;
		ok((way ? load_padded(&p, text) : load(&p, text)) == 0, "%s: lengths load: %s", w,
		   lasterr);
		for (int k = 1; k <= 19; k++) {
			ok(line_cost(&p, "f", "a.c", (uint32_t)(10 * k), 0) == want[k],
			   "%s: a.c:%d A: %d digits", w, 10 * k, k);
			is(line_cost(&p, "f", "a.c", (uint32_t)(10 * k), 1), k, "%s: a.c:%d B", w,
			   10 * k);
		}
		profile_free(&p);
	}
}

/* The cost lines after calls= read in place (in the form the runs of plain
 * lines take) and by the general parser, mixed: subpositions relative to
 * the lines before, fewer than the positions: line declares (the others
 * kept), hex, a trailing space, none, two spaces; values by hand from the
 * format specification (3.1.3: the line after calls= is the call's
 * inclusive cost, at the caller's position it gives; 3.1.6: subpositions
 * relative to the previous cost line, calls' included). */
static void test_fast_call_lines(void)
{
	static const char text[] =
		"positions: instr line\nevents: A B C\nfl=(1) a.c\nfn=(1) main\n"
		"0x10 3 1\n"                         /* (0x10, 3): a.c:3 A 1 */
		"cfn=(2) g\ncalls=2 0x40 9\n+2 +1 5 6 7\n" /* (0x12, 4): call A 5 B 6 C 7 */
		"+1 * 2\n"                           /* (0x13, 4): a.c:4 A 2 */
		"cfn=(2)\ncalls=1 0x40\n+1\n"        /* (0x14, 4): one position, no cost */
		"* +2 3 0 4\n"                       /* (0x14, 6): a.c:6 A 3 C 4 */
		"cfn=(2)\ncalls=3 0x40\n-1 -3 10 20 30 \n" /* (0x13, 3): call, trailing space */
		"+1 +1 1 1 1\n"                      /* (0x14, 4): a.c:4 A 1 B 1 C 1 */
		"cfn=(2)\ncalls=1 0x40\n* *  1 1\n"  /* (0x14, 4): two spaces: call A 1 B 1 */
		"+1 +1 9\n"                          /* (0x15, 5): a.c:5 A 9 */
		"cfn=(2)\ncalls=1 0x40\n0x30 +2 4\n" /* (0x30, 7): call A 4 */
		"+0x2 -1 1\n";                       /* (0x32, 6): a.c:6 A 1 */
	struct profile p;
	cost_t n;
	ok(load_padded(&p, text) == 0, "call lines: loads: %s", lasterr);
	is(call(&p, "main", "g", &n, 0), 20, "call lines: main -> g A = 5 + 0 + 10 + 1 + 4");
	is(n, 8, "call lines: main -> g count = 2 + 1 + 3 + 1 + 1");
	is(call(&p, "main", "g", &n, 1), 27, "call lines: main -> g B = 6 + 20 + 1");
	is(call(&p, "main", "g", &n, 2), 37, "call lines: main -> g C = 7 + 30");
	is(self(&p, "main", 0), 17, "call lines: main self A = 1 + 2 + 3 + 1 + 9 + 1");
	is(self(&p, "main", 1), 1, "call lines: main self B");
	is(self(&p, "main", 2), 5, "call lines: main self C = 4 + 1");
	is(line_cost(&p, "main", "a.c", 4, 0), 3, "call lines: a.c:4 A = 2 + 1");
	is(line_cost(&p, "main", "a.c", 5, 0), 9, "call lines: a.c:5 A (after a general line)");
	is(line_cost(&p, "main", "a.c", 6, 0), 4, "call lines: a.c:6 A = 3 + 1");
	is(line_cost(&p, "main", "a.c", 6, 2), 4, "call lines: a.c:6 C");
	/* the call sites' lines: 4, 4, 3, 4, 7, each call's cost as given */
	int sites = 0;
	for (uint32_t r = 0; r < p.ncalls; r++) {
		cost_t c[MAX_EVENTS];
		call_cost(&p, r, c);
		uint32_t l = p.calls[r].line;
		cost_t k = call_count(&p, r);
		sites += (l == 4 && k == 2 && c[0] == 5 && c[1] == 6 && c[2] == 7) ||
			 (l == 4 && k == 1 && c[0] == 0 && c[1] == 0 && c[2] == 0) ||
			 (l == 3 && k == 3 && c[0] == 10 && c[1] == 20 && c[2] == 30) ||
			 (l == 4 && k == 1 && c[0] == 1 && c[1] == 1 && c[2] == 0) ||
			 (l == 7 && k == 1 && c[0] == 4 && c[1] == 0 && c[2] == 0);
	}
	ok(p.ncalls == 5 && sites == 5, "call lines: the 5 call sites' lines and costs (%u, %d)",
	   p.ncalls, sites);
	profile_free(&p);

	static const char bad[] = "events: A B C\nfl=(1) a.c\nfn=(1) main\n1 1\n2 2\n"
				  "cfn=(2) g\ncalls=1 9\n3 1 2 3 4\n"; /* line 8: 4 costs */
	ok(load_padded(&p, bad) != 0 && strstr(lasterr, "p.out:8: more costs"),
	   "call lines: error at line 8: %s", lasterr);
	profile_free(&p);
}

/* A run of cost lines a worker reads (par.c, runs.c) does not know the
 * line before it: its line subpositions are deltas, applied only where
 * the line numbers they give stay in range; else the reader reads the
 * lines itself and says what is wrong, at the line, as with one job.  f's
 * lines are 5, then 6 .. 2005 ("+1", format spec 3.1.6: relative to the
 * previous cost line); g's first line, line 2007 of the file, is 2005 - 2010
 * = -5, or 2005 + 4294967290 = 4294969295, beyond 2^32 - 2; or 2005 - 2000
 * = 5, which loads.  Chunks of 4096 bytes, workers reading every chunk but
 * the first (CGTUI_PAR_WAIT=1): g's lines are a worker's run. */
static void test_worker_line_range(void)
{
	static const char *const first[] = { "-2010", "+4294967290", "-2000" };
	static const char *const want[] = { "p.out:2007: line number -5 out of range",
					    "p.out:2007: line number 4294969295 out of range", NULL };
	size_t cap = 64 * 1024;
	char *t = malloc(cap);
	setenv("CGTUI_CHUNK_BYTES", "4096", 1);
	setenv("CGTUI_PAR_WAIT", "1", 1);
	setenv("CGTUI_PAR_RULE", "0", 1);
	for (int k = 0; k < 3; k++) {
		size_t n = (size_t)snprintf(t, cap, "events: Ir\npositions: line\nfl=a.c\nfn=f\n5 1\n");
		for (int i = 0; i < 2000; i++)
			n += (size_t)snprintf(t + n, cap - n, "+1 1\n");
		n += (size_t)snprintf(t + n, cap - n, "fn=g\n%s 1\n", first[k]);
		for (int i = 0; i < 100; i++)
			n += (size_t)snprintf(t + n, cap - n, "+1 2\n");
		n += (size_t)snprintf(t + n, cap - n, "#%0400d\n", 0);
		char *path = write_tmp("p.out", t, n);
		for (int jobs = 1; jobs <= 2; jobs++) {
			struct profile p;
			profile_init(&p);
			struct load_opts lo = { .sign = 1, .lazy_lines = 1, .jobs = jobs };
			int rc = profile_load(&p, path, &lo, lasterr, sizeof(lasterr));
			if (want[k])
				ok(rc != 0 && strstr(lasterr, want[k]),
				   "worker's run at line %s, %d job(s): the error at line 2007: %s",
				   first[k], jobs, rc ? lasterr : "(loaded)");
			else {
				ok(rc == 0, "worker's run at line %s, %d job(s): loads: %s", first[k],
				   jobs, lasterr);
				profile_finish(&p);
				/* 1 + 2000 x 1 for f; 1 + 100 x 2 for g */
				is(self(&p, "f", 0), 2001, "... f's self 1 + 2000");
				is(self(&p, "g", 0), 201, "... g's self 1 + 100 x 2");
			}
			profile_free(&p);
		}
		free(path);
	}
	unsetenv("CGTUI_CHUNK_BYTES");
	unsetenv("CGTUI_PAR_WAIT");
	unsetenv("CGTUI_PAR_RULE");
	free(t);
}

static void test_calls(void)
{
	struct profile p;
	/* calls=0 is still a call cost (never self cost) */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=main\n3 100\ncfn=g\ncalls=0 9\n5 50\nfn=g\n9 50\n") == 0,
	   "calls=0: %s", lasterr);
	is(self(&p, "main", 0), 100, "main's self excludes the calls=0 cost");
	is(incl(&p, "main", 0), 150, "inclusive includes it");
	is(p.totals[0], 150, "total = 100 + 50");
	profile_free(&p);

	/* cfn= without cfl= is in the current file; cfl= resets after a call */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=main\n1 1\ncfl=b.c\ncfn=x\ncalls=1 1\n1 5\n"
		    "cfn=y\ncalls=1 1\n1 6\nfn=y\n1 6\nfl=b.c\nfn=x\n1 5\n") == 0,
	   "cfl reset: %s", lasterr);
	uint32_t y = fn(&p, "y");
	is_str(file_name(&p, p.fns[y].file), "a.c", "y is in the caller's file");
	is(incl(&p, "main", 0), 12, "main = 1 + 5 + 6");
	profile_free(&p);

	/* jumps */
	ok(load(&p, "positions: line\nevents: Ir\nfl=a.c\nfn=f\n1 3\njump=4 7\n2\njcnd=2/5 9\n3\n"
		    "3 1\n") == 0,
	   "jump and jcnd: %s", lasterr);
	is(p.njumps, 2, "two jumps");
	int seen = 0;
	size_t off = 0;
	struct jump_rec jr;
	while (jump_next(&p, &off, &jr)) {
		if (!jr.cond && jr.line == 2 && jr.tline == 7 && jr.executed == 4)
			seen |= 1;
		/* jcnd=TAKEN/EXECUTED, as callgrind 3.19 writes it (a loop's
		 * back edge reads jcnd=19/20) */
		if (jr.cond && jr.line == 3 && jr.tline == 9 && jr.executed == 5 && jr.taken == 2)
			seen |= 2;
	}
	is(seen, 3, "jump 2->7 x4, jcnd 3->9 taken 2 of 5");
	is(p.totals[0], 4, "jump lines add no cost");
	profile_free(&p);

	/* load_opts.skip_jumps: none kept, and the positions they set still
	 * count (by hand: line 1 has 3; the jumps are at lines 2 and 3; the
	 * last line is line 3 + 1 = 4 and has 1, then line 4 + 2 = 6 has 5);
	 * read in place (fast path, padded) and as copied-out lines */
	for (int way = 0; way < 2; way++) {
		char text[1024];
		snprintf(text, sizeof(text),
			 "positions: line\nevents: Ir\nfl=a.c\nfn=f\n1 3\njump=4 7\n+1\n"
			 "jcnd=2/5 9\n+1\n+1 1\n+2 5\n%s",
			 way ? "#" : "");
		if (way) { /* a 400-byte comment after it, as load_padded() */
			size_t n = strlen(text);
			memset(text + n, '0', 400);
			strcpy(text + n + 400, "\n");
		}
		char *path = write_tmp("jumps.out", text, strlen(text));
		profile_init(&p);
		struct load_opts lo = { .sign = 1, .skip_jumps = 1 };
		ok(profile_load(&p, path, &lo, lasterr, sizeof(lasterr)) == 0,
		   "skip_jumps (%s): loads: %s", way ? "fast path" : "general", lasterr);
		profile_finish(&p);
		free(path);
		is(p.njumps, 0, "skip_jumps: no jump kept");
		is(p.totals[0], 9, "skip_jumps: total 3 + 1 + 5");
		is(line_cost(&p, "f", "a.c", 4, 0), 1, "skip_jumps: line 4 has 1");
		is(line_cost(&p, "f", "a.c", 6, 0), 5, "skip_jumps: line 6 has 5");
		profile_free(&p);
	}
}

/* The call records as profile_call() keeps them (a 20-byte record, the count
 * and the costs encoded in callbuf, offsets within groups of
 * 2^CALL_BASE_SHIFT records) read back equal to what was given, kept here
 * in plain arrays: across several groups, with counts and costs of every
 * size and sign (the extremes included), zero costs, and 64 events. */
static void test_call_records(void)
{
	enum { N = (3 << CALL_BASE_SHIFT) + 777, NR = 64 };
	struct profile p;
	profile_init(&p);
	p.nreal = NR;
	struct { uint32_t caller, callee, file, line; cost_t count; } *ref =
		calloc(N, sizeof(*ref));
	cost_t *cost = calloc((size_t)N * NR, sizeof(cost_t));
	uint64_t x = 88172645463325252ULL;
	for (uint32_t r = 0; r < N; r++) {
		cost_t *c = &cost[(size_t)r * NR];
		for (int e = 0; e < NR; e++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			/* mostly zero, else of 1 to 64 bits, either sign */
			c[e] = x % 3 ? 0 : (cost_t)(x >> (x % 64));
			if (r % 1000 == 1)
				c[e] = e & 1 ? INT64_MIN : INT64_MAX;
		}
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		ref[r].caller = (uint32_t)x % 1000;
		ref[r].callee = (uint32_t)(x >> 20) % 1000;
		ref[r].file = (uint32_t)(x >> 40) % 50;
		ref[r].line = r;
		ref[r].count = r % 1000 == 2 ? INT64_MIN : r % 1000 == 3 ? INT64_MAX
			: (cost_t)(x >> (x % 64)) - (cost_t)(x >> 63);
		profile_call(&p, ref[r].caller, ref[r].file, ref[r].line, ref[r].callee,
			     ref[r].count, c);
	}
	uint32_t bad = 0, badcost = 0;
	for (uint32_t r = 0; r < N; r++) {
		const struct call_rec *c = &p.calls[r];
		cost_t got[NR], got2[NR];
		call_cost(&p, r, got);
		cost_t n2 = call_count_cost(&p, r, got2);
		bad += c->caller != ref[r].caller || c->callee != ref[r].callee ||
		       c->file != ref[r].file || c->line != ref[r].line ||
		       call_count(&p, r) != ref[r].count || n2 != ref[r].count;
		badcost += memcmp(got, &cost[(size_t)r * NR], sizeof(got)) != 0 ||
			   memcmp(got2, got, sizeof(got)) != 0;
	}
	ok(p.ncalls == N && p.ncallbase == 4, "%u call records in %u groups", p.ncalls,
	   p.ncallbase);
	ok(bad == 0, "every record's caller, callee, file, line and count as given (%u differ)",
	   bad);
	ok(badcost == 0, "every record's 64 costs as given (%u differ)", badcost);
	ok(sizeof(struct call_rec) == 20, "a call record takes 20 bytes");
	ok(sizeof(struct function) == 12, "a function takes 12 bytes (its name, object and file)");
	free(ref);
	free(cost);
	profile_free(&p);
}

/* The string arena: strings packed with no padding (each one's bytes as
 * given, right after the previous one's end while a chunk has room), and an
 * allocation after them still 16-byte aligned; strings longer than a chunk
 * and a table of 3000 interned names read back as a plain copy says. */
static void test_arena(void)
{
	struct arena a = { 0 };
	char *s1 = arena_strndup(&a, "abc", 3), *s2 = arena_strndup(&a, "de", 2);
	ok(strcmp(s1, "abc") == 0 && strcmp(s2, "de") == 0 && s2 == s1 + 4,
	   "two strings packed: the second right after the first's NUL");
	void *q = arena_alloc(&a, 8);
	ok(((uintptr_t)q & 15) == 0 && (char *)q >= s2 + 3, "an allocation after them 16-aligned");
	size_t big = 200000;
	char *long_in = malloc(big);
	memset(long_in, 'x', big);
	char *l = arena_strndup(&a, long_in, big);
	char *s3 = arena_strndup(&a, "after", 5);
	ok(memcmp(l, long_in, big) == 0 && l[big] == 0 && strcmp(s3, "after") == 0,
	   "a string longer than a chunk, and one after it");
	arena_free(&a);
	free(long_in);

	struct strtab t = { 0 };
	char ref[3000][24];
	uint32_t id[3000], bad = 0;
	for (int i = 0; i < 3000; i++) {
		snprintf(ref[i], sizeof(ref[i]), "%.*sname%d", i % 13, "_____________", i);
		id[i] = strtab_intern(&t, ref[i], strlen(ref[i]));
	}
	for (int i = 0; i < 3000; i++)
		bad += id[i] != (uint32_t)i || strcmp(t.str[id[i]], ref[i]) != 0 ||
		       t.len[id[i]] != strlen(ref[i]) ||
		       strtab_find(&t, ref[i], strlen(ref[i])) != id[i];
	ok(bad == 0 && t.n == 3000, "3000 interned names as given, found again (%u differ)", bad);
	strtab_free(&t);
}

static int int_below(const void *element, const void *key)
{
	return *(const int *)element < *(const int *)key;
}

static int int_at_or_below(const void *element, const void *key)
{
	return *(const int *)element <= *(const int *)key;
}

/* first_not_below(): the first index whose element is not below the key,
 * worked out by hand on { 10, 20, 20, 20, 30 }, then against a linear scan
 * for every key on sorted arrays of 0 to 9 elements with duplicates, and
 * with the boundary (the first 1 of 0s then 1s) at every position. */
static void test_first_not_below(void)
{
	static const int a[] = { 10, 20, 20, 20, 30 };
	static const struct {
		int key, at_or_below;
		size_t want;
		const char *what;
	} hand[] = {
		{ 5, 0, 0, "< 5: none below, 0" },
		{ 35, 0, 5, "< 35: all below, 5 (n)" },
		{ 20, 0, 1, "< 20: the first 20, 1" },
		{ 20, 1, 4, "<= 20: past the last 20, 4" },
		{ 25, 0, 4, "< 25: the 30, 4" },
		{ 10, 1, 1, "<= 10: the first 20, 1" },
		{ 30, 1, 5, "<= 30: all at or below, 5 (n)" },
	};
	int k = 0;
	is(first_not_below(NULL, 0, sizeof(int), int_below, &k), 0, "an empty array: 0");
	for (size_t c = 0; c < sizeof(hand) / sizeof(hand[0]); c++)
		is(first_not_below(a, 5, sizeof(int), hand[c].at_or_below ? int_at_or_below : int_below,
				   &hand[c].key),
		   hand[c].want, "{ 10, 20, 20, 20, 30 }, %s", hand[c].what);

	int v[9], bad = 0, cases = 0;
	for (size_t n = 0; n <= 9; n++) {
		for (size_t i = 0; i < n; i++)
			v[i] = (int)(i / 2) * 2; /* 0 0 2 2 4 4 ...: each value twice */
		for (k = -1; k <= 9; k++) {
			size_t lt = 0, le = 0; /* the linear scan */
			while (lt < n && v[lt] < k)
				lt++;
			while (le < n && v[le] <= k)
				le++;
			bad += first_not_below(v, n, sizeof(int), int_below, &k) != lt;
			bad += first_not_below(v, n, sizeof(int), int_at_or_below, &k) != le;
			cases += 2;
		}
		for (size_t b = 0; b <= n; b++) { /* 0s before b, 1s from b on */
			for (size_t i = 0; i < n; i++)
				v[i] = i >= b;
			int one = 1;
			bad += first_not_below(v, n, sizeof(int), int_below, &one) != b;
			cases++;
		}
	}
	ok(bad == 0, "%d searches as a linear scan finds (%d differ)", cases, bad);
}

static void test_recursion(void)
{
	struct profile p;
	/* main -> a (1x, 100); a -> b (60); b -> a (40, recursion); self a 50,
	 * b 30 (of which the nested a is 10 + ...).  Self: main 10, a 50, b 40.
	 * Total 100.  Cycle {a, b}: nothing inside may exceed the total. */
	ok(load(&p, "events: Ir\nfl=m.c\nfn=main\n1 10\ncfn=a\ncalls=1 1\n1 90\n"
		    "fn=a\n1 50\ncfn=b\ncalls=2 1\n2 80\n"
		    "fn=b\n1 40\ncfn=a\ncalls=1 1\n2 70\n") == 0,
	   "mutual recursion: %s", lasterr);
	const struct agg *a = profile_agg(&p);
	is(p.totals[0], 100, "total 100");
	is(a->ncycles, 1, "one cycle");
	ok(a->fn_cycle[fn(&p, "a")] == 1 && a->fn_cycle[fn(&p, "b")] == 1, "a and b in cycle 1");
	is(a->fn_cycle[fn(&p, "main")], 0, "main is not in a cycle");
	is(incl(&p, "main", 0), 100, "main = 10 + 90");
	ok(incl(&p, "a", 0) <= 100 && incl(&p, "b", 0) <= 100, "no inclusive exceeds the total");
	is(agg_incl(a, agg_cycle_ent(a, 1))[0], 90, "cycle's inclusive = a 50 + b 40 (no calls leave it)");
	profile_free(&p);

	/* direct recursion: f -> f calls are inside f's outer calls */
	ok(load(&p, "events: Ir\nfl=m.c\nfn=main\n1 1\ncfn=f\ncalls=1 1\n1 30\n"
		    "fn=f\n1 30\ncfn=f\ncalls=2 1\n1 50\n") == 0,
	   "direct recursion");
	is(incl(&p, "f", 0), 30, "recursive f: inclusive = its self (30), not 30 + 50");
	is(profile_agg(&p)->ncycles, 0, "self-recursion is not a <cycle>");
	profile_free(&p);
}

static void test_parts_and_misc(void)
{
	struct profile p;
	/* several parts in one file; CRLF; no final newline */
	ok(load(&p, "version: 1\r\ncreator: x\r\npart: 1\r\nevents: Ir\r\nfl=a.c\r\nfn=f\r\n1 5\r\n"
		    "totals: 5\r\npart: 2\r\nevents: Ir\r\nfl=a.c\r\nfn=f\r\n1 7\r\ntotals: 7") == 0,
	   "parts, CRLF, no final newline: %s", lasterr);
	is(p.nparts, 2, "two parts");
	is(p.parts[0].totals[0], 5, "part 1 total");
	is(p.parts[1].totals[0], 7, "part 2 total");
	is(p.totals[0], 12, "merged total");
	/* each part's totals: line matches; the last line has no newline: it
	 * may be cut short (issue 16) */
	ok(p.nwarnings == 1 && strstr(p.warnings[0], "p.out: ends in the middle of line 14 "
						   "(truncated?)"),
	   "one warning, for the last line (%s)", p.nwarnings ? p.warnings[0] : "none");
	profile_free(&p);

	/* Xdebug appends several profiles with a marker; names with spaces */
	ok(load(&p, "events: Time_(10ns) Memory_(bytes)\nfl=(1) /var/www/index.php\n"
		    "fn=(1) {main}\n1 10 20\n==== NEW PROFILING FILE ====\n"
		    "events: Time_(10ns) Memory_(bytes)\nfl=(1) C:\\www\\x.php\nfn=(1) php::f (a, b)\n"
		    "2 1 2\n") == 0,
	   "Xdebug multi-file: %s", lasterr);
	is(p.totals[0], 11, "times add up");
	is(p.totals[1], 22, "memory adds up");
	ok(fn(&p, "php::f (a, b)") != NO_ID, "name with spaces and parentheses");
	profile_free(&p);

	/* negative counts (diff files) */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=f\n1 -5\n2 3\n") == 0, "negative counts");
	is(p.totals[0], -2, "total -2");
	profile_free(&p);

	/* event long names and derived events */
	ok(load(&p, "event: Ir : Instruction Fetches\nevent: Sum = Ir + 2 Dr\nevents: Ir Dr\n"
		    "fl=a.c\nfn=f\n1 3 4\n") == 0,
	   "event: lines: %s", lasterr);
	is_str(p.ev[0].longname, "Instruction Fetches", "long name");
	int sum = profile_event_index(&p, "Sum", 3);
	ok(sum >= p.nreal, "derived event Sum");
	is(event_value(&p, p.totals, sum), 11, "Sum = 3 + 2*4");
	profile_free(&p);

	/* KCachegrind's standard derived events are added */
	ok(load(&p, "events: Ir I1mr D1mr D1mw ILmr DLmr DLmw Bcm Bim\nfl=a.c\nfn=f\n"
		    "1 1000 1 2 3 4 5 6 7 8\n") == 0,
	   "cache events");
	int l1 = profile_event_index(&p, "L1m", 3), ll = profile_event_index(&p, "LLm", 3);
	int bm = profile_event_index(&p, "Bm", 2), ce = profile_event_index(&p, "CEst", 4);
	is(event_value(&p, p.totals, l1), 6, "L1m = 1+2+3");
	is(event_value(&p, p.totals, ll), 15, "LLm = 4+5+6");
	is(event_value(&p, p.totals, bm), 15, "Bm = 7+8");
	is(event_value(&p, p.totals, ce), 1000 + 150 + 60 + 1500, "CEst = Ir + 10 Bm + 10 L1m + 100 LLm");
	profile_free(&p);

	/* empty profile */
	ok(load(&p, "version: 1\npositions: instr line\nevents: Ir Dr\nsummary: 0\ntotals: 0\n") == 0,
	   "empty profile loads");
	is(p.nfns, 0, "no functions");
	is(p.totals[0], 0, "zero total");
	profile_free(&p);
}

/* Derived-event formulas: "[+|-] [N [*]] name ((+|-) [N [*]] name)*", each N
 * within 64 bits; the event's own name a single word. */
static void test_formulas(void)
{
	struct profile p;
	ok(load(&p, "events: Ir Dr\nfl=a.c\nfn=f\n1 3 4\n") == 0, "formula profile");
	static const struct { const char *name, *f; cost_t want; } good[] = {
		{ "A", "Ir + Dr", 7 },          /* 3 + 4 */
		{ "B", "- Ir + 2 Dr", 5 },      /* -3 + 8 */
		{ "C", "3 * Ir - Dr", 5 },      /* 9 - 4 */
		{ "D", "  Dr  ", 4 },
		/* the largest coefficient whose values stay within 2^63-1 when
		 * Ir's sums reach 3: 3 * 3074457345618258602 = 2^63 - 2 */
		{ "E", "3074457345618258602 Ir", (cost_t)9223372036854775806LL },
	};
	char err[256];
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int rc = profile_define_event(&p, good[i].name, good[i].f, err, sizeof(err));
		ok(rc == 0, "formula '%s' accepted (%s)", good[i].f, rc ? err : "");
		int ev = profile_event_index(&p, good[i].name, strlen(good[i].name));
		is(ev >= 0 ? event_value(&p, p.totals, ev) : -1, good[i].want, "%s = %s", good[i].name,
		   good[i].f);
	}
	static const struct { const char *name, *f, *msg; } bad[] = {
		{ "X", "Ir +", "formula 'Ir +' ends with an operator" },
		{ "X", "Ir Dr", "formula 'Ir Dr': expected + or - before 'Dr'" },
		{ "X", "Ir + + Dr", "formula 'Ir + + Dr': expected an event name" },
		{ "X", "Ir * 2", "formula 'Ir * 2': expected + or - before '* 2'" },
		{ "X", "99999999999999999999 Ir",
		  "formula '99999999999999999999 Ir': coefficient '99999999999999999999' is 2^63 or more" },
		/* 3 * 3074457345618258603 = 2^63 + 1 (issue 16: never a wrapped number) */
		{ "X", "3074457345618258603 Ir", "values of X can pass 2^63-1" },
		{ "X", "Dr - 3074457345618258603 Ir", "values of X can pass 2^63-1" },
		{ "X", "", "formula '' is empty" },
		{ "X", "Ir + Zz", "formula 'Ir + Zz': unknown event 'Zz'" },
		{ "My Ev", "2 Ir", "event name 'My Ev': no spaces or any of = + - * : ," },
		{ "A", "Ir", "event 'A' is already defined" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int n = p.nevents;
		err[0] = 0;
		ok(profile_define_event(&p, bad[i].name, bad[i].f, err, sizeof(err)) < 0 &&
		   p.nevents == n, "'%s = %s' refused", bad[i].name, bad[i].f);
		is_str(err, bad[i].msg, "its message");
	}
	profile_free(&p);
}

static void test_only_part(void)
{
	static const char two[] = "events: Ir\npart: 1\nfl=a.c\nfn=f\n1 5\ntotals: 5\n"
				  "part: 2\nfl=a.c\nfn=f\n1 7\nfn=g\n2 1\ntotals: 8\n";
	char *path = write_tmp("parts.out", two, strlen(two));
	struct profile p;
	for (int k = 0; k <= 2; k++) {
		struct partset one = { 0 };
		if (k)
			partset_only(&one, k);
		struct load_opts lo = { .sign = 1, .parts = &one };
		profile_init(&p);
		ok(profile_load(&p, path, &lo, lasterr, sizeof(lasterr)) == 0, "only part %d loads", k);
		profile_finish(&p);
		is(p.nparts, 2, "both parts are listed (only part %d)", k);
		is(p.totals[0], k == 0 ? 13 : k == 1 ? 5 : 8, "total of part %d (0 = all)", k);
		is(p.nwarnings, 0, "no summary warning for the parts left out");
		ok(part_shown(&p, 1) == (k != 2) && part_shown(&p, 2) == (k != 1), "part %d: shown", k);
		profile_free(&p);
		partset_clear(&one);
	}
	free(path);
}

/* Sets of parts (scope.h): three dumps of two threads (Ir 1 ... 32, each
 * part a power of two so that every sum says which parts are in it; dump 1
 * of pid 5, the others of pid 7), chosen by load index and by part:, thread: and pid:
 * number as --parts, --threads and --pids give them; totals and labels
 * worked out by hand. */
static void test_part_sets(void)
{
	static const char six[] =
		"events: Ir\npart: 1\npid: 5\nthread: 1\nfl=a.c\nfn=f\n1 1\ntotals: 1\n"
		"part: 1\npid: 5\nthread: 2\nfl=a.c\nfn=g\n1 2\ntotals: 2\n"
		"part: 2\npid: 7\nthread: 1\nfl=a.c\nfn=f\n1 4\ntotals: 4\n"
		"part: 2\npid: 7\nthread: 2\nfl=a.c\nfn=g\n1 8\ntotals: 8\n"
		"part: 3\npid: 7\nthread: 1\nfl=a.c\nfn=f\n1 16\ntotals: 16\n"
		"part: 3\npid: 7\nthread: 2\nfl=a.c\nfn=g\n+1 32\ntotals: 32\n";
	char *path = write_tmp("six.out", six, strlen(six));
	static const struct {
		const char *num, *thr, *pid, *idx; /* lists; idx: by load index */
		cost_t total;
		const char *label;
	} c[] = {
		{ NULL, NULL, NULL, NULL, 63, "6 parts" },
		{ "2", NULL, NULL, NULL, 4 + 8, "2 of 6 parts: 2.1 pid 7, 2.2 pid 7" },
		{ NULL, "2", NULL, NULL, 2 + 8 + 32, "3 of 6 parts: 1.2 pid 5, 2.2 pid 7, 3.2 pid 7" },
		{ "1,3", "1", NULL, NULL, 1 + 16, "2 of 6 parts: 1.1 pid 5, 3.1 pid 7" },
		{ "2-3", "2", NULL, NULL, 8 + 32, "2 of 6 parts: 2.2 pid 7, 3.2 pid 7" },
		{ "3", "2", NULL, NULL, 32, "part 3 of 6, thread 2" }, /* (part_label: of the parts) */
		{ NULL, NULL, "7", NULL, 4 + 8 + 16 + 32,
		  "4 of 6 parts: 2.1 pid 7, 2.2 pid 7, 3.1 pid 7, 3.2 pid 7" },
		{ NULL, "1", "7,9", NULL, 4 + 16, "2 of 6 parts: 2.1 pid 7, 3.1 pid 7" },
		{ NULL, NULL, NULL, "1,4,5", 1 + 8 + 16, "3 of 6 parts: 1.1 pid 5, 2.2 pid 7, 3.1 pid 7" },
		{ "9", NULL, NULL, NULL, 0, "0 of 6 parts:" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct partset s = { 0 };
		char why[128];
		if (c[i].num)
			partset_parse_list(c[i].num, &s.by[PART_NUMBER], why, sizeof(why));
		if (c[i].thr)
			partset_parse_list(c[i].thr, &s.by[PART_THREAD], why, sizeof(why));
		if (c[i].pid)
			partset_parse_list(c[i].pid, &s.by[PART_PID], why, sizeof(why));
		if (c[i].idx) {
			struct partlist l = { 0 };
			partset_parse_list(c[i].idx, &l, why, sizeof(why));
			partset_only(&s, (int)l.v[0]);
			struct profile six6 = { .nparts = 6 };
			for (int j = 1; j < l.n; j++)
				partset_set(&s, &six6, (int)l.v[j], 1);
			free(l.v);
		}
		struct load_opts lo = { .sign = 1, .parts = &s };
		struct profile p;
		profile_init(&p);
		ok(profile_load(&p, path, &lo, lasterr, sizeof(lasterr)) == 0, "set %zu loads", i);
		profile_finish(&p);
		is(p.nparts, 6, "set %zu: every part listed", i);
		is(p.totals[0], c[i].total, "set %zu: the total is its parts' sum", i);
		char l[128];
		parts_shown_label(l, sizeof(l), &p);
		is_str(l, c[i].label, "set %zu: its label", i);
		/* the same set again, by load index (the parts view's choice) */
		struct partset again = { 0 };
		partset_of_profile(&again, &p);
		cost_t t = 0;
		for (int k = 1; k <= 6; k++)
			if (partset_has(&p, &again, k))
				t += (cost_t)1 << (k - 1);
		is(t, c[i].total, "set %zu: by load index, the same parts", i);
		partset_clear(&again);
		profile_free(&p);
		partset_clear(&s);
	}
	/* taking parts out of every part, one by one, and all again */
	struct profile p;
	profile_init(&p);
	ok(profile_load(&p, path, NULL, lasterr, sizeof(lasterr)) == 0, "all parts load");
	profile_finish(&p);
	struct partset s = { 0 };
	partset_set(&s, &p, 2, 0);
	partset_set(&s, &p, 5, 0);
	ok(!partset_all(&s) && !partset_has(&p, &s, 2) && !partset_has(&p, &s, 5) &&
	   partset_has(&p, &s, 1) && partset_has(&p, &s, 6), "parts 2 and 5 taken out");
	partset_set(&s, &p, 2, 1);
	partset_set(&s, &p, 5, 1);
	ok(partset_all(&s), "put back: every part, the set that says so");
	profile_free(&p);
	free(path);
	/* lists as the command line gives them */
	struct partlist l = { 0 };
	char why[128];
	ok(partset_parse_list("1,3,5-7", &l, why, sizeof(why)) == 0 && l.n == 5 && l.v[0] == 1 &&
	   l.v[1] == 3 && l.v[2] == 5 && l.v[4] == 7, "1,3,5-7: 1 3 5 6 7");
	static const char *const bad[] = { "", "a", "1,", ",1", "3-1", "1-", "1;2", "-1", "1 2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ok(partset_parse_list(bad[i], &l, why, sizeof(why)) < 0 && !l.v && !l.n,
		   "'%s' refused", bad[i]);
	}
	is_str(why, "'1 2' is not a list of numbers and ranges (1,3,5-7)", "what is wrong");
}

static void test_gzip(void)
{
	char *path = xasprintf("%s/p.gz", tmpdir);
	gzFile gz = gzopen(path, "wb");
	gzputs(gz, spec_example);
	gzclose(gz);
	struct profile p;
	profile_init(&p);
	ok(profile_load(&p, path, NULL, lasterr, sizeof(lasterr)) == 0, "gzip file loads: %s", lasterr);
	profile_finish(&p);
	is(incl(&p, "main", 0), 820, "gzip: inclusive main 820");
	profile_free(&p);
	free(path);
}

static void test_merge_diff_mod(void)
{
	static const char ta[] = "events: Ir\nfl=v1/a.c\nfn=f.123\n1 10\nfn=g\n2 5\n";
	static const char tb[] = "events: Ir\nfl=v2/a.c\nfn=f.456\n1 25\nfn=g\n2 5\n";
	char *a = write_tmp("a.out", ta, strlen(ta));
	char *b = write_tmp("b.out", tb, strlen(tb));
	struct profile p;
	/* merge: a + b */
	profile_init(&p);
	ok(profile_load(&p, a, NULL, lasterr, sizeof(lasterr)) == 0 &&
		   profile_load(&p, b, NULL, lasterr, sizeof(lasterr)) == 0,
	   "merge loads");
	profile_finish(&p);
	is(p.totals[0], 45, "merged total 10+5+25+5");
	profile_free(&p);

	/* the same file twice: the second load finds the first's functions
	 * (made without a look in the function hash, which takes them in
	 * then); in c the hash is made on the first load (f in two files)
	 * and g made after it */
	static const char tc[] = "events: Ir\nfl=a.c\nfn=f\n1 1\nfl=b.c\nfn=f\n1 2\n"
				 "fl=a.c\nfn=g\n1 4\n";
	char *c = write_tmp("c.out", tc, strlen(tc));
	static const struct {
		const char *what;
		int nfns;
		cost_t g;
	} twice[2] = { { "a: f.123 and g", 2, 5 + 5 }, { "c: f in a.c, f in b.c and g", 3, 4 + 4 } };
	for (int k = 0; k < 2; k++) {
		const char *path = k ? c : a;
		profile_init(&p);
		ok(profile_load(&p, path, NULL, lasterr, sizeof(lasterr)) == 0 &&
			   profile_load(&p, path, NULL, lasterr, sizeof(lasterr)) == 0,
		   "twice: %s load", twice[k].what);
		profile_finish(&p);
		is(p.nfns, twice[k].nfns, "twice: %s, each once", twice[k].what);
		is(self(&p, "g", 0), twice[k].g, "twice: g's self cost doubled");
		profile_free(&p);
	}
	free(c);

	/* diff with name substitutions: b - a */
	char err[256];
	struct modname *mf = modname_compile("s/v[0-9]/vN/", err, sizeof(err));
	struct modname *mn = modname_compile("s/\\.[0-9]+$//", err, sizeof(err));
	ok(mf && mn, "substitutions compile");
	struct load_opts lo1 = { .sign = -1, .modfile = mf, .modfn = mn };
	struct load_opts lo2 = { .sign = 1, .modfile = mf, .modfn = mn };
	profile_init(&p);
	ok(profile_load(&p, a, &lo1, lasterr, sizeof(lasterr)) == 0 &&
		   profile_load(&p, b, &lo2, lasterr, sizeof(lasterr)) == 0,
	   "diff loads");
	profile_finish(&p);
	is(p.totals[0], 15, "diff total (25+5) - (10+5)");
	is(self(&p, "f", 0), 15, "f.123 and f.456 are one function 'f' after --mod-funcname");
	is(self(&p, "g", 0), 0, "g unchanged: 0");
	is_str(file_name(&p, p.fns[fn(&p, "f")].file), "vN/a.c", "--mod-filename applied");
	profile_free(&p);
	modname_free(mf);
	modname_free(mn);

	/* i and g flags, backreferences */
	struct modname *m = modname_compile("s/(A)b/\\1x/gi", err, sizeof(err));
	size_t ol;
	char *r = modname_apply(m, "aBcAbc", 6, &ol);
	is_str(r, "axcAxc", "s/(A)b/\\1x/gi");
	free(r);
	modname_free(m);

	/* the names that became a name (modname_keep_originals) */
	m = modname_compile("s/v[0-9]/vN/", err, sizeof(err));
	modname_keep_originals(m);
	static const char *const in[] = { "v2/a.c", "zz.c", "v1/a.c", "v2/a.c" };
	for (int k = 0; k < 4; k++) {
		r = modname_apply(m, in[k], strlen(in[k]), &ol);
		is_str(r ? r : "(unchanged)", k == 1 ? "(unchanged)" : "vN/a.c",
		       "remembered: %s applied", in[k]);
		free(r);
	}
	const char **orig;
	size_t no = modname_originals(m, "vN/a.c", &orig);
	ok(no == 2 && strcmp(orig[0], "v1/a.c") == 0 && strcmp(orig[1], "v2/a.c") == 0,
	   "vN/a.c came from v1/a.c and v2/a.c, in that order, once each");
	free(orig);
	no = modname_originals(m, "zz.c", &orig);
	ok(no == 1 && strcmp(orig[0], "zz.c") == 0, "a name left unchanged came from itself");
	free(orig);
	is(modname_originals(m, "v1/a.c", &orig), 0, "v1/a.c became nothing else's name");
	free(orig);
	modname_free(m);
	ok(modname_compile("s/a/b/q", err, sizeof(err)) == NULL, "unknown flag rejected");
	ok(modname_compile("x/a/b/", err, sizeof(err)) == NULL, "not s/// rejected");
	free(a);
	free(b);
}


/* Loads text padded as load_padded does, with load_opts.lazy_lines. */
static int load_lazy(struct profile *p, const char *name, const char *text, int sign, int fresh)
{
	size_t n = strlen(text) + 512;
	char *b = malloc(n);
	snprintf(b, n, "%s#%0400d\n", text, 0);
	char *path = write_tmp(name, b, strlen(b));
	if (fresh)
		profile_init(p);
	struct load_opts lo = { .sign = sign, .lazy_lines = 1 };
	int rc = profile_load(p, path, &lo, lasterr, sizeof(lasterr));
	free(path);
	free(b);
	return rc;
}

static uint32_t fn_file_id(struct profile *p, const char *name)
{
	for (uint32_t f = 0; f < p->files.n; f++)
		if (strcmp(file_name(p, f), name) == 0)
			return f;
	return NO_ID;
}

static void need_all_lines(struct profile *p)
{
	for (uint32_t f = 0; f < p->nfns; f++)
		profile_need_lines(p, f);
}

static int has_warning(const struct profile *p, const char *what)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (strstr(p->warnings[i], what))
			return 1;
	return 0;
}

static void test_lazy_lines(void)
{
	/* the fast paths' lines, plus: a "*" cost (the previous line's value)
	 * right after fi=, which ends a segment; a call between self cost
	 * lines, relative positions going on after it; a comment between two
	 * runs of the same block, and an empty line (which ends a segment) */
	static const char text[] =
		"positions: instr line\nevents: A B\nob=(1) a.out\nfl=(1) a.c\nfn=(1) main\n"
		"0x10 3 1\n+1 4 1\n"           /* a.c:3 A 1, a.c:4 A 1 */
		"cob=(1)\ncfi=(1)\ncfn=(2) g\n" /* g defined: general parser */
		"calls=2 0x40 9 \n+1 5 20 2\n"  /* call at 0x12 line 5 */
		"+1 +1 3 4\n"                   /* a.c:6 A 3 B 4 (0x13, 5 + 1) */
		"fi=(2) h.h\n+1 7 5\n"          /* h.h:7 A 5 */
		"fe=(1)\n+1 8 6 9\n"            /* a.c:8 A 6 B 9 */
		"fi=(2)\n+1 9 * *\n"            /* h.h:9 A 6 B 9: the previous line's */
		"# a comment\n"
		"+1 * 1 *\n"                    /* h.h:9 A + 1, B + 9 (fi=(2) still) */
		"fn=(3) other\n0x90 40 2\n"     /* other a.c:40 A 2 */
		"fn=(1)\n0x11 4 100\n";         /* main a.c:4 A 100 more, a new block */
	struct profile p;
	ok(load_lazy(&p, "lazy.out", text, 1, 1) == 0, "lazy: loads: %s", lasterr);
	profile_finish(&p);
	ok(p.ls.nlazy > 0 && p.ls.nrecords == 0, "lazy: no line record made yet (%u deferred)",
	   p.ls.nlazy);
	/* totals and per-function costs need no line record */
	is(self(&p, "main", 0), 1 + 1 + 3 + 5 + 6 + 6 + 1 + 100, "lazy: main self A");
	is(self(&p, "main", 1), 4 + 9 + 9 + 9, "lazy: main self B");
	is(p.totals[0], 123 + 2, "lazy: total A");
	need_all_lines(&p);
	ok(p.ls.nlazy == 0 && p.ls.nrecords > 0, "lazy: records made when needed");
	is(line_cost(&p, "main", "a.c", 3, 0), 1, "lazy: a.c:3");
	is(line_cost(&p, "main", "a.c", 4, 0), 101, "lazy: a.c:4 over two blocks");
	is(line_cost(&p, "main", "a.c", 5, 0), 0, "lazy: a.c:5 only the call's");
	is(line_cost(&p, "main", "a.c", 6, 0), 3, "lazy: a.c:6 after the call");
	is(line_cost(&p, "main", "a.c", 6, 1), 4, "lazy: a.c:6 B");
	is(line_cost(&p, "main", "h.h", 7, 0), 5, "lazy: h.h:7 (fi=)");
	is(line_cost(&p, "main", "a.c", 8, 1), 9, "lazy: a.c:8 B (fe=)");
	is(line_cost(&p, "main", "h.h", 9, 0), 6 + 1, "lazy: h.h:9 A, '*' across fi=");
	is(line_cost(&p, "main", "h.h", 9, 1), 9 + 9, "lazy: h.h:9 B, '*' twice");
	is(line_cost(&p, "other", "a.c", 40, 0), 2, "lazy: other a.c:40");
	struct file_lines fl;
	query_fn_file_lines(&p, fn(&p, "main"), fn_file_id(&p, "h.h"), &fl);
	ok(fl.n == 2 && fl.line[0] == 7 && fl.line[1] == 9, "lazy: main's lines in h.h: 7, 9");
	file_lines_free(&fl);
	profile_free(&p);

	/* a diff: the first file counts negative, read again the same way */
	static const char ta[] = "events: A\nfl=a.c\nfn=f\n1 10\n2 5\n";
	static const char tb[] = "events: A\nfl=a.c\nfn=f\n1 25\n3 5\n";
	ok(load_lazy(&p, "da.out", ta, -1, 1) == 0 && load_lazy(&p, "db.out", tb, 1, 0) == 0,
	   "lazy diff: loads: %s", lasterr);
	profile_finish(&p);
	need_all_lines(&p);
	is(line_cost(&p, "f", "a.c", 1, 0), 15, "lazy diff: line 1 = 25 - 10");
	is(line_cost(&p, "f", "a.c", 2, 0), -5, "lazy diff: line 2 = 0 - 5");
	is(line_cost(&p, "f", "a.c", 3, 0), 5, "lazy diff: line 3 = 5 - 0");
	profile_free(&p);

	/* the file changes before its lines are read again: a warning, no
	 * lines for those blocks, nothing else lost */
	ok(load_lazy(&p, "ch.out", ta, 1, 1) == 0, "lazy, changed: loads");
	profile_finish(&p);
	char *path = write_tmp("ch.out", tb, strlen(tb));
	free(path);
	ok(profile_need_lines(&p, fn(&p, "f")) < 0, "lazy, changed: need_lines fails");
	ok(has_warning(&p, "ch.out: changed since it was loaded"), "lazy, changed: warning");
	is(line_cost(&p, "f", "a.c", 1, 0), 0, "lazy, changed: no line shown");
	is(self(&p, "f", 0), 15, "lazy, changed: the function's cost stays");
	ok(profile_need_lines(&p, fn(&p, "f")) == 0, "lazy, changed: not tried again");
	profile_free(&p);
}


/* Segments read again from far apart in the file and from their codes
 * (lazy.c keeps them as differences, from zero again every 32): 200
 * functions fK, K + K % 7 + 1 segment pairs each (f199: 120 pairs, one
 * chunk over several marks), each pair a cost line in h.h after fi= and
 * one in a.c after fe= (each line after them ends a segment), at 64-bit
 * instruction addresses far up (even K) or low (odd K), the a.c line's
 * position relative ("+4 -2"): fK's h.h:1000+3j costs 100K + j and
 * 2^40 + j, its a.c:998+3j costs 7K + j + 1 and 3, by construction.  The
 * functions' lines are asked for in a scattered order. */
static void test_lazy_many(void)
{
	enum { NF = 200 };
	struct text tx = { 0 };
	textf(&tx, "positions: instr line\nevents: A B\nfl=a.c\n");
	int nseg[NF], total = 0;
	for (int k = 0; k < NF; k++) {
		nseg[k] = k == NF - 1 ? 120 : k % 7 + 1;
		textf(&tx, "fn=f%03d\n", k);
		for (int j = 0; j < nseg[k]; j++) {
			unsigned long long at = k % 2 ? 0x401000ULL + (unsigned long long)j * 8
						      : 0x7ffffffffff00000ULL + (unsigned long long)k * 0x1000 +
							(unsigned long long)j * 8;
			textf(&tx, "fi=h.h\n0x%llx %d %d %lld\nfe=a.c\n+4 -2 %d 3\n", at,
			      1000 + 3 * j, 100 * k + j, (1LL << 40) + j, 7 * k + j + 1);
			total += 2;
		}
	}
	struct profile p;
	ok(load_lazy(&p, "many.out", tx.s, 1, 1) == 0, "lazy, many segments: loads: %s", lasterr);
	free(tx.s);
	profile_finish(&p);
	ok(p.ls.nlazy > 0 && p.ls.nrecords == 0, "lazy, many segments: all deferred");
	for (int k = 0; k < NF; k++) {
		char name[8];
		snprintf(name, sizeof(name), "f%03d", (k * 37) % NF);
		profile_need_lines(&p, fn(&p, name));
	}
	ok(p.ls.nlazy == 0, "lazy, many segments: every block read again");
	int seen = 0, good = 1;
	struct line_iter it;
	for (line_iter_all(&it, &p.ls); line_iter_next(&it);) {
		int k = atoi(fn_name(&p, it.fn) + 1), hh = !strcmp(file_name(&p, it.file), "h.h");
		int j = ((int)it.line - (hh ? 1000 : 998)) / 3;
		good &= j >= 0 && j < nseg[k] && (int)it.line == (hh ? 1000 : 998) + 3 * j;
		if (hh)
			good &= it.cost[0] == 100 * k + j && it.cost[1] == (1LL << 40) + j;
		else
			good &= it.cost[0] == 7 * k + j + 1 && it.cost[1] == 3;
		seen++;
	}
	is(seen, total, "lazy, many segments: a record per cost line");
	ok(good, "lazy, many segments: each line's costs, by construction");
	profile_free(&p);
}

/* A million segments' worth of memory: one function, 100,000 segments
 * (fi= and fe= between its cost lines end each) in two files, so that
 * little else is kept: as struct lz_seg they took 48 bytes each (4.8 MB),
 * coded 12 or so; less than 20 each is asked.  Its lines then read again:
 * h.h:1 and a.c:2 50,000 each, by construction. */
static void test_lazy_small(void)
{
	enum { N = 50000 };
	struct text tx = { 0 };
	textf(&tx, "events: A\nfl=a.c\nfn=main\n");
	for (int j = 0; j < N; j++)
		textf(&tx, "fi=h.h\n1 1\nfe=a.c\n2 1\n");
	int known = heap_known();
	size_t before = heap_used();
	struct profile p;
	ok(load_lazy(&p, "small.out", tx.s, 1, 1) == 0, "lazy, 100,000 segments: loads: %s", lasterr);
	size_t used = heap_used() - before;
	free(tx.s);
	if (known)
		ok(used < (size_t)2 * N * 20, "lazy, 100,000 segments: %zu bytes kept (< 20 each)", used);
	else /* (no check then) */
		printf("# the heap in use is not known here (a sanitizer's allocator)\n");
	profile_finish(&p);
	profile_need_lines(&p, fn(&p, "main"));
	is(line_cost(&p, "main", "h.h", 1, 0), N, "lazy, 100,000 segments: h.h:1");
	is(line_cost(&p, "main", "a.c", 2, 0), N, "lazy, 100,000 segments: a.c:2");
	profile_free(&p);
}

/* A writer that gives a function's file with fi= on the line before fn=
 * and never writes fl= (pyprof2calltree, lsprofcalltree: the wild corpus's
 * gprof2dot--callgrind_bzr.callgrind): the function is in that file, and
 * its call to itself (cfi= the same file) is recursion. */
/* Issue 16: no sum passes 2^63-1 unseen.  Every value read counts towards
 * the sums it can join (self and call costs of an event, by sign): the load
 * stops at the line where they pass 2^63-1 = 9223372036854775807. */
static void test_overflow(void)
{
	struct profile p;
	/* exactly 2^63-1 in two lines: loads, total and lines exact, also when
	 * the lines are read again (lazily: they are not counted twice) */
	static const char edge[] = "events: Ir\nfl=a.c\nfn=f\n1 9223372036854775000\n2 807\n";
	ok(load_lazy(&p, "edge.out", edge, 1, 1) == 0, "a total of 2^63-1 loads: %s", lasterr);
	profile_finish(&p);
	is(p.totals[0], INT64_MAX, "total 2^63-1");
	need_all_lines(&p);
	is(line_cost(&p, "f", "a.c", 1, 0), 9223372036854775000LL, "line 1 read again");
	is(line_cost(&p, "f", "a.c", 2, 0), 807, "line 2 read again");
	is(p.nwarnings, 0, "no warning");
	profile_free(&p);

	/* one more: the line that passes is named, read in place or like a pipe */
	static const char over[] = "events: Ir\nfl=a.c\nfn=f\n1 9223372036854775000\n2 808\n";
	for (int how = 0; how < 2; how++) {
		profile_init(&p);
		char *path = write_tmp("over.out", over, strlen(over));
		struct load_opts lo = { .sign = 1, .no_map = how };
		ok(profile_load(&p, path, &lo, lasterr, sizeof(lasterr)) < 0 &&
		   strstr(lasterr, "over.out:5: sum of Ir passes 2^63-1"),
		   "2^63 in two lines stops at line 5 (%s): %s", how ? "pipe" : "in place", lasterr);
		free(path);
		profile_free(&p);
	}

	/* many large costs on several events: their sum over the events
	 * passes 2^63-1 long before any event's does.  A, B, C 4 * 10^17 on
	 * lines 4-13 (4 * 10^18 each), then A alone 4 * 10^17 on lines 14-26:
	 * A 9.2 * 10^18, just below 2^63 (9.223... * 10^18); one more A line
	 * (27) passes.  In place (the fast paths), lazily, and like a pipe. */
	char big[4096] = "events: A B C\nfl=a.c\nfn=f\n";
	for (int i = 0; i < 10; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big),
			 "%d 400000000000000000 400000000000000000 400000000000000000\n", i + 1);
	for (int i = 0; i < 13; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), "%d 400000000000000000\n",
			 i + 20);
	size_t fits = strlen(big);
	strcat(big, "40 400000000000000000\n");
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0)
			big[fits] = 0; /* without line 27 */
		else
			strcpy(big + fits, "40 400000000000000000\n");
		for (int how = 0; how < 3; how++) {
			char *path = NULL;
			int rc;
			if (how == 2) {
				profile_init(&p);
				path = write_tmp("big.out", big, strlen(big));
				struct load_opts lo = { .sign = 1, .no_map = 1 };
				rc = profile_load(&p, path, &lo, lasterr, sizeof(lasterr));
				free(path);
			} else {
				rc = how ? load_lazy(&p, "big.out", big, 1, 1) : load_padded(&p, big);
				if (how && rc == 0)
					profile_finish(&p);
			}
			static const char *const hows[] = { "in place", "lazily", "like a pipe" };
			if (pass == 0) {
				ok(rc == 0, "sums of 9.2 * 10^18, 4 * 10^18, 4 * 10^18 load (%s): %s",
				   hows[how], lasterr);
				if (rc == 0 && how == 2)
					profile_finish(&p);
				if (rc == 0) {
					/* the fast paths' sum over the events passed 2^63-1:
					 * counted per event since */
					ok(how == 2 || p.sums_exact, "sums made exact (%s)", hows[how]);
					is(p.totals[0], 9200000000000000000LL, "A (%s)", hows[how]);
					is(p.totals[1], 4000000000000000000LL, "B (%s)", hows[how]);
					char err[256];
					ok(profile_define_event(&p, "X", "A + B", err, sizeof(err)) == -2,
					   "A + B can pass 2^63-1 (%s)", hows[how]);
					ok(profile_define_event(&p, "Y", "B + C", err, sizeof(err)) == 0,
					   "B + C cannot (%s): %s", hows[how], err);
				}
			} else {
				ok(rc < 0 && strstr(lasterr, ":27: sum of A passes 2^63-1"),
				   "line 27 passes (%s): %s", hows[how], lasterr);
			}
			profile_free(&p);
		}
	}

	/* derived events: CEst = Ir + 10 Bm here (no cache events), Bm = Bim +
	 * Bcm.  With Ir and Bcm at 10^18: Bm's values stay within 10^18, CEst's
	 * could reach 10^18 + 10 * 10^18 > 2^63-1: Bm is defined, CEst is not,
	 * with a warning */
	ok(load(&p, "events: Ir Bc Bcm Bi Bim\nfl=a.c\nfn=f\n1 1000000000000000000 0 "
		    "1000000000000000000\n") == 0, "Ir and Bcm 10^18: %s", lasterr);
	ok(profile_event_index(&p, "Bm", 2) >= 0, "Bm defined");
	ok(profile_event_index(&p, "CEst", 4) < 0, "CEst not defined");
	is(p.nwarnings, 1, "one warning");
	if (p.nwarnings)
		is_str(p.warnings[0], "CEst not defined: values of CEst can pass 2^63-1",
		       "the warning");
	profile_free(&p);
	/* with Bcm at 8 * 10^17: 10^18 + 8 * 10^18 = 9 * 10^18 fits: defined */
	ok(load(&p, "events: Ir Bc Bcm Bi Bim\nfl=a.c\nfn=f\n1 1000000000000000000 0 "
		    "800000000000000000\n") == 0, "Bcm 8 * 10^17: %s", lasterr);
	int ce = profile_event_index(&p, "CEst", 4);
	ok(ce >= 0 && event_value(&p, p.totals, ce) == 9000000000000000000LL,
	   "CEst defined, 9 * 10^18");
	profile_free(&p);
	/* an event: formula of the file that could pass: a warning at its line */
	ok(load(&p, "events: Ir\nevent: Big = 10 Ir\nfl=a.c\nfn=f\n1 1000000000000000000\n") == 0,
	   "a file's formula: %s", lasterr);
	ok(profile_event_index(&p, "Big", 3) < 0, "Big not defined");
	ok(p.nwarnings == 1 && strstr(p.warnings[0], "p.out:2: values of Big can pass 2^63-1"),
	   "warning at the event: line (%s)", p.nwarnings ? p.warnings[0] : "none");
	profile_free(&p);
}

/* Issue 16: odd but legitimate files.  positions: naming kinds other than
 * instr and line (qt-creator's parser tests write "positions: line
 * memAddr"): their subpositions are read and ignored, one warning. */
static void test_odd_positions(void)
{
	/* main a.c:3 5, a.c:4 6 + 1 (the third line: "*" everywhere), the call
	 * main -> f 2x with 100 inclusive from a.c:5, f a.c:10 100 */
	static const char text[] =
		"positions: instr line memAddr\nevents: Ir\nfl=a.c\nfn=main\n"
		"0x10 3 0x1000 5\n+2 +1 +4 6\n* * * 1\n"
		"cfn=f\ncalls=2 0x40 10 0x2000\n+1 +1 -8 100\n"
		"fn=f\n0x40 10 0x2000 100\n";
	for (int lazy = 0; lazy < 2; lazy++) {
		/* records made while loading, or by reading the lines again */
		struct profile p;
		int rc = lazy ? load_lazy(&p, "memaddr.out", text, 1, 1) : load_padded(&p, text);
		ok(rc == 0, "positions with memAddr load (%s): %s", lazy ? "lazily" : "eagerly",
		   lasterr);
		if (lazy)
			profile_finish(&p);
		need_all_lines(&p);
		is(line_cost(&p, "main", "a.c", 3, 0), 5, "a.c:3");
		is(line_cost(&p, "main", "a.c", 4, 0), 7, "a.c:4: 6 and 1 ('*')");
		is(line_cost(&p, "f", "a.c", 10, 0), 100, "f a.c:10");
		cost_t n;
		is(call(&p, "main", "f", &n, 0), 100, "the call's inclusive cost");
		is(n, 2, "called twice");
		ok(p.nwarnings == 1 && strstr(p.warnings[0], ":1: position 'memAddr' "
							   "ignored (only instr and line are known)"),
		   "one warning (%s)", p.nwarnings ? p.warnings[0] : "none");
		profile_free(&p);
	}
	/* no kind kept: every cost on line 0 */
	struct profile p;
	ok(load(&p, "positions: memAddr\nevents: Ir\nfl=a.c\nfn=main\n0x1000 5\n+4 6\n") == 0,
	   "positions: memAddr alone: %s", lasterr);
	is(self(&p, "main", 0), 11, "main 5 + 6");
	is(line_cost(&p, "main", "a.c", 0, 0), 11, "on line 0");
	profile_free(&p);
}

/* Issue 16: a file cut short loads what it has, with a warning; a byte
 * order mark is skipped; an empty file's error names its line 1.  Read in
 * place and like a pipe. */
static void test_cut_short(void)
{
	static const struct {
		const char *text, *warning;
		cost_t total;
	} cases[] = {
		{ "events: Ir\nfl=a.c\nfn=main\n1 5\n2 7", "ends in the middle of line 5 (truncated?)",
		  12 },
		{ "events: Ir\nfl=a.c\nfn=main\n1 5\n0x", "ends in the middle of line 5 (truncated?)",
		  5 },
		/* a line that does not read is left out whole (not 7 of it) */
		{ "events: Ir\nfl=a.c\nfn=main\n1 5\n2 7 8", "ends in the middle of line 5 (truncated?)",
		  5 },
		{ "events: Ir\nfl=a.c\nfn=main\n1 5\ncfn=f\ncalls=1", /* cut before its target */
		  "ends in the middle of line 6 (truncated?)", 5 },
		{ "creator: callgrind-3.19.0\nevents: Ir\nfl=a.c\nfn=main\n1 5\ncfn=f\ncalls=1 2\n",
		  "ends at line 7 without the totals: line callgrind writes last (truncated?)", 5 },
		{ "creator: cgtui-0.1\nevents: Ir\nfl=a.c\nfn=main\n1 5\n\n# end\n",
		  "ends at line 7 without the totals: line callgrind writes last (truncated?)", 5 },
		/* callgrind's files end with totals: (empty lines and comments may follow) */
		{ "creator: callgrind-3.19.0\nevents: Ir\nfl=a.c\nfn=main\n1 5\ntotals: 5\n\n# x\n",
		  NULL, 5 },
		/* others need not */
		{ "creator: xdebug\nevents: Ir\nfl=a.c\nfn=main\n1 5\n", NULL, 5 },
		{ "\xef\xbb\xbf" "events: Ir\nfl=a.c\nfn=main\n1 5\n", NULL, 5 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int how = 0; how < 2; how++) {
			struct profile p;
			profile_init(&p);
			char *path = write_tmp("cut.out", cases[i].text, strlen(cases[i].text));
			struct load_opts lo = { .sign = 1, .no_map = how };
			int rc = profile_load(&p, path, &lo, lasterr, sizeof(lasterr));
			free(path);
			ok(rc == 0, "case %zu (%s) loads: %s", i, how ? "pipe" : "in place", lasterr);
			if (rc == 0) {
				profile_finish(&p);
				is(p.totals[0], cases[i].total, "case %zu: the totals", i);
				if (cases[i].warning)
					ok(p.nwarnings == 1 && strstr(p.warnings[0], "cut.out: ") &&
						   strstr(p.warnings[0], cases[i].warning),
					   "case %zu: warns '%s' (%s)", i, cases[i].warning,
					   p.nwarnings ? p.warnings[0] : "none");
				else
					is(p.nwarnings, 0, "case %zu: no warning (%s)", i,
					   p.nwarnings ? p.warnings[0] : "");
			}
			profile_free(&p);
		}
	}
	/* an empty file */
	struct profile p;
	ok(load(&p, "") < 0 && strstr(lasterr, "p.out:1: no events: line"),
	   "an empty file: FILE:1: (%s)", lasterr);
	profile_free(&p);
}

static void test_fi_before_fn(void)
{
	static const char text[] = "events: Ticks\n"
				   "fi=a.py\nfn=f\n1 10\n"         /* f in a.py, self 10 */
				   "cfi=a.py\ncfn=f\ncalls=3 1\n1 7\n" /* f -> f: recursion */
				   "cfi=b.py\ncfn=g\ncalls=1 5\n1 4\n" /* f -> g: 4 */
				   "fi=b.py\nfn=g\n5 4\n"          /* g in b.py, self 4 */
				   "fi=c.py\n6 1\n";               /* g: 1 more, in c.py */
	struct profile p;
	ok(load(&p, text) == 0, "fi= before fn=: loads: %s", lasterr);
	is(p.nfns, 2, "fi= before fn=: two functions, f and g");
	is_str(file_name(&p, p.fns[fn(&p, "f")].file), "a.py", "fi= before fn=: f is in a.py");
	is_str(file_name(&p, p.fns[fn(&p, "g")].file), "b.py", "fi= before fn=: g is in b.py");
	is(incl(&p, "f", 0), 10 + 4, "fi= before fn=: f inclusive = self + g, not its call to itself");
	is(incl(&p, "g", 0), 5, "fi= before fn=: g inclusive 4 + 1 (fi= after cost lines: inlined)");
	profile_free(&p);
	/* with an fl= in the file, fi= keeps its meaning: code from another
	 * file inside the function */
	static const char text2[] = "events: Ticks\nfl=m.c\nfn=main\n1 1\n"
				    "fi=h.h\nfn=k\n2 3\n";
	ok(load(&p, text2) == 0, "fi= before fn= after fl=: loads: %s", lasterr);
	is_str(file_name(&p, p.fns[fn(&p, "k")].file), "m.c", "fi= before fn= after fl=: k in m.c");
	profile_free(&p);
}

static void test_escaping(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	FILE *f = escaping_stream(mem);
	/* ESC, BEL, a bidi override (U+202E), an invalid byte, a valid "é"
	 * split across two writes, a tab and a newline */
	fputs("a\x1b]0;x\x07" "b", f);
	fflush(f);
	fputs("|\xe2\x80\xae|\xff|\xc3", f);
	fflush(f);
	fputs("\xa9|\t\n", f);
	fclose(f);
	fclose(mem);
	is_str(buf, "a\\x1b]0;x\\x07b|\\u{202e}|\\xff|\xc3\xa9|\t\n",
	       "escaped: control bytes, bidi override, invalid byte; kept: UTF-8, tab, newline");
	free(buf);
}

static void test_threshold_format(void)
{
	char b[64];
	format_threshold(b, sizeof(b), 0.1);
	is_str(b, "0.1", "0.1");
	format_threshold(b, sizeof(b), 1);
	is_str(b, "1.0", "whole numbers get .0 (Python str)");
	format_threshold(b, sizeof(b), 0.05);
	is_str(b, "0.05", "0.05");
	format_threshold(b, sizeof(b), 0.00001);
	is_str(b, "1e-05", "exponent form");
}

/* Instruction-level detail, read again for one function: costs per
 * address (two blocks of f added), the call and the jump at 0x1006, by hand
 * from the text below. */
static const char instr_text[] = "positions: instr line\nevents: Ir Dr\n"
				 "ob=(1) /bin/prog\nfl=(1) a.c\nfn=(1) f\n"
				 "0x1000 10 3 1\n+4 * 2\n+2 11 5 0\n"
				 "cfn=(2) g\ncalls=2 0x2000 20\n* * 40 4\n"
				 "jcnd=3/5 -6 10\n* *\n"
				 "fn=(2)\n0x2000 20 7\n"
				 "fn=(1)\n0x1004 10 1 1\n";

static int reload_text(void *arg, struct profile *out, const struct instr_sink *s, char *err,
		       size_t errsz)
{
	profile_init(out);
	struct load_opts lo = { .sign = 1, .instr = s };
	int rc = profile_load(out, arg, &lo, err, errsz);
	if (rc < 0)
		profile_free(out);
	return rc;
}

static void test_instr(void)
{
	struct profile p;
	is(load(&p, instr_text), 0, "instr: loads (%s)", lasterr);
	char *path = write_tmp("i.out", instr_text, strlen(instr_text));
	struct fn_instrs fi;
	char err[256];
	is(fn_instrs_collect(&fi, &p, fn(&p, "f"), reload_text, path, err, sizeof(err)), 0,
	   "instr: read again");
	is(fi.nins, 3, "instr: f has three addresses");
	const struct icost *c = fn_instrs_find(&fi, 0x1004);
	ok(c && c->cost[0] == 3 && c->cost[1] == 1 && c->line == 10,
	   "instr: 0x1004 = 2 + 1 Ir, 0 + 1 Dr (two blocks), line 10");
	c = fn_instrs_find(&fi, 0x1006);
	ok(c && c->cost[0] == 5 && c->line == 11 && strcmp(c->file, "a.c") == 0,
	   "instr: 0x1006 5 Ir at a.c:11");
	ok(!fn_instrs_find(&fi, 0x2000), "instr: g's address is not f's");
	ok(fi.ncalls == 1 && fi.calls[0].addr == 0x1006 && fi.calls[0].target == 0x2000 &&
		   fi.calls[0].count == 2 && fi.calls[0].cost[0] == 40 && fi.calls[0].cost[1] == 4 &&
		   strcmp(fi.calls[0].callee, "g") == 0,
	   "instr: the call at 0x1006 to g at 0x2000, 2x, 40 Ir 4 Dr");
	ok(fi.njumps == 1 && fi.jumps[0].addr == 0x1006 && fi.jumps[0].target == 0x1000 &&
		   fi.jumps[0].cond && fi.jumps[0].taken == 3 && fi.jumps[0].executed == 5,
	   "instr: jcnd at 0x1006 to 0x1000, taken 3 of 5");
	is(p.totals[0], 3 + 2 + 5 + 7 + 1, "instr: the profile's own totals unchanged");
	fn_instrs_free(&fi);
	free(path);
	profile_free(&p);

	/* f's second block starts relative to g's last position (0x2000 -
	 * 4092 = 0x1004): g's lines were skipped unread, so f is read again
	 * with every line */
	static const char rel_text[] = "positions: instr line\nevents: Ir Dr\n"
				       "ob=(1) /bin/prog\nfl=(1) a.c\nfn=(1) f\n"
				       "0x1000 10 3 1\n+4 * 2\n+2 11 5 0\n"
				       "fn=(2) g\n0x2000 20 7\n"
				       "fn=(1)\n-4092 10 1 1\n";
	is(load(&p, rel_text), 0, "instr, relative: loads (%s)", lasterr);
	path = write_tmp("r.out", rel_text, strlen(rel_text));
	is(fn_instrs_collect(&fi, &p, fn(&p, "f"), reload_text, path, err, sizeof(err)), 0,
	   "instr, relative: read again (%s)", err);
	c = fn_instrs_find(&fi, 0x1004);
	ok(fi.nins == 3 && c && c->cost[0] == 3 && c->cost[1] == 1,
	   "instr, relative: 0x1004 = 2 + 1 Ir, 0 + 1 Dr, found after the fallback");
	fn_instrs_free(&fi);
	free(path);
	profile_free(&p);
}

/* Tables past 1 MiB live in their own mappings (util.c, hot_realloc): their
 * contents must survive each growth across that size, and a profile with
 * 300,000 functions (tables of several MiB) must load with every function
 * and call where the text puts them. */
static void test_large_tables(void)
{
	/* grown from 1 KiB to 16 MiB by doubling, each value set once */
	size_t cap = 0, n = 0;
	uint32_t *a = NULL;
	int bad = 0;
	for (size_t want = 256; want <= ((size_t)4 << 20); want *= 2) {
		a = hot_realloc(a, cap * sizeof(*a), want * sizeof(*a));
		cap = want;
		for (; n < cap; n++)
			a[n] = (uint32_t)(n * 2654435761u);
		for (size_t i = 0; i < n; i++)
			bad += a[i] != (uint32_t)(i * 2654435761u);
	}
	is(bad, 0, "a table grown from 1 KiB to 16 MiB keeps every value");
	hot_free(a, cap * sizeof(*a));
	uint8_t *z = hot_calloc((size_t)3 << 20);
	size_t nz = 0;
	for (size_t i = 0; i < ((size_t)3 << 20); i++)
		nz += z[i] != 0;
	is(nz, 0, "hot_calloc of 3 MiB is all zero");
	hot_free(z, (size_t)3 << 20);

	/* f0 .. f299999, each defined once with self cost i + 1 (Ir), each
	 * f(i) for i > 0 calling f(i / 2) once with inclusive cost 1000
	 * (the callee's own cost need not match: the format takes it as read).
	 * Hand computation: total = sum(i + 1) = N (N + 1) / 2;
	 * f(k)'s callers are f(2k) and f(2k + 1); incl f(i) = self + 1000. */
	enum { N = 300000 };
	size_t sz = (size_t)N * 80 + 1024, len = 0;
	char *t = malloc(sz);
	len += (size_t)snprintf(t + len, sz - len, "events: Ir\nfl=(1) big.c\n");
	for (uint32_t i = 0; i < N; i++) {
		len += (size_t)snprintf(t + len, sz - len, "fn=(%u) f%u\n%u %u\n", i + 1, i, i + 1,
					i + 1);
		if (i)
			len += (size_t)snprintf(t + len, sz - len, "cfn=(%u)\ncalls=1 %u\n%u 1000\n",
						i / 2 + 1, i / 2 + 1, i + 1);
	}
	struct profile p;
	ok(load_padded(&p, t) == 0, "300,000 functions load: %s", lasterr);
	free(t);
	is(p.nfns, N, "300,000 functions");
	is(p.totals[0], (cost_t)N * (N + 1) / 2, "total N(N+1)/2 = 45,000,150,000");
	is(self(&p, "f0", 0), 1, "f0 self 1");
	is(self(&p, "f123457", 0), 123458, "f123457 self 123458");
	is(incl(&p, "f123457", 0), 123458 + 1000, "f123457 inclusive: self + its call's 1000");
	is(self(&p, "f299999", 0), 300000, "f299999 self 300000");
	cost_t count;
	is(call(&p, "f123457", "f61728", &count, 0), 1000, "f123457 -> f61728: inclusive 1000");
	is(count, 1, "f123457 calls f61728 once");
	is(strtab_find(&p.names, "f299998", 7) != UINT32_MAX, 1, "the last names can be found");
	is(strtab_find(&p.names, "f300000", 7), UINT32_MAX, "a name never given is not found");
	profile_free(&p);
}

/* A function of many megabytes: its cost lines are read in runs, and the
 * load still reports progress, and stops when asked, inside it. */
struct progress_log {
	int calls;
	uint64_t last, size, stop_at;
};

static int log_progress(void *arg, uint64_t done, uint64_t size)
{
	struct progress_log *l = arg;
	l->calls++;
	l->last = done;
	l->size = size;
	return l->stop_at && done >= l->stop_at;
}

static void test_long_function(void)
{
	/* f's first line "1 1", then N lines "+1 2": 25 MB in one block.
	 * Hand computation: total = 1 + 2 N. */
	enum { N = 5000000 };
	const char head[] = "events: Ir\nfl=long.c\nfn=f\n1 1\n";
	size_t hl = sizeof(head) - 1, len = hl + (size_t)N * 5;
	char *t = malloc(len + 6);
	memcpy(t, head, hl);
	for (size_t i = 0; i < N; i++)
		memcpy(t + hl + i * 5, "+1 2\n", 5);
	char *path = write_tmp("long.out", t, len);
	/* a bad line after it is reported with its number: 4 + N + 1 */
	memcpy(t + len, "+1 zz\n", 6);
	char *bad = write_tmp("long-bad.out", t, len + 6);
	free(t);
	struct profile b;
	profile_init(&b);
	ok(profile_load(&b, bad, NULL, lasterr, sizeof(lasterr)) != 0 &&
		   strstr(lasterr, "long-bad.out:5000005: bad cost 'zz'"),
	   "the line after 25 MB of one function is line 5,000,005: %s", lasterr);
	profile_free(&b);
	free(bad);

	/* both ways of keeping lines: made while loading, or when needed */
	for (int lazy = 0; lazy < 2; lazy++) {
		struct profile p;
		profile_init(&p);
		struct progress_log l = { 0 };
		struct load_opts lo = { .sign = 1, .progress = log_progress, .progress_arg = &l,
					.lazy_lines = lazy };
		ok(profile_load(&p, path, &lo, lasterr, sizeof(lasterr)) == 0,
		   "a 25 MB function loads (lazy %d)", lazy);
		profile_finish(&p);
		is(p.totals[0], 1 + 2 * (cost_t)N, "its total is 1 + 2 x 5,000,000");
		is(self(&p, "f", 0), 1 + 2 * (cost_t)N, "all of it is f's self cost");
		/* progress every 8 MiB: at the start, and at least twice
		 * inside the block */
		ok(l.calls >= 3, "progress reported %d times while loading 25 MB of one function",
		   l.calls);
		profile_free(&p);

		profile_init(&p);
		struct progress_log c = { .stop_at = 4u << 20 };
		lo.progress_arg = &c;
		is(profile_load(&p, path, &lo, lasterr, sizeof(lasterr)), LOAD_CANCELLED,
		   "cancelled inside the function");
		ok(c.last < (size_t)len / 2, "stopped at byte %llu of %zu", (unsigned long long)c.last,
		   len);
		profile_free(&p);
	}
	free(path);
}

/* The compact cost vector (linestore.h): a varint mask of the values that
 * are not zero, then each as a zigzag LEB128 varint (7 bits a byte).  The
 * lengths below are worked out by hand from that definition. */
static void test_cost_encoding(void)
{
	/* zigzag: 63 -> 126 (1 byte), 64 -> 128 (2), -64 -> 127 (1),
	 * -65 -> 129 (2), 8191 -> 16382 (2), 8192 -> 16384 (3),
	 * INT64_MAX -> 2^64 - 2 (10), INT64_MIN -> 2^64 - 1 (10) */
	static const cost_t v[13] = { 0, 63, 64, -64, -65, 0, 8191, 8192, 1, INT64_MAX, INT64_MIN,
				      0, -1 };
	/* mask: every value but [0], [5] and [11]: 0x17de = 6110, two bytes */
	uint8_t buf[10 * 14 + 16];
	memset(buf, 0xaa, sizeof(buf));
	uint8_t *e = cost_encode(buf, v, 13);
	/* 2 (mask) + 1 + 2 + 1 + 2 + 2 + 3 + 1 (1 -> 2) + 10 + 10 + 1 (-1 -> 1) */
	is(e - buf, 35, "13 values, 10 not zero: 35 bytes");
	is(buf[0], 0xde, "mask low 7 bits 0x5e with the continuation bit");
	is(buf[1], 0x2f, "mask high bits 0x17de >> 7 = 0x2f");
	is(buf[2], 126, "63 zigzags to 126, one byte");
	is(buf[3], 0x80, "64 zigzags to 128: low bits 0 with the continuation bit");
	is(buf[4], 0x01, "... then 1");
	cost_t back[13];
	const uint8_t *d = cost_decode(buf, back, 13);
	is(d - buf, 35, "decoding reads the same 35 bytes");
	int same = 1;
	for (int i = 0; i < 13; i++)
		same &= back[i] == v[i];
	ok(same, "every value, zero or not, small or at the limits, decodes as it was");
}

/* Miss-ratio curves (profile/mrc.h): the recorder's comment lines, read
 * by hand from man cgtui (MISS-RATIO CURVES). */
#define MRC_PROF                                                                           \
	"# callgrind format\nevents: Ir Dr Dw\n"                                           \
	"desc: I1 cache: 32768 B, 64 B, 8-way associative\n"                               \
	"desc: D1 cache: 32768 B, 64 B, 8-way associative\n"                               \
	"desc: LL cache: 8388608 B, 64 B, 16-way associative\n"                            \
	"desc: L2@big cache: 1048576 B, 64 B, 16-way associative\n"                        \
	"desc: L2 cache: 12 lines written back, 5 prefetched\n"                            \
	"fl=a.c\nfn=main\n1 10 6 4\nfl=b.c\nfn=work\n2 20 30 10\nfn=tiny\n3 1 1 0\n"        \
	"totals: 31 37 14\n"                                                               \
	"# cgtui mrc 1: data accesses, lines of 64 B, sizes 2^0 .. 2^3 lines, sampling "    \
	"threshold 16777216 of 16777216\n"
#define MRC_CURVES                                                                         \
	"# mrc-total: 51 51 40 30 20 10\n# mrc-fn: 40 40 32 24 16 0\n"                     \
	"# mrc-name: fl=b.c fn=work\n# mrc-few: 2 functions with fewer than 64 samples\n"

static int has_warning(const struct profile *p, const char *what);

static void test_mrc(void)
{
	struct profile p;
	ok(load(&p, MRC_PROF MRC_CURVES) == 0, "curves: %s", lasterr);
	is(p.nwarnings, 0, "curves: no warning (%s)", p.nwarnings ? p.warnings[0] : "");
	ok(p.mrc != NULL, "curves read");
	if (!p.mrc) {
		profile_free(&p);
		return;
	}
	is(p.mrc->line, 64, "64 B lines");
	is(p.mrc->nsizes, 4, "sizes 2^0 .. 2^3");
	is(p.mrc->total.accesses, 51, "the whole run's accesses");
	is(p.mrc->total.miss[3], 10, "... its misses at 8 lines");
	is(p.mrc->few, 2, "2 functions with too few samples");
	is(p.mrc->few_min, 64, "... fewer than 64");
	const struct mrc_curve *w = mrc_of_fn(&p, fn(&p, "work"));
	ok(w && w->accesses == 40 && w->miss[2] == 16, "work's curve by its name and file");
	/* 16 misses of 40 accesses at 4 lines: 0.4; 0 at 8 lines */
	ok(w && mrc_ratio(w, 2) == 0.4 && mrc_ratio(w, 3) == 0, "work's ratios 0.4 and 0");
	ok(mrc_of_fn(&p, fn(&p, "main")) == NULL, "main has none");
	/* 6 lines: between 4 (20/51) and 8 (10/51), at log2 6 = 2.5849625:
	 * (20 - 10 x 0.5849625) / 51 = 0.2774583 */
	double r6 = mrc_ratio_at(p.mrc, &p.mrc->total, 6);
	ok(r6 > 0.27745 && r6 < 0.27746, "the whole run at 6 lines: %.7f", r6);
	ok(mrc_ratio_at(p.mrc, &p.mrc->total, 16) < 0, "16 lines: beyond the curve");
	struct mrc_level lv[8];
	int nl = mrc_levels(&p, lv, 8);
	ok(nl == 2 && strcmp(lv[0].name, "D1") == 0 && lv[0].size == 32768 &&
		   strcmp(lv[1].name, "LL") == 0 && lv[1].size == 8388608,
	   "data levels D1 32768, LL 8388608 (not I1, another model's L2, or a count): %d", nl);
	profile_free(&p);

	/* what is wrong is a warning at its line; the costs stay */
	static const struct {
		const char *curves, *warning;
	} bad[] = {
		{ "# mrc-total: 51 51 40 30\n",
		  "p.out:18: mrc-total: 4 numbers, not 6 (samples, accesses, misses at 2^0 .. 2^3 lines)" },
		{ "# mrc-total: 51 51 40 30 31 10\n",
		  "p.out:18: mrc-total: more misses at 2^2 lines (31) than at 2^1 (30)" },
		{ "# mrc-total: 51 51 40 30 20 10\n# mrc-fn: 40 40 32 24 16 0\n",
		  "p.out:19: the file ends after an mrc-fn line without its mrc-name line" },
		{ "# mrc-fn: 40 40 32 24 16 0\n# mrc-total: 51 51 40 30 20 10\n",
		  "p.out:19: mrc-fn line not followed by its mrc-name line" },
		{ "# mrc-name: fl=b.c fn=work\n",
		  "p.out:18: mrc-name line without an mrc-fn line before it" },
		{ "# mrc-total: 51 x 40 30 20 10\n",
		  "p.out:18: mrc-total: not 6 numbers" },
		{ "# mrc-fn: 40 40 32 24 16 0\n",
		  "p.out:18: the file ends after an mrc-fn line" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *text = xasprintf("%s%s", MRC_PROF, bad[i].curves);
		ok(load(&p, text) == 0 && p.totals[1] == 37, "bad curves %zu: the profile loads", i);
		ok(p.mrc == NULL && has_warning(&p, bad[i].warning), "bad curves %zu: no curves, '%s' (%s)",
		   i, bad[i].warning, p.nwarnings ? p.warnings[0] : "no warning");
		profile_free(&p);
		free(text);
	}
	/* a later format: said, not read */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=f\n1 5\n# cgtui mrc 2: whatever comes\n"
		    "# mrc-total: 1 2 3\n") == 0 && p.mrc == NULL &&
		   has_warning(&p, "p.out:5: miss-ratio curves of format 2: not read (this cgtui reads "
				   "format 1)"),
	   "format 2: a warning, no curves (%s)", p.nwarnings ? p.warnings[0] : "none");
	profile_free(&p);
	/* lines before the header */
	ok(load(&p, "events: Ir\nfl=a.c\nfn=f\n1 5\n# mrc-total: 1 1 0\n") == 0 && p.mrc == NULL &&
		   has_warning(&p, "p.out:5: a '# mrc-' line before the '# cgtui mrc' header"),
	   "mrc-total before the header: a warning");
	profile_free(&p);

	/* two parts of a run (a dump zeroes the curves): their counts add up;
	 * the same curves again (per-thread files carry the whole run's) are
	 * not added */
	char *a = write_tmp("a.out", MRC_PROF MRC_CURVES, strlen(MRC_PROF MRC_CURVES));
	const char part2[] = MRC_PROF "# mrc-total: 9 9 8 6 4 2\n# mrc-fn: 5 5 5 4 3 2\n"
				      "# mrc-name: fl=b.c fn=work\n# mrc-fn: 4 4 3 2 1 0\n"
				      "# mrc-name: fl=a.c fn=main\n";
	char *b = write_tmp("b.out", part2, strlen(part2));
	char *c = write_tmp("c.out", MRC_PROF MRC_CURVES, strlen(MRC_PROF MRC_CURVES));
	profile_init(&p);
	ok(profile_load(&p, a, NULL, lasterr, sizeof(lasterr)) == 0 &&
		   profile_load(&p, b, NULL, lasterr, sizeof(lasterr)) == 0 &&
		   profile_load(&p, c, NULL, lasterr, sizeof(lasterr)) == 0,
	   "three files: %s", lasterr);
	profile_finish(&p);
	ok(p.mrc && p.mrc->total.accesses == 60 && p.mrc->total.miss[0] == 48 &&
		   p.mrc->total.miss[3] == 12,
	   "parts: 51 + 9 accesses, 40 + 8 and 10 + 2 misses (not the third file's again)");
	w = mrc_of_fn(&p, fn(&p, "work"));
	const struct mrc_curve *m = mrc_of_fn(&p, fn(&p, "main"));
	ok(w && w->accesses == 45 && w->miss[1] == 28 && m && m->accesses == 4 && m->miss[0] == 3,
	   "work 40 + 5 accesses, 24 + 4 misses at 2 lines; main's from the second part");
	profile_free(&p);
	free(a);
	free(b);
	free(c);
}


int main(void)
{
	if (fixture_start() < 0)
		return 99;
	test_spec_example();
	test_mrc();
	test_name_compression();
	test_fn_like();
	test_fn_find();
	test_subpositions();
	test_cachegrind();
	test_inline_files();
	test_calls();
	test_call_records();
	test_arena();
	test_first_not_below();
	test_fast_path();
	test_fast_run();
	test_hex_positions();
	test_fast_specs();
	test_fast_call_lines();
	test_number_lengths();
	test_worker_line_range();
	test_recursion();
	test_parts_and_misc();
	test_formulas();
	test_gzip();
	test_only_part();
	test_part_sets();
	test_merge_diff_mod();
	test_lazy_lines();
	test_lazy_many();
	test_lazy_small();
	test_fi_before_fn();
	test_overflow();
	test_odd_positions();
	test_cut_short();
	test_threshold_format();
	test_escaping();
	test_instr();
	test_large_tables();
	test_cost_encoding();
	test_long_function();
	fixture_end();
	return tap_done();
}
