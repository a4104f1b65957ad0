/* import.h -- profiles of other tools read into the same model as
 * Cachegrind and Callgrind files: pprof's profile.proto (gzip-compressed or
 * not, as `go tool pprof` and perf_to_profile write it) and folded stacks
 * (flamegraph.pl's and inferno's input, "a;b;c 12" per line).
 *
 * What the model gets: one part per file; an event per pprof sample type
 * (folded stacks: one, "Samples"); a function per distinct (object, file,
 * name); a stack's value is self cost of its innermost frame (at its line,
 * for pprof) and inclusive cost of each call along it, as Callgrind counts
 * it (a call inside a recursion counted again at every level).  Neither
 * format counts calls: every call has a count of 0.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_IMPORT_H
#define CGTUI_IMPORT_H

#include <stddef.h>

#include "load.h"
#include "model.h"

enum profile_format {
	FORMAT_CALLGRIND, /* Cachegrind or Callgrind (load.c), and anything else */
	FORMAT_PPROF,
	FORMAT_FOLDED,
};

/* What the first bytes of path (after gzip) look like; FORMAT_CALLGRIND
 * when it cannot be read (the loader then says why) or is not a regular
 * file (a pipe is not read twice: Cachegrind and Callgrind only). */
enum profile_format profile_sniff(const char *path);

/* profile_load() for every format cgtui reads: the file's kind is sniffed
 * and it is loaded by load.c or here.  Same options, results and errors
 * ("FILE:LINE: reason", for pprof "FILE: pprof: reason"); of the options,
 * sign, parts, modfile, modfn apply to imports (they have no deferred
 * lines, instruction addresses or jumps; with an instr sink their costs are
 * not kept). */
int profile_load_any(struct profile *p, const char *path, const struct load_opts *o,
		     char *err, size_t errsz);

/* The importers, on a file's whole (decompressed) content. */
int import_pprof(struct profile *p, const char *path, const unsigned char *data, size_t len,
		 const struct load_opts *o, char *err, size_t errsz);
int import_folded(struct profile *p, const char *path, const char *data, size_t len,
		  const struct load_opts *o, char *err, size_t errsz);

#endif
