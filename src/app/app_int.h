/* app_int.h -- what the modes (read.c, record.c) share (show.c).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_APP_INT_H
#define CGTUI_APP_INT_H

#include "app/app.h"
#include "app/session.h"
#include "record/record.h"
#include "report/report.h"

struct tui_live;

/* What the explorer loads from: the session, and while a program is
 * recorded, the recorder's newest run (r; NULL otherwise). */
struct app_source {
	struct session *s;
	struct rec *r;
	struct loading *screen; /* the loading screen the explorer takes, or NULL */
	int final_inputs;       /* the recording's final profiles are the inputs */
};

/* The session's inputs are the recording's newest data: a snapshot, or the
 * final profile and those of the processes it forked (record.c); once
 * those are final, they are left as they are (the explorer's A may have
 * made them a difference since). */
void app_recorded_inputs(struct app_source *src);

/* --show and --sort of c against p's events, and the report options that
 * come from c; 0, or the exit status with the message in err. */
int app_events(const struct cli *c, const struct profile *p, struct report_opts *ro, char *err,
	       size_t errsz);
/* The explorer on p (loaded from src): the exit status. */
/* What the explorer starts with: the options given (ro NULL: before the
 * profile is there, its events not known: no sort or shown events). */
struct tui_start;
void app_tui_start(const struct cli *c, const struct report_opts *ro, struct tui_start *start);
int app_explore(struct app_source *src, struct profile *p, const struct report_opts *ro,
		const struct tui_live *live);
/* The report of p (--format, --export, --annotate-asm): the exit status. */
int app_report(struct app_source *src, struct profile *p, struct report_opts *ro);

#endif
