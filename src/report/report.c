/* report.c -- the batch report, in the layout of cg_annotate 3.21+.
 *
 * Sections: Metadata, Summary, File:function, Function:file (inclusive with
 * --inclusive=yes), Callers and callees (--tree), annotated source files,
 * Annotation summary.  Column widths, percentages, thresholds, sorting,
 * context ranges, the reading of source files under their original names
 * (--mod-filename) and the metadata of several profiles follow
 * cg_annotate's rules.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "report.h"
#include "profile/aggregate.h"
#include "profile/modname.h"
#include "profile/query.h"
#include "profile/format.h"
#include "profile/rank.h"
#include "source/srcannot.h"
#include "source/srcfile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void report_opts_default(struct report_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->threshold = 0.1;
	o->show_percs = 1;
	o->annotate = 1;
	o->context = 8;
}

int report_parse_events(const struct profile *p, const char *list, int *out, int *n,
			const char *what, char *err, size_t errsz)
{
	*n = 0;
	const char *s = list;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		int ev = profile_event_index(p, s, len);
		if (ev < 0) {
			snprintf(err, errsz, "--%s event `%.*s` did not appear in `events:` line", what,
				 (int)len, s);
			return -1;
		}
		if (*n >= MAX_EVENTS) {
			snprintf(err, errsz, "--%s: too many events", what);
			return -1;
		}
		out[(*n)++] = ev;
		s += len;
		if (*s == ',')
			s++;
	}
	if (*n == 0) {
		snprintf(err, errsz, "--%s needs at least one event", what);
		return -1;
	}
	return 0;
}

/* ---- column printer ----------------------------------------------------------- */

struct ccp {
	FILE *out;
	const struct profile *p;
	const struct report_opts *o;
	const cost_t *summary; /* nevents */
	const int *show;
	int nshow;
	const char *prefix;
	int count_w[MAX_EVENTS], perc1_w[MAX_EVENTS], perc2_w[MAX_EVENTS];
};

static double perc(cost_t n, cost_t s)
{
	return (double)((long double)n * 100.0L / (long double)s);
}

/* count and percentage strings of cc[e]; cum != NULL means an outer CC */
static void cc_strs(const struct ccp *c, const cost_t *cc, const cost_t *cum, int e, char *count,
		    char *p1, char *p2)
{
	format_count(count, 40, cc[e]);
	p1[0] = p2[0] = 0;
	if (!c->o->show_percs)
		return;
	cost_t s = c->summary[e];
	if (!cum) {
		if (cc[e] == 0)
			return;
		if (s == 0)
			strcpy(p1, " (n/a)");
		else
			sprintf(p1, " (%.1f%%)", perc(cc[e], s));
	} else {
		if (s == 0) {
			strcpy(p1, " (n/a,");
			strcpy(p2, " n/a)");
		} else {
			sprintf(p1, " (%.1f%%,", perc(cc[e], s));
			sprintf(p2, " %.1f%%)", perc(cum[e], s));
		}
	}
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static void ccp_init(struct ccp *c, const cost_t *min, const cost_t *max, const cost_t *mincum,
		     const cost_t *maxcum)
{
	char a[40], b[40], d[40], x[40], y[40], z[40];
	for (int k = 0; k < c->nshow; k++) {
		int e = c->show[k];
		cc_strs(c, min, mincum, e, a, b, d);
		cc_strs(c, max, maxcum, e, x, y, z);
		c->count_w[e] = imax((int)strlen(a), (int)strlen(x));
		c->perc1_w[e] = imax((int)strlen(b), (int)strlen(y));
		c->perc2_w[e] = imax((int)strlen(d), (int)strlen(z));
	}
}

/* The least and greatest of the first n events (n is p->nevents unless the
 * vectors leave out derived events no one uses). */
static void extremes(int n, const cost_t *cc, cost_t *min, cost_t *max)
{
	for (int e = 0; e < n; e++) {
		if (cc[e] < min[e])
			min[e] = cc[e];
		if (cc[e] > max[e])
			max[e] = cc[e];
	}
}

static void cell(const struct ccp *c, int e, const char *count, const char *p1, const char *p2)
{
	int ew = (int)strlen(c->p->ev[e].name);
	int pre = imax(0, ew - c->count_w[e] - c->perc1_w[e] - c->perc2_w[e]);
	fprintf(c->out, "%*s%*s%*s%*s ", pre, "", c->count_w[e], count, c->perc1_w[e], p1,
		c->perc2_w[e], p2);
}

static void print_events(const struct ccp *c, const char *suffix)
{
	fputs(c->prefix, c->out);
	for (int k = 0; k < c->nshow; k++) {
		int e = c->show[k];
		const char *name = c->p->ev[e].name;
		int w = imax((int)strlen(name), c->count_w[e] + c->perc1_w[e] + c->perc2_w[e]);
		fputs(name, c->out);
		for (int i = (int)strlen(name); i < w; i++)
			fputc('_', c->out);
		fputc(' ', c->out);
	}
	fprintf(c->out, "%s\n", suffix);
}

static void print_cc(const struct ccp *c, const cost_t *cc, const cost_t *cum, const char *suffix)
{
	char a[40], b[40], d[40];
	for (int k = 0; k < c->nshow; k++) {
		cc_strs(c, cc, cum, c->show[k], a, b, d);
		cell(c, c->show[k], a, b, d);
	}
	fprintf(c->out, " %s\n", suffix);
}

static void print_missing(const struct ccp *c, const char *suffix)
{
	for (int k = 0; k < c->nshow; k++)
		cell(c, c->show[k], ".", "", "");
	fprintf(c->out, " %s\n", suffix);
}

static void fancy(FILE *out, const char *title)
{
	static const char dashes[] =
		"--------------------------------------------------------------------------------";
	fprintf(out, "%s\n-- %s\n%s\n", dashes, title, dashes);
}

/* ---- expanded cost vectors (real + derived events) ------------------------------ */

/* The derived events the report uses (shown or sorted) are computed; the
 * others stay 0 (o->used_derived, set by report_write). */
static void expand_into(const struct report_opts *o, const struct profile *p, const cost_t *real,
			cost_t *x)
{
	memcpy(x, real, sizeof(cost_t) * (size_t)p->nreal);
	for (int e = p->nreal; e < p->nevents; e++)
		x[e] = o->used_derived >> e & 1 ? event_value(p, real, e) : 0;
}

static cost_t *expand(const struct report_opts *o, const struct profile *p, const cost_t *real)
{
	cost_t *x = xcalloc((size_t)p->nevents, sizeof(cost_t));
	expand_into(o, p, real, x);
	return x;
}

static void add_to(cost_t *dst, const cost_t *src, int n)
{
	for (int e = 0; e < n; e++)
		dst[e] = cost_add(dst[e], src[e]);
}

/* ---- file:function / function:file sections ------------------------------------- */

struct inner {
	const char *name;
	cost_t *cc;
	int kept;
};
struct group {
	const char *name;
	uint32_t id;
	uint32_t fnid; /* the function, when a group is one function */
	cost_t *outer;
	struct inner *in;
	int nin, capin, nkept;
	int kept;
};

/* The report's order: rank_cmp over the sort events, cg_annotate's ties. */
static int cmp_cc_name(const cost_t *a, const char *an, const cost_t *b, const char *bn,
		       const struct report_opts *o)
{
	struct rank_key x = { a, an, 0 }, y = { b, bn, 0 };
	struct rank_order ord = { o->sort, o->nsort, RANK_REPORT };
	return rank_cmp(&x, &y, &ord);
}

static int cmp_inner(const void *x, const void *y, void *o)
{
	const struct inner *a = x, *b = y;
	return cmp_cc_name(a->cc, a->name, b->cc, b->name, o);
}

static int cmp_group(const void *x, const void *y, void *o)
{
	const struct group *a = x, *b = y;
	return cmp_cc_name(a->outer, a->name, b->outer, b->name, o);
}

/* The threshold, on an expanded cost vector: rank_shown of the primary
 * sort event against the summary's. */
static int above(const struct report_opts *o, const cost_t *summary, const cost_t *cc)
{
	int e = o->sort[0];
	struct rank_thr t = rank_threshold_of(summary[e], o->threshold);
	return rank_shown(&t, cc[e]);
}

struct section {
	struct group *g;
	int ng;
	int ccw;               /* the entries' cost vectors have this many events */
	struct inner *pool_in; /* when set, every group's entries live here */
	cost_t *pool_cc;       /* and their cost vectors here */
	cost_t *pool_outer;    /* and the groups' */
};

/* Drops the entries of a section whose groups are all that is still needed. */
static void section_drop_entries(struct section *s)
{
	if (!s->pool_in)
		return;
	free(s->pool_in);
	free(s->pool_cc);
	s->pool_cc = NULL;
	s->pool_in = xcalloc(1, sizeof(*s->pool_in));
	for (int i = 0; i < s->ng; i++) {
		s->g[i].in = s->pool_in;
		s->g[i].nin = 0;
	}
}

static void section_free(struct section *s)
{
	if (!s->pool_in) {
		for (int i = 0; i < s->ng; i++) {
			for (int k = 0; k < s->g[i].nin; k++)
				free(s->g[i].in[k].cc);
			free(s->g[i].in);
			free(s->g[i].outer);
		}
	}
	free(s->pool_in);
	free(s->pool_cc);
	free(s->pool_outer);
	free(s->g);
	memset(s, 0, sizeof(*s));
}

/* Is the real cost vector c's sort event above the threshold (above(),
 * without expanding c)? */
static int real_above(const struct profile *p, const struct report_opts *o, const cost_t *summary,
		      const cost_t *c)
{
	int e = o->sort[0];
	cost_t x[MAX_EVENTS];
	x[e] = e < p->nreal ? c[e] : event_value(p, c, e);
	return above(o, summary, x);
}

/* Builds groups keyed by `by_file` (file:function) or by function name.
 * Inner entries and cost vectors come from two pools (s->pool_*).  All the
 * files are kept (the annotation sums those below the threshold), but only
 * the names with an entry above the threshold: the others would never be
 * shown, and a profile may have millions.  Likewise a file with no entry
 * above the threshold is never shown: it gets its total and no entries. */
static void build_section(struct profile *p, const struct filefn *ff, size_t nff, int by_file,
			  const struct report_opts *o, const cost_t *summary, struct section *s)
{
	size_t ne = (size_t)p->nevents;
	uint32_t nkeys = by_file ? p->files.n : p->names.n;
	int *gi = xmalloc(((size_t)nkeys + 1) * sizeof(int));
	for (uint32_t k = 0; k < nkeys; k++)
		gi[k] = by_file ? -2 : -1; /* -2: wanted */
	/* by file: the files with an entry above the threshold */
	uint8_t *full = by_file ? xcalloc((size_t)nkeys + 1, 1) : NULL;
	for (size_t i = 0; i < nff; i++) {
		if (by_file ? full[ff[i].file] : gi[ff[i].name] == -2)
			continue;
		if (real_above(p, o, summary, ff[i].cost)) {
			if (by_file)
				full[ff[i].file] = 1;
			else
				gi[ff[i].name] = -2;
		}
	}
	/* pass 1: groups and their sizes */
	s->ng = 0;
	size_t nin = 0;
	for (size_t i = 0; i < nff; i++) {
		uint32_t key = by_file ? ff[i].file : ff[i].name;
		if (gi[key] == -2)
			gi[key] = s->ng++;
		nin += gi[key] >= 0 && (!full || full[key]);
	}
	s->g = xcalloc((size_t)s->ng + 1, sizeof(*s->g));
	s->pool_in = xcalloc(nin + 1, sizeof(*s->pool_in));
	/* without derived events in use an entry's costs are ff's own (which
	 * must outlive the section's entries); otherwise expanded copies */
	int share = p->nreal == MAX_EVENTS || !(o->used_derived >> p->nreal);
	s->ccw = share ? p->nreal : p->nevents;
	s->pool_cc = share ? NULL : xcalloc((nin + 1) * ne, sizeof(cost_t));
	s->pool_outer = xcalloc(((size_t)s->ng + 1) * ne, sizeof(cost_t));
	for (size_t i = 0; i < nff; i++) {
		uint32_t key = by_file ? ff[i].file : ff[i].name;
		if (gi[key] >= 0 && (!full || full[key]))
			s->g[gi[key]].capin++;
	}
	size_t off = 0;
	for (int k = 0; k < s->ng; k++) {
		s->g[k].in = s->pool_in + off;
		off += (size_t)s->g[k].capin;
		s->g[k].outer = s->pool_outer + (size_t)k * ne;
		s->g[k].fnid = NO_ID;
	}
	/* pass 2: fill */
	cost_t *tmp = share ? NULL : xcalloc(ne + 1, sizeof(cost_t));
	for (size_t i = 0, j = 0; i < nff; i++) {
		uint32_t key = by_file ? ff[i].file : ff[i].name;
		if (gi[key] < 0)
			continue;
		struct group *g = &s->g[gi[key]];
		g->id = key;
		g->name = by_file ? p->files.str[key] : p->names.str[key];
		const cost_t *cc;
		if (full && !full[key]) { /* counted in the total only */
			if (!share)
				expand_into(o, p, ff[i].cost, tmp);
			cc = share ? ff[i].cost : tmp;
		} else {
			struct inner *in = &g->in[g->nin++];
			in->name = by_file ? p->names.str[ff[i].name] : p->files.str[ff[i].file];
			if (share) {
				in->cc = ff[i].cost;
			} else {
				in->cc = s->pool_cc + j++ * ne;
				expand_into(o, p, ff[i].cost, in->cc);
			}
			cc = in->cc;
		}
		for (int e = 0; e < s->ccw; e++)
			g->outer[e] = cost_add(g->outer[e], cc[e]);
	}
	free(tmp);
	free(full);
	free(gi);
}

/* Applies the threshold and sorts.  Inclusive groups are kept on their
 * own.  Every reader skips what is not kept, so only the kept entries and
 * groups are sorted, moved to the front first: with a million functions
 * and a threshold, most are not. */
static void select_section(struct section *s, const struct report_opts *o, const cost_t *summary,
			   int group_threshold)
{
	int nk = 0;
	for (int i = 0; i < s->ng; i++) {
		struct group *g = &s->g[i];
		g->nkept = 0;
		for (int k = 0; k < g->nin; k++) {
			g->in[k].kept = above(o, summary, g->in[k].cc);
			if (g->in[k].kept) {
				struct inner t = g->in[k];
				g->in[k] = g->in[g->nkept];
				g->in[g->nkept++] = t;
			}
		}
		g->kept = group_threshold ? above(o, summary, g->outer) : g->nkept > 0;
		if (!g->kept)
			continue;
		if (g->nkept > 1)
			qsort_r(g->in, (size_t)g->nkept, sizeof(*g->in), cmp_inner, (void *)o);
		struct group t = *g;
		*g = s->g[nk];
		s->g[nk++] = t;
	}
	if (nk > 1)
		qsort_r(s->g, (size_t)nk, sizeof(*s->g), cmp_group, (void *)o);
}

static void print_section(FILE *out, struct profile *p, const struct report_opts *o,
			  const cost_t *summary, const struct section *s, const char *title,
			  const char *label, const char *mark, int cumulative)
{
	int ne = p->nevents;
	cost_t *min = xcalloc((size_t)ne, sizeof(cost_t)), *max = xcalloc((size_t)ne, sizeof(cost_t));
	cost_t *minc = xcalloc((size_t)ne, sizeof(cost_t)), *maxc = xcalloc((size_t)ne, sizeof(cost_t));
	cost_t *cum = xcalloc((size_t)ne, sizeof(cost_t));
	for (int i = 0; i < s->ng; i++) {
		const struct group *g = &s->g[i];
		if (!g->kept)
			continue;
		extremes(ne, g->outer, min, max);
		for (int k = 0; k < g->nin; k++)
			if (g->in[k].kept)
				extremes(s->ccw, g->in[k].cc, min, max);
		for (int e = 0; e < ne; e++)
			cum[e] = cost_add(cum[e], g->outer[e]);
		extremes(p->nevents, cum, minc, maxc);
	}
	struct ccp c = { .out = out, .p = p, .o = o, .summary = summary, .show = o->show,
			 .nshow = o->nshow, .prefix = "  " };
	ccp_init(&c, min, max, cumulative ? minc : NULL, cumulative ? maxc : NULL);
	fancy(out, title);
	char suffix[64];
	snprintf(suffix, sizeof(suffix), " %s", label);
	print_events(&c, suffix);
	fputc('\n', out);
	memset(cum, 0, sizeof(cost_t) * (size_t)ne);
	int first = 1;
	for (int i = 0; i < s->ng; i++) {
		const struct group *g = &s->g[i];
		if (!g->kept)
			continue;
		if (!first)
			fputc('\n', out);
		first = 0;
		for (int e = 0; e < ne; e++)
			cum[e] = cost_add(cum[e], g->outer[e]);
		fputs(mark, out);
		const struct inner *only = NULL;
		if (g->nkept == 1)
			for (int k = 0; k < g->nin; k++)
				if (g->in[k].kept)
					only = &g->in[k];
		if (only && memcmp(only->cc, g->outer, sizeof(cost_t) * (size_t)s->ccw) == 0) {
			char *t = xasprintf("%s:%s", g->name, only->name);
			print_cc(&c, g->outer, cumulative ? cum : NULL, t);
			free(t);
		} else {
			char *t = xasprintf("%s:", g->name);
			print_cc(&c, g->outer, cumulative ? cum : NULL, t);
			free(t);
			for (int k = 0; k < g->nin; k++) {
				if (!g->in[k].kept)
					continue;
				fputs("  ", out);
				t = xasprintf("  %s", g->in[k].name);
				print_cc(&c, g->in[k].cc, NULL, t);
				free(t);
			}
		}
	}
	fputc('\n', out);
	free(min);
	free(max);
	free(minc);
	free(maxc);
	free(cum);
}

struct fnfile_key {
	uint32_t fn, file, k;
};

static int cmp_fnfile_key(const void *x, const void *y)
{
	const struct fnfile_key *a = x, *b = y;
	if (a->fn != b->fn)
		return a->fn < b->fn ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* Function:file with inclusive costs on the group lines: one group per
 * function (an inclusive cost belongs to one function, not to a name shared
 * by several objects), its files' self costs below: the blocks' subtotals
 * per file (ls.ff, ls.ffcost) put in (function, file) order and summed (the
 * formulas of derived events are linear: expanding the sum is the same). */
static void inclusive_section(struct profile *p, const struct report_opts *o, struct section *s)
{
	const struct agg *a = profile_agg(p);
	const struct linestore *ls = &p->ls;
	int ne = p->nevents, nr = p->nreal;
	s->g = xcalloc((size_t)p->nfns + 1, sizeof(*s->g));
	s->ng = (int)p->nfns;
	s->ccw = ne;
	for (uint32_t f = 0; f < p->nfns; f++) {
		struct group *g = &s->g[f];
		g->id = p->fns[f].name;
		g->fnid = f;
		g->name = fn_name(p, f);
		g->outer = expand(o, p, agg_incl(a, f));
	}
	struct fnfile_key *key = xmalloc(((size_t)ls->nff + 1) * sizeof(*key));
	for (uint32_t k = 0; k < ls->nff; k++)
		key[k] = (struct fnfile_key){ ls->ff[k].fn, ls->ff[k].file, k };
	if (ls->nff > 1)
		qsort(key, ls->nff, sizeof(*key), cmp_fnfile_key);
	cost_t sum[MAX_EVENTS];
	for (uint32_t i = 0; i < ls->nff;) {
		uint32_t j = i;
		memset(sum, 0, sizeof(cost_t) * (size_t)nr);
		for (; j < ls->nff && key[j].fn == key[i].fn && key[j].file == key[i].file; j++)
			add_to(sum, &ls->ffcost[(size_t)key[j].k * (size_t)nr], nr);
		struct group *g = &s->g[key[i].fn];
		VEC_RESERVE(g->in, g->capin, g->nin + 1);
		g->in[g->nin].name = file_name(p, key[i].file);
		g->in[g->nin].cc = expand(o, p, sum);
		g->nin++;
		i = j;
	}
	free(key);
}

/* ---- callers and callees (--tree) ------------------------------------------------ */

/* callgrind_annotate's "file:function [object]" around the one label; a
 * cycle is "<cycle N>", a call into one "<cycle N> via file:member [object]" */
static char *fn_where(struct profile *p, uint32_t id, uint32_t via)
{
	if (agg_is_cycle(p->agg, id)) {
		if (via == NO_ID)
			return fn_label(p, id);
		char *m = fn_where(p, via, NO_ID), *c = strstr(m, " <cycle "), *r;
		if (c) /* the member's own <cycle N> is said first */
			memmove(c, strchr(c, '>') + 1, strlen(strchr(c, '>') + 1) + 1);
		r = xasprintf("<cycle %u> via %s", agg_cycle_no(p->agg, id), m);
		free(m);
		return r;
	}
	char *l = fn_label(p, id), *r;
	const char *obj = obj_name(p, p->fns[id].obj);
	if (*obj)
		r = xasprintf("%s:%s [%s]", file_name(p, p->fns[id].file), l, obj);
	else
		r = xasprintf("%s:%s", file_name(p, p->fns[id].file), l);
	free(l);
	return r;
}

/* A caller or callee with its costs expanded for printing. */
struct xedge {
	uint32_t fn, via;
	enum call_kind kind;
	cost_t count;
	cost_t *cc;
	char *name;
};

/* by cost (the report's order); calls without a cost (the cycle rule) last,
 * the most made first */
static int cmp_xedge(const void *x, const void *y, void *o)
{
	const struct xedge *a = x, *b = y;
	int ca = call_kind_costed(a->kind), cb = call_kind_costed(b->kind);
	if (ca != cb)
		return ca ? -1 : 1;
	if (!ca && a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return cmp_cc_name(a->cc, a->name, b->cc, b->name, o);
}

static int collect_edges(struct profile *p, const struct report_opts *o, uint32_t f, int callers,
			 struct xedge **out)
{
	struct edge *ed;
	int n = query_edges(p, f, callers, &ed);
	struct xedge *x = xcalloc((size_t)n + 1, sizeof(*x));
	for (int i = 0; i < n; i++) {
		x[i].fn = ed[i].fn;
		x[i].via = ed[i].via;
		x[i].kind = ed[i].kind;
		x[i].count = ed[i].count;
		x[i].name = fn_where(p, ed[i].fn, ed[i].via);
		x[i].cc = expand(o, p, ed[i].cost);
	}
	free(ed);
	if (n)
		qsort_r(x, (size_t)n, sizeof(*x), cmp_xedge, (void *)o);
	*out = x;
	return n;
}

static void xedges_free(struct xedge *x, int n)
{
	for (int k = 0; k < n; k++) {
		free(x[k].cc);
		free(x[k].name);
	}
	free(x);
}

static void print_tree(FILE *out, struct profile *p, const struct report_opts *o,
		       const cost_t *summary, const struct section *s)
{
	const struct agg *a = profile_agg(p);
	int ne = p->nevents;
	/* the functions of each name, in function order (CSR over name ids):
	 * a group of a name stands for all of them */
	uint32_t nn = p->names.n;
	uint32_t *by_name = xcalloc((size_t)nn + 2, sizeof(*by_name));
	uint32_t *fns = xmalloc(((size_t)p->nfns + 1) * sizeof(*fns));
	for (uint32_t f = 0; f < p->nfns; f++)
		by_name[p->fns[f].name + 1]++;
	for (uint32_t k = 0; k < nn; k++)
		by_name[k + 1] += by_name[k];
	for (uint32_t f = 0; f < p->nfns; f++)
		fns[by_name[p->fns[f].name]++] = f;
	for (uint32_t k = nn; k > 0; k--) /* back to the starts */
		by_name[k] = by_name[k - 1];
	by_name[0] = 0;
	/* the functions behind the kept groups, in the section's order */
	uint32_t *list = xmalloc(((size_t)p->nfns + 1) * sizeof(*list));
	size_t nl = 0;
	for (int i = 0; i < s->ng; i++) {
		const struct group *g = &s->g[i];
		if (!g->kept)
			continue;
		if (g->fnid != NO_ID) {
			list[nl++] = g->fnid;
			continue;
		}
		for (uint32_t k = by_name[g->id]; k < by_name[g->id + 1]; k++)
			list[nl++] = fns[k];
	}
	free(by_name);
	free(fns);
	/* widths over everything printed */
	cost_t *min = xcalloc((size_t)ne, sizeof(cost_t)), *max = xcalloc((size_t)ne, sizeof(cost_t));
	for (size_t i = 0; i < nl; i++) {
		cost_t *x = expand(o, p, agg_incl(a, list[i]));
		extremes(p->nevents, x, min, max);
		free(x);
		for (int side = 0; side < 2; side++) {
			struct xedge *ed;
			int n = collect_edges(p, o, list[i], side == 0, &ed);
			for (int k = 0; k < n; k++)
				if (call_kind_costed(ed[k].kind))
					extremes(p->nevents, ed[k].cc, min, max);
			xedges_free(ed, n);
		}
	}
	struct ccp c = { .out = out, .p = p, .o = o, .summary = summary, .show = o->show,
			 .nshow = o->nshow, .prefix = "  " };
	ccp_init(&c, min, max, NULL, NULL);
	fancy(out, "Callers and callees (inclusive costs of calls)");
	print_events(&c, "  function");
	for (size_t i = 0; i < nl; i++) {
		uint32_t f = list[i];
		fputc('\n', out);
		for (int side = 0; side < 2; side++) {
			if (side == 0 && !(o->tree & TREE_CALLER))
				continue;
			if (side == 1) {
				cost_t *x = expand(o, p, agg_incl(a, f));
				char *l = fn_where(p, f, NO_ID), *t = xasprintf("* %s", l);
				fputs("  ", out);
				print_cc(&c, x, NULL, t);
				free(t);
				free(l);
				free(x);
				if (!(o->tree & TREE_CALLING))
					continue;
			}
			struct xedge *ed;
			int n = collect_edges(p, o, f, side == 0, &ed);
			for (int k = 0; k < n; k++) {
				char note[32];
				const char *nc = call_kind_text(note, sizeof(note), ed[k].kind,
								agg_cycle_no(a, f), 99);
				char *t = xasprintf("%s %s (%lldx)%s%s", side == 0 ? "<" : ">",
						    ed[k].name, (long long)ed[k].count, nc ? " " : "",
						    nc ? nc : "");
				fputs("  ", out);
				if (nc) /* no share of the total: the cycle rule */
					print_missing(&c, t);
				else
					print_cc(&c, ed[k].cc, NULL, t);
				free(t);
			}
			xedges_free(ed, n);
		}
	}
	fputc('\n', out);
	free(list);
	free(min);
	free(max);
}

/* ---- annotated source ------------------------------------------------------------- */

struct lcc {
	uint32_t line;
	cost_t *cc; /* expanded */
};

static int cmp_str_ptr(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

enum { B_ANN_KNOWN, B_ANN_LINE0, B_NONIDENT, B_UNREADABLE, B_BELOW, B_UNKNOWN, B_N };

static void warn_box(FILE *out)
{
	static const char at[] =
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
	fprintf(out, "%s\n@@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@ WARNING @@\n%s\n",
		at, at);
}

static void at_line(FILE *out)
{
	fputs("@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n",
	      out);
}

/* Annotates one file (its rows made by srcannot); adds its costs to the
 * buckets. */
static void annotate(FILE *out, struct profile *p, const struct report_opts *o,
		     const cost_t *summary, uint32_t file, cost_t *buckets[B_N])
{
	int ne = p->nevents, nr = p->nreal;
	struct srcann_opts so = { .look = o->look, .dirs = o->src_dirs, .ndirs = o->nsrc_dirs,
				  .modfile = o->modfile, .fn = NO_ID, .entry = NO_ID, .event = 0,
				  .thr = NULL,
				  .context = o->context < 0 ? 0 : o->context, .calls = 0 };
	struct srcann a;
	srcann_build(&a, p, file, &so);
	/* the lines' costs, expanded for printing */
	cost_t *cc = xcalloc(((size_t)a.ncost + 1) * (size_t)ne, sizeof(cost_t));
	for (uint32_t i = 0; i < a.ncost; i++)
		expand_into(o, p, &a.pool[(size_t)i * nr], &cc[(size_t)i * ne]);

	char *title = xasprintf("Annotated source file: %s", a.name);
	fancy(out, title);
	free(title);

	if (a.status != SA_OK) {
		int b = a.status == SA_NONIDENT ? B_NONIDENT : B_UNREADABLE;
		fprintf(out, "Unannotated because %s of these original files are %s:\n",
			b == B_UNREADABLE ? "one or more" : "two or more",
			b == B_UNREADABLE ? "unreadable" : "not identical");
		for (size_t i = 0; i < a.norig; i++)
			fprintf(out, "- %s\n", a.orig[i]);
		fputc('\n', out);
		for (uint32_t i = 0; i < a.ncost; i++)
			add_to(buckets[b], &cc[(size_t)i * ne], ne);
		free(cc);
		srcann_free(&a);
		return;
	}
	for (int k = 0; k < a.nnewer; k++) {
		warn_box(out);
		fprintf(out, "@ Original source files are all newer than data file '%s':\n",
			p->sources[a.newer[k]]);
		for (size_t i = 0; i < a.norig; i++)
			fprintf(out, "@ - %s\n", a.orig[i]);
		fputs("@ Annotations may not be correct.\n", out);
		at_line(out);
		fputc('\n', out);
	}

	/* widths over every line CC of the file */
	cost_t *min = xcalloc((size_t)ne, sizeof(cost_t)), *max = xcalloc((size_t)ne, sizeof(cost_t));
	for (uint32_t i = 0; i < a.ncost; i++)
		extremes(p->nevents, &cc[(size_t)i * ne], min, max);
	struct ccp c = { .out = out, .p = p, .o = o, .summary = summary, .show = o->show,
			 .nshow = o->nshow, .prefix = "" };
	ccp_init(&c, min, max, NULL, NULL);
	free(min);
	free(max);
	print_events(&c, "");
	fputc('\n', out);

	/* a row's expanded cost: its place in the line costs */
	#define ROWCC(r) (&cc[(size_t)((r)->cost - a.pool) / (size_t)nr * (size_t)ne])
	const struct srcfile *sf = &a.sf;
	int eof = 0, nbogus = 0;
	for (size_t i = 0; i < a.nrows; i++) {
		const struct srcann_row *r = &a.rows[i];
		switch (r->kind) {
		case SA_LINE0:
			print_cc(&c, ROWCC(r), NULL, "<unknown (line 0)>");
			fputc('\n', out);
			add_to(buckets[B_ANN_LINE0], ROWCC(r), ne);
			break;
		case SA_LINE: {
			const struct srcann_range *g = &a.ranges[r->range];
			if (r->line == g->lo && g->lo != 1)
				fprintf(out, "-- line %u ----------------------------------------\n", g->lo);
			if (r->cost) {
				print_cc(&c, ROWCC(r), NULL, sf->line[r->line - 1]);
				add_to(buckets[B_ANN_KNOWN], ROWCC(r), ne);
			} else {
				print_missing(&c, sf->line[r->line - 1]);
			}
			/* the range ends: its last line, unless the file did */
			if (r->line == g->hi)
				fprintf(out, "-- line %u ----------------------------------------\n", g->hi);
			else if (r->line == sf->nlines)
				eof = 1;
			break;
		}
		case SA_PAST:
			if (!nbogus++)
				fputc('\n', out);
			{
				char lab[64];
				snprintf(lab, sizeof(lab), "<bogus line %u>", r->line);
				print_cc(&c, ROWCC(r), NULL, lab);
				add_to(buckets[B_ANN_KNOWN], ROWCC(r), ne);
			}
			break;
		default:
			break;
		}
	}
	#undef ROWCC
	(void)eof;
	if (nbogus) {
		fputc('\n', out);
		warn_box(out);
		fprintf(out, "@@ Information recorded about lines past the end of '%s'.\n", a.orig[0]);
		at_line(out);
	}
	if (a.picked_any)
		fputc('\n', out);
	free(cc);
	srcann_free(&a);
}

static void annotate_all(FILE *out, struct profile *p, const struct report_opts *o,
			 const cost_t *summary, const struct section *ffs)
{
	int ne = p->nevents;
	cost_t *buckets[B_N];
	for (int b = 0; b < B_N; b++)
		buckets[b] = xcalloc((size_t)ne, sizeof(cost_t));
	/* files printed in File:function, by name */
	const char **names = xmalloc(((size_t)ffs->ng + 1) * sizeof(*names));
	uint8_t *printed = xcalloc((size_t)p->files.n + 1, 1);
	int nn = 0;
	for (int i = 0; i < ffs->ng; i++) {
		if (!ffs->g[i].kept)
			continue;
		printed[ffs->g[i].id] = 1;
		if (strcmp(ffs->g[i].name, "???") != 0)
			names[nn++] = ffs->g[i].name;
	}
	qsort(names, (size_t)nn, sizeof(*names), cmp_str_ptr);
	for (int i = 0; i < nn; i++)
		annotate(out, p, o, summary, strtab_find(&p->files, names[i], strlen(names[i])),
			 buckets);
	/* the rest: unknown file, files below the threshold */
	for (int i = 0; i < ffs->ng; i++) {
		const struct group *g = &ffs->g[i];
		int b;
		if (strcmp(g->name, "???") == 0)
			b = B_UNKNOWN;
		else if (!printed[g->id])
			b = B_BELOW;
		else
			continue;
		add_to(buckets[b], g->outer, ne);
	}
	cost_t *min = xcalloc((size_t)ne, sizeof(cost_t)), *max = xcalloc((size_t)ne, sizeof(cost_t));
	for (int b = 0; b < B_N; b++)
		extremes(p->nevents, buckets[b], min, max);
	struct ccp c = { .out = out, .p = p, .o = o, .summary = summary, .show = o->show,
			 .nshow = o->nshow, .prefix = "" };
	ccp_init(&c, min, max, NULL, NULL);
	fancy(out, "Annotation summary");
	print_events(&c, "");
	fputc('\n', out);
	static const char *const label[B_N] = {
		"  annotated: files known & above threshold & readable, line numbers known",
		"  annotated: files known & above threshold & readable, line numbers unknown",
		"unannotated: files known & above threshold & two or more non-identical",
		"unannotated: files known & above threshold & unreadable ",
		"unannotated: files known & below threshold",
		"unannotated: files unknown",
	};
	for (int b = 0; b < B_N; b++)
		print_cc(&c, buckets[b], NULL, label[b]);
	fputc('\n', out);
	for (int b = 0; b < B_N; b++)
		free(buckets[b]);
	free(min);
	free(max);
	free(names);
	free(printed);
}

/* ---- the whole report ----------------------------------------------------------------- */

/* The desc: lines of the i-th profile file, each ended by a newline. */
static const char *source_desc(const struct profile *p, int i)
{
	return i < p->nsource_desc && p->source_desc[i] ? p->source_desc[i] : "";
}

void report_write(FILE *out, struct profile *p, const struct report_opts *oin)
{
	struct report_opts o = *oin;
	if (o.nshow == 0) {
		o.nshow = p->nreal;
		for (int e = 0; e < p->nreal; e++)
			o.show[e] = e;
	}
	if (o.nsort == 0) { /* cg_annotate: all events, in the file's order */
		o.nsort = p->nreal;
		for (int e = 0; e < p->nreal; e++)
			o.sort[e] = e;
	}
	o.used_derived = 0;
	for (int k = 0; k < o.nshow; k++)
		o.used_derived |= (uint64_t)1 << o.show[k];
	for (int k = 0; k < o.nsort; k++)
		o.used_derived |= (uint64_t)1 << o.sort[k];
	cost_t *summary = expand(&o, p, p->totals);

	/* Metadata */
	fancy(out, "Metadata");
	if (o.invocation)
		fprintf(out, "Invocation:       %s\n", o.invocation);
	/* each file's desc: lines, once when they are all the same */
	int same_desc = 1;
	for (int i = 1; i < p->nsources; i++)
		same_desc &= strcmp(source_desc(p, i), source_desc(p, 0)) == 0;
	if (same_desc) {
		for (int i = 0; i < p->ndesc; i++)
			fprintf(out, "%s\n", p->desc[i]);
	} else {
		for (int i = 0; i < p->nsources; i++)
			fprintf(out, "Description %d:\n%s", i + 1, source_desc(p, i));
	}
	if (p->nsources <= 1) {
		fprintf(out, "Command:          %s\n", p->cmd ? p->cmd : "");
	} else {
		const char *prev = NULL;
		int k = 0;
		for (int i = 0; i < p->nparts; i++) {
			if (i && strcmp(p->parts[i].source, p->parts[i - 1].source) == 0)
				continue;
			const char *cmd = p->parts[i].cmd ? p->parts[i].cmd : "";
			k++;
			char lab[32];
			snprintf(lab, sizeof(lab), "Command %d:", k);
			if (prev && strcmp(prev, cmd) == 0)
				fprintf(out, "%-17s (same as Command %d)\n", lab, k - 1);
			else
				fprintf(out, "%-17s %s\n", lab, cmd);
			prev = cmd;
		}
	}
	fputs("Events recorded: ", out);
	for (int e = 0; e < p->nreal; e++)
		fprintf(out, " %s", p->ev[e].name);
	fputs("\nEvents shown:    ", out);
	for (int k = 0; k < o.nshow; k++)
		fprintf(out, " %s", p->ev[o.show[k]].name);
	fputs("\nEvent sort order:", out);
	for (int k = 0; k < o.nsort; k++)
		fprintf(out, " %s", p->ev[o.sort[k]].name);
	char th[64];
	format_threshold(th, sizeof(th), o.threshold);
	fprintf(out, "\nThreshold:        %s%%\n", th);
	fprintf(out, "Annotation:       %s\n", o.annotate ? "on" : "off");
	fputc('\n', out);

	/* Summary */
	{
		cost_t *zero = xcalloc((size_t)p->nevents, sizeof(cost_t));
		cost_t *mn = xcalloc((size_t)p->nevents, sizeof(cost_t));
		cost_t *mx = xcalloc((size_t)p->nevents, sizeof(cost_t));
		extremes(p->nevents, summary, mn, mx);
		struct ccp c = { .out = out, .p = p, .o = &o, .summary = summary, .show = o.show,
				 .nshow = o.nshow, .prefix = "" };
		ccp_init(&c, mn, mx, NULL, NULL);
		fancy(out, "Summary");
		print_events(&c, "");
		fputc('\n', out);
		print_cc(&c, summary, NULL, "PROGRAM TOTALS");
		fputc('\n', out);
		free(zero);
		free(mn);
		free(mx);
	}

	/* one section at a time: a profile may have a million functions */
	size_t nff;
	struct filefn *ff = agg_filefn(p, &nff);
	struct section byfile = { 0 }, byfn = { 0 };
	build_section(p, ff, nff, 1, &o, summary, &byfile);
	select_section(&byfile, &o, summary, 0);
	print_section(out, p, &o, summary, &byfile, "File:function summary", "file:function", "< ",
		      1);
	section_drop_entries(&byfile); /* annotation needs the files only */
	if (o.inclusive) {
		filefn_free(ff, nff);
		ff = NULL;
		nff = 0;
		inclusive_section(p, &o, &byfn);
		select_section(&byfn, &o, summary, 1);
		print_section(out, p, &o, summary, &byfn,
			      "Function:file summary (inclusive costs on function lines)",
			      "function:file", "> ", 0);
	} else {
		build_section(p, ff, nff, 0, &o, summary, &byfn);
		select_section(&byfn, &o, summary, 0);
		print_section(out, p, &o, summary, &byfn, "Function:file summary", "function:file",
			      "> ", 1);
	}
	if (o.tree)
		print_tree(out, p, &o, summary, &byfn);
	section_free(&byfn);
	filefn_free(ff, nff); /* after the sections that may point into it */
	if (o.annotate)
		annotate_all(out, p, &o, summary, &byfile);
	section_free(&byfile);
	free(summary);
}
