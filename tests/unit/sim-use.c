/* sim-use.c -- runs src/sim's line utilisation (use.c) on a trace, for
 * tests/unit/simref.py to check.
 *
 * Usage: sim-use SIZE ASSOC LINE TRACE
 *   TRACE  one access a line: "OWNER ADDRESS SIZE" (decimal owner, 1 ..
 *          1000; hexadecimal address)
 * Prints, per access, "1" when a line missed, else "0", each followed by
 * the lines it evicted ("  OWNER FETCHED USED"); then the flush's reports,
 * in that form, after "flush".
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sim/use.h"

static const char owners[1001];

/* the reports of one access, printed after its result */
static char reports[4096];
static size_t nrep;

static void done(void *arg, const void *owner, uint32_t fetched, uint32_t used)
{
	(void)arg;
	int n = snprintf(reports + nrep, sizeof(reports) - nrep, "  %d %u %u\n",
			 (int)((const char *)owner - owners), fetched, used);
	if (n > 0 && (size_t)n < sizeof(reports) - nrep)
		nrep += (size_t)n;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: sim-use SIZE ASSOC LINE TRACE\n");
		return 2;
	}
	struct sim_geom g = { (uint32_t)strtoul(argv[1], NULL, 10), (uint32_t)strtoul(argv[2], NULL, 10),
			      (uint32_t)strtoul(argv[3], NULL, 10) };
	FILE *t = fopen(argv[4], "r");
	void *mem = sim_geom_check(&g) == SIM_OK ? malloc(sim_use_mem_size(&g)) : NULL;
	struct sim_use u;
	if (!t || !mem || sim_use_init(&u, &g, mem) != SIM_OK) {
		fprintf(stderr, "sim-use: bad geometry or trace\n");
		return 2;
	}
	int owner;
	unsigned long long a;
	unsigned size;
	while (fscanf(t, "%d %llx %u", &owner, &a, &size) == 3) {
		if (owner < 1 || owner > 1000)
			return 2;
		nrep = 0;
		printf("%d\n", sim_use_ref(&u, (uintptr_t)a, size, &owners[owner], done, NULL));
		fwrite(reports, 1, nrep, stdout);
	}
	printf("flush\n");
	for (uint32_t i = 0; i < u.sets * u.assoc; i++) { /* in order, one at a time */
		nrep = 0;
		struct sim_use one = u;
		one.sets = 1;
		one.assoc = 1;
		one.line = &u.line[i];
		sim_use_flush(&one, done, NULL);
		fwrite(reports, 1, nrep, stdout);
	}
	fclose(t);
	free(mem);
	return 0;
}
