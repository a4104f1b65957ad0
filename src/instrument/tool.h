/* tool.h -- shared state of cgtui's Valgrind tool (runs inside Valgrind:
 * no libc, only VG_(...) calls and VEX IR).
 *
 * The tool counts per guest instruction.  Each instruction seen by the
 * instrumenter gets one `struct cgt_insn` (its address, where it is in the
 * program, and its costs), looked up once when a superblock is translated.
 * Executed code increments one counter per "segment" of a superblock (the
 * instructions between two points where cachegrind would flush its event
 * queue); the counters are folded into the instructions' costs when the
 * translation is discarded and at exit.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_INSTRUMENT_TOOL_H
#define CGTUI_INSTRUMENT_TOOL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* ---- names: one interning table per kind (objects, files, functions),
 *      ids dense from 0 in the order first seen --------------------------- */

struct cgt_strtab {
	const HChar **names; /* [n] */
	UInt *slot;          /* open addressing: id + 1, 0 = empty; [mask + 1] */
	UInt n, cap, mask;
};

UInt cgt_intern(struct cgt_strtab *t, const HChar *s);
/* The same, for dir + "/" + file (or file alone when dir is empty), as
 * cachegrind and callgrind form absolute names. */
UInt cgt_intern_path(struct cgt_strtab *t, const HChar *dir, const HChar *file);

extern struct cgt_strtab cgt_objs, cgt_files, cgt_fns;

/* ---- instructions ---------------------------------------------------------- */

/* Events.  Ir is always counted (index 0); with --cache-sim=yes come Dr Dw
 * I1mr D1mr D1mw ILmr DLmr DLmw, with --branch-sim=yes Bc Bcm Bi Bim, in
 * callgrind's order.  The indices of the others are set by cgt_sim_setup;
 * cgt_n_events costs per instruction. */
enum { CGT_EV_IR = 0, CGT_EV_MAX = 13 };
extern UInt cgt_n_events;
extern const HChar *cgt_event_name[CGT_EV_MAX];

struct cgt_insn {
	struct cgt_insn *next; /* hash chain (by addr) */
	Addr addr;             /* guest address */
	Addr raddr;            /* addr minus the object's text bias (as callgrind
	                          writes it); addr when there is no object */
	UInt obj, file, fn;    /* ids in cgt_objs, cgt_files, cgt_fns */
	UInt line;             /* 0 when unknown */
	UInt len;              /* instruction length in bytes (at least 1) */
	ULong cost[];          /* [cgt_n_events] */
};

/* The instruction record for guest address `a` (`len` bytes long) with the
 * debug information the core has for it now; made on first use. */
struct cgt_insn *cgt_insn_get(Addr a, UInt len);

/* Calls f for every instruction record. */
void cgt_insn_foreach(void (*f)(struct cgt_insn *, void *), void *arg);
UInt cgt_insn_count(void);

/* ---- translations ------------------------------------------------------------ */

struct cgt_sb {
	struct cgt_sb *next;     /* hash chain */
	Addr key;                /* first guest address of the translation */
	UInt n_insns, n_segs;
	ULong *count;            /* [n_segs]: executions of each segment */
	UInt *seg_end;           /* [n_segs]: segment s is insns[seg_end[s-1] ..
	                            seg_end[s]) */
	struct cgt_insn **insns; /* [n_insns] */
};

/* A record with room for n_insns instructions (and as many segments),
 * entered in the table under `key`. */
struct cgt_sb *cgt_sb_new(Addr key, UInt n_insns);
/* Adds the counters of the most recent translation at `key` into its
 * instructions' costs and forgets it; False if there is none. */
Bool cgt_sb_discard(Addr key);
/* Adds the counters of every live translation into the instructions' costs
 * and zeroes them (the translations stay). */
void cgt_sb_fold_all(void);

/* ---- simulation (tool_sim.c) ---------------------------------------------- */

extern Bool cgt_clo_cache_sim, cgt_clo_branch_sim;

/* --I1=, --D1=, --LL= (and the old --L2=); False if `arg` is none of them. */
Bool cgt_sim_option(const HChar *arg);
void cgt_sim_usage(void);
/* After the options: the event list, the caches and the predictors. */
void cgt_sim_setup(void);
/* "desc:" lines for the output (the caches simulated), or nothing. */
void cgt_sim_desc(void (*put)(const HChar *line, void *arg), void *arg);
/* Instruments a superblock through cachegrind's event queue, calling the
 * simulators' helpers (used when a simulation is on). */
IRSB *cgt_sim_instrument(IRSB *in, IRType hWordTy);

/* ---- live snapshots, --instr-at-start, client requests (tool_live.c) ---- */

extern Bool cgt_instr_on; /* counting now (instrumenting new blocks) */
Bool cgt_live_option(const HChar *arg);
void cgt_live_usage(void);
void cgt_live_pre_clo_init(void);
void cgt_live_post_clo_init(void);
void cgt_live_fini(void);
/* The snapshot check, registered with VG_(track_start_client_code) when
 * --cgtui-live is given.  The core keeps one function per event: code that
 * registers its own must call this one from it. */
void cgt_live_start_client_code(ThreadId tid, ULong blocks);
/* " ARG" for the cmd: line, line breaks made spaces */
struct _VgFile;
void cgt_put_arg(struct _VgFile *fp, const HChar *arg);
/* "desc: Options: ..." for the output */
void cgt_live_desc(void (*put)(const HChar *line, void *arg), void *arg);

/* ---- output -------------------------------------------------------------- */

/* Writes the profile in Callgrind format to `path`; False (after a message)
 * if it cannot be written. */
Bool cgt_dump(const HChar *path);

/* ---- memory that lives until exit ------------------------------------------ */

void *cgt_perm_alloc(SizeT n);

#endif
