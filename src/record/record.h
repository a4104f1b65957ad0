/* record.h -- recording a program under Valgrind with cgtui's tool (or
 * callgrind when the tool is missing): the process, its live snapshots,
 * the answers to live control.  A data source that knows no screen: the
 * explorer is composed above it (app/record.c).  Normal C, in the cgtui
 * binary; the tool itself is src/instrument/.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_RECORD_H
#define CGTUI_RECORD_H

#include <stddef.h>

/* How to record (the recording options). */
struct rec_cfg {
	const char *out;        /* -o: the profile's name (%p: the process id); NULL:
				 * callgrind.out.%p */
	const char *in;         /* --stdin, or NULL: /dev/null (the terminal with --record) */
	const char *log;        /* --log, or NULL: cgtui.log.PID */
	int keep_terminal;      /* --record: the program keeps the terminal */
	char **toolargs;        /* options passed on to the tool */
	int ntoolargs;
};

/* What can be checked before the run (--stdin readable, the profile's
 * directory writable): 0, or -1 with a message on stderr. */
int rec_check_cfg(const struct rec_cfg *c);

struct rec;
/* From now on SIGTERM, SIGHUP (and SIGINT, unless the program keeps the
 * terminal) stop the program rather than leave it running: rec_signalled
 * says which came. */
struct rec *rec_new(const struct rec_cfg *c);
int rec_signalled(void);
/* Starts prog[0 .. nprog) under Valgrind; with live, the tool writes
 * snapshots.  0, or -1 with a message on stderr. */
int rec_start(struct rec *r, int live, char **prog, int nprog);
/* Frees r: Valgrind's messages appended to the program's log, the
 * temporary directory removed. */
void rec_free(struct rec *r);

/* Has the program ended (reaped)? */
int rec_ended(struct rec *r);
/* Stops the program (SIGINT, then SIGKILL after CGTUI_STOP_TIMEOUT_MS,
 * 5000) and the processes it started; waits for them. */
void rec_stop(struct rec *r);
/* Waits for the end without an explorer: SIGTERM and SIGHUP (and SIGINT,
 * unless the program keeps the terminal) stop the program.  Returns the
 * signal that did, or 0. */
int rec_wait(struct rec *r);
/* Waits until there is something to show: the first snapshot or the end;
 * those signals stop the program meanwhile.  0, or the signal. */
int rec_wait_first(struct rec *r);
/* Once ended: the final profile in place (the last snapshot in its place
 * when Valgrind was killed before writing it).  0 when there is one. */
int rec_final(struct rec *r);

/* The run to load now: the final profile once rec_final or rec_poll has
 * found it, else the last snapshot; the snapshot's state is remembered
 * for rec_poll. */
const char *rec_source(struct rec *r, int *whole);
/* While the program runs, the files of the parts it has dumped before
 * its last snapshot (CALLGRIND_DUMP_STATS: PROFILE.N, runfiles.h), which
 * the snapshot, counting from the last dump, leaves out: how many, in
 * *paths (malloc'ed, as each). */
int rec_dumped(struct rec *r, char ***paths);
/* 1 when newer data can be loaded (a newer snapshot, or the final
 * profile). */
int rec_poll(struct rec *r);
/* "running 12s", "exited 3 after 1.2s" ... */
void rec_state(struct rec *r, char *buf, size_t n);
/* The program's output and Valgrind's messages (entries may be NULL). */
const char *const *rec_logs(struct rec *r, int *n);
/* Sends "dump", "zero", "on", "off" or "pause" (off, or on again) to the
 * program, answered later by rec_notice; 0, or -1 with the reason. */
int rec_control(struct rec *r, const char *what, char *msg, size_t n);
/* The answer to the last control, once; NULL when none is new. */
const char *rec_notice(struct rec *r);
/* Is callgrind recording (the tool is missing)? */
int rec_by_callgrind(const struct rec *r);
/* The profiles of the program's forked children: those written so far,
 * from the tool's "profile:" lines in Valgrind's log (names under the
 * current directory relative to it), and while the program runs, the
 * last snapshot of each child that has written none yet: how many, in
 * *paths (malloc'ed, as each). */
int rec_children(const struct rec *r, char ***paths);
/* Nothing recorded: says so on stderr with the end of the logs. */
void rec_no_profile(const struct rec *r);
/* After the end: "cgtui: program exited 0; profile: ..." on stderr. */
void rec_summary(struct rec *r);

/* `cgtui --control PID dump|zero|on|off|status`: the command to the
 * recording in process PID (Valgrind's monitor command, through vgdb);
 * its answer on stdout.  Returns the exit status (0; 2 the process cannot
 * be reached). */
int rec_control_pid(long pid, const char *what);
/* Is `what` one of those commands? */
int rec_is_control(const char *what);

/* Is `arg` a program to record: an executable file (ELF or #!), or a name
 * found in PATH, and not a profile? */
int rec_is_program(const char *arg);
/* Does the file start as a program does (ELF, or #!)? */
int rec_looks_like_program(const char *path);
/* Why `arg` cannot be run, for a message. */
const char *rec_why_not_program(const char *arg);
/* The name to run `arg` by: ./ARG for a program here that PATH does not
 * have (as Valgrind, like a shell, would not find it); malloc'ed, or NULL
 * when arg is right as it is. */
char *rec_program_here(const char *arg);

#endif
