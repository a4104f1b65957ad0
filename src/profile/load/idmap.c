/* idmap.c -- the compressed-id maps: "(id)" of a file to an interned name.
 *
 * Callgrind's name compression (format spec 3.1.5, "Name Compression"):
 * "fn=(12) main" defines id 12 of the function names, "fn=(12)" uses it;
 * objects (ob=, cob=), files (fl=, fi=, fe=, cfi=, cfl=, jfi=) and
 * functions (fn=, cfn=, jfn=) each have their own ids, valid to the end of
 * the file.  An id maps to a name interned in the profile (parse.c says
 * what an id means; here only where it is kept).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"

#include <stdlib.h>
#include <string.h>

#define IDMAP_DIRECT_MAX (1 << 24)

/* Puts (key, val) in the hash, which has room and does not hold key. */
static void idmap_hash_put(struct idmap *m, int64_t key, uint32_t val)
{
	uint32_t j = (uint32_t)hash_mix((uint64_t)key) & m->mask;
	while (m->vals[j])
		j = (j + 1) & m->mask;
	m->keys[j] = key;
	m->vals[j] = val;
	m->n++;
}

/* The hash made again with ns slots; ids below ndirect go to the array. */
static void idmap_rehash(struct idmap *m, uint32_t ns)
{
	int64_t *ok = m->keys;
	uint32_t *ov = m->vals, om = m->mask;
	m->keys = xcalloc(ns, sizeof(*m->keys));
	m->vals = xcalloc(ns, sizeof(*m->vals));
	m->mask = ns - 1;
	m->n = 0;
	if (ov) {
		for (uint32_t i = 0; i <= om; i++) {
			if (!ov[i])
				continue;
			if ((uint64_t)ok[i] < m->ndirect) {
				m->direct[ok[i]] = ov[i];
				m->ndense++;
			} else {
				idmap_hash_put(m, ok[i], ov[i]);
			}
		}
	}
	free(ok);
	free(ov);
}

/* A table indexed by id (*a, *n entries of size elem, hot_realloc'ed)
 * grown, doubling from 1024, to cover index key; the new entries' bytes
 * are fill. */
void grow_by_id(void **a, uint32_t *n, uint64_t key, size_t elem, int fill)
{
	uint32_t nn = *n ? *n : 1024;
	while (nn <= key)
		nn *= 2;
	*a = hot_realloc(*a, (size_t)*n * elem, (size_t)nn * elem);
	memset((char *)*a + (size_t)*n * elem, fill, (size_t)(nn - *n) * elem);
	*n = nn;
}

/* The direct array grown to cover key (< IDMAP_DIRECT_MAX). */
static void idmap_grow_direct(struct idmap *m, uint64_t key)
{
	void *a = m->direct;
	grow_by_id(&a, &m->ndirect, key, sizeof(*m->direct), 0);
	m->direct = a;
	if (m->n)
		idmap_rehash(m, m->mask + 1);
}

/* The value slot of key: NULL when absent and !insert; else made (0) when
 * absent, for the caller to fill. */
uint32_t *idmap_slot(struct idmap *m, int64_t key, int insert)
{
	uint64_t k = (uint64_t)key;
	if (k >= m->ndirect && insert && k < IDMAP_DIRECT_MAX &&
	    k < 4 * ((uint64_t)m->ndense + m->n + 1024))
		idmap_grow_direct(m, k);
	if (k < m->ndirect) {
		uint32_t *v = &m->direct[k];
		if (!*v && !insert)
			return NULL;
		if (!*v)
			m->ndense++; /* counted as taken; the caller fills it */
		return v;
	}
	if (insert && (uint64_t)(m->n + 1) * 2 >= (uint64_t)m->mask + 1)
		idmap_rehash(m, m->mask ? (m->mask + 1) * 2 : 256);
	if (!m->vals)
		return NULL;
	uint32_t i = (uint32_t)hash_mix(k) & m->mask;
	for (; m->vals[i]; i = (i + 1) & m->mask)
		if (m->keys[i] == key)
			return &m->vals[i];
	if (!insert)
		return NULL;
	m->keys[i] = key;
	m->n++;
	return &m->vals[i];
}

void idmap_clear(struct idmap *m)
{
	hot_free(m->direct, (size_t)m->ndirect * sizeof(*m->direct));
	free(m->keys);
	free(m->vals);
	free(m->pend);
	memset(m, 0, sizeof(*m));
}
