/* spin.c -- the program run-tui.sh records to see views redrawn with newer
 * data: main calls outer, outer calls inner, a leaf, until 60 s have gone
 * (the test's q ends it long before).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <time.h>

static volatile unsigned long sink;

static void __attribute__((noinline)) inner(void)
{
	for (unsigned long i = 0; i < 100000; i++)
		sink += i;
}

static void __attribute__((noinline)) outer(void)
{
	inner();
}

int main(void)
{
	time_t end = time(NULL) + 60;
	while (time(NULL) < end)
		outer();
	return 0;
}
