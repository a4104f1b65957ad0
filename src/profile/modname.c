/* modname.c -- s/regex/replacement/ substitutions on names, with pcre2.
 *
 * One compiled substitution serves every load that names it, and loads may
 * run in several threads at once (a run's files side by side, the
 * parallel loader of issue 19): applying it changes nothing shared but the
 * remembered names, which a lock guards.  The pcre2 match data an
 * application needs (a match data block is for one thread at a time) is
 * its caller's: a load keeps one for all its names (modname_apply_in).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "modname.h"
#include "util.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names applied to and their results (modname_keep_originals): an
 * open-addressing hash on the name. */
struct memo_ent {
	char *in;
	size_t inlen;
	char *out; /* NULL: unchanged */
	size_t outlen;
};
struct memo {
	struct memo_ent *e;
	size_t cap, n; /* cap a power of two, or 0 */
};

/* What a substitution does: a regex's (modname_compile), or one of the
 * rules that match names across builds (modname_prefixes,
 * modname_numbering), each after `first`'s when it has one. */
enum mod_kind { MOD_REGEX, MOD_PREFIX, MOD_NUMBERING };

struct modname {
	enum mod_kind kind;
	const struct modname *first; /* applied before, or NULL */
	char **from, **to;           /* MOD_PREFIX: the leading parts replaced */
	int nprefix;
	pcre2_code *re;
	pcre2_general_context *gc; /* pcre2's allocations through xmalloc() */
	uint32_t pairs;            /* the match data it needs: groups + 1 */
	char *repl; /* in pcre2 syntax */
	int global;
	struct memo *memo; /* NULL unless remembering */
	pthread_mutex_t lock; /* held while memo is read or changed */
};

/* pcre2's memory, as the program's: running out of it is fatal, never a
 * name left silently unchanged */
static void *gc_malloc(PCRE2_SIZE n, void *data)
{
	(void)data;
	return xmalloc(n);
}

static void gc_free(void *p, void *data)
{
	(void)data;
	free(p);
}

/* Splits "s/old/new/flags" at the delimiter that follows 's'; a delimiter
 * preceded by a backslash is part of the text. */
static const char *split_part(const char *s, char delim, char **out)
{
	size_t cap = strlen(s) + 1, n = 0;
	char *d = xmalloc(cap);
	for (; *s && *s != delim; s++) {
		if (*s == '\\' && s[1] == delim) {
			s++;
		}
		d[n++] = *s;
	}
	d[n] = 0;
	*out = d;
	return *s == delim ? s + 1 : NULL;
}

struct modname *modname_compile(const char *expr, char *err, size_t errsz)
{
	if (expr[0] != 's' || !expr[1]) {
		snprintf(err, errsz, "'%s': expected s/regex/replacement/", expr);
		return NULL;
	}
	char delim = expr[1];
	char *pat = NULL, *rep = NULL;
	const char *rest = split_part(expr + 2, delim, &pat);
	if (rest)
		rest = split_part(rest, delim, &rep);
	if (!rest) {
		snprintf(err, errsz, "'%s': expected s/regex/replacement/", expr);
		free(pat);
		free(rep);
		return NULL;
	}
	uint32_t opts = 0;
	int global = 0;
	for (; *rest; rest++) {
		if (*rest == 'g')
			global = 1;
		else if (*rest == 'i')
			opts |= PCRE2_CASELESS;
		else {
			snprintf(err, errsz, "'%s': unknown flag '%c' (only g and i)", expr, *rest);
			free(pat);
			free(rep);
			return NULL;
		}
	}
	int ec;
	PCRE2_SIZE eo;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts, &ec, &eo, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(ec, msg, sizeof(msg));
		snprintf(err, errsz, "'%s': bad regex at offset %zu: %s", expr, (size_t)eo, msg);
		free(pat);
		free(rep);
		return NULL;
	}
	/* Translate \N to ${N} and protect literal '$'. */
	size_t rl = strlen(rep);
	char *r = xmalloc(rl * 4 + 1), *o = r;
	for (const char *s = rep; *s; s++) {
		if (*s == '\\' && s[1] >= '0' && s[1] <= '9') {
			o += sprintf(o, "${%c}", s[1]);
			s++;
		} else if (*s == '\\' && s[1] == '\\') {
			*o++ = '\\';
			s++;
		} else if (*s == '$') {
			*o++ = '$';
			*o++ = '$';
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
	free(pat);
	free(rep);
	struct modname *m = xcalloc(1, sizeof(*m));
	m->re = re;
	m->gc = pcre2_general_context_create(gc_malloc, gc_free, NULL);
	uint32_t groups = 0;
	pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &groups);
	m->pairs = groups + 1;
	m->repl = r;
	pthread_mutex_init(&m->lock, NULL);
	m->global = global;
	return m;
}

/* The match data of one caller (a load): created on first use, grown for
 * a substitution with more groups than it had room for. */
struct modname_scratch {
	pcre2_match_data *md;
	uint32_t pairs;
};

void modname_scratch_free(struct modname_scratch *sc)
{
	if (sc) {
		pcre2_match_data_free(sc->md);
		free(sc);
	}
}

static pcre2_match_data *scratch_md(struct modname_scratch **scp, const struct modname *m)
{
	struct modname_scratch *sc = *scp;
	if (!sc)
		sc = *scp = xcalloc(1, sizeof(*sc));
	if (sc->pairs < m->pairs) {
		pcre2_match_data_free(sc->md);
		sc->md = pcre2_match_data_create(m->pairs, m->gc);
		sc->pairs = m->pairs;
	}
	return sc->md;
}

static char *apply_rule(const struct modname *m, const char *s, size_t len, size_t *outlen);

static char *apply(const struct modname *m, struct modname_scratch **sc, const char *s, size_t len,
		   size_t *outlen)
{
	if (m->kind != MOD_REGEX)
		return apply_rule(m, s, len, outlen);
	pcre2_match_data *md = scratch_md(sc, m);
	if (pcre2_match(m->re, (PCRE2_SPTR)s, len, 0, 0, md, NULL) < 0)
		return NULL;
	PCRE2_SIZE cap = len * 2 + strlen(m->repl) + 64;
	for (int tries = 0; tries < 8; tries++) {
		char *out = xmalloc(cap);
		PCRE2_SIZE ol = cap;
		/* the first try starts from md's match (SUBSTITUTE_MATCHED);
		 * md has been matched on since, for a second */
		int rc = pcre2_substitute(m->re, (PCRE2_SPTR)s, len, 0,
					  (m->global ? PCRE2_SUBSTITUTE_GLOBAL : 0) |
						  (tries ? 0 : PCRE2_SUBSTITUTE_MATCHED) |
						  PCRE2_SUBSTITUTE_OVERFLOW_LENGTH,
					  md, NULL, (PCRE2_SPTR)m->repl, PCRE2_ZERO_TERMINATED,
					  (PCRE2_UCHAR *)out, &ol);
		if (rc >= 0) {
			*outlen = ol;
			return out;
		}
		free(out);
		if (rc != PCRE2_ERROR_NOMEMORY)
			return NULL;
		cap = ol + 1;
	}
	return NULL;
}

static struct memo_ent *memo_slot(struct memo *mm, const char *s, size_t len)
{
	size_t i = (size_t)hash_bytes(s, len) & (mm->cap - 1);
	while (mm->e[i].in && (mm->e[i].inlen != len || memcmp(mm->e[i].in, s, len) != 0))
		i = (i + 1) & (mm->cap - 1);
	return &mm->e[i];
}

static void memo_grow(struct memo *mm)
{
	struct memo old = *mm;
	mm->cap = old.cap ? old.cap * 2 : 64;
	mm->e = xcalloc(mm->cap, sizeof(*mm->e));
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].in)
			*memo_slot(mm, old.e[i].in, old.e[i].inlen) = old.e[i];
	free(old.e);
}

char *modname_apply(const struct modname *m, const char *s, size_t len, size_t *outlen)
{
	struct modname_scratch *sc = NULL;
	char *r = modname_apply_in(&sc, m, s, len, outlen);
	modname_scratch_free(sc);
	return r;
}

char *modname_apply_in(struct modname_scratch **sc, const struct modname *m, const char *s,
		       size_t len, size_t *outlen)
{
	if (m->first) {
		/* the first's result, then this one's on it */
		size_t fl = 0;
		char *t = modname_apply_in(sc, m->first, s, len, &fl);
		char *r = apply(m, sc, t ? t : s, t ? fl : len, outlen);
		if (!r && t) {
			*outlen = fl;
			return t;
		}
		free(t);
		return r;
	}
	struct memo *mm = m->memo;
	if (!mm)
		return apply(m, sc, s, len, outlen);
	pthread_mutex_t *lock = (pthread_mutex_t *)&m->lock; /* (m's only changing part) */
	pthread_mutex_lock(lock);
	if ((mm->n + 1) * 2 > mm->cap)
		memo_grow(mm);
	struct memo_ent *e = memo_slot(mm, s, len);
	if (!e->in) {
		e->in = xstrndup(s, len);
		e->inlen = len;
		e->out = apply(m, sc, s, len, &e->outlen);
		mm->n++;
	}
	char *r = NULL;
	if (e->out) {
		*outlen = e->outlen;
		r = xstrndup(e->out, e->outlen);
	}
	pthread_mutex_unlock(lock);
	return r;
}

void modname_keep_originals(struct modname *m)
{
	if (!m->memo)
		m->memo = xcalloc(1, sizeof(*m->memo));
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

size_t modname_originals(const struct modname *m, const char *name, const char ***out)
{
	const struct memo *mm = m->memo;
	pthread_mutex_t *lock = (pthread_mutex_t *)&m->lock;
	pthread_mutex_lock(lock);
	size_t n = 0, len = strlen(name);
	const char **v = xmalloc(((mm ? mm->n : 0) + 1) * sizeof(*v));
	for (size_t i = 0; mm && i < mm->cap; i++) {
		const struct memo_ent *e = &mm->e[i];
		const char *r = e->out ? e->out : e->in;
		size_t rl = e->out ? e->outlen : e->inlen;
		if (e->in && rl == len && memcmp(r, name, len) == 0)
			v[n++] = e->in;
	}
	pthread_mutex_unlock(lock);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return n;
}

void modname_free(struct modname *m)
{
	if (!m)
		return;
	if (m->memo) {
		for (size_t i = 0; i < m->memo->cap; i++) {
			free(m->memo->e[i].in);
			free(m->memo->e[i].out);
		}
		free(m->memo->e);
		free(m->memo);
	}
	for (int i = 0; i < m->nprefix; i++) {
		free(m->from[i]);
		free(m->to[i]);
	}
	free(m->from);
	free(m->to);
	pthread_mutex_destroy(&m->lock);
	pcre2_general_context_free(m->gc);
	pcre2_code_free(m->re);
	free(m->repl);
	free(m);
}

/* ---- matching across builds -------------------------------------------------- */

static struct modname *rule_new(enum mod_kind kind, const struct modname *first)
{
	struct modname *m = xcalloc(1, sizeof(*m));
	m->kind = kind;
	m->first = first;
	pthread_mutex_init(&m->lock, NULL);
	return m;
}

struct modname *modname_prefixes(const struct modname *first, const char *const *from,
				 const char *const *to, int n)
{
	struct modname *m = rule_new(MOD_PREFIX, first);
	m->from = xmalloc(((size_t)n + 1) * sizeof(*m->from));
	m->to = xmalloc(((size_t)n + 1) * sizeof(*m->to));
	for (int i = 0; i < n; i++) {
		m->from[i] = xstrdup(from[i]);
		m->to[i] = xstrdup(to[i]);
	}
	m->nprefix = n;
	return m;
}

struct modname *modname_numbering(const struct modname *first)
{
	return rule_new(MOD_NUMBERING, first);
}

/* GCC's clones: a symbol's ".isra.0", ".part.1", ".constprop.2",
 * ".lto_priv.0", ".cold" (".cold.1" too), or a demangled name's
 * " [clone .isra.0]".  The length of s[0, len) without the last of them,
 * or len when it ends with none (or is nothing else). */
static size_t clone_cut(const char *s, size_t len)
{
	static const char *const kind[] = { "isra", "part", "constprop", "lto_priv", "cold" };
	size_t e = len, bracket = e && s[e - 1] == ']';
	e -= bracket;
	size_t d = e;
	while (d && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	size_t k = d < e ? d - (d && s[d - 1] == '.') : e;
	if (d < e && (!d || s[d - 1] != '.'))
		return len;
	for (size_t i = 0; i < sizeof(kind) / sizeof(*kind); i++) {
		size_t kl = strlen(kind[i]);
		if (k < kl + 1 || s[k - kl - 1] != '.' || memcmp(s + k - kl, kind[i], kl) != 0)
			continue;
		if (d == e && strcmp(kind[i], "cold") != 0)
			return len; /* (only .cold goes without a number) */
		size_t start = k - kl - 1;
		if (bracket) {
			if (start < 8 || memcmp(s + start - 8, " [clone ", 8) != 0)
				return len;
			start -= 8;
		}
		return start ? start : len;
	}
	return len;
}

/* s without the compiler's numbering: the clone suffixes (all of them:
 * ".constprop.0.isra.0"), "{lambda(...)#N}" as "{lambda(...)}"; a
 * callgrind recursion level or caller context ('2, 'caller) kept. */
static char *drop_numbering(const char *s, size_t len, size_t *outlen)
{
	const char *q = len > 1 ? memchr(s + 1, '\'', len - 1) : NULL;
	size_t head = q ? (size_t)(q - s) : len, h = head, c;
	while ((c = clone_cut(s, h)) < h)
		h = c;
	char *o = xmalloc(len + 1);
	size_t n = 0, changed = h < head;
	for (size_t i = 0; i < h; i++) {
		o[n++] = s[i];
		/* ")#N}" of a lambda: the number left out */
		if (s[i] == ')' && i + 2 < h && s[i + 1] == '#' && s[i + 2] >= '0' && s[i + 2] <= '9') {
			size_t j = i + 2;
			while (j < h && s[j] >= '0' && s[j] <= '9')
				j++;
			const char *open = NULL;
			for (size_t b = i; b-- > 0 && !open;)
				if (s[b] == '{')
					open = s + b;
			if (j < h && s[j] == '}' && open && strncmp(open, "{lambda(", 8) == 0) {
				i = j - 1;
				changed = 1;
			}
		}
	}
	if (!changed) {
		free(o);
		return NULL;
	}
	memcpy(o + n, s + head, len - head);
	n += len - head;
	o[n] = 0;
	*outlen = n;
	return o;
}

static char *apply_rule(const struct modname *m, const char *s, size_t len, size_t *outlen)
{
	if (m->kind == MOD_NUMBERING)
		return drop_numbering(s, len, outlen);
	for (int i = 0; i < m->nprefix; i++) {
		size_t fl = strlen(m->from[i]), tl = strlen(m->to[i]);
		/* (a leading part ends in a '/'; else a whole path) */
		if (len < fl || memcmp(s, m->from[i], fl) != 0 ||
		    (len > fl && fl && m->from[i][fl - 1] != '/'))
			continue;
		char *o = xmalloc(tl + len - fl + 1);
		memcpy(o, m->to[i], tl);
		memcpy(o + tl, s + fl, len - fl);
		o[tl + len - fl] = 0;
		*outlen = tl + len - fl;
		return o;
	}
	return NULL;
}

static const char *base_of(const char *s)
{
	const char *sl = strrchr(s, '/');
	return sl ? sl + 1 : s;
}

static int cmp_base(const void *x, const void *y)
{
	return strcmp(base_of(*(const char *const *)x), base_of(*(const char *const *)y));
}

/* The length of the trailing whole components a and b have in common
 * (0: not even the base name). */
static size_t common_tail(const char *a, size_t la, const char *b, size_t lb)
{
	size_t i = 0;
	while (i < la && i < lb && a[la - 1 - i] == b[lb - 1 - i])
		i++;
	if ((i == la || a[la - i - 1] == '/') && (i == lb || b[lb - i - 1] == '/'))
		return i;
	while (i && a[la - i] != '/')
		i--;
	return i ? i - 1 : 0;
}

/* How many of the paths v[0, n) begin with pre and are not among
 * sorted[0, ns) (ordered by strcmp). */
static size_t paths_under(const char *const *v, size_t n, const char *pre, const char **sorted,
			  size_t ns)
{
	size_t pl = strlen(pre), c = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(v[i], pre, pl) == 0 &&
		    !(ns && bsearch(&v[i], sorted, ns, sizeof(*sorted), cmp_str)))
			c++;
	return c;
}

struct vote {
	char *from, *to;
	size_t n;
};

static int cmp_vote(const void *x, const void *y)
{
	const struct vote *a = x, *b = y;
	size_t la = strlen(a->from), lb = strlen(b->from);
	if (la != lb)
		return la > lb ? -1 : 1;
	int c = strcmp(a->from, b->from);
	return c ? c : a->n > b->n ? -1 : a->n < b->n;
}

int modname_match_paths(const char *const *a, size_t na, const char *const *b, size_t nb,
			char ***from, char ***to)
{
	const char **sa = xmalloc((na + 1) * sizeof(*sa));
	memcpy(sa, a, na * sizeof(*sa));
	qsort(sa, na, sizeof(*sa), cmp_base);
	struct vote *v = NULL;
	size_t nv = 0, capv = 0;
	for (size_t j = 0; j < nb; j++) {
		const char *bb = base_of(b[j]);
		/* the paths of a with b[j]'s base name */
		size_t lo = 0, hi = na;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (strcmp(base_of(sa[mid]), bb) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t lb = strlen(b[j]), best = 0, nbest = 0;
		const char *pa = NULL;
		for (size_t i = lo; i < na && strcmp(base_of(sa[i]), bb) == 0; i++) {
			size_t la = strlen(sa[i]), t = common_tail(sa[i], la, b[j], lb);
			if (t == la && t == lb) { /* a holds it: nothing to match */
				nbest = 0;
				break;
			}
			if (t > best) {
				best = t;
				nbest = 1;
				pa = sa[i];
			} else if (t == best && t) {
				nbest++;
			}
		}
		size_t fl = lb - best, tl = nbest == 1 ? strlen(pa) - best : 0;
		/* (a leading part of nothing would be every path's) */
		if (nbest != 1 || !fl || !tl)
			continue;
		size_t k = 0;
		while (k < nv && (strlen(v[k].from) != fl || strncmp(v[k].from, b[j], fl) != 0 ||
				  strlen(v[k].to) != tl || strncmp(v[k].to, pa, tl) != 0))
			k++;
		if (k == nv) {
			VEC_RESERVE(v, capv, nv + 1);
			v[nv++] = (struct vote){ xstrndup(b[j], fl), xstrndup(pa, tl), 0 };
		}
		v[k].n++;
	}
	free(sa);
	/* each leading part of b as the one of a it was most often found as,
	 * when the paths so matched are half of a's paths under its part and
	 * of b's own (those a lacks) under b's, at least: two unrelated
	 * programs share a base name here and there (/usr/lib/ is not taken as
	 * another system's /lib/tls/ for one library) */
	const char **fa = xmalloc((na + 1) * sizeof(*fa));
	memcpy(fa, a, na * sizeof(*fa));
	qsort(fa, na, sizeof(*fa), cmp_str);
	if (nv > 1)
		qsort(v, nv, sizeof(*v), cmp_vote);
	int n = 0;
	*from = xmalloc((nv + 1) * sizeof(**from));
	*to = xmalloc((nv + 1) * sizeof(**to));
	for (size_t k = 0; k < nv; k++) {
		/* (the first of a leading part of b has the most votes) */
		if ((!k || strcmp(v[k].from, v[k - 1].from) != 0) &&
		    2 * v[k].n >= paths_under(b, nb, v[k].from, fa, na) &&
		    2 * v[k].n >= paths_under(a, na, v[k].to, NULL, 0)) {
			(*from)[n] = xstrdup(v[k].from);
			(*to)[n++] = xstrdup(v[k].to);
		}
	}
	for (size_t k = 0; k < nv; k++) {
		free(v[k].from);
		free(v[k].to);
	}
	free(fa);
	free(v);
	return n;
}

/* The one path of objs[0, n) whose base name is that of cmd's first word
 * (the program run), or NULL. */
static const char *program_object(const char *cmd, const char *const *objs, size_t n)
{
	if (!cmd)
		return NULL;
	cmd += strspn(cmd, " \t");
	size_t l = strcspn(cmd, " \t");
	const char *w = cmd;
	for (size_t i = 0; i < l; i++)
		if (cmd[i] == '/')
			w = cmd + i + 1;
	size_t wl = l - (size_t)(w - cmd);
	const char *found = NULL;
	for (size_t i = 0; wl && i < n; i++) {
		const char *b = base_of(objs[i]);
		if (strlen(b) != wl || memcmp(b, w, wl) != 0)
			continue;
		if (found && strcmp(found, objs[i]) != 0)
			return NULL;
		found = objs[i];
	}
	return found;
}

int modname_match_program(const char *acmd, const char *const *aobjs, size_t na,
			  const char *bcmd, const char *const *bobjs, size_t nb,
			  const struct modname *prefixes, char **from, char **to)
{
	const char *pa = program_object(acmd, aobjs, na), *pb = program_object(bcmd, bobjs, nb);
	if (!pa || !pb)
		return 0;
	size_t ml = 0;
	char *m = prefixes ? modname_apply(prefixes, pb, strlen(pb), &ml) : NULL;
	const char *mb = m ? m : pb;
	int same = 0;
	for (size_t i = 0; i < na && !same; i++)
		same = strcmp(aobjs[i], mb) == 0;
	free(m);
	if (same)
		return 0;
	*from = xstrdup(pb);
	*to = xstrdup(pa);
	return 1;
}
