/* asmannot.c -- a function's machine code with the profile's costs.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "asmannot.h"
#include "profile/format.h"
#include "profile/query.h"
#include "profile/rank.h"
#include "profile/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void anote(struct asm_annot *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void anote(struct asm_annot *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char buf[8192];
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	char *s = xstrdup(buf);
	VEC_RESERVE(a->notes, a->capnotes, a->nnotes + 1);
	a->notes[a->nnotes++] = s;
}

struct span {
	uint64_t start, end; /* end: the symbol's, or past the last recorded address */
	int sized;
	const char *name;
};

static int cmp_span(const void *x, const void *y)
{
	const struct span *a = x, *b = y;
	return a->start < b->start ? -1 : a->start > b->start;
}

static int insn_below(const void *insn, const void *addr)
{
	return ((const struct asm_insn *)insn)->in.addr < *(const uint64_t *)addr;
}

/* the instruction starting at addr, or -1 */
static int insn_at(const struct asm_annot *a, uint64_t addr)
{
	size_t i = first_not_below(a->ins, (size_t)a->nins, sizeof(*a->ins), insn_below, &addr);
	return i < (size_t)a->nins && a->ins[i].in.addr == addr ? (int)i : -1;
}

/* Recorded addresses without a symbol further apart than this start a new
 * run of code (what lies between was not executed and may not be code). */
#define RUN_GAP 256

/* Are x and y in one section of the object (both in none, too)? */
static int same_section(const struct asm_annot *a, uint64_t x, uint64_t y)
{
	const char *sx = objcode_section(a->oc, x), *sy = objcode_section(a->oc, y);
	return sx == sy || (sx && sy && strcmp(sx, sy) == 0);
}

/* Symbols covering the recorded addresses.  Addresses no symbol covers (a
 * stripped object) are shown in runs, from the first recorded address of a
 * run to its last: each is the start of an instruction, but where the
 * function begins and ends is unknown. */
static void find_spans(struct asm_annot *a, struct span **out, int *nout)
{
	const struct elfsyms *sy = objcode_syms(a->oc);
	struct span *sp = NULL;
	int n = 0, cap = 0, run = -1, noted = 0;
	for (uint32_t i = 0; i < a->fi.nins; i++) {
		uint64_t addr = a->fi.ins[i].addr, start, size;
		const char *name = sy ? elfsyms_span(sy, addr, &start, &size) : NULL;
		/* a symbol without a size stops at its section's end: _init's
		 * (.init) does not cover the PLT after it, whose stubs our
		 * recorder counts in the function calling through them */
		if (name && !size && !same_section(a, start, addr))
			name = NULL;
		if (!name) {
			/* the PLT has no symbols: its stubs are shown by its name */
			const char *sec = objcode_section(a->oc, addr);
			int plt = sec && strncmp(sec, ".plt", 4) == 0;
			const char *label = plt ? sec : fn_name(a->p, a->fn);
			if (!plt && !noted++)
				anote(a, "no symbol of %s covers address 0x%llx%s: only the code "
					 "around the recorded addresses is shown",
				      obj_name(a->p, a->p->fns[a->fn].obj), (unsigned long long)addr,
				      sy && elfsyms_full(sy) ? "" : " (the object is stripped)");
			if (run >= 0 && sp[run].name == label && addr - (sp[run].end - 1) <= RUN_GAP) {
				sp[run].end = addr + 1;
				continue;
			}
			VEC_RESERVE(sp, cap, n + 1);
			sp[n] = (struct span){ addr, addr + 1, 0, label };
			run = n++;
			continue;
		}
		int j;
		for (j = 0; j < n && sp[j].start != start; j++)
			;
		if (j == n) {
			VEC_RESERVE(sp, cap, n + 1);
			sp[n++] = (struct span){ start, start + size, size != 0, name };
		}
		/* a symbol without a size: up to the last address recorded in it */
		if (!size && sp[j].end < addr + 1)
			sp[j].end = addr + 1;
	}
	if (n > 1)
		qsort(sp, (size_t)n, sizeof(*sp), cmp_span);
	*out = sp;
	*nout = n;
}

static void disassemble(struct asm_annot *a, const struct span *sp, int nsp)
{
	int cap = 0;
	for (int s = 0; s < nsp; s++) {
		struct insn *v;
		uint64_t end = sp[s].end, last = UINT64_MAX;
		if (!sp[s].sized) { /* to the last recorded address and its instruction */
			last = end - 1;
			end = last + 32;
		}
		int n = objcode_disasm(a->oc, sp[s].start, end, &v);
		for (int i = 0; i < n; i++) {
			if (v[i].addr > last)
				break;
			VEC_RESERVE(a->ins, cap, a->nins + 1);
			struct asm_insn *x = &a->ins[a->nins++];
			memset(x, 0, sizeof(*x));
			x->in = v[i];
			x->label = i == 0;
			x->sym = sp[s].name;
		}
		free(v);
	}
}

/* Does every recorded address start an instruction, and do the profile's
 * lines agree with the object's line table?  Notes the first disagreement. */
static int verify(struct asm_annot *a)
{
	const char *ob = obj_name(a->p, a->p->fns[a->fn].obj);
	for (uint32_t i = 0; i < a->fi.nins; i++) {
		const struct icost *c = &a->fi.ins[i];
		int k = insn_at(a, c->addr);
		if (k < 0) {
			anote(a, "%s does not match the profile: 0x%llx is not the start of an "
				 "instruction there (rebuilt since the profile was made?)",
			      ob, (unsigned long long)c->addr);
			return -1;
		}
		a->ins[k].ic = c;
		const char *f;
		uint32_t l;
		/* lines only: Valgrind 3.19 names the file of some rows of gcc
		 * 12's DWARF 5 tables differently from objdump (the CU's file for
		 * an inline header's row), never the line */
		if (c->line && objcode_line(a->oc, c->addr, &f, &l) && l && l != c->line) {
			anote(a, "%s does not match the profile: at 0x%llx the profile has %s:%u, "
				 "the object's line table %s:%u (rebuilt since the profile was made?)",
			      ob, (unsigned long long)c->addr, c->file, c->line, f, l);
			return -1;
		}
	}
	for (uint32_t i = 0; i < a->fi.ncalls; i++)
		if (insn_at(a, a->fi.calls[i].addr) < 0) {
			anote(a, "%s does not match the profile: the call at 0x%llx is not at an "
				 "instruction", ob, (unsigned long long)a->fi.calls[i].addr);
			return -1;
		}
	for (uint32_t i = 0; i < a->fi.njumps; i++)
		if (insn_at(a, a->fi.jumps[i].addr) < 0) {
			anote(a, "%s does not match the profile: the jump at 0x%llx is not at an "
				 "instruction", ob, (unsigned long long)a->fi.jumps[i].addr);
			return -1;
		}
	return 0;
}

/* A name for x's direct target: its symbol (only within the symbol's size:
 * the PLT has none), else for a PLT stub "callee@plt" with the callee the
 * profile recorded there (not the dynamic linker's resolver). */
static char *target_name(const struct asm_annot *a, const struct asm_insn *x,
			 const struct elfsyms *sy)
{
	uint64_t t = x->in.target, start, size;
	const char *name = sy ? elfsyms_span(sy, t, &start, &size) : NULL;
	if (name && (size || t == start)) {
		if (objcode_section(a->oc, t) && same_section(a, t, start))
			return t != start ? xasprintf("%s+0x%llx", name, (unsigned long long)(t - start))
					  : xstrdup(name);
	}
	const char *plt = objcode_plt_name(a->oc, t);
	if (plt)
		return xasprintf("%s@plt", plt);
	const char *sec = objcode_section(a->oc, t);
	if (!x->ncall || !sec || strncmp(sec, ".plt", 4) != 0)
		return NULL;
	const struct icall *best = NULL;
	for (uint32_t k = x->call0; k < x->call0 + x->ncall; k++) {
		const struct icall *c = &a->fi.calls[k];
		if (strncmp(c->callee, "_dl_runtime_resolve", 19) == 0)
			continue;
		if (!best || c->count > best->count)
			best = c;
	}
	return best ? xasprintf("%s@plt", best->callee) : NULL;
}

/* Names of targets, source positions, calls and jumps per instruction. */
static void decorate(struct asm_annot *a)
{
	const struct elfsyms *sy = objcode_syms(a->oc);
	uint32_t c = 0, j = 0;
	const struct inlsite **inl = NULL;
	int ninl = a->nins ? objcode_inlines(a->oc, a->ins[0].in.addr,
					     a->ins[a->nins - 1].in.addr + a->ins[a->nins - 1].in.size,
					     &inl)
			   : 0;
	for (int i = 0; i < a->nins; i++) {
		struct asm_insn *x = &a->ins[i];
		if (!objcode_line(a->oc, x->in.addr, &x->file, &x->line))
			x->file = NULL;
		while (c < a->fi.ncalls && a->fi.calls[c].addr < x->in.addr)
			c++;
		x->call0 = c;
		while (c < a->fi.ncalls && a->fi.calls[c].addr == x->in.addr)
			c++;
		x->ncall = c - x->call0;
		for (int k = 0; k < ninl && x->nchain < 8; k++) /* by depth: outermost first */
			if (inl[k]->lo <= x->in.addr && x->in.addr < inl[k]->hi &&
			    inl[k]->top && strcmp(inl[k]->top, x->sym) == 0) {
				int m = x->nchain++;
				while (m > 0 && x->chain[m - 1]->depth > inl[k]->depth) {
					x->chain[m] = x->chain[m - 1];
					m--;
				}
				x->chain[m] = inl[k];
			}
		while (j < a->fi.njumps && a->fi.jumps[j].addr < x->in.addr)
			j++;
		x->jump0 = j;
		while (j < a->fi.njumps && a->fi.jumps[j].addr == x->in.addr)
			j++;
		x->njump = j - x->jump0;
		if (!x->in.has_target)
			continue;
		x->target = target_name(a, x, sy);
	}
	free(inl);
}

static const char *base_name(const char *s)
{
	const char *b = s ? strrchr(s, '/') : NULL;
	return b ? b + 1 : s ? s : "?";
}

/* "mix inlined into fold at inl.h:17, fold inlined into hash_all at
 * srcprog.c:17", innermost first */
static char *chain_text(const struct asm_insn *x)
{
	char buf[1024];
	size_t o = 0;
	buf[0] = 0;
	for (int k = x->nchain - 1; k >= 0 && o < sizeof(buf); k--) {
		const struct inlsite *s = x->chain[k];
		int n = snprintf(buf + o, sizeof(buf) - o, "%s%s inlined into %s at %s:%u",
				 o ? ", " : "", s->name, s->caller ? s->caller : "?",
				 base_name(s->call_file), s->call_line);
		if (n < 0)
			break;
		o += (size_t)n;
	}
	return xstrdup(buf);
}

static int same_chain(const struct asm_insn *a, const struct asm_insn *b)
{
	if (a->nchain != b->nchain)
		return 0;
	for (int k = 0; k < a->nchain; k++)
		if (a->chain[k] != b->chain[k])
			return 0;
	return 1;
}

/* The cost of each inlined function (by name: all its call sites), of
 * event ev: rows at the top. */
static void inline_summary(struct asm_annot *a, int ev)
{
	const char *names[64];
	cost_t sum[64];
	int n = 0;
	cost_t all = 0;
	for (int i = 0; i < a->nins; i++) {
		const struct asm_insn *x = &a->ins[i];
		cost_t c = x->ic ? event_value(a->p, x->ic->cost, ev) : 0;
		all = cost_add(all, c);
		for (int k = 0; k < x->nchain; k++) {
			/* once per name per instruction (recursion inlined into itself) */
			int dup = 0;
			for (int m = 0; m < k; m++)
				dup |= strcmp(x->chain[m]->name, x->chain[k]->name) == 0;
			if (dup)
				continue;
			int j;
			for (j = 0; j < n && strcmp(names[j], x->chain[k]->name) != 0; j++)
				;
			if (j == n) {
				if (n == 64)
					continue;
				names[n] = x->chain[k]->name;
				sum[n++] = 0;
			}
			sum[j] = cost_add(sum[j], c);
		}
	}
	for (int j = 0; j < n; j++) {
		char num[48], pct[32];
		format_count(num, sizeof(num), sum[j]);
		if (all)
			snprintf(pct, sizeof(pct), " (%.1f%% of the function)",
				 100.0 * (double)sum[j] / (double)all);
		else
			pct[0] = 0;
		VEC_RESERVE(a->rows, a->caprows, a->nrows + 1);
		struct arow *r = &a->rows[a->nrows++];
		memset(r, 0, sizeof(*r));
		r->kind = AR_INLSUM;
		r->ins = -1;
		r->own = xasprintf("inlined %s: %s %s%s", names[j], num, a->p->ev[ev].name, pct);
		r->text = r->own;
	}
}

void asm_annotate(struct asm_annot *a, const struct profile *p, uint32_t fn,
		  instr_reload_fn reload, void *arg, const struct srclookup *look)
{
	memset(a, 0, sizeof(*a));
	a->p = p;
	a->fn = fn;
	a->look = look;
	a->fi.nreal = p->nreal;
	if (!p->has_instr) {
		anote(a, "the profile has no instruction addresses (positions: line); record with "
			 "callgrind --dump-instr=yes or with cgtui's tool");
		return;
	}
	uint32_t ob = p->fns[fn].obj;
	if (ob == NO_ID || !*obj_name(p, ob)) {
		anote(a, "the profile names no object (ob=) for %s", fn_name(p, fn));
		return;
	}
	char err[4096];
	/* the object first: without it, the profile need not be read again */
	a->oc = objcode_open(obj_name(p, ob), err, sizeof(err));
	if (!a->oc) {
		anote(a, "cannot read the object: %s", err);
		return;
	}
	if (!objcode_can_disasm(a->oc)) {
		anote(a, "%s: cannot disassemble %s code", obj_name(p, ob), objcode_machine(a->oc));
		return;
	}
	if (fn_instrs_collect(&a->fi, p, fn, reload, arg, err, sizeof(err)) < 0) {
		anote(a, "cannot read the profile again: %s", err);
		return;
	}
	if (!a->fi.nins) {
		anote(a, "the profile has no instruction addresses for %s", fn_name(p, fn));
		return;
	}
	a->callkind = xcalloc((size_t)a->fi.ncalls + 1, sizeof(*a->callkind));
	for (uint32_t i = 0; i < a->fi.ncalls && p->agg; i++) {
		uint32_t to = query_fn_by_name(p, a->fi.calls[i].callee, p->fns[fn].obj);
		a->callkind[i] = to == NO_ID ? CALL_PLAIN : agg_call_kind(p->agg, fn, to);
	}
	int newer = objcode_mtime(a->oc) > p->newest_mtime;
	const struct elfsyms *sy = objcode_syms(a->oc);
	if (sy && !elfsyms_full(sy))
		anote(a, "warning: %s is stripped: names from .dynsym only", obj_name(p, ob));
	if (!objcode_has_lines(a->oc))
		anote(a, "%s has no DWARF line table: no source lines", obj_name(p, ob));
	struct span *sp;
	int nsp;
	find_spans(a, &sp, &nsp);
	disassemble(a, sp, nsp);
	free(sp);
	int bad = verify(a) < 0;
	if (newer)
		anote(a, bad ? "%s is newer than the profile: rebuilt since?"
			     : "warning: %s is newer than the profile (checked: the recorded addresses "
			       "start instructions and their lines agree)",
		      obj_name(p, ob));
	if (bad)
		return;
	decorate(a);
	a->ok = 1;
}

/* the text of line `line` of source `file` (NULL when unreadable) */
static const char *source_text(struct asm_annot *a, const char *file, uint32_t line)
{
	int i;
	for (i = 0; i < a->nsrc && strcmp(a->srcname[i], file) != 0; i++)
		;
	if (i == a->nsrc) {
		if (a->nsrc == a->capsrc) {
			a->capsrc = a->capsrc ? 2 * a->capsrc : 8;
			a->src = xreallocarray(a->src, (size_t)a->capsrc, sizeof(*a->src));
			a->srcname = xreallocarray(a->srcname, (size_t)a->capsrc, sizeof(char *));
			a->srcok = xreallocarray(a->srcok, (size_t)a->capsrc, sizeof(int));
		}
		a->srcname[i] = xstrdup(file);
		const char *const *cdirs;
		int ncdirs = objcode_comp_dirs(a->oc, &cdirs);
		a->srcok[i] = srcfile_find(&a->src[i], file, a->look, cdirs, ncdirs, NULL) == 0;
		a->nsrc++;
	}
	if (!a->srcok[i] || !line || line > a->src[i].nlines)
		return NULL;
	return a->src[i].line[line - 1];
}

static struct arow *arow_add(struct asm_annot *a, int kind, int ins)
{
	VEC_RESERVE(a->rows, a->caprows, a->nrows + 1);
	struct arow *r = &a->rows[a->nrows++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->ins = ins;
	return r;
}

static void sources_clear(struct asm_annot *a)
{
	for (int i = 0; i < a->nsrc; i++) {
		if (a->srcok[i])
			srcfile_free(&a->src[i]);
		free(a->srcname[i]);
	}
	a->nsrc = 0;
}

static void rows_clear(struct asm_annot *a)
{
	for (int i = 0; i < a->nrows; i++)
		free(a->rows[i].own);
	a->nrows = 0;
}

void asm_rows(struct asm_annot *a, int ev, const struct rank_thr *thr, int ctx)
{
	rows_clear(a);
	sources_clear(a); /* the lookup may have changed */
	for (int i = 0; i < a->nnotes; i++)
		arow_add(a, AR_NOTE, -1)->idx = i;
	if (!a->ok)
		return;
	inline_summary(a, ev);
	const struct profile *p = a->p;
	uint8_t *show = xcalloc((size_t)a->nins + 1, 1);
	uint8_t *hot = xcalloc((size_t)a->nins + 1, 1);
	for (int i = 0; i < a->nins; i++) {
		if (!a->ins[i].ic)
			continue;
		cost_t c = event_value(p, a->ins[i].ic->cost, ev);
		if (c == 0 || !thr || !rank_shown(thr, c))
			continue;
		hot[i] = 1;
	}
	for (int i = 0; i < a->nins; i++) {
		if (!thr) {
			show[i] = 1;
			continue;
		}
		/* shown: an instruction above the threshold, or one whose calls
		 * are (a call costing little itself), with the context */
		int calls = 0;
		for (uint32_t k = 0; k < a->ins[i].ncall && !calls; k++) {
			if (!asm_call_costed(a, a->ins[i].call0 + k))
				continue;
			cost_t c = event_value(p, a->fi.calls[a->ins[i].call0 + k].cost, ev);
			calls = c != 0 && rank_shown(thr, c);
		}
		if (!hot[i] && !calls)
			continue;
		int lo = i - (ctx > 0 ? ctx : 0), hi = i + (ctx > 0 ? ctx : 0);
		for (int k = lo < 0 ? 0 : lo; k <= hi && k < a->nins; k++)
			show[k] = 1;
	}
	const char *pfile = NULL;
	uint32_t pline = 0;
	const struct asm_insn *prev = NULL; /* for the inline chain */
	for (int i = 0; i < a->nins; i++) {
		struct asm_insn *x = &a->ins[i];
		if (!show[i]) {
			int e = i;
			while (e < a->nins && !show[e])
				e++;
			struct arow *g = arow_add(a, AR_GAP, i);
			g->own = xasprintf("-- %d instruction%s hidden --", e - i, e - i == 1 ? "" : "s");
			g->text = g->own;
			i = e - 1;
			pfile = NULL;
			continue;
		}
		if (x->label)
			arow_add(a, AR_LABEL, i);
		if (prev ? !same_chain(prev, x) : x->nchain > 0) {
			struct arow *r = arow_add(a, AR_INLINE, i);
			r->own = x->nchain ? chain_text(x) : xasprintf("%s's own code", x->sym);
			r->text = r->own;
		}
		prev = x;
		if (x->file && (x->file != pfile || x->line != pline || x->label)) {
			struct arow *r = arow_add(a, AR_SRC, i);
			r->file = x->file;
			r->line = x->line;
			r->text = source_text(a, x->file, x->line);
			pfile = x->file;
			pline = x->line;
		}
		struct arow *r = arow_add(a, AR_INSN, i);
		r->idx = i;
		r->hot = hot[i];
		for (uint32_t k = 0; k < x->ncall; k++)
			arow_add(a, AR_CALL, i)->idx = (int)(x->call0 + k);
		for (uint32_t k = 0; k < x->njump; k++)
			arow_add(a, AR_JUMP, i)->idx = (int)(x->jump0 + k);
	}
	free(show);
	free(hot);
}

void asm_annot_free(struct asm_annot *a)
{
	rows_clear(a);
	free(a->rows);
	for (int i = 0; i < a->nnotes; i++)
		free(a->notes[i]);
	free(a->notes);
	for (int i = 0; i < a->nins; i++)
		free(a->ins[i].target);
	free(a->ins);
	sources_clear(a);
	free(a->src);
	free(a->srcname);
	free(a->srcok);
	fn_instrs_free(&a->fi);
	free(a->callkind);
	objcode_free(a->oc);
	memset(a, 0, sizeof(*a));
}

char *asm_row_text(const struct asm_annot *a, const struct arow *r)
{
	const struct asm_insn *x = r->ins >= 0 ? &a->ins[r->ins] : NULL;
	switch (r->kind) {
	case AR_NOTE:
		return xstrdup(a->notes[r->idx]);
	case AR_LABEL:
		return xasprintf("<%s>:", x->sym);
	case AR_SRC:
		return xasprintf("%s:%u  %s", base_name(r->file), r->line,
				 r->text ? r->text : "<source not found>");
	case AR_INSN:
		return x->target ? xasprintf("%s  <%s>", x->in.text, x->target) : xstrdup(x->in.text);
	case AR_CALL: {
		const struct icall *c = &a->fi.calls[r->idx];
		return xasprintf("=> %s (%lldx)", c->callee, (long long)c->count);
	}
	case AR_JUMP: {
		const struct ijump *j = &a->fi.jumps[r->idx];
		if (j->cond)
			return xasprintf("-> 0x%llx: jcnd taken %lld of %lld", (unsigned long long)j->target,
					 (long long)j->taken, (long long)j->executed);
		return xasprintf("-> 0x%llx: jump %lldx", (unsigned long long)j->target,
				 (long long)j->executed);
	}
	default:
		return xstrdup(r->text ? r->text : "");
	}
}

void asm_write(FILE *out, const struct asm_annot *a, const int *ev, int nev)
{
	const struct profile *p = a->p;
	int w[MAX_EVENTS], x = 0;
	char num[48];
	for (int k = 0; k < nev; k++) {
		format_count(num, sizeof(num), event_value(p, p->totals, ev[k]));
		w[k] = (int)strlen(num) > (int)strlen(p->ev[ev[k]].name) ? (int)strlen(num)
									  : (int)strlen(p->ev[ev[k]].name);
		x += w[k] + 1;
	}
	fprintf(out, "-- Assembly: %s (%s)\n", fn_name(p, a->fn), obj_name(p, p->fns[a->fn].obj));
	for (int k = 0; k < nev; k++)
		fprintf(out, "%*s ", w[k], p->ev[ev[k]].name);
	fprintf(out, "Address   Instruction\n");
	for (int i = 0; i < a->nrows; i++) {
		const struct arow *r = &a->rows[i];
		char *t = asm_row_text(a, r);
		const cost_t *c = NULL;
		if (r->kind == AR_INSN && a->ins[r->idx].ic)
			c = a->ins[r->idx].ic->cost;
		else if (r->kind == AR_CALL && asm_call_costed(a, (uint32_t)r->idx))
			c = a->fi.calls[r->idx].cost;
		if (r->kind == AR_NOTE) {
			fprintf(out, "%s\n", t);
		} else if (r->kind == AR_INSN || r->kind == AR_CALL) {
			char kt[32];
			const char *nc = r->kind == AR_CALL && !c
				? call_kind_text(kt, sizeof(kt), a->callkind[r->idx],
						 agg_call_cycle_no(p->agg, a->fn, a->fn), w[0]) : NULL;
			for (int k = 0; k < nev; k++) {
				if (c)
					format_count(num, sizeof(num), event_value(p, c, ev[k]));
				fprintf(out, "%*s ", w[k], c ? num : nc && k == 0 ? nc : nc ? "" : ".");
			}
			if (r->kind == AR_INSN)
				fprintf(out, "%8llx: %s\n", (unsigned long long)a->ins[r->idx].in.addr, t);
			else
				fprintf(out, "            %s\n", t);
		} else {
			fprintf(out, "%*s%s%s\n", x, "", r->kind == AR_JUMP ? "            " : "", t);
		}
		free(t);
	}
	fprintf(out, "\n");
}
