/* mrc.c -- reuse distances with spatial sampling (SHARDS), in the memory
 * the caller gives: see mrc.h.
 *
 * The last access times of the remembered lines are marked in a Fenwick
 * tree over a window of 2 * max_lines times; the distance of an access is
 * the number of marks after its line's last time.  When the clock reaches
 * the end of the window the times are renumbered 0, 1, ... in order (at
 * most max_lines of them), so each renumbering is paid by at least
 * max_lines accesses.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/mrc.h"

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static uint32_t table_bits(uint32_t max_lines)
{
	uint32_t b = 1;

	while (((uint64_t)1 << b) < 2 * (uint64_t)max_lines)
		b++;
	return b;
}

size_t sim_mrc_mem_size(uint32_t max_lines)
{
	uint64_t window = 2 * (uint64_t)max_lines;

	return round8(max_lines * sizeof(struct sim_mrc_line)) +
	       round8((window + 1) * sizeof(uint32_t)) + round8(window * sizeof(uint32_t)) +
	       round8(((size_t)1 << table_bits(max_lines)) * sizeof(uint32_t));
}

/* ---- the Fenwick tree: position p (0-based) is node p + 1 ---- */

static void fw_add(struct sim_mrc *m, uint32_t p, int32_t v)
{
	for (uint32_t i = p + 1; i <= m->window; i += i & -i)
		m->fenwick[i] += (uint32_t)v;
}

/* marks at positions 0 .. p */
static uint32_t fw_prefix(const struct sim_mrc *m, uint32_t p)
{
	uint32_t s = 0;

	for (uint32_t i = p + 1; i > 0; i -= i & -i)
		s += m->fenwick[i];
	return s;
}

/* ---- the table: line number -> index + 1 ---- */

static uint32_t slot_of(const struct sim_mrc *m, uintptr_t line)
{
	return (uint32_t)(((uint64_t)line * 0xC2B2AE3D27D4EB4Full) >> (64 - m->tbits));
}

static uint32_t *find(struct sim_mrc *m, uintptr_t line)
{
	uint32_t mask = (1u << m->tbits) - 1;

	for (uint32_t s = slot_of(m, line);; s = (s + 1) & mask) {
		uint32_t *e = &m->table[s];
		if (*e == 0 || m->lines[*e - 1].line == line)
			return e;
	}
}

/* Renumbers the times of the lines kept (those whose hash is below the
 * threshold) 0, 1 ... in order, and builds the tree, the owners and the
 * table again. */
static void rebuild(struct sim_mrc *m)
{
	uint32_t k = 0, n = 0;

	/* new times, in the order of the old; UINT32_MAX: forgotten */
	for (uint32_t t = 0; t < m->now; t++) {
		uint32_t o = m->owner[t];
		if (!o)
			continue;
		struct sim_mrc_line *l = &m->lines[o - 1];
		l->time = sim_mrc_hash((uint64_t)l->line) < m->threshold ? k++ : UINT32_MAX;
	}
	for (uint32_t i = 0; i < m->nlines; i++)
		if (m->lines[i].time != UINT32_MAX)
			m->lines[n++] = m->lines[i];
	m->nlines = n;
	m->now = k;
	for (uint32_t t = 0; t < m->window; t++)
		m->owner[t] = 0;
	for (uint32_t i = 0; i <= m->window; i++)
		m->fenwick[i] = 0;
	for (uint32_t i = 0; i < ((uint32_t)1 << m->tbits); i++)
		m->table[i] = 0;
	for (uint32_t i = 0; i < n; i++) {
		m->owner[m->lines[i].time] = i + 1;
		*find(m, m->lines[i].line) = i + 1;
	}
	/* the tree in linear time: each node adds itself to its parent */
	for (uint32_t i = 1; i <= m->window; i++) {
		m->fenwick[i] += m->owner[i - 1] != 0;
		uint32_t parent = i + (i & -i);
		if (parent <= m->window)
			m->fenwick[parent] += m->fenwick[i];
	}
}

void sim_mrc_init(struct sim_mrc *m, uint32_t line_bits, uint32_t threshold, uint32_t max_lines,
		  void *mem)
{
	unsigned char *p = mem;

	if (max_lines < 2)
		max_lines = 2;
	if (threshold < 1)
		threshold = 1;
	if (threshold > SIM_MRC_ONE)
		threshold = SIM_MRC_ONE;
	m->line_bits = line_bits;
	m->threshold = threshold;
	m->max_lines = max_lines;
	m->window = 2 * max_lines;
	m->tbits = table_bits(max_lines);
	m->halvings = 0;
	m->lines = (struct sim_mrc_line *)(void *)p;
	p += round8(max_lines * sizeof(struct sim_mrc_line));
	m->fenwick = (uint32_t *)(void *)p;
	p += round8((m->window + 1) * sizeof(uint32_t));
	m->owner = (uint32_t *)(void *)p;
	p += round8(m->window * sizeof(uint32_t));
	m->table = (uint32_t *)(void *)p;
	m->nlines = 0;
	m->now = 0;
	rebuild(m);
}

/* The clock moves on; at the window's end, the times are renumbered. */
static void tick(struct sim_mrc *m)
{
	if (++m->now == m->window)
		rebuild(m);
}

unsigned sim_mrc_access(struct sim_mrc *m, uintptr_t a, uint64_t *weight)
{
	uintptr_t line = a >> m->line_bits;
	uint32_t *e = find(m, line);
	uint64_t d;

	*weight = SIM_MRC_WEIGHT_ONE * SIM_MRC_ONE / m->threshold;
	if (*e == 0) {
		if (m->nlines == m->max_lines) {
			/* full: half the lines are forgotten (on average) */
			do {
				m->threshold = m->threshold > 1 ? m->threshold / 2 : 1;
				m->halvings++;
				rebuild(m);
			} while (m->nlines == m->max_lines && m->threshold > 1);
			if (sim_mrc_hash((uint64_t)line) >= m->threshold || m->nlines == m->max_lines)
				return SIM_MRC_NBUCKETS;
			*weight = SIM_MRC_WEIGHT_ONE * SIM_MRC_ONE / m->threshold;
			e = find(m, line);
		}
		struct sim_mrc_line *l = &m->lines[m->nlines];
		l->line = line;
		l->time = m->now;
		*e = ++m->nlines;
		m->owner[m->now] = m->nlines;
		fw_add(m, m->now, 1);
		tick(m);
		return SIM_MRC_COLD;
	}
	struct sim_mrc_line *l = &m->lines[*e - 1];
	uint32_t t = l->time;
	/* the lines accessed since: marks after t (now is not marked yet) */
	d = (uint64_t)(fw_prefix(m, m->now - 1) - fw_prefix(m, t));
	fw_add(m, t, -1);
	m->owner[t] = 0;
	l->time = m->now;
	m->owner[m->now] = *e;
	fw_add(m, m->now, 1);
	tick(m);
	return sim_mrc_bucket(d * SIM_MRC_ONE / m->threshold);
}

unsigned sim_mrc_bucket(uint64_t d)
{
	unsigned k = 0;

	if (d == 0)
		return 0;
	while (k < 63 && (d >> (k + 1)) != 0)
		k++;
	if (k > SIM_MRC_MAX_OCTAVE)
		return 1 + 4 * SIM_MRC_MAX_OCTAVE + 3;
	if (k == 0)
		return 1;
	if (k == 1)
		return 1 + 4 + (unsigned)((d & 1) << 1);
	return 1 + 4 * k + (unsigned)((d >> (k - 2)) & 3);
}

uint64_t sim_mrc_bucket_low(unsigned b)
{
	unsigned k, s;

	if (b == 0)
		return 0;
	if (b >= SIM_MRC_COLD)
		return UINT64_MAX;
	k = (b - 1) / 4;
	s = (b - 1) % 4;
	if (k == 0)
		return 1;
	if (k == 1)
		return 2 + (s >> 1);
	return ((uint64_t)1 << k) + ((uint64_t)s << (k - 2));
}

void sim_mrc_adjust(uint64_t hist[SIM_MRC_NBUCKETS], uint64_t accesses)
{
	uint64_t want = accesses * SIM_MRC_WEIGHT_ONE, have = sim_mrc_total(hist);

	if (want >= have)
		hist[0] += want - have;
	else
		hist[0] = hist[0] > have - want ? hist[0] - (have - want) : 0;
}

uint64_t sim_mrc_misses(const uint64_t hist[SIM_MRC_NBUCKETS], uint64_t lines)
{
	uint64_t sum = 0;

	for (unsigned b = 0; b < SIM_MRC_NBUCKETS; b++)
		if (sim_mrc_bucket_low(b) >= lines)
			sum += hist[b];
	return sum;
}

uint64_t sim_mrc_total(const uint64_t hist[SIM_MRC_NBUCKETS])
{
	uint64_t sum = 0;

	for (unsigned b = 0; b < SIM_MRC_NBUCKETS; b++)
		sum += hist[b];
	return sum;
}
