/* linestore.h -- per-line self costs, kept compact.
 *
 * The loader adds the cost lines of one `fn=` block into a small dense
 * accumulator (a function's lines are few and repeat within the block); at
 * the end of the block they are grouped by file (in the order the files
 * came, each file's lines in the order they came) and appended to one byte
 * buffer as a chunk of varint-encoded records: the file (file + 1 at the
 * first record of a file's run, 0 after), the line (relative to the
 * previous record's within a run, absolute at its start), a mask of the
 * events that are not zero, and those values.  A run can so be read on its
 * own, from where ffoff says it starts: the lines of one file are found
 * without reading the other files' records of the same blocks.  Most lines have a few
 * non-zero events out of 13, so a record takes about 15 bytes instead of the
 * 100+ of a dense vector.  A function seen in several blocks has several
 * chunks; readers add up records of the same (file, line).
 *
 * Deferred blocks: when the loader reads a file mapped in place, it may set
 * `lazy`.  Then a block's cost lines are added per file only (the caller
 * passes line 0), and flush makes the block's chunk and its file subtotals
 * (ff, ffcost) but no records: the chunk is marked `lazy` and its records
 * are made later, when a reader needs them, by the loader reading the
 * block's lines again (profile_need_lines) into the accumulator and calling
 * linestore_refill.  Totals, file:function and function:file never need
 * them, so a profile opens without building its line store.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_LINESTORE_H
#define CGTUI_LINESTORE_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t cost_t;

/* Costs add with two's-complement wrap-around: a profile whose numbers
 * overflow 64 bits shows wrong sums, never undefined behaviour. */
static inline cost_t cost_add(cost_t a, cost_t b)
{
	return (cost_t)((uint64_t)a + (uint64_t)b);
}
/* |v|, defined for every value (-2^63 included) */
static inline uint64_t cost_mag(cost_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}
static inline cost_t cost_mul(cost_t a, cost_t b)
{
	return (cost_t)((uint64_t)a * (uint64_t)b);
}

struct lchunk {
	uint64_t off;   /* of its first record in buf */
	uint32_t fn;
	uint32_t nrec;
	uint32_t next;  /* next chunk of the same function, or UINT32_MAX */
	uint32_t ff0;   /* its ff entries: [ff0, ff0 + nff) */
	uint32_t nff : 31;
	uint32_t lazy : 1; /* records not made yet (see above) */
};

struct linestore {
	int nreal;
	uint8_t *buf;
	size_t len, cap;
	struct lchunk *chunks;
	uint32_t nchunks, capchunks;
	uint32_t *fn_first, *fn_last; /* chunk lists per function */
	uint32_t nfn_cap;
	uint64_t nrecords;

	/* each block's cost per file, summed when the block is flushed: what
	 * the per-function and file:function totals need, without decoding */
	struct fnfile {
		uint32_t fn, file;
	} *ff;
	cost_t *ffcost; /* nff * nreal */
	uint64_t *ffoff; /* where each one's run of records starts in buf,
			  * UINT64_MAX for none; entries from ffoff_n on have
			  * none (deferred blocks need no ffoff until read) */
	uint32_t nff, capff, ffoff_n;

	/* the open block */
	uint32_t open_fn;       /* UINT32_MAX when none */
	uint32_t *afile, *aline, *aslot;
	uint32_t *aff, *aorder; /* flush: each entry's file slot, the order */
	uint32_t *fslot;        /* flush: file -> its slot in the block + 1 */
	size_t nfslot;
	uint8_t *awidth;        /* values that may not be zero: [0, awidth) */
	cost_t *acost;          /* acap * nreal */
	uint32_t an, acap;
	uint32_t *slots;        /* entry + 1 */
	uint32_t mask;
	uint32_t last;          /* entry of the previous cost line */
	int lazy;               /* flush makes deferred chunks (see above) */
	uint32_t nlazy;         /* chunks still deferred */
};

void linestore_init(struct linestore *ls, int nreal);
void linestore_free(struct linestore *ls);

/* Opens a block for `fn` (closing the one open, if another). */
void linestore_begin(struct linestore *ls, uint32_t fn);
/* Where the open block's entries stand, and the entries made since then
 * forgotten (a line left out whole: cost_line_fast() makes a line's slot
 * before it reads the costs, and takes back what it added when the line
 * does not read); a block opened since then loses all of its entries. */
struct ls_mark {
	uint32_t fn, an;
};
static inline struct ls_mark linestore_mark(const struct linestore *ls)
{
	return (struct ls_mark){ ls->open_fn, ls->an };
}
void linestore_forget(struct linestore *ls, struct ls_mark m);
/* The dense cost vector of (file, line) in the open block, to add into. */
cost_t *linestore_slot_slow(struct linestore *ls, uint32_t file, uint32_t line);
static inline cost_t *linestore_slot(struct linestore *ls, uint32_t file, uint32_t line)
{
	uint32_t l = ls->last;
	if (l < ls->an && ls->aline[l] == line && ls->afile[l] == file)
		return &ls->acost[(size_t)l * (size_t)ls->nreal];
	return linestore_slot_slow(ls, file, line);
}
/* The cost vector last returned has values only below n (the caller wrote
 * no others): flushing looks at no more.  Every writer must say so. */
static inline void linestore_width(struct linestore *ls, int n)
{
	/* a store either way, no branch: lines made while loading (a new
	 * slot each) widen it at random */
	uint8_t *w = &ls->awidth[ls->last];
	*w = *w < n ? (uint8_t)n : *w;
}
/* Encodes the open block into the buffer (or, when lazy, only sums it). */
void linestore_flush(struct linestore *ls);
/* The records of deferred chunk c, collected in the accumulator since
 * linestore_begin(ls, chunk's fn), encoded into the buffer as its records;
 * its file subtotals are left as they are.  When !ok, or when a record's
 * file is not one of the chunk's, they are dropped, the chunk is left with
 * no records, and -1 returned. */
int linestore_refill(struct linestore *ls, uint32_t c, int ok);

/* Reading: every record, or those of one function, in storage order. */
struct line_iter {
	const struct linestore *ls;
	uint32_t chunk;     /* current chunk */
	uint32_t left;      /* records left in it */
	int one_fn;         /* follow one function's chain */
	int one_run;        /* read one (block, file) run */
	uint32_t next_all;  /* next chunk index when reading all */
	const uint8_t *pos;
	uint32_t fn, file, line;
	cost_t cost[64];    /* nreal values */
};
void line_iter_all(struct line_iter *it, const struct linestore *ls);

/* The record encoding, for other compact cost vectors: a mask of the
 * non-zero values, then those values.  encode writes at most 10 * (nr + 1)
 * bytes and returns the end; decode returns the end of what it read. */
uint8_t *cost_encode(uint8_t *dst, const cost_t *v, int nr);
const uint8_t *cost_decode(const uint8_t *src, cost_t *v, int nr);
void line_iter_fn(struct line_iter *it, const struct linestore *ls, uint32_t fn);
/* The records of ff entry k: one block's lines of one file. */
void line_iter_ff(struct line_iter *it, const struct linestore *ls, uint32_t k);
int line_iter_next(struct line_iter *it);

#endif
