/* progress.c -- the loading progress bar (see progress.h).  The bar appears
 * only after the load has taken half a second, on stderr when it is a
 * terminal; the terminal is put in non-canonical mode so that q is read
 * without Enter, and restored afterwards on every path: Ctrl-C, SIGTERM and
 * SIGHUP restore it before they end cgtui (a terminal left without line
 * editing made the shell read EOF and exit).  For the explorer, the
 * loading screen (loading.c) takes the bar's place: the terminal as it was
 * is given back to curses, which then keeps it.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "progress.h"

static const int term_sigs[3] = { SIGINT, SIGTERM, SIGHUP };

/* The bar whose terminal settings a signal handler puts back.  The one
 * static here, because a handler gets no argument to find it by; set while
 * the handlers are installed, only one bar at a time. */
static struct progress *volatile armed;

static void restore_and_die(int sig)
{
	struct progress *pr = armed;
	if (pr && pr->curses_on)
		endwin(); /* (as the explorer's fatal_signal) */
	if (pr && pr->tty_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &pr->saved);
	if (pr && pr->shown && write(STDERR_FILENO, "\r\033[K", 4) < 0)
		pr->shown = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* q read without Enter or echo (and without waiting) */
static void keys_raw(struct progress *pr)
{
	struct termios raw = pr->saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (pr->tty_saved && tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0)
		pr->tty_saved = 0;
}

static struct progress *start(struct progress *pr, uint64_t total, struct loading *screen)
{
	int bar = isatty(STDERR_FILENO) && !getenv("CGTUI_SCRIPT");
	if (!bar && !screen)
		return NULL;
	memset(pr, 0, sizeof(*pr));
	pr->bar = bar;
	pr->screen = screen;
	pr->total = total;
	clock_gettime(CLOCK_MONOTONIC, &pr->start);
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &pr->saved) == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = restore_and_die;
		pr->tty_saved = 1; /* before the change: a signal during it restores */
		armed = pr;
		for (int i = 0; i < 3; i++)
			sigaction(term_sigs[i], &sa, &pr->old_sa[i]);
		keys_raw(pr);
	}
	return pr;
}

struct progress *progress_start(struct progress *pr, uint64_t total)
{
	return start(pr, total, NULL);
}

struct progress *progress_start_screen(struct progress *pr, uint64_t total,
					const struct tui_start *st, const char *sort)
{
	struct loading *ls = loading_new(st, sort);
	struct progress *r = start(pr, total, ls);
	if (!r)
		loading_free(ls);
	return r;
}

void progress_watch(struct progress *pr, const struct profile *p)
{
	if (pr)
		pr->p = p;
}

int progress_update(void *arg, uint64_t done, uint64_t size)
{
	struct progress *pr = arg;
	if (!pr)
		return 0;
	double el = since(&pr->start);
	uint64_t now = pr->before + done;
	uint64_t total = pr->total ? pr->total : size;
	if (pr->screen && pr->p && loading_due(pr->screen, pr->p, el)) {
		if (!pr->curses_on && pr->tty_saved)
			/* curses keeps the terminal as it was, to give it back */
			tcsetattr(STDIN_FILENO, TCSANOW, &pr->saved);
		int quit = loading_tick(pr->screen, pr->p, now, total, el);
		pr->curses_on = loading_shown(pr->screen);
		if (pr->curses_on || quit)
			return quit;
		loading_free(pr->screen); /* it could not be shown: the bar */
		pr->screen = NULL;
		keys_raw(pr);
	}
	char c;
	if (pr->tty_saved && read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q' || c == 3))
		return 1;
	if (el < 0.5 || !pr->bar)
		return 0;
	int width = 40, fill = total ? (int)((double)now / (double)total * width) : 0;
	if (fill > width)
		fill = width;
	char bar[64];
	memset(bar, '=', (size_t)fill);
	memset(bar + fill, ' ', (size_t)(width - fill));
	bar[width] = 0;
	fprintf(stderr, "\rcgtui: loading [%s] %3d%%  %.0f MB/s  (q: quit) ", bar,
		total ? (int)((double)now * 100 / (double)total) : 0, (double)now / 1e6 / el);
	pr->shown = 1;
	return 0;
}

void progress_next_file(struct progress *pr, uint64_t size_of_previous)
{
	if (pr)
		pr->before += size_of_previous;
}

void progress_end(struct progress *pr, int keep)
{
	if (!pr)
		return;
	if (pr->curses_on && keep) {
		/* curses gives the terminal back at its end; until the explorer
		 * sets its own handlers, a signal ends curses with these */
		loading_done(pr->screen, pr->p);
		return;
	} else {
		loading_free(pr->screen); /* (endwin: the terminal as it was) */
		pr->screen = NULL;
	}
	pr->curses_on = 0;
	if (pr->tty_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &pr->saved);
	if (armed == pr) {
		for (int i = 0; i < 3; i++)
			sigaction(term_sigs[i], &pr->old_sa[i], NULL);
		armed = NULL;
	}
	if (pr->shown)
		fprintf(stderr, "\r\033[K");
	pr->shown = 0;
}
