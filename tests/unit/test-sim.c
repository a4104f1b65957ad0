/* test-sim.c -- unit tests of the cache and branch simulators (src/sim).
 * Every expected value is derived by hand, in the comment beside it, from
 * the rules of Valgrind 3.19's cachegrind (cg_sim.c, cg_branchpred.c,
 * cg_arch.c; see src/sim/README.md), not from running our code.
 *
 * Notation: "blk N" is block number address >> log2(line); "set[s] = [a,b]"
 * lists a set's tags most recently used first.  An access returns the number
 * of levels that missed: 0 = L1 hit, 1 = L1 miss + LL hit, 2 = both miss.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sim/branch.h"
#include "sim/cache.h"
#include "tap.h"

/* tag memory for the hierarchies below (the largest, cachegrind's fallback
 * configuration, needs (1024 + 1024 + 4096) tags) */
static uintptr_t mem[8192];

static const struct sim_geom small_l1 = { 256, 2, 16 };  /* 256/16/2 = 8 sets */
static const struct sim_geom small_ll = { 1024, 4, 16 }; /* 1024/16/4 = 16 sets */

static int mk(struct sim_hier *h, struct sim_geom i1, struct sim_geom d1, struct sim_geom ll)
{
	struct sim_hier_cfg cfg;
	sim_cfg_cachegrind(&cfg, &i1, &d1, &ll);
	return sim_hier_init(h, &cfg, mem, sizeof(mem));
}

static enum sim_err check(uint32_t size, uint32_t assoc, uint32_t line)
{
	struct sim_geom g = { size, assoc, line };
	return sim_geom_check(&g);
}

static void test_geom_check(void)
{
	/* 65536 % (64*2) = 0, 65536/64/2 = 512 = 2^9; 64 = 2^6 >= 16; 65536 > 64;
	 * 2 <= 1024 */
	is(check(65536, 2, 64), SIM_OK, "64 KB 2-way 64 B lines is fine");
	/* 98304 = 3 * 64 * 512: associativity need not be a power of two */
	is(check(98304, 3, 64), SIM_OK, "96 KB 3-way: 512 sets, fine");
	/* 65536 / 64 / 1024 = 1 set = 2^0 */
	is(check(65536, 1024, 64), SIM_OK, "fully associative (1 set) is fine");
	/* 65536 % 192 = 64 != 0 */
	is(check(65536, 3, 64), SIM_ERR_SETS_NOT_POW2, "64 KB 3-way: sets not whole");
	/* 98304 / 64 / 2 = 768, not a power of two */
	is(check(98304, 2, 64), SIM_ERR_SETS_NOT_POW2, "96 KB 2-way: 768 sets");
	/* 1024 % 48 = 16: the set rule comes before the line rule */
	is(check(1024, 1, 48), SIM_ERR_SETS_NOT_POW2, "set rule is tested first");
	/* 96 % 48 = 0, 96/48 = 2 sets = 2^1; 48 is no power of two */
	is(check(96, 1, 48), SIM_ERR_LINE_NOT_POW2, "48 B lines");
	/* 64 / 8 = 8 sets; 8 = 2^3 but < 16 */
	is(check(64, 1, 8), SIM_ERR_LINE_TOO_SMALL, "8 B lines are too small");
	/* 16 / 16 = 1 set; line 16 ok; 16 <= 16 */
	is(check(16, 1, 16), SIM_ERR_SIZE_LE_LINE, "size == line");
	/* 0 % 64 = 0 but 0 sets is no power of two */
	is(check(0, 1, 64), SIM_ERR_SETS_NOT_POW2, "size 0: 0 sets");
	is(check(65536, 2, 0), SIM_ERR_LINE_ZERO, "line 0");
	is(check(65536, 0, 64), SIM_ERR_ASSOC_ZERO, "assoc 0");
	/* assoc 4096 > 65536/64 = 1024 also makes 64*4096 > 65536, so the set
	 * rule fires first: 65536 % 262144 = 65536 != 0 */
	is(check(65536, 4096, 64), SIM_ERR_SETS_NOT_POW2, "assoc > size/line caught by set rule");
	is_str(sim_strerror(SIM_ERR_SETS_NOT_POW2), "Cache set count is not a power of two.",
	       "message of the set rule");
	ok(sim_strerror(SIM_ERR_MEM)[0] != '\0', "every code has a message");
}

static void tweak(uint32_t size, uint32_t assoc, uint32_t line, bool want_changed,
		  uint32_t want_size, uint32_t want_assoc, const char *what)
{
	struct sim_geom g = { size, assoc, line };
	bool changed = sim_geom_tweak_ll(&g);
	is(changed, want_changed, "%s: changed?", what);
	is(g.size, want_size, "%s: size", what);
	is(g.assoc, want_assoc, "%s: assoc", what);
	is(g.line_size, line, "%s: line size never changes", what);
	is(sim_geom_check(&g), SIM_OK, "%s: passes the check afterwards", what);
}

static void test_tweak_ll(void)
{
	/* 6 MB 12-way 64 B: 6291456 / (12*64) = 8192 = 2^13 sets, already a power
	 * of two; size recomputed 64*12*8192 = 6291456, the same: untouched */
	tweak(6291456, 12, 64, false, 6291456, 12, "6 MB 12-way");
	/* 12 MB 16-way 64 B (Core iX): 12582912 / 1024 = 12288 sets -> 8192;
	 * factor 12288/8192 = 1.5; assoc (unsigned)(0.5 + 1.5*16) = 24; size
	 * 64*24*8192 = 12582912 */
	tweak(12582912, 16, 64, true, 12582912, 24, "12 MB 16-way");
	/* 5 MB 48-way 64 B (AMD): 5242880 / 3072 = 1706 sets (integer division)
	 * -> 1024; factor 1706/1024 = 1.666015625; 0.5 + 48*1.666015625 =
	 * 80.46875 -> 80; size 64*80*1024 = 5242880 */
	tweak(5242880, 48, 64, true, 5242880, 80, "5 MB 48-way");
	/* 294912 3-way 64 B: 294912/192 = 1536 sets -> 1024; factor 1.5;
	 * 0.5 + 4.5 = 5.0 -> 5 (halves round up); size 64*5*1024 = 327680 */
	tweak(294912, 3, 64, true, 327680, 5, "1536 sets 3-way");
	/* 1000000 8-way 64 B: 1000000/512 = 1953 sets -> 1024; 0.5 +
	 * 8*1953/1024 = 0.5 + 15.2578125 -> 15; size 64*15*1024 = 983040 */
	tweak(1000000, 8, 64, true, 983040, 15, "1953 sets: smaller size");
	/* 65600 2-way 64 B: 65600/128 = 512 sets (512.5), a power of two; size
	 * recomputed 64*2*512 = 65536 != 65600: changed, assoc kept */
	tweak(65600, 2, 64, true, 65536, 2, "power of two sets, size trimmed");
	/* cachegrind's x86 fallback LL: 262144/512 = 512 sets: untouched */
	tweak(262144, 8, 64, false, 262144, 8, "fallback LL");

	struct sim_geom z = { 0, 8, 64 };
	ok(!sim_geom_tweak_ll(&z) && z.size == 0, "a zero size is left alone");
}

static void test_pick(void)
{
	static const struct sim_geom fb[3] = { SIM_FALLBACK_X86_I1, SIM_FALLBACK_X86_D1,
					       SIM_FALLBACK_X86_LL };
	struct sim_geom out[3];
	/* a recent amd64: L1i, L1d, unified L2 and L3 (num_levels 3) */
	struct sim_detected cpu[] = {
		{ SIM_KIND_DATA, 1, 49152, 12, 64, false },
		{ SIM_KIND_INSN, 1, 32768, 8, 64, false },
		{ SIM_KIND_UNIFIED, 2, 1310720, 10, 64, false },
		{ SIM_KIND_UNIFIED, 3, 31457280, 12, 64, false },
	};
	/* LL = unified cache of level num_levels = 3; that level is > 2: warn */
	is(sim_pick_caches(cpu, 4, 3, fb, out), SIM_PICK_DEEP_LL, "L3 used as LL");
	ok(out[0].size == 32768 && out[0].assoc == 8 && out[0].line_size == 64, "I1 = L1i");
	ok(out[1].size == 49152 && out[1].assoc == 12 && out[1].line_size == 64, "D1 = L1d");
	ok(out[2].size == 31457280 && out[2].assoc == 12, "LL = L3");
	/* 31457280 / (12*64) = 40960 sets -> 32768; factor 1.25; 0.5 + 15 = 15.5
	 * -> 15; size 64*15*32768 = 31457280 */
	ok(sim_geom_tweak_ll(&out[2]) && out[2].assoc == 15 && out[2].size == 31457280,
	   "its 40960 sets become 32768, 15-way");

	/* only level-1 caches: no unified cache at level 1 -> no LL -> warning
	 * and the fallback for all three */
	is(sim_pick_caches(cpu, 2, 1, fb, out), SIM_PICK_NO_LL | SIM_PICK_FALLBACK,
	   "no LL: fallback");
	ok(out[0].size == 65536 && out[2].size == 262144 && out[2].assoc == 8,
	   "fallback geometry");
	is(sim_pick_caches(NULL, 0, 0, fb, out), SIM_PICK_FALLBACK, "nothing detected");

	/* Pentium 4: 12 K-uop trace cache -> 16 KB, 32 B lines, its assoc (8) */
	struct sim_detected p4[] = {
		{ SIM_KIND_INSN, 1, 12288, 8, 0, true },
		{ SIM_KIND_DATA, 1, 16384, 8, 64, false },
		{ SIM_KIND_UNIFIED, 2, 1048576, 8, 64, false },
	};
	is(sim_pick_caches(p4, 3, 2, fb, out), SIM_PICK_TRACE, "trace cache");
	ok(out[0].size == 16384 && out[0].assoc == 8 && out[0].line_size == 32,
	   "trace cache guessed as 16 KB, 32 B lines");
	p4[0].size = 20480; /* any other size -> 32 KB */
	sim_pick_caches(p4, 3, 2, fb, out);
	is(out[0].size, 32768, "other trace cache sizes -> 32 KB");
}

static void test_init(void)
{
	struct sim_hier h;
	struct sim_hier_cfg cfg;
	const struct sim_geom fi1 = SIM_FALLBACK_X86_I1, fd1 = SIM_FALLBACK_X86_D1,
			      fll = SIM_FALLBACK_X86_LL;

	sim_cfg_cachegrind(&cfg, &fi1, &fd1, &fll);
	/* 65536/64 + 65536/64 + 262144/64 = 1024 + 1024 + 4096 tags */
	is(sim_hier_mem_size(&cfg), 6144 * sizeof(uintptr_t), "fallback config tag memory");
	is(sim_cache_mem_size(&fll), 4096 * sizeof(uintptr_t), "one level's tag memory");
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_OK, "fallback config initialises");
	ok(h.level[SIM_LL].sets == 512 && h.level[SIM_LL].line_bits == 6,
	   "LL: 262144/64/8 = 512 sets, 64 = 2^6");
	is(sim_hier_init(&h, &cfg, mem, 6144 * sizeof(uintptr_t) - 1), SIM_ERR_MEM,
	   "one byte short");
	is(sim_hier_init(&h, &cfg, (char *)mem + 1, 6144 * sizeof(uintptr_t)), SIM_ERR_MEM,
	   "misaligned buffer");

	cfg.level[SIM_D1].geom.assoc = 3; /* 65536 % 192 != 0 */
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_ERR_SETS_NOT_POW2,
	   "a level's geometry error is returned");
	cfg.level[SIM_D1].geom.assoc = 2;
	cfg.level[SIM_LL].repl = SIM_REPL_PLRU;
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_ERR_UNSUPPORTED, "PLRU not built yet");
	cfg.level[SIM_LL].repl = SIM_REPL_LRU;
	cfg.level[SIM_LL].incl = SIM_INCL_INCLUSIVE;
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_ERR_UNSUPPORTED,
	   "inclusive not built yet");
	cfg.level[SIM_LL].incl = SIM_INCL_NINE;
	cfg.level[SIM_LL].next = SIM_I1; /* a cycle LL -> I1 -> LL */
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_ERR_CONFIG, "links must go down");
	cfg.level[SIM_LL].next = SIM_NONE;
	cfg.dentry = 3;
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_ERR_CONFIG, "entry beyond the levels");

	ok(mk(&h, small_l1, small_l1, (struct sim_geom){ 1024, 2, 64 }) == SIM_OK,
	   "16 B L1 lines, 64 B LL lines");
	is(sim_hier_min_line(&h), 16, "min line = 16");
}

static void test_start_state(void)
{
	struct sim_hier h;
	ok(mk(&h, small_l1, small_l1, small_ll) == SIM_OK, "small hierarchy");
	/* every tag starts 0: blk 0 (address 0..15) is present in every level */
	is(sim_D1_read(&h, 0x0, 1), 0, "address 0 hits at first");
	is(sim_I1_access(&h, 0x5, 3), 0, "I1 fetch in block 0 hits at first");
	is(sim_D1_read(&h, 0xF, 1), 0, "address 15 (same block) hits");
	/* 0x10 = blk 1, D1 set 1 = [0,0]: tag 1 absent; LL set 1 = [0,0,0,0] */
	is(sim_D1_read(&h, 0x10, 1), 2, "address 16 misses everywhere");
	/* 0x80 = blk 8 -> D1 set 0 = [0,0] -> miss, [8,0]; LL set 8: miss */
	is(sim_D1_read(&h, 0x80, 1), 2, "blk 8 in D1 set 0 misses");
	/* blk 0 is still in D1 set 0 at position 1 -> hit, [0,8] */
	is(sim_D1_read(&h, 0x0, 8), 0, "blk 0 still there (2-way)");
	/* blk 16 (0x100) -> D1 set 0 = [0,8]: miss, evicts 8 -> [16,0] */
	is(sim_D1_read(&h, 0x100, 1), 2, "blk 16 evicts blk 8, the LRU");
	is(sim_D1_read(&h, 0x0, 1), 0, "blk 0 survives: it was most recent");
	/* blk 8: D1 miss; LL set 8 = [8,0,0,0] from before -> hit */
	is(sim_D1_read(&h, 0x80, 1), 1, "blk 8 gone from D1, still in LL");

	sim_hier_reset(&h);
	is(sim_D1_read(&h, 0x10, 1), 2, "after reset blk 1 misses again");
	is(sim_D1_read(&h, 0x0, 1), 0, "and blk 0 hits again");
}

static void test_lru(void)
{
	struct sim_hier h;
	mk(&h, small_l1, small_l1, small_ll);
	/* D1 (8 sets, 2-way): blks 1 (0x10), 9 (0x90), 17 (0x110) share set 1.
	 * LL (16 sets, 4-way): blks 1 and 17 share LL set 1, blk 9 is in set 9. */
	/* D1 set1 [1,0] miss; LL set1 [1,0,0,0] miss */
	is(sim_D1_read(&h, 0x10, 4), 2, "blk 1: cold miss");
	/* D1 set1 [9,1] miss; LL set9 [9,0,0,0] miss */
	is(sim_D1_read(&h, 0x90, 4), 2, "blk 9: cold miss");
	/* D1 set1 [9,1] -> hit at position 1 -> [1,9] */
	is(sim_D1_read(&h, 0x14, 4), 0, "blk 1 re-referenced: hit, now MRU");
	/* D1 set1 [1,9]: 17 absent, evict LRU 9 -> [17,1]; LL set1 [1,0,0,0]:
	 * miss -> [17,1,0,0] */
	is(sim_D1_read(&h, 0x110, 4), 2, "blk 17: evicts blk 9 (LRU), not blk 1");
	/* D1 set1 [17,1]: 9 absent -> miss, [9,17]; LL set9 [9,0,0,0] -> hit.
	 * (FIFO would have evicted blk 1, the oldest fill, and hit here.) */
	is(sim_D1_read(&h, 0x90, 4), 1, "blk 9 was evicted from D1, hits LL");
	/* D1 set1 [9,17]: 1 absent -> miss, [1,9]; LL set1 [17,1,0,0] -> hit,
	 * [1,17,0,0] */
	is(sim_D1_read(&h, 0x10, 4), 1, "blk 1 now evicted in turn");
	/* D1 set1 [1,9]: 17 absent -> miss, [17,1]; LL set1 hit -> [17,1,0,0] */
	is(sim_D1_read(&h, 0x110, 4), 1, "blk 17 evicted blk 9 again");
	/* same block as 0x10: D1 set1 [17,1] -> hit -> [1,17] */
	is(sim_D1_read(&h, 0x18, 8), 0, "blk 1 hit (other bytes of the line)");

	/* writes are reads: D1 set1 [1,17]: 9 absent -> miss, write-allocate ->
	 * [9,1]; LL set9 [9,0,0,0] -> hit */
	is(sim_D1_write(&h, 0x90, 8), 1, "write miss, LL hit");
	/* D1 set1 [9,1] -> hit */
	is(sim_D1_read(&h, 0x9F, 1), 0, "write-allocate: the written line is in D1");
	/* D1 set1 [9,1]: 17 absent -> miss, [17,9]; LL set1 [17,1,0,0] -> hit */
	is(sim_D1_write(&h, 0x110, 2), 1, "write evicts like a read");
	/* D1 set1 [17,9]: 1 absent -> miss, [1,17]; LL set1 [17,1,0,0] -> hit */
	is(sim_D1_read(&h, 0x10, 4), 1, "blk 1 evicted by the write");

	/* I1 and D1 are separate, LL is shared: I1 set1 is still [0,0] -> miss;
	 * LL set1 [1,17,0,0] -> hit */
	is(sim_I1_access(&h, 0x110, 4), 1, "I1 miss served by the shared LL");
	/* I1 set1 [17,0] -> hit */
	is(sim_I1_access(&h, 0x114, 4), 0, "I1 now holds blk 17");
}

/* sim_level_mru_hit: true only for an access within one line that is the
 * most recent of its set (D1 here: 8 sets, 2-way, lines of 16 bytes). */
static void test_mru_hit(void)
{
	struct sim_hier h;
	mk(&h, small_l1, small_l1, small_ll);
	struct sim_level *d1 = &h.level[SIM_D1];
	ok(!sim_level_mru_hit(d1, 0x10, 4), "cold: blk 1 not present");
	sim_D1_read(&h, 0x10, 4); /* set1 [1,0] */
	ok(sim_level_mru_hit(d1, 0x1c, 4), "0x1c..0x1f: blk 1, MRU of set 1");
	ok(!sim_level_mru_hit(d1, 0x1e, 4), "0x1e..0x21 straddles into blk 2");
	sim_D1_read(&h, 0x90, 4); /* set1 [9,1] */
	ok(!sim_level_mru_hit(d1, 0x10, 4), "blk 1 present but no longer MRU");
	ok(sim_level_mru_hit(d1, 0x9f, 1), "blk 9 is MRU");
	ok(sim_level_mru_hit(d1, 0x90, 0), "size 0 taken as 1");
	/* what sim_level_ref does when it says yes: a hit, no change */
	is(sim_D1_read(&h, 0x94, 4), 0, "the MRU hit is a hit");
	ok(sim_level_mru_hit(d1, 0x90, 4) && !sim_level_mru_hit(d1, 0x10, 4),
	   "and the set's order is unchanged");
}

static void test_ll_only_on_miss(void)
{
	struct sim_hier h;
	/* I1 and D1: 64 B direct-mapped, 16 B lines = 4 sets; LL: 128 B 2-way,
	 * 16 B lines = 4 sets.  Blks 1 (0x10), 5 (0x50), 9 (0x90) all map to set 1
	 * everywhere. */
	ok(mk(&h, (struct sim_geom){ 64, 1, 16 }, (struct sim_geom){ 64, 1, 16 },
	      (struct sim_geom){ 128, 2, 16 }) == SIM_OK,
	   "direct-mapped L1s, 2-way LL");
	/* D1 set1 [1]; LL set1 [1,0] */
	is(sim_D1_read(&h, 0x10, 1), 2, "D1 blk 1 cold");
	/* I1 set1 [5]; LL set1 [5,1] */
	is(sim_I1_access(&h, 0x50, 1), 2, "I1 blk 5 cold");
	/* D1 set1 [1]: hit.  LL is not looked up, stays [5,1] (were it
	 * touched, it would be [1,5]) */
	is(sim_D1_read(&h, 0x10, 1), 0, "D1 hit leaves LL alone");
	/* I1 set1 [5] -> miss [9]; LL set1 [5,1] -> miss, evicts LRU 1 -> [9,5]
	 * (with [1,5] it would have evicted 5) */
	is(sim_I1_access(&h, 0x90, 1), 2, "I1 blk 9 evicts blk 1 from LL");
	/* I1 set1 [9] -> miss [5]; LL set1 [9,5] -> hit, [5,9].  (Had the D1 hit
	 * touched LL, blk 5 would be gone and this would be 2.) */
	is(sim_I1_access(&h, 0x50, 1), 1, "blk 5 still in LL");
	/* no back-invalidation: D1 set1 still [1] although LL dropped blk 1 */
	is(sim_D1_read(&h, 0x10, 1), 0, "D1 keeps blk 1 (not inclusive)");
	/* D1 set1 [1] -> miss [5]; LL [5,9] -> hit */
	is(sim_D1_read(&h, 0x50, 1), 1, "D1 blk 5 from LL");
	/* D1 set1 [5] -> miss [1]; LL [5,9] -> miss: blk 1 really left LL */
	is(sim_D1_read(&h, 0x10, 1), 2, "blk 1 misses LL: it was evicted there");
}

static void test_straddle(void)
{
	struct sim_hier h;

	/* 0x1E size 4 covers 0x1E..0x21: blks 1 and 2 (D1 sets 1, 2; LL sets 1,
	 * 2).  Cold: both lines miss in D1, one access, one miss (the caller
	 * adds 1 to D1mr); LL looked up with the same address and size: both
	 * miss -> one LL miss */
	mk(&h, small_l1, small_l1, small_ll);
	is(sim_D1_read(&h, 0x1E, 4), 2, "both lines miss: one miss at each level");
	is(sim_D1_read(&h, 0x1E, 4), 0, "both lines now hit: one hit");
	is(sim_D1_read(&h, 0x20, 1), 0, "the second line was filled");

	/* only the second line misses: blk 1 loaded first */
	mk(&h, small_l1, small_l1, small_ll);
	is(sim_D1_read(&h, 0x10, 1), 2, "blk 1 cold");
	/* D1: blk 1 hit, blk 2 miss -> miss; LL: blk 1 hit, blk 2 miss -> miss */
	is(sim_D1_read(&h, 0x1E, 4), 2, "second line misses: a miss");

	/* second line misses in D1 only: an I1 fetch brought blk 2 into LL */
	mk(&h, small_l1, small_l1, small_ll);
	is(sim_I1_access(&h, 0x20, 4), 2, "I1 blk 2 cold (LL set 2 gets blk 2)");
	is(sim_D1_read(&h, 0x10, 1), 2, "D1 blk 1 cold (LL set 1 gets blk 1)");
	/* D1: blk 1 hit, blk 2 miss -> miss; LL: both hit -> hit */
	is(sim_D1_read(&h, 0x1E, 4), 1, "D1 miss, LL hit on both lines");

	/* the second line is looked up (and made MRU) even after the first
	 * missed */
	mk(&h, small_l1, small_l1, small_ll);
	/* D1 set2: [2,0] then [10,2] (blk 10 = 0xA0) */
	is(sim_D1_read(&h, 0x20, 1), 2, "blk 2 cold");
	is(sim_D1_read(&h, 0xA0, 1), 2, "blk 10 cold, D1 set2 [10,2]");
	/* blk 1 misses (set1 [1,0]); blk 2 hits -> set2 [2,10]; LL blk 1 miss */
	is(sim_D1_read(&h, 0x1E, 4), 2, "first line misses");
	/* blk 18 (0x120) -> D1 set2 [2,10]: evicts 10 -> [18,2]; LL set2 holds
	 * [2,0,0,0] (blk 10 is in LL set 10) -> miss */
	is(sim_D1_read(&h, 0x120, 1), 2, "blk 18 evicts blk 10");
	/* D1 set2 [18,2] -> hit.  (Had blk 2 not been looked up by the
	 * straddling access, set2 would have been [10,2] and blk 18 would have
	 * evicted blk 2.) */
	is(sim_D1_read(&h, 0x20, 1), 0, "blk 2 survived: the second line was updated");

	/* LL with 64 B lines sees the same access differently: 0x1E..0x21 is
	 * one LL block (0x1E >> 6 = 0x21 >> 6 = 0), blk 0, present at start */
	mk(&h, small_l1, small_l1, (struct sim_geom){ 1024, 2, 64 });
	is(sim_D1_read(&h, 0x1E, 4), 1, "D1 straddles (miss), LL does not (start-state hit)");
	/* I1 0x3E..0x41: I1 blks 3, 4 miss; LL blks 0 (hit) and 1 (LL set 1 of
	 * 8, cold: miss) -> LL miss */
	is(sim_I1_access(&h, 0x3E, 4), 2, "both levels straddle; LL's second line misses");

	/* beyond cachegrind (it asserts): 0x10 size 40 covers blks 1, 2, 3 */
	mk(&h, small_l1, small_l1, small_ll);
	is(sim_D1_read(&h, 0x10, 40), 2, "three lines: one access");
	is(sim_D1_read(&h, 0x30, 16), 0, "the third line was filled");
	/* size 0 is taken as 1: blk 4 (0x40) cold */
	is(sim_D1_read(&h, 0x40, 0), 2, "size 0 = one byte");
	is(sim_D1_read(&h, 0x40, 1), 0, "and it filled the line");
}

static void test_default_geometry(void)
{
	struct sim_hier h;
	/* cachegrind's fallback: D1 64 KB 2-way 64 B: 512 sets; blocks b, b+512,
	 * b+1024 share a set.  0x10000 = blk 1024, 0x20000 = blk 2048, both set 0.
	 * LL 256 KB 8-way: 512 sets; all three blks 0, 1024, 2048 in LL set 0. */
	mk(&h, (struct sim_geom)SIM_FALLBACK_X86_I1, (struct sim_geom)SIM_FALLBACK_X86_D1,
	   (struct sim_geom)SIM_FALLBACK_X86_LL);
	is(sim_D1_read(&h, 0x0, 8), 0, "blk 0 hits at start");
	/* D1 set0 [0,0] -> miss [1024,0]; LL set0 [0 x8] -> miss [1024,0,...] */
	is(sim_D1_read(&h, 0x10000, 8), 2, "blk 1024 cold");
	/* D1 set0 [1024,0] -> miss, drops the remaining 0: [2048,1024]; blk 0 is
	 * gone from D1 */
	is(sim_D1_read(&h, 0x20000, 8), 2, "blk 2048 cold");
	/* D1 set0 [2048,1024]: 0 absent -> miss [0,2048]; LL set0: [2048,1024,
	 * 0,0,0,0,0,0] -> 0 present -> hit */
	is(sim_D1_read(&h, 0x0, 8), 1, "blk 0 evicted from D1 (both zero tags gone)");
	/* 8-byte read at 0x3C crosses into blk 1 (0x40): D1 set0 [0,2048] hit,
	 * D1 set1 [0,0] miss -> miss; LL blk 0 hit, blk 1 (set 1) miss */
	is(sim_D1_read(&h, 0x3C, 8), 2, "straddle 64 B line");
}

static void test_loop_branch(void)
{
	static struct sim_branch b;
	const uintptr_t pc = 0x401000; /* low 7 bits 0 */
	int runs[5];

	sim_branch_init(&b, SIM_BR_LO_ZERO_BITS_X86);
	for (int r = 0; r < 5; r++) {
		runs[r] = 0;
		for (int i = 0; i < 10; i++)
			runs[r] += sim_cond_branch(&b, pc, i < 9);
	}
	/* Counter c[h] (the address part is the same, 0) for history h (7 bits,
	 * newest outcome in bit 0).  All counters start 0, h starts 0.
	 * Run 1 (T x9, N): taken 1-7 at h = 0,1,3,7,15,31,63: each c is 0 ->
	 *   predicted N: 7 mispredicts, each c -> 1; then h = 127.
	 *   8th: c[127] 0 -> mispredict, -> 1.  9th: c[127] 1 -> mispredict,
	 *   -> 2.  10th (N): c[127] 2 predicts T -> mispredict, -> 1; h = 126.
	 *   10 mispredicts. */
	is(runs[0], 10, "loop run 1: all 10 mispredicted");
	/* Run 2: h = 126,125,123,119,111,95 (one 0 bit moving up): fresh
	 *   counters -> 6 mispredicts, each -> 1; h = 63: c[63] 1 -> mispredict,
	 *   -> 2; h = 127: c[127] 1 -> mispredict, -> 2; c[127] 2 -> correct,
	 *   -> 3; N: c[127] 3 -> mispredict, -> 2.  6 + 1 + 1 + 1 = 9. */
	is(runs[1], 9, "loop run 2: 9 mispredicted");
	/* Run 3: c[126..95] are 1 -> 6 mispredicts (-> 2); c[63] 2 correct;
	 *   c[127] 2, 3 correct; N at c[127] 3 mispredicts (-> 2).  7. */
	is(runs[2], 7, "loop run 3: 7 mispredicted");
	/* Run 4: every counter on the taken path >= 2 -> correct; the exit
	 *   still meets c[127] >= 2 -> 1 mispredict.  Run 5 the same. */
	is(runs[3], 1, "loop run 4: only the exit");
	is(runs[4], 1, "loop run 5: steady state");
}

static void test_alternating(void)
{
	static struct sim_branch b;
	int first = 0, later = 0;

	sim_branch_init(&b, 0);
	for (int i = 0; i < 20; i++) {
		bool m = sim_cond_branch(&b, 0x2000, i % 2 == 0); /* T, N, T, N ... */
		if (i < 10)
			first += m;
		else
			later += m;
	}
	/* Counters c[h], h = history before the branch:
	 *  1 T  h=0    c 0 -> mis, 1      2 N  h=1   c 0 -> ok
	 *  3 T  h=2    c 0 -> mis, 1      4 N  h=5   c 0 -> ok
	 *  5 T  h=10   c 0 -> mis, 1      6 N  h=21  c 0 -> ok
	 *  7 T  h=42   c 0 -> mis, 1      8 N  h=85  c 0 -> ok, h = 170&127 = 42
	 *  9 T  h=42   c 1 -> mis, 2     10 N  h=85  c 0 -> ok
	 * 11 T  h=42   c 2 -> ok, 3      12 N  h=85  ok ... from here on every
	 * branch is predicted.  5 mispredicts, all in the first ten.  (A single
	 * counter without history would mispredict every taken one: 10.) */
	is(first, 5, "alternating: 5 mispredicts while learning");
	is(later, 0, "alternating: history predicts it perfectly afterwards");
}

static void test_history_and_aliasing(void)
{
	static struct sim_branch b;
	int m = 0;

	sim_branch_init(&b, 0);
	/* 7 taken at 0x10: h = 0,1,3,...,63, counters fresh -> 7 mispredicts;
	 * then h = 127 */
	for (int i = 0; i < 7; i++)
		m += sim_cond_branch(&b, 0x10, true);
	is(m, 7, "7 cold taken branches mispredicted");
	/* index (127 << 7) | 0x20: c 0 -> mis, 1; h stays 127 */
	ok(sim_cond_branch(&b, 0x20, true), "0x20 cold: mispredict");
	/* 0xA0 & 127 = 0x20: the same counter, 1 -> mis, 2 */
	ok(sim_cond_branch(&b, 0xA0, true), "0xA0 shares 0x20's counter (1): mispredict");
	/* 0x20: counter 2 -> predicted taken; -> 3 */
	ok(!sim_cond_branch(&b, 0x20, true), "0x20 predicted: 0xA0 trained its counter");
	/* 0x21: its own counter, 0 -> mis */
	ok(sim_cond_branch(&b, 0x21, true), "0x21 has its own counter");
	/* 0x20 not taken: counter 3 predicts taken -> mis; -> 2; h = 126 */
	ok(sim_cond_branch(&b, 0x20, false), "0x20 not taken: mispredict");
	/* 0x20 taken with h = 126: counter (126 << 7) | 0x20 is 0 -> mis */
	ok(sim_cond_branch(&b, 0x20, true), "another history, another counter");

	/* arm64-like: 2 low bits dropped before indexing */
	sim_branch_init(&b, 2);
	/* not taken from the start state: counter (0, 0) is 0 -> predicted;
	 * h stays 0 */
	ok(!sim_cond_branch(&b, 0x0, false), "not taken predicted at start");
	/* 7 taken at 0x0 (address part 0): h = 0,1,...,63, all cold -> 7
	 * mispredicts; then h = 127 */
	m = 0;
	for (int i = 0; i < 7; i++)
		m += sim_cond_branch(&b, 0x0, true);
	is(m, 7, "lo-zero 2: 7 cold taken branches");
	/* (0x100 >> 2) & 127 = 0x40: counter (127, 0x40) 0 -> mis, 1 */
	ok(sim_cond_branch(&b, 0x100, true), "lo-zero 2: 0x100 cold");
	/* (0x101 >> 2) & 127 = 0x40: the same counter, 1 -> mis, 2 */
	ok(sim_cond_branch(&b, 0x101, true), "lo-zero 2: 0x101 shares it (1)");
	/* (0x103 >> 2) & 127 = 0x40: 2 -> predicted taken */
	ok(!sim_cond_branch(&b, 0x103, true), "lo-zero 2: 0x103 predicted from 0x100/0x101");
}

static void test_indirect(void)
{
	static struct sim_branch b;

	sim_branch_init(&b, 0);
	/* slot 0x4000 & 511 = 0 holds target 0 at start */
	ok(!sim_ind_branch(&b, 0x4000, 0), "target 0 predicted at start");
	ok(sim_ind_branch(&b, 0x4000, 0x1000), "new target: mispredict");
	ok(!sim_ind_branch(&b, 0x4000, 0x1000), "same target: predicted");
	ok(sim_ind_branch(&b, 0x4000, 0x2000), "target changes: mispredict");
	ok(!sim_ind_branch(&b, 0x4000, 0x2000), "repeat: predicted");
	ok(sim_ind_branch(&b, 0x4000, 0x1000), "back to the first target: mispredict");
	/* 0x4200 & 511 = 0: aliases 0x4000's slot, which holds 0x1000 */
	ok(!sim_ind_branch(&b, 0x4200, 0x1000), "aliasing branch 512 B away predicted");
	/* 0x4001 & 511 = 1: slot 1 holds 0 */
	ok(sim_ind_branch(&b, 0x4001, 0x1000), "neighbouring address, own slot");

	sim_branch_init(&b, 2);
	ok(sim_ind_branch(&b, 0x100, 0x5000), "lo-zero 2: cold");
	/* (0x101 >> 2) & 511 = 0x40 = (0x100 >> 2) & 511 */
	ok(!sim_ind_branch(&b, 0x101, 0x5000), "lo-zero 2: 0x101 shares 0x100's slot");
}

int main(void)
{
	test_geom_check();
	test_tweak_ll();
	test_pick();
	test_init();
	test_start_state();
	test_lru();
	test_mru_hit();
	test_ll_only_on_miss();
	test_straddle();
	test_default_geometry();
	test_loop_branch();
	test_alternating();
	test_history_and_aliasing();
	test_indirect();
	return tap_done();
}
