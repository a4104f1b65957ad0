/* record_int.h -- what record.c and control.c share: the state of one
 * recording.  Not for other rooms (record.h is the launcher's interface).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_RECORD_INT_H
#define CGTUI_RECORD_INT_H

#include <signal.h>
#include <sys/types.h>
#include <time.h>

#include "record/record.h"

struct rec {
	struct rec_cfg cfg;         /* (the strings are the caller's) */
	pid_t pid;
	int ended, status;          /* waitpid's status once ended */
	int callgrind;              /* our tool missing: callgrind records */
	char *tmpdir, *live, *vglog, *out, *log;
	char *out_pid;              /* what the tool writes, when out has no %p */
	char *prog;                 /* the program as named to run it */
	const char *logs[2];
	struct timespec t0, t1;     /* start, end */
	dev_t live_dev;
	ino_t live_ino;             /* the snapshot last seen */
	struct timespec live_mtim;
	int final_seen;             /* the end seen: rec_finish done */
	int final_ok;               /* and there is a profile */
	int from_snapshot;          /* the tool wrote no final profile: its last
				     * snapshot is the profile (an exec) */
	int stop_ms;                /* SIGINT, then SIGKILL after this */
	/* live control: vgdb sending a command (0: none), its output */
	pid_t ctl_pid;
	struct timespec ctl_t0;     /* when it was asked */
	char *ctl_out;
	const char *ctl_what;       /* "dump", "zero", "on", "off" */
	int paused;                 /* counting switched off from here */
	char notice[256];
	int notice_new;
};

/* program.c: is path a regular file we may execute? */
int is_exec_file(const char *path);
/* Is the command `arg` (no slash) found in $PATH? */
int rec_in_path(const char *arg);
/* The file the program `arg` runs (a name without '/' found in $PATH) if
 * it is a #! script (allocated), else NULL. */
char *rec_script(const char *arg);

#endif
