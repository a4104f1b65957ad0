/* fixture.h -- what the model's unit tests share: a temporary directory,
 * a profile's text made with printf (textf), loading a profile from text, finding a function by name, the heap in
 * use, and the format specification's extended example.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_FIXTURE_H
#define CGTUI_FIXTURE_H

#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/load.h"
#include "profile/model.h"

static char tmpdir[] = "/tmp/cgtui-unit-XXXXXX";

/* The heap in use (malloc's arenas and its mapped blocks). */
static inline size_t heap_used(void)
{
	struct mallinfo2 m = mallinfo2();
	return m.uordblks + m.hblkhd;
}

/* Does heap_used() see a block of 1 MB (not under a sanitizer's
 * allocator)? */
static inline int heap_known(void)
{
	size_t before = heap_used();
	char *probe = malloc(1 << 20);
	if (!probe)
		return 0;
	probe[0] = 1;
	int known = heap_used() >= before + (1 << 20);
	free(probe);
	return known;
}
/* A profile's text written piece by piece with printf's formats: it
 * grows as it must (no room to work out beforehand).  tx.s is
 * malloc'ed, 0-terminated; free it. */
struct text {
	char *s;
	size_t len, cap;
};
static inline void textf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void textf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		while (t->len + (size_t)n + 1 > cap)
			cap *= 2;
		t->s = xrealloc(t->s, cap);
		t->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static char lasterr[4096];

static char *write_tmp(const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *f = fopen(path, "wb");
	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

/* Loads `text` (as one file) into a fresh profile p. */
static int load(struct profile *p, const char *text)
{
	profile_init(p);
	char *path = write_tmp("p.out", text, strlen(text));
	int rc = profile_load(p, path, NULL, lasterr, sizeof(lasterr));
	if (rc == 0)
		profile_finish(p);
	free(path);
	return rc;
}

static uint32_t fn(struct profile *p, const char *name)
{
	for (uint32_t f = 0; f < p->nfns; f++)
		if (strcmp(fn_name(p, f), name) == 0)
			return f;
	return NO_ID;
}

/* The specification's extended example (section 3.1.4): self main 20,
 * func1 100, func2 700 (total 820); main -> func1 1x 400, main -> func2
 * 3x 400, func1 -> func2 2x 300; main and func1 in file1.c, func2 in
 * file2.c. */
static const char spec_example[] = "events: Instructions\n"
				   "fl=file1.c\nfn=main\n16 20\ncfn=func1\ncalls=1 50\n16 400\n"
				   "cfl=file2.c\ncfn=func2\ncalls=3 20\n16 400\n"
				   "fn=func1\n51 100\ncfl=file2.c\ncfn=func2\ncalls=2 20\n51 300\n"
				   "fl=file2.c\nfn=func2\n20 700\n";

static int fixture_start(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return -1;
	}
	return 0;
}

static void fixture_end(void)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	free(cmd);
}

#endif
