/* test-reentrant.c -- two loads at once, in two threads, with the same
 * options: each profile is what the file says, as if loaded alone.
 *
 * The parallel loader (issue 19) and a session loading the files of one
 * run side by side both give several loads one struct load_opts, so
 * nothing a load changes may be shared through it or through a static.
 * The options here are the ones that carry state of their own:
 * --mod-funcname and --mod-filename (cg_annotate's substitutions, pcre2),
 * the latter remembering every name it changed, as the report has it do
 * (modname_keep_originals).  Each file has thousands of functions and
 * files named without name compression, so every fn= and fl= line goes
 * through the substitutions, in both threads at once, several times over.
 * What each name must become is worked out here from the names written:
 * "fA_17" -> "gA_17" (s/^f/g/), "srcA_17.c" -> "srcA_17.cc" (s/\.c$/.cc/);
 * function i's one line record is line 1, cost i + 1.  Every other round
 * leaves the line records to be read again from the file when wanted
 * (load_opts.lazy_lines), so that this is done in both threads at once
 * too.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "fixture.h"
#include "profile/modname.h"

enum { NFN = 20000, ROUNDS = 4 };

/* A Cachegrind-format file: NFN functions f<tag>_i, each in its own file
 * src<tag>_i.c, with cost i + 1. */
static char *write_many(char tag)
{
	size_t cap = (size_t)NFN * 64 + 64, n = 0;
	char *t = xmalloc(cap);
	n += (size_t)snprintf(t + n, cap - n, "events: Ir\n");
	for (int i = 0; i < NFN; i++)
		n += (size_t)snprintf(t + n, cap - n, "fl=src%c_%d.c\nfn=f%c_%d\n1 %d\n", tag, i,
				      tag, i, i + 1);
	char name[] = "X.out";
	name[0] = tag;
	char *path = write_tmp(name, t, n);
	free(t);
	return path;
}

struct job {
	char tag;
	char *path;
	const struct load_opts *lo;
	int bad;      /* loads whose profile was not what the file says */
	char why[640];
};

/* Is p what job j's file says, each name substituted? */
static int check_profile(struct job *j, struct profile *p)
{
	if (p->nfns != NFN) {
		snprintf(j->why, sizeof(j->why), "%u functions, not %d", p->nfns, NFN);
		return 0;
	}
	char *seen = xcalloc(NFN, 1);
	int ok = 1;
	for (uint32_t f = 0; f < p->nfns && ok; f++) {
		const char *nm = fn_name(p, f);
		const char *fl = p->files.str[p->fns[f].file];
		char want_fl[64], tag;
		int i, end = 0;
		if (sscanf(nm, "g%c_%d%n", &tag, &i, &end) != 2 || nm[end] || tag != j->tag ||
		    i < 0 || i >= NFN || seen[i]) {
			snprintf(j->why, sizeof(j->why), "function name '%s'", nm);
			ok = 0;
			break;
		}
		seen[i] = 1;
		snprintf(want_fl, sizeof(want_fl), "src%c_%d.cc", j->tag, i);
		struct line_iter it;
		int nrec = 0;
		cost_t c = 0;
		if (profile_need_lines(p, f) == 0)
			for (line_iter_fn(&it, &p->ls, f); line_iter_next(&it); nrec++)
				c = it.line == 1 ? it.cost[0] : -1;
		if (strcmp(fl, want_fl) != 0) {
			snprintf(j->why, sizeof(j->why), "function %s in file '%s', not '%s'", nm, fl,
				 want_fl);
			ok = 0;
		} else if (nrec != 1 || c != i + 1) {
			snprintf(j->why, sizeof(j->why), "function %s: %d line records, cost %lld", nm,
				 nrec, (long long)c);
			ok = 0;
		} else if (p->totals[0] != (cost_t)NFN * (NFN + 1) / 2) {
			snprintf(j->why, sizeof(j->why), "total %lld", (long long)p->totals[0]);
			ok = 0;
		}
	}
	free(seen);
	return ok;
}

static void *load_rounds(void *arg)
{
	struct job *j = arg;
	for (int r = 0; r < ROUNDS; r++) {
		struct profile p;
		char err[512];
		/* every other round, line records read again when wanted */
		struct load_opts lo = *j->lo;
		lo.lazy_lines = r & 1;
		profile_init(&p);
		if (profile_load(&p, j->path, &lo, err, sizeof(err)) != 0) {
			snprintf(j->why, sizeof(j->why), "load failed: %s", err);
			j->bad++;
		} else {
			profile_finish(&p);
			j->bad += !check_profile(j, &p);
		}
		profile_free(&p);
	}
	return NULL;
}

int main(void)
{
	if (fixture_start() < 0)
		return 1;
	(void)load; /* fixture.h's, unused here */
	(void)fn;
	char err[256];
	struct modname *mfn = modname_compile("s/^f/g/", err, sizeof(err));
	struct modname *mfl = modname_compile("s/\\.c$/.cc/", err, sizeof(err));
	ok(mfn && mfl, "the substitutions compile: %s", mfn && mfl ? "yes" : err);
	modname_keep_originals(mfl);
	struct load_opts lo = { .sign = 1, .modfile = mfl, .modfn = mfn };

	struct job a = { .tag = 'A', .path = write_many('A'), .lo = &lo };
	struct job b = { .tag = 'B', .path = write_many('B'), .lo = &lo };
	pthread_t ta, tb;
	pthread_create(&ta, NULL, load_rounds, &a);
	pthread_create(&tb, NULL, load_rounds, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	is(a.bad, 0, "thread A: %d loads of %d functions, each as its file says%s%s", ROUNDS, NFN,
	   a.bad ? ": " : "", a.why);
	is(b.bad, 0, "thread B: %d loads of %d functions, each as its file says%s%s", ROUNDS, NFN,
	   b.bad ? ": " : "", b.why);

	/* every file name either thread changed is remembered once, with the
	 * name it came from (one in 50 looked at: each look reads them all) */
	int missing = 0;
	for (int i = 0; i < NFN; i += 50) {
		for (int k = 0; k < 2; k++) {
			char tag = k ? 'B' : 'A', nm[64], orig[64];
			snprintf(nm, sizeof(nm), "src%c_%d.cc", tag, i);
			snprintf(orig, sizeof(orig), "src%c_%d.c", tag, i);
			const char **o;
			size_t n = modname_originals(mfl, nm, &o);
			if (n != 1 || strcmp(o[0], orig) != 0) {
				if (!missing++)
					printf("# %s: %zu originals%s%s\n", nm, n,
					       n ? ", the first " : "", n ? o[0] : "");
			}
			free(o);
		}
	}
	is(missing, 0, "%d of the file names of both threads each remembered with its original",
	   2 * NFN / 50);

	modname_free(mfn);
	modname_free(mfl);
	free(a.path);
	free(b.path);
	fixture_end();
	return tap_done();
}
