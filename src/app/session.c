/* session.c -- the inputs and the one load path (session.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/session.h"
#include "profile/scope.h"
#include "profile/aggregate.h"
#include "profile/demangle.h"
#include "profile/import.h"
#include "profile/load.h"
#include "profile/modname.h"
#include "profile/util.h"
#include "source/elfsym.h"
#include "tui/progress.h"

/* The -I directories, then each file's own directory (and with
 * `profile_dirs` 0, none of those: the recorder's run is in a temporary
 * directory, its program ran here). */
static void set_dirs(struct session *s, int profile_dirs)
{
	for (int i = s->ndirs - s->nowned; i < s->ndirs; i++)
		free((char *)s->dirs[i]);
	free(s->dirs);
	const struct cli *c = s->cli;
	s->dirs = xcalloc((size_t)c->nincdirs + (size_t)s->in.n + 1, sizeof(*s->dirs));
	s->ndirs = s->nowned = 0;
	for (int i = 0; i < c->nincdirs; i++)
		s->dirs[s->ndirs++] = c->incdirs[i];
	for (int i = 0; profile_dirs && i < s->in.n; i++) {
		const char *sl = strrchr(s->in.v[i], '/');
		if (sl) {
			s->dirs[s->ndirs++] = xstrndup(s->in.v[i], (size_t)(sl - s->in.v[i]));
			s->nowned++;
		}
	}
}

/* Forgets what matching across builds decided (the sides change). */
static void match_clear(struct session *s)
{
	modname_free(s->filemod);
	modname_free(s->pathmod);
	modname_free(s->fnmod);
	free(s->match_note);
	for (size_t i = 0; i < s->nfirst_paths; i++)
		free(s->first_paths[i]);
	free(s->first_paths);
	free(s->first_cmd);
	s->first_cmd = NULL;
	s->nfirst_objs = 0;
	s->matched = 0;
	s->pathmod = s->filemod = s->fnmod = NULL;
	s->match_note = NULL;
	s->first_paths = NULL;
	s->nfirst_paths = 0;
}

/* The sides kept for the explorer forgotten */
static void sides_free(struct session *s)
{
	for (int k = 0; k < 2; k++) {
		if (s->side[k])
			profile_free(s->side[k]);
		free(s->side[k]);
		s->side[k] = NULL;
		partset_clear(&s->side_parts[k]);
	}
}

/* s->in made of the sides: the files compared with (if any), then the
 * profile's own, or (swapped) the other way round; the source directories
 * theirs. */
static void compose(struct session *s)
{
	run_files_free(&s->in);
	run_files_copy(&s->in, s->swapped ? &s->own : &s->base);
	s->nfirst = s->in.n;
	run_files_copy(&s->in, s->swapped ? &s->base : &s->own);
	s->diff = s->base.n > 0;
	set_dirs(s, s->profile_dirs);
	match_clear(s);
	sides_free(s);
	if (s->diff && s->cli->normalize_names)
		s->fnmod = modname_numbering(s->cli->modfn);
}

int session_open(struct session *s, const struct cli *c)
{
	memset(s, 0, sizeof(*s));
	s->cli = c;
	s->fold = c->fold;
	partset_copy(&s->parts, &c->parts);
	if (c->mode == CLI_RECORD) {
		set_dirs(s, 0);
		return 0;
	}
	s->profile_dirs = 1;
	if (!c->noperands) {
		char *newest = run_newest();
		if (!newest) {
			cli_usage(stderr);
			fprintf(stderr, "\ncgtui: no profile given and no callgrind.out.* or "
					"cachegrind.out.* in the current directory\n");
			return 1;
		}
		run_files_add(&s->own, newest, 0);
		free(newest);
	}
	/* each side of a diff can be a run of several files (threads, dumps):
	 * the first is what the profile is compared with */
	for (int i = 0; i < c->noperands; i++) {
		struct runfiles *side = i == 0 && (c->diff || c->share.check) ? &s->base : &s->own;
		int before = side->n;
		run_files_add(side, c->operands[i], 0);
		/* a file beside a profile (its .ctx, .time) stands for none
		 * (run_files_add): fine among others (callgrind.out.*), not as
		 * a side of a diff or as all there is */
		if (side->n == before &&
		    (c->diff || (i == c->noperands - 1 && !s->own.n && !s->base.n))) {
			size_t n = strlen(c->operands[i]);
			const char *suf = strrchr(c->operands[i], '.');
			fprintf(stderr, "cgtui: %s: %s of the profile %.*s, not a profile: "
					"cgtui %.*s reads both\n", c->operands[i],
				suf && !strcmp(suf, ".time") ? "the timeline" : "the calling contexts",
				(int)(n - strlen(suf ? suf : "")), c->operands[i],
				(int)(n - strlen(suf ? suf : "")), c->operands[i]);
			return 1;
		}
	}
	compose(s);
	return 0;
}

void session_set_run(struct session *s, const char *base, int whole)
{
	run_files_free(&s->own);
	run_files_add(&s->own, base, whole);
	compose(s);
}

void session_add_run(struct session *s, const char *base)
{
	run_files_add(&s->own, base, 1);
	compose(s);
}

/* What a compare step changes, kept for session_compare_undo; the
 * parts chosen by index (the explorer's P) are all again: the indices
 * change with the sides. */
static void compare_keep(struct session *s)
{
	run_files_free(&s->prev_own);
	run_files_free(&s->prev_base);
	run_files_copy(&s->prev_own, &s->own);
	run_files_copy(&s->prev_base, &s->base);
	s->prev_swapped = s->swapped;
	partset_clear(&s->prev_parts);
	partset_copy(&s->prev_parts, &s->parts);
	if (s->parts.bits) {
		free(s->parts.bits);
		s->parts.bits = NULL;
		s->parts.nbits = 0;
	}
}

/* The second side's files are the profile's own (not swapped). */
static void second_as_own(struct session *s)
{
	if (s->swapped) {
		struct runfiles t = s->own;
		s->own = s->base;
		s->base = t;
		s->swapped = 0;
	}
}

int session_compare(struct session *s, const char *with, char *err, size_t errsz)
{
	struct runfiles rf = { 0 };
	run_files_add(&rf, with, 0);
	if (!rf.n) {
		snprintf(err, errsz, "%s: the calling contexts or timeline of a profile, not a profile",
			 with);
		run_files_free(&rf);
		return -1;
	}
	compare_keep(s);
	second_as_own(s);
	run_files_free(&s->base);
	s->base = rf;
	compose(s);
	return 0;
}

void session_compare_swap(struct session *s)
{
	compare_keep(s);
	s->swapped = !s->swapped;
	compose(s);
}

void session_compare_alone(struct session *s, int side)
{
	compare_keep(s);
	second_as_own(s);
	if (side == 1) {
		struct runfiles t = s->own;
		s->own = s->base;
		s->base = t;
	}
	run_files_free(&s->base);
	compose(s);
}

void session_compare_undo(struct session *s)
{
	run_files_free(&s->own);
	run_files_free(&s->base);
	s->own = s->prev_own;
	s->base = s->prev_base;
	memset(&s->prev_own, 0, sizeof(s->prev_own));
	memset(&s->prev_base, 0, sizeof(s->prev_base));
	s->swapped = s->prev_swapped;
	partset_clear(&s->parts);
	s->parts = s->prev_parts;
	memset(&s->prev_parts, 0, sizeof(s->prev_parts));
	compose(s);
}

void session_free(struct session *s)
{
	run_files_free(&s->in);
	run_files_free(&s->own);
	run_files_free(&s->base);
	run_files_free(&s->prev_own);
	run_files_free(&s->prev_base);
	for (int i = s->ndirs - s->nowned; i < s->ndirs; i++)
		free((char *)s->dirs[i]);
	free(s->dirs);
	partset_clear(&s->parts);
	partset_clear(&s->prev_parts);
	match_clear(s);
	sides_free(s);
	memset(s, 0, sizeof(*s));
}

/* Whether to defer line records (load_opts.lazy_lines): `want`, unless the
 * environment's CGTUI_LAZY_LINES says 0 or 1 (for tests). */
static int lazy_lines(int want)
{
	const char *e = getenv("CGTUI_LAZY_LINES");
	return e && (*e == '0' || *e == '1') ? *e == '1' : want;
}

/* The paths (objects, files) of p's tables from the ids objs and files
 * on, appended to v[*n]: pointers into p. */
static void table_paths(const struct profile *p, uint32_t objs, uint32_t files, const char ***v,
			size_t *n)
{
	*v = xreallocarray(*v, *n + (p->objs.n - objs) + (p->files.n - files) + 1, sizeof(**v));
	for (uint32_t i = objs; i < p->objs.n; i++)
		(*v)[(*n)++] = p->objs.str[i];
	for (uint32_t i = files; i < p->files.n; i++)
		(*v)[(*n)++] = p->files.str[i];
}

/* The command of p's part k (from 0), or p's. */
static const char *part_cmd(const struct profile *p, int k)
{
	return k < p->nparts && p->parts[k].cmd ? p->parts[k].cmd : p->cmd;
}

/* Matching across builds decided, after a load of both sides into p
 * (the first's names are the tables' ids below nobjs, nfiles, its parts
 * those below npart) or of the second alone (the first's paths kept by
 * its load alone); the first alone keeps its paths for that.  1 when the
 * second side's paths are to be rewritten: p is to be loaded again. */
static int match_decide(struct session *s, const struct profile *p, int side, uint32_t nobjs,
			uint32_t nfiles, int npart)
{
	if (!s->diff || s->matched || !s->cli->match_builds)
		return 0;
	if (side == 1) {
		const char **v = NULL;
		size_t n = 0;
		table_paths(p, 0, 0, &v, &n);
		for (size_t i = 0; i < s->nfirst_paths; i++)
			free(s->first_paths[i]);
		s->first_paths = xreallocarray(s->first_paths, n + 1, sizeof(*s->first_paths));
		for (size_t i = 0; i < n; i++)
			s->first_paths[i] = xstrdup(v[i]);
		s->nfirst_paths = n;
		s->nfirst_objs = p->objs.n;
		free(s->first_cmd);
		s->first_cmd = part_cmd(p, 0) ? xstrdup(part_cmd(p, 0)) : NULL;
		free(v);
		return 0;
	}
	if (side == 2 && !s->first_paths)
		return 0;
	const char **a = NULL, **b = NULL;
	size_t na = 0, nb = 0;
	if (side == 2) {
		a = xreallocarray(NULL, s->nfirst_paths + 1, sizeof(*a));
		for (; na < s->nfirst_paths; na++)
			a[na] = s->first_paths[na];
		table_paths(p, 0, 0, &b, &nb);
	} else {
		/* the first's: the tables' names before the second's load (a
		 * path of both is the first's: nothing to match); the second's:
		 * those after */
		a = xreallocarray(NULL, (size_t)nobjs + nfiles + 1, sizeof(*a));
		for (uint32_t i = 0; i < nobjs; i++)
			a[na++] = p->objs.str[i];
		for (uint32_t i = 0; i < nfiles; i++)
			a[na++] = p->files.str[i];
		table_paths(p, nobjs, nfiles, &b, &nb);
	}
	char **from, **to;
	int n = modname_match_paths(a, na, b, nb, &from, &to);
	/* the program itself renamed: the first rule, of objects only */
	size_t nao = side == 2 ? s->nfirst_objs : nobjs;
	const char *acmd = side == 2 ? s->first_cmd : part_cmd(p, 0);
	struct modname *pre = n ? modname_prefixes(NULL, (const char *const *)from,
						   (const char *const *)to, n) : NULL;
	char *pf, *pt;
	int prog = modname_match_program(acmd, a, nao, part_cmd(p, side == 2 ? 0 : npart),
					 (const char *const *)&p->objs.str[side == 2 ? 0 : nobjs],
					 p->objs.n - (side == 2 ? 0 : nobjs), pre, &pf, &pt);
	modname_free(pre);
	if (prog) {
		from = xreallocarray(from, (size_t)n + 2, sizeof(*from));
		to = xreallocarray(to, (size_t)n + 2, sizeof(*to));
		memmove(from + 1, from, (size_t)n * sizeof(*from));
		memmove(to + 1, to, (size_t)n * sizeof(*to));
		from[0] = pf;
		to[0] = pt;
		n++;
	}
	free(a);
	free(b);
	s->matched = 1;
	if (n) {
		/* said in one line: "A as B, C as D" */
		size_t len = 128;
		for (int i = 0; i < n; i++)
			len += strlen(from[i]) + strlen(to[i]) + 8;
		char *o = s->match_note = xmalloc(len);
		o += sprintf(o, "matched across builds: the second profile's ");
		for (int i = 0; i < n; i++)
			o += sprintf(o, "%s%s as %s", i ? ", " : "", from[i], to[i]);
		sprintf(o, " (the first's)");
		s->pathmod = modname_prefixes(NULL, (const char *const *)from, (const char *const *)to, n);
		s->filemod = modname_prefixes(s->cli->modfile, (const char *const *)from + prog,
					      (const char *const *)to + prog, n - prog);
	}
	for (int i = 0; i < n; i++) {
		free(from[i]);
		free(to[i]);
	}
	free(from);
	free(to);
	return n > 0;
}

/* Does this load of a difference show inclusive costs (are its sides to be
 * loaded alone)?  The explorer's do (but for the assembly view's); the
 * report's with --inclusive, --tree or as JSON. */
static int sides_wanted(const struct session *s, const struct load_ctl *ctl)
{
	const struct cli *c = s->cli;
	return s->diff && !ctl->side && !ctl->sink &&
	       (ctl->explorer || c->ro.inclusive || c->ro.tree || c->share.format == FORMAT_JSON);
}

/* The difference p's inclusive costs from its sides, each loaded alone of
 * the parts p shows of it (none: no side), as the explorer loads them
 * (agg_take_side); kept for the explorer, else freed.  A side that does not load alone (an --event
 * formula naming an event of the other side only) is said in a warning:
 * the members of its cycles keep self + the calls to other functions. */
static void take_sides(struct session *s, struct profile *p, const struct load_ctl *ctl)
{
	struct load_ctl sc = { .lazy = ctl->lazy, .recover = ctl->recover,
			       .explorer = ctl->explorer };
	struct partset keep = s->parts;
	sides_free(s);
	for (int k = 0; k < 2; k++) {
		struct partset ps = { 0 };
		int some = diff_side_parts(p, k + 1, &ps);
		if (some < 0)
			continue;
		if (some)
			s->parts = ps;
		struct profile *sp = xmalloc(sizeof(*sp));
		char err[512];
		sc.side = k + 1;
		int rc = session_load(s, sp, &sc, err, sizeof(err));
		s->parts = keep;
		if (rc < 0) {
			profile_warn(p, "the %s profile alone: %s: the inclusive costs of the "
					"functions of its cycles are self + the calls to others",
				     k ? "second" : "first", err);
			free(sp);
			partset_clear(&ps);
			continue;
		}
		profile_index_fn_text(sp); /* (for profile_fn_like) */
		agg_take_side(p, sp, k);
		s->side[k] = sp;
		partset_copy(&s->side_parts[k], some ? &ps : &keep);
		partset_clear(&ps);
		if (!ctl->explorer) /* (one side at a time) */
			sides_free(s);
	}
}

int session_load(struct session *s, struct profile *p, const struct load_ctl *ctl, char *err,
		 size_t errsz)
{
	const struct cli *c = s->cli;
	/* a side loaded with the difference, of those parts: handed over */
	struct profile **kept = ctl->side ? &s->side[ctl->side - 1] : NULL;
	if (kept && *kept && partset_same(&s->parts, &s->side_parts[ctl->side - 1])) {
		*p = **kept;
		free(*kept);
		*kept = NULL;
		partset_clear(&s->side_parts[ctl->side - 1]);
		return 0;
	}
again:
	profile_init(p);
	p->jobs = c->jobs; /* the aggregation's threads too */
	progress_watch(ctl->pr, p);
	int from = ctl->side == 2 ? s->nfirst : 0, to = ctl->side == 1 ? s->nfirst : s->in.n;
	uint32_t nobjs = 0, nfiles = 0;
	int npart = 0;
	for (int i = from; i < to; i++) {
		int second = s->diff && i >= s->nfirst;
		if (second && i == s->nfirst) {
			nobjs = p->objs.n;
			nfiles = p->files.n;
			npart = p->nparts;
		}
		p->objmod = second ? s->pathmod : NULL;
		/* (lines are never deferred with a set of parts or a sink: load.h) */
		struct load_opts lo = { .sign = s->diff && !ctl->side && i < s->nfirst ? -1 : 1,
					.modfile = second && s->filemod ? s->filemod : c->modfile,
					.modfn = s->fnmod ? s->fnmod : c->modfn,
					.fold_contexts = s->fold, .parts = &s->parts,
					.instr = ctl->sink, .lazy_lines = lazy_lines(ctl->lazy),
					.skip_jumps = 1, .jobs = c->jobs,
					.progress = ctl->pr ? progress_update : NULL,
					.progress_arg = ctl->pr };
		int rc = profile_load_any(p, s->in.v[i], &lo, err, errsz);
		if (ctl->pr) {
			struct stat st;
			progress_next_file(ctl->pr, stat(s->in.v[i], &st) == 0 ? (uint64_t)st.st_size : 0);
		}
		if (rc < 0) {
			profile_free(p);
			return rc;
		}
	}
	p->objmod = NULL;
	if (match_decide(s, p, ctl->side, nobjs, nfiles, npart)) {
		profile_free(p);
		if (ctl->pr)
			ctl->pr->before = 0; /* (the bar starts again) */
		goto again;
	}
	if (s->match_note && ctl->side != 1)
		profile_warn(p, "%s", s->match_note);
	/* (the call graph's components meanwhile, on a second thread, for
	 * the report: begun there, the explorer's peak memory was 1.2 MB
	 * higher at 1 GB) */
	struct agg_early *early = ctl->pairs ? agg_start(p) : NULL;
	profile_finish(p);
	int shown = 0;
	for (int k = 1; k <= p->nparts; k++)
		shown += part_shown(p, k);
	if (p->nparts && !shown) {
		char opts[64] = "";
		for (int f = 0; f < PART_NFIELDS; f++)
			if (s->parts.by[f].n)
				snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts), "%s%s",
					 *opts ? ", " : "", part_field_option[f]);
		snprintf(err, errsz, "%s: none of the profile's %d part%s is one of those (their "
				     "numbers, threads and pids: the explorer's P view)",
			 *opts ? opts : "parts", p->nparts, p->nparts == 1 ? "" : "s");
		agg_early_free(early);
		profile_free(p);
		return SESSION_USAGE;
	}
	if (c->demangle)
		profile_demangle(p);
	if (s->in.note)
		profile_warn(p, "%s", s->in.note);
	p->agg_roots0 = ctl->roots0 && c->cycles;
	p->agg_pairs = ctl->pairs;
	agg_finish(p, early);
	if (sides_wanted(s, ctl))
		take_sides(s, p, ctl);
	profile_set_cycles(p, c->cycles);
	for (int i = 0; i < c->nevdefs; i++) {
		char msg[256];
		if (profile_define_event_text(p, c->evdefs[i], msg, sizeof(msg)) < 0) {
			snprintf(err, errsz, "--event: %s", msg);
			profile_free(p);
			return SESSION_USAGE;
		}
	}
	if (ctl->recover)
		recover_symbols(p);
	return 0;
}
