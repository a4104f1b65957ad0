/* tool_sim.c -- the tool with --cache-sim=yes or --branch-sim=yes: the
 * events, the choice of caches, the helpers that call src/sim, and the
 * instrumenter that queues memory and branch events as cachegrind 3.19
 * does, so that the simulators see the same accesses in the same order.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "sim/branch.h"
#include "sim/cache.h"
#include "tool.h"

Bool cgt_clo_cache_sim = False;
Bool cgt_clo_branch_sim = False;

UInt cgt_n_events = 1;
UInt cgt_seg_events = 1u << CGT_EV_IR;
const HChar *cgt_event_name[CGT_EV_MAX] = { "Ir" };

/* indices in cgt_insn.cost of the events that are on */
/* Indices in cgt_insn.cost, fixed so that the helpers add at constant
 * offsets: the cache events come right after Ir, the branch events after
 * them, or right after Ir without the cache simulation (BR = where they
 * start: the helpers for branches come in both variants). */
enum {
	ev_dr = 1, ev_dw, ev_i1mr, ev_d1mr, ev_d1mw, ev_ilmr, ev_dlmr, ev_dlmw,
	BR_AFTER_CACHE = 9, BR_ALONE = 1
};
enum { ev_bc, ev_bcm, ev_bi, ev_bim }; /* relative to BR */

static struct sim_hier hier;
static struct sim_branch branch;
static struct sim_geom geom[3];     /* I1, D1, LL simulated */
static struct sim_geom clo_geom[3]; /* from --I1, --D1, --LL */
static Bool clo_given[3];
static UInt min_line_size;

static void fill_cond_step(void);

/* ---- options ----------------------------------------------------------------- */

static Bool parse_u32(const HChar *s, HChar end, const HChar **next, UInt *v)
{
	HChar *e;
	Long x = VG_(strtoll10)(s, &e);
	if (e == s || *e != end || x < 0 || x > 0x7fffffffLL)
		return False;
	*v = (UInt)x;
	*next = e + 1;
	return True;
}

Bool cgt_sim_option(const HChar *arg)
{
	static const HChar *const names[3] = { "--I1=", "--D1=", "--LL=" };
	const HChar *val = NULL;
	Int which = -1;

	for (Int i = 0; i < 3; i++)
		if (VG_(strncmp)(arg, names[i], 5) == 0) {
			which = i;
			val = arg + 5;
		}
	if (which < 0 && VG_(strncmp)(arg, "--L2=", 5) == 0) { /* the old name */
		which = 2;
		val = arg + 5;
	}
	if (which < 0)
		return False;

	struct sim_geom g;
	const HChar *p = val;
	if (!parse_u32(p, ',', &p, &g.size) || !parse_u32(p, ',', &p, &g.assoc) ||
	    !parse_u32(p, '\0', &p, &g.line_size)) {
		VG_(fmsg_bad_option)(arg, "Bad argument '%s' (SIZE,ASSOCIATIVITY,LINE_SIZE)\n", val);
		return True;
	}
	enum sim_err e = sim_geom_check(&g);
	if (e != SIM_OK) {
		VG_(fmsg_bad_option)(arg, "%s\n", sim_strerror(e));
		return True;
	}
	clo_geom[which] = g;
	clo_given[which] = True;
	return True;
}

void cgt_sim_usage(void)
{
	VG_(printf)("    --I1=<size>,<assoc>,<line_size>  set I1 cache manually\n"
		    "    --D1=<size>,<assoc>,<line_size>  set D1 cache manually\n"
		    "    --LL=<size>,<assoc>,<line_size>  set LL cache manually\n");
}

/* ---- set-up ------------------------------------------------------------------- */

static void fallback_geometry(struct sim_geom fb[3])
{
#if defined(VGA_arm) || defined(VGA_arm64)
	const struct sim_geom g[3] = { SIM_FALLBACK_ARM_I1, SIM_FALLBACK_ARM_D1,
				       SIM_FALLBACK_ARM_LL };
#elif defined(VGA_s390x)
	const struct sim_geom g[3] = { { 65536, 4, 256 }, { 131072, 8, 256 },
				       { 50331648, 24, 256 } };
#elif defined(VGA_mips32) || defined(VGA_mips64) || defined(VGA_nanomips)
	const struct sim_geom g[3] = { { 32768, 4, 32 }, { 32768, 4, 32 }, { 524288, 8, 32 } };
#else
	const struct sim_geom g[3] = { SIM_FALLBACK_X86_I1, SIM_FALLBACK_X86_D1,
				       SIM_FALLBACK_X86_LL };
#endif
	for (Int i = 0; i < 3; i++)
		fb[i] = g[i];
}

static unsigned lo_zero_bits(void)
{
#if defined(VGA_x86) || defined(VGA_amd64)
	return 0;
#elif defined(VGA_arm) || defined(VGA_s390x)
	return 1;
#else
	return 2;
#endif
}

/* cachegrind's order: detected (or fallback) caches, LL adjusted, checked
 * (fatal unless replaced on the command line), replaced by --I1/--D1/--LL */
static void setup_caches(void)
{
	static const HChar *const label[3] = { "I1", "D1", "LL" };
	VexArch arch;
	VexArchInfo vai;
	VG_(machine_get_VexArchInfo)(&arch, &vai);
	const VexCacheInfo *ci = &vai.hwcache_info;

	struct sim_detected *det = NULL;
	if (ci->num_caches)
		det = VG_(malloc)("cgtui.sim.det", ci->num_caches * sizeof(*det));
	for (UInt i = 0; i < ci->num_caches; i++) {
		const VexCache *c = &ci->caches[i];
		det[i].kind = c->kind == INSN_CACHE   ? SIM_KIND_INSN :
			      c->kind == DATA_CACHE   ? SIM_KIND_DATA :
							SIM_KIND_UNIFIED;
		det[i].level = c->level;
		det[i].size = c->sizeB;
		det[i].assoc = c->assoc;
		det[i].line_size = c->line_sizeB;
		det[i].is_trace_cache = c->is_trace_cache;
	}
	struct sim_geom fb[3];
	fallback_geometry(fb);
	unsigned flags = sim_pick_caches(det, ci->num_caches, ci->num_levels, fb, geom);
	if (det)
		VG_(free)(det);
	Bool all_given = clo_given[0] && clo_given[1] && clo_given[2];
	if (flags & SIM_PICK_NO_LL)
		VG_(dmsg)("warning: L2 cache not installed, ignore LL results.\n");
	if (flags & SIM_PICK_DEEP_LL)
		VG_(dmsg)("warning: L%u cache found, using its data for the LL simulation.\n",
			  ci->num_levels);
	if ((flags & SIM_PICK_FALLBACK) && !all_given)
		VG_(dmsg)("Warning: Cannot auto-detect cache config, using defaults.\n");

	struct sim_geom before = geom[2];
	if (sim_geom_tweak_ll(&geom[2])) {
		VG_(dmsg)("warning: specified LL cache: line_size %u  assoc %u  total_size %'u\n",
			  before.line_size, before.assoc, before.size);
		VG_(dmsg)("warning: simulated LL cache: line_size %u  assoc %u  total_size %'u\n",
			  geom[2].line_size, geom[2].assoc, geom[2].size);
	}
	for (Int i = 0; i < 3; i++) {
		enum sim_err e = sim_geom_check(&geom[i]);
		if (e != SIM_OK && !clo_given[i]) {
			VG_(umsg)("Error: Incorrect %s cache configuration: %s\n", label[i],
				  sim_strerror(e));
			VG_(umsg)("Please specify a valid %s cache configuration using the --%s "
				  "option\n",
				  label[i], label[i]);
			VG_(exit)(1);
		}
	}
	for (Int i = 0; i < 3; i++)
		if (clo_given[i])
			geom[i] = clo_geom[i];

	struct sim_hier_cfg cfg;
	sim_cfg_cachegrind(&cfg, &geom[0], &geom[1], &geom[2]);
	SizeT size = sim_hier_mem_size(&cfg);
	/* sets aligned to the host's cache lines: a set of 8 tags then fills one */
	HChar *raw = VG_(malloc)("cgtui.sim.tags", size + 63);
	void *mem = (void *)(((Addr)raw + 63) & ~(Addr)63);
	enum sim_err e = sim_hier_init(&hier, &cfg, mem, size);
	if (e != SIM_OK) {
		VG_(umsg)("cgtui: cannot set up the caches: %s\n", sim_strerror(e));
		VG_(exit)(1);
	}
	min_line_size = sim_hier_min_line(&hier);
	Int largest = VG_(machine_get_size_of_largest_guest_register)();
	if ((Int)min_line_size < largest) {
		VG_(umsg)("cgtui: cannot continue: the minimum line size (%u)\n", min_line_size);
		VG_(umsg)("  must be equal to or larger than the maximum register size (%d)\n",
			  largest);
		VG_(umsg)("  but it is not.  Exiting now.\n");
		VG_(exit)(1);
	}
}

void cgt_sim_setup(void)
{
	static const HChar *const cache_ev[8] = { "Dr",	  "Dw",	  "I1mr", "D1mr",
						  "D1mw", "ILmr", "DLmr", "DLmw" };
	static const HChar *const branch_ev[4] = { "Bc", "Bcm", "Bi", "Bim" };
	UInt n = 1;

	if (cgt_clo_cache_sim) {
		tl_assert(n == ev_dr);
		for (Int i = 0; i < 8; i++)
			cgt_event_name[n++] = cache_ev[i];
		setup_caches();
		cgt_seg_events |= 1u << ev_dr | 1u << ev_dw;
	}
	if (cgt_clo_branch_sim) {
		tl_assert(n == (cgt_clo_cache_sim ? BR_AFTER_CACHE : BR_ALONE));
		for (Int i = 0; i < 4; i++)
			cgt_event_name[n++] = branch_ev[i];
		sim_branch_init(&branch, lo_zero_bits());
		fill_cond_step();
		cgt_seg_events |= 1u << (n - 4 + ev_bc) | 1u << (n - 4 + ev_bi);
	}
	cgt_n_events = n;
}

static void desc_cache(void (*put)(const HChar *, void *), void *arg, const HChar *label,
		       const struct sim_geom *g)
{
	HChar line[128];
	if (g->assoc == 1)
		VG_(snprintf)(line, sizeof(line), "%s cache: %u B, %u B, direct-mapped", label,
			      g->size, g->line_size);
	else
		VG_(snprintf)(line, sizeof(line), "%s cache: %u B, %u B, %u-way associative",
			      label, g->size, g->line_size, g->assoc);
	put(line, arg);
}

void cgt_sim_desc(void (*put)(const HChar *line, void *arg), void *arg)
{
	if (!cgt_clo_cache_sim)
		return;
	desc_cache(put, arg, "I1", &geom[0]);
	desc_cache(put, arg, "D1", &geom[1]);
	desc_cache(put, arg, "LL", &geom[2]);
}

/* ---- helpers, called from the instrumented code --------------------------------- */

/* One event of an instruction, in its cost and in the running total */
#define CGT_COUNT(n, ev)                                                      \
	do {                                                                  \
		if (cgt_clo_separate_threads)                                 \
			cgt_cur_tcost[(SizeT)(n)->id * cgt_n_events + (ev)]++; \
		else                                                          \
			(n)->cost[ev]++;                                      \
		cgt_tot[ev]++;                                                \
	} while (0)

/* The hierarchy has cachegrind's shape (sim_cfg_cachegrind): I1 and D1,
 * each followed by LL.  Looking the two levels up here, rather than through
 * sim_access's walk of the links, lets the compiler inline the lookups into
 * the helpers; the result is the same. */
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
static VG_REGPARM(1) void h_ir(struct cgt_insn *n)
{
	count_misses(n, access2(&hier.level[SIM_I1], n->addr, (UChar)n->len), ev_i1mr, ev_ilmr);
}

/* Two or three fetches in a row, or a fetch and its instruction's first
 * data access, in one call: fewer calls, the same order of accesses. */
static VG_REGPARM(2) void h_2ir(struct cgt_insn *n, struct cgt_insn *n2)
{
	h_ir(n);
	h_ir(n2);
}

static VG_REGPARM(3) void h_3ir(struct cgt_insn *n, struct cgt_insn *n2, struct cgt_insn *n3)
{
	h_ir(n);
	h_ir(n2);
	h_ir(n3);
}

/* The rest of a fetch whose inline check (add_inline_fetch) found its line
 * not the most recent of its set. */
static VG_REGPARM(1) void h_ir_slow(struct cgt_insn *n)
{
	count_misses(n, access2_slow(&hier.level[SIM_I1], n->addr, (UChar)n->len), ev_i1mr,
		     ev_ilmr);
}

static VG_REGPARM(3) void h_dr(struct cgt_insn *n, Addr a, UWord size);
static VG_REGPARM(3) void h_dw(struct cgt_insn *n, Addr a, UWord size);

static VG_REGPARM(3) void h_ir_dr(struct cgt_insn *n, Addr a, UWord size)
{
	h_ir(n);
	h_dr(n, a, size);
}

static VG_REGPARM(3) void h_ir_dw(struct cgt_insn *n, Addr a, UWord size)
{
	h_ir(n);
	h_dw(n, a, size);
}

/* A load, or a load and a store of the same place (a "modify"): its misses
 * (Dr itself is counted with the segment that holds it). */
static VG_REGPARM(3) void h_dr(struct cgt_insn *n, Addr a, UWord size)
{
	count_misses(n, access2(&hier.level[SIM_D1], a, (UChar)size), ev_d1mr, ev_dlmr);
}

static VG_REGPARM(3) void h_dw(struct cgt_insn *n, Addr a, UWord size)
{
	count_misses(n, access2(&hier.level[SIM_D1], a, (UChar)size), ev_d1mw, ev_dlmw);
}

/* A guarded load or store, called under its guard: it counts itself. */
static VG_REGPARM(3) void h_dr_guarded(struct cgt_insn *n, Addr a, UWord size)
{
	CGT_COUNT(n, ev_dr);
	h_dr(n, a, size);
}

static VG_REGPARM(3) void h_dw_guarded(struct cgt_insn *n, Addr a, UWord size)
{
	CGT_COUNT(n, ev_dw);
	h_dw(n, a, size);
}

/* The rest of a data access whose inline check (add_inline_data) found no
 * most-recent hit: the lookup, and the misses counted. */
/* (the instruction and the size in one argument: fewer to pass) */
struct data_ref {
	struct cgt_insn *insn;
	UWord size;
};

static VG_REGPARM(2) void h_dr_slow(const struct data_ref *r, Addr a)
{
	count_misses(r->insn, access2_slow(&hier.level[SIM_D1], a, (UChar)r->size), ev_d1mr,
		     ev_dlmr);
}

static VG_REGPARM(2) void h_dw_slow(const struct data_ref *r, Addr a)
{
	count_misses(r->insn, access2_slow(&hier.level[SIM_D1], a, (UChar)r->size), ev_d1mw,
		     ev_dlmw);
}

/* A conditional branch (taken or not) and an indirect one (its target),
 * with the branch events starting at BR: the mispredictions (Bc and Bi are
 * counted with the segments). */
#define BRANCH_HELPERS(BR, bc, bi)                                            \
	static VG_REGPARM(2) void bc(struct cgt_insn *n, UWord taken)         \
	{                                                                     \
		if (sim_cond_branch(&branch, n->addr, taken & 1))             \
			CGT_COUNT(n, (BR) + ev_bcm);                          \
	}                                                                     \
	static VG_REGPARM(2) void bi(struct cgt_insn *n, UWord target)        \
	{                                                                     \
		if (sim_ind_branch(&branch, n->addr, target))                 \
			CGT_COUNT(n, (BR) + ev_bim);                          \
	}

BRANCH_HELPERS(BR_AFTER_CACHE, h_bc, h_bi)
BRANCH_HELPERS(BR_ALONE, h_bc_alone, h_bi_alone)

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
	IRExpr *d1_tags;      /* the D1 tags' address, loaded once per block */
};

/* the D1 tags' address, read by the translated code: a register then, not
 * a 64-bit constant to load before every check */
static uintptr_t *d1_tags;

static void call(IRSB *out, const HChar *name, void *fn, Int regparms, IRExpr **args,
		 IRExpr *guard)
{
	IRDirty *di = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);
	if (guard)
		di->guard = guard;
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

static IRExpr *tmp(IRSB *out, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(out->tyenv, ty);
	addStmtToIRSB(out, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

/* Can a data access be checked inline?  A 64-bit host, and a D1 of more
 * than one set (see add_inline_data). */
static Bool inline_data(void)
{
	return sizeof(HWord) == 8 && hier.level[SIM_D1].set_mask != 0;
}

/* A data access checked in the translation itself: when it stays in one
 * line that is the most recent of its D1 set (sim_level_mru_hit, with the
 * geometry as constants), it is a hit that changes nothing; only otherwise
 * is the helper called, under that guard. */
static void add_inline_data(struct sim_state *s, const struct event *e, Bool write)
{
	IRSB *out = s->out;
	const struct sim_level *d1 = &hier.level[SIM_D1];
	const UInt lb = d1->line_bits;
	IRExpr *bits = IRExpr_Const(IRConst_U8((UChar)lb));
	IRExpr *blk = tmp(out, Ity_I64, IRExpr_Binop(Iop_Shr64, e->atom, bits));
	/* the block the access ends in */
	IRExpr *lastb = e->size == 1 ? blk
			: tmp(out, Ity_I64,
			      IRExpr_Binop(Iop_Shr64,
					   tmp(out, Ity_I64,
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
		IRExpr *set = tmp(out, Ity_I64,
				  IRExpr_Binop(Iop_And64, blk, IRExpr_Const(IRConst_U64(d1->set_mask))));
		off = tmp(out, Ity_I64, IRExpr_Binop(Iop_Mul64, set, IRExpr_Const(IRConst_U64(stride))));
	} else {
		IRExpr *moved = shift == lb ? e->atom
				: tmp(out, Ity_I64,
				      shift < lb ? IRExpr_Binop(Iop_Shr64, e->atom,
								IRExpr_Const(IRConst_U8((UChar)(lb - shift))))
						 : IRExpr_Binop(Iop_Shl64, e->atom,
								IRExpr_Const(IRConst_U8((UChar)(shift - lb)))));
		off = tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, moved,
						     IRExpr_Const(IRConst_U64((ULong)d1->set_mask << shift))));
	}
	if (!s->d1_tags) {
		d1_tags = d1->tags;
		s->d1_tags = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, mkIRExpr_HWord((HWord)&d1_tags)));
	}
	IRExpr *tp = tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, s->d1_tags, off));
	IRExpr *tag = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, tp));
	/* The first tag of the access's first set compared with the block the
	 * access ends in: with more than one set (inline_data), a tag there is
	 * never the next block (which belongs to the next set), so an access
	 * that spans two lines always fails the check and gets the full
	 * lookup. */
	IRExpr *miss = tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, tag, lastb));
	struct data_ref *r = cgt_perm_alloc(sizeof(*r));
	r->insn = e->insn;
	r->size = e->size;
	IRExpr **args = mkIRExprVec_2(mkIRExpr_HWord((HWord)r), e->atom);
	if (write)
		call(out, "h_dw_slow", h_dw_slow, 2, args, miss);
	else
		call(out, "h_dr_slow", h_dr_slow, 2, args, miss);
}

/* A fetch checked in the translation itself, as a data access is: its
 * address is a constant there, so is the place of the first tag of its
 * set; the helper is called only when that tag is not its line's.  An
 * instruction that spans two lines is not checked so (False). */
static Bool add_inline_fetch(IRSB *out, struct cgt_insn *n)
{
	const struct sim_level *i1 = &hier.level[SIM_I1];
	Addr blk = n->addr >> i1->line_bits;
	if (sizeof(HWord) != 8 || (n->addr + (UChar)n->len - 1) >> i1->line_bits != blk)
		return False;
	const uintptr_t *tp = &i1->tags[(SizeT)(blk & i1->set_mask) * i1->assoc];
	IRExpr *tag = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, mkIRExpr_HWord((HWord)tp)));
	IRExpr *miss = tmp(out, Ity_I1,
			   IRExpr_Binop(Iop_CmpNE64, tag, IRExpr_Const(IRConst_U64((ULong)blk))));
	call(out, "h_ir_slow", h_ir_slow, 1, mkIRExprVec_1(mkIRExpr_HWord((HWord)n)), miss);
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

static void fill_cond_step(void)
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
	IRExpr *old = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, p));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, p,
					tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, v))));
}

/* CGT_COUNT in IR: event ev of instruction n grows by v (0 or 1), in its
 * cost (or the running thread's table) and in the running total. */
static void count_inline(struct sim_state *s, struct cgt_insn *n, UInt ev, IRExpr *v)
{
	IRSB *out = s->out;
	if (cgt_clo_separate_threads) {
		IRExpr *base = tmp(out, Ity_I64,
				   IRExpr_Load(CGT_END, Ity_I64, cgt_count_addr(&s->cnt, &cgt_cur_tcost)));
		ULong off = ((ULong)n->id * cgt_n_events + ev) * sizeof(ULong);
		add_to(out, tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, base, IRExpr_Const(IRConst_U64(off)))),
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
	IRExpr *t = tmp(out, Ity_I32, IRExpr_Unop(Iop_64to32, taken));
	IRExpr *hp = cgt_count_addr(&s->cnt, &branch.history);
	IRExpr *h = tmp(out, Ity_I32, IRExpr_Load(CGT_END, Ity_I32, hp));
	UInt a = (UInt)(n->addr >> branch.lo_zero_bits) & addr_mask;
	IRExpr *idx = tmp(out, Ity_I32,
			  IRExpr_Binop(Iop_Or32,
				       tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, h,
								      IRExpr_Const(IRConst_U8(SIM_BR_ADDR_BITS)))),
				       c32(a)));
	IRExpr *cp = tmp(out, Ity_I64,
			 IRExpr_Binop(Iop_Add64, cgt_count_addr(&s->cnt, branch.counter),
				      tmp(out, Ity_I64, IRExpr_Unop(Iop_32Uto64, idx))));
	IRExpr *c = tmp(out, Ity_I32,
			IRExpr_Unop(Iop_8Uto32, tmp(out, Ity_I8, IRExpr_Load(CGT_END, Ity_I8, cp))));
	IRExpr *i2 = tmp(out, Ity_I32,
			 IRExpr_Binop(Iop_Or32,
				      tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, c, IRExpr_Const(IRConst_U8(1)))),
				      t));
	IRExpr *sp = tmp(out, Ity_I64,
			 IRExpr_Binop(Iop_Add64, cgt_count_addr(&s->cnt, cond_step),
				      tmp(out, Ity_I64, IRExpr_Unop(Iop_32Uto64, i2))));
	IRExpr *v = tmp(out, Ity_I32,
			IRExpr_Unop(Iop_8Uto32, tmp(out, Ity_I8, IRExpr_Load(CGT_END, Ity_I8, sp))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, cp,
					tmp(out, Ity_I8, IRExpr_Unop(Iop_32to8,
								     tmp(out, Ity_I32, IRExpr_Binop(Iop_And32, v, c32(3)))))));
	IRExpr *nh = tmp(out, Ity_I32,
			 IRExpr_Binop(Iop_Or32,
				      tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, h, IRExpr_Const(IRConst_U8(1)))),
				      t));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, hp,
					tmp(out, Ity_I32, IRExpr_Binop(Iop_And32, nh, c32(hist_mask)))));
	IRExpr *miss = tmp(out, Ity_I64,
			   IRExpr_Unop(Iop_32Uto64,
				       tmp(out, Ity_I32, IRExpr_Binop(Iop_Shr32, v, IRExpr_Const(IRConst_U8(2))))));
	count_inline(s, n, bcm, miss);
}

/* sim_ind_branch for the indirect branch of instruction n to `target` */
static void add_inline_bi(struct sim_state *s, struct cgt_insn *n, IRExpr *target, UInt bim)
{
	IRSB *out = s->out;
	uintptr_t *slot = &branch.btac[(n->addr >> branch.lo_zero_bits) & (SIM_BTAC_SIZE - 1)];
	IRExpr *sp = cgt_count_addr(&s->cnt, slot);
	IRExpr *old = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, sp));
	IRExpr *miss = tmp(out, Ity_I64,
			   IRExpr_Unop(Iop_1Uto64, tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, old, target))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, sp, target));
	count_inline(s, n, bim, miss);
}

/* Calls the helpers for what is queued, in order, and counts the queued
 * instructions' Ir (one inline increment). */
static void flush(struct sim_state *s)
{
	for (Int i = 0; i < s->n; i++) {
		struct event *e = &s->q[i];
		IRExpr *insn = mkIRExpr_HWord((HWord)e->insn);
		const struct event *e2 = i + 1 < s->n ? &s->q[i + 1] : NULL;
		const struct event *e3 = i + 2 < s->n ? &s->q[i + 2] : NULL;
		if (e->kind == EV_IR && !e->fetch)
			continue; /* a fetch that must hit: nothing to simulate */
		if (e->kind == EV_IR && add_inline_fetch(s->out, e->insn))
			continue;
		if (e->kind == EV_IR && e2) {
			if (e2->kind == EV_DR || e2->kind == EV_DM || e2->kind == EV_DW) {
				tl_assert(e2->insn == e->insn);
				Bool w = e2->kind == EV_DW;
				call(s->out, w ? "h_ir_dw" : "h_ir_dr", w ? h_ir_dw : h_ir_dr, 3,
				     mkIRExprVec_3(insn, e2->atom, mkIRExpr_HWord(e2->size)), NULL);
				i++;
				continue;
			}
			if (e2->kind == EV_IR && e2->fetch && e3 && e3->kind == EV_IR && e3->fetch) {
				call(s->out, "h_3ir", h_3ir, 3,
				     mkIRExprVec_3(insn, mkIRExpr_HWord((HWord)e2->insn),
						   mkIRExpr_HWord((HWord)e3->insn)),
				     NULL);
				i += 2;
				continue;
			}
			if (e2->kind == EV_IR && e2->fetch) {
				call(s->out, "h_2ir", h_2ir, 2,
				     mkIRExprVec_2(insn, mkIRExpr_HWord((HWord)e2->insn)), NULL);
				i++;
				continue;
			}
		}
		switch (e->kind) {
		case EV_IR:
			call(s->out, "h_ir", h_ir, 1, mkIRExprVec_1(insn), NULL);
			break;
		case EV_DR:
		case EV_DM:
			if (inline_data())
				add_inline_data(s, e, False);
			else
				call(s->out, "h_dr", h_dr, 3,
				     mkIRExprVec_3(insn, e->atom, mkIRExpr_HWord(e->size)), NULL);
			break;
		case EV_DW:
			if (inline_data())
				add_inline_data(s, e, True);
			else
				call(s->out, "h_dw", h_dw, 3,
				     mkIRExprVec_3(insn, e->atom, mkIRExpr_HWord(e->size)), NULL);
			break;
		case EV_BC:
			if (inline_branch())
				add_inline_bc(s, e->insn, e->atom,
					      (cgt_clo_cache_sim ? BR_AFTER_CACHE : BR_ALONE) + ev_bcm);
			else if (cgt_clo_cache_sim)
				call(s->out, "h_bc", h_bc, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else
				call(s->out, "h_bc_alone", h_bc_alone, 2,
				     mkIRExprVec_2(insn, e->atom), NULL);
			break;
		case EV_BI:
			if (inline_branch())
				add_inline_bi(s, e->insn, e->atom,
					      (cgt_clo_cache_sim ? BR_AFTER_CACHE : BR_ALONE) + ev_bim);
			else if (cgt_clo_cache_sim)
				call(s->out, "h_bi", h_bi, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else
				call(s->out, "h_bi_alone", h_bi_alone, 2,
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
	UInt br = cgt_clo_cache_sim ? BR_AFTER_CACHE : BR_ALONE;
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
	tl_assert(isIRAtom(ea) && size >= 1 && size <= min_line_size);
	struct event *e = queue(s, EV_DR, n);
	e->atom = ea;
	e->size = size;
}

static void add_dw(struct sim_state *s, struct cgt_insn *n, UInt size, IRExpr *ea)
{
	if (!cgt_clo_cache_sim)
		return;
	tl_assert(isIRAtom(ea) && size >= 1 && size <= min_line_size);
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
	tl_assert(isIRAtom(ea) && isIRAtom(guard) && size >= 1 && size <= min_line_size);
	flush(s);
	IRExpr **args = mkIRExprVec_3(mkIRExpr_HWord((HWord)n), ea, mkIRExpr_HWord(size));
	if (write)
		call(s->out, "h_dw_guarded", h_dw_guarded, 3, args, guard);
	else
		call(s->out, "h_dr_guarded", h_dr_guarded, 3, args, guard);
}

static UInt clamp(UInt size)
{
	return size > min_line_size ? min_line_size : size;
}

/* An instruction: its fetch is queued, and simulated unless it must hit.
 * A fetch that lies in the line the previous fetch of this superblock ended
 * in must: that line is the most recent of its set, and nothing else
 * fetches in between (a superblock runs without interruption; data
 * accesses go to D1, and LL is only asked on a miss).  Cachegrind looks it
 * up all the same and finds the hit without changing anything.  It is
 * still queued (and its Ir counted at the flush), so that the queue is
 * flushed where cachegrind's is. */
static void add_ir(struct sim_state *s, struct cgt_insn *n)
{
	struct event *e = queue(s, EV_IR, n);
	cgt_count_insn(&s->cnt, n);
	if (!cgt_clo_cache_sim)
		return;
	const struct sim_level *i1 = &hier.level[SIM_I1];
	Addr first = n->addr >> i1->line_bits;
	Addr last = (n->addr + (UChar)n->len - 1) >> i1->line_bits;
	e->fetch = !(s->have_line && first == s->last_line && last == s->last_line);
	s->have_line = True;
	s->last_line = last;
}

IRSB *cgt_sim_instrument(IRSB *in, IRType hWordTy, Int offset_SP, Addr key)
{
	struct sim_state s;
	IRTypeEnv *tyenv = in->tyenv;
	struct cgt_insn *cur = NULL;
	Addr hint = 0;
	Addr cia = 0;
	UInt isize = 0;
	Int i = 0;

	s.out = deepCopyIRSBExceptStmts(in);
	s.n = 0;
	s.have_line = False;
	s.last_line = 0;
	s.d1_tags = NULL;
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
			/* VEX followed a direct call or jump: what is queued is
			 * counted before a call is pushed */
			if (prev && prev->addr + prev->len != cia &&
			    cgt_calls_chased(s.out, prev, cur, hint == cia, offset_SP, flush_cb, &s))
				cgt_count_new_region(&s.cnt);
			hint = 0;
			add_ir(&s, cur);
			break;
		case Ist_WrTmp:
			if (st->Ist.WrTmp.data->tag == Iex_Load) {
				IRExpr *ld = st->Ist.WrTmp.data;
				add_dr(&s, cur, sizeofIRType(ld->Iex.Load.ty), ld->Iex.Load.addr);
			}
			break;
		case Ist_Store:
			add_dw(&s, cur, sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)),
			       st->Ist.Store.addr);
			break;
		case Ist_StoreG: {
			IRStoreG *sg = st->Ist.StoreG.details;
			add_guarded(&s, cur, sizeofIRType(typeOfIRExpr(tyenv, sg->data)), sg->addr,
				    sg->guard, True);
			break;
		}
		case Ist_LoadG: {
			IRLoadG *lg = st->Ist.LoadG.details;
			IRType loaded = Ity_INVALID, widened = Ity_INVALID;
			typeOfIRLoadGOp(lg->cvt, &widened, &loaded);
			tl_assert(loaded != Ity_INVALID);
			add_guarded(&s, cur, sizeofIRType(loaded), lg->addr, lg->guard, False);
			break;
		}
		case Ist_Dirty: {
			IRDirty *d = st->Ist.Dirty.details;
			if (d->mFx != Ifx_None) {
				/* big accesses (fxsave and the like) are counted as
				 * one line's worth, as cachegrind does */
				UInt size = clamp(d->mSize);
				if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
					add_dr(&s, cur, size, d->mAddr);
				if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
					add_dw(&s, cur, size, d->mAddr);
			}
			break;
		}
		case Ist_CAS: {
			IRCAS *cas = st->Ist.CAS.details;
			UInt size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
			if (cas->dataHi)
				size *= 2;
			size = clamp(size);
			add_dr(&s, cur, size, cas->addr);
			add_dw(&s, cur, size, cas->addr);
			break;
		}
		case Ist_LLSC:
			if (st->Ist.LLSC.storedata == NULL) {
				add_dr(&s, cur, sizeofIRType(typeOfIRTemp(tyenv, st->Ist.LLSC.result)),
				       st->Ist.LLSC.addr);
				flush(&s);
			} else {
				add_dw(&s, cur,
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
					queue(&s, EV_BC, cur)->atom = IRExpr_RdTmp(g);
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
		queue(&s, EV_BI, cur)->atom = in->next;
	flush(&s);
	cgt_calls_exit(s.out, cur, in->jumpkind, in->next, NULL, offset_SP, True);
	return s.out;
}
