/* tool_ctx.c -- code without a symbol, named and counted as callgrind does.
 *
 * Cachegrind names every instruction without a symbol "???", so a stripped
 * program or library (python3, bzip2's libbz2) is one big function.
 * Callgrind gives each instruction's cost to its thread's current function
 * context -- the function its last call entered (callgrind/bbcc.c: the
 * context is pushed at a call, popped at the return; jumps keep it) -- and
 * names a function without a symbol by the address it was entered at,
 * relative to its object, with a suffix by section kind (callgrind/fn.c,
 * get_fn_node: "%#016lx" and " [Data]", " [BSS]", " [GOT]", " [PLT]").  So
 * each function of a stripped object is a function of its own, code
 * reached by a jump (a tail call) counts in the function that jumped, and
 * a PLT stub's cost is its caller's.
 *
 * The tool keeps cachegrind's attribution for instructions with a symbol
 * (their self costs equal cachegrind's) and callgrind's for those without
 * one: the translated code checks, where such code starts in a
 * translation, which context the thread is in (the name on its shadow
 * stack's top frame, tool_calls.c); while a translation keeps running in
 * the same context its counters count there, and when the context changes
 * its counters are folded first.  A fold gives the costs of each such
 * instruction not yet given to a context to its region's context
 * (cgt_ctx_attribute); the profile lists them under that name
 * (tool_dump.c).
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"

#include "tool.h"

UInt cgt_fn_unnamed = CGT_CTX_NONE;
/* --unnamed=callgrind|cachegrind: with cachegrind, code without a symbol
 * is "???" as before (cgt_fn_unnamed matches no function: nothing here
 * runs, no check is made) */
static Bool clo_unnamed_callgrind = True;

Bool cgt_ctx_option(const HChar *arg)
{
	const HChar *v;
	if (!VG_STR_CLO(arg, "--unnamed", v))
		return False;
	if (VG_(strcmp)(v, "callgrind") == 0)
		clo_unnamed_callgrind = True;
	else if (VG_(strcmp)(v, "cachegrind") == 0)
		clo_unnamed_callgrind = False;
	else
		VG_(fmsg_bad_option)(arg, "expected callgrind or cachegrind\n");
	return True;
}

/* every node, in the order made */
static struct cgt_ctxcost **nodes;
static UInt n_nodes, cap_nodes;

/* The address name of a function without a symbol: callgrind writes the
 * address relative to the object with "%#016lx" (Valgrind's printf pads
 * the digits after "0x": 16 of them on 64-bit hosts, 8 on 32-bit ones). */
static const HChar *sect_suffix(UChar sect)
{
	switch (sect) {
	case Vg_SectData: return " [Data]";
	case Vg_SectBSS: return " [BSS]";
	case Vg_SectGOT: return " [GOT]";
	case Vg_SectPLT: return " [PLT]";
	default: return "";
	}
}

UInt cgt_insn_ctx(struct cgt_insn *n)
{
	if (n->ctx != CGT_CTX_NONE)
		return n->ctx;
	if (!cgt_insn_unnamed(n)) {
		n->ctx = n->fn;
		return n->ctx;
	}
	cgt_insn_flags(n);
	HChar buf[48];
	if (sizeof(Addr) == 4)
		VG_(sprintf)(buf, "0x%08lx%s", (UWord)n->raddr, sect_suffix(n->sect));
	else
		VG_(sprintf)(buf, "0x%016lx%s", (UWord)n->raddr, sect_suffix(n->sect));
	n->ctx = cgt_intern(&cgt_fns, buf);
	cgt_fn_set_own(n->ctx, n->obj, n->file);
	return n->ctx;
}

UInt cgt_ctx_obj(struct cgt_insn *n, UInt ctx)
{
	cgt_insn_flags(n);
	return n->flags & CGT_F_PLT ? cgt_fn_obj(ctx) : n->obj;
}

struct cgt_ctxcost *cgt_ctx_node(struct cgt_insn *n, UInt ctx, ThreadId tid)
{
	struct cgt_ctxcost **pp = &n->ctxs;
	for (struct cgt_ctxcost *c = *pp; c; pp = &c->next, c = c->next)
		if (c->ctx == ctx && c->tid == tid)
			return c;
	SizeT size = sizeof(struct cgt_ctxcost) + cgt_n_events * sizeof(ULong);
	struct cgt_ctxcost *c = cgt_perm_alloc(size);
	VG_(memset)(c, 0, size);
	c->insn = n;
	c->ctx = ctx;
	c->tid = tid;
	if (n_nodes == cap_nodes) {
		cap_nodes = cap_nodes ? 2 * cap_nodes : 1024;
		nodes = VG_(realloc)("cgtui.ctx.nodes", nodes, cap_nodes * sizeof(*nodes));
	}
	c->id = n_nodes;
	nodes[n_nodes++] = c;
	*pp = c; /* at the end: the order contexts were met in */
	return c;
}

struct cgt_ctxcost *const *cgt_ctx_nodes(UInt *n)
{
	*n = n_nodes;
	return nodes;
}

/* What of n's costs (thread tid's with --separate-threads) no context has
 * yet goes to ctx. */
static void give(struct cgt_insn *n, UInt ctx, ThreadId tid, const ULong *cost)
{
	ULong have[CGT_EV_MAX];
	VG_(memset)(have, 0, sizeof(have));
	for (const struct cgt_ctxcost *c = n->ctxs; c; c = c->next)
		if (c->tid == tid)
			for (UInt e = 0; e < cgt_n_events; e++)
				have[e] += c->cost[e];
	Bool any = False;
	for (UInt e = 0; e < cgt_n_events; e++)
		any = any || cost[e] != have[e];
	if (!any)
		return;
	struct cgt_ctxcost *c = cgt_ctx_node(n, ctx, tid);
	for (UInt e = 0; e < cgt_n_events; e++)
		c->cost[e] += cost[e] - have[e];
}

/* n's costs (each thread's with --separate-threads) not yet given to a
 * context go to ctx. */
static void give_all(struct cgt_insn *n, UInt ctx)
{
	if (!cgt_clo_separate_threads) {
		give(n, ctx, 0, n->cost);
		return;
	}
	for (ThreadId tid = 1; tid < VG_N_THREADS; tid++)
		if (cgt_threads_used(tid))
			give(n, ctx, tid, cgt_threads_cost(tid, n));
}

void cgt_ctx_settle(struct cgt_insn *n)
{
	if (n->dreg && n->dreg->ctx != CGT_CTX_NONE)
		give_all(n, n->dreg->ctx);
}

void cgt_ctx_attribute(const struct cgt_sb *sb)
{
	UInt r = 0;
	for (UInt i = 0; sb->n_reg && i < sb->n_insns; i++) {
		while (r + 1 < sb->n_reg && sb->reg[r + 1]->first <= i)
			r++;
		struct cgt_insn *n = sb->insns[i];
		UInt ctx = sb->reg[r]->ctx;
		if (!cgt_insn_unnamed(n) || i < sb->reg[r]->first || ctx == CGT_CTX_NONE)
			continue;
		give_all(n, ctx);
	}
}

void cgt_ctx_init(void)
{
	if (clo_unnamed_callgrind)
		cgt_fn_unnamed = cgt_intern(&cgt_fns, "???");
}
