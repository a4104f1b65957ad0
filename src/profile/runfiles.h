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
	struct runfile_id *id; /* v[i]'s file, to name it once (run_files_add) */
	int side;       /* the first of the side being named (run_files_side) */
};

/* Adds the files `name` stands for:
 *  - a directory: the callgrind.out.* and cachegrind.out.* in it, in the
 *    order they ran (callgrind.out.1.2 before callgrind.out.1.10), but an
 *    empty callgrind.out.PID beside its run's files;
 *  - callgrind.out.PID (a file or not): it and every callgrind.out.PID-TID
 *    (one per thread, --separate-threads=yes) and callgrind.out.PID.N (a
 *    dump: CALLGRIND_DUMP_STATS, the "dump" control) beside it; an empty
 *    callgrind.out.PID beside per-thread files is left out (callgrind
 *    writes one);
 *  - another name: it and those NAME-TID, NAME.N and NAME.N-TID beside it
 *    that its process wrote, as their header's pid:, cmd: and creator:
 *    lines say: NAME's, or when NAME is no file (or an empty one) its
 *    first thread's, NAME-TID's (callgrind --callgrind-out-file=NAME and
 *    cgtui -o NAME write a run's dumps and threads so; a forked child's
 *    NAME.PID, or anyone's other file, says another process or none).
 *    With no process to go by: all of them beside a NAME that is no file,
 *    none beside a file.  With `whole` (a name the recorder gave its
 *    output: its process alone writes there), all of them;
 *  - a file beside an existing profile (PROFILE.ctx, PROFILE.time):
 *    nothing (it is read with its profile; callgrind.out.* names both);
 *  - anything else: itself (callgrind.out.PID-TID alone: a note says which
 *    run it is one file of).
 * A file named on its own that a run named before brought in is not added
 * again: callgrind.out.PID* in a shell names the run, then each of its
 * files, which would count twice.  (A file or a run named twice is added
 * twice, as several profiles are; and a file of the side of a difference
 * named after run_files_side is named anew.)
 * A name that stands for nothing is added as it is: loading it says why. */
void run_files_add(struct runfiles *rf, const char *name, int whole);
/* The files named from now on are another side (of --diff, --check): a
 * run named before does not stand for them. */
void run_files_side(struct runfiles *rf);
void run_files_free(struct runfiles *rf);

/* The files of src added to dst as they are (no run looked for; the
 * sides of a difference put together). */
void run_files_copy(struct runfiles *dst, const struct runfiles *src);

/* The name of the run a profile's file `name` is one of: itself, or
 * callgrind.out.PID for callgrind.out.PID-TID and .N (malloc'ed). */
char *run_name(const char *name);

/* The value of the profile `path`'s header line KEY: ("part" for part:),
 * malloc'ed; NULL when its header has none, or it is no regular file. */
char *run_header(const char *path, const char *key);

/* The runs of the callgrind.out.* and cachegrind.out.* in directory dir
 * ("" for the current one, else ending in '/'), each by its name
 * (callgrind.out.PID for callgrind.out.PID-TID or .N: runfiles' rule),
 * as DIR+NAME, the newest first (by its newest file): how many, in *runs
 * (malloc'ed, as each). */
int run_list(const char *dir, char ***runs);

/* The newest of those in the current directory, malloc'ed; NULL when
 * there is none. */
char *run_newest(void);

#endif
