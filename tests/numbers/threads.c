/* threads.c -- three threads doing known amounts of work, for
 * tests/numbers: every thread's start must be a root of the call tree,
 * and the roots must add up to the total.  The three are all alive at
 * once (a barrier with main): Valgrind gives a thread id again once its
 * thread has ended, so a worker done before the next one started made
 * two threads of one id, and run-parts saw fewer threads than it asks.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) static long work(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

static pthread_barrier_t all_started;

static void *worker(void *arg)
{
	long n = (long)arg;
	pthread_barrier_wait(&all_started);
	return (void *)work(n);
}

int main(void)
{
	pthread_t t[3];
	pthread_barrier_init(&all_started, NULL, 4);
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)(20000 * (i + 1)));
	pthread_barrier_wait(&all_started);
	long s = 0;
	for (int i = 0; i < 3; i++) {
		void *r;
		pthread_join(t[i], &r);
		s += (long)r;
	}
	printf("%ld\n", s);
	return 0;
}
