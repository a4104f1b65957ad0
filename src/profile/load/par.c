/* par.c -- parallel parsing of a mapped plain file (issue 19).
 *
 * When the serial reader (fast.c's loop) first meets a run of cost lines,
 * the header is read and the rest of the file is cut into chunks, each
 * ending before a line "fn=" that follows an empty line or a cost line (a
 * function's block; any line start when none is near).  Worker threads
 * (load_opts.jobs - 1 of them) take chunks in file order and read the runs
 * of plain cost lines in them -- most of a profile's bytes -- into
 * summaries (runs.c's chunk_runs()): the costs summed per event, the last
 * line's costs, the subpositions as absolute values or as deltas (and,
 * when jumps are not kept, load_opts.skip_jumps, the jump=/jcnd= lines
 * among them, their counts summed for the reader's bound), since a
 * worker knows neither the positions before a run (format spec 3.1.6,
 * "Subposition Compression": relative to the previous cost line), nor the
 * file, function, object or compressed ids in force (3.1.5): those stay
 * the serial reader's, which reads every other line as with one job.
 * Where it meets a run, it applies the run's summary when one starts
 * there and holds for its state (no calls= pending, line records
 * deferred, the sums' room, line numbers in range: fast.c's run_apply());
 * else it reads the run itself -- so the profile is the same with any
 * number of jobs.  A chunk no worker has begun when the reader reaches it
 * is the reader's own; in one a worker is still reading, the reader does
 * not wait but reads on, and the worker stops at the next line, leaves
 * the rest to the reader (its runs so far are ahead of the reader, which
 * uses them) and goes on to the next chunk: the two never read the same
 * run, and with workers slower than the reader, or held up by other
 * programs on the machine, the reader takes a larger share.  (The reader
 * reads the runs of plain lines faster than a worker, which also skips
 * the other lines and writes the summaries: a worker that finished every
 * chunk it began would read runs the reader has read meanwhile.)
 * Workers stay a few chunks ahead, so the summaries held stay small, map
 * their chunk's pages in at once (a page fault costs as much as reading
 * the page) and take their buffers from a pool the reader gives back to,
 * grown once.  They also note the compressed ids of the chunk's name lines
 * ("(N)", and the hash of a name defined), so that the reader's lookups
 * of them, which the tables' sizes make cache misses (idmap_slot(),
 * get_fn(), strtab_intern()), find their entries fetched a few lines
 * ahead (ids_ahead()).
 *
 * CGTUI_CHUNK_BYTES (environment) sets the chunk size, for tests, and
 * CGTUI_PAR_WAIT=1 makes every chunk but the first a worker's and the
 * reader wait for it, so that tests see the workers' runs used whatever
 * the timing (=2: workers read the first half of each chunk, as if the
 * reader came in there), and CGTUI_PAR_RULE=0 keeps the workers on
 * whatever their runs cover (the rule in par_run());
 * CGTUI_PAR_DEBUG=1 prints what the workers did, how long the reader read
 * on after the last worker ended (the workers idle: nothing left for them)
 * and, from reader.c, the load's wall time, the reader's CPU time (the
 * serial part) and the workers', for bench/load-bench.py.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_DEFAULT (8u << 20)
#define PAR_MIN_BYTES (4u << 20) /* smaller files: one thread */
#define MAX_JOBS 256
#define POOL_MAX 64
#define PREFETCH_RUNS 4
/* bytes workers read before they are judged (par_run()); with
 * CGTUI_CHUNK_BYTES, two chunks */
#define RULE_BYTES (16u << 20)
/* chunks are at most the rest of the file over TAIL_PARTS, at least
 * TAIL_MIN bytes (not with CGTUI_CHUNK_BYTES) */
#define TAIL_PARTS 8
#define TAIL_MIN (1u << 20)

struct par {
	const char *base, *fast_end;
	int npos, nev, linek;
	int jumps;           /* jump lines not kept: in runs (chunk_runs()) */
	struct par_chunk *c;
	size_t nc;
	size_t cur;          /* the chunk the reader is in */
	size_t next;         /* the next chunk for a worker (atomic) */
	size_t ahead;        /* how far ahead of cur workers may go */
	int stop;            /* atomic */
	pthread_mutex_t mu;
	pthread_t *th;
	int nth;
	int debug;           /* CGTUI_PAR_DEBUG: count and time */
	int wait;            /* CGTUI_PAR_WAIT: the reader waits for workers (2:
			      * who read the first half of each chunk only,
			      * as when the reader comes in halfway) */
	uint64_t wk_bytes, wk_covered; /* bytes workers read, in runs (atomic) */
	int judged;          /* the rule (par_run()) was applied */
	uint64_t rule_bytes; /* after so many: RULE_BYTES, or two forced chunks */
	/* runs met, runs applied; not: a worker still in the chunk, no run
	 * found there, its summary not for the parser's state */
	uint64_t dbg[5];
	/* the reader's place in chunk cur's results, here with what else it
	 * writes at every run (not in the chunk, whose cache lines it shares
	 * with chunks a worker writes, nor beside cur, which workers read at
	 * every line): the next run and id record, and how far the ids have
	 * been fetched (ids_ahead()) */
	struct {
		size_t run, id, far, near;
	} rd;
	uint64_t dropped;    /* the file's pages before it dropped (atomic:
			      * drop_to()) */
	double cpu;          /* the workers' CPU time (atomic adds) */
	double wk_end;       /* when the last worker ended (debug) */
	pthread_mutex_t cpu_mu;
	/* chunks' buffers given back by the reader, for workers to fill
	 * again (under mu): grown once, their pages kept */
	struct par_buf {
		struct run_sum *rs;
		cost_t *vals;
		struct par_id *ids;
		size_t caprs, capvals, capids;
	} pool[POOL_MAX];
	int npool;
};

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

/* The default (want 0): the online CPUs less those the last minute's load
 * average says other programs keep busy (its whole part), at least one.
 * Workers cost a third more CPU time than the reader spares (the runs are
 * read and summed, then applied): on CPUs other programs keep busy, where
 * the process's threads share what it gets, two jobs are slower than one. */
int load_jobs(int want)
{
	if (want > 0)
		return want > MAX_JOBS ? MAX_JOBS : want;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	double la;
	if (n > 1 && getloadavg(&la, 1) == 1 && la >= 0)
		n = la >= (double)n ? 1 : n - (long)la;
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

/* The chunk's results dropped, its buffers to the pool (or freed). */
static void chunk_free(struct par *pa, struct par_chunk *c)
{
	pthread_mutex_lock(&pa->mu);
	if (c->rs && pa->npool < POOL_MAX) {
		pa->pool[pa->npool++] =
			(struct par_buf){ c->rs, c->vals, c->ids, c->caprs, c->capvals, c->capids };
		c->rs = NULL;
		c->vals = NULL;
		c->ids = NULL;
	}
	pthread_mutex_unlock(&pa->mu);
	free(c->rs);
	free(c->vals);
	free(c->ids);
	c->rs = NULL;
	c->vals = NULL;
	c->ids = NULL;
	c->nrs = c->caprs = c->nvals = c->capvals = 0;
	c->nids = c->capids = 0;
}

/* The file's pages from pa->dropped up to upto (rounded down to a page)
 * dropped, by the thread that claims them first. */
static void drop_to(struct par *pa, uint64_t upto)
{
	upto &= ~(uint64_t)4095;
	uint64_t from = __atomic_load_n(&pa->dropped, __ATOMIC_ACQUIRE);
	if (upto > from && __atomic_compare_exchange_n(&pa->dropped, &from, upto, 0,
						       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		madvise((void *)(pa->base + from), (size_t)(upto - from), MADV_DONTNEED);
}

/* A worker drops the pages before the chunk the reader is in, half
 * DROP_EVERY at a time: the kernel's work of unmapping them is off the
 * reader's (serial) path. */
static void drop_behind(struct par *pa)
{
	size_t cur = __atomic_load_n(&pa->cur, __ATOMIC_ACQUIRE);
	uint64_t upto = cur < pa->nc ? pa->c[cur].start : pa->c[pa->nc - 1].end;
	if (upto >= __atomic_load_n(&pa->dropped, __ATOMIC_ACQUIRE) + DROP_EVERY / 2)
		drop_to(pa, upto);
}

int par_drops(struct mapread *m, const char *upto)
{
	struct par *pa = m->par;
	if (!pa || m->par_off || !pa->nth)
		return 0;
	m->dropped = pa->base + __atomic_load_n(&pa->dropped, __ATOMIC_ACQUIRE);
	/* every chunk taken (the workers end), or the workers far behind:
	 * the reader's own */
	if (__atomic_load_n(&pa->next, __ATOMIC_ACQUIRE) >= pa->nc ||
	    (size_t)(upto - m->dropped) >= 2 * DROP_EVERY) {
		drop_to(pa, (uint64_t)(upto - pa->base));
		m->dropped = pa->base + __atomic_load_n(&pa->dropped, __ATOMIC_ACQUIRE);
	}
	return 1;
}

static void worker_chunks(struct par *pa);

static void *worker(void *arg)
{
	struct par *pa = arg;
	worker_chunks(pa);
	if (pa->debug) {
		double t = clock_s(CLOCK_THREAD_CPUTIME_ID), end = clock_s(CLOCK_MONOTONIC);
		pthread_mutex_lock(&pa->cpu_mu);
		pa->cpu += t;
		pa->wk_end = end > pa->wk_end ? end : pa->wk_end;
		pthread_mutex_unlock(&pa->cpu_mu);
	}
	return NULL;
}

static void worker_chunks(struct par *pa)
{
	for (;;) {
		drop_behind(pa);
		size_t i = __atomic_fetch_add(&pa->next, 1, __ATOMIC_ACQ_REL);
		if (i >= pa->nc)
			return;
		/* stay near the reader: what is summed waits for it in memory */
		while (i > __atomic_load_n(&pa->cur, __ATOMIC_ACQUIRE) + pa->ahead) {
			if (__atomic_load_n(&pa->stop, __ATOMIC_ACQUIRE))
				return;
			usleep(200);
			drop_behind(pa);
		}
		if (__atomic_load_n(&pa->stop, __ATOMIC_ACQUIRE))
			return;
		struct par_chunk *c = &pa->c[i];
		if (i + !!pa->wait <= __atomic_load_n(&pa->cur, __ATOMIC_ACQUIRE))
			continue; /* the reader is in it or past it: it reads it itself */
		int expect = PC_FREE;
		if (!__atomic_compare_exchange_n(&c->state, &expect, PC_BUSY, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue; /* the reader's own */
		pthread_mutex_lock(&pa->mu);
		if (pa->npool) {
			struct par_buf *b = &pa->pool[--pa->npool];
			c->rs = b->rs;
			c->vals = b->vals;
			c->ids = b->ids;
			c->caprs = b->caprs;
			c->capvals = b->capvals;
			c->capids = b->capids;
		}
		pthread_mutex_unlock(&pa->mu);
		sigjmp_buf jb, *volatile prev = NULL;
		if (sigsetjmp(jb, 1)) {
			c->nrs = c->nids = 0; /* the file shrank: the reader finds out itself */
		} else {
			prev = bus_guard(&jb);
#ifdef MADV_POPULATE_READ
			/* the chunk's pages mapped in at once: a page fault each
			 * costs as much as reading the page */
			madvise((void *)(pa->base + (c->start & ~(uint64_t)4095)),
				(size_t)(c->end - (c->start & ~(uint64_t)4095)), MADV_POPULATE_READ);
#endif
			/* (with CGTUI_PAR_WAIT, the whole chunk, or its first
			 * half: the reader waits for it) */
			uint64_t len = c->end - c->start;
			uint64_t rd = chunk_runs(c, pa->base, pa->fast_end, pa->npos, pa->nev,
						 pa->linek, pa->jumps, pa->wait == 2 ? len / 2 : len,
						 pa->wait ? NULL : &pa->cur, i);
			uint64_t cov = 0;
			for (size_t k = 0; k < c->nrs; k++)
				cov += c->rs[k].end - c->rs[k].start;
			__atomic_fetch_add(&pa->wk_covered, cov, __ATOMIC_RELEASE);
			__atomic_fetch_add(&pa->wk_bytes, rd, __ATOMIC_RELEASE);
		}
		bus_guard(prev);
		/* the reader passed the chunk meanwhile: the results are the
		 * worker's to drop */
		if (__atomic_exchange_n(&c->state, PC_DONE, __ATOMIC_ACQ_REL) == PC_ABANDONED)
			chunk_free(pa, c);
	}
}

/* Chunks and workers for the bytes from s on, or NULL (one job, a small
 * file, no thread). */
static struct par *par_start(struct parser *ps, struct mapread *m, const char *s)
{
	int jobs = load_jobs(ps->o->jobs);
	if (m->debug)
		fprintf(stderr, "cgtui: par: %d job%s\n", jobs, jobs == 1 ? "" : "s");
	if (jobs < 2 || (!getenv("CGTUI_CHUNK_BYTES") && (size_t)(m->end - s) < PAR_MIN_BYTES))
		return NULL;
	struct par *pa = xcalloc(1, sizeof(*pa));
	pa->base = m->base;
	pa->fast_end = m->end - (FAST_MAX_LINE + 32);
	pa->npos = ps->npos;
	pa->nev = ps->nev;
	pa->linek = ps->linek;
	pa->jumps = ps->o->skip_jumps && !ps->o->instr;
	size_t want = chunk_bytes(), cap = 16;
	const char *rule = getenv("CGTUI_PAR_RULE");
	pa->rule_bytes = rule && *rule == '0'		  ? UINT64_MAX
			 : getenv("CGTUI_CHUNK_BYTES") ? 2 * (uint64_t)want
						       : RULE_BYTES;
	pa->c = xcalloc(cap, sizeof(*pa->c));
	const char *from = s;
	int fixed = getenv("CGTUI_CHUNK_BYTES") != NULL;
	while (from < m->end) {
		/* the last chunks smaller, down to TAIL_MIN: the reader reads
		 * the rest of the one it finds a worker in alone, and the
		 * workers have nothing left to take */
		size_t rem = (size_t)(m->end - from), sz = want;
		if (!fixed && rem / TAIL_PARTS < sz)
			sz = rem / TAIL_PARTS > TAIL_MIN ? rem / TAIL_PARTS : TAIL_MIN;
		const char *to = rem <= sz ? m->end : cut_at(from, from + sz, m->end);
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
	pa->dropped = (uint64_t)(m->dropped - m->base);
	pa->debug = m->debug;
	const char *w = getenv("CGTUI_PAR_WAIT");
	pa->wait = w && (*w == '1' || *w == '2') ? *w - '0' : 0; /* (only with a worker: see below) */
	pthread_mutex_init(&pa->mu, NULL);
	pthread_mutex_init(&pa->cpu_mu, NULL);
	pa->th = xcalloc((size_t)jobs - 1, sizeof(*pa->th));
	/* the first chunk is the reader's: it is there already */
	pa->c[0].state = PC_SERIAL;
	pa->next = 1;
	for (int i = 0; i < jobs - 1; i++)
		if (pthread_create(&pa->th[pa->nth], NULL, worker, pa) == 0)
			pa->nth++;
	if (!pa->nth)
		pa->wait = 0;
	return pa;
}

/* The reader is past chunk c: its results dropped, by the worker when one
 * is still reading it. */
static void chunk_leave(struct par *pa, struct par_chunk *c)
{
	int expect = PC_FREE;
	if (!__atomic_compare_exchange_n(&c->state, &expect, PC_SERIAL, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE) &&
	    !(expect == PC_BUSY &&
	      __atomic_compare_exchange_n(&c->state, &expect, PC_ABANDONED, 0, __ATOMIC_ACQ_REL,
					  __ATOMIC_ACQUIRE)))
		chunk_free(pa, c);
	memset(&pa->rd, 0, sizeof(pa->rd));
	__atomic_store_n(&pa->cur, pa->cur + 1, __ATOMIC_RELEASE);
}

/* How many of a chunk's ids ahead of the reader (par_chunk.ids) have the
 * entry of their id fetched into the cache (PF_FAR), and, that entry
 * read then, the entry of the function its name was last found for, or
 * the name table's slot of a name defined (PF_NEAR): the lookups of the
 * lines to come (known_id(), get_fn(), strtab_intern()) hit the cache.  The tables are the reader's, read in its thread; what is
 * fetched changes nothing. */
#define PF_FAR 24
#define PF_NEAR 6

/* The ids of chunk c the reader at off is about to read, fetched ahead. */
static void ids_ahead(struct parser *ps, struct par *pa, const struct par_chunk *c,
		      uint64_t off)
{
	const struct par_id *ids = c->ids;
	size_t n = c->nids, k = pa->rd.id;
	uint64_t rel = off - c->start;
	while (k < n && ids[k].off < rel)
		k++;
	pa->rd.id = k;
	size_t far = k + PF_FAR < n ? k + PF_FAR : n, j = pa->rd.far > k ? pa->rd.far : k;
	for (; j < far; j++) {
		/* (the records too: a worker wrote them, in another core's cache) */
		if (j + 2 * PF_FAR < n)
			__builtin_prefetch(&ids[j + 2 * PF_FAR]);
		uint32_t id = ids[j].id & ((1u << 30) - 1);
		const struct idmap *map = ns_map(ps, (int)(ids[j].id >> 30));
		if (id < map->ndirect)
			__builtin_prefetch(&map->direct[id]);
	}
	pa->rd.far = j;
	size_t near = k + PF_NEAR < n ? k + PF_NEAR : n;
	for (j = pa->rd.near > k ? pa->rd.near : k; j < near; j++) {
		int ns = (int)(ids[j].id >> 30);
		uint32_t id = ids[j].id & ((1u << 30) - 1), h = ids[j].hash;
		if (h) { /* a name defined: where strtab_intern() looks for it */
			const struct strtab *t = ns == NS_OBJ	 ? &ps->p->objs
						 : ns == NS_FILE ? &ps->p->files
								 : &ps->p->names;
			if (t->slots)
				__builtin_prefetch(&t->slots[h & t->mask]);
		}
		if (ns != NS_FN || id >= ps->fnmap.ndirect)
			continue;
		uint32_t name = ps->fnmap.direct[id];
		if (name && !(name & ID_PENDING) && name - 1 < ps->nname_fn)
			__builtin_prefetch(&ps->name_fn[name - 1]);
	}
	pa->rd.near = j;
}

/* The cache lines of the n bytes at p fetched: every one, the last
 * included (a summary is not aligned to them: one of 88 bytes may lie on
 * three). */
static inline void prefetch_span(const void *p, size_t n)
{
	const char *b = p, *e = b + n - 1;
	for (; b < e; b += 64)
		__builtin_prefetch(b);
	__builtin_prefetch(e);
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
	pa->dbg[0]++;
	if (pa->npos != ps->npos || pa->nev != ps->nev || pa->linek != ps->linek)
		return NULL;
	uint64_t off = (uint64_t)(s - m->base);
	while (pa->cur < pa->nc && off >= pa->c[pa->cur].end)
		chunk_leave(pa, &pa->c[pa->cur]);
	uint64_t wb = __atomic_load_n(&pa->wk_bytes, __ATOMIC_ACQUIRE);
	if (!pa->judged && wb >= pa->rule_bytes) {
		/* the rule: workers go on only if the runs they find cover a
		 * third of the bytes they read (else they cost more than they
		 * spare the reader: one job, from here) */
		pa->judged = 1;
		uint64_t cov = __atomic_load_n(&pa->wk_covered, __ATOMIC_ACQUIRE);
		if (cov < wb / 3) {
			if (pa->debug)
				fprintf(stderr, "cgtui: par: runs cover %llu of the %llu bytes the "
						"workers read: one job from here\n",
					(unsigned long long)cov, (unsigned long long)wb);
			par_stop(m);
			m->par_off = 1;
			return NULL;
		}
	}
	if (pa->cur >= pa->nc || off < pa->c[pa->cur].start)
		return NULL;
	struct par_chunk *c = &pa->c[pa->cur];
	int st = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
	/* (tests: a worker takes every chunk but the first, and is waited for;
	 * looked at again after 50 us, then twice as long each time up to
	 * 1.6 ms, so that the floor the mode measures -- the reader's CPU
	 * time -- counts few wake-ups: a worker reads 8 MiB in ~15 ms) */
	for (unsigned us = 50; pa->wait && (st == PC_FREE || st == PC_BUSY); us += us < 1600 ? us : 0) {
		usleep(us);
		st = __atomic_load_n(&c->state, __ATOMIC_ACQUIRE);
	}
	if (st == PC_FREE) {
		int expect = PC_FREE;
		if (__atomic_compare_exchange_n(&c->state, &expect, PC_SERIAL, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return NULL;
		st = expect;
	}
	/* a chunk a worker is still reading: the reader does not wait, it
	 * reads the run itself (and finds the worker's runs after it if the
	 * worker is done by then) -- with workers slower than the reader, or
	 * held up by other programs, it goes as fast as one job */
	if (st != PC_DONE) {
		pa->dbg[2]++;
		return NULL;
	}
	ids_ahead(ps, pa, c, off);
	while (pa->rd.run < c->nrs && c->rs[pa->rd.run].start < off)
		pa->rd.run++;
	if (pa->rd.run >= c->nrs || c->rs[pa->rd.run].start != off) {
		pa->dbg[3]++;
		return NULL;
	}
	const struct run_sum *r = &c->rs[pa->rd.run];
	if (!run_apply(ps, r, r->width ? c->vals + r->vals : NULL)) {
		pa->dbg[4]++;
		return NULL;
	}
	pa->rd.run++;
	/* the summaries ahead (a worker wrote them, in another core's cache)
	 * and the lines after a run ahead: the reader reads them next,
	 * skipping what the run covers, where the hardware's prefetch does
	 * not look */
	if (pa->rd.run + 2 * PREFETCH_RUNS < c->nrs)
		prefetch_span(&c->rs[pa->rd.run + 2 * PREFETCH_RUNS], sizeof(*c->rs));
	if (pa->rd.run + PREFETCH_RUNS < c->nrs) {
		const struct run_sum *f = &c->rs[pa->rd.run + PREFETCH_RUNS];
		if (f->width) /* sums, last costs: at most 2 * 64 values */
			prefetch_span(c->vals + f->vals, 2 * (size_t)f->width * sizeof(cost_t));
		const char *nx = m->base + f->end;
		__builtin_prefetch(nx);
		__builtin_prefetch(nx + 64);
		__builtin_prefetch(nx + 128);
	}
	pa->dbg[1]++;
	*nlines = r->nlines;
	return m->base + r->end;
}

int par_mapped(const struct mapread *m, const char *at)
{
	const struct par *pa = m->par;
	if (!pa || m->par_off)
		return 0;
	uint64_t off = (uint64_t)(at - m->base);
	for (size_t i = pa->cur; i < pa->nc && pa->c[i].start <= off; i++) {
		if (off >= pa->c[i].end)
			continue;
		int st = __atomic_load_n(&pa->c[i].state, __ATOMIC_ACQUIRE);
		return st != PC_FREE && st != PC_SERIAL;
	}
	return 0;
}

double par_stop(struct mapread *m)
{
	struct par *pa = m->par;
	if (!pa)
		return 0;
	__atomic_store_n(&pa->stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&pa->next, pa->nc, __ATOMIC_RELEASE);
	for (int i = 0; i < pa->nth; i++)
		pthread_join(pa->th[i], NULL);
	if (pa->base + pa->dropped > m->dropped)
		m->dropped = pa->base + pa->dropped;
	double cpu = pa->cpu;
	if (pa->debug) {
		size_t ser = 0;
		for (size_t i = 0; i < pa->nc; i++)
			ser += pa->c[i].state == PC_SERIAL;
		fprintf(stderr,
			"cgtui: par: %zu chunks, %zu read by the reader, runs %lu of %lu from "
			"workers; the reader ended %.1f ms after the workers\n",
			pa->nc, ser, (unsigned long)pa->dbg[1], (unsigned long)pa->dbg[0],
			pa->nth ? (clock_s(CLOCK_MONOTONIC) - pa->wk_end) * 1e3 : 0.0);
		fprintf(stderr, "cgtui: par: runs not used: %lu with the worker not done, %lu not "
				"found, %lu not for the reader's state\n",
			(unsigned long)pa->dbg[2], (unsigned long)pa->dbg[3], (unsigned long)pa->dbg[4]);
	}
	for (size_t i = 0; i < pa->nc; i++)
		chunk_free(pa, &pa->c[i]);
	for (int i = 0; i < pa->npool; i++) {
		free(pa->pool[i].rs);
		free(pa->pool[i].vals);
		free(pa->pool[i].ids);
	}
	pthread_mutex_destroy(&pa->mu);
	pthread_mutex_destroy(&pa->cpu_mu);
	free(pa->th);
	free(pa->c);
	free(pa);
	m->par = NULL;
	return cpu;
}
