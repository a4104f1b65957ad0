/* paths.c -- the call graph of the export and JSON tests: leaf() is
 * called from three places (left, right, and down at every level of its
 * recursion), so a path's cost is known only from the calls into the
 * function just before it; main, left, right and down have one caller.
 * SPDX-License-Identifier: GPL-2.0-or-later */
static volatile unsigned sink;

__attribute__((noinline)) static unsigned leaf(int n)
{
	unsigned s = 0;
	for (int i = 0; i < n; i++)
		s += (unsigned)i * 3u;
	return s;
}

__attribute__((noinline)) static unsigned left(void)
{
	unsigned s = 0;
	for (int i = 0; i < 1000; i++)
		s ^= (unsigned)i;
	return s + leaf(2000);
}

__attribute__((noinline)) static unsigned right(void)
{
	return leaf(5000) + 1;
}

__attribute__((noinline)) static unsigned down(int d)
{
	return d ? down(d - 1) + leaf(100) : 0;
}

int main(void)
{
	sink = left();
	sink = right();
	sink = down(5);
	return 0;
}
