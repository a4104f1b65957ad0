/* tree.c -- the report's callers and callees (--tree=caller|calling|both),
 * as callgrind_annotate prints them, with the one cycle rule; a cycle has
 * a block of its own among the functions' (query.h: its callers the calls
 * into its members from outside, its callees its members).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "report_int.h"
#include "profile/aggregate.h"
#include "profile/format.h"
#include "profile/modname.h"
#include "profile/query.h"
#include "source/srcannot.h"
#include "source/srcfile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- callers and callees (--tree) ------------------------------------------------ */

static char *fn_where(struct profile *p, uint32_t id, uint32_t via);

/* A cycle's member as fn_where says it, without its "<cycle N>" (said
 * beside it). */
static char *member_where(struct profile *p, uint32_t member)
{
	char *m = fn_where(p, member, NO_ID), *c = strstr(m, " <cycle ");
	if (c)
		memmove(c, strchr(c, '>') + 1, strlen(strchr(c, '>') + 1) + 1);
	return m;
}

/* callgrind_annotate's "file:function [object]" around the one label; a
 * cycle is "<cycle N>", a call into one "<cycle N> via file:member [object]" */
static char *fn_where(struct profile *p, uint32_t id, uint32_t via)
{
	if (agg_is_cycle(p->agg, id)) {
		if (via == NO_ID)
			return fn_label(p, id);
		char *m = member_where(p, via);
		char *r = xasprintf("<cycle %u> via %s", agg_cycle_no(p->agg, id), m);
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
	return rep_cmp_cc_name(a->cc, a->name, b->cc, b->name, o);
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
		if (ed[i].via != NO_ID && !agg_is_cycle(p->agg, ed[i].fn)) {
			/* a cycle's caller: the member it calls said */
			char *m = member_where(p, ed[i].via), *w = x[i].name;
			x[i].name = xasprintf("%s into %s", w, m);
			free(w);
			free(m);
		}
		x[i].cc = rep_expand(o, p, ed[i].cost);
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

void rep_print_tree(FILE *out, struct profile *p, const struct report_opts *o,
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
	/* the cycles (aggregate.h) above the threshold by the section's cost
	 * (self, or inclusive with --inclusive=yes), in its order */
	uint32_t ncy = 0, nent = agg_nent(a);
	struct xedge *cy = xcalloc((size_t)(nent - a->nfns) + 1, sizeof(*cy));
	for (uint32_t id = a->nfns; id < nent; id++) {
		cost_t *x = rep_expand(o, p, o->inclusive ? agg_incl(a, id) : agg_self(a, id));
		if (!rep_above(o, summary, x)) {
			free(x);
			continue;
		}
		cy[ncy++] = (struct xedge){ .fn = id, .cc = x, .name = fn_where(p, id, NO_ID) };
	}
	if (ncy > 1)
		qsort_r(cy, ncy, sizeof(*cy), cmp_xedge, (void *)o);
	/* the functions behind the kept groups, in the section's order, each
	 * cycle before the first group it ranks above */
	uint32_t *list = xmalloc(((size_t)p->nfns + ncy + 1) * sizeof(*list));
	size_t nl = 0;
	uint32_t ci = 0;
	for (int i = 0; i < s->ng; i++) {
		const struct sec_group *g = &s->g[i];
		if (!g->kept)
			continue;
		for (; ci < ncy && rep_cmp_cc_name(cy[ci].cc, cy[ci].name, g->outer, g->name, o) < 0; ci++)
			list[nl++] = cy[ci].fn;
		if (g->fnid != NO_ID) {
			list[nl++] = g->fnid;
			continue;
		}
		for (uint32_t j = by_name[g->id]; j < by_name[g->id + 1]; j++)
			list[nl++] = fns[j];
	}
	for (; ci < ncy; ci++)
		list[nl++] = cy[ci].fn;
	xedges_free(cy, (int)ncy);
	free(by_name);
	free(fns);
	/* widths over everything printed */
	cost_t *min = xcalloc((size_t)ne, sizeof(cost_t)), *max = xcalloc((size_t)ne, sizeof(cost_t));
	for (size_t i = 0; i < nl; i++) {
		cost_t *x = rep_expand(o, p, agg_incl(a, list[i]));
		rep_extremes(p->nevents, x, min, max);
		free(x);
		for (int side = 0; side < 2; side++) {
			struct xedge *ed;
			int n = collect_edges(p, o, list[i], side == 0, &ed);
			for (int k = 0; k < n; k++)
				if (call_kind_costed(ed[k].kind))
					rep_extremes(p->nevents, ed[k].cc, min, max);
			xedges_free(ed, n);
		}
	}
	struct ccp c = { .out = out, .p = p, .o = o, .summary = summary, .show = o->show,
			 .nshow = o->nshow, .prefix = "  " };
	rep_ccp_init(&c, min, max, NULL, NULL);
	rep_fancy(out, "Callers and callees (inclusive costs of calls)");
	rep_print_events(&c, "  function");
	for (size_t i = 0; i < nl; i++) {
		uint32_t f = list[i];
		fputc('\n', out);
		for (int side = 0; side < 2; side++) {
			if (side == 0 && !(o->tree & TREE_CALLER))
				continue;
			if (side == 1) {
				cost_t *x = rep_expand(o, p, agg_incl(a, f));
				char *l = fn_where(p, f, NO_ID), *t = xasprintf("* %s", l);
				fputs("  ", out);
				rep_print_cc(&c, x, NULL, t);
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
				uint32_t cn = side == 0 ? agg_call_cycle_no(a, ed[k].fn, f)
							: agg_call_cycle_no(a, f, ed[k].fn);
				const char *nc = call_kind_text(note, sizeof(note), ed[k].kind, cn, 99);
				char *t = xasprintf("%s %s (%lldx)%s%s", side == 0 ? "<" : ">",
						    ed[k].name, (long long)ed[k].count, nc ? " " : "",
						    nc ? nc : "");
				fputs("  ", out);
				if (nc) /* no share of the total: the cycle rule */
					rep_print_missing(&c, t);
				else
					rep_print_cc(&c, ed[k].cc, NULL, t);
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

