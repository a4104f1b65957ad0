/* read.c -- `cgtui [options] [PROFILE]...`: the profiles loaded through
 * the session, then the explorer on a terminal, else the report; or
 * --check's verdict on two sides.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app_int.h"
#include "profile/load.h"
#include "report/check.h"
#include "tui/progress.h"
#include "tui/tui.h"

/* --check: each side through the session, as the explorer would load it */
static int check_load(void *arg, int side, struct profile *p)
{
	char err[4096];
	struct load_ctl ctl = { .side = side + 1, .lazy = 1 };
	int rc = session_load(arg, p, &ctl, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "cgtui: %s\n", err);
		return rc == SESSION_USAGE ? 1 : 2;
	}
	for (int i = 0; i < p->nwarnings; i++)
		fprintf(stderr, "cgtui: warning: %s\n", p->warnings[i]);
	return 0;
}

int app_read(const struct cli *c)
{
	struct session s;
	int status = session_open(&s, c);
	if (status) {
		session_free(&s);
		return status;
	}
	if (c->share.check) {
		status = check_run(stdout, &c->share, s.in.v, s.in.n, s.nfirst, check_load, &s);
		session_free(&s);
		return status;
	}
	const char *script = getenv("CGTUI_SCRIPT");
	int tui = !c->batch && ((script && *script) || (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)));
	uint64_t total = 0;
	for (int i = 0; i < s.in.n; i++) {
		struct stat st;
		if (stat(s.in.v[i], &st) == 0 && S_ISREG(st.st_mode))
			total += (uint64_t)st.st_size;
	}
	/* the explorer, or a report without annotation, needs no per-line
	 * costs to start: they are read when a view wants them; an annotated
	 * report reads them all, better at once */
	/* the explorer's loading screen (the functions so far), or the bar */
	struct progress bar;
	/* (the explorer's first sort event: the first, unless --sort says) */
	struct load_ctl ctl = { .lazy = tui || !c->ro.annotate, .recover = tui,
				.explorer = tui,
				.roots0 = tui && !c->sort,
				.pairs = !tui && !c->share.export && c->share.format != FORMAT_JSON };
	if (tui && ((script && *script) || (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO))))
	{
		struct tui_start start;
		app_tui_start(c, NULL, &start);
		ctl.pr = progress_start_screen(&bar, total, &start, c->sort);
	}
	else if (!c->batch && isatty(STDOUT_FILENO))
		ctl.pr = progress_start(&bar, total);
	struct profile p;
	char err[4096];
	int rc = session_load(&s, &p, &ctl, err, sizeof(err));
	struct loading *screen = NULL;
	if (rc == 0 && ctl.pr && loading_shown(ctl.pr->screen))
		screen = ctl.pr->screen; /* the explorer's now */
	progress_end(ctl.pr, screen != NULL);
	if (rc < 0) {
		session_free(&s);
		if (rc == LOAD_CANCELLED)
			return 0; /* q during the load */
		fprintf(stderr, "cgtui: %s\n", err);
		return rc == SESSION_USAGE ? 1 : 2;
	}
	/* (on the loading screen: the explorer says them) */
	for (int i = 0; !screen && i < p.nwarnings; i++)
		fprintf(stderr, "cgtui: warning: %s\n", p.warnings[i]);
	struct report_opts ro = c->ro;
	struct app_source src = { .s = &s, .screen = screen };
	status = app_events(c, &p, &ro, err, sizeof(err));
	if (status) { /* said after the loading screen is gone */
		loading_free(screen);
		screen = NULL;
		fprintf(stderr, "cgtui: %s\n", err);
	}
	if (!status)
		status = tui ? app_explore(&src, &p, &ro, NULL) : app_report(&src, &p, &ro);
	loading_free(screen);
	profile_free(&p);
	session_free(&s);
	return status;
}
