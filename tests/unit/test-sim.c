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
#include <string.h>

#include "sim/branch.h"
#include "sim/cache.h"
#include "sim/model.h"
#include "sim/mrc.h"
#include "sim/use.h"
#include "tap.h"

/* tag memory for the hierarchies below (the largest, cachegrind's fallback
 * configuration, needs (1024 + 1024 + 4096) tags) */
static uintptr_t mem[8192] __attribute__((aligned(8)));

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
	/* LL 262144/64/8 = 512 sets: 512 words of PLRU bits after the tags */
	cfg.level[SIM_LL].repl = SIM_REPL_PLRU;
	is(sim_hier_mem_size(&cfg), 6144 * sizeof(uintptr_t) + 512 * 8, "PLRU state after the tags");
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_OK, "PLRU on 8 ways");
	ok(!h.simple, "a PLRU level makes the hierarchy not simple");
	ok(h.level[SIM_LL].plru == (uint64_t *)(void *)(mem + 6144), "its bits follow all the tags");
	cfg.level[SIM_LL].geom = (struct sim_geom){ 196608, 12, 64 }; /* 256 sets */
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_ERR_PLRU_ASSOC, "PLRU on 12 ways");
	ok(!sim_repl_ok(SIM_REPL_PLRU, 12) && sim_repl_ok(SIM_REPL_LRU, 12) &&
		   sim_repl_ok(SIM_REPL_SRRIP, 12) && !sim_repl_ok(SIM_REPL_PLRU, 128) &&
		   sim_repl_ok(SIM_REPL_PLRU, 1),
	   "PLRU needs a power of two <= 64, the others take any");
	cfg.level[SIM_LL].geom = fll;
	cfg.level[SIM_LL].repl = SIM_REPL_LRU;
	cfg.level[SIM_LL].incl = SIM_INCL_EXCLUSIVE;
	cfg.level[SIM_LL].prefetch = SIM_PF_NEXT;
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_ERR_PF_EXCL, "no prefetch on exclusive");
	cfg.level[SIM_LL].prefetch = 0;
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_OK, "exclusive LL");
	ok(h.level[SIM_LL].above == 3u && h.level[SIM_I1].above == 0,
	   "LL is below levels 0 and 1");
	cfg.level[SIM_LL].incl = SIM_INCL_NINE;
	cfg.level[SIM_LL].write = (enum sim_write)7;
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_ERR_CONFIG, "a write policy out of range");
	cfg.level[SIM_LL].write = SIM_WRITE_NONE;
	is(sim_hier_init(&h, &cfg, mem, sizeof(mem)), SIM_OK, "cachegrind's again");
	ok(h.simple, "cachegrind's hierarchy is simple");
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

/* ---- models beyond cachegrind's ------------------------------------------------ */

/* A chain of unified levels l[0] -> l[1] -> ... (fetches and data both
 * enter at l[0]), every other setting cachegrind's unless changed by the
 * caller in *cfg before init_chain. */
static void chain_cfg(struct sim_hier_cfg *cfg, unsigned n, const struct sim_geom *g)
{
	struct sim_geom z = { 0, 0, 0 };
	sim_cfg_cachegrind(cfg, &z, &z, &z);
	cfg->nlevels = n;
	for (unsigned i = 0; i < n; i++) {
		cfg->level[i].geom = g[i];
		cfg->level[i].next = i + 1 < n ? i + 1 : SIM_NONE;
	}
	cfg->ientry = cfg->dentry = 0;
}

static int init_chain(struct sim_hier *h, const struct sim_hier_cfg *cfg)
{
	return sim_hier_init(h, cfg, mem, sizeof(mem));
}

/* the L2 behind the one-set L1s below: 4 KB, 4-way, 16 B lines = 64 sets,
 * blocks 1 .. 63 each in a set of their own, so the first touch of a block
 * misses it and every later one hits (the L1 is what is tested) */
static const struct sim_geom big_l2 = { 4096, 4, 16 };

/* An L1 of one set of `assoc` 16 B lines with policy `repl`, over big_l2. */
static void one_set(struct sim_hier *h, uint32_t assoc, enum sim_repl repl)
{
	struct sim_hier_cfg cfg;
	struct sim_geom g[2] = { { 16 * assoc, assoc, 16 }, big_l2 };
	chain_cfg(&cfg, 2, g);
	cfg.level[0].repl = repl;
	ok(init_chain(h, &cfg) == SIM_OK, "one set of %u ways, policy %d", assoc, (int)repl);
}

#define R(h, blk) sim_D1_read(h, (uintptr_t)(blk) * 16, 4)
#define W(h, blk) sim_D1_write(h, (uintptr_t)(blk) * 16, 4)

static void test_plru(void)
{
	struct sim_hier h;
	/* 4 ways: nodes 1 (root), 2 (ways 0, 1), 3 (ways 2, 3); bits start 0
	 * (the victim is way 0); tags start 0. */
	one_set(&h, 4, SIM_REPL_PLRU);
	/* victim: root 0 -> node 2, bit 0 -> way 0; touch way 0 sets bit2 = 1,
	 * bit1 = 1 */
	is(R(&h, 1), 2, "blk 1 fills way 0");
	/* victim: bit1 1 -> node 3, bit3 0 -> way 2; touch way 2: bit3 = 1,
	 * bit1 = 0 */
	is(R(&h, 2), 2, "blk 2 fills way 2");
	/* victim: bit1 0 -> node 2, bit2 1 -> way 1; touch: bit2 = 0, bit1 = 1 */
	is(R(&h, 3), 2, "blk 3 fills way 1");
	/* victim: bit1 1 -> 3, bit3 1 -> way 3; touch: bit3 = 0, bit1 = 0 */
	is(R(&h, 4), 2, "blk 4 fills way 3");
	ok(h.level[0].tags[0] == 1 && h.level[0].tags[1] == 3 && h.level[0].tags[2] == 2 &&
		   h.level[0].tags[3] == 4,
	   "ways hold blks 1, 3, 2, 4");
	is(h.level[0].plru[0], 0, "and every bit is back to 0");
	/* blk 2 (way 2): bit3 = 1, bit1 = 0; blk 3 (way 1): bit2 = 0, bit1 = 1 */
	is(R(&h, 2), 0, "blk 2 hits");
	is(R(&h, 3), 0, "blk 3 hits");
	is(h.level[0].plru[0], (1u << 1) | (1u << 3), "bits 1 and 3 set");
	/* victim: bit1 1 -> node 3, bit3 1 -> way 3 = blk 4, although blk 1 is
	 * the least recently used (LRU would evict it); touch way 3: bit3 = 0,
	 * bit1 = 0 */
	is(R(&h, 5), 2, "blk 5 evicts blk 4 (way 3), not the LRU blk 1");
	is(R(&h, 1), 0, "blk 1 survived (true LRU would have evicted it)");
	/* blk 1 (way 0): bit2 = 1, bit1 = 1; blk 4: victim bit1 1 -> 3, bit3 0 ->
	 * way 2 (blk 2) */
	is(R(&h, 4), 1, "blk 4 misses L1, hits L2");
	is(R(&h, 2), 1, "blk 2 was its victim");

	/* 2 ways: one node; 1 way: no node, always way 0 */
	one_set(&h, 2, SIM_REPL_PLRU);
	is(R(&h, 1), 2, "2-way: blk 1 in way 0 (bit1 -> 1)");
	is(R(&h, 2), 2, "blk 2 in way 1 (bit1 -> 0)");
	is(R(&h, 1), 0, "blk 1 hits (bit1 -> 1)");
	is(R(&h, 3), 2, "blk 3 replaces way 1 (blk 2): PLRU of 2 ways is LRU");
	is(R(&h, 1), 0, "blk 1 stays");
}

static void test_fifo(void)
{
	struct sim_hier h;
	one_set(&h, 2, SIM_REPL_FIFO);
	is(R(&h, 1), 2, "FIFO: blk 1 [1,0]");
	is(R(&h, 2), 2, "blk 2 [2,1]");
	is(R(&h, 1), 0, "blk 1 hits, order unchanged [2,1]");
	/* the oldest fill (blk 1) goes, though it was used last; LRU would have
	 * evicted blk 2 */
	is(R(&h, 3), 2, "blk 3 [3,2]: the oldest fill goes");
	is(R(&h, 1), 1, "blk 1 misses (LRU would hit)");
	is(R(&h, 3), 0, "blk 3 hits [1,3]");
}

static void test_random(void)
{
	struct sim_hier h;
	/* xorshift32 (13, 17, 5) from 2463534242 gives 723471715, 2497366906,
	 * 2064144800, 2008045182, ... (Marsaglia 2003); % 4 = 3, 2, 0, 2 */
	one_set(&h, 4, SIM_REPL_RANDOM);
	is(R(&h, 1), 2, "random: blk 1 to way 3");
	is(R(&h, 2), 2, "blk 2 to way 2");
	is(R(&h, 3), 2, "blk 3 to way 0");
	ok(h.level[0].tags[0] == 3 && h.level[0].tags[1] == 0 && h.level[0].tags[2] == 2 &&
		   h.level[0].tags[3] == 1,
	   "ways hold blks 3, 0, 2, 1");
	is(R(&h, 1), 0, "blk 1 hits: nothing changes");
	is(R(&h, 4), 2, "blk 4 to way 2, replacing blk 2");
	is(R(&h, 2), 1, "blk 2 is gone");
	sim_hier_reset(&h);
	is(R(&h, 5), 2, "after a reset the generator starts again: way 3");
	is(h.level[0].tags[3], 5, "blk 5 in way 3");
}

static void test_rrip(void)
{
	struct sim_hier h;
	const uint8_t *r;
	/* SRRIP, 4 ways: RRPVs start [3,3,3,3]; a miss takes the first way at
	 * 3, ageing all by the same amount until one is; a fill sets 2, a hit 0 */
	one_set(&h, 4, SIM_REPL_SRRIP);
	r = h.level[0].rrpv;
	is(R(&h, 1), 2, "SRRIP: blk 1 to way 0 [2,3,3,3]");
	is(R(&h, 2), 2, "blk 2 to way 1 [2,2,3,3]");
	is(R(&h, 3), 2, "blk 3 to way 2 [2,2,2,3]");
	is(R(&h, 4), 2, "blk 4 to way 3 [2,2,2,2]");
	is(R(&h, 1), 0, "blk 1 hits [0,2,2,2]");
	/* none at 3: +1 -> [1,3,3,3], way 1 (blk 2) -> [1,2,3,3] */
	is(R(&h, 5), 2, "blk 5 ages the set, replaces blk 2");
	ok(r[0] == 1 && r[1] == 2 && r[2] == 3 && r[3] == 3, "RRPVs [1,2,3,3]");
	is(R(&h, 6), 2, "blk 6 replaces blk 3 (way 2) [1,2,2,3]");
	is(R(&h, 1), 0, "blk 1 hits [0,2,2,3]");
	is(R(&h, 7), 2, "blk 7 replaces blk 4 (way 3) [0,2,2,2]");
	/* +1 -> [1,3,3,3]: way 1 (blk 5) */
	is(R(&h, 8), 2, "blk 8 replaces blk 5 (way 1) [1,2,3,3]");
	is(R(&h, 1), 0, "blk 1, used again and again, survives the scan");
	is(R(&h, 6), 0, "blk 6 too");
	is(R(&h, 5), 1, "blk 5 was replaced");

	/* BRRIP: a fill sets 3, but fill 0, 32, 64 ... sets 2 */
	one_set(&h, 4, SIM_REPL_BRRIP);
	r = h.level[0].rrpv;
	is(R(&h, 1), 2, "BRRIP: fill 0, blk 1 to way 0 at 2 [2,3,3,3]");
	is(R(&h, 2), 2, "fill 1, blk 2 to way 1 at 3");
	is(R(&h, 3), 2, "fill 2, blk 3 replaces blk 2 (way 1 is at 3 again)");
	is(h.level[0].tags[1], 3, "way 1 holds blk 3");
	is(R(&h, 2), 1, "blk 2 was replaced");
	is(R(&h, 1), 0, "blk 1 hits [0,...]");
	is(r[0], 0, "its RRPV is 0");
	for (unsigned i = 0; i < 28; i++)
		R(&h, 10 + i); /* fills 4 .. 31: each into way 1 (the first at 3) */
	is(h.level[0].fills, 32, "32 fills so far");
	ok(h.level[0].tags[1] == 37 && r[1] == 3, "way 1 holds the last, at 3");
	is(R(&h, 50), 2, "fill 32: blk 50 into way 1");
	is(r[1], 2, "inserted at 2 (every 32nd)");
	is(R(&h, 51), 2, "fill 33: blk 51 into way 2, the first way at 3");
	is(R(&h, 50), 0, "blk 50 survived");
}

static void test_inclusion(void)
{
	struct sim_hier h;
	struct sim_hier_cfg cfg;
	/* L1 and L2 both one set of 2 ways (16 B lines) */
	struct sim_geom g[2] = { { 32, 2, 16 }, { 32, 2, 16 } };

	chain_cfg(&cfg, 2, g);
	cfg.level[1].incl = SIM_INCL_INCLUSIVE;
	ok(init_chain(&h, &cfg) == SIM_OK, "inclusive L2");
	is(R(&h, 1), 2, "L1 [1,0], L2 [1,0]");
	is(R(&h, 2), 2, "L1 [2,1], L2 [2,1]");
	is(R(&h, 1), 0, "L1 hit [1,2]; L2 not touched, still [2,1]");
	/* L1 fills blk 3 evicting 2 -> [3,1]; L2 misses, evicts its LRU, blk 1
	 * -> [3,2], and invalidates blk 1 in L1 -> [3,-] */
	is(R(&h, 3), 2, "blk 3: L2 evicts blk 1");
	is(h.level[0].tags[1], SIM_INVALID, "and blk 1 is invalidated in L1");
	/* non-inclusive, blk 1 would hit L1 here */
	is(R(&h, 1), 2, "blk 1 misses L1 (back-invalidated) and L2");
	ok(h.level[0].tags[0] == 1 && h.level[0].tags[1] == 3, "L1 [1,3]: the empty way filled");

	chain_cfg(&cfg, 2, g);
	cfg.level[1].incl = SIM_INCL_EXCLUSIVE;
	ok(init_chain(&h, &cfg) == SIM_OK, "exclusive L2");
	/* L1 fills blk 1 evicting blk 0 (start state), which goes to L2 (there
	 * already: a hit); L2 misses blk 1 and is not filled */
	is(R(&h, 1), 2, "blk 1: L1 [1,0], L2 [0,0]");
	is(R(&h, 2), 2, "blk 2: L1 [2,1], L2 [0,0]");
	/* L1 evicts blk 1 into L2 -> [1,0] */
	is(R(&h, 3), 2, "blk 3: L1 [3,2], L2 takes blk 1 [1,0]");
	/* L1 evicts blk 2 into L2 [2,1]; L2 hits blk 1, which moves up: [2,-] */
	is(R(&h, 1), 1, "blk 1: an L2 hit, moved up");
	ok(h.level[1].tags[0] == 2 && h.level[1].tags[1] == SIM_INVALID, "L2 [2,-]");
	is(R(&h, 3), 0, "L1 [3,1] hit");
	/* L1 [3,1] evicts 1 into L2 [1,2]; L2 hits blk 2 -> [1,-] */
	is(R(&h, 2), 1, "blk 2 from L2: 4 lines held by 2 + 2 ways");
	is(R(&h, 1), 1, "blk 1 from L2 too");

	/* inclusive with longer lines below: an L2 line of 32 B covers two L1
	 * lines of 16 B; L1 4 sets x 2 ways, L2 one set of 2 ways.  (Block 0
	 * of the start state is invalidated in L1 along the way.) */
	g[0] = (struct sim_geom){ 128, 2, 16 };
	g[1] = (struct sim_geom){ 64, 2, 32 };
	chain_cfg(&cfg, 2, g);
	cfg.level[1].incl = SIM_INCL_INCLUSIVE;
	ok(init_chain(&h, &cfg) == SIM_OK, "inclusive L2 with 32 B lines");
	/* L1 blks 2 (set 0) and 3 (set 1) = L2 blk 1 */
	is(R(&h, 2), 2, "L1 blk 2, L2 blk 1 [1,0]");
	is(R(&h, 3), 1, "L1 blk 3 misses, L2 blk 1 hits");
	is(R(&h, 4), 2, "L2 blk 2 [2,1]");
	/* L2 blk 3 evicts L2 blk 1: L1 blks 2 and 3 both invalidated */
	is(R(&h, 6), 2, "L2 blk 3 evicts L2 blk 1");
	is(R(&h, 2), 2, "L1 blk 2 was invalidated (non-inclusive, a hit: set 2 [6,2])");
	is(R(&h, 3), 1, "L1 blk 3 too (L2 just got blk 1 back)");
}

static void test_write_back(void)
{
	struct sim_hier h;
	struct sim_hier_cfg cfg;
	/* L1 one set of 2 ways, L2 one set of 4 ways, both write-back */
	struct sim_geom g[2] = { { 32, 2, 16 }, { 64, 4, 16 } };
	unsigned r;

	chain_cfg(&cfg, 2, g);
	cfg.level[0].write = cfg.level[1].write = SIM_WRITE_BACK;
	ok(init_chain(&h, &cfg) == SIM_OK, "write-back L1 and L2");
	/* L1 [1d,0]; the line is read from L2 (a write-back L1 asks L2 for
	 * it): L2 [1,0,0,0] clean */
	is(W(&h, 1), 2, "write blk 1: L1 [1d,0], L2 [1,0,0,0]");
	ok(h.level[0].tags[0] == (1 | SIM_DIRTY) && h.level[1].tags[0] == 1,
	   "dirty in L1 only");
	is(R(&h, 2), 2, "read blk 2: L1 [2,1d], L2 [2,1,0,0]");
	/* L1 evicts blk 1, dirty: written to L2 (a hit there: [1d,2,0,0]),
	 * then L2 misses blk 3 -> [3,1d,2,0] */
	r = R(&h, 3);
	ok(SIM_RES_MISSED(r) == 2 && SIM_RES_DIRTY(r, 0) && !SIM_RES_DIRTY(r, 1),
	   "read blk 3: an L1 miss evicting a dirty line");
	is(h.level[0].writebacks, 1, "one write-back out of L1");
	ok(h.level[1].tags[1] == (1 | SIM_DIRTY), "blk 1 dirty in L2 now");
	is(R(&h, 4), 2, "blk 4: L2 [4,3,1d,2]");
	is(R(&h, 5), 2, "blk 5: L2 [5,4,3,1d] (evicts blk 2, clean)");
	r = R(&h, 6);
	ok(SIM_RES_MISSED(r) == 2 && !SIM_RES_DIRTY(r, 0) && SIM_RES_DIRTY(r, 1),
	   "blk 6: L2 evicts dirty blk 1 to memory");
	is(h.level[1].writebacks, 1, "one write-back out of L2");
	/* a write hit makes a clean line dirty */
	is(W(&h, 6), 0, "write blk 6: an L1 hit");
	ok(h.level[0].tags[0] == (6 | SIM_DIRTY), "now dirty in L1");
	ok(!sim_level_mru_hit_mark(&h.level[0], 6 * 16, 4, 0) &&
		   sim_level_mru_hit_mark(&h.level[0], 6 * 16, 4, SIM_DIRTY),
	   "the MRU check with the dirty mark");

	/* callgrind's --simulate-wb model: L1 write-through, L2 write-back */
	chain_cfg(&cfg, 2, g);
	cfg.level[0].write = SIM_WRITE_THROUGH;
	cfg.level[1].write = SIM_WRITE_BACK;
	ok(init_chain(&h, &cfg) == SIM_OK, "write-through L1, write-back L2");
	is(W(&h, 1), 2, "write blk 1: L1 [1,0] clean, the write goes on: L2 [1d,0,0,0]");
	ok(h.level[0].tags[0] == 1 && h.level[1].tags[0] == (1 | SIM_DIRTY), "dirty in L2 only");
	is(R(&h, 2), 2, "blk 2: L2 [2,1d,0,0]");
	/* an L1 hit, written through to L2: [2d,1d,0,0] */
	is(W(&h, 2), 0, "write blk 2: an L1 hit");
	ok(h.level[1].tags[0] == (2 | SIM_DIRTY), "written through: blk 2 dirty in L2");
	is(R(&h, 3), 2, "blk 3: L2 [3,2d,1d,0]");
	is(R(&h, 4), 2, "blk 4: L2 [4,3,2d,1d]");
	r = R(&h, 5);
	ok(SIM_RES_MISSED(r) == 2 && SIM_RES_DIRTY(r, 1), "blk 5 evicts blk 1, dirty");
	r = R(&h, 6);
	ok(SIM_RES_MISSED(r) == 2 && SIM_RES_DIRTY(r, 1), "blk 6 evicts blk 2, dirty");
	is(h.level[0].writebacks, 0, "a write-through L1 writes nothing back");
	is(h.level[1].writebacks, 2, "L2 wrote back two lines");
}

static void test_prefetch(void)
{
	struct sim_hier h;
	struct sim_hier_cfg cfg;
	/* L1: 4 sets, direct-mapped, 16 B lines; L2 big_l2 */
	struct sim_geom g[2] = { { 64, 1, 16 }, big_l2 };

	chain_cfg(&cfg, 2, g);
	cfg.level[0].prefetch = SIM_PF_NEXT;
	ok(init_chain(&h, &cfg) == SIM_OK, "next-line prefetch at L1");
	is(R(&h, 1), 2, "blk 1 misses; then blk 2 is fetched into L1 (and L2)");
	is(h.level[0].prefetches, 1, "one prefetch");
	is(R(&h, 2), 0, "blk 2 hits");
	is(R(&h, 2), 0, "a hit fetches nothing");
	is(h.level[0].prefetches, 1, "still one");
	is(R(&h, 3), 2, "blk 3 was not fetched");
	is(R(&h, 4), 0, "blk 4 was (after blk 3's miss)");
	/* a straddling miss fetches the line after its last */
	is(sim_D1_read(&h, 0x5e, 4), 2, "0x5e..0x61 (blks 5, 6) miss");
	is(R(&h, 7), 0, "blk 7 was fetched");

	/* stride, 16 sets (256 B direct-mapped L1) */
	g[0] = (struct sim_geom){ 256, 1, 16 };
	chain_cfg(&cfg, 2, g);
	cfg.level[0].prefetch = SIM_PF_STRIDE;
	ok(init_chain(&h, &cfg) == SIM_OK, "stride prefetch at L1");
	/* pc 0x400: entry 0 (0x400 % 64) */
	is(sim_ref(&h, SIM_ACC_READ, 0x1000, 8, 0x400), 2, "first access: the entry is made");
	is(sim_ref(&h, SIM_ACC_READ, 0x1030, 8, 0x400), 2, "stride 0x30 seen once");
	is(h.level[0].prefetches, 0, "nothing fetched yet");
	is(sim_ref(&h, SIM_ACC_READ, 0x1060, 8, 0x400), 2,
	   "stride seen twice: 0x1090 fetched after this miss");
	is(h.level[0].prefetches, 1, "one prefetch");
	is(sim_ref(&h, SIM_ACC_READ, 0x1090, 8, 0x400), 0, "0x1090 hits; 0x10c0 fetched");
	is(sim_ref(&h, SIM_ACC_READ, 0x10c0, 8, 0x400), 0, "0x10c0 hits; 0x10f0 fetched");
	/* another instruction of the same entry (0x440 % 64 = 0) takes it over */
	is(sim_ref(&h, SIM_ACC_READ, 0x2000, 8, 0x440), 2, "pc 0x440 replaces the entry");
	is(sim_ref(&h, SIM_ACC_READ, 0x10f0, 8, 0x400), 0,
	   "0x10f0 hits; pc 0x400 starts again, nothing fetched");
	is(sim_ref(&h, SIM_ACC_READ, 0x1120, 8, 0x400), 2, "0x1120 was not fetched");
	is(h.level[0].prefetches, 3, "three prefetches in all");
	/* fetches never train it */
	is(sim_ref(&h, SIM_ACC_FETCH, 0x3000, 4, 0x3000), 2, "a fetch");
	is(sim_ref(&h, SIM_ACC_FETCH, 0x3010, 4, 0x3010), 2, "a fetch");
	is(sim_ref(&h, SIM_ACC_FETCH, 0x3020, 4, 0x3020), 2, "a fetch: no prefetch");
	is(h.level[0].prefetches, 3, "still three");
}

static void test_mru_ok(void)
{
	struct sim_hier h;
	struct sim_hier_cfg cfg;
	struct sim_geom g[2] = { { 64, 1, 16 }, big_l2 };
	uintptr_t mark;

	chain_cfg(&cfg, 2, g);
	init_chain(&h, &cfg);
	ok(sim_level_mru_ok(&h.level[0], SIM_ACC_WRITE, &mark) && mark == 0, "LRU: writes");
	cfg.level[0].write = SIM_WRITE_BACK;
	init_chain(&h, &cfg);
	ok(sim_level_mru_ok(&h.level[0], SIM_ACC_WRITE, &mark) && mark == SIM_DIRTY,
	   "write-back: writes need the dirty mark");
	ok(sim_level_mru_ok(&h.level[0], SIM_ACC_READ, &mark) && mark == 0, "reads do not");
	cfg.level[0].write = SIM_WRITE_THROUGH;
	init_chain(&h, &cfg);
	ok(!sim_level_mru_ok(&h.level[0], SIM_ACC_WRITE, &mark), "write-through: never for writes");
	cfg.level[0].write = SIM_WRITE_NONE;
	cfg.level[0].prefetch = SIM_PF_STRIDE;
	init_chain(&h, &cfg);
	ok(!sim_level_mru_ok(&h.level[0], SIM_ACC_READ, &mark) &&
		   sim_level_mru_ok(&h.level[0], SIM_ACC_FETCH, &mark),
	   "a stride prefetcher sees every data access, not fetches");
	cfg.level[0].prefetch = 0;
	cfg.level[0].repl = SIM_REPL_SRRIP;
	init_chain(&h, &cfg);
	ok(!sim_level_mru_ok(&h.level[0], SIM_ACC_FETCH, &mark), "no MRU position in SRRIP");
}

/* ---- models: the text format and the events ------------------------------------ */

static bool parse(struct sim_model *m, const char *text, struct sim_msgs *msgs)
{
	return sim_model_parse(m, text, strlen(text), NULL, NULL, msgs);
}

static void test_config(void)
{
	struct sim_model m, host;
	struct sim_msgs msgs;
	uint32_t v;
	char name[8];

	ok(sim_parse_size("32K", 3, &v) && v == 32768, "32K");
	ok(sim_parse_size("2M", 2, &v) && v == 2097152, "2M");
	ok(sim_parse_size("64", 2, &v) && v == 64, "64");
	ok(!sim_parse_size("4G", 2, &v), "4G does not fit 32 bits");
	ok(!sim_parse_size("K", 1, &v) && !sim_parse_size("12Q", 3, &v) &&
		   !sim_parse_size("", 0, &v) && !sim_parse_size("1KB", 3, &v),
	   "not sizes");

	ok(parse(&m,
		 "# three levels\n"
		 "name = big\n"
		 "L1I: size=32K assoc=8 line=64\n"
		 "L1D: size=48K assoc=12 line=64 policy=plru write=back prefetch=stride\n"
		 "L2: size=2M assoc=16 line=64 policy=srrip inclusion=inclusive\n"
		 "L3:  size=32M assoc=16 line=64   # the LLC\n"
		 "LL: inclusion=exclusive write=back\n",
		 &msgs),
	   "a three-level model: %s", msgs.error.text);
	is_str(m.name, "big", "its name");
	is(m.cfg.nlevels, 4, "four caches");
	ok(m.number[0] == 1 && m.side[0] == SIM_SIDE_INSN && m.number[1] == 1 &&
		   m.side[1] == SIM_SIDE_DATA && m.number[2] == 2 && m.number[3] == 3,
	   "L1I, L1D, L2, L3 in that order");
	ok(m.cfg.ientry == 0 && m.cfg.dentry == 1 && m.cfg.level[0].next == 2 &&
		   m.cfg.level[1].next == 2 && m.cfg.level[2].next == 3 &&
		   m.cfg.level[3].next == SIM_NONE,
	   "linked I1 -> L2, D1 -> L2 -> L3");
	/* 48K 12-way: 64 sets; PLRU cannot take 12 ways */
	is(m.cfg.level[1].repl, SIM_REPL_LRU, "PLRU on 12 ways becomes LRU");
	is(msgs.nwarn, 1, "with a warning");
	is(msgs.warn[0].line, 4, "on the line of L1D");
	ok(strstr(msgs.warn[0].text, "L1D") && strstr(msgs.warn[0].text, "12"),
	   "naming the level and its ways: %s", msgs.warn[0].text);
	ok(m.cfg.level[1].write == SIM_WRITE_BACK && m.cfg.level[1].prefetch == SIM_PF_STRIDE,
	   "L1D's write and prefetch");
	ok(m.cfg.level[2].repl == SIM_REPL_SRRIP && m.cfg.level[2].incl == SIM_INCL_INCLUSIVE,
	   "L2's policies");
	ok(m.cfg.level[3].incl == SIM_INCL_EXCLUSIVE && m.cfg.level[3].write == SIM_WRITE_BACK &&
		   m.cfg.level[3].geom.size == 32u << 20,
	   "LL: keys applied to L3");
	sim_model_level_name(&m, 1, name);
	is_str(name, "L1D", "level name");

	struct sim_event_map map;
	sim_model_events(&m, &map);
	/* misses: I1mr D1mr D1mw L2mr L2mw ILmr DLmr DLmw; dirty: D1dmr D1dmw
	 * (L1D write-back), ILdmr DLdmr DLdmw (L3) */
	is(map.nevents, 13, "13 events");
	static const char *const want[13] = { "I1mr", "D1mr",  "D1mw",  "L2mr",	 "L2mw",
					      "ILmr", "DLmr",  "DLmw",  "D1dmr", "D1dmw",
					      "ILdmr", "DLdmr", "DLdmw" };
	for (unsigned i = 0; i < 13; i++)
		is_str(map.ev[i].name, want[i], "event %u", i);
	is_str(map.ev[3].desc, "L2 read misses (fetches and loads)", "a long name");
	is_str(map.ev[11].desc, "LL data read misses evicting a dirty line", "another");
	ok(map.miss[SIM_ACC_FETCH][0] == 0 && map.miss[SIM_ACC_FETCH][1] == 3 &&
		   map.miss[SIM_ACC_FETCH][2] == 5 && map.miss[SIM_ACC_FETCH][3] == SIM_NONE,
	   "a fetch missing 3 levels: I1mr, L2mr, ILmr");
	ok(map.miss[SIM_ACC_READ][1] == 3 && map.miss[SIM_ACC_WRITE][1] == 4 &&
		   map.miss[SIM_ACC_WRITE][2] == 7,
	   "data: L2mr / L2mw, then DLmw");
	ok(map.dirty[SIM_ACC_WRITE][0] == 9 && map.dirty[SIM_ACC_READ][1] == SIM_NONE &&
		   map.dirty[SIM_ACC_FETCH][2] == 10 && map.dirty[SIM_ACC_FETCH][0] == SIM_NONE,
	   "dirty events where write-back");

	/* cachegrind's model: exactly its six events */
	const struct sim_geom i1 = { 32768, 8, 64 }, ll = { 8388608, 16, 64 };
	sim_model_cachegrind(&host, &i1, &i1, &ll);
	sim_model_events(&host, &map);
	is(map.nevents, 6, "cachegrind's model: 6 events");
	ok(!strcmp(map.ev[0].name, "I1mr") && !strcmp(map.ev[1].name, "D1mr") &&
		   !strcmp(map.ev[2].name, "D1mw") && !strcmp(map.ev[3].name, "ILmr") &&
		   !strcmp(map.ev[4].name, "DLmr") && !strcmp(map.ev[5].name, "DLmw"),
	   "I1mr D1mr D1mw ILmr DLmr DLmw");

	/* a base, changed */
	const char *t1 = "base = cachegrind\nD1: policy=fifo\nLL: size=4M\n";
	ok(sim_model_parse(&m, t1, strlen(t1), NULL, &host, &msgs),
	   "base = cachegrind: %s", msgs.error.text);
	ok(m.cfg.nlevels == 3 && m.cfg.level[1].repl == SIM_REPL_FIFO &&
		   m.cfg.level[2].geom.size == 4u << 20 && m.cfg.level[2].geom.assoc == 16,
	   "D1 FIFO, LL 4 MB 16-way");
	ok(sim_model_set_geom(&m, SIM_LL, &i1) && m.cfg.level[2].geom.size == 32768,
	   "--LL on a model");
	ok(parse(&m, "L1: size=1K assoc=2 line=16\n", &msgs) && m.cfg.nlevels == 1 &&
		   m.cfg.ientry == 0 && m.cfg.dentry == 0,
	   "one unified level");
	ok(!sim_model_set_geom(&m, SIM_I1, &i1), "it has no I1");
	sim_model_events(&m, &map);
	ok(map.nevents == 3 && !strcmp(map.ev[0].name, "ILmr"), "its events: the last level's");

	/* errors, with their lines */
	static const struct {
		const char *text;
		unsigned line;
		const char *says;
	} bad[] = {
		{ "L1: size=1K assoc=2 line=16\nL3: size=1M assoc=8 line=64\n", 0, "no L2" },
		{ "L1I: size=1K assoc=2 line=16\n", 1, "needs its other side" },
		{ "L1: size=1K assoc=2\n", 1, "size, assoc and line are needed" },
		{ "L1: size=1000 assoc=2 line=16\n", 1, "power of two" },
		{ "\n\nL1: size=1K assoc=2 line=16 colour=red\n", 3, "unknown key 'colour'" },
		{ "L1: size=1K assoc=2 line=16 policy=mru\n", 1, "policy 'mru'" },
		{ "L5: size=1K assoc=2 line=16\n", 1, "unknown level 'L5'" },
		{ "L1: size=1K assoc=2 line=16 prefetch=next inclusion=exclusive\n", 1, "exclusive" },
		{ "name = a b\n", 1, "letters, digits" },
		{ "base = host\n", 1, "not known here" },
		{ "L1: size=1K assoc=2 line=16\nbase = cachegrind\n", 2, "before the levels" },
		{ "L1: size=1K assoc=2 line=16 size\n", 1, "key=value" },
		{ "colour = red\n", 1, "unknown setting" },
		{ "# nothing\n", 0, "no cache level" },
		{ "L1: size=1K assoc=2 line=16\nL2I: size=1K assoc=2 line=16\n"
		  "L2D: size=1K assoc=2 line=16\n",
		  2, "unified L1 cannot be above a split L2" },
	};
	ok(!parse(&m, "# host\nbase = cachegrind\n", &msgs) && msgs.need == SIM_NEED_CACHEGRIND,
	   "the base a text wants is said (not the word in its comment)");
	ok(!parse(&m, "base = host\n", &msgs) && msgs.need == SIM_NEED_HOST, "host wanted");
	ok(!parse(&m, "L1: size=1K assoc=2\n", &msgs) && msgs.need == 0, "no base wanted");
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ok(!parse(&m, bad[i].text, &msgs) && msgs.error.line == bad[i].line &&
			   strstr(msgs.error.text, bad[i].says),
		   "bad model %u: line %u '%s'", i, msgs.error.line, msgs.error.text);
	}

	/* the host's caches: this machine's kind of hierarchy, and one whose
	 * L3 has 12 ways and 24576 sets (not a power of two) */
	struct sim_detected det[4] = {
		{ SIM_KIND_DATA, 1, 32768, 8, 64, false },
		{ SIM_KIND_INSN, 1, 32768, 8, 64, false },
		{ SIM_KIND_UNIFIED, 2, 1048576, 8, 64, false },
		{ SIM_KIND_UNIFIED, 3, 18874368, 12, 64, false },
	};
	ok(sim_model_detected(&host, det, 4, &msgs), "a host model: %s", msgs.error.text);
	/* 18874368 / 64 / 12 = 24576 sets -> 16384, assoc 12 * 24576 / 16384 =
	 * 18 -> 64 * 18 * 16384 = 18874368 B */
	ok(host.cfg.nlevels == 4 && host.cfg.level[3].geom.assoc == 18 &&
		   host.cfg.level[3].geom.size == 18874368,
	   "L3 adjusted to 18 ways of 16384 sets");
	ok(msgs.nwarn == 1 && strstr(msgs.warn[0].text, "L3"), "with a warning: %s",
	   msgs.warn[0].text);
	const char *t2 = "name=mine\nbase=host\nL2: policy=plru\n";
	ok(sim_model_parse(&m, t2, strlen(t2), &host, NULL, &msgs) &&
		   m.cfg.level[2].repl == SIM_REPL_PLRU && m.cfg.nlevels == 4 &&
		   !strcmp(m.name, "mine"),
	   "base = host: %s", msgs.error.text);
	ok(sim_model_detected(&host, det, 2, &msgs) && host.cfg.nlevels == 2,
	   "L1I and L1D alone are a model");
	det[1].level = 2;
	ok(!sim_model_detected(&host, det, 4, &msgs), "an L1D without its L1I: refused");
}

/* ---- reuse distances (mrc.h) ---------------------------------------------------- */

static void test_mrc(void)
{
	static uint64_t mrc_mem[4096];
	struct sim_mrc m;
	uint64_t hist[SIM_MRC_NBUCKETS] = { 0 }, w;
	/* four buckets per power of two: 1 + 4k + the two bits after the top */
	is(sim_mrc_bucket(0), 0, "d 0: bucket 0");
	is(sim_mrc_bucket(1), 1, "d 1: bucket 1");
	is(sim_mrc_bucket(2), 5, "d 2: bucket 5");
	is(sim_mrc_bucket(3), 7, "d 3: bucket 7");
	is(sim_mrc_bucket(4), 9, "d 4 = 2^2: bucket 1 + 8");
	is(sim_mrc_bucket(7), 12, "d 7 = 2^2 + 3: bucket 1 + 8 + 3");
	is(sim_mrc_bucket(12), 15, "d 12 = 2^3 + 2 * 2: bucket 1 + 12 + 2");
	is(sim_mrc_bucket(1024), 41, "d 2^10: bucket 41");
	is(sim_mrc_bucket(1279), 41, "d 2^10 + 255: still 41");
	is(sim_mrc_bucket(1280), 42, "d 2^10 + 256: 42");
	ok(sim_mrc_bucket_low(41) == 1024 && sim_mrc_bucket_low(42) == 1280 &&
		   sim_mrc_bucket_low(15) == 12 && sim_mrc_bucket_low(7) == 3 &&
		   sim_mrc_bucket_low(0) == 0 && sim_mrc_bucket_low(SIM_MRC_COLD) == UINT64_MAX,
	   "the smallest distance of each bucket");
	ok(sizeof(mrc_mem) >= sim_mrc_mem_size(64), "room for 64 lines");

	/* every line sampled: lines A B C D A A B (64 B lines) */
	sim_mrc_init(&m, 6, SIM_MRC_ONE, 64, mrc_mem);
	const uintptr_t A = 0x1000, B = 0x2040, C = 0x3080, D = 0x40c0;
	const uintptr_t seq[7] = { A, B + 8, C, D, A + 63, A, B };
	/* cold x4; A after B C D: 3 (bucket 7); A again: 0; B after C D A: 3 */
	const unsigned want[7] = { SIM_MRC_COLD, SIM_MRC_COLD, SIM_MRC_COLD, SIM_MRC_COLD, 7, 0, 7 };
	for (unsigned i = 0; i < 7; i++) {
		ok(sim_mrc_sampled(&m, seq[i]), "rate 1: access %u sampled", i);
		unsigned b = sim_mrc_access(&m, seq[i], &w);
		is(b, want[i], "access %u: bucket", i);
		is(w, SIM_MRC_WEIGHT_ONE, "access %u: weight one access", i);
		hist[b] += w;
	}
	/* a cache of 1 line misses all but the second A (6 of 7); of 4 lines,
	 * the cold ones only (4); of 2^20, the same */
	is(sim_mrc_total(hist), 7 * SIM_MRC_WEIGHT_ONE, "7 accesses");
	is(sim_mrc_misses(hist, 1), 6 * SIM_MRC_WEIGHT_ONE, "1 line: 6 misses");
	is(sim_mrc_misses(hist, 2), 6 * SIM_MRC_WEIGHT_ONE, "2 lines: 6 misses (distances 3)");
	is(sim_mrc_misses(hist, 4), 4 * SIM_MRC_WEIGHT_ONE, "4 lines: the 4 cold misses");
	is(sim_mrc_misses(hist, 1 << 20), 4 * SIM_MRC_WEIGHT_ONE, "2^20 lines: 4");
	/* SHARDS's adjustment: 10 accesses in all -> 3 more at distance 0 */
	sim_mrc_adjust(hist, 10);
	ok(hist[0] == 4 * SIM_MRC_WEIGHT_ONE && sim_mrc_total(hist) == 10 * SIM_MRC_WEIGHT_ONE,
	   "adjusted to 10 accesses: bucket 0 gets 3");
	sim_mrc_adjust(hist, 8);
	ok(hist[0] == 2 * SIM_MRC_WEIGHT_ONE, "and to 8: it gives 2 back");

	/* half the lines: a sample weighs two accesses, distances count double */
	sim_mrc_init(&m, 6, SIM_MRC_ONE / 2, 64, mrc_mem);
	uintptr_t lines[3];
	unsigned n = 0;
	for (uintptr_t l = 1; n < 3; l++)
		if (sim_mrc_hash(l) < SIM_MRC_ONE / 2)
			lines[n++] = l;
	for (uintptr_t l = lines[0] + 1; l < lines[1]; l++) /* unsampled lines in between */
		ok(!sim_mrc_sampled(&m, l << 6), "line %lu not sampled", (unsigned long)l);
	sim_mrc_access(&m, lines[0] << 6, &w);
	sim_mrc_access(&m, lines[1] << 6, &w);
	sim_mrc_access(&m, lines[2] << 6, &w);
	/* lines[0] after 2 other sampled lines: 2 * 2 = 4, bucket 9 */
	is(sim_mrc_access(&m, lines[0] << 6, &w), 9, "distance 2 sampled = 4: bucket 9");
	is(w, 2 * SIM_MRC_WEIGHT_ONE, "a sample weighs 2 accesses");
}

/* Line utilisation (use.h), by hand.  64 B, 2-way, 16 B lines: 2 sets
 * (block & 1).  A reads 0x100 (4 B: block 0x10, set 0): a miss, the way
 * it takes held block 0 from the start, not owned: nothing reported.  A
 * reads 0x104 (4): a hit, bytes 0-7 used.  B reads 0x120 (8: block 0x12,
 * set 0): a miss, the other block 0 leaves, nothing.  C reads 0x14e (4):
 * bytes 14-15 of block 0x14 (set 0: a miss, the LRU block 0x10 leaves:
 * A's, 16 B fetched, 8 used) and 0-1 of block 0x15 (set 1, a miss,
 * block 0 leaves).  B writes 0x12f (1): a hit, byte 15 of 0x12: 9 used.
 * The flush: B 16/9, C 16/2 twice.  In all: A 16/8, B 16/9, C 32/4. */
struct use_sum {
	const void *owner[3];
	uint32_t fetched[3], used[3], n;
};

static void use_done(void *arg, const void *owner, uint32_t fetched, uint32_t used)
{
	struct use_sum *s = arg;
	s->n++;
	for (int i = 0; i < 3; i++)
		if (s->owner[i] == owner) {
			s->fetched[i] += fetched;
			s->used[i] += used;
		}
}

static void test_use(void)
{
	static const char own[3] = { 'A', 'B', 'C' };
	struct sim_geom g = { 64, 2, 16 };
	uintptr_t umem[64];
	struct sim_use u;
	struct use_sum s = { { &own[0], &own[1], &own[2] }, { 0 }, { 0 }, 0 };
	ok(sim_use_mem_size(&g) <= sizeof(umem) && sim_use_init(&u, &g, umem) == SIM_OK, "use: init");
	int m1 = sim_use_ref(&u, 0x100, 4, &own[0], use_done, &s);
	int m2 = sim_use_ref(&u, 0x104, 4, &own[0], use_done, &s);
	int m3 = sim_use_ref(&u, 0x120, 8, &own[1], use_done, &s);
	ok(m1 == 1 && m2 == 0 && m3 == 1 && s.n == 0, "use: miss, hit, miss; block 0 not reported");
	int m4 = sim_use_ref(&u, 0x14e, 4, &own[2], use_done, &s);
	ok(m4 == 1 && s.n == 1 && s.fetched[0] == 16 && s.used[0] == 8,
	   "use: a straddling access evicts A's line: 16 B fetched, 8 used (%u, %u)", s.fetched[0],
	   s.used[0]);
	ok(sim_use_ref(&u, 0x12f, 1, &own[1], use_done, &s) == 0, "use: B's line hit");
	sim_use_flush(&u, use_done, &s);
	ok(s.n == 4 && s.fetched[1] == 16 && s.used[1] == 9 && s.fetched[2] == 32 && s.used[2] == 4,
	   "use: flushed: B 16/9, C 32/4 (%u reports, B %u/%u, C %u/%u)", s.n, s.fetched[1], s.used[1],
	   s.fetched[2], s.used[2]);
	sim_use_flush(&u, use_done, &s);
	ok(s.n == 4, "use: a second flush reports nothing");

	/* 128 B lines: 64 parts of 2 bytes; bytes 0 and 127 of one line: parts
	 * 0 and 63, 4 bytes */
	struct sim_geom g2 = { 512, 2, 128 };
	struct use_sum s2 = { { &own[0], NULL, NULL }, { 0 }, { 0 }, 0 };
	sim_use_init(&u, &g2, umem);
	sim_use_ref(&u, 0x1000, 1, &own[0], use_done, &s2);
	sim_use_ref(&u, 0x107f, 1, &own[0], use_done, &s2);
	sim_use_flush(&u, use_done, &s2);
	ok(s2.n == 1 && s2.fetched[0] == 128 && s2.used[0] == 4,
	   "use: 128 B lines in 2-byte parts: 4 bytes used (%u/%u)", s2.fetched[0], s2.used[0]);
}

int main(void)
{
	test_geom_check();
	test_use();
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
	test_plru();
	test_fifo();
	test_random();
	test_rrip();
	test_inclusion();
	test_write_back();
	test_prefetch();
	test_mru_ok();
	test_config();
	test_mrc();
	return tap_done();
}
