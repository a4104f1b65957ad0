/* test-ids.c -- a property test of the loader's compressed-id tables.
 *
 * Each round makes a random set of ids in each of the three id spaces of
 * the Callgrind format (objects: ob= cob=; files: fl= fi= fe= cfi= cfl=
 * jfi=; functions: fn= cfn= jfn=), 5 to 500,000 ids, with random gaps
 * (dense runs, clusters, ids around the 2^24 border of the loader's direct
 * array, any 64-bit value), used in random order.  It writes a profile in
 * which every id is used through every key of its space, defined with
 * "(id) name" at some use -- the first, or a later one, the uses before
 * it then being references before the definition -- and referenced with
 * "(id)" elsewhere; a few rounds leave some ids never defined.  While
 * writing, the generator notes where each cost goes: the self cost of
 * each function and of each (function, file of the cost line), each call's
 * count and inclusive cost, each jump's count by target file.  That record
 * is the expectation: it is made from the meaning of the lines the
 * generator writes (the format specification's rules, summarised at
 * gen_block()), never from the loader.  The profile is then loaded, read
 * in place and read like a pipe, and every name and every number is
 * compared with it; ids never defined must show as "(id)" with one warning
 * each (at most 10, then one "... and N more") naming the line of first use.
 *
 *     test-ids                         the fixed rounds of `make check`
 *     test-ids --seed S --seconds T    random rounds from seed S for T seconds
 *                                      (the fuzzing job; a failure prints
 *                                      the seed of its round)
 *     test-ids --seed S --rounds 1 --ids N --keep FILE   one round, kept
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile/aggregate.h"
#include "profile/load.h"
#include "profile/model.h"
#include "fixture.h"
#include "tap.h"

/* ---- random numbers (splitmix64) ---------------------------------------- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, n) (n > 0) */
static uint64_t below(uint64_t n)
{
	return rnd() % n;
}

static int chance(int percent)
{
	return (int)below(100) < percent;
}

/* ---- a growable text buffer ------------------------------------------------ */

static char *txt;
static size_t ntxt, captxt;
static uint64_t nlines; /* lines written so far: the next line is nlines + 1 */

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(txt + ntxt, captxt - ntxt, fmt, ap);
		va_end(ap);
		if ((size_t)n < captxt - ntxt) {
			for (int i = 0; i < n; i++)
				nlines += txt[ntxt + (size_t)i] == '\n';
			ntxt += (size_t)n;
			break;
		}
		captxt = captxt ? captxt * 2 : 1 << 16;
		txt = xrealloc(txt, captxt);
	}
}

/* ---- a table of uint64 keys to NV int64 values ------------------------------ */

#define NV 3

struct table {
	uint64_t *key;
	int64_t *val; /* NV per slot */
	uint8_t *used;
	size_t cap, n;
};

static int64_t *table_at(struct table *t, uint64_t key)
{
	if ((t->n + 1) * 2 > t->cap) {
		struct table o = *t;
		t->cap = o.cap ? o.cap * 2 : 1024;
		t->key = xcalloc(t->cap, sizeof(*t->key));
		t->val = xcalloc(t->cap * NV, sizeof(*t->val));
		t->used = xcalloc(t->cap, 1);
		t->n = 0;
		for (size_t i = 0; i < o.cap; i++)
			if (o.used[i])
				memcpy(table_at(t, o.key[i]), &o.val[i * NV], NV * sizeof(int64_t));
		free(o.key);
		free(o.val);
		free(o.used);
	}
	size_t i = (size_t)(hash_mix(key) & (t->cap - 1));
	while (t->used[i] && t->key[i] != key)
		i = (i + 1) & (t->cap - 1);
	if (!t->used[i]) {
		t->used[i] = 1;
		t->key[i] = key;
		t->n++;
	}
	return &t->val[i * NV];
}

static void table_free(struct table *t)
{
	free(t->key);
	free(t->val);
	free(t->used);
	memset(t, 0, sizeof(*t));
}

static uint64_t pair(uint32_t a, uint32_t b)
{
	return (uint64_t)a << 32 | b;
}

/* ---- one round's ids ---------------------------------------------------------- */

enum { SP_OBJ, SP_FILE, SP_FN, NSPACES };

struct space {
	uint64_t *id;      /* by index */
	uint32_t n;
	uint8_t *undef;    /* never defined */
	uint8_t *defined;  /* written "(id) name" already */
	uint32_t *uses_left; /* uses planned before the defining one */
	uint32_t *order;   /* indexes in the order of first use */
	uint32_t next;     /* order[next] is the next one used first */
	uint32_t *wait;    /* used, to be defined at a later use */
	uint32_t nwait;
	uint32_t *wait_at; /* the place of each in wait */
	uint64_t *sorted;  /* ids sorted, with their indexes: (id, index) */
	uint32_t *sorted_idx;
};

static struct space sp[NSPACES];

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* n distinct ids of one of a few shapes */
static uint32_t make_ids(uint64_t *ids, uint32_t n)
{
	uint32_t m = 0;
	while (m < n) {
		int shape = (int)below(6);
		uint32_t k = n - m;
		if (shape == 5 && k > 8)
			k = (uint32_t)below(k) + 1; /* a mixture: part of it in this shape */
		uint64_t base = chance(50) ? below(2) : below(6000);
		uint64_t gap = 1 + (chance(50) ? below(3) : below(5000));
		switch (shape % 5) {
		case 0: /* dense */
			for (uint32_t i = 0; i < k; i++)
				ids[m++] = base + i;
			break;
		case 1: /* random gaps */
			for (uint32_t i = 0; i < k; i++, base += 1 + below(gap))
				ids[m++] = base;
			break;
		case 2: { /* clusters far apart */
			uint32_t i = 0;
			while (i < k) {
				uint64_t at = below((uint64_t)1 << 26);
				uint32_t run = (uint32_t)below(k - i) + 1;
				for (uint32_t j = 0; j < run; j++, at += 1 + below(3))
					ids[m++] = at;
				i += run;
			}
			break;
		}
		case 3: /* around the 2^24 border */
			for (uint32_t i = 0; i < k; i++)
				ids[m++] = ((uint64_t)1 << 24) - 4096 + below(8192 + (uint64_t)k * 4);
			break;
		default: /* anywhere in 64 bits */
			for (uint32_t i = 0; i < k; i++)
				ids[m++] = rnd() >> below(64);
			break;
		}
		/* distinct: sort, drop repeats, and shuffle again below */
		qsort(ids, m, sizeof(*ids), cmp_u64);
		uint32_t u = 0;
		for (uint32_t i = 0; i < m; i++)
			if (!u || ids[u - 1] != ids[i])
				ids[u++] = ids[i];
		m = u;
	}
	return m;
}

static void space_make(struct space *s, uint32_t n, int undef_percent)
{
	memset(s, 0, sizeof(*s));
	s->id = xmalloc((size_t)n * sizeof(*s->id));
	s->n = make_ids(s->id, n);
	s->undef = xcalloc(s->n, 1);
	s->defined = xcalloc(s->n, 1);
	s->uses_left = xcalloc(s->n, sizeof(*s->uses_left));
	s->order = xmalloc((size_t)s->n * sizeof(*s->order));
	s->wait = xmalloc((size_t)s->n * sizeof(*s->wait));
	s->wait_at = xmalloc((size_t)s->n * sizeof(*s->wait_at));
	/* the order of first use: random, sometimes ascending or descending */
	int how = (int)below(10);
	for (uint32_t i = 0; i < s->n; i++)
		s->order[i] = how == 0 ? i : how == 1 ? s->n - 1 - i : i;
	if (how > 1)
		for (uint32_t i = s->n; i > 1; i--) {
			uint32_t j = (uint32_t)below(i), t = s->order[i - 1];
			s->order[i - 1] = s->order[j];
			s->order[j] = t;
		}
	memset(s->wait_at, 0xff, (size_t)s->n * sizeof(*s->wait_at));
	for (uint32_t i = 0; i < s->n; i++) {
		s->undef[i] = undef_percent && chance(undef_percent);
		/* a third are used a few times before their definition */
		s->uses_left[i] = chance(33) ? (uint32_t)below(4) + 1 : 0;
	}
	/* (id, index) sorted by id: the index of a name "(id)" */
	s->sorted = xmalloc((size_t)s->n * sizeof(*s->sorted));
	s->sorted_idx = xmalloc((size_t)s->n * sizeof(*s->sorted_idx));
	memcpy(s->sorted, s->id, (size_t)s->n * sizeof(*s->sorted));
	qsort(s->sorted, s->n, sizeof(*s->sorted), cmp_u64);
	for (uint32_t i = 0; i < s->n; i++) {
		uint64_t *f = bsearch(&s->id[i], s->sorted, s->n, sizeof(*s->sorted), cmp_u64);
		s->sorted_idx[f - s->sorted] = i;
	}
}

static void space_free(struct space *s)
{
	free(s->id);
	free(s->undef);
	free(s->defined);
	free(s->uses_left);
	free(s->order);
	free(s->wait);
	free(s->wait_at);
	free(s->sorted);
	free(s->sorted_idx);
}

/* Names: unique per index, ending in "_INDEX" (some with spaces,
 * parentheses, colons, as real names have). */
static const char *const fn_style[] = {
	"f_", "ns::Klass<std::vector<int> >::method(int, char const*) const_",
	"operator()(long) (cold)_", "0x00000000004a1b20 in lib_", "(below main)_",
};

static void put_name(int s, uint32_t i)
{
	switch (s) {
	case SP_OBJ:
		out("/usr/lib/x86_64-linux-gnu/libo_%u", i);
		break;
	case SP_FILE:
		out("./src/dir with space/file_%u", i);
		break;
	default:
		out("%s%u", fn_style[i % 5], i);
		break;
	}
}

/* Writes "(id) name" or "(id)" for index i of space s, to end a line
 * started by the caller ("fn=" ...). */
static void use_id(int s, uint32_t i)
{
	struct space *q = &sp[s];
	out("(%" PRIu64 ")", q->id[i]);
	if (q->undef[i]) {
		out("\n");
		return;
	}
	int waiting = q->wait_at[i] != UINT32_MAX;
	if (!q->defined[i] && q->uses_left[i]) {
		q->uses_left[i]--; /* a use before the definition */
		if (!waiting) {
			q->wait_at[i] = q->nwait;
			q->wait[q->nwait++] = i;
		}
	} else if (!q->defined[i] || chance(3)) { /* an identical definition again, now and then */
		q->defined[i] = 1;
		out(" ");
		put_name(s, i);
		if (waiting) { /* out of the waiting list */
			uint32_t last = q->wait[--q->nwait];
			q->wait[q->wait_at[i]] = last;
			q->wait_at[last] = q->wait_at[i];
			q->wait_at[i] = UINT32_MAX;
		}
	}
	out("\n");
}

/* An index of space s to use: one waiting for its definition, a new one
 * while some were never used, or any used before. */
static uint32_t pick(int s)
{
	struct space *q = &sp[s];
	if (q->nwait && chance(40))
		return q->wait[below(q->nwait)];
	if (q->next < q->n && (chance(60) || q->next == 0))
		return q->order[q->next++];
	if (q->next == 0)
		return q->order[q->next++];
	return q->order[below(q->next)];
}

/* Every id used and defined (or left undefined on purpose)? */
static int all_done(void)
{
	for (int s = 0; s < NSPACES; s++)
		if (sp[s].next < sp[s].n || sp[s].nwait)
			return 0;
	return 1;
}

/* ---- the profile and what it means ------------------------------------------------ */

struct round {
	int use_obj;     /* ob=/cob= written: functions are (object, name) */
	int instr;       /* positions: instr line */
	/* per function index: its object (use_obj) and file, UINT32_MAX
	 * before it is first used as a function */
	uint32_t *fn_obj, *fn_file;
	struct table self; /* (function, 0) -> self Ir, Dr; (function, file + 1) too */
	struct table calls; /* (caller, callee) -> count, Ir, Dr */
	struct table jumps; /* (function, target file) -> executed, taken */
	struct undef_use {
		uint64_t line;
		int s;
		uint32_t i;
	} *undef;        /* the first use of each id never defined */
	size_t nundef, capundef;
	uint8_t *undef_seen[NSPACES];
};

static struct round R;

/* The function key of the generator: the function's index. */
static void note_undef_use(int s, uint32_t i)
{
	if (sp[s].undef[i] && !R.undef_seen[s][i]) {
		R.undef_seen[s][i] = 1;
		VEC_RESERVE(R.undef, R.capundef, R.nundef + 1);
		R.undef[R.nundef++] = (struct undef_use){ nlines + 1, s, i };
	}
}

/* Writes "KEY=" and the id of index i of space s on one line. */
static void spec(const char *key, int s, uint32_t i)
{
	note_undef_use(s, i);
	out("%s=", key);
	use_id(s, i);
}

static void position(void)
{
	if (R.instr)
		out("0x%" PRIx64 " %u", 0x400000 + below(1 << 20), (unsigned)below(5000));
	else
		out("%u", (unsigned)below(5000));
}

static void costs(int64_t c[2])
{
	c[0] = (int64_t)below(1000);
	c[1] = (int64_t)below(300);
	out(" %" PRId64 " %" PRId64 "\n", c[0], c[1]);
}

static void add(struct table *t, uint64_t key, int64_t a, int64_t b, int64_t c)
{
	int64_t *v = table_at(t, key);
	v[0] += a;
	v[1] += b;
	v[2] += c;
}

/* A file index for a cost line or a call: any. */
static uint32_t any_file(void)
{
	return pick(SP_FILE);
}

/* Where function f lives, for good: chosen at its first use. */
static void home_of(uint32_t f)
{
	if (R.fn_file[f] != UINT32_MAX)
		return;
	R.fn_obj[f] = R.use_obj ? pick(SP_OBJ) : UINT32_MAX;
	R.fn_file[f] = any_file();
}

/* One block, as callgrind writes them, and what each line means (the
 * specification's rules, as the generator applies them):
 *   ob= sets the current object; fl= the current file; fn= starts the
 *   function, which is its object (the current one), file (the fl= one)
 *   and name, as callgrind, KCachegrind and callgrind_annotate key it; its
 *   cost lines go to the fl= file;
 *   fi=/fe= change the file of the cost lines that follow, up to the next
 *   fn=;
 *   cob=, cfi=/cfl=, cfn= name the callee of the next calls= line (object
 *   and file default to the current object and the file of the cost lines
 *   around the call, fi=/fe= included), whose next line gives the call's
 *   inclusive cost, not self cost;
 *   jfi= names the target file of the next jump (default: the current
 *   file of cost lines), jfn= its function (nothing is kept of it);
 *   jump=N / jcnd=TAKEN/EXECUTED are followed by the jump's source
 *   position line, whose costs, if any, are self costs. */
static void gen_block(uint32_t *cur_obj)
{
	/* an object line with nothing after it, to use the objects no
	 * function lives in (the next ob= replaces it) */
	if (R.use_obj && (sp[SP_OBJ].next < sp[SP_OBJ].n || sp[SP_OBJ].nwait) && chance(30)) {
		uint32_t o = pick(SP_OBJ);
		spec("ob", SP_OBJ, o);
		*cur_obj = o;
	}
	uint32_t f = pick(SP_FN);
	home_of(f);
	if (R.use_obj && (R.fn_obj[f] != *cur_obj || chance(20))) {
		spec("ob", SP_OBJ, R.fn_obj[f]);
		*cur_obj = R.fn_obj[f];
	}
	uint32_t fl = R.fn_file[f];
	spec("fl", SP_FILE, fl);
	spec("fn", SP_FN, f);
	uint32_t file = fl; /* of the cost lines */
	int nlines_block = 1 + (int)below(4);
	for (int k = 0; k < nlines_block; k++) {
		int what = (int)below(10);
		int64_t c[2];
		if (what < 2) { /* the cost lines' file changes */
			file = any_file();
			spec(chance(50) ? "fi" : "fe", SP_FILE, file);
		}
		if (what < 6) {
			position();
			costs(c);
			add(&R.self, pair(f, 0), c[0], c[1], 0);
			add(&R.self, pair(f, file + 1), c[0], c[1], 0);
		} else if (what < 9) { /* a call */
			uint32_t g = pick(SP_FN);
			home_of(g);
			if (R.use_obj && (R.fn_obj[g] != *cur_obj || chance(30)))
				spec("cob", SP_OBJ, R.fn_obj[g]);
			if (R.fn_file[g] != file || chance(30))
				spec(chance(50) ? "cfi" : "cfl", SP_FILE, R.fn_file[g]);
			spec("cfn", SP_FN, g);
			uint64_t n = below(100);
			out("calls=%" PRIu64 " ", n);
			position();
			out("\n");
			position();
			costs(c);
			add(&R.calls, pair(f, g), (int64_t)n, c[0], c[1]);
		} else { /* a jump */
			uint32_t tf = file;
			if (chance(50)) {
				tf = any_file();
				spec("jfi", SP_FILE, tf);
			}
			if (chance(50))
				spec("jfn", SP_FN, pick(SP_FN));
			int64_t a = (int64_t)below(50), b = a + (int64_t)below(50);
			int cond = chance(50);
			if (cond)
				out("jcnd=%" PRId64 "/%" PRId64 " ", a, b);
			else
				out("jump=%" PRId64 " ", a);
			position();
			out("\n");
			position();
			if (chance(50)) {
				costs(c);
				add(&R.self, pair(f, 0), c[0], c[1], 0);
				add(&R.self, pair(f, file + 1), c[0], c[1], 0);
			} else {
				out("\n");
			}
			add(&R.jumps, pair(f, tf), cond ? b : a, cond ? a : 0, 0);
		}
	}
}

/* ---- checking the loaded profile ------------------------------------------------------ */

static int nfail; /* messages printed for this round */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	if (nfail++ >= 8)
		return;
	va_list ap;
	va_start(ap, fmt);
	printf("#   ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

/* The index a loaded name stands for: "..._INDEX", or "(id)" for an id
 * never defined; UINT32_MAX for anything else. */
static uint32_t index_of(int s, const char *name)
{
	struct space *q = &sp[s];
	char *end;
	if (name[0] == '(' && name[1] >= '0' && name[1] <= '9') {
		uint64_t id = strtoull(name + 1, &end, 10);
		if (*end != ')' || end[1])
			return UINT32_MAX;
		uint64_t *f = bsearch(&id, q->sorted, q->n, sizeof(*q->sorted), cmp_u64);
		if (!f || !q->undef[q->sorted_idx[f - q->sorted]])
			return UINT32_MAX; /* a defined id must show its name */
		return q->sorted_idx[f - q->sorted];
	}
	const char *u = strrchr(name, '_');
	if (!u)
		return UINT32_MAX;
	unsigned long i = strtoul(u + 1, &end, 10);
	if (*end || i >= q->n || q->undef[i])
		return UINT32_MAX;
	/* the whole name, not only its end */
	size_t save = ntxt;
	put_name(s, (uint32_t)i);
	int same = strlen(name) == ntxt - save && memcmp(name, txt + save, ntxt - save) == 0;
	ntxt = save;
	return same ? (uint32_t)i : UINT32_MAX;
}

/* Compares got with the record truth; frees got. */
static void compare(const char *what, const struct table *truth, struct table *got)
{
	struct table wt = { 0 }, *want = &wt;
	for (size_t i = 0; i < truth->cap; i++)
		if (truth->used[i])
			memcpy(table_at(want, truth->key[i]), &truth->val[i * NV], NV * sizeof(int64_t));
	/* got's entries are taken out of want: what is left of either differs */
	for (size_t i = 0; i < got->cap; i++) {
		if (!got->used[i])
			continue;
		int64_t *g = &got->val[i * NV], *w = table_at(want, got->key[i]);
		if (memcmp(g, w, NV * sizeof(int64_t)) != 0)
			fail("%s (%u, %u): got %" PRId64 " %" PRId64 " %" PRId64 ", want %" PRId64
			     " %" PRId64 " %" PRId64, what, (unsigned)(got->key[i] >> 32),
			     (unsigned)got->key[i], g[0], g[1], g[2], w[0], w[1], w[2]);
		memset(w, 0, NV * sizeof(int64_t));
	}
	for (size_t i = 0; i < want->cap; i++) {
		if (!want->used[i])
			continue;
		int64_t *w = &want->val[i * NV];
		if (w[0] || w[1] || w[2])
			fail("%s (%u, %u): missing, want %" PRId64 " %" PRId64 " %" PRId64, what,
			     (unsigned)(want->key[i] >> 32), (unsigned)want->key[i], w[0], w[1], w[2]);
	}
	table_free(want);
	table_free(got);
}

static int cmp_undef_use(const void *a, const void *b)
{
	const struct undef_use *x = a, *y = b;
	return (x->line > y->line) - (x->line < y->line);
}

/* Checks the profile loaded from path against the round's record. */
static void check(struct profile *p, const char *path)
{
	/* every function: its name, its object or file */
	uint32_t *idx = xmalloc(((size_t)p->nfns + 1) * sizeof(*idx));
	uint8_t *seen = xcalloc(sp[SP_FN].n, 1);
	for (uint32_t k = 0; k < p->nfns; k++) {
		const struct function *fu = &p->fns[k];
		uint32_t i = index_of(SP_FN, fn_name(p, k));
		idx[k] = i;
		if (i == UINT32_MAX) {
			fail("function %u is named '%s'", k, fn_name(p, k));
			continue;
		}
		if (seen[i]++)
			fail("two functions named '%s'", fn_name(p, k));
		if (R.use_obj && index_of(SP_OBJ, obj_name(p, fu->obj)) != R.fn_obj[i])
			fail("function '%s' is in object '%s', want index %u", fn_name(p, k),
			     obj_name(p, fu->obj), R.fn_obj[i]);
		if (index_of(SP_FILE, file_name(p, fu->file)) != R.fn_file[i])
			fail("function '%s' is in file '%s', want index %u", fn_name(p, k),
			     file_name(p, fu->file), R.fn_file[i]);
	}
	for (uint32_t i = 0; i < sp[SP_FN].n; i++)
		if (R.fn_file[i] != UINT32_MAX && !seen[i])
			fail("no function for index %u", i);
	free(seen);

	/* self costs, per function and per (function, file) */
	struct table got = { 0 };
	const struct agg *a = profile_agg(p);
	for (uint32_t k = 0; k < p->nfns; k++) {
		const cost_t *c = agg_self(a, k);
		if (idx[k] != UINT32_MAX && (c[0] || c[1]))
			add(&got, pair(idx[k], 0), c[0], c[1], 0);
	}
	for (uint32_t q = 0; q < p->ls.nff; q++) {
		const cost_t *c = &p->ls.ffcost[(size_t)q * p->nreal];
		uint32_t k = p->ls.ff[q].fn, fl = index_of(SP_FILE, file_name(p, p->ls.ff[q].file));
		if (fl == UINT32_MAX)
			fail("costs in file '%s'", file_name(p, p->ls.ff[q].file));
		else if (idx[k] != UINT32_MAX)
			add(&got, pair(idx[k], fl + 1), c[0], c[1], 0);
	}
	compare("self cost of (function, file+1)", &R.self, &got);

	/* calls */
	for (uint32_t r = 0; r < p->ncalls; r++) {
		cost_t c[MAX_EVENTS];
		call_cost(p, r, c);
		uint32_t x = idx[p->calls[r].caller], y = idx[p->calls[r].callee];
		if (x != UINT32_MAX && y != UINT32_MAX)
			add(&got, pair(x, y), call_count(p, r), c[0], c[1]);
	}
	compare("call (caller, callee)", &R.calls, &got);

	/* jumps, by target file */
	size_t off = 0;
	struct jump_rec j;
	while (jump_next(p, &off, &j)) {
		uint32_t tf = index_of(SP_FILE, file_name(p, j.tfile));
		if (tf == UINT32_MAX)
			fail("a jump to file '%s'", file_name(p, j.tfile));
		else if (idx[j.fn] != UINT32_MAX)
			add(&got, pair(idx[j.fn], tf), j.executed, j.cond ? j.taken : 0, 0);
	}
	compare("jump (function, target file)", &R.jumps, &got);
	free(idx);

	/* one warning per id never defined, in the order of first use, with
	 * its line; at most 10, then one line for the rest (the costs being
	 * random, warnings about calls costing more than their callee are
	 * left aside) */
	if (R.nundef)
		qsort(R.undef, R.nundef, sizeof(*R.undef), cmp_undef_use);
	static const char *const what[NSPACES] = { "object", "file", "function" };
	int nw = (int)(R.nundef < 10 ? R.nundef : 10) + (R.nundef > 10);
	const char **ids = xcalloc((size_t)p->nwarnings + 1, sizeof(*ids));
	int nids = 0;
	for (int w = 0; w < p->nwarnings; w++)
		if (strstr(p->warnings[w], "never defined"))
			ids[nids++] = p->warnings[w];
	if (nids != nw)
		fail("%d warnings about ids, want %d (%zu ids never defined)%s%s", nids, nw,
		     R.nundef, nids ? ": " : "", nids ? ids[0] : "");
	for (int w = 0; w < nids && w < nw; w++) {
		char want_w[512];
		if (w == 10) {
			snprintf(want_w, sizeof(want_w),
				 "%s: ... and %zu more id%s used but never defined", path, R.nundef - 10,
				 R.nundef == 11 ? "" : "s");
		} else {
			const struct undef_use *u = &R.undef[w];
			uint64_t id = sp[u->s].id[u->i];
			snprintf(want_w, sizeof(want_w),
				 "%s:%" PRIu64 ": %s id (%" PRIu64 ") is used but never defined; "
				 "shown as (%" PRIu64 ")",
				 path, u->line, what[u->s], id, id);
		}
		if (strcmp(ids[w], want_w) != 0)
			fail("warning %d is '%s', want '%s'", w, ids[w], want_w);
	}
	free(ids);
}

/* ---- a round --------------------------------------------------------------------------- */

/* One round with about nids ids: write, load twice, check.  Returns 0 when
 * every check passed. */
static int round_run(uint64_t seed, uint32_t nids, int undef_percent, const char *keep)
{
	rng = seed;
	ntxt = 0;
	nlines = 0;
	memset(&R, 0, sizeof(R));
	/* the ids: functions get the most, objects the fewest */
	uint32_t nfn = nids / 2 + 1, nfl = nids / 3 + 1, nob = nids - nfn - nfl;
	if (nids < 3 + 6 || nob < 1)
		nob = 1;
	space_make(&sp[SP_FN], nfn, undef_percent);
	space_make(&sp[SP_FILE], nfl, undef_percent);
	space_make(&sp[SP_OBJ], nob, undef_percent);
	R.use_obj = chance(75);
	R.instr = chance(50);
	R.fn_obj = xmalloc((size_t)sp[SP_FN].n * sizeof(*R.fn_obj));
	R.fn_file = xmalloc((size_t)sp[SP_FN].n * sizeof(*R.fn_file));
	memset(R.fn_obj, 0xff, (size_t)sp[SP_FN].n * sizeof(*R.fn_obj));
	memset(R.fn_file, 0xff, (size_t)sp[SP_FN].n * sizeof(*R.fn_file));
	for (int s = 0; s < NSPACES; s++)
		R.undef_seen[s] = xcalloc(sp[s].n, 1);
	if (!R.use_obj) /* no object: its ids are not used */
		sp[SP_OBJ].next = sp[SP_OBJ].n, memset(sp[SP_OBJ].undef, 1, sp[SP_OBJ].n);

	out("# callgrind format\nversion: 1\ncreator: test-ids\n");
	out("positions: %s\nevents: Ir Dr\n\n", R.instr ? "instr line" : "line");
	uint32_t cur_obj = UINT32_MAX;
	while (!all_done())
		gen_block(&cur_obj);

	char *path = write_tmp("ids.out", txt, ntxt);
	if (keep) {
		FILE *f = fopen(keep, "wb");
		if (f) {
			fwrite(txt, 1, ntxt, f);
			fclose(f);
		}
	}
	int failed = 0;
	for (int how = 0; how < 2; how++) {
		struct profile p;
		profile_init(&p);
		struct load_opts lo = { .sign = 1, .no_map = how };
		nfail = 0;
		if (profile_load(&p, path, &lo, lasterr, sizeof(lasterr)) < 0) {
			fail("does not load: %s", lasterr);
		} else {
			profile_finish(&p);
			check(&p, path);
		}
		profile_free(&p);
		if (nfail)
			printf("#   (%s; seed %" PRIu64 ", %u ids, file of %zu bytes)\n",
			       how ? "read like a pipe" : "read in place", seed, nids, ntxt);
		failed |= nfail != 0;
	}
	free(path);
	for (int s = 0; s < NSPACES; s++) {
		space_free(&sp[s]);
		free(R.undef_seen[s]);
	}
	free(R.fn_obj);
	free(R.fn_file);
	table_free(&R.self);
	table_free(&R.calls);
	table_free(&R.jumps);
	free(R.undef);
	return failed;
}

int main(int argc, char **argv)
{
	uint64_t seed = 20240616;
	long rounds = -1, seconds = 0, ids = 0;
	const char *keep = NULL;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--rounds"))
			rounds = strtol(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = strtol(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--ids"))
			ids = strtol(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--keep"))
			keep = argv[i + 1];
	}
	(void)load; /* fixture.h's, unused here */
	(void)fn;
	if (fixture_start() < 0)
		return 99;
	rng = seed;
	uint64_t master = rnd();
	time_t t0 = time(NULL);
	if (rounds < 0 && !seconds) {
		/* make check: 3000 small rounds (5-300 ids), 40 of up to 20,000,
		 * 10 with ids never defined, and one each of 100,000 and 500,000 */
		int bad = 0, n = 0;
		for (int r = 0; r < 3000; r++, n++) {
			rng = master + (uint64_t)r;
			uint64_t s = rnd();
			bad += round_run(s, 5 + (uint32_t)(s % 296), 0, NULL);
		}
		ok(!bad, "%d rounds of 5 to 300 ids: every name and cost where it belongs (%d failed)",
		   n, bad);
		bad = 0;
		for (int r = 0; r < 40; r++) {
			rng = master + 10000 + (uint64_t)r;
			uint64_t s = rnd();
			bad += round_run(s, 300 + (uint32_t)(s % 20000), 0, NULL);
		}
		ok(!bad, "40 rounds of 300 to 20,000 ids (%d failed)", bad);
		bad = 0;
		for (int r = 0; r < 10; r++) {
			rng = master + 20000 + (uint64_t)r;
			uint64_t s = rnd();
			bad += round_run(s, 5 + (uint32_t)(s % 3000), 1 + (int)(s % 5), NULL);
		}
		ok(!bad, "10 rounds with ids never defined: shown as (id), a warning each (%d failed)",
		   bad);
		ok(!round_run(master + 1, 100000, 0, NULL), "100,000 ids");
		ok(!round_run(master + 2, 500000, 0, NULL), "500,000 ids");
	} else {
		/* a run of random rounds from the seed, for a number of seconds or
		 * rounds: mostly small, now and then large */
		long n = 0, bad = 0;
		for (; rounds < 0 || n < rounds; n++) {
			if (seconds && time(NULL) - t0 >= seconds)
				break;
			rng = master + (uint64_t)n;
			uint64_t s = rnd();
			uint32_t k = ids ? (uint32_t)ids
				     : s % 100 == 0 ? 5 + (uint32_t)(s % 500000)
				     : s % 10 == 0 ? 5 + (uint32_t)(s % 20000)
						   : 5 + (uint32_t)(s % 300);
			if (round_run(s, k, s % 7 == 0 ? 1 + (int)(s % 5) : 0, keep)) {
				bad++;
				printf("# failed: test-ids --seed %" PRIu64 " --rounds %ld (round %ld)\n",
				       seed, n + 1, n);
			}
		}
		ok(!bad, "%ld random rounds from seed %" PRIu64 " (%ld failed)", n, seed, bad);
	}
	free(txt);
	fixture_end();
	return tap_done();
}
