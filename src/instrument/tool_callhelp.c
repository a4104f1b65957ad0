/* tool_callhelp.c -- the call graph's helpers, called by the translated code
 * at the exits that may move between functions (tool_callinstr.c decides
 * which): the common cases in few steps, the rest by callgrind's rules
 * (xfer); at jumps from one function's code into another's (cgt_h_mid,
 * and with --contexts cgt_h_fn); where code without a symbol starts
 * (cgt_h_ctx).
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "tool_calls.h"

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
	struct thread *t = cgt_cur;
	struct cgt_insn *from = x->from;
	UInt kind = x->kind;
	UInt bottom = t->nsig ? t->sig[t->nsig - 1].bottom : 0;

	struct cgt_insn *to = x->to ? x->to : target_of(target);
	if (cgt_cct_on)
		charge_at(t, from);
	if (kind == CGT_XFER_CALL && (t->n == 0 || t->f[t->n - 1].sp >= sp)) {
		cgt_calls_push(t, x, from, to, sp, x->ret_addr);
		/* an indirect call remembers its last target for cgt_h_call_ind */
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
			cgt_calls_pop(t);
		}
		kind = CGT_XFER_CALL;
		emulated = True;
	}

	if (kind == CGT_XFER_RET) {
		if (t->n > bottom)
			cgt_calls_unwind(t, sp, popcount);
		else { /* a return from the bottom of the stack: nothing to pop;
			* the code returned to is the thread's (or handler's)
			* function now, as in callgrind (a root) */
			t->f[(Int)bottom - 1].ctx = cgt_insn_ctx(to);
			if (cgt_cct_on) {
				t->node = cgt_cct_root(cgt_cur_tid);
				t->cut = False;
				move_fn(t, to->obj, cgt_insn_ctx(to));
			}
		}
		return;
	}
	if (cgt_calls_unwind(t, sp, 0) > 0)
		return; /* the SP left frames: a return after all */
	if (kind != CGT_XFER_CALL && cgt_cct_on) { /* a jump: maybe into another function */
		UInt fn = fn_of(t, to);
		move_fn(t, obj_of(fn, to), fn);
	}
	if (kind == CGT_XFER_CALL) {
		Addr ret_addr = emulated ? 0 : x->ret_addr;
		if (emulated && t->n > bottom)
			sp = t->f[t->n - 1].sp;
		cgt_calls_push(t, x, from, to, sp, ret_addr);
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
VG_REGPARM(3) void cgt_h_ret(struct cgt_exit *x, Addr target, Addr sp)
{
	struct thread *t = cgt_cur;
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
		cgt_ctx_now = t->f[(Int)n - 1].ctx;
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
	if (UNLIKELY(a->tid != (cgt_clo_separate_threads ? cgt_cur_tid : 0)))
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
	f->ctx = cgt_ctx_now = a->to->ctx;
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
	VG_REGPARM(3) void h_call(struct cgt_exit *x, Addr target, Addr sp) \
	{                                                                     \
		struct cgt_arc *a = x->arc;                                   \
		if (LIKELY(a && a->from == x->from && fast_call(cgt_cur, x, a, True, sp, ALL))) \
			return;                                               \
		xfer(x, target, sp);                                          \
	}                                                                     \
	VG_REGPARM(3) void h_call_ind(struct cgt_exit *x, Addr target, Addr sp) \
	{                                                                     \
		if (LIKELY(fast_call(cgt_cur, x, seen(x, target), True, sp, ALL)))   \
			return;                                               \
		xfer(x, target, sp);                                          \
	}                                                                     \
	VG_REGPARM(3) void h_jump(struct cgt_exit *x, Addr target, Addr sp) \
	{                                                                     \
		struct cgt_arc *a = x->to ? x->arc : seen(x, target);         \
		if (a && a->from == x->from && fast_call(cgt_cur, x, a, False, sp, ALL)) \
			return;                                               \
		xfer(x, target, sp);                                          \
	}

CALL_HELPERS(False, cgt_h_call, cgt_h_call_ind, cgt_h_jump)
CALL_HELPERS(True, cgt_h_call_all, cgt_h_call_ind_all, cgt_h_jump_all)

/* --contexts: a direct jump that stays in its object and section but goes
 * from one function's code to another's (not to its entry: that is a
 * call), one of them without a symbol (between two with one: cgt_h_mid),
 * or code falling into the next function, which no other helper sees.
 * The code before it ran in from's function, what follows in to's. */
VG_REGPARM(2) void cgt_h_fn(struct cgt_insn *from, struct cgt_insn *to)
{
	struct thread *t = cgt_cur;
	charge_at(t, from);
	UInt fn = fn_of(t, to);
	move_fn(t, obj_of(fn, to), fn);
}

/* A direct jump from one function's code into another's (mid_jump in
 * tool_callinstr.c: not to its entry, in the same object and section):
 * gcc's foo -> foo.cold, the dynamic linker's mempcpy into memcpy.  Its
 * code after the jump counts where it is (cachegrind's rule), so the jump
 * is a call (emulated, from the top frame's stack pointer: popped with
 * it), or, to a function whose frame was pushed from that same stack
 * pointer (foo.cold back into foo), a return to that frame: such jumps
 * back and forth never grow the stack or make a recursion.  (Callgrind
 * keeps the code after the jump in the jumping function's context.) */
VG_REGPARM(2) void cgt_h_mid(struct cgt_exit *x, Addr sp)
{
	cgt_packed_fold();
	struct thread *t = cgt_cur;
	const struct cgt_insn *to = x->to;
	UInt bottom = t->nsig ? t->sig[t->nsig - 1].bottom : 0;
	if (cgt_cct_on)
		charge_at(t, x->from);
	if (cgt_calls_unwind(t, sp, 0) > 0) { /* the SP left frames: a return after all */
		sync_ctx();
		return;
	}
	if (t->n > bottom) {
		Addr top_sp = t->f[t->n - 1].sp;
		UInt i = t->n;
		for (; i > bottom && t->f[i - 1].sp == top_sp; i--) {
			const struct frame *f = &t->f[i - 1];
			if (f->arc && f->arc->to->fn == to->fn && f->arc->to->obj == to->obj)
				break;
		}
		/* (i == bottom: the chain reached the function the thread or
		 * handler started in) */
		if (i > bottom ? t->f[i - 1].sp == top_sp : t->f[(Int)bottom - 1].ctx == to->fn) {
			while (t->n > i)
				cgt_calls_pop(t);
			sync_ctx();
			return;
		}
		sp = top_sp;
	} else if (t->f[(Int)bottom - 1].ctx == to->fn) {
		return;
	}
	cgt_calls_push(t, x, x->from, x->to, sp, 0);
	sync_ctx();
}

/* ---- contexts: the check at the start of a region of code without a symbol ---------- */

/* The thread's context differs from the one region r's counters count in:
 * they are folded (given to the old one) and count in the new one. */
VG_REGPARM(1) void cgt_h_ctx(struct cgt_reg *r)
{
	struct frame *top = &cgt_cur->f[(Int)cgt_cur->n - 1];
	if (top->ctx == CGT_CTX_PENDING) /* a handler's first code, or after instrumentation began */
		cgt_ctx_now = top->ctx = cgt_insn_ctx(r->sb->insns[r->first]);
	if (r->ctx == top->ctx)
		return;
	cgt_sb_fold(r->sb);
	r->ctx = top->ctx;
}

void cgt_calls_code_changed(void)
{
	tc_gen++;
}
