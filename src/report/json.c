/* json.c -- the batch report as JSON; see json.h.  What it contains, and
 * when: the threshold and order are the report's (rank.h, query.h), the
 * calls those query_edges() makes (a call inside a cycle, or recursive,
 * has a count and no cost), the labels format.h's.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "json.h"
#include "jsonw.h"
#include "profile/aggregate.h"
#include "profile/format.h"
#include "profile/query.h"
#include "profile/rank.h"
#include "profile/scope.h"

#include <stdlib.h>
#include <string.h>

void json_costs(struct jsonw *w, const char *key, const struct profile *p, const cost_t *c)
{
	jsonw_obj(w, key);
	int pretty = w->pretty; /* on one line */
	w->pretty = 0;
	for (int e = 0; e < p->nevents; e++)
		jsonw_int(w, p->ev[e].name, event_value(p, c, e));
	jsonw_end_obj(w);
	w->pretty = pretty;
}

static const char *kind_name(enum call_kind k)
{
	switch (k) {
	case CALL_RECURSIVE:
		return "recursive";
	case CALL_IN_CYCLE:
		return "in_cycle";
	case CALL_MEMBER:
		return "member";
	default:
		return "plain";
	}
}

static const cost_t *key_self(const struct profile *p, uint32_t id, void *arg)
{
	return agg_self(p->agg, id);
}
static const cost_t *key_incl(const struct profile *p, uint32_t id, void *arg)
{
	return agg_incl(p->agg, id);
}

/* A function, or a cycle with its members. */
static void entity(struct jsonw *w, struct profile *p, uint32_t id)
{
	const struct agg *a = p->agg;
	uint32_t k = agg_cycle_no(a, id);
	char *label = fn_label(p, id);
	jsonw_obj(w, NULL);
	jsonw_int(w, "id", id);
	if (!agg_is_cycle(a, id)) {
		const struct function *f = &p->fns[id];
		jsonw_str(w, "name", fn_name(p, id));
		jsonw_str(w, "label", label);
		jsonw_str(w, "file", file_name(p, f->file));
		jsonw_str(w, "object", obj_name(p, f->obj));
		if (k)
			jsonw_int(w, "cycle", k);
		else
			jsonw_null(w, "cycle");
	} else {
		jsonw_int(w, "cycle", k);
		jsonw_str(w, "label", label);
		jsonw_arr(w, "members");
		for (uint32_t m = a->cyc_start[k - 1]; m < a->cyc_start[k]; m++)
			jsonw_int(w, NULL, a->cyc_fn[m]);
		jsonw_end_arr(w);
	}
	json_costs(w, "self", p, agg_self(a, id));
	json_costs(w, "inclusive", p, agg_incl(a, id));
	jsonw_int(w, "calls", a->fn_ncalls[id]);
	jsonw_end_obj(w);
	free(label);
}

void json_begin(struct jsonw *w, FILE *out, const char *format, int version)
{
	jsonw_init(w, out, 1);
	jsonw_obj(w, NULL);
	jsonw_str(w, "format", format);
	jsonw_int(w, "version", version);
	jsonw_str(w, "generator", PACKAGE_STRING);
}

static void metadata(struct jsonw *w, const struct profile *p, const struct report_opts *o,
		     const int *sort, int nsort)
{
	jsonw_obj(w, "metadata");
	jsonw_str(w, "invocation", o->invocation);
	jsonw_arr(w, "files");
	for (int i = 0; i < p->nsources; i++)
		jsonw_str(w, NULL, p->sources[i]);
	jsonw_end_arr(w);
	jsonw_str(w, "command", p->cmd);
	jsonw_str(w, "creator", p->creator);
	jsonw_arr(w, "description");
	for (int i = 0; i < p->ndesc; i++)
		jsonw_str(w, NULL, p->desc[i]);
	jsonw_end_arr(w);
	jsonw_int(w, "parts", p->nparts);
	if (!parts_all_shown(p)) { /* --parts, --threads: those whose costs are in */
		jsonw_arr(w, "parts_shown");
		int *order = profile_parts_by_time(p);
		for (int j = 0; j < p->nparts; j++) {
			int k = order[j] + 1;
			const struct part_info *pi = &p->parts[k - 1];
			if (!part_shown(p, k))
				continue;
			jsonw_obj(w, NULL);
			jsonw_str(w, "file", pi->source);
			jsonw_int(w, "part", pi->number ? pi->number : k);
			jsonw_int(w, "thread", pi->thread);
			jsonw_end_obj(w);
		}
		free(order);
		jsonw_end_arr(w);
	}
	jsonw_bool(w, "difference", p->ndiff != 0);
	jsonw_bool(w, "cycle_detection", p->agg->cycles);
	jsonw_double(w, "threshold", o->threshold);
	jsonw_arr(w, "sort");
	for (int k = 0; k < nsort; k++)
		jsonw_str(w, NULL, p->ev[sort[k]].name);
	jsonw_end_arr(w);
	jsonw_bool(w, "inclusive_order", o->inclusive);
	jsonw_end_obj(w);
}

void json_report_write(FILE *out, struct profile *p, const struct report_opts *o)
{
	const struct agg *a = profile_agg(p);
	int sort[MAX_EVENTS], nsort = o->nsort;
	memcpy(sort, o->sort, sizeof(sort));
	if (!nsort) /* cg_annotate: all events, in the file's order */
		for (int e = 0; e < p->nreal; e++)
			sort[nsort++] = e;
	int ev = sort[0];
	struct rank_thr thr = rank_threshold_of(event_value(p, p->totals, ev), o->threshold);

	struct jsonw w;
	json_begin(&w, out, "cgtui-report", JSON_REPORT_VERSION);
	metadata(&w, p, o, sort, nsort);

	jsonw_arr(&w, "events");
	for (int e = 0; e < p->nevents; e++) {
		jsonw_obj(&w, NULL);
		jsonw_str(&w, "name", p->ev[e].name);
		jsonw_str(&w, "long_name", p->ev[e].longname);
		jsonw_str(&w, "formula", p->ev[e].formula);
		jsonw_end_obj(&w);
	}
	jsonw_end_arr(&w);
	json_costs(&w, "totals", p, p->totals);

	/* the entities above the threshold by self or inclusive cost, in the
	 * report's order */
	uint32_t nent = agg_nent(a), n = 0;
	uint32_t *ids = xmalloc(((size_t)nent + 1) * sizeof(*ids));
	uint8_t *in = xcalloc((size_t)nent + 1, 1);
	for (uint32_t id = 0; id < nent; id++)
		if (rank_shown(&thr, event_value(p, agg_self(a, id), ev)) ||
		    rank_shown(&thr, event_value(p, agg_incl(a, id), ev))) {
			ids[n++] = id;
			in[id] = 1;
		}
	query_sort_fns(p, ids, n, o->inclusive ? key_incl : key_self, NULL, ev);
	jsonw_arr(&w, "functions");
	for (uint32_t i = 0; i < n; i++)
		if (!agg_is_cycle(a, ids[i]))
			entity(&w, p, ids[i]);
	jsonw_end_arr(&w);
	jsonw_arr(&w, "cycles");
	for (uint32_t i = 0; i < n; i++)
		if (agg_is_cycle(a, ids[i]))
			entity(&w, p, ids[i]);
	jsonw_end_arr(&w);

	/* the calls between them, from each caller's side */
	jsonw_arr(&w, "calls");
	for (uint32_t i = 0; i < n; i++) {
		struct edge *ed;
		int ne = query_edges(p, ids[i], 0, &ed);
		query_sort_edges(p, ed, (size_t)ne, ev);
		for (int j = 0; j < ne; j++) {
			if (!in[ed[j].fn])
				continue;
			jsonw_obj(&w, NULL);
			jsonw_int(&w, "caller", ids[i]);
			jsonw_int(&w, "callee", ed[j].fn);
			if (ed[j].via != NO_ID)
				jsonw_int(&w, "via", ed[j].via);
			else
				jsonw_null(&w, "via");
			jsonw_str(&w, "kind", kind_name(ed[j].kind));
			jsonw_int(&w, "count", ed[j].count);
			if (call_kind_costed(ed[j].kind))
				json_costs(&w, "inclusive", p, ed[j].cost);
			else
				jsonw_null(&w, "inclusive");
			jsonw_end_obj(&w);
		}
		free(ed);
	}
	jsonw_end_arr(&w);

	/* file:function, cg_annotate's rows: self cost per file and name */
	size_t nff, nffin = 0;
	const cost_t *pool;
	const struct filefn *ff = agg_filefn_kept(p, &nff, &pool);
	jsonw_arr(&w, "file_functions");
	for (size_t i = 0; i < nff; i++) {
		if (!rank_shown(&thr, event_value(p, filefn_cost(p, pool, &ff[i]), ev)))
			continue;
		nffin++;
		jsonw_obj(&w, NULL);
		jsonw_str(&w, "file", file_name(p, ff[i].file));
		jsonw_str(&w, "function", p->names.str[filefn_name(p, &ff[i])]);
		json_costs(&w, "self", p, filefn_cost(p, pool, &ff[i]));
		jsonw_end_obj(&w);
	}
	jsonw_end_arr(&w);
	jsonw_obj(&w, "omitted");
	jsonw_int(&w, "functions", (int64_t)(nent - n));
	jsonw_int(&w, "file_functions", (int64_t)(nff - nffin));
	jsonw_end_obj(&w);
	jsonw_end_obj(&w);
	free(ids);
	free(in);
}
