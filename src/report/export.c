/* export.c -- folded stacks, speedscope and pprof; see export.h.  The
 * paths are those of the calling-context tree (profile/context.h), the
 * labels format.h's; pprof's messages are encoded by protobuf-c from the
 * code protoc-c generates from pprof's profile.proto at build time.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "export.h"
#include "jsonw.h"
#include "profile/aggregate.h"
#include "profile/context.h"
#include "profile/format.h"
#include "profile/profile.pb-c.h"
#include "profile/query.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define ESTIMATED_NOTE "call paths estimated from call edges (a Callgrind file records calls, not paths)"

enum export_kind export_kind_of(const char *name)
{
	return strcmp(name, "folded") == 0 ? EXPORT_FOLDED
	       : strcmp(name, "speedscope") == 0 ? EXPORT_SPEEDSCOPE
	       : strcmp(name, "pprof") == 0 ? EXPORT_PPROF : EXPORT_NONE;
}

/* ---- the paths ---------------------------------------------------------------- */

/* Called for each node of the calling-context tree (context.h): its path
 * (entities, the root first) and its self cost there. */
typedef void (*visit_fn)(void *arg, const uint32_t *path, uint32_t depth, const cost_t *own);

struct walk_arg {
	visit_fn visit;
	void *arg;
};

static void walk_visit(void *arg, const struct cctx *t, uint32_t n, const uint32_t *path,
		       uint32_t len)
{
	struct walk_arg *w = arg;
	w->visit(w->arg, path, len, cctx_self(t, n));
}

static void walk(struct profile *p, int event, double threshold, visit_fn visit, void *arg)
{
	struct cctx *t = cctx_of(p, event, threshold);
	struct walk_arg w = { visit, arg };
	cctx_walk(t, -1, walk_visit, &w);
	cctx_free(t);
}

/* Labels of the entities, made once each. */
struct labels {
	struct profile *p;
	char **l;
};
static const char *label_of(struct labels *L, uint32_t id)
{
	if (!L->l[id])
		L->l[id] = fn_label(L->p, id);
	return L->l[id];
}
static void labels_init(struct labels *L, struct profile *p)
{
	L->p = p;
	L->l = xcalloc((size_t)agg_nent(profile_agg(p)) + 1, sizeof(*L->l));
}
static void labels_free(struct labels *L)
{
	uint32_t n = agg_nent(profile_agg(L->p));
	for (uint32_t i = 0; i < n; i++)
		free(L->l[i]);
	free(L->l);
}

/* The file of an entity (a cycle has none). */
static const char *entity_file(const struct profile *p, uint32_t id)
{
	return id < p->nfns ? file_name(p, p->fns[id].file) : "";
}

/* ---- speedscope --------------------------------------------------------------------- */

struct sample {
	uint32_t *path;
	uint32_t depth;
	cost_t *v; /* one per exported event */
};

struct samples {
	struct profile *p;
	const int *ev;
	int nev;
	int only; /* >= 0: keep only what has a cost of event ev[only] */
	struct sample *s;
	size_t n, cap;
};

static void sample_visit(void *arg, const uint32_t *path, uint32_t depth, const cost_t *own)
{
	struct samples *S = arg;
	cost_t v[MAX_EVENTS];
	int any = 0;
	for (int k = 0; k < S->nev; k++) {
		v[k] = event_value(S->p, own, S->ev[k]);
		any |= S->only < 0 ? v[k] != 0 : k == S->only && v[k] > 0;
	}
	if (!any)
		return;
	VEC_RESERVE(S->s, S->cap, S->n + 1);
	struct sample *s = &S->s[S->n++];
	s->path = xmalloc((size_t)depth * sizeof(*s->path));
	memcpy(s->path, path, (size_t)depth * sizeof(*path));
	s->depth = depth;
	s->v = xmalloc((size_t)S->nev * sizeof(*s->v));
	memcpy(s->v, v, (size_t)S->nev * sizeof(*v));
}

static void samples_free(struct samples *S)
{
	for (size_t i = 0; i < S->n; i++) {
		free(S->s[i].path);
		free(S->s[i].v);
	}
	free(S->s);
	S->s = NULL;
	S->n = S->cap = 0;
}

static void speedscope(FILE *out, struct profile *p, const struct export_opts *o, const int *ev,
		       int nev, int estimated)
{
	struct labels L;
	labels_init(&L, p);
	uint32_t nent = agg_nent(profile_agg(p));
	uint32_t *frame = xmalloc(((size_t)nent + 1) * sizeof(*frame)), nframes = 0;
	uint32_t *order = xmalloc(((size_t)nent + 1) * sizeof(*order));
	for (uint32_t i = 0; i < nent; i++)
		frame[i] = NO_ID;
	/* one tree per event, its paths a profile each */
	struct samples *S = xcalloc((size_t)nev, sizeof(*S));
	for (int k = 0; k < nev; k++) {
		S[k] = (struct samples){ .p = p, .ev = &ev[k], .nev = 1, .only = 0 };
		walk(p, ev[k], o->threshold, sample_visit, &S[k]);
		for (size_t i = 0; i < S[k].n; i++)
			for (uint32_t d = 0; d < S[k].s[i].depth; d++) {
				uint32_t id = S[k].s[i].path[d];
				if (frame[id] == NO_ID) {
					frame[id] = nframes;
					order[nframes++] = id;
				}
			}
	}
	struct jsonw w;
	jsonw_init(&w, out, 0);
	jsonw_obj(&w, NULL);
	jsonw_str(&w, "$schema", "https://www.speedscope.app/file-format-schema.json");
	jsonw_str(&w, "exporter", PACKAGE_STRING);
	const char *src = p->nsources ? p->sources[0] : "profile";
	const char *sl = strrchr(src, '/');
	jsonw_str(&w, "name", sl ? sl + 1 : src);
	jsonw_int(&w, "activeProfileIndex", 0);
	jsonw_obj(&w, "shared");
	jsonw_arr(&w, "frames");
	for (uint32_t i = 0; i < nframes; i++) {
		jsonw_obj(&w, NULL);
		jsonw_str(&w, "name", label_of(&L, order[i]));
		if (*entity_file(p, order[i]))
			jsonw_str(&w, "file", entity_file(p, order[i]));
		jsonw_end_obj(&w);
	}
	jsonw_end_arr(&w);
	jsonw_end_obj(&w);
	jsonw_arr(&w, "profiles");
	for (int k = 0; k < nev; k++) {
		cost_t sum = 0;
		for (size_t i = 0; i < S[k].n; i++)
			sum = cost_add(sum, S[k].s[i].v[0]);
		char *name = xasprintf("%s%s", p->ev[ev[k]].name,
				       estimated ? " (" ESTIMATED_NOTE ")" : "");
		jsonw_obj(&w, NULL);
		jsonw_str(&w, "type", "sampled");
		jsonw_str(&w, "name", name);
		jsonw_str(&w, "unit", "none");
		jsonw_int(&w, "startValue", 0);
		jsonw_int(&w, "endValue", sum);
		jsonw_arr(&w, "samples");
		for (size_t i = 0; i < S[k].n; i++) {
			jsonw_arr(&w, NULL);
			for (uint32_t d = 0; d < S[k].s[i].depth; d++)
				jsonw_uint(&w, NULL, frame[S[k].s[i].path[d]]);
			jsonw_end_arr(&w);
		}
		jsonw_end_arr(&w);
		jsonw_arr(&w, "weights");
		for (size_t i = 0; i < S[k].n; i++)
			jsonw_int(&w, NULL, S[k].s[i].v[0]);
		jsonw_end_arr(&w);
		jsonw_end_obj(&w);
		free(name);
		samples_free(&S[k]);
	}
	jsonw_end_arr(&w);
	jsonw_end_obj(&w);
	fputc('\n', out);
	free(S);
	free(frame);
	free(order);
	labels_free(&L);
}

/* ---- pprof ------------------------------------------------------------------------------ */

/* The gzip stream of buf[0..n) to out; 0 or -1. */
static int gzip_to(FILE *out, const uint8_t *buf, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	const size_t chunksz = 1 << 16;
	unsigned char *chunk = xmalloc(chunksz);
	z.next_in = (Bytef *)buf;
	int rc = 0, zr;
	size_t left = n;
	do {
		uInt in = left > (1u << 30) ? 1u << 30 : (uInt)left;
		z.next_in = (Bytef *)buf + (n - left);
		z.avail_in = in;
		left -= in;
		do {
			z.next_out = chunk;
			z.avail_out = (uInt)chunksz;
			zr = deflate(&z, left ? Z_NO_FLUSH : Z_FINISH);
			size_t got = chunksz - z.avail_out;
			if (got && fwrite(chunk, 1, got, out) != got)
				rc = -1;
		} while (z.avail_out == 0 && rc == 0);
	} while (left && rc == 0);
	if (zr != Z_STREAM_END)
		rc = -1;
	deflateEnd(&z);
	free(chunk);
	return rc;
}

static int64_t str_id(struct strtab *t, const char *s)
{
	return strtab_intern(t, s, strlen(s));
}

static int pprof(FILE *out, struct profile *p, const struct export_opts *o, const int *ev, int nev,
		 int estimated)
{
	struct labels L;
	labels_init(&L, p);
	struct samples S = { .p = p, .ev = ev, .nev = nev, .only = -1 };
	walk(p, o->sort_event, o->threshold, sample_visit, &S);
	uint32_t nent = agg_nent(profile_agg(p));
	struct strtab st;
	memset(&st, 0, sizeof(st));
	str_id(&st, ""); /* string 0 is "" */

	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType *vt = xcalloc((size_t)nev, sizeof(*vt));
	Perftools__Profiles__ValueType **vtp = xcalloc((size_t)nev, sizeof(*vtp));
	for (int k = 0; k < nev; k++) {
		perftools__profiles__value_type__init(&vt[k]);
		vt[k].type = str_id(&st, p->ev[ev[k]].name);
		vt[k].unit = str_id(&st, "count");
		vtp[k] = &vt[k];
	}
	prof.n_sample_type = (size_t)nev;
	prof.sample_type = vtp;
	/* the default: the paths' event */
	prof.default_sample_type = str_id(&st, p->ev[o->sort_event].name);

	/* a mapping per object, a function and a location per entity used */
	uint32_t *loc = xmalloc(((size_t)nent + 1) * sizeof(*loc)), nloc = 0;
	uint32_t *locent = xmalloc(((size_t)nent + 1) * sizeof(*locent));
	for (uint32_t i = 0; i < nent; i++)
		loc[i] = 0;
	for (size_t i = 0; i < S.n; i++)
		for (uint32_t d = 0; d < S.s[i].depth; d++) {
			uint32_t id = S.s[i].path[d];
			if (!loc[id]) {
				locent[nloc] = id;
				loc[id] = ++nloc;
			}
		}
	uint32_t *map = xcalloc((size_t)p->objs.n + 1, sizeof(*map)), nmap = 0;
	Perftools__Profiles__Mapping *mp = xcalloc((size_t)p->objs.n + 1, sizeof(*mp));
	Perftools__Profiles__Mapping **mpp = xcalloc((size_t)p->objs.n + 1, sizeof(*mpp));
	Perftools__Profiles__Function *fn = xcalloc((size_t)nloc + 1, sizeof(*fn));
	Perftools__Profiles__Function **fnp = xcalloc((size_t)nloc + 1, sizeof(*fnp));
	Perftools__Profiles__Location *lc = xcalloc((size_t)nloc + 1, sizeof(*lc));
	Perftools__Profiles__Location **lcp = xcalloc((size_t)nloc + 1, sizeof(*lcp));
	Perftools__Profiles__Line *ln = xcalloc((size_t)nloc + 1, sizeof(*ln));
	Perftools__Profiles__Line **lnp = xcalloc((size_t)nloc + 1, sizeof(*lnp));
	for (uint32_t i = 0; i < nloc; i++) {
		uint32_t id = locent[i];
		perftools__profiles__function__init(&fn[i]);
		fn[i].id = i + 1;
		fn[i].name = str_id(&st, label_of(&L, id));
		fn[i].system_name = id < p->nfns ? str_id(&st, fn_name(p, id)) : fn[i].name;
		fn[i].filename = str_id(&st, entity_file(p, id));
		fnp[i] = &fn[i];
		perftools__profiles__line__init(&ln[i]);
		ln[i].function_id = i + 1;
		lnp[i] = &ln[i];
		perftools__profiles__location__init(&lc[i]);
		lc[i].id = i + 1;
		lc[i].n_line = 1;
		lc[i].line = &lnp[i];
		uint32_t obj = id < p->nfns ? p->fns[id].obj : NO_ID;
		if (obj != NO_ID && *obj_name(p, obj)) {
			if (!map[obj]) {
				Perftools__Profiles__Mapping *m = &mp[nmap];
				perftools__profiles__mapping__init(m);
				m->id = nmap + 1;
				m->filename = str_id(&st, obj_name(p, obj));
				m->has_functions = 1;
				mpp[nmap] = m;
				map[obj] = ++nmap;
			}
			lc[i].mapping_id = map[obj];
		}
		lcp[i] = &lc[i];
	}
	prof.n_function = nloc;
	prof.function = fnp;
	prof.n_location = nloc;
	prof.location = lcp;
	prof.n_mapping = nmap;
	prof.mapping = mpp;

	/* the samples: locations leaf first */
	Perftools__Profiles__Sample *sm = xcalloc(S.n + 1, sizeof(*sm));
	Perftools__Profiles__Sample **smp = xcalloc(S.n + 1, sizeof(*smp));
	uint64_t *locids = NULL;
	size_t nlocids = 0;
	for (size_t i = 0; i < S.n; i++)
		nlocids += S.s[i].depth;
	locids = xmalloc((nlocids + 1) * sizeof(*locids));
	size_t at = 0;
	for (size_t i = 0; i < S.n; i++) {
		perftools__profiles__sample__init(&sm[i]);
		sm[i].n_location_id = S.s[i].depth;
		sm[i].location_id = &locids[at];
		for (uint32_t d = S.s[i].depth; d-- > 0;)
			locids[at++] = loc[S.s[i].path[d]];
		sm[i].n_value = (size_t)nev;
		sm[i].value = S.s[i].v;
		smp[i] = &sm[i];
	}
	prof.n_sample = S.n;
	prof.sample = smp;

	int64_t comment[2];
	prof.n_comment = 0;
	char *made = xasprintf("made by %s from %s", PACKAGE_STRING,
			       p->nsources ? p->sources[0] : "a profile");
	comment[prof.n_comment++] = str_id(&st, made);
	if (estimated)
		comment[prof.n_comment++] = str_id(&st, ESTIMATED_NOTE);
	prof.comment = comment;
	free(made);

	/* the string table last: every string is in it now */
	prof.n_string_table = st.n;
	prof.string_table = (char **)st.str;

	size_t len = perftools__profiles__profile__get_packed_size(&prof);
	uint8_t *buf = xmalloc(len + 1);
	perftools__profiles__profile__pack(&prof, buf);
	int rc = gzip_to(out, buf, len);
	free(buf);
	free(locids);
	free(sm);
	free(smp);
	free(vt);
	free(vtp);
	free(loc);
	free(locent);
	free(map);
	free(mp);
	free(mpp);
	free(fn);
	free(fnp);
	free(lc);
	free(lcp);
	free(ln);
	free(lnp);
	samples_free(&S);
	strtab_free(&st);
	labels_free(&L);
	return rc;
}

/* ---- all of them ----------------------------------------------------------------------------- */

int export_write(FILE *out, struct profile *p, enum export_kind k, const struct export_opts *o,
		 char *err, size_t errsz)
{
	static const char *const name[] = { "", "folded", "speedscope", "pprof" };
	if (p->ndiff) {
		snprintf(err, errsz, "--export=%s: a difference cannot be exported (its costs may be "
			 "negative)", name[k]);
		return -1;
	}
	/* the one cycle rule: no path goes round a cycle */
	profile_set_cycles(p, 1);
	profile_agg(p);
	int ev[MAX_EVENTS], nev = o->nev;
	memcpy(ev, o->ev, sizeof(ev));
	if (!nev)
		for (int e = 0; e < p->nreal; e++)
			ev[nev++] = e;
	/* the recorded contexts beside the profile, else the estimate */
	struct cctx *t = cctx_of(p, o->sort_event, o->threshold);
	int estimated = t->estimated && query_has_calls(p);
	if (estimated && o->note)
		fprintf(o->note, "cgtui: --export=%s: %s\n", name[k], ESTIMATED_NOTE);
	/* the roots left out by the bound: their cost is in no stack */
	char *left = cctx_left_text(t, o->sort_event);
	if (left && o->note)
		fprintf(o->note, "cgtui: --export=%s: %s in no stack\n", name[k], left);
	free(left);
	int rc = 0, ce = o->sort_event < p->nreal ? o->sort_event : 0;
	if (k == EXPORT_FOLDED) {
		cctx_folded(t, -1, o->sort_event, out);
		if (t->cut[ce] != t->left[ce] && o->note)
			fprintf(o->note, "cgtui: --export=folded: paths cut at %u contexts (their "
				"callees' costs are in the last frame kept)\n", t->n);
	} else if (k == EXPORT_SPEEDSCOPE) {
		speedscope(out, p, o, ev, nev, estimated);
	} else if (k == EXPORT_PPROF) {
		rc = pprof(out, p, o, ev, nev, estimated);
		if (rc < 0)
			snprintf(err, errsz, "--export=pprof: cannot compress the profile");
	}
	cctx_free(t);
	return rc;
}
