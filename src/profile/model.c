/* model.c -- profile storage: events, functions, line/call/jump records.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "model.h"
#include "aggregate.h"
#include "modname.h"
#include "mrc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	linestore_init(&p->ls, 0);
}

void profile_warn(struct profile *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *s = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
	va_end(ap);
	VEC_RESERVE(p->warnings, p->capwarnings, p->nwarnings + 1);
	p->warnings[p->nwarnings++] = s;
}

void profile_free(struct profile *p)
{
	if (p->agg)
		agg_free(p->agg);
	mrc_free(p->mrc);
	for (int i = 0; i < p->nevents; i++) {
		free(p->ev[i].name);
		free(p->ev[i].longname);
		free(p->ev[i].formula);
		free(p->ev[i].terms);
	}
	strtab_free(&p->objs);
	strtab_free(&p->files);
	strtab_free(&p->names);
	hot_free(p->fns, (size_t)p->capfns * sizeof(*p->fns));
	hot_free(p->fnhash.slots, p->fnhash.slots ? ((size_t)p->fnhash.mask + 1) * sizeof(uint32_t) : 0);
	hot_free(p->fntext.slots, p->fntext.slots ? ((size_t)p->fntext.mask + 1) * sizeof(uint32_t) : 0);
	linestore_free(&p->ls);
	if (p->lazy)
		p->lazy_free(p->lazy);
	free(p->calls);
	free(p->callbuf);
	free(p->callbase);
	free(p->jumpbuf);
	for (int i = 0; i < p->nparts; i++) {
		struct part_info *pi = &p->parts[i];
		free(pi->source);
		free(pi->cmd);
		free(pi->creator);
		free(pi->trigger);
		free(pi->totals);
		free(pi->summary);
		free(pi->lines_sum);
	}
	free(p->parts);
	for (int i = 0; i < p->ndesc; i++)
		free(p->desc[i]);
	free(p->desc);
	free(p->cmd);
	free(p->creator);
	for (int i = 0; i < p->nsources; i++)
		free(p->sources[i]);
	free(p->sources);
	free(p->source_mtime);
	for (int i = 0; i < p->nsource_desc; i++)
		free(p->source_desc[i]);
	free(p->source_desc);
	free(p->totals);
	for (int i = 0; i < p->nevdefs; i++) {
		free(p->evdefs[i].path);
		free(p->evdefs[i].text);
	}
	free(p->evdefs);
	for (int i = 0; i < p->nwarnings; i++)
		free(p->warnings[i]);
	free(p->warnings);
	free(p->recovered);
	free(p->objas);
	memset(p, 0, sizeof(*p));
}

void profile_note_desc(struct profile *p, const char *v)
{
	int i = p->nsources - 1;
	if (i < 0)
		return;
	if (p->nsource_desc <= i) {
		p->source_desc = xreallocarray(p->source_desc, (size_t)i + 1, sizeof(*p->source_desc));
		memset(p->source_desc + p->nsource_desc, 0,
		       (size_t)(i + 1 - p->nsource_desc) * sizeof(*p->source_desc));
		p->nsource_desc = i + 1;
	}
	char *d = p->source_desc[i];
	size_t vl = strlen(v), dl = d ? strlen(d) : 0;
	for (const char *l = d; l && *l; l = strchr(l, '\n') + 1)
		if (strncmp(l, v, vl) == 0 && l[vl] == '\n')
			return; /* a part's header repeats the file's */
	d = xrealloc(d, dl + vl + 2);
	memcpy(d + dl, v, vl);
	d[dl + vl] = '\n';
	d[dl + vl + 1] = 0;
	p->source_desc[i] = d;
}

/* ---- events -------------------------------------------------------------- */

int profile_event_index(const struct profile *p, const char *name, size_t len)
{
	for (int i = 0; i < p->nevents; i++)
		if (strlen(p->ev[i].name) == len && memcmp(p->ev[i].name, name, len) == 0)
			return i;
	return -1;
}

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Parses "[+|-] term ((+|-) term)*" where term is "[N [*]] name", N a
 * decimal coefficient that fits in 64 bits. */
static int parse_formula(struct profile *p, const char *f, struct event_term **out,
			 int *nout, char *err, size_t errsz)
{
	struct event_term *t = NULL;
	int n = 0, cap = 0;
	const char *s = skip_blanks(f);
	if (!*s) {
		snprintf(err, errsz, "formula '%s' is empty", f);
		return -1;
	}
	for (;;) {
		int sign = 1;
		if (*s == '+' || *s == '-') {
			sign = *s == '-' ? -1 : 1;
			s = skip_blanks(s + 1);
		} else if (n) {
			snprintf(err, errsz, "formula '%s': expected + or - before '%s'", f, s);
			goto fail;
		}
		if (!*s) {
			snprintf(err, errsz, "formula '%s' ends with an operator", f);
			goto fail;
		}
		int64_t coef = 1;
		if (isdigit((unsigned char)*s)) {
			char *end;
			errno = 0;
			long long c = strtoll(s, &end, 10);
			if (errno == ERANGE) {
				snprintf(err, errsz, "formula '%s': coefficient '%.*s' is 2^63 or more",
					 f, (int)(end - s), s);
				goto fail;
			}
			coef = c;
			s = skip_blanks(end);
			if (*s == '*')
				s = skip_blanks(s + 1);
		}
		const char *name = s;
		while (*s && !isspace((unsigned char)*s) && *s != '+' && *s != '-' && *s != '*')
			s++;
		if (s == name) {
			snprintf(err, errsz, "formula '%s': expected an event name", f);
			goto fail;
		}
		int ev = profile_event_index(p, name, (size_t)(s - name));
		if (ev < 0) {
			snprintf(err, errsz, "formula '%s': unknown event '%.*s'", f,
				 (int)(s - name), name);
			goto fail;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 4;
			t = xreallocarray(t, (size_t)cap, sizeof(*t));
		}
		t[n].coef = coef * sign;
		t[n].ev = ev;
		n++;
		s = skip_blanks(s);
		if (!*s)
			break;
	}
	*out = t;
	*nout = n;
	return 0;
fail:
	free(t);
	return -1;
}

void profile_sums_exact(struct profile *p)
{
	if (p->sums_exact)
		return;
	p->sums_exact = 1;
	if (!p->fastsum)
		return;
	/* every cost is in the line store (the block subtotals and the open
	 * block) or a call record; less those counted one by one, the fast
	 * paths' (their sums stay within 2^63-1: no wrap) */
	const struct linestore *ls = &p->ls;
	uint64_t tot[MAX_EVENTS] = { 0 };
	for (uint32_t k = 0; k < ls->nff; k++)
		for (int e = 0; e < ls->nreal; e++)
			tot[e] += (uint64_t)ls->ffcost[(size_t)k * (size_t)ls->nreal + (size_t)e];
	for (uint32_t l = 0; l < ls->an; l++)
		for (int e = 0; e < ls->awidth[l]; e++)
			tot[e] += (uint64_t)ls->acost[(size_t)l * (size_t)ls->nreal + (size_t)e];
	for (uint32_t r = 0; r < p->ncalls; r++) {
		cost_t c[MAX_EVENTS];
		call_cost(p, r, c);
		for (int e = 0; e < p->nreal; e++)
			tot[e] += (uint64_t)c[e];
	}
	for (int e = 0; e < p->nreal; e++) {
		p->summag[0][e] += tot[e] - (uint64_t)p->selfsum[e] - (uint64_t)p->callsum[e];
		if (p->summag[0][e] > p->summax0)
			p->summax0 = p->summag[0][e];
	}
	p->fastsum = 0;
}

static uint64_t terms_bound(struct profile *p, const struct event_term *t, int n, int exact)
{
	unsigned __int128 b = 0;
	for (int i = 0; i < n; i++) {
		b += (unsigned __int128)cost_mag(t[i].coef) * profile_event_bound(p, t[i].ev, exact);
		if (b > (uint64_t)INT64_MAX)
			return UINT64_MAX;
	}
	return (uint64_t)b;
}

uint64_t profile_event_bound(struct profile *p, int e, int exact)
{
	if (exact)
		profile_sums_exact(p);
	if (e >= p->nreal)
		return terms_bound(p, p->ev[e].terms, p->ev[e].nterms, exact);
	uint64_t pos = p->summag[0][e] + p->fastsum, neg = p->summag[1][e];
	return pos > neg ? pos : neg;
}

int profile_define_event(struct profile *p, const char *name, const char *formula,
			 char *err, size_t errsz)
{
	for (const char *c = name; *c; c++)
		if (isspace((unsigned char)*c) || strchr("=+-*:,", *c)) {
			snprintf(err, errsz, "event name '%s': no spaces or any of = + - * : ,",
				 name);
			return -1;
		}
	if (profile_event_index(p, name, strlen(name)) >= 0) {
		snprintf(err, errsz, "event '%s' is already defined", name);
		return -1;
	}
	if (p->nevents >= MAX_EVENTS) {
		snprintf(err, errsz, "too many events (at most %d)", MAX_EVENTS);
		return -1;
	}
	struct event_def *e = &p->ev[p->nevents];
	memset(e, 0, sizeof(*e));
	if (parse_formula(p, formula, &e->terms, &e->nterms, err, errsz) < 0)
		return -1;
	/* the fast paths' sum bounds every event at first: made exact only
	 * when that is not enough */
	if (terms_bound(p, e->terms, e->nterms, 0) > (uint64_t)INT64_MAX &&
	    terms_bound(p, e->terms, e->nterms, 1) > (uint64_t)INT64_MAX) {
		snprintf(err, errsz, "values of %s can pass 2^63-1", name);
		free(e->terms);
		e->terms = NULL;
		return -2;
	}
	e->name = xstrdup(name);
	/* (as written, without the blanks around it: "Cyc = Ir" is "Ir") */
	formula += strspn(formula, " \t");
	size_t fl = strlen(formula);
	while (fl && (formula[fl - 1] == ' ' || formula[fl - 1] == '\t'))
		fl--;
	e->formula = xstrndup(formula, fl);
	p->nevents++;
	return 0;
}

int profile_define_event_text(struct profile *p, const char *spec, char *err, size_t errsz)
{
	const char *eq = strchr(spec, '=');
	if (!eq) {
		snprintf(err, errsz, "expected NAME = FORMULA, e.g. Cycles = Ir + 10 L1m + 100 LLm");
		return -1;
	}
	const char *b = spec, *e = eq;
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e == b) {
		snprintf(err, errsz, "the event needs a name");
		return -1;
	}
	char *name = xstrndup(b, (size_t)(e - b));
	int rc = profile_define_event(p, name, eq + 1, err, errsz);
	free(name);
	return rc;
}

void profile_add_standard_derived(struct profile *p)
{
	static const char *const std[][2] = {
		{ "L1m", "I1mr + D1mr + D1mw" },
		{ "LLm", "ILmr + DLmr + DLmw" },
		{ "L2m", "I2mr + D2mr + D2mw" },
		{ "Bm", "Bim + Bcm" },
		{ "CEst", "Ir + 10 Bm + 10 L1m + 100 LLm" },
	};
	char err[256];
	int big = 0;
	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++) {
		if (profile_event_index(p, std[i][0], strlen(std[i][0])) >= 0)
			continue;
		/* Only when every input exists: the formula parser checks. */
		if (profile_define_event(p, std[i][0], std[i][1], err, sizeof(err)) == -2) {
			profile_warn(p, "%s not defined: %s", std[i][0], err);
			big |= strcmp(std[i][0], "CEst") == 0;
		}
	}
	/* CEst needs Bm, L1m and LLm; with only some of them present fall back
	 * to the terms that exist. */
	if (!big && profile_event_index(p, "CEst", 4) < 0 && profile_event_index(p, "Ir", 2) >= 0) {
		char f[128] = "Ir";
		if (profile_event_index(p, "Bm", 2) >= 0)
			strcat(f, " + 10 Bm");
		if (profile_event_index(p, "L1m", 3) >= 0)
			strcat(f, " + 10 L1m");
		if (profile_event_index(p, "LLm", 3) >= 0)
			strcat(f, " + 100 LLm");
		else if (profile_event_index(p, "L2m", 3) >= 0)
			strcat(f, " + 100 L2m");
		if (strcmp(f, "Ir") != 0 && profile_define_event(p, "CEst", f, err, sizeof(err)) == -2)
			profile_warn(p, "CEst not defined: %s", err);
	}
}

static int cmp_part_time(const void *x, const void *y, void *arg)
{
	const struct profile *p = arg;
	int i = *(const int *)x, j = *(const int *)y;
	const struct part_info *a = &p->parts[i], *b = &p->parts[j];
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->has_time && b->has_time && a->time0 != b->time0)
		return a->time0 < b->time0 ? -1 : 1;
	if (a->number != b->number)
		return a->number < b->number ? -1 : 1;
	if (a->thread != b->thread)
		return a->thread < b->thread ? -1 : 1;
	return i < j ? -1 : i > j;
}

int *profile_parts_by_time(const struct profile *p)
{
	int *o = xmalloc(((size_t)p->nparts + 1) * sizeof(*o));
	for (int i = 0; i < p->nparts; i++)
		o[i] = i;
	qsort_r(o, (size_t)p->nparts, sizeof(*o), cmp_part_time, (void *)p);
	return o;
}

int profile_need_lines(struct profile *p, uint32_t fn)
{
	return p->lazy && p->lazy_lines ? p->lazy_lines(p, p->lazy, fn) : 0;
}

int creator_names_contexts(const char *c)
{
	return c && (strncmp(c, "callgrind", 9) == 0 || strncmp(c, "cgtui", 5) == 0);
}

int profile_names_contexts(const struct profile *p)
{
	return creator_names_contexts(p->creator);
}

cost_t event_value(const struct profile *p, const cost_t *c, int e)
{
	if (e < p->nreal)
		return c[e];
	const struct event_def *d = &p->ev[e];
	cost_t v = 0;
	for (int i = 0; i < d->nterms; i++)
		v = cost_add(v, cost_mul(d->terms[i].coef, event_value(p, c, d->terms[i].ev)));
	return v;
}

/* ---- hashed records -------------------------------------------------------- */

static inline uint64_t hash3(uint32_t a, uint32_t b, uint32_t c)
{
	return hash_mix(((uint64_t)a << 32 | b) ^ ((uint64_t)c * 0x9e3779b97f4a7c15ULL));
}

/* An empty table of slots for more than nrec records; the caller puts
 * them in (h->n says how many are) */
static void ihash_grow(struct ihash *h, uint32_t nrec)
{
	uint32_t nslots = h->mask ? (h->mask + 1) * 2 : 1024;
	while ((uint64_t)nrec * 2 >= nslots)
		nslots *= 2;
	hot_free(h->slots, h->slots ? ((size_t)h->mask + 1) * sizeof(*h->slots) : 0);
	h->slots = hot_calloc((size_t)nslots * sizeof(*h->slots));
	h->mask = nslots - 1;
	h->n = 0;
}

static uint64_t fn_hash(const struct profile *p, uint32_t r)
{
	const struct function *f = &p->fns[r];
	return hash3(f->obj, f->file, f->name);
}

/* obj as p->objmod rewrites its name (it is NO_ID, or no name changes). */
static uint32_t obj_as(struct profile *p, uint32_t obj)
{
	if (obj == NO_ID)
		return obj;
	if (obj >= p->nobjas) {
		uint32_t n = p->nobjas ? p->nobjas : 16;
		while (n <= obj)
			n *= 2;
		p->objas = xreallocarray(p->objas, n, sizeof(*p->objas));
		memset(p->objas + p->nobjas, 0xff, (size_t)(n - p->nobjas) * sizeof(*p->objas));
		p->nobjas = n;
	}
	if (p->objas[obj] == NO_ID) {
		size_t len = 0;
		char *t = modname_apply(p->objmod, p->objs.str[obj], p->objs.len[obj], &len);
		p->objas[obj] = t ? strtab_intern(&p->objs, t, len) : obj;
		free(t);
	}
	return p->objas[obj];
}

static uint32_t fn_add(struct profile *p, uint32_t obj, uint32_t file, uint32_t name)
{
	/* no look in the function hash: a function of a new name is found by
	 * no look-up until profile_fn() is next called, which puts it in then
	 * (its slot's probe, a miss in a hash of megabytes at 400 K functions,
	 * so waits, and those inserts do not wait on each other) */
	if (p->nfns + 1 > p->capfns) {
		size_t nc = p->capfns ? (size_t)p->capfns * 2 : 64;
		p->fns = hot_realloc(p->fns, (size_t)p->capfns * sizeof(*p->fns), nc * sizeof(*p->fns));
		p->capfns = nc;
	}
	p->fns[p->nfns] = (struct function){ .name = name, .obj = obj, .file = file };
	return p->nfns++;
}

uint32_t profile_fn_new(struct profile *p, uint32_t obj, uint32_t file, uint32_t name)
{
	return fn_add(p, p->objmod ? obj_as(p, obj) : obj, file, name);
}

/* h made to hold p's functions (and one more), hash(p, f) of each: those
 * not in it yet put in (after a growth, or profile_fn_new()).  Put in in
 * order, so a look-up meets the first of equal keys first. */
static inline void ihash_fill(struct ihash *h, const struct profile *p,
			      uint64_t (*hash)(const struct profile *p, uint32_t f))
{
	if ((uint64_t)(p->nfns + 1) * 2 >= (uint64_t)h->mask + 1)
		ihash_grow(h, p->nfns);
	for (; h->n < p->nfns; h->n++) {
		uint32_t i = (uint32_t)hash(p, h->n) & h->mask;
		while (h->slots[i])
			i = (i + 1) & h->mask;
		h->slots[i] = h->n + 1;
	}
}

uint32_t profile_fn(struct profile *p, uint32_t obj, uint32_t file, uint32_t name)
{
	if (p->objmod)
		obj = obj_as(p, obj);
	struct ihash *h = &p->fnhash;
	ihash_fill(h, p, fn_hash);
	uint32_t i = (uint32_t)hash3(obj, file, name) & h->mask;
	for (; h->slots[i]; i = (i + 1) & h->mask) {
		const struct function *f = &p->fns[h->slots[i] - 1];
		if (f->name == name && f->file == file && f->obj == obj)
			return h->slots[i] - 1;
	}
	h->slots[i] = p->nfns + 1;
	h->n = p->nfns + 1;
	return fn_add(p, obj, file, name);
}

void profile_fn_index(struct profile *p)
{
	ihash_fill(&p->fnhash, p, fn_hash);
}

uint32_t profile_fn_find(const struct profile *p, uint32_t obj, uint32_t file, uint32_t name)
{
	const struct ihash *h = &p->fnhash;
	if (h->slots)
		for (uint32_t i = (uint32_t)hash3(obj, file, name) & h->mask; h->slots[i];
		     i = (i + 1) & h->mask) {
			const struct function *f = &p->fns[h->slots[i] - 1];
			if (f->name == name && f->file == file && f->obj == obj)
				return h->slots[i] - 1;
		}
	for (uint32_t f = h->n; f < p->nfns; f++) /* the functions not in it */
		if (p->fns[f].name == name && p->fns[f].file == file && p->fns[f].obj == obj)
			return f;
	return NO_ID;
}

/* f's name, file and object by their texts: the hashes their tables keep */
static uint64_t fn_text_hash(const struct profile *p, uint32_t f)
{
	const struct function *x = &p->fns[f];
	return hash3(p->objs.hash[x->obj], p->files.hash[x->file], p->names.hash[x->name]);
}

/* Is entry i of a the text of entry j of b? */
static int same_text(const struct strtab *a, uint32_t i, const struct strtab *b, uint32_t j)
{
	return a->hash[i] == b->hash[j] && a->len[i] == b->len[j] && !memcmp(a->str[i], b->str[j], a->len[i]);
}

static int same_fn_text(const struct profile *p, uint32_t f, const struct profile *q, uint32_t g)
{
	const struct function *x = &p->fns[f], *y = &q->fns[g];
	return same_text(&p->names, x->name, &q->names, y->name) &&
	       same_text(&p->files, x->file, &q->files, y->file) &&
	       same_text(&p->objs, x->obj, &q->objs, y->obj);
}

void profile_index_fn_text(struct profile *p)
{
	ihash_fill(&p->fntext, p, fn_text_hash);
}

uint32_t profile_fn_like(const struct profile *p, const struct profile *q, uint32_t g)
{
	const struct ihash *h = &p->fntext;
	if (h->slots)
		for (uint32_t i = (uint32_t)fn_text_hash(q, g) & h->mask; h->slots[i]; i = (i + 1) & h->mask)
			if (same_fn_text(p, h->slots[i] - 1, q, g))
				return h->slots[i] - 1;
	for (uint32_t f = h->n; f < p->nfns; f++) /* the functions not in it */
		if (same_fn_text(p, f, q, g))
			return f;
	return NO_ID;
}

void profile_call(struct profile *p, uint32_t caller, uint32_t file, uint32_t line,
		  uint32_t callee, cost_t count, const cost_t *cost)
{
	VEC_RESERVE(p->calls, p->capcalls, p->ncalls + 1);
	size_t need = p->callbuf_len + 10 * ((size_t)p->nreal + 2);
	if (need > p->callbuf_cap) {
		p->callbuf_cap = p->callbuf_cap ? p->callbuf_cap * 2 : 1 << 14;
		while (p->callbuf_cap < need)
			p->callbuf_cap *= 2;
		p->callbuf = xrealloc(p->callbuf, p->callbuf_cap);
	}
	uint32_t r = p->ncalls++;
	if ((r & ((1u << CALL_BASE_SHIFT) - 1)) == 0) { /* a group starts */
		VEC_RESERVE(p->callbase, p->capcallbase, p->ncallbase + 1);
		p->callbase[p->ncallbase++] = p->callbuf_len;
	}
	/* a group's records take at most 2^16 * 10 * (64 + 2) bytes: the
	 * offset fits in 32 bits */
	p->calls[r] = (struct call_rec){
		.caller = caller, .callee = callee, .file = file, .line = line,
		.off = (uint32_t)(p->callbuf_len - p->callbase[r >> CALL_BASE_SHIFT])
	};
	uint8_t *b = varint_put(p->callbuf + p->callbuf_len, zigzag(count));
	p->callbuf_len = (size_t)(cost_encode(b, cost, p->nreal) - p->callbuf);
}

void profile_jump(struct profile *p, uint32_t fn, uint32_t file, uint32_t line,
		  uint32_t tfile, uint32_t tline, int cond, cost_t executed, cost_t taken)
{
	/* appended as read and encoded: jumps are many, few views need them */
	if (p->jumpbuf_len + 80 > p->jumpbuf_cap) {
		p->jumpbuf_cap = p->jumpbuf_cap ? p->jumpbuf_cap * 2 : 1 << 14;
		p->jumpbuf = xrealloc(p->jumpbuf, p->jumpbuf_cap);
	}
	uint8_t *b = p->jumpbuf + p->jumpbuf_len;
	b = varint_put(b, fn);
	b = varint_put(b, file);
	b = varint_put(b, line);
	b = varint_put(b, tfile);
	b = varint_put(b, tline);
	b = varint_put(b, (uint64_t)cond);
	b = varint_put(b, zigzag(executed));
	b = varint_put(b, zigzag(taken));
	p->jumpbuf_len = (size_t)(b - p->jumpbuf);
	p->njumps++;
}

int jump_next(const struct profile *p, size_t *off, struct jump_rec *j)
{
	if (*off >= p->jumpbuf_len)
		return 0;
	const uint8_t *b = p->jumpbuf + *off;
	uint64_t v[8];
	for (int i = 0; i < 8; i++)
		b = varint_get(b, &v[i]);
	*j = (struct jump_rec){ (uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], (uint32_t)v[3],
				(uint32_t)v[4], (uint32_t)v[5], unzigzag(v[6]), unzigzag(v[7]) };
	*off = (size_t)(b - p->jumpbuf);
	return 1;
}
