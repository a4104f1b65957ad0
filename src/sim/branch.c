/* branch.c -- cachegrind's conditional and indirect branch predictors.
 * Freestanding: see branch.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/branch.h"

void sim_branch_init(struct sim_branch *b, unsigned lo_zero_bits)
{
	b->history = 0;
	b->lo_zero_bits = lo_zero_bits;
	for (size_t i = 0; i < SIM_BR_COUNTERS; i++)
		b->counter[i] = 0;
	for (size_t i = 0; i < SIM_BTAC_SIZE; i++)
		b->btac[i] = 0;
}
