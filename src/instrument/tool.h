/* tool.h -- shared state of cgtui's Valgrind tool (runs inside Valgrind:
 * no libc, only VG_(...) calls and VEX IR).
 *
 * The tool counts per guest instruction.  Each instruction seen by the
 * instrumenter gets one `struct cgt_insn` (its address, where it is in the
 * program, and its costs), looked up once when a superblock is translated.
 * Executed code increments one counter per "segment" of a superblock (the
 * instructions between two points where cachegrind would flush its event
 * queue); the counters are folded into the instructions' costs when the
 * translation is discarded and at exit.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_INSTRUMENT_TOOL_H
#define CGTUI_INSTRUMENT_TOOL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* the host's byte order, for the loads and stores the tool adds */
#if defined(VG_BIGENDIAN)
#define CGT_END Iend_BE
#elif defined(VG_LITTLEENDIAN)
#define CGT_END Iend_LE
#else
#error "unknown host endianness"
#endif

/* ---- names: one interning table per kind (objects, files, functions),
 *      ids dense from 0 in the order first seen --------------------------- */

struct cgt_strtab {
	const HChar **names; /* [n] */
	UInt *slot;          /* open addressing: id + 1, 0 = empty; [mask + 1] */
	UInt n, cap, mask;
	/* a keyed table (cgt_fns): each entry is its string and a key, [n]
	 * (a function's is where its symbol starts: one name may be several
	 * functions; cgt_intern's key is 0) */
	Bool keyed;
	ULong *key;
};

UInt cgt_intern(struct cgt_strtab *t, const HChar *s);
/* The same, for dir + "/" + file (or file alone when dir is empty), as
 * cachegrind and callgrind form absolute names. */
UInt cgt_intern_path(struct cgt_strtab *t, const HChar *dir, const HChar *file);

extern struct cgt_strtab cgt_objs, cgt_files, cgt_fns;

/* A function's own file: the file of its first instruction record (its
 * entry, where it is first run), which the profile lists first among the
 * function's files (readers take the first fl= of a function as its file;
 * inlined headers' blocks follow).  Set once: never changes. */
UInt cgt_fn_file(UInt fn);
/* Its own object, that record's too (0 until set). */
UInt cgt_fn_obj(UInt fn);
/* obj and fl, unless fn has its own already */
void cgt_fn_set_own(UInt fn, UInt obj, UInt fl);

/* ---- instructions ---------------------------------------------------------- */

/* Events.  Ir is always counted (index 0); with --cache-sim=yes come Dr Dw
 * I1mr D1mr D1mw ILmr DLmr DLmw, with --branch-sim=yes Bc Bcm Bi Bim, in
 * callgrind's order; other cache models put their events after Dr Dw.  The
 * indices of the others are set by cgt_sim_setup; cgt_n_events costs per
 * instruction. */
enum { CGT_EV_IR = 0, CGT_EV_MAX = 64 };
extern UInt cgt_n_events;
extern const HChar *cgt_event_name[CGT_EV_MAX];

struct cgt_insn {
	struct cgt_insn *next; /* hash chain (by addr) */
	Addr addr;             /* guest address */
	Addr raddr;            /* addr minus the object's text bias (as callgrind
	                          writes it); addr when there is no object */
	UInt obj, file, fn;    /* ids in cgt_objs, cgt_files, cgt_fns (a function:
	                          its name and its symbol's start) */
	UInt line;             /* 0 when unknown */
	UInt id;               /* dense, in the order made */
	UInt len;              /* instruction length in bytes; 0 until known (a
	                          record made for a call's target) */
	UChar flags;           /* CGT_F_*, filled in by cgt_insn_flags */
	UChar sect;            /* VgSectKind of the address */
	UInt ctx;              /* the name of the function a call to this
	                          instruction enters (cgt_insn_ctx), or
	                          CGT_CTX_NONE until asked */
	struct cgt_arc *arcs;  /* calls made by this instruction */
	/* code without a symbol: its costs by the function it ran in (the
	 * context, as callgrind names it); cost[] is their sum */
	struct cgt_ctxcost *ctxs;
	/* code without a symbol, with a simulation: the region of the one
	 * live translation whose helpers count into cost[] directly (misses,
	 * mispredictions); other translations holding the instruction count
	 * into copies of their own (CGT_F_PROXY), so that each count is
	 * given to the context its translation ran in (cgt_count_direct) */
	struct cgt_reg *dreg;
	ULong cost[];          /* [cgt_n_events] */
};

enum {
	CGT_F_KNOWN = 1, /* flags and sect filled in */
	CGT_F_ENTRY = 2, /* a function's first instruction */
	CGT_F_PLT = 4,   /* in a PLT section: calls to it are skipped */
	CGT_F_POPJ = 8,  /* in the dynamic linker's resolver: its jump to the
	                    function resolved replaces its own call */
	CGT_F_PROXY = 16, /* a translation's copy of a record (`next`: the
	                     record), counting its helpers' events until the
	                     translation is folded */
};

/* The record a proxy stands for (n itself if n is none). */
static inline struct cgt_insn *cgt_insn_real(struct cgt_insn *n)
{
	return n->flags & CGT_F_PROXY ? n->next : n;
}

/* ---- contexts: code without a symbol (tool_ctx.c) --------------------------
 *
 * Callgrind gives the cost of an instruction to the function its thread
 * called last (its "context"), and names a function without a symbol by
 * the address where it was entered, relative to its object ("0x%016lx",
 * with " [PLT]", " [GOT]", " [Data]" or " [BSS]" by the section kind).  For
 * instructions with a symbol the tool keeps cachegrind's attribution (the
 * symbol's function); the costs of instructions without one go to the
 * context they ran in, as callgrind's do: the shadow stack's top frame
 * holds the name of the function called (`cgt_insn_ctx` of the call's
 * target), the thread's first instruction names its bottom. */
enum { CGT_CTX_NONE = ~0u, CGT_CTX_PENDING = ~1u };
extern UInt cgt_fn_unnamed; /* the id of "???" in cgt_fns */
static inline Bool cgt_insn_unnamed(const struct cgt_insn *n)
{
	return n->fn == cgt_fn_unnamed;
}

struct cgt_ctxcost {
	struct cgt_ctxcost *next; /* the instruction's other contexts */
	struct cgt_insn *insn;
	UInt ctx;                 /* the function's name (id in cgt_fns) */
	UInt id;                  /* dense, in the order made */
	ThreadId tid;             /* --separate-threads: the thread, else 0 */
	ULong cost[];             /* [cgt_n_events] */
};

void cgt_ctx_init(void);
/* --unnamed=callgrind|cachegrind [callgrind] */
Bool cgt_ctx_option(const HChar *arg);
/* The name of the function entered by a call to n: its symbol's, or the
 * address name.  Made once per instruction. */
UInt cgt_insn_ctx(struct cgt_insn *n);
/* n's costs in context ctx (thread tid, 0 without --separate-threads),
 * made on first use. */
struct cgt_ctxcost *cgt_ctx_node(struct cgt_insn *n, UInt ctx, ThreadId tid);
/* The object code without a symbol, n, run in context ctx is listed
 * under: n's, but a PLT stub's is the object of the context's function,
 * its caller's, which may be another object's (a non-PIE program's PLT
 * entry is the function's address for every object: libc's .plt.got call
 * of free jumps to python3's free@plt).  Listed in its own object the
 * stub's cost made a second function of the context's name there, with
 * no callers; callgrind gives a skipped stub's cost to its caller. */
UInt cgt_ctx_obj(struct cgt_insn *n, UInt ctx);
/* every such record, in the order made: [*n] */
struct cgt_ctxcost *const *cgt_ctx_nodes(UInt *n);

/* The instruction record for guest address `a` (`len` bytes long) with the
 * debug information the core has for it now; made on first use. */
struct cgt_insn *cgt_insn_get(Addr a, UInt len);

/* A translation's copy of n (CGT_F_PROXY), zero costs, VG_(malloc)ed. */
struct cgt_insn *cgt_insn_proxy(struct cgt_insn *n);

/* Fills in n->flags and n->sect (once). */
void cgt_insn_flags(struct cgt_insn *n);

/* Calls f for every instruction record. */
void cgt_insn_foreach(void (*f)(struct cgt_insn *, void *), void *arg);
UInt cgt_insn_count(void);

/* ---- translations ------------------------------------------------------------ */

/* A region of a translation: its instructions from `first` on that run in
 * one context (until the next region: a call or return VEX followed
 * ends one).  Only made where code without a symbol is; the translated
 * code checks at its start that the thread's context is still `ctx`, and
 * when not, folds the translation's counters (giving them to the old
 * contexts) and makes it `ctx`. */
struct cgt_reg {
	struct cgt_sb *sb;
	UInt first; /* index in sb->insns */
	UInt ctx;   /* CGT_CTX_NONE: none yet */
};

struct cgt_sb {
	struct cgt_sb *next;     /* hash chain */
	Addr key;                /* first guest address of the translation */
	UInt n_insns, n_segs;
	UInt slot;               /* --separate-threads: its first counter in the
	                            threads' slot arrays */
	ULong *count;            /* [n_segs]: executions of each segment */
	UInt *seg_end;           /* [n_segs]: segment s is insns[seg_end[s-1] ..
	                            seg_end[s]) */
	struct cgt_insn **insns; /* [n_insns] */
	/* other events counted with the segments (a simulation's Dr, Dw, Bc,
	 * Bi): each happens once per execution of its segment */
	struct cgt_sbev {
		struct cgt_insn *insn;
		UShort ev, seg;
	} *ev;                   /* [n_ev], VG_(malloc)ed, or NULL */
	UInt n_ev;
	struct cgt_reg **reg;    /* [n_reg], by first; each VG_(malloc)ed */
	UInt n_reg;
	/* --timeline: on tool_time.c's list of translations that ran in the
	 * interval whose stamp is time_stamp, at time_slot */
	UInt time_stamp, time_slot;
	/* the copies its helpers count into (cgt_insn.dreg), VG_(malloc)ed */
	struct cgt_insn **proxy; /* [n_proxy] */
	UInt n_proxy;
};

/* A record with room for n_insns instructions (and as many segments),
 * entered in the table under `key`. */
struct cgt_sb *cgt_sb_new(Addr key, UInt n_insns, UInt max_segs);
/* Adds the counters of the most recent translation at `key` into its
 * instructions' costs and forgets it; False if there is none. */
Bool cgt_sb_discard(Addr key);
/* Adds the counters of every live translation into the instructions' costs
 * and zeroes them (the translations stay). */
void cgt_sb_fold_all(void);
/* The same for one translation. */
void cgt_sb_fold(struct cgt_sb *sb);
/* After a fold: the costs of sb's instructions without a symbol not yet
 * given to a context go to their regions' contexts. */
void cgt_ctx_attribute(const struct cgt_sb *sb);
/* Before a translation holding a copy of n is folded: what n's own counts
 * hold that no context has yet goes to the context of the translation
 * counting into them (its dreg's). */
void cgt_ctx_settle(struct cgt_insn *n);

/* ---- counting Ir inline (tool_main.c), for both instrumenters -------------- */

/* A translation's instructions are cut into segments; one inline increment
 * per segment counts its instructions, another adds them to cgt_tot. */
struct cgt_count {
	IRSB *out;
	struct cgt_sb *sb;
	UInt n_done;      /* instructions entered in sb->insns */
	UInt pending;     /* instructions since the last segment's end */
	UInt tot_pending; /* instructions not yet added to the running total */
	UInt max_segs, cap_ev;
	UInt ev_pending[CGT_EV_MAX]; /* other events of the open segment */
	IRExpr *base;     /* the tool's statics' address in a temporary, or NULL */
	Bool reg_open;    /* the current region (since the start or the last
			     call or return followed) has its check */
};

/* The address `p` as an expression for the translation: for the tool's
 * own statics (counters, totals, predictors) an offset from a base read
 * once per block (an immediate in the host's addressing, where a 64-bit
 * constant would have to be loaded before each use), else a constant. */
IRExpr *cgt_count_addr(struct cgt_count *c, const void *p);

/* max_segs: at most how many segments (n_insns when only Ir is counted) */
void cgt_count_start(struct cgt_count *c, IRSB *out, Addr key, UInt n_insns, UInt max_segs);
/* an event `ev` of instruction n, counted with the open segment */
void cgt_count_event(struct cgt_count *c, struct cgt_insn *n, UInt ev);
/* the next instruction of the translation */
void cgt_count_insn(struct cgt_count *c, struct cgt_insn *n);
/* the instructions since the last end are counted each time execution
 * gets here */
void cgt_count_end_segment(struct cgt_count *c);
/* With a simulation, after cgt_count_insn(c, n): the record the helpers of
 * n count into in this translation (see struct cgt_insn's dreg): n, or a
 * copy of it folded into it with the translation's counters. */
struct cgt_insn *cgt_count_direct(struct cgt_count *c, struct cgt_insn *n);
/* a call or return VEX followed: the next instructions may run in another
 * context */
void cgt_count_new_region(struct cgt_count *c);
/* the running total counts the instructions so far */
void cgt_count_flush_total(struct cgt_count *c);

/* ---- --separate-threads=yes (tool_threads.c) -------------------------------- */

extern Bool cgt_clo_separate_threads;
/* the running thread's segment counters and cost table */
extern ULong *cgt_cur_slots;
extern ULong *cgt_cur_tcost;
void cgt_threads_init(void);
void cgt_threads_switch(ThreadId tid);
/* n consecutive counters for a new translation: the first's index */
UInt cgt_threads_slots(UInt n);
/* an instruction record was made (the running thread's table grows) */
void cgt_threads_new_insn(void);
/* adds a translation's counters of every thread into the costs */
void cgt_threads_fold(const struct cgt_sb *sb);
/* every thread's costs of p (a proxy) added to n's, p's zeroed */
void cgt_threads_move(const struct cgt_insn *p, const struct cgt_insn *n);
/* thread tid's costs of instruction n ([cgt_n_events]) */
const ULong *cgt_threads_cost(ThreadId tid, const struct cgt_insn *n);
Bool cgt_threads_used(ThreadId tid);
/* at exit, with a simulation: the instructions' costs from the threads' */
void cgt_threads_sum(void);
/* every thread's costs zero */
void cgt_threads_zero(void);

/* ---- simulation (tool_sim.c) ---------------------------------------------- */

extern Bool cgt_clo_cache_sim, cgt_clo_branch_sim;

/* n more of instruction n's event ev, in its cost and the running total
 * (helpers that count; the thread's table with --separate-threads=yes) */
#define CGT_ADD(n, ev, v)                                                        \
	do {                                                                     \
		if (cgt_clo_separate_threads)                                    \
			cgt_cur_tcost[(SizeT)(n)->id * cgt_n_events + (ev)] += (v); \
		else                                                             \
			(n)->cost[ev] += (v);                                    \
		cgt_tot[ev] += (v);                                              \
	} while (0)

/* --I1=, --D1=, --LL= (and the old --L2=); False if `arg` is none of them. */
Bool cgt_sim_option(const HChar *arg);
void cgt_sim_usage(void);
/* After the options: the event list, the caches and the predictors. */
void cgt_sim_setup(void);
/* "desc:" lines for the output (the caches simulated), or nothing. */
void cgt_sim_desc(void (*put)(const HChar *line, void *arg), void *arg);
/* "event:" lines (the long names of the cache models' events), or nothing */
struct _VgFile;
void cgt_sim_event_lines(struct _VgFile *fp);
/* The lines after the costs (--cache-mrc's curves, as comments), or nothing */
void cgt_sim_trailer(struct _VgFile *fp);
/* The counts kept outside the instructions' costs (the curves' histograms,
 * the levels' write-backs and prefetches) back to 0; the caches' and the
 * sampled lines' state stay, as the caches' in callgrind's zero */
void cgt_sim_zero(void);
/* Instruments a superblock through cachegrind's event queue, calling the
 * simulators' helpers (used when a simulation is on). */
IRSB *cgt_sim_instrument(IRSB *in, IRType hWordTy, Int offset_SP, Addr key);

/* ---- line utilisation, --cache-use=yes (tool_use.c) ------------------------ */

extern Bool cgt_clo_cache_use;
struct sim_geom;
/* its events from n on (D1fb D1ub), for a cache of geometry g: the next */
UInt cgt_use_setup(const struct sim_geom *g, UInt n);
/* a data access, from a helper; or the call made in a translation */
void cgt_use_ref(struct cgt_insn *n, Addr a, UWord size);
void cgt_use_instrument(IRSB *out, struct cgt_insn *n, IRExpr *atom, UInt size);
/* the lines still present counted as if they left (at the end) */
void cgt_use_flush(void);
void cgt_use_desc(void (*put)(const HChar *line, void *arg), void *arg);
void cgt_use_event_lines(struct _VgFile *fp);

/* ---- calls (tool_calls.c) ------------------------------------------------- */

/* Running totals of every event, added to by the executed code (one more
 * than the events, for loops of even length over them). */
#define CGT_EV_PAD (CGT_EV_MAX + 1)
extern ULong cgt_tot[CGT_EV_PAD];

/* With several events, the translated code adds the events counted by
 * segments (Ir, Dr, Dw, Bc, Bi) to 32-bit lanes here, two to a 64-bit word
 * (fewer additions per segment): word p holds events 2p and 2p+1, as
 * cgt_tot's pair p.  The running total of event e is cgt_tot[e] plus its
 * lane (the call helpers read both); cgt_packed_fold() moves the lanes into
 * cgt_tot.  It runs at least once per scheduler time slice (100,000 blocks:
 * a lane cannot overflow) and before cgt_tot is read alone. */
#define CGT_PACKED_WORDS (CGT_EV_PAD / 2)
/* the events counted by segments (bit e: event e), in cgt_packed with a
 * simulation */
extern UInt cgt_seg_events;
extern ULong cgt_packed[CGT_PACKED_WORDS];
void cgt_packed_fold(void);

/* A call site: calls from one instruction to one target instruction. */
struct cgt_arc {
	struct cgt_arc *next; /* the other calls of the same instruction */
	struct cgt_insn *from, *to;
	ThreadId tid;         /* --separate-threads: the calling thread, else 0 */
	UInt ctx;             /* the caller: from's function, or for code
	                         without a symbol the context it ran in */
	ULong count;
	/* --contexts: the node its last call from node cct_parent went to,
	 * and the one before from another node (cct_parent2) */
	UInt cct_parent, cct_node, cct_parent2, cct_node2;
	Bool cct_cut, cct_cut2;
	ULong incl[]; /* [cgt_n_events]: cost between the calls and returns */
};

enum { CGT_XFER_NONE, CGT_XFER_CALL, CGT_XFER_RET, CGT_XFER_JUMP };

/* An exit of a translation that may move to another function. */
struct cgt_exit {
	struct cgt_insn *from; /* the instruction of the exit */
	struct cgt_insn *to;   /* the target when constant, else NULL */
	Addr ret_addr;         /* a call ending its block: the next address */
	struct cgt_arc *arc;   /* the call site of its last call */
	/* an indirect exit: the call sites of its last calls, by target
	 * address, valid while the code's generation is `gen` */
	Addr seen_target[4];
	struct cgt_arc *seen_arc[4];
	UInt gen, seen_next;
	UInt kind;             /* CGT_XFER_* of the exit's jump kind */
	Bool unnamed;          /* `from` has no symbol: its call sites are by
	                          context too */
};

/* Adds to `out`, before an exit (a side exit with its guard, or the block's
 * end with guard NULL) of kind `jk` to `dst` (a constant or a temporary),
 * from instruction `from`, the call to the call-tracking helper, if that
 * exit can go from one function to another. */
void cgt_calls_exit(IRSB *out, struct cgt_insn *from, IRJumpKind jk, IRExpr *dst,
		    IRExpr *guard, Int offset_SP, Bool block_end);
/* The instruction `to` comes after `from` in a block: VEX translated on
 * at a direct call (was_call) or jump it followed (`to` is not the next
 * instruction, or `from` jumps to it), or `from` goes on into `to`.
 * Where that moves between functions, calls before(arg) (which brings the
 * running totals up to date) and adds the helper's call, or (--contexts,
 * a function falling into the next) the move between their nodes.  True
 * if it added a call or a jump's helper (a new region of counts). */
Bool cgt_calls_next(IRSB *out, struct cgt_insn *from, struct cgt_insn *to, Bool was_call,
		    Int offset_SP, void (*before)(void *), void *arg);
/* The constant target of an Ist_AbiHint, else 0 (tool_main.c). */
Addr cgt_hint_target(const IRStmt *st);
void cgt_calls_init(void);
/* Code was discarded: cached targets are looked up again. */
void cgt_calls_code_changed(void);
/* Counting starts (again): each thread's shadow stack is brought to what
 * its stack holds (the calls made while it was off pushed, those ended
 * popped). */
void cgt_calls_resume(void);
/* Pops every frame of every thread (at exit), adding their costs. */
void cgt_calls_unwind_all(void);
/* Adds to `out` the check of region r (see struct cgt_reg). */
void cgt_calls_ctx_check(IRSB *out, struct cgt_reg *r);
/* For snapshots: calls still running get the cost they have so far, as if
 * they returned now (add = True), and lose it again afterwards (False). */
void cgt_calls_active(Bool add);
/* Zeroes every call site's count and cost; calls still running count from
 * now. */
void cgt_calls_zero(void);

/* ---- calling contexts (tool_cct.c) -------------------------------------------
 *
 * With --contexts=yes, a tree of nodes per thread (a node per call path,
 * recursion folded), each with its self cost and calls; tool_calls.c moves
 * each thread between nodes and charges the running totals to the node
 * left.  Written beside the profile as PROFILE.ctx. */
enum { CGT_CCT_NONE = ~0u, CGT_CCT_MAX_DEFAULT = 300000 };
extern Bool cgt_cct_on;
Bool cgt_cct_option(const HChar *arg);
void cgt_cct_usage(void);
void cgt_cct_init(void);
/* thread tid's root (not written: its children are the roots of the file) */
UInt cgt_cct_root(ThreadId tid);
/* A node; the translated code (the inline return and call) reads and
 * writes them too, through cgt_cct_nodes and cgt_cct_self. */
struct cgt_cnode {
	UInt parent; /* CGT_CCT_NONE: a thread's root (not written) */
	UInt obj, fn; /* (adjacent: the inline code compares both at once) */
	UInt active; /* live frames on it now */
	UInt rec;    /* the most there were */
	UShort tid;
	UChar cut;   /* charged on a cut path, or reached by a cut */
	UChar root;
	ULong calls; /* frames pushed on it */
	ULong outer; /* of them, with none live on it: the calls from its
		      * parent, not the recursion folded into it */
};
extern struct cgt_cnode *cgt_cct_nodes;
extern ULong *cgt_cct_self; /* [node * cgt_n_events + event] */
static inline Bool cgt_cct_is_root(UInt node)
{
	return cgt_cct_nodes[node].root;
}
/* node is function (obj, fn)'s (never a root's) */
static inline Bool cgt_cct_is(UInt node, UInt obj, UInt fn)
{
	const struct cgt_cnode *c = &cgt_cct_nodes[node];
	return !c->root && c->fn == fn && c->obj == obj;
}
/* the node a call from `parent` to function (obj, fn) goes to; *cut when
 * the bound made it a node elsewhere */
UInt cgt_cct_resolve(UInt parent, UInt obj, UInt fn, Bool *cut);
/* a frame is pushed on the node (a call), or popped */
static inline void cgt_cct_enter(UInt node)
{
	struct cgt_cnode *c = &cgt_cct_nodes[node];
	c->calls++;
	c->outer += c->active == 0;
	if (++c->active > c->rec)
		c->rec = c->active;
}
static inline void cgt_cct_leave(UInt node)
{
	if (cgt_cct_nodes[node].active)
		cgt_cct_nodes[node].active--;
}
/* adds d[cgt_n_events] to the node's self cost (and, on a cut path, to
 * its thread's cut cost) */
void cgt_cct_add(UInt node, const ULong *d, Bool cut);
/* every cost and call count back to 0 (the tree stays) */
void cgt_cct_zero(void);
/* Writes the contexts of every thread (only = 0) or of thread `only`. */
Bool cgt_cct_write(const HChar *path, ThreadId only);
/* the running thread's cost since its last move, charged to its node now
 * (before a dump) */
void cgt_calls_charge(void);

/* ---- the time axis (tool_time.c) --------------------------------------------
 *
 * With --timeline=yes, every function's self cost per interval of about
 * --timeline-interval instructions, written beside the profile as
 * PROFILE.time. */
enum { CGT_TIME_INTERVAL_DEFAULT = 1000000 };
extern Bool cgt_time_on;
Bool cgt_time_option(const HChar *arg);
void cgt_time_usage(void);
void cgt_time_init(void);
/* at each scheduler slice: ends the interval when its length is reached */
void cgt_time_tick(void);
/* the costs were zeroed: the intervals start again */
void cgt_time_zero(void);
/* The translated code: sb's first counter left 0 (sb ran since its last
 * fold).  Only with --timeline=yes. */
VG_REGPARM(1) void cgt_time_ran(struct cgt_sb *sb);
/* sb (folded) is discarded */
void cgt_time_discard(struct cgt_sb *sb);
/* n's costs grew other than by its translation's counters (a line's
 * eviction); only with --timeline=yes */
void cgt_time_touch(struct cgt_insn *n);
/* PATH.time beside the profile PATH (the interval still open last) */
Bool cgt_time_write(const HChar *path);

/* ---- live snapshots, --instr-at-start, client requests (tool_live.c) ---- */

extern Bool cgt_instr_on; /* counting now (instrumenting new blocks) */
Bool cgt_live_option(const HChar *arg);
void cgt_live_usage(void);
void cgt_live_pre_clo_init(void);
void cgt_live_post_clo_init(void);
void cgt_live_fini(void);
/* The snapshot check, registered with VG_(track_start_client_code) when
 * --cgtui-live is given.  The core keeps one function per event: code that
 * registers its own must call this one from it. */
void cgt_live_start_client_code(ThreadId tid, ULong blocks);
/* " ARG" for the cmd: line, line breaks made spaces */
struct _VgFile;
void cgt_put_arg(struct _VgFile *fp, const HChar *arg);
/* "desc: Options: ..." for the output */
void cgt_live_desc(void (*put)(const HChar *line, void *arg), void *arg);

/* ---- output -------------------------------------------------------------- */

/* Writes the profile in Callgrind format to `path`; False (after a message)
 * if it cannot be written.  `trigger` says why, as callgrind's "desc:
 * Trigger:" line; the file is part cgt_dump_part of the run ("part:"). */
Bool cgt_dump(const HChar *path, const HChar *trigger);
extern UInt cgt_dump_part;
/* The profile's name (--cgtui-out-file expanded now); VG_(free) it. */
HChar *cgt_out_path(void);
/* Zeroes every cost (the counters are folded first). */
void cgt_costs_zero(void);

/* ---- memory that lives until exit ------------------------------------------ */

void *cgt_perm_alloc(SizeT n);

#endif
