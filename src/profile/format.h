/* format.h -- how numbers and names are written, the same in every view and
 * the report: counts with thousands separators, thresholds as Python prints
 * them, and the one label of a function or cycle.  No terminal here.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_FORMAT_H
#define CGTUI_FORMAT_H

#include <stddef.h>

#include "aggregate.h"
#include "model.h"

/* "1,234,567" (and "-1,234"): counts as every report and view prints them. */
void format_count(char *buf, size_t n, cost_t v);
/* Formats a threshold as Python's str(float) does (0.1, 1.0, 1e-05). */
void format_threshold(char *buf, size_t n, double v);

/* What an event of Valgrind's cachegrind or callgrind counts ("Ir":
 * "instructions executed"), or NULL for another name. */
const char *event_meaning(const char *name);

/* "part 3 of 4, thread 2" for part k (1-based, as loaded): its file's
 * part: number (else k) and its thread when it has one. */
void part_label(char *buf, size_t n, const struct profile *p, int k);

/* The label of an entity (a function, or with cycle detection on a cycle;
 * see aggregate.h), malloc'ed: a function's name, or its ELF symbol with
 * the name it had ("sym [recovered from 0x...]") when the profile only had
 * its address, followed by " <cycle N>" when it is a member of one; a
 * cycle's "<cycle N>".  The report puts its file and object around it. */
char *fn_label(struct profile *p, uint32_t id);
/* The same, with the template arguments of C++ names folded when
 * LABEL_FOLD_TEMPLATES: std::vector<int, std::allocator<int> >::push_back
 * is std::vector<...>::push_back (a cycle's "<cycle N>" is no template). */
enum { LABEL_FOLD_TEMPLATES = 1 };
char *fn_label_ex(struct profile *p, uint32_t id, unsigned flags);
/* Folds the template arguments of name (malloc'ed); "operator<" and
 * "operator<<" are not templates. */
char *fold_templates(const char *name);
/* The label of the other end of an edge (query.h): fn_label, and for a
 * call into a cycle "<cycle N> via MEMBER" (malloc'ed). */
char *edge_label(struct profile *p, uint32_t id, uint32_t via);
char *edge_label_ex(struct profile *p, uint32_t id, uint32_t via, unsigned flags);
/* A cycle's members, "N functions: a, b, c" (malloc'ed), cut after about
 * `room` characters with ", ..." (SIZE_MAX: all of them). */
char *cycle_members(struct profile *p, uint32_t id, size_t room);
/* What stands in the cost column of a call whose cost is no share of the
 * total (the cycle rule, aggregate.h): "(recursive)" or "(in cycle N)", or
 * a shorter form when width columns are fewer; NULL for the others.  buf
 * is used for the text (n >= 32). */
const char *call_kind_text(char *buf, size_t n, enum call_kind kind, uint32_t cycle, int width);

#endif
