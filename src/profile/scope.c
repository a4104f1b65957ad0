/* scope.c -- the one rule of what a zoomed list keeps (scope.h), and the
 * class of a C++ name.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "format.h"
#include "scope.h"
#include "util.h"

#define ANON "(anonymous namespace)"

/* "operator" ends just before s + i: what follows is an operator's name
 * (operator<, operator(), operator new), not template arguments, a call's
 * parameters or a return type's end. */
static int after_operator(const char *s, size_t i)
{
	return i >= 8 && strncmp(s + i - 8, "operator", 8) == 0 &&
	       (i == 8 || s[i - 9] == ':' || s[i - 9] == ' ' || s[i - 9] == '~');
}

const char *name_class(const char *s, size_t *len)
{
	size_t n = strlen(s), start = 0, end = n, colons = 0;
	int angle = 0, paren = 0;
	*len = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!angle && !paren && after_operator(s, i)) {
			/* the operator's own characters: <, <<, (), ->, new ... */
			if (c == '(' && s[i + 1] == ')')
				i++;
			else if (c == ' ')
				while (i + 1 < n && s[i + 1] != '(')
					i++;
			else
				while (i + 1 < n && strchr("<>=!+-*/%^&|~,[]", s[i + 1]))
					i++;
			continue;
		}
		if (c == '(' && !angle && !paren && strncmp(s + i, ANON, sizeof(ANON) - 1) == 0) {
			i += sizeof(ANON) - 2;
			continue;
		}
		if (c == '<')
			angle++;
		else if (c == '>' && angle)
			angle--;
		else if (c == '(') {
			if (!angle && !paren) { /* the parameters: the name ends */
				end = i;
				break;
			}
			paren++;
		} else if (c == ')' && paren)
			paren--;
		else if (c == '\'' && !angle && !paren) { /* callgrind's f'2, f'g */
			end = i;
			break;
		} else if (c == ' ' && !angle && !paren && s[i + 1] != '<') {
			/* a return type before it (not "operator<< <int>") */
			start = i + 1;
			colons = 0;
		} else if (c == ':' && s[i + 1] == ':' && !angle && !paren) {
			colons = i;
			i++;
		}
	}
	if (angle || paren || !colons || colons <= start || colons >= end)
		return s;
	*len = colons - start;
	return s + start;
}

int scope_keeps(struct profile *p, const struct scope *s, uint32_t id)
{
	if (!s || s->kind == SCOPE_ALL)
		return 1;
	const struct agg *a = profile_agg(p);
	if (agg_is_cycle(a, id)) {
		uint32_t k = agg_cycle_no(a, id);
		for (uint32_t i = a->cyc_start[k - 1]; i < a->cyc_start[k]; i++)
			if (scope_keeps(p, s, a->cyc_fn[i]))
				return 1;
		return 0;
	}
	const struct function *f = &p->fns[id];
	switch (s->kind) {
	case SCOPE_OBJECT:
		return f->obj == s->id;
	case SCOPE_FILE:
		return f->file == s->id;
	case SCOPE_CLASS: {
		size_t n, m = strlen(s->cls);
		const char *c = name_class(fn_name(p, id), &n);
		return n >= m && strncmp(c, s->cls, m) == 0 &&
		       (n == m || (c[m] == ':' && c[m + 1] == ':'));
	}
	default:
		return 1;
	}
}

void scope_self(struct profile *p, const struct scope *s, cost_t *out)
{
	const struct agg *a = profile_agg(p);
	memset(out, 0, sizeof(*out) * (size_t)a->nreal);
	for (uint32_t fn = 0; fn < a->nfns; fn++) {
		if (!scope_keeps(p, s, fn))
			continue;
		const cost_t *c = agg_self(a, fn);
		for (int e = 0; e < a->nreal; e++)
			out[e] += c[e];
	}
}

static char *kind_label(const struct profile *p, const struct scope *s)
{
	switch (s ? s->kind : SCOPE_ALL) {
	case SCOPE_OBJECT:
		return xasprintf("object %s", obj_name(p, s->id));
	case SCOPE_FILE:
		return xasprintf("file %s", file_name(p, s->id));
	case SCOPE_CLASS:
		return xasprintf("class %s", s->cls);
	default:
		return xstrdup("the whole run");
	}
}

char *scope_label(const struct profile *p, const struct scope *s)
{
	if (!s || !s->ir1)
		return kind_label(p, s);
	char a[48], b[48];
	format_count(a, sizeof(a), (cost_t)s->ir0);
	format_count(b, sizeof(b), (cost_t)s->ir1);
	if (s->kind == SCOPE_ALL)
		return xasprintf("Ir %s to %s", a, b);
	char *k = kind_label(p, s), *l = xasprintf("%s, Ir %s to %s", k, a, b);
	free(k);
	return l;
}

int scope_of_fn(const struct profile *p, uint32_t fn, struct scope *s, int max)
{
	int n = 0;
	const struct function *f = &p->fns[fn];
	/* (a profile without ob= or fl= has an empty name for them) */
	if (n < max && f->obj != NO_ID && *obj_name(p, f->obj))
		s[n++] = (struct scope){ .kind = SCOPE_OBJECT, .id = f->obj };
	if (n < max && f->file != NO_ID && *file_name(p, f->file))
		s[n++] = (struct scope){ .kind = SCOPE_FILE, .id = f->file };
	size_t len;
	const char *c = name_class(fn_name(p, fn), &len);
	if (n < max && len)
		s[n++] = (struct scope){ .kind = SCOPE_CLASS, .id = NO_ID, .cls = xstrndup(c, len) };
	return n;
}

void scope_move(struct scope *s, const struct profile *from, const struct profile *to)
{
	if (s->kind != SCOPE_OBJECT && s->kind != SCOPE_FILE)
		return;
	const struct strtab *a = s->kind == SCOPE_OBJECT ? &from->objs : &from->files;
	const struct strtab *b = s->kind == SCOPE_OBJECT ? &to->objs : &to->files;
	uint32_t id = s->id < a->n ? strtab_find(b, a->str[s->id], a->len[s->id]) : UINT32_MAX;
	s->id = id == UINT32_MAX ? NO_ID : id;
}

void scope_copy(struct scope *to, const struct scope *from)
{
	*to = *from;
	to->cls = from->cls ? xstrdup(from->cls) : NULL;
}

int scope_same(const struct scope *a, const struct scope *b)
{
	if (a->kind != b->kind || a->ir0 != b->ir0 || a->ir1 != b->ir1)
		return 0;
	if (a->kind == SCOPE_CLASS)
		return strcmp(a->cls, b->cls) == 0;
	return a->kind == SCOPE_ALL || a->id == b->id;
}

void scope_clear(struct scope *s)
{
	free(s->cls);
	*s = (struct scope){ .kind = SCOPE_ALL, .id = NO_ID };
}

/* ---- parts ------------------------------------------------------------------ */

const char *const part_field_option[PART_NFIELDS] = { "--parts", "--threads", "--pids" };

int partset_all(const struct partset *s)
{
	if (!s || s->bits)
		return !s;
	for (int f = 0; f < PART_NFIELDS; f++)
		if (s->by[f].n)
			return 0;
	return 1;
}

int partset_has(const struct profile *p, const struct partset *s, int k)
{
	if (partset_all(s))
		return 1;
	if (s->bits)
		return k >= 1 && k <= s->nbits && (s->bits[(k - 1) / 64] >> ((k - 1) % 64) & 1);
	const struct part_info *pi = &p->parts[k - 1];
	/* the numbers the parts view shows: k for a part without part: */
	long v[PART_NFIELDS] = { pi->number ? pi->number : k, pi->thread, pi->pid };
	for (int f = 0; f < PART_NFIELDS; f++) {
		int in = !s->by[f].n;
		for (int i = 0; i < s->by[f].n && !in; i++)
			in = s->by[f].v[i] == v[f];
		if (!in)
			return 0;
	}
	return 1;
}

/* s by load index with n parts, none of them in it yet */
static void by_index(struct partset *s, int n)
{
	partset_clear(s);
	s->nbits = n;
	s->bits = xcalloc((size_t)(n + 63) / 64 + 1, sizeof(*s->bits));
}

static void set_bit(struct partset *s, int k, int on)
{
	uint64_t b = (uint64_t)1 << ((k - 1) % 64);
	s->bits[(k - 1) / 64] = on ? s->bits[(k - 1) / 64] | b : s->bits[(k - 1) / 64] & ~b;
}

void partset_only(struct partset *s, int k)
{
	by_index(s, k);
	set_bit(s, k, 1);
}

void partset_of_profile(struct partset *s, const struct profile *p)
{
	partset_clear(s);
	if (parts_all_shown(p))
		return;
	by_index(s, p->nparts);
	for (int k = 1; k <= p->nparts; k++)
		set_bit(s, k, part_shown(p, k));
}

void partset_set(struct partset *s, const struct profile *p, int k, int on)
{
	struct partset n = { 0 };
	by_index(&n, p->nparts > k ? p->nparts : k);
	for (int i = 1; i <= p->nparts; i++)
		set_bit(&n, i, partset_has(p, s, i));
	set_bit(&n, k, on);
	partset_clear(s);
	*s = n;
	int all = 1;
	for (int i = 1; i <= p->nparts; i++)
		all &= partset_has(p, s, i);
	if (all) /* every part: the set that says so */
		partset_clear(s);
}

int partset_parse_list(const char *text, struct partlist *l, char *err, size_t errsz)
{
	const char *s = text;
	free(l->v);
	*l = (struct partlist){ NULL, 0 };
	int cap = 0;
	for (;;) {
		char *e;
		if (*s < '0' || *s > '9')
			goto bad;
		long a = strtol(s, &e, 10), b = a;
		if (*e == '-') {
			if (e[1] < '0' || e[1] > '9')
				goto bad;
			b = strtol(e + 1, &e, 10);
		}
		if (b < a || b - a > 100000 || a > 1000000000 || b > 1000000000)
			goto bad;
		for (long x = a; x <= b; x++) {
			VEC_RESERVE(l->v, cap, l->n + 1);
			l->v[l->n++] = x;
		}
		if (!*e)
			return 0;
		if (*e != ',')
			goto bad;
		s = e + 1;
	}
bad:
	snprintf(err, errsz, "'%s' is not a list of numbers and ranges (1,3,5-7)", text);
	free(l->v);
	*l = (struct partlist){ NULL, 0 };
	return -1;
}

void partset_copy(struct partset *to, const struct partset *from)
{
	*to = *from;
	if (from->bits) {
		size_t w = (size_t)(from->nbits + 63) / 64 + 1;
		to->bits = xmalloc(w * sizeof(*to->bits));
		memcpy(to->bits, from->bits, w * sizeof(*to->bits));
	}
	for (int f = 0; f < PART_NFIELDS; f++) {
		to->by[f].v = from->by[f].n ? xmalloc((size_t)from->by[f].n * sizeof(long)) : NULL;
		if (from->by[f].n)
			memcpy(to->by[f].v, from->by[f].v, (size_t)from->by[f].n * sizeof(long));
	}
}

int partset_same(const struct partset *x, const struct partset *y)
{
	if (!x->bits != !y->bits || x->nbits != y->nbits)
		return 0;
	for (int i = 0; x->bits && i < (x->nbits + 63) / 64; i++)
		if (x->bits[i] != y->bits[i])
			return 0;
	for (int f = 0; f < PART_NFIELDS; f++)
		if (x->by[f].n != y->by[f].n ||
		    (x->by[f].n && memcmp(x->by[f].v, y->by[f].v, (size_t)x->by[f].n * sizeof(long))))
			return 0;
	return 1;
}

void partset_clear(struct partset *s)
{
	free(s->bits);
	for (int f = 0; f < PART_NFIELDS; f++)
		free(s->by[f].v);
	memset(s, 0, sizeof(*s));
}

int part_shown(const struct profile *p, int k)
{
	return k >= 1 && k <= p->nparts && !p->parts[k - 1].skipped;
}

int parts_all_shown(const struct profile *p)
{
	for (int k = 1; k <= p->nparts; k++)
		if (!part_shown(p, k))
			return 0;
	return 1;
}

void parts_shown_label(char *buf, size_t n, const struct profile *p)
{
	int shown = 0, one = 0;
	for (int k = 1; k <= p->nparts; k++)
		if (part_shown(p, k)) {
			shown++;
			one = k;
		}
	if (shown == p->nparts) {
		snprintf(buf, n, "%d part%s", p->nparts, p->nparts == 1 ? "" : "s");
		return;
	}
	if (shown == 1) {
		part_label(buf, n, p, one);
		return;
	}
	size_t l = (size_t)snprintf(buf, n, "%d of %d parts:", shown, p->nparts);
	int pids = 0; /* parts of several processes: each says its pid */
	for (int k = 2; k <= p->nparts; k++)
		pids |= p->parts[k - 1].pid != p->parts[0].pid;
	int *order = profile_parts_by_time(p);
	for (int j = 0, first = 1; j < p->nparts && l < n; j++) {
		int k = order[j] + 1;
		if (!part_shown(p, k))
			continue;
		const struct part_info *pi = &p->parts[k - 1];
		char item[80];
		int il = snprintf(item, sizeof(item), "%d", pi->number ? pi->number : k);
		if (pi->thread)
			il += snprintf(item + il, sizeof(item) - (size_t)il, ".%ld", pi->thread);
		if (pids)
			snprintf(item + il, sizeof(item) - (size_t)il, " pid %ld", pi->pid);
		l += (size_t)snprintf(buf + l, n - l, "%s %s", first ? "" : ",", item);
		first = 0;
	}
	free(order);
}
