/* live-prog.c -- a program for the recording tests (tests/live): one mode
 * per case of `cgtui prog args` that must not lose the profile or hang.
 *
 *   live-prog spin MS          compute for MS milliseconds (wall clock)
 *   live-prog work N           N rounds of work(), then exit 0
 *   live-prog exit N           work, then exit with status N
 *   live-prog segv             work, then a NULL dereference
 *   live-prog fork             work in a child and in the parent
 *   live-prog threads          work in two threads
 *   live-prog closefds         close every descriptor, then work
 *   live-prog flood MB         write MB megabytes to stdout and stderr
 *   live-prog stdin            copy stdin to stdout, count its bytes
 *   live-prog window           before(); measured() between
 *                              CGTUI_START/STOP_INSTRUMENTATION; after()
 *                              (callgrind's requests with -DUSE_CALLGRIND_H)
 *   live-prog nointr MS        ignore SIGINT, compute for MS milliseconds
 *   live-prog forkspin MS      fork (the parent calls forked(), the child
 *                              child_side()); both compute for MS
 *                              milliseconds
 *   live-prog forkwait N FILE  N rounds of work(), then fork: the parent
 *                              waits for the child (waitpid), which
 *                              computes while FILE exists (not in work())
 *   live-prog tty              open /dev/tty: "tty: yes" or "tty: no"
 *   live-prog sleep MS         sleep MS milliseconds at once
 *   live-prog zero             work, CALLGRIND_ZERO_STATS and
 *                              CALLGRIND_TOGGLE_COLLECT (with callgrind.h)
 *   live-prog dump             main -> outer -> inner: work,
 *                              CALLGRIND_DUMP_STATS, work (with callgrind.h)
 *   live-prog dump2 [fork]     work, CALLGRIND_DUMP_STATS, work,
 *                              CALLGRIND_DUMP_STATS, work (with
 *                              callgrind.h); with fork, a child forked
 *                              first works and ends (it dumps nothing)
 *   live-prog dumpspin MS      before(), CALLGRIND_DUMP_STATS, then
 *                              measured() for MS milliseconds (with
 *                              callgrind.h)
 *   live-prog nest MS          main -> outer -> inner: compute for MS
 *                              milliseconds (calls running all along)
 *   live-prog cycle MS         main -> ping -> pong -> ping -> pong (a
 *                              cycle): compute for MS milliseconds
 *   live-prog startin          main -> outer -> inner -> start_now: the
 *                              counting starts there (--instr-at-start=no)
 *   live-prog stopstart        main stops the counting, then as startin
 *   live-prog reuse            work in a thread, joined, then in another
 *                              (Valgrind gives both the same thread id)
 *
 * For spin, nointr, forkspin, nest and cycle, MS may be a file's name instead
 * (anything but a number): compute while that file exists, at most 10
 * minutes.  A test removes the file when it has seen what it needs, so the
 * program cannot end before (a fixed time did, on a loaded machine), and
 * removing the test's directory stops a program left behind.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef USE_CALLGRIND_H
#include <valgrind/callgrind.h>
#define CGTUI_START_INSTRUMENTATION CALLGRIND_START_INSTRUMENTATION
#define CGTUI_STOP_INSTRUMENTATION CALLGRIND_STOP_INSTRUMENTATION
#else
#include "cgtui.h"
#endif
#include <signal.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void work(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < 100; j++)
			sink += (unsigned long)(i ^ j);
}

__attribute__((noinline)) static void before(void)
{
	work(50);
}

__attribute__((noinline)) static void measured(void)
{
	for (int i = 0; i < 1000; i++)
		sink += (unsigned long)i * 3;
	work(10);
}

__attribute__((noinline)) static void forked(void)
{
	work(1);
}

__attribute__((noinline)) static void child_side(void)
{
	work(1);
}

__attribute__((noinline)) static void after(void)
{
	work(70);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The end of the modes that compute for MS: that many milliseconds from now, or
 * while run_file exists (at most 10 minutes, then the program ends as if
 * it had been removed: a test that never removes it cannot hang). */
static double stop_at;
static const char *run_file;

static void run_for(const char *arg)
{
	char *end;
	double ms = strtod(arg, &end);
	if (*arg && !*end) {
		stop_at = now_ms() + ms;
	} else {
		stop_at = now_ms() + 600000;
		run_file = arg;
	}
}

static int go_on(void)
{
	struct stat st;
	return now_ms() < stop_at && (!run_file || stat(run_file, &st) == 0);
}

/* inner() runs `during` while outer() and main() wait for it */
__attribute__((noinline)) static void inner(void (*during)(long), long arg)
{
	work(50);
	during(arg);
	work(30);
}

__attribute__((noinline)) static void outer(void (*during)(long), long arg)
{
	work(20);
	inner(during, arg);
	work(10);
}

/* computes until run_for()'s end */
__attribute__((noinline)) static void spin_ms(long unused)
{
	(void)unused;
	while (go_on())
		work(100);
}

/* ping and pong call each other, n times each, then spin_ms */
static void ping(int n);

__attribute__((noinline)) static void pong(int n)
{
	work(5);
	ping(n - 1);
}

__attribute__((noinline)) static void ping(int n)
{
	work(5);
	if (n > 0)
		pong(n);
	else
		spin_ms(0);
}

#ifdef USE_CALLGRIND_H
__attribute__((noinline)) static void dump_now(long unused)
{
	(void)unused;
	CALLGRIND_DUMP_STATS;
}
#endif

/* counting starts while its callers run */
__attribute__((noinline)) static void start_now(long unused)
{
	(void)unused;
	CGTUI_START_INSTRUMENTATION;
}

static void *thread_main(void *arg)
{
	work(*(int *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "work";
	const char *arg = argc > 2 ? argv[2] : "100";
	if (!strcmp(mode, "spin")) {
		run_for(arg);
		while (go_on())
			work(100);
	} else if (!strcmp(mode, "nointr")) {
		signal(SIGINT, SIG_IGN);
		run_for(arg);
		while (go_on())
			work(100);
	} else if (!strcmp(mode, "forkspin")) {
		pid_t pid = fork();
		if (pid > 0)
			forked();
		else if (pid == 0)
			child_side();
		run_for(arg);
		while (go_on())
			work(100);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	} else if (!strcmp(mode, "forkwait")) {
		work(atoi(arg));
		pid_t pid = fork();
		if (pid == 0) {
			run_for(argc > 3 ? argv[3] : "0");
			while (go_on())
				sink++;
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	} else if (!strcmp(mode, "tty")) {
		FILE *f = fopen("/dev/tty", "w");
		printf("tty: %s\n", f ? "yes" : "no");
		if (f)
			fclose(f);
	} else if (!strcmp(mode, "work")) {
		work(atoi(arg));
	} else if (!strcmp(mode, "exit")) {
		work(100);
		printf("exiting with %d\n", atoi(arg));
		return atoi(arg);
	} else if (!strcmp(mode, "segv")) {
		work(100);
		fflush(stdout);
		volatile int *p = NULL;
		return *p;
	} else if (!strcmp(mode, "fork")) {
		pid_t pid = fork();
		if (pid == 0) {
			work(300);
			_exit(0);
		}
		work(200);
		int st;
		waitpid(pid, &st, 0);
	} else if (!strcmp(mode, "threads")) {
		pthread_t a, b;
		int na = 200, nb = 300;
		pthread_create(&a, NULL, thread_main, &na);
		pthread_create(&b, NULL, thread_main, &nb);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
	} else if (!strcmp(mode, "reuse")) {
		pthread_t a, b;
		int na = 200, nb = 300;
		pthread_create(&a, NULL, thread_main, &na);
		pthread_join(a, NULL);
		pthread_create(&b, NULL, thread_main, &nb);
		pthread_join(b, NULL);
	} else if (!strcmp(mode, "startin") || !strcmp(mode, "stopstart")) {
		work(5);
		if (!strcmp(mode, "stopstart"))
			CGTUI_STOP_INSTRUMENTATION;
		outer(start_now, 0);
		work(7);
	} else if (!strcmp(mode, "closefds")) {
		struct rlimit rl;
		getrlimit(RLIMIT_NOFILE, &rl);
		for (int fd = 0; fd < (int)rl.rlim_cur; fd++)
			close(fd);
		work(200);
	} else if (!strcmp(mode, "flood")) {
		static char buf[65536];
		memset(buf, 'x', sizeof(buf));
		for (int i = 0; i < atoi(arg) * 16; i++) {
			if (fwrite(buf, 1, sizeof(buf), i % 2 ? stderr : stdout) != sizeof(buf))
				return 3;
		}
	} else if (!strcmp(mode, "sleep")) {
		struct timespec ts = { atoi(arg) / 1000, atoi(arg) % 1000 * 1000000L };
		nanosleep(&ts, NULL);
	} else if (!strcmp(mode, "stdin")) {
		char buf[4096];
		size_t n, total = 0;
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
			fwrite(buf, 1, n, stdout);
			total += n;
		}
		printf("stdin: %zu bytes\n", total);
	} else if (!strcmp(mode, "nest")) {
		run_for(arg);
		outer(spin_ms, 0);
	} else if (!strcmp(mode, "cycle")) {
		run_for(arg);
		ping(3);
#ifdef USE_CALLGRIND_H
	} else if (!strcmp(mode, "dump")) {
		outer(dump_now, 0);
		work(5);
	} else if (!strcmp(mode, "dump2")) {
		pid_t pid = argc > 2 && !strcmp(arg, "fork") ? fork() : -1;
		if (pid == 0) {
			work(30);
			_exit(0);
		}
		work(10);
		CALLGRIND_DUMP_STATS;
		work(20);
		CALLGRIND_DUMP_STATS;
		work(30);
		if (pid > 0)
			waitpid(pid, NULL, 0);
	} else if (!strcmp(mode, "dumpspin")) {
		before();
		CALLGRIND_DUMP_STATS;
		run_for(arg);
		while (go_on())
			measured();
	} else if (!strcmp(mode, "zero")) {
		work(10);
		CALLGRIND_ZERO_STATS;
		CALLGRIND_TOGGLE_COLLECT;
		work(10);
		CALLGRIND_TOGGLE_COLLECT;
#endif
	} else if (!strcmp(mode, "window")) {
		before();
		CGTUI_START_INSTRUMENTATION;
		measured();
		CGTUI_STOP_INSTRUMENTATION;
		after();
	} else {
		fprintf(stderr, "live-prog: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}
