/* reader.c -- the bytes of a profile file, line by line: through a buffer,
 * or mapped in place.
 *
 * A file that cannot be mapped (a pipe, gzip, zstd, load_opts.no_map) is
 * read through a buffer, with read(), zlib's gzread() or libzstd's
 * streaming decompression, each line given to the general parser
 * (read_buffered).  Compressed input is known by its magic bytes, not its
 * name.  A plain file is mapped: read_mapped()
 * sets up fast.c's loop over it, and catches the SIGBUS of a file that
 * shrinks under the mapping (bus_guard(), lazy.c's replay uses it too);
 * line_copy() gives the lines that loop leaves a NUL.  A line is what ends
 * at '\n' ("\r\n" and a last line without one are lines too).  The format
 * (spec 3.1, "Overview") is line-based ASCII; nothing here knows more of
 * it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* ---- buffered line reader (plain, gzip or zstd) -------------------------- */

/* A zstd frame starts with these four bytes (RFC 8878, 3.1.1) */
static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

int reader_open(struct reader *r, int fd, const char *path, char *err, size_t errsz)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->cap = 1 << 20;
	r->buf = xmalloc(r->cap);
	unsigned char magic[4] = { 0, 0, 0, 0 };
	ssize_t mg = pread(fd, magic, 4, 0);
	if (mg == 4 && memcmp(magic, zstd_magic, 4) == 0) {
		r->zs = ZSTD_createDStream();
		if (!r->zs || ZSTD_isError(ZSTD_initDStream(r->zs))) {
			snprintf(err, errsz, "%s: cannot open zstd stream", path);
			ZSTD_freeDStream(r->zs);
			free(r->buf);
			return -1;
		}
		r->zcap = ZSTD_DStreamInSize();
		r->zin = xmalloc(r->zcap);
		return 0;
	}
	if (mg >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		int fd2 = dup(fd);
		r->gz = fd2 >= 0 ? gzdopen(fd2, "rb") : NULL;
		if (!r->gz) {
			snprintf(err, errsz, "%s: cannot open gzip stream", path);
			if (fd2 >= 0)
				close(fd2);
			free(r->buf);
			return -1;
		}
		gzbuffer(r->gz, 1 << 18);
	}
	return 0;
}

void reader_close(struct reader *r)
{
	if (r->gz)
		gzclose(r->gz);
	ZSTD_freeDStream(r->zs);
	free(r->zin);
	free(r->buf);
}

static ssize_t read_fd(int fd, char *dst, size_t n)
{
	for (;;) {
		ssize_t got = read(fd, dst, n);
		if (got < 0 && errno == EINTR)
			continue;
		return got;
	}
}

/* Up to n decompressed bytes of a zstd stream (one frame or several
 * concatenated): how many, 0 at its end, -1 with r->zmsg when it is
 * corrupt, or ends inside a frame. */
static ssize_t zstd_fill(struct reader *r, char *dst, size_t n)
{
	ZSTD_outBuffer out = { dst, n, 0 };
	while (out.pos == 0) {
		if (r->zpos == r->zend && !r->zeof) {
			ssize_t got = read_fd(r->fd, r->zin, r->zcap);
			if (got < 0) {
				r->zmsg = strerror(errno);
				return -1;
			}
			r->zpos = 0;
			r->zend = (size_t)got;
			r->zeof = got == 0;
		}
		if (r->zpos == r->zend && r->zeof) {
			if (r->zhint) { /* a frame begun and not finished */
				r->zmsg = "the stream ends inside a frame";
				return -1;
			}
			return 0;
		}
		ZSTD_inBuffer in = { r->zin, r->zend, r->zpos };
		size_t ret = ZSTD_decompressStream(r->zs, &out, &in);
		r->zpos = in.pos;
		if (ZSTD_isError(ret)) {
			r->zmsg = ZSTD_getErrorName(ret);
			return -1;
		}
		r->zhint = ret;
	}
	return (ssize_t)out.pos;
}

static ssize_t reader_fill_raw(struct reader *r, char *dst, size_t n)
{
	if (r->zs)
		return zstd_fill(r, dst, n);
	if (r->gz) {
		int got = gzread(r->gz, dst, n > (1u << 30) ? (1u << 30) : (unsigned)n);
		return got;
	}
	return read_fd(r->fd, dst, n);
}

int reader_line(struct reader *r, char **line, size_t *len)
{
	for (;;) {
		char *start = r->buf + r->pos;
		char *nl = memchr(start, '\n', r->end - r->pos);
		if (nl || (r->eof && r->end > r->pos)) {
			size_t l = nl ? (size_t)(nl - start) : r->end - r->pos;
			r->pos += l + (nl ? 1 : 0);
			r->consumed += l + (nl ? 1 : 0);
			r->partial = !nl;
			if (l && start[l - 1] == '\r')
				l--;
			start[l] = 0; /* the buffer always has a spare byte */
			*line = start;
			*len = l;
			return 1;
		}
		if (r->eof)
			return 0;
		/* move the partial line to the front, grow if full */
		if (r->pos > 0) {
			memmove(r->buf, r->buf + r->pos, r->end - r->pos);
			r->end -= r->pos;
			r->pos = 0;
		}
		if (r->end + 1 >= r->cap) {
			if (r->cap >= MAX_LINE_LEN)
				return -2;
			r->cap *= 2;
			r->buf = xrealloc(r->buf, r->cap);
		}
		ssize_t got = reader_fill_raw(r, r->buf + r->end, r->cap - 1 - r->end);
		if (got < 0)
			return -1;
		if (got == 0 && r->gz) {
			int zerr;
			gzerror(r->gz, &zerr);
			if (zerr != Z_OK && zerr != Z_STREAM_END)
				return -1; /* truncated or corrupt: not a short last line */
		}
		if (got == 0)
			r->eof = 1;
		r->end += (size_t)got;
	}
}

/* ---- reading a file through the buffer ----------------------------------- */

int read_buffered(struct parser *ps, struct reader *r, uint64_t size)
{
	int rc = 0;
	uint64_t next_progress = 0;
	for (;;) {
		char *line;
		size_t len;
		int got = reader_line(r, &line, &len);
		if (got == 0)
			break;
		ps->lineno++;
		if (got == -1) {
			rc = r->gz   ? perr(ps, "gzip data is corrupt or truncated")
			     : r->zs ? perr(ps, "zstd data is corrupt or truncated (%s)", r->zmsg)
				     : perr(ps, "read error: %s", strerror(errno));
			break;
		}
		if (got == -2) {
			rc = perr(ps, "line longer than %u MiB", MAX_LINE_LEN >> 20);
			break;
		}
		if (ps->lineno == 1 && len >= 3 && memcmp(line, UTF8_BOM, 3) == 0) {
			line += 3;
			len -= 3;
		}
		if (r->partial) {
			rc = parse_cut_line(ps, line, len, 0);
			break;
		}
		if (parse_line(ps, line, len) < 0) {
			rc = -1;
			break;
		}
		if (ps->o->progress && r->consumed >= next_progress) {
			next_progress = r->consumed + (8u << 20);
			if (ps->o->progress(ps->o->progress_arg, r->consumed, reader_packed(r) ? 0 : size)) {
				snprintf(ps->err, ps->errsz, "%s: loading cancelled", ps->path);
				rc = LOAD_CANCELLED;
				break;
			}
		}
	}
	if (rc == 0 && r->gz) {
		int zerr;
		const char *zmsg = gzerror(r->gz, &zerr);
		if (zerr != Z_OK && zerr != Z_STREAM_END)
			rc = perr(ps, "gzip: %s", zmsg);
	}
	return rc;
}

/* ---- reading a mapped file ----------------------------------------------- */

/* A file mapped in memory is read in place: no copy into a buffer, cost
 * lines parsed where they are; other lines are copied out and given a NUL.
 * Pages already read are dropped from the process (MADV_DONTNEED: they stay
 * in the page cache), so the mapping does not add to the peak memory.  A
 * file that shrinks under the mapping raises SIGBUS: caught, and reported. */
int read_mapped(struct parser *ps, const char *base, size_t size)
{
	struct mapread m = { .base = base, .end = base + size, .s = base, .dropped = base,
			     .ready = base };
	if (size >= 3 && memcmp(base, UTF8_BOM, 3) == 0) /* some editors write one */
		m.s += 3;
	madvise((void *)base, size, MADV_SEQUENTIAL);
	m.debug = env_flag("CGTUI_PAR_DEBUG");
	m.avx2 = costs_avx2();
	struct timespec w0, w1, c0, c1;
	clock_gettime(CLOCK_MONOTONIC, &w0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
	sigjmp_buf jb, *volatile prev = NULL;
	int rc;
	if (sigsetjmp(jb, 1)) {
		rc = perr(ps, "the file shrank while it was read");
	} else {
		prev = bus_guard(&jb);
		rc = read_mapped_lines(ps, &m);
	}
	bus_guard(prev);
	double wcpu = par_stop(&m);
	if (ps->lz)
		seg_end(ps, size);
	if (m.debug) {
		clock_gettime(CLOCK_MONOTONIC, &w1);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
		double wall = (double)(w1.tv_sec - w0.tv_sec) + (double)(w1.tv_nsec - w0.tv_nsec) / 1e9;
		fprintf(stderr,
			"cgtui: load: %s: %.3f s wall, %.0f MB/s; reader CPU %.3f s, workers CPU %.3f s\n",
			ps->path, wall, (double)size / 1e6 / wall,
			(double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9, wcpu);
	}
	free(m.sc.buf);
	return rc;
}

/* ---- lines copied out of a mapped file ----------------------------------- */

char *line_copy(struct scratch *sc, const char *s, size_t *l)
{
	size_t n = *l;
	if (n + 1 > sc->cap) {
		sc->cap = n + 1 > 4096 ? n + 1 : 4096;
		sc->buf = xrealloc(sc->buf, sc->cap);
	}
	memcpy(sc->buf, s, n);
	if (n && sc->buf[n - 1] == '\r')
		n--;
	sc->buf[n] = 0;
	*l = n;
	return sc->buf;
}

/* ---- SIGBUS: a mapped file that shrinks ---------------------------------- */

/* Reading a mapped file past its end, once it has shrunk, raises SIGBUS in
 * the thread that reads.  A reader that may (reading a mapped file, lazy.c's
 * replay) sets a jump target around what it does, and the handler jumps
 * there.  The target is the thread's own (thread-local): several threads may
 * each read a mapping (the parallel loader of issue 19), and one thread's
 * SIGBUS must land in its own frame, never in another thread's -- a static
 * sigjmp_buf shared by all would send it to whichever thread set it last.
 * The handler is installed once for the process, not around each region:
 * sigaction() is process-wide, so installing and restoring it per region
 * would, with threads, restore the old handler under a thread still inside
 * its region.  A SIGBUS while the thread has no target goes to the handler
 * that was there before (the default, or a sanitizer's), as without us.
 * The variable is initial-exec TLS: read in a signal handler, it must not
 * need __tls_get_addr() (the loader is linked into the program). */
static _Thread_local sigjmp_buf *bus_target __attribute__((tls_model("initial-exec")));
static struct sigaction bus_before; /* set once, by bus_install() */
static pthread_once_t bus_once = PTHREAD_ONCE_INIT;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	sigjmp_buf *t = bus_target;
	if (t)
		siglongjmp(*t, 1);
	if (bus_before.sa_flags & SA_SIGINFO) {
		bus_before.sa_sigaction(sig, si, ctx);
	} else if (bus_before.sa_handler == SIG_IGN && si && si->si_code <= 0) {
		/* sent by a process, and ignored before: still ignored */
	} else if (bus_before.sa_handler != SIG_DFL && bus_before.sa_handler != SIG_IGN) {
		bus_before.sa_handler(sig);
	} else {
		/* the default action, once this handler returns: the faulting
		 * access runs again, or the signal raised here (blocked while
		 * the handler runs) is delivered */
		signal(SIGBUS, SIG_DFL);
		raise(SIGBUS);
	}
}

static void bus_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGBUS, &sa, &bus_before);
}

sigjmp_buf *bus_guard(sigjmp_buf *target)
{
	pthread_once(&bus_once, bus_install);
	sigjmp_buf *prev = bus_target;
	bus_target = target;
	return prev;
}
