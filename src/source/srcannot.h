/* srcannot.h -- the annotated rows of one source file, built once for the
 * batch report and the explorer's source view (as asmannot.h does for a
 * function's machine code): finding the file (under its original names
 * when --mod-filename renamed it: readable, identical, newer than which
 * profile files), which lines show (those picked, with context lines
 * around them, in ranges as cg_annotate makes them), the gaps between the
 * ranges, the calls made from each line with the cycle rule's kind, the
 * profile's line 0 and the lines it names past the file's end.  The report
 * and the view only draw the rows.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SRCANNOT_H
#define CGTUI_SRCANNOT_H

#include <stddef.h>
#include <stdint.h>

#include "profile/aggregate.h"
#include "profile/model.h"
#include "srcfile.h"

struct modname;
struct rank_thr;

struct srcann_opts {
	const struct srclookup *look;  /* directories and substitutions, or NULL */
	const char *const *dirs;       /* more directories for relative names */
	int ndirs;
	const struct modname *modfile; /* --mod-filename (original names), or NULL */
	uint32_t fn;    /* NO_ID: every function's costs in the file; else fn's only */
	uint32_t entry; /* a function whose entry line is picked (first), or NO_ID */
	int event;      /* the event lines are picked by */
	/* lines picked: those whose cost of event passes thr, and those whose
	 * calls' costs do (a line calling the costliest function may cost
	 * little itself), and entry's first line; NULL: every line with a cost,
	 * as cg_annotate annotates */
	const struct rank_thr *thr;
	long context;   /* lines shown around a picked line */
	int calls;      /* call rows under the lines that make them */
};

enum srcann_status {
	SA_OK,          /* read: sf holds it */
	SA_UNKNOWN,     /* the profile names no file ("???" or empty) */
	SA_UNREADABLE,  /* one or more of its original names cannot be read */
	SA_NONIDENT,    /* two or more original names differ */
};

enum srcann_kind {
	SA_LINE0,  /* the profile's line 0: costs of the file, of no line */
	SA_LINE,   /* a line of a range (cost NULL: none recorded) */
	SA_CALL,   /* a call made from the line before it */
	SA_GAP,    /* lines lo .. hi not shown (between or after the ranges) */
	SA_PAST,   /* a line the profile names past the end of the file */
};

struct srcann_row {
	enum srcann_kind kind;
	uint32_t line;       /* SA_LINE, SA_CALL, SA_PAST: the line; SA_GAP: lo */
	uint32_t hi;         /* SA_GAP: the last line hidden (UINT32_MAX: to the end) */
	const cost_t *cost;  /* nreal, or NULL */
	int picked;          /* SA_LINE: picked (hot), not only context */
	int range;           /* SA_LINE: its range (index in ranges) */
	/* SA_CALL */
	uint32_t callee;
	enum call_kind call;
	cost_t count;
};

struct srcann_range {
	uint32_t lo, hi;     /* as cg_annotate computes them: hi may pass the end */
};

struct srcann {
	enum srcann_status status;
	const char *name;    /* the file's name in the profile */
	const char **orig;   /* the names it was read under (one, or several) */
	size_t norig;
	struct srcfile sf;   /* SA_OK: the first of them */
	struct srctried tried; /* the paths tried */
	int err;             /* SA_UNREADABLE: errno of the name that was not */
	int64_t mtime_ns;    /* SA_OK: the oldest of them */
	int *newer;          /* the profile files (indices of p->sources) the
			      * source is newer than */
	int nnewer;
	struct srcann_row *rows;
	size_t nrows;
	struct srcann_range *ranges; /* those that start within the file */
	size_t nranges;
	int picked_any;      /* a line other than line 0 was picked */
	size_t first;        /* the row of o->entry's first line, SIZE_MAX if none */
	/* every line the profile names in the file, with its cost: lines[i],
	 * pool[i * nreal] (line 0 first when there is one) */
	uint32_t *lines;
	cost_t *pool;
	uint32_t ncost;
	/* owned */
	struct call_site *calls;
};

/* Builds the rows of file `file` of p.  The file is looked for under each
 * original name (o->modfile), after o->look's substitutions, and a
 * relative name also under o->look's and o->dirs' directories.  Returns
 * a->status. */
enum srcann_status srcann_build(struct srcann *a, struct profile *p, uint32_t file,
				const struct srcann_opts *o);
void srcann_free(struct srcann *a);

#endif
