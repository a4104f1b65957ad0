/* tool_main.c -- cgtui's Valgrind tool: registration, options, the
 * instrumenter and the end of the run.
 *
 * Run as `VALGRIND_LIB=DIR valgrind --tool=cgtui PROGRAM`, where DIR holds
 * cgtui-PLATFORM with the core's files (see src/instrument/README.md).
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "tool.h"

#ifndef CGTUI_VERSION
#define CGTUI_VERSION "unknown"
#endif

/* ---- options ----------------------------------------------------------------- */

static const HChar *clo_out_file = "callgrind.out.%p";

HChar *cgt_out_path(void)
{
	return VG_(expand_file_name)("--cgtui-out-file", clo_out_file);
}

static Bool cgt_process_cmd_line_option(const HChar *arg)
{
	if (VG_STR_CLO(arg, "--cgtui-out-file", clo_out_file)) {
	} else if (VG_BOOL_CLO(arg, "--cache-sim", cgt_clo_cache_sim)) {
	} else if (VG_BOOL_CLO(arg, "--branch-sim", cgt_clo_branch_sim)) {
	} else if (VG_BOOL_CLO(arg, "--separate-threads", cgt_clo_separate_threads)) {
	} else if (cgt_sim_option(arg)) {
	} else if (cgt_live_option(arg)) {
	} else if (cgt_ctx_option(arg)) {
	} else if (cgt_cct_option(arg)) {
	} else if (cgt_time_option(arg)) {
	} else {
		return False;
	}
	return True;
}

static void cgt_print_usage(void)
{
	VG_(printf)("    --cgtui-out-file=<file>   output file name [callgrind.out.%%p]\n"
		    "    --cache-sim=yes|no        simulate caches (as cachegrind) [no]\n"
		    "    --branch-sim=yes|no       simulate branch predictors (as cachegrind) [no]\n"
		    "    --separate-threads=yes|no one file per thread, FILE-01, FILE-02... [no]\n"
		    "    --unnamed=callgrind|cachegrind  code without a symbol: named and\n"
		    "                              counted by the function it ran in, as\n"
		    "                              callgrind does, or all \"???\" (faster) [callgrind]\n");
	cgt_cct_usage();
	cgt_time_usage();
	cgt_sim_usage();
	cgt_live_usage();
}

static void cgt_print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

/* ---- instrumentation ----------------------------------------------------------- */

/* Cachegrind queues up to this many events per block before it calls its
 * helpers; an instruction is counted when its event is flushed.  Ending our
 * segments at the same places makes even a block left by a fault (a signal
 * in mid-block) count the instructions cachegrind counts. */
#define CG_QUEUE_LEN 16

/* the statics' base, read by the translated code (cgt_count_addr) */
static const ULong *const statics_base = cgt_packed;

IRExpr *cgt_count_addr(struct cgt_count *c, const void *p)
{
	/* with Ir only a block uses one such address or two: the constant is
	 * cheaper than the base's load */
	Long d = (Long)((HWord)p - (HWord)statics_base);
	if (sizeof(HWord) != 8 || cgt_n_events == 1 || d < -(1L << 30) || d > (1L << 30))
		return mkIRExpr_HWord((HWord)p);
	IRSB *out = c->out;
	if (!c->base) {
		IRTemp b = newIRTemp(out->tyenv, Ity_I64);
		addStmtToIRSB(out, IRStmt_WrTmp(b, IRExpr_Load(CGT_END, Ity_I64,
							     mkIRExpr_HWord((HWord)&statics_base))));
		c->base = IRExpr_RdTmp(b);
	}
	IRTemp a = newIRTemp(out->tyenv, Ity_I64);
	addStmtToIRSB(out, IRStmt_WrTmp(a, IRExpr_Binop(Iop_Add64, c->base,
							IRExpr_Const(IRConst_U64((ULong)d)))));
	return IRExpr_RdTmp(a);
}

/* `*p += n` in IR: no helper call, three host instructions (and the
 * address's constant when p is not one of the statics). */
static void add_increment(struct cgt_count *s, ULong *p, ULong n)
{
	IRSB *out = s->out;
	IRExpr *addr = cgt_count_addr(s, p);
	IRTemp old = newIRTemp(out->tyenv, Ity_I64);
	IRTemp new = newIRTemp(out->tyenv, Ity_I64);
	addStmtToIRSB(out, IRStmt_WrTmp(old, IRExpr_Load(CGT_END, Ity_I64, addr)));
	addStmtToIRSB(out, IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
							  IRExpr_Const(IRConst_U64(n)))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, addr, IRExpr_RdTmp(new)));
}

/* --timeline: `if (*p == 0) cgt_time_ran(sb); *p += 1` for sb's first
 * counter (tool_time.c: the translations that ran in an interval) */
static void add_first_increment(struct cgt_count *s, ULong *p)
{
	IRSB *out = s->out;
	IRExpr *addr = mkIRExpr_HWord((HWord)p);
	IRTemp old = newIRTemp(out->tyenv, Ity_I64);
	IRTemp new = newIRTemp(out->tyenv, Ity_I64);
	IRTemp zero = newIRTemp(out->tyenv, Ity_I1);
	addStmtToIRSB(out, IRStmt_WrTmp(old, IRExpr_Load(CGT_END, Ity_I64, addr)));
	addStmtToIRSB(out, IRStmt_WrTmp(zero, IRExpr_Binop(Iop_CmpEQ64, IRExpr_RdTmp(old),
							   IRExpr_Const(IRConst_U64(0)))));
	IRDirty *di = unsafeIRDirty_0_N(1, "cgt_time_ran", VG_(fnptr_to_fnentry)(cgt_time_ran),
					mkIRExprVec_1(mkIRExpr_HWord((HWord)s->sb)));
	di->guard = IRExpr_RdTmp(zero);
	addStmtToIRSB(out, IRStmt_Dirty(di));
	addStmtToIRSB(out, IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
							  IRExpr_Const(IRConst_U64(1)))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, addr, IRExpr_RdTmp(new)));
}

/* `cgt_cur_slots[slot] += 1` (--separate-threads): the running thread's
 * counters, whose address is loaded first. */
static void add_slot_increment(IRSB *out, UInt slot)
{
	IRType ty = sizeof(HWord) == 8 ? Ity_I64 : Ity_I32;
	IRTemp base = newIRTemp(out->tyenv, ty);
	IRTemp addr = newIRTemp(out->tyenv, ty);
	IRTemp old = newIRTemp(out->tyenv, Ity_I64);
	IRTemp new = newIRTemp(out->tyenv, Ity_I64);
	addStmtToIRSB(out, IRStmt_WrTmp(base, IRExpr_Load(CGT_END, ty,
							    mkIRExpr_HWord((HWord)&cgt_cur_slots))));
	addStmtToIRSB(out, IRStmt_WrTmp(addr, IRExpr_Binop(ty == Ity_I64 ? Iop_Add64 : Iop_Add32,
							   IRExpr_RdTmp(base),
							   mkIRExpr_HWord(slot * sizeof(ULong)))));
	addStmtToIRSB(out, IRStmt_WrTmp(old, IRExpr_Load(CGT_END, Ity_I64, IRExpr_RdTmp(addr))));
	addStmtToIRSB(out, IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
							  IRExpr_Const(IRConst_U64(1)))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, IRExpr_RdTmp(addr), IRExpr_RdTmp(new)));
}

/* Ends the current segment: the instructions since the last end are
 * counted once each time execution gets here (and added to the running
 * total the call graph's inclusive costs come from). */
void cgt_count_end_segment(struct cgt_count *s)
{
	Bool events = False;
	for (UInt e = 1; e < cgt_n_events; e++)
		events = events || s->ev_pending[e];
	if (!s->pending && !events)
		return;
	struct cgt_sb *sb = s->sb;
	tl_assert(sb->n_segs < s->max_segs);
	sb->seg_end[sb->n_segs] = s->n_done;
	if (cgt_clo_separate_threads)
		add_slot_increment(s->out, sb->slot + sb->n_segs);
	else if (cgt_time_on && sb->n_segs == 0)
		add_first_increment(s, &sb->count[0]);
	else
		add_increment(s, &sb->count[sb->n_segs], 1);
	if (cgt_n_events == 1) {
		if (s->tot_pending)
			add_increment(s, &cgt_tot[CGT_EV_IR], s->tot_pending);
	} else {
		/* several events: two to a 64-bit word (cgt_packed) */
		ULong add[CGT_PACKED_WORDS] = { 0 };
		s->ev_pending[CGT_EV_IR] = s->tot_pending;
		for (UInt e = 0; e < cgt_n_events; e++)
			if (s->ev_pending[e]) {
				add[e / 2] += (ULong)s->ev_pending[e] << (32 * (e % 2));
				s->ev_pending[e] = 0;
			}
		for (UInt w = 0; w < CGT_PACKED_WORDS; w++)
			if (add[w])
				add_increment(s, &cgt_packed[w], add[w]);
	}
	s->tot_pending = 0;
	sb->n_segs++;
	s->pending = 0;
}

void cgt_count_event(struct cgt_count *s, struct cgt_insn *n, UInt ev)
{
	struct cgt_sb *sb = s->sb;
	if (sb->n_ev == s->cap_ev) {
		s->cap_ev = s->cap_ev ? 2 * s->cap_ev : 16;
		sb->ev = VG_(realloc)("cgtui.sb.ev", sb->ev, s->cap_ev * sizeof(*sb->ev));
	}
	tl_assert(sb->n_segs < 65536 && ev < CGT_EV_MAX);
	sb->ev[sb->n_ev].insn = n;
	sb->ev[sb->n_ev].ev = (UShort)ev;
	sb->ev[sb->n_ev].seg = (UShort)sb->n_segs;
	sb->n_ev++;
	s->ev_pending[ev]++;
}

/* Before a call is pushed in mid-segment: the running total counts what
 * ran up to here (the segment's own counter stays where it is). */
void cgt_count_flush_total(struct cgt_count *s)
{
	if (s->tot_pending)
		add_increment(s, &cgt_tot[CGT_EV_IR], s->tot_pending);
	s->tot_pending = 0;
}

static void flush_total(void *arg)
{
	cgt_count_flush_total(arg);
}

void cgt_count_start(struct cgt_count *s, IRSB *out, Addr key, UInt n_insns, UInt max_segs)
{
	s->out = out;
	s->sb = cgt_sb_new(key, n_insns, max_segs);
	if (cgt_clo_separate_threads)
		s->sb->slot = cgt_threads_slots(max_segs);
	s->n_done = 0;
	s->pending = 0;
	s->tot_pending = 0;
	s->max_segs = max_segs;
	s->cap_ev = 0;
	s->base = NULL;
	s->reg_open = False;
	VG_(memset)(s->ev_pending, 0, sizeof(s->ev_pending));
}

/* Code without a symbol counts in its thread's context: the first such
 * instruction of a region checks it (struct cgt_reg). */
static void open_region(struct cgt_count *s)
{
	struct cgt_sb *sb = s->sb;
	struct cgt_reg *r = VG_(malloc)("cgtui.sb.reg", sizeof(*r));
	r->sb = sb;
	r->first = s->n_done;
	r->ctx = CGT_CTX_NONE;
	sb->reg = VG_(realloc)("cgtui.sb.regs", sb->reg, (sb->n_reg + 1) * sizeof(*sb->reg));
	sb->reg[sb->n_reg++] = r;
	s->reg_open = True;
	cgt_calls_ctx_check(s->out, r);
}

struct cgt_insn *cgt_count_direct(struct cgt_count *s, struct cgt_insn *n)
{
	struct cgt_sb *sb = s->sb;
	if (!cgt_insn_unnamed(n) || !sb->n_reg)
		return n;
	struct cgt_reg *r = sb->reg[sb->n_reg - 1];
	if (!n->dreg || n->dreg == r) {
		n->dreg = r;
		return n;
	}
	/* another live translation counts into n: this one into a copy */
	sb->proxy = VG_(realloc)("cgtui.sb.proxy", sb->proxy, (sb->n_proxy + 1) * sizeof(*sb->proxy));
	return sb->proxy[sb->n_proxy++] = cgt_insn_proxy(n);
}

void cgt_count_new_region(struct cgt_count *s)
{
	s->reg_open = False;
}

void cgt_count_insn(struct cgt_count *s, struct cgt_insn *n)
{
	if (!s->reg_open && cgt_insn_unnamed(n))
		open_region(s);
	s->sb->insns[s->n_done++] = n;
	s->pending++;
	s->tot_pending++;
}

/* The target of the ABI hint `st` if constant, else 0.  VEX writes one
 * for a call (amd64), its target the call's: if VEX then goes on at that
 * target, it followed a call. */
Addr cgt_hint_target(const IRStmt *st)
{
	if (st->Ist.AbiHint.nia->tag != Iex_Const)
		return 0;
	const IRConst *c = st->Ist.AbiHint.nia->Iex.Const.con;
	return c->tag == Ico_U32 ? c->Ico.U32 : (Addr)c->Ico.U64;
}

static IRSB *cgt_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			    const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			    IRType gWordTy, IRType hWordTy)
{
	struct cgt_count s;
	Int i = 0;

	if (gWordTy != hWordTy)
		VG_(tool_panic)("host/guest word size mismatch");
	tl_assert(closure->readdr == vge->base[0]);
	if (!cgt_instr_on) /* --instr-at-start=no, or stopped by a client request */
		return in;
	if (cgt_clo_cache_sim || cgt_clo_branch_sim)
		return cgt_sim_instrument(in, hWordTy, layout->offset_SP, vge->base[0]);

	IRSB *out = deepCopyIRSBExceptStmts(in);
	/* What comes before the first IMark is VEX's own (the self-modifying
	 * code check): copied as it is, and never counted. */
	while (i < in->stmts_used && in->stmts[i]->tag != Ist_IMark)
		addStmtToIRSB(out, in->stmts[i++]);
	tl_assert(i < in->stmts_used);

	UInt n = 0;
	for (Int j = i; j < in->stmts_used; j++)
		n += in->stmts[j]->tag == Ist_IMark;
	cgt_count_start(&s, out, vge->base[0], n, n);

	struct cgt_insn *cur = NULL;
	Addr hint = 0;
	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		switch (st->tag) {
		case Ist_IMark: {
			if (s.pending == CG_QUEUE_LEN)
				cgt_count_end_segment(&s);
			struct cgt_insn *prev = cur;
			cur = cgt_insn_get(st->Ist.IMark.addr,
					   st->Ist.IMark.len ? st->Ist.IMark.len : VG_MIN_INSTR_SZB);
			/* VEX followed a direct call or jump, or the code went on */
			if (prev && cgt_calls_next(s.out, prev, cur, hint == cur->addr,
						   layout->offset_SP, flush_total, &s))
				cgt_count_new_region(&s);
			hint = 0;
			cgt_count_insn(&s, cur);
			break;
		}
		case Ist_AbiHint:
			hint = cgt_hint_target(st);
			break;
		case Ist_Exit:
			/* counted before the side exit may leave the block */
			cgt_count_end_segment(&s);
			cgt_calls_exit(s.out, cur, st->Ist.Exit.jk, IRExpr_Const(st->Ist.Exit.dst),
				       st->Ist.Exit.guard, layout->offset_SP, False);
			break;
		case Ist_LLSC:
			if (st->Ist.LLSC.storedata == NULL) /* load-linked */
				cgt_count_end_segment(&s);
			break;
		default:
			break;
		}
		addStmtToIRSB(s.out, st);
	}
	cgt_count_end_segment(&s);
	cgt_calls_exit(s.out, cur, in->jumpkind, in->next, NULL, layout->offset_SP, True);
	tl_assert(s.n_done == n);
	return s.out;
}

/* A translation is thrown away (code unmapped or changed, or the
 * translation table full): keep what it counted. */
static void cgt_discard_superblock_info(Addr orig_addr, VexGuestExtents vge)
{
	tl_assert(vge.n_used > 0);
	cgt_sb_discard(vge.base[0]);
	cgt_calls_code_changed();
}

/* ---- start and end ------------------------------------------------------------ */

static void cgt_post_clo_init(void)
{
	cgt_ctx_init();
	cgt_live_post_clo_init();
	cgt_sim_setup();
	cgt_threads_init();
	cgt_calls_init();
	cgt_time_init();
}

static void add_ir(struct cgt_insn *n, void *arg)
{
	*(ULong *)arg += n->cost[CGT_EV_IR];
}

static void cgt_fini(Int exitcode)
{
	cgt_use_flush(); /* the lines still present: counted as they leave */
	cgt_sb_fold_all();
	cgt_threads_sum();
	cgt_calls_unwind_all();
	/* expanded now, not at start-up: a forked child writes its own file */
	HChar *path = cgt_out_path();
	Bool ok = cgt_dump(path, "Program termination");
	if (VG_(clo_verbosity) > 0) {
		ULong ir = 0;
		cgt_insn_foreach(add_ir, &ir);
		VG_(umsg)("I refs:      %'llu\n", ir);
		if (ok)
			VG_(umsg)("profile:     %s\n", path);
	}
	VG_(free)(path);
	cgt_live_fini();
}

static void cgt_pre_clo_init(void)
{
	VG_(details_name)("cgtui");
	VG_(details_version)(CGTUI_VERSION);
	VG_(details_description)("the recorder of cgtui, a profile explorer");
	VG_(details_copyright_author)("Copyright (C) the cgtui authors; GNU GPL'd");
	VG_(details_bug_reports_to)("the cgtui authors");
	VG_(details_avg_translation_sizeB)(500);

	/* as cachegrind: precise stack pointer at memory accesses, the rest of
	 * the guest state only at block ends */
	VG_(clo_vex_control).iropt_register_updates_default = VG_(clo_px_file_backed) =
		VexRegUpdSpAtMemAccess;

	VG_(basic_tool_funcs)(cgt_post_clo_init, cgt_instrument, cgt_fini);
	VG_(needs_superblock_discards)(cgt_discard_superblock_info);
	VG_(needs_command_line_options)(cgt_process_cmd_line_option, cgt_print_usage,
					cgt_print_debug_usage);
	cgt_live_pre_clo_init();
}

VG_DETERMINE_INTERFACE_VERSION(cgt_pre_clo_init)
