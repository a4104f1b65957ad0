/* cache.h -- a hierarchy of set-associative caches that reproduces Valgrind
 * 3.19 cachegrind's simulation exactly in its default configuration (I1 and
 * D1 in front of a unified LL), built as N levels with a replacement, an
 * inclusion and a write policy and prefetchers per level.
 *
 * Freestanding C99: only <stdint.h>, <stddef.h> and <stdbool.h>; no libc
 * calls, no allocation (the caller hands over the memory for the tag
 * arrays), no global state.  The same file compiles into the Valgrind tool
 * and into the host unit tests.  See src/sim/README.md for the exactness
 * rules.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SIM_CACHE_H
#define CGTUI_SIM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- geometry ------------------------------------------------------------ */

/* One cache's shape, as given to cachegrind's --I1/--D1/--LL options:
 * total size in bytes, associativity (lines per set), line size in bytes. */
struct sim_geom {
	uint32_t size;
	uint32_t assoc;
	uint32_t line_size;
};

/* Cachegrind refuses lines shorter than this (a short line would let one
 * instruction straddle three lines). */
#define SIM_MIN_LINE_SIZE 16u

enum sim_err {
	SIM_OK = 0,
	/* Rejected by the geometry check, in the order it tests them. */
	SIM_ERR_LINE_ZERO,      /* not in 3.19 (it divides by zero) */
	SIM_ERR_ASSOC_ZERO,     /* not in 3.19 (it divides by zero) */
	SIM_ERR_SETS_NOT_POW2,  /* size % (line * assoc) != 0, or the set count
	                           size / line / assoc is not a power of two
	                           (0 sets included) */
	SIM_ERR_LINE_NOT_POW2,
	SIM_ERR_LINE_TOO_SMALL, /* line < SIM_MIN_LINE_SIZE */
	SIM_ERR_SIZE_LE_LINE,   /* size <= line */
	SIM_ERR_ASSOC_TOO_BIG,  /* assoc > size / line */
	/* Rejected by sim_hier_init. */
	SIM_ERR_PLRU_ASSOC,     /* tree-PLRU on an associativity that is not a
	                           power of two <= 64 */
	SIM_ERR_PF_EXCL,        /* a prefetcher on an exclusive level */
	SIM_ERR_CONFIG,         /* bad level count, entry level, next link or
	                           policy value */
	SIM_ERR_MEM             /* buffer too small or not aligned */
};

/* The checks cachegrind 3.19 applies to a configuration (cg_arch.c), in the
 * same order, so the first failing rule is the one reported.  Zero line size
 * or associativity are reported first (3.19 would crash on them; later
 * Valgrind versions report them the same way). */
enum sim_err sim_geom_check(const struct sim_geom *g);

/* A one-line message for an error code, without a trailing newline.  The
 * geometry messages say what cachegrind's say. */
const char *sim_strerror(enum sim_err e);

/* Cachegrind's adjustment of an auto-detected LL (maybe_tweak_LLc): when the
 * set count is not a power of two it is rounded down to one, the
 * associativity is scaled up by the same factor (rounded to nearest) and the
 * size recomputed as line * assoc * sets; when it is a power of two the size
 * is only recomputed so that it divides exactly.  A geometry with a zero
 * field or zero sets is left alone.  Returns true if *g changed (cachegrind
 * then prints the "specified"/"simulated LL cache" warning).  Apply it to the
 * auto-detected (or fallback) LL only, before the checks, never to an --LL
 * given by the user. */
bool sim_geom_tweak_ll(struct sim_geom *g);

/* ---- choosing I1/D1/LL from detected caches -------------------------------- */

/* What the host reports (Valgrind's VexArchInfo.hwcache_info, from CPUID),
 * converted by the caller into this neutral form. */
enum sim_cache_kind { SIM_KIND_INSN, SIM_KIND_DATA, SIM_KIND_UNIFIED };

struct sim_detected {
	enum sim_cache_kind kind;
	uint32_t level; /* 1, 2, 3 ... */
	uint32_t size, assoc, line_size;
	bool is_trace_cache; /* Pentium 4 micro-op trace cache */
};

/* Cachegrind's fallback geometries when nothing usable was detected. */
#define SIM_FALLBACK_X86_I1 { 65536, 2, 64 }   /* x86, amd64, ppc32, ppc64 */
#define SIM_FALLBACK_X86_D1 { 65536, 2, 64 }
#define SIM_FALLBACK_X86_LL { 262144, 8, 64 }
#define SIM_FALLBACK_ARM_I1 { 16384, 4, 64 }   /* arm, arm64 */
#define SIM_FALLBACK_ARM_D1 { 16384, 4, 64 }
#define SIM_FALLBACK_ARM_LL { 262144, 8, 64 }

/* Flags returned by sim_pick_caches: which of cachegrind's warnings apply. */
#define SIM_PICK_NO_LL    1u /* caches reported but no unified one at the last
                                level ("L2 cache not installed, ignore LL
                                results") */
#define SIM_PICK_DEEP_LL  2u /* LL taken from level num_levels > 2 */
#define SIM_PICK_TRACE    4u /* I1 guessed from a trace cache */
#define SIM_PICK_FALLBACK 8u /* I1, D1 or LL missing: fallback used */

/* Cachegrind's configure_caches: I1 = instruction cache of level 1, D1 =
 * data cache of level 1, LL = unified cache of level num_levels; a trace
 * cache of 12 or 16 KB becomes 16 KB, any other size 32 KB, with 32-byte
 * lines and the reported associativity; if any of the three is missing, all
 * three are taken from `fallback` (I1, D1, LL).  out[] receives I1, D1, LL.
 * Follow with sim_geom_tweak_ll(&out[2]) and sim_geom_check on each. */
unsigned sim_pick_caches(const struct sim_detected *c, size_t n, uint32_t num_levels,
			 const struct sim_geom fallback[3], struct sim_geom out[3]);

/* ---- levels and hierarchies ------------------------------------------------- */

/* Replacement policies (src/sim/README.md gives each one's exact rules). */
enum sim_repl {
	SIM_REPL_LRU = 0, /* cachegrind: per set an array, most recent first */
	SIM_REPL_PLRU,    /* tree pseudo-LRU; a power-of-two associativity <= 64 */
	SIM_REPL_FIFO,    /* the array of LRU, not reordered on a hit */
	SIM_REPL_RANDOM,  /* xorshift32 with a fixed seed, per level */
	SIM_REPL_SRRIP,   /* 2-bit re-reference prediction, insertion at 2 */
	SIM_REPL_BRRIP,   /* the same, insertion at 3 but every 32nd fill at 2 */
	SIM_REPL_COUNT
};

/* Inclusion policy of a level towards the levels above it (those whose
 * chain of `next` links passes through it); meaningless on a first level. */
enum sim_incl {
	SIM_INCL_NINE = 0,  /* cachegrind: filled on every miss that reaches
	                       it, never invalidated from above or below */
	SIM_INCL_INCLUSIVE, /* its evictions invalidate the line above */
	SIM_INCL_EXCLUSIVE, /* holds what the levels above evicted: a hit moves
	                       the line up, a miss does not fill it */
	SIM_INCL_COUNT
};

/* What a level does with a write. */
enum sim_write {
	SIM_WRITE_NONE = 0, /* cachegrind: a write is a read, no dirty state */
	SIM_WRITE_BACK,     /* write-allocate, dirty lines written to the next
	                       level (or memory) when evicted */
	SIM_WRITE_THROUGH,  /* write-allocate, no dirty state here; every write,
	                       hit or miss, also goes to the next level
	                       (callgrind's L1 with --simulate-wb=yes) */
	SIM_WRITE_COUNT
};

/* Hardware prefetchers of a level (a bit set). */
#define SIM_PF_NEXT 1u   /* a demand miss fetches the next line too */
#define SIM_PF_STRIDE 2u /* per instruction: a stride seen twice running
                            fetches the line one stride ahead */
#define SIM_PF_ALL (SIM_PF_NEXT | SIM_PF_STRIDE)
#define SIM_STRIDE_ENTRIES 64u /* the stride table, indexed by pc % 64 */

#define SIM_MAX_LEVELS 8
#define SIM_NONE 0xffu

struct sim_level_cfg {
	struct sim_geom geom;
	enum sim_repl repl;
	enum sim_incl incl;
	enum sim_write write;
	unsigned prefetch; /* SIM_PF_* */
	unsigned next;     /* level looked up after a miss here, or SIM_NONE */
};

struct sim_hier_cfg {
	unsigned nlevels;
	struct sim_level_cfg level[SIM_MAX_LEVELS];
	unsigned ientry; /* first level of an instruction fetch */
	unsigned dentry; /* first level of a data access */
};

/* A tag is the whole block number (address >> line bits); with
 * SIM_WRITE_BACK its top bit says the line is dirty.  SIM_INVALID (a
 * number no block has) fills a way emptied by an invalidation. */
#define SIM_DIRTY ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))
#define SIM_INVALID (~SIM_DIRTY)

/* One entry of a stride prefetcher's table. */
struct sim_stride {
	uintptr_t pc, last; /* the instruction, the address it last accessed */
	intptr_t stride;    /* the last difference seen */
	uint32_t conf;      /* times in a row it repeated (at most 3) */
};

/* One level's state.  LRU and FIFO keep a set's tags most recent (or most
 * recently filled) first; the other policies keep them by way, with their
 * own state beside. */
struct sim_level {
	uintptr_t *tags;
	uintptr_t set_mask; /* sets - 1 */
	uint32_t assoc;
	uint32_t sets;
	uint32_t line_bits;
	uint8_t repl, incl, next, write, prefetch;
	struct sim_geom geom;
	uint64_t *plru;            /* PLRU: the tree's bits, a word per set */
	uint8_t *rrpv;             /* SRRIP, BRRIP: a value 0..3 per way */
	struct sim_stride *stride; /* SIM_PF_STRIDE: [SIM_STRIDE_ENTRIES] */
	uint32_t rng;              /* RANDOM: the generator's state */
	uint32_t fills;            /* BRRIP: fills so far */
	uint32_t above;            /* bit u: level u's chain passes through here */
	/* counted for the whole run (no instruction to charge them to) */
	uint64_t writebacks; /* dirty lines written out of this level */
	uint64_t prefetches; /* lines its prefetchers brought in */
};

struct sim_hier {
	unsigned nlevels;
	unsigned ientry, dentry;
	bool simple; /* every level LRU, NINE, SIM_WRITE_NONE, no prefetch */
	struct sim_level level[SIM_MAX_LEVELS];
};

/* Indices of the levels in the cachegrind-shaped hierarchy. */
enum { SIM_I1 = 0, SIM_D1 = 1, SIM_LL = 2 };

/* Fills *cfg with cachegrind's shape: I1 -> LL, D1 -> LL, all LRU and
 * non-inclusive, instruction fetches entering at I1, data at D1. */
void sim_cfg_cachegrind(struct sim_hier_cfg *cfg, const struct sim_geom *i1,
			const struct sim_geom *d1, const struct sim_geom *ll);

/* Does `repl` work with `assoc` ways?  Tree-PLRU needs a power of two of
 * at most 64; the others take any. */
bool sim_repl_ok(enum sim_repl repl, uint32_t assoc);

/* Does a second fetch of the line the previous fetch ended in change
 * nothing (and hit) when only data accesses came in between?  True when
 * fetches and data enter at different levels, the fetches' level keeps a
 * hit on its most recent line as it is (LRU, FIFO, PLRU, random: not
 * SRRIP/BRRIP, where a fill sets 2 and a hit 0), has no prefetcher, and no
 * inclusive level below it could invalidate the line. */
bool sim_fetch_repeat_ok(const struct sim_hier *h);

/* Bytes of tag storage one level needs (0 if the geometry is invalid). */
size_t sim_cache_mem_size(const struct sim_geom *g);
/* Bytes sim_hier_init needs for cfg: tags, policy state, stride tables. */
size_t sim_hier_mem_size(const struct sim_hier_cfg *cfg);

/* Checks cfg (each geometry with sim_geom_check, the policies, the links:
 * a level's next must be a later level, so there are no cycles; no
 * prefetcher on an exclusive level) and sets h up in mem, which must hold
 * sim_hier_mem_size(cfg) bytes aligned for uint64_t.  Every tag starts as
 * 0, as in cachegrind: block 0 (addresses 0 .. line-1) looks present in
 * every level from the start.  The tags of all levels come first, in level
 * order, so that aligning mem aligns the first level's sets.  mem belongs
 * to h until the caller drops h. */
enum sim_err sim_hier_init(struct sim_hier *h, const struct sim_hier_cfg *cfg, void *mem,
			   size_t mem_size);

/* Back to the start state (tags, policy state, prefetchers, counts),
 * keeping the configuration. */
void sim_hier_reset(struct sim_hier *h);

/* The smallest line size over all levels.  Cachegrind clamps the size of a
 * dirty helper's memory access to it and refuses to run when it is smaller
 * than the largest guest register (16, or 32 with AVX on amd64). */
uint32_t sim_hier_min_line(const struct sim_hier *h);

/* ---- the hot path --------------------------------------------------------- */

/* Kinds of access. */
enum sim_acc { SIM_ACC_FETCH = 0, SIM_ACC_READ = 1, SIM_ACC_WRITE = 2 };

/* The result of an access: how many levels of its chain missed (0 = a hit
 * at its entry level), and for each of those, whether a line it evicted
 * was dirty (callgrind's "dmr"/"dmw": a miss that costs a write-back). */
#define SIM_RES_MISSED(r) ((unsigned)(r) & 0xffu)
#define SIM_RES_DIRTY(r, depth) (((unsigned)(r) >> (8 + (depth))) & 1u)

/* Looks `tag` up in one LRU set of `assoc` entries: a hit at position i moves
 * it to the front, a miss drops the last entry and puts the tag in front.
 * Returns true on a miss. */
static inline bool sim_set_ref(uintptr_t *set, uint32_t assoc, uintptr_t tag)
{
	uint32_t i;
	bool miss;

	if (set[0] == tag)
		return false;
	for (i = 1; i < assoc && set[i] != tag; i++)
		;
	miss = i == assoc;
	if (miss)
		i = assoc - 1;
	for (; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = tag;
	return miss;
}

/* One access of `size` bytes at `a` to one LRU level of a simple
 * hierarchy: every line it touches is looked up (and its set updated), and
 * it is one access that misses if any line missed.  Cachegrind never
 * passes more than two lines (it asserts that); more are handled the same
 * way here.  A size of 0 is taken as 1, which is what cachegrind does
 * wherever it does not assert. */
static inline bool sim_level_ref(struct sim_level *l, uintptr_t a, uint32_t size)
{
	uintptr_t block = a >> l->line_bits;
	uintptr_t line_mask = ((uintptr_t)1 << l->line_bits) - 1;
	uintptr_t extra = size ? ((a & line_mask) + (uintptr_t)(size - 1)) >> l->line_bits : 0;
	bool miss = sim_set_ref(l->tags + (size_t)(block & l->set_mask) * l->assoc, l->assoc,
				block);

	while (extra--) {
		block++;
		miss |= sim_set_ref(l->tags + (size_t)(block & l->set_mask) * l->assoc,
				    l->assoc, block);
	}
	return miss;
}

/* True when an access of `size` bytes at `a` stays in one line that is the
 * first of its set's array with the tag `mark` added (0, or SIM_DIRTY for
 * a write to a write-back level): for LRU and FIFO levels where
 * sim_level_mru_ok says so, the access would then be a hit that changes
 * nothing (the common case, checked first by callers that want it inline;
 * cachegrind's own fast path). */
static inline bool sim_level_mru_hit_mark(const struct sim_level *l, uintptr_t a, uint32_t size,
					  uintptr_t mark)
{
	uintptr_t block = a >> l->line_bits;
	uintptr_t last = (a + (size ? size - 1u : 0u)) >> l->line_bits;
	return block == last && l->tags[(size_t)(block & l->set_mask) * l->assoc] == (block | mark);
}

static inline bool sim_level_mru_hit(const struct sim_level *l, uintptr_t a, uint32_t size)
{
	return sim_level_mru_hit_mark(l, a, size, 0);
}

/* Can an access of kind `kind` entering at level l take the shortcut of
 * sim_level_mru_hit_mark (with *mark set to what to pass)?  Only where a
 * hit on the first tag of the array changes nothing: LRU or FIFO, no
 * stride prefetcher watching data accesses, a write neither written
 * through nor making a clean line dirty (hence the mark). */
static inline bool sim_level_mru_ok(const struct sim_level *l, enum sim_acc kind, uintptr_t *mark)
{
	*mark = 0;
	if (l->repl != SIM_REPL_LRU && l->repl != SIM_REPL_FIFO)
		return false;
	if (kind == SIM_ACC_FETCH)
		return true;
	if (l->prefetch & SIM_PF_STRIDE)
		return false;
	if (kind == SIM_ACC_WRITE) {
		if (l->write == SIM_WRITE_THROUGH)
			return false;
		if (l->write == SIM_WRITE_BACK)
			*mark = SIM_DIRTY;
	}
	return true;
}

/* A simple hierarchy's access entering at level `entry`: looked up there
 * and, on a miss, at its next level with the same address and size, and so
 * on.  Returns how many levels missed: for the cachegrind shape 0 = L1 hit,
 * 1 = L1 miss that hit in LL, 2 = missed both. */
static inline unsigned sim_access(struct sim_hier *h, unsigned entry, uintptr_t a,
				  uint32_t size)
{
	unsigned missed = 0, lv = entry;

	while (lv != SIM_NONE && sim_level_ref(&h->level[lv], a, size)) {
		missed++;
		lv = h->level[lv].next;
	}
	return missed;
}

/* Any hierarchy's access (the rules of src/sim/README.md): `pc` is the
 * address of the instruction making it (for stride prefetchers).  Returns
 * SIM_RES_MISSED / SIM_RES_DIRTY bits. */
unsigned sim_access_general(struct sim_hier *h, enum sim_acc kind, uintptr_t a, uint32_t size,
			    uintptr_t pc);

static inline unsigned sim_ref(struct sim_hier *h, enum sim_acc kind, uintptr_t a,
			       uint32_t size, uintptr_t pc)
{
	if (h->simple)
		return sim_access(h, kind == SIM_ACC_FETCH ? h->ientry : h->dentry, a, size);
	return sim_access_general(h, kind, a, size, pc);
}

/* Cachegrind's I1 reference (cachesim_I1_doref_Gen, and _NoX which gives the
 * same result): an instruction fetch of `size` bytes at `a`. */
static inline unsigned sim_I1_access(struct sim_hier *h, uintptr_t a, uint32_t size)
{
	return sim_ref(h, SIM_ACC_FETCH, a, size, a);
}

/* Cachegrind's D1 reference (cachesim_D1_doref) for a load or a modify. */
static inline unsigned sim_D1_read(struct sim_hier *h, uintptr_t a, uint32_t size)
{
	return sim_ref(h, SIM_ACC_READ, a, size, 0);
}

/* A store: in cachegrind's model write-allocate and otherwise exactly a
 * read; other models may write back or through. */
static inline unsigned sim_D1_write(struct sim_hier *h, uintptr_t a, uint32_t size)
{
	return sim_ref(h, SIM_ACC_WRITE, a, size, 0);
}

#endif
