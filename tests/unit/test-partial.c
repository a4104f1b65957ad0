/* test-partial.c -- the self costs of a profile still loading (partial.h):
 * summed as blocks come, only the new ones at each update, and the first
 * functions of the one ordering picked from them.  Expected numbers are
 * the profiles' cost lines added up by hand; the top functions are
 * checked against a sort written here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "profile/partial.h"
#include "tap.h"

static int loadmore(struct profile *p, const char *name, const char *text)
{
	char *path = write_tmp(name, text, strlen(text));
	int rc = profile_load(p, path, NULL, lasterr, sizeof(lasterr));
	free(path);
	return rc;
}

/* the order the screen shows: larger magnitude first, then the larger
 * value, then the name (a sort of our own, for the check) */
static const struct partial *cmp_pc;
static const struct profile *cmp_p;
static int by_cost(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	cost_t va = partial_self(cmp_pc, a)[0], vb = partial_self(cmp_pc, b)[0];
	cost_t ma = va < 0 ? -va : va, mb = vb < 0 ? -vb : vb;
	if (ma != mb)
		return ma > mb ? -1 : 1;
	if (va != vb)
		return va > vb ? -1 : 1;
	return strcmp(fn_name(cmp_p, a), fn_name(cmp_p, b));
}

int main(void)
{
	if (fixture_start() < 0)
		return 99;
	struct profile p;
	struct partial pc;
	partial_init(&pc);
	profile_init(&p);
	/* first file: a 10+5 (two files of a), b 7, a again 1 (a second block) */
	ok(loadmore(&p, "one.out",
		    "events: Ir Dr\nfl=x.c\nfn=a\n1 10 2\nfi=y.c\n2 5\nfl=x.c\nfn=b\n3 7 1\n"
		    "fn=a\n4 1 1\n") == 0, "first file loads: %s", lasterr);
	partial_update(&pc, &p);
	uint32_t a = fn(&p, "a"), b = fn(&p, "b");
	is(partial_self(&pc, a)[0], 16, "a: Ir 10 + 5 + 1");
	is(partial_self(&pc, a)[1], 3, "a: Dr 2 + 1");
	is(partial_self(&pc, b)[0], 7, "b: Ir 7");
	is(pc.totals[0], 23, "total Ir 16 + 7");
	ok(partial_column(&pc, 1)[a] == 3 && partial_column(&pc, 1)[b] == 1,
	   "the Dr column: a 3, b 1");
	uint64_t added = pc.added;
	partial_update(&pc, &p);
	ok(pc.added == added && partial_self(&pc, a)[0] == 16, "nothing new: nothing added again");
	/* a second file into the same profile: only its blocks are added */
	ok(loadmore(&p, "two.out", "events: Ir Dr\nfl=x.c\nfn=c\n1 30\nfn=b\n2 4 4\n") == 0,
	   "second file loads: %s", lasterr);
	partial_update(&pc, &p);
	uint32_t c = fn(&p, "c");
	is(partial_self(&pc, c)[0], 30, "c: Ir 30");
	is(partial_self(&pc, b)[0], 11, "b: Ir 7 + 4");
	is(partial_self(&pc, b)[1], 5, "b: Dr 1 + 4");
	is(partial_self(&pc, a)[0], 16, "a as it was");
	ok(pc.col_ev == 1 && pc.col[b] == 5 && pc.col[c] == 0, "the Dr column kept by the update");
	ok(partial_column(&pc, 0)[b] == 11 && partial_column(&pc, 0)[c] == 30,
	   "the Ir column made when asked");
	is(pc.totals[0], 57, "total Ir 16 + 11 + 30");
	is(pc.added - added, 2, "two entries added by the update, not the first file's again");
	ok(partial_self(&pc, 12345)[0] == 0, "a function not seen: zeros");
	profile_free(&p);
	partial_free(&pc);

	/* the first k of many: 300 functions whose Ir repeat (ties ordered by
	 * name), picked by partial_top, equal the first k of a whole sort */
	char *text = xstrdup("events: Ir\nfl=x.c\n");
	for (int i = 0; i < 300; i++) {
		char *more = xasprintf("%sfn=f%03d\n1 %d\n", text, (i * 7919) % 300, (i * 37) % 23);
		free(text);
		text = more;
	}
	ok(load(&p, text) == 0, "300 functions load: %s", lasterr);
	free(text);
	partial_init(&pc);
	partial_update(&pc, &p);
	uint32_t all[300], top[40];
	size_t n = 0;
	for (uint32_t f = 0; f < p.nfns; f++)
		if (partial_self(&pc, f)[0])
			all[n++] = f;
	cmp_pc = &pc;
	cmp_p = &p;
	qsort(all, n, sizeof(*all), by_cost);
	size_t ks[] = { 1, 7, 40 };
	for (int t = 0; t < 3; t++) {
		size_t k = ks[t], got = partial_top(&pc, &p, 0, top, k);
		qsort(top, got, sizeof(*top), by_cost);
		int same = got == k;
		for (size_t i = 0; same && i < k; i++)
			same = top[i] == all[i];
		ok(same, "partial_top picks the first %zu of the sort (%zu picked)", k, got);
	}
	size_t got = partial_top(&pc, &p, 0, top, 0);
	is(got, 0, "k 0: none");
	partial_free(&pc);
	profile_free(&p);
	fixture_end();
	return tap_done();
}
