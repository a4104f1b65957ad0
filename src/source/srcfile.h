/* srcfile.h -- reading a source file as lines, for annotation.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SRCFILE_H
#define CGTUI_SRCFILE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct srcfile {
	char *data;      /* the whole file, NUL-terminated */
	const char **line; /* line[i] is line i+1, without its newline */
	size_t nlines;
	time_t mtime;
	int64_t mtime_ns; /* the same in nanoseconds (cg_annotate compares these) */
	char *path;      /* the path that was read */
};

/* Reads `name`; a relative name that is not found from the current
 * directory is tried relative to each of dirs[0..ndirs).  Returns 0, or an
 * errno value of the first attempt. */
int srcfile_read(struct srcfile *sf, const char *name, const char *const *dirs, int ndirs);
void srcfile_free(struct srcfile *sf);

/* A file's modification time in nanoseconds: 0, or -1 with errno. */
int file_mtime_ns(const char *path, int64_t *ns);
/* Do the files at paths a and b have the same bytes (as Python's
 * filecmp.cmp(a, b, shallow=False): both regular files of one size and
 * the same contents)?  1 or 0; -1 with errno when one cannot be read. */
int files_identical(const char *a, const char *b);

/* Where source files are looked for: directories for relative names (-I,
 * the profiles' directories, directories added in the explorer) and path
 * prefix substitutions (--subst FROM=TO).  Owns copies of its strings. */
struct srclookup {
	char **dirs;
	int ndirs, capdirs;
	char **from, **to;
	int nsubst, capsubst;
};
void srclookup_init(struct srclookup *lk);
void srclookup_copy(struct srclookup *dst, const struct srclookup *src);
/* Adds a directory (once); returns 1 when it was new. */
int srclookup_add_dir(struct srclookup *lk, const char *dir);
/* Adds "FROM=TO"; -1 when there is no '=' or FROM is empty. */
int srclookup_add_subst(struct srclookup *lk, const char *spec);
void srclookup_free(struct srclookup *lk);

/* The paths tried by srcfile_find, in order. */
struct srctried {
	char **path;
	int n, cap;
};
void srctried_free(struct srctried *t);

/* Reads `name`: first the name after each substitution whose FROM is a
 * prefix of it, then the name itself; a relative name (substituted or not)
 * is also tried under each directory of lk (may be NULL) and then of
 * extra[0..nextra) (e.g. the object's DWARF compilation directories).
 * Every path tried is recorded in *tried (may be NULL).  Returns 0, or the
 * errno value of the name itself. */
int srcfile_find(struct srcfile *sf, const char *name, const struct srclookup *lk,
		 const char *const *extra, int nextra, struct srctried *tried);

#endif
