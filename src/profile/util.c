/* util.c -- allocation wrappers, arena, string interning.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void (*fatal_hook)(void);

void util_on_fatal(void (*fn)(void))
{
	fatal_hook = fn;
}

/* (the terminal restored first, when the explorer has it) */
static void oom(size_t n)
{
	if (fatal_hook)
		fatal_hook();
	fprintf(stderr, "cgtui: out of memory (allocating %zu bytes)\n", n);
	exit(4);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(p, n * size);
}

/* A table read at random costs a TLB miss per read besides the cache miss,
 * and in a virtual machine a TLB miss walks two page tables: on 2 MiB pages
 * the 400 K-function tables of a 1 GB profile are a few dozen TLB entries.
 * Under AddressSanitizer they stay on the heap, where it checks them. */
#define HOT_PAGE ((size_t)2 << 20)
#if defined(__SANITIZE_ADDRESS__)
#define HOT_MIN SIZE_MAX
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOT_MIN SIZE_MAX
#endif
#endif
#ifndef HOT_MIN
#define HOT_MIN ((size_t)1 << 20)
#endif

static size_t hot_round(size_t n)
{
	return (n + HOT_PAGE - 1) & ~(HOT_PAGE - 1);
}

void hot_free(void *p, size_t n)
{
	if (!p)
		return;
	if (n < HOT_MIN)
		free(p);
	else
		munmap(p, hot_round(n));
}

void *hot_realloc(void *p, size_t old, size_t n)
{
	if (n < HOT_MIN)
		return xrealloc(p, n);
	size_t sz = hot_round(n);
	if (old >= HOT_MIN && hot_round(old) == sz)
		return p;
	char *m = mmap(NULL, sz + HOT_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (m == MAP_FAILED)
		oom(n);
	char *a = (char *)(((uintptr_t)m + HOT_PAGE - 1) & ~(uintptr_t)(HOT_PAGE - 1));
	if (a > m)
		munmap(m, (size_t)(a - m));
	munmap(a + sz, (size_t)(m + sz + HOT_PAGE - (a + sz)));
#ifdef MREMAP_FIXED
	/* a table of ours grows: its pages are moved to the new place, not
	 * copied into fresh ones (each new page costs a fault and zeroing) */
	if (p && old >= HOT_MIN && sz > hot_round(old)) {
		if (mremap(p, hot_round(old), sz, MREMAP_MAYMOVE | MREMAP_FIXED, a) == a) {
#ifdef MADV_HUGEPAGE
			madvise(a, sz, MADV_HUGEPAGE);
#endif
			return a;
		}
		/* not moved: the place may have been unmapped, and is ours */
		if (mmap(a, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
			 0) != a)
			oom(n);
	}
#endif
#ifdef MADV_HUGEPAGE
	madvise(a, sz, MADV_HUGEPAGE);
#endif
	if (p) {
		memcpy(a, p, old < n ? old : n);
		hot_free(p, old);
	}
	return a;
}

/* A table of zeros every page of which is used (a hash table's slots):
 * its pages written, not read, first.  Fresh memory calloc() or mmap()
 * gave is not written: read first, each page is the kernel's shared page
 * of zeros until a write faults again and replaces it, which empties the
 * TLBs of every CPU running the process's other threads (an interrupt
 * each, and the wait for them).  The mapping's pages are made at once
 * (MADV_POPULATE_WRITE); the heap's, by a memset. */
void *hot_calloc(size_t n)
{
	if (n < HOT_MIN) {
		void *p = xmalloc(n);
		memset(p, 0, n);
		return p;
	}
	void *a = hot_realloc(NULL, 0, n);
#ifdef MADV_POPULATE_WRITE
	madvise(a, (n + 4095) & ~(size_t)4095, MADV_POPULATE_WRITE);
#endif
	return a;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

int env_flag(const char *name)
{
	const char *v = getenv(name);
	return v && *v && *v != '0';
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	char *s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	max_align_t data[];
};

/* n bytes at a multiple of align (a power of two up to 16) from the arena */
static void *arena_take(struct arena *a, size_t n, size_t align)
{
	size_t at = (a->used + align - 1) & ~(align - 1);
	if (!a->head || at + n > a->size) {
		size_t sz = n > 65536 ? n : 65536;
		struct arena_chunk *c = xmalloc(sizeof(*c) + sz);
		c->next = a->head;
		c->size = sz;
		a->head = c;
		a->size = sz;
		at = 0;
	}
	a->used = at + n;
	return (char *)a->head->data + at;
}

void *arena_alloc(struct arena *a, size_t n)
{
	return arena_take(a, n, 16);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	/* a string needs no alignment: none is paid for (names are 400 K in
	 * a 1 GB profile, and padding them to 16 bytes took 8% of them) */
	char *d = arena_take(a, n + 1, 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head;
	while (c) {
		struct arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
	a->used = a->size = 0;
}

uint64_t hash_bytes(const void *p, size_t n)
{
	/* FNV-1a over 8-byte words, then a final mix. */
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ULL ^ n;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
		s += 8;
		n -= 8;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0x100000001b3ULL;
	return hash_mix(h);
}

static void strtab_rehash(struct strtab *t, uint32_t nslots)
{
	hot_free(t->slots, t->slots ? ((size_t)t->mask + 1) * sizeof(*t->slots) : 0);
	t->slots = hot_calloc((size_t)nslots * sizeof(*t->slots));
	t->mask = nslots - 1;
	for (uint32_t id = 0; id < t->n; id++) {
		uint32_t i = t->hash[id] & t->mask;
		while (t->slots[i])
			i = (i + 1) & t->mask;
		t->slots[i] = id + 1;
	}
}

uint32_t strtab_find(const struct strtab *t, const char *s, size_t len)
{
	if (!t->slots)
		return UINT32_MAX;
	uint32_t i = (uint32_t)hash_bytes(s, len) & t->mask;
	for (; t->slots[i]; i = (i + 1) & t->mask) {
		uint32_t id = t->slots[i] - 1;
		if (t->len[id] == len && memcmp(t->str[id], s, len) == 0)
			return id;
	}
	return UINT32_MAX;
}

uint32_t strtab_intern(struct strtab *t, const char *s, size_t len)
{
	if (!t->slots)
		strtab_rehash(t, 256);
	uint32_t h = (uint32_t)hash_bytes(s, len);
	uint32_t i = h & t->mask;
	for (; t->slots[i]; i = (i + 1) & t->mask) {
		uint32_t id = t->slots[i] - 1;
		if (t->len[id] == len && memcmp(t->str[id], s, len) == 0)
			return id;
	}
	if (len > UINT32_MAX - 1)
		len = UINT32_MAX - 1;
	if (t->n == t->cap) {
		size_t oc = t->cap, nc = oc ? oc * 2 : 64;
		t->str = hot_realloc(t->str, oc * sizeof(*t->str), nc * sizeof(*t->str));
		t->len = hot_realloc(t->len, oc * sizeof(*t->len), nc * sizeof(*t->len));
		t->hash = hot_realloc(t->hash, oc * sizeof(*t->hash), nc * sizeof(*t->hash));
		t->cap = (uint32_t)nc;
	}
	uint32_t id = t->n++;
	t->hash[id] = h;
	t->str[id] = arena_strndup(&t->arena, s, len);
	t->len[id] = (uint32_t)len;
	t->slots[i] = id + 1;
	if ((uint64_t)t->n * 2 > t->mask)
		strtab_rehash(t, (t->mask + 1) * 2);
	return id;
}

/* Takes id out of its slot (linear probing: later entries of the same run
 * move back so no lookup loses its way), gives it the new text, and puts
 * it where that text hashes. */
void strtab_rename(struct strtab *t, uint32_t id, const char *s, size_t len)
{
	uint32_t i = t->hash[id] & t->mask;
	while (t->slots[i] != id + 1)
		i = (i + 1) & t->mask;
	t->slots[i] = 0;
	for (uint32_t j = (i + 1) & t->mask; t->slots[j]; j = (j + 1) & t->mask) {
		uint32_t home = t->hash[t->slots[j] - 1] & t->mask;
		/* may the entry at j move to the hole at i? */
		if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
			t->slots[i] = t->slots[j];
			t->slots[j] = 0;
			i = j;
		}
	}
	t->str[id] = arena_strndup(&t->arena, s, len);
	t->len[id] = (uint32_t)len;
	t->hash[id] = (uint32_t)hash_bytes(s, len);
	uint32_t k = t->hash[id] & t->mask;
	while (t->slots[k])
		k = (k + 1) & t->mask;
	t->slots[k] = id + 1;
}

void strtab_free(struct strtab *t)
{
	arena_free(&t->arena);
	hot_free(t->str, (size_t)t->cap * sizeof(*t->str));
	hot_free(t->len, (size_t)t->cap * sizeof(*t->len));
	hot_free(t->hash, (size_t)t->cap * sizeof(*t->hash));
	hot_free(t->slots, t->slots ? ((size_t)t->mask + 1) * sizeof(*t->slots) : 0);
	memset(t, 0, sizeof(*t));
}
