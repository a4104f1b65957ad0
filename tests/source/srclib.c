/* srclib.c -- a small shared library of ours, for addresses relative to
 * its load bias.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "srclib.h"

int lib_sum(const int *a, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (a[i] & 1)
			s += a[i];
		else
			s -= a[i] / 2;
	}
	return s;
}
