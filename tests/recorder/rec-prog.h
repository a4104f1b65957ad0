/* rec-prog.h -- an inline function in a header, so that one function's
 * instructions come from two files.
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef REC_PROG_H
#define REC_PROG_H

static inline long mix(long x, int k)
{
	for (int i = 0; i < k; i++)
		x = x * 31 + (x >> 3) + i;
	return x;
}

#endif
