/* elfsym.h -- function names from an object's ELF symbol tables, for the
 * functions a profile could only name "???" or by their address.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_ELFSYM_H
#define CGTUI_ELFSYM_H

#include <stdint.h>

#include "profile/model.h"

struct elfsyms;

/* The function symbols (.symtab, else .dynsym) of an ELF file; NULL when it
 * cannot be read or is not ELF. */
struct elfsyms *elfsyms_open(const char *path);
/* The symbol containing addr (object-relative, as Callgrind writes it), or
 * NULL; *off gets addr minus the symbol's start. */
const char *elfsyms_lookup(const struct elfsyms *s, uint64_t addr, uint64_t *off);
/* The same, with the symbol's start and size (0 when the table says none). */
const char *elfsyms_span(const struct elfsyms *s, uint64_t addr, uint64_t *start, uint64_t *size);
/* 1 when the names come from .symtab, 0 when the object is stripped (only
 * .dynsym had some). */
int elfsyms_full(const struct elfsyms *s);
void elfsyms_free(struct elfsyms *s);

/* For each function named by a bare address (0x...) in a readable object,
 * finds its ELF symbol and records it in p->recovered (created here).
 * Returns how many were found. */
int recover_symbols(struct profile *p);

#endif
