/* use.h -- line utilisation (callgrind's --cacheuse idea): which bytes of
 * each line a cache fetched were used before the line was evicted.  An LRU
 * cache of a given geometry (with the same rules as cache.h's LRU levels:
 * every tag 0 at the start, a miss replaces the least recently used way,
 * an access looks up every line it touches, size 0 counts as 1) whose
 * lines also hold a mask of the bytes used since they were fetched and an
 * owner, the opaque id of what fetched them (an instruction).  When an
 * owned line leaves (evicted, or sim_use_flush), the caller is told the
 * owner, the line's bytes and the bytes used.  The lines present at the
 * start (block 0 in every way) have no owner and are not reported.
 *
 * Lines of at most 64 bytes are tracked byte by byte; a longer line by
 * 64 parts of line / 64 bytes each (a part touched counts whole).
 *
 * Freestanding C99 like cache.h: the caller hands over the memory.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SIM_USE_H
#define CGTUI_SIM_USE_H

#include <stddef.h>
#include <stdint.h>

#include "cache.h"

struct sim_use_line {
	uintptr_t tag;   /* the block number */
	uint64_t mask;   /* the parts used since it was fetched */
	const void *owner; /* what fetched it; NULL: not tracked */
};

struct sim_use {
	uint32_t sets, assoc, line_size;
	unsigned line_bits, part_bits; /* log2 line, log2 bytes per mask bit */
	struct sim_use_line *line;     /* sets x assoc, most recent first */
};

/* A line leaving: its owner, its bytes, the bytes of it used */
typedef void (*sim_use_done_fn)(void *arg, const void *owner, uint32_t fetched, uint32_t used);

/* The memory sim_use_init needs for g (a geometry sim_geom_check accepts) */
size_t sim_use_mem_size(const struct sim_geom *g);
/* SIM_OK, or SIM_ERR_MEM when mem is NULL or not aligned for pointers */
enum sim_err sim_use_init(struct sim_use *u, const struct sim_geom *g, void *mem);
/* An access of size bytes at a by owner: 1 when a line missed.  The lines
 * it evicts are reported to done(arg, ...). */
int sim_use_ref(struct sim_use *u, uintptr_t a, uint32_t size, const void *owner,
		sim_use_done_fn done, void *arg);
/* Every owned line reported, as if evicted, and no longer owned (the tags
 * stay: the cache's state goes on). */
void sim_use_flush(struct sim_use *u, sim_use_done_fn done, void *arg);

#endif
