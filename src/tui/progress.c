/* progress.c -- the loading progress bar (see progress.h).  The bar appears
 * only after the load has taken half a second, on stderr when it is a
 * terminal; the terminal is put in non-canonical mode so that q is read
 * without Enter, and restored afterwards on every path: Ctrl-C, SIGTERM and
 * SIGHUP restore it before they end cgtui (a terminal left without line
 * editing made the shell read EOF and exit).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static const int term_sigs[3] = { SIGINT, SIGTERM, SIGHUP };

/* The bar whose terminal settings a signal handler puts back.  The one
 * static here, because a handler gets no argument to find it by; set while
 * the handlers are installed, only one bar at a time. */
static struct progress *volatile armed;

static void restore_and_die(int sig)
{
	struct progress *pr = armed;
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

struct progress *progress_start(struct progress *pr, uint64_t total)
{
	if (!isatty(STDERR_FILENO) || getenv("CGTUI_SCRIPT"))
		return NULL;
	memset(pr, 0, sizeof(*pr));
	pr->total = total;
	clock_gettime(CLOCK_MONOTONIC, &pr->start);
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &pr->saved) == 0) {
		struct termios raw = pr->saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = restore_and_die;
		pr->tty_saved = 1; /* before the change: a signal during it restores */
		armed = pr;
		for (int i = 0; i < 3; i++)
			sigaction(term_sigs[i], &sa, &pr->old_sa[i]);
		if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0)
			pr->tty_saved = 0;
	}
	return pr;
}

int progress_update(void *arg, uint64_t done, uint64_t size)
{
	struct progress *pr = arg;
	if (!pr)
		return 0;
	char c;
	if (pr->tty_saved && read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q' || c == 3))
		return 1;
	double el = since(&pr->start);
	if (el < 0.5)
		return 0;
	uint64_t now = pr->before + done;
	uint64_t total = pr->total ? pr->total : size;
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

void progress_end(struct progress *pr)
{
	if (!pr)
		return;
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
