/* export.h -- a profile in the formats other tools read: folded stacks
 * (flamegraph.pl, inferno, speedscope), speedscope's JSON file format and
 * pprof's profile.proto, gzip-compressed (go tool pprof, speedscope).
 *
 * A Callgrind file records calls, not call paths: the paths are those of
 * the calling-context tree estimated from the call edges
 * (profile/context.h: the top-down call tree with estimated shares, tree.h
 * -- each call's cost split among the paths into its caller in proportion
 * to their costs), and every export says so.  The costs of a stack are
 * those its innermost frame has on that path and its callees do not (the
 * context's self cost), so each event's stacks add up to its total.  Calls inside a cycle or of a function to
 * itself carry no cost of their own (the one cycle rule): they are in no
 * path.  Nodes under the threshold (rank.h) are left to their parent;
 * every root is kept, having none, up to the node bound (context.h): the
 * roots left out are said in a note, with their cost.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_EXPORT_H
#define CGTUI_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "profile/model.h"

enum export_kind { EXPORT_NONE, EXPORT_FOLDED, EXPORT_SPEEDSCOPE, EXPORT_PPROF };

/* "folded", "speedscope", "pprof"; EXPORT_NONE for another name */
enum export_kind export_kind_of(const char *name);

struct export_opts {
	int ev[MAX_EVENTS], nev; /* the events (speedscope: a profile each;
				  * pprof: a value each); 0: every real one */
	int sort_event;          /* the paths' event (folded: the only one) */
	double threshold;        /* percent of the sort event's total */
	FILE *note;              /* where to say the paths are estimated (or NULL) */
};

/* Writes p to out; 0, or -1 with a message (a difference cannot be
 * exported: flame graphs have no negative costs). */
int export_write(FILE *out, struct profile *p, enum export_kind k, const struct export_opts *o,
		 char *err, size_t errsz);

#endif
