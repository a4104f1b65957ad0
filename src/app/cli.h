/* cli.h -- cgtui's command line: one option table (it also makes --help),
 * parsed into one struct cli for every mode: reading profiles (the report
 * or the explorer), recording a program, live control.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_CLI_H
#define CGTUI_CLI_H

#include <stdio.h>

#include "profile/modname.h"
#include "profile/scope.h"
#include "record/record.h"
#include "report/check.h"
#include "report/report.h"
#include "source/srcfile.h"

enum cli_mode {
	CLI_READ,       /* profiles: the report, or the explorer on a terminal */
	CLI_RECORD,     /* cgtui [options] PROGRAM [ARG]... */
	CLI_CONTROL,    /* cgtui --control PID CMD */
	CLI_KEYS,       /* --keys[=man|views]: the key table */
	CLI_DONE,       /* --help, --version: written */
};

struct cli {
	enum cli_mode mode;
	char *invocation;               /* the command line, for the report's metadata */
	/* the profiles (CLI_READ; none: the newest here), or the program and
	 * its arguments (CLI_RECORD): argv's */
	char **operands;
	int noperands;
	int batch;                      /* the report (or --format, --export) */
	int diff;                       /* --diff: the second minus the first */
	struct report_opts ro;          /* the report's options */
	const char *show, *sort;        /* event lists, parsed once a profile is there */
	/* what was given, for the explorer's start (-1: not given) */
	double threshold;
	int percent, context, cycles_given;
	struct modname *modfile, *modfn; /* --mod-filename, --mod-funcname */
	const char **incdirs;           /* -I */
	int nincdirs;
	struct srclookup look;          /* --subst */
	const char **asmfns;            /* --annotate-asm */
	int nasmfns;
	const char **evdefs;            /* --event */
	int nevdefs;
	int cycles;                     /* --cycles [yes] */
	int jobs;                       /* --jobs: threads reading a profile (0: CPUs) */
	int fold;                       /* --fold-recursion [no] */
	int normalize_names;            /* --normalize-names: compiler numbering dropped
					 * when profiles are compared [no] */
	int match_builds;               /* --match-builds: two builds' paths matched
					 * when profiles are compared [yes] */
	int demangle;                   /* --demangle [yes] */
	struct partset parts;           /* --parts, --threads, --pids (none: all) */
	struct share_opts share;        /* --check, --limit*, --format, --export */
	/* recording */
	struct rec_cfg rec;
	int no_open;                    /* --no-open: only record */
	/* live control */
	long control_pid;
	const char *control_what;
	const char *keys;               /* --keys's argument, or NULL */
};

/* Parses argv into c.  Returns 0 to go on in c->mode (CLI_DONE: --help or
 * --version written, exit 0), or the exit status of a usage
 * error (its message on stderr). */
int cli_parse(struct cli *c, int argc, char **argv);
void cli_free(struct cli *c);

/* --help */
void cli_usage(FILE *f);

#endif
