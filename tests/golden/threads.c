/* threads.c - two threads doing different amounts of work.  A barrier keeps
 * both alive at once, so that Valgrind gives them distinct thread ids and
 * callgrind --separate-threads=yes writes one file per thread (3 in all). */
#include <pthread.h>
#include <stdio.h>

struct job {
	int n;
	unsigned result;
};

static pthread_barrier_t start;

static __attribute__((noinline)) unsigned crunch(int n)
{
	unsigned h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned)i) * 16777619u;
	return h;
}

static void *worker(void *arg)
{
	struct job *j = arg;
	pthread_barrier_wait(&start);
	j->result = crunch(j->n);
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	struct job jobs[2] = { { 20000, 0 }, { 50000, 0 } };

	pthread_barrier_init(&start, NULL, 3);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, &jobs[i]);
	pthread_barrier_wait(&start);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start);
	printf("%u %u %u\n", jobs[0].result, jobs[1].result, crunch(1000));
	return 0;
}
