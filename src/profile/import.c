/* import.c -- pprof profiles and folded stacks read into the model; see
 * import.h.  Here: reading a file, what kind it is, what both importers
 * share (import_int.h), folded stacks; pprof's own part is import_pprof.c.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "import.h"
#include "modname.h"
#include "import_int.h"
#include "scope.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define SNIFF_BYTES 4096

/* ---- reading a whole file, plain or gzip ------------------------------------- */

/* The decompressed content of path (malloc'ed, NUL after its end) in *out;
 * at most max bytes (0: all); -1 with a message, and *out what could be
 * read (NULL when nothing). */
static int read_all(const char *path, size_t max, char **out, size_t *len, char *err, size_t errsz)
{
	*out = NULL;
	*len = 0;
	gzFile gz = gzopen(path, "rb");
	if (!gz) {
		snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno ? errno : ENOMEM));
		return -1;
	}
	size_t cap = max ? max + 1 : 1 << 16, n = 0;
	char *buf = xmalloc(cap);
	int got = 0;
	for (;;) {
		if (n + 1 >= cap) {
			if (max)
				break;
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		size_t want = cap - 1 - n;
		got = gzread(gz, buf + n, want > (1u << 30) ? 1u << 30 : (unsigned)want);
		if (got < 0) {
			int zerr;
			const char *m = gzerror(gz, &zerr);
			snprintf(err, errsz, "%s: %s", path,
				 zerr == Z_ERRNO ? strerror(errno) : m);
			break;
		}
		if (got == 0) {
			int zerr;
			const char *m = gzerror(gz, &zerr);
			if (zerr != Z_OK && zerr != Z_STREAM_END) {
				snprintf(err, errsz, "%s: gzip data is corrupt or truncated (%s)", path, m);
				got = -1;
			}
			break;
		}
		n += (size_t)got;
	}
	gzclose(gz);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return got < 0 ? -1 : 0;
}

/* ---- what a file is ---------------------------------------------------------- */

static int get_varint(const unsigned char *b, size_t n, size_t *i, uint64_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 64 && *i < n; shift += 7) {
		unsigned char c = b[(*i)++];
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 1;
		}
	}
	return 0;
}

/* Do the bytes read like the start of a Profile message (every field one
 * of its 14, with its wire type)?  whole: b is the whole file, which must
 * then end after a field. */
static int looks_pprof(const unsigned char *b, size_t n, int whole)
{
	size_t i = 0;
	int fields = 0;
	while (i < n) {
		uint64_t tag, v;
		if (!get_varint(b, n, &i, &tag))
			return !whole && fields > 0;
		uint64_t field = tag >> 3, wt = tag & 7;
		/* 1-6 and 11: messages and strings; 13: packed or not */
		int want = (field >= 1 && field <= 6) || field == 11 ? 2 : 0;
		if (field < 1 || field > 14 || (wt != (uint64_t)want && !(field == 13 && wt == 2)))
			return 0;
		if (!get_varint(b, n, &i, &v))
			return !whole && fields > 0;
		if (wt == 2) {
			if (v > n - i)
				return !whole && fields > 0;
			i += v;
		}
		fields++;
	}
	return fields > 0;
}

/* "frames;separated;by;semicolons COUNT": the stack's length in *stack,
 * the count's text from *num; 0 when the line is not one */
static int folded_line(const char *s, size_t len, size_t *stack, size_t *num)
{
	size_t e = len, d;
	while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
		e--;
	d = e;
	while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
		d--;
	if (d == e || d == 0 || (s[d - 1] != ' ' && s[d - 1] != '\t'))
		return 0;
	*num = d;
	while (d > 0 && (s[d - 1] == ' ' || s[d - 1] == '\t'))
		d--;
	*stack = d;
	return d > 0;
}

/* "12", "+3", "-1", "*", "0x1a": a position or cost of a cost line */
static int number_token(const char *t, size_t n)
{
	if (n == 1 && *t == '*')
		return 1;
	if (*t == '+' || *t == '-') {
		t++;
		n--;
	}
	int hex = n > 2 && t[0] == '0' && t[1] == 'x';
	size_t i = hex ? 2 : 0;
	if (i == n)
		return 0;
	for (; i < n; i++)
		if (!(t[i] >= '0' && t[i] <= '9') &&
		    !(hex && ((t[i] >= 'a' && t[i] <= 'f') || (t[i] >= 'A' && t[i] <= 'F'))))
			return 0;
	return 1;
}

static int looks_folded(const char *b, size_t n)
{
	const char *s = b, *end = b + n;
	while (s < end && (*s == '\n' || *s == '\r' || *s == ' ' || *s == '\t'))
		s++;
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl) /* the first line must be whole */
		return 0;
	size_t len = (size_t)(nl - s), st, num;
	if (!len || *s == '#' || memchr(s, 0, len) || !folded_line(s, len, &st, &num))
		return 0;
	/* a Cachegrind/Callgrind header line is "key: value" ("version: 1") */
	size_t w = 0;
	while (w < st && s[w] != ' ' && s[w] != '\t' && s[w] != ';')
		w++;
	if ((w && s[w - 1] == ':') || memchr(s, '=', w))
		return 0;
	/* and a cost line is numbers ("16 3", "+2 * 5", "0x1a 3 4") */
	for (size_t i = 0; i < st;) {
		while (i < st && (s[i] == ' ' || s[i] == '\t'))
			i++;
		size_t t = i;
		while (i < st && s[i] != ' ' && s[i] != '\t')
			i++;
		if (i > t && !number_token(s + t, i - t))
			return 1;
	}
	/* numbers only: a cost line, or a stack of one frame named by its
	 * address ("0x1ab70 389": the root of a program without symbols, as
	 * the folded export writes it).  Folded when a later line read is a
	 * stack of several frames and no line names the events (a Callgrind
	 * or Cachegrind file's cost lines come after its events: line). */
	int frames = 0;
	for (const char *l = nl + 1; l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		if (!e)
			break;
		size_t ln = (size_t)(e - l);
		if (ln >= 7 && strncmp(l, "events:", 7) == 0)
			return 0;
		if (folded_line(l, ln, &st, &num) && memchr(l, ';', st))
			frames = 1;
		l = e + 1;
	}
	return frames;
}

enum profile_format profile_sniff(const char *path)
{
	char *b, err[64];
	size_t n;
	struct stat st;
	/* a pipe is not read twice: it goes to the loader as it is */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return FORMAT_CALLGRIND;
	/* (a file cut short: what could be read) */
	int whole = read_all(path, SNIFF_BYTES, &b, &n, err, sizeof(err)) == 0 && n < SNIFF_BYTES;
	if (!b)
		return FORMAT_CALLGRIND;
	enum profile_format f = FORMAT_CALLGRIND;
	if (looks_pprof((const unsigned char *)b, n, whole))
		f = FORMAT_PPROF;
	else if (looks_folded(b, n))
		f = FORMAT_FOLDED;
	free(b);
	return f;
}

/* ---- what both importers share ---------------------------------------------------- */

static cost_t *acc_get(struct acc *a, uint32_t k0, uint32_t k1, uint32_t k2, uint32_t k3)
{
	if ((uint64_t)(a->n + 1) * 2 > a->mask) {
		uint32_t nm = a->mask ? a->mask * 2 + 1 : 1023;
		free(a->slot);
		a->slot = xcalloc((size_t)nm + 1, sizeof(*a->slot));
		a->mask = nm;
		for (uint32_t e = 0; e < a->n; e++) {
			const uint32_t *k = &a->key[4 * (size_t)e];
			uint32_t i = (uint32_t)hash_bytes(k, 16) & nm;
			while (a->slot[i])
				i = (i + 1) & nm;
			a->slot[i] = e + 1;
		}
	}
	uint32_t k[4] = { k0, k1, k2, k3 };
	uint32_t i = (uint32_t)hash_bytes(k, 16) & a->mask;
	for (; a->slot[i]; i = (i + 1) & a->mask) {
		uint32_t e = a->slot[i] - 1;
		if (memcmp(&a->key[4 * (size_t)e], k, 16) == 0)
			return &a->cost[(size_t)e * (size_t)a->nr];
	}
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 256;
		a->key = xreallocarray(a->key, (size_t)a->cap, 4 * sizeof(*a->key));
		a->cost = xreallocarray(a->cost, (size_t)a->cap, (size_t)a->nr * sizeof(*a->cost));
	}
	memcpy(&a->key[4 * (size_t)a->n], k, 16);
	cost_t *c = &a->cost[(size_t)a->n * (size_t)a->nr];
	memset(c, 0, (size_t)a->nr * sizeof(*c));
	a->slot[i] = ++a->n;
	return c;
}

static void acc_add(struct acc *a, const uint32_t k[4], const cost_t *v)
{
	cost_t *c = acc_get(a, k[0], k[1], k[2], k[3]);
	for (int e = 0; e < a->nr; e++)
		c[e] = cost_add(c[e], v[e]);
}

static void acc_free(struct acc *a)
{
	free(a->key);
	free(a->cost);
	free(a->slot);
}

static int cmp_key(const void *x, const void *y, void *arg)
{
	const uint32_t *k = arg;
	const uint32_t *a = &k[4 * (size_t) * (const uint32_t *)x], *b = &k[4 * (size_t) * (const uint32_t *)y];
	for (int i = 0; i < 4; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* What load.c does when it opens a file: the profile's list of sources,
 * and a part for the file. */
void imp_begin(struct imp *m, const char *creator)
{
	struct profile *p = m->p;
	struct stat st;
	time_t mt = stat(m->path, &st) == 0 ? st.st_mtime : 0;
	if (mt > p->newest_mtime)
		p->newest_mtime = mt;
	p->sources = xreallocarray(p->sources, (size_t)p->nsources + 1, sizeof(*p->sources));
	p->source_mtime = xreallocarray(p->source_mtime, (size_t)p->nsources + 1, sizeof(time_t));
	p->source_mtime[p->nsources] = mt;
	p->sources[p->nsources++] = xstrdup(m->path);
	p->ndiff = m->o->sign < 0 ? 2 : p->ndiff;
	VEC_RESERVE(p->parts, p->capparts, p->nparts + 1);
	struct part_info *pi = &p->parts[p->nparts++];
	memset(pi, 0, sizeof(*pi));
	pi->source = xstrdup(m->path);
	pi->totals = xcalloc(MAX_EVENTS, sizeof(cost_t));
	pi->creator = xstrdup(creator);
	if (!p->creator)
		p->creator = xstrdup(creator);
	linestore_flush(&p->ls);
	pi->ff_start = p->ls.nff;
	pi->skipped = !partset_has(p, m->o->parts, p->nparts);
	m->keep = !m->o->instr && !pi->skipped;
	m->obj_none = strtab_intern(&p->objs, "", 0);
	m->file_none = strtab_intern(&p->files, "???", 3);
	p->has_line = 1;
}

/* The file's events: those of the profile so far when it has some (each
 * must be one of them), else these. */
int imp_events(struct imp *m, char **names, const char **longnames, int n)
{
	struct profile *p = m->p;
	int fresh = p->nreal == 0;
	if (n > MAX_EVENTS) {
		snprintf(m->err, m->errsz, "%s: too many events (at most %d)", m->path, MAX_EVENTS);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int ev = profile_event_index(p, names[i], strlen(names[i]));
		if (ev >= 0 && ev < p->nreal && !fresh) {
			m->evmap[i] = ev;
			continue;
		}
		if (!fresh || ev >= 0) {
			snprintf(m->err, m->errsz,
				 fresh ? "%s: event '%s' listed twice"
				       : "%s: event '%s' is not in the first profile's events (profiles "
					 "with different events cannot be combined)",
				 m->path, names[i]);
			return -1;
		}
		ev = p->nreal;
		p->ev[ev].name = xstrdup(names[i]);
		if (longnames && longnames[i])
			p->ev[ev].longname = xstrdup(longnames[i]);
		p->nreal++;
		p->nevents++;
		m->evmap[i] = ev;
	}
	m->nev = n;
	if (p->ls.nreal != p->nreal)
		linestore_init(&p->ls, p->nreal);
	m->self.nr = m->calls.nr = p->nreal;
	return 0;
}

/* A name of namespace t (a function's or a file's), with --mod-funcname or
 * --mod-filename applied. */
uint32_t imp_intern(struct strtab *t, const struct modname *mod, const char *s, size_t len)
{
	size_t ol;
	char *sub = mod ? modname_apply(mod, s, len, &ol) : NULL;
	if (!sub)
		return strtab_intern(t, s, len);
	uint32_t id = strtab_intern(t, sub, ol);
	free(sub);
	return id;
}

uint32_t imp_fn(struct imp *m, uint32_t obj, uint32_t file, const char *name, size_t len)
{
	uint32_t nm = imp_intern(&m->p->names, m->o->modfn, name, len);
	return profile_fn(m->p, obj, file, nm);
}

/* frames[0] the outermost (see import_int.h) */
void imp_stack(struct imp *m, const struct frame *fr, size_t n, const cost_t *v)
{
	if (!m->keep || !n)
		return;
	cost_t c[MAX_EVENTS];
	memset(c, 0, sizeof(c));
	for (int i = 0; i < m->nev; i++)
		c[m->evmap[i]] = m->o->sign < 0 ? (cost_t)(0 - (uint64_t)v[i]) : v[i];
	const struct frame *leaf = &fr[n - 1];
	uint32_t k[4] = { leaf->fn, leaf->file, leaf->line, 0 };
	acc_add(&m->self, k, c);
	for (size_t i = 0; i + 1 < n; i++) {
		uint32_t kc[4] = { fr[i].fn, fr[i + 1].fn, fr[i].file, fr[i].line };
		acc_add(&m->calls, kc, c);
	}
}

/* The sums into the model: self costs a block per function, then the
 * calls (each call site once, with a count of 0). */
void imp_end(struct imp *m)
{
	struct profile *p = m->p;
	int nr = p->nreal;
	const struct acc *sa = &m->self, *ca = &m->calls;
	uint32_t *ord = xmalloc(((size_t)sa->n + 1) * sizeof(*ord));
	for (uint32_t e = 0; e < sa->n; e++)
		ord[e] = e;
	qsort_r(ord, sa->n, sizeof(*ord), cmp_key, sa->key);
	for (uint32_t j = 0; j < sa->n; j++) {
		size_t e = ord[j];
		uint32_t fn = sa->key[4 * e], file = sa->key[4 * e + 1], line = sa->key[4 * e + 2];
		if (p->ls.open_fn != fn)
			linestore_begin(&p->ls, fn);
		cost_t *dst = linestore_slot(&p->ls, file, line);
		for (int ev = 0; ev < nr; ev++)
			dst[ev] = cost_add(dst[ev], sa->cost[e * (size_t)nr + (size_t)ev]);
		linestore_width(&p->ls, nr);
	}
	linestore_flush(&p->ls);
	free(ord);
	for (size_t e = 0; e < ca->n; e++)
		profile_call(p, ca->key[4 * e], ca->key[4 * e + 2], ca->key[4 * e + 3], ca->key[4 * e + 1],
			     0, ca->cost + e * (size_t)nr);
	if (ca->n)
		p->is_callgrind = 1;
}

void imp_free(struct imp *m)
{
	acc_free(&m->self);
	acc_free(&m->calls);
}

/* ---- folded stacks ------------------------------------------------------------------ */

int import_folded(struct profile *p, const char *path, const char *data, size_t len,
		  const struct load_opts *o, char *err, size_t errsz)
{
	struct imp m = { .p = p, .o = o, .path = path, .err = err, .errsz = errsz };
	imp_begin(&m, "folded stacks");
	char *ev[1] = { (char *)"Samples" };
	const char *lev[1] = { "Samples (folded stacks)" };
	if (imp_events(&m, ev, lev, 1) < 0) {
		imp_free(&m);
		return -1;
	}
	/* a name's function: all have no object, no file */
	uint32_t *name_fn = NULL, nname = 0;
	struct frame *fr = NULL;
	size_t capfr = 0;
	int rc = 0;
	unsigned long long lineno = 0;
	for (const char *s = data, *end = data + len; s < end && rc == 0;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		const char *line = s;
		s += l + (nl ? 1 : 0);
		lineno++;
		size_t b = 0;
		while (b < l && (line[b] == ' ' || line[b] == '\t' || line[b] == '\r'))
			b++;
		if (b == l)
			continue;
		if (memchr(line, 0, l)) {
			snprintf(err, errsz, "%s:%llu: binary data (NUL byte): not folded stacks", path,
				 lineno);
			rc = -1;
			break;
		}
		size_t st, num;
		if (!folded_line(line, l, &st, &num)) {
			size_t e = l;
			while (e > 0 && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r'))
				e--;
			size_t d = e;
			while (d > 0 && line[d - 1] >= '0' && line[d - 1] <= '9')
				d--;
			if (d < e && d > 0 && line[d - 1] == '.')
				snprintf(err, errsz, "%s:%llu: count is not a whole number", path, lineno);
			else
				snprintf(err, errsz, "%s:%llu: not a folded-stacks line "
					 "(frames;separated;by;semicolons COUNT): '%.*s'", path, lineno,
					 (int)(l > 60 ? 60 : l), line);
			rc = -1;
			break;
		}
		uint64_t cnt = 0;
		for (const char *q = line + num; *q >= '0' && *q <= '9'; q++) {
			unsigned d = (unsigned)(*q - '0');
			if (cnt > ((uint64_t)INT64_MAX - d) / 10) {
				snprintf(err, errsz, "%s:%llu: count beyond 64 bits", path, lineno);
				rc = -1;
				break;
			}
			cnt = cnt * 10 + d;
		}
		if (rc)
			break;
		size_t nf = 0;
		for (size_t a = b; a <= st;) {
			const char *semi = memchr(line + a, ';', st - a);
			size_t e = semi ? (size_t)(semi - line) : st;
			const char *name = line + a;
			size_t nl2 = e - a;
			if (!nl2) {
				name = "???";
				nl2 = 3;
			}
			uint32_t id = imp_intern(&p->names, o->modfn, name, nl2);
			if (id >= nname) {
				uint32_t nn = nname ? nname : 256;
				while (nn <= id)
					nn *= 2;
				name_fn = xreallocarray(name_fn, nn, sizeof(*name_fn));
				memset(name_fn + nname, 0xff, (size_t)(nn - nname) * sizeof(*name_fn));
				nname = nn;
			}
			if (name_fn[id] == NO_ID)
				name_fn[id] = profile_fn(p, m.obj_none, m.file_none, id);
			VEC_RESERVE(fr, capfr, nf + 1);
			fr[nf++] = (struct frame){ name_fn[id], m.file_none, 0 };
			a = e + 1;
		}
		cost_t v = (cost_t)cnt;
		imp_stack(&m, fr, nf, &v);
	}
	free(fr);
	free(name_fn);
	if (rc == 0)
		imp_end(&m);
	imp_free(&m);
	return rc;
}

/* ---- every format ---------------------------------------------------------------------- */

int profile_load_any(struct profile *p, const char *path, const struct load_opts *o,
		     char *err, size_t errsz)
{
	enum profile_format f = profile_sniff(path);
	if (f == FORMAT_CALLGRIND)
		return profile_load(p, path, o, err, errsz);
	struct load_opts defopts = { .sign = 1 };
	if (!o)
		o = &defopts;
	char *data;
	size_t len;
	if (read_all(path, 0, &data, &len, err, errsz) < 0) {
		free(data);
		return -1;
	}
	int rc = f == FORMAT_PPROF
			 ? import_pprof(p, path, (const unsigned char *)data, len, o, err, errsz)
			 : import_folded(p, path, data, len, o, err, errsz);
	free(data);
	return rc;
}
