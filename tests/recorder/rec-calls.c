/* rec-calls.c -- a program for the call-graph tests: recursion, mutual
 * recursion, calls through function pointers, qsort calling back, longjmp
 * out of a call chain, a signal handler that calls, tail calls; with
 * "thread" two more threads, with "fork" a child process.  "restorer"
 * prints where the C library's signal return code is (object and offset,
 * as callgrind names code without a symbol) and does nothing else.
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <libgen.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 2000

static int values[N];
static pthread_barrier_t all_started; /* both workers alive at once: their
					 thread ids differ in every run */
static jmp_buf env;
static volatile long sink;

__attribute__((noinline)) static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static int is_odd(unsigned n);

__attribute__((noinline)) static int is_even(unsigned n)
{
	sink++;
	return n == 0 ? 1 : is_odd(n - 1);
}

__attribute__((noinline)) static int is_odd(unsigned n)
{
	sink++;
	return n == 0 ? 0 : is_even(n - 1);
}

__attribute__((noinline)) static long square(long x)
{
	return x * x;
}

__attribute__((noinline)) static long cube(long x)
{
	return x * x * x;
}

static long (*const ops[2])(long) = { square, cube };

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

__attribute__((noinline)) static void deep(int n)
{
	sink += n;
	if (n == 0)
		longjmp(env, 1);
	deep(n - 1);
	sink--; /* not reached: keeps the call from being a tail call */
}

__attribute__((noinline)) static long leaf(long x)
{
	sink += x;
	return x + 1;
}

/* an interpreter-like loop: a table of handlers called in turn */
__attribute__((noinline)) static long step(long acc, int op)
{
	return ops[op & 1](acc % 1000) + leaf(op);
}

static void on_signal(int sig)
{
	sink += leaf(sig);
}

static void *worker(void *arg)
{
	long *out = arg;
	pthread_barrier_wait(&all_started);
	for (int i = 0; i < 200; i++)
		*out += step(i, i);
	*out += fib(12);
	return NULL;
}

static void work(void)
{
	long acc = 0;
	for (int i = 0; i < N; i++)
		values[i] = (int)((i * 7919u) % 1000u);
	qsort(values, N, sizeof(values[0]), cmp_int);
	acc += fib(15);
	acc += is_even(301);
	for (int i = 0; i < 500; i++)
		acc = step(acc, i);
	for (int r = 0; r < 3; r++)
		if (setjmp(env) == 0)
			deep(10 + r);
	signal(SIGUSR1, on_signal);
	raise(SIGUSR1);
	sink += acc;
}

/* The code a signal handler returns to (sa_restorer, set by the C
 * library's sigaction), as "OBJECT 0xOFFSET". */
static int print_restorer(void)
{
	struct sigaction sa;
	Dl_info di;
	signal(SIGUSR1, on_signal);
	if (sigaction(SIGUSR1, NULL, &sa) != 0 || !dladdr((void *)sa.sa_restorer, &di) ||
	    !di.dli_fname)
		return 1;
	printf("%s 0x%016lx\n", basename((char *)di.dli_fname),
	       (unsigned long)((char *)(void *)sa.sa_restorer - (char *)di.dli_fbase));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "restorer") == 0)
		return print_restorer();
	if (argc > 1 && strcmp(argv[1], "fork") == 0) {
		pid_t pid = fork();
		if (pid == 0) {
			work();
			return 0;
		}
		waitpid(pid, NULL, 0);
	}
	if (argc > 1 && strcmp(argv[1], "thread") == 0) {
		pthread_t t[2];
		long out[2] = { 0, 0 };
		pthread_barrier_init(&all_started, NULL, 2);
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, worker, &out[i]);
		work();
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		sink += out[0] + out[1];
	} else {
		work();
	}
	printf("%ld\n", (long)sink);
	return 0;
}
