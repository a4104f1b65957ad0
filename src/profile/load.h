/* load.h -- reading Cachegrind and Callgrind profile files into the model.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_LOAD_H
#define CGTUI_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct modname;
struct partset;

/* Instruction-level detail, for a reader that wants it (the assembly view
 * re-reads the profile with one): called for every cost line, call and jump
 * as read, fn being the function in the profile being loaded, addr the
 * instruction address (0 without `positions: instr`), costs already signed
 * (nreal values).  Any callback may be NULL.  With a sink, costs, calls
 * and jumps are not kept in the profile (it holds names and functions only). */
struct instr_sink {
	void *arg;
	void (*cost)(void *arg, const struct profile *p, uint32_t fn, uint32_t file,
		     uint32_t line, uint64_t addr, const cost_t *c);
	void (*call)(void *arg, const struct profile *p, uint32_t fn, uint64_t addr,
		     uint32_t callee, uint64_t taddr, cost_t count, const cost_t *c);
	void (*jump)(void *arg, const struct profile *p, uint32_t fn, uint64_t addr,
		     uint64_t taddr, int cond, cost_t executed, cost_t taken);
	/* Optional: is the function named name (object obj, NO_ID if none;
	 * both ids of p) wanted?  The cost lines of the blocks of the others are
	 * skipped unread.  Positions after skipped lines must then be absolute
	 * (Callgrind writes the first position of a block absolute); when one
	 * is not, the load fails and *skim_failed is set: load again without
	 * want. */
	int (*want)(void *arg, const struct profile *p, uint32_t obj, uint32_t name);
	int *skim_failed;
};

struct load_opts {
	int sign;                         /* +1; -1 for the first file of a diff */
	/* the parts whose costs are read (scope.h; NULL: every part): the
	 * others are listed in p->parts, skipped set, their costs not read.
	 * A set by load index counts the parts over all the files loaded into
	 * the profile, as p->parts lists them. */
	const struct partset *parts;
	const struct modname *modfile;    /* --mod-filename, or NULL */
	const struct modname *modfn;      /* --mod-funcname, or NULL */
	/* in a file callgrind or cgtui wrote (profile_names_contexts), a
	 * function name's recursion level and caller contexts (f'2, f'g'h)
	 * are cut off: they are all f */
	int fold_contexts;
	/* Called now and then with bytes read so far and the file's size
	 * (0 when unknown: gzip, zstd); a non-zero return cancels the load.
	 * From the thread that called profile_load, at least every ~8 MB or
	 * ~50 ms, at a moment when every function block read whole is in p
	 * (its function in p->fns, its costs per file in p->ls.ff, ffcost):
	 * the explorer's loading screen reads them there (partial.h). */
	int (*progress)(void *arg, uint64_t done, uint64_t size);
	void *progress_arg;
	const struct instr_sink *instr;   /* NULL: not wanted */
	/* read a plain file with read() as if it were a pipe, never mapped in
	 * place (the fuzzer checks that both ways give the same profile) */
	int no_map;
	/* a plain file read in place may leave its blocks' line records to be
	 * made when first needed (profile_need_lines): the per-file totals,
	 * calls and everything but per-line costs are there at once */
	int lazy_lines;
	/* the line-level jumps (jump=/jcnd=) are read and checked but not
	 * kept for jump_next(): cgtui shows none (its assembly view reads its
	 * own, see instr.h), and they are 45 MB of a 1 GB profile */
	int skip_jumps;
	/* threads reading a mapped plain file (1: the reader alone; 0: one
	 * per online CPU other programs do not keep busy, par.c's
	 * load_jobs()); the profile is the same with any number */
	int jobs;
};

/* The threads `jobs` means (0: the default above). */
int load_jobs(int want);

/* Loads one file (plain, gzip or zstd) into p, adding to what p holds.  Returns 0,
 * or -1 with "FILE:LINE: reason" (or "FILE: reason") in err, or
 * LOAD_CANCELLED when the progress callback asked to stop. */
#define LOAD_CANCELLED (-2)
int profile_load(struct profile *p, const char *path, const struct load_opts *o,
		 char *err, size_t errsz);

/* After the last file: totals, summary checks, standard derived events. */
void profile_finish(struct profile *p);

#endif
