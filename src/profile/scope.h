/* scope.h -- what the lists show: the whole run, or the functions of one
 * object (ELF file), one source file, or one C++ class or namespace.  One
 * rule for every view that lists functions (and for anything later that
 * restricts them); percentages and the threshold stay shares of the whole
 * run's total, so a number reads the same zoomed or not.
 * And which parts of the run the costs are of (struct partset): every part,
 * or a set of them; there the total is the chosen parts' sum.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SCOPE_H
#define CGTUI_SCOPE_H

#include <stddef.h>

#include "model.h"

enum scope_kind { SCOPE_ALL, SCOPE_OBJECT, SCOPE_FILE, SCOPE_CLASS };

struct scope {
	enum scope_kind kind;
	uint32_t id;  /* SCOPE_OBJECT, SCOPE_FILE: the object's or file's id */
	char *cls;    /* SCOPE_CLASS: "std::vector<int>" or "ns" (malloc'ed) */
	/* a time range, with any kind: Ir ir0 to ir1 of the run (ir1 == 0:
	 * all of it), for the views with costs per interval (timeline.h);
	 * the others show the whole run and say so */
	uint64_t ir0, ir1;
};

/* Does the scope keep entity id (a function; with cycle detection on, a
 * cycle: when one of its members is kept)?  SCOPE_CLASS keeps the functions
 * of the class or namespace and of those nested in it. */
int scope_keeps(struct profile *p, const struct scope *s, uint32_t id);
/* The self cost of the functions kept (nreal costs into out): the scope's
 * share of the whole run. */
void scope_self(struct profile *p, const struct scope *s, cost_t *out);
/* "object libc.so.6", "file foo.c", "class std::vector<int>", "the whole
 * run", with a time range ", Ir 1,000 to 2,000" after it (alone: "Ir
 * 1,000 to 2,000") (malloc'ed). */
char *scope_label(const struct profile *p, const struct scope *s);
/* The scopes a function is in, for choosing one: fills s[0..) with its
 * object, its file and its class (those it has) and returns how many. */
int scope_of_fn(const struct profile *p, uint32_t fn, struct scope *s, int max);
/* The same scope in another load of the profile (a live snapshot, another
 * part): object and file ids found again by name (NO_ID: none there). */
void scope_move(struct scope *s, const struct profile *from, const struct profile *to);
void scope_copy(struct scope *to, const struct scope *from);
int scope_same(const struct scope *a, const struct scope *b);
void scope_clear(struct scope *s);

/* The class or namespace of a C++ function name: the qualifier before its
 * last "::" outside template arguments and parentheses, without a return
 * type; *len its length (0: none, a C function, an address, "???").
 * Returns where it starts in name. */
const char *name_class(const char *name, size_t *len);

/* ---- parts ---------------------------------------------------------------
 * The parts of a run are its threads, its dumps, the `part:` blocks of a
 * file and the files of a merge or a difference (model.h's part_info).  A
 * set of them is what the session shows: the loader reads the costs of the
 * parts in the set only (the others are listed, their costs skipped), so
 * every total, list, view and report is the sum of the parts chosen.  A set
 * names its parts in one of two ways:
 *  - by load index: part k (1-based) is the k-th part read, p->parts[k - 1]
 *    (the parts view's choice, made on a loaded profile);
 *  - as the command line gives them (--parts, --threads, --pids), by the
 *    numbers the parts view shows: a part's `part:` number (k when it has
 *    none), its `thread:` and its `pid:` number; a part is kept when every
 *    list it is given keeps it.
 * No bits and no lists: every part. */
enum part_field { PART_NUMBER, PART_THREAD, PART_PID, PART_NFIELDS };
struct partset {
	uint64_t *bits;       /* by load index: bit k - 1 for part k; NULL: the lists */
	int nbits;
	struct partlist {     /* by number, thread, pid (n 0: any) */
		long *v;
		int n;
	} by[PART_NFIELDS];
};
/* the option naming a field's list: "--parts", "--threads", "--pids" */
extern const char *const part_field_option[PART_NFIELDS];

/* Every part (s NULL too)? */
int partset_all(const struct partset *s);
/* Does s keep part k of p (1-based, k <= p->nparts, its header read)? */
int partset_has(const struct profile *p, const struct partset *s, int k);
/* s becomes the set of part k alone (by load index). */
void partset_only(struct partset *s, int k);
/* s becomes the parts of p whose costs were loaded (every part: all). */
void partset_of_profile(struct partset *s, const struct profile *p);
/* Part k (by load index) added to s or taken out of it (on 1 or 0); s
 * stays by load index, made from the profile p where it was not. */
void partset_set(struct partset *s, const struct profile *p, int k, int on);
/* "1,3,5-7" (numbers, ranges N-M) into *l; 0, or -1 with what is wrong in
 * err. */
int partset_parse_list(const char *text, struct partlist *l, char *err, size_t errsz);
void partset_copy(struct partset *to, const struct partset *from);
/* Are x and y the same set of parts, written the same way? */
int partset_same(const struct partset *x, const struct partset *y);
void partset_clear(struct partset *s);
/* The parts shown by p, for a header: "3 parts" (all), "part 2 of 3, thread
 * 2" (one: part_label()), "2 of 4 parts: 1, 3" (several, in the parts
 * view's order: their numbers as it shows them, N.T for part N's thread T,
 * "N pid P" when the parts are of several processes), cut to n bytes. */
void parts_shown_label(char *buf, size_t n, const struct profile *p);
/* Are the costs of part k (1-based) in p?  And of every part? */
int part_shown(const struct profile *p, int k);
int parts_all_shown(const struct profile *p);

#endif
