/* linestore.c -- compact per-line self costs (see linestore.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "linestore.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void linestore_init(struct linestore *ls, int nreal)
{
	memset(ls, 0, sizeof(*ls));
	ls->nreal = nreal;
	ls->open_fn = UINT32_MAX;
	ls->last = UINT32_MAX;
}

void linestore_free(struct linestore *ls)
{
	free(ls->buf);
	free(ls->chunks);
	hot_free(ls->fn_first, (size_t)ls->nfn_cap * sizeof(*ls->fn_first));
	hot_free(ls->fn_last, (size_t)ls->nfn_cap * sizeof(*ls->fn_last));
	free(ls->afile);
	free(ls->aline);
	free(ls->aslot);
	free(ls->aff);
	free(ls->aorder);
	free(ls->fslot);
	free(ls->ffoff);
	free(ls->awidth);
	free(ls->acost);
	free(ls->slots);
	free(ls->ff);
	free(ls->ffcost);
	memset(ls, 0, sizeof(*ls));
	ls->open_fn = UINT32_MAX;
}

void linestore_begin(struct linestore *ls, uint32_t fn)
{
	if (ls->open_fn == fn)
		return;
	linestore_flush(ls);
	ls->open_fn = fn;
	/* the function's last chunk, which the flush at the block's end reads
	 * (new_chunk()): fetched while the block's lines are read, not then */
	if (fn < ls->nfn_cap)
		__builtin_prefetch(&ls->fn_last[fn]);
}

static inline uint32_t slot_hash(uint32_t file, uint32_t line)
{
	return (uint32_t)hash_mix((uint64_t)file << 32 | line);
}

static void grow_slots(struct linestore *ls)
{
	uint32_t ns = ls->mask ? (ls->mask + 1) * 2 : 256;
	free(ls->slots);
	ls->slots = xcalloc(ns, sizeof(*ls->slots));
	ls->mask = ns - 1;
	for (uint32_t e = 0; e < ls->an; e++) {
		uint32_t i = slot_hash(ls->afile[e], ls->aline[e]) & ls->mask;
		while (ls->slots[i])
			i = (i + 1) & ls->mask;
		ls->slots[i] = e + 1;
		ls->aslot[e] = i;
	}
}

cost_t *linestore_slot_slow(struct linestore *ls, uint32_t file, uint32_t line)
{
	size_t nr = (size_t)ls->nreal;
	if ((uint64_t)(ls->an + 1) * 2 > (uint64_t)ls->mask)
		grow_slots(ls);
	uint32_t i = slot_hash(file, line) & ls->mask;
	for (; ls->slots[i]; i = (i + 1) & ls->mask) {
		uint32_t e = ls->slots[i] - 1;
		if (ls->aline[e] == line && ls->afile[e] == file) {
			ls->last = e;
			return &ls->acost[e * nr];
		}
	}
	if (ls->an == ls->acap) {
		uint32_t oc = ls->acap;
		ls->acap = ls->acap ? ls->acap * 2 : 64;
		ls->afile = xreallocarray(ls->afile, ls->acap, sizeof(*ls->afile));
		ls->aline = xreallocarray(ls->aline, ls->acap, sizeof(*ls->aline));
		ls->aslot = xreallocarray(ls->aslot, ls->acap, sizeof(*ls->aslot));
		ls->aff = xreallocarray(ls->aff, ls->acap, sizeof(*ls->aff));
		ls->aorder = xreallocarray(ls->aorder, ls->acap, sizeof(*ls->aorder));
		ls->awidth = xreallocarray(ls->awidth, ls->acap, sizeof(*ls->awidth));
		ls->acost = xreallocarray(ls->acost, (size_t)ls->acap * nr, sizeof(cost_t));
		/* entries are zero while unused: flush clears what it read */
		memset(&ls->acost[(size_t)oc * nr], 0, (size_t)(ls->acap - oc) * nr * sizeof(cost_t));
	}
	/* the file's slot, which the flush at the block's end reads: fetched
	 * while the block's lines are read, not then */
	if (file < ls->nfslot)
		__builtin_prefetch(&ls->fslot[file]);
	uint32_t e = ls->an++;
	ls->afile[e] = file;
	ls->aline[e] = line;
	ls->aslot[e] = i;
	ls->awidth[e] = 0;
	ls->slots[i] = e + 1;
	ls->last = e;
	return &ls->acost[e * nr];
}

void linestore_forget(struct linestore *ls, struct ls_mark m)
{
	uint32_t keep = ls->open_fn == m.fn ? m.an : 0;
	size_t nr = (size_t)ls->nreal;
	/* (the last made first: no entry made after it probed past its slot) */
	while (ls->an > keep) {
		uint32_t e = --ls->an;
		ls->slots[ls->aslot[e]] = 0;
		memset(&ls->acost[e * nr], 0, nr * sizeof(cost_t)); /* zero while unused */
	}
	ls->last = ls->an; /* none: linestore_slot() looks them up */
}

/* Room in buf for n more records, in the worst case: 3 varints + nr values
 * of 10 bytes each. */
static void reserve_records(struct linestore *ls, uint32_t n)
{
	size_t need = ls->len + (size_t)n * (30 + (size_t)ls->nreal * 10);
	if (need > ls->cap) {
		size_t nc = ls->cap ? ls->cap : 1 << 16;
		while (nc < need)
			nc *= 2;
		ls->buf = xrealloc(ls->buf, nc);
		ls->cap = nc;
	}
}

/* A new chunk for fn, at the end of fn's chain. */
static uint32_t new_chunk(struct linestore *ls, uint32_t fn)
{
	if (ls->nchunks == ls->capchunks) {
		ls->capchunks = ls->capchunks ? ls->capchunks * 2 : 256;
		ls->chunks = xreallocarray(ls->chunks, ls->capchunks, sizeof(*ls->chunks));
	}
	if (fn >= ls->nfn_cap) {
		uint32_t oc = ls->nfn_cap, ncap = oc ? oc : 256;
		while (ncap <= fn)
			ncap *= 2;
		ls->fn_first = hot_realloc(ls->fn_first, (size_t)oc * sizeof(*ls->fn_first),
					   (size_t)ncap * sizeof(*ls->fn_first));
		ls->fn_last = hot_realloc(ls->fn_last, (size_t)oc * sizeof(*ls->fn_last),
					  (size_t)ncap * sizeof(*ls->fn_last));
		for (uint32_t k = oc; k < ncap; k++)
			ls->fn_first[k] = ls->fn_last[k] = UINT32_MAX;
		ls->nfn_cap = ncap;
	}
	uint32_t c = ls->nchunks++;
	ls->chunks[c] = (struct lchunk){ .off = ls->len, .fn = fn, .next = UINT32_MAX };
	if (ls->fn_last[fn] == UINT32_MAX)
		ls->fn_first[fn] = c;
	else
		ls->chunks[ls->fn_last[fn]].next = c;
	ls->fn_last[fn] = c;
	return c;
}

static void reserve_fslot(struct linestore *ls, uint32_t file)
{
	if (file < ls->nfslot)
		return;
	size_t oc = ls->nfslot, nc = oc ? oc : 64;
	while (nc <= file) /* size_t: ends for any file id */
		nc *= 2;
	ls->fslot = xreallocarray(ls->fslot, nc, sizeof(*ls->fslot));
	memset(ls->fslot + oc, 0, (nc - oc) * sizeof(*ls->fslot));
	ls->nfslot = nc;
}

/* ffoff for every entry there is room for (the new ones without a run):
 * made when records are first encoded */
static void need_ffoff(struct linestore *ls)
{
	if (ls->ffoff_n == ls->capff)
		return;
	ls->ffoff = xreallocarray(ls->ffoff, ls->capff, sizeof(*ls->ffoff));
	for (uint32_t k = ls->ffoff_n; k < ls->capff; k++)
		ls->ffoff[k] = UINT64_MAX;
	ls->ffoff_n = ls->capff;
}

/* The open block's entries in aorder, grouped by file (their slots in aff,
 * nfiles of them from ff0) stably, with a counting sort.  The files' ffoff
 * are used for the counts, and left UINT64_MAX: encode_block sets them. */
static void group_by_file(struct linestore *ls, uint32_t ff0, uint32_t nfiles)
{
	uint32_t n = ls->an;
	uint64_t *start = &ls->ffoff[ff0];
	if (nfiles == 1) {
		for (uint32_t e = 0; e < n; e++)
			ls->aorder[e] = e;
	} else {
		memset(start, 0, nfiles * sizeof(*start));
		for (uint32_t e = 0; e < n; e++)
			start[ls->aff[e]]++;
		uint64_t at = 0;
		for (uint32_t f = 0; f < nfiles; f++) {
			uint64_t cnt = start[f];
			start[f] = at;
			at += cnt;
		}
		for (uint32_t e = 0; e < n; e++)
			ls->aorder[start[ls->aff[e]]++] = e;
	}
	for (uint32_t f = 0; f < nfiles; f++)
		start[f] = UINT64_MAX;
}

/* Encodes the open block's entries (grouped: aorder, file slots from ff0
 * in aff) at the end of buf; each file's run start goes to ffoff.  With
 * `sum`, each entry is also added to its file's subtotal.  Leaves the
 * accumulator empty. */
static void encode_block(struct linestore *ls, uint32_t ff0, int sum)
{
	size_t nr = (size_t)ls->nreal;
	uint32_t n = ls->an;
	reserve_records(ls, n);
	uint8_t *p = ls->buf + ls->len;
	uint32_t pfile = UINT32_MAX, pline = 0;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t e = ls->aorder[k];
		cost_t *v = &ls->acost[e * nr];
		size_t w = ls->awidth[e];
		uint32_t ffj = ff0 + ls->aff[e];
		uint64_t mask = 0;
		if (sum) { /* the block's subtotal for this record's file */
			cost_t *sub = &ls->ffcost[(size_t)ffj * nr];
			for (size_t i = 0; i < w; i++) {
				sub[i] = cost_add(sub[i], v[i]);
				mask |= (uint64_t)(v[i] != 0) << i;
			}
		} else {
			for (size_t i = 0; i < w; i++)
				mask |= (uint64_t)(v[i] != 0) << i;
		}
		if (ls->afile[e] != pfile) { /* a run starts */
			ls->ffoff[ffj] = (uint64_t)(p - ls->buf);
			p = varint_put(p, (uint64_t)ls->afile[e] + 1);
			pfile = ls->afile[e];
			pline = 0;
		} else {
			*p++ = 0;
		}
		p = varint_put(p, zigzag((int64_t)ls->aline[e] - (int64_t)pline));
		p = varint_put(p, mask);
		for (uint64_t mk = mask; mk; mk &= mk - 1) {
			int i = __builtin_ctzll(mk);
			p = varint_put(p, zigzag(v[i]));
			v[i] = 0; /* unused entries stay zero for the next block */
		}
		pline = ls->aline[e];
		ls->slots[ls->aslot[e]] = 0;
	}
	ls->len = (size_t)(p - ls->buf);
	ls->nrecords += n;
	ls->an = 0;
}

/* Only the open block's file subtotals (a deferred block): the entries are
 * added to them and cleared. */
static void sum_block(struct linestore *ls, uint32_t ff0)
{
	size_t nr = (size_t)ls->nreal;
	for (uint32_t e = 0; e < ls->an; e++) {
		cost_t *v = &ls->acost[e * nr];
		cost_t *sub = &ls->ffcost[(size_t)(ff0 + ls->aff[e]) * nr];
		for (size_t i = 0; i < ls->awidth[e]; i++) {
			sub[i] = cost_add(sub[i], v[i]);
			v[i] = 0;
		}
		ls->slots[ls->aslot[e]] = 0;
	}
	ls->an = 0;
}

void linestore_flush(struct linestore *ls)
{
	uint32_t fn = ls->open_fn;
	ls->open_fn = UINT32_MAX;
	ls->last = UINT32_MAX;
	if (fn == UINT32_MAX || ls->an == 0) {
		if (ls->an) /* not reached: the loader opens a block first */
			memset(ls->acost, 0, (size_t)ls->an * (size_t)ls->nreal * sizeof(cost_t));
		ls->an = 0;
		return;
	}
	size_t nr = (size_t)ls->nreal;
	uint32_t n = ls->an;
	/* the chunk new_chunk() links the new one to, fetched while the
	 * files are counted */
	if (fn < ls->nfn_cap && ls->fn_last[fn] < ls->nchunks)
		__builtin_prefetch(&ls->chunks[ls->fn_last[fn]], 1);

	/* the block's files: a slot each (in the order they came), the
	 * entries counted per slot */
	uint32_t ff0 = ls->nff;
	for (uint32_t e = 0; e < n; e++) {
		uint32_t file = ls->afile[e];
		reserve_fslot(ls, file);
		if (!ls->fslot[file]) {
			if (ls->nff == ls->capff) {
				ls->capff = ls->capff ? ls->capff * 2 : 256;
				ls->ff = xreallocarray(ls->ff, ls->capff, sizeof(*ls->ff));
				ls->ffcost = xreallocarray(ls->ffcost, (size_t)ls->capff * nr,
							   sizeof(cost_t));
			}
			ls->ff[ls->nff] = (struct fnfile){ fn, file };
			memset(&ls->ffcost[(size_t)ls->nff * nr], 0, nr * sizeof(cost_t));
			ls->nff++;
			ls->fslot[file] = ls->nff - ff0;
		}
		ls->aff[e] = ls->fslot[file] - 1;
	}
	uint32_t nfiles = ls->nff - ff0;
	uint32_t c = new_chunk(ls, fn);
	ls->chunks[c].ff0 = ff0;
	ls->chunks[c].nff = nfiles & 0x7fffffff;
	if (ls->lazy) {
		sum_block(ls, ff0);
		ls->chunks[c].lazy = 1;
		ls->nlazy++;
	} else {
		need_ffoff(ls);
		group_by_file(ls, ff0, nfiles);
		ls->chunks[c].nrec = n;
		encode_block(ls, ff0, 1);
	}
	for (uint32_t f = ff0; f < ls->nff; f++)
		ls->fslot[ls->ff[f].file] = 0;
}

int linestore_refill(struct linestore *ls, uint32_t c, int ok)
{
	struct lchunk *ch = &ls->chunks[c];
	uint32_t n = ls->an;
	ls->open_fn = UINT32_MAX;
	ls->last = UINT32_MAX;
	for (uint32_t f = 0; f < ch->nff; f++) {
		reserve_fslot(ls, ls->ff[ch->ff0 + f].file);
		ls->fslot[ls->ff[ch->ff0 + f].file] = f + 1;
	}
	for (uint32_t e = 0; e < n && ok; e++) {
		uint32_t file = ls->afile[e];
		if (file >= ls->nfslot || !ls->fslot[file])
			ok = 0;
		else
			ls->aff[e] = ls->fslot[file] - 1;
	}
	for (uint32_t f = 0; f < ch->nff; f++)
		ls->fslot[ls->ff[ch->ff0 + f].file] = 0;
	if (!ok) { /* not (all) this chunk's lines: dropped, the chunk left empty */
		for (uint32_t e = 0; e < n; e++) {
			memset(&ls->acost[(size_t)e * (size_t)ls->nreal], 0,
			       (size_t)ls->nreal * sizeof(cost_t));
			ls->slots[ls->aslot[e]] = 0;
		}
		ls->an = 0;
		ch->lazy = 0;
		ls->nlazy--;
		return -1;
	}
	need_ffoff(ls);
	group_by_file(ls, ch->ff0, ch->nff);
	ch->off = ls->len;
	ch->nrec = n;
	encode_block(ls, ch->ff0, 0);
	ch->lazy = 0;
	ls->nlazy--;
	return 0;
}

uint8_t *cost_encode(uint8_t *dst, const cost_t *v, int nr)
{
	uint64_t mask = 0;
	for (int i = 0; i < nr; i++)
		mask |= (uint64_t)(v[i] != 0) << i;
	dst = varint_put(dst, mask);
	/* the values that are not zero, found by their bits (not a branch on
	 * each value); most take one or two bytes, written without a branch
	 * on which */
	for (uint64_t m = mask; m; m &= m - 1) {
		uint64_t z = zigzag(v[__builtin_ctzll(m)]);
		if (z < (1u << 14)) {
			int two = z >= 0x80;
			dst[0] = (uint8_t)(z | (uint64_t)two << 7);
			dst[1] = (uint8_t)(z >> 7);
			dst += 1 + two;
		} else {
			dst = varint_put(dst, z);
		}
	}
	return dst;
}

const uint8_t *cost_decode(const uint8_t *p, cost_t *v, int nr)
{
	uint64_t mask, u;
	p = varint_get(p, &mask);
	for (int i = 0; i < nr; i++) {
		if (mask >> i & 1) {
			p = varint_get(p, &u);
			v[i] = unzigzag(u);
		} else {
			v[i] = 0;
		}
	}
	return p;
}

static void iter_enter(struct line_iter *it, uint32_t c)
{
	it->chunk = c;
	if (c == UINT32_MAX) {
		it->left = 0;
		return;
	}
	const struct lchunk *ch = &it->ls->chunks[c];
	it->left = ch->nrec;
	it->pos = it->ls->buf + ch->off;
	it->fn = ch->fn;
	it->file = 0;
	it->line = 0;
}

void line_iter_all(struct line_iter *it, const struct linestore *ls)
{
	memset(it, 0, sizeof(*it));
	it->ls = ls;
	it->next_all = 1;
	iter_enter(it, ls->nchunks ? 0 : UINT32_MAX);
}

void line_iter_fn(struct line_iter *it, const struct linestore *ls, uint32_t fn)
{
	memset(it, 0, sizeof(*it));
	it->ls = ls;
	it->one_fn = 1;
	iter_enter(it, fn < ls->nfn_cap ? ls->fn_first[fn] : UINT32_MAX);
}

void line_iter_ff(struct line_iter *it, const struct linestore *ls, uint32_t k)
{
	memset(it, 0, sizeof(*it));
	it->ls = ls;
	it->one_run = 1;
	it->chunk = UINT32_MAX; /* nothing after the run */
	/* a run has at least one record */
	it->left = k < ls->ffoff_n && ls->ffoff[k] != UINT64_MAX;
	it->pos = ls->buf + (it->left ? ls->ffoff[k] : 0);
	it->fn = ls->ff[k].fn;
}

int line_iter_next(struct line_iter *it)
{
	while (it->left == 0) {
		if (it->chunk == UINT32_MAX)
			return 0;
		uint32_t next;
		if (it->one_fn)
			next = it->ls->chunks[it->chunk].next;
		else
			next = it->next_all < it->ls->nchunks ? it->next_all++ : UINT32_MAX;
		iter_enter(it, next);
	}
	const uint8_t *p = it->pos;
	uint64_t u;
	p = varint_get(p, &u);
	if (u) { /* a run starts: its file, its first line absolute */
		it->file = (uint32_t)(u - 1);
		it->line = 0;
	}
	p = varint_get(p, &u);
	it->line = (uint32_t)((int64_t)it->line + unzigzag(u));
	it->pos = cost_decode(p, it->cost, it->ls->nreal);
	if (it->one_run) /* the run goes on while records say "same file" */
		it->left = it->pos < it->ls->buf + it->ls->len && *it->pos == 0;
	else
		it->left--;
	return 1;
}
