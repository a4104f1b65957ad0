/* scope.h -- what the lists show: the whole run, or the functions of one
 * object (ELF file), one source file, or one C++ class or namespace.  One
 * rule for every view that lists functions (and for anything later that
 * restricts them); percentages and the threshold stay shares of the whole
 * run's total, so a number reads the same zoomed or not.
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
};

/* Does the scope keep entity id (a function; with cycle detection on, a
 * cycle: when one of its members is kept)?  SCOPE_CLASS keeps the functions
 * of the class or namespace and of those nested in it. */
int scope_keeps(struct profile *p, const struct scope *s, uint32_t id);
/* The self cost of the functions kept (nreal costs into out): the scope's
 * share of the whole run. */
void scope_self(struct profile *p, const struct scope *s, cost_t *out);
/* "object libc.so.6", "file foo.c", "class std::vector<int>", "the whole
 * run" (malloc'ed). */
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

#endif
