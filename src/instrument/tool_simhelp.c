/* tool_simhelp.c -- the helpers the translated code calls with a cache
 * or branch simulation: cachegrind's exact ones (h_*), the models' (hg_*,
 * hs_*), the guarded accesses and the predictors'.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "sim/branch.h"
#include "sim/cache.h"
#include "sim/model.h"
#include "sim/mrc.h"
#include "tool.h"
#include "tool_sim.h"

/* ---- helpers, called from the instrumented code --------------------------------- */

/* In exact mode the hierarchy has cachegrind's shape: I1 and D1, each
 * followed by LL.  Looking the two levels up here, rather than through
 * sim_access's walk of the links, lets the compiler inline the lookups into
 * the helpers; the result is the same. */
#define hier (cgt_models[0].h)

static __attribute__((noinline)) unsigned access2_slow(struct sim_level *l1, Addr a, UChar size)
{
	if (!sim_level_ref(l1, a, size))
		return 0;
	return sim_level_ref(&hier.level[SIM_LL], a, size) ? 2 : 1;
}

/* The common case inline: the access stays in one line, which is the most
 * recently used of its set, so sim_level_ref would change nothing and
 * report a hit (this is cachegrind's fast path too).  Anything else goes
 * through src/sim. */
static inline __attribute__((always_inline)) unsigned access2(struct sim_level *l1, Addr a,
							       UChar size)
{
	if (sim_level_mru_hit(l1, a, size))
		return 0;
	return access2_slow(l1, a, size);
}

/* The misses of one access (access2's result: 0 hit, 1 L1 miss, 2 LL miss
 * too) into the instruction's events l1 and ll. */
static inline __attribute__((always_inline)) void count_misses(struct cgt_insn *n,
							       unsigned missed, int l1, int ll)
{
	if (missed) {
		CGT_COUNT(n, l1);
		if (missed > 1)
			CGT_COUNT(n, ll);
	}
}

/* An instruction fetch (its Ir is counted inline, by segments, as without
 * a simulation).  Cachegrind passes sizes to its simulator as 8-bit
 * values: so do we. */
VG_REGPARM(1) void cgt_h_ir(struct cgt_insn *n)
{
	count_misses(n, access2(&hier.level[SIM_I1], n->addr, (UChar)n->len), ev_i1mr, ev_ilmr);
}

/* Two or three fetches in a row, or a fetch and its instruction's first
 * data access, in one call: fewer calls, the same order of accesses. */
VG_REGPARM(2) void cgt_h_2ir(struct cgt_insn *n, struct cgt_insn *n2)
{
	cgt_h_ir(n);
	cgt_h_ir(n2);
}

VG_REGPARM(3) void cgt_h_3ir(struct cgt_insn *n, struct cgt_insn *n2, struct cgt_insn *n3)
{
	cgt_h_ir(n);
	cgt_h_ir(n2);
	cgt_h_ir(n3);
}

/* The rest of a fetch whose inline check (add_inline_fetch) found its line
 * not the most recent of its set. */
VG_REGPARM(1) void cgt_h_ir_slow(struct cgt_insn *n)
{
	count_misses(n, access2_slow(&hier.level[SIM_I1], n->addr, (UChar)n->len), ev_i1mr,
		     ev_ilmr);
}

VG_REGPARM(3) void cgt_h_ir_dr(struct cgt_insn *n, Addr a, UWord size)
{
	cgt_h_ir(n);
	cgt_h_dr(n, a, size);
}

VG_REGPARM(3) void cgt_h_ir_dw(struct cgt_insn *n, Addr a, UWord size)
{
	cgt_h_ir(n);
	cgt_h_dw(n, a, size);
}

/* A load, or a load and a store of the same place (a "modify"): its misses
 * (Dr itself is counted with the segment that holds it). */
VG_REGPARM(3) void cgt_h_dr(struct cgt_insn *n, Addr a, UWord size)
{
	count_misses(n, access2(&hier.level[SIM_D1], a, (UChar)size), ev_d1mr, ev_dlmr);
}

VG_REGPARM(3) void cgt_h_dw(struct cgt_insn *n, Addr a, UWord size)
{
	count_misses(n, access2(&hier.level[SIM_D1], a, (UChar)size), ev_d1mw, ev_dlmw);
}

/* The rest of a data access whose inline check (add_inline_data) found no
 * most-recent hit: the lookup, and the misses counted. */
/* (the instruction and the size in one argument: fewer to pass) */

VG_REGPARM(2) void cgt_h_dr_slow(const struct data_ref *r, Addr a)
{
	count_misses(r->insn, access2_slow(&hier.level[SIM_D1], a, (UChar)r->size), ev_d1mr,
		     ev_dlmr);
}

VG_REGPARM(2) void cgt_h_dw_slow(const struct data_ref *r, Addr a)
{
	count_misses(r->insn, access2_slow(&hier.level[SIM_D1], a, (UChar)r->size), ev_d1mw,
		     ev_dlmw);
}

/* ---- the general helpers: every model, any hierarchy ---- */

/* A simple hierarchy's access from level l down (sim_access, with the
 * first level's lookup inlined): how many levels missed. */
static __attribute__((noinline)) unsigned chain_slow(struct sim_hier *h, struct sim_level *l,
						      Addr a, UChar size)
{
	unsigned missed = 0;
	while (sim_level_ref(l, a, size)) {
		missed++;
		if (l->next == SIM_NONE)
			break;
		l = &h->level[l->next];
		/* the level after: its set is fetched while this one is looked
		 * up (the sets of a big last level are rarely in the host's
		 * caches) */
		if (l->next != SIM_NONE) {
			const struct sim_level *n = &h->level[l->next];
			const uintptr_t *set = n->tags + (SizeT)((a >> n->line_bits) & n->set_mask) * n->assoc;
			__builtin_prefetch(set);
			__builtin_prefetch(set + n->assoc - 1);
		}
	}
	return missed;
}

/* The events of model md for an access of kind `kind` with result r */
static inline __attribute__((always_inline)) void count_res(const struct model *md,
							    struct cgt_insn *n, enum sim_acc kind,
							    unsigned r)
{
	for (unsigned d = 0; d < SIM_RES_MISSED(r); d++) {
		CGT_COUNT(n, md->miss[kind][d]);
		if (SIM_RES_DIRTY(r, d) && md->dirty[kind][d] != EV_NONE)
			CGT_COUNT(n, md->dirty[kind][d]);
	}
}

/* One access of model md that did not hit its entry level's most recent
 * line (or was not checked): `sim` is how it is simulated, `kind` what it
 * counts (a modify, cachegrind's read, writes the line).  Its result. */
static inline __attribute__((always_inline)) unsigned model_ref(struct model *md,
								struct cgt_insn *n, enum sim_acc sim,
								enum sim_acc kind, Addr a, UChar size)
{
	unsigned r = md->h.simple ? chain_slow(&md->h, md->entry[sim], a, size)
				  : sim_access_general(&md->h, sim, a, size, n->addr);
	if (r)
		count_res(md, n, kind, r);
	return r;
}

/* The models whose bit is set in `mask` (those whose inline check missed,
 * or that cannot be checked inline); the models sharing the first one's
 * L1s with it, after it missed its L1. */
static inline __attribute__((always_inline)) void models_ref(UWord mask, struct cgt_insn *n,
							     enum sim_acc sim, enum sim_acc kind,
							     Addr a, UChar size)
{
	for (UInt c = 0; c < cgt_n_models; c++) {
		struct model *md = &cgt_models[c];
		if (!(mask >> c & 1) || md->l1_shared)
			continue;
		unsigned r = model_ref(md, n, sim, kind, a, size);
		if (c || !cgt_n_l1_shared || !r)
			continue;
		for (UInt o = 1; o < cgt_n_models; o++) {
			struct model *other = &cgt_models[o];
			if (!other->l1_shared)
				continue;
			unsigned next = other->entry[sim]->next;
			count_res(other, n, kind,
				  1 + (next == SIM_NONE ? 0
							: chain_slow(&other->h, &other->h.level[next], a, size)));
		}
	}
}

/* Any models (the mask), and one simple model alone (hs_: the first). */
VG_REGPARM(2) void cgt_hg_ir(struct cgt_insn *n, UWord mask)
{
	models_ref(mask, n, SIM_ACC_FETCH, SIM_ACC_FETCH, n->addr, (UChar)n->len);
}

VG_REGPARM(3) void cgt_hg_dr(const struct data_ref *r, Addr a, UWord mask)
{
	models_ref(mask, r->insn, SIM_ACC_READ, SIM_ACC_READ, a, (UChar)r->size);
}

VG_REGPARM(3) void cgt_hg_dm(const struct data_ref *r, Addr a, UWord mask)
{
	models_ref(mask, r->insn, SIM_ACC_WRITE, SIM_ACC_READ, a, (UChar)r->size);
}

VG_REGPARM(3) void cgt_hg_dw(const struct data_ref *r, Addr a, UWord mask)
{
	models_ref(mask, r->insn, SIM_ACC_WRITE, SIM_ACC_WRITE, a, (UChar)r->size);
}

VG_REGPARM(1) void cgt_hs_ir(struct cgt_insn *n)
{
	model_ref(&cgt_models[0], n, SIM_ACC_FETCH, SIM_ACC_FETCH, n->addr, (UChar)n->len);
}

VG_REGPARM(2) void cgt_hs_dr(const struct data_ref *r, Addr a)
{
	model_ref(&cgt_models[0], r->insn, SIM_ACC_READ, SIM_ACC_READ, a, (UChar)r->size);
}

VG_REGPARM(2) void cgt_hs_dm(const struct data_ref *r, Addr a)
{
	model_ref(&cgt_models[0], r->insn, SIM_ACC_WRITE, SIM_ACC_READ, a, (UChar)r->size);
}

VG_REGPARM(2) void cgt_hs_dw(const struct data_ref *r, Addr a)
{
	model_ref(&cgt_models[0], r->insn, SIM_ACC_WRITE, SIM_ACC_WRITE, a, (UChar)r->size);
}

/* A guarded load or store, called under its guard: it counts itself. */
static inline __attribute__((always_inline)) void guarded(struct cgt_insn *n, Addr a, UWord size,
							  Bool write)
{
	CGT_COUNT(n, write ? ev_dw : ev_dr);
	cgt_mrc_ref(n, a);
	if (cgt_clo_cache_use)
		cgt_use_ref(n, a, size);
	if (cgt_sim_exact) {
		(write ? cgt_h_dw : cgt_h_dr)(n, a, size);
	} else {
		struct data_ref r = { n, size };
		(write ? cgt_hg_dw : cgt_hg_dr)(&r, a, ~(UWord)0);
	}
}

VG_REGPARM(3) void cgt_h_dr_guarded(struct cgt_insn *n, Addr a, UWord size)
{
	guarded(n, a, size, False);
}

VG_REGPARM(3) void cgt_h_dw_guarded(struct cgt_insn *n, Addr a, UWord size)
{
	guarded(n, a, size, True);
}

/* A conditional branch (taken or not) and an indirect one (its target),
 * with the branch events starting at BR: the mispredictions (Bc and Bi are
 * counted with the segments). */
#define BRANCH_HELPERS(BR, bc, bi)                                            \
	VG_REGPARM(2) void bc(struct cgt_insn *n, UWord taken)         \
	{                                                                     \
		if (sim_cond_branch(&cgt_branch, n->addr, taken & 1))             \
			CGT_COUNT(n, (BR) + ev_bcm);                          \
	}                                                                     \
	VG_REGPARM(2) void bi(struct cgt_insn *n, UWord target)        \
	{                                                                     \
		if (sim_ind_branch(&cgt_branch, n->addr, target))                 \
			CGT_COUNT(n, (BR) + ev_bim);                          \
	}

BRANCH_HELPERS(BR_AFTER_CACHE, cgt_h_bc, cgt_h_bi)
BRANCH_HELPERS(BR_ALONE, cgt_h_bc_alone, cgt_h_bi_alone)
BRANCH_HELPERS(cgt_br_first, cgt_h_bc_any, cgt_h_bi_any)

