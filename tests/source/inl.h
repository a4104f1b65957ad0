/* inl.h -- static inline helpers: their code ends up inside the callers.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef INL_H
#define INL_H

static inline unsigned mix(unsigned h, unsigned v)
{
	h ^= v;
	h *= 16777619u;
	return h;
}

static inline unsigned fold(const unsigned *a, int n)
{
	unsigned h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = mix(h, a[i]);
	return h;
}

#endif
