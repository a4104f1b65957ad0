/* loops.h - helpers for loops.c and loops_aux.c (cgtui golden tests).
 * Included by two translation units: the inlined mix() lands its cost in
 * this file under the callers' function names (fi=/fe= in callgrind), and
 * hsum() is an out-of-line function whose file is this header. */
#ifndef LOOPS_H
#define LOOPS_H

static inline unsigned mix(unsigned x)
{
	x ^= x >> 7;
	x *= 2654435761u;
	return x ^ (x >> 13);
}

static __attribute__((noinline)) unsigned hsum(const unsigned *v, int n)
{
	unsigned s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

unsigned aux_work(int n);

#endif
