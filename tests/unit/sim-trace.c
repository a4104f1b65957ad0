/* sim-trace.c -- runs src/sim's cache model on an access trace, for the
 * reference simulator of tests/unit/simref.py to check.
 *
 * Usage: sim-trace MODEL TRACE
 *   MODEL  a model in the --cache-config format
 *   TRACE  one access a line: "F|R|W ADDRESS SIZE PC" (address and pc in
 *          hexadecimal, size in decimal)
 * Prints one line per access, "MISSED DIRTY" (how many levels of its chain
 * missed; the bits of the depths whose misses evicted a dirty line), then
 * one line per level "level N writebacks W prefetches P".
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cache.h"
#include "sim/model.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 > cap) {
			cap = 2 * cap + 4096;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	struct sim_model m;
	struct sim_msgs msgs;
	struct sim_hier h;
	size_t len;
	char line[256];

	if (argc != 3) {
		fprintf(stderr, "usage: sim-trace MODEL TRACE\n");
		return 2;
	}
	char *text = slurp(argv[1], &len);
	if (!text) {
		perror(argv[1]);
		return 2;
	}
	if (!sim_model_parse(&m, text, len, NULL, NULL, &msgs)) {
		fprintf(stderr, "%s:%u: %s\n", argv[1], msgs.error.line, msgs.error.text);
		return 1;
	}
	free(text);
	size_t size = sim_hier_mem_size(&m.cfg);
	void *mem = aligned_alloc(64, (size + 63) & ~(size_t)63);
	enum sim_err e = sim_hier_init(&h, &m.cfg, mem, size);
	if (e != SIM_OK) {
		fprintf(stderr, "%s: %s\n", argv[1], sim_strerror(e));
		return 1;
	}
	FILE *t = fopen(argv[2], "r");
	if (!t) {
		perror(argv[2]);
		return 2;
	}
	unsigned long lineno = 0;
	while (fgets(line, sizeof(line), t)) {
		char kind;
		unsigned long long a, pc;
		unsigned sz;
		lineno++;
		if (sscanf(line, " %c %llx %u %llx", &kind, &a, &sz, &pc) != 4 ||
		    (kind != 'F' && kind != 'R' && kind != 'W')) {
			fprintf(stderr, "%s:%lu: expected 'F|R|W ADDRESS SIZE PC'\n", argv[2], lineno);
			return 1;
		}
		enum sim_acc k = kind == 'F' ? SIM_ACC_FETCH : kind == 'R' ? SIM_ACC_READ : SIM_ACC_WRITE;
		unsigned r = sim_ref(&h, k, (uintptr_t)a, sz, (uintptr_t)pc);
		printf("%u %u\n", SIM_RES_MISSED(r), r >> 8);
	}
	fclose(t);
	for (unsigned i = 0; i < h.nlevels; i++)
		printf("level %u writebacks %llu prefetches %llu\n", i,
		       (unsigned long long)h.level[i].writebacks,
		       (unsigned long long)h.level[i].prefetches);
	free(mem);
	return 0;
}
