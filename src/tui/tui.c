/* tui.c -- the explorer's frame: terminal set-up and restore, the key table
 * turned into a dispatcher, the one list engine, the view history, header and
 * status lines, resizing, and the headless mode the tests drive.
 *
 * Headless mode (for tests, like tig's): CGTUI_SCRIPT=FILE makes cgtui read
 * its keys from FILE instead of the terminal and draw into a screen that is
 * never shown; in FILE, a line ":dump PATH" writes the screen's text to PATH,
 * ":resize COLSxLINES" resizes, ":wait-data" waits until newer data (not
 * empty) of the program being recorded has been loaded, ":wait-fn NAME"
 * until the data loaded has the function NAME, ":wait-end" until it has
 * ended and its final profile is shown, ":load-on" (on the loading screen,
 * loading.h) lets the load go on to its next progress step, ":wait-answer"
 * until the answer to
 * a live control (U, Z, p) has come, ":click X Y" and ":dclick X Y" click
 * or double-click button 1 at column X, line Y (from 0) through curses' own
 * mouse queue, ":pause MS" waits MS milliseconds (up to 60,000: a user
 * reading the screen), "#" starts a comment, and any other line is
 * keys: characters, or names in angle brackets as in keys.h (<Enter>, <Down>,
 * <C-l> ...; <C-c> stands for the Ctrl-C signal).  The screen size comes from COLUMNS and LINES (default 80x24).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "profile/aggregate.h"
#include "profile/timeline.h"
#include "profile/tree.h"
#include "loading.h"
#include "tui_int.h"

volatile sig_atomic_t tui_got_signal;

/* ---- terminal set-up and restore -------------------------------------------------------- */

static void on_signal(int sig)
{
	tui_got_signal = sig;
}

void tui_restore_terminal(void)
{
	if (!isendwin())
		endwin();
}

static void fatal_signal(int sig)
{
	tui_restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

void *tui_open_screen(struct tui *t, FILE **devnull, const char **why)
{
	SCREEN *scr;
	if (t->headless) {
		*devnull = fopen("/dev/null", "r+");
		if (!*devnull)
			return NULL;
		const char *term = getenv("TERM");
		scr = newterm(term && *term ? term : "xterm", *devnull, *devnull);
		if (!scr)
			scr = newterm("vt100", *devnull, *devnull);
	} else {
		scr = newterm(NULL, stdout, stdin);
		/* a terminal that cannot move the cursor (TERM=dumb) would show
		 * garbage: refused, with the way to the report */
		char *cup = scr ? tigetstr("cup") : NULL;
		if (scr && (!cup || cup == (char *)-1)) {
			endwin();
			delscreen(scr);
			*why = "cannot move the cursor, which the explorer needs; --batch prints "
			       "the report";
			return NULL;
		}
	}
	return scr;
}

void tui_apply_start(struct tui *t, const struct tui_start *s)
{
	if (s->sort_event >= 0 && s->sort_event < t->p->nevents)
		t->set.sort_event = s->sort_event;
	if (s->nshow > 0) {
		t->set.nshow = 0;
		for (int k = 0; k < s->nshow && k < MAX_EVENTS; k++)
			if (s->show[k] >= 0 && s->show[k] < t->p->nevents)
				t->set.show[t->set.nshow++] = s->show[k];
	}
	if (s->threshold >= 0)
		t->set.threshold = s->threshold;
	if (s->percent >= 0)
		t->set.percent = s->percent;
	if (s->context >= 0)
		t->set.context = s->context;
	if (s->cycles >= 0)
		t->set.cycles = s->cycles;
}

void tui_screen_modes(struct tui *t)
{
	noraw(); /* (the loading screen's raw mode before) */
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (!t->headless && has_colors() && !getenv("NO_COLOR")) {
		start_color();
		use_default_colors();
		tui_colors(t);
		t->color = 1;
	}
}

int tui_run(struct profile *p, const struct tui_args *args)
{
	const struct tui_loader *loader = args->loader;
	const char *const *src_dirs = args->src_dirs;
	int nsrc_dirs = args->nsrc_dirs;
	struct tui t;
	memset(&t, 0, sizeof(t));
	t.p = p;
	t.loader = loader;
	t.src_dirs = src_dirs;
	t.nsrc_dirs = nsrc_dirs;
	t.live = args->live;
	if (t.live && t.live->message)
		tui_message(&t, "%s", t.live->message);
	else if (p->nwarnings) /* printed before the screen was taken: said again */
		tui_message(&t, "%d warning%s about the profile: S shows %s", p->nwarnings,
			    p->nwarnings == 1 ? "" : "s", p->nwarnings == 1 ? "it" : "them");
	t.set.nshow = p->nreal;
	for (int e = 0; e < p->nreal; e++)
		t.set.show[e] = e;
	t.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	t.set.cycles = 1;
	tui_config(&t); /* the defaults, then the user's file */
	if (args->start) /* then the command line */
		tui_apply_start(&t, args->start);
	profile_set_cycles(p, t.set.cycles);

	/* where sources are looked for: the command line's, then what d adds */
	if (loader && loader->look)
		srclookup_copy(&t.look, loader->look);
	else
		srclookup_init(&t.look);
	for (int i = 0; i < nsrc_dirs; i++)
		srclookup_add_dir(&t.look, src_dirs[i]);

	/* the loading screen's terminal, script and place (loading.h) */
	void *scr0 = NULL;
	FILE *script0 = NULL, *devnull = NULL;
	int sort0 = -1;
	uint32_t fn0 = NO_ID;
	if (args->from)
		loading_handover(args->from, &scr0, &script0, &devnull, &sort0, &fn0);
	if (sort0 >= 0 && sort0 < p->nevents)
		t.set.sort_event = sort0;
	const char *sp = getenv("CGTUI_SCRIPT");
	if (script0) {
		t.script = script0;
		t.headless = 1;
	} else if (sp && *sp) {
		t.script = fopen(sp, "r");
		if (!t.script) {
			fprintf(stderr, "cgtui: CGTUI_SCRIPT: %s: %s\n", sp, strerror(errno));
			return 1;
		}
		t.headless = 1;
		if (!getenv("COLUMNS"))
			setenv("COLUMNS", "80", 1);
		if (!getenv("LINES"))
			setenv("LINES", "24", 1);
	}
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	profile_agg(p);

	const char *why = "is unknown or cannot be used (for the report: --batch)";
	SCREEN *scr = scr0 ? scr0 : tui_open_screen(&t, &devnull, &why);
	if (!scr) {
		fprintf(stderr, "cgtui: the terminal (TERM=%s) %s\n",
			getenv("TERM") ? getenv("TERM") : "", why);
		tui_script_close(&t);
		return 1;
	}
	set_term(scr);
	atexit(tui_restore_terminal);
	util_on_fatal(tui_restore_terminal);
	/* no SA_RESTART: a signal interrupts the wait for a key */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGSEGV, fatal_signal);
	signal(SIGABRT, fatal_signal);
	tui_screen_modes(&t);
	timeout(250); /* wake up now and then: signals, and later live data */
	getmaxyx(stdscr, t.lines, t.cols);

	tui_push(&t, view_new(&t, &functions_ops, NO_ID));
	if (fn0 != NO_ID) { /* the function selected while loading */
		int r = row_of_fn(tui_view(&t), fn0);
		if (r >= 0)
			list_goto(tui_view(&t), r);
	}
	/* CGTUI_TIMING=FILE: how long the first screen and each key took */
	const char *tp = getenv("CGTUI_TIMING");
	FILE *timing = tp && *tp ? fopen(tp, "w") : NULL;
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	int dirty = 1, last_key = 0, prepared = 0;
	while (!t.quit) {
		if (tui_got_signal == SIGINT && t.live && t.live->running(t.live->arg)) {
			/* Ctrl-C: the program, not the explorer */
			tui_got_signal = 0;
			if (ask(&t, "Stop the program? (y/n)"))
				live_stop(&t);
			dirty = 1;
		}
		if (tui_got_signal)
			break;
		if (t.live) {
			live_tick(&t, 0, NULL);
			dirty = 1; /* the elapsed time */
		}
		if (dirty) {
			draw(&t);
			if (timing) {
				struct timespec t1;
				clock_gettime(CLOCK_MONOTONIC, &t1);
				fprintf(timing, "%s %d %.3f\n", last_key ? "key" : "first-screen", last_key,
					(double)(t1.tv_sec - t0.tv_sec) * 1e3 +
						(double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
			}
		}
		profile_hold_job(p, 0); /* (the key handled and drawn) */
		if (!prepared || (dirty && !t.live)) {
			/* the call tree's roots and the groups' pairs, made while
			 * the user reads the first screen: not before it, which
			 * they would slow down on a busy core, nor beside its
			 * rows, whose memory they would add to the peak; and
			 * made again while the user reads the screen after a key
			 * that left them to be made (cycle detection turned
			 * off and on, other parts, a reload): nothing when they
			 * are there, nor during a recording, whose profile
			 * changes at every tick */
			prepared = 1;
			trees_prepare(p, t.set.sort_event);
		}
		int c = next_key(&t);
		if (c == -2)
			break;
		if (c == -3) /* a script's :load-on after the load */
			c = ERR;
		if (c == 3) { /* Ctrl-C read as a key */
			tui_got_signal = SIGINT;
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		last_key = c;
		dirty = c != ERR;
		if (c == ERR)
			continue;
		/* the job ahead waits while the key is handled and drawn (on a
		 * busy machine they would share a core), unless the key waits
		 * for it */
		profile_hold_job(p, 1);
		t.message[0] = 0; /* a message lasts until the next key */
		if (c == KEY_RESIZE) {
			getmaxyx(stdscr, t.lines, t.cols);
			clearok(stdscr, TRUE);
			refresh_all(&t); /* (rows made for the width: the help's) */
			continue; /* drawn at the top of the loop */
		}
		if (c == KEY_MOUSE) {
			mouse(&t);
			continue;
		}
		enum action a = c == ' ' && tui_view(&t)->ops->space_marks ? ACT_TOGGLE : key_action(c);
		if (a == ACT_NONE && c != KEY_MOUSE)
			tui_message(&t, "%s: no such key, ? for help",
				    c > 32 && c < 127 ? (char[]){ (char)c, 0 } : keyname(c));
		act(&t, a);
		if (t.want_parts)
			switch_parts(&t);
		if (t.want_compare)
			switch_compare(&t);
	}
	if (timing)
		fclose(timing);
	util_on_fatal(NULL);
	endwin();
	delscreen(scr);
	if (devnull)
		fclose(devnull);
	tui_script_close(&t);
	for (int i = 0; i < t.nhist; i++)
		view_free(t.hist[i]);
	view_free(t.detail);
	view_free(t.detail_prev);
	timeline_free(t.tl);
	tui_sides_free(&t);
	srclookup_free(&t.look);
	free(t.search);
	partset_clear(&t.want);
	free(t.compare_with);
	for (int i = 0; i < t.nuserev; i++)
		free(t.userev[i]);
	free(t.userev);
	for (int i = 0; i < t.nphist; i++) {
		for (int k = 0; k < t.phist[i].n; k++)
			free(t.phist[i].line[k]);
		free(t.phist[i].line);
	}
	return tui_got_signal ? 128 + tui_got_signal : 0;
}
