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
#include "profile/load.h"
#include "profile/modname.h"
#include "profile/query.h"
#include "profile/format.h"
#include "profile/grouping.h"
#include "profile/rank.h"
#include "profile/scope.h"
#include "source/srcannot.h"
#include "source/srcfile.h"
#include "report_int.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
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

/* ---- file:function / function:file sections ------------------------------------- */


/* The report's order: rank_cmp over the sort events, cg_annotate's ties. */
int rep_cmp_cc_name(const cost_t *a, const char *an, const cost_t *b, const char *bn,
		       const struct report_opts *o)
{
	struct rank_key x = { a, an, 0 }, y = { b, bn, 0 };
	struct rank_order ord = { o->sort, o->nsort, RANK_REPORT };
	return rank_cmp(&x, &y, &ord);
}

static int cmp_inner(const void *x, const void *y, void *o)
{
	const struct sec_entry *a = x, *b = y;
	return rep_cmp_cc_name(a->cc, a->name, b->cc, b->name, o);
}

static int cmp_group(const void *x, const void *y, void *o)
{
	const struct sec_group *a = x, *b = y;
	return rep_cmp_cc_name(a->outer, a->name, b->outer, b->name, o);
}

int rep_above(const struct report_opts *o, const cost_t *summary, const cost_t *cc)
{
	int e = o->sort[0];
	struct rank_thr t = rank_threshold_of(summary[e], o->threshold);
	return rank_shown(&t, cc[e]);
}


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

/* Is the real cost vector c's sort event above the threshold (rep_above(),
 * without expanding c)? */
static int real_above(const struct profile *p, const struct report_opts *o, const cost_t *summary,
		      const cost_t *c)
{
	int e = o->sort[0];
	cost_t x[MAX_EVENTS];
	x[e] = e < p->nreal ? c[e] : event_value(p, c, e);
	return rep_above(o, summary, x);
}

/* how many items ahead a loop over random reads fetches them */
#define AHEAD 8

/* What build_section makes a section's groups from, in chunks of about
 * as many pairs (the last chunk's end: ng).  A chunk's entries and cost
 * vectors start at off[c] in the pools: the groups before it have that
 * many entries. */
struct sec_build {
	const struct profile *p;
	const struct filefn *ff;
	const cost_t *pool;
	int by_file, share;
	const struct report_opts *o;
	struct section *s;
	struct grouping gr;
	const uint8_t *full; /* the keys with an entry above the threshold */
	uint32_t nchunk, *first; /* chunk c: the groups [first[c], first[c + 1]) */
	size_t *off;
};

/* The groups of chunk c: their names, entries and totals. */
static void build_groups(const struct sec_build *b, uint32_t c)
{
	const struct profile *p = b->p;
	const struct report_opts *o = b->o;
	const struct filefn *ff = b->ff;
	const struct grouping *gr = &b->gr;
	struct section *s = b->s;
	size_t ne = (size_t)p->nevents, off = b->off[c], j = off;
	cost_t *tmp = b->share ? NULL : xcalloc(ne + 1, sizeof(cost_t));
	for (uint32_t k = b->first[c]; k < b->first[c + 1]; k++) {
		struct sec_group *g = &s->g[k];
		uint32_t key = gr->key[k];
		int with_entries = b->full[key];
		g->id = key;
		g->name = b->by_file ? p->files.str[key] : p->names.str[key];
		g->fnid = NO_ID;
		g->outer = s->pool_outer + (size_t)k * ne;
		g->in = s->pool_in + off;
		g->capin = with_entries ? (int)(gr->start[k + 1] - gr->start[k]) : 0;
		off += (size_t)g->capin;
		for (uint32_t x = gr->start[k]; x < gr->start[k + 1]; x++) {
			/* the items are in no order of ff: the costs of one
			 * a few items on are fetched now, its entry before */
			if (x + 2 * AHEAD < gr->start[gr->ng])
				__builtin_prefetch(&ff[gr->item[x + 2 * AHEAD]]);
			if (x + AHEAD < gr->start[gr->ng])
				__builtin_prefetch(filefn_cost(p, b->pool, &ff[gr->item[x + AHEAD]]));
			const struct filefn *f = &ff[gr->item[x]];
			const cost_t *fc = filefn_cost(p, b->pool, f), *cc;
			if (!with_entries) { /* counted in the total only */
				if (!b->share)
					rep_expand_into(o, p, fc, tmp);
				cc = b->share ? fc : tmp;
			} else {
				struct sec_entry *in = &g->in[g->nin++];
				uint32_t e = filefn_entry(p, f, b->by_file);
				in->name = b->by_file ? p->names.str[e] : p->files.str[e];
				if (b->share) {
					in->cc = (cost_t *)fc; /* (only read) */
				} else {
					in->cc = s->pool_cc + j++ * ne;
					rep_expand_into(o, p, fc, in->cc);
				}
				cc = in->cc;
			}
			for (int ev = 0; ev < s->ccw; ev++)
				g->outer[ev] = cost_add(g->outer[ev], cc[ev]);
		}
	}
	free(tmp);
}

/* A section built by two threads (build_section): the report's, which
 * prepares the chunks, and the second section's, which takes some once
 * that section is built (sec_split_help) */
struct sec_split {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int ready;                /* the chunks may be taken */
	const struct sec_build *b; /* (read only for a chunk taken: gone after) */
	uint32_t nchunk;
	uint32_t next;            /* (atomic) the next chunk to take */
	uint32_t done;            /* chunks made */
	uint32_t helped;          /* of them, by the second thread */
	int wait;                 /* CGTUI_PAR_WAIT (tests): the report's thread
				   * takes none before the second has made one */
};

/* Takes and makes chunks while there are any (helper: the second thread). */
static void sec_split_run(struct sec_split *sp, int helper)
{
	for (uint32_t c; (c = __atomic_fetch_add(&sp->next, 1, __ATOMIC_RELAXED)) < sp->nchunk;) {
		build_groups(sp->b, c);
		pthread_mutex_lock(&sp->lock);
		sp->done++;
		sp->helped += (uint32_t)helper;
		pthread_cond_broadcast(&sp->cond);
		pthread_mutex_unlock(&sp->lock);
	}
}

/* The second thread: waits for the chunks, makes what is left of them. */
static void sec_split_help(struct sec_split *sp)
{
	pthread_mutex_lock(&sp->lock);
	while (!sp->ready)
		pthread_cond_wait(&sp->cond, &sp->lock);
	pthread_mutex_unlock(&sp->lock);
	sec_split_run(sp, 1);
}

/* The chunks of b offered to the second thread and made by both: back when
 * all are made (b is not used after). */
static void sec_split_all(struct sec_split *sp, const struct sec_build *b)
{
	pthread_mutex_lock(&sp->lock);
	sp->b = b;
	sp->nchunk = b->nchunk;
	sp->ready = 1;
	pthread_cond_broadcast(&sp->cond);
	while (sp->wait && !sp->helped && sp->done < b->nchunk)
		pthread_cond_wait(&sp->cond, &sp->lock);
	pthread_mutex_unlock(&sp->lock);
	sec_split_run(sp, 0);
	pthread_mutex_lock(&sp->lock); /* (the helper's chunks) */
	while (sp->done < b->nchunk)
		pthread_cond_wait(&sp->cond, &sp->lock);
	pthread_mutex_unlock(&sp->lock);
}

/* how many chunks a section's groups are made in: enough for two threads
 * to end together when one comes late */
enum { SEC_CHUNKS = 16 };

/* Builds groups keyed by `by_file` (file:function) or by function name,
 * grouped by profile/grouping.h's rule.  Inner entries and cost vectors
 * come from two pools (s->pool_*).  All the files are kept (the annotation
 * sums those below the threshold), but only the names with an entry above
 * the threshold: the others would never be shown, and a profile may have
 * millions.  Likewise a file with no entry above the threshold is never
 * shown: it gets its total and no entries.  With split, the groups are
 * made in chunks by this thread and the one that helps (sec_split_help). */
static void build_section(struct profile *p, const struct filefn *ff, const cost_t *pool, size_t nff,
			  int by_file, const struct report_opts *o, const cost_t *summary,
			  struct section *s, struct sec_split *split)
{
	size_t ne = (size_t)p->nevents;
	uint32_t nkeys = by_file ? p->files.n : p->names.n;
	/* the keys with an entry above the threshold: by file, the files
	 * shown with their entries; by name, the names shown at all */
	uint8_t *full = xcalloc((size_t)nkeys + 1, 1);
	for (size_t i = 0; i < nff; i++) {
		uint32_t key = filefn_key(p, &ff[i], by_file);
		if (!full[key] && real_above(p, o, summary, filefn_cost(p, pool, &ff[i])))
			full[key] = 1;
	}
	uint32_t *keyof = xmalloc((nff + 1) * sizeof(*keyof));
	for (size_t i = 0; i < nff; i++) {
		keyof[i] = filefn_key(p, &ff[i], by_file);
		if (!by_file && !full[keyof[i]])
			keyof[i] = NO_ID;
	}
	struct sec_build b = { .p = p, .ff = ff, .pool = pool, .by_file = by_file, .o = o, .s = s,
			       .full = full };
	grouping_make(&b.gr, keyof, nff, nkeys);
	free(keyof);
	const struct grouping *gr = &b.gr;
	s->ng = (int)gr->ng;
	/* the chunks, of about as many pairs each, and the entries before
	 * each */
	b.nchunk = split ? SEC_CHUNKS : 1;
	b.first = xmalloc(((size_t)b.nchunk + 1) * sizeof(*b.first));
	b.off = xmalloc(((size_t)b.nchunk + 1) * sizeof(*b.off));
	size_t nin = 0;
	uint32_t c = 0;
	for (uint32_t k = 0; k < gr->ng; k++) {
		while (c < b.nchunk && (uint64_t)gr->start[k] * b.nchunk >= (uint64_t)gr->start[gr->ng] * c) {
			b.first[c] = k;
			b.off[c++] = nin;
		}
		if (full[gr->key[k]])
			nin += gr->start[k + 1] - gr->start[k];
	}
	for (; c <= b.nchunk; c++) {
		b.first[c] = gr->ng;
		b.off[c] = nin;
	}
	s->g = xcalloc((size_t)s->ng + 1, sizeof(*s->g));
	s->pool_in = xcalloc(nin + 1, sizeof(*s->pool_in));
	/* without derived events in use an entry's costs are ff's own (which
	 * must outlive the section's entries); otherwise expanded copies */
	b.share = p->nreal == MAX_EVENTS || !(o->used_derived >> p->nreal);
	s->ccw = b.share ? p->nreal : p->nevents;
	s->pool_cc = b.share ? NULL : xcalloc((nin + 1) * ne, sizeof(cost_t));
	s->pool_outer = xcalloc(((size_t)s->ng + 1) * ne, sizeof(cost_t));
	if (split)
		sec_split_all(split, &b);
	else
		build_groups(&b, 0);
	grouping_free(&b.gr);
	free(b.first);
	free(b.off);
	free(full);
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
		struct sec_group *g = &s->g[i];
		g->nkept = 0;
		for (int k = 0; k < g->nin; k++) {
			g->in[k].kept = rep_above(o, summary, g->in[k].cc);
			if (g->in[k].kept) {
				struct sec_entry t = g->in[k];
				g->in[k] = g->in[g->nkept];
				g->in[g->nkept++] = t;
			}
		}
		g->kept = group_threshold ? rep_above(o, summary, g->outer) : g->nkept > 0;
		if (!g->kept)
			continue;
		if (g->nkept > 1)
			qsort_r(g->in, (size_t)g->nkept, sizeof(*g->in), cmp_inner, (void *)o);
		struct sec_group t = *g;
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
		const struct sec_group *g = &s->g[i];
		if (!g->kept)
			continue;
		rep_extremes(ne, g->outer, min, max);
		for (int k = 0; k < g->nin; k++)
			if (g->in[k].kept)
				rep_extremes(s->ccw, g->in[k].cc, min, max);
		for (int e = 0; e < ne; e++)
			cum[e] = cost_add(cum[e], g->outer[e]);
		rep_extremes(p->nevents, cum, minc, maxc);
	}
	struct ccp c = { .out = out, .p = p, .o = o, .summary = summary, .show = o->show,
			 .nshow = o->nshow, .prefix = "  " };
	rep_ccp_init(&c, min, max, cumulative ? minc : NULL, cumulative ? maxc : NULL);
	rep_fancy(out, title);
	char suffix[64];
	snprintf(suffix, sizeof(suffix), " %s", label);
	rep_print_events(&c, suffix);
	fputc('\n', out);
	memset(cum, 0, sizeof(cost_t) * (size_t)ne);
	int first = 1;
	for (int i = 0; i < s->ng; i++) {
		const struct sec_group *g = &s->g[i];
		if (!g->kept)
			continue;
		if (!first)
			fputc('\n', out);
		first = 0;
		for (int e = 0; e < ne; e++)
			cum[e] = cost_add(cum[e], g->outer[e]);
		fputs(mark, out);
		const struct sec_entry *only = NULL;
		if (g->nkept == 1)
			for (int k = 0; k < g->nin; k++)
				if (g->in[k].kept)
					only = &g->in[k];
		if (only && memcmp(only->cc, g->outer, sizeof(cost_t) * (size_t)s->ccw) == 0) {
			char *t = xasprintf("%s:%s", g->name, only->name);
			rep_print_cc(&c, g->outer, cumulative ? cum : NULL, t);
			free(t);
		} else {
			char *t = xasprintf("%s:", g->name);
			rep_print_cc(&c, g->outer, cumulative ? cum : NULL, t);
			free(t);
			for (int k = 0; k < g->nin; k++) {
				if (!g->in[k].kept)
					continue;
				fputs("  ", out);
				t = xasprintf("  %s", g->in[k].name);
				rep_print_cc(&c, g->in[k].cc, NULL, t);
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
 * formulas of derived events are linear: expanding the sum is the same).
 * A group is kept by its own cost (select_section's group_threshold), so
 * only the functions whose inclusive cost passes the threshold get one, in
 * the order of their ids, with their entries: a profile may have a million
 * functions, and their groups, most never shown, were the report's largest
 * memory. */
static void inclusive_section(struct profile *p, const struct report_opts *o,
			      const cost_t *summary, struct section *s)
{
	const struct agg *a = profile_agg(p);
	const struct linestore *ls = &p->ls;
	size_t ne = (size_t)p->nevents;
	int nr = p->nreal;
	uint32_t *grp = xmalloc(((size_t)p->nfns + 1) * sizeof(*grp)), ng = 0;
	for (uint32_t f = 0; f < p->nfns; f++)
		grp[f] = real_above(p, o, summary, agg_incl(a, f)) ? ng++ : NO_ID;
	s->g = xcalloc((size_t)ng + 1, sizeof(*s->g));
	s->ng = (int)ng;
	s->ccw = (int)ne;
	s->pool_outer = xcalloc(((size_t)ng + 1) * ne, sizeof(cost_t));
	for (uint32_t f = 0; f < p->nfns; f++) {
		if (grp[f] == NO_ID)
			continue;
		struct sec_group *g = &s->g[grp[f]];
		g->id = p->fns[f].name;
		g->fnid = f;
		g->name = fn_name(p, f);
		g->outer = s->pool_outer + (size_t)grp[f] * ne;
		rep_expand_into(o, p, agg_incl(a, f), g->outer);
	}
	size_t nkey = 0;
	struct fnfile_key *key = xmalloc(((size_t)ls->nff + 1) * sizeof(*key));
	for (uint32_t k = 0; k < ls->nff; k++)
		if (grp[ls->ff[k].fn] != NO_ID)
			key[nkey++] = (struct fnfile_key){ ls->ff[k].fn, ls->ff[k].file, k };
	if (nkey > 1)
		qsort(key, nkey, sizeof(*key), cmp_fnfile_key);
	/* the entries: at most one per key, each group's in one run */
	s->pool_in = xcalloc(nkey + 1, sizeof(*s->pool_in));
	s->pool_cc = xcalloc((nkey + 1) * ne, sizeof(cost_t));
	size_t m = 0;
	cost_t sum[MAX_EVENTS];
	for (size_t i = 0; i < nkey;) {
		size_t j = i;
		memset(sum, 0, sizeof(cost_t) * (size_t)nr);
		for (; j < nkey && key[j].fn == key[i].fn && key[j].file == key[i].file; j++)
			rep_add_to(sum, &ls->ffcost[(size_t)key[j].k * (size_t)nr], nr);
		struct sec_group *g = &s->g[grp[key[i].fn]];
		if (!g->nin)
			g->in = &s->pool_in[m];
		struct sec_entry *in = &s->pool_in[m];
		in->name = file_name(p, key[i].file);
		in->cc = &s->pool_cc[m * ne];
		rep_expand_into(o, p, sum, in->cc);
		g->nin++;
		g->capin++;
		m++;
		i = j;
	}
	for (uint32_t k = 0; k < ng; k++)
		if (!s->g[k].nin)
			s->g[k].in = s->pool_in;
	free(key);
	free(grp);
}

/* The second section (function:file), built beside the first on a thread
 * of its own when the profile may use two (load_jobs()): both only read
 * the profile, its aggregation and the pairs. */
struct fn_section_job {
	struct profile *p;
	const struct filefn *ff;
	const cost_t *pool;
	size_t nff;
	const struct report_opts *o;
	const cost_t *summary;
	struct section *s;
	struct sec_split *split; /* then helps with the first (its groups) */
};

static void *fn_section(void *arg)
{
	const struct fn_section_job *j = arg;
	if (j->o->inclusive)
		inclusive_section(j->p, j->o, j->summary, j->s);
	else
		build_section(j->p, j->ff, j->pool, j->nff, 0, j->o, j->summary, j->s, NULL);
	sec_split_help(j->split);
	return NULL;
}

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
	cost_t *summary = rep_expand(&o, p, p->totals);

	/* Metadata */
	rep_fancy(out, "Metadata");
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
	if (!parts_all_shown(p)) { /* --parts, --threads */
		char pl[512];
		parts_shown_label(pl, sizeof(pl), p);
		fprintf(out, "Parts shown:      %s\n", pl);
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
		rep_extremes(p->nevents, summary, mn, mx);
		struct ccp c = { .out = out, .p = p, .o = &o, .summary = summary, .show = o.show,
				 .nshow = o.nshow, .prefix = "" };
		rep_ccp_init(&c, mn, mx, NULL, NULL);
		rep_fancy(out, "Summary");
		rep_print_events(&c, "");
		fputc('\n', out);
		rep_print_cc(&c, summary, NULL, "PROGRAM TOTALS");
		fputc('\n', out);
		free(zero);
		free(mn);
		free(mx);
	}

	/* the first section's entries are dropped once printed (a profile may
	 * have a million functions); with a second thread, the second is built
	 * meanwhile */
	size_t nff;
	cost_t *ffpool;
	struct filefn *ff = agg_filefn(p, &nff, &ffpool);
	struct section byfile = { 0 }, byfn = { 0 };
	struct sec_split split = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER,
				   .wait = env_flag("CGTUI_PAR_WAIT") };
	struct fn_section_job job = { p, ff, ffpool, nff, &o, summary, &byfn, &split };
	pthread_t second;
	int beside = load_jobs(p->jobs) > 1 && pthread_create(&second, NULL, fn_section, &job) == 0;
	build_section(p, ff, ffpool, nff, 1, &o, summary, &byfile, beside ? &split : NULL);
	if (beside && env_flag("CGTUI_PAR_DEBUG"))
		fprintf(stderr, "cgtui: report: file:function groups in %u chunks, %u by the second "
				"thread\n", split.nchunk, split.helped);
	select_section(&byfile, &o, summary, 0);
	print_section(out, p, &o, summary, &byfile, "File:function summary", "file:function", "< ",
		      1);
	section_drop_entries(&byfile); /* annotation needs the files only */
	if (beside)
		pthread_join(second, NULL);
	pthread_cond_destroy(&split.cond);
	pthread_mutex_destroy(&split.lock);
	if (o.inclusive) {
		filefn_free(ff, ffpool);
		ff = NULL;
		ffpool = NULL;
		nff = 0;
		if (!beside)
			inclusive_section(p, &o, summary, &byfn);
		select_section(&byfn, &o, summary, 1);
		print_section(out, p, &o, summary, &byfn,
			      "Function:file summary (inclusive costs on function lines)",
			      "function:file", "> ", 0);
	} else {
		if (!beside)
			build_section(p, ff, ffpool, nff, 0, &o, summary, &byfn, NULL);
		select_section(&byfn, &o, summary, 0);
		print_section(out, p, &o, summary, &byfn, "Function:file summary", "function:file",
			      "> ", 1);
	}
	if (o.tree)
		rep_print_tree(out, p, &o, summary, &byfn);
	section_free(&byfn);
	filefn_free(ff, ffpool); /* after the sections that may point into it */
	if (o.annotate)
		rep_annotate_all(out, p, &o, summary, &byfile);
	section_free(&byfile);
	free(summary);
}
