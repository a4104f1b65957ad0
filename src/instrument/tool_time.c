/* tool_time.c -- the time axis (--timeline=yes): the self cost of every
 * function per interval of instructions, written beside the profile as
 * PROFILE.time ("cgtui-timeline 1", man/cgtui.1: "Timeline"), which
 * callgrind_annotate and KCachegrind never read.
 *
 * An interval ends at the first scheduler time slice (about 100,000
 * blocks) or system call after --timeline-interval instructions: there,
 * the counters of the translations that ran in the interval are folded
 * into their instructions' costs, and each of those instructions' cost
 * (for code without a symbol: each of its contexts', tool_ctx.c) is
 * compared with its value at the previous end; the differences, summed by
 * function (the profile's rows), are the interval's.  So summed over the
 * intervals, a function's cost is its self cost in the profile, exactly.
 *
 * Only what ran is visited (an interval end costs what the interval ran,
 * not what the program has run so far): a translation's first segment
 * counter, zero since its last fold, calls cgt_time_ran when it leaves
 * zero (one compare in the translated code, the call once per interval at
 * most), which puts the translation on the list of those that ran; at the
 * end, their instructions go on the list of instructions touched, as do
 * those of a translation discarded in the interval (cgt_time_discard) and
 * those whose costs a line's eviction adds to (cgt_time_touch).  Each list
 * holds an entry at most once per interval (a stamp: the interval's
 * number).
 * At most TIME_CAP intervals are kept: when full, neighbours are merged
 * pairwise and the length doubles, so memory stays bounded and a long run
 * still has between TIME_CAP/2 and TIME_CAP intervals.  The interval still
 * open is written as the last one at every dump; a zero (a dump's part,
 * CALLGRIND_ZERO_STATS) starts the intervals again, as the costs.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"

#include "tool.h"

enum { TIME_CAP = 512, TIME_NONE = ~0u };

Bool cgt_time_on = False;
static Long clo_interval = CGT_TIME_INTERVAL_DEFAULT;

Bool cgt_time_option(const HChar *arg)
{
	if (VG_BOOL_CLO(arg, "--timeline", cgt_time_on)) {
	} else if (VG_BINT_CLO(arg, "--timeline-interval", clo_interval, 1000, 1000000000000LL)) {
	} else {
		return False;
	}
	return True;
}

void cgt_time_usage(void)
{
	VG_(printf)("    --timeline=yes|no         record the cost per interval (PROFILE.time) [no]\n"
		    "    --timeline-interval=<n>   the first intervals' length in Ir [%d]\n",
		    CGT_TIME_INTERVAL_DEFAULT);
}

/* ---- functions: (object, name) as the profile names them, dense ids ---- */

static struct { UInt obj, fn; } *keys; /* [nkeys] */
static UInt nkeys, kcap;
static UInt *kslot, kmask;             /* open addressing: key + 1, 0 = empty */
static UInt epoch = 1;              /* the interval's stamp */
static ULong *acc;                     /* [kcap * cgt_n_events]: the open
					  interval's cost by function so far */
static UInt *kstamp;                   /* [kcap]: on klist in this interval */
static UInt *klist, nklist, cklist;    /* functions with a cost in it */

/* per instruction record (by id) and per context record: the function,
   the costs at the last end, the stamp of the list of those touched */
struct cell {
	UInt key, stamp;
};
static struct cell *insn_cell, *node_cell;
static UInt n_insn_cell, n_node_cell;
static ULong *insn_snap, *node_snap;  /* [n_*_cell * cgt_n_events] */
static struct cgt_insn **ilist;       /* instructions touched */
static UInt nilist, cilist;
static struct cgt_sb **slist;         /* translations that ran (NULL: discarded) */
static UInt nslist, cslist;

static UInt khash(UInt obj, UInt fn)
{
	UInt h = obj * 0x9e3779b1u ^ fn * 0x85ebca77u;
	return h ^ (h >> 15);
}

static void kgrow(void)
{
	UInt ncap = kcap ? 2 * kcap : 1024;
	keys = VG_(realloc)("cgtui.time.keys", keys, ncap * sizeof(*keys));
	SizeT old = (SizeT)kcap * cgt_n_events, now = (SizeT)ncap * cgt_n_events;
	acc = VG_(realloc)("cgtui.time.acc", acc, now * sizeof(ULong));
	VG_(memset)(acc + old, 0, (now - old) * sizeof(ULong));
	kstamp = VG_(realloc)("cgtui.time.kstamp", kstamp, ncap * sizeof(UInt));
	VG_(memset)(kstamp + kcap, 0, (ncap - kcap) * sizeof(UInt));
	if (kslot)
		VG_(free)(kslot);
	kmask = 2 * ncap - 1;
	kslot = VG_(calloc)("cgtui.time.slot", kmask + 1, sizeof(UInt));
	for (UInt k = 0; k < nkeys; k++) {
		UInt h = khash(keys[k].obj, keys[k].fn) & kmask;
		while (kslot[h])
			h = (h + 1) & kmask;
		kslot[h] = k + 1;
	}
	kcap = ncap;
}

static UInt key_of(UInt obj, UInt fn)
{
	UInt h = khash(obj, fn) & kmask;
	for (; kslot[h]; h = (h + 1) & kmask) {
		UInt k = kslot[h] - 1;
		if (keys[k].obj == obj && keys[k].fn == fn)
			return k;
	}
	if (nkeys == kcap) {
		kgrow();
		return key_of(obj, fn);
	}
	keys[nkeys].obj = obj;
	keys[nkeys].fn = fn;
	kslot[h] = ++nkeys;
	return nkeys - 1;
}

/* record id's cell in *tab (grown to hold id, with its snapshot) */
static struct cell *cell_at(struct cell **tab, ULong **snap, UInt *n, UInt id)
{
	if (UNLIKELY(id >= *n)) {
		UInt nn = *n ? *n : 4096;
		while (nn <= id)
			nn *= 2;
		*tab = VG_(realloc)("cgtui.time.cell", *tab, nn * sizeof(struct cell));
		*snap = VG_(realloc)("cgtui.time.snap", *snap, (SizeT)nn * cgt_n_events * sizeof(ULong));
		for (UInt i = *n; i < nn; i++) {
			(*tab)[i].key = TIME_NONE;
			(*tab)[i].stamp = 0;
		}
		VG_(memset)(*snap + (SizeT)*n * cgt_n_events, 0,
			    (SizeT)(nn - *n) * cgt_n_events * sizeof(ULong));
		*n = nn;
	}
	return &(*tab)[id];
}

/* *list grown to hold one more */
static void *list_room(void *list, UInt n, UInt *cap, SizeT size)
{
	if (n < *cap)
		return list;
	*cap = *cap ? 2 * *cap : 1024;
	return VG_(realloc)("cgtui.time.list", list, *cap * size);
}

void cgt_time_touch(struct cgt_insn *n)
{
	struct cell *c = cell_at(&insn_cell, &insn_snap, &n_insn_cell, n->id);
	if (c->stamp == epoch)
		return;
	c->stamp = epoch;
	ilist = list_room(ilist, nilist, &cilist, sizeof(*ilist));
	ilist[nilist++] = n;
}

static void touch_insn(struct cgt_insn *n, void *arg)
{
	(void)arg;
	cgt_time_touch(n);
}

static void touch_sb(const struct cgt_sb *sb)
{
	for (UInt i = 0; i < sb->n_insns; i++)
		cgt_time_touch(sb->insns[i]);
}

/* Called by the translated code when sb's first counter leaves 0. */
VG_REGPARM(1) void cgt_time_ran(struct cgt_sb *sb)
{
	if (sb->time_stamp == epoch)
		return;
	sb->time_stamp = epoch;
	slist = list_room(slist, nslist, &cslist, sizeof(*slist));
	sb->time_slot = nslist;
	slist[nslist++] = sb;
}

void cgt_time_discard(struct cgt_sb *sb)
{
	if (!cgt_time_on || sb->time_stamp != epoch)
		return;
	touch_sb(sb); /* folded: its costs are its instructions' */
	slist[sb->time_slot] = NULL;
}

/* cost - *snap into the function's sum of the interval; *snap = cost */
static void add_delta(UInt k, const ULong *cost, ULong *snap)
{
	ULong *a = acc + (SizeT)k * cgt_n_events;
	Bool any = False;
	for (UInt e = 0; e < cgt_n_events; e++) {
		ULong d = cost[e] - snap[e];
		a[e] += d;
		snap[e] = cost[e];
		any |= d != 0;
	}
	if (any && kstamp[k] != epoch) {
		kstamp[k] = epoch;
		klist = list_room(klist, nklist, &cklist, sizeof(*klist));
		klist[nklist++] = k;
	}
}

/* acc = every function's cost since the last end, its functions in klist */
static void costs_since(void)
{
	for (UInt i = 0; i < nslist; i++)
		if (slist[i]) {
			cgt_sb_fold(slist[i]);
			touch_sb(slist[i]);
		}
	for (UInt i = 0; i < nilist; i++) {
		struct cgt_insn *n = ilist[i];
		/* code without a symbol: by its contexts, as the profile */
		if (cgt_insn_unnamed(n)) {
			for (const struct cgt_ctxcost *c = n->ctxs; c; c = c->next) {
				struct cell *cl = cell_at(&node_cell, &node_snap, &n_node_cell, c->id);
				if (cl->key == TIME_NONE)
					cl->key = key_of(cgt_ctx_obj(c->insn, c->ctx), c->ctx);
				add_delta(cl->key, c->cost, node_snap + (SizeT)c->id * cgt_n_events);
			}
			continue;
		}
		struct cell *cl = cell_at(&insn_cell, &insn_snap, &n_insn_cell, n->id);
		if (cl->key == TIME_NONE)
			cl->key = key_of(n->obj, n->fn);
		add_delta(cl->key, n->cost, insn_snap + (SizeT)n->id * cgt_n_events);
	}
}

/* the lists empty for the next interval */
static void next_epoch(void)
{
	nslist = nilist = nklist = 0;
	epoch++;
}

/* ---- intervals ------------------------------------------------------- */

struct iv {
	UInt n;      /* functions with a cost in it */
	UInt *k;     /* [n], ascending */
	ULong *c;    /* [n * cgt_n_events] */
	ULong *tot;  /* [cgt_n_events] */
};

static struct iv ivs[TIME_CAP];
static UInt n_ivs;
static ULong length, next_end; /* the intervals' length now; cgt_tot's Ir at the next end */

static void iv_free(struct iv *v)
{
	if (v->k)
		VG_(free)(v->k);
	if (v->c)
		VG_(free)(v->c);
	VG_(free)(v->tot);
	VG_(memset)(v, 0, sizeof(*v));
}

static Int cmp_uint(const void *a, const void *b)
{
	UInt x = *(const UInt *)a, y = *(const UInt *)b;
	return x < y ? -1 : x > y;
}

/* the interval from acc (klist's functions), acc zero again */
static void iv_take(struct iv *v)
{
	UInt nev = cgt_n_events, m = nklist;
	v->tot = VG_(calloc)("cgtui.time.tot", nev, sizeof(ULong));
	v->k = NULL;
	v->c = NULL;
	v->n = m;
	if (!m)
		return;
	VG_(ssort)(klist, m, sizeof(UInt), cmp_uint);
	v->k = VG_(malloc)("cgtui.time.k", m * sizeof(UInt));
	v->c = VG_(malloc)("cgtui.time.c", (SizeT)m * nev * sizeof(ULong));
	for (UInt j = 0; j < m; j++) {
		UInt k = klist[j];
		ULong *a = acc + (SizeT)k * nev;
		v->k[j] = k;
		for (UInt e = 0; e < nev; e++) {
			v->c[(SizeT)j * nev + e] = a[e];
			v->tot[e] += a[e];
			a[e] = 0;
		}
	}
}

/* a and b (the next) as one interval, in a */
static void iv_merge(struct iv *a, struct iv *b)
{
	UInt nev = cgt_n_events, m = 0;
	UInt *k = VG_(malloc)("cgtui.time.k", (a->n + b->n + 1) * sizeof(UInt));
	ULong *c = VG_(malloc)("cgtui.time.c", ((SizeT)a->n + b->n + 1) * nev * sizeof(ULong));
	UInt i = 0, j = 0;
	while (i < a->n || j < b->n) {
		Bool ta = j == b->n || (i < a->n && a->k[i] <= b->k[j]);
		Bool tb = i == a->n || (j < b->n && b->k[j] <= a->k[i]);
		k[m] = ta ? a->k[i] : b->k[j];
		for (UInt e = 0; e < nev; e++)
			c[(SizeT)m * nev + e] = (ta ? a->c[(SizeT)i * nev + e] : 0) +
						(tb ? b->c[(SizeT)j * nev + e] : 0);
		i += ta;
		j += tb;
		m++;
	}
	for (UInt e = 0; e < nev; e++)
		a->tot[e] += b->tot[e];
	if (a->k)
		VG_(free)(a->k);
	if (a->c)
		VG_(free)(a->c);
	a->k = k;
	a->c = c;
	a->n = m;
	iv_free(b);
}

/* the open interval's part written by the last dump, taken into it at
 * its end */
static struct iv carry;
static Bool has_carry;

static void restart(void)
{
	for (UInt i = 0; i < n_ivs; i++)
		iv_free(&ivs[i]);
	n_ivs = 0;
	if (has_carry)
		iv_free(&carry);
	has_carry = False;
	/* every cost is 0 now */
	if (insn_snap)
		VG_(memset)(insn_snap, 0, (SizeT)n_insn_cell * cgt_n_events * sizeof(ULong));
	if (node_snap)
		VG_(memset)(node_snap, 0, (SizeT)n_node_cell * cgt_n_events * sizeof(ULong));
	VG_(memset)(acc, 0, (SizeT)kcap * cgt_n_events * sizeof(ULong));
	next_epoch();
	length = (ULong)clo_interval;
	cgt_packed_fold();
	next_end = cgt_tot[CGT_EV_IR] + length;
}

/* the interval still open: what ran since the last end (and the part of
 * it a dump took) */
static void take_open(struct iv *v)
{
	costs_since();
	iv_take(v);
	next_epoch();
	if (has_carry) {
		iv_merge(&carry, v);
		*v = carry;
		has_carry = False;
	}
}

void cgt_time_init(void)
{
	if (!cgt_time_on)
		return;
	if (cgt_clo_separate_threads) {
		VG_(umsg)("cgtui: --timeline is not kept per thread: ignored with "
			  "--separate-threads=yes\n");
		cgt_time_on = False;
		return;
	}
	kgrow();
	restart();
}

void cgt_time_tick(void)
{
	if (!cgt_time_on)
		return;
	cgt_packed_fold();
	if (LIKELY(cgt_tot[CGT_EV_IR] < next_end))
		return;
	if (n_ivs == TIME_CAP) {
		for (UInt i = 0; i < TIME_CAP / 2; i++) {
			iv_merge(&ivs[2 * i], &ivs[2 * i + 1]);
			ivs[i] = ivs[2 * i];
			if (i != 2 * i)
				VG_(memset)(&ivs[2 * i], 0, sizeof(ivs[0]));
		}
		n_ivs = TIME_CAP / 2;
		length *= 2;
	}
	take_open(&ivs[n_ivs++]);
	next_end = cgt_tot[CGT_EV_IR] + length;
}

void cgt_time_zero(void)
{
	if (cgt_time_on)
		restart();
}

static void put_costs(VgFile *fp, const ULong *c)
{
	for (UInt e = 0; e < cgt_n_events; e++)
		VG_(fprintf)(fp, "\t%llu", c[e]);
	VG_(fprintf)(fp, "\n");
}

Bool cgt_time_write(const HChar *path)
{
	if (!cgt_time_on)
		return True;
	HChar *name = VG_(malloc)("cgtui.time.name", VG_(strlen)(path) + 6);
	VG_(sprintf)(name, "%s.time", path);
	VgFile *fp = VG_(fopen)(name, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
				VKI_S_IRUSR | VKI_S_IWUSR);
	if (!fp) {
		VG_(umsg)("cgtui: cannot write the timeline '%s'\n", name);
		VG_(free)(name);
		return False;
	}
	VG_(free)(name);
	/* the interval still open, as the last one (kept open) */
	struct iv open;
	/* a dump visits every instruction anyway: so does the timeline, for
	 * what no list has (costs of code without a symbol added to its
	 * instruction in an earlier interval, given to its context by the
	 * dump's fold) */
	cgt_insn_foreach(touch_insn, NULL);
	take_open(&open);
	UInt *num = VG_(malloc)("cgtui.time.num", (nkeys + 1) * sizeof(UInt));
	for (UInt k = 0; k < nkeys; k++)
		num[k] = TIME_NONE;
	for (UInt i = 0; i <= n_ivs; i++) {
		const struct iv *v = i < n_ivs ? &ivs[i] : &open;
		for (UInt j = 0; j < v->n; j++)
			num[v->k[j]] = 0;
	}
	VG_(fprintf)(fp, "cgtui-timeline\t1\nevents:");
	for (UInt e = 0; e < cgt_n_events; e++)
		VG_(fprintf)(fp, "\t%s", cgt_event_name[e]);
	VG_(fprintf)(fp, "\nlength:\t%llu\n", length);
	UInt nfn = 0;
	for (UInt k = 0; k < nkeys; k++) {
		if (num[k] == TIME_NONE)
			continue;
		num[k] = nfn++;
		VG_(fprintf)(fp, "fn:\t%u\t%s\t%s\t%s\n", num[k], cgt_objs.names[keys[k].obj],
			     cgt_files.names[cgt_fn_file(keys[k].fn)], cgt_fns.names[keys[k].fn]);
	}
	ULong at = 0;
	for (UInt i = 0; i <= n_ivs; i++) {
		const struct iv *v = i < n_ivs ? &ivs[i] : &open;
		if (i == n_ivs && v->tot[CGT_EV_IR] == 0 && n_ivs > 0)
			break; /* nothing ran since the last end */
		VG_(fprintf)(fp, "iv:\t%llu\t%llu", at, at + v->tot[CGT_EV_IR]);
		put_costs(fp, v->tot);
		at += v->tot[CGT_EV_IR];
		for (UInt j = 0; j < v->n; j++) {
			VG_(fprintf)(fp, "c:\t%u", num[v->k[j]]);
			put_costs(fp, &v->c[(SizeT)j * cgt_n_events]);
		}
	}
	VG_(fclose)(fp);
	VG_(free)(num);
	/* still open: the next end (or dump) adds to it */
	carry = open;
	has_carry = True;
	return True;
}
