/* timeline.h -- the time axis the recorder keeps beside a profile
 * (--timeline=yes): every function's self cost per interval of
 * instructions, in PROFILE.time (format "cgtui-timeline 1", man cgtui:
 * Timeline), read here for the timeline view.  No terminal here.
 *
 *   cgtui-timeline<TAB>1
 *   events:<TAB>Ir<TAB>Dr ...         the profile's events, in its order
 *   length:<TAB>N                     the intervals' length in Ir at the end
 *   fn:<TAB>K<TAB>OBJECT<TAB>FILE<TAB>NAME   function K (from 0), as the
 *                                     profile names it
 *   iv:<TAB>START<TAB>END<TAB>T1 ...  an interval: Ir START to END of the
 *                                     run (START the previous END, the
 *                                     first 0), its totals per event
 *   c:<TAB>K<TAB>C1 ...               function K's self cost in the
 *                                     interval above
 *
 * What is checked, each said as "FILE:LINE: what is wrong" (the file is
 * then ignored; the profile stays as loaded): the header and version, the
 * events (the profile's), the record shapes and numbers (no negative
 * cost), fn: numbered in order and naming a function of the profile,
 * intervals following each other with END - START their Ir total (when
 * Ir is an event), a c: line after an iv: line for a function defined
 * before, once per interval, and each interval's totals the sum of its
 * c: lines.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_TIMELINE_H
#define CGTUI_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct timeline {
	struct profile *p;
	int nreal;
	uint64_t length;      /* the length: line */
	uint32_t niv;         /* intervals */
	uint64_t *start, *end; /* niv: each interval's Ir range */
	cost_t *total;        /* niv * nreal: its totals */
	uint32_t *cfirst;     /* niv + 1: interval i's c: lines are
			       * [cfirst[i], cfirst[i + 1]) */
	uint32_t *cfn;        /* per c: line, the profile's function */
	cost_t *cost;         /* per c: line, nreal */
	uint32_t nc;
};

/* Reads PROFILE.time for the profile file `source` (one of p->sources):
 * 0 with *out set, 1 when there is no such file, -1 with
 * "FILE:LINE: what is wrong" in err. */
int timeline_read(struct profile *p, const char *source, struct timeline **out, char *err,
		  size_t errsz);

/* The timeline of p for the views: that of its one file, NULL when it has
 * none (or p is a difference).  A file that cannot be read is said in a
 * warning of p, as are timelines of several files (not combined: NULL). */
struct timeline *timeline_of(struct profile *p);
void timeline_free(struct timeline *tl);

/* Interval iv's totals (nreal). */
static inline const cost_t *timeline_total(const struct timeline *tl, uint32_t iv)
{
	return &tl->total[(size_t)iv * (size_t)tl->nreal];
}
/* Interval iv's length in instructions (its Ir range). */
static inline uint64_t timeline_ir(const struct timeline *tl, uint32_t iv)
{
	return tl->end[iv] - tl->start[iv];
}
/* A cost of interval iv as a rate: per instruction of the interval (0 for
 * an interval without instructions), so intervals of different lengths
 * (the last one, open when the profile was written, is shorter) compare. */
static inline double timeline_rate(const struct timeline *tl, uint32_t iv, cost_t v)
{
	uint64_t n = timeline_ir(tl, iv);
	return n ? (double)v / (double)n : 0.0;
}
/* The intervals inside the Ir range [ir0, ir1) of the run: [*iv0, *iv1)
 * (ir1 == 0: all; none: *iv0 == *iv1).  Intervals are whole: one that
 * starts before ir0 or ends after ir1 is out. */
void timeline_range(const struct timeline *tl, uint64_t ir0, uint64_t ir1, uint32_t *iv0,
		    uint32_t *iv1);
/* The self cost of every entity (aggregate.h: the functions, then the
 * cycles, their members' sum) in intervals [iv0, iv1), into self
 * (agg_nent * nreal, zeroed first), and their totals into tot (nreal): the
 * sum of those intervals' totals. */
void timeline_range_self(const struct timeline *tl, uint32_t iv0, uint32_t iv1, cost_t *self,
			 cost_t *tot);
/* Entity ent's (aggregate.h: a function, or a cycle: its members') self
 * cost in interval iv into out (nreal). */
void timeline_cost(const struct timeline *tl, uint32_t iv, uint32_t ent, cost_t *out);

#endif
