/* check.h -- the CI gate (cgtui --check BASE NEW --limit ...), and the
 * options of the report/ room that the command line passes on: --check,
 * the limits, --min-cost, --format and --export.
 *
 * A limit is EVENT=CHANGE, CHANGE a signed number of events or a percent
 * of the base cost ("+1%", "+5000", "0", "-2%"): it is exceeded when the
 * new cost minus the base cost is above it.  --limit checks the totals;
 * --limit-function (inclusive cost), --limit-self (self cost),
 * --limit-file and --limit-object (self costs of their functions) check
 * each function, file or object whose name the pcre2 pattern before the
 * last ':' finds, on its own against its own base cost: PATTERN:EVENT=CHANGE,
 * split at the last '=' and the last ':' before it, so a C++ name's '::'
 * and any '=' are the pattern's.  Functions are the same in both runs when
 * their names, objects and files are, as in a difference (the session's
 * load matches two builds' paths, and names with --normalize-names).
 * Absent from BASE,
 * a cost is new: any increase is above a percent limit.  With --min-cost=N
 * (or N% of the base total) a function, file or object whose base and new
 * costs are both under N is not checked.  Exit status: 0 within the
 * limits, 3 when one is exceeded, 1 for a usage error, 2 for a profile
 * that cannot be read.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_CHECK_H
#define CGTUI_CHECK_H

#include <stddef.h>
#include <stdio.h>

#include "export.h"
#include "profile/load.h"
#include "profile/model.h"
#include "report.h"

enum share_format { FORMAT_TEXT, FORMAT_MARKDOWN, FORMAT_JSON };
enum limit_scope { LIMIT_TOTAL, LIMIT_FUNCTION, LIMIT_SELF, LIMIT_FILE, LIMIT_OBJECT };

struct limit {
	enum limit_scope scope;
	char *pattern;      /* NULL for the totals */
	void *re;           /* pcre2_code */
	char *event;
	double value;       /* the change allowed */
	int percent;        /* value is a percent of the base cost */
	char *text;         /* the change as given ("+1%") */
};

struct share_opts {
	int check;
	enum share_format format;
	enum export_kind export;
	struct limit *limits;
	int nlimits;
	double min_cost;
	int min_cost_percent;
};

/* Takes one of the options above (name without "--", its argument);
 * 0, or -1 with a message for a usage error. */
int share_option(struct share_opts *o, const char *name, const char *arg, char *err, size_t errsz);
/* After the options: -1 with a message when they do not go together. */
int share_options_done(const struct share_opts *o, char *err, size_t errsz);
void share_opts_free(struct share_opts *o);

/* What --format=json or --export asks of the loaded profile p (with the
 * report's events, sort and threshold), written to out: -1 when neither
 * was asked (the text report is), else the exit status (messages on
 * stderr). */
int share_write(FILE *out, const struct share_opts *o, struct profile *p,
		const struct report_opts *ro);

/* Loads side k (0: BASE, 1: NEW) into p, as the command line says (its
 * messages on stderr): 0, or the exit status. */
typedef int (*check_load_fn)(void *arg, int side, struct profile *p);

/* The gate: files [0, nfirst) are BASE, [nfirst, nfiles) NEW (named in
 * the verdict), loaded by load.  Writes the verdict to out, messages to
 * stderr; returns the exit status. */
int check_run(FILE *out, const struct share_opts *o, char *const *files, int nfiles, int nfirst,
	      check_load_fn load, void *arg);

#endif
