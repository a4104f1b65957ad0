/* model.h -- the profile model: events, cost vectors, interned names,
 * functions, per-line self costs, calls, jumps, parts.  No terminal here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_MODEL_H
#define CGTUI_MODEL_H

#include <stdint.h>
#include <time.h>

#include "linestore.h"
#include "util.h"

struct modname;

#define NO_ID UINT32_MAX
#define MAX_EVENTS 64

/* An event: real (read from the file) or derived (a formula over others). */
struct event_term {
	int64_t coef;
	int ev; /* index of a real or earlier derived event */
};
struct event_def {
	char *name;
	char *longname;  /* NULL if none */
	char *formula;   /* text of the formula, NULL for a real event */
	struct event_term *terms;
	int nterms;
};

/* One part of a profile: a `part:` block, a thread's file, a dump. */
struct part_info {
	char *source;    /* path of the file it came from */
	int number;      /* `part:` value, 0 when absent */
	long thread;     /* `thread:` value, 0 when absent */
	long pid;        /* `pid:` value, 0 when absent */
	char *cmd;
	char *creator;
	char *trigger;   /* "desc: Trigger:" value */
	uint64_t time0, time1; /* "desc: Timerange:" basic blocks, when has_time */
	int has_time;
	/* the part's total cost (nreal): the sum of its self costs, or where
	 * the producer counted more than its cost lines carry, the run's full
	 * cost (profile_finish()) */
	cost_t *totals;
	uint32_t ff_start; /* its first block subtotal in the line store */
	cost_t *summary; /* its `summary:` line, NULL if none */
	int summary_line;
	cost_t *lines_sum; /* its `totals:` line (the cost lines' sum, as the
			    * producer wrote it), NULL if none */
	int lines_sum_line;
	int sign;        /* -1: its costs read negated (a difference's first side) */
	int skipped;     /* its costs not read: a part the load's set left out */
};

/* A function: its name, object and file, which are its identity (as
 * callgrind, KCachegrind and callgrind_annotate key it: two static
 * functions of one name in two files of an object are two; NO_ID for an
 * object or file not named).  12 bytes: a 1 GB profile has 400,000. */
struct function {
	uint32_t name, obj, file;
};

/* A call site: caller at (file, line) calls callee; how many times and its
 * inclusive cost are encoded in callbuf (read them with call_count() and
 * call_cost()), at callbase[r >> CALL_BASE_SHIFT] + off for record r: the
 * records are appended in callbuf's order, so a group of 2^CALL_BASE_SHIFT
 * records spans far less than 4 GB and a 32-bit offset within it is
 * enough.  20 bytes a record (a 1 GB profile has 1.7 million).  One record
 * per calls= line, as read: the same site may appear more than once (every
 * reader adds them up). */
struct call_rec {
	uint32_t caller, callee, file, line;
	uint32_t off;
};
#define CALL_BASE_SHIFT 16

/* A jump (`jump=`) or conditional jump (`jcnd=`) inside a function. */
struct jump_rec {
	uint32_t fn, file, line, tfile, tline;
	uint32_t cond;
	cost_t executed, taken;
};

struct ihash {
	uint32_t *slots; /* record index + 1, 0 = empty */
	uint32_t mask, n; /* records [0, n) are in it */
};

struct profile {
	/* events: [0, nreal) real, [nreal, nevents) derived */
	int nreal, nevents;
	struct event_def ev[MAX_EVENTS];

	struct strtab objs, files, names;

	struct function *fns;
	uint32_t nfns, capfns;
	struct ihash fnhash;
	/* the functions by their names' texts, for finding another profile's
	 * function in this one: made by profile_index_fn_text() */
	struct ihash fntext;

	/* self cost per (function, file, line): file is fi/fe aware */
	struct linestore ls;

	struct call_rec *calls;
	uint32_t ncalls, capcalls;
	uint8_t *callbuf;        /* per call: zigzag varint count, cost_encode() */
	size_t callbuf_len, callbuf_cap;
	uint64_t *callbase;      /* per 2^CALL_BASE_SHIFT records (see call_rec) */
	uint32_t ncallbase, capcallbase;

	/* jumps as read (the same jump may appear more than once), varint
	 * encoded: read them with jump_next() */
	uint8_t *jumpbuf;
	size_t jumpbuf_len, jumpbuf_cap;
	uint32_t njumps;

	struct part_info *parts;
	int nparts, capparts;

	char **desc; /* desc: lines of the first file, without "desc: " */
	int ndesc, capdesc;
	char *cmd, *creator;
	int has_instr, has_line; /* positions seen */
	int is_callgrind;        /* any callgrind-only construct seen */
	int ndiff;               /* 2 when this is a difference */
	char **sources;          /* profile files loaded */
	time_t *source_mtime;    /* and their modification times */
	int nsources;
	/* each file's distinct desc: lines, each followed by a newline (NULL:
	 * none); source_desc[i] for i < nsource_desc, the others have none */
	char **source_desc;
	int nsource_desc;
	time_t newest_mtime;     /* newest mtime of the profile files */

	cost_t *totals;          /* the parts' totals summed (nreal) */
	/* What no sum can pass.  Per event, the magnitudes of every value read
	 * from the cost lines, self and call costs alike, summed by sign
	 * ([0] positive, [1] negative); the same for call counts and for jump
	 * counts.  Every sum the program forms (a line's, a function's, a
	 * file's, the totals, an inclusive cost: self plus calls) adds values
	 * of one event, each read once, so it lies between -summag[1][e] and
	 * summag[0][e]; the loader stops at the line that takes one of these
	 * beyond 2^63-1 ("sum of Ir passes 2^63-1"), and a derived event is
	 * only defined when its formula bounded by them stays within 2^63-1
	 * (profile_define_event).  So no sum wraps.
	 * While the mapped fast paths read, their costs (all positive) are
	 * summed over all events into fastsum instead, as long as fastsum +
	 * any summag[0][e] stays within 2^63-1 (each event's sum is then
	 * too); when a check cannot be decided so, profile_sums_exact() takes
	 * them out of the line store and the call records, which hold them
	 * with the costs counted one by one (selfsum, callsum), into summag,
	 * and from then on every value is counted per event (sums_exact). */
	uint64_t summag[2][MAX_EVENTS];
	uint64_t summax0;        /* the largest summag[0][e] */
	uint64_t fastsum;
	int64_t selfsum[MAX_EVENTS], callsum[MAX_EVENTS]; /* (two's complement) */
	int sums_exact;
	uint64_t countmag[2], jumpmag[2];
	/* the files' "event:" lines, applied by profile_finish when every
	 * file is in (whether a formula's values stay within 2^63-1 depends
	 * on all the costs) */
	struct evdef {
		char *path;
		uint64_t line;
		char *text;          /* "NAME = formula" or "NAME : long name" */
	} *evdefs;
	int nevdefs, capevdefs;
	char **warnings;         /* non-fatal problems found while loading */
	int nwarnings, capwarnings;

	/* what profile_need_lines() reads deferred line records from (the
	 * loader's; NULL when every block was stored as it was read) */
	void *lazy;
	void (*lazy_free)(void *lazy);
	/* the line provider the loader registers: makes fn's deferred line
	 * records from lazy (see profile_need_lines) */
	int (*lazy_lines)(struct profile *p, void *lazy, uint32_t fn);

	/* miss-ratio curves (mrc.h), NULL when the files have none */
	struct mrc_data *mrc;

	struct agg *agg;         /* aggregation, computed on demand */
	int jobs;                /* threads it may use (0: as the loader's
				  * default, load_jobs(0)) */
	int agg_roots0;          /* the aggregation makes the call tree's
				  * roots of event 0 on its way (load_ctl.roots0) */
	int agg_pairs;           /* and the file:function pairs (load_ctl.pairs) */
	uint32_t *recovered;     /* per function: the ELF symbol (a name id) of a
				  * function named by its address, or NO_ID;
				  * NULL when not looked for (src/source) */
	/* While the second side of a difference loads, its objects as the
	 * first's (modname.h's matching across builds: session.c sets it):
	 * a function's object is rewritten so when it is made; objas[o]
	 * is what object o became (NO_ID: not asked yet), nobjas long. */
	const struct modname *objmod;
	uint32_t *objas;
	uint32_t nobjas;
};

/* The parts in the order they ran (pid, then time range, then part
 * number, then as loaded): order[i] is a 0-based index of p->parts;
 * malloc'ed. */
int *profile_parts_by_time(const struct profile *p);

/* Every reader of per-line costs calls this first: fn's line records, left
 * by the loader to be made when first needed, are made now (the loader's
 * line provider, if any, reads them again from the profile file).  0, or
 * -1 when the file changed (the records it could make are made, and
 * warnings say why). */
int profile_need_lines(struct profile *p, uint32_t fn);

void profile_init(struct profile *p);
void profile_free(struct profile *p);
void profile_warn(struct profile *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A desc: line's value (without "desc:" and the blanks after it) of the
 * file being loaded, the last of p->sources: kept with that file's others
 * (once each) for the report's metadata. */
void profile_note_desc(struct profile *p, const char *v);

/* Find or add an event by its short name; returns its index or -1 when the
 * table is full.  Real events must be added before any derived one. */
int profile_event_index(const struct profile *p, const char *name, size_t len);

/* Define a derived event `name = formula`; 0 on success, else -1 with a
 * message in err (size errsz), -2 when its values could pass 2^63-1 in a
 * sum of the costs loaded so far ("values of NAME can pass 2^63-1"; see
 * summag).  Derived events are defined once every file is loaded. */
int profile_define_event(struct profile *p, const char *name, const char *formula,
			 char *err, size_t errsz);
/* The same from "NAME = FORMULA" (blanks around NAME ignored); 0, or -1
 * (or -2, as above) with a message in err. */
int profile_define_event_text(struct profile *p, const char *spec, char *err, size_t errsz);
/* Makes summag exact (see there). */
void profile_sums_exact(struct profile *p);
/* The largest magnitude event e can have in any sum (see summag);
 * UINT64_MAX when beyond 2^63-1.  Without exact, perhaps larger than it
 * is (fastsum counts for every event). */
uint64_t profile_event_bound(struct profile *p, int e, int exact);
/* Add KCachegrind's usual derived events (L1m, LLm, Bm, CEst) where their
 * inputs exist and the names are free. */
void profile_add_standard_derived(struct profile *p);

/* Value of event `e` (real or derived) for the cost vector c (nreal long). */
cost_t event_value(const struct profile *p, const cost_t *c, int e);

/* Does the profile name functions as callgrind does, f'2 for a recursion
 * level and f'g for a caller context (its creator is callgrind or cgtui)?
 * Other producers' names may contain ' of their own. */
int profile_names_contexts(const struct profile *p);
/* The same for a file's `creator:` value. */
int creator_names_contexts(const char *creator);

/* The function (obj, file, name), made if new (obj as p->objmod makes
 * it). */
uint32_t profile_fn(struct profile *p, uint32_t obj, uint32_t file, uint32_t name);
/* The function (obj, file, name) by the function hash, NO_ID if none is
 * found there or among the functions made since it was last filled (one
 * whose name was renamed after it was put in is not found: callers that
 * must find it look further themselves). */
uint32_t profile_fn_find(const struct profile *p, uint32_t obj, uint32_t file, uint32_t name);
/* The function hash filled with every function (the loader leaves the
 * last ones out: profile_fn_new()), before many profile_fn_find(). */
void profile_fn_index(struct profile *p);
/* profile_fn() for a name no function has yet (the caller knows): made
 * without a look in the function hash, which takes it in when next used. */
uint32_t profile_fn_new(struct profile *p, uint32_t obj, uint32_t file, uint32_t name);
/* p's first function of the same name, file and object (their texts) as
 * q's function g, NO_ID if none: looked up in the index
 * profile_index_fn_text() made, those not in it one by one (all of them
 * when it made none). */
uint32_t profile_fn_like(const struct profile *p, const struct profile *q, uint32_t g);
/* The index of p's functions by their texts made, once (for functions
 * made since, it grows), when the names are final (after loading: a name
 * renamed after it was put in is lost to it). */
void profile_index_fn_text(struct profile *p);
void profile_call(struct profile *p, uint32_t caller, uint32_t file, uint32_t line,
		  uint32_t callee, cost_t count, const cost_t *cost);
/* Where call record r's count and cost are in callbuf. */
static inline const uint8_t *call_data(const struct profile *p, uint32_t r)
{
	return p->callbuf + p->callbase[r >> CALL_BASE_SHIFT] + p->calls[r].off;
}
/* How many times call record r's call was made. */
static inline cost_t call_count(const struct profile *p, uint32_t r)
{
	uint64_t u;
	varint_get(call_data(p, r), &u);
	return unzigzag(u);
}
/* The inclusive cost of call record r, into out[nreal]. */
static inline void call_cost(const struct profile *p, uint32_t r, cost_t *out)
{
	uint64_t u;
	cost_decode(varint_get(call_data(p, r), &u), out, p->nreal);
}
/* Both at once. */
static inline cost_t call_count_cost(const struct profile *p, uint32_t r, cost_t *out)
{
	uint64_t u;
	cost_decode(varint_get(call_data(p, r), &u), out, p->nreal);
	return unzigzag(u);
}
void profile_jump(struct profile *p, uint32_t fn, uint32_t file, uint32_t line,
		  uint32_t tfile, uint32_t tline, int cond, cost_t executed, cost_t taken);

/* Reads the jump at *off (start at 0) into j; 0 at the end. */
int jump_next(const struct profile *p, size_t *off, struct jump_rec *j);

static inline const char *fn_name(const struct profile *p, uint32_t fn)
{
	return p->names.str[p->fns[fn].name];
}
static inline const char *file_name(const struct profile *p, uint32_t file)
{
	return p->files.str[file];
}
static inline const char *obj_name(const struct profile *p, uint32_t obj)
{
	return p->objs.str[obj];
}

#endif
