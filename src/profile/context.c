/* context.c -- calling-context trees; see context.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "context.h"

#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "format.h"
#include "rank.h"
#include "scope.h"
#include "tree.h"

struct cctx *cctx_new(struct profile *p, int estimated)
{
	struct cctx *t = xcalloc(1, sizeof(*t));
	t->p = p;
	t->nreal = p->nreal ? p->nreal : 1;
	t->estimated = !!estimated;
	return t;
}

void cctx_free(struct cctx *t)
{
	if (!t)
		return;
	free(t->node);
	free(t->self);
	free(t->incl);
	free(t->kid);
	free(t->root);
	free(t);
}

uint32_t cctx_add(struct cctx *t, uint32_t parent, uint32_t fn, cost_t count, const cost_t *self,
		  int part)
{
	size_t nr = (size_t)t->nreal;
	if (t->n == t->cap) {
		uint32_t nc = t->cap ? t->cap * 2 : 64;
		t->node = xreallocarray(t->node, nc, sizeof(*t->node));
		t->self = xreallocarray(t->self, (size_t)nc * nr, sizeof(cost_t));
		t->cap = nc;
	}
	uint32_t n = t->n++;
	struct cctx_node *d = &t->node[n];
	memset(d, 0, sizeof(*d));
	d->fn = fn;
	d->parent = parent;
	d->depth = parent == NO_ID ? 0 : t->node[parent].depth + 1;
	d->rec = 1;
	d->part = part;
	d->count = count;
	cost_t *s = &t->self[(size_t)n * nr];
	if (self)
		memcpy(s, self, nr * sizeof(cost_t));
	else
		memset(s, 0, nr * sizeof(cost_t));
	return n;
}

void cctx_add_self(struct cctx *t, uint32_t n, const cost_t *c)
{
	cost_t *s = &t->self[(size_t)n * (size_t)t->nreal];
	for (int e = 0; e < t->nreal; e++)
		s[e] = cost_add(s[e], c[e]);
}

void cctx_add_calls(struct cctx_node *dst, const struct cctx_node *src)
{
	if ((dst->flags ^ src->flags) & CC_ALLCALLS) {
		/* one has them together: so have both */
		dst->count = cost_add(dst->count, dst->rcount);
		dst->rcount = 0;
		dst->flags |= CC_ALLCALLS;
		dst->count = cost_add(dst->count, cost_add(src->count, src->rcount));
		return;
	}
	dst->count = cost_add(dst->count, src->count);
	dst->rcount = cost_add(dst->rcount, src->rcount);
}

void cctx_finish(struct cctx *t)
{
	size_t nr = (size_t)t->nreal;
	uint32_t n = t->n;
	free(t->kid);
	free(t->root);
	free(t->incl);
	t->kid = xmalloc(((size_t)n + 1) * sizeof(*t->kid));
	t->root = xmalloc(((size_t)n + 1) * sizeof(*t->root));
	t->nroots = 0;
	/* children counted, then placed in the order added */
	for (uint32_t i = 0; i < n; i++)
		t->node[i].nchild = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t par = t->node[i].parent;
		if (par == NO_ID)
			t->root[t->nroots++] = i;
		else
			t->node[par].nchild++;
	}
	uint32_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		t->node[i].first = at;
		at += t->node[i].nchild;
		t->node[i].nchild = 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t par = t->node[i].parent;
		if (par != NO_ID)
			t->kid[t->node[par].first + t->node[par].nchild++] = i;
	}
	/* children come after their parents: one pass backwards sums them */
	t->incl = xmalloc(((size_t)n + 1) * nr * sizeof(cost_t));
	if (n)
		memcpy(t->incl, t->self, (size_t)n * nr * sizeof(cost_t));
	for (uint32_t i = n; i-- > 0;) {
		uint32_t par = t->node[i].parent;
		if (par == NO_ID)
			continue;
		for (size_t e = 0; e < nr; e++)
			t->incl[par * nr + e] = cost_add(t->incl[par * nr + e], t->incl[i * nr + e]);
	}
}

/* ---- order --------------------------------------------------------------------- */

struct ord {
	const struct cctx *t;
	int event;
};

static int cmp_kid(const void *x, const void *y, void *arg)
{
	const struct ord *o = arg;
	const struct cctx *t = o->t;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	uint32_t fa = t->node[a].fn, fb = t->node[b].fn;
	const struct profile *p = t->p;
	cost_t va = event_value(p, cctx_incl(t, a), o->event), vb = event_value(p, cctx_incl(t, b), o->event);
	struct rank_key ka = { &va, fa < p->nfns ? fn_name(p, fa) : "", fa };
	struct rank_key kb = { &vb, fb < p->nfns ? fn_name(p, fb) : "", fb };
	struct rank_order ro = { NULL, 1, RANK_VIEW };
	int r = rank_cmp(&ka, &kb, &ro);
	return r ? r : a < b ? -1 : a > b;
}

void cctx_order(struct cctx *t, int event)
{
	struct ord o = { t, event };
	if (t->nroots > 1)
		qsort_r(t->root, t->nroots, sizeof(*t->root), cmp_kid, &o);
	for (uint32_t n = 0; n < t->n; n++)
		if (t->node[n].nchild > 1)
			qsort_r(&t->kid[t->node[n].first], t->node[n].nchild, sizeof(*t->kid), cmp_kid,
				&o);
}

/* ---- the estimate --------------------------------------------------------------- */

/* Nodes of the call tree to grow, the largest first (then in the order
 * made, so that the result does not depend on the heap's ties). */
struct hent {
	cost_t key;
	uint32_t tn; /* node of the call tree */
};

static int hless(const struct hent *a, const struct hent *b)
{
	return a->key != b->key ? a->key < b->key : a->tn > b->tn;
}

static void heap_push(struct hent **h, size_t *n, size_t *cap, struct hent x)
{
	VEC_RESERVE(*h, *cap, *n + 1);
	size_t i = (*n)++;
	while (i) {
		size_t up = (i - 1) / 2;
		if (!hless(&(*h)[up], &x))
			break;
		(*h)[i] = (*h)[up];
		i = up;
	}
	(*h)[i] = x;
}

static struct hent heap_pop(struct hent *h, size_t *n)
{
	struct hent top = h[0], x = h[--*n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && hless(&h[c], &h[c + 1]))
			c++;
		if (!hless(&x, &h[c]))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = x;
	return top;
}

/* "N EV (P%)": cost c's value of event and its share of the total */
static void amount_text(const struct profile *p, const cost_t *c, int event, char *b, size_t size)
{
	char n[48], pc[32] = "";
	cost_t v = event_value(p, c, event), tot = event_value(p, p->totals, event);
	format_count(n, sizeof(n), v);
	if (tot)
		snprintf(pc, sizeof(pc), " (%.1f%%)", (double)v * 100.0 / (double)tot);
	snprintf(b, size, "%s %s%s", n, p->ev[event].name, pc);
}

char *cctx_left_text(const struct cctx *t, int event)
{
	if (!t->nleft)
		return NULL;
	char c[128];
	amount_text(t->p, t->left, event, c, sizeof(c));
	return xasprintf("%u root%s left out at %u contexts, the smallest: %s", t->nleft,
			 t->nleft == 1 ? "" : "s", t->n, c);
}

char *cctx_cut_text(const struct cctx *t, int event)
{
	if (!event_value(t->p, t->cut, event))
		return NULL;
	char c[128];
	amount_text(t->p, t->cut, event, c, sizeof(c));
	return xasprintf("%s on paths cut short", c);
}

/* The default bound, or CGTUI_CTX_NODES's (context.h) */
static uint32_t max_nodes_default(void)
{
	const char *e = getenv("CGTUI_CTX_NODES");
	long long v;
	if (e && beside_num(e, &v) == 0 && v >= 1 && v <= UINT32_MAX)
		return (uint32_t)v;
	return CCTX_MAX_NODES_DEFAULT;
}

struct cctx *cctx_estimate(struct profile *p, int event, double threshold, uint32_t max_nodes)
{
	if (!max_nodes)
		max_nodes = max_nodes_default();
	/* every root, whatever its cost: a root has no parent to be left to,
	 * and the paths must add up to the total (a Cachegrind file's
	 * functions are all roots); the threshold is the paths' below them */
	struct ctree *ct = ctree_new(p, 0, NO_ID, event, 0);
	ct->threshold = threshold;
	ct->estimated = 1; /* top-down shares: see tree.h */
	struct cctx *t = cctx_new(p, 1);
	int nr = p->nreal;
	uint32_t *map = NULL; /* call tree node -> context node */
	size_t mapcap = 0;
	struct hent *h = NULL;
	size_t hn = 0, hcap = 0;
	VEC_RESERVE(map, mapcap, ct->nnodes + 1);
	/* a root is made when its turn comes, as a child is grown: roots
	 * count against the bound, the largest first */
	for (uint32_t r = 0; r < ct->nroots; r++) {
		map[r] = NO_ID;
		heap_push(&h, &hn, &hcap, (struct hent){ event_value(p, ct->node[r].cost, event), r });
	}
	while (hn) {
		uint32_t n = heap_pop(h, &hn).tn;
		const cost_t *cost = ct->node[n].cost;
		if (n < ct->nroots) {
			if (t->n >= max_nodes) {
				/* left out: its cost in no node, said in `left` */
				t->nleft++;
				for (int e = 0; cost && e < nr; e++) {
					t->left[e] = cost_add(t->left[e], cost[e]);
					t->cut[e] = cost_add(t->cut[e], cost[e]);
				}
				continue;
			}
			map[n] = cctx_add(t, NO_ID, ct->node[n].fn, ct->node[n].count, cost, -1);
		}
		uint32_t me = map[n];
		if (t->n >= max_nodes) {
			if (ctree_expandable(ct, n)) {
				t->node[me].flags |= CC_CUT;
				for (int e = 0; e < nr; e++)
					t->cut[e] = cost_add(t->cut[e], cost[e]);
			}
			continue;
		}
		if (!ctree_grow(ct, n))
			continue;
		VEC_RESERVE(map, mapcap, ct->nnodes + 1);
		const struct ctree_node *nd = &ct->node[n];
		if (nd->nhidden)
			t->node[me].flags |= CC_SMALL;
		for (uint32_t c = nd->first; c < nd->first + nd->nchild; c++) {
			const struct ctree_node *ch = &ct->node[c];
			if (!ch->cost) { /* a call with no cost of its own */
				if (ch->fn == nd->fn) { /* (to itself: recursive) */
					t->node[me].rcount = cost_add(t->node[me].rcount, ch->count);
					if (t->node[me].rec < 2)
						t->node[me].rec = 2;
				}
				continue;
			}
			cost_t neg[MAX_EVENTS];
			for (int e = 0; e < nr; e++)
				neg[e] = (cost_t)(0 - (uint64_t)ch->cost[e]);
			cctx_add_self(t, me, neg);
			if (ch->flags & CT_RECURSIVE) {
				/* folded into its earlier occurrence */
				uint32_t a = me;
				while (t->node[a].fn != ch->fn)
					a = t->node[a].parent;
				cctx_add_self(t, a, ch->cost);
				if (t->node[a].rec < 2)
					t->node[a].rec = 2;
				t->node[a].rcount = cost_add(t->node[a].rcount, ch->count);
				continue;
			}
			map[c] = cctx_add(t, me, ch->fn, ch->count, ch->cost, -1);
			heap_push(&h, &hn, &hcap, (struct hent){ event_value(p, ch->cost, event), c });
		}
	}
	uint32_t nroots = ct->nroots;
	free(h);
	ctree_free(ct);
	cctx_finish(t);
	/* the roots kept in the call tree's order, as the children are */
	t->nroots = 0;
	for (uint32_t r = 0; r < nroots; r++)
		if (map[r] != NO_ID)
			t->root[t->nroots++] = map[r];
	free(map);
	return t;
}

/* ---- recorded contexts: the file beside the profile ----------------------------- */

int beside_fields(char *line, char **f, int max)
{
	int n = 0;
	for (char *s = line; n < max;) {
		f[n++] = s;
		char *tab = strchr(s, '\t');
		if (!tab)
			break;
		*tab = 0;
		s = tab + 1;
	}
	return n;
}

int beside_num(const char *s, long long *v)
{
	char *end;
	if (!*s)
		return -1;
	*v = strtoll(s, &end, 10);
	return *end ? -1 : 0;
}

uint32_t beside_find_fn(const struct profile *p, const char *obj, const char *file, const char *name)
{
	uint32_t nm = strtab_find(&p->names, name, strlen(name));
	if (nm == UINT32_MAX)
		return NO_ID;
	uint32_t ob = strtab_find(&p->objs, obj, strlen(obj));
	uint32_t fl = strtab_find(&p->files, file, strlen(file));
	/* (the function hash first: one look each, where a .ctx of a large
	 * program names 10^5 functions; else every function, as before) */
	if (ob != UINT32_MAX && fl != UINT32_MAX) {
		uint32_t f = profile_fn_find(p, ob, fl, nm);
		if (f != NO_ID)
			return f;
	}
	uint32_t any = NO_ID;
	for (uint32_t f = 0; f < p->nfns; f++) {
		if (p->fns[f].name != nm)
			continue;
		if ((ob == UINT32_MAX || p->fns[f].obj == ob) && (fl == UINT32_MAX || p->fns[f].file == fl))
			return f;
		if (any == NO_ID)
			any = f;
	}
	return any;
}

/* The 0-based index of the part of p that is `source`'s part N (0: its
 * first), -1 if p has none. */
static int part_of(const struct profile *p, const char *source, long long n)
{
	for (int i = 0; i < p->nparts; i++)
		if (p->parts[i].source && strcmp(p->parts[i].source, source) == 0 &&
		    (n == 0 || p->parts[i].number == n))
			return i;
	return -1;
}

/* Are the costs of part (0-based; -1: none of p's) in p? */
static int shown(const struct profile *p, int part)
{
	return part >= 0 ? part_shown(p, part + 1) : parts_all_shown(p);
}

int cctx_read(struct cctx *t, const char *source, char *err, size_t errsz)
{
	struct profile *p = t->p;
	char *path = xasprintf("%s.ctx", source);
	FILE *in = fopen(path, "r");
	if (!in) {
		free(path);
		return 1;
	}
	char *line = NULL, *f[MAX_EVENTS + 8];
	size_t cap = 0;
	ssize_t len;
	long long lno = 0;
	uint32_t *fnmap = NULL, nfn = 0, base = t->n;
	size_t fncap = 0;
	int part = part_of(p, source, 0), rc = 0, have_events = 0, version = 0;
	const char *why = NULL;
	while ((len = getline(&line, &cap, in)) >= 0 && !why) {
		lno++;
		if (len && line[len - 1] == '\n')
			line[--len] = 0;
		if (len && line[len - 1] == '\r')
			line[--len] = 0;
		int n = beside_fields(line, f, MAX_EVENTS + 8);
		long long v[7];
		if (lno == 1) {
			if (n != 2 || strcmp(f[0], "cgtui-contexts") != 0)
				why = "not a cgtui contexts file (no \"cgtui-contexts\" line)";
			else if (strcmp(f[1], "1") == 0 || strcmp(f[1], "2") == 0)
				version = f[1][0] - '0';
			else
				why = "a contexts file of another version (this cgtui reads versions 1 and 2)";
		} else if (strcmp(f[0], "events:") == 0) {
			if (n - 1 != p->nreal)
				why = "its events are not the profile's";
			for (int e = 0; e < p->nreal && !why; e++)
				if (strcmp(f[e + 1], p->ev[e].name) != 0)
					why = "its events are not the profile's";
			have_events = 1;
		} else if (strcmp(f[0], "part:") == 0) {
			if (n != 2 || beside_num(f[1], &v[0]) < 0 || v[0] < 0)
				why = "expected part:<TAB>N";
			else
				part = part_of(p, source, v[0]);
		} else if (strcmp(f[0], "fn:") == 0) {
			if (n != 5 || beside_num(f[1], &v[0]) < 0 || v[0] != nfn)
				why = "expected fn:<TAB>K<TAB>OBJECT<TAB>FILE<TAB>NAME, K the next number";
			else {
				VEC_RESERVE(fnmap, fncap, (size_t)nfn + 1);
				fnmap[nfn++] = beside_find_fn(p, f[2], f[3], f[4]);
				/* (a part whose costs were not read may name functions
				 * the profile does not have: their nodes are left out) */
				if (fnmap[nfn - 1] == NO_ID && shown(p, part))
					why = "a function the profile does not have";
			}
		} else if (strcmp(f[0], "ctx:") == 0) {
			if (!have_events) {
				why = "a ctx: line before the events: line";
				break;
			}
			/* N PARENT FN CALLS RCALLS REC CUT into v[0..6]; version 1
			 * has no RCALLS (v[4] 0) */
			int nv = version == 1 ? 6 : 7, bad = n != 1 + nv + p->nreal;
			v[4] = 0;
			for (int i = 0; i < nv && !bad; i++)
				bad = beside_num(f[i + 1], &v[nv == 6 && i >= 4 ? i + 1 : i]) < 0;
			cost_t c[MAX_EVENTS];
			for (int e = 0; e < p->nreal && !bad; e++) {
				long long x = 0;
				bad = beside_num(f[1 + nv + e], &x) < 0;
				c[e] = x;
			}
			if (bad)
				why = version == 1 ? "expected ctx:<TAB>N<TAB>PARENT<TAB>FN<TAB>CALLS<TAB>REC<TAB>CUT"
						     " and a cost per event"
						   : "expected ctx:<TAB>N<TAB>PARENT<TAB>FN<TAB>CALLS<TAB>RCALLS<TAB>REC"
						     "<TAB>CUT and a cost per event";
			else if (v[0] != (long long)(t->n - base))
				why = "nodes must be numbered from 0 in order";
			else if (v[1] < -1 || v[1] >= v[0])
				why = "a parent must come before its children";
			else if (v[2] < 0 || v[2] >= nfn)
				why = "a function not defined by a fn: line";
			else if (v[3] < 0 || v[4] < 0)
				why = "CALLS and RCALLS must be 0 or more";
			else if (v[5] < 1 || (v[6] != 0 && v[6] != 1))
				why = "REC must be 1 or more and CUT 0 or 1";
			else if (v[4] > 0 && v[5] < 2)
				why = "recursive calls (RCALLS) with no recursion (REC 1)";
			else if (shown(p, part) && fnmap[v[2]] == NO_ID)
				why = "a function the profile does not have";
			else if (shown(p, part)) {
				/* (a part not loaded: its nodes are kept out of the
				 * tree, their numbers still counted) */
				uint32_t par = v[1] < 0 ? NO_ID : base + (uint32_t)v[1];
				uint32_t k = cctx_add(t, par, fnmap[v[2]], v[3], c, part);
				t->node[k].rcount = v[4];
				t->node[k].rec = (uint32_t)v[5];
				if (v[6])
					t->node[k].flags |= CC_CUT;
				if (version == 1)
					t->node[k].flags |= CC_ALLCALLS;
			} else {
				uint32_t k = cctx_add(t, NO_ID, fnmap[v[2]], 0, NULL, -2);
				(void)k;
			}
		} else if (strcmp(f[0], "cut:") == 0) {
			if (n != 1 + p->nreal)
				why = "expected cut:<TAB> and a cost per event";
			for (int e = 0; e < p->nreal && !why; e++) {
				long long x;
				if (beside_num(f[1 + e], &x) < 0)
					why = "expected cut:<TAB> and a cost per event";
				else if (part >= 0 && shown(p, part))
					t->cut[e] = cost_add(t->cut[e], x);
			}
		} else {
			why = "unknown line";
		}
	}
	if (!why && lno == 0)
		why = "empty";
	if (why) {
		snprintf(err, errsz, "%s:%lld: %s", path, lno ? lno : 1, why);
		rc = -1;
	}
	free(line);
	free(fnmap);
	free(path);
	fclose(in);
	return rc;
}

/* Nodes of parts not loaded (part -2, see cctx_read) taken out. */
static void drop_unloaded(struct cctx *t)
{
	uint32_t *map = xmalloc(((size_t)t->n + 1) * sizeof(*map)), k = 0;
	size_t nr = (size_t)t->nreal;
	for (uint32_t n = 0; n < t->n; n++) {
		if (t->node[n].part == -2) {
			map[n] = NO_ID;
			continue;
		}
		map[n] = k;
		t->node[k] = t->node[n];
		if (t->node[k].parent != NO_ID)
			t->node[k].parent = map[t->node[k].parent];
		memmove(&t->self[k * nr], &t->self[n * nr], nr * sizeof(cost_t));
		k++;
	}
	t->n = k;
	free(map);
}

struct cctx *cctx_recorded(struct profile *p, int event, int warn)
{
	struct cctx *t = cctx_new(p, 0);
	profile_fn_index(p); /* (each fn: line looked up: beside_find_fn) */
	int with = 0, without = 0;
	char err[512];
	for (int i = 0; i < p->nsources; i++) {
		int rc = cctx_read(t, p->sources[i], err, sizeof(err));
		if (rc < 0) {
			if (warn)
				profile_warn(p, "%s (the paths are estimated)", err);
			without++;
			break;
		}
		*(rc == 0 ? &with : &without) += 1;
	}
	/* all the files or none: a tree of some files' paths would be wrong */
	if (!with || without) {
		cctx_free(t);
		return NULL;
	}
	drop_unloaded(t);
	cctx_finish(t);
	cctx_order(t, event);
	return t;
}

struct cctx *cctx_of(struct profile *p, int event, double threshold)
{
	struct cctx *t = cctx_recorded(p, event, 1);
	return t ? t : cctx_estimate(p, event, threshold, 0);
}

/* ---- walking ------------------------------------------------------------------------ */

void cctx_walk(const struct cctx *t, int part, cctx_visit_fn visit, void *arg)
{
	uint32_t *stack = xmalloc(((size_t)t->n + 1) * sizeof(*stack));
	uint32_t *path = NULL;
	size_t sp = 0, pcap = 0;
	for (uint32_t r = t->nroots; r-- > 0;)
		if (part < 0 || t->node[t->root[r]].part == part)
			stack[sp++] = t->root[r];
	while (sp) {
		uint32_t n = stack[--sp];
		const struct cctx_node *d = &t->node[n];
		VEC_RESERVE(path, pcap, (size_t)d->depth + 1);
		path[d->depth] = d->fn;
		visit(arg, t, n, path, d->depth + 1);
		for (uint32_t k = d->first + d->nchild; k-- > d->first;)
			stack[sp++] = t->kid[k];
	}
	free(stack);
	free(path);
}

/* ---- callers ----------------------------------------------------------------------- */

/* (parent, entity) -> node of the tree being made */
struct trie {
	uint64_t *key;
	uint32_t *val;
	size_t mask, n;
};

static uint32_t *trie_slot(struct trie *tr, uint64_t k)
{
	if (2 * (tr->n + 1) > tr->mask + 1) {
		size_t ncap = tr->mask ? 2 * (tr->mask + 1) : 64;
		uint64_t *ok = tr->key;
		uint32_t *ov = tr->val;
		size_t om = tr->mask;
		tr->key = xmalloc(ncap * sizeof(*tr->key));
		tr->val = xmalloc(ncap * sizeof(*tr->val));
		tr->mask = ncap - 1;
		for (size_t i = 0; i < ncap; i++)
			tr->val[i] = NO_ID;
		if (ok)
			for (size_t i = 0; i <= om; i++)
				if (ov[i] != NO_ID) {
					size_t j = hash_mix(ok[i]) & tr->mask;
					while (tr->val[j] != NO_ID)
						j = (j + 1) & tr->mask;
					tr->key[j] = ok[i];
					tr->val[j] = ov[i];
				}
		free(ok);
		free(ov);
	}
	size_t j = hash_mix(k) & tr->mask;
	while (tr->val[j] != NO_ID && tr->key[j] != k)
		j = (j + 1) & tr->mask;
	if (tr->val[j] == NO_ID) {
		tr->key[j] = k;
		tr->n++;
	}
	return &tr->val[j];
}

void cctx_own(const struct cctx *t, uint32_t n, cost_t *c)
{
	const struct agg *a = profile_agg(t->p);
	const struct cctx_node *d = &t->node[n];
	/* (a cycle's own node, in an estimate, holds its members: its
	 * inclusive cost is the cycle's) */
	uint32_t k = agg_is_cycle(a, d->fn) ? 0 : agg_cycle_no(a, d->fn);
	size_t nr = (size_t)t->nreal;
	if (!k) {
		memcpy(c, cctx_incl(t, n), nr * sizeof(cost_t));
		return;
	}
	memcpy(c, cctx_self(t, n), nr * sizeof(cost_t));
	for (uint32_t i = d->first; i < d->first + d->nchild; i++) {
		uint32_t ch = t->kid[i];
		if (agg_cycle_no(a, t->node[ch].fn) == k)
			continue;
		const cost_t *ci = cctx_incl(t, ch);
		for (size_t e = 0; e < nr; e++)
			c[e] = cost_add(c[e], ci[e]);
	}
}

struct cctx *cctx_callers(const struct cctx *t, uint32_t fn, int part)
{
	cost_t own[MAX_EVENTS];
	struct cctx *r = cctx_new(t->p, t->estimated);
	uint32_t root = cctx_add(r, NO_ID, fn, 0, NULL, part);
	struct trie tr = { 0 };
	for (uint32_t n = 0; n < t->n; n++) {
		const struct cctx_node *d = &t->node[n];
		if (d->fn != fn || (part >= 0 && d->part != part))
			continue;
		cctx_add_calls(&r->node[root], d);
		if (d->flags & CC_CUT)
			r->node[root].flags |= CC_CUT;
		uint32_t cur = root;
		for (uint32_t a = d->parent; a != NO_ID; a = t->node[a].parent) {
			uint32_t *slot = trie_slot(&tr, (uint64_t)cur << 32 | t->node[a].fn);
			if (*slot == NO_ID)
				*slot = cctx_add(r, cur, t->node[a].fn, 0, NULL, part);
			cur = *slot;
			cctx_add_calls(&r->node[cur], d);
		}
		cctx_own(t, n, own);
		cctx_add_self(r, cur, own);
	}
	free(tr.key);
	free(tr.val);
	cctx_finish(r);
	return r;
}

struct cctx *cctx_merged(const struct cctx *t)
{
	struct cctx *r = cctx_new(t->p, t->estimated);
	struct trie tr = { 0 };
	uint32_t *map = xmalloc(((size_t)t->n + 1) * sizeof(*map));
	/* (a parent comes before its children) */
	for (uint32_t n = 0; n < t->n; n++) {
		const struct cctx_node *d = &t->node[n];
		uint32_t up = d->parent == NO_ID ? NO_ID : map[d->parent];
		uint32_t *slot = trie_slot(&tr, (uint64_t)up << 32 | d->fn);
		if (*slot == NO_ID)
			*slot = cctx_add(r, up, d->fn, 0, NULL, -1);
		struct cctx_node *m = &r->node[*slot];
		cctx_add_calls(m, d);
		m->flags |= d->flags & CC_MORE;
		if (d->rec > m->rec)
			m->rec = d->rec;
		cctx_add_self(r, *slot, cctx_self(t, n));
		map[n] = *slot;
	}
	memcpy(r->cut, t->cut, sizeof(r->cut));
	memcpy(r->left, t->left, sizeof(r->left));
	r->nleft = t->nleft;
	free(map);
	free(tr.key);
	free(tr.val);
	cctx_finish(r);
	return r;
}

/* ---- folded stacks ----------------------------------------------------------------- */

struct folded {
	FILE *out;
	char **label; /* per entity, made when first needed */
	int event;
};

static void put_frame(FILE *out, const char *s)
{
	/* ';' separates frames and a newline ends the stack: neither may be
	 * in a name */
	for (; *s; s++)
		putc(*s == ';' ? ':' : *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static void folded_visit(void *arg, const struct cctx *t, uint32_t n, const uint32_t *path,
			 uint32_t len)
{
	struct folded *f = arg;
	cost_t v = event_value(t->p, cctx_self(t, n), f->event);
	if (v <= 0)
		return;
	for (uint32_t i = 0; i < len; i++) {
		if (i)
			putc(';', f->out);
		if (!f->label[path[i]])
			f->label[path[i]] = fn_label(t->p, path[i]);
		put_frame(f->out, f->label[path[i]]);
	}
	fprintf(f->out, " %lld\n", (long long)v);
}

void cctx_folded(struct cctx *t, int part, int event, FILE *out)
{
	uint32_t nent = agg_nent(profile_agg(t->p));
	struct folded f = { out, xcalloc((size_t)nent + 1, sizeof(char *)), event };
	cctx_walk(t, part, folded_visit, &f);
	for (uint32_t i = 0; i < nent; i++)
		free(f.label[i]);
	free(f.label);
}
