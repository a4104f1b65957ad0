/* srcfile.h -- reading a source file as lines, for annotation.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SRCFILE_H
#define CGTUI_SRCFILE_H

#include <stddef.h>
#include <time.h>

struct srcfile {
	char *data;      /* the whole file, NUL-terminated */
	const char **line; /* line[i] is line i+1, without its newline */
	size_t nlines;
	time_t mtime;
	char *path;      /* the path that was read */
};

/* Reads `name`; a relative name that is not found from the current
 * directory is tried relative to each of dirs[0..ndirs).  Returns 0, or an
 * errno value of the first attempt. */
int srcfile_read(struct srcfile *sf, const char *name, const char *const *dirs, int ndirs);
void srcfile_free(struct srcfile *sf);

#endif
