/* tool_siminstr.c -- the instrumenter of a cache or branch simulation:
 * cachegrind 3.19's event queue, the inline checks that spare most helper
 * calls, the inline branch predictors.
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

/* ---- instrumentation ------------------------------------------------------------ */

/* Cachegrind queues events and calls its helpers in batches: at a side exit,
 * when 16 are queued, before a guarded access, after a load-linked, at the
 * end of the block.  The order of the simulators' calls is the program's
 * order either way; the batches decide what is counted when a block is left
 * by a fault, so ours are the same. */
#define QUEUE_LEN 16

enum ev_kind { EV_IR, EV_DR, EV_DW, EV_DM, EV_BC, EV_BI };

struct event {
	enum ev_kind kind;
	Bool fetch;           /* EV_IR: the I1 access is simulated */
	struct cgt_insn *insn;
	IRExpr *atom; /* address (Dr, Dw, Dm), taken (Bc), target (Bi) */
	UInt size;
};

struct sim_state {
	IRSB *out;
	struct event q[QUEUE_LEN];
	Int n;
	struct cgt_count cnt; /* Ir, counted inline at each flush */
	Bool have_line;
	Addr last_line;       /* the I1 line the previous fetch ended in */
	/* each model's D1 tags' address, loaded once per block */
	IRExpr *d1_tags[CGT_MAX_MODELS];
};

/* the D1 tags' addresses, read by the translated code: a register then,
 * not a 64-bit constant to load before every check */
static uintptr_t *d1_tags[CGT_MAX_MODELS];

void cgt_ir_call(IRSB *out, const HChar *name, void *fn, Int regparms, IRExpr **args,
		 IRExpr *guard)
{
	IRDirty *di = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);
	if (guard)
		di->guard = guard;
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

IRExpr *cgt_ir_tmp(IRSB *out, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(out->tyenv, ty);
	addStmtToIRSB(out, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

/* Can a data access of kind `sim` be checked inline for model c?  A
 * 64-bit host, a D1 of more than one set (see inline_miss) where the
 * shortcut holds (sim_level_mru_ok). */
static Bool inline_data_for(UInt c, enum sim_acc sim)
{
	return sizeof(HWord) == 8 && cgt_models[c].h.level[cgt_models[c].h.dentry].set_mask != 0 &&
	       cgt_models[c].mru_ok[sim];
}

static Bool inline_data(enum sim_acc sim)
{
	return inline_data_for(0, sim);
}

/* The check of model c's D1 for a data access, in the translation itself:
 * false when the access stays in one line that is the first of its D1 set
 * (with the model's mark for that kind of access: sim_level_mru_hit_mark,
 * the geometry as constants), which is then a hit that changes nothing. */
static IRExpr *inline_miss(struct sim_state *s, UInt c, const struct event *e, uintptr_t mark)
{
	IRSB *out = s->out;
	const struct sim_level *d1 = &cgt_models[c].h.level[cgt_models[c].h.dentry];
	const UInt lb = d1->line_bits;
	IRExpr *bits = IRExpr_Const(IRConst_U8((UChar)lb));
	IRExpr *blk = cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Shr64, e->atom, bits));
	/* the block the access ends in */
	IRExpr *lastb = e->size == 1 ? blk
			: cgt_ir_tmp(out, Ity_I64,
			      IRExpr_Binop(Iop_Shr64,
					   cgt_ir_tmp(out, Ity_I64,
					       IRExpr_Binop(Iop_Add64, e->atom,
							    IRExpr_Const(IRConst_U64(e->size - 1)))),
					   bits));
	/* the set's offset in the tags, ((a >> lb) & set_mask) * stride: with
	 * a stride of 2^shift one shift and one mask */
	ULong stride = (ULong)d1->assoc * sizeof(uintptr_t);
	UInt shift = 0;
	while (shift < 63 && (1ULL << shift) < stride)
		shift++;
	IRExpr *off;
	if ((1ULL << shift) != stride) {
		IRExpr *set = cgt_ir_tmp(out, Ity_I64,
				  IRExpr_Binop(Iop_And64, blk, IRExpr_Const(IRConst_U64(d1->set_mask))));
		off = cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Mul64, set, IRExpr_Const(IRConst_U64(stride))));
	} else {
		IRExpr *moved = shift == lb ? e->atom
				: cgt_ir_tmp(out, Ity_I64,
				      shift < lb ? IRExpr_Binop(Iop_Shr64, e->atom,
								IRExpr_Const(IRConst_U8((UChar)(lb - shift))))
						 : IRExpr_Binop(Iop_Shl64, e->atom,
								IRExpr_Const(IRConst_U8((UChar)(shift - lb)))));
		off = cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, moved,
						     IRExpr_Const(IRConst_U64((ULong)d1->set_mask << shift))));
	}
	if (!s->d1_tags[c]) {
		d1_tags[c] = d1->tags;
		s->d1_tags[c] = cgt_ir_tmp(out, Ity_I64,
				    IRExpr_Load(CGT_END, Ity_I64, mkIRExpr_HWord((HWord)&d1_tags[c])));
	}
	IRExpr *tp = cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, s->d1_tags[c], off));
	IRExpr *tag = cgt_ir_tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, tp));
	if (mark)
		lastb = cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, lastb, IRExpr_Const(IRConst_U64(mark))));
	/* The first tag of the access's first set compared with the block the
	 * access ends in: with more than one set (inline_data), a tag there is
	 * never the next block (which belongs to the next set), so an access
	 * that spans two lines always fails the check and gets the full
	 * lookup. */
	return cgt_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, tag, lastb));
}

static struct data_ref *data_ref(const struct event *e)
{
	struct data_ref *r = cgt_perm_alloc(sizeof(*r));
	r->insn = e->insn;
	r->size = e->size;
	return r;
}

/* A data access checked in the translation itself (inline_miss): only
 * when it misses is the helper called, under that guard.  Cachegrind's
 * caches alone (exact). */
static void add_inline_data(struct sim_state *s, const struct event *e, Bool write)
{
	IRExpr *miss = inline_miss(s, 0, e, 0);
	IRExpr **args = mkIRExprVec_2(mkIRExpr_HWord((HWord)data_ref(e)), e->atom);
	if (write)
		cgt_ir_call(s->out, "h_dw_slow", cgt_h_dw_slow, 2, args, miss);
	else
		cgt_ir_call(s->out, "h_dr_slow", cgt_h_dr_slow, 2, args, miss);
}

/* For every model, whether its inline check (or none) calls for the
 * helper: bit c of the mask the general helpers take.  *guard is the
 * condition of the call (NULL: always). */
static IRExpr *models_mask(IRSB *out, IRExpr *(*check)(void *, UInt), void *arg, IRExpr **guard)
{
	IRExpr *mask = NULL;
	ULong always = 0;
	for (UInt c = 0; c < cgt_n_models; c++) {
		IRExpr *m = check(arg, c);
		if (!m) {
			always |= 1ULL << c;
			continue;
		}
		if (m->tag == Iex_Const) /* a model done with the first */
			continue;
		IRExpr *bit = cgt_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, m));
		if (c)
			bit = cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Shl64, bit, IRExpr_Const(IRConst_U8((UChar)c))));
		mask = mask ? cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, mask, bit)) : bit;
	}
	*guard = NULL;
	if (!mask)
		return IRExpr_Const(IRConst_U64(always));
	if (always)
		return cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, mask, IRExpr_Const(IRConst_U64(always))));
	*guard = cgt_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, mask, IRExpr_Const(IRConst_U64(0))));
	return mask;
}

struct data_check {
	struct sim_state *s;
	const struct event *e;
	enum sim_acc sim;
};

static IRExpr *data_check(void *arg, UInt c)
{
	struct data_check *d = arg;
	if (cgt_models[c].l1_shared)
		return IRExpr_Const(IRConst_U1(False));
	if (!inline_data_for(c, d->sim))
		return NULL;
	return inline_miss(d->s, c, d->e, cgt_models[c].mark[d->sim]);
}

/* A data access of other models than cachegrind's alone: checked inline
 * for each model that allows it (inline_miss), the helper called for the
 * models that missed or could not be checked.  One simple model: its own
 * helpers, without a mask. */
static void add_data_general(struct sim_state *s, const struct event *e)
{
	enum sim_acc sim = e->kind == EV_DR ? SIM_ACC_READ : SIM_ACC_WRITE;
	IRSB *out = s->out;
	IRExpr *a = mkIRExpr_HWord((HWord)data_ref(e));
	if (cgt_n_models == 1 && cgt_models[0].h.simple) {
		IRExpr *miss = inline_data_for(0, sim) ? inline_miss(s, 0, e, cgt_models[0].mark[sim]) : NULL;
		IRExpr **args = mkIRExprVec_2(a, e->atom);
		if (e->kind == EV_DR)
			cgt_ir_call(out, "hs_dr", cgt_hs_dr, 2, args, miss);
		else if (e->kind == EV_DM)
			cgt_ir_call(out, "hs_dm", cgt_hs_dm, 2, args, miss);
		else
			cgt_ir_call(out, "hs_dw", cgt_hs_dw, 2, args, miss);
		return;
	}
	struct data_check d = { s, e, sim };
	IRExpr *guard;
	IRExpr *mask = models_mask(out, data_check, &d, &guard);
	IRExpr **args = mkIRExprVec_3(a, e->atom, mask);
	if (e->kind == EV_DR)
		cgt_ir_call(out, "hg_dr", cgt_hg_dr, 3, args, guard);
	else if (e->kind == EV_DM)
		cgt_ir_call(out, "hg_dm", cgt_hg_dm, 3, args, guard);
	else
		cgt_ir_call(out, "hg_dw", cgt_hg_dw, 3, args, guard);
}

/* A fetch checked in the translation itself, as a data access is: its
 * address is a constant there, so is the place of the first tag of its
 * set; the helper is called only when that tag is not its line's.  An
 * instruction that spans two lines is not checked so (False). */
static IRExpr *fetch_miss(IRSB *out, UInt c, const struct cgt_insn *n)
{
	const struct sim_level *i1 = &cgt_models[c].h.level[cgt_models[c].h.ientry];
	Addr blk = n->addr >> i1->line_bits;
	if (sizeof(HWord) != 8 || !cgt_models[c].mru_ok[SIM_ACC_FETCH] ||
	    (n->addr + (UChar)n->len - 1) >> i1->line_bits != blk)
		return NULL;
	const uintptr_t *tp = &i1->tags[(SizeT)(blk & i1->set_mask) * i1->assoc];
	IRExpr *tag = cgt_ir_tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, mkIRExpr_HWord((HWord)tp)));
	return cgt_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, tag, IRExpr_Const(IRConst_U64((ULong)blk))));
}

struct fetch_check {
	IRSB *out;
	const struct cgt_insn *n;
};

static IRExpr *fetch_check(void *arg, UInt c)
{
	struct fetch_check *f = arg;
	if (cgt_models[c].l1_shared)
		return IRExpr_Const(IRConst_U1(False));
	return fetch_miss(f->out, c, f->n);
}

static Bool add_inline_fetch(IRSB *out, struct cgt_insn *n)
{
	if (!cgt_sim_exact) {
		IRExpr *guard;
		if (cgt_n_models == 1 && cgt_models[0].h.simple) {
			cgt_ir_call(out, "hs_ir", cgt_hs_ir, 1, mkIRExprVec_1(mkIRExpr_HWord((HWord)n)),
			     fetch_miss(out, 0, n));
			return True;
		}
		struct fetch_check f = { out, n };
		IRExpr *mask = models_mask(out, fetch_check, &f, &guard);
		cgt_ir_call(out, "hg_ir", cgt_hg_ir, 2, mkIRExprVec_2(mkIRExpr_HWord((HWord)n), mask), guard);
		return True;
	}
	IRExpr *miss = fetch_miss(out, 0, n);
	if (!miss)
		return False;
	cgt_ir_call(out, "h_ir_slow", cgt_h_ir_slow, 1, mkIRExprVec_1(mkIRExpr_HWord((HWord)n)), miss);
	return True;
}

/* ---- the branch predictors inline ------------------------------------------------
 * 64-bit hosts: a conditional or indirect branch is predicted by the
 * translated code itself, on src/sim's state, with no call.  The address
 * is a constant there, so is its part of the counter's index and the
 * indirect branch's slot; the step of a 2-bit counter and whether it
 * mispredicted come from a table of the 8 (counter, outcome) pairs filled
 * by sim_cond_branch itself at start-up. */

/* [counter << 1 | taken]: the next counter, plus 4 when it mispredicted */
static UChar cond_step[8];

void cgt_fill_cond_step(void)
{
	static struct sim_branch scratch;
	for (UInt i = 0; i < 8; i++) {
		sim_branch_init(&scratch, 0);
		scratch.counter[0] = (uint8_t)(i >> 1);
		Bool miss = sim_cond_branch(&scratch, 0, i & 1);
		cond_step[i] = (UChar)(scratch.counter[0] | (miss ? 4 : 0));
	}
}

static Bool inline_branch(void)
{
	return sizeof(HWord) == 8;
}

static IRExpr *c32(UInt v)
{
	return IRExpr_Const(IRConst_U32(v));
}

/* `*p += v` (v an I64 expression) */
static void add_to(IRSB *out, IRExpr *p, IRExpr *v)
{
	IRExpr *old = cgt_ir_tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, p));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, p,
					cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, v))));
}

/* CGT_COUNT in IR: event ev of instruction n grows by v (0 or 1), in its
 * cost (or the running thread's table) and in the running total. */
static void count_inline(struct sim_state *s, struct cgt_insn *n, UInt ev, IRExpr *v)
{
	IRSB *out = s->out;
	if (cgt_clo_separate_threads) {
		IRExpr *base = cgt_ir_tmp(out, Ity_I64,
				   IRExpr_Load(CGT_END, Ity_I64, cgt_count_addr(&s->cnt, &cgt_cur_tcost)));
		ULong off = ((ULong)n->id * cgt_n_events + ev) * sizeof(ULong);
		add_to(out, cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, base, IRExpr_Const(IRConst_U64(off)))),
		       v);
	} else {
		add_to(out, mkIRExpr_HWord((HWord)&n->cost[ev]), v);
	}
	add_to(out, cgt_count_addr(&s->cnt, &cgt_tot[ev]), v);
}

/* sim_cond_branch for the branch of instruction n, `taken` an I64 of 0 or 1 */
static void add_inline_bc(struct sim_state *s, struct cgt_insn *n, IRExpr *taken, UInt bcm)
{
	IRSB *out = s->out;
	const UInt addr_mask = (1u << SIM_BR_ADDR_BITS) - 1;
	const UInt hist_mask = (1u << SIM_BR_HIST_BITS) - 1;
	IRExpr *t = cgt_ir_tmp(out, Ity_I32, IRExpr_Unop(Iop_64to32, taken));
	IRExpr *hp = cgt_count_addr(&s->cnt, &cgt_branch.history);
	IRExpr *h = cgt_ir_tmp(out, Ity_I32, IRExpr_Load(CGT_END, Ity_I32, hp));
	UInt a = (UInt)(n->addr >> cgt_branch.lo_zero_bits) & addr_mask;
	IRExpr *idx = cgt_ir_tmp(out, Ity_I32,
			  IRExpr_Binop(Iop_Or32,
				       cgt_ir_tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, h,
								      IRExpr_Const(IRConst_U8(SIM_BR_ADDR_BITS)))),
				       c32(a)));
	IRExpr *cp = cgt_ir_tmp(out, Ity_I64,
			 IRExpr_Binop(Iop_Add64, cgt_count_addr(&s->cnt, cgt_branch.counter),
				      cgt_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_32Uto64, idx))));
	IRExpr *c = cgt_ir_tmp(out, Ity_I32,
			IRExpr_Unop(Iop_8Uto32, cgt_ir_tmp(out, Ity_I8, IRExpr_Load(CGT_END, Ity_I8, cp))));
	IRExpr *i2 = cgt_ir_tmp(out, Ity_I32,
			 IRExpr_Binop(Iop_Or32,
				      cgt_ir_tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, c, IRExpr_Const(IRConst_U8(1)))),
				      t));
	IRExpr *sp = cgt_ir_tmp(out, Ity_I64,
			 IRExpr_Binop(Iop_Add64, cgt_count_addr(&s->cnt, cond_step),
				      cgt_ir_tmp(out, Ity_I64, IRExpr_Unop(Iop_32Uto64, i2))));
	IRExpr *v = cgt_ir_tmp(out, Ity_I32,
			IRExpr_Unop(Iop_8Uto32, cgt_ir_tmp(out, Ity_I8, IRExpr_Load(CGT_END, Ity_I8, sp))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, cp,
					cgt_ir_tmp(out, Ity_I8, IRExpr_Unop(Iop_32to8,
								     cgt_ir_tmp(out, Ity_I32, IRExpr_Binop(Iop_And32, v, c32(3)))))));
	IRExpr *nh = cgt_ir_tmp(out, Ity_I32,
			 IRExpr_Binop(Iop_Or32,
				      cgt_ir_tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, h, IRExpr_Const(IRConst_U8(1)))),
				      t));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, hp,
					cgt_ir_tmp(out, Ity_I32, IRExpr_Binop(Iop_And32, nh, c32(hist_mask)))));
	IRExpr *miss = cgt_ir_tmp(out, Ity_I64,
			   IRExpr_Unop(Iop_32Uto64,
				       cgt_ir_tmp(out, Ity_I32, IRExpr_Binop(Iop_Shr32, v, IRExpr_Const(IRConst_U8(2))))));
	count_inline(s, n, bcm, miss);
}

/* sim_ind_branch for the indirect branch of instruction n to `target` */
static void add_inline_bi(struct sim_state *s, struct cgt_insn *n, IRExpr *target, UInt bim)
{
	IRSB *out = s->out;
	uintptr_t *slot = &cgt_branch.btac[(n->addr >> cgt_branch.lo_zero_bits) & (SIM_BTAC_SIZE - 1)];
	IRExpr *sp = cgt_count_addr(&s->cnt, slot);
	IRExpr *old = cgt_ir_tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, sp));
	IRExpr *miss = cgt_ir_tmp(out, Ity_I64,
			   IRExpr_Unop(Iop_1Uto64, cgt_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, old, target))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, sp, target));
	count_inline(s, n, bim, miss);
}

/* Calls the helpers for what is queued, in order, and counts the queued
 * instructions' Ir (one inline increment). */
static void flush(struct sim_state *s)
{
	if (cgt_mrc_on)
		for (Int i = 0; i < s->n; i++)
			if (s->q[i].kind == EV_DR || s->q[i].kind == EV_DM || s->q[i].kind == EV_DW)
				cgt_mrc_instrument(s->out, cgt_insn_real(s->q[i].insn), s->q[i].atom);
	if (cgt_clo_cache_use)
		for (Int i = 0; i < s->n; i++)
			if (s->q[i].kind == EV_DR || s->q[i].kind == EV_DM || s->q[i].kind == EV_DW)
				cgt_use_instrument(s->out, cgt_insn_real(s->q[i].insn), s->q[i].atom,
						   s->q[i].size);
	for (Int i = 0; i < s->n; i++) {
		struct event *e = &s->q[i];
		IRExpr *insn = mkIRExpr_HWord((HWord)e->insn);
		const struct event *e2 = i + 1 < s->n ? &s->q[i + 1] : NULL;
		const struct event *e3 = i + 2 < s->n ? &s->q[i + 2] : NULL;
		if (e->kind == EV_IR && !e->fetch)
			continue; /* a fetch that must hit: nothing to simulate */
		if (e->kind == EV_IR && add_inline_fetch(s->out, e->insn))
			continue;
		if (!cgt_sim_exact && (e->kind == EV_DR || e->kind == EV_DM || e->kind == EV_DW)) {
			add_data_general(s, e);
			continue;
		}
		if (e->kind == EV_IR && e2) {
			if (e2->kind == EV_DR || e2->kind == EV_DM || e2->kind == EV_DW) {
				tl_assert(e2->insn == e->insn);
				Bool w = e2->kind == EV_DW;
				cgt_ir_call(s->out, w ? "h_ir_dw" : "h_ir_dr", w ? cgt_h_ir_dw : cgt_h_ir_dr, 3,
				     mkIRExprVec_3(insn, e2->atom, mkIRExpr_HWord(e2->size)), NULL);
				i++;
				continue;
			}
			if (e2->kind == EV_IR && e2->fetch && e3 && e3->kind == EV_IR && e3->fetch) {
				cgt_ir_call(s->out, "h_3ir", cgt_h_3ir, 3,
				     mkIRExprVec_3(insn, mkIRExpr_HWord((HWord)e2->insn),
						   mkIRExpr_HWord((HWord)e3->insn)),
				     NULL);
				i += 2;
				continue;
			}
			if (e2->kind == EV_IR && e2->fetch) {
				cgt_ir_call(s->out, "h_2ir", cgt_h_2ir, 2,
				     mkIRExprVec_2(insn, mkIRExpr_HWord((HWord)e2->insn)), NULL);
				i++;
				continue;
			}
		}
		switch (e->kind) {
		case EV_IR:
			cgt_ir_call(s->out, "h_ir", cgt_h_ir, 1, mkIRExprVec_1(insn), NULL);
			break;
		case EV_DR:
		case EV_DM:
			if (inline_data(SIM_ACC_READ))
				add_inline_data(s, e, False);
			else
				cgt_ir_call(s->out, "h_dr", cgt_h_dr, 3,
				     mkIRExprVec_3(insn, e->atom, mkIRExpr_HWord(e->size)), NULL);
			break;
		case EV_DW:
			if (inline_data(SIM_ACC_WRITE))
				add_inline_data(s, e, True);
			else
				cgt_ir_call(s->out, "h_dw", cgt_h_dw, 3,
				     mkIRExprVec_3(insn, e->atom, mkIRExpr_HWord(e->size)), NULL);
			break;
		case EV_BC:
			if (inline_branch())
				add_inline_bc(s, e->insn, e->atom, cgt_br_first + ev_bcm);
			else if (cgt_br_first != BR_AFTER_CACHE && cgt_br_first != BR_ALONE)
				cgt_ir_call(s->out, "h_bc_any", cgt_h_bc_any, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else if (cgt_clo_cache_sim)
				cgt_ir_call(s->out, "h_bc", cgt_h_bc, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else
				cgt_ir_call(s->out, "h_bc_alone", cgt_h_bc_alone, 2,
				     mkIRExprVec_2(insn, e->atom), NULL);
			break;
		case EV_BI:
			if (inline_branch())
				add_inline_bi(s, e->insn, e->atom, cgt_br_first + ev_bim);
			else if (cgt_br_first != BR_AFTER_CACHE && cgt_br_first != BR_ALONE)
				cgt_ir_call(s->out, "h_bi_any", cgt_h_bi_any, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else if (cgt_clo_cache_sim)
				cgt_ir_call(s->out, "h_bi", cgt_h_bi, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else
				cgt_ir_call(s->out, "h_bi_alone", cgt_h_bi_alone, 2,
				     mkIRExprVec_2(insn, e->atom), NULL);
			break;
		}
	}
	s->n = 0;
	cgt_count_end_segment(&s->cnt);
}

static void flush_cb(void *s)
{
	flush(s);
}

static struct event *queue(struct sim_state *s, enum ev_kind kind, struct cgt_insn *n)
{
	if (s->n == QUEUE_LEN)
		flush(s);
	/* counted with the segment this batch ends (a modify is a Dr) */
	UInt br = cgt_br_first;
	if (kind == EV_DR)
		cgt_count_event(&s->cnt, n, ev_dr);
	else if (kind == EV_DW)
		cgt_count_event(&s->cnt, n, ev_dw);
	else if (kind == EV_BC)
		cgt_count_event(&s->cnt, n, br + ev_bc);
	else if (kind == EV_BI)
		cgt_count_event(&s->cnt, n, br + ev_bi);
	struct event *e = &s->q[s->n++];
	e->kind = kind;
	e->fetch = False;
	e->insn = n;
	e->atom = NULL;
	e->size = 0;
	return e;
}

static void add_dr(struct sim_state *s, struct cgt_insn *n, UInt size, IRExpr *ea)
{
	if (!cgt_clo_cache_sim)
		return;
	tl_assert(isIRAtom(ea) && size >= 1 && size <= cgt_min_line_size);
	struct event *e = queue(s, EV_DR, n);
	e->atom = ea;
	e->size = size;
}

static void add_dw(struct sim_state *s, struct cgt_insn *n, UInt size, IRExpr *ea)
{
	if (!cgt_clo_cache_sim)
		return;
	tl_assert(isIRAtom(ea) && size >= 1 && size <= cgt_min_line_size);
	/* a store right after a load of the same place by the same instruction
	 * is one access, a modify */
	if (s->n > 0) {
		struct event *last = &s->q[s->n - 1];
		if (last->kind == EV_DR && last->size == size && last->insn == n &&
		    eqIRAtom(last->atom, ea)) {
			last->kind = EV_DM;
			return;
		}
	}
	struct event *e = queue(s, EV_DW, n);
	e->atom = ea;
	e->size = size;
}

/* A guarded load or store: the queue is emptied and the access made at
 * once, under its guard. */
static void add_guarded(struct sim_state *s, struct cgt_insn *n, UInt size, IRExpr *ea,
			IRExpr *guard, Bool write)
{
	if (!cgt_clo_cache_sim)
		return;
	tl_assert(isIRAtom(ea) && isIRAtom(guard) && size >= 1 && size <= cgt_min_line_size);
	flush(s);
	IRExpr **args = mkIRExprVec_3(mkIRExpr_HWord((HWord)n), ea, mkIRExpr_HWord(size));
	if (write)
		cgt_ir_call(s->out, "h_dw_guarded", cgt_h_dw_guarded, 3, args, guard);
	else
		cgt_ir_call(s->out, "h_dr_guarded", cgt_h_dr_guarded, 3, args, guard);
}

static UInt clamp(UInt size)
{
	return size > cgt_min_line_size ? cgt_min_line_size : size;
}

/* An instruction: its fetch is queued, and simulated unless it must hit.
 * A fetch that lies in the line the previous fetch of this superblock ended
 * in must: that line is the most recent of its set, and nothing else
 * fetches in between (a superblock runs without interruption; data
 * accesses go to D1, and LL is only asked on a miss).  Cachegrind looks it
 * up all the same and finds the hit without changing anything.  It is
 * still queued (and its Ir counted at the flush), so that the queue is
 * flushed where cachegrind's is.  Returns the record the helpers count
 * the instruction's events into (cgt_count_direct). */
static struct cgt_insn *add_ir(struct sim_state *s, struct cgt_insn *n)
{
	struct event *e = queue(s, EV_IR, n);
	cgt_count_insn(&s->cnt, n);
	struct cgt_insn *d = e->insn = cgt_count_direct(&s->cnt, n);
	if (!cgt_clo_cache_sim)
		return d;
	Addr first = n->addr >> cgt_fetch_bits;
	Addr last = (n->addr + (UChar)n->len - 1) >> cgt_fetch_bits;
	e->fetch = !(cgt_fetch_repeat_ok && s->have_line && first == s->last_line &&
		     last == s->last_line);
	s->have_line = True;
	s->last_line = last;
	return d;
}

IRSB *cgt_sim_instrument(IRSB *in, IRType hWordTy, Int offset_SP, Addr key)
{
	struct sim_state s;
	IRTypeEnv *tyenv = in->tyenv;
	struct cgt_insn *cur = NULL;
	struct cgt_insn *dcur = NULL; /* where cur's helpers count (add_ir) */
	Addr hint = 0;
	Addr cia = 0;
	UInt isize = 0;
	Int i = 0;

	s.out = deepCopyIRSBExceptStmts(in);
	s.n = 0;
	s.have_line = False;
	s.last_line = 0;
	for (UInt c = 0; c < CGT_MAX_MODELS; c++)
		s.d1_tags[c] = NULL;
	while (i < in->stmts_used && in->stmts[i]->tag != Ist_IMark)
		addStmtToIRSB(s.out, in->stmts[i++]);
	tl_assert(i < in->stmts_used);
	/* How many segments at most: the queue is flushed when full (events:
	 * one per instruction, at most two per other statement) and at side
	 * exits, load-linked, guarded accesses, followed calls or jumps (at
	 * most one per instruction) and the end. */
	UInt n_insns = 0, n_flush = 1;
	for (Int j = i; j < in->stmts_used; j++) {
		IRStmtTag tag = in->stmts[j]->tag;
		n_insns += tag == Ist_IMark;
		n_flush += tag == Ist_Exit || tag == Ist_LLSC || tag == Ist_LoadG ||
			   tag == Ist_StoreG;
	}
	UInt max_events = n_insns + 2 * (UInt)in->stmts_used;
	cgt_count_start(&s.cnt, s.out, key, n_insns,
			n_flush + n_insns + max_events / QUEUE_LEN + 1);

	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		tl_assert(isFlatIRStmt(st));
		switch (st->tag) {
		case Ist_AbiHint:
			hint = cgt_hint_target(st);
			break;
		case Ist_NoOp:
		case Ist_Put:
		case Ist_PutI:
		case Ist_MBE:
			break;
		case Ist_IMark:
			cia = st->Ist.IMark.addr;
			isize = st->Ist.IMark.len ? st->Ist.IMark.len : VG_MIN_INSTR_SZB;
			struct cgt_insn *prev = cur;
			cur = cgt_insn_get(cia, isize);
			/* VEX followed a direct call or jump, or the code went
			 * on: what is queued is counted before a call is pushed */
			if (prev && cgt_calls_next(s.out, prev, cur, hint == cia, offset_SP, flush_cb, &s))
				cgt_count_new_region(&s.cnt);
			hint = 0;
			dcur = add_ir(&s, cur);
			break;
		case Ist_WrTmp:
			if (st->Ist.WrTmp.data->tag == Iex_Load) {
				IRExpr *ld = st->Ist.WrTmp.data;
				add_dr(&s, dcur, sizeofIRType(ld->Iex.Load.ty), ld->Iex.Load.addr);
			}
			break;
		case Ist_Store:
			add_dw(&s, dcur, sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)),
			       st->Ist.Store.addr);
			break;
		case Ist_StoreG: {
			IRStoreG *sg = st->Ist.StoreG.details;
			add_guarded(&s, dcur, sizeofIRType(typeOfIRExpr(tyenv, sg->data)), sg->addr,
				    sg->guard, True);
			break;
		}
		case Ist_LoadG: {
			IRLoadG *lg = st->Ist.LoadG.details;
			IRType loaded = Ity_INVALID, widened = Ity_INVALID;
			typeOfIRLoadGOp(lg->cvt, &widened, &loaded);
			tl_assert(loaded != Ity_INVALID);
			add_guarded(&s, dcur, sizeofIRType(loaded), lg->addr, lg->guard, False);
			break;
		}
		case Ist_Dirty: {
			IRDirty *d = st->Ist.Dirty.details;
			if (d->mFx != Ifx_None) {
				/* big accesses (fxsave and the like) are counted as
				 * one line's worth, as cachegrind does */
				UInt size = clamp(d->mSize);
				if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
					add_dr(&s, dcur, size, d->mAddr);
				if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
					add_dw(&s, dcur, size, d->mAddr);
			}
			break;
		}
		case Ist_CAS: {
			IRCAS *cas = st->Ist.CAS.details;
			UInt size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
			if (cas->dataHi)
				size *= 2;
			size = clamp(size);
			add_dr(&s, dcur, size, cas->addr);
			add_dw(&s, dcur, size, cas->addr);
			break;
		}
		case Ist_LLSC:
			if (st->Ist.LLSC.storedata == NULL) {
				add_dr(&s, dcur, sizeofIRType(typeOfIRTemp(tyenv, st->Ist.LLSC.result)),
				       st->Ist.LLSC.addr);
				flush(&s);
			} else {
				add_dw(&s, dcur,
				       sizeofIRType(typeOfIRExpr(tyenv, st->Ist.LLSC.storedata)),
				       st->Ist.LLSC.addr);
			}
			break;
		case Ist_Exit: {
			IRJumpKind jk = st->Ist.Exit.jk;
			if (jk == Ijk_Boring || jk == Ijk_Call || jk == Ijk_Ret) {
				/* the guard as a host word, 1 = the branch was taken; VEX
				 * may have inverted the test, making the side exit go to
				 * the next instruction */
				const IRConst *dst = st->Ist.Exit.dst;
				Addr sea = hWordTy == Ity_I32 ? dst->Ico.U32 : (Addr)dst->Ico.U64;
				Bool inverted = sea == cia + isize;
				IRTemp g1 = newIRTemp(s.out->tyenv, Ity_I1);
				IRTemp gw = newIRTemp(s.out->tyenv, hWordTy);
				IRTemp g = newIRTemp(s.out->tyenv, hWordTy);
				addStmtToIRSB(s.out, IRStmt_WrTmp(g1, st->Ist.Exit.guard));
				addStmtToIRSB(s.out,
					      IRStmt_WrTmp(gw, IRExpr_Unop(hWordTy == Ity_I32 ? Iop_1Uto32
											 : Iop_1Uto64,
									   IRExpr_RdTmp(g1))));
				IRExpr *one = hWordTy == Ity_I32 ? IRExpr_Const(IRConst_U32(1))
								 : IRExpr_Const(IRConst_U64(1));
				addStmtToIRSB(s.out,
					      IRStmt_WrTmp(g, inverted ? IRExpr_Binop(hWordTy == Ity_I32
										      ? Iop_Xor32
										      : Iop_Xor64,
									      IRExpr_RdTmp(gw), one)
								       : IRExpr_RdTmp(gw)));
				if (cgt_clo_branch_sim)
					queue(&s, EV_BC, dcur)->atom = IRExpr_RdTmp(g);
			}
			/* the exit may leave the block: what is queued goes first */
			flush(&s);
			cgt_calls_exit(s.out, cur, st->Ist.Exit.jk, IRExpr_Const(st->Ist.Exit.dst),
				       st->Ist.Exit.guard, offset_SP, False);
			break;
		}
		default:
			ppIRStmt(st);
			tl_assert(0);
		}
		addStmtToIRSB(s.out, st);
	}

	/* an indirect jump or call (returns are taken as always predicted) */
	if (cgt_clo_branch_sim && (in->jumpkind == Ijk_Boring || in->jumpkind == Ijk_Call) &&
	    in->next->tag == Iex_RdTmp)
		queue(&s, EV_BI, dcur)->atom = in->next;
	flush(&s);
	cgt_calls_exit(s.out, cur, in->jumpkind, in->next, NULL, offset_SP, True);
	return s.out;
}
