/* branch.h -- branch predictors exactly as Valgrind 3.19 cachegrind's
 * (cg_branchpred.c): a global-history predictor of 2-bit counters for
 * conditional branches and a table of last targets for indirect branches.
 * No return-address predictor (cachegrind assumes returns are always
 * predicted).
 *
 * Freestanding C99, no allocation: the caller owns the struct (about 20 KB
 * on a 64-bit host).  See src/sim/README.md.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SIM_BRANCH_H
#define CGTUI_SIM_BRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_BR_HIST_BITS 7  /* outcomes of the last 7 conditional branches */
#define SIM_BR_ADDR_BITS 7  /* low bits of the branch address */
#define SIM_BR_COUNTERS (1u << (SIM_BR_HIST_BITS + SIM_BR_ADDR_BITS)) /* 16384 */
#define SIM_BTAC_BITS 9
#define SIM_BTAC_SIZE (1u << SIM_BTAC_BITS) /* 512 */

/* Instruction-address bits that are always zero on the guest and are dropped
 * before indexing: 0 on x86/amd64, 1 on arm and s390x, 2 on ppc, mips and
 * arm64 (as cachegrind's N_IADDR_LO_ZERO_BITS). */
#define SIM_BR_LO_ZERO_BITS_X86 0u

struct sim_branch {
	uint32_t history;  /* last outcomes, newest in bit 0, 1 = taken */
	uint32_t lo_zero_bits;
	uint8_t counter[SIM_BR_COUNTERS]; /* 0..3; taken predicted at >= 2 */
	uintptr_t btac[SIM_BTAC_SIZE];    /* last target per slot */
};

/* The start state: history 0, every counter 0 (strongly not taken), every
 * remembered target 0. */
void sim_branch_init(struct sim_branch *b, unsigned lo_zero_bits);

/* A conditional branch at `addr` that was (`taken`) or was not taken.  The
 * counter is the one at index history(7 bits) : address(7 bits); the
 * prediction is "taken" when it is >= 2.  Then the outcome is shifted into
 * the history and the counter moves one step towards it (saturating at 0
 * and 3).  Returns true when the prediction was wrong. */
static inline bool sim_cond_branch(struct sim_branch *b, uintptr_t addr, bool taken)
{
	const uint32_t hist_mask = (1u << SIM_BR_HIST_BITS) - 1;
	const uint32_t addr_mask = (1u << SIM_BR_ADDR_BITS) - 1;
	uint32_t slot = ((b->history & hist_mask) << SIM_BR_ADDR_BITS) |
			((uint32_t)(addr >> b->lo_zero_bits) & addr_mask);
	uint8_t *c = &b->counter[slot];
	bool predicted = *c >= 2;

	/* Only the low bits are ever read, so keeping just those is the same
	 * as cachegrind's ever-growing shift register. */
	b->history = ((b->history << 1) | (taken ? 1u : 0u)) & hist_mask;
	if (taken) {
		if (*c < 3)
			(*c)++;
	} else if (*c > 0) {
		(*c)--;
	}
	return predicted != taken;
}

/* An indirect branch at `addr` that went to `target`.  The prediction is the
 * target remembered in slot (addr >> lo_zero_bits) & 511; it is replaced by
 * `target`.  Returns true when the prediction was wrong. */
static inline bool sim_ind_branch(struct sim_branch *b, uintptr_t addr, uintptr_t target)
{
	uintptr_t *slot = &b->btac[(addr >> b->lo_zero_bits) & (SIM_BTAC_SIZE - 1)];
	bool miss = *slot != target;

	*slot = target;
	return miss;
}

#endif
