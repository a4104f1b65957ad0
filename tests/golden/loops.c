/* loops.c - nested loops over several functions (cgtui golden tests). */
#include <stdio.h>
#include "loops.h"

#ifndef ROUNDS
#define ROUNDS 20	/* golden.sh builds a second version with another value */
#endif

static unsigned table[256];

static __attribute__((noinline)) unsigned inner(unsigned seed, int n)
{
	unsigned acc = seed;
	for (int i = 0; i < n; i++)
		acc += mix(acc + (unsigned)i);
	return acc;
}

static __attribute__((noinline)) unsigned outer(int rows, int cols)
{
	unsigned acc = 0;
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			acc += (unsigned)(r * c) ^ acc;
	return acc;
}

static __attribute__((noinline)) void fill(void)
{
	for (int i = 0; i < 256; i++)
		table[i] = mix((unsigned)i);
}

int main(void)
{
	unsigned total = 0;

	fill();
	for (int k = 0; k < ROUNDS; k++)
		total += inner((unsigned)k, 200);
	total += outer(60, 50);
	total += hsum(table, 256);
	total += aux_work(300);
	printf("%u\n", total);
	return 0;
}
