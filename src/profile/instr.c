/* instr.c -- one function's instruction-level detail, re-read on demand.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "instr.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct collector {
	const struct profile *p; /* the profile shown */
	uint32_t fn;             /* its function wanted */
	uint8_t *match;          /* per function of the profile read: 0 unknown, 1 yes, 2 no */
	uint32_t nmatch;
	struct fn_instrs *fi;
	uint32_t capins, capcalls, capjumps;
};

static int same_str(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/* Is function f of the profile being read q the one wanted? */
static int wanted(struct collector *c, const struct profile *q, uint32_t f)
{
	if (f == NO_ID)
		return 0;
	if (f >= c->nmatch) {
		uint32_t n = f + 64;
		c->match = xrealloc(c->match, n);
		memset(c->match + c->nmatch, 0, n - c->nmatch);
		c->nmatch = n;
	}
	if (c->match[f])
		return c->match[f] == 1;
	const struct function *a = &c->p->fns[c->fn], *b = &q->fns[f];
	int ok = same_str(c->p->names.str[a->name], q->names.str[b->name]);
	if (ok && (a->obj == NO_ID) != (b->obj == NO_ID))
		ok = 0;
	if (ok && a->obj != NO_ID)
		ok = same_str(c->p->objs.str[a->obj], q->objs.str[b->obj]);
	if (ok && a->file != NO_ID)
		ok = b->file != NO_ID && same_str(c->p->files.str[a->file], q->files.str[b->file]);
	c->match[f] = ok ? 1 : 2;
	return ok;
}

/* At a fn= line: is a function of that name and object wanted?  (The file
 * is checked at its cost lines.) */
static int want_name(void *arg, const struct profile *q, uint32_t obj, uint32_t name)
{
	struct collector *c = arg;
	const struct function *a = &c->p->fns[c->fn];
	if (strcmp(c->p->names.str[a->name], q->names.str[name]) != 0)
		return 0;
	if ((a->obj == NO_ID) != (obj == NO_ID))
		return a->obj == NO_ID || !*c->p->objs.str[a->obj];
	return a->obj == NO_ID || strcmp(c->p->objs.str[a->obj], q->objs.str[obj]) == 0;
}

static cost_t *dup_cost(const cost_t *v, int n)
{
	cost_t *d = xmalloc(sizeof(cost_t) * (size_t)(n ? n : 1));
	memcpy(d, v, sizeof(cost_t) * (size_t)n);
	return d;
}

static void on_cost(void *arg, const struct profile *q, uint32_t f, uint32_t file, uint32_t line,
		    uint64_t addr, const cost_t *cv)
{
	struct collector *c = arg;
	if (!wanted(c, q, f))
		return;
	struct fn_instrs *fi = c->fi;
	if (!addr) {
		fi->no_addr = 1;
		return;
	}
	VEC_RESERVE(fi->ins, c->capins, fi->nins + 1);
	struct icost *e = &fi->ins[fi->nins++];
	e->addr = addr;
	e->line = line;
	e->file = xstrdup(q->files.str[file]);
	e->cost = dup_cost(cv, fi->nreal);
}

static void on_call(void *arg, const struct profile *q, uint32_t f, uint64_t addr,
		    uint32_t callee, uint64_t taddr, cost_t count, const cost_t *cv)
{
	struct collector *c = arg;
	if (!wanted(c, q, f) || !addr)
		return;
	struct fn_instrs *fi = c->fi;
	VEC_RESERVE(fi->calls, c->capcalls, fi->ncalls + 1);
	struct icall *e = &fi->calls[fi->ncalls++];
	e->addr = addr;
	e->target = taddr;
	e->callee = xstrdup(q->names.str[q->fns[callee].name]);
	e->count = count;
	e->cost = dup_cost(cv, fi->nreal);
}

static void on_jump(void *arg, const struct profile *q, uint32_t f, uint64_t addr,
		    uint64_t taddr, int cond, cost_t executed, cost_t taken)
{
	struct collector *c = arg;
	if (!wanted(c, q, f) || !addr)
		return;
	struct fn_instrs *fi = c->fi;
	VEC_RESERVE(fi->jumps, c->capjumps, fi->njumps + 1);
	struct ijump *e = &fi->jumps[fi->njumps++];
	e->addr = addr;
	e->target = taddr;
	e->cond = cond;
	e->executed = executed;
	e->taken = taken;
}

static int cmp_addr(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_ins(const void *a, const void *b)
{
	return cmp_addr(((const struct icost *)a)->addr, ((const struct icost *)b)->addr);
}

static int cmp_call(const void *a, const void *b)
{
	const struct icall *x = a, *y = b;
	int r = cmp_addr(x->addr, y->addr);
	return r ? r : strcmp(x->callee, y->callee);
}

static int cmp_jump(const void *a, const void *b)
{
	const struct ijump *x = a, *y = b;
	int r = cmp_addr(x->addr, y->addr);
	if (!r)
		r = cmp_addr(x->target, y->target);
	return r ? r : x->cond - y->cond;
}

static void add_costs(cost_t *d, const cost_t *s, int n)
{
	for (int i = 0; i < n; i++)
		d[i] = cost_add(d[i], s[i]);
}

/* Sorts and merges records of the same key (parts, threads, several blocks
 * of one function). */
static void merge(struct fn_instrs *fi)
{
	int n = fi->nreal;
	uint32_t k = 0;
	if (fi->nins > 1)
		qsort(fi->ins, fi->nins, sizeof(*fi->ins), cmp_ins);
	for (uint32_t i = 0; i < fi->nins; i++) {
		if (k && fi->ins[k - 1].addr == fi->ins[i].addr) {
			add_costs(fi->ins[k - 1].cost, fi->ins[i].cost, n);
			free(fi->ins[i].cost);
			free(fi->ins[i].file);
			continue;
		}
		fi->ins[k++] = fi->ins[i];
	}
	fi->nins = k;
	k = 0;
	if (fi->ncalls > 1)
		qsort(fi->calls, fi->ncalls, sizeof(*fi->calls), cmp_call);
	for (uint32_t i = 0; i < fi->ncalls; i++) {
		if (k && cmp_call(&fi->calls[k - 1], &fi->calls[i]) == 0) {
			struct icall *d = &fi->calls[k - 1];
			d->count = cost_add(d->count, fi->calls[i].count);
			add_costs(d->cost, fi->calls[i].cost, n);
			free(fi->calls[i].cost);
			free(fi->calls[i].callee);
			continue;
		}
		fi->calls[k++] = fi->calls[i];
	}
	fi->ncalls = k;
	k = 0;
	if (fi->njumps > 1)
		qsort(fi->jumps, fi->njumps, sizeof(*fi->jumps), cmp_jump);
	for (uint32_t i = 0; i < fi->njumps; i++) {
		if (k && cmp_jump(&fi->jumps[k - 1], &fi->jumps[i]) == 0) {
			struct ijump *d = &fi->jumps[k - 1];
			d->executed = cost_add(d->executed, fi->jumps[i].executed);
			d->taken = cost_add(d->taken, fi->jumps[i].taken);
			continue;
		}
		fi->jumps[k++] = fi->jumps[i];
	}
	fi->njumps = k;
}

int fn_instrs_collect(struct fn_instrs *fi, const struct profile *p, uint32_t fn,
		      instr_reload_fn reload, void *arg, char *err, size_t errsz)
{
	memset(fi, 0, sizeof(*fi));
	fi->nreal = p->nreal;
	struct collector c = { .p = p, .fn = fn, .fi = fi };
	int skim_failed = 0;
	struct instr_sink s = { .arg = &c, .cost = on_cost, .call = on_call, .jump = on_jump,
				.want = want_name, .skim_failed = &skim_failed };
	struct profile q;
	int rc = reload(arg, &q, &s, err, errsz);
	if (rc < 0 && skim_failed) { /* positions relative across blocks: read it all */
		fn_instrs_free(fi);
		fi->nreal = p->nreal;
		free(c.match);
		c = (struct collector){ .p = p, .fn = fn, .fi = fi };
		s.want = NULL;
		rc = reload(arg, &q, &s, err, errsz);
	}
	free(c.match);
	if (rc < 0) {
		fn_instrs_free(fi);
		fi->nreal = p->nreal;
		return -1;
	}
	if (q.nreal != p->nreal) {
		profile_free(&q);
		fn_instrs_free(fi);
		snprintf(err, errsz, "the profile changed since it was loaded");
		return -1;
	}
	profile_free(&q);
	merge(fi);
	return 0;
}

static int icost_below(const void *ic, const void *addr)
{
	return ((const struct icost *)ic)->addr < *(const uint64_t *)addr;
}

/* the first at or above addr, if it is at addr */
const struct icost *fn_instrs_find(const struct fn_instrs *fi, uint64_t addr)
{
	size_t i = first_not_below(fi->ins, fi->nins, sizeof(*fi->ins), icost_below, &addr);
	return i < fi->nins && fi->ins[i].addr == addr ? &fi->ins[i] : NULL;
}

void fn_instrs_free(struct fn_instrs *fi)
{
	for (uint32_t i = 0; i < fi->nins; i++) {
		free(fi->ins[i].cost);
		free(fi->ins[i].file);
	}
	free(fi->ins);
	for (uint32_t i = 0; i < fi->ncalls; i++) {
		free(fi->calls[i].cost);
		free(fi->calls[i].callee);
	}
	free(fi->calls);
	free(fi->jumps);
	memset(fi, 0, sizeof(*fi));
}
