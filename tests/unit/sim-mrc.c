/* sim-mrc.c -- runs src/sim's reuse distances (mrc.c) on a trace of
 * addresses, for tests/unit/simref.py to check.
 *
 * Usage: sim-mrc [-v] THRESHOLD MAX_LINES LINE_BITS TRACE
 *   THRESHOLD  the sampling threshold (16777216: every line)
 *   TRACE      one hexadecimal address a line
 * With -v, one line per access: "BUCKET WEIGHT" ("- 0" when not sampled).
 * Then, the histogram adjusted (sim_mrc_adjust), "total W", "misses 2^K W" for K = 0 .. 24 (the weights of the
 * misses of a fully associative LRU cache of 2^K lines), "threshold T".
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/mrc.h"

int main(int argc, char **argv)
{
	int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	char line[128];
	uint64_t accesses = 0;
	static uint64_t hist[SIM_MRC_NBUCKETS];
	struct sim_mrc m;

	if (argc != 5 + verbose) {
		fprintf(stderr, "usage: sim-mrc [-v] THRESHOLD MAX_LINES LINE_BITS TRACE\n");
		return 2;
	}
	argv += verbose;
	uint32_t threshold = (uint32_t)strtoul(argv[1], NULL, 10);
	uint32_t max_lines = (uint32_t)strtoul(argv[2], NULL, 10);
	uint32_t bits = (uint32_t)strtoul(argv[3], NULL, 10);
	void *mem = malloc(sim_mrc_mem_size(max_lines));
	FILE *t = fopen(argv[4], "r");
	if (!mem || !t) {
		perror(argv[4]);
		return 2;
	}
	sim_mrc_init(&m, bits, threshold, max_lines, mem);
	while (fgets(line, sizeof(line), t)) {
		uintptr_t a = (uintptr_t)strtoull(line, NULL, 16);
		uint64_t w = 0;
		accesses++;
		unsigned b = SIM_MRC_NBUCKETS;
		if (sim_mrc_sampled(&m, a))
			b = sim_mrc_access(&m, a, &w);
		if (b < SIM_MRC_NBUCKETS)
			hist[b] += w;
		if (verbose) {
			if (b < SIM_MRC_NBUCKETS)
				printf("%u %llu\n", b, (unsigned long long)w);
			else
				printf("- 0\n");
		}
	}
	fclose(t);
	sim_mrc_adjust(hist, accesses);
	printf("total %llu\n", (unsigned long long)sim_mrc_total(hist));
	for (unsigned k = 0; k <= 24; k++)
		printf("misses %u %llu\n", k, (unsigned long long)sim_mrc_misses(hist, (uint64_t)1 << k));
	printf("threshold %u\n", m.threshold);
	free(mem);
	return 0;
}
