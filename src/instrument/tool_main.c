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

static Bool cgt_process_cmd_line_option(const HChar *arg)
{
	if (VG_STR_CLO(arg, "--cgtui-out-file", clo_out_file)) {
	} else if (VG_BOOL_CLO(arg, "--cache-sim", cgt_clo_cache_sim)) {
	} else if (VG_BOOL_CLO(arg, "--branch-sim", cgt_clo_branch_sim)) {
	} else if (cgt_sim_option(arg)) {
	} else if (cgt_live_option(arg)) {
	} else {
		return False;
	}
	return True;
}

static void cgt_print_usage(void)
{
	VG_(printf)("    --cgtui-out-file=<file>   output file name [callgrind.out.%%p]\n"
		    "    --cache-sim=yes|no        simulate caches (as cachegrind) [no]\n"
		    "    --branch-sim=yes|no       simulate branch predictors (as cachegrind) [no]\n");
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

#if defined(VG_BIGENDIAN)
#define CGT_END Iend_BE
#elif defined(VG_LITTLEENDIAN)
#define CGT_END Iend_LE
#else
#error "unknown host endianness"
#endif

struct instr_state {
	IRSB *out;
	struct cgt_sb *sb;
	UInt n_done;  /* instructions entered in sb->insns */
	UInt pending; /* instructions since the last segment's end */
};

/* `*p += 1` in IR, with the counter's address as a constant: no helper
 * call, three host instructions. */
static void add_increment(IRSB *out, ULong *p)
{
	IRTemp old = newIRTemp(out->tyenv, Ity_I64);
	IRTemp new = newIRTemp(out->tyenv, Ity_I64);
	addStmtToIRSB(out, IRStmt_WrTmp(old, IRExpr_Load(CGT_END, Ity_I64,
							   mkIRExpr_HWord((HWord)p))));
	addStmtToIRSB(out, IRStmt_WrTmp(new, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old),
							  IRExpr_Const(IRConst_U64(1)))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, mkIRExpr_HWord((HWord)p), IRExpr_RdTmp(new)));
}

/* Ends the current segment: the instructions since the last end are
 * counted once each time execution gets here. */
static void end_segment(struct instr_state *s)
{
	if (!s->pending)
		return;
	struct cgt_sb *sb = s->sb;
	sb->seg_end[sb->n_segs] = s->n_done;
	add_increment(s->out, &sb->count[sb->n_segs]);
	sb->n_segs++;
	s->pending = 0;
}

static IRSB *cgt_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			    const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
			    IRType gWordTy, IRType hWordTy)
{
	struct instr_state s;
	Int i = 0;

	if (gWordTy != hWordTy)
		VG_(tool_panic)("host/guest word size mismatch");
	tl_assert(closure->readdr == vge->base[0]);
	if (!cgt_instr_on) /* --instr-at-start=no, or stopped by a client request */
		return in;
	if (cgt_clo_cache_sim || cgt_clo_branch_sim)
		return cgt_sim_instrument(in, hWordTy);

	s.out = deepCopyIRSBExceptStmts(in);
	/* What comes before the first IMark is VEX's own (the self-modifying
	 * code check): copied as it is, and never counted. */
	while (i < in->stmts_used && in->stmts[i]->tag != Ist_IMark)
		addStmtToIRSB(s.out, in->stmts[i++]);
	tl_assert(i < in->stmts_used);

	UInt n = 0;
	for (Int j = i; j < in->stmts_used; j++)
		n += in->stmts[j]->tag == Ist_IMark;
	s.sb = cgt_sb_new(vge->base[0], n);
	s.n_done = 0;
	s.pending = 0;

	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		switch (st->tag) {
		case Ist_IMark:
			if (s.pending == CG_QUEUE_LEN)
				end_segment(&s);
			s.sb->insns[s.n_done++] =
				cgt_insn_get(st->Ist.IMark.addr, st->Ist.IMark.len ? st->Ist.IMark.len
										   : VG_MIN_INSTR_SZB);
			s.pending++;
			break;
		case Ist_Exit:
			/* counted before the side exit may leave the block */
			end_segment(&s);
			break;
		case Ist_LLSC:
			if (st->Ist.LLSC.storedata == NULL) /* load-linked */
				end_segment(&s);
			break;
		default:
			break;
		}
		addStmtToIRSB(s.out, st);
	}
	end_segment(&s);
	tl_assert(s.n_done == n);
	return s.out;
}

/* A translation is thrown away (code unmapped or changed, or the
 * translation table full): keep what it counted. */
static void cgt_discard_superblock_info(Addr orig_addr, VexGuestExtents vge)
{
	tl_assert(vge.n_used > 0);
	cgt_sb_discard(vge.base[0]);
}

/* ---- start and end ------------------------------------------------------------ */

static void cgt_post_clo_init(void)
{
	cgt_live_post_clo_init();
	cgt_sim_setup();
}

static void add_ir(struct cgt_insn *n, void *arg)
{
	*(ULong *)arg += n->cost[CGT_EV_IR];
}

static void cgt_fini(Int exitcode)
{
	cgt_sb_fold_all();
	/* expanded now, not at start-up: a forked child writes its own file */
	HChar *path = VG_(expand_file_name)("--cgtui-out-file", clo_out_file);
	Bool ok = cgt_dump(path);
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
