/* fuzz-load.c -- libFuzzer target for the profile loader and the report.
 *
 * Each input is a Cachegrind/Callgrind profile (plain, or gzip when it starts
 * with the gzip magic: the loader inflates it itself), optionally followed by
 * a source file for the annotator:
 *
 *     <profile text>
 *     #--src--
 *     <source text>
 *
 * The profile part (everything before the "#--src--" line; the whole input
 * when there is none) is written to in.prof in a private temporary directory,
 * which is the current directory while fuzzing.  The source part (after the
 * marker; the whole input when there is no marker) is written there as
 * fuzz.c, and is also reachable as inc/fuzz.h through the report's source
 * directories: a profile naming "fl=fuzz.c" or "fi=fuzz.h" gets annotated.
 *
 * For every input:
 *   1. profile_load (sign +1; profile_load_any, which sends what looks like
 *      pprof or folded stacks to their importers), then profile_finish, profile_agg and
 *      report_write (annotation on, --inclusive, --tree=both, threshold 0)
 *      to /dev/null, through the escaping stream that cgtui puts on a
 *      terminal (when src/profile/escape.h exists);
 * and when the input starts with "#diff" (a comment for the loader):
 *   2. a --diff of the input against itself: loaded with sign -1, then again
 *      with sign +1 -- that second time gzip-compressed by us, so that the
 *      loader's gzip path sees valid streams of every content -- then the
 *      same finish/aggregate/report, only the first part's costs kept, with
 *      other options (no --inclusive, --tree=caller, threshold 0.1,
 *      context 1, no percentages, sorted on every event in reverse).
 * Both reports show every event, derived ones too.
 * For a plain (not gzip) input with the "#diff" mark, also:
 *   3. the input loaded again with no_map (read like a pipe instead of in
 *      place in the mapped file) and the report of 1 written again: the two
 *      must be the same bytes, or fail to load with the same message, else
 *      the target aborts.  The mapped reader has fast paths of its own; this
 *      is what keeps them equal to the general parser.  The reports are
 *      compared by length and two 64-bit hashes, not kept.
 *   4. the same with lazy_lines: the line records made when the report
 *      asks for them, by reading the blocks again, must give the same
 *      report (and with skip_jumps, as cgtui loads);
 *   5. the same again with two jobs (--jobs=2), the file cut into chunks
 *      of 64 bytes, the reader waiting for the worker, which goes on
 *      whatever it finds (CGTUI_CHUNK_BYTES, CGTUI_PAR_WAIT,
 *      CGTUI_PAR_RULE): the worker's summaries of runs
 *      of cost lines, applied by the reader, must give the report of one
 *      job (issue 19); and once more with the worker reading the first
 *      half of each chunk only (CGTUI_PAR_WAIT=2), as when the reader
 *      comes into a chunk it is reading.
 * Everything is freed (profile_free): LeakSanitizer checks the error paths
 * too.
 *
 * Memory: the heap in use while one input is handled is tracked with the
 * sanitizer allocator hooks; when its peak exceeds
 *     CGTUI_FUZZ_MEM_FIXED_MB (default 8) MiB + CGTUI_FUZZ_MEM_FACTOR (default
 *     64) x the input's size (inflated size for gzip input), plus for zstd
 *     input the most libzstd's decoder keeps (its window, up to 2^27)
 * the target aborts, so that libFuzzer keeps the input as a crash.  The
 * largest peak and peak/size ratio seen are printed at exit.
 *
 * Nothing here depends on time or randomness: file times are set to fixed
 * values.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include "profile/aggregate.h"
#if __has_include("profile/escape.h")
#include "profile/escape.h"
#define HAVE_ESCAPING_STREAM 1
#endif
#include "profile/load.h"
#if __has_include("profile/import.h")
/* every format cgtui opens: pprof and folded stacks go to their importers */
#include "profile/import.h"
#define profile_load profile_load_any
#endif
#include "profile/model.h"
#include "profile/scope.h"
#include "report/report.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <sanitizer/allocator_interface.h>

/* weak: a build without AddressSanitizer (for timing) has no allocator hooks */
#pragma weak __sanitizer_install_malloc_and_free_hooks
#pragma weak __sanitizer_get_allocated_size

#define SRC_MARK "#--src--"
#define SRC_MARK_LEN (sizeof(SRC_MARK) - 1)
#define DIFF_MARK "#diff"
#define DIFF_MARK_LEN (sizeof(DIFF_MARK) - 1)

/* a fixed time for the profile files; the source is a second older or newer */
#define PROFILE_MTIME 1700000000

static char tmpdir[PATH_MAX];
static int prof_fd = -1, gz_fd = -1, src_fd = -1;
static FILE *devnull;
static int ready;
static uint8_t *gzbuf;
static size_t gzcap;

/* ---- heap accounting ----------------------------------------------------------- */

static int counting;
static int64_t heap_cur, heap_peak;
static int64_t mem_fixed = 8 << 20, mem_factor = 64;
static int64_t worst_peak, worst_peak_size;
static double worst_ratio;
static int64_t worst_ratio_size, worst_ratio_peak;

static void on_malloc(const volatile void *ptr, size_t size)
{
	(void)ptr;
	if (!counting)
		return;
	heap_cur += (int64_t)size;
	if (heap_cur > heap_peak)
		heap_peak = heap_cur;
}

static void on_free(const volatile void *ptr)
{
	if (!counting || !ptr)
		return;
	heap_cur -= (int64_t)__sanitizer_get_allocated_size((const void *)ptr);
}

static void report_memory(void)
{
	if (!worst_peak)
		return;
	fprintf(stderr,
		"fuzz-load: largest heap peak %lld bytes (input of %lld bytes); "
		"largest peak/size for inputs >= 8 KiB: %.1f (%lld bytes for %lld)\n",
		(long long)worst_peak, (long long)worst_peak_size, worst_ratio,
		(long long)worst_ratio_peak, (long long)worst_ratio_size);
}

/* ---- set-up ------------------------------------------------------------------------ */

static void cleanup(void)
{
	report_memory();
	if (!ready)
		return;
	static const char *const names[] = { "in.prof", "in2.prof", "fuzz.c", "inc/fuzz.h" };
	char path[PATH_MAX + 32];
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, names[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/inc", tmpdir);
	rmdir(path);
	rmdir(tmpdir);
}

static void die(const char *what)
{
	fprintf(stderr, "fuzz-load: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_rw(const char *name)
{
	int fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		die(name);
	return fd;
}

/* Done at the first input rather than in LLVMFuzzerInitialize: libFuzzer's
 * parent processes (-jobs, -merge, -minimize_crash) never run inputs and so
 * never change directory. */
static void setup(void)
{
	const char *t = getenv("TMPDIR");
	if (!t || !*t)
		t = "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/cgtui-fuzz.XXXXXX", t);
	if (!mkdtemp(tmpdir))
		die("mkdtemp");
	if (chdir(tmpdir) < 0)
		die("chdir");
	ready = 1;
	atexit(cleanup);
	/* step 5: small chunks, each a worker's (read by par.c per load) */
	setenv("CGTUI_CHUNK_BYTES", "64", 0);
	setenv("CGTUI_PAR_WAIT", "1", 0);
	setenv("CGTUI_PAR_RULE", "0", 0);
	prof_fd = open_rw("in.prof");
	gz_fd = open_rw("in2.prof");
	src_fd = open_rw("fuzz.c");
	if (mkdir("inc", 0700) < 0 || symlink("../fuzz.c", "inc/fuzz.h") < 0)
		die("inc/fuzz.h");
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		die("/dev/null");
	const char *e;
	if ((e = getenv("CGTUI_FUZZ_MEM_FIXED_MB")) && *e)
		mem_fixed = (int64_t)strtoll(e, NULL, 10) << 20;
	if ((e = getenv("CGTUI_FUZZ_MEM_FACTOR")) && *e)
		mem_factor = strtoll(e, NULL, 10);
	if (&__sanitizer_install_malloc_and_free_hooks && &__sanitizer_get_allocated_size)
		__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}

/* libFuzzer reads its file arguments and writes artifacts relative to the
 * current directory, which the target changes: make them absolute first. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const path_flags[] = { "-dict=", "-artifact_prefix=",
		"-exact_artifact_path=", "-merge_control_file=", "-features_dir=",
		"-mutation_graph_file=", "-data_flow_trace=", NULL };
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return 0;
	int n = *argc, has_prefix = 0;
	char **nv = calloc((size_t)n + 2, sizeof(*nv));
	if (!nv)
		return 0;
	for (int i = 0; i < n; i++) {
		char *a = (*argv)[i];
		nv[i] = a;
		if (i == 0)
			continue;
		if (a[0] != '-') {
			if (a[0] != '/' && asprintf(&nv[i], "%s/%s", cwd, a) < 0)
				nv[i] = a;
			continue;
		}
		for (int k = 0; path_flags[k]; k++) {
			size_t l = strlen(path_flags[k]);
			if (strncmp(a, path_flags[k], l) != 0)
				continue;
			if (k == 1)
				has_prefix = 1;
			if (a[l] && a[l] != '/' &&
			    asprintf(&nv[i], "%.*s%s/%s", (int)l, a, cwd, a + l) < 0)
				nv[i] = a;
		}
	}
	if (!has_prefix && asprintf(&nv[n], "-artifact_prefix=%s/", cwd) >= 0)
		n++;
	nv[n] = NULL;
	*argc = n;
	*argv = nv; /* kept until exit */
	return 0;
}

/* ---- one input --------------------------------------------------------------------- */

static void put_file(int fd, const uint8_t *d, size_t n, time_t mtime)
{
	if (ftruncate(fd, 0) < 0)
		die("ftruncate");
	size_t done = 0;
	while (d && done < n) {
		ssize_t w = pwrite(fd, d + done, n - done, (off_t)done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("pwrite");
		done += (size_t)w;
	}
	struct timespec ts[2] = { { mtime, 0 }, { mtime, 0 } };
	if (futimens(fd, ts) < 0)
		die("futimens");
}

/* gzip of d into gzbuf; returns its size */
static size_t gzip_into(const uint8_t *d, size_t n)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	size_t need = deflateBound(&z, (uLong)n) + 64;
	if (need > gzcap) {
		free(gzbuf);
		gzcap = need;
		gzbuf = malloc(gzcap);
		if (!gzbuf)
			abort();
	}
	z.next_in = (Bytef *)d;
	z.avail_in = (uInt)n;
	z.next_out = gzbuf;
	z.avail_out = (uInt)gzcap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	size_t out = z.total_out;
	deflateEnd(&z);
	return out;
}

/* the size of what a gzip input inflates to (what the loader will read),
 * at most `cap` */
static size_t inflated_size(const uint8_t *d, size_t n, size_t cap)
{
	static uint8_t out[1 << 16];
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		abort();
	z.next_in = (Bytef *)d;
	z.avail_in = (uInt)n;
	size_t total = 0;
	for (;;) {
		z.next_out = out;
		z.avail_out = sizeof(out);
		int rc = inflate(&z, Z_NO_FLUSH);
		total += sizeof(out) - z.avail_out;
		if (total >= cap)
			break;
		if (rc == Z_STREAM_END) {
			/* gzread goes on with a concatenated member */
			if (z.avail_in >= 2 && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b) {
				inflateReset(&z);
				continue;
			}
			break;
		}
		if (rc != Z_OK)
			break;
	}
	inflateEnd(&z);
	return total;
}

/* ---- comparing two runs: a stream that only hashes what is written ---------- */

struct digest {
	uint64_t len, h1, h2;
};

static ssize_t digest_write(void *cookie, const char *buf, size_t n)
{
	struct digest *d = cookie;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = (uint8_t)buf[i];
		d->h1 = (d->h1 ^ c) * 0x100000001b3ull; /* FNV-1a */
		d->h2 = (d->h2 + c + 1) * 0x9e3779b97f4a7c15ull;
		d->h2 ^= d->h2 >> 29;
	}
	d->len += n;
	return (ssize_t)n;
}

static FILE *digest_open(struct digest *d)
{
	*d = (struct digest){ 0, 0xcbf29ce484222325ull, 0 };
	cookie_io_functions_t io = { .write = digest_write };
	FILE *f = fopencookie(d, "w", io);
	if (!f)
		abort();
	return f;
}

/* Loads files[0..n) (the first with sign `sign0`, the others +1); when they
 * load, the whole report is written: with every option on, or (`variant`)
 * without --inclusive, with callers only, cgtui's default threshold, a small
 * context, no percentages, and every event (derived ones too) shown and
 * sorted on in reverse order. */
static void run(const char *const *files, int n, int sign0, int variant, int no_map, int lazy,
		int jobs, struct digest *dg)
{
	struct profile p;
	char err[512];
	profile_init(&p);
	for (int i = 0; i < n; i++) {
		/* the variant also keeps only the first part's costs (the parts
		 * view's choice) */
		struct partset first = { 0 };
		if (variant)
			partset_only(&first, 1);
		/* deferred line records with jumps not kept, as cgtui loads
		 * (the report shows no jumps: the same report as 1's) */
		struct load_opts lo = { .sign = i == 0 ? sign0 : 1, .parts = &first,
					.no_map = no_map, .lazy_lines = lazy, .skip_jumps = lazy,
					.jobs = jobs };
		int rc = profile_load(&p, files[i], &lo, err, sizeof(err));
		partset_clear(&first);
		if (rc < 0) {
			profile_free(&p);
			if (dg) {
				FILE *f = digest_open(dg);
				fprintf(f, "load error: %s", err);
				fclose(f);
			}
			return;
		}
	}
	profile_finish(&p);
	(void)profile_agg(&p);
	struct report_opts o;
	report_opts_default(&o);
	o.inclusive = 1;
	o.tree = TREE_BOTH;
	o.threshold = 0;
	/* derived events (event: lines, CEst...) are shown too */
	o.nshow = p.nevents;
	for (int e = 0; e < p.nevents; e++)
		o.show[e] = e;
	if (variant) {
		o.inclusive = 0;
		o.tree = TREE_CALLER;
		o.threshold = 0.1;
		o.context = 1;
		o.show_percs = 0;
		o.nsort = p.nevents;
		for (int e = 0; e < p.nevents; e++)
			o.sort[e] = p.nevents - 1 - e;
	}
	static const char *const dirs[] = { "inc" };
	o.src_dirs = dirs;
	o.nsrc_dirs = 1;
	o.invocation = "cgtui --inclusive=yes --tree=both --threshold=0 fuzz";
	FILE *base = dg ? digest_open(dg) : devnull, *out = base;
#ifdef HAVE_ESCAPING_STREAM
	/* the first report as on a terminal: through the escaping stream */
	FILE *esc = variant ? NULL : escaping_stream(base);
	if (esc)
		out = esc;
#endif
	report_write(out, &p, &o);
	if (out != base)
		fclose(out);
	if (base != devnull)
		fclose(base);
	fflush(devnull);
	profile_free(&p);
}

static void same_report(const struct digest *a, const struct digest *b, const char *how)
{
	if (a->len == b->len && a->h1 == b->h1 && a->h2 == b->h2)
		return;
	fprintf(stderr,
		"fuzz-load: the profile read in place and %s give different reports "
		"(%llu and %llu bytes)\n",
		how, (unsigned long long)a->len, (unsigned long long)b->len);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!ready)
		setup();

	/* split off the source text */
	size_t plen = size;
	const uint8_t *src = data;
	size_t slen = size;
	for (size_t i = 0; i + SRC_MARK_LEN <= size; i++) {
		if ((i == 0 || data[i - 1] == '\n') && memcmp(data + i, SRC_MARK, SRC_MARK_LEN) == 0 &&
		    (i + SRC_MARK_LEN == size || data[i + SRC_MARK_LEN] == '\n' ||
		     data[i + SRC_MARK_LEN] == '\r')) {
			plen = i;
			size_t s = i + SRC_MARK_LEN;
			if (s < size && data[s] == '\r')
				s++;
			if (s < size && data[s] == '\n')
				s++;
			src = data + s;
			slen = size - s;
			break;
		}
	}
	int is_gz = plen >= 2 && data[0] == 0x1f && data[1] == 0x8b;
	/* a zstd stream: its decoder keeps a window as large as the frame
	 * says, up to libzstd's own bound (2^27 by default), whatever the
	 * input's size: that is libzstd's memory, not the loader's, and is
	 * allowed on top of the limit */
	int is_zst = plen >= 4 && data[0] == 0x28 && data[1] == 0xb5 && data[2] == 0x2f &&
		     data[3] == 0xfd;
	int64_t zstd_allow = is_zst ? ((int64_t)1 << 27) + ((int64_t)1 << 20) : 0; /* window, blocks */
	int diff = plen >= DIFF_MARK_LEN && memcmp(data, DIFF_MARK, DIFF_MARK_LEN) == 0;

	put_file(prof_fd, data, plen, PROFILE_MTIME);
	put_file(src_fd, src, slen, PROFILE_MTIME + ((slen & 1) ? 1 : -1));
	if (diff) {
		size_t gzlen = gzip_into(data, plen); /* may move gzbuf */
		put_file(gz_fd, gzbuf, gzlen, PROFILE_MTIME);
	}

	/* what the memory limit is relative to */
	size_t msize = is_gz ? inflated_size(data, plen, (size_t)1 << 31) : plen;
	if (msize < size)
		msize = size;

	heap_cur = heap_peak = 0;
	counting = 1;

	static const char *const one[] = { "in.prof" };
	static const char *const two[] = { "in.prof", "in2.prof" };
	if (diff && !is_gz) {
		struct digest mapped, streamed, lazy, par, half;
		run(one, 1, 1, 0, 0, 0, 1, &mapped);
		run(one, 1, 1, 0, 1, 0, 1, &streamed);
		run(one, 1, 1, 0, 0, 1, 1, &lazy);
		run(one, 1, 1, 0, 0, 1, 2, &par);
		/* the worker stops halfway through each chunk, as when the
		 * reader comes in: the reader reads the rest */
		setenv("CGTUI_PAR_WAIT", "2", 1);
		run(one, 1, 1, 0, 0, 1, 2, &half);
		setenv("CGTUI_PAR_WAIT", "1", 1);
		same_report(&mapped, &streamed, "read as a stream");
		same_report(&mapped, &lazy, "with its lines read when needed");
		same_report(&lazy, &par, "read by two jobs");
		same_report(&lazy, &half, "read by two jobs, the worker stopping halfway");
	} else {
		run(one, 1, 1, 0, 0, 0, 1, NULL);
	}
	if (diff)
		run(two, 2, -1, 1, 0, 0, 1, NULL);

	counting = 0;
	if (heap_peak > worst_peak) {
		worst_peak = heap_peak;
		worst_peak_size = (int64_t)msize;
	}
	if (msize >= 8192 && (double)heap_peak / (double)msize > worst_ratio) {
		worst_ratio = (double)heap_peak / (double)msize;
		worst_ratio_size = (int64_t)msize;
		worst_ratio_peak = heap_peak;
	}
	if (heap_peak > mem_fixed + mem_factor * (int64_t)msize + zstd_allow) {
		fprintf(stderr,
			"fuzz-load: heap peak of %lld bytes for an input of %zu bytes%s "
			"(limit %lld MiB + %lld x size)\n",
			(long long)heap_peak, msize, is_gz ? " (inflated)" : "",
			(long long)(mem_fixed >> 20), (long long)mem_factor);
		abort();
	}
	return 0;
}
