/* fastnum.h -- the fast paths' readers of a number (fastlex.h's), on
 * their own: no model, nothing but <stddef.h> and <stdint.h>, so that a
 * benchmark of them (bench/numparse-bench.c) reads the loader's code.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_FASTNUM_H
#define CGTUI_FASTNUM_H

#include <stddef.h>
#include <stdint.h>

/* A decimal number of at most 18 digits at s: the end, or NULL. */
static inline __attribute__((always_inline)) const char *fast_dec(const char *s, uint64_t *v)
{
	const unsigned char *u = (const unsigned char *)s;
	uint64_t x = 0, d;
	int n;
	/* unrolled: nothing but the value kept per digit, and each digit
	 * position has its own exit branch */
#pragma GCC unroll 19
	for (n = 0; n < 19; n++) {
		if ((d = (uint64_t)u[n] - '0') >= 10)
			break;
		x = x * 10 + d;
	}
	if (n == 0 || n > 18) /* none, or a 19th digit */
		return NULL;
	*v = x;
	return s + n;
}

/* The value of the len (>= 1) bytes at s, all known to be decimal digits
 * (the workers' reader in fastlex.h finds them first): 1, or 0 for more
 * than 18 digits.  Up to 8 digits are read by one 8-byte load (8 bytes at
 * s must be readable), added in pairs in 8-bit, 16-bit then 32-bit
 * lanes. */
static inline __attribute__((always_inline)) int fast_dec_len(const char *s, unsigned len,
							      uint64_t *v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (len <= 8) {
		uint64_t w;
		__builtin_memcpy(&w, s, 8);
		/* the digits at the top, the first one lowest */
		uint64_t y = (w & 0x0f0f0f0f0f0f0f0fu) << (64 - 8 * len);
		y = (y * 10 + (y >> 8)) & 0x00ff00ff00ff00ffu;
		y = (y * (1 + (100ull << 16)) >> 16) & 0x0000ffff0000ffffu;
		*v = y * (1 + (10000ull << 32)) >> 32;
		return 1;
	}
#endif
	return fast_dec(s, v) != NULL; /* (its 18-digit limit) */
}

/* Each byte's value as a hex digit plus one, or 0: one branch per digit
 * (the end), not a second on digit or letter, which the digits of an
 * address take at random. */
static const uint8_t hex_val1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* A 0x hex number of at most 15 digits after the 0x at s: the end, or NULL. */
static inline __attribute__((always_inline)) const char *fast_hex(const char *s, uint64_t *v)
{
	const char *b = s;
	uint64_t x = 0;
	for (int i = 0; i < 16; i++, s++) {
		unsigned d = hex_val1[(unsigned char)*s];
		if (!d)
			break;
		x = x << 4 | (d - 1);
	}
	if (s == b || s - b > 15)
		return NULL;
	*v = x;
	return s;
}

#endif
