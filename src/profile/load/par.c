/* par.c -- parallel parsing of a mapped plain file (issue 19).
 *
 * When the serial reader (fast.c's loop) first meets a run of cost lines,
 * the header is read and the rest of the file is cut into chunks, each
 * ending before a line "fn=" that follows an empty line or a cost line (a
 * function's block; any line start when none is near).  Worker threads
 * (load_opts.jobs - 1 of them) take chunks in file order and read the runs
 * of plain cost lines in them -- most of a profile's bytes -- into
 * summaries (fast.c's chunk_runs()): the costs summed per event, the last
 * line's costs, the subpositions as absolute values or as deltas, since a
 * worker knows neither the positions before a run (format spec 3.1.6,
 * "Subposition Compression": relative to the previous cost line), nor the
 * file, function, object or compressed ids in force (3.1.5): those stay
 * the serial reader's, which reads every other line as with one job.
 * Where it meets a run, it applies the run's summary when one starts
 * there and holds for its state (no calls= pending, line records
 * deferred, the sums' room, line numbers in range: fast.c's run_apply());
 * else it reads the run itself -- so the profile is the same with any
 * number of jobs.  A chunk no worker has begun when the reader reaches it
 * is the reader's own; one being read is waited for.  Workers stay a few
 * chunks ahead, so the summaries held stay small.
 *
 * CGTUI_CHUNK_BYTES (environment) sets the chunk size, for tests;
 * CGTUI_PAR_DEBUG=1 prints what the workers did and the reader's CPU time
 * (the serial part), for bench/load-bench.py.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_DEFAULT (8u << 20)
#define PAR_MIN_BYTES (4u << 20) /* smaller files: one thread */
#define MAX_JOBS 256

struct par {
	const char *base, *fast_end;
	int npos, nev, linek;
	struct par_chunk *c;
	size_t nc;
	size_t cur;          /* the chunk the reader is in */
	size_t next;         /* the next chunk for a worker (atomic) */
	size_t ahead;        /* how far ahead of cur workers may go */
	int stop;            /* atomic */
	pthread_mutex_t mu;
	pthread_cond_t done; /* a chunk became PC_DONE */
	pthread_t *th;
	int nth;
	uint64_t dbg[2];
};

static size_t chunk_bytes(void)
{
	const char *e = getenv("CGTUI_CHUNK_BYTES");
	if (e && *e) {
		long long v = atoll(e);
		if (v >= 1)
			return (size_t)v;
	}
	return CHUNK_DEFAULT;
}

int load_jobs(int want)
{
	if (want > 0)
		return want > MAX_JOBS ? MAX_JOBS : want;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

/* The start of the line after the one at or before s */
static const char *next_line(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	return nl ? nl + 1 : end;
}

/* Where a chunk that should end near want ends: before a line "fn="
 * after an empty line or a cost line, within 1 MiB, else at a line start. */
static const char *cut_at(const char *from, const char *want, const char *end)
{
	const char *s = next_line(want, end), *lim = s + (1u << 20);
	if (lim > end)
		lim = end;
	for (const char *t = s; t < lim;) {
		const char *f = memmem(t, (size_t)(lim - t), "\nfn=", 4);
		if (!f || f + 1 >= lim)
			break;
		/* the line before f + 1: empty, or a cost line */
		const char *b = f;
		while (b > from && b[-1] != '\n')
			b--;
		if (b == f || cost_start(*b))
			return f + 1;
		t = f + 1;
	}
	return s;
}

static void *worker(void *arg)
{
	struct par *pa = arg;
	for (;;) {
		size_t i = __atomic_fetch_add(&pa->next, 1, __ATOMIC_ACQ_REL);
		if (i >= pa->nc)
			return NULL;
		/* stay near the reader: what is summed waits for it in memory */
		while (i > __atomic_load_n(&pa->cur, __ATOMIC_ACQUIRE) + pa->ahead) {
			if (__atomic_load_n(&pa->stop, __ATOMIC_ACQUIRE))
				return NULL;
			usleep(200);
		}
		if (__atomic_load_n(&pa->stop, __ATOMIC_ACQUIRE))
			return NULL;
		struct par_chunk *c = &pa->c[i];
		int expect = PC_FREE;
		if (!__atomic_compare_exchange_n(&c->state, &expect, PC_BUSY, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue; /* the reader's own */
		sigjmp_buf jb, *volatile prev = NULL;
		if (sigsetjmp(jb, 1)) {
			c->nrs = 0; /* the file shrank: the reader finds out itself */
		} else {
			prev = bus_guard(&jb);
			chunk_runs(c, pa->base, pa->fast_end, pa->npos, pa->nev, pa->linek);
		}
		bus_guard(prev);
		pthread_mutex_lock(&pa->mu);
		__atomic_store_n(&c->state, PC_DONE, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&pa->done);
		pthread_mutex_unlock(&pa->mu);
	}
}

/* Chunks and workers for the bytes from s on, or NULL (one job, a small
 * file, no thread). */
static struct par *par_start(struct parser *ps, struct mapread *m, const char *s)
{
	int jobs = load_jobs(ps->o->jobs);
	if (jobs < 2 || (!getenv("CGTUI_CHUNK_BYTES") && (size_t)(m->end - s) < PAR_MIN_BYTES))
		return NULL;
	struct par *pa = xcalloc(1, sizeof(*pa));
	pa->base = m->base;
	pa->fast_end = m->end - (FAST_MAX_LINE + 32);
	pa->npos = ps->npos;
	pa->nev = ps->nev;
	pa->linek = ps->linek;
	size_t want = chunk_bytes(), cap = 16;
	pa->c = xcalloc(cap, sizeof(*pa->c));
	const char *from = s;
	while (from < m->end) {
		const char *to = (size_t)(m->end - from) <= want ? m->end
								: cut_at(from, from + want, m->end);
		if (pa->nc == cap) {
			pa->c = xreallocarray(pa->c, cap * 2, sizeof(*pa->c));
			memset(pa->c + cap, 0, cap * sizeof(*pa->c));
			cap *= 2;
		}
		pa->c[pa->nc].start = (uint64_t)(from - m->base);
		pa->c[pa->nc].end = (uint64_t)(to - m->base);
		pa->nc++;
		from = to;
	}
	pa->ahead = 2 * (size_t)jobs + 2;
	pthread_mutex_init(&pa->mu, NULL);
	pthread_cond_init(&pa->done, NULL);
	pa->th = xcalloc((size_t)jobs - 1, sizeof(*pa->th));
	/* the first chunk is the reader's: it is there already */
	pa->c[0].state = PC_SERIAL;
	pa->next = 1;
	for (int i = 0; i < jobs - 1; i++)
		if (pthread_create(&pa->th[pa->nth], NULL, worker, pa) == 0)
			pa->nth++;
	return pa;
}

static void chunk_free(struct par_chunk *c)
{
	free(c->rs);
	free(c->vals);
	c->rs = NULL;
	c->vals = NULL;
	c->nrs = c->caprs = c->nvals = c->capvals = 0;
}

const char *par_run(struct parser *ps, struct mapread *m, const char *s, uint64_t *nlines)
{
	struct par *pa = m->par;
	if (!pa) {
		if (!ps->p->ls.lazy || !(pa = m->par = par_start(ps, m, s))) {
			m->par_off = 1;
			return NULL;
		}
	}
	if (getenv("CGTUI_PAR_DEBUG"))
		pa->dbg[0]++;
	if (pa->npos != ps->npos || pa->nev != ps->nev || pa->linek != ps->linek)
		return NULL;
	uint64_t off = (uint64_t)(s - m->base);
	while (pa->cur < pa->nc && off >= pa->c[pa->cur].end) {
		chunk_free(&pa->c[pa->cur]);
		__atomic_store_n(&pa->cur, pa->cur + 1, __ATOMIC_RELEASE);
	}
	if (pa->cur >= pa->nc || off < pa->c[pa->cur].start)
		return NULL;
	struct par_chunk *c = &pa->c[pa->cur];
	int st = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
	if (st == PC_FREE) {
		int expect = PC_FREE;
		if (__atomic_compare_exchange_n(&c->state, &expect, PC_SERIAL, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return NULL;
		st = expect;
	}
	if (st == PC_SERIAL)
		return NULL;
	if (st == PC_BUSY) {
		pthread_mutex_lock(&pa->mu);
		while (__atomic_load_n(&c->state, __ATOMIC_ACQUIRE) != PC_DONE)
			pthread_cond_wait(&pa->done, &pa->mu);
		pthread_mutex_unlock(&pa->mu);
	}
	while (c->cur < c->nrs && c->rs[c->cur].start < off)
		c->cur++;
	if (c->cur >= c->nrs || c->rs[c->cur].start != off)
		return NULL;
	const struct run_sum *r = &c->rs[c->cur];
	if (!run_apply(ps, r, c->vals + r->vals))
		return NULL;
	c->cur++;
	pa->dbg[1]++;
	*nlines = r->nlines;
	return m->base + r->end;
}

void par_stop(struct mapread *m)
{
	struct par *pa = m->par;
	if (!pa)
		return;
	if (getenv("CGTUI_PAR_DEBUG")) {
		size_t ser = 0;
		for (size_t i = 0; i < pa->nc; i++)
			ser += pa->c[i].state == PC_SERIAL;
		struct timespec ts;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		fprintf(stderr,
			"cgtui: par: %zu chunks, %zu read by the reader, runs %lu of %lu from "
			"workers; the reader's CPU time %.3f s\n",
			pa->nc, ser, (unsigned long)pa->dbg[1], (unsigned long)pa->dbg[0],
			(double)ts.tv_sec + ts.tv_nsec / 1e9);
	}
	__atomic_store_n(&pa->stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&pa->next, pa->nc, __ATOMIC_RELEASE);
	for (int i = 0; i < pa->nth; i++)
		pthread_join(pa->th[i], NULL);
	for (size_t i = 0; i < pa->nc; i++)
		chunk_free(&pa->c[i]);
	pthread_mutex_destroy(&pa->mu);
	pthread_cond_destroy(&pa->done);
	free(pa->th);
	free(pa->c);
	free(pa);
	m->par = NULL;
}
