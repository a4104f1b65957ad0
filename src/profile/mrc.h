/* mrc.h -- the miss-ratio curves our recorder writes (--cache-mrc=yes) as
 * comment lines after a profile's costs (format 1, man cgtui: MISS-RATIO
 * CURVES), which other readers ignore:
 *
 *   # cgtui mrc 1: data accesses, lines of 64 B, sizes 2^0 .. 2^26 lines, sampling threshold T of ONE
 *   # mrc-total: SAMPLES ACCESSES M0 M1 ... M26
 *   # mrc-fn: SAMPLES ACCESSES M0 ... M26      (a function's, then its name:)
 *   # mrc-name: fl=FILE fn=FUNCTION
 *   # mrc-few: N functions with fewer than K samples
 *
 * Mk is the estimated misses of a fully associative LRU cache of 2^k
 * lines: its miss ratio is Mk / ACCESSES.  Also the data caches a profile
 * says it simulated (its "desc: D1 cache: 32768 B, 64 B, ..." lines), to
 * mark on a curve.  The loader reads the lines; views draw them.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_MRC_H
#define CGTUI_MRC_H

#include <stddef.h>
#include <stdint.h>

struct profile;

#define MRC_MAX_SIZES 48 /* sizes 2^0 .. 2^47 lines at most */

struct mrc_curve {
	uint64_t samples, accesses;
	uint64_t miss[MRC_MAX_SIZES];
	char *file, *fn; /* the function's (mrc-name); NULL for the whole run */
};

struct mrc_data {
	unsigned line;  /* bytes per line */
	int nsizes;     /* sizes 2^0 .. 2^(nsizes - 1) lines */
	uint32_t threshold, one; /* sampling: threshold of one (one: every line) */
	struct mrc_curve total;
	struct mrc_curve *fns;
	size_t nfns, capfns;
	uint64_t few;   /* functions with too few samples for a curve */
	uint64_t few_min; /* ... fewer than this */
	struct mrc_curve *files; /* each file's whole-run curve added */
	size_t nfiles;
};

/* One file's curves while it is read. */
struct mrc_reader {
	struct mrc_data d;
	int state;   /* 0: no header yet, 1: reading, -1: ignored from here on */
	int pending; /* an mrc-fn line waits for its mrc-name line */
	int has_total;
	uint64_t pending_line;
};

/* Is this comment line (starting with '#') one of the curves'? */
int mrc_is_line(const char *s, size_t len);
/* Reads one such line into r.  0, or -1 with what is wrong in why (the
 * rest of the file's curves are then ignored: the profile stays good). */
int mrc_read_line(struct mrc_reader *r, const char *s, size_t len, char *why, size_t n);
/* The file ended: its curves go to p (added to those of files read
 * before, the parts of one run; a file whose curves equal those already
 * there -- the per-thread files of one run carry the whole run's -- adds
 * nothing).  r is freed; -1 with why when its curves were left out. */
int mrc_reader_end(struct mrc_reader *r, struct profile *p, char *why, size_t n);
void mrc_reader_free(struct mrc_reader *r);
void mrc_free(struct mrc_data *d);

/* The curve of function fn (by its name, and file when several have the
 * name), NULL when it has none. */
const struct mrc_curve *mrc_of_fn(const struct profile *p, uint32_t fn);
/* The miss ratio of c at 2^k lines (0 .. 1), -1 when it has no accesses. */
double mrc_ratio(const struct mrc_curve *c, int k);
/* At a size of `lines` lines that need not be a power of two: linear
 * between the neighbouring powers of two in log2 of the size (the curve
 * is measured only at those); -1 outside them or without accesses. */
double mrc_ratio_at(const struct mrc_data *d, const struct mrc_curve *c, double lines);

/* A data cache the profile says was simulated (its desc: lines): the
 * first model's (or cachegrind's) data-side levels, in order. */
struct mrc_level {
	char name[16]; /* "D1", "LL", "L1D", "L2" ... */
	uint64_t size; /* bytes */
};
/* Fills out[0 .. max) and returns how many. */
int mrc_levels(const struct profile *p, struct mrc_level *out, int max);

#endif
