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
	sf->path = xstrdup(path);
	return 0;
}

int srcfile_read(struct srcfile *sf, const char *name, const char *const *dirs, int ndirs)
{
	memset(sf, 0, sizeof(*sf));
	int first = read_whole(sf, name);
	if (first == 0 || name[0] == '/')
		return first;
	for (int i = 0; i < ndirs; i++) {
		char *p = xasprintf("%s/%s", dirs[i], name);
		int e = read_whole(sf, p);
		free(p);
		if (e == 0)
			return 0;
	}
	return first;
}

void srcfile_free(struct srcfile *sf)
{
	free(sf->data);
	free(sf->line);
	free(sf->path);
	memset(sf, 0, sizeof(*sf));
}
