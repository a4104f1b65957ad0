/* mrc.h -- miss-ratio curves: the reuse (stack) distance of accesses in a
 * fully associative LRU cache of lines, from a spatially sampled subset of
 * the lines (SHARDS: Waldspurger et al., FAST 2015), in bounded memory.
 *
 * A line is sampled when a hash of its number is below a threshold (out
 * of 2^24): the rate is threshold / 2^24, the same lines every time.  The
 * distance of an access to a sampled line is the number of other sampled
 * lines accessed since its last access, scaled by 1 / rate; its first
 * access is cold (an infinite distance).  At most max_lines sampled lines
 * are remembered: when one more would be, the threshold is halved and the
 * lines above it forgotten (SHARDS's fixed-size variant); each sample then
 * stands for twice as many accesses (its weight).  With the rate at 1 (the
 * threshold at 2^24) and room for every line, distances are exact.
 *
 * An access hits in a fully associative LRU cache of C lines iff its
 * distance is below C: the miss ratio at C is the weight of the accesses
 * of distance >= C (cold ones included) over all.  Distances go into
 * buckets, four per power of two: bucket 0 is distance 0, bucket
 * 1 + 4k + s holds 2^k + s 2^(k-2) <= d < 2^k + (s+1) 2^(k-2) (k >= 2;
 * d = 1 is bucket 1, 2 and 3 buckets 5 and 7), so that every power of two
 * is a bucket's lower bound.
 *
 * Freestanding C99, no allocation: the caller hands over the memory.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SIM_MRC_H
#define CGTUI_SIM_MRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_MRC_HASH_BITS 24
#define SIM_MRC_ONE (1u << SIM_MRC_HASH_BITS) /* the threshold of rate 1 */
#define SIM_MRC_MAX_OCTAVE 47
#define SIM_MRC_COLD (1 + 4 * (SIM_MRC_MAX_OCTAVE + 1)) /* the bucket of first accesses */
#define SIM_MRC_NBUCKETS (SIM_MRC_COLD + 1)
/* a sample's weight at rate 1: weights are in 2^-16 accesses (2^48
 * accesses at rate 1 before a 64-bit sum overflows) */
#define SIM_MRC_WEIGHT_ONE ((uint64_t)1 << 16)

struct sim_mrc_line {
	uintptr_t line; /* address >> line bits */
	uint32_t time;  /* of its last access */
	uint32_t pad;
};

struct sim_mrc {
	uint32_t line_bits;
	uint32_t threshold;  /* sampled: hash < threshold */
	uint32_t max_lines;  /* sampled lines remembered at most */
	uint32_t nlines;
	uint32_t window;     /* times 0 .. window-1 (2 * max_lines) */
	uint32_t now;        /* the next access's time */
	uint32_t tbits;      /* the table has 2^tbits slots */
	uint32_t halvings;   /* times the threshold was halved */
	uint32_t *fenwick;   /* [window + 1]: marks the last access times */
	uint32_t *owner;     /* [window]: the line (index + 1) last accessed then */
	uint32_t *table;     /* [2^tbits]: line index + 1, open addressing */
	struct sim_mrc_line *lines; /* [max_lines] */
};

/* Bytes sim_mrc_init needs for max_lines (at least 2). */
size_t sim_mrc_mem_size(uint32_t max_lines);

/* Sets m up in mem (sim_mrc_mem_size(max_lines) bytes, aligned for
 * uintptr_t): lines of 2^line_bits bytes, a first threshold (1 ..
 * SIM_MRC_ONE; the rate is threshold / SIM_MRC_ONE). */
void sim_mrc_init(struct sim_mrc *m, uint32_t line_bits, uint32_t threshold, uint32_t max_lines,
		  void *mem);

/* The sampling hash of a line number: its top 24 bits after a
 * multiplication by 2^64 / the golden ratio. */
static inline uint32_t sim_mrc_hash(uint64_t line)
{
	return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> (64 - SIM_MRC_HASH_BITS));
}

/* Is the line of address a sampled? */
static inline bool sim_mrc_sampled(const struct sim_mrc *m, uintptr_t a)
{
	return sim_mrc_hash((uint64_t)(a >> m->line_bits)) < m->threshold;
}

/* An access to a (whose line must be sampled): the bucket of its scaled
 * distance (SIM_MRC_COLD for a first access), and in *weight what it
 * stands for (SIM_MRC_WEIGHT_ONE / rate).  Returns SIM_MRC_NBUCKETS when
 * the line stopped being sampled (the threshold was halved for it). */
unsigned sim_mrc_access(struct sim_mrc *m, uintptr_t a, uint64_t *weight);

/* The bucket of a distance, and the smallest distance of a bucket. */
unsigned sim_mrc_bucket(uint64_t d);
uint64_t sim_mrc_bucket_low(unsigned b);

/* SHARDS's adjustment (SHARDS_adj in the paper): a histogram of the
 * samples of `accesses` accesses (all of them, sampled or not) weighs
 * accesses * SIM_MRC_WEIGHT_ONE in expectation; what it weighs more or
 * less is taken from or added to bucket 0 (distance 0: a hit at any size),
 * which corrects most of the error of a sample that caught too few or too
 * many of the most used lines. */
void sim_mrc_adjust(uint64_t hist[SIM_MRC_NBUCKETS], uint64_t accesses);

/* From a histogram (weights per bucket): the weight of the accesses that
 * miss in a fully associative LRU cache of `lines` lines (a power of two),
 * and of all accesses. */
uint64_t sim_mrc_misses(const uint64_t hist[SIM_MRC_NBUCKETS], uint64_t lines);
uint64_t sim_mrc_total(const uint64_t hist[SIM_MRC_NBUCKETS]);

#endif
