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
	case SIM_ERR_UNSUPPORTED:
		return "Cache replacement or inclusion policy not supported yet.";
	case SIM_ERR_CONFIG:
		return "Bad cache hierarchy (level count, entry level or next level).";
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

size_t sim_cache_mem_size(const struct sim_geom *g)
{
	if (sim_geom_check(g) != SIM_OK)
		return 0;
	/* sets * assoc == size / line */
	return (size_t)(g->size / g->line_size) * sizeof(uintptr_t);
}

size_t sim_hier_mem_size(const struct sim_hier_cfg *cfg)
{
	size_t total = 0;

	for (unsigned i = 0; i < cfg->nlevels && i < SIM_MAX_LEVELS; i++)
		total += sim_cache_mem_size(&cfg->level[i].geom);
	return total;
}

static void clear_level(struct sim_level *l)
{
	size_t n = (size_t)l->sets * l->assoc;

	for (size_t i = 0; i < n; i++)
		l->tags[i] = 0;
}

enum sim_err sim_hier_init(struct sim_hier *h, const struct sim_hier_cfg *cfg, void *mem,
			   size_t mem_size)
{
	unsigned i;
	enum sim_err e;
	uintptr_t *p = mem;

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
		if (lc->repl != SIM_REPL_LRU || lc->incl != SIM_INCL_NINE)
			return SIM_ERR_UNSUPPORTED;
	}
	if (mem == NULL || (uintptr_t)mem % sizeof(uintptr_t) != 0 ||
	    mem_size < sim_hier_mem_size(cfg))
		return SIM_ERR_MEM;

	h->nlevels = cfg->nlevels;
	h->ientry = cfg->ientry;
	h->dentry = cfg->dentry;
	for (i = 0; i < SIM_MAX_LEVELS; i++) {
		struct sim_level *l = &h->level[i];
		const struct sim_geom *g = &cfg->level[i].geom;

		if (i >= cfg->nlevels) {
			*l = (struct sim_level){ NULL, 0, 0, 0, 0, 0, 0, SIM_NONE, { 0, 0, 0 } };
			continue;
		}
		l->geom = *g;
		l->assoc = g->assoc;
		l->sets = g->size / g->line_size / g->assoc;
		l->set_mask = (uintptr_t)l->sets - 1;
		l->line_bits = (uint32_t)exact_log2(g->line_size);
		l->repl = (uint8_t)cfg->level[i].repl;
		l->incl = (uint8_t)cfg->level[i].incl;
		l->next = (uint8_t)cfg->level[i].next;
		l->tags = p;
		p += (size_t)l->sets * l->assoc;
		clear_level(l);
	}
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
