/* rec-plug.c -- a shared library that rec-dl loads and unloads.
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
long plug_work(int n);

long plug_work(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += (long)i * i % 7;
	return s;
}
