/* fastnum.h -- the fast paths' readers of a number (fastlex.h's), and the
 * masks of a line's digits and separators, on their own: no model, nothing
 * but <stddef.h>, <stdint.h> and SSE2's and AVX2's intrinsics, so that a
 * benchmark of them (bench/numparse-bench.c) reads the loader's code.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_FASTNUM_H
#define CGTUI_FASTNUM_H

#include <stddef.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
/* AVX2 code (FASTNUM_AVX2) is in functions of their own target, taken
 * where the CPU has it (runs.c's chunk_runs()): the build assumes SSE2
 * only. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FASTNUM_AVX2 1
#define AVX2_TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))
#endif

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

/* The value of the first n (1 .. 8) bytes of w, decimal digits, the
 * first one lowest (8 bytes loaded little-endian): the digits put at the
 * top, then added in pairs in 8-bit, 16-bit and 32-bit lanes. */
static inline __attribute__((always_inline)) uint64_t digits8_value(uint64_t w, unsigned n)
{
	uint64_t y = (w & 0x0f0f0f0f0f0f0f0fu) << (64 - 8 * n);
	y = (y * 10 + (y >> 8)) & 0x00ff00ff00ff00ffu;
	y = (y * (1 + (100ull << 16)) >> 16) & 0x0000ffff0000ffffu;
	return y * (1 + (10000ull << 32)) >> 32;
}

/* The value of the len (>= 1) bytes at s, all known to be decimal digits
 * (the workers' reader in fastlex.h finds them first): 1, or 0 for more
 * than 18 digits.  Up to 8 digits are read by one 8-byte load (8 bytes at
 * s must be readable). */
static inline __attribute__((always_inline)) int fast_dec_len(const char *s, unsigned len,
							      uint64_t *v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (len <= 8) {
		uint64_t w;
		__builtin_memcpy(&w, s, 8);
		*v = digits8_value(w, len);
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

#ifdef __SSE2__
/* The spaces, '\n' and digits of the 32 bytes at t: bit i for t[i]. */
static inline __attribute__((always_inline)) void lex_masks32(const char *t, uint64_t *sp,
							     uint64_t *nl, uint64_t *dg)
{
	__m128i a = _mm_loadu_si128((const __m128i *)t);
	__m128i b = _mm_loadu_si128((const __m128i *)(t + 16));
	const __m128i vs = _mm_set1_epi8(' '), vn = _mm_set1_epi8('\n');
	const __m128i lo = _mm_set1_epi8('0' - 1), hi = _mm_set1_epi8('9' + 1);
	*sp = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, vs)) |
	      (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, vs)) << 16;
	*nl = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, vn)) |
	      (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, vn)) << 16;
	*dg = (uint32_t)_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(a, lo),
							_mm_cmplt_epi8(a, hi))) |
	      (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_and_si128(_mm_cmpgt_epi8(b, lo),
								  _mm_cmplt_epi8(b, hi)))
		      << 16;
}
#endif

#ifdef FASTNUM_AVX2
/* lex_masks32() in one 32-byte compare of each kind */
static inline __attribute__((always_inline)) AVX2_TARGET void
lex_masks32_avx2(const char *t, uint32_t *sp, uint32_t *nl, uint32_t *dg)
{
	__m256i a = _mm256_loadu_si256((const __m256i *)t);
	*sp = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, _mm256_set1_epi8(' ')));
	*nl = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, _mm256_set1_epi8('\n')));
	*dg = (uint32_t)_mm256_movemask_epi8(
		_mm256_and_si256(_mm256_cmpgt_epi8(a, _mm256_set1_epi8('0' - 1)),
				 _mm256_cmpgt_epi8(_mm256_set1_epi8('9' + 1), a)));
}

/* digits8_value() of four 64-bit lanes at once, each lane's digits
 * already at its top (the shift done): pairs of digits, then pairs of
 * those, weighted and added (pmaddubsw, pmaddwd), then the two halves. */
static inline __attribute__((always_inline)) AVX2_TARGET __m256i digits8x4_value(__m256i w)
{
	w = _mm256_and_si256(w, _mm256_set1_epi8(0x0f));
	w = _mm256_maddubs_epi16(w, _mm256_set1_epi16(1 << 8 | 10));
	w = _mm256_madd_epi16(w, _mm256_set1_epi32(1 << 16 | 100));
	return _mm256_add_epi64(_mm256_mul_epu32(w, _mm256_set1_epi64x(10000)),
				_mm256_srli_epi64(w, 32));
}
#endif

#endif
