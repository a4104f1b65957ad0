/* annotate.c -- the report's annotated source files (their rows made by
 * source/srcannot.c, as for the source view) and the annotation summary, in
 * cg_annotate's layout.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "report_int.h"
#include "profile/aggregate.h"
#include "profile/format.h"
#include "profile/modname.h"
#include "profile/query.h"
#include "profile/rank.h"
#include "source/srcannot.h"
#include "source/srcfile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
		rep_expand_into(o, p, &a.pool[(size_t)i * nr], &cc[(size_t)i * ne]);

	char *title = xasprintf("Annotated source file: %s", a.name);
	rep_fancy(out, title);
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
			rep_add_to(buckets[b], &cc[(size_t)i * ne], ne);
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
		rep_extremes(p->nevents, &cc[(size_t)i * ne], min, max);
	struct ccp c = { .out = out, .p = p, .o = o, .summary = summary, .show = o->show,
			 .nshow = o->nshow, .prefix = "" };
	rep_ccp_init(&c, min, max, NULL, NULL);
	free(min);
	free(max);
	rep_print_events(&c, "");
	fputc('\n', out);

	/* a row's expanded cost: its place in the line costs */
	#define ROWCC(r) (&cc[(size_t)((r)->cost - a.pool) / (size_t)nr * (size_t)ne])
	const struct srcfile *sf = &a.sf;
	int eof = 0, nbogus = 0;
	for (size_t i = 0; i < a.nrows; i++) {
		const struct srcann_row *r = &a.rows[i];
		switch (r->kind) {
		case SA_LINE0:
			rep_print_cc(&c, ROWCC(r), NULL, "<unknown (line 0)>");
			fputc('\n', out);
			rep_add_to(buckets[B_ANN_LINE0], ROWCC(r), ne);
			break;
		case SA_LINE: {
			const struct srcann_range *g = &a.ranges[r->range];
			if (r->line == g->lo && g->lo != 1)
				fprintf(out, "-- line %u ----------------------------------------\n", g->lo);
			if (r->cost) {
				rep_print_cc(&c, ROWCC(r), NULL, sf->line[r->line - 1]);
				rep_add_to(buckets[B_ANN_KNOWN], ROWCC(r), ne);
			} else {
				rep_print_missing(&c, sf->line[r->line - 1]);
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
				rep_print_cc(&c, ROWCC(r), NULL, lab);
				rep_add_to(buckets[B_ANN_KNOWN], ROWCC(r), ne);
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

void rep_annotate_all(FILE *out, struct profile *p, const struct report_opts *o,
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
		const struct sec_group *g = &ffs->g[i];
		int b;
		if (strcmp(g->name, "???") == 0)
			b = B_UNKNOWN;
		else if (!printed[g->id])
			b = B_BELOW;
		else
			continue;
		rep_add_to(buckets[b], g->outer, ne);
	}
	cost_t *min = xcalloc((size_t)ne, sizeof(cost_t)), *max = xcalloc((size_t)ne, sizeof(cost_t));
	for (int b = 0; b < B_N; b++)
		rep_extremes(p->nevents, buckets[b], min, max);
	struct ccp c = { .out = out, .p = p, .o = o, .summary = summary, .show = o->show,
			 .nshow = o->nshow, .prefix = "" };
	rep_ccp_init(&c, min, max, NULL, NULL);
	rep_fancy(out, "Annotation summary");
	rep_print_events(&c, "");
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
		rep_print_cc(&c, buckets[b], NULL, label[b]);
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
