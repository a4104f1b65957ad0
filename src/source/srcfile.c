/* srcfile.c -- reading source files for annotation.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "srcfile.h"
#include "profile/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_whole(struct srcfile *sf, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : errno ? errno : EINVAL;
		close(fd);
		return e;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *d = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			d = xrealloc(d, cap);
		}
		ssize_t got = read(fd, d + n, cap - 1 - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(d);
			close(fd);
			return e;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	d[n] = 0;
	size_t nl = 0, lcap = 64;
	const char **lines = xmalloc(lcap * sizeof(*lines));
	char *s = d, *end = d + n;
	while (s < end) {
		char *e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		if (e > s && e[-1] == '\r')
			e[-1] = 0;
		*e = 0;
		if (nl == lcap) {
			lcap *= 2;
			lines = xreallocarray(lines, lcap, sizeof(*lines));
		}
		lines[nl++] = s;
		s = e + 1;
	}
	sf->data = d;
	sf->line = lines;
	sf->nlines = nl;
	sf->mtime = st.st_mtime;
	sf->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	sf->path = xstrdup(path);
	return 0;
}

/* one attempt, recorded */
static int attempt(struct srcfile *sf, const char *path, struct srctried *tried)
{
	if (tried) {
		for (int i = 0; i < tried->n; i++)
			if (strcmp(tried->path[i], path) == 0)
				return ENOENT; /* tried already */
		VEC_RESERVE(tried->path, tried->cap, tried->n + 1);
		tried->path[tried->n++] = xstrdup(path);
	}
	return read_whole(sf, path);
}

/* name itself, then under each directory when it is relative */
static int attempt_in(struct srcfile *sf, const char *name, const char *const *dirs, int ndirs,
		      const char *const *extra, int nextra, struct srctried *tried)
{
	int first = attempt(sf, name, tried);
	if (first == 0 || name[0] == '/')
		return first;
	for (int k = 0; k < ndirs + nextra; k++) {
		const char *d = k < ndirs ? dirs[k] : extra[k - ndirs];
		char *p = xasprintf("%s/%s", d, name);
		int e = attempt(sf, p, tried);
		free(p);
		if (e == 0)
			return 0;
	}
	return first;
}

int srcfile_find(struct srcfile *sf, const char *name, const struct srclookup *lk,
		 const char *const *extra, int nextra, struct srctried *tried)
{
	memset(sf, 0, sizeof(*sf));
	const char *const *dirs = lk ? (const char *const *)lk->dirs : NULL;
	int ndirs = lk ? lk->ndirs : 0;
	for (int i = 0; lk && i < lk->nsubst; i++) {
		size_t n = strlen(lk->from[i]);
		if (strncmp(name, lk->from[i], n) != 0)
			continue;
		char *p = xasprintf("%s%s", lk->to[i], name + n);
		int e = attempt_in(sf, p, dirs, ndirs, extra, nextra, tried);
		free(p);
		if (e == 0)
			return 0;
	}
	return attempt_in(sf, name, dirs, ndirs, extra, nextra, tried);
}

int srcfile_read(struct srcfile *sf, const char *name, const char *const *dirs, int ndirs)
{
	memset(sf, 0, sizeof(*sf));
	return attempt_in(sf, name, dirs, ndirs, NULL, 0, NULL);
}

void srctried_free(struct srctried *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->path[i]);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

void srclookup_init(struct srclookup *lk)
{
	memset(lk, 0, sizeof(*lk));
}

int srclookup_add_dir(struct srclookup *lk, const char *dir)
{
	for (int i = 0; i < lk->ndirs; i++)
		if (strcmp(lk->dirs[i], dir) == 0)
			return 0;
	VEC_RESERVE(lk->dirs, lk->capdirs, lk->ndirs + 1);
	lk->dirs[lk->ndirs++] = xstrdup(dir);
	return 1;
}

int srclookup_add_subst(struct srclookup *lk, const char *spec)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec)
		return -1;
	VEC_RESERVE(lk->from, lk->capsubst, lk->nsubst + 1);
	int cap = lk->capsubst;
	lk->to = xreallocarray(lk->to, (size_t)cap, sizeof(*lk->to));
	lk->from[lk->nsubst] = xstrndup(spec, (size_t)(eq - spec));
	lk->to[lk->nsubst++] = xstrdup(eq + 1);
	return 0;
}

void srclookup_copy(struct srclookup *dst, const struct srclookup *src)
{
	srclookup_init(dst);
	for (int i = 0; i < src->ndirs; i++)
		srclookup_add_dir(dst, src->dirs[i]);
	for (int i = 0; i < src->nsubst; i++) {
		char *spec = xasprintf("%s=%s", src->from[i], src->to[i]);
		srclookup_add_subst(dst, spec);
		free(spec);
	}
}

void srclookup_free(struct srclookup *lk)
{
	for (int i = 0; i < lk->ndirs; i++)
		free(lk->dirs[i]);
	free(lk->dirs);
	for (int i = 0; i < lk->nsubst; i++) {
		free(lk->from[i]);
		free(lk->to[i]);
	}
	free(lk->from);
	free(lk->to);
	memset(lk, 0, sizeof(*lk));
}

int file_mtime_ns(const char *path, int64_t *ns)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	*ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	return 0;
}

/* Reads up to n bytes (fewer only at the end of the file); -1 on error. */
static ssize_t read_full(int fd, char *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int files_identical(const char *a, const char *b)
{
	int fa = open(a, O_RDONLY | O_CLOEXEC);
	if (fa < 0)
		return -1;
	int fb = open(b, O_RDONLY | O_CLOEXEC);
	if (fb < 0) {
		int e = errno;
		close(fa);
		errno = e;
		return -1;
	}
	struct stat sa, sb;
	int r = -1;
	if (fstat(fa, &sa) == 0 && fstat(fb, &sb) == 0) {
		r = 0;
		if (S_ISREG(sa.st_mode) && S_ISREG(sb.st_mode) && sa.st_size == sb.st_size) {
			enum { BUF = 1 << 16 };
			char *ba = xmalloc(BUF), *bb = xmalloc(BUF);
			for (;;) {
				ssize_t na = read_full(fa, ba, BUF), nb = read_full(fb, bb, BUF);
				if (na < 0 || nb < 0) {
					r = -1;
					break;
				}
				if (na != nb || memcmp(ba, bb, (size_t)na) != 0)
					break;
				if (na == 0) {
					r = 1;
					break;
				}
			}
			free(ba);
			free(bb);
		}
	}
	int e = errno;
	close(fa);
	close(fb);
	errno = e;
	return r;
}

void srcfile_free(struct srcfile *sf)
{
	free(sf->data);
	free(sf->line);
	free(sf->path);
	memset(sf, 0, sizeof(*sf));
}
