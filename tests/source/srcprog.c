/* srcprog.c -- built -g as PIE and as non-PIE, linked against srclib.so:
 * loops, a conditional jump, calls within the program, into the library
 * and through the PLT, static inline functions from inl.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>

#include "inl.h"
#include "srclib.h"

static unsigned data[4096];

__attribute__((noinline)) static unsigned hash_all(int rounds)
{
	unsigned h = 0;
	for (int r = 0; r < rounds; r++)
		h ^= fold(data, 4096);
	return h;
}

__attribute__((noinline)) static long count_odd(void)
{
	long odd = 0;
	for (int i = 0; i < 4096; i++)
		if (data[i] % 3 == 1)
			odd++;
	return odd;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	for (int i = 0; i < 4096; i++)
		data[i] = (unsigned)i * 2654435761u;
	unsigned h = hash_all(rounds);
	long odd = count_odd();
	int s = lib_sum((const int *)data, 4096);
	printf("%u %ld %d\n", h, odd, s);
	return 0;
}
