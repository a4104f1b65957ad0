/* tool_calls.c -- the call graph: one shadow call stack per thread (and a
 * separate section of it per signal handler), calls and returns decided by
 * callgrind's rules, and per call site the number of calls and the cost
 * counted between each call and its return (inclusive cost).
 *
 * The instrumenter (tool_main.c, tool_sim.c) calls cgt_calls_exit() for each
 * block end and side exit, and cgt_calls_chased() where VEX went on
 * translating at the target of a direct call or jump (a superblock may
 * follow them); it decides at translation time which can move between
 * functions and only those call a helper (`h_ret`, `h_call`, `h_call_ind`,
 * `h_jump`) when taken; the common return (and with Ir only the direct
 * call) is done inline and calls it only otherwise.  Costs: the executed
 * code adds to the running totals `cgt_tot` and `cgt_packed` (inline for
 * the events counted by segments and for the mispredictions, in the
 * simulators' helpers for the misses); a call remembers the totals of its
 * thread when it is pushed, and adds the difference to its call site when
 * it is popped.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"

#include "tool.h"

ULong cgt_tot[CGT_EV_PAD] __attribute__((aligned(16)));
ULong cgt_packed[CGT_PACKED_WORDS] __attribute__((aligned(16)));

/* two events at a time (GCC's and clang's vector extension): the totals,
 * a frame's `enter`, a call site's `incl` are arrays of such pairs */
typedef ULong ev2 __attribute__((vector_size(16), aligned(8)));
typedef UInt lane2 __attribute__((vector_size(8), aligned(8)));

/* Event pair p (events 2p, 2p+1) of the running totals: cgt_tot's and
 * the packed lanes' (zero-extended), so that nothing need be folded */
static inline ev2 tot_pair(UInt p)
{
	return *(const ev2 *)&cgt_tot[2 * p] +
	       __builtin_convertvector(*(const lane2 *)&cgt_packed[p], ev2);
}

/* Without branches: a lane not in use is 0. */
void cgt_packed_fold(void)
{
	for (UInt p = 0; p < CGT_PACKED_WORDS; p++) {
		*(ev2 *)&cgt_tot[2 * p] = tot_pair(p);
		cgt_packed[p] = 0;
	}
}

/* ---- per thread: the shadow stack ------------------------------------------------ */

struct frame {
	struct cgt_arc *arc;         /* NULL: a skipped call (into a PLT stub) */
	Addr sp;                     /* the stack pointer at the callee's entry */
	Addr ret_addr;               /* where a real call returns; 0 if emulated */
	struct cgt_insn *nonskipped; /* the thread's nonskipped before this push */
	/* the context from here on (tool_ctx.c): the name of the function
	 * called (a skipped call's: its caller's).  The sentinel f[-1] holds
	 * the thread's: the function it started in (CGT_CTX_PENDING: the
	 * first code without a symbol that runs there names it) */
	UInt ctx;
	/* --contexts: the frame's node (on_node: a call's, not a skipped
	 * one's) and the thread's node and cut state before the push */
	UInt node, ret_node;
	UChar on_node, ret_cut;
	/* cgt_tot when pushed, plus what the thread's `off` grew by since:
	 * cgt_tot - enter is the thread's cost since the push */
	ULong enter[CGT_EV_PAD];
};

/* A signal handler runs on a section of its thread's stack of its own: its
 * returns never pop below `bottom`, and what it costs is taken out of the
 * interrupted calls' inclusive costs, as callgrind does. */
struct sigmark {
	UInt bottom;
	struct cgt_insn *nonskipped;
	UInt ctx; /* f[bottom - 1].ctx before the handler (the handler's own
		     context is there while it runs) */
	ULong start[CGT_EV_PAD]; /* the thread's totals (cgt_tot - off) */
	UInt node; /* --contexts: the node interrupted */
	Bool cut;
};

#define MAX_SIG_NEST 16

struct thread {
	/* [0, cap), after two sentinel frames (f[-2], f[-1]: SP all ones, no
	 * call site) that the inline code reads below the stack */
	struct frame *f;
	UInt n, cap;
	/* set while inside a skipped call: the call site in the last function
	 * not skipped, to which calls made from the skipped code are given */
	struct cgt_insn *nonskipped;
	/* the thread's totals are cgt_tot - off (costs of other threads and of
	 * finished signal handlers taken out); paused: cgt_tot when it stopped */
	ULong off[CGT_EV_PAD], paused[CGT_EV_PAD];
	struct sigmark sig[MAX_SIG_NEST];
	UInt nsig, sig_lost; /* handlers nested deeper than MAX_SIG_NEST */
	Bool fresh; /* not run yet: its context is where it starts */
	/* --contexts: the node the running code's cost goes to (the thread's
	 * root until the first move says which function runs), and whether
	 * it was reached on a cut path */
	UInt node;
	Bool cut;
};

static struct thread **threads; /* [VG_N_THREADS] */
static struct thread *cur;
static ThreadId cur_tid = VG_INVALID_THREADID;

/* The running thread's context (its top frame's ctx), which the check at
 * the start of a region of code without a symbol compares with the
 * region's: kept up to date wherever the top frame or the thread changes
 * (the inline return and call too), so that the check is two loads. */
static UInt ctx_now = CGT_CTX_NONE;

static inline void sync_ctx(void)
{
	ctx_now = cur ? cur->f[(Int)cur->n - 1].ctx : CGT_CTX_NONE;
}

/* A frame's `enter` at a push, and its cost added to `incl` at the pop.
 * With several events, the pairs of events in use (the last one's second
 * event stays 0): the running totals read as cgt_tot plus the packed
 * lanes, each pair's in one vector. */
static inline UInt ev_pairs(void)
{
	return (cgt_n_events + 1) / 2;
}

/* With both simulations (13 events, CGT_ALL_EVENTS) the helpers are
 * compiled for that case too: the pairs known, the loop unrolled, and the
 * lanes only read for the pairs that have some (Ir Dr, Dw, Bc, Bi: pairs
 * 0, 1, 4, 5, checked by cgt_calls_init: other cache models may make 13
 * events of another layout). */
#define CGT_ALL_EVENTS 13
#define ALL_LANE_PAIRS 0x33u
static Bool all_events; /* cgt_n_events == CGT_ALL_EVENTS with those pairs */

static inline __attribute__((always_inline)) void snap_all(struct frame *f)
{
#pragma GCC unroll 8
	for (UInt p = 0; p < (CGT_ALL_EVENTS + 1) / 2; p++)
		*(ev2 *)&f->enter[2 * p] = ALL_LANE_PAIRS >> p & 1 ? tot_pair(p)
								  : *(const ev2 *)&cgt_tot[2 * p];
}

static inline void snap(struct frame *f)
{
	if (cgt_n_events == 1) {
		f->enter[0] = cgt_tot[0];
		return;
	}
	for (UInt p = 0; p < ev_pairs(); p++)
		*(ev2 *)&f->enter[2 * p] = tot_pair(p);
}

static inline void add_since(ULong *incl, const struct frame *f)
{
	if (cgt_n_events == 1) {
		incl[0] += cgt_tot[0] - f->enter[0];
		return;
	}
	for (UInt p = 0; p < ev_pairs(); p++)
		*(ev2 *)&incl[2 * p] += tot_pair(p) - *(const ev2 *)&f->enter[2 * p];
}

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


/* ---- --contexts: the node the running code's cost goes to ------------------------
 * The running totals when the running thread last moved between nodes: at
 * each move the cost since is added to the node left (its self cost). */
static ULong cmark[CGT_EV_PAD] __attribute__((aligned(16)));

static inline void charge_node(struct thread *t)
{
	ULong d[CGT_EV_PAD] __attribute__((aligned(16)));
	if (UNLIKELY(t->cut)) {
		for (UInt p = 0; p < ev_pairs(); p++) {
			ev2 now = tot_pair(p);
			*(ev2 *)&d[2 * p] = now - *(const ev2 *)&cmark[2 * p];
			*(ev2 *)&cmark[2 * p] = now;
		}
		cgt_cct_add(t->node, d, t->cut);
		return;
	}
	/* the node's row, pair by pair (the last pair's second event, past
	 * the row with an odd number of events, adds 0: the array has room) */
	ULong *s = &cgt_cct_self[(SizeT)t->node * cgt_n_events];
	if (cgt_n_events == 1) {
		s[0] += cgt_tot[0] - cmark[0];
		cmark[0] = cgt_tot[0];
		return;
	}
	for (UInt p = 0; p < ev_pairs(); p++) {
		ev2 now = tot_pair(p);
		*(ev2 *)&s[2 * p] += now - *(const ev2 *)&cmark[2 * p];
		*(ev2 *)&cmark[2 * p] = now;
	}
}

/* The thread's code is now function (obj, fn): its node becomes that
 * function's under the node it is on (or the function's earlier node on
 * the path: a jump back), unless it is that function's already. */
static inline void move_fn(struct thread *t, UInt obj, UInt fn)
{
	if (fn == CGT_CTX_PENDING || fn == CGT_CTX_NONE)
		return;
	if (cgt_cct_is(t->node, obj, fn))
		return;
	Bool cut;
	t->node = cgt_cct_resolve(t->node, obj, fn, &cut);
	t->cut |= cut;
}

/* The function instruction n counts in, as the profile names it: its
 * symbol's, or for code without one the thread's context. */
static inline UInt fn_of(struct thread *t, const struct cgt_insn *n)
{
	return cgt_insn_unnamed(n) ? t->f[(Int)t->n - 1].ctx : n->fn;
}

/* At an exit of instruction `from`: the code since the last move ran in
 * from's function; its cost goes to that function's node. */
static inline void charge_at(struct thread *t, const struct cgt_insn *from)
{
	move_fn(t, from->obj, fn_of(t, from));
	charge_node(t);
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

/* A call pushed frame f, to function (obj, fn) through call site a (NULL:
 * none, a skipped call): the thread goes to the callee's node. */
static inline void enter_node(struct thread *t, struct frame *f, struct cgt_arc *a, UInt obj,
			      UInt fn)
{
	f->ret_node = t->node;
	f->ret_cut = t->cut;
	f->node = t->node;
	f->on_node = a != NULL;
	if (!a)
		return;
	UInt k;
	Bool cut;
	if (LIKELY(a->cct_parent == t->node)) {
		k = a->cct_node;
		cut = a->cct_cut;
	} else {
		k = cgt_cct_resolve(t->node, obj, fn, &cut);
		a->cct_parent = t->node;
		a->cct_node = k;
		a->cct_cut = cut;
	}
	f->node = k;
	t->node = k;
	t->cut |= cut;
	cgt_cct_enter(k);
}

/* Frame f popped: the thread is back on the node it called from. */
static inline void leave_node(struct thread *t, const struct frame *f)
{
	if (f->on_node)
		cgt_cct_leave(f->node);
	t->node = f->ret_node;
	t->cut = f->ret_cut;
}

/* The scheduler runs `tid` now: costs from here on are its. */
static void switch_thread(ThreadId tid)
{
	cgt_packed_fold();
	if (tid == cur_tid)
		return;
	if (cur && cgt_cct_on)
		charge_here(cur, cur_tid);
	if (cur)
		for (UInt e = 0; e < cgt_n_events; e++)
			cur->paused[e] = cgt_tot[e];
	cur_tid = tid;
	cur = tid == VG_INVALID_THREADID ? NULL : thread_get(tid);
	cgt_threads_switch(tid);
	if (cur) {
		ULong delta[CGT_EV_PAD];
		for (UInt e = 0; e < cgt_n_events; e++)
			delta[e] = cgt_tot[e] - cur->paused[e];
		shift_off(cur, delta);
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
	if (cur && cur->fresh) {
		/* a new thread (or a new one with the id of one that ended):
		 * it is in the function it starts in */
		cur->fresh = False;
		if (cur->n == 0)
			cur->f[-1].ctx = ctx_at(VG_(get_IP)(tid));
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
	a->cct_parent = CGT_CCT_NONE;
	cgt_insn_ctx(to); /* (read by fast_call) */
	a->next = from->arcs;
	from->arcs = a;
	/* the profile lists the call under its caller's context */
	if (cgt_insn_unnamed(from))
		cgt_ctx_node(from, ctx, tid);
	return a;
}


/* ---- push and pop --------------------------------------------------------------- */

static void push(struct thread *t, struct cgt_exit *x, struct cgt_insn *from,
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
	ThreadId tid = cgt_clo_separate_threads ? cur_tid : 0;
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

static void pop(struct thread *t)
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
static UInt unwind(struct thread *t, Addr sp, Int minpops)
{
	UInt popped = 0;
	while (t->n > 0) {
		const struct frame *top = &t->f[t->n - 1];
		if (top->sp < sp || (top->sp == sp && minpops > 0)) {
			minpops--;
			pop(t);
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
	struct thread *t = cur;
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
		pop(t);
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
	if (cur->sig_lost) {
		cur->sig_lost--;
		return;
	}
	if (cur->nsig)
		end_signal(cur);
	sync_ctx();
}

/* ---- the helper, at exits that may go to another function ---------------------- */

static UInt tc_gen = 1; /* changes when code is discarded */

#define TC_SIZE 4096
static struct {
	Addr a;
	UInt gen;
	struct cgt_insn *n;
} tcache[TC_SIZE];

static struct cgt_insn *target_of(Addr a)
{
	UInt h = (UInt)((a ^ (a >> 12)) & (TC_SIZE - 1));
	if (tcache[h].a == a && tcache[h].gen == tc_gen)
		return tcache[h].n;
	struct cgt_insn *n = cgt_insn_get(a, 0);
	cgt_insn_flags(n);
	tcache[h].a = a;
	tcache[h].gen = tc_gen;
	tcache[h].n = n;
	return n;
}

/* Follows callgrind's setup_bbcc: the kind of the exit taken, corrected by
 * the stack pointer (a return that does not leave the top frame is a jump)
 * and by the target (a jump to a function's first instruction, or into
 * another object or section, is a call); then the frames the stack pointer
 * has left are popped. */
/* After a push from an indirect exit: its call site for `target`. */
static void remember(struct cgt_exit *x, Addr target, const struct cgt_insn *to)
{
	/* (x->arc never goes to a PLT stub: push makes no call site there) */
	if (x->to || !x->arc || x->arc->to != to || x->arc->from != x->from)
		return;
	if (x->gen != tc_gen) {
		VG_(memset)(x->seen_target, 0, sizeof(x->seen_target));
		x->gen = tc_gen;
	}
	for (UInt i = 0; i < 4; i++)
		if (x->seen_target[i] == target) {
			x->seen_arc[i] = x->arc;
			return;
		}
	x->seen_target[x->seen_next] = target;
	x->seen_arc[x->seen_next] = x->arc;
	x->seen_next = (x->seen_next + 1) & 3;
}

static void xfer_do(struct cgt_exit *x, Addr target, Addr sp);

static __attribute__((noinline)) void xfer(struct cgt_exit *x, Addr target, Addr sp)
{
	xfer_do(x, target, sp);
	sync_ctx();
}

static void xfer_do(struct cgt_exit *x, Addr target, Addr sp)
{
	/* cgt_tot up to date (a signal handler's end reads it) */
	cgt_packed_fold();
	struct thread *t = cur;
	struct cgt_insn *from = x->from;
	UInt kind = x->kind;
	UInt bottom = t->nsig ? t->sig[t->nsig - 1].bottom : 0;

	struct cgt_insn *to = x->to ? x->to : target_of(target);
	if (cgt_cct_on)
		charge_at(t, from);
	if (kind == CGT_XFER_CALL && (t->n == 0 || t->f[t->n - 1].sp >= sp)) {
		push(t, x, from, to, sp, x->ret_addr);
		/* an indirect call remembers its last target for h_call_ind */
		remember(x, target, to);
		return;
	}
	Int popcount = 1;
	Bool ret_without_call = False, emulated = False;

	if (kind == CGT_XFER_RET && t->n > bottom) {
		UInt up = t->n - 1;
		const struct frame *top = &t->f[up];
		if (sp < top->sp) {
			popcount = 0;
		} else if (top->sp == sp) {
			/* the same SP: a return if the target is where one of
			 * the frames with this SP returns to */
			for (;;) {
				if (top->ret_addr == target)
					break;
				if (up > bottom) {
					up--;
					top = &t->f[up];
					if (top->sp == sp) {
						popcount++;
						continue;
					}
				}
				popcount = 0;
				break;
			}
		}
		if (popcount == 0) {
			kind = CGT_XFER_JUMP;
			ret_without_call = True;
		}
	}

	if (kind == CGT_XFER_JUMP &&
	    (ret_without_call || (to->flags & CGT_F_ENTRY) || to->sect != from->sect ||
	     to->obj != from->obj)) {
		if ((from->flags & CGT_F_POPJ) && t->n > bottom && t->f[t->n - 1].arc) {
			/* the dynamic linker's resolver jumping to the function it
			 * resolved: the call is from the resolver's caller */
			const struct frame *top = &t->f[t->n - 1];
			from = top->arc->from;
			sp = top->sp;
			pop(t);
		}
		kind = CGT_XFER_CALL;
		emulated = True;
	}

	if (kind == CGT_XFER_RET) {
		if (t->n > bottom)
			unwind(t, sp, popcount);
		else { /* a return from the bottom of the stack: nothing to pop;
			* the code returned to is the thread's (or handler's)
			* function now, as in callgrind (a root) */
			t->f[(Int)bottom - 1].ctx = cgt_insn_ctx(to);
			if (cgt_cct_on) {
				t->node = cgt_cct_root(cur_tid);
				t->cut = False;
				move_fn(t, to->obj, cgt_insn_ctx(to));
			}
		}
		return;
	}
	if (unwind(t, sp, 0) > 0)
		return; /* the SP left frames: a return after all */
	if (kind != CGT_XFER_CALL && cgt_cct_on) /* a jump: maybe into another function */
		move_fn(t, to->obj, fn_of(t, to));
	if (kind == CGT_XFER_CALL) {
		Addr ret_addr = emulated ? 0 : x->ret_addr;
		if (emulated && t->n > bottom)
			sp = t->f[t->n - 1].sp;
		push(t, x, from, to, sp, ret_addr);
		remember(x, target, to);
	}
}

/* The helpers, one per kind of exit (so that each has branches of its own
 * to predict).  Each first does the common case in few steps and without
 * the general code's registers, as xfer would; the rest goes to xfer.  The
 * totals are cgt_tot and, with a simulation, the packed lanes (not folded:
 * each frame keeps their values too, see add_since). */

/* A return that leaves the top frame, outside a signal handler: the frames
 * the stack pointer left are popped. */
static VG_REGPARM(3) void h_ret(struct cgt_exit *x, Addr target, Addr sp)
{
	struct thread *t = cur;
	UInt n = t->n;
	if (LIKELY(n > 0 && !t->nsig && sp > t->f[n - 1].sp)) {
		if (cgt_cct_on)
			charge_at(t, x->from);
		do {
			struct frame *f = &t->f[--n];
			t->nonskipped = f->nonskipped;
			if (f->arc)
				add_since(f->arc->incl, f);
			if (cgt_cct_on)
				leave_node(t, f);
		} while (n > 0 && t->f[n - 1].sp < sp);
		t->n = n;
		ctx_now = t->f[(Int)n - 1].ctx;
		return;
	}
	xfer(x, target, sp);
}

/* A call (or a jump that made a call before) with no frame to unwind, skip
 * or grow, to the call site `a` that the exit remembers: pushes a frame
 * and returns True.  A jump makes its call from the SP of the frame below
 * (tail calls through a table).  The call sites an exit remembers never go
 * to a PLT stub; those by target (seen) are from the exit's own instruction
 * (remember), x->arc may not be (a call made from a skipped call). */
static inline __attribute__((always_inline)) Bool fast_call(struct thread *t,
							      const struct cgt_exit *x,
							      struct cgt_arc *a, Bool call,
							      Addr sp, Bool all)
{
	UInt n = t->n;
	if (UNLIKELY(!a || t->nonskipped || n == t->cap))
		return False;
	if (UNLIKELY(a->tid != (cgt_clo_separate_threads ? cur_tid : 0)))
		return False;
	/* code without a symbol: the call site of the context it runs in */
	if (UNLIKELY(x->unnamed) && a->ctx != t->f[(Int)n - 1].ctx)
		return False;
	if (call) {
		if (n > 0 && t->f[n - 1].sp < sp)
			return False;
	} else {
		if (n == 0 || t->nsig || (x->from->flags & CGT_F_POPJ) || t->f[n - 1].sp < sp)
			return False;
		sp = t->f[n - 1].sp;
	}
	struct frame *f = &t->f[n];
	if (cgt_cct_on) {
		charge_at(t, x->from);
		enter_node(t, f, a, a->to->obj, a->to->ctx);
	}
	f->sp = sp;
	f->ret_addr = call ? x->ret_addr : 0;
	f->nonskipped = NULL;
	f->arc = a;
	f->ctx = ctx_now = a->to->ctx;
	a->count++;
	if (all)
		snap_all(f);
	else
		snap(f);
	t->n = n + 1;
	return True;
}

/* An indirect exit's call site for `target`, or NULL: without branches
 * (which of the four it is varies from call to call). */
static inline struct cgt_arc *seen(const struct cgt_exit *x, Addr target)
{
	struct cgt_arc *a = NULL;
	for (UInt i = 0; i < 4; i++)
		a = x->seen_target[i] == target ? x->seen_arc[i] : a;
	return x->gen == tc_gen ? a : NULL;
}

/* A direct call: the exit's last call site, if from its own instruction.
 * An indirect call: the call site it remembers for the target.  A jump
 * that may make a call (to a function's first instruction, another object
 * or section) or pop frames.  Each in two variants: any events, and
 * CGT_ALL_EVENTS. */
#define CALL_HELPERS(ALL, h_call, h_call_ind, h_jump)                         \
	static VG_REGPARM(3) void h_call(struct cgt_exit *x, Addr target, Addr sp) \
	{                                                                     \
		struct cgt_arc *a = x->arc;                                   \
		if (LIKELY(a && a->from == x->from && fast_call(cur, x, a, True, sp, ALL))) \
			return;                                               \
		xfer(x, target, sp);                                          \
	}                                                                     \
	static VG_REGPARM(3) void h_call_ind(struct cgt_exit *x, Addr target, Addr sp) \
	{                                                                     \
		if (LIKELY(fast_call(cur, x, seen(x, target), True, sp, ALL)))   \
			return;                                               \
		xfer(x, target, sp);                                          \
	}                                                                     \
	static VG_REGPARM(3) void h_jump(struct cgt_exit *x, Addr target, Addr sp) \
	{                                                                     \
		struct cgt_arc *a = x->to ? x->arc : seen(x, target);         \
		if (a && a->from == x->from && fast_call(cur, x, a, False, sp, ALL)) \
			return;                                               \
		xfer(x, target, sp);                                          \
	}

CALL_HELPERS(False, h_call, h_call_ind, h_jump)
CALL_HELPERS(True, h_call_all, h_call_ind_all, h_jump_all)

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
 * code does what h_ret and h_call do in their common case, without a call
 * (it reads the running thread's stack through `cur`); only otherwise is
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
 * the sink): node's self row += totals - cmark, cmark = totals.  (The
 * inline code runs only off cut paths.) */
static void emit_charge(IRSB *out, IRExpr *ok, IRExpr *node)
{
	IRExpr *sink_addr = c64((HWord)&sink);
	IRExpr *base = ld(out, Ity_I64, c64((HWord)&cgt_cct_self));
	IRExpr *row = bin(out, Iop_Add64, base,
			  bin(out, Iop_Mul64, tmp(out, IRExpr_Unop(Iop_32Uto64, node)),
			      c64(cgt_n_events * sizeof(ULong))));
	row = ite(out, ok, row, sink_addr);
	IRExpr *mk = ite(out, ok, c64((HWord)cmark), sink_addr);
	if (cgt_n_events == 1) {
		IRExpr *tot = ld(out, Ity_I64, c64((HWord)&cgt_tot[0]));
		IRExpr *was = ld(out, Ity_I64, c64((HWord)cmark));
		st(out, row, bin(out, Iop_Add64, ld(out, Ity_I64, row), bin(out, Iop_Sub64, tot, was)));
		st(out, mk, tot);
		return;
	}
	for (UInt p = 0; p < (cgt_n_events + 1) / 2; p++) {
		IRExpr *tv = emit_tot_pair(out, p);
		IRExpr *was = ld(out, Ity_V128, c64((HWord)&cmark[2 * p]));
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
	*t = ld(out, Ity_I64, c64((HWord)&cur));
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
		st(out, ite(out, ok, c64((HWord)&ctx_now), sink_addr), below_ctx);
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
	 * than with h_call_ind.) */
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
	st(out, ite(out, ok, c64((HWord)&ctx_now), sink_addr), IRExpr_Const(IRConst_U32(x->to->ctx)));
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
	Bool all = all_events;
	if (x->kind == CGT_XFER_RET) {
		name = "h_ret";
		fn = h_ret;
	} else if (x->kind == CGT_XFER_JUMP) {
		name = "h_jump";
		fn = all ? h_jump_all : h_jump;
	} else if (x->to) {
		name = "h_call";
		fn = all ? h_call_all : h_call;
	} else {
		name = "h_call_ind";
		fn = all ? h_call_ind_all : h_call_ind;
	}
	IRDirty *di = unsafeIRDirty_0_N(3, name, VG_(fnptr_to_fnentry)(fn),
					mkIRExprVec_3(mkIRExpr_HWord((HWord)x), dst,
						      IRExpr_RdTmp(sp)));
	if (guard)
		di->guard = guard;
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

/* --contexts: a direct jump that stays in its object and section but goes
 * from one function's code to another's (not to its entry: that is a
 * call), which no other helper sees.  The code before it ran in from's
 * function, what follows in to's. */
static VG_REGPARM(2) void h_fn(struct cgt_insn *from, struct cgt_insn *to)
{
	struct thread *t = cur;
	charge_at(t, from);
	move_fn(t, to->obj, fn_of(t, to));
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
	IRDirty *di = unsafeIRDirty_0_N(2, "h_fn", VG_(fnptr_to_fnentry)(h_fn),
					mkIRExprVec_2(mkIRExpr_HWord((HWord)from),
						      mkIRExpr_HWord((HWord)to)));
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
	else if (kind_of(jk) == CGT_XFER_JUMP && fn_moves(from, to))
		emit_fn(out, from, to, guard);
}

Bool cgt_calls_chased(IRSB *out, struct cgt_insn *from, struct cgt_insn *to, Bool was_call,
		      Int offset_SP, void (*before)(void *), void *arg)
{
	struct cgt_exit *x = classify(from, was_call ? CGT_XFER_CALL : CGT_XFER_JUMP, to, True);
	if (!x) {
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

void cgt_calls_fell(IRSB *out, struct cgt_insn *from, struct cgt_insn *to,
		    void (*before)(void *), void *arg)
{
	if (!fn_moves(from, to))
		return;
	before(arg);
	emit_fn(out, from, to, NULL);
}

/* ---- contexts: the check at the start of a region of code without a symbol ---------- */

/* The thread's context differs from the one region r's counters count in:
 * they are folded (given to the old one) and count in the new one. */
static VG_REGPARM(1) void h_ctx(struct cgt_reg *r)
{
	struct frame *top = &cur->f[(Int)cur->n - 1];
	if (top->ctx == CGT_CTX_PENDING) /* a handler's first code, or after instrumentation began */
		ctx_now = top->ctx = cgt_insn_ctx(r->sb->insns[r->first]);
	if (r->ctx == top->ctx)
		return;
	cgt_sb_fold(r->sb);
	r->ctx = top->ctx;
}

void cgt_calls_ctx_check(IRSB *out, struct cgt_reg *r)
{
	IRExpr *now = tmp(out, IRExpr_Load(CGT_END, Ity_I32, mkIRExpr_HWord((HWord)&ctx_now)));
	IRExpr *want = tmp(out, IRExpr_Load(CGT_END, Ity_I32, mkIRExpr_HWord((HWord)&r->ctx)));
	IRDirty *di = unsafeIRDirty_0_N(1, "h_ctx", VG_(fnptr_to_fnentry)(h_ctx),
					mkIRExprVec_1(mkIRExpr_HWord((HWord)r)));
	di->guard = tmp(out, IRExpr_Binop(Iop_CmpNE32, now, want));
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

/* ---- threads ending, counting starting again, snapshots, zeroing ---------------------- */

/* Pops every frame of t, handlers' too, adding their costs. */
static void unwind_thread(struct thread *t)
{
	while (t->nsig)
		end_signal(t);
	while (t->n)
		pop(t);
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
	ThreadId was = cur_tid;
	switch_thread(tid);
	if (cgt_cct_on)
		charge_here(cur, tid);
	unwind_thread(cur);
	cur->f[-1].ctx = CGT_CTX_PENDING;
	cur->fresh = True;
	if (cgt_cct_on) {
		cur->node = cgt_cct_root(tid);
		cur->cut = False;
	}
	switch_thread(was);
	sync_ctx();
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
			now[e] = t == cur ? cgt_tot[e] : t->paused[e];
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
	if (cgt_cct_on && cur)
		charge_here(cur, cur_tid);
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
	all_events = cgt_n_events == CGT_ALL_EVENTS && pairs == ALL_LANE_PAIRS;
	threads = VG_(calloc)("cgtui.calls.threads", VG_N_THREADS, sizeof(*threads));
	if (cgt_cct_on)
		cgt_cct_init();
	VG_(track_start_client_code)(cgt_start_client_code);
	VG_(track_pre_deliver_signal)(cgt_pre_deliver_signal);
	VG_(track_post_deliver_signal)(cgt_post_deliver_signal);
	VG_(track_pre_thread_ll_exit)(cgt_thread_exit);
}

void cgt_calls_code_changed(void)
{
	tc_gen++;
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
