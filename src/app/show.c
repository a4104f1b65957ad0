/* show.c -- what is done with a loaded profile, in either mode: the
 * explorer (its loader is the session's), or the report.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "app/app_int.h"
#include "profile/escape.h"
#include "profile/query.h"
#include "report/check.h"
#include "report/report.h"
#include "source/asmannot.h"
#include "source/elfsym.h"
#include "tui/tui.h"

/* ---- the explorer's loader: the session (and the recorder's newest run) ---------------- */

static int load_sink(void *arg, struct profile *p, const struct instr_sink *sink, char *err,
		     size_t errsz)
{
	struct app_source *src = arg;
	struct load_ctl ctl = { .sink = sink, .lazy = 1, .recover = !sink, .explorer = 1 };
	return session_load(src->s, p, &ctl, err, errsz);
}

static int load_all(void *arg, struct profile *p, char *err, size_t errsz)
{
	struct app_source *src = arg;
	if (src->r)
		app_recorded_inputs(src);
	return load_sink(arg, p, NULL, err, errsz);
}

/* One side of the difference alone (the explorer's A and B columns), as
 * --check loads each (read.c), of the parts asked for: the session's set
 * stands for them while it loads */
static int load_side(void *arg, int side, const struct partset *parts, struct profile *p,
		     char *err, size_t errsz)
{
	struct session *s = ((struct app_source *)arg)->s;
	struct load_ctl ctl = { .side = side, .lazy = 1, .recover = 1, .explorer = 1 };
	struct partset keep = s->parts;
	if (parts)
		s->parts = *parts;
	int rc = session_load(s, p, &ctl, err, errsz);
	s->parts = keep;
	return rc;
}

int app_events(const struct cli *c, const struct profile *p, struct report_opts *ro, char *err,
	       size_t errsz)
{
	if (c->show && report_parse_events(p, c->show, ro->show, &ro->nshow, "show", err, errsz) < 0)
		return 1;
	if (c->sort && report_parse_events(p, c->sort, ro->sort, &ro->nsort, "sort", err, errsz) < 0)
		return 1;
	ro->invocation = c->invocation;
	ro->src_dirs = NULL;
	ro->nsrc_dirs = 0;
	ro->look = &c->look;
	ro->modfile = c->modfile;
	return 0;
}

void app_tui_start(const struct cli *c, const struct report_opts *ro, struct tui_start *start)
{
	*start = (struct tui_start){ .sort_event = c->sort && ro ? ro->sort[0] : -1,
				     .threshold = c->threshold, .percent = c->percent,
				     .context = c->context, .cycles = c->cycles_given,
				     .nshow = c->show && ro ? ro->nshow : 0 };
	if (c->show && ro)
		memcpy(start->show, ro->show, sizeof(start->show));
}

/* A: the session's sides changed (the explorer loads them then) */
static int compare(void *arg, int op, const char *with, char *err, size_t errsz)
{
	struct session *s = ((struct app_source *)arg)->s;
	switch (op) {
	case TUI_CMP_WITH: return session_compare(s, with, err, errsz);
	case TUI_CMP_SWAP: session_compare_swap(s); return 0;
	case TUI_CMP_FIRST: session_compare_alone(s, 1); return 0;
	case TUI_CMP_SECOND: session_compare_alone(s, 2); return 0;
	case TUI_CMP_UNDO: session_compare_undo(s); return 0;
	default: return -1;
	}
}

int app_explore(struct app_source *src, struct profile *p, const struct report_opts *ro,
		const struct tui_live *live)
{
	const struct cli *c = src->s->cli;
	struct tui_loader ld = { .load = load_all, .arg = src, .load_instr = load_sink,
				 .look = &c->look, .fold = &src->s->fold, .modfile = c->modfile,
				 .parts = &src->s->parts, .compare = compare,
				 .load_side = load_side };
	struct tui_start start;
	app_tui_start(c, ro, &start);
	struct tui_args ta = { .loader = &ld, .src_dirs = src->s->dirs, .nsrc_dirs = src->s->ndirs,
			       .start = &start, .live = live, .from = src->screen };
	return tui_run(p, &ta);
}

/* --annotate-asm: each function of that name (or whose ELF symbol it is);
 * how many names matched no function */
static int annotate_asm(FILE *out, struct app_source *src, struct profile *p,
			const struct report_opts *ro)
{
	const struct cli *c = src->s->cli;
	int missing = 0;
	int ev[MAX_EVENTS], nev = ro->nshow;
	memcpy(ev, ro->show, sizeof(ev));
	if (!nev)
		for (int e = 0; e < p->nreal; e++)
			ev[nev++] = e;
	for (int i = 0; i < c->nasmfns; i++) {
		int found = 0;
		for (uint32_t f = 0; f < p->nfns; f++) {
			const char *rec = p->recovered && p->recovered[f] != NO_ID
						  ? p->names.str[p->recovered[f]] : NULL;
			if (strcmp(fn_name(p, f), c->asmfns[i]) != 0 && !(rec && strcmp(rec, c->asmfns[i]) == 0))
				continue;
			struct asm_annot a;
			asm_annotate(&a, p, f, load_sink, src, &c->look);
			asm_rows(&a, ev[0], NULL, -1);
			asm_write(out, &a, ev, nev);
			asm_annot_free(&a);
			found = 1;
		}
		if (!found) {
			fprintf(stderr, "cgtui: --annotate-asm: no function %s in the profile\n", c->asmfns[i]);
			missing++;
		}
	}
	return missing;
}

int app_report(struct app_source *src, struct profile *p, struct report_opts *ro)
{
	const struct cli *c = src->s->cli;
	ro->src_dirs = src->s->dirs;
	ro->nsrc_dirs = src->s->ndirs;
	/* a profile without calls (Cachegrind's) has no inclusive costs: its
	 * report is cg_annotate's, whatever --inclusive says, not self costs
	 * under a heading that says inclusive */
	if (!query_has_calls(p))
		ro->inclusive = 0;
	int st = share_write(stdout, &c->share, p, ro); /* --format=json, --export */
	if (st >= 0)
		return st;
	/* on a terminal, names are escaped (they come from other people's files) */
	FILE *out = isatty(STDOUT_FILENO) ? escaping_stream(stdout) : NULL;
	report_write(out ? out : stdout, p, ro);
	int missing = 0;
	if (c->nasmfns) {
		recover_symbols(p);
		missing = annotate_asm(out ? out : stdout, src, p, ro);
	}
	if (out && fclose(out) != 0)
		fprintf(stderr, "cgtui: error writing the report: %s\n", strerror(errno));
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "cgtui: error writing the report: %s\n", strerror(errno));
		return 1;
	}
	return missing ? 1 : 0; /* a name to annotate that is not there: as a usage error */
}
