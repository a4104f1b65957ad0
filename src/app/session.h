/* session.h -- what cgtui works on: the inputs named on the command line
 * (or the recorder's run), the files they stand for, the one way they
 * are loaded (mods, events, demangling, folding, cycles, the diff's
 * sides), and where sources are looked for.  The report, the explorer,
 * --check and the recording's explorer all load through it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SESSION_H
#define CGTUI_SESSION_H

#include <stddef.h>

#include "app/cli.h"
#include "profile/model.h"
#include "profile/runfiles.h"

struct progress;
struct instr_sink;

struct session {
	const struct cli *cli;
	struct runfiles in;     /* the files loaded; a diff's first side is [0, nfirst) */
	int nfirst;
	int diff;               /* in is a difference: the second side minus the first */
	/* the sides in is made of: the profile's own files, and those it is
	 * compared with (--diff's and --check's first profile, the explorer's
	 * A), first unless swapped */
	struct runfiles own, base;
	int swapped;
	int profile_dirs;       /* sources looked for beside the files (not a recording's) */
	/* before the last compare step (session_compare_undo) */
	struct runfiles prev_own, prev_base;
	int prev_swapped;
	/* where sources are looked for: the -I directories, then the
	 * profiles' own (relative names are tried from there too) */
	const char **dirs;
	int ndirs, nowned;      /* (the last nowned are malloc'ed) */
	int fold;               /* f'2 and f'caller folded (--fold-recursion, R) */
	/* the parts whose costs are loaded (--parts, --threads; the explorer's
	 * P view changes it): every view's totals are theirs */
	struct partset parts;
	struct partset prev_parts;
	/* Matching across builds (modname.h), for the sides as composed:
	 * decided at the first load that sees both (matched), the second
	 * side's paths then rewritten to the first's as they load (pathmod,
	 * filemod: after --mod-filename; NULL when none differ), what was
	 * taken as the same said by match_note; the first side's paths
	 * (objects, then files) and command kept from its load alone, for the
	 * second's (--check loads them so). */
	int matched;
	struct modname *pathmod, *filemod;
	struct modname *fnmod;  /* --normalize-names after --mod-funcname, or NULL */
	char *match_note;
	char **first_paths;
	size_t nfirst_paths, nfirst_objs;
	char *first_cmd;
	/* A difference's sides alone, loaded with it when its inclusive costs
	 * are wanted (session_load, agg_take_side), each of the parts in
	 * side_parts; kept until the explorer asks for them (a load of that
	 * side of those parts hands it over) or the next load; NULL: none. */
	struct profile *side[2];
	struct partset side_parts[2];
};

/* The inputs of c: its operands, or the newest profile here.  0, or the
 * exit status with a message on stderr. */
int session_open(struct session *s, const struct cli *c);
/* The inputs are the run `base` now (the recorder's snapshot, then its
 * final profile; runfiles.h's `whole`). */
void session_set_run(struct session *s, const char *base, int whole);
/* And the run `base` too (a forked child's profile). */
void session_add_run(struct session *s, const char *base);
void session_free(struct session *s);

/* A difference made in the explorer (A): the second side's files (the
 * profile's own, when it is none) minus the run `with` (0, or -1 with the
 * reason in err when `with` stands for no profile); its sides swapped;
 * one side alone (1 the first, 2 the second); and the step before undone
 * (its load failed).  Each step shows all parts again when they were
 * chosen by index (P), since the sides change the indices. */
int session_compare(struct session *s, const char *with, char *err, size_t errsz);
void session_compare_swap(struct session *s);
void session_compare_alone(struct session *s, int side);
void session_compare_undo(struct session *s);

/* How one load goes. */
struct load_ctl {
	int side;                       /* a diff's sides: 0 both (the second minus the
					 * first), 1 the first only, 2 the second only */
	const struct instr_sink *sink;  /* instructions for the assembly view, or NULL */
	int lazy;                       /* per-line costs read when asked for */
	int recover;                    /* names of the functions known by address only */
	int explorer;                   /* the explorer's: a difference's sides kept for
					 * its A and B columns */
	int roots0;                     /* the call tree's roots of event 0 made by the
					 * aggregation (the explorer sorting by it: its
					 * first t needs them) */
	int pairs;                      /* the file:function pairs made by the
					 * aggregation (the report's first section) */
	struct progress *pr;            /* a progress bar, or NULL */
};

/* Loads the session's files into p (initialised here; freed on an
 * error): each side of a diff with its sign, names rewritten and folded
 * as asked, then demangled, cycles as --cycles says, the --event formulas
 * defined; the costs of the parts in s->parts only.  A difference whose
 * inclusive costs are shown (the explorer's; the report's with
 * --inclusive, --tree or JSON) has them from each side loaded alone
 * (agg_take_side), the sides kept for the explorer (s->side).  0, or -1
 * with the message in err (LOAD_CANCELLED: q during the load;
 * SESSION_USAGE: a usage error: an --event formula, or
 * --parts/--threads/--pids naming no part of the profile). */
#define SESSION_USAGE (-3)
int session_load(struct session *s, struct profile *p, const struct load_ctl *ctl, char *err,
		 size_t errsz);

#endif
