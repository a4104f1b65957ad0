/* util.h -- allocation wrappers that fail loudly, growable arrays, string arena.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_UTIL_H
#define CGTUI_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Out of memory: fn runs (the explorer restores the terminal), a message,
 * exit status 4. */
void util_on_fatal(void (*fn)(void));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
/* Tables read at random (hashes, id maps, per-function arrays): from 1 MiB
 * on, each in its own 2 MiB-aligned mapping with huge pages asked for
 * (MADV_HUGEPAGE).  Each call is given the size the table had (0 for none):
 * sizes only grow, and hot_free needs the last one.  hot_calloc's memory
 * is zero; what hot_realloc adds is left for the caller to set. */
void *hot_realloc(void *p, size_t old, size_t n);
void *hot_calloc(size_t n);
void hot_free(void *p, size_t n);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether the environment variable name is set to something other than
 * empty or a value starting with 0 (the CGTUI_PAR_* switches for tests and
 * benchmarks). */
int env_flag(const char *name);

/* Make room for at least `need` elements in *ptr (capacity *cap). */
#define VEC_RESERVE(ptr, cap, need)                                          \
	do {                                                                 \
		if ((size_t)(need) > (size_t)(cap)) {                        \
			size_t nc_ = (cap) ? (size_t)(cap) * 2 : 4;            \
			while (nc_ < (size_t)(need))                          \
				nc_ *= 2;                                     \
			(ptr) = xreallocarray((ptr), nc_, sizeof(*(ptr)));    \
			(cap) = nc_;                                          \
		}                                                            \
	} while (0)

/* Bump allocator for strings and small objects that live as long as the
 * profile.  Nothing in it is freed individually. */
struct arena {
	struct arena_chunk *head;
	size_t used, size;
};
void *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

/* Interned strings: each distinct string gets a dense id (0, 1, ...). */
struct strtab {
	struct arena arena;
	const char **str;
	uint32_t *len;
	uint32_t *hash; /* of each string, for rehashing */
	uint32_t n, cap;
	uint32_t *slots; /* open addressing: id+1, 0 = empty */
	uint32_t mask;
};
uint32_t strtab_intern(struct strtab *t, const char *s, size_t len);
/* Returns the id of s, or UINT32_MAX if it was never interned. */
uint32_t strtab_find(const struct strtab *t, const char *s, size_t len);
/* Gives entry `id` another text (a placeholder resolved later). */
void strtab_rename(struct strtab *t, uint32_t id, const char *s, size_t len);
void strtab_free(struct strtab *t);

uint64_t hash_bytes(const void *p, size_t n);
static inline uint64_t hash_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* Binary search: the index of the first of base[0..n) (elements of size
 * bytes) for which below(element, key) is false, or n when there is none.
 * The array must be partitioned by below(): every element below the key
 * before every one that is not -- as an array sorted by what below()
 * compares is.  With below = "element < key" this is the first element at
 * or above the key (C++'s lower_bound); with "element <= key", the first
 * above it, so the one before it is the last at or below the key.  Inline,
 * so that the compiler can inline below() too. */
static inline size_t first_not_below(const void *base, size_t n, size_t size,
				     int (*below)(const void *element, const void *key),
				     const void *key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (below((const char *)base + mid * size, key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* LEB128-style unsigned varints and zigzag signed values. */
static inline uint8_t *varint_put(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline const uint8_t *varint_get(const uint8_t *p, uint64_t *v)
{
	uint64_t x = 0;
	int shift = 0;
	for (;;) {
		uint8_t b = *p++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*v = x;
	return p;
}

static inline uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
}

static inline int64_t unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

#endif
