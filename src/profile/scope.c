/* scope.c -- the one rule of what a zoomed list keeps (scope.h), and the
 * class of a C++ name.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
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

char *scope_label(const struct profile *p, const struct scope *s)
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

int scope_of_fn(const struct profile *p, uint32_t fn, struct scope *s, int max)
{
	int n = 0;
	const struct function *f = &p->fns[fn];
	/* (a profile without ob= or fl= has an empty name for them) */
	if (n < max && f->obj != NO_ID && *obj_name(p, f->obj))
		s[n++] = (struct scope){ SCOPE_OBJECT, f->obj, NULL };
	if (n < max && f->file != NO_ID && *file_name(p, f->file))
		s[n++] = (struct scope){ SCOPE_FILE, f->file, NULL };
	size_t len;
	const char *c = name_class(fn_name(p, fn), &len);
	if (n < max && len)
		s[n++] = (struct scope){ SCOPE_CLASS, NO_ID, xstrndup(c, len) };
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
	if (a->kind != b->kind)
		return 0;
	if (a->kind == SCOPE_CLASS)
		return strcmp(a->cls, b->cls) == 0;
	return a->kind == SCOPE_ALL || a->id == b->id;
}

void scope_clear(struct scope *s)
{
	free(s->cls);
	*s = (struct scope){ SCOPE_ALL, NO_ID, NULL };
}
