/* runfiles.h -- which files a name on the command line stands for: the
 * one rule of "the files of one run", used by the command line, the
 * recorder (its snapshots and final profile) and --check's sides.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_RUNFILES_H
#define CGTUI_RUNFILES_H

/* The files named so far, in the order they are loaded. */
struct runfiles {
	char **v;
	int n;
	char *note;     /* a file named is one of several of its run, or NULL */
};

/* Adds the files `name` stands for:
 *  - a directory: the callgrind.out.* and cachegrind.out.* in it, in the
 *    order they ran (callgrind.out.1.2 before callgrind.out.1.10);
 *  - callgrind.out.PID (a file or not): it and every callgrind.out.PID-TID
 *    (one per thread, --separate-threads=yes) and callgrind.out.PID.N (a
 *    dump: CALLGRIND_DUMP_STATS, the "dump" control) beside it; an empty
 *    callgrind.out.PID beside per-thread files is left out (callgrind
 *    writes one);
 *  - another name that is no file (or an empty one): NAME-TID and NAME.N;
 *    with `whole` (a name the recorder gave its output), those beside an
 *    existing NAME too;
 *  - a file beside an existing profile (PROFILE.ctx, PROFILE.time):
 *    nothing (it is read with its profile; callgrind.out.* names both);
 *  - anything else: itself (callgrind.out.PID-TID alone: a note says which
 *    run it is one file of).
 * A name that stands for nothing is added as it is: loading it says why. */
void run_files_add(struct runfiles *rf, const char *name, int whole);
void run_files_free(struct runfiles *rf);

/* The newest callgrind.out.* or cachegrind.out.* in the current
 * directory, as the name of its run (callgrind.out.PID for
 * callgrind.out.PID-TID or .N), malloc'ed; NULL when there is none. */
char *run_newest(void);

#endif
