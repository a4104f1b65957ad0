/* cache.c -- geometry rules, configuration and set-up of the cache
 * hierarchy; the per-access code is inline in cache.h.  Freestanding: see
 * cache.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/cache.h"

/* log2 of x if x is a power of two (1 included), else -1. */
static int exact_log2(uint64_t x)
{
	int n = 0;

	if (x == 0 || (x & (x - 1)) != 0)
		return -1;
	while (x > 1) {
		x >>= 1;
		n++;
	}
	return n;
}

enum sim_err sim_geom_check(const struct sim_geom *g)
{
	uint64_t size = g->size, assoc = g->assoc, line = g->line_size;

	if (line == 0)
		return SIM_ERR_LINE_ZERO;
	if (assoc == 0)
		return SIM_ERR_ASSOC_ZERO;
	/* The set count must be a whole power of two.  (Computed in 64 bits:
	 * 3.19 multiplies line * assoc in int, which can overflow for absurd
	 * inputs; no real geometry comes near that.) */
	if (size % (line * assoc) != 0 || exact_log2(size / line / assoc) < 0)
		return SIM_ERR_SETS_NOT_POW2;
	if (exact_log2(line) < 0)
		return SIM_ERR_LINE_NOT_POW2;
	if (line < SIM_MIN_LINE_SIZE)
		return SIM_ERR_LINE_TOO_SMALL;
	if (size <= line)
		return SIM_ERR_SIZE_LE_LINE;
	/* Cannot fire once the set count passed (assoc > size / line implies
	 * line * assoc > size, so size % (line * assoc) == size != 0), but it
	 * is one of cachegrind's rules, so it stays. */
	if (assoc > size / line)
		return SIM_ERR_ASSOC_TOO_BIG;
	return SIM_OK;
}

const char *sim_strerror(enum sim_err e)
{
	switch (e) {
	case SIM_OK:
		return "no error";
	case SIM_ERR_LINE_ZERO:
		return "Cache line size is zero.";
	case SIM_ERR_ASSOC_ZERO:
		return "Cache associativity is zero.";
	case SIM_ERR_SETS_NOT_POW2:
		return "Cache set count is not a power of two.";
	case SIM_ERR_LINE_NOT_POW2:
		return "Cache line size is not a power of two.";
	case SIM_ERR_LINE_TOO_SMALL:
		return "Cache line size is too small (at least 16 bytes).";
	case SIM_ERR_SIZE_LE_LINE:
		return "Cache size <= line size.";
	case SIM_ERR_ASSOC_TOO_BIG:
		return "Cache associativity > (size / line size).";
	case SIM_ERR_PLRU_ASSOC:
		return "Tree-PLRU needs a power-of-two associativity of at most 64.";
	case SIM_ERR_PF_EXCL:
		return "An exclusive cache cannot have a prefetcher.";
	case SIM_ERR_CONFIG:
		return "Bad cache hierarchy (level count, entry level, next level or policy).";
	case SIM_ERR_MEM:
		return "Cache tag memory too small or misaligned.";
	}
	return "unknown cache error";
}

/* The largest power of two <= x (0 for 0). */
static uint32_t floor_pow2(uint32_t x)
{
	uint32_t p = 1;

	if (x == 0)
		return 0;
	while (p <= x / 2)
		p *= 2;
	return p;
}

bool sim_geom_tweak_ll(struct sim_geom *g)
{
	uint32_t line = g->line_size, assoc = g->assoc, size = g->size;
	uint32_t sets, new_sets, new_assoc, new_size;

	if (size == 0 || assoc == 0 || line == 0)
		return false;
	/* 32-bit unsigned arithmetic, as cachegrind's (a product that wraps
	 * to 0 would make it divide by zero; here it gives up). */
	if (assoc * line == 0)
		return false;
	sets = size / (assoc * line);
	if (sets == 0)
		return false;
	if (exact_log2(sets) >= 0) {
		new_assoc = assoc;
		new_size = line * assoc * sets;
	} else {
		new_sets = floor_pow2(sets);
		/* Cachegrind computes (unsigned)(0.5 + (double)sets / new_sets *
		 * assoc).  new_sets is a power of two and sets * assoc <= size /
		 * line < 2^32, so every step of that is exact in a double and it
		 * equals this rounding of the exact quotient. */
		new_assoc = (uint32_t)(((uint64_t)sets * assoc * 2 + new_sets) /
				       ((uint64_t)new_sets * 2));
		new_size = line * new_assoc * new_sets;
	}
	if (new_size == size && new_assoc == assoc)
		return false;
	g->size = new_size;
	g->assoc = new_assoc;
	return true;
}

static const struct sim_detected *find_cache(const struct sim_detected *c, size_t n,
					     enum sim_cache_kind kind, uint32_t level)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].kind == kind && c[i].level == level)
			return &c[i];
	return NULL;
}

unsigned sim_pick_caches(const struct sim_detected *c, size_t n, uint32_t num_levels,
			 const struct sim_geom fallback[3], struct sim_geom out[3])
{
	const struct sim_detected *i1 = find_cache(c, n, SIM_KIND_INSN, 1);
	const struct sim_detected *d1 = find_cache(c, n, SIM_KIND_DATA, 1);
	const struct sim_detected *ll = find_cache(c, n, SIM_KIND_UNIFIED, num_levels);
	unsigned flags = 0;

	if (n > 0 && !ll)
		flags |= SIM_PICK_NO_LL;
	if (ll && num_levels > 2)
		flags |= SIM_PICK_DEEP_LL;
	if (!i1 || !d1 || !ll) {
		out[0] = fallback[0];
		out[1] = fallback[1];
		out[2] = fallback[2];
		return flags | SIM_PICK_FALLBACK;
	}
	if (i1->is_trace_cache) {
		out[0].size = i1->size == 12 * 1024 || i1->size == 16 * 1024 ? 16 * 1024 : 32 * 1024;
		out[0].assoc = i1->assoc;
		out[0].line_size = 32;
		flags |= SIM_PICK_TRACE;
	} else {
		out[0] = (struct sim_geom){ i1->size, i1->assoc, i1->line_size };
	}
	out[1] = (struct sim_geom){ d1->size, d1->assoc, d1->line_size };
	out[2] = (struct sim_geom){ ll->size, ll->assoc, ll->line_size };
	return flags;
}

void sim_cfg_cachegrind(struct sim_hier_cfg *cfg, const struct sim_geom *i1,
			const struct sim_geom *d1, const struct sim_geom *ll)
{
	unsigned i;

	cfg->nlevels = 3;
	for (i = 0; i < SIM_MAX_LEVELS; i++) {
		cfg->level[i].geom = (struct sim_geom){ 0, 0, 0 };
		cfg->level[i].repl = SIM_REPL_LRU;
		cfg->level[i].incl = SIM_INCL_NINE;
		cfg->level[i].write = SIM_WRITE_NONE;
		cfg->level[i].prefetch = 0;
		cfg->level[i].next = SIM_NONE;
	}
	cfg->level[SIM_I1].geom = *i1;
	cfg->level[SIM_I1].next = SIM_LL;
	cfg->level[SIM_D1].geom = *d1;
	cfg->level[SIM_D1].next = SIM_LL;
	cfg->level[SIM_LL].geom = *ll;
	cfg->ientry = SIM_I1;
	cfg->dentry = SIM_D1;
}

bool sim_repl_ok(enum sim_repl repl, uint32_t assoc)
{
	if (repl == SIM_REPL_PLRU)
		return assoc <= 64 && exact_log2(assoc) >= 0;
	return (unsigned)repl < SIM_REPL_COUNT;
}

bool sim_fetch_repeat_ok(const struct sim_hier *h)
{
	const struct sim_level *i1 = &h->level[h->ientry];

	if (h->ientry == h->dentry || i1->prefetch || i1->repl == SIM_REPL_SRRIP ||
	    i1->repl == SIM_REPL_BRRIP)
		return false;
	for (unsigned lv = i1->next; lv != SIM_NONE; lv = h->level[lv].next)
		if (h->level[lv].incl == SIM_INCL_INCLUSIVE)
			return false;
	return true;
}

size_t sim_cache_mem_size(const struct sim_geom *g)
{
	if (sim_geom_check(g) != SIM_OK)
		return 0;
	/* sets * assoc == size / line */
	return (size_t)(g->size / g->line_size) * sizeof(uintptr_t);
}

/* n rounded up to a multiple of 8 (every array starts aligned for
 * uint64_t) */
static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* The policy state and prefetcher table of one level, after the tags. */
static size_t extra_mem_size(const struct sim_level_cfg *lc)
{
	const struct sim_geom *g = &lc->geom;
	size_t sets, n = 0;

	if (sim_geom_check(g) != SIM_OK)
		return 0;
	sets = g->size / g->line_size / g->assoc;
	if (lc->repl == SIM_REPL_PLRU)
		n += sets * sizeof(uint64_t);
	if (lc->repl == SIM_REPL_SRRIP || lc->repl == SIM_REPL_BRRIP)
		n += round8(sets * g->assoc);
	if (lc->prefetch & SIM_PF_STRIDE)
		n += round8(SIM_STRIDE_ENTRIES * sizeof(struct sim_stride));
	return n;
}

size_t sim_hier_mem_size(const struct sim_hier_cfg *cfg)
{
	size_t total = 0;

	for (unsigned i = 0; i < cfg->nlevels && i < SIM_MAX_LEVELS; i++)
		total += round8(sim_cache_mem_size(&cfg->level[i].geom)) +
			 extra_mem_size(&cfg->level[i]);
	return total;
}

#define RNG_SEED 2463534242u /* Marsaglia's example seed for xorshift32 */
#define RRPV_MAX 3u
#define BRRIP_LONG_EVERY 32u

static void clear_level(struct sim_level *l)
{
	size_t n = (size_t)l->sets * l->assoc;

	for (size_t i = 0; i < n; i++)
		l->tags[i] = 0;
	if (l->plru)
		for (size_t i = 0; i < l->sets; i++)
			l->plru[i] = 0;
	if (l->rrpv)
		for (size_t i = 0; i < n; i++)
			l->rrpv[i] = RRPV_MAX;
	if (l->stride)
		for (size_t i = 0; i < SIM_STRIDE_ENTRIES; i++)
			l->stride[i] = (struct sim_stride){ 0, 0, 0, 0 };
	l->rng = RNG_SEED;
	l->fills = 0;
	l->writebacks = 0;
	l->prefetches = 0;
}

enum sim_err sim_hier_init(struct sim_hier *h, const struct sim_hier_cfg *cfg, void *mem,
			   size_t mem_size)
{
	unsigned i;
	enum sim_err e;
	unsigned char *p = mem;
	bool simple = true;

	if (cfg->nlevels == 0 || cfg->nlevels > SIM_MAX_LEVELS ||
	    cfg->ientry >= cfg->nlevels || cfg->dentry >= cfg->nlevels)
		return SIM_ERR_CONFIG;
	for (i = 0; i < cfg->nlevels; i++) {
		const struct sim_level_cfg *lc = &cfg->level[i];

		if (lc->next != SIM_NONE && (lc->next <= i || lc->next >= cfg->nlevels))
			return SIM_ERR_CONFIG;
		e = sim_geom_check(&lc->geom);
		if (e != SIM_OK)
			return e;
		if ((unsigned)lc->repl >= SIM_REPL_COUNT || (unsigned)lc->incl >= SIM_INCL_COUNT ||
		    (unsigned)lc->write >= SIM_WRITE_COUNT || (lc->prefetch & ~SIM_PF_ALL) != 0)
			return SIM_ERR_CONFIG;
		if (!sim_repl_ok(lc->repl, lc->geom.assoc))
			return SIM_ERR_PLRU_ASSOC;
		if (lc->prefetch && lc->incl == SIM_INCL_EXCLUSIVE)
			return SIM_ERR_PF_EXCL;
		if (lc->repl != SIM_REPL_LRU || lc->incl != SIM_INCL_NINE ||
		    lc->write != SIM_WRITE_NONE || lc->prefetch)
			simple = false;
	}
	if (mem == NULL || (uintptr_t)mem % sizeof(uint64_t) != 0 ||
	    mem_size < sim_hier_mem_size(cfg))
		return SIM_ERR_MEM;

	h->nlevels = cfg->nlevels;
	h->ientry = cfg->ientry;
	h->dentry = cfg->dentry;
	h->simple = simple;
	for (i = 0; i < SIM_MAX_LEVELS; i++) {
		struct sim_level *l = &h->level[i];
		const struct sim_level_cfg *lc = &cfg->level[i];
		const struct sim_geom *g = &lc->geom;

		*l = (struct sim_level){ 0 };
		l->next = SIM_NONE;
		if (i >= cfg->nlevels)
			continue;
		l->geom = *g;
		l->assoc = g->assoc;
		l->sets = g->size / g->line_size / g->assoc;
		l->set_mask = (uintptr_t)l->sets - 1;
		l->line_bits = (uint32_t)exact_log2(g->line_size);
		l->repl = (uint8_t)lc->repl;
		l->incl = (uint8_t)lc->incl;
		l->write = (uint8_t)lc->write;
		l->prefetch = (uint8_t)lc->prefetch;
		l->next = (uint8_t)lc->next;
		l->tags = (uintptr_t *)(void *)p;
		p += round8(sim_cache_mem_size(g));
	}
	/* then each level's policy state and prefetcher table */
	for (i = 0; i < cfg->nlevels; i++) {
		struct sim_level *l = &h->level[i];
		size_t n = (size_t)l->sets * l->assoc;

		if (l->repl == SIM_REPL_PLRU) {
			l->plru = (uint64_t *)(void *)p;
			p += l->sets * sizeof(uint64_t);
		}
		if (l->repl == SIM_REPL_SRRIP || l->repl == SIM_REPL_BRRIP) {
			l->rrpv = p;
			p += round8(n);
		}
		if (l->prefetch & SIM_PF_STRIDE) {
			l->stride = (struct sim_stride *)(void *)p;
			p += round8(SIM_STRIDE_ENTRIES * sizeof(struct sim_stride));
		}
		clear_level(l);
	}
	/* which levels' chains pass through which */
	for (i = 0; i < cfg->nlevels; i++)
		for (unsigned lv = h->level[i].next; lv != SIM_NONE; lv = h->level[lv].next)
			h->level[lv].above |= 1u << i;
	return SIM_OK;
}

void sim_hier_reset(struct sim_hier *h)
{
	for (unsigned i = 0; i < h->nlevels; i++)
		clear_level(&h->level[i]);
}

uint32_t sim_hier_min_line(const struct sim_hier *h)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < h->nlevels; i++)
		if (m == 0 || h->level[i].geom.line_size < m)
			m = h->level[i].geom.line_size;
	return m;
}

/* ---- any hierarchy: the general access ------------------------------------------ */

/* The way of `block` in `set`, or -1. */
static int find_way(const struct sim_level *l, const uintptr_t *set, uintptr_t block)
{
	for (uint32_t i = 0; i < l->assoc; i++)
		if ((set[i] & ~SIM_DIRTY) == block)
			return (int)i;
	return -1;
}

/* The first way holding no line, or -1. */
static int find_invalid(const struct sim_level *l, const uintptr_t *set)
{
	return find_way(l, set, SIM_INVALID);
}

/* Tree-PLRU: nodes 1 .. assoc-1 in heap order (node n's children are 2n
 * and 2n+1, way w is leaf assoc + w); bit n of the set's word says where
 * the next victim is: 0 below the left child, 1 below the right.  An
 * access points every node on its way's path away from it. */
static void plru_touch(uint64_t *bits, uint32_t assoc, uint32_t way)
{
	for (uint32_t n = assoc + way; n > 1; n /= 2) {
		uint32_t parent = n / 2;
		if (n & 1) /* came from the right child: the victim is left */
			*bits &= ~((uint64_t)1 << parent);
		else
			*bits |= (uint64_t)1 << parent;
	}
}

static uint32_t plru_victim(uint64_t bits, uint32_t assoc)
{
	uint32_t n = 1;

	while (n < assoc)
		n = 2 * n + (uint32_t)(bits >> n & 1);
	return n - assoc;
}

/* A hit on way w of set si: the policy's update. */
static void touch(struct sim_level *l, size_t si, uintptr_t *set, uint32_t w)
{
	switch (l->repl) {
	case SIM_REPL_LRU: {
		uintptr_t t = set[w];
		for (; w > 0; w--)
			set[w] = set[w - 1];
		set[0] = t;
		break;
	}
	case SIM_REPL_PLRU:
		plru_touch(&l->plru[si], l->assoc, w);
		break;
	case SIM_REPL_SRRIP:
	case SIM_REPL_BRRIP:
		l->rrpv[si * l->assoc + w] = 0;
		break;
	default: /* FIFO, RANDOM: no change on a hit */
		break;
	}
}

/* Puts tag t (a block, maybe with SIM_DIRTY) in set si, in the way the
 * policy chooses: an empty way first (the last of the array for LRU and
 * FIFO, where an invalidated line is moved).  Returns the tag it replaced
 * (SIM_INVALID for an empty way). */
static uintptr_t fill(struct sim_level *l, size_t si, uintptr_t *set, uintptr_t t)
{
	uint32_t assoc = l->assoc, w;
	uintptr_t old;
	int inv;

	if (l->repl == SIM_REPL_LRU || l->repl == SIM_REPL_FIFO) {
		old = set[assoc - 1];
		for (w = assoc - 1; w > 0; w--)
			set[w] = set[w - 1];
		set[0] = t;
		return old;
	}
	inv = find_invalid(l, set);
	if (inv >= 0) {
		w = (uint32_t)inv;
	} else if (l->repl == SIM_REPL_PLRU) {
		w = plru_victim(l->plru[si], assoc);
	} else if (l->repl == SIM_REPL_RANDOM) {
		uint32_t x = l->rng;
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		l->rng = x;
		w = x % assoc;
	} else { /* SRRIP, BRRIP: age every way until one is at RRPV_MAX */
		uint8_t *r = &l->rrpv[si * assoc], top = 0;
		for (w = 0; w < assoc; w++)
			if (r[w] > top)
				top = r[w];
		for (w = 0; w < assoc; w++)
			r[w] = (uint8_t)(r[w] + (RRPV_MAX - top));
		for (w = 0; r[w] != RRPV_MAX; w++)
			;
	}
	old = set[w];
	set[w] = t;
	switch (l->repl) {
	case SIM_REPL_PLRU:
		plru_touch(&l->plru[si], assoc, w);
		break;
	case SIM_REPL_SRRIP:
		l->rrpv[si * assoc + w] = RRPV_MAX - 1;
		break;
	case SIM_REPL_BRRIP:
		l->rrpv[si * assoc + w] =
			(uint8_t)(l->fills++ % BRRIP_LONG_EVERY == 0 ? RRPV_MAX - 1 : RRPV_MAX);
		break;
	default:
		break;
	}
	return inv >= 0 ? SIM_INVALID : old;
}

/* Empties way w of set si; returns the tag it held.  LRU and FIFO move the
 * empty way to the end of the array (the next to be filled). */
static uintptr_t invalidate(struct sim_level *l, size_t si, uintptr_t *set, uint32_t w)
{
	uintptr_t old = set[w];

	if (l->repl == SIM_REPL_LRU || l->repl == SIM_REPL_FIFO) {
		for (; w + 1 < l->assoc; w++)
			set[w] = set[w + 1];
		set[l->assoc - 1] = SIM_INVALID;
		return old;
	}
	set[w] = SIM_INVALID;
	if (l->rrpv)
		l->rrpv[si * l->assoc + w] = RRPV_MAX;
	return old;
}

static bool evict(struct sim_hier *h, unsigned lv, uintptr_t victim);

/* Level lv's lines covering [a, a + len): each one present is invalidated.
 * Returns true if one of them was dirty. */
static bool drop_range(struct sim_hier *h, unsigned lv, uintptr_t a, uintptr_t len)
{
	struct sim_level *l = &h->level[lv];
	uintptr_t b = a >> l->line_bits, last = (a + len - 1) >> l->line_bits;
	bool dirty = false;

	for (; b <= last; b++) {
		size_t si = (size_t)(b & l->set_mask);
		uintptr_t *set = l->tags + si * l->assoc;
		int w = find_way(l, set, b);
		if (w >= 0)
			dirty |= (invalidate(l, si, set, (uint32_t)w) & SIM_DIRTY) != 0;
	}
	return dirty;
}

/* A line arriving at level lv from above, not asked for by an access: a
 * dirty line written back, a victim for an exclusive level, a write passed
 * through.  Present: the policy's hit update (and dirty when written to a
 * write-back level); absent: filled (its own victim handled in turn).  A
 * write-through level passes a dirty line on. */
static void put_line(struct sim_hier *h, unsigned lv, uintptr_t a, bool dirty)
{
	struct sim_level *l = &h->level[lv];
	uintptr_t b = a >> l->line_bits;
	size_t si = (size_t)(b & l->set_mask);
	uintptr_t *set = l->tags + si * l->assoc;
	int w = find_way(l, set, b);
	uintptr_t mark = dirty && l->write == SIM_WRITE_BACK ? SIM_DIRTY : 0;

	if (w >= 0) {
		set[w] |= mark;
		touch(l, si, set, (uint32_t)w);
	} else {
		evict(h, lv, fill(l, si, set, b | mark));
	}
	if (dirty && l->write == SIM_WRITE_THROUGH && l->next != SIM_NONE)
		put_line(h, l->next, a, true);
}

/* What follows the eviction of `victim` from level lv: an inclusive level
 * invalidates the line in the levels above (a dirty copy there makes the
 * victim dirty); an exclusive next level takes the victim, dirty or not;
 * otherwise a dirty victim is written to the next level, or to memory.
 * Returns true if the victim was dirty. */
static bool evict(struct sim_hier *h, unsigned lv, uintptr_t victim)
{
	struct sim_level *l = &h->level[lv];
	uintptr_t block = victim & ~SIM_DIRTY;
	bool dirty = (victim & SIM_DIRTY) != 0;
	uintptr_t a, len;

	if (block == SIM_INVALID)
		return false;
	a = block << l->line_bits;
	len = (uintptr_t)1 << l->line_bits;
	if (l->incl == SIM_INCL_INCLUSIVE)
		for (unsigned u = 0; u < h->nlevels; u++)
			if (l->above >> u & 1)
				dirty |= drop_range(h, u, a, len);
	if (dirty)
		l->writebacks++;
	if (l->next != SIM_NONE &&
	    (dirty || h->level[l->next].incl == SIM_INCL_EXCLUSIVE))
		put_line(h, l->next, a, dirty);
	return dirty;
}

/* A stride prefetcher sees a data access of instruction pc at address a:
 * true (and *target) when it asks for the line one stride ahead. */
static bool stride_train(struct sim_level *l, uintptr_t pc, uintptr_t a, uintptr_t *target)
{
	struct sim_stride *e = &l->stride[pc % SIM_STRIDE_ENTRIES];
	intptr_t d;

	if (e->pc != pc) {
		*e = (struct sim_stride){ pc, a, 0, 0 };
		return false;
	}
	d = (intptr_t)(a - e->last);
	if (d != 0 && d == e->stride) {
		if (e->conf < 3)
			e->conf++;
	} else {
		e->stride = d;
		e->conf = 0;
	}
	e->last = a;
	*target = a + (uintptr_t)e->stride;
	return e->conf >= 1;
}

#define WALK_DEMAND 1u   /* an access: prefetchers train, misses counted */
#define WALK_PREFETCH 2u /* a prefetch: a hit at the first level is nothing */

struct pf_req {
	unsigned lv;
	uintptr_t a;
};
#define PF_MAX (2 * SIM_MAX_LEVELS)

/* The walk down the levels from `lv`: each level looks up every line of
 * the access (and fills the missing ones, unless exclusive); if all hit,
 * the walk ends there, else the next level gets the whole access. */
static unsigned walk(struct sim_hier *h, unsigned lv, uintptr_t a, uint32_t size,
		     enum sim_acc kind, uintptr_t pc, unsigned flags, struct pf_req *pf,
		     unsigned *npf)
{
	unsigned depth = 0, res = 0;
	unsigned filled = SIM_NONE; /* the last level that filled the lines */
	bool write = kind == SIM_ACC_WRITE;

	while (lv != SIM_NONE) {
		struct sim_level *l = &h->level[lv];
		uintptr_t block = a >> l->line_bits;
		uintptr_t line_mask = ((uintptr_t)1 << l->line_bits) - 1;
		uintptr_t last = block + (size ? ((a & line_mask) + (uintptr_t)(size - 1)) >>
							 l->line_bits
					       : 0);
		bool excl = l->incl == SIM_INCL_EXCLUSIVE && depth > 0;
		bool miss = false, dirty = false;
		uintptr_t mark = write && l->write == SIM_WRITE_BACK ? SIM_DIRTY : 0;

		for (uintptr_t b = block; b <= last; b++) {
			size_t si = (size_t)(b & l->set_mask);
			uintptr_t *set = l->tags + si * l->assoc;
			int w = find_way(l, set, b);
			if (w >= 0 && (flags & WALK_PREFETCH) && depth == 0)
				continue;
			if (w >= 0 && excl) {
				/* the line moves up: its dirt with it, where the
				 * level that took it keeps dirty lines */
				uintptr_t t = invalidate(l, si, set, (uint32_t)w);
				if (t & SIM_DIRTY) {
					struct sim_level *up = &h->level[filled];
					uintptr_t ab = (b << l->line_bits) >> up->line_bits;
					uintptr_t *us = up->tags + (size_t)(ab & up->set_mask) * up->assoc;
					int uw = find_way(up, us, ab);
					if (up->write == SIM_WRITE_BACK && uw >= 0) {
						us[uw] |= SIM_DIRTY;
					} else {
						l->writebacks++;
						if (l->next != SIM_NONE)
							put_line(h, l->next, b << l->line_bits, true);
					}
				}
			} else if (w >= 0) {
				set[w] |= mark;
				touch(l, si, set, (uint32_t)w);
			} else {
				miss = true;
				if (!excl)
					dirty |= evict(h, lv, fill(l, si, set, b | mark));
			}
		}
		if (!excl)
			filled = lv;
		if ((flags & WALK_DEMAND) && (l->prefetch & SIM_PF_STRIDE) && kind != SIM_ACC_FETCH) {
			uintptr_t t;
			if (stride_train(l, pc, a, &t) && *npf < PF_MAX)
				pf[(*npf)++] = (struct pf_req){ lv, t };
		}
		if (!miss) {
			if (write && l->write == SIM_WRITE_THROUGH && l->next != SIM_NONE)
				for (uintptr_t b = block; b <= last; b++)
					put_line(h, l->next, b << l->line_bits, true);
			break;
		}
		if (dirty)
			res |= 1u << (8 + depth);
		depth++;
		if ((flags & WALK_DEMAND) && (l->prefetch & SIM_PF_NEXT) && *npf < PF_MAX)
			pf[(*npf)++] = (struct pf_req){ lv, (last + 1) << l->line_bits };
		if (l->write == SIM_WRITE_BACK)
			write = false; /* the line is fetched from below, not written there */
		lv = l->next;
	}
	return res | depth;
}

unsigned sim_access_general(struct sim_hier *h, enum sim_acc kind, uintptr_t a, uint32_t size,
			    uintptr_t pc)
{
	struct pf_req pf[PF_MAX];
	unsigned npf = 0;
	unsigned r = walk(h, kind == SIM_ACC_FETCH ? h->ientry : h->dentry, a, size, kind, pc,
			  WALK_DEMAND, pf, &npf);

	/* the prefetches the access asked for, after it, in the order asked */
	for (unsigned i = 0; i < npf; i++)
		if (SIM_RES_MISSED(walk(h, pf[i].lv, pf[i].a, 1, SIM_ACC_READ, 0, WALK_PREFETCH,
					NULL, NULL)))
			h->level[pf[i].lv].prefetches++;
	return r;
}
