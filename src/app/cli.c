/* cli.c -- cgtui's command line (cli.h).
 *
 * One table names every option, says in which modes it is taken and holds
 * its --help text; getopt_long's table is made from it.  What is an
 * operand (a profile, or the program to record) is decided with the same
 * table: `cgtui [options] PROGRAM [ARG]...` records when the first operand
 * is a program, and the options before it are then the recording's.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "profile/util.h"

enum {
	OPT_BATCH = 256, OPT_SHOW, OPT_SORT, OPT_THRESHOLD, OPT_SHOW_PERCS, OPT_NO_SHOW_PERCS,
	OPT_ANNOTATE, OPT_NO_ANNOTATE, OPT_AUTO, OPT_CONTEXT, OPT_DIFF, OPT_MOD_FILENAME,
	OPT_MOD_FUNCNAME, OPT_INCLUSIVE, OPT_JOBS, OPT_TREE, OPT_VERSION, OPT_HELP, OPT_EVENT, OPT_KEYS,
	OPT_SUBST, OPT_ANNOTATE_ASM, OPT_CYCLES, OPT_FOLD, OPT_DEMANGLE, OPT_SHARE,
	OPT_STDIN, OPT_LOG, OPT_RECORD, OPT_NO_OPEN, OPT_TOOL_OPT, OPT_TOOLARG, OPT_CONTROL,
	OPT_PARTS, OPT_THREADS, OPT_PIDS, OPT_NORMALIZE, OPT_MATCH_BUILDS,
};

/* where an option is taken */
enum {
	READ = 1,       /* reading profiles */
	REC = 2,        /* recording a program (then the report or explorer of its profile) */
	BOTH = READ | REC,
};

struct cli_option {
	const char *name;       /* long name; NULL: a heading of --help */
	int shortopt;           /* or 0 */
	int has_arg;
	int id;
	int where;
	const char *help;       /* its lines in --help (NULL: another's lines name it) */
};

static const struct cli_option options[] = {
	{ NULL, 0, 0, 0, 0,
	  "Report options (as cg_annotate's and callgrind_annotate's; --show, --sort,\n"
	  "--threshold, --show-percs and --context also set the explorer's start):\n" },
	{ "batch", 0, no_argument, OPT_BATCH, BOTH,
	  "  --batch                  print the text report (after recording: of its profile)\n" },
	{ "show", 0, required_argument, OPT_SHOW, BOTH,
	  "  --show=A,B,C             events to show, in this order [all]\n" },
	{ "sort", 0, required_argument, OPT_SORT, BOTH,
	  "  --sort=A,B,C             events to sort by [all, in the file's order]\n" },
	{ "threshold", 0, required_argument, OPT_THRESHOLD, BOTH,
	  "  --threshold=X            hide functions under X% of the first sort event\n"
	  "                           (cg_annotate's rule, not callgrind_annotate's) [0.1]\n" },
	{ "show-percs", 0, optional_argument, OPT_SHOW_PERCS, BOTH,
	  "  --show-percs[=yes|no], --no-show-percs\n"
	  "                           percentages next to counts [yes]\n" },
	{ "no-show-percs", 0, no_argument, OPT_NO_SHOW_PERCS, BOTH, NULL },
	{ "annotate", 0, no_argument, OPT_ANNOTATE, BOTH,
	  "  --annotate, --no-annotate, --auto=yes|no\n"
	  "                           annotate source files [yes]\n" },
	{ "no-annotate", 0, no_argument, OPT_NO_ANNOTATE, BOTH, NULL },
	{ "auto", 0, required_argument, OPT_AUTO, BOTH, NULL },
	{ "context", 0, required_argument, OPT_CONTEXT, BOTH,
	  "  --context=N              lines of context around annotated lines [8]\n" },
	{ "diff", 0, no_argument, OPT_DIFF, READ,
	  "  --diff                   difference of two profiles (second minus first)\n" },
	{ "mod-filename", 0, required_argument, OPT_MOD_FILENAME, BOTH,
	  "  --mod-filename=s/A/B/[gi]  rewrite file names (pcre2 regex, \\1 in B)\n" },
	{ "mod-funcname", 0, required_argument, OPT_MOD_FUNCNAME, BOTH,
	  "  --mod-funcname=s/A/B/[gi]  rewrite function names\n" },
	{ "normalize-names", 0, no_argument, OPT_NORMALIZE, READ,
	  "  --normalize-names        compared profiles (--diff, --check, the explorer's A):\n"
	  "                           f.isra.0, f.part.1, f.constprop.2, f.lto_priv.0,\n"
	  "                           f.cold are f, {lambda()#3} is {lambda()}\n" },
	{ "match-builds", 0, required_argument, OPT_MATCH_BUILDS, READ,
	  "  --match-builds=yes|no    compared profiles: paths that differ in a leading\n"
	  "                           part (two build directories), and the programs\n"
	  "                           run (prog.old and prog), are the same [yes]\n" },
	{ "jobs", 0, required_argument, OPT_JOBS, READ,
	  "  --jobs=N                 threads that read a profile (not the program's)\n"
	  "                           [the online CPUs not kept busy]\n" },
	{ "inclusive", 0, required_argument, OPT_INCLUSIVE, BOTH,
	  "  --inclusive=yes|no       function lines show inclusive costs [no]\n" },
	{ "tree", 0, required_argument, OPT_TREE, BOTH,
	  "  --tree=none|caller|calling|both\n"
	  "                           list callers and/or callees of each function [none]\n" },
	{ "include", 'I', required_argument, 'I', BOTH,
	  "  -I DIR, --include=DIR    look for source files in DIR too (repeatable)\n" },
	{ "subst", 0, required_argument, OPT_SUBST, BOTH,
	  "  --subst=FROM=TO          look for a source named FROM... as TO... (repeatable)\n" },
	{ "annotate-asm", 0, required_argument, OPT_ANNOTATE_ASM, BOTH,
	  "  --annotate-asm=FUNCTION  after the report, FUNCTION's machine code with its\n"
	  "                           costs (profiles with instruction addresses; repeatable)\n" },
	{ "event", 0, required_argument, OPT_EVENT, BOTH,
	  "  --event='NAME = FORMULA' define a derived event, e.g. 'Cycles = Ir + 10 L1m + 100 LLm'\n" },
	{ "cycles", 0, required_argument, OPT_CYCLES, BOTH,
	  "  --cycles=yes|no          functions calling each other are one <cycle N>, as\n"
	  "                           KCachegrind shows them; no: the raw numbers of\n"
	  "                           callgrind_annotate, recursive calls counted again [yes]\n" },
	{ "fold-recursion", 0, required_argument, OPT_FOLD, BOTH,
	  "  --fold-recursion=yes|no  fold callgrind's recursion levels and caller\n"
	  "                           contexts (f'2, f'caller) into f [no]\n" },
	{ "parts", 0, required_argument, OPT_PARTS, BOTH,
	  "  --parts=LIST             only the parts (dumps) numbered so, e.g. 2,4-6: the\n"
	  "                           totals are theirs [all]\n" },
	{ "threads", 0, required_argument, OPT_THREADS, BOTH,
	  "  --threads=LIST           only the parts of these threads (thread: numbers) [all]\n" },
	{ "pids", 0, required_argument, OPT_PIDS, BOTH,
	  "  --pids=LIST              only the parts of these processes (pid: numbers) [all]\n" },
	{ "demangle", 0, required_argument, OPT_DEMANGLE, BOTH,
	  "  --demangle=yes|no        C++ names of a profile written with mangled\n"
	  "                           symbols (callgrind --demangle=no) demangled [yes]\n" },
	{ "format", 0, required_argument, OPT_SHARE, BOTH,
	  "  --format=text|json       the report as text or as JSON (schema: cgtui(1))\n" },
	{ "export", 0, required_argument, OPT_SHARE, BOTH,
	  "  --export=folded|speedscope|pprof\n"
	  "                           the profile for flame graphs (flamegraph.pl,\n"
	  "                           inferno), speedscope or go tool pprof, on stdout\n" },
	{ "keys", 0, optional_argument, OPT_KEYS, READ,
	  "  --keys                   list the explorer's keys\n" },
	{ "help", 'h', no_argument, OPT_HELP, BOTH, "  --help, --version\n" },
	{ "version", 0, no_argument, OPT_VERSION, BOTH, NULL },

	{ NULL, 0, 0, 0, 0,
	  "\n"
	  "CI gate: cgtui --check BASE NEW --limit=Ir=+1% [--limit-function=PATTERN:Ir=+2%]\n"
	  "  BASE, NEW                a profile, a run (its threads, dumps) or a directory\n" },
	{ "check", 0, no_argument, OPT_SHARE, READ, NULL },
	{ "limit", 0, required_argument, OPT_SHARE, READ,
	  "  --limit=EVENT=CHANGE     the total may grow by CHANGE at most: +1%, +5000, 0\n" },
	{ "limit-function", 0, required_argument, OPT_SHARE, READ,
	  "  --limit-function=PATTERN:EVENT=CHANGE\n"
	  "                           so may each function (inclusive cost) whose name the\n"
	  "                           pcre2 PATTERN finds (split at the last ':' before '=')\n" },
	{ "limit-self", 0, required_argument, OPT_SHARE, READ,
	  "  --limit-self=, --limit-file=, --limit-object=PATTERN:EVENT=CHANGE\n"
	  "                           functions' self costs, files, objects\n" },
	{ "limit-file", 0, required_argument, OPT_SHARE, READ, NULL },
	{ "limit-object", 0, required_argument, OPT_SHARE, READ, NULL },
	{ "min-cost", 0, required_argument, OPT_SHARE, READ,
	  "  --min-cost=N|N%          skip what costs less than N (N% of the total) in both\n"
	  "  --format=text|markdown|json\n"
	  "                           the verdict as a table, a pull-request comment, JSON\n"
	  "\n"
	  "Profiles may also be pprof files (.pb.gz) and folded stacks.\n"
	  "\n"
	  "Exit status: 0 on success, 1 for a usage error, 2 for a profile that cannot\n"
	  "be read (the message says FILE:LINE: what is wrong), 3 when --check finds a\n"
	  "limit exceeded.\n\n" },

	{ NULL, 0, 0, 0, 0,
	  "Recording: cgtui [OPTION]... PROGRAM [ARG]...\n"
	  "Runs PROGRAM under Valgrind with cgtui's tool and shows the explorer while\n"
	  "it runs; the profile is saved as callgrind.out.PID.  The report and explorer\n"
	  "options above apply to it too (but --diff and --check).\n" },
	{ "output", 'o', required_argument, 'o', REC,
	  "  -o FILE, --output=FILE   save the profile as FILE (%p: the process id)\n" },
	{ "stdin", 0, required_argument, OPT_STDIN, REC,
	  "  --stdin=FILE             the program's standard input [/dev/null]\n" },
	{ "log", 0, required_argument, OPT_LOG, REC,
	  "  --log=FILE               the program's output [cgtui.log.PID]\n" },
	{ "record", 0, no_argument, OPT_RECORD, REC,
	  "  --record                 no explorer while it runs (the program keeps the\n"
	  "                           terminal); the explorer opens at the end\n" },
	{ "no-open", 0, no_argument, OPT_NO_OPEN, REC, "  --no-open                only record\n" },
	{ NULL, 0, 0, 0, 0, "Passed on to the tool:\n" },
	{ "cache-sim", 0, required_argument, OPT_TOOLARG, REC,
	  "  --cache-sim=yes|no       simulate the caches [no]\n" },
	{ "branch-sim", 0, required_argument, OPT_TOOLARG, REC,
	  "  --branch-sim=yes|no      simulate the branch predictors [no]\n" },
	{ "I1", 0, required_argument, OPT_TOOLARG, REC,
	  "  --I1=SIZE,ASSOC,LINE, --D1=..., --LL=...   the caches simulated\n" },
	{ "D1", 0, required_argument, OPT_TOOLARG, REC, NULL },
	{ "LL", 0, required_argument, OPT_TOOLARG, REC, NULL },
	{ "cache-model", 0, required_argument, OPT_TOOLARG, REC,
	  "  --cache-model=host|cachegrind  simulate the host's caches (all levels) or\n"
	  "                           cachegrind's; repeatable: several at once\n" },
	{ "cache-config", 0, required_argument, OPT_TOOLARG, REC,
	  "  --cache-config=FILE      simulate the cache model in FILE (repeatable)\n" },
	{ "cache-mrc", 0, required_argument, OPT_TOOLARG, REC,
	  "  --cache-mrc=yes|no       miss-ratio curves of the data accesses [no]\n" },
	{ "cache-use", 0, required_argument, OPT_TOOLARG, REC,
	  "  --cache-use=yes|no       bytes of each D1 line fetched and used before it left\n"
	  "                           (D1fb D1ub, D1wb = wasted) [no]\n" },
	{ "instr-at-start", 0, required_argument, OPT_TOOLARG, REC,
	  "  --instr-at-start=yes|no  count from the start, or from\n"
	  "                           CGTUI_START_INSTRUMENTATION (cgtui.h) [yes]\n" },
	{ "trace-children", 0, required_argument, OPT_TOOLARG, REC,
	  "  --trace-children=yes|no  follow exec'd programs too [no]\n" },
	{ "separate-threads", 0, required_argument, OPT_TOOLARG, REC,
	  "  --separate-threads=yes|no  one part per thread\n" },
	{ "contexts", 0, required_argument, OPT_TOOLARG, REC,
	  "  --contexts=yes|no        record the calling contexts: exact flame graph\n"
	  "                           and paths, in PROFILE.ctx [yes]\n" },
	{ "max-contexts", 0, required_argument, OPT_TOOLARG, REC,
	  "  --max-contexts=N         at most N contexts; deeper paths are cut [300000]\n" },
	{ "timeline", 0, required_argument, OPT_TOOLARG, REC,
	  "  --timeline=yes|no        record each function's cost per interval of\n"
	  "                           instructions, in PROFILE.time [no]\n" },
	{ "timeline-interval", 0, required_argument, OPT_TOOLARG, REC,
	  "  --timeline-interval=N    the first intervals' length in Ir; doubled when\n"
	  "                           512 are full [1000000]\n" },
	{ "unnamed", 0, required_argument, OPT_TOOLARG, REC,
	  "  --unnamed=callgrind|cachegrind  code without a symbol: named by where it\n"
	  "                           was entered and counted in the function it ran in,\n"
	  "                           as callgrind does; or all ??? (faster) [callgrind]\n" },
	{ "tool-option", 0, required_argument, OPT_TOOL_OPT, REC,
	  "  --tool-option=OPT        any other Valgrind or tool option\n" },
	{ NULL, 0, 0, 0, 0,
	  "\n"
	  "Live control (keys U, Z, p in the explorer; or from another terminal):\n"
	  "  cgtui --control PID dump|zero|on|off|status\n"
	  "                           dump: a snapshot now (the live view), or the counts\n"
	  "                           since the last dump as PROFILE.N (then zeroed);\n"
	  "                           zero: the counts; off, on: stop and start counting;\n"
	  "                           PID: the program's process id (through Valgrind's\n"
	  "                           vgdb, so callgrind recordings answer too)\n" },
	/* (taken as the first argument only: cli_parse) */
	{ "control", 0, required_argument, OPT_CONTROL, 0, NULL },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

void cli_usage(FILE *f)
{
	fputs("Usage: cgtui [OPTION]... [PROFILE]...\n"
	      "Explore Cachegrind and Callgrind profiles; with no PROFILE, the newest\n"
	      "callgrind.out.* or cachegrind.out.* in the current directory.  Several\n"
	      "profiles are added together.  On a terminal, the explorer opens (press ?\n"
	      "for its keys); when standard output is not a terminal, or with --batch, a\n"
	      "cg_annotate-style text report is printed.\n"
	      "\n",
	      f);
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].help)
			fputs(options[i].help, f);
}

/* getopt_long's table, and the short options, from ours */
static struct option *getopt_table(char *shorts, size_t n)
{
	struct option *o = xcalloc(NOPTIONS + 1, sizeof(*o));
	size_t k = 0, s = 0;
	for (size_t i = 0; i < NOPTIONS; i++) {
		if (!options[i].name)
			continue;
		o[k++] = (struct option){ options[i].name, options[i].has_arg, NULL, options[i].id };
		if (options[i].shortopt && s + 3 < n) {
			shorts[s++] = (char)options[i].shortopt;
			if (options[i].has_arg == required_argument)
				shorts[s++] = ':';
		}
	}
	shorts[s] = 0;
	return o;
}

static const struct cli_option *find_long(const char *name, size_t n)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].name && strlen(options[i].name) == n &&
		    strncmp(options[i].name, name, n) == 0)
			return &options[i];
	return NULL;
}

static const struct cli_option *find_short(int c)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].name && options[i].shortopt == c)
			return &options[i];
	return NULL;
}

/* The option argv[i] is (NULL: none of ours, or no option); *skip: 1 when
 * its value is the next argument. */
static const struct cli_option *option_at(char **argv, int i, int *skip)
{
	const char *a = argv[i];
	const struct cli_option *o = NULL;
	*skip = 0;
	if (a[1] == '-') {
		size_t n = strcspn(a + 2, "=");
		o = find_long(a + 2, n);
		*skip = o && o->has_arg == required_argument && !a[2 + n];
	} else {
		o = find_short(a[1]);
		*skip = o && o->has_arg == required_argument && !a[2];
	}
	return o;
}

/* The index of the first argument that is no option nor an option's
 * value, or argc. */
static int first_operand(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0)
			return i + 1;
		if (a[0] != '-' || !a[1])
			return i;
		int skip;
		option_at(argv, i, &skip);
		i += skip;
	}
	return argc;
}

/* argv[first] is not a program to record: when recording options come
 * before it, or it is an ELF program or #! script that cannot be run, says
 * why and returns 1; else 0 (it is a profile to read). */
static int not_program(int argc, char **argv, int first)
{
	const char *rec_opt = NULL;
	for (int i = 1; i < first && !rec_opt; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || strcmp(a, "--") == 0)
			continue;
		int skip;
		const struct cli_option *o = option_at(argv, i, &skip);
		if (o && o->where == REC)
			rec_opt = a[1] == '-' ? a : "-o";
		i += skip;
	}
	if (first >= argc) {
		if (rec_opt)
			fprintf(stderr, "cgtui: %s: no program to record (cgtui [OPTION]... PROGRAM "
					"[ARG]...)\n", rec_opt);
		return rec_opt != NULL;
	}
	/* a profile is read unless recording was asked for, or it is a program */
	if (!rec_opt && !rec_looks_like_program(argv[first]))
		return 0;
	fprintf(stderr, "cgtui: %s: cannot record it: %s\n", argv[first], rec_why_not_program(argv[first]));
	return 1;
}

static int yesno(const char *opt, const char *v, int *out)
{
	if (!v || strcmp(v, "yes") == 0)
		*out = 1;
	else if (strcmp(v, "no") == 0)
		*out = 0;
	else {
		fprintf(stderr, "cgtui: %s: expected yes or no, not '%s'\n", opt, v);
		return -1;
	}
	return 0;
}

static void push(const char ***v, int *n, const char *s)
{
	*v = xreallocarray(*v, (size_t)*n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
}

/* `cgtui --control PID CMD` (or --control=PID CMD) */
static int parse_control(struct cli *c, int argc, char **argv)
{
	const char *pidarg = NULL;
	int i = 2;
	if (strcmp(argv[1], "--control") == 0) {
		pidarg = argc > 2 ? argv[2] : NULL;
		i = 3;
	} else {
		pidarg = argv[1] + 10;
	}
	char *end = NULL;
	long pid = pidarg ? strtol(pidarg, &end, 10) : 0;
	if (!pidarg || !*pidarg || *end || pid <= 0 || pid > 0x7fffffffL) {
		fprintf(stderr, "cgtui: --control: expected a process id, not '%s' (cgtui --control PID "
				"dump|zero|on|off|status)\n", pidarg ? pidarg : "");
		return 1;
	}
	if (i != argc - 1 || !rec_is_control(argv[i])) {
		fprintf(stderr, "cgtui: --control %ld: expected one of dump, zero, on, off, status%s%s%s\n",
			pid, i < argc ? ", not '" : "", i < argc ? argv[i] : "", i < argc ? "'" : "");
		return 1;
	}
	c->mode = CLI_CONTROL;
	c->control_pid = pid;
	c->control_what = argv[i];
	return 0;
}

/* One option; 0, or the exit status of a usage error. */
static int take(struct cli *c, const struct cli_option *o, const char *arg)
{
	char err[512];
	int v;
	switch (o->id) {
	case OPT_SHARE:
		if (share_option(&c->share, o->name, arg, err, sizeof(err)) < 0) {
			fprintf(stderr, "cgtui: %s\n", err);
			return 1;
		}
		c->batch = 1;
		break;
	case OPT_BATCH:
		c->batch = 1;
		break;
	case OPT_SHOW:
		c->show = arg;
		break;
	case OPT_SORT:
		c->sort = arg;
		break;
	case OPT_THRESHOLD: {
		char *end;
		errno = 0;
		double t = strtod(arg, &end);
		if (end == arg || *end || errno || t < 0 || t > 100) {
			fprintf(stderr, "cgtui: --threshold: invalid threshold value: '%s' "
					"(a percentage from 0 to 100)\n", arg);
			return 1;
		}
		c->ro.threshold = c->threshold = t;
		break;
	}
	case OPT_SHOW_PERCS:
		if (yesno("--show-percs", arg, &v) < 0)
			return 1;
		c->ro.show_percs = c->percent = v;
		break;
	case OPT_NO_SHOW_PERCS:
		c->ro.show_percs = c->percent = 0;
		break;
	case OPT_ANNOTATE:
		c->ro.annotate = 1;
		break;
	case OPT_NO_ANNOTATE:
		c->ro.annotate = 0;
		break;
	case OPT_AUTO:
		if (yesno("--auto", arg, &c->ro.annotate) < 0)
			return 1;
		break;
	case OPT_CONTEXT: {
		char *end;
		long n = strtol(arg, &end, 10);
		if (end == arg || *end || n < 0 || n > 100000000) {
			fprintf(stderr, "cgtui: --context: invalid value '%s'\n", arg);
			return 1;
		}
		c->ro.context = c->context = (int)n;
		break;
	}
	case OPT_DIFF:
		c->diff = 1;
		break;
	case OPT_NORMALIZE:
		c->normalize_names = 1;
		break;
	case OPT_MATCH_BUILDS:
		if (yesno("--match-builds", arg, &c->match_builds) < 0)
			return 1;
		break;
	case OPT_MOD_FILENAME:
	case OPT_MOD_FUNCNAME: {
		struct modname *m = modname_compile(arg, err, sizeof(err));
		if (!m) {
			fprintf(stderr, "cgtui: --%s: %s\n", o->name, err);
			return 1;
		}
		if (o->id == OPT_MOD_FILENAME) {
			modname_free(c->modfile);
			c->modfile = m;
			/* sources are read under their original names */
			modname_keep_originals(m);
		} else {
			modname_free(c->modfn);
			c->modfn = m;
		}
		break;
	}
	case OPT_JOBS: {
		char *end;
		errno = 0;
		long j = strtol(arg, &end, 10);
		if (end == arg || *end || errno || j < 1 || j > 256) {
			fprintf(stderr, "cgtui: --jobs: invalid number of threads: '%s' (1 to 256)\n",
				arg);
			return 1;
		}
		c->jobs = (int)j;
		break;
	}
	case OPT_INCLUSIVE:
		if (yesno("--inclusive", arg, &c->ro.inclusive) < 0)
			return 1;
		break;
	case OPT_CYCLES:
		if (yesno("--cycles", arg, &c->cycles) < 0)
			return 1;
		c->cycles_given = c->cycles;
		break;
	case OPT_FOLD:
		if (yesno("--fold-recursion", arg, &c->fold) < 0)
			return 1;
		break;
	case OPT_DEMANGLE:
		if (yesno("--demangle", arg, &c->demangle) < 0)
			return 1;
		break;
	case OPT_PARTS:
	case OPT_THREADS:
	case OPT_PIDS: {
		int f = o->id == OPT_PARTS ? PART_NUMBER : o->id == OPT_THREADS ? PART_THREAD : PART_PID;
		if (partset_parse_list(arg, &c->parts.by[f], err, sizeof(err)) < 0) {
			fprintf(stderr, "cgtui: %s: %s\n", part_field_option[f], err);
			return 1;
		}
		break;
	}
	case OPT_TREE:
		if (strcmp(arg, "none") == 0)
			c->ro.tree = TREE_NONE;
		else if (strcmp(arg, "caller") == 0)
			c->ro.tree = TREE_CALLER;
		else if (strcmp(arg, "calling") == 0)
			c->ro.tree = TREE_CALLING;
		else if (strcmp(arg, "both") == 0)
			c->ro.tree = TREE_BOTH;
		else {
			fprintf(stderr, "cgtui: --tree: expected none, caller, calling or both\n");
			return 1;
		}
		break;
	case 'I':
		push(&c->incdirs, &c->nincdirs, arg);
		break;
	case OPT_SUBST:
		if (srclookup_add_subst(&c->look, arg) < 0) {
			fprintf(stderr, "cgtui: --subst: expected FROM=TO, got '%s'\n", arg);
			return 1;
		}
		break;
	case OPT_ANNOTATE_ASM:
		push(&c->asmfns, &c->nasmfns, arg);
		break;
	case OPT_EVENT:
		push(&c->evdefs, &c->nevdefs, arg);
		break;
	case OPT_VERSION:
		printf("cgtui %s\n", PACKAGE_VERSION);
		c->mode = CLI_DONE;
		break;
	case OPT_KEYS: /* (=man: for the man page, =views: for the tests) */
		c->mode = CLI_KEYS;
		c->keys = arg;
		break;
	case OPT_HELP:
		cli_usage(stdout);
		c->mode = CLI_DONE;
		break;
	case 'o':
		c->rec.out = arg;
		break;
	case OPT_STDIN:
		c->rec.in = arg;
		break;
	case OPT_LOG:
		c->rec.log = arg;
		break;
	case OPT_RECORD:
		c->rec.keep_terminal = 1;
		break;
	case OPT_NO_OPEN:
		c->no_open = 1;
		break;
	case OPT_TOOL_OPT:
		c->rec.toolargs = xreallocarray(c->rec.toolargs, (size_t)c->rec.ntoolargs + 1, sizeof(char *));
		c->rec.toolargs[c->rec.ntoolargs++] = xstrdup(arg);
		break;
	case OPT_TOOLARG:
		c->rec.toolargs = xreallocarray(c->rec.toolargs, (size_t)c->rec.ntoolargs + 1, sizeof(char *));
		c->rec.toolargs[c->rec.ntoolargs++] = xasprintf("--%s=%s", o->name, arg);
		break;
	default: /* --control after the first argument */
		fprintf(stderr, "cgtui: --%s: only as the first argument (cgtui --help)\n", o->name);
		return 1;
	}
	return 0;
}

int cli_parse(struct cli *c, int argc, char **argv)
{
	memset(c, 0, sizeof(*c));
	report_opts_default(&c->ro);
	srclookup_init(&c->look);
	c->threshold = -1;
	c->percent = c->context = c->cycles_given = -1;
	c->cycles = c->demangle = c->match_builds = 1;
	size_t invlen = 1;
	for (int i = 0; i < argc; i++)
		invlen += strlen(argv[i]) + 1;
	c->invocation = xcalloc(invlen, 1);
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(c->invocation, " ");
		strcat(c->invocation, argv[i]);
	}
	if (argc > 1 && (strcmp(argv[1], "--control") == 0 || strncmp(argv[1], "--control=", 10) == 0))
		return parse_control(c, argc, argv);

	/* cgtui [options] PROGRAM args: its options are those before it */
	int first = first_operand(argc, argv);
	int record = first < argc && rec_is_program(argv[first]);
	if (!record && not_program(argc, argv, first))
		return 1;
	c->mode = record ? CLI_RECORD : CLI_READ;
	int want = record ? REC : READ;
	char shorts[16];
	struct option *table = getopt_table(shorts, sizeof(shorts));
	int nargs = record ? first : argc, ch, li = -1, status = 0;
	optind = 1;
	opterr = 1;
	while (!status && c->mode != CLI_DONE && (ch = getopt_long(nargs, argv, shorts, table, &li)) != -1) {
		const struct cli_option *o = NULL;
		if (ch == '?' || ch == ':') {
			cli_usage(stderr);
			status = 1;
			break;
		}
		o = li >= 0 && table[li].val == ch ? find_long(table[li].name, strlen(table[li].name))
						     : find_short(ch);
		li = -1;
		if (!o) {
			status = 1;
			break;
		}
		if (!(o->where & want)) {
			if (record)
				fprintf(stderr, "cgtui: --%s does not go with recording a program "
						"(cgtui --help)\n", o->name);
			else if (o->id == OPT_CONTROL)
				fprintf(stderr, "cgtui: --control: only as the first argument "
						"(cgtui --control PID CMD)\n");
			else /* after the profiles (before them, not_program said so) */
				fprintf(stderr, "cgtui: --%s: no program to record (cgtui [OPTION]... "
						"PROGRAM [ARG]...)\n", o->name);
			status = 1;
			break;
		}
		status = take(c, o, optarg);
	}
	free(table);
	if (status || c->mode == CLI_DONE || c->mode == CLI_KEYS)
		return status;
	if (record) {
		if (optind < first && strcmp(argv[optind], "--") != 0) {
			fprintf(stderr, "cgtui: '%s': one program at a time (cgtui --help)\n", argv[optind]);
			return 1;
		}
		optind = first;
	}
	char err[512];
	if (share_options_done(&c->share, err, sizeof(err)) < 0) {
		fprintf(stderr, "cgtui: %s\n", err);
		return 1;
	}
	c->operands = argv + optind;
	c->noperands = argc - optind;
	if (record)
		return 0;
	if (c->share.check && (c->diff || c->noperands != 2)) {
		fprintf(stderr, "cgtui: --check requires two profiles (BASE NEW) and no --diff\n");
		return 1;
	}
	if (c->diff && c->noperands != 2) {
		fprintf(stderr, "cgtui: --diff requires exactly two profiles\n");
		return 1;
	}
	return 0;
}

void cli_free(struct cli *c)
{
	free(c->invocation);
	modname_free(c->modfile);
	modname_free(c->modfn);
	free(c->incdirs);
	srclookup_free(&c->look);
	free(c->asmfns);
	free(c->evdefs);
	share_opts_free(&c->share);
	partset_clear(&c->parts);
	for (int i = 0; i < c->rec.ntoolargs; i++)
		free(c->rec.toolargs[i]);
	free(c->rec.toolargs);
	memset(c, 0, sizeof(*c));
}
