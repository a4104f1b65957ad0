/* test-bus.c -- a profile file that shrinks while it is read in place.
 *
 * A file read through a mapping (the default for a plain file) raises
 * SIGBUS when the reader touches a page beyond its new end: POSIX mmap(),
 * "references within the address range starting at pa and continuing for
 * len bytes to whole pages following the end of an object shall result in
 * delivery of a SIGBUS signal"; Linux drops a truncated file's pages from
 * every mapping at once.  The loader must then fail the load with
 * "FILE:LINE: the file shrank while it was read" and carry on.  Here the
 * file is truncated from the load's own progress callback, so the fault
 * comes at a known moment:
 *
 * - one load: the error, and the process goes on to load again;
 * - two threads loading at once, both inside their mapped reads when the
 *   first one's file shrinks: each gets its own error, about its own file
 *   (a single jump target shared by the threads sends the first fault into
 *   the other thread's frame);
 * - a SIGBUS outside any load, after one: not swallowed by the loader's
 *   handler -- the program ends as it would without it (killed by SIGBUS,
 *   or the sanitizer's report in a sanitizer build), rather than looping on
 *   the faulting access.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "fixture.h"

/* A Callgrind file of about 1 MB: one function, n cost lines. */
static char *write_big(const char *name)
{
	const char head[] = "events: Ir\nfl=a.c\nfn=f\n1 1\n";
	enum { N = 200000 };
	size_t hl = sizeof(head) - 1, len = hl + (size_t)N * 5;
	char *t = xmalloc(len);
	memcpy(t, head, hl);
	for (size_t i = 0; i < N; i++)
		memcpy(t + hl + i * 5, "+1 2\n", 5);
	char *path = write_tmp(name, t, len);
	free(t);
	return path;
}

/* Does err say "PATH:LINE: the file shrank while it was read"? */
static int says_shrank(const char *err, const char *path)
{
	size_t pl = strlen(path);
	if (strncmp(err, path, pl) != 0 || err[pl] != ':')
		return 0;
	char *end;
	unsigned long line = strtoul(err + pl + 1, &end, 10);
	return line > 0 && strcmp(end, ": the file shrank while it was read") == 0;
}

struct shrink {
	const char *path;
	pthread_barrier_t *inside; /* NULL: alone; else wait for the other load */
	pthread_barrier_t *after;  /* NULL, or wait here until the first load is over */
	int calls;
};

/* The progress callback: at its first call (the load is inside its mapped
 * read then), truncates the file to nothing. */
static int shrink_now(void *arg, uint64_t done, uint64_t size)
{
	struct shrink *s = arg;
	if (s->calls++)
		return 0;
	if (s->inside)
		pthread_barrier_wait(s->inside);
	if (s->after)
		pthread_barrier_wait(s->after);
	if (truncate(s->path, 0) < 0)
		perror("truncate");
	return 0;
}

struct job {
	struct shrink sh;
	int rc;
	char err[512];
};

static void *load_job(void *arg)
{
	struct job *j = arg;
	struct profile p;
	profile_init(&p);
	struct load_opts lo = { .sign = 1, .progress = shrink_now, .progress_arg = &j->sh };
	j->rc = profile_load(&p, j->sh.path, &lo, j->err, sizeof(j->err));
	profile_free(&p);
	return NULL;
}

static void test_one(void)
{
	char *path = write_big("one.out");
	struct job j = { .sh = { .path = path } };
	load_job(&j);
	is(j.rc, -1, "a file that shrinks while it is read: the load fails");
	ok(says_shrank(j.err, path), "... with FILE:LINE: the file shrank while it was read: %s",
	   j.err);
	ok(j.sh.calls >= 1, "... (it was truncated while being read)");
	free(path);

	/* and the process goes on: the next load is whole */
	path = write_big("two.out");
	struct profile p;
	profile_init(&p);
	ok(profile_load(&p, path, NULL, lasterr, sizeof(lasterr)) == 0,
	   "then a file that stays loads: %s", lasterr);
	profile_finish(&p);
	is(p.totals[0], 1 + 2 * 200000, "... all of it (1 + 2 x 200,000)");
	profile_free(&p);
	free(path);
}

static void test_threads(void)
{
	pthread_barrier_t inside, after;
	pthread_barrier_init(&inside, NULL, 2);
	pthread_barrier_init(&after, NULL, 2);
	struct job a = { .sh = { .path = write_big("a.out"), .inside = &inside } };
	struct job b = { .sh = { .path = write_big("b.out"), .inside = &inside, .after = &after } };
	pthread_t ta, tb;
	pthread_create(&tb, NULL, load_job, &b);
	pthread_create(&ta, NULL, load_job, &a);
	pthread_join(ta, NULL);
	/* a's load is over; b is still inside its own, waiting */
	pthread_barrier_wait(&after);
	pthread_join(tb, NULL);
	is(a.rc, -1, "two threads: the first file shrinks, its load fails");
	ok(says_shrank(a.err, a.sh.path), "... with its own error: %s", a.err);
	is(b.rc, -1, "two threads: the second shrinks after the first load ended, it fails too");
	ok(says_shrank(b.err, b.sh.path), "... with its own error: %s", b.err);
	pthread_barrier_destroy(&inside);
	pthread_barrier_destroy(&after);
	free((char *)a.sh.path);
	free((char *)b.sh.path);
}

static void test_outside(void)
{
	char *path = write_big("c.out");
	char *page = write_big("page.out");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		alarm(10); /* a handler that swallowed the SIGBUS would loop */
		int null = open("/dev/null", O_WRONLY); /* (a sanitizer's report) */
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		struct profile p;
		profile_init(&p);
		if (profile_load(&p, path, NULL, lasterr, sizeof(lasterr)) != 0)
			_exit(3);
		int fd = open(page, O_RDONLY);
		const volatile char *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		if (fd < 0 || m == MAP_FAILED || truncate(page, 0) < 0)
			_exit(4);
		(void)m[0]; /* SIGBUS, outside any load */
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
#ifdef __SANITIZE_ADDRESS__
	ok(WIFEXITED(st) && WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 3 && WEXITSTATUS(st) != 4,
	   "a SIGBUS after a load, outside it: the sanitizer's handler reports it (status %#x)",
	   st);
#else
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS,
	   "a SIGBUS after a load, outside it: the program is killed by SIGBUS (status %#x)", st);
#endif
	free(path);
	free(page);
}

int main(void)
{
	if (fixture_start() < 0)
		return 1;
	(void)load; /* fixture.h's, unused here */
	(void)fn;
	test_one();
	test_threads();
	test_outside();
	fixture_end();
	return tap_done();
}
