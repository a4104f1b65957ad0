/* tool_calls.h -- what the call graph's three files share, for them only:
 * tool_calls.c (the shadow stacks, call sites, signals, threads, their
 * start and end), tool_callhelp.c (the helpers called at exits that may
 * move between functions) and tool_callinstr.c (the instrumentation: which
 * exits call which helper, and the common return and direct call done by
 * the translated code itself, which reads and writes these structures).
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#ifndef CGTUI_TOOL_CALLS_H
#define CGTUI_TOOL_CALLS_H

#include "tool.h"

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

extern struct thread *cgt_cur;
extern ThreadId cgt_cur_tid;

/* The running thread's context (its top frame's ctx), which the check at
 * the start of a region of code without a symbol compares with the
 * region's: kept up to date wherever the top frame or the thread changes
 * (the inline return and call too), so that the check is two loads. */
extern UInt cgt_ctx_now;

static inline void sync_ctx(void)
{
	cgt_ctx_now = cgt_cur ? cgt_cur->f[(Int)cgt_cur->n - 1].ctx : CGT_CTX_NONE;
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
extern Bool cgt_all_events; /* cgt_n_events == CGT_ALL_EVENTS with those pairs */

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

/* ---- --contexts: the node the running code's cost goes to ------------------------
 * The running totals when the running thread last moved between nodes: at
 * each move the cost since is added to the node left (its self cost). */
extern ULong cgt_cmark[CGT_EV_PAD];

void cgt_charge_cut(struct thread *t); /* charge_node on a cut path */

static inline __attribute__((always_inline)) void charge_node(struct thread *t)
{
	if (UNLIKELY(t->cut)) {
		cgt_charge_cut(t);
		return;
	}
	/* the node's row, pair by pair (the last pair's second event, past
	 * the row with an odd number of events, adds 0: the array has room) */
	ULong *s = &cgt_cct_self[(SizeT)t->node * cgt_n_events];
	if (cgt_n_events == 1) {
		s[0] += cgt_tot[0] - cgt_cmark[0];
		cgt_cmark[0] = cgt_tot[0];
		return;
	}
	for (UInt p = 0; p < ev_pairs(); p++) {
		ev2 now = tot_pair(p);
		*(ev2 *)&s[2 * p] += now - *(const ev2 *)&cgt_cmark[2 * p];
		*(ev2 *)&cgt_cmark[2 * p] = now;
	}
}

/* The thread's code is now function (obj, fn): its node becomes that
 * function's under the node it is on (or the function's earlier node on
 * the path: a jump back), unless it is that function's already. */
static inline __attribute__((always_inline)) void move_fn(struct thread *t, UInt obj, UInt fn)
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

/* The object of that function, as the profile lists n's cost in it (for
 * code without a symbol, cgt_ctx_obj). */
static inline UInt obj_of(UInt fn, struct cgt_insn *n)
{
	if (UNLIKELY(cgt_insn_unnamed(n)) && (n->flags & (CGT_F_KNOWN | CGT_F_PLT)) != CGT_F_KNOWN)
		return cgt_ctx_obj(n, fn);
	return n->obj;
}

/* At an exit of instruction `from`: the code since the last move ran in
 * from's function; its cost goes to that function's node. */
static inline __attribute__((always_inline)) void charge_at(struct thread *t, struct cgt_insn *from)
{
	UInt fn = fn_of(t, from);
	move_fn(t, obj_of(fn, from), fn);
	charge_node(t);
}

/* A call pushed frame f, to function (obj, fn) through call site a (NULL:
 * none, a skipped call): the thread goes to the callee's node. */
static inline __attribute__((always_inline)) void enter_node(struct thread *t, struct frame *f, struct cgt_arc *a, UInt obj,
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
		/* the second entry, or the table; either way the first now
		 * (the inline call reads only that one) */
		if (a->cct_parent2 == t->node) {
			k = a->cct_node2;
			cut = a->cct_cut2;
		} else {
			k = cgt_cct_resolve(t->node, obj, fn, &cut);
		}
		a->cct_parent2 = a->cct_parent;
		a->cct_node2 = a->cct_node;
		a->cct_cut2 = a->cct_cut;
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
static inline __attribute__((always_inline)) void leave_node(struct thread *t, const struct frame *f)
{
	if (f->on_node)
		cgt_cct_leave(f->node);
	t->node = f->ret_node;
	t->cut = f->ret_cut;
}

/* ---- across the files ---------------------------------------------------------------- */

/* tool_calls.c: a call from `from` (exit x) to `to` pushes a frame (a PLT
 * stub's: a skipped call), a frame is popped, the frames the stack pointer
 * left are popped (and minpops more whose SP equals it): how many */
void cgt_calls_push(struct thread *t, struct cgt_exit *x, struct cgt_insn *from, struct cgt_insn *to,
	  Addr sp, Addr ret_addr);
void cgt_calls_pop(struct thread *t);
UInt cgt_calls_unwind(struct thread *t, Addr sp, Int minpops);

/* tool_callhelp.c: the helpers tool_callinstr.c calls from the translations */
VG_REGPARM(3) void cgt_h_ret(struct cgt_exit *x, Addr target, Addr sp);
VG_REGPARM(3) void cgt_h_call(struct cgt_exit *x, Addr target, Addr sp);
VG_REGPARM(3) void cgt_h_call_ind(struct cgt_exit *x, Addr target, Addr sp);
VG_REGPARM(3) void cgt_h_jump(struct cgt_exit *x, Addr target, Addr sp);
VG_REGPARM(3) void cgt_h_call_all(struct cgt_exit *x, Addr target, Addr sp);
VG_REGPARM(3) void cgt_h_call_ind_all(struct cgt_exit *x, Addr target, Addr sp);
VG_REGPARM(3) void cgt_h_jump_all(struct cgt_exit *x, Addr target, Addr sp);
VG_REGPARM(2) void cgt_h_fn(struct cgt_insn *from, struct cgt_insn *to);
VG_REGPARM(2) void cgt_h_mid(struct cgt_exit *x, Addr sp);
VG_REGPARM(1) void cgt_h_ctx(struct cgt_reg *r);

#endif
