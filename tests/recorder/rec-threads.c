/* rec-threads.c -- three threads besides main, for the call-graph tests.
 *
 *   rec-threads      the three run at once: each waits, when done, for a
 *                    byte from a pipe that main writes after making all
 *                    three (so Valgrind gives them thread ids 2, 3, 4)
 *   rec-threads seq  one after the other: made, let go, joined (Valgrind
 *                    gives each the id 2 the one before had; the C
 *                    library gives each the stack the one before had)
 *   rec-threads up   the same, each on a stack of the program's above the
 *                    one before
 *
 * A thread's own code runs the same instructions either way (read() does
 * the same in user space whether it waits in the kernel or not): only
 * main's side (pthread_join waiting or not) varies from run to run.
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define STACK (256 * 1024)

static int go[2];
static volatile long sink;
static char stacks[3][STACK] __attribute__((aligned(4096)));

__attribute__((noinline)) static long leaf(long x)
{
	sink += x;
	return x * 3;
}

__attribute__((noinline)) static long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

static void *worker(void *arg)
{
	char c;
	sink += spin((long)arg);
	if (read(go[0], &c, 1) != 1)
		sink = -1;
	return NULL;
}

int main(int argc, char **argv)
{
	int up = argc > 1 && strcmp(argv[1], "up") == 0;
	int seq = up || (argc > 1 && strcmp(argv[1], "seq") == 0);
	pthread_t t[3];
	pthread_attr_t attr;
	if (pipe(go) != 0 || pthread_attr_init(&attr) != 0)
		return 1;
	for (long i = 0; i < 3; i++) {
		if (up && pthread_attr_setstack(&attr, stacks[i], STACK) != 0)
			return 1;
		if (pthread_create(&t[i], up ? &attr : NULL, worker, (void *)(1000 * (i + 1))) != 0)
			return 1;
		if (seq && (write(go[1], "x", 1) != 1 || pthread_join(t[i], NULL) != 0))
			return 1;
	}
	if (!seq) {
		if (write(go[1], "xxx", 3) != 3)
			return 1;
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
	}
	printf("%ld\n", (long)sink);
	return 0;
}
