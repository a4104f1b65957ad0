/* tool_calls.c -- the call graph: one shadow call stack per thread (and a
 * separate section of it per signal handler), calls and returns decided by
 * callgrind's rules, and per call site the number of calls and the cost
 * counted between each call and its return (inclusive cost).
 *
 * The instrumenter (tool_main.c, tool_sim.c) calls cgt_calls_exit() for each
 * block end and side exit, and cgt_calls_chased() where VEX went on
 * translating at the target of a direct call or jump (a superblock may
 * follow them); it decides at translation time which can move between
 * functions and only those call the helper `h_xfer` when taken.  Costs: the executed code adds to the running totals `cgt_tot`
 * (inline for Ir, in the simulators' helpers for the other events); a call
 * remembers the totals of its thread when it is pushed, and adds the
 * difference to its call site when it is popped.
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

ULong cgt_tot[CGT_EV_PAD];
ULong cgt_packed[CGT_PACKED_WORDS];

static UInt lane_ev[2 * CGT_PACKED_WORDS]; /* the event of each lane */
static UInt n_lanes;

UInt cgt_packed_lane(UInt e)
{
	for (UInt l = 0; l < n_lanes; l++)
		if (lane_ev[l] == e)
			return l;
	tl_assert(n_lanes < 2 * CGT_PACKED_WORDS);
	lane_ev[n_lanes] = e;
	return n_lanes++;
}

void cgt_packed_fold(void)
{
	for (UInt w = 0; w < CGT_PACKED_WORDS; w++) {
		ULong v = cgt_packed[w];
		if (!v)
			continue;
		cgt_packed[w] = 0;
		cgt_tot[lane_ev[2 * w]] += v & 0xffffffffULL;
		if (2 * w + 1 < n_lanes)
			cgt_tot[lane_ev[2 * w + 1]] += v >> 32;
	}
}

/* ---- per thread: the shadow stack ------------------------------------------------ */

struct frame {
	struct cgt_arc *arc;         /* NULL: a skipped call (into a PLT stub) */
	Addr sp;                     /* the stack pointer at the callee's entry */
	Addr ret_addr;               /* where a real call returns; 0 if emulated */
	struct cgt_insn *nonskipped; /* the thread's nonskipped before this push */
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
	ULong start[CGT_EV_PAD]; /* the thread's totals (cgt_tot - off) */
};

#define MAX_SIG_NEST 16

struct thread {
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
};

static struct thread **threads; /* [VG_N_THREADS] */
static struct thread *cur;
static ThreadId cur_tid = VG_INVALID_THREADID;

/* A frame's `enter` at a push, and its cost added to `incl` at the pop.
 * With several events all CGT_EV_PAD are done (those not counted stay 0):
 * loops of known, even length the compiler turns into vector code. */
/* two events at a time (GCC's and clang's vector extension; any alignment
 * of 8) */
typedef ULong ev2 __attribute__((vector_size(16), aligned(8)));

static inline void snap(ULong *enter)
{
	if (cgt_n_events == 1) {
		enter[0] = cgt_tot[0];
		return;
	}
	for (UInt e = 0; e < CGT_EV_PAD; e += 2)
		*(ev2 *)&enter[e] = *(const ev2 *)&cgt_tot[e];
}

static inline void add_since(ULong *incl, const ULong *enter)
{
	if (cgt_n_events == 1) {
		incl[0] += cgt_tot[0] - enter[0];
		return;
	}
	for (UInt e = 0; e < CGT_EV_PAD; e += 2)
		*(ev2 *)&incl[e] += *(const ev2 *)&cgt_tot[e] - *(const ev2 *)&enter[e];
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
		for (UInt e = 0; e < cgt_n_events; e++)
			t->off[e] = t->paused[e] = cgt_tot[e];
		threads[tid] = t;
	}
	return threads[tid];
}

/* The scheduler runs `tid` now: costs from here on are its. */
static void switch_thread(ThreadId tid)
{
	cgt_packed_fold();
	if (tid == cur_tid)
		return;
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
}

/* Valgrind keeps one such hook: the live snapshots are taken from here too. */
static void cgt_start_client_code(ThreadId tid, ULong blocks_done)
{
	switch_thread(tid);
	cgt_live_start_client_code(tid, blocks_done);
}

/* ---- call sites -------------------------------------------------------------------- */

static struct cgt_arc *arc_get(struct cgt_insn *from, struct cgt_insn *to, ThreadId tid)
{
	struct cgt_arc **pp = &from->arcs;
	for (struct cgt_arc *a = *pp; a; pp = &a->next, a = a->next)
		if (a->to == to && a->tid == tid) {
			/* most recently used first: indirect call sites */
			*pp = a->next;
			a->next = from->arcs;
			from->arcs = a;
			return a;
		}
	SizeT size = sizeof(struct cgt_arc) + (cgt_n_events == 1 ? 1 : CGT_EV_PAD) * sizeof(ULong);
	struct cgt_arc *a = cgt_perm_alloc(size);
	VG_(memset)(a, 0, size);
	a->from = from;
	a->to = to;
	a->tid = tid;
	a->next = from->arcs;
	from->arcs = a;
	return a;
}

/* ---- push and pop --------------------------------------------------------------- */

static void push(struct thread *t, struct cgt_exit *x, struct cgt_insn *from,
		 struct cgt_insn *to, Addr sp, Addr ret_addr)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->f = VG_(realloc)("cgtui.calls.stack", t->f, t->cap * sizeof(*t->f));
	}
	struct frame *f = &t->f[t->n++];
	f->sp = sp;
	f->ret_addr = ret_addr;
	f->nonskipped = t->nonskipped;
	if (to->flags & CGT_F_PLT) {
		/* callgrind's --skip-plt=yes: no call of its own; what the stub
		 * calls is called from the site that called the stub */
		f->arc = NULL;
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
	if (!a || a->to != to || a->from != from || a->tid != tid)
		a = x->arc = arc_get(from, to, tid);
	f->arc = a;
	a->count++;
	snap(f->enter);
}

static void end_signal(struct thread *t);

static void pop(struct thread *t)
{
	tl_assert(t->n > 0);
	struct frame *f = &t->f[--t->n];
	t->nonskipped = f->nonskipped;
	if (f->arc)
		add_since(f->arc->incl, f->enter);
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
	for (UInt e = 0; e < cgt_n_events; e++)
		m->start[e] = cgt_tot[e] - t->off[e];
}

/* The handler's frames are popped and its cost is taken out of the totals
 * the interrupted calls see. */
static void end_signal(struct thread *t)
{
	struct sigmark *m = &t->sig[t->nsig - 1];
	UInt bottom = m->bottom;
	t->nsig--;
	while (t->n > bottom)
		pop(t);
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
}

/* ---- the helper, at exits that may go to another function ---------------------- */

static UInt tc_gen = 1;

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
/* An indirect exit's call sites by target: the one for `target`, or NULL. */
static inline struct cgt_arc *seen(const struct cgt_exit *x, Addr target)
{
	if (x->gen != tc_gen)
		return NULL;
	for (UInt i = 0; i < 4; i++)
		if (x->seen_target[i] == target)
			return x->seen_arc[i];
	return NULL;
}

/* After a push from an indirect exit: its call site for `target`. */
static void remember(struct cgt_exit *x, Addr target, const struct cgt_insn *to)
{
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

static __attribute__((noinline)) void xfer(struct cgt_exit *x, Addr target, Addr sp)
{
	struct thread *t = cur;
	struct cgt_insn *from = x->from;
	UInt kind = x->kind;
	UInt bottom = t->nsig ? t->sig[t->nsig - 1].bottom : 0;

	struct cgt_insn *to = x->to ? x->to : target_of(target);
	if (kind == CGT_XFER_CALL && (t->n == 0 || t->f[t->n - 1].sp >= sp)) {
		push(t, x, from, to, sp, x->ret_addr);
		/* an indirect call remembers its last target for h_xfer */
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
		/* a return from the bottom of the stack: nothing to pop */
		return;
	}
	if (unwind(t, sp, 0) > 0)
		return; /* the SP left frames: a return after all */
	if (kind == CGT_XFER_CALL) {
		Addr ret_addr = emulated ? 0 : x->ret_addr;
		if (emulated && t->n > bottom)
			sp = t->f[t->n - 1].sp;
		push(t, x, from, to, sp, ret_addr);
		remember(x, target, to);
	}
}

/* The helper.  The two common cases first, in few steps and without the
 * general code's registers: a return that leaves the top frame (outside a
 * signal handler), and a direct call with nothing to unwind, skip or grow;
 * they do what xfer would. */
static VG_REGPARM(3) void h_xfer(struct cgt_exit *x, Addr target, Addr sp)
{
	if (cgt_n_events > 1)
		cgt_packed_fold();
	struct thread *t = cur;
	UInt n = t->n;
	if (x->kind == CGT_XFER_RET) {
		if (n > 0 && !t->nsig && sp > t->f[n - 1].sp) {
			do {
				struct frame *f = &t->f[--n];
				t->nonskipped = f->nonskipped;
				if (f->arc)
					add_since(f->arc->incl, f->enter);
			} while (n > 0 && t->f[n - 1].sp < sp);
			t->n = n;
			return;
		}
	} else if (!t->nonskipped && n < t->cap && (n == 0 || t->f[n - 1].sp >= sp)) {
		/* the call site of the last call from this exit, if the call
		 * goes to the same place (for an indirect call: the same
		 * target address, the code there unchanged).  A jump that
		 * made a call there does so again (tail calls through a
		 * table), from the SP of the frame below. */
		struct cgt_arc *a = x->to ? x->arc : seen(x, target);
		Bool call = x->kind == CGT_XFER_CALL;
		Bool jump = x->kind == CGT_XFER_JUMP && n > 0 && !t->nsig &&
			    !(x->from->flags & CGT_F_POPJ);
		if ((call || jump) && a && a->from == x->from && (!x->to || a->to == x->to) &&
		    !(a->to->flags & CGT_F_PLT) && a->tid == (cgt_clo_separate_threads ? cur_tid : 0)) {
			struct frame *f = &t->f[n];
			f->sp = call ? sp : t->f[n - 1].sp;
			f->ret_addr = call ? x->ret_addr : 0;
			f->nonskipped = NULL;
			f->arc = a;
			a->count++;
			snap(f->enter);
			t->n = n + 1;
			return;
		}
	}
	xfer(x, target, sp);
}

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
	x->kind = kind;
	x->arc = NULL;
	x->gen = 0;
	x->seen_next = 0;
	/* where a real call returns to (callgrind: only for a call ending the
	 * block) */
	x->ret_addr = kind == CGT_XFER_CALL && block_end ? from->addr + from->len : 0;
	return x;
}

static void emit(IRSB *out, struct cgt_exit *x, IRExpr *dst, IRExpr *guard, Int offset_SP)
{
	IRType ty = typeOfIRExpr(out->tyenv, dst);
	IRTemp sp = newIRTemp(out->tyenv, ty);
	addStmtToIRSB(out, IRStmt_WrTmp(sp, IRExpr_Get(offset_SP, ty)));
	IRDirty *di = unsafeIRDirty_0_N(3, "h_xfer", VG_(fnptr_to_fnentry)(h_xfer),
					mkIRExprVec_3(mkIRExpr_HWord((HWord)x), dst,
						      IRExpr_RdTmp(sp)));
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
}

Bool cgt_calls_chased(IRSB *out, struct cgt_insn *from, struct cgt_insn *to, Bool was_call,
		      Int offset_SP, void (*before)(void *), void *arg)
{
	struct cgt_exit *x = classify(from, was_call ? CGT_XFER_CALL : CGT_XFER_JUMP, to, True);
	if (!x)
		return False;
	before(arg);
	emit(out, x, mkIRExpr_HWord(to->addr), NULL, offset_SP);
	return True;
}

/* ---- start and end ---------------------------------------------------------------- */

void cgt_calls_init(void)
{
	threads = VG_(calloc)("cgtui.calls.threads", VG_N_THREADS, sizeof(*threads));
	VG_(track_start_client_code)(cgt_start_client_code);
	VG_(track_pre_deliver_signal)(cgt_pre_deliver_signal);
	VG_(track_post_deliver_signal)(cgt_post_deliver_signal);
}

void cgt_calls_code_changed(void)
{
	tc_gen++;
}

void cgt_calls_unwind_all(void)
{
	cgt_packed_fold();
	for (UInt tid = 0; tid < VG_N_THREADS; tid++) {
		struct thread *t = threads[tid];
		if (!t)
			continue;
		switch_thread(tid);
		while (t->nsig)
			end_signal(t);
		while (t->n)
			pop(t);
	}
}
