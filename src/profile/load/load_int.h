/* load_int.h -- what the files of the Cachegrind/Callgrind loader share
 * (src/profile/load/): not for readers of profiles, who include
 * profile/load.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_LOAD_INT_H
#define CGTUI_LOAD_INT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "profile/load.h"

/* ---- compressed-id maps (idmap.c) ---------------------------------------- */

/* Ids 0 .. ndirect-1 live in the direct array and every other id in the
 * hash: where an id lives depends on ndirect alone, so it is found where it
 * was put.  The direct array grows (doubling) for an id just above it while
 * ids stay dense -- a handful of huge ids stay in the hash, so "(16000000)"
 * alone costs no 64 MB array -- and then takes over the hash's ids it now
 * covers. */
struct idmap {
	uint32_t *direct;  /* values of ids 0 .. ndirect-1 */
	uint32_t ndirect;
	uint32_t ndense;   /* ids in the direct array */
	int64_t *keys;     /* other ids: open addressing */
	uint32_t *vals; /* value + 1; 0 = empty; ID_PENDING: used, not yet defined */
	uint32_t mask, n;
	/* ids used before their definition, with the line of first use (some
	 * may have been defined since) */
	struct idpend {
		int64_t id;
		uint64_t line;
	} *pend;
	uint32_t npend, cappend;
};
#define ID_PENDING 0x80000000u

/* The value slot of key: NULL when absent and !insert; else made (0) when
 * absent, for the caller to fill. */
uint32_t *idmap_slot(struct idmap *m, int64_t key, int insert);
void idmap_clear(struct idmap *m);
/* A table indexed by id grown to cover index key (see idmap.c). */
void grow_by_id(void **a, uint32_t *n, uint64_t key, size_t elem, int fill);

/* ---- reading the file (reader.c) ----------------------------------------- */

#define MAX_LINE_LEN (256u << 20)
#define UTF8_BOM "\xef\xbb\xbf"

/* A file read through a buffer: plain (read()) or gzip. */
struct reader {
	int fd;
	gzFile gz;
	char *buf;
	size_t cap, pos, end;
	int eof;
	int partial;  /* the line returned last had no newline */
	uint64_t consumed;
};

/* r set up for fd (gzip when it starts with gzip's magic): 0, or -1 with
 * "PATH: reason" in err (fd stays open). */
int reader_open(struct reader *r, int fd, const char *path, char *err, size_t errsz);
void reader_close(struct reader *r);
/* Returns 1 with a line (without its newline and CR) in *line and *len, 0 at end
 * of file, -1 on a read error, -2 when a line is too long. */
int reader_line(struct reader *r, char **line, size_t *len);

/* Room for a line copied out (line_copy). */
struct scratch {
	char *buf;
	size_t cap;
};

/* The l bytes of a line at s copied out with a NUL (the "\r" of a "\r\n"
 * taken off, *l made shorter): the copy. */
char *line_copy(struct scratch *sc, const char *s, size_t *l);

/* Makes target (NULL: none) where a SIGBUS in this thread jumps
 * (siglongjmp(*target, 1)) and returns the target before it.  Used as
 *	sigjmp_buf jb, *volatile prev = NULL;
 *	if (sigsetjmp(jb, 1)) { the mapped file shrank } else { prev = bus_guard(&jb); read it }
 *	bus_guard(prev);
 * (see reader.c). */
sigjmp_buf *bus_guard(sigjmp_buf *target);

#endif
