/* tool_mrc.c -- --cache-mrc=yes: the reuse distances of sampled data
 * accesses (src/sim/mrc.c), per function and for the whole run, and the
 * curves written after the costs.
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

/* ---- miss-ratio curves (--cache-mrc) ---------------------------------------------
 * The reuse distance of the data accesses to sampled lines (src/sim/mrc.h),
 * into a histogram of the whole run and one per function (by name). */
static struct sim_mrc mrc;
Bool cgt_mrc_on;
static uint64_t mrc_hist[SIM_MRC_NBUCKETS];
static uint64_t **mrc_fn_hist; /* [mrc_nfn]: NULL until the function has a sample */
static UInt mrc_nfn;
static ULong mrc_samples;

void cgt_mrc_setup(void)
{
	/* lines of the first model's L1D */
	UInt bits = cgt_models[0].h.level[cgt_models[0].h.dentry].line_bits;
	UInt lines = (UInt)cgt_clo_mrc_lines;
	void *mem = VG_(malloc)("cgtui.mrc", sim_mrc_mem_size(lines));
	sim_mrc_init(&mrc, bits, (UInt)((ULong)SIM_MRC_ONE * (ULong)cgt_clo_mrc_rate / 100), lines, mem);
	cgt_mrc_on = True;
}

/* An access to a sampled line (the translation checked sim_mrc_sampled) */
static VG_REGPARM(2) void h_mrc(struct cgt_insn *n, Addr a)
{
	uint64_t w;
	unsigned b = sim_mrc_access(&mrc, a, &w);
	if (b >= SIM_MRC_NBUCKETS)
		return;
	mrc_samples++;
	mrc_hist[b] += w;
	if (n->fn >= mrc_nfn) {
		UInt nn = n->fn + 1 > 2 * mrc_nfn ? n->fn + 1 : 2 * mrc_nfn;
		mrc_fn_hist = VG_(realloc)("cgtui.mrc.fn", mrc_fn_hist, nn * sizeof(*mrc_fn_hist));
		for (UInt i = mrc_nfn; i < nn; i++)
			mrc_fn_hist[i] = NULL;
		mrc_nfn = nn;
	}
	if (!mrc_fn_hist[n->fn])
		mrc_fn_hist[n->fn] = VG_(calloc)("cgtui.mrc.h", SIM_MRC_NBUCKETS + 1, sizeof(uint64_t));
	mrc_fn_hist[n->fn][b] += w;
	mrc_fn_hist[n->fn][SIM_MRC_NBUCKETS]++; /* samples */
}

void cgt_mrc_ref(struct cgt_insn *n, Addr a)
{
	if (cgt_mrc_on && sim_mrc_sampled(&mrc, a))
		h_mrc(n, a);
}

/* The sampling check in the translation: the line's hash below the
 * threshold (read at run time: it is halved when the memory is full). */
void cgt_mrc_instrument(IRSB *out, struct cgt_insn *insn, IRExpr *atom)
{
	IRExpr *line = cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Shr64, atom,
						       IRExpr_Const(IRConst_U8((UChar)mrc.line_bits))));
	IRExpr *mul = cgt_ir_tmp(out, Ity_I64, IRExpr_Binop(Iop_Mul64, line,
						      IRExpr_Const(IRConst_U64(0x9E3779B97F4A7C15ULL))));
	IRExpr *h = cgt_ir_tmp(out, Ity_I32, IRExpr_Unop(Iop_64to32, cgt_ir_tmp(out, Ity_I64,
		IRExpr_Binop(Iop_Shr64, mul, IRExpr_Const(IRConst_U8(64 - SIM_MRC_HASH_BITS))))));
	IRExpr *t = cgt_ir_tmp(out, Ity_I32, IRExpr_Load(CGT_END, Ity_I32, mkIRExpr_HWord((HWord)&mrc.threshold)));
	IRExpr *take = cgt_ir_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpLT32U, h, t));
	cgt_ir_call(out, "h_mrc", h_mrc, 2, mkIRExprVec_2(mkIRExpr_HWord((HWord)insn), atom), take);
}

struct mrc_fn_acc {
	ULong *acc; /* [mrc_nfn]: data accesses (Dr + Dw) per function */
	ULong total;
};

static void add_fn_accesses(struct cgt_insn *n, void *arg)
{
	struct mrc_fn_acc *m = arg;
	ULong a = n->cost[ev_dr] + n->cost[ev_dw];
	if (n->fn < mrc_nfn)
		m->acc[n->fn] += a;
	m->total += a;
}

/* A curve: the samples, the data accesses, then the misses of a fully
 * associative LRU cache of 2^0 .. 2^MRC_TOP lines, in accesses (from a
 * histogram adjusted to `accesses`, SHARDS's adjustment) */
#define MRC_TOP 26
static void put_curve(VgFile *fp, const uint64_t *hist, ULong samples, ULong accesses)
{
	uint64_t h[SIM_MRC_NBUCKETS];
	for (UInt b = 0; b < SIM_MRC_NBUCKETS; b++)
		h[b] = hist[b];
	sim_mrc_adjust(h, accesses);
	VG_(fprintf)(fp, " %llu %llu", samples, accesses);
	for (UInt k = 0; k <= MRC_TOP; k++)
		VG_(fprintf)(fp, " %llu",
			     (ULong)((sim_mrc_misses(h, 1ULL << k) + SIM_MRC_WEIGHT_ONE / 2) /
				     SIM_MRC_WEIGHT_ONE));
	VG_(fprintf)(fp, "\n");
}

void cgt_sim_zero(void)
{
	for (UInt c = 0; c < cgt_n_models; c++)
		for (UInt i = 0; i < cgt_models[c].h.nlevels; i++)
			cgt_models[c].h.level[i].writebacks = cgt_models[c].h.level[i].prefetches = 0;
	for (UInt b = 0; b < SIM_MRC_NBUCKETS; b++)
		mrc_hist[b] = 0;
	for (UInt f = 0; f < mrc_nfn; f++)
		if (mrc_fn_hist[f])
			for (UInt b = 0; b <= SIM_MRC_NBUCKETS; b++)
				mrc_fn_hist[f][b] = 0;
	mrc_samples = 0;
}

/* functions with fewer samples get no curve of their own */
#define MRC_MIN_SAMPLES 64

void cgt_sim_trailer(VgFile *fp)
{
	if (!cgt_mrc_on)
		return;
	struct mrc_fn_acc acc = { VG_(calloc)("cgtui.mrc.acc", mrc_nfn + 1, sizeof(ULong)), 0 };
	cgt_insn_foreach(add_fn_accesses, &acc);
	VG_(fprintf)(fp, "# cgtui mrc 1: data accesses, lines of %u B, sizes 2^0 .. 2^%u lines, "
			 "sampling threshold %u of %u\n",
		     1u << mrc.line_bits, MRC_TOP, mrc.threshold, SIM_MRC_ONE);
	VG_(fprintf)(fp, "# mrc-total:");
	put_curve(fp, mrc_hist, mrc_samples, acc.total);
	UInt few = 0;
	for (UInt f = 0; f < mrc_nfn; f++) {
		const uint64_t *h = mrc_fn_hist[f];
		if (!h)
			continue;
		if (h[SIM_MRC_NBUCKETS] < MRC_MIN_SAMPLES) {
			few++;
			continue;
		}
		VG_(fprintf)(fp, "# mrc-fn:");
		put_curve(fp, h, h[SIM_MRC_NBUCKETS], acc.acc[f]);
		VG_(fprintf)(fp, "# mrc-name: fl=%s fn=%s\n", cgt_files.names[cgt_fn_file(f)],
			     cgt_fns.names[f]);
	}
	if (few)
		VG_(fprintf)(fp, "# mrc-few: %u functions with fewer than %u samples\n", few,
			     MRC_MIN_SAMPLES);
	VG_(free)(acc.acc);
}

