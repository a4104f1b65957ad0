/* instr.h -- one function's instruction-level detail (costs per address,
 * calls and jumps by address), read again from the profile files when it is
 * wanted: the model keeps costs per line only.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_INSTR_H
#define CGTUI_INSTR_H

#include <stddef.h>
#include <stdint.h>

#include "load.h"
#include "model.h"

struct icost {
	uint64_t addr;
	uint32_t line;   /* the profile's line for it (0 if none) */
	char *file;      /* the profile's file name for it */
	cost_t *cost;    /* nreal values */
};

struct icall {
	uint64_t addr, target;
	char *callee;    /* the callee's name */
	cost_t count;
	cost_t *cost;    /* inclusive, nreal values */
};

struct ijump {
	uint64_t addr, target;
	int cond;
	cost_t executed, taken;
};

struct fn_instrs {
	int nreal;
	struct icost *ins;   /* sorted by address, one per address */
	uint32_t nins;
	struct icall *calls; /* sorted by address, one per (address, callee) */
	uint32_t ncalls;
	struct ijump *jumps; /* sorted by address, one per (address, target, kind) */
	uint32_t njumps;
	int no_addr;         /* cost lines without an address were seen */
};

/* How to read the profile again with a sink: loads every file of the
 * profile (the part shown) into out, calling s. */
typedef int (*instr_reload_fn)(void *arg, struct profile *out, const struct instr_sink *s,
			       char *err, size_t errsz);

/* Collects function fn of p (matched by object and name, and by file when
 * the profile names no objects) from what reload reads.  0, or -1 with a
 * message in err. */
int fn_instrs_collect(struct fn_instrs *fi, const struct profile *p, uint32_t fn,
		      instr_reload_fn reload, void *arg, char *err, size_t errsz);
/* The instruction at addr, or NULL. */
const struct icost *fn_instrs_find(const struct fn_instrs *fi, uint64_t addr);
void fn_instrs_free(struct fn_instrs *fi);

#endif
