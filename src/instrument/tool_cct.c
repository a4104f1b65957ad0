/* tool_cct.c -- the exact calling-context tree (--contexts=yes): a node per
 * distinct call path from a thread's root, with its self cost (every
 * event counted) and its calls, written beside the profile as
 * PROFILE.ctx ("cgtui-contexts 2", man/cgtui.1: "Flame graph and calling
 * contexts"), which callgrind_annotate and KCachegrind never read.
 *
 * tool_calls.c decides when the running code moves from one node to
 * another (a call, a return, a jump into another function, a thread
 * switch, a signal handler) and, at each such move, adds the running
 * totals since the last move to the node left (self cost: no differencing
 * of inclusive costs, which folded recursion would get wrong).  Here: the
 * nodes, the lookup of a node's child by function, recursion folded, the
 * bound on the number of nodes, and the writer.
 *
 * A node is a function as the profile names it: (object, name), the name
 * being the symbol's or, for code without a symbol, its context's
 * (tool_ctx.c), so that summed over its nodes a function's self cost is
 * its self cost in the profile.  Recursion is folded: a call to a function
 * already on the path is given to its earlier node (whose `rec` counts the
 * deepest nesting of live frames on it; its calls are written as those
 * from its parent, made with no live frame on it, and the recursive
 * ones).  Past --max-contexts nodes a path
 * is cut: the call goes to an existing node of the same function -- the
 * child of the nearest ancestor that has one, else one under the thread's
 * root (at most one per function, made even past the bound) -- marked cut,
 * and the cost counted while on such a path is the file's `cut:`.
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
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"

#include "tool.h"

Bool cgt_cct_on = True;
static Long clo_max = CGT_CCT_MAX_DEFAULT;

Bool cgt_cct_option(const HChar *arg)
{
	if (VG_BOOL_CLO(arg, "--contexts", cgt_cct_on)) {
	} else if (VG_BINT_CLO(arg, "--max-contexts", clo_max, 16, 100000000)) {
	} else {
		return False;
	}
	return True;
}

void cgt_cct_usage(void)
{
	VG_(printf)("    --contexts=yes|no         record the calling contexts (PROFILE.ctx) [yes]\n"
		    "    --max-contexts=<n>        at most <n> contexts; deeper paths are cut [%d]\n",
		    CGT_CCT_MAX_DEFAULT);
}

/* ---- nodes ------------------------------------------------------------------------ */

struct cgt_cnode *cgt_cct_nodes;
ULong *cgt_cct_self; /* [cap * cgt_n_events]; a root's: the cost on its thread's cut paths */
static UInt n_nodes, cap_nodes, n_real; /* n_real: not roots */
static UInt *roots; /* [VG_N_THREADS]: node + 1 of each thread's root, 0: none yet */

/* (parent, obj, fn) -> the node a call from parent to fn goes to: a child,
 * an ancestor (recursion folded) or, past the bound, a node elsewhere
 * (cut).  A node's ancestors never change, so each answer is kept. */
struct entry {
	UInt parent, obj, fn, node; /* node CGT_CCT_NONE: empty */
	Bool cut;
};
static struct entry *tab;
static UInt tab_mask, tab_used;

static inline UInt hash3(UInt a, UInt b, UInt c)
{
	UInt h = a * 0x9e3779b1u ^ b * 0x85ebca77u ^ c * 0xc2b2ae3du;
	return h ^ (h >> 15);
}

static struct entry *slot(UInt parent, UInt obj, UInt fn)
{
	for (UInt h = hash3(parent, obj, fn) & tab_mask;; h = (h + 1) & tab_mask) {
		struct entry *e = &tab[h];
		if (e->node == CGT_CCT_NONE || (e->parent == parent && e->fn == fn && e->obj == obj))
			return e;
	}
}

static void tab_grow(void)
{
	struct entry *old = tab;
	UInt old_size = tab ? tab_mask + 1 : 0, size = old_size ? 2 * old_size : 4096;
	tab = VG_(malloc)("cgtui.cct.tab", size * sizeof(*tab));
	for (UInt i = 0; i < size; i++)
		tab[i].node = CGT_CCT_NONE;
	tab_mask = size - 1;
	for (UInt i = 0; i < old_size; i++)
		if (old[i].node != CGT_CCT_NONE)
			*slot(old[i].parent, old[i].obj, old[i].fn) = old[i];
	if (old)
		VG_(free)(old);
}

static UInt node_new(UInt parent, UInt obj, UInt fn, ThreadId tid, Bool root)
{
	if (n_nodes == cap_nodes) {
		cap_nodes = cap_nodes ? 2 * cap_nodes : 1024;
		cgt_cct_nodes = VG_(realloc)("cgtui.cct.nodes", cgt_cct_nodes,
					     cap_nodes * sizeof(*cgt_cct_nodes));
		/* (two more: the last row read and written as pairs) */
		cgt_cct_self = VG_(realloc)("cgtui.cct.self", cgt_cct_self,
					    ((SizeT)cap_nodes * cgt_n_events + 2) * sizeof(ULong));
	}
	UInt k = n_nodes++;
	struct cgt_cnode *c = &cgt_cct_nodes[k];
	VG_(memset)(c, 0, sizeof(*c));
	c->parent = parent;
	c->obj = obj;
	c->fn = fn;
	c->tid = (UShort)tid;
	c->root = root;
	VG_(memset)(&cgt_cct_self[(SizeT)k * cgt_n_events], 0, (cgt_n_events + 2) * sizeof(ULong));
	if (!root)
		n_real++;
	return k;
}

UInt cgt_cct_root(ThreadId tid)
{
	tl_assert(tid < VG_N_THREADS);
	if (!roots[tid])
		roots[tid] = node_new(CGT_CCT_NONE, CGT_CTX_NONE, CGT_CTX_NONE, tid, True) + 1;
	return roots[tid] - 1;
}

/* parent's child for (obj, fn) if made, else CGT_CCT_NONE */
static UInt child_of(UInt parent, UInt obj, UInt fn)
{
	struct entry *e = slot(parent, obj, fn);
	if (e->node != CGT_CCT_NONE && !e->cut && cgt_cct_nodes[e->node].parent == parent)
		return e->node;
	return CGT_CCT_NONE;
}

static UInt find(UInt parent, UInt obj, UInt fn, Bool *cut)
{
	*cut = False;
	/* recursion: fn is on the path already */
	for (UInt a = parent; !cgt_cct_nodes[a].root; a = cgt_cct_nodes[a].parent)
		if (cgt_cct_nodes[a].fn == fn && cgt_cct_nodes[a].obj == obj)
			return a;
	if (n_real < (UInt)clo_max)
		return node_new(parent, obj, fn, cgt_cct_nodes[parent].tid, False);
	/* the bound: the nearest ancestor's node of fn, else the root's */
	*cut = True;
	UInt a = parent;
	for (;;) {
		UInt k = child_of(a, obj, fn);
		if (k != CGT_CCT_NONE)
			return k;
		if (cgt_cct_nodes[a].root)
			break;
		a = cgt_cct_nodes[a].parent;
	}
	UInt k = node_new(a, obj, fn, cgt_cct_nodes[a].tid, False);
	struct entry *e = slot(a, obj, fn);
	if (e->node == CGT_CCT_NONE) {
		tab_used++;
		*e = (struct entry){ a, obj, fn, k, False };
		if (2 * tab_used > tab_mask)
			tab_grow();
	}
	return k;
}

UInt cgt_cct_resolve(UInt parent, UInt obj, UInt fn, Bool *cut)
{
	struct entry *e = slot(parent, obj, fn);
	if (LIKELY(e->node != CGT_CCT_NONE)) {
		*cut = e->cut;
		return e->node;
	}
	UInt k = find(parent, obj, fn, cut);
	if (*cut)
		cgt_cct_nodes[k].cut = 1;
	/* (cut answers are not kept once the table is large: they would
	 * grow it without bound) */
	if (*cut && tab_used > 4 * (UInt)clo_max)
		return k;
	e = slot(parent, obj, fn);
	tab_used++;
	*e = (struct entry){ parent, obj, fn, k, *cut };
	if (2 * tab_used > tab_mask)
		tab_grow();
	return k;
}

void cgt_cct_add(UInt node, const ULong *d, Bool cut)
{
	ULong *s = &cgt_cct_self[(SizeT)node * cgt_n_events];
	for (UInt e = 0; e < cgt_n_events; e++)
		s[e] += d[e];
	if (cut) {
		cgt_cct_nodes[node].cut = 1;
		ULong *r = &cgt_cct_self[(SizeT)cgt_cct_root(cgt_cct_nodes[node].tid) * cgt_n_events];
		for (UInt e = 0; e < cgt_n_events; e++)
			r[e] += d[e];
	}
}

void cgt_cct_zero(void)
{
	VG_(memset)(cgt_cct_self, 0, (SizeT)n_nodes * cgt_n_events * sizeof(ULong));
	for (UInt k = 0; k < n_nodes; k++) {
		cgt_cct_nodes[k].calls = 0;
		cgt_cct_nodes[k].outer = 0;
		cgt_cct_nodes[k].rec = cgt_cct_nodes[k].active;
	}
}

void cgt_cct_init(void)
{
	roots = VG_(calloc)("cgtui.cct.roots", VG_N_THREADS, sizeof(*roots));
	tab_grow();
}

/* ---- the file ---------------------------------------------------------------------- */

static void put_costs(VgFile *fp, const ULong *c)
{
	for (UInt e = 0; e < cgt_n_events; e++)
		VG_(fprintf)(fp, "\t%llu", c[e]);
	VG_(fprintf)(fp, "\n");
}

Bool cgt_cct_write(const HChar *path, ThreadId only)
{
	VgFile *fp = VG_(fopen)(path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
				VKI_S_IRUSR | VKI_S_IWUSR);
	if (!fp) {
		VG_(umsg)("cgtui: cannot write the contexts '%s'\n", path);
		return False;
	}
	/* the nodes written: of the thread (only != 0), with a cost or a call
	 * in themselves or below (children come after their parents) */
	UInt *num = VG_(malloc)("cgtui.cct.num", (n_nodes + 1) * sizeof(UInt));
	for (UInt k = 0; k < n_nodes; k++)
		num[k] = 0;
	for (UInt k = n_nodes; k-- > 0;) {
		const struct cgt_cnode *c = &cgt_cct_nodes[k];
		if (c->root || (only && c->tid != only))
			continue;
		Bool any = num[k] || c->calls;
		for (UInt e = 0; e < cgt_n_events && !any; e++)
			any = cgt_cct_self[(SizeT)k * cgt_n_events + e] != 0;
		num[k] = any;
		if (any && !cgt_cct_nodes[c->parent].root)
			num[c->parent] = 1;
	}
	/* the functions, numbered in the order of their first node */
	UInt nfn = 0, fcap = 1024;
	while (fcap < 2 * n_nodes)
		fcap *= 2;
	struct { UInt obj, fn, k; } *ft = VG_(malloc)("cgtui.cct.fns", fcap * sizeof(*ft));
	for (UInt i = 0; i < fcap; i++)
		ft[i].k = CGT_CCT_NONE;
	UInt *fk = VG_(malloc)("cgtui.cct.fk", (n_nodes + 1) * sizeof(UInt));
	VG_(fprintf)(fp, "cgtui-contexts\t2\nevents:");
	for (UInt e = 0; e < cgt_n_events; e++)
		VG_(fprintf)(fp, "\t%s", cgt_event_name[e]);
	VG_(fprintf)(fp, "\n");
	for (UInt k = 0; k < n_nodes; k++) {
		if (!num[k])
			continue;
		const struct cgt_cnode *c = &cgt_cct_nodes[k];
		UInt h = hash3(c->obj, c->fn, 0) & (fcap - 1);
		while (ft[h].k != CGT_CCT_NONE && (ft[h].obj != c->obj || ft[h].fn != c->fn))
			h = (h + 1) & (fcap - 1);
		if (ft[h].k == CGT_CCT_NONE) {
			ft[h].obj = c->obj;
			ft[h].fn = c->fn;
			ft[h].k = nfn++;
			VG_(fprintf)(fp, "fn:\t%u\t%s\t%s\t%s\n", ft[h].k, cgt_objs.names[c->obj],
				     cgt_files.names[cgt_fn_file(c->fn)], cgt_fns.names[c->fn]);
		}
		fk[k] = ft[h].k;
	}
	UInt n = 0;
	for (UInt k = 0; k < n_nodes; k++) {
		if (!num[k])
			continue;
		const struct cgt_cnode *c = &cgt_cct_nodes[k];
		num[k] = ++n; /* now its number + 1 */
		Int parent = cgt_cct_nodes[c->parent].root ? -1 : (Int)num[c->parent] - 1;
		VG_(fprintf)(fp, "ctx:\t%u\t%d\t%u\t%llu\t%llu\t%u\t%u", n - 1, parent, fk[k],
			     c->outer, c->calls - c->outer, c->rec ? c->rec : 1, (UInt)c->cut);
		put_costs(fp, &cgt_cct_self[(SizeT)k * cgt_n_events]);
	}
	ULong cut[CGT_EV_MAX];
	VG_(memset)(cut, 0, sizeof(cut));
	for (ThreadId tid = 0; tid < VG_N_THREADS; tid++)
		if (roots[tid] && (!only || tid == only))
			for (UInt e = 0; e < cgt_n_events; e++)
				cut[e] += cgt_cct_self[(SizeT)(roots[tid] - 1) * cgt_n_events + e];
	VG_(fprintf)(fp, "cut:");
	put_costs(fp, cut);
	VG_(fclose)(fp);
	VG_(free)(num);
	VG_(free)(ft);
	VG_(free)(fk);
	return True;
}
