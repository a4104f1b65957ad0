/* check.c -- the CI gate; see check.h.  Each side is loaded into its own
 * profile (a run of several files adds up, as everywhere); the costs
 * compared are the model's (aggregate.h: inclusive by the one cycle rule),
 * counts are written as format.h writes them and rows ordered by rank.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "check.h"
#include "json.h"
#include "jsonw.h"
#include "profile/aggregate.h"
#include "profile/format.h"
#include "profile/rank.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <math.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- options ---------------------------------------------------------------------- */

static const struct {
	const char *opt;
	enum limit_scope scope;
} scopes[] = {
	{ "limit", LIMIT_TOTAL },
	{ "limit-function", LIMIT_FUNCTION },
	{ "limit-self", LIMIT_SELF },
	{ "limit-file", LIMIT_FILE },
	{ "limit-object", LIMIT_OBJECT },
};
static const char *const scope_name[] = { "total", "function", "self", "file", "object" };

/* "+1%", "5000", "-2.5%": the change allowed */
static int parse_change(const char *s, double *v, int *percent)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno || !isfinite(*v) || (*s != '+' && *s != '-' && (*s < '0' || *s > '9')))
		return -1;
	*percent = *end == '%';
	if (*percent)
		end++;
	return *end ? -1 : 0;
}

static int parse_limit(struct limit *l, enum limit_scope scope, const char *opt, const char *arg,
		       char *err, size_t errsz)
{
	memset(l, 0, sizeof(*l));
	l->scope = scope;
	const char *eq = strrchr(arg, '=');
	const char *form = scope == LIMIT_TOTAL ? "EVENT=CHANGE" : "PATTERN:EVENT=CHANGE";
	if (!eq) {
		snprintf(err, errsz, "--%s: expected %s (e.g. %sIr=+1%%), not '%s'", opt, form,
			 scope == LIMIT_TOTAL ? "" : "main:", arg);
		return -1;
	}
	const char *ev = arg;
	if (scope != LIMIT_TOTAL) {
		const char *colon = NULL;
		for (const char *c = arg; c < eq; c++)
			if (*c == ':')
				colon = c;
		if (!colon) {
			snprintf(err, errsz, "--%s: expected %s (e.g. main:Ir=+1%%), not '%s'", opt,
				 form, arg);
			return -1;
		}
		l->pattern = xstrndup(arg, (size_t)(colon - arg));
		ev = colon + 1;
		int ec;
		PCRE2_SIZE eo;
		l->re = pcre2_compile((PCRE2_SPTR)l->pattern, PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
		if (!l->re) {
			PCRE2_UCHAR msg[256];
			pcre2_get_error_message(ec, msg, sizeof(msg));
			snprintf(err, errsz, "--%s: pattern '%s': %s at offset %zu", opt, l->pattern,
				 (const char *)msg, (size_t)eo);
			return -1;
		}
	}
	l->event = xstrndup(ev, (size_t)(eq - ev));
	l->text = xstrdup(eq + 1);
	if (!*l->event) {
		snprintf(err, errsz, "--%s: no event before '=' in '%s'", opt, arg);
		return -1;
	}
	if (parse_change(eq + 1, &l->value, &l->percent) < 0) {
		snprintf(err, errsz, "--%s: '%s' is not a change (a number of events, or a percent "
			 "of the base cost: +1%%, 5000, -2%%)", opt, eq + 1);
		return -1;
	}
	return 0;
}

static void limit_free(struct limit *l)
{
	free(l->pattern);
	free(l->event);
	free(l->text);
	if (l->re)
		pcre2_code_free(l->re);
}

int share_option(struct share_opts *o, const char *name, const char *arg, char *err, size_t errsz)
{
	if (strcmp(name, "check") == 0) {
		o->check = 1;
		return 0;
	}
	if (strcmp(name, "format") == 0) {
		if (strcmp(arg, "text") == 0)
			o->format = FORMAT_TEXT;
		else if (strcmp(arg, "markdown") == 0)
			o->format = FORMAT_MARKDOWN;
		else if (strcmp(arg, "json") == 0)
			o->format = FORMAT_JSON;
		else {
			snprintf(err, errsz, "--format: expected text, markdown or json, not '%s'", arg);
			return -1;
		}
		return 0;
	}
	if (strcmp(name, "export") == 0) {
		o->export = export_kind_of(arg);
		if (o->export == EXPORT_NONE) {
			snprintf(err, errsz, "--export: expected folded, speedscope or pprof, not '%s'",
				 arg);
			return -1;
		}
		return 0;
	}
	if (strcmp(name, "min-cost") == 0) {
		int pc;
		if (parse_change(arg, &o->min_cost, &pc) < 0 || o->min_cost < 0 || *arg == '+') {
			snprintf(err, errsz, "--min-cost: expected a number of events or a percent of "
				 "the base total (1000, 0.1%%), not '%s'", arg);
			return -1;
		}
		o->min_cost_percent = pc;
		return 0;
	}
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		if (strcmp(name, scopes[i].opt) != 0)
			continue;
		o->limits = xreallocarray(o->limits, (size_t)o->nlimits + 1, sizeof(*o->limits));
		if (parse_limit(&o->limits[o->nlimits], scopes[i].scope, name, arg, err, errsz) < 0) {
			limit_free(&o->limits[o->nlimits]);
			return -1;
		}
		o->nlimits++;
		return 0;
	}
	snprintf(err, errsz, "--%s: not an option of the report", name);
	return -1;
}

int share_options_done(const struct share_opts *o, char *err, size_t errsz)
{
	if (o->check && !o->nlimits) {
		snprintf(err, errsz, "--check needs at least one limit (--limit=Ir=+1%%, "
			 "--limit-function=PATTERN:Ir=+1%% ...)");
		return -1;
	}
	if (!o->check && (o->nlimits || o->min_cost)) {
		snprintf(err, errsz, "--limit and --min-cost go with --check");
		return -1;
	}
	if (o->format == FORMAT_MARKDOWN && !o->check) {
		snprintf(err, errsz, "--format=markdown goes with --check (the report is text or json)");
		return -1;
	}
	if (o->check && o->export) {
		snprintf(err, errsz, "--export and --check do not go together");
		return -1;
	}
	if (o->export && o->format != FORMAT_TEXT) {
		snprintf(err, errsz, "--export and --format do not go together");
		return -1;
	}
	return 0;
}

void share_opts_free(struct share_opts *o)
{
	for (int i = 0; i < o->nlimits; i++)
		limit_free(&o->limits[i]);
	free(o->limits);
	memset(o, 0, sizeof(*o));
}

/* ---- --format=json, --export ---------------------------------------------------------- */

int share_write(FILE *out, const struct share_opts *o, struct profile *p,
		const struct report_opts *ro)
{
	char err[512];
	if (o->export) {
		if (o->export == EXPORT_PPROF && isatty(fileno(out))) {
			fprintf(stderr, "cgtui: --export=pprof writes gzip data: redirect it to a file\n");
			return 1;
		}
		struct export_opts eo = { .nev = ro->nshow, .sort_event = ro->nsort ? ro->sort[0] : 0,
					  .threshold = ro->threshold, .note = stderr };
		memcpy(eo.ev, ro->show, sizeof(eo.ev));
		if (export_write(out, p, o->export, &eo, err, sizeof(err)) < 0) {
			fprintf(stderr, "cgtui: %s\n", err);
			return 1;
		}
	} else if (o->format == FORMAT_JSON) {
		json_report_write(out, p, ro);
	} else {
		return -1;
	}
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(stderr, "cgtui: error writing the report: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- the two sides ------------------------------------------------------------------------ */

struct side {
	struct profile p;
	char *const *files;
	int nfiles;
	int ready;
};

static void side_free(struct side *s)
{
	if (s->ready)
		profile_free(&s->p);
}

/* ---- what is compared ---------------------------------------------------------------------- */

/* A function, file or object, by its key in both runs. */
struct entry {
	char *key;
	size_t klen;
	const char *name; /* its name (the new side's when it has one) */
	cost_t v[2];      /* base, new */
};
struct emap {
	struct entry *e;
	size_t n, cap;
	uint32_t *slot, mask; /* entry + 1 */
};

static struct entry *emap_get(struct emap *m, const char *key, size_t klen)
{
	if ((m->n + 1) * 2 > m->mask) {
		uint32_t nm = m->mask ? m->mask * 2 + 1 : 255;
		free(m->slot);
		m->slot = xcalloc((size_t)nm + 1, sizeof(*m->slot));
		m->mask = nm;
		for (size_t i = 0; i < m->n; i++) {
			uint32_t h = (uint32_t)hash_bytes(m->e[i].key, m->e[i].klen) & nm;
			while (m->slot[h])
				h = (h + 1) & nm;
			m->slot[h] = (uint32_t)i + 1;
		}
	}
	uint32_t h = (uint32_t)hash_bytes(key, klen) & m->mask;
	for (; m->slot[h]; h = (h + 1) & m->mask) {
		struct entry *e = &m->e[m->slot[h] - 1];
		if (e->klen == klen && memcmp(e->key, key, klen) == 0)
			return e;
	}
	VEC_RESERVE(m->e, m->cap, m->n + 1);
	struct entry *e = &m->e[m->n];
	e->key = xmalloc(klen + 1);
	memcpy(e->key, key, klen);
	e->klen = klen;
	e->name = NULL;
	e->v[0] = e->v[1] = 0;
	m->slot[h] = (uint32_t)++m->n;
	return e;
}

static void emap_free(struct emap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].key);
	free(m->e);
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

static int matches(const struct limit *l, const char *s)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(l->re, NULL);
	int rc = pcre2_match(l->re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL);
	pcre2_match_data_free(md);
	return rc >= 0;
}

/* Adds side k's matching functions, files or objects with their cost of
 * event ev. */
static void collect(struct emap *m, int k, struct profile *p, const struct limit *l, int ev)
{
	const struct agg *a = profile_agg(p);
	char buf[8192];
	if (l->scope == LIMIT_FUNCTION || l->scope == LIMIT_SELF) {
		for (uint32_t f = 0; f < p->nfns; f++) {
			const char *nm = fn_name(p, f);
			if (!matches(l, nm))
				continue;
			/* the same function: its name, object and file, as a
			 * difference's (the session's load matched the paths of
			 * two builds, the names with --normalize-names) */
			int n = snprintf(buf, sizeof(buf), "%s%c%s%c%s", nm, 0,
					 obj_name(p, p->fns[f].obj), 0, file_name(p, p->fns[f].file));
			if (n >= (int)sizeof(buf))
				n = (int)sizeof(buf) - 1;
			struct entry *e = emap_get(m, buf, (size_t)n);
			const cost_t *c = l->scope == LIMIT_SELF ? agg_self(a, f) : agg_incl(a, f);
			e->v[k] = cost_add(e->v[k], event_value(p, c, ev));
			if (!e->name || k == 1)
				e->name = nm;
		}
		return;
	}
	if (l->scope == LIMIT_FILE) {
		size_t nff;
		const cost_t *pool;
		const struct filefn *ff = agg_filefn_kept(p, &nff, &pool);
		for (size_t i = 0; i < nff; i++) {
			const char *nm = file_name(p, ff[i].file);
			if (!matches(l, nm))
				continue;
			int n = snprintf(buf, sizeof(buf), "%s%c", nm, 0);
			struct entry *e = emap_get(m, buf, (size_t)(n > (int)sizeof(buf) - 1 ? (int)sizeof(buf) - 1 : n));
			e->v[k] = cost_add(e->v[k], event_value(p, filefn_cost(p, pool, &ff[i]), ev));
			if (!e->name || k == 1)
				e->name = nm;
		}
		return;
	}
	/* objects: their functions' self costs */
	for (uint32_t f = 0; f < p->nfns; f++) {
		const char *nm = obj_name(p, p->fns[f].obj);
		if (!matches(l, nm))
			continue;
		int n = snprintf(buf, sizeof(buf), "%s%c", nm, 0);
		struct entry *e = emap_get(m, buf, (size_t)(n > (int)sizeof(buf) - 1 ? (int)sizeof(buf) - 1 : n));
		e->v[k] = cost_add(e->v[k], event_value(p, agg_self(a, f), ev));
		if (!e->name || k == 1)
			e->name = nm;
	}
}

/* One line of the verdict. */
struct row {
	int limit;        /* index in o->limits */
	const char *name; /* NULL for a total */
	cost_t base, new_, change;
	double pct;       /* change in percent of base (±inf: base 0) */
	int exceeded;
};

static double percent_of(cost_t change, cost_t base)
{
	if (base == 0)
		return change > 0 ? INFINITY : change < 0 ? -INFINITY : 0;
	return (double)change * 100.0 / fabs((double)base);
}

static int exceeds(const struct limit *l, cost_t change, double pct)
{
	return l->percent ? pct > l->value : (double)change > l->value;
}

static int cmp_row(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	if (!a->name != !b->name) /* the totals first */
		return a->name ? 1 : -1;
	if (!a->name)
		return a->limit - b->limit;
	struct rank_key ka = { &a->change, a->name, (uint32_t)a->limit };
	struct rank_key kb = { &b->change, b->name, (uint32_t)b->limit };
	struct rank_order ord = { NULL, 1, RANK_VIEW };
	return rank_cmp(&ka, &kb, &ord);
}

/* ---- writing the verdict ---------------------------------------------------------------------- */

static void change_text(char *buf, size_t n, const struct row *r)
{
	char c[48];
	format_count(c, sizeof(c), r->change);
	const char *plus = r->change > 0 ? "+" : "";
	if (r->base == 0 && r->new_ != 0)
		snprintf(buf, n, "%s%s (new)", plus, c);
	else if (r->new_ == 0 && r->base != 0)
		snprintf(buf, n, "%s%s (gone)", plus, c);
	else
		snprintf(buf, n, "%s%s (%+.2f%%)", plus, c, r->pct);
}

struct cells {
	char base[48], new_[48], change[96];
};
static void row_cells(struct cells *c, const struct row *r)
{
	format_count(c->base, sizeof(c->base), r->base);
	format_count(c->new_, sizeof(c->new_), r->new_);
	change_text(c->change, sizeof(c->change), r);
}

/* a name in a Markdown table cell: a code span, its pipes escaped */
static void md_name(FILE *out, const char *s)
{
	int ticks = strchr(s, '`') != NULL;
	fputs(ticks ? "`` " : "`", out);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r')
			putc(' ', out);
		else
			putc(*s, out);
	}
	fputs(ticks ? " ``" : "`", out);
}

static void write_text(FILE *out, const struct share_opts *o, const struct side *sd,
		       const struct row *rows, size_t nrows, int nexc, const int *checked)
{
	for (int k = 0; k < 2; k++) {
		fprintf(out, "%s:", k ? "New " : "Base");
		for (int i = 0; i < sd[k].nfiles; i++)
			fprintf(out, " %s", sd[k].files[i]);
		fputc('\n', out);
	}
	fprintf(out, "\n%-9s %-10s %-8s %15s %15s  %-26s %-8s %s\n", "", "scope", "event", "base",
		"new", "change", "limit", "name");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		const struct limit *l = &o->limits[r->limit];
		struct cells c;
		row_cells(&c, r);
		fprintf(out, "%-9s %-10s %-8s %15s %15s  %-26s %-8s %s\n",
			r->exceeded ? "EXCEEDED" : "ok", scope_name[l->scope], l->event, c.base, c.new_,
			c.change, l->text, r->name ? r->name : "");
	}
	fputc('\n', out);
	for (int i = 0; i < o->nlimits; i++) {
		const struct limit *l = &o->limits[i];
		if (l->scope == LIMIT_TOTAL)
			continue;
		fprintf(out, "--limit-%s=%s:%s=%s: %d %s%s checked\n", scope_name[l->scope], l->pattern,
			l->event, l->text, checked[i],
			l->scope == LIMIT_FILE ? "file" : l->scope == LIMIT_OBJECT ? "object" : "function",
			checked[i] == 1 ? "" : "s");
	}
	if (nexc)
		fprintf(out, "%d limit%s exceeded\n", nexc, nexc == 1 ? "" : "s");
	else
		fprintf(out, "within the limits\n");
}

static void write_markdown(FILE *out, const struct share_opts *o, const struct side *sd,
			   const struct row *rows, size_t nrows, int nexc, const int *checked)
{
	if (nexc)
		fprintf(out, "### cgtui check: %d limit%s exceeded\n\n", nexc, nexc == 1 ? "" : "s");
	else
		fprintf(out, "### cgtui check: within the limits\n\n");
	fputs("| | Scope | Name | Event | Base | New | Change | Limit |\n"
	      "|---|---|---|---|--:|--:|--:|--:|\n", out);
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		const struct limit *l = &o->limits[r->limit];
		struct cells c;
		row_cells(&c, r);
		fprintf(out, "| %s | %s | ", r->exceeded ? "**exceeded**" : "ok", scope_name[l->scope]);
		if (r->name)
			md_name(out, r->name);
		fputs(" | ", out);
		md_name(out, l->event);
		fprintf(out, " | %s | %s | %s | %s |\n", c.base, c.new_, c.change, l->text);
	}
	fputc('\n', out);
	for (int i = 0; i < o->nlimits; i++) {
		const struct limit *l = &o->limits[i];
		if (l->scope != LIMIT_TOTAL) {
			fprintf(out, "- `--limit-%s`: %d checked by ", scope_name[l->scope], checked[i]);
			md_name(out, l->pattern);
			fputc('\n', out);
		}
	}
	fputs("\nBase:", out);
	for (int i = 0; i < sd[0].nfiles; i++) {
		fputc(' ', out);
		md_name(out, sd[0].files[i]);
	}
	fputs("  \nNew:", out);
	for (int i = 0; i < sd[1].nfiles; i++) {
		fputc(' ', out);
		md_name(out, sd[1].files[i]);
	}
	fputc('\n', out);
}

#define CHECK_JSON_VERSION 1

static void write_json(FILE *out, const struct share_opts *o, const struct side *sd,
		       const struct row *rows, size_t nrows, int nexc, const int *checked)
{
	struct jsonw w;
	json_begin(&w, out, "cgtui-check", CHECK_JSON_VERSION);
	for (int k = 0; k < 2; k++) {
		jsonw_arr(&w, k ? "new" : "base");
		for (int i = 0; i < sd[k].nfiles; i++)
			jsonw_str(&w, NULL, sd[k].files[i]);
		jsonw_end_arr(&w);
	}
	jsonw_str(&w, "result", nexc ? "exceeded" : "pass");
	jsonw_int(&w, "exceeded", nexc);
	jsonw_arr(&w, "limits");
	for (int i = 0; i < o->nlimits; i++) {
		const struct limit *l = &o->limits[i];
		jsonw_obj(&w, NULL);
		jsonw_str(&w, "scope", scope_name[l->scope]);
		jsonw_str(&w, "pattern", l->pattern);
		jsonw_str(&w, "event", l->event);
		jsonw_str(&w, "limit", l->text);
		jsonw_double(&w, "value", l->value);
		jsonw_bool(&w, "percent", l->percent);
		jsonw_int(&w, "checked", checked[i]);
		jsonw_end_obj(&w);
	}
	jsonw_end_arr(&w);
	jsonw_arr(&w, "rows");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		jsonw_obj(&w, NULL);
		jsonw_int(&w, "limit", r->limit);
		jsonw_str(&w, "name", r->name);
		jsonw_int(&w, "base", r->base);
		jsonw_int(&w, "new", r->new_);
		jsonw_int(&w, "change", r->change);
		jsonw_double(&w, "change_percent", r->pct); /* null when base is 0 */
		jsonw_bool(&w, "exceeded", r->exceeded);
		jsonw_end_obj(&w);
	}
	jsonw_end_arr(&w);
	jsonw_end_obj(&w);
}

/* ---- the gate -------------------------------------------------------------------------------- */

int check_run(FILE *out, const struct share_opts *o, char *const *files, int nfiles, int nfirst,
	      check_load_fn load, void *arg)
{
	struct side sd[2];
	memset(sd, 0, sizeof(sd));
	sd[0].files = files;
	sd[0].nfiles = nfirst;
	sd[1].files = files + nfirst;
	sd[1].nfiles = nfiles - nfirst;
	int status = 0;
	for (int k = 0; k < 2 && !status; k++) {
		status = load(arg, k, &sd[k].p);
		sd[k].ready = !status;
	}
	int ev[MAX_EVENTS][2];
	if (o->nlimits > MAX_EVENTS && !status) {
		fprintf(stderr, "cgtui: --check: at most %d limits\n", MAX_EVENTS);
		status = 1;
	}
	for (int i = 0; i < o->nlimits && !status; i++) {
		for (int k = 0; k < 2; k++) {
			const struct limit *l = &o->limits[i];
			ev[i][k] = profile_event_index(&sd[k].p, l->event, strlen(l->event));
			if (ev[i][k] < 0) {
				fprintf(stderr, "cgtui: --limit: no event %s in the %s profile (events:", l->event,
					k ? "new" : "base");
				for (int e = 0; e < sd[k].p.nevents; e++)
					fprintf(stderr, " %s", sd[k].p.ev[e].name);
				fputs(")\n", stderr);
				status = 1;
				break;
			}
		}
	}
	if (status) {
		side_free(&sd[0]);
		side_free(&sd[1]);
		return status;
	}

	struct row *rows = NULL;
	size_t nrows = 0, caprows = 0;
	int nexc = 0;
	int *checked = xcalloc((size_t)o->nlimits + 1, sizeof(*checked));
	struct emap *maps = xcalloc((size_t)o->nlimits + 1, sizeof(*maps));
	for (int i = 0; i < o->nlimits; i++) {
		const struct limit *l = &o->limits[i];
		cost_t base = event_value(&sd[0].p, sd[0].p.totals, ev[i][0]);
		cost_t nw = event_value(&sd[1].p, sd[1].p.totals, ev[i][1]);
		if (l->scope == LIMIT_TOTAL) {
			struct row r = { i, NULL, base, nw, (cost_t)((uint64_t)nw - (uint64_t)base), 0, 0 };
			r.pct = percent_of(r.change, r.base);
			r.exceeded = exceeds(l, r.change, r.pct);
			nexc += r.exceeded;
			checked[i] = 1; /* (the one total) */
			VEC_RESERVE(rows, caprows, nrows + 1);
			rows[nrows++] = r;
			continue;
		}
		/* the floor: a count, or a percent of the base total */
		double floor_ = o->min_cost_percent ? o->min_cost * fabs((double)base) / 100.0 : o->min_cost;
		for (int k = 0; k < 2; k++)
			collect(&maps[i], k, &sd[k].p, l, ev[i][k]);
		int exc = 0;
		for (size_t j = 0; j < maps[i].n; j++) {
			const struct entry *e = &maps[i].e[j];
			if ((double)cost_mag(e->v[0]) < floor_ && (double)cost_mag(e->v[1]) < floor_)
				continue;
			if (e->v[0] == 0 && e->v[1] == 0)
				continue;
			checked[i]++;
			struct row r = { i, e->name, e->v[0], e->v[1],
					 (cost_t)((uint64_t)e->v[1] - (uint64_t)e->v[0]), 0, 0 };
			r.pct = percent_of(r.change, r.base);
			r.exceeded = exceeds(l, r.change, r.pct);
			if (!r.exceeded)
				continue;
			exc = 1;
			VEC_RESERVE(rows, caprows, nrows + 1);
			rows[nrows++] = r;
		}
		nexc += exc;
		if (!checked[i])
			fprintf(stderr, "cgtui: warning: --limit-%s=%s: no %s matches in either profile%s\n",
				scope_name[l->scope], l->pattern,
				l->scope == LIMIT_FILE ? "file" : l->scope == LIMIT_OBJECT ? "object" : "function",
				o->min_cost ? " above --min-cost" : "");
	}
	if (nrows > 1)
		qsort(rows, nrows, sizeof(*rows), cmp_row);
	if (o->format == FORMAT_MARKDOWN)
		write_markdown(out, o, sd, rows, nrows, nexc, checked);
	else if (o->format == FORMAT_JSON)
		write_json(out, o, sd, rows, nrows, nexc, checked);
	else
		write_text(out, o, sd, rows, nrows, nexc, checked);
	int werr = fflush(out) != 0 || ferror(out);
	if (werr)
		fprintf(stderr, "cgtui: error writing the verdict: %s\n", strerror(errno));
	for (int i = 0; i < o->nlimits; i++)
		emap_free(&maps[i]);
	free(maps);
	free(checked);
	free(rows);
	side_free(&sd[0]);
	side_free(&sd[1]);
	return werr ? 1 : nexc ? 3 : 0;
}
