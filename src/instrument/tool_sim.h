/* tool_sim.h -- what the simulation's files share, and nothing else of
 * the tool sees: tool_sim.c (options, the models, set-up, desc: lines),
 * tool_simhelp.c (the helpers the translated code calls), tool_mrc.c (the
 * miss-ratio curves), tool_siminstr.c (the instrumenter).  One file until
 * it passed 1,900 lines; split along its sections, nothing changed.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_TOOL_SIM_H
#define CGTUI_TOOL_SIM_H

/* Indices in cgt_insn.cost.  With cachegrind's caches (the `exact' mode
 * below) they are fixed, so that its helpers add at constant offsets: the
 * cache events right after Ir, the branch events after them, or right after
 * Ir without the cache simulation.  With other models the models' events
 * follow Dr and Dw, and the branch events come last (br_first). */
enum {
	ev_dr = 1, ev_dw, ev_i1mr, ev_d1mr, ev_d1mw, ev_ilmr, ev_dlmr, ev_dlmw,
	BR_AFTER_CACHE = 9, BR_ALONE = 1
};
enum { ev_bc, ev_bcm, ev_bi, ev_bim }; /* relative to br_first */
extern UInt cgt_br_first;

extern struct sim_branch cgt_branch;
extern UInt cgt_min_line_size;

/* One simulated hierarchy (a configuration), with the events it counts. */
#define CGT_MAX_MODELS 4
#define EV_NONE 0xffu

struct model {
	struct sim_hier h;
	struct sim_model m;
	HChar name[SIM_MODEL_NAME_MAX];
	/* an access of kind k missing its chain's level d counts event
	 * miss[k][d], and dirty[k][d] when that miss evicted a dirty line */
	UChar miss[3][SIM_MAX_LEVELS];
	UChar dirty[3][SIM_MAX_LEVELS];
	/* kind k may take the most-recent shortcut at its entry level, with
	 * that mark on the tag (sim_level_mru_ok) */
	Bool mru_ok[3];
	uintptr_t mark[3];
	struct sim_level *entry[3]; /* the entry level of each kind */
	/* its L1s are the first model's (geometry, LRU, and nothing below that
	 * could change them): they are not simulated twice, the first model's
	 * result is this one's at L1 (l1_shared) */
	Bool l1_shared;
	UInt ev_first, ev_n; /* its events in cgt_event_name */
	struct sim_event_map map;
};


extern struct model cgt_models[CGT_MAX_MODELS];
extern UInt cgt_n_models;
/* cachegrind's caches alone: its helpers, at the fixed indices (tool_sim.c) */
extern Bool cgt_sim_exact;
/* a fetch in the line the previous fetch of the superblock ended in may
 * be skipped, lines of 2^cgt_fetch_bits */
extern Bool cgt_fetch_repeat_ok;
extern UInt cgt_fetch_bits;
extern UInt cgt_n_l1_shared; /* models whose L1s are the first's */
extern Long cgt_clo_mrc_rate, cgt_clo_mrc_lines;
/* the predictors' lo-zero bits of this architecture */
unsigned cgt_lo_zero_bits(void);

/* ---- tool_simhelp.c ---- */

/* One event of an instruction (tool.h's CGT_ADD) */
#define CGT_COUNT(n, ev) CGT_ADD(n, ev, 1)

/* a data access's instruction and size, made at translation */
struct data_ref {
	struct cgt_insn *insn;
	UWord size;
};

VG_REGPARM(1) void cgt_h_ir(struct cgt_insn *n);
VG_REGPARM(2) void cgt_h_2ir(struct cgt_insn *n, struct cgt_insn *n2);
VG_REGPARM(3) void cgt_h_3ir(struct cgt_insn *n, struct cgt_insn *n2, struct cgt_insn *n3);
VG_REGPARM(1) void cgt_h_ir_slow(struct cgt_insn *n);
VG_REGPARM(3) void cgt_h_ir_dr(struct cgt_insn *n, Addr a, UWord size);
VG_REGPARM(3) void cgt_h_ir_dw(struct cgt_insn *n, Addr a, UWord size);
VG_REGPARM(3) void cgt_h_dr(struct cgt_insn *n, Addr a, UWord size);
VG_REGPARM(3) void cgt_h_dw(struct cgt_insn *n, Addr a, UWord size);
VG_REGPARM(2) void cgt_h_dr_slow(const struct data_ref *r, Addr a);
VG_REGPARM(2) void cgt_h_dw_slow(const struct data_ref *r, Addr a);
VG_REGPARM(2) void cgt_hg_ir(struct cgt_insn *n, UWord mask);
VG_REGPARM(3) void cgt_hg_dr(const struct data_ref *r, Addr a, UWord mask);
VG_REGPARM(3) void cgt_hg_dm(const struct data_ref *r, Addr a, UWord mask);
VG_REGPARM(3) void cgt_hg_dw(const struct data_ref *r, Addr a, UWord mask);
VG_REGPARM(1) void cgt_hs_ir(struct cgt_insn *n);
VG_REGPARM(2) void cgt_hs_dr(const struct data_ref *r, Addr a);
VG_REGPARM(2) void cgt_hs_dm(const struct data_ref *r, Addr a);
VG_REGPARM(2) void cgt_hs_dw(const struct data_ref *r, Addr a);
VG_REGPARM(3) void cgt_h_dr_guarded(struct cgt_insn *n, Addr a, UWord size);
VG_REGPARM(3) void cgt_h_dw_guarded(struct cgt_insn *n, Addr a, UWord size);
VG_REGPARM(2) void cgt_h_bc(struct cgt_insn *n, UWord taken);
VG_REGPARM(2) void cgt_h_bi(struct cgt_insn *n, UWord target);
VG_REGPARM(2) void cgt_h_bc_alone(struct cgt_insn *n, UWord taken);
VG_REGPARM(2) void cgt_h_bi_alone(struct cgt_insn *n, UWord target);
VG_REGPARM(2) void cgt_h_bc_any(struct cgt_insn *n, UWord taken);
VG_REGPARM(2) void cgt_h_bi_any(struct cgt_insn *n, UWord target);

/* ---- tool_mrc.c ---- */

extern Bool cgt_mrc_on;
void cgt_mrc_setup(void);
/* a data access, from a helper */
void cgt_mrc_ref(struct cgt_insn *n, Addr a);
/* the sampling check and the call, in a translation */
void cgt_mrc_instrument(IRSB *out, struct cgt_insn *insn, IRExpr *atom);

/* ---- tool_siminstr.c ---- */

/* a call of fn, under guard (NULL: always) */
void cgt_ir_call(IRSB *out, const HChar *name, void *fn, Int regparms, IRExpr **args,
		 IRExpr *guard);
/* e in a new temporary */
IRExpr *cgt_ir_tmp(IRSB *out, IRType ty, IRExpr *e);
void cgt_fill_cond_step(void);

#endif
