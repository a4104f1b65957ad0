/* record.c -- `cgtui [options] PROGRAM [ARG]...`: the recorder (record/)
 * feeding the explorer while the program runs, or the explorer or the
 * report of its profile at the end; the explorer's and the report's
 * options apply as to any profile (the session loads it).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app_int.h"
#include "profile/util.h"
#include "tui/tui.h"

/* ---- the explorer's side of the recording: struct tui_live ------------------------------ */

static int live_poll(void *arg)
{
	return rec_poll(arg);
}

static void live_state(void *arg, char *buf, size_t n)
{
	rec_state(arg, buf, n);
}

static int live_running(void *arg)
{
	return !rec_ended(arg);
}

static void live_stop(void *arg)
{
	rec_stop(arg);
}

static const char *const *live_logs(void *arg, int *n)
{
	return rec_logs(arg, n);
}

static int live_control(void *arg, const char *what, char *msg, size_t n)
{
	return rec_control(arg, what, msg, n);
}

static const char *live_notice(void *arg)
{
	return rec_notice(arg);
}

void app_recorded_inputs(struct app_source *src)
{
	if (src->final_inputs)
		return;
	/* (ended: its final profile, renamed into place now if need be) */
	int final = rec_ended(src->r) && rec_final(src->r) == 0, whole;
	const char *base = rec_source(src->r, &whole);
	session_set_run(src->s, base, whole);
	/* while it runs, the parts it dumped before the snapshot's */
	char **dumped = NULL;
	int nd = final ? 0 : rec_dumped(src->r, &dumped);
	for (int i = 0; i < nd; i++) {
		session_add_run(src->s, dumped[i]);
		free(dumped[i]);
	}
	free(dumped);
	/* the processes it forked too, as parts (a process each): their
	 * snapshots while they run, then their profiles; the tool counts each
	 * from its fork on, so that the parts add up (callgrind's repeat the
	 * parent's costs before the fork: not added) */
	if (!rec_by_callgrind(src->r)) {
		char **kids;
		int n = rec_children(src->r, &kids);
		for (int i = 0; i < n; i++) {
			session_add_run(src->s, kids[i]);
			free(kids[i]);
		}
		free(kids);
	}
	src->final_inputs = final;
}

/* The recorded profile loaded: the newest snapshot, or the final
 * profile; 0, or the exit status. */
static int load(struct app_source *src, struct profile *p, struct report_opts *ro)
{
	app_recorded_inputs(src);
	char err[4096];
	struct load_ctl ctl = { .lazy = 1, .recover = 1, .explorer = 1 };
	int rc = session_load(src->s, p, &ctl, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "cgtui: %s\n", err);
		return rc == SESSION_USAGE ? 1 : 2;
	}
	*ro = src->s->cli->ro;
	int st = app_events(src->s->cli, p, ro, err, sizeof(err));
	if (st) {
		fprintf(stderr, "cgtui: %s\n", err);
		profile_free(p);
	}
	return st;
}

/* The explorer on the recorded profile, with live data while it runs. */
static int explore(struct app_source *src, int live)
{
	struct rec *r = src->r;
	struct tui_live tl = { .poll = live_poll, .state = live_state, .running = live_running,
			       .stop = live_stop, .logs = live_logs, .control = live_control,
			       .notice = live_notice, .arg = r };
	/* the first data: a snapshot (the tool writes one at once), or the end */
	int sig = live ? rec_wait_first(r) : 0;
	if (sig)
		return 128 + sig;
	if (rec_ended(r) && rec_final(r) < 0) {
		rec_no_profile(r);
		return 2;
	}
	struct profile p;
	struct report_opts ro;
	int rc = load(src, &p, &ro);
	if (rc) {
		rec_stop(r);
		return rc;
	}
	if (rec_by_callgrind(r))
		tl.message = rec_ended(r) ? "cgtui's Valgrind tool is missing: recorded with callgrind"
					  : "cgtui's Valgrind tool is missing: recording with callgrind "
					    "(no live data)";
	/* (--record, after the end too: its state in the header, L) */
	rc = app_explore(src, &p, &ro, &tl);
	profile_free(&p);
	/* SIGTERM, SIGHUP, the end of a test script: stop the program, keep
	 * its profile (q has asked and stopped it already) */
	rec_stop(r);
	return rc;
}

/* --batch: the report of the final profile */
static int report(struct app_source *src)
{
	struct profile p;
	struct report_opts ro;
	int rc = load(src, &p, &ro);
	if (rc)
		return rc;
	for (int i = 0; i < p.nwarnings; i++)
		fprintf(stderr, "cgtui: warning: %s\n", p.warnings[i]);
	rc = app_report(src, &p, &ro);
	profile_free(&p);
	return rc;
}

int app_record(const struct cli *c)
{
	if (rec_check_cfg(&c->rec) < 0)
		return 1;
	struct session s;
	session_open(&s, c);
	struct rec *r = rec_new(&c->rec);
	struct app_source src = { .s = &s, .r = r };
	const char *script = getenv("CGTUI_SCRIPT");
	int tty = (script && *script) || (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO));
	int open = tty && !c->no_open && !c->batch;
	int live = open && !c->rec.keep_terminal;
	/* (a program here that PATH does not have runs as ./PROGRAM) */
	char *here = rec_program_here(c->operands[0]);
	char **prog = xcalloc((size_t)c->noperands + 1, sizeof(*prog));
	for (int i = 0; i < c->noperands; i++)
		prog[i] = i == 0 && here ? here : c->operands[i];
	int rc;
	if (rec_start(r, live, prog, c->noperands) < 0) {
		rc = 2;
	} else if (live) {
		rc = explore(&src, 1);
	} else {
		if (rec_by_callgrind(r))
			fprintf(stderr, "cgtui: cgtui's Valgrind tool is missing: recording with "
					"valgrind --tool=callgrind\n");
		int sig = rec_wait(r);
		rc = sig ? 128 + sig : 0;
		if (rec_final(r) < 0) {
			rec_no_profile(r);
			rc = 2;
		} else if (!sig && c->batch) {
			rc = report(&src);
		} else if (!sig && open) {
			rc = explore(&src, 0);
		}
	}
	free(prog);
	free(here);
	rec_summary(r);
	rec_free(r);
	session_free(&s);
	return rc;
}
