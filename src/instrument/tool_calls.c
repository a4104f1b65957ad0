/* tool_calls.c -- the call graph: one shadow call stack per thread (and a
 * separate section of it per signal handler), calls and returns decided by
 * callgrind's rules, and per call site the number of calls and the cost
 * counted between each call and its return (inclusive cost).
 *
 * The instrumenter (tool_main.c, tool_sim.c) calls cgt_calls_exit() for each
 * block end and side exit, and cgt_calls_next() between two instructions of
 * a block, which may be where VEX went on translating at the target of a
 * direct call or jump (a superblock may follow them); it decides at translation time which can move between
 * functions and only those call a helper (`cgt_h_ret`, `cgt_h_call`, `cgt_h_call_ind`,
 * `cgt_h_jump`) when taken; the common return (and with Ir only the direct
 * call) is done inline and calls it only otherwise.  The instrumentation
 * is tool_callinstr.c, the helpers tool_callhelp.c; here the stacks.  Costs: the executed
 * code adds to the running totals `cgt_tot` and `cgt_packed` (inline for
 * the events counted by segments and for the mispredictions, in the
 * simulators' helpers for the misses); a call remembers the totals of its
 * thread when it is pushed, and adds the difference to its call site when
 * it is popped.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_stacktrace.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"

#include "tool_calls.h"

ULong cgt_tot[CGT_EV_PAD] __attribute__((aligned(16)));
ULong cgt_packed[CGT_PACKED_WORDS] __attribute__((aligned(16)));

/* Without branches: a lane not in use is 0. */
void cgt_packed_fold(void)
{
	for (UInt p = 0; p < CGT_PACKED_WORDS; p++) {
		*(ev2 *)&cgt_tot[2 * p] = tot_pair(p);
		cgt_packed[p] = 0;
	}
}

/* ---- per thread: the shadow stack ------------------------------------------------ */

static struct thread **threads; /* [VG_N_THREADS] */
struct thread *cgt_cur;
ThreadId cgt_cur_tid = VG_INVALID_THREADID;
UInt cgt_ctx_now = CGT_CTX_NONE;
Bool cgt_all_events;

/* The thread's `off` grows by delta (costs that are not its own, or a
 * finished signal handler's): so do its frames' `enter`, which keeps
 * cgt_tot - enter the thread's own cost since each push. */
static void shift_off(struct thread *t, const ULong *delta)
{
	for (UInt e = 0; e < cgt_n_events; e++) {
		t->off[e] += delta[e];
		for (UInt i = 0; i < t->n; i++)
			t->f[i].enter[e] += delta[e];
	}
}

static struct thread *thread_get(ThreadId tid)
{
	tl_assert(tid < VG_N_THREADS);
	if (!threads[tid]) {
		struct thread *t = VG_(calloc)("cgtui.calls.thread", 1, sizeof(*t));
		t->cap = 64;
		t->f = VG_(calloc)("cgtui.calls.stack", t->cap + 2, sizeof(*t->f));
		t->f += 2;
		t->f[-2].sp = t->f[-1].sp = ~(Addr)0;
		t->f[-2].ctx = t->f[-1].ctx = CGT_CTX_PENDING;
		t->fresh = True;
		if (cgt_cct_on)
			t->node = cgt_cct_root(tid);
		for (UInt e = 0; e < cgt_n_events; e++)
			t->off[e] = t->paused[e] = cgt_tot[e];
		threads[tid] = t;
	}
	return threads[tid];
}

/* ---- --contexts ------------------------------------------------------------------ */

ULong cgt_cmark[CGT_EV_PAD] __attribute__((aligned(16)));

void cgt_charge_cut(struct thread *t)
{
	ULong d[CGT_EV_PAD] __attribute__((aligned(16)));
	for (UInt p = 0; p < ev_pairs(); p++) {
		ev2 now = tot_pair(p);
		*(ev2 *)&d[2 * p] = now - *(const ev2 *)&cgt_cmark[2 * p];
		*(ev2 *)&cgt_cmark[2 * p] = now;
	}
	cgt_cct_add(t->node, d, t->cut);
}

/* Anywhere else (a thread switch, a signal, a dump): to the node the
 * thread is on, or, before its first move, to the function of the
 * instruction it is at. */
static void charge_here(struct thread *t, ThreadId tid)
{
	if (cgt_cct_is_root(t->node))
		charge_at(t, cgt_insn_get(VG_(get_IP)(tid), 0));
	else
		charge_node(t);
}

/* The scheduler runs `tid` now: costs from here on are its. */
static void switch_thread(ThreadId tid)
{
	cgt_packed_fold();
	if (tid == cgt_cur_tid)
		return;
	/* (a thread that ended, or has not run yet, has nothing to charge:
	 * its code is not where it stopped, and its node is its root) */
	if (cgt_cur && cgt_cct_on && !cgt_cur->fresh)
		charge_here(cgt_cur, cgt_cur_tid);
	if (cgt_cur)
		for (UInt e = 0; e < cgt_n_events; e++)
			cgt_cur->paused[e] = cgt_tot[e];
	cgt_cur_tid = tid;
	cgt_cur = tid == VG_INVALID_THREADID ? NULL : thread_get(tid);
	cgt_threads_switch(tid);
	if (cgt_cur) {
		ULong delta[CGT_EV_PAD];
		for (UInt e = 0; e < cgt_n_events; e++)
			delta[e] = cgt_tot[e] - cgt_cur->paused[e];
		shift_off(cgt_cur, delta);
	}
	sync_ctx();
}

/* The context of code that runs at guest address a with no call below:
 * the function of a's instruction (as callgrind's first block of a
 * thread, or the block a return with no call on the stack goes to). */
static UInt ctx_at(Addr a)
{
	return cgt_insn_ctx(cgt_insn_get(a, 0));
}

/* Valgrind keeps one such hook: the live snapshots are taken from here too. */
static void cgt_start_client_code(ThreadId tid, ULong blocks_done)
{
	switch_thread(tid);
	if (cgt_cur && cgt_cur->fresh) {
		/* a new thread (or a new one with the id of one that ended):
		 * it is in the function it starts in */
		cgt_cur->fresh = False;
		if (cgt_cur->n == 0)
			cgt_cur->f[-1].ctx = ctx_at(VG_(get_IP)(tid));
		sync_ctx();
	}
	cgt_time_tick();
	cgt_live_start_client_code(tid, blocks_done);
}

/* ---- call sites -------------------------------------------------------------------- */

static struct cgt_arc *arc_get(struct cgt_insn *from, struct cgt_insn *to, ThreadId tid,
			       UInt ctx)
{
	struct cgt_arc **pp = &from->arcs;
	for (struct cgt_arc *a = *pp; a; pp = &a->next, a = a->next)
		if (a->to == to && a->tid == tid && a->ctx == ctx) {
			/* most recently used first: indirect call sites */
			*pp = a->next;
			a->next = from->arcs;
			from->arcs = a;
			return a;
		}
	SizeT size = sizeof(struct cgt_arc) + (cgt_n_events == 1 ? 1 : 2 * ev_pairs()) * sizeof(ULong);
	struct cgt_arc *a = cgt_perm_alloc(size);
	VG_(memset)(a, 0, size);
	a->from = from;
	a->to = to;
	a->tid = tid;
	a->ctx = ctx;
	a->cct_parent = a->cct_parent2 = CGT_CCT_NONE;
	cgt_insn_ctx(to); /* (read by fast_call) */
	a->next = from->arcs;
	from->arcs = a;
	/* the profile lists the call under its caller's context */
	if (cgt_insn_unnamed(from))
		cgt_ctx_node(from, ctx, tid);
	return a;
}


/* ---- push and pop --------------------------------------------------------------- */

void cgt_calls_push(struct thread *t, struct cgt_exit *x, struct cgt_insn *from,
		 struct cgt_insn *to, Addr sp, Addr ret_addr)
{
	if (t->n == t->cap) {
		t->cap *= 2;
		t->f = VG_(realloc)("cgtui.calls.stack", t->f - 2, (t->cap + 2) * sizeof(*t->f));
		t->f += 2;
	}
	UInt below = t->f[(Int)t->n - 1].ctx;
	struct frame *f = &t->f[t->n++];
	f->sp = sp;
	f->ret_addr = ret_addr;
	f->nonskipped = t->nonskipped;
	if (to->flags & CGT_F_PLT) {
		/* callgrind's --skip-plt=yes: no call of its own; what the stub
		 * calls is called from the site that called the stub (and the
		 * stub runs in its caller's context) */
		f->arc = NULL;
		f->ctx = below;
		if (cgt_cct_on)
			enter_node(t, f, NULL, 0, 0);
		if (!t->nonskipped)
			t->nonskipped = from;
		return;
	}
	if (t->nonskipped)
		from = t->nonskipped;
	t->nonskipped = NULL;
	/* the exit remembers its last call site: one for a direct call */
	struct cgt_arc *a = x->arc;
	ThreadId tid = cgt_clo_separate_threads ? cgt_cur_tid : 0;
	UInt ctx = cgt_insn_unnamed(from) ? below : from->fn;
	if (!a || a->to != to || a->from != from || a->tid != tid || a->ctx != ctx)
		a = x->arc = arc_get(from, to, tid, ctx);
	f->arc = a;
	f->ctx = cgt_insn_ctx(to);
	if (cgt_cct_on)
		enter_node(t, f, a, to->obj, f->ctx);
	a->count++;
	snap(f);
}

static void end_signal(struct thread *t);

void cgt_calls_pop(struct thread *t)
{
	tl_assert(t->n > 0);
	struct frame *f = &t->f[--t->n];
	t->nonskipped = f->nonskipped;
	if (f->arc)
		add_since(f->arc->incl, f);
	if (cgt_cct_on)
		leave_node(t, f);
	/* left a signal handler's section (longjmp out of a handler) */
	while (t->nsig && t->n < t->sig[t->nsig - 1].bottom)
		end_signal(t);
}

/* Pops the frames the stack pointer has left: those whose saved SP is
 * below `sp`, and with minpops > 0 that many more whose SP equals it.
 * Returns how many were popped. */
UInt cgt_calls_unwind(struct thread *t, Addr sp, Int minpops)
{
	UInt popped = 0;
	while (t->n > 0) {
		const struct frame *top = &t->f[t->n - 1];
		if (top->sp < sp || (top->sp == sp && minpops > 0)) {
			minpops--;
			cgt_calls_pop(t);
			popped++;
			continue;
		}
		break;
	}
	return popped;
}

/* ---- signals ---------------------------------------------------------------------- */

static void cgt_pre_deliver_signal(ThreadId tid, Int sigNo, Bool alt_stack)
{
	switch_thread(tid);
	struct thread *t = cgt_cur;
	if (t->nsig == MAX_SIG_NEST) {
		t->sig_lost++;
		return;
	}
	struct sigmark *m = &t->sig[t->nsig++];
	m->bottom = t->n;
	m->nonskipped = t->nonskipped;
	t->nonskipped = NULL;
	/* the handler's context: the function it starts in, named by the
	 * first code without a symbol that runs there (when any does) */
	m->ctx = t->f[(Int)t->n - 1].ctx;
	if (cgt_cct_on) {
		/* the interrupted code's cost to its node; the handler's nodes
		 * are roots, named by its first move */
		charge_here(t, tid);
		m->node = t->node;
		m->cut = t->cut;
		t->node = cgt_cct_root(tid);
		t->cut = False;
	}
	t->f[(Int)t->n - 1].ctx = CGT_CTX_PENDING;
	sync_ctx();
	for (UInt e = 0; e < cgt_n_events; e++)
		m->start[e] = cgt_tot[e] - t->off[e];
}

/* The handler's frames are popped and its cost is taken out of the totals
 * the interrupted calls see. */
static void end_signal(struct thread *t)
{
	struct sigmark *m = &t->sig[t->nsig - 1];
	UInt bottom = m->bottom;
	if (cgt_cct_on) {
		/* (a handler that made no move: its cost to the node it
		 * interrupted) */
		if (cgt_cct_is_root(t->node))
			t->node = m->node;
		charge_node(t);
	}
	t->nsig--;
	while (t->n > bottom)
		cgt_calls_pop(t);
	if (cgt_cct_on) {
		t->node = m->node;
		t->cut = m->cut;
	}
	/* (f[bottom - 1] may have been popped already: a longjmp out) */
	if (t->n == bottom)
		t->f[(Int)bottom - 1].ctx = m->ctx;
	ULong delta[CGT_EV_PAD];
	for (UInt e = 0; e < cgt_n_events; e++)
		delta[e] = cgt_tot[e] - t->off[e] - m->start[e];
	shift_off(t, delta);
	t->nonskipped = m->nonskipped;
}

static void cgt_post_deliver_signal(ThreadId tid, Int sigNo)
{
	switch_thread(tid);
	if (cgt_cur->sig_lost) {
		cgt_cur->sig_lost--;
		return;
	}
	if (cgt_cur->nsig)
		end_signal(cgt_cur);
	sync_ctx();
}

/* ---- threads ending, counting starting again, snapshots, zeroing ---------------------- */

/* Pops every frame of t, handlers' too, adding their costs. */
static void unwind_thread(struct thread *t)
{
	while (t->nsig)
		end_signal(t);
	while (t->n)
		cgt_calls_pop(t);
	t->sig_lost = 0;
	t->nonskipped = NULL;
}

/* A thread ended: its calls end with it.  (The core gives its id to the
 * next thread made: that one starts with an empty stack; callgrind, which
 * keeps the stack, pops such frames only when the new thread's stack
 * pointer happens to be above them, and else counts the new thread's
 * calls inside the old one's: `start_thread` calling itself.) */
static void cgt_thread_exit(ThreadId tid)
{
	if (tid >= VG_N_THREADS || !threads[tid])
		return;
	ThreadId was = cgt_cur_tid;
	switch_thread(tid);
	if (cgt_cct_on)
		charge_here(cgt_cur, tid);
	unwind_thread(cgt_cur);
	cgt_cur->f[-1].ctx = CGT_CTX_PENDING;
	cgt_cur->fresh = True;
	if (cgt_cct_on) {
		cgt_cur->node = cgt_cct_root(tid);
		cgt_cur->cut = False;
	}
	switch_thread(was);
	sync_ctx();
}

/* ---- counting starts: the calls made while it was off ------------------------------ */

/* The instruction that made the call returning to ret.  The core's stack
 * trace gives ret - 1, the call's last byte, which callgrind takes for the
 * call site of a call it did not see; on x86 the usual forms of a call are
 * recognised, so that the call site is the call's own instruction, as for
 * a call seen: a direct call (to a function's entry or a PLT stub), an
 * indirect one through a register or through a RIP-relative pointer. */
static Addr call_before(Addr ret)
{
#if defined(VGA_amd64) || defined(VGA_x86)
	if (VG_(am_is_valid_for_client)(ret - 6, 6, VKI_PROT_READ)) {
		const UChar *p = (const UChar *)ret;
		DiEpoch ep = VG_(current_DiEpoch)();
		const HChar *name;
		Addr to = ret + (Addr)(Long)(Int)((UInt)p[-4] | (UInt)p[-3] << 8 |
						 (UInt)p[-2] << 16 | (UInt)p[-1] << 24);
		if (p[-5] == 0xe8 && (VG_(get_fnname_if_entry)(ep, to, &name) ||
				      VG_(DebugInfo_sect_kind)(NULL, to) == Vg_SectPLT))
			return ret - 5;
		if (p[-2] == 0xff && (p[-1] & 0xf8) == 0xd0)
			return p[-3] >= 0x40 && p[-3] <= 0x4f ? ret - 3 : ret - 2;
		if (p[-6] == 0xff && p[-5] == 0x15)
			return ret - 6;
	}
#elif defined(VGA_arm64)
	return ret - 4;
#endif
	return ret - 1;
}

#define TRACE_MAX 1024

/* The running thread t: the frames its stack pointer left while counting
 * was off are popped (their cost is what they had when it stopped), and the
 * calls it made meanwhile and is still in are pushed, from the core's
 * stack trace (its unwinding of the client's stack), as if made now: each
 * function running gets as inclusive cost what is counted from now to its
 * return.  Callgrind, which ends every call at a start or stop, makes
 * such a call when it sees the return (with the cost since counting began);
 * the two agree, and here the calling contexts and the call sites are the
 * calls' own.  A thread in a signal handler is left as it is. */
static void resume_thread(struct thread *t, ThreadId tid, Addr *ips, Addr *sps)
{
	if (t->fresh || t->nsig)
		return;
	cgt_calls_unwind(t, VG_(get_SP)(tid), 0);
	UInt n = VG_(get_StackTrace)(tid, ips, TRACE_MAX, sps, NULL, 0);
	/* frame i >= 1 made the call to frame i - 1 at ips[i] (its last
	 * byte); the callee was entered with the stack pointer sps[i] less
	 * the return address.  Those entered below the top frame were not
	 * seen: frames 1 .. k - 1. */
	Addr limit = t->n ? t->f[t->n - 1].sp : ~(Addr)0;
	UInt k = 1;
	while (k < n && sps[k] - sizeof(Addr) < limit && (k == 1 || sps[k] > sps[k - 1]))
		k++;
	if (k == 1)
		return;
	if (cgt_cct_on && !cgt_cct_is_root(t->node))
		charge_node(t);
	if (t->n == 0) {
		/* the outermost is the function the thread runs in */
		struct cgt_insn *b = cgt_insn_get(ips[k - 1], 0);
		t->f[-1].ctx = cgt_insn_ctx(b);
		if (cgt_cct_on) {
			t->node = cgt_cct_root(tid);
			t->cut = False;
			move_fn(t, b->obj, t->f[-1].ctx);
		}
	}
	for (UInt i = k - 1; i >= 1; i--) {
		struct cgt_insn *from = cgt_insn_get(call_before(ips[i] + 1), 0);
		struct cgt_insn *to = cgt_insn_get(ips[i - 1], 0);
		/* the call went to the callee's entry, where its symbol starts */
		if (!cgt_insn_unnamed(to) && cgt_fns.key[to->fn])
			to = cgt_insn_get((Addr)cgt_fns.key[to->fn], 0);
		cgt_insn_flags(to);
		struct cgt_exit x;
		VG_(memset)(&x, 0, sizeof(x));
		x.from = from;
		cgt_calls_push(t, &x, from, to, sps[i] - sizeof(Addr), ips[i] + 1);
	}
}

void cgt_calls_resume(void)
{
	Addr *ips = VG_(malloc)("cgtui.calls.trace", 2 * TRACE_MAX * sizeof(Addr));
	ThreadId was = cgt_cur_tid;
	/* the running thread first: switching away from a thread charges its
	 * node, which should be the one it is on when counting starts */
	if (cgt_cur)
		resume_thread(cgt_cur, was, ips, ips + TRACE_MAX);
	for (ThreadId tid = 1; tid < VG_N_THREADS; tid++) {
		if (!threads[tid] || tid == was || threads[tid]->fresh || threads[tid]->nsig)
			continue;
		switch_thread(tid);
		resume_thread(cgt_cur, tid, ips, ips + TRACE_MAX);
	}
	if (cgt_cur_tid != was)
		switch_thread(was);
	sync_ctx();
	VG_(free)(ips);
}

/* Calls f for every thread with its totals now, in the space its frames'
 * `enter` are in. */
static void each_thread(void (*f)(struct thread *t, const ULong *now, void *arg), void *arg)
{
	cgt_packed_fold();
	for (ThreadId tid = 0; tid < VG_N_THREADS; tid++) {
		struct thread *t = threads[tid];
		if (!t)
			continue;
		ULong now[CGT_EV_PAD];
		for (UInt e = 0; e < cgt_n_events; e++)
			now[e] = t == cgt_cur ? cgt_tot[e] : t->paused[e];
		f(t, now, arg);
	}
}

static void active_of(struct thread *t, const ULong *now, void *arg)
{
	Bool add = *(const Bool *)arg;
	UInt s = 0;
	for (UInt i = 0; i < t->n; i++) {
		const struct frame *f = &t->f[i];
		/* frames below a handler running: without the handler's cost so
		 * far (the outermost such handler's holds the others'), as
		 * when it ends */
		while (s < t->nsig && t->sig[s].bottom <= i)
			s++;
		if (!f->arc)
			continue;
		for (UInt e = 0; e < cgt_n_events; e++) {
			ULong c = now[e] - f->enter[e];
			if (s < t->nsig)
				c -= now[e] - t->off[e] - t->sig[s].start[e];
			f->arc->incl[e] += add ? c : -c;
		}
	}
}

void cgt_calls_active(Bool add)
{
	each_thread(active_of, &add);
}

static void zero_arcs(struct cgt_insn *n, void *arg)
{
	for (struct cgt_arc *a = n->arcs; a; a = a->next) {
		a->count = 0;
		for (UInt e = 0; e < cgt_n_events; e++)
			a->incl[e] = 0;
	}
}

/* t's calls running count from now, and its handlers' costs too */
static void zero_thread(struct thread *t, const ULong *now, void *arg)
{
	for (UInt i = 0; i < t->n; i++)
		for (UInt e = 0; e < cgt_n_events; e++)
			t->f[i].enter[e] = now[e];
	for (UInt k = 0; k < t->nsig; k++)
		for (UInt e = 0; e < cgt_n_events; e++)
			t->sig[k].start[e] = now[e] - t->off[e];
}

void cgt_calls_charge(void)
{
	cgt_packed_fold();
	if (cgt_cct_on && cgt_cur)
		charge_here(cgt_cur, cgt_cur_tid);
}

void cgt_calls_zero(void)
{
	if (cgt_cct_on) {
		cgt_calls_charge();
		cgt_cct_zero();
	}
	cgt_insn_foreach(zero_arcs, NULL);
	each_thread(zero_thread, NULL);
}

/* ---- start and end ---------------------------------------------------------------- */

void cgt_calls_init(void)
{
	UInt pairs = 0;
	for (UInt e = 0; e < cgt_n_events; e++)
		if (cgt_seg_events >> e & 1)
			pairs |= 1u << (e / 2);
	cgt_all_events = cgt_n_events == CGT_ALL_EVENTS && pairs == ALL_LANE_PAIRS;
	threads = VG_(calloc)("cgtui.calls.threads", VG_N_THREADS, sizeof(*threads));
	if (cgt_cct_on)
		cgt_cct_init();
	VG_(track_start_client_code)(cgt_start_client_code);
	VG_(track_pre_deliver_signal)(cgt_pre_deliver_signal);
	VG_(track_post_deliver_signal)(cgt_post_deliver_signal);
	VG_(track_pre_thread_ll_exit)(cgt_thread_exit);
}

void cgt_calls_unwind_all(void)
{
	cgt_calls_charge();
	for (UInt tid = 0; tid < VG_N_THREADS; tid++) {
		struct thread *t = threads[tid];
		if (!t)
			continue;
		switch_thread(tid);
		unwind_thread(t);
	}
	sync_ctx();
}

