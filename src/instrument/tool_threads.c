/* tool_threads.c -- --separate-threads=yes: costs kept per thread.
 *
 * Ir only: a translation's segment counters are not at constant addresses
 * but at a fixed index (`cgt_sb.slot`) in the running thread's slot array,
 * whose address the instrumented code loads from `cgt_cur_slots` (switched
 * with the thread).  With a simulation, the helpers count into the running
 * thread's cost table (`cgt_cur_tcost`, indexed by instruction id).  The
 * slots are folded into each thread's table when a translation is
 * discarded and at exit; each thread's table is then written as a file of
 * its own, as callgrind does.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "tool.h"

Bool cgt_clo_separate_threads = False;
ULong *cgt_cur_slots;
ULong *cgt_cur_tcost;

struct tcosts {
	ULong *slots;  /* [nslots]: segment counters */
	UInt nslots;
	ULong *cost;   /* [ncost * cgt_n_events]: per instruction id */
	UInt ncost;
	Bool used;
};

static struct tcosts *tc;  /* [VG_N_THREADS] */
static ThreadId running = VG_INVALID_THREADID;
static UInt slots_used;    /* slots handed out */

static ULong *grow(ULong *p, UInt *n, UInt want, SizeT per)
{
	if (want <= *n)
		return p;
	UInt m = *n ? *n : 1024;
	while (m < want)
		m *= 2;
	p = VG_(realloc)("cgtui.threads.cost", p, (SizeT)m * per * sizeof(ULong));
	VG_(memset)(p + (SizeT)*n * per, 0, (SizeT)(m - *n) * per * sizeof(ULong));
	*n = m;
	return p;
}

/* The running thread's arrays cover every slot and instruction so far. */
static void cover(void)
{
	if (running == VG_INVALID_THREADID)
		return;
	struct tcosts *t = &tc[running];
	t->used = True;
	t->slots = grow(t->slots, &t->nslots, slots_used, 1);
	t->cost = grow(t->cost, &t->ncost, cgt_insn_count(), cgt_n_events);
	cgt_cur_slots = t->slots;
	cgt_cur_tcost = t->cost;
}

void cgt_threads_init(void)
{
	if (!cgt_clo_separate_threads)
		return;
	tc = VG_(calloc)("cgtui.threads", VG_N_THREADS, sizeof(*tc));
}

void cgt_threads_switch(ThreadId tid)
{
	if (!cgt_clo_separate_threads)
		return;
	running = tid;
	cover();
}

UInt cgt_threads_slots(UInt n)
{
	UInt first = slots_used;
	slots_used += n;
	cover();
	return first;
}

void cgt_threads_new_insn(void)
{
	if (cgt_clo_separate_threads)
		cover();
}

void cgt_threads_fold(const struct cgt_sb *sb)
{
	for (UInt tid = 0; tid < VG_N_THREADS; tid++) {
		struct tcosts *t = &tc[tid];
		if (!t->used || t->nslots < sb->slot + sb->n_segs)
			continue;
		for (UInt e = 0; e < sb->n_ev; e++) {
			const struct cgt_sbev *v = &sb->ev[e];
			ULong c = t->slots[sb->slot + v->seg];
			/* into the instruction's own costs by cgt_threads_sum */
			if (v->insn->id < t->ncost)
				t->cost[(SizeT)v->insn->id * cgt_n_events + v->ev] += c;
		}
		UInt i = 0;
		for (UInt s = 0; s < sb->n_segs; s++) {
			ULong c = t->slots[sb->slot + s];
			t->slots[sb->slot + s] = 0;
			for (; i < sb->seg_end[s]; i++) {
				struct cgt_insn *n = sb->insns[i];
				sb->insns[i]->cost[CGT_EV_IR] += c;
				if (n->id < t->ncost)
					t->cost[(SizeT)n->id * cgt_n_events + CGT_EV_IR] += c;
			}
		}
	}
}

void cgt_threads_move(const struct cgt_insn *p, const struct cgt_insn *n)
{
	for (UInt tid = 0; tid < VG_N_THREADS; tid++) {
		struct tcosts *t = &tc[tid];
		if (!t->used || p->id >= t->ncost || n->id >= t->ncost)
			continue;
		ULong *from = &t->cost[(SizeT)p->id * cgt_n_events];
		ULong *to = &t->cost[(SizeT)n->id * cgt_n_events];
		for (UInt e = 0; e < cgt_n_events; e++) {
			to[e] += from[e];
			from[e] = 0;
		}
	}
}

void cgt_threads_zero(void)
{
	for (UInt tid = 0; cgt_clo_separate_threads && tid < VG_N_THREADS; tid++)
		if (tc[tid].cost)
			VG_(memset)(tc[tid].cost, 0,
				    (SizeT)tc[tid].ncost * cgt_n_events * sizeof(ULong));
}

const ULong *cgt_threads_cost(ThreadId tid, const struct cgt_insn *n)
{
	static const ULong zero[CGT_EV_MAX];
	const struct tcosts *t = &tc[tid];
	if (!t->used || n->id >= t->ncost)
		return zero;
	return &t->cost[(SizeT)n->id * cgt_n_events];
}

Bool cgt_threads_used(ThreadId tid)
{
	return tc[tid].used;
}

/* With a simulation the helpers counted per thread only: the whole run's
 * costs are their sum. */
static void sum_one(struct cgt_insn *n, void *arg)
{
	for (UInt tid = 0; tid < VG_N_THREADS; tid++) {
		const ULong *c = cgt_threads_cost(tid, n);
		/* what was counted by segments was added at the fold: the
		 * helpers' counts (misses, mispredictions, guarded accesses)
		 * are added here */
		for (UInt e = CGT_EV_IR + 1; e < cgt_n_events; e++)
			n->cost[e] += c[e];
	}
}

void cgt_threads_sum(void)
{
	if (cgt_clo_separate_threads && (cgt_clo_cache_sim || cgt_clo_branch_sim))
		cgt_insn_foreach(sum_one, NULL);
}
