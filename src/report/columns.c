/* columns.c -- the report's cost columns (cg_annotate's widths,
 * percentages and missing-cost dots), shared by its sections and the
 * annotated sources, and the cost vectors with the derived events added.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "report.h"
#include "profile/format.h"
#include "report_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- column printer ----------------------------------------------------------- */


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

void rep_ccp_init(struct ccp *c, const cost_t *min, const cost_t *max, const cost_t *mincum,
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
void rep_extremes(int n, const cost_t *cc, cost_t *min, cost_t *max)
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

void rep_print_events(const struct ccp *c, const char *suffix)
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

void rep_print_cc(const struct ccp *c, const cost_t *cc, const cost_t *cum, const char *suffix)
{
	char a[40], b[40], d[40];
	for (int k = 0; k < c->nshow; k++) {
		cc_strs(c, cc, cum, c->show[k], a, b, d);
		cell(c, c->show[k], a, b, d);
	}
	fprintf(c->out, " %s\n", suffix);
}

void rep_print_missing(const struct ccp *c, const char *suffix)
{
	for (int k = 0; k < c->nshow; k++)
		cell(c, c->show[k], ".", "", "");
	fprintf(c->out, " %s\n", suffix);
}

void rep_fancy(FILE *out, const char *title)
{
	static const char dashes[] =
		"--------------------------------------------------------------------------------";
	fprintf(out, "%s\n-- %s\n%s\n", dashes, title, dashes);
}

/* ---- expanded cost vectors (real + derived events) ------------------------------ */

/* The derived events the report uses (shown or sorted) are computed; the
 * others stay 0 (o->used_derived, set by report_write). */
void rep_expand_into(const struct report_opts *o, const struct profile *p, const cost_t *real,
			cost_t *x)
{
	memcpy(x, real, sizeof(cost_t) * (size_t)p->nreal);
	for (int e = p->nreal; e < p->nevents; e++)
		x[e] = o->used_derived >> e & 1 ? event_value(p, real, e) : 0;
}

cost_t *rep_expand(const struct report_opts *o, const struct profile *p, const cost_t *real)
{
	cost_t *x = xcalloc((size_t)p->nevents, sizeof(cost_t));
	rep_expand_into(o, p, real, x);
	return x;
}

void rep_add_to(cost_t *dst, const cost_t *src, int n)
{
	for (int e = 0; e < n; e++)
		dst[e] = cost_add(dst[e], src[e]);
}
