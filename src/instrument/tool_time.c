/* tool_time.c -- the time axis (--timeline=yes): the self cost of every
 * function per interval of instructions, written beside the profile as
 * PROFILE.time ("cgtui-timeline 1", man/cgtui.1: "Timeline"), which
 * callgrind_annotate and KCachegrind never read.
 *
 * An interval ends at the first scheduler time slice (about 100,000
 * blocks) or system call after --timeline-interval instructions: there,
 * the translations' counters are folded into the instructions' costs and
 * each function's self cost so far (the profile's rows: instructions with
 * a symbol by their function, those without by their context, tool_ctx.c)
 * is compared with its value at the previous end; the differences are the
 * interval's.  So summed over the intervals, a function's cost is its self
 * cost in the profile, exactly.  Nothing is added to the translated code.
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
static ULong *prev, *cur;              /* [kcap * cgt_n_events]: self so far */
static UInt *insn_key, n_insn_key;     /* by instruction id: its key, or TIME_NONE */
static UInt *node_key, n_node_key;     /* by context-record id */

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
	prev = VG_(realloc)("cgtui.time.prev", prev, now * sizeof(ULong));
	cur = VG_(realloc)("cgtui.time.cur", cur, now * sizeof(ULong));
	VG_(memset)(prev + old, 0, (now - old) * sizeof(ULong));
	VG_(memset)(cur + old, 0, (now - old) * sizeof(ULong));
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

/* the key cached by id in *tab (grown to hold id) */
static UInt *cache_at(UInt **tab, UInt *n, UInt id)
{
	if (id >= *n) {
		UInt nn = *n ? *n : 4096;
		while (nn <= id)
			nn *= 2;
		*tab = VG_(realloc)("cgtui.time.cache", *tab, nn * sizeof(UInt));
		for (UInt i = *n; i < nn; i++)
			(*tab)[i] = TIME_NONE;
		*n = nn;
	}
	return &(*tab)[id];
}

static void add_insn(struct cgt_insn *n, void *arg)
{
	/* code without a symbol: by its contexts (below), as the profile */
	if (cgt_insn_unnamed(n) || n->cost[CGT_EV_IR] == 0)
		return;
	UInt *k = cache_at(&insn_key, &n_insn_key, n->id);
	if (*k == TIME_NONE)
		*k = key_of(n->obj, n->fn);
	ULong *c = cur + (SizeT)*k * cgt_n_events;
	for (UInt e = 0; e < cgt_n_events; e++)
		c[e] += n->cost[e];
}

/* cur = every function's self cost now */
static void costs_now(void)
{
	cgt_sb_fold_all();
	VG_(memset)(cur, 0, (SizeT)kcap * cgt_n_events * sizeof(ULong));
	cgt_insn_foreach(add_insn, NULL);
	UInt nn;
	struct cgt_ctxcost *const *nodes = cgt_ctx_nodes(&nn);
	for (UInt i = 0; i < nn; i++) {
		const struct cgt_ctxcost *c = nodes[i];
		UInt *k = cache_at(&node_key, &n_node_key, c->id);
		if (*k == TIME_NONE)
			*k = key_of(c->insn->obj, c->ctx);
		ULong *to = cur + (SizeT)*k * cgt_n_events;
		for (UInt e = 0; e < cgt_n_events; e++)
			to[e] += c->cost[e];
	}
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

/* the interval from prev to cur */
static void iv_diff(struct iv *v)
{
	UInt nev = cgt_n_events, m = 0;
	v->tot = VG_(calloc)("cgtui.time.tot", nev, sizeof(ULong));
	v->k = NULL;
	v->c = NULL;
	for (UInt k = 0; k < nkeys; k++)
		for (UInt e = 0; e < nev; e++)
			if (cur[(SizeT)k * nev + e] != prev[(SizeT)k * nev + e]) {
				m++;
				break;
			}
	v->n = m;
	if (!m)
		return;
	v->k = VG_(malloc)("cgtui.time.k", m * sizeof(UInt));
	v->c = VG_(malloc)("cgtui.time.c", (SizeT)m * nev * sizeof(ULong));
	UInt j = 0;
	for (UInt k = 0; k < nkeys && j < m; k++) {
		const ULong *a = cur + (SizeT)k * nev, *b = prev + (SizeT)k * nev;
		Bool any = False;
		for (UInt e = 0; e < nev; e++)
			any |= a[e] != b[e];
		if (!any)
			continue;
		v->k[j] = k;
		for (UInt e = 0; e < nev; e++) {
			v->c[(SizeT)j * nev + e] = a[e] - b[e];
			v->tot[e] += a[e] - b[e];
		}
		j++;
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

static void restart(void)
{
	for (UInt i = 0; i < n_ivs; i++)
		iv_free(&ivs[i]);
	n_ivs = 0;
	if (prev)
		VG_(memset)(prev, 0, (SizeT)kcap * cgt_n_events * sizeof(ULong));
	length = (ULong)clo_interval;
	cgt_packed_fold();
	next_end = cgt_tot[CGT_EV_IR] + length;
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
	costs_now();
	iv_diff(&ivs[n_ivs++]);
	ULong *t = prev;
	prev = cur;
	cur = t;
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
	/* the interval still open, as the last one (not kept) */
	struct iv open;
	costs_now();
	iv_diff(&open);
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
	iv_free(&open);
	return True;
}
