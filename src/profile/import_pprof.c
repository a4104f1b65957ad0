/* import_pprof.c -- pprof's profile.proto read into the model (see
 * import.h), through what import.c's importers share (import_int.h).
 * pprof's messages are decoded by protobuf-c from code that protoc-c
 * generates at build time from pprof's own profile.proto.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "import_int.h"
#include "profile/profile.pb-c.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pprof ---------------------------------------------------------------------- */

typedef Perftools__Profiles__Profile PProfile;

struct idx {
	uint64_t id;
	size_t at;
};
static int cmp_idx(const void *x, const void *y)
{
	const struct idx *a = x, *b = y;
	return a->id < b->id ? -1 : a->id > b->id;
}
static const struct idx *idx_find(const struct idx *t, size_t n, uint64_t id)
{
	struct idx k = { id, 0 };
	return bsearch(&k, t, n, sizeof(*t), cmp_idx);
}
/* Sorted (id, index) pairs; -1 when an id is 0 or repeated. */
static int idx_make(struct idx **out, size_t n, uint64_t (*id)(const void *tab, size_t i),
		    const void *tab, uint64_t *bad)
{
	struct idx *t = xmalloc((n ? n : 1) * sizeof(*t));
	for (size_t i = 0; i < n; i++)
		t[i] = (struct idx){ id(tab, i), i };
	qsort(t, n, sizeof(*t), cmp_idx);
	*out = t;
	for (size_t i = 0; i < n; i++) {
		if (t[i].id == 0 || (i && t[i].id == t[i - 1].id)) {
			*bad = t[i].id;
			return -1;
		}
	}
	return 0;
}
static uint64_t loc_id(const void *tab, size_t i)
{
	return ((Perftools__Profiles__Location *const *)tab)[i]->id;
}
static uint64_t fun_id(const void *tab, size_t i)
{
	return ((Perftools__Profiles__Function *const *)tab)[i]->id;
}
static uint64_t map_id(const void *tab, size_t i)
{
	return ((Perftools__Profiles__Mapping *const *)tab)[i]->id;
}

/* String number i of the table, "" for an index out of range (*bad set). */
static const char *pstr(const PProfile *pp, int64_t i, int *bad)
{
	if (i < 0 || (uint64_t)i >= pp->n_string_table) {
		*bad = 1;
		return "";
	}
	return pp->string_table[i];
}

/* A location's frames, innermost first (as its lines are). */
struct ploc {
	size_t first, n;
};

static int pprof_fail(struct imp *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int pprof_fail(struct imp *m, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(m->err, m->errsz, "%s: pprof: %s", m->path, what);
	return -1;
}

static int pprof_build(struct imp *m, const PProfile *pp)
{
	struct profile *p = m->p;
	int bad = 0;
	/* the sample types are the events */
	char *names[MAX_EVENTS];
	const char *lnames[MAX_EVENTS];
	char *lbuf[MAX_EVENTS];
	int nev = pp->n_sample_type > MAX_EVENTS ? MAX_EVENTS + 1 : (int)pp->n_sample_type;
	if (nev > MAX_EVENTS)
		return pprof_fail(m, "%zu sample types (at most %d)", pp->n_sample_type, MAX_EVENTS);
	if (nev == 0)
		return pprof_fail(m, "no sample types");
	for (int i = 0; i < nev; i++) {
		const char *t = pstr(pp, pp->sample_type[i]->type, &bad);
		const char *u = pstr(pp, pp->sample_type[i]->unit, &bad);
		names[i] = *t ? xstrdup(t) : xasprintf("value%d", i + 1);
		for (char *c = names[i]; *c; c++)
			if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r' || *c == ',')
				*c = '_';
		lbuf[i] = *u && strcmp(u, "count") != 0 ? xasprintf("%s (%s)", t, u) : NULL;
		lnames[i] = lbuf[i];
	}
	int rc = bad ? pprof_fail(m, "a sample type's string index is out of range")
		     : imp_events(m, names, lnames, nev);
	for (int i = 0; i < nev; i++) {
		free(names[i]);
		free(lbuf[i]);
	}
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < pp->n_comment; i++) {
		const char *c = pstr(pp, pp->comment[i], &bad);
		if (*c) {
			profile_note_desc(p, c);
			if (p->nsources == 1) {
				VEC_RESERVE(p->desc, p->capdesc, p->ndesc + 1);
				p->desc[p->ndesc++] = xstrdup(c);
			}
		}
	}

	struct idx *li = NULL, *fi = NULL, *mi = NULL;
	struct ploc *loc = xcalloc(pp->n_location + 1, sizeof(*loc));
	struct frame *lf = NULL, *fr = NULL;
	size_t nlf = 0, caplf = 0, capfr = 0;
	uint64_t badid = 0;
	rc = -1;
	if (idx_make(&li, pp->n_location, loc_id, pp->location, &badid) < 0) {
		pprof_fail(m, "location id %llu is 0 or repeated", (unsigned long long)badid);
		goto out;
	}
	if (idx_make(&fi, pp->n_function, fun_id, pp->function, &badid) < 0) {
		pprof_fail(m, "function id %llu is 0 or repeated", (unsigned long long)badid);
		goto out;
	}
	if (idx_make(&mi, pp->n_mapping, map_id, pp->mapping, &badid) < 0) {
		pprof_fail(m, "mapping id %llu is 0 or repeated", (unsigned long long)badid);
		goto out;
	}
	/* each location's frames */
	for (size_t i = 0; i < pp->n_location; i++) {
		const Perftools__Profiles__Location *l = pp->location[i];
		uint32_t obj = m->obj_none;
		if (l->mapping_id) {
			const struct idx *x = idx_find(mi, pp->n_mapping, l->mapping_id);
			if (!x) {
				pprof_fail(m, "location %llu: no mapping %llu", (unsigned long long)l->id,
					   (unsigned long long)l->mapping_id);
				goto out;
			}
			const char *f = pstr(pp, pp->mapping[x->at]->filename, &bad);
			obj = strtab_intern(&p->objs, f, strlen(f));
		}
		loc[i].first = nlf;
		for (size_t k = 0; k < l->n_line || (k == 0 && l->n_line == 0); k++) {
			VEC_RESERVE(lf, caplf, nlf + 1);
			if (l->n_line == 0) { /* no symbol: its address */
				char a[32];
				int al = snprintf(a, sizeof(a), "0x%llx", (unsigned long long)l->address);
				lf[nlf++] = (struct frame){ imp_fn(m, obj, m->file_none, a, (size_t)al),
							    m->file_none, 0 };
				continue;
			}
			const Perftools__Profiles__Line *ln = l->line[k];
			const struct idx *x = idx_find(fi, pp->n_function, ln->function_id);
			if (!x) {
				pprof_fail(m, "location %llu: no function %llu", (unsigned long long)l->id,
					   (unsigned long long)ln->function_id);
				goto out;
			}
			const Perftools__Profiles__Function *f = pp->function[x->at];
			const char *nm = pstr(pp, f->name, &bad);
			if (!*nm)
				nm = pstr(pp, f->system_name, &bad);
			if (!*nm)
				nm = "???";
			const char *fl = pstr(pp, f->filename, &bad);
			if (!*fl)
				fl = "???";
			uint32_t file = imp_intern(&p->files, m->o->modfile, fl, strlen(fl));
			if (ln->line < 0 || ln->line > (int64_t)UINT32_MAX - 1) {
				pprof_fail(m, "location %llu: line %lld out of range", (unsigned long long)l->id,
					   (long long)ln->line);
				goto out;
			}
			lf[nlf++] = (struct frame){ imp_fn(m, obj, file, nm, strlen(nm)), file,
						    (uint32_t)ln->line };
		}
		loc[i].n = nlf - loc[i].first;
	}
	if (bad) {
		pprof_fail(m, "a string index is out of range");
		goto out;
	}
	/* the samples: locations leaf first, each location's lines innermost first */
	for (size_t s = 0; s < pp->n_sample; s++) {
		const Perftools__Profiles__Sample *sm = pp->sample[s];
		if (sm->n_value != (size_t)nev) {
			pprof_fail(m, "sample %zu has %zu values for %d sample types", s + 1,
				   sm->n_value, nev);
			goto out;
		}
		size_t nf = 0;
		for (size_t j = sm->n_location_id; j-- > 0;) {
			const struct idx *x = idx_find(li, pp->n_location, sm->location_id[j]);
			if (!x) {
				pprof_fail(m, "sample %zu: no location %llu", s + 1,
					   (unsigned long long)sm->location_id[j]);
				goto out;
			}
			const struct ploc *pl = &loc[x->at];
			VEC_RESERVE(fr, capfr, nf + pl->n);
			for (size_t k = pl->n; k-- > 0;)
				fr[nf++] = lf[pl->first + k];
		}
		if (!nf) { /* no stack at all */
			VEC_RESERVE(fr, capfr, 1);
			fr[nf++] = (struct frame){ imp_fn(m, m->obj_none, m->file_none, "???", 3),
						   m->file_none, 0 };
		}
		imp_stack(m, fr, nf, sm->value);
	}
	rc = 0;
out:
	free(li);
	free(fi);
	free(mi);
	free(loc);
	free(lf);
	free(fr);
	return rc;
}

int import_pprof(struct profile *p, const char *path, const unsigned char *data, size_t len,
		 const struct load_opts *o, char *err, size_t errsz)
{
	struct imp m = { .p = p, .o = o, .path = path, .err = err, .errsz = errsz };
	PProfile *pp = perftools__profiles__profile__unpack(NULL, len, data);
	if (!pp) {
		snprintf(err, errsz, "%s: pprof: not a valid profile.proto message", path);
		return -1;
	}
	imp_begin(&m, "pprof");
	int rc = pprof_build(&m, pp);
	perftools__profiles__profile__free_unpacked(pp, NULL);
	if (rc == 0)
		imp_end(&m);
	imp_free(&m);
	return rc;
}
