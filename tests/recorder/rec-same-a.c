/* rec-same-a.c, rec-same-b.c -- two static functions of one name, helper,
 * one in each file of the program: two functions, as callgrind has them
 * (helper in rec-same-a.c: 1000 trips of its loop; in rec-same-b.c:
 * 3000), each called once, by fa and fb.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
static __attribute__((noinline)) int helper(int x)
{
	int s = 0;
	for (int i = 0; i < x; i++)
		s += i;
	return s;
}

int fa(int x);
int fb(int x);

int fa(int x)
{
	return helper(x);
}

static volatile int sink;

int main(void)
{
	sink = fa(1000) + fb(3000);
	return 0;
}
