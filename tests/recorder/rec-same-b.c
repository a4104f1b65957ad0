/* rec-same-b.c -- the other helper (see rec-same-a.c).
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
static __attribute__((noinline)) int helper(int x)
{
	int s = 1;
	for (int i = 0; i < x; i++)
		s ^= i * 3;
	return s;
}

int fb(int x);

int fb(int x)
{
	return helper(x);
}
