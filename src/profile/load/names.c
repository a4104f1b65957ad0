/* names.c -- the names that specification lines carry: "(id) name",
 * "(id)" and "name" (format spec 3.1.5, "Name Compression").
 *
 * The body's name lines (fn=, fl=, fi=, fe=, ob=, cfn=, cfi=, cfl=, cob=,
 * jfi=, jfn=: the keys load_int.h's table gives an id space) carry a name,
 * an id with its name, or an id alone.  A name is interned in the profile's
 * table of its kind (objects, files, functions) as --mod-filename and
 * --mod-funcname make it, contexts folded for our tool's files; an id is
 * defined, defined again (with another name: a warning), or used before its
 * definition -- old callgrind writes such files: a placeholder, renamed when
 * the definition comes.  At the end of a file, the ids never defined keep a
 * visible "(N)" and get a warning (ids_finish).  idmap.c keeps the ids;
 * parse.c reads the lines.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"
#include "profile/modname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct strtab *name_tab(struct parser *ps, int ns)
{
	struct profile *p = ps->p;
	return ns == NS_OBJ ? &p->objs : ns == NS_FILE ? &p->files : &p->names;
}

/* The text a name is kept as: --mod-filename/--mod-funcname applied.  s
 * itself, or *sub (for the caller to free); *len is updated. */
static const char *name_text(struct parser *ps, int ns, const char *s, size_t *len, char **sub)
{
	const struct modname *m = ns == NS_FILE ? ps->o->modfile : ns == NS_FN ? ps->o->modfn : NULL;
	if (ns == NS_FN && ps->o->fold_contexts && ps->part &&
	    creator_names_contexts(ps->part->creator)) {
		const char *q = *len > 1 ? memchr(s + 1, '\'', *len - 1) : NULL;
		if (q)
			*len = (size_t)(q - s);
	}
	size_t ol = 0;
	char *t = m ? modname_apply_in(&ps->modsc, m, s, *len, &ol) : NULL;
	*sub = t;
	if (t)
		*len = ol;
	return t ? t : s;
}

static uint32_t intern_name(struct parser *ps, int ns, const char *s, size_t len)
{
	char *sub;
	const char *t = name_text(ps, ns, s, &len, &sub);
	uint32_t id = strtab_intern(name_tab(ps, ns), t, len);
	free(sub);
	return id;
}

/* "(id) name": the id defined (again).  An id used before is given its
 * text where it stands, so that what was made with it keeps it. */
static uint32_t define_id(struct parser *ps, int ns, struct idmap *map, uint64_t id,
			  const char *name, size_t len)
{
	struct strtab *t = name_tab(ps, ns);
	uint32_t *v = idmap_slot(map, (int64_t)id, 1);
	char *sub;
	const char *txt = name_text(ps, ns, name, &len, &sub);
	uint32_t r;
	if (*v & ID_PENDING) {
		/* (a name already interned under another id or without one
		 * stays a second entry of the same text) */
		r = (*v & ~ID_PENDING) - 1;
		strtab_rename(t, r, txt, len);
	} else if (*v && t->len[*v - 1] == len && memcmp(t->str[*v - 1], txt, len) == 0) {
		r = *v - 1; /* the same again */
	} else {
		r = strtab_intern(t, txt, len);
		if (*v)
			profile_warn(ps->p, "%s:%llu: id (%llu) redefined with another name",
				     ps->path, (unsigned long long)ps->lineno, (unsigned long long)id);
	}
	*v = r + 1;
	free(sub);
	return r;
}

uint32_t parse_name(struct parser *ps, int ns, const char *s, size_t len)
{
	struct idmap *map = ns_map(ps, ns);
	const char *end = s + len;
	while (end > s && is_space(end[-1]))
		end--;
	if (s < end && *s == '(') {
		const char *q = s + 1;
		uint64_t id;
		int ovf = 0;
		const char *e = parse_u64(q, &id, &ovf);
		if (e && e < end && *e == ')') {
			ps->cg_fmt = 1; /* name compression: Callgrind's format */
			const char *name = e + 1;
			if (name < end && is_space(*name))
				name++;
			if (name >= end && e + 1 >= end) {
				uint32_t *v = idmap_slot(map, (int64_t)id, 1);
				if (!*v) {
					/* Used before its definition (old callgrind writes
					 * such files): a placeholder, renamed when the
					 * definition comes; "(id)" and a warning if it
					 * never does (ids_finish). */
					char ph[40];
					int n = snprintf(ph, sizeof(ph), "\001(%llu)", (unsigned long long)id);
					*v = (strtab_intern(name_tab(ps, ns), ph, (size_t)n) + 1) |
					     ID_PENDING;
					VEC_RESERVE(map->pend, map->cappend, map->npend + 1);
					map->pend[map->npend++] =
						(struct idpend){ (int64_t)id, ps->lineno };
				}
				return (*v & ~ID_PENDING) - 1;
			}
			return define_id(ps, ns, map, id, name, (size_t)(end - name));
		}
	}
	return intern_name(ps, ns, s, (size_t)(end - s));
}

/* The ids used but never defined in the file (or the part of an Xdebug file)
 * just read keep a visible "(N)" name; each gets a warning with the line of
 * its first use, the first IDWARN_MAX of them. */
#define IDWARN_MAX 10

struct undef_id {
	uint64_t line;
	int64_t id;
	int ns;
};

static int cmp_undef(const void *a, const void *b)
{
	const struct undef_id *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (x->ns > y->ns) - (x->ns < y->ns);
}

void ids_finish(struct parser *ps)
{
	static const char *const what[NS_NONE] = { "object", "file", "function" };
	struct undef_id *u = NULL;
	size_t nu = 0, capu = 0;
	for (int k = NS_OBJ; k < NS_NONE; k++) {
		struct idmap *m = ns_map(ps, k);
		for (uint32_t i = 0; i < m->npend; i++) {
			uint32_t *v = idmap_slot(m, m->pend[i].id, 0);
			if (!v || !(*v & ID_PENDING))
				continue; /* defined since */
			char nm[40];
			int n = snprintf(nm, sizeof(nm), "(%llu)", (unsigned long long)m->pend[i].id);
			strtab_rename(name_tab(ps, k), (*v & ~ID_PENDING) - 1, nm, (size_t)n);
			*v &= ~ID_PENDING;
			VEC_RESERVE(u, capu, nu + 1);
			u[nu++] = (struct undef_id){ m->pend[i].line, m->pend[i].id, k };
		}
		m->npend = 0;
	}
	if (nu)
		qsort(u, nu, sizeof(*u), cmp_undef);
	for (size_t i = 0; i < nu && i < IDWARN_MAX; i++)
		profile_warn(ps->p, "%s:%llu: %s id (%llu) is used but never defined; shown as (%llu)",
			     ps->path, (unsigned long long)u[i].line, what[u[i].ns],
			     (unsigned long long)u[i].id, (unsigned long long)u[i].id);
	if (nu > IDWARN_MAX)
		profile_warn(ps->p, "%s: ... and %zu more id%s used but never defined", ps->path,
			     nu - IDWARN_MAX, nu - IDWARN_MAX == 1 ? "" : "s");
	free(u);
}
