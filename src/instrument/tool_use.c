/* tool_use.c -- --cache-use=yes: line utilisation (callgrind's --cacheuse
 * idea).  Every data access also goes to src/sim/use.c, an LRU cache of
 * the first model's L1D geometry (cachegrind's D1 by default: then it
 * fetches exactly the lines D1 misses on) that remembers which bytes of
 * each line were used and which instruction's access fetched it.  When a
 * line leaves (evicted, or still present at the end of the run) its
 * fetcher counts D1fb += the line's bytes and D1ub += the bytes used.
 * Snapshots and dumps count the lines that have left by then.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"

#include "sim/use.h"
#include "tool.h"

Bool cgt_clo_cache_use = False;

static struct sim_use use;
static UInt ev_fb; /* D1fb; D1ub follows */
static struct sim_geom use_geom;

UInt cgt_use_setup(const struct sim_geom *g, UInt n)
{
	use_geom = *g;
	void *mem = VG_(malloc)("cgtui.use", sim_use_mem_size(g));
	tl_assert(sim_use_init(&use, g, mem) == SIM_OK);
	ev_fb = n;
	cgt_event_name[n++] = "D1fb";
	cgt_event_name[n++] = "D1ub";
	return n;
}

/* a line left: its fetcher's counts */
static void done(void *arg, const void *owner, uint32_t fetched, uint32_t used)
{
	struct cgt_insn *n = (struct cgt_insn *)(uintptr_t)owner;
	(void)arg;
	CGT_ADD(n, ev_fb, fetched);
	CGT_ADD(n, ev_fb + 1, used);
	if (cgt_time_on)
		cgt_time_touch(n);
}

void cgt_use_ref(struct cgt_insn *n, Addr a, UWord size)
{
	sim_use_ref(&use, a, (uint32_t)size, n, done, NULL);
}

static VG_REGPARM(3) void h_use(struct cgt_insn *n, Addr a, UWord size)
{
	sim_use_ref(&use, a, (uint32_t)size, n, done, NULL);
}

void cgt_use_instrument(IRSB *out, struct cgt_insn *n, IRExpr *atom, UInt size)
{
	IRDirty *di = unsafeIRDirty_0_N(3, "h_use", VG_(fnptr_to_fnentry)(h_use),
					 mkIRExprVec_3(mkIRExpr_HWord((HWord)n), atom,
						       mkIRExpr_HWord(size)));
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

void cgt_use_flush(void)
{
	if (cgt_clo_cache_use)
		sim_use_flush(&use, done, NULL);
}

void cgt_use_desc(void (*put)(const HChar *line, void *arg), void *arg)
{
	HChar line[160];
	if (!cgt_clo_cache_use)
		return;
	put("Line use format: 1", arg);
	VG_(snprintf)(line, sizeof(line), "Line use cache: %u B, %u B, %u-way associative, LRU", use_geom.size,
		      use_geom.line_size, use_geom.assoc);
	put(line, arg);
}

void cgt_use_event_lines(struct _VgFile *fp)
{
	if (!cgt_clo_cache_use)
		return;
	VG_(fprintf)(fp, "event: D1fb : D1 bytes fetched (of the lines that left the cache)\n");
	VG_(fprintf)(fp, "event: D1ub : D1 bytes used before the line left\n");
	VG_(fprintf)(fp, "event: D1wb = D1fb - D1ub\n");
	VG_(fprintf)(fp, "event: D1wb : D1 bytes fetched and never used\n");
}
