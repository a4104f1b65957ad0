/* asmannot.h -- a function's machine code annotated with the profile's
 * per-instruction costs: instructions (capstone), interleaved source lines
 * (DWARF line table), call and jump targets by name, the profile's calls
 * and jumps per instruction.  Refuses, saying why, when the object is
 * missing, stripped or does not match the profile.  No terminal code: the
 * TUI's assembly view and the batch report draw the rows.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_ASMANNOT_H
#define CGTUI_ASMANNOT_H

#include <stdio.h>

#include "profile/aggregate.h"
#include "profile/instr.h"
#include "profile/model.h"
#include "objcode.h"
#include "srcfile.h"

struct asm_insn {
	struct insn in;
	const char *file;        /* DWARF position (owned by the objcode), or NULL */
	uint32_t line;
	const struct icost *ic;  /* the profile's costs, or NULL */
	uint32_t call0, ncall;   /* its calls in fi.calls */
	uint32_t jump0, njump;   /* its jumps in fi.jumps */
	char *target;            /* "name+0x10" of a direct target, or NULL */
	int label;               /* first instruction of a symbol's code */
	const char *sym;         /* that symbol */
	const struct inlsite *chain[8]; /* DWARF inline chain, outermost first */
	int nchain;
};

enum { AR_NOTE, AR_LABEL, AR_SRC, AR_INSN, AR_CALL, AR_JUMP, AR_GAP, AR_INLINE, AR_INLSUM };

struct arow {
	int kind;
	int idx;          /* AR_INSN: instruction; AR_CALL: call; AR_JUMP: jump; AR_NOTE: note */
	int ins;          /* the instruction it belongs to (-1 for notes) */
	uint32_t line;    /* AR_SRC */
	const char *file; /* AR_SRC */
	const char *text; /* AR_SRC: the source line (NULL when unreadable); AR_GAP,
			   * AR_INLINE ("X inlined into Y at file:line, ..."),
			   * AR_INLSUM (cost of an inlined function) */
	char *own;        /* owned text */
	int hot;          /* AR_INSN above the threshold */
};

struct asm_annot {
	const struct profile *p;
	uint32_t fn;
	struct fn_instrs fi;
	enum call_kind *callkind; /* of each call in fi.calls: the cycle rule */
	struct objcode *oc;
	struct asm_insn *ins;
	int nins;
	char **notes;      /* shown first, in order */
	int nnotes, capnotes;
	int ok;            /* the code can be shown */
	const struct srclookup *look; /* where sources are looked for */
	struct srcfile *src; /* sources read, by name (names[i]) */
	char **srcname;
	int *srcok;
	int nsrc, capsrc;
	struct arow *rows;
	int nrows, caprows;
};

/* Annotates function fn of p: reads the instruction-level detail again with
 * reload, opens the function's object (ob=).  Never fails: what went wrong
 * is in the notes, and ok says whether there is code. */
void asm_annotate(struct asm_annot *a, const struct profile *p, uint32_t fn,
		  instr_reload_fn reload, void *arg, const struct srclookup *look);
/* (Re)builds the rows (reading the sources again): instructions whose cost
 * of event ev passes the threshold thr (rank.h; never a zero), with ctx
 * instructions around them; runs hidden are one AR_GAP row.  thr NULL shows
 * everything. */
struct rank_thr;
void asm_rows(struct asm_annot *a, int ev, const struct rank_thr *thr, int ctx);
void asm_annot_free(struct asm_annot *a);
/* The text of row r after the costs and the address (malloc'ed). */
/* Is call i's cost (fi.calls[i]) a share of the total (the cycle rule)? */
static inline int asm_call_costed(const struct asm_annot *a, uint32_t i)
{
	return !a->callkind || call_kind_costed(a->callkind[i]);
}
char *asm_row_text(const struct asm_annot *a, const struct arow *r);
/* The rows as text, with the costs of events ev[0..nev) (the batch report's
 * --annotate-asm). */
void asm_write(FILE *out, const struct asm_annot *a, const int *ev, int nev);

#endif
