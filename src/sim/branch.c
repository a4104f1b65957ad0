/* branch.c -- cachegrind's conditional and indirect branch predictors.
 * Freestanding: see branch.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/branch.h"

#define HIST_MASK ((1u << SIM_BR_HIST_BITS) - 1)
#define ADDR_MASK ((1u << SIM_BR_ADDR_BITS) - 1)

void sim_branch_init(struct sim_branch *b, unsigned lo_zero_bits)
{
	b->history = 0;
	b->lo_zero_bits = lo_zero_bits;
	for (size_t i = 0; i < SIM_BR_COUNTERS; i++)
		b->counter[i] = 0;
	for (size_t i = 0; i < SIM_BTAC_SIZE; i++)
		b->btac[i] = 0;
}

bool sim_cond_branch(struct sim_branch *b, uintptr_t addr, bool taken)
{
	uint32_t slot = ((b->history & HIST_MASK) << SIM_BR_ADDR_BITS) |
			((uint32_t)(addr >> b->lo_zero_bits) & ADDR_MASK);
	uint8_t *c = &b->counter[slot];
	bool predicted = *c >= 2;

	/* Only the low bits are ever read, so keeping just those is the same
	 * as cachegrind's ever-growing shift register. */
	b->history = ((b->history << 1) | (taken ? 1u : 0u)) & HIST_MASK;
	if (taken) {
		if (*c < 3)
			(*c)++;
	} else if (*c > 0) {
		(*c)--;
	}
	return predicted != taken;
}

bool sim_ind_branch(struct sim_branch *b, uintptr_t addr, uintptr_t target)
{
	uintptr_t *slot = &b->btac[(addr >> b->lo_zero_bits) & (SIM_BTAC_SIZE - 1)];
	bool miss = *slot != target;

	*slot = target;
	return miss;
}
