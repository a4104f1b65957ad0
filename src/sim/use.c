/* use.c -- line utilisation (use.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "use.h"

static unsigned log2u(uint32_t x)
{
	unsigned b = 0;
	while (x > 1) {
		x >>= 1;
		b++;
	}
	return b;
}

static uint32_t bits_set(uint64_t m)
{
	uint32_t n = 0;
	while (m) {
		m &= m - 1;
		n++;
	}
	return n;
}

size_t sim_use_mem_size(const struct sim_geom *g)
{
	return (size_t)(g->size / g->line_size) * sizeof(struct sim_use_line);
}

enum sim_err sim_use_init(struct sim_use *u, const struct sim_geom *g, void *mem)
{
	if (!mem || ((uintptr_t)mem % sizeof(void *)))
		return SIM_ERR_MEM;
	u->assoc = g->assoc;
	u->line_size = g->line_size;
	u->sets = g->size / g->line_size / g->assoc;
	u->line_bits = log2u(g->line_size);
	u->part_bits = g->line_size > 64 ? u->line_bits - 6 : 0;
	u->line = mem;
	for (uint32_t i = 0; i < u->sets * u->assoc; i++)
		u->line[i] = (struct sim_use_line){ 0, 0, 0 };
	return SIM_OK;
}

static void report(const struct sim_use *u, const struct sim_use_line *l, sim_use_done_fn done,
		   void *arg)
{
	if (l->owner)
		done(arg, l->owner, u->line_size, bits_set(l->mask) << u->part_bits);
}

/* bytes lo .. hi (offsets in the line) as mask bits */
static uint64_t parts(const struct sim_use *u, uint32_t lo, uint32_t hi)
{
	unsigned a = lo >> u->part_bits, b = hi >> u->part_bits;
	uint64_t upto = b >= 63 ? ~(uint64_t)0 : ((uint64_t)1 << (b + 1)) - 1;
	return upto & ~(((uint64_t)1 << a) - 1);
}

int sim_use_ref(struct sim_use *u, uintptr_t a, uint32_t size, const void *owner,
		sim_use_done_fn done, void *arg)
{
	uintptr_t last = a + (size ? size : 1) - 1;
	int missed = 0;
	for (uintptr_t blk = a >> u->line_bits; blk <= last >> u->line_bits; blk++) {
		uintptr_t start = blk << u->line_bits;
		uint32_t lo = a > start ? (uint32_t)(a - start) : 0;
		uint32_t hi = last - start < u->line_size ? (uint32_t)(last - start) : u->line_size - 1;
		struct sim_use_line *set = &u->line[(blk & (u->sets - 1)) * u->assoc];
		uint32_t w = 0;
		while (w < u->assoc && set[w].tag != blk)
			w++;
		struct sim_use_line l;
		if (w < u->assoc) { /* a hit: moved to the front */
			l = set[w];
		} else { /* a miss: the last way leaves */
			missed = 1;
			w = u->assoc - 1;
			report(u, &set[w], done, arg);
			l = (struct sim_use_line){ blk, 0, owner };
		}
		for (; w > 0; w--)
			set[w] = set[w - 1];
		l.mask |= parts(u, lo, hi);
		set[0] = l;
	}
	return missed;
}

void sim_use_flush(struct sim_use *u, sim_use_done_fn done, void *arg)
{
	for (uint32_t i = 0; i < u->sets * u->assoc; i++) {
		report(u, &u->line[i], done, arg);
		u->line[i].owner = 0;
		u->line[i].mask = 0;
	}
}
