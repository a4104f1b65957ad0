/* main.c -- cgtui's command line: options, choosing the profile files,
 * loading, and the batch report.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "instrument/launch.h"
#include "profile/demangle.h"
#include "profile/load.h"
#include "profile/escape.h"
#include "profile/model.h"
#include "profile/modname.h"
#include "report/report.h"
#include "profile/import.h"
#include "report/check.h"
#include "source/asmannot.h"
#include "source/elfsym.h"
#include "source/srcfile.h"
#include "tui/progress.h"
#include "tui/tui.h"


enum {
	OPT_BATCH = 256, OPT_SHOW, OPT_SORT, OPT_THRESHOLD, OPT_SHOW_PERCS, OPT_NO_SHOW_PERCS,
	OPT_ANNOTATE, OPT_NO_ANNOTATE, OPT_AUTO, OPT_CONTEXT, OPT_DIFF, OPT_MOD_FILENAME,
	OPT_MOD_FUNCNAME, OPT_INCLUSIVE, OPT_TREE, OPT_VERSION, OPT_HELP, OPT_EVENT, OPT_KEYS, OPT_SUBST, OPT_ANNOTATE_ASM,
	OPT_CYCLES, OPT_FOLD, OPT_DEMANGLE, OPT_SHARE,
};

static const struct option longopts[] = {
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "show", required_argument, NULL, OPT_SHOW },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "show-percs", optional_argument, NULL, OPT_SHOW_PERCS },
	{ "no-show-percs", no_argument, NULL, OPT_NO_SHOW_PERCS },
	{ "annotate", no_argument, NULL, OPT_ANNOTATE },
	{ "no-annotate", no_argument, NULL, OPT_NO_ANNOTATE },
	{ "auto", required_argument, NULL, OPT_AUTO },
	{ "context", required_argument, NULL, OPT_CONTEXT },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "mod-filename", required_argument, NULL, OPT_MOD_FILENAME },
	{ "mod-funcname", required_argument, NULL, OPT_MOD_FUNCNAME },
	{ "inclusive", required_argument, NULL, OPT_INCLUSIVE },
	{ "tree", required_argument, NULL, OPT_TREE },
	{ "include", required_argument, NULL, 'I' },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "subst", required_argument, NULL, OPT_SUBST },
	{ "annotate-asm", required_argument, NULL, OPT_ANNOTATE_ASM },
	{ "cycles", required_argument, NULL, OPT_CYCLES },
	{ "fold-recursion", required_argument, NULL, OPT_FOLD },
	{ "demangle", required_argument, NULL, OPT_DEMANGLE },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "keys", optional_argument, NULL, OPT_KEYS },
	/* report/check.h's: share_option() takes them by name */
	{ "check", no_argument, NULL, OPT_SHARE },
	{ "limit", required_argument, NULL, OPT_SHARE },
	{ "limit-function", required_argument, NULL, OPT_SHARE },
	{ "limit-self", required_argument, NULL, OPT_SHARE },
	{ "limit-file", required_argument, NULL, OPT_SHARE },
	{ "limit-object", required_argument, NULL, OPT_SHARE },
	{ "min-cost", required_argument, NULL, OPT_SHARE },
	{ "format", required_argument, NULL, OPT_SHARE },
	{ "export", required_argument, NULL, OPT_SHARE },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: cgtui [OPTION]... [PROFILE]...\n"
	      "Explore Cachegrind and Callgrind profiles; with no PROFILE, the newest\n"
	      "callgrind.out.* or cachegrind.out.* in the current directory.  Several\n"
	      "profiles are added together.  On a terminal, the explorer opens (press ?\n"
	      "for its keys); when standard output is not a terminal, or with --batch, a\n"
	      "cg_annotate-style text report is printed.\n"
	      "\n"
	      "Report options (as cg_annotate's and callgrind_annotate's; --show, --sort,\n"
	      "--threshold, --show-percs and --context also set the explorer's start):\n"
	      "  --batch                  print the text report\n"
	      "  --show=A,B,C             events to show, in this order [all]\n"
	      "  --sort=A,B,C             events to sort by [all, in the file's order]\n"
	      "  --threshold=X            hide functions under X% of the first sort event [0.1]\n"
	      "  --show-percs[=yes|no], --no-show-percs\n"
	      "                           percentages next to counts [yes]\n"
	      "  --annotate, --no-annotate, --auto=yes|no\n"
	      "                           annotate source files [yes]\n"
	      "  --context=N              lines of context around annotated lines [8]\n"
	      "  --diff                   difference of two profiles (second minus first)\n"
	      "  --mod-filename=s/A/B/[gi]  rewrite file names (pcre2 regex, \\1 in B)\n"
	      "  --mod-funcname=s/A/B/[gi]  rewrite function names\n"
	      "  --inclusive=yes|no       function lines show inclusive costs [no]\n"
	      "  --tree=none|caller|calling|both\n"
	      "                           list callers and/or callees of each function [none]\n"
	      "  -I DIR, --include=DIR    look for source files in DIR too (repeatable)\n"
	      "  --subst=FROM=TO          look for a source named FROM... as TO... (repeatable)\n"
	      "  --annotate-asm=FUNCTION  after the report, FUNCTION's machine code with its\n"
	      "                           costs (profiles with instruction addresses; repeatable)\n"
	      "  --event='NAME = FORMULA' define a derived event, e.g. 'CEst = Ir + 10 Bm'\n"
	      "  --cycles=yes|no          functions calling each other are one <cycle N>, as\n"
	      "                           KCachegrind shows them; no: the raw numbers of\n"
	      "                           callgrind_annotate, recursive calls counted again [yes]\n"
	      "  --fold-recursion=yes|no  fold callgrind's recursion levels and caller\n"
	      "                           contexts (f'2, f'caller) into f [no]\n"
	      "  --demangle=yes|no        C++ names of a profile written with mangled\n"
	      "                           symbols (callgrind --demangle=no) demangled [yes]\n"
	      "  --format=text|json       the report as text or as JSON (schema: cgtui(1))\n"
	      "  --export=folded|speedscope|pprof\n"
	      "                           the profile for flame graphs (flamegraph.pl,\n"
	      "                           inferno), speedscope or go tool pprof, on stdout\n"
	      "  --keys                   list the explorer's keys\n"
	      "  --help, --version\n"
	      "\n"
	      "CI gate: cgtui --check BASE NEW --limit=Ir=+1% [--limit-function=PATTERN:Ir=+2%]\n"
	      "  BASE, NEW                a profile, a run (its threads, dumps) or a directory\n"
	      "  --limit=EVENT=CHANGE     the total may grow by CHANGE at most: +1%, +5000, 0\n"
	      "  --limit-function=PATTERN:EVENT=CHANGE\n"
	      "                           so may each function (inclusive cost) whose name the\n"
	      "                           pcre2 PATTERN finds (split at the last ':' before '=')\n"
	      "  --limit-self=, --limit-file=, --limit-object=PATTERN:EVENT=CHANGE\n"
	      "                           functions' self costs, files, objects\n"
	      "  --min-cost=N|N%          skip what costs less than N (N% of the total) in both\n"
	      "  --format=text|markdown|json\n"
	      "                           the verdict as a table, a pull-request comment, JSON\n"
	      "\n"
	      "Profiles may also be pprof files (.pb.gz) and folded stacks.\n"
	      "\n"
	      "Exit status: 0 on success, 1 for a usage error, 2 for a profile that cannot\n"
	      "be read (the message says FILE:LINE: what is wrong), 3 when --check finds a\n"
	      "limit exceeded.\n\n",
	      f);
	launch_usage(f);
}

static int yesno(const char *opt, const char *v)
{
	if (!v || strcmp(v, "yes") == 0)
		return 1;
	if (strcmp(v, "no") == 0)
		return 0;
	fprintf(stderr, "cgtui: %s: expected yes or no, not '%s'\n", opt, v);
	exit(1);
}

/* callgrind.out.1.2 before callgrind.out.1.10: the order they ran */
static int cmp_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Is `name` PREFIX followed by "-digits" (thread) or ".digits" (dump)? */
static int is_sibling(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	if (strncmp(name, prefix, n) != 0 || (name[n] != '-' && name[n] != '.') || !name[n + 1])
		return 0;
	for (const char *s = name + n + 1; *s; s++)
		if ((*s < '0' || *s > '9') && *s != '-' && *s != '.')
			return 0;
	return 1;
}

/* Files of one run: for "callgrind.out.PID" (existing or not) also every
 * callgrind.out.PID-TID / callgrind.out.PID.N beside it; for another name
 * that is not a file, NAME-TID / NAME.N.  An empty NAME beside them is left
 * out: callgrind --separate-threads=yes writes one. */
static void add_run_files(const char *arg, char ***files, int *n, char **note)
{
	struct stat st;
	int exists = stat(arg, &st) == 0, empty = exists && S_ISREG(st.st_mode) && st.st_size == 0;
	const char *slash = strrchr(arg, '/');
	char *dir = slash ? xstrndup(arg, (size_t)(slash - arg + 1)) : xstrdup("");
	const char *base = slash ? slash + 1 : arg;
	/* the run prefix: strip a -TID or .N tail from callgrind.out.PID... */
	char *prefix = xstrdup(base);
	if (strncmp(prefix, "callgrind.out.", 14) == 0) {
		char *s = prefix + 14;
		while (*s >= '0' && *s <= '9')
			s++;
		*s = 0;
	}
	int found_siblings = 0;
	/* (any other name that is not a file: its per-thread files, as cgtui -o
	 * NAME --separate-threads=yes and callgrind --callgrind-out-file=NAME
	 * write them) */
	if ((strncmp(prefix, "callgrind.out.", 14) == 0 && prefix[14]) || !exists || empty) {
		DIR *d = opendir(*dir ? dir : ".");
		struct dirent *de;
		char **sib = NULL;
		int ns = 0;
		while (d && (de = readdir(d))) {
			if (is_sibling(de->d_name, prefix)) {
				sib = xreallocarray(sib, (size_t)ns + 1, sizeof(*sib));
				sib[ns++] = xasprintf("%s%s", dir, de->d_name);
			}
		}
		if (d)
			closedir(d);
		if (ns && (!exists || empty || strcmp(base, prefix) == 0)) {
			qsort(sib, (size_t)ns, sizeof(*sib), cmp_version);
			if (exists && !empty && strcmp(base, prefix) == 0) {
				*files = xreallocarray(*files, (size_t)*n + 1, sizeof(**files));
				(*files)[(*n)++] = xstrdup(arg);
			}
			for (int i = 0; i < ns; i++) {
				*files = xreallocarray(*files, (size_t)*n + 1, sizeof(**files));
				(*files)[(*n)++] = sib[i];
			}
			found_siblings = 1;
		} else {
			/* one file of a run whose others are here: say so */
			if (ns > 1 && !*note)
				*note = xasprintf("%s is one of %d files of the run %s%s (threads or "
						  "dumps): cgtui %s%s opens them all, P then picks one",
						  arg, ns, dir, prefix, dir, prefix);
			for (int i = 0; i < ns; i++)
				free(sib[i]);
		}
		free(sib);
	}
	if (!found_siblings) {
		*files = xreallocarray(*files, (size_t)*n + 1, sizeof(**files));
		(*files)[(*n)++] = xstrdup(arg);
	}
	free(prefix);
	free(dir);
}

/* The newest callgrind.out.* / cachegrind.out.* here, or NULL. */
static char *newest_profile(void)
{
	DIR *d = opendir(".");
	if (!d)
		return NULL;
	struct dirent *de;
	char *best = NULL;
	struct timespec bt = { 0, 0 };
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "callgrind.out.", 14) != 0 &&
		    strncmp(de->d_name, "cachegrind.out.", 15) != 0)
			continue;
		struct stat st;
		if (stat(de->d_name, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (!best || st.st_mtim.tv_sec > bt.tv_sec ||
		    (st.st_mtim.tv_sec == bt.tv_sec && st.st_mtim.tv_nsec > bt.tv_nsec)) {
			free(best);
			best = xstrdup(de->d_name);
			bt = st.st_mtim;
		}
	}
	closedir(d);
	return best;
}

/* What main() owns, freed at exit on every path (cli_cleanup). */
static struct {
	char *invocation;
	struct modname *modfile, *modfn;
	const char **incdirs;
	int nincdirs;
	char **evdefs;
	int nevdefs;
	char **files;
	int nfiles;
	int nfirst; /* --diff: files [0, nfirst) are the first side (subtracted) */
	const char **dirs; /* the include dirs, then owned profile directories */
	int ndirs;
	struct srclookup look; /* --subst */
	const char **asmfns;   /* --annotate-asm */
	int nasmfns;
	struct profile prof;
	int prof_ready;
	char *runnote; /* a file named is one of several of its run */
	int cycles; /* --cycles */
	int fold;   /* --fold-recursion */
	int demangle; /* --demangle */
	struct share_opts share; /* --check, --format, --export (report/check.h) */
} G = { .cycles = 1, .demangle = 1 };

static void cli_cleanup(void)
{
	for (int i = G.nincdirs; i < G.ndirs; i++)
		free((char *)G.dirs[i]);
	free(G.dirs);
	srclookup_free(&G.look);
	free(G.asmfns);
	for (int i = 0; i < G.nfiles; i++)
		free(G.files[i]);
	free(G.files);
	free(G.incdirs);
	free(G.evdefs);
	free(G.invocation);
	free(G.runnote);
	modname_free(G.modfile);
	modname_free(G.modfn);
	share_opts_free(&G.share);
	if (G.prof_ready)
		profile_free(&G.prof);
	memset(&G, 0, sizeof(G));
}

/* Defines the --event formulas in p; -1 with a message on a bad one. */
static int define_events(struct profile *p, char *err, size_t errsz)
{
	for (int i = 0; i < G.nevdefs; i++) {
		char msg[256];
		if (profile_define_event_text(p, G.evdefs[i], msg, sizeof(msg)) < 0) {
			snprintf(err, errsz, "--event: %s", msg);
			return -1;
		}
	}
	return 0;
}

/* --check: what is done to each side after loading it */
static int check_prepare_side(void *arg, struct profile *p, char *err, size_t errsz)
{
	profile_set_cycles(p, G.cycles);
	return define_events(p, err, errsz);
}

/* Whether to defer line records (load_opts.lazy_lines): `want`, unless the
 * environment's CGTUI_LAZY_LINES says 0 or 1 (for tests). */
static int lazy_lines(int want)
{
	const char *e = getenv("CGTUI_LAZY_LINES");
	return e && (*e == '0' || *e == '1') ? *e == '1' : want;
}

/* Loads every profile file into p (only one part when only_part > 0) and
 * defines the derived events asked for: what main does, and what the
 * explorer asks for when a part is chosen. */
static int load_sink(void *arg, struct profile *p, int only_part, const struct instr_sink *s,
		     char *err, size_t errsz)
{
	int diff = *(int *)arg;
	profile_init(p);
	for (int i = 0; i < G.nfiles; i++) {
		/* lines are deferred for the explorer (ignored with a part or a
		 * sink) */
		struct load_opts lo = { .sign = diff && i < G.nfirst ? -1 : 1, .modfile = G.modfile,
					.modfn = G.modfn, .fold_contexts = G.fold,
					.only_part = only_part, .instr = s,
					.lazy_lines = lazy_lines(1), .skip_jumps = 1 };
		if (profile_load_any(p, G.files[i], &lo, err, errsz) < 0) {
			profile_free(p);
			return -1;
		}
	}
	profile_finish(p);
	if (G.demangle)
		profile_demangle(p);
	if (define_events(p, err, errsz) < 0) {
		profile_free(p);
		return -1;
	}
	if (!s)
		recover_symbols(p);
	return 0;
}

static int reload_all(void *arg, struct profile *out, const struct instr_sink *s, char *err,
		      size_t errsz)
{
	return load_sink(arg, out, 0, s, err, errsz);
}

/* --annotate-asm: each function of that name (or whose ELF symbol it is);
 * returns how many names matched no function */
static int annotate_asm(FILE *out, const struct report_opts *ro, int *diff)
{
	int missing = 0;
	int ev[MAX_EVENTS], nev = ro->nshow;
	memcpy(ev, ro->show, sizeof(ev));
	if (!nev)
		for (int e = 0; e < G.prof.nreal; e++)
			ev[nev++] = e;
	for (int i = 0; i < G.nasmfns; i++) {
		int found = 0;
		for (uint32_t f = 0; f < G.prof.nfns; f++) {
			const char *rec = G.prof.recovered && G.prof.recovered[f] != NO_ID
						  ? G.prof.names.str[G.prof.recovered[f]] : NULL;
			if (strcmp(fn_name(&G.prof, f), G.asmfns[i]) != 0 &&
			    !(rec && strcmp(rec, G.asmfns[i]) == 0))
				continue;
			struct asm_annot a;
			asm_annotate(&a, &G.prof, f, reload_all, diff, &G.look);
			asm_rows(&a, ev[0], NULL, -1);
			asm_write(out, &a, ev, nev);
			asm_annot_free(&a);
			found = 1;
		}
		if (!found) {
			fprintf(stderr, "cgtui: --annotate-asm: no function %s in the profile\n",
				G.asmfns[i]);
			missing++;
		}
	}
	return missing;
}

static int load_all(void *arg, struct profile *p, int only_part, char *err, size_t errsz)
{
	return load_sink(arg, p, only_part, NULL, err, errsz);
}

int main(int argc, char **argv)
{
	struct report_opts ro;
	report_opts_default(&ro);
	atexit(cli_cleanup);
	setlocale(LC_ALL, "");
	/* cgtui --control PID CMD: to a recording running elsewhere */
	if (launch_is_control(argc, argv))
		return launch_control(argc, argv);
	/* cgtui [options] prog args: record it */
	int first = launch_first_operand(argc, argv, longopts);
	if (first < argc && launch_is_program(argv[first]))
		return launch_main(argc, argv, first);
	if (launch_not_program(argc, argv, first, longopts))
		return 1;
	int batch = 0, diff = 0;
	const char *show = NULL, *sort = NULL;
	/* what the explorer starts with: the options given */
	struct tui_start start = { .sort_event = -1, .threshold = -1, .percent = -1, .context = -1,
				   .cycles = -1 };
	char err[4096];

	/* the G.invocation, for the report's metadata */
	size_t invlen = 1;
	for (int i = 0; i < argc; i++)
		invlen += strlen(argv[i]) + 1;
	G.invocation = xcalloc(invlen, 1);
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(G.invocation, " ");
		strcat(G.invocation, argv[i]);
	}

	int c, li = 0;
	while ((c = getopt_long(argc, argv, "I:h", longopts, &li)) != -1) {
		switch (c) {
		case OPT_SHARE:
			if (share_option(&G.share, longopts[li].name, optarg, err, sizeof(err)) < 0) {
				fprintf(stderr, "cgtui: %s\n", err);
				return 1;
			}
			batch = 1;
			break;
		case OPT_BATCH:
			batch = 1;
			break;
		case OPT_SHOW:
			show = optarg;
			break;
		case OPT_SORT:
			sort = optarg;
			break;
		case OPT_THRESHOLD: {
			char *end;
			errno = 0;
			double t = strtod(optarg, &end);
			if (end == optarg || *end || errno || t < 0 || t > 100) {
				fprintf(stderr, "cgtui: --threshold: invalid threshold value: '%s' "
						"(a percentage from 0 to 100)\n", optarg);
				return 1;
			}
			ro.threshold = start.threshold = t;
			break;
		}
		case OPT_SHOW_PERCS:
			ro.show_percs = start.percent = yesno("--show-percs", optarg);
			break;
		case OPT_NO_SHOW_PERCS:
			ro.show_percs = start.percent = 0;
			break;
		case OPT_ANNOTATE:
			ro.annotate = 1;
			break;
		case OPT_NO_ANNOTATE:
			ro.annotate = 0;
			break;
		case OPT_AUTO:
			ro.annotate = yesno("--auto", optarg);
			break;
		case OPT_CONTEXT: {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (end == optarg || *end || v < 0 || v > 100000000) {
				fprintf(stderr, "cgtui: --context: invalid value '%s'\n", optarg);
				return 1;
			}
			ro.context = start.context = (int)v;
			break;
		}
		case OPT_DIFF:
			diff = 1;
			break;
		case OPT_MOD_FILENAME:
		case OPT_MOD_FUNCNAME: {
			struct modname *m = modname_compile(optarg, err, sizeof(err));
			if (!m) {
				fprintf(stderr, "cgtui: %s: %s\n",
					c == OPT_MOD_FILENAME ? "--mod-filename" : "--mod-funcname", err);
				return 1;
			}
			if (c == OPT_MOD_FILENAME) {
				modname_free(G.modfile);
				G.modfile = m;
				/* sources are read under their original names */
				modname_keep_originals(m);
			} else {
				modname_free(G.modfn);
				G.modfn = m;
			}
			break;
		}
		case OPT_INCLUSIVE:
			ro.inclusive = yesno("--inclusive", optarg);
			break;
		case OPT_CYCLES:
			G.cycles = start.cycles = yesno("--cycles", optarg);
			break;
		case OPT_FOLD:
			G.fold = yesno("--fold-recursion", optarg);
			break;
		case OPT_DEMANGLE:
			G.demangle = yesno("--demangle", optarg);
			break;
		case OPT_TREE:
			if (strcmp(optarg, "none") == 0)
				ro.tree = TREE_NONE;
			else if (strcmp(optarg, "caller") == 0)
				ro.tree = TREE_CALLER;
			else if (strcmp(optarg, "calling") == 0)
				ro.tree = TREE_CALLING;
			else if (strcmp(optarg, "both") == 0)
				ro.tree = TREE_BOTH;
			else {
				fprintf(stderr, "cgtui: --tree: expected none, caller, calling or both\n");
				return 1;
			}
			break;
		case 'I':
			G.incdirs = xreallocarray(G.incdirs, (size_t)G.nincdirs + 1, sizeof(*G.incdirs));
			G.incdirs[G.nincdirs++] = optarg;
			break;
		case OPT_SUBST:
			if (srclookup_add_subst(&G.look, optarg) < 0) {
				fprintf(stderr, "cgtui: --subst: expected FROM=TO, got '%s'\n", optarg);
				return 1;
			}
			break;
		case OPT_ANNOTATE_ASM:
			G.asmfns = xreallocarray(G.asmfns, (size_t)G.nasmfns + 1, sizeof(*G.asmfns));
			G.asmfns[G.nasmfns++] = optarg;
			break;
		case OPT_EVENT:
			G.evdefs = xreallocarray(G.evdefs, (size_t)G.nevdefs + 1, sizeof(*G.evdefs));
			G.evdefs[G.nevdefs++] = optarg;
			break;
		case OPT_VERSION:
			printf("cgtui %s\n", PACKAGE_VERSION);
			return 0;
		case OPT_KEYS: /* (=man: for the man page, =views: for the tests) */
			tui_print_keys(stdout, !optarg ? KEYS_TEXT : !strcmp(optarg, "man") ? KEYS_MAN
							     : KEYS_VIEWS);
			return 0;
		case 'h':
		case OPT_HELP:
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}

	if (share_options_done(&G.share, err, sizeof(err)) < 0) {
		fprintf(stderr, "cgtui: %s\n", err);
		return 1;
	}
	if (G.share.check && (diff || argc - optind != 2)) {
		fprintf(stderr, "cgtui: --check requires two profiles (BASE NEW) and no --diff\n");
		return 1;
	}
	if (optind == argc) {
		char *newest = newest_profile();
		if (!newest) {
			usage(stderr);
			fprintf(stderr, "\ncgtui: no profile given and no callgrind.out.* or "
					"cachegrind.out.* in the current directory\n");
			return 1;
		}
		/* the whole run of the newest file: callgrind.out.PID-TID or .N
		 * stands for callgrind.out.PID */
		if (strncmp(newest, "callgrind.out.", 14) == 0) {
			char *run = xstrndup(newest, 14 + strspn(newest + 14, "0123456789"));
			if (is_sibling(newest, run))
				strcpy(newest, run);
			free(run);
		}
		add_run_files(newest, &G.files, &G.nfiles, &G.runnote);
		free(newest);
	} else if (diff || G.share.check) {
		/* each side can be a run of several files (threads, dumps) */
		for (int i = optind; i < argc; i++) {
			add_run_files(argv[i], &G.files, &G.nfiles, &G.runnote);
			if (i == optind)
				G.nfirst = G.nfiles;
		}
	} else {
		for (int i = optind; i < argc; i++)
			add_run_files(argv[i], &G.files, &G.nfiles, &G.runnote);
	}
	if (diff && argc - optind != 2) {
		fprintf(stderr, "cgtui: --diff requires exactly two profiles\n");
		return 1;
	}

	if (G.share.check) {
		struct load_opts lo = { .sign = 1, .modfile = G.modfile, .modfn = G.modfn,
					.fold_contexts = G.fold, .lazy_lines = 1, .skip_jumps = 1 };
		return check_run(stdout, &G.share, G.files, G.nfiles, G.nfirst, &lo,
				 check_prepare_side, NULL);
	}
	profile_init(&G.prof);
	G.prof_ready = 1;
	uint64_t total = 0;
	for (int i = 0; i < G.nfiles; i++) {
		struct stat st;
		if (stat(G.files[i], &st) == 0 && S_ISREG(st.st_mode))
			total += (uint64_t)st.st_size;
	}
	struct progress *pr = !batch && isatty(STDOUT_FILENO) ? progress_start(total) : NULL;
	const char *script = getenv("CGTUI_SCRIPT");
	int tui = !batch && ((script && *script) || (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)));
	for (int i = 0; i < G.nfiles; i++) {
		/* the explorer, or a report without annotation, needs no per-line
		 * costs to start: they are read when a view wants them; an
		 * annotated report reads them all, better at once */
		struct load_opts lo = { .sign = diff && i < G.nfirst ? -1 : 1, .modfile = G.modfile,
					.modfn = G.modfn, .fold_contexts = G.fold,
					.progress = pr ? progress_update : NULL,
					.progress_arg = pr, .lazy_lines = lazy_lines(tui || !ro.annotate),
					.skip_jumps = 1 };
		int rc = profile_load_any(&G.prof, G.files[i], &lo, err, sizeof(err));
		struct stat st;
		progress_next_file(pr, stat(G.files[i], &st) == 0 ? (uint64_t)st.st_size : 0);
		if (rc < 0) {
			progress_end(pr);
			if (rc == LOAD_CANCELLED)
				return 0; /* q during the load */
			fprintf(stderr, "cgtui: %s\n", err);
			return 2;
		}
	}
	progress_end(pr);
	profile_finish(&G.prof);
	if (G.demangle)
		profile_demangle(&G.prof);
	if (G.runnote)
		profile_warn(&G.prof, "%s", G.runnote);
	profile_set_cycles(&G.prof, G.cycles);
	for (int i = 0; i < G.prof.nwarnings; i++)
		fprintf(stderr, "cgtui: warning: %s\n", G.prof.warnings[i]);
	if (define_events(&G.prof, err, sizeof(err)) < 0) {
		fprintf(stderr, "cgtui: %s\n", err);
		return 1;
	}
	if (show && report_parse_events(&G.prof, show, ro.show, &ro.nshow, "show", err, sizeof(err)) < 0) {
		fprintf(stderr, "cgtui: %s\n", err);
		return 1;
	}
	if (sort && report_parse_events(&G.prof, sort, ro.sort, &ro.nsort, "sort", err, sizeof(err)) < 0) {
		fprintf(stderr, "cgtui: %s\n", err);
		return 1;
	}
	ro.invocation = G.invocation;
	/* relative source names are also tried from each profile's directory */
	G.dirs = xcalloc((size_t)G.nincdirs + (size_t)G.nfiles + 1, sizeof(*G.dirs));
	G.ndirs = 0;
	for (int i = 0; i < G.nincdirs; i++)
		G.dirs[G.ndirs++] = G.incdirs[i];
	for (int i = 0; i < G.nfiles; i++) {
		const char *sl = strrchr(G.files[i], '/');
		if (sl)
			G.dirs[G.ndirs++] = xstrndup(G.files[i], (size_t)(sl - G.files[i]));
	}
	ro.src_dirs = G.dirs;
	ro.nsrc_dirs = G.ndirs;
	ro.look = &G.look;
	ro.modfile = G.modfile;

	if (tui) {
		struct tui_loader ld = { .load = load_all, .arg = &diff, .load_instr = load_sink,
					 .look = &G.look, .fold = &G.fold, .modfile = G.modfile };
		recover_symbols(&G.prof); /* names for the functions known by address */
		if (sort)
			start.sort_event = ro.sort[0];
		if (show)
			memcpy(start.show, ro.show, sizeof(start.show));
		start.nshow = show ? ro.nshow : 0;
		struct tui_args ta = { .loader = &ld, .src_dirs = G.dirs, .nsrc_dirs = G.ndirs,
				       .start = &start };
		return tui_run(&G.prof, &ta);
	}
	int st = share_write(stdout, &G.share, &G.prof, &ro); /* --format=json, --export */
	if (st >= 0)
		return st;
	/* on a terminal, names are escaped (they come from other people's files) */
	FILE *out = isatty(STDOUT_FILENO) ? escaping_stream(stdout) : NULL;
	report_write(out ? out : stdout, &G.prof, &ro);
	int missing = 0;
	if (G.nasmfns) {
		recover_symbols(&G.prof);
		missing = annotate_asm(out ? out : stdout, &ro, &diff);
	}
	if (out && fclose(out) != 0)
		fprintf(stderr, "cgtui: error writing the report: %s\n", strerror(errno));
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "cgtui: error writing the report: %s\n", strerror(errno));
		return 1;
	}

	return missing ? 1 : 0; /* a name to annotate that is not there: as a usage error */
}
