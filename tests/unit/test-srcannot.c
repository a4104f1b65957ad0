/* test-srcannot.c -- the annotated rows of a source file (srcannot.c), on
 * a hand-made profile and source file; every expected row is worked out by
 * hand in the comments from cg_annotate's rule for ranges (a picked line
 * and `context` lines either side, joined with the next range when they
 * meet) and the view's for picking (a line or its calls passing the
 * threshold, and the function's entry line).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <utime.h>

#include "profile/aggregate.h"
#include "profile/modname.h"
#include "profile/rank.h"
#include "source/srcannot.h"
#include "fixture.h"
#include "tap.h"

/* a.c has 20 lines.  Costs: line 0: 5; main: 3 -> 100, 4 -> 1 (calls g
 * 1x, 60), 10 -> 2; g (its entry at 17): 17 -> 60, 25 -> 4 (past the
 * end).  Total 172; main calls g; g calls itself at 17 (3x). */
static const char prof[] = "events: Ir\nfl=a.c\nfn=main\n0 5\n3 100\n4 1\ncfn=g\ncalls=1 17\n4 60\n"
			   "10 2\nfn=g\n17 60\ncfn=g\ncalls=3 17\n17 30\n25 4\n";

static char *source(void)
{
	char text[512] = "";
	for (int i = 1; i <= 20; i++) {
		char l[32];
		snprintf(l, sizeof(l), "line %d\n", i);
		strcat(text, l);
	}
	return write_tmp("a.c", text, strlen(text));
}

static size_t count(const struct srcann *a, enum srcann_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < a->nrows; i++)
		n += a->rows[i].kind == k;
	return n;
}

static void test_report_rows(struct profile *p, uint32_t file)
{
	/* cg_annotate's: every line with a cost, context 1: lines 3, 4, 10,
	 * 17 (25 is past the end): ranges 2..5, 9..11, 16..18 */
	struct srcann_opts o = { .look = NULL, .dirs = (const char *const[]){ tmpdir }, .ndirs = 1,
				 .fn = NO_ID, .entry = NO_ID, .event = 0, .thr = NULL, .context = 1 };
	struct srcann a;
	is(srcann_build(&a, p, file, &o), SA_OK, "a.c is read (from the directory given)");
	is(a.nranges, 3, "three ranges");
	ok(a.ranges[0].lo == 2 && a.ranges[0].hi == 5 && a.ranges[1].lo == 9 && a.ranges[1].hi == 11 &&
	   a.ranges[2].lo == 16 && a.ranges[2].hi == 18, "2..5, 9..11, 16..18");
	ok(a.rows[0].kind == SA_LINE0 && a.rows[0].cost[0] == 5, "line 0 first: 5");
	ok(a.rows[1].kind == SA_GAP && a.rows[1].line == 1 && a.rows[1].hi == 1, "then line 1 hidden");
	ok(a.rows[2].kind == SA_LINE && a.rows[2].line == 2 && !a.rows[2].cost, "line 2: context, no cost");
	ok(a.rows[3].line == 3 && a.rows[3].cost[0] == 100 && a.rows[3].picked, "line 3: 100, picked");
	is(count(&a, SA_LINE), 4 + 3 + 3, "ten lines shown");
	is(count(&a, SA_CALL), 0, "no call rows asked for");
	const struct srcann_row *last = &a.rows[a.nrows - 1];
	ok(last->kind == SA_PAST && last->line == 25 && last->cost[0] == 4, "line 25, past the end, last");
	ok(a.rows[a.nrows - 2].kind == SA_GAP && a.rows[a.nrows - 2].line == 19 &&
	   a.rows[a.nrows - 2].hi == 20, "before it, lines 19..20 hidden");
	ok(a.picked_any, "lines picked");
	srcann_free(&a);
}

static void test_view_rows(struct profile *p, uint32_t file)
{
	/* the view: main's costs only, threshold 10% of 172 (17.2): line 3
	 * (100) passes, line 4 (1) does not but its call (60) does, line 10
	 * does not; main's entry line is 3.  Context 0: lines 3 and 4, two
	 * ranges 3..3 and 4..4 (cg_annotate joins ranges that overlap, not
	 * neighbours), no gap between them; the call row under 4, plain */
	struct rank_thr thr = rank_threshold(p, 0, 10);
	uint32_t main_ = fn(p, "main"), g = fn(p, "g");
	struct srcann_opts o = { .dirs = (const char *const[]){ tmpdir }, .ndirs = 1, .fn = main_,
				 .entry = main_, .event = 0, .thr = &thr, .context = 0, .calls = 1 };
	struct srcann a;
	srcann_build(&a, p, file, &o);
	ok(a.nranges == 2 && a.ranges[0].lo == 3 && a.ranges[0].hi == 3 && a.ranges[1].lo == 4 &&
	   a.ranges[1].hi == 4, "two ranges, 3 and 4");
	int gap34 = 0;
	for (size_t i = 0; i + 1 < a.nrows; i++)
		gap34 |= a.rows[i].kind == SA_GAP && a.rows[i].line > 3 && a.rows[i].line < 5;
	ok(!gap34 && a.rows[0].kind == SA_LINE0 && a.rows[1].kind == SA_GAP && a.rows[1].hi == 2,
	   "main's line 0, lines 1..2 hidden, none between 3 and 4");
	ok(a.first < a.nrows && a.rows[a.first].line == 3, "main's entry row: line 3");
	const struct srcann_row *r = NULL;
	for (size_t i = 0; i < a.nrows; i++)
		if (a.rows[i].kind == SA_CALL)
			r = &a.rows[i];
	ok(r && r->line == 4 && r->callee == g && r->count == 1 && r->cost[0] == 60 &&
	   r->call == CALL_PLAIN, "line 4 calls g 1x, 60, a plain call");
	ok(a.rows[a.nrows - 1].kind == SA_GAP && a.rows[a.nrows - 1].line == 5 &&
	   a.rows[a.nrows - 1].hi == 20, "then lines 5..20 hidden");
	srcann_free(&a);

	/* g's own: its call to itself at 17 has no share (recursive) and
	 * does not pick its line by itself; 17 passes by its own 60 */
	o.fn = o.entry = g;
	srcann_build(&a, p, file, &o);
	r = NULL;
	for (size_t i = 0; i < a.nrows; i++)
		if (a.rows[i].kind == SA_CALL)
			r = &a.rows[i];
	ok(r && r->call == CALL_RECURSIVE && r->count == 3, "g -> g at 17: 3x, recursive");
	ok(a.rows[a.first].line == 17, "g's entry row: 17");
	srcann_free(&a);
}

static void test_files(struct profile *p, uint32_t file)
{
	struct srcann a;
	struct srcann_opts o = { .fn = NO_ID, .entry = NO_ID, .context = 1 };
	/* not found from here (a relative name, no directory given) */
	is(srcann_build(&a, p, file, &o), SA_UNREADABLE, "a.c without its directory: unreadable");
	ok(a.err != 0 && a.tried.n >= 1, "the errno and the paths tried are kept");
	/* without the text: no context, the picked lines and the gaps up to
	 * the last line named (25) */
	ok(a.nranges == 5 && a.ranges[0].lo == 3 && a.ranges[0].hi == 3 && a.ranges[4].lo == 25 &&
	   a.ranges[4].hi == 25, "ranges without context: 3, 4, 10, 17, 25");
	srcann_free(&a);

	/* newer than the profile: said, with the profile file named */
	struct utimbuf old = { 1000000000, 1000000000 };
	utime(p->sources[0], &old);
	o.dirs = (const char *const[]){ tmpdir };
	o.ndirs = 1;
	is(srcann_build(&a, p, file, &o), SA_OK, "read");
	ok(a.nnewer == 1 && a.newer[0] == 0, "a.c is newer than the profile");
	srcann_free(&a);
}

/* --mod-filename=s/[ab]\.c/x.c/: a.c and b.c both become x.c; read under
 * their original names, identical or not */
static void test_originals(void)
{
	char err[256];
	struct modname *m = modname_compile("s/[ab]\\.c/x.c/", err, sizeof(err));
	modname_keep_originals(m);
	struct profile p;
	profile_init(&p);
	const char *text = "events: Ir\nfl=a.c\nfn=f\n1 1\nfl=b.c\nfn=g\n1 2\n";
	char *path = write_tmp("m.out", text, strlen(text));
	struct load_opts lo = { .sign = 1, .modfile = m };
	ok(profile_load(&p, path, &lo, lasterr, sizeof(lasterr)) == 0, "renamed profile loads");
	profile_finish(&p);
	char *a1 = write_tmp("a.c", "same\n", 5), *b1 = write_tmp("b.c", "same\n", 5);
	struct srcann_opts o = { .dirs = (const char *const[]){ tmpdir }, .ndirs = 1, .modfile = m,
				 .fn = NO_ID, .entry = NO_ID, .context = 0 };
	struct srcann a;
	uint32_t x = strtab_find(&p.files, "x.c", 3);
	ok(srcann_build(&a, &p, x, &o) == SA_OK && a.norig == 2 && !strcmp(a.orig[0], "a.c") &&
	   !strcmp(a.orig[1], "b.c"), "x.c: read as a.c and b.c, identical: one text");
	srcann_free(&a);
	free(write_tmp("b.c", "other\n", 6));
	is(srcann_build(&a, &p, x, &o), SA_NONIDENT, "b.c changed: not identical");
	srcann_free(&a);
	free(a1);
	free(b1);
	free(path);
	profile_free(&p);
	modname_free(m);
}

int main(void)
{
	if (fixture_start() < 0)
		return 99;
	struct profile p;
	ok(load(&p, prof) == 0, "profile loads: %s", lasterr);
	char *src = source();
	uint32_t file = strtab_find(&p.files, "a.c", 3);
	test_report_rows(&p, file);
	test_view_rows(&p, file);
	test_files(&p, file);
	profile_free(&p);
	free(src);
	test_originals();
	fixture_end();
	return tap_done();
}
