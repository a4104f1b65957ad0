/* tool_callinstr.c -- the call graph's instrumentation: which exits of a
 * translation may move between functions and call which helper
 * (tool_callhelp.c), the common return and direct call done by the
 * translated code itself, the moves between functions with --contexts,
 * and the check where code without a symbol starts.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "tool_calls.h"

/* ---- instrumentation --------------------------------------------------------------- */

static UInt kind_of(IRJumpKind jk)
{
	switch (jk) {
	case Ijk_Call:
		return CGT_XFER_CALL;
	case Ijk_Ret:
		return CGT_XFER_RET;
	case Ijk_Boring:
		return CGT_XFER_JUMP;
	default:
		return CGT_XFER_NONE;
	}
}

/* The record for an exit of kind `kind` from `from` to `to` (NULL when not
 * constant), or NULL when it can be decided now that the exit stays in its
 * function: a direct jump that is not to a function's first instruction
 * and not into another object or section.  (Callgrind looks at the stack
 * pointer there too; it only ever pops frames when code left them without
 * a return, which a direct jump inside a function does not.) */
static struct cgt_exit *classify(struct cgt_insn *from, UInt kind, struct cgt_insn *to,
				 Bool block_end)
{
	if (kind == CGT_XFER_NONE || !from)
		return NULL;
	cgt_insn_flags(from);
	if (to) {
		cgt_insn_flags(to);
		if (kind == CGT_XFER_JUMP && !(to->flags & CGT_F_ENTRY) && to->sect == from->sect &&
		    to->obj == from->obj)
			return NULL;
	}
	struct cgt_exit *x = cgt_perm_alloc(sizeof(*x));
	x->from = from;
	x->to = to;
	if (to)
		cgt_insn_ctx(to);
	x->unnamed = cgt_insn_unnamed(from);
	x->kind = kind;
	x->arc = NULL;
	x->gen = 0;
	x->seen_next = 0;
	/* where a real call returns to (callgrind: only for a call ending the
	 * block) */
	x->ret_addr = kind == CGT_XFER_CALL && block_end ? from->addr + from->len : 0;
	return x;
}

/* ---- the common return and direct call, inline -------------------------------------
 * Ir only, the costs of all threads together, 64-bit hosts: the translated
 * code does what cgt_h_ret and cgt_h_call do in their common case, without a call
 * (it reads the running thread's stack through `cgt_cur`); only otherwise is
 * the helper called.  Stores that must not happen go to `sink`. */

static union {
	struct frame f;
	struct cgt_arc a;
	ULong pad[32];
} sink __attribute__((aligned(64)));

/* read instead of a call site not made yet: from no instruction (the sink
 * is not: it holds whatever was sent there) */
static const struct cgt_arc no_arc;

static IRExpr *tmp(IRSB *out, IRExpr *e)
{
	IRTemp t = newIRTemp(out->tyenv, typeOfIRExpr(out->tyenv, e));
	addStmtToIRSB(out, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

static IRExpr *c64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

static IRExpr *bin(IRSB *out, IROp op, IRExpr *a, IRExpr *b)
{
	return tmp(out, IRExpr_Binop(op, a, b));
}

static IRExpr *plus(IRSB *out, IRExpr *a, ULong off)
{
	return bin(out, Iop_Add64, a, c64(off));
}

static IRExpr *ld(IRSB *out, IRType ty, IRExpr *addr)
{
	return tmp(out, IRExpr_Load(Iend_LE, ty, addr));
}

static void st(IRSB *out, IRExpr *addr, IRExpr *val)
{
	addStmtToIRSB(out, IRStmt_Store(Iend_LE, addr, val));
}

static IRExpr *ite(IRSB *out, IRExpr *cond, IRExpr *yes, IRExpr *no)
{
	return tmp(out, IRExpr_ITE(cond, yes, no));
}

static IRExpr *and1(IRSB *out, IRExpr *a, IRExpr *b)
{
	return bin(out, Iop_And1, a, b);
}

/* The return inline in every mode; the direct call with Ir only (with a
 * simulation its snapshot of every event costs more code than the call
 * saves). */
static Bool inline_on(const struct cgt_exit *x)
{
	return !cgt_clo_separate_threads && !(cgt_cct_on && x->unnamed) && sizeof(Addr) == 8 &&
	       (x->kind == CGT_XFER_RET ||
		(x->kind == CGT_XFER_CALL && x->to && cgt_n_events == 1));
}

/* add_since in IR: incl += totals - enter, two events at a time (V128),
 * the totals being cgt_tot plus, for the pairs that have them, the packed
 * lanes zero-extended. */
/* Event pair p of the running totals, in IR (tot_pair). */
static IRExpr *emit_tot_pair(IRSB *out, UInt p)
{
	IRExpr *tv = ld(out, Ity_V128, c64((HWord)&cgt_tot[2 * p]));
	if (cgt_seg_events & (3u << (2 * p))) {
		IRExpr *pk = tmp(out, IRExpr_Unop(Iop_64UtoV128,
						  ld(out, Ity_I64, c64((HWord)&cgt_packed[p]))));
		IRExpr *lanes = bin(out, Iop_InterleaveLO32x4, IRExpr_Const(IRConst_V128(0)), pk);
		tv = bin(out, Iop_Add64x2, tv, lanes);
	}
	return tv;
}

static void emit_add_since(IRSB *out, IRExpr *incl, IRExpr *enter)
{
	for (UInt p = 0; p < (cgt_n_events + 1) / 2; p++) {
		IRExpr *tv = emit_tot_pair(out, p);
		IRExpr *ev = ld(out, Ity_V128, plus(out, enter, 16 * p));
		IRExpr *ip = plus(out, incl, 16 * p);
		st(out, ip, bin(out, Iop_Add64x2, ld(out, Ity_V128, ip), bin(out, Iop_Sub64x2, tv, ev)));
	}
}

/* --contexts, charge_node in IR where `ok` holds (else the stores go to
 * the sink): node's self row += totals - cgt_cmark, cgt_cmark = totals.  (The
 * inline code runs only off cut paths.) */
static void emit_charge(IRSB *out, IRExpr *ok, IRExpr *node)
{
	IRExpr *sink_addr = c64((HWord)&sink);
	IRExpr *base = ld(out, Ity_I64, c64((HWord)&cgt_cct_self));
	IRExpr *row = bin(out, Iop_Add64, base,
			  bin(out, Iop_Mul64, tmp(out, IRExpr_Unop(Iop_32Uto64, node)),
			      c64(cgt_n_events * sizeof(ULong))));
	row = ite(out, ok, row, sink_addr);
	IRExpr *mk = ite(out, ok, c64((HWord)cgt_cmark), sink_addr);
	if (cgt_n_events == 1) {
		IRExpr *tot = ld(out, Ity_I64, c64((HWord)&cgt_tot[0]));
		IRExpr *was = ld(out, Ity_I64, c64((HWord)cgt_cmark));
		st(out, row, bin(out, Iop_Add64, ld(out, Ity_I64, row), bin(out, Iop_Sub64, tot, was)));
		st(out, mk, tot);
		return;
	}
	for (UInt p = 0; p < (cgt_n_events + 1) / 2; p++) {
		IRExpr *tv = emit_tot_pair(out, p);
		IRExpr *was = ld(out, Ity_V128, c64((HWord)&cgt_cmark[2 * p]));
		IRExpr *rp = plus(out, row, 16 * p);
		st(out, rp, bin(out, Iop_Add64x2, ld(out, Ity_V128, rp), bin(out, Iop_Sub64x2, tv, was)));
		st(out, plus(out, mk, 16 * p), tv);
	}
}

/* --contexts, in IR: the running thread t's node (*node), and the
 * condition that the inline code can move it: the thread is off cut
 * paths and on the node of from's function (so that charge_at needs no
 * move first). */
static IRExpr *emit_node_ok(IRSB *out, IRExpr *t, const struct cgt_insn *from, IRExpr **node)
{
	*node = ld(out, Ity_I32, plus(out, t, offsetof(struct thread, node)));
	IRExpr *na = bin(out, Iop_Add64, ld(out, Ity_I64, c64((HWord)&cgt_cct_nodes)),
			 bin(out, Iop_Mul64, tmp(out, IRExpr_Unop(Iop_32Uto64, *node)),
			     c64(sizeof(struct cgt_cnode))));
	/* obj and fn in one load (root nodes: both CGT_CTX_NONE, no match) */
	IRExpr *key = ld(out, Ity_I64, plus(out, na, offsetof(struct cgt_cnode, obj)));
	IRExpr *cut = tmp(out, IRExpr_Unop(Iop_8Uto32,
					   ld(out, Ity_I8, plus(out, t, offsetof(struct thread, cut)))));
	return and1(out, bin(out, Iop_CmpEQ64, key, c64((ULong)from->fn << 32 | from->obj)),
		    bin(out, Iop_CmpEQ32, cut, IRExpr_Const(IRConst_U32(0))));
}

/* The address of field `off` of node k in IR where ok holds, else the
 * sink's. */
static IRExpr *emit_node_field(IRSB *out, IRExpr *ok, IRExpr *k, ULong off)
{
	IRExpr *na = bin(out, Iop_Add64, ld(out, Ity_I64, c64((HWord)&cgt_cct_nodes)),
			 bin(out, Iop_Mul64, tmp(out, IRExpr_Unop(Iop_32Uto64, k)),
			     c64(sizeof(struct cgt_cnode))));
	return ite(out, ok, plus(out, na, off), c64((HWord)&sink));
}

/* In IR (64-bit hosts): the running thread (*t), its number of frames (*n)
 * and its top frame's address (n = 0: the sentinel f[-1]). */
static IRExpr *emit_top(IRSB *out, IRExpr **t, IRExpr **n)
{
	const ULong size = sizeof(struct frame);
	*t = ld(out, Ity_I64, c64((HWord)&cgt_cur));
	*n = ld(out, Ity_I32, plus(out, *t, offsetof(struct thread, n)));
	IRExpr *f = ld(out, Ity_I64, plus(out, *t, offsetof(struct thread, f)));
	IRExpr *top = bin(out, Iop_Add64, f,
			  bin(out, Iop_Mul64, tmp(out, IRExpr_Unop(Iop_32Uto64, *n)), c64(size)));
	return bin(out, Iop_Sub64, top, c64(size));
}

/* Adds the inline code of exit x (SP in `sp`, taken when `guard` holds or
 * is NULL): returns the condition under which it did the work. */
static IRExpr *emit_inline(IRSB *out, struct cgt_exit *x, IRExpr *sp, IRExpr *guard)
{
	const ULong size = sizeof(struct frame);
	IRExpr *t, *n;
	IRExpr *top = emit_top(out, &t, &n);
	IRExpr *top_sp = ld(out, Ity_I64, plus(out, top, offsetof(struct frame, sp)));
	IRExpr *sink_addr = c64((HWord)&sink);
	IRExpr *n_addr = plus(out, t, offsetof(struct thread, n));
	IRExpr *ok;

	if (x->kind == CGT_XFER_RET) {
		/* outside signal handlers, SP above the top frame's and not above
		 * the one below (one pop), the top frame a call */
		IRExpr *nsig = ld(out, Ity_I32, plus(out, t, offsetof(struct thread, nsig)));
		IRExpr *below_sp = ld(out, Ity_I64,
				      bin(out, Iop_Sub64, top, c64(size - offsetof(struct frame, sp))));
		IRExpr *arc = ld(out, Ity_I64, plus(out, top, offsetof(struct frame, arc)));
		ok = and1(out, bin(out, Iop_CmpEQ32, nsig, IRExpr_Const(IRConst_U32(0))),
			  bin(out, Iop_CmpLT64U, top_sp, sp));
		ok = and1(out, ok, tmp(out, IRExpr_Unop(Iop_Not1, bin(out, Iop_CmpLT64U, below_sp, sp))));
		ok = and1(out, ok, bin(out, Iop_CmpNE64, arc, c64(0)));
		IRExpr *node = NULL;
		if (cgt_cct_on)
			ok = and1(out, ok, emit_node_ok(out, t, x->from, &node));
		if (guard)
			ok = and1(out, ok, guard);
		IRExpr *ns = ld(out, Ity_I64, plus(out, top, offsetof(struct frame, nonskipped)));
		/* arc->incl += tot - enter; n--; nonskipped = the frame's */
		IRExpr *incl = ite(out, ok, plus(out, arc, offsetof(struct cgt_arc, incl)), sink_addr);
		if (cgt_n_events == 1) {
			IRExpr *enter = ld(out, Ity_I64, plus(out, top, offsetof(struct frame, enter)));
			st(out, incl, bin(out, Iop_Add64, ld(out, Ity_I64, incl),
					  bin(out, Iop_Sub64, ld(out, Ity_I64, c64((HWord)&cgt_tot[0])), enter)));
		} else {
			emit_add_since(out, incl, plus(out, top, offsetof(struct frame, enter)));
		}
		st(out, n_addr, ite(out, ok, bin(out, Iop_Sub32, n, IRExpr_Const(IRConst_U32(1))), n));
		st(out, ite(out, ok, plus(out, t, offsetof(struct thread, nonskipped)), sink_addr), ns);
		/* the context: the frame below's */
		IRExpr *below_ctx = ld(out, Ity_I32,
				       bin(out, Iop_Sub64, top, c64(size - offsetof(struct frame, ctx))));
		st(out, ite(out, ok, c64((HWord)&cgt_ctx_now), sink_addr), below_ctx);
		if (cgt_cct_on) {
			/* charge_at, leave_node: the frame held a call (on_node),
			 * the thread was off cut paths (so was the caller) */
			emit_charge(out, ok, node);
			IRExpr *fnode = ld(out, Ity_I32, plus(out, top, offsetof(struct frame, node)));
			IRExpr *aa = emit_node_field(out, ok, fnode, offsetof(struct cgt_cnode, active));
			IRExpr *act = ld(out, Ity_I32, aa);
			st(out, aa, bin(out, Iop_Sub32, act,
					tmp(out, IRExpr_Unop(Iop_1Uto32,
							     bin(out, Iop_CmpNE32, act,
								 IRExpr_Const(IRConst_U32(0)))))));
			st(out, ite(out, ok, plus(out, t, offsetof(struct thread, node)), sink_addr),
			   ld(out, Ity_I32, plus(out, top, offsetof(struct frame, ret_node))));
		}
		return ok;
	}
	/* a direct call: not in a skipped call, room for a frame, nothing to
	 * unwind, and the exit's call site from its own instruction (an exit's
	 * call site never goes to a PLT stub).  (Indirect calls, looking up
	 * the call site by target inline, were 20 % slower on the calls bench
	 * than with cgt_h_call_ind.) */
	IRExpr *cap = ld(out, Ity_I32, plus(out, t, offsetof(struct thread, cap)));
	IRExpr *tns = ld(out, Ity_I64, plus(out, t, offsetof(struct thread, nonskipped)));
	IRExpr *arc = ld(out, Ity_I64, c64((HWord)&x->arc));
	IRExpr *arc_or_none = ite(out, bin(out, Iop_CmpNE64, arc, c64(0)), arc, c64((HWord)&no_arc));
	IRExpr *from = ld(out, Ity_I64, plus(out, arc_or_none, offsetof(struct cgt_arc, from)));
	ok = and1(out, bin(out, Iop_CmpEQ64, tns, c64(0)), bin(out, Iop_CmpLT32U, n, cap));
	ok = and1(out, ok, tmp(out, IRExpr_Unop(Iop_Not1, bin(out, Iop_CmpLT64U, top_sp, sp))));
	ok = and1(out, ok, bin(out, Iop_CmpEQ64, from, c64((HWord)x->from)));
	if (x->unnamed) /* and the call site of the context it runs in */
		ok = and1(out, ok, bin(out, Iop_CmpEQ32,
				       ld(out, Ity_I32, plus(out, arc_or_none, offsetof(struct cgt_arc, ctx))),
				       ld(out, Ity_I32, plus(out, top, offsetof(struct frame, ctx)))));
	IRExpr *node = NULL;
	if (cgt_cct_on) {
		/* and the call site's node cached for the node the thread is on
		 * (enter_node's fast case), not cut */
		ok = and1(out, ok, emit_node_ok(out, t, x->from, &node));
		ok = and1(out, ok, bin(out, Iop_CmpEQ32, node,
				       ld(out, Ity_I32, plus(out, arc_or_none,
							     offsetof(struct cgt_arc, cct_parent)))));
		IRExpr *acut = tmp(out, IRExpr_Unop(Iop_8Uto32,
			ld(out, Ity_I8, plus(out, arc_or_none, offsetof(struct cgt_arc, cct_cut)))));
		ok = and1(out, ok, bin(out, Iop_CmpEQ32, acut, IRExpr_Const(IRConst_U32(0))));
	}
	if (guard)
		ok = and1(out, ok, guard);
	IRExpr *nf = ite(out, ok, plus(out, top, size), sink_addr);
	st(out, plus(out, nf, offsetof(struct frame, arc)), arc);
	st(out, plus(out, nf, offsetof(struct frame, sp)), sp);
	st(out, plus(out, nf, offsetof(struct frame, ret_addr)), c64(x->ret_addr));
	st(out, plus(out, nf, offsetof(struct frame, nonskipped)), c64(0));
	st(out, plus(out, nf, offsetof(struct frame, ctx)), IRExpr_Const(IRConst_U32(x->to->ctx)));
	st(out, ite(out, ok, c64((HWord)&cgt_ctx_now), sink_addr), IRExpr_Const(IRConst_U32(x->to->ctx)));
	st(out, plus(out, nf, offsetof(struct frame, enter)), ld(out, Ity_I64, c64((HWord)&cgt_tot[0])));
	IRExpr *count = ite(out, ok, plus(out, arc, offsetof(struct cgt_arc, count)), sink_addr);
	st(out, count, bin(out, Iop_Add64, ld(out, Ity_I64, count), c64(1)));
	st(out, n_addr, ite(out, ok, bin(out, Iop_Add32, n, IRExpr_Const(IRConst_U32(1))), n));
	if (cgt_cct_on) {
		/* charge_at, enter_node */
		emit_charge(out, ok, node);
		IRExpr *k = ld(out, Ity_I32, plus(out, arc_or_none, offsetof(struct cgt_arc, cct_node)));
		st(out, plus(out, nf, offsetof(struct frame, ret_node)), node);
		st(out, plus(out, nf, offsetof(struct frame, node)), k);
		st(out, plus(out, nf, offsetof(struct frame, on_node)), IRExpr_Const(IRConst_U8(1)));
		st(out, plus(out, nf, offsetof(struct frame, ret_cut)), IRExpr_Const(IRConst_U8(0)));
		st(out, ite(out, ok, plus(out, t, offsetof(struct thread, node)), sink_addr), k);
		IRExpr *ca = emit_node_field(out, ok, k, offsetof(struct cgt_cnode, calls));
		st(out, ca, bin(out, Iop_Add64, ld(out, Ity_I64, ca), c64(1)));
		IRExpr *aa = emit_node_field(out, ok, k, offsetof(struct cgt_cnode, active));
		IRExpr *act = bin(out, Iop_Add32, ld(out, Ity_I32, aa), IRExpr_Const(IRConst_U32(1)));
		st(out, aa, act);
		/* outer: the first live frame on it (not a recursion) */
		IRExpr *oa = emit_node_field(out, ok, k, offsetof(struct cgt_cnode, outer));
		IRExpr *first = tmp(out, IRExpr_Unop(Iop_1Uto64, bin(out, Iop_CmpEQ32, act,
								    IRExpr_Const(IRConst_U32(1)))));
		st(out, oa, bin(out, Iop_Add64, ld(out, Ity_I64, oa), first));
		IRExpr *ra = emit_node_field(out, ok, k, offsetof(struct cgt_cnode, rec));
		IRExpr *rec = ld(out, Ity_I32, ra);
		st(out, ra, ite(out, bin(out, Iop_CmpLT32U, rec, act), act, rec));
	}
	return ok;
}

static void emit(IRSB *out, struct cgt_exit *x, IRExpr *dst, IRExpr *guard, Int offset_SP)
{
	IRType ty = typeOfIRExpr(out->tyenv, dst);
	IRTemp sp = newIRTemp(out->tyenv, ty);
	addStmtToIRSB(out, IRStmt_WrTmp(sp, IRExpr_Get(offset_SP, ty)));
	if (inline_on(x)) {
		IRExpr *ok = emit_inline(out, x, IRExpr_RdTmp(sp), guard);
		IRExpr *call = tmp(out, IRExpr_Unop(Iop_Not1, ok));
		guard = guard ? and1(out, guard, call) : call;
	}
	const HChar *name;
	void *fn;
	Bool all = cgt_all_events;
	if (x->kind == CGT_XFER_RET) {
		name = "h_ret";
		fn = cgt_h_ret;
	} else if (x->kind == CGT_XFER_JUMP) {
		name = "h_jump";
		fn = all ? cgt_h_jump_all : cgt_h_jump;
	} else if (x->to) {
		name = "h_call";
		fn = all ? cgt_h_call_all : cgt_h_call;
	} else {
		name = "h_call_ind";
		fn = all ? cgt_h_call_ind_all : cgt_h_call_ind;
	}
	IRDirty *di = unsafeIRDirty_0_N(3, name, VG_(fnptr_to_fnentry)(fn),
					mkIRExprVec_3(mkIRExpr_HWord((HWord)x), dst,
						      IRExpr_RdTmp(sp)));
	if (guard)
		di->guard = guard;
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

static Bool fn_moves(const struct cgt_insn *from, const struct cgt_insn *to)
{
	if (!cgt_cct_on || !from || !to)
		return False;
	if (cgt_insn_unnamed(from) || cgt_insn_unnamed(to))
		return cgt_insn_unnamed(from) != cgt_insn_unnamed(to);
	return from->fn != to->fn || from->obj != to->obj;
}

static void emit_fn(IRSB *out, struct cgt_insn *from, struct cgt_insn *to, IRExpr *guard)
{
	IRDirty *di = unsafeIRDirty_0_N(2, "h_fn", VG_(fnptr_to_fnentry)(cgt_h_fn),
					mkIRExprVec_2(mkIRExpr_HWord((HWord)from),
						      mkIRExpr_HWord((HWord)to)));
	if (guard)
		di->guard = guard;
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

/* A direct jump that classify made no call (in its object and section, not
 * to an entry) from one function with a symbol into another's code: a call
 * edge or a return to it (cgt_h_mid), so that the calls into the jumping
 * function cost what it and its calls do. */
static Bool mid_jump(const struct cgt_insn *from, const struct cgt_insn *to)
{
	return from && to && !cgt_insn_unnamed(from) && !cgt_insn_unnamed(to) &&
	       from->fn != to->fn;
}

static void emit_mid(IRSB *out, struct cgt_insn *from, struct cgt_insn *to, IRExpr *guard,
		     Int offset_SP)
{
	struct cgt_exit *x = cgt_perm_alloc(sizeof(*x));
	*x = (struct cgt_exit){ .from = from, .to = to, .kind = CGT_XFER_JUMP };
	cgt_insn_ctx(to);
	IRType ty = sizeof(Addr) == 8 ? Ity_I64 : Ity_I32;
	IRExpr *sp = tmp(out, IRExpr_Get(offset_SP, ty));
	IRDirty *di = unsafeIRDirty_0_N(2, "h_mid", VG_(fnptr_to_fnentry)(cgt_h_mid),
					mkIRExprVec_2(mkIRExpr_HWord((HWord)x), sp));
	if (guard)
		di->guard = guard;
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

void cgt_calls_exit(IRSB *out, struct cgt_insn *from, IRJumpKind jk, IRExpr *dst,
		    IRExpr *guard, Int offset_SP, Bool block_end)
{
	struct cgt_insn *to = NULL;
	if (dst->tag == Iex_Const) {
		const IRConst *c = dst->Iex.Const.con;
		to = cgt_insn_get(c->tag == Ico_U32 ? c->Ico.U32 : (Addr)c->Ico.U64, 0);
	} else {
		tl_assert(dst->tag == Iex_RdTmp);
	}
	struct cgt_exit *x = classify(from, kind_of(jk), to, block_end);
	if (x)
		emit(out, x, dst, guard, offset_SP);
	else if (kind_of(jk) == CGT_XFER_JUMP && mid_jump(from, to))
		emit_mid(out, from, to, guard, offset_SP);
	else if (kind_of(jk) == CGT_XFER_JUMP && fn_moves(from, to))
		emit_fn(out, from, to, guard);
}

static Bool calls_chased(IRSB *out, struct cgt_insn *from, struct cgt_insn *to, Bool was_call,
			 Int offset_SP, void (*before)(void *), void *arg)
{
	struct cgt_exit *x = classify(from, was_call ? CGT_XFER_CALL : CGT_XFER_JUMP, to, True);
	if (!x) {
		if (!was_call && mid_jump(from, to)) {
			before(arg);
			emit_mid(out, from, to, NULL, offset_SP);
			return True;
		}
		if (fn_moves(from, to)) {
			before(arg);
			emit_fn(out, from, to, NULL);
		}
		return False;
	}
	before(arg);
	emit(out, x, mkIRExpr_HWord(to->addr), NULL, offset_SP);
	return True;
}

/* Is the instruction `from` a direct jump to the instruction right after
 * it (a displacement of 0: "jmp rel32" or "jmp rel8", with or without a
 * bnd prefix)?  glibc's strerror ends in such a jump, its tail call of
 * strerror_l laid out right after it: VEX, following the jump, gives the
 * two instructions one after the other as if the code fell through.  The
 * bytes were just read by VEX, so they are there to read. */
static Bool jumps_to_next(const struct cgt_insn *from)
{
#if defined(VGA_x86) || defined(VGA_amd64)
	const UChar *b = (const UChar *)from->addr;
	UInt n = from->len;
	if (n >= 1 && b[0] == 0xF2) { /* bnd */
		b++;
		n--;
	}
	if (n == 5 && b[0] == 0xE9)
		return b[1] == 0 && b[2] == 0 && b[3] == 0 && b[4] == 0;
	return n == 2 && b[0] == 0xEB && b[1] == 0;
#else
	(void)from;
	return False;
#endif
}

Bool cgt_calls_next(IRSB *out, struct cgt_insn *from, struct cgt_insn *to, Bool was_call,
		    Int offset_SP, void (*before)(void *), void *arg)
{
	if (from->addr + from->len != to->addr || jumps_to_next(from))
		return calls_chased(out, from, to, was_call, offset_SP, before, arg);
	/* the code of `from` goes on into that of `to`: with --contexts, a
	 * function falling into the next moves between their nodes */
	if (fn_moves(from, to)) {
		before(arg);
		emit_fn(out, from, to, NULL);
	}
	return False;
}

void cgt_calls_ctx_check(IRSB *out, struct cgt_reg *r)
{
	IRExpr *now = tmp(out, IRExpr_Load(CGT_END, Ity_I32, mkIRExpr_HWord((HWord)&cgt_ctx_now)));
	IRExpr *want = tmp(out, IRExpr_Load(CGT_END, Ity_I32, mkIRExpr_HWord((HWord)&r->ctx)));
	IRDirty *di = unsafeIRDirty_0_N(1, "h_ctx", VG_(fnptr_to_fnentry)(cgt_h_ctx),
					mkIRExprVec_1(mkIRExpr_HWord((HWord)r)));
	di->guard = tmp(out, IRExpr_Binop(Iop_CmpNE32, now, want));
	addStmtToIRSB(out, IRStmt_Dirty(di));
}
