/* prog.c -- a small program profiled once with Valgrind's cachegrind; the
 * report tests compare our report of that profile with cg_annotate's.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned hash(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static long sum_strided(const int *v, int n, int stride)
{
	long s = 0;
	for (int k = 0; k < stride; k++)
		for (int i = k; i < n; i += stride)
			s += v[i];
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	int *v = malloc(sizeof(int) * (size_t)n);
	unsigned seed = 12345;
	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 8) % 1000;
	}
	qsort(v, (size_t)n, sizeof(int), cmp);
	char buf[64];
	unsigned h = 0;
	for (int i = 0; i < n / 10; i++) {
		snprintf(buf, sizeof(buf), "key-%d", v[i]);
		h ^= hash(buf);
	}
	long s = sum_strided(v, n, 16);
	printf("%u %ld\n", h, s);
	free(v);
	return 0;
}
