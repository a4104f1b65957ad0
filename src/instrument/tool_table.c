/* tool_table.c -- the tool's tables: interned names, instruction records
 * (keyed by guest address), translation records (keyed by their first
 * address), and a bump allocator for what lives until exit.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "tool.h"

/* ---- permanent allocations --------------------------------------------------- */

#define PERM_CHUNK (256 * 1024)

static HChar *perm_cur;
static SizeT perm_left;

void *cgt_perm_alloc(SizeT n)
{
	n = (n + 7) & ~(SizeT)7;
	if (n > PERM_CHUNK / 4)
		return VG_(malloc)("cgtui.perm.big", n);
	if (n > perm_left) {
		perm_cur = VG_(malloc)("cgtui.perm", PERM_CHUNK);
		perm_left = PERM_CHUNK;
	}
	void *p = perm_cur;
	perm_cur += n;
	perm_left -= n;
	return p;
}

/* ---- names ----------------------------------------------------------------- */

struct cgt_strtab cgt_objs, cgt_files, cgt_fns = { .keyed = True };

static UInt hash_bytes(UInt h, const HChar *s, SizeT n)
{
	for (SizeT i = 0; i < n; i++)
		h = (h ^ (UChar)s[i]) * 16777619u;
	return h;
}

/* The hash of an entry: its string's, and its key's (strtab.key). */
static UInt entry_hash(UInt h, ULong key)
{
	return key ? (h ^ (UInt)(key >> 32) ^ (UInt)key) * 16777619u : h;
}

static void strtab_grow(struct cgt_strtab *t)
{
	UInt nslots = t->mask ? 2 * (t->mask + 1) : 1024;
	UInt *slot = VG_(calloc)("cgtui.strtab.slot", nslots, sizeof(UInt));
	for (UInt id = 0; id < t->n; id++) {
		const HChar *s = t->names[id];
		UInt h = entry_hash(hash_bytes(2166136261u, s, VG_(strlen)(s)), t->key ? t->key[id] : 0) &
			 (nslots - 1);
		while (slot[h])
			h = (h + 1) & (nslots - 1);
		slot[h] = id + 1;
	}
	if (t->slot)
		VG_(free)(t->slot);
	t->slot = slot;
	t->mask = nslots - 1;
}

/* Interns the concatenation a + sep + b (sep and b may be empty) with the
 * key `key` (0 for a table without keys). */
static UInt intern3(struct cgt_strtab *t, const HChar *a, const HChar *sep, const HChar *b,
		    ULong key)
{
	SizeT la = VG_(strlen)(a), ls = VG_(strlen)(sep), lb = VG_(strlen)(b);
	if (2 * (t->n + 1) > t->mask)
		strtab_grow(t);
	UInt h = entry_hash(hash_bytes(hash_bytes(hash_bytes(2166136261u, a, la), sep, ls), b, lb),
			    key);
	for (h &= t->mask;; h = (h + 1) & t->mask) {
		UInt id = t->slot[h];
		if (!id)
			break;
		const HChar *s = t->names[id - 1];
		if ((t->key ? t->key[id - 1] : 0) == key && VG_(strncmp)(s, a, la) == 0 &&
		    VG_(strncmp)(s + la, sep, ls) == 0 && VG_(strcmp)(s + la + ls, b) == 0)
			return id - 1;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->names = VG_(realloc)("cgtui.strtab.names", t->names,
					t->cap * sizeof(*t->names));
		if (t->keyed)
			t->key = VG_(realloc)("cgtui.strtab.key", t->key, t->cap * sizeof(*t->key));
	}
	HChar *copy = cgt_perm_alloc(la + ls + lb + 1);
	VG_(memcpy)(copy, a, la);
	VG_(memcpy)(copy + la, sep, ls);
	VG_(memcpy)(copy + la + ls, b, lb + 1);
	t->names[t->n] = copy;
	if (t->key)
		t->key[t->n] = key;
	t->slot[h] = t->n + 1;
	return t->n++;
}

UInt cgt_intern(struct cgt_strtab *t, const HChar *s)
{
	return intern3(t, s, "", "", 0);
}

UInt cgt_intern_path(struct cgt_strtab *t, const HChar *dir, const HChar *file)
{
	return dir[0] ? intern3(t, dir, "/", file, 0) : intern3(t, file, "", "", 0);
}

/* cgt_fn_file, cgt_fn_obj: per function id, its own file id + 1 (0: none
 * yet) and its own object id */
static UInt *fn_file, *fn_obj;
static UInt fn_file_cap;

UInt cgt_fn_file(UInt fn)
{
	return fn < fn_file_cap && fn_file[fn] ? fn_file[fn] - 1 : 0;
}

UInt cgt_fn_obj(UInt fn)
{
	return fn < fn_file_cap ? fn_obj[fn] : 0;
}

void cgt_fn_set_own(UInt fn, UInt obj, UInt fl)
{
	if (fn >= fn_file_cap) {
		UInt cap = fn_file_cap ? 2 * fn_file_cap : 1024;
		while (cap <= fn)
			cap *= 2;
		fn_file = VG_(realloc)("cgtui.fnfile", fn_file, cap * sizeof(*fn_file));
		fn_obj = VG_(realloc)("cgtui.fnobj", fn_obj, cap * sizeof(*fn_obj));
		VG_(memset)(fn_file + fn_file_cap, 0, (cap - fn_file_cap) * sizeof(*fn_file));
		VG_(memset)(fn_obj + fn_file_cap, 0, (cap - fn_file_cap) * sizeof(*fn_obj));
		fn_file_cap = cap;
	}
	if (!fn_file[fn]) {
		fn_file[fn] = fl + 1;
		fn_obj[fn] = obj;
	}
}

/* ---- instructions ---------------------------------------------------------- */

static struct cgt_insn **insn_bucket;
static UInt insn_nbuckets, insn_n;

static UInt addr_hash(Addr a, UInt nbuckets)
{
	ULong x = (ULong)a * 0x9E3779B97F4A7C15ull;
	return (UInt)(x >> 32) & (nbuckets - 1);
}

static void insn_grow(void)
{
	UInt nb = insn_nbuckets ? 2 * insn_nbuckets : 65536;
	struct cgt_insn **b = VG_(calloc)("cgtui.insn.bucket", nb, sizeof(*b));
	for (UInt i = 0; i < insn_nbuckets; i++) {
		struct cgt_insn *n = insn_bucket[i], *next;
		for (; n; n = next) {
			next = n->next;
			UInt h = addr_hash(n->addr, nb);
			n->next = b[h];
			b[h] = n;
		}
	}
	if (insn_bucket)
		VG_(free)(insn_bucket);
	insn_bucket = b;
	insn_nbuckets = nb;
}

/* Where the symbol that holds a starts (VG_(get_fnname_w_offset) says how
 * far a is into it, as "name+N"); a itself when it says no offset, 0 when
 * a has no symbol. */
static Addr sym_start(DiEpoch ep, Addr a)
{
	const HChar *s;
	if (!VG_(get_fnname_w_offset)(ep, a, &s))
		return 0;
	const HChar *plus = VG_(strrchr)(s, '+');
	if (!plus || !plus[1])
		return a;
	ULong off = 0;
	for (const HChar *q = plus + 1; *q; q++) {
		if (*q < '0' || *q > '9' || off > (ULong)a)
			return a; /* a '+' of the name's own (operator+) */
		off = off * 10 + (ULong)(*q - '0');
	}
	return off <= (ULong)a ? a - (Addr)off : a;
}

struct cgt_insn *cgt_insn_get(Addr a, UInt len)
{
	/* What cachegrind's get_debug_info asks, at the same moment (when the
	 * block is instrumented), so that costs land where cachegrind's do. */
	DiEpoch ep = VG_(current_DiEpoch)();
	const HChar *file, *dir, *fnname;
	UInt line, obj, fl, fn;
	Addr raddr = a;

	if (!VG_(get_filename_linenum)(ep, a, &file, &dir, &line)) {
		file = "???";
		dir = "";
		line = 0;
	}
	fl = cgt_intern_path(&cgt_files, dir, file);
	/* the name returned lives until the next get_fnname call (sym_start
	 * makes one): interned at once.  A function is its name and where
	 * its symbol starts: static functions of one name in two files of a
	 * program are two, as callgrind has them. */
	Addr start = sym_start(ep, a);
	if (!VG_(get_fnname)(ep, a, &fnname))
		fnname = "???";
	fn = intern3(&cgt_fns, fnname, "", "", start);
	const DebugInfo *di = VG_(find_DebugInfo)(ep, a);
	/* a PLT stub is outside the object's text, which is all
	 * VG_(find_DebugInfo) looks at: its object is the one whose PLT holds
	 * it (callgrind gives its cost to the caller, and so does the tool:
	 * in the caller's object then, tool_ctx.c) */
	for (const DebugInfo *d = NULL; !di && (d = VG_(next_DebugInfo)(d));)
		if (a - VG_(DebugInfo_get_plt_avma)(d) < VG_(DebugInfo_get_plt_size)(d))
			di = d;
	if (di) {
		obj = cgt_intern(&cgt_objs, VG_(DebugInfo_get_filename)(di));
		raddr = a - VG_(DebugInfo_get_text_bias)(di);
	} else {
		obj = cgt_intern(&cgt_objs, "???");
	}

	if (2 * insn_n >= insn_nbuckets)
		insn_grow();
	UInt h = addr_hash(a, insn_nbuckets);
	for (struct cgt_insn *n = insn_bucket[h]; n; n = n->next)
		if (n->addr == a && n->raddr == raddr && n->obj == obj && n->file == fl &&
		    n->fn == fn && n->line == line) {
			if (!n->len)
				n->len = len;
			return n;
		}
	SizeT size = sizeof(struct cgt_insn) + cgt_n_events * sizeof(ULong);
	struct cgt_insn *n = cgt_perm_alloc(size);
	VG_(memset)(n, 0, size);
	n->addr = a;
	n->len = len;
	n->raddr = raddr;
	n->obj = obj;
	n->file = fl;
	n->fn = fn;
	n->line = line;
	n->id = insn_n;
	n->ctx = CGT_CTX_NONE;
	cgt_fn_set_own(fn, obj, fl);
	n->next = insn_bucket[h];
	insn_bucket[h] = n;
	insn_n++;
	cgt_threads_new_insn();
	return n;
}

void cgt_insn_flags(struct cgt_insn *n)
{
	if (n->flags & CGT_F_KNOWN)
		return;
	const HChar *name;
	UChar f = CGT_F_KNOWN;
	if (VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), n->addr, &name))
		f |= CGT_F_ENTRY;
	n->sect = (UChar)VG_(DebugInfo_sect_kind)(NULL, n->addr);
	if (n->sect == Vg_SectPLT)
		f |= CGT_F_PLT;
	/* callgrind finds the resolver by its code; its name will do here
	 * (_dl_runtime_resolve_xsave, _xsavec, _fxsave) */
	if (VG_(strncmp)(cgt_fns.names[n->fn], "_dl_runtime_resolve", 19) == 0)
		f |= CGT_F_POPJ;
	n->flags = f;
}

static void zero_insn(struct cgt_insn *n, void *arg)
{
	VG_(memset)(n->cost, 0, cgt_n_events * sizeof(ULong));
	for (struct cgt_ctxcost *c = n->ctxs; c; c = c->next)
		VG_(memset)(c->cost, 0, cgt_n_events * sizeof(ULong));
}

void cgt_costs_zero(void)
{
	cgt_sb_fold_all();
	cgt_insn_foreach(zero_insn, NULL);
	cgt_threads_zero();
	cgt_calls_zero();
	cgt_sim_zero();
	cgt_time_zero();
}

void cgt_insn_foreach(void (*f)(struct cgt_insn *, void *), void *arg)
{
	for (UInt i = 0; i < insn_nbuckets; i++)
		for (struct cgt_insn *n = insn_bucket[i]; n; n = n->next)
			f(n, arg);
}

UInt cgt_insn_count(void)
{
	return insn_n;
}

/* ---- translations ------------------------------------------------------------ */

static struct cgt_sb **sb_bucket;
static UInt sb_nbuckets, sb_n;

static void sb_grow(void)
{
	UInt nb = sb_nbuckets ? 2 * sb_nbuckets : 16384;
	struct cgt_sb **b = VG_(calloc)("cgtui.sb.bucket", nb, sizeof(*b));
	/* keep each chain's order (newest first) */
	for (UInt i = 0; i < sb_nbuckets; i++) {
		struct cgt_sb *n = sb_bucket[i], *next, *rev = NULL;
		for (; n; n = next) {
			next = n->next;
			n->next = rev;
			rev = n;
		}
		for (n = rev; n; n = next) {
			next = n->next;
			UInt h = addr_hash(n->key, nb);
			n->next = b[h];
			b[h] = n;
		}
	}
	if (sb_bucket)
		VG_(free)(sb_bucket);
	sb_bucket = b;
	sb_nbuckets = nb;
}

struct cgt_sb *cgt_sb_new(Addr key, UInt n_insns, UInt max_segs)
{
	SizeT size = sizeof(struct cgt_sb) + max_segs * sizeof(ULong) +
		     n_insns * sizeof(struct cgt_insn *) + max_segs * sizeof(UInt);
	struct cgt_sb *sb = VG_(malloc)("cgtui.sb", size);
	sb->key = key;
	sb->n_insns = n_insns;
	sb->n_segs = 0;
	sb->count = (ULong *)(sb + 1);
	sb->insns = (struct cgt_insn **)(sb->count + max_segs);
	sb->seg_end = (UInt *)(sb->insns + n_insns);
	VG_(memset)(sb->count, 0, max_segs * sizeof(ULong));
	sb->slot = 0;
	sb->ev = NULL;
	sb->n_ev = 0;
	sb->reg = NULL;
	sb->n_reg = 0;
	sb->time_stamp = 0;
	sb->time_slot = 0;
	sb->proxy = NULL;
	sb->n_proxy = 0;

	if (2 * sb_n >= sb_nbuckets)
		sb_grow();
	UInt h = addr_hash(key, sb_nbuckets);
	sb->next = sb_bucket[h];
	sb_bucket[h] = sb;
	sb_n++;
	return sb;
}

struct cgt_insn *cgt_insn_proxy(struct cgt_insn *n)
{
	cgt_insn_flags(n);
	SizeT size = sizeof(struct cgt_insn) + cgt_n_events * sizeof(ULong);
	struct cgt_insn *p = VG_(malloc)("cgtui.insn.proxy", size);
	VG_(memset)(p, 0, size);
	*p = *n;
	p->next = n;
	p->flags |= CGT_F_PROXY;
	p->arcs = NULL;
	p->ctxs = NULL;
	p->dreg = NULL;
	if (cgt_clo_separate_threads) { /* a row of its own in the threads' tables */
		p->id = insn_n++;
		cgt_threads_new_insn();
	}
	return p;
}

/* The counts of sb's copies of records go into the records (whose earlier
 * counts went to their contexts first: cgt_ctx_settle). */
static void fold_proxies(const struct cgt_sb *sb)
{
	for (UInt k = 0; k < sb->n_proxy; k++) {
		struct cgt_insn *p = sb->proxy[k], *n = p->next;
		if (cgt_clo_separate_threads) {
			cgt_threads_move(p, n);
			continue;
		}
		for (UInt e = 0; e < cgt_n_events; e++) {
			n->cost[e] += p->cost[e];
			p->cost[e] = 0;
		}
	}
}

void cgt_sb_fold(struct cgt_sb *sb)
{
	for (UInt k = 0; k < sb->n_proxy; k++)
		cgt_ctx_settle(sb->proxy[k]->next);
	if (cgt_clo_separate_threads) {
		cgt_threads_fold(sb);
		fold_proxies(sb);
		cgt_ctx_attribute(sb);
		return;
	}
	UInt i = 0;
	for (UInt e = 0; e < sb->n_ev; e++)
		sb->ev[e].insn->cost[sb->ev[e].ev] += sb->count[sb->ev[e].seg];
	for (UInt s = 0; s < sb->n_segs; s++) {
		ULong c = sb->count[s];
		sb->count[s] = 0;
		for (; i < sb->seg_end[s]; i++)
			sb->insns[i]->cost[CGT_EV_IR] += c;
	}
	fold_proxies(sb);
	cgt_ctx_attribute(sb);
}

Bool cgt_sb_discard(Addr key)
{
	if (!sb_nbuckets)
		return False;
	struct cgt_sb **pp = &sb_bucket[addr_hash(key, sb_nbuckets)];
	for (; *pp; pp = &(*pp)->next) {
		if ((*pp)->key != key)
			continue;
		struct cgt_sb *sb = *pp;
		*pp = sb->next;
		sb_n--;
		cgt_sb_fold(sb);
		cgt_time_discard(sb);
		/* the records it counted into directly: the next translation
		 * of them does */
		for (UInt i = 0; i < sb->n_insns; i++)
			if (sb->insns[i]->dreg && sb->insns[i]->dreg->sb == sb)
				sb->insns[i]->dreg = NULL;
		for (UInt k = 0; k < sb->n_proxy; k++)
			VG_(free)(sb->proxy[k]);
		if (sb->proxy)
			VG_(free)(sb->proxy);
		if (sb->ev)
			VG_(free)(sb->ev);
		for (UInt r = 0; r < sb->n_reg; r++)
			VG_(free)(sb->reg[r]);
		if (sb->reg)
			VG_(free)(sb->reg);
		VG_(free)(sb);
		return True;
	}
	return False;
}

void cgt_sb_fold_all(void)
{
	for (UInt i = 0; i < sb_nbuckets; i++)
		for (struct cgt_sb *sb = sb_bucket[i]; sb; sb = sb->next)
			cgt_sb_fold(sb);
}
