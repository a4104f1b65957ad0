/* regress.c -- the program of the CI gate's test and of the README's
 * example: built twice, the second time with -DSLOWER, whose parse() does
 * twice the work and calls a new function, validate() (a regression in
 * one function; the others do the same in both).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>

#ifndef SLOWER
#define ROUNDS 1
#else
#define ROUNDS 2
#endif

static volatile unsigned sink;

__attribute__((noinline)) static unsigned checksum(const char *s)
{
	unsigned h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

#ifdef SLOWER
__attribute__((noinline)) static unsigned validate(unsigned v)
{
	return v % 7u ? v : v + 1;
}
#endif

__attribute__((noinline)) static unsigned parse(const char *s)
{
	unsigned v = 0;
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < 20000; i++)
			v += (unsigned)(s[i % 16] - '0') * (unsigned)i;
#ifdef SLOWER
	v = validate(v);
#endif
	return v;
}

__attribute__((noinline)) static unsigned render(unsigned v)
{
	unsigned out = 0;
	for (int i = 0; i < 30000; i++)
		out ^= v + (unsigned)i * 7u;
	return out;
}

int main(void)
{
	const char *in = "0123456789012345";
	sink = checksum(in);
	sink = render(parse(in));
	return 0;
}
