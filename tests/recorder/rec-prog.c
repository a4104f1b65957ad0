/* rec-prog.c -- a small program for the recorder tests: loops, calls,
 * recursion, qsort with a callback, inlined code from a header, and
 * translations thrown away on purpose; with the argument "thread", a second
 * thread (whose timing changes what the C library executes from run to
 * run); with "fork", a child process.
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include "rec-prog.h"

#define N 3000

static int values[N];

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static long hash_all(const int *v, int n, int k)
{
	long h = 0;
	for (int i = 0; i < n; i++)
		h += mix(v[i], k);
	return h;
}

static void fill(int *v, int n, unsigned seed)
{
	for (int i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (int)(seed >> 8) % 100000;
	}
}

static void *worker(void *arg)
{
	long *out = arg;
	for (int r = 0; r < 20; r++)
		*out += hash_all(values, N, 2);
	return NULL;
}

int main(int argc, char **argv)
{
	long result = 0;
	pthread_t t;
	long from_thread = 0;

	if (argc > 1 && strcmp(argv[1], "fork") == 0) {
		pid_t pid = fork();
		if (pid == 0) {
			fill(values, N, 7);
			printf("child %ld\n", hash_all(values, N, 3));
			return 0;
		}
		waitpid(pid, NULL, 0);
	}
	fill(values, N, 1);
	qsort(values, N, sizeof(values[0]), cmp_int);
	result += fib(20);
	for (int round = 0; round < 4; round++) {
		result += hash_all(values, N, round + 1);
		/* the next round runs on new translations of hash_all */
		VALGRIND_DISCARD_TRANSLATIONS((void *)(uintptr_t)hash_all, 256);
	}
	if (argc > 1 && strcmp(argv[1], "thread") == 0 &&
	    pthread_create(&t, NULL, worker, &from_thread) == 0)
		pthread_join(t, NULL);
	printf("%ld %ld\n", result, from_thread);
	return 0;
}
