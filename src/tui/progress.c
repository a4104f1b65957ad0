/* progress.c -- the loading progress bar (see progress.h).  The bar appears
 * only after the load has taken half a second, on stderr when it is a
 * terminal; the terminal is put in non-canonical mode so that q is read
 * without Enter, and restored afterwards on every path.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "profile/util.h"
#include "progress.h"

struct progress {
	uint64_t total, before;
	struct timespec start;
	int shown, tty_saved;
	struct termios saved;
};

static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

struct progress *progress_start(uint64_t total)
{
	if (!isatty(STDERR_FILENO) || getenv("CGTUI_SCRIPT"))
		return NULL;
	struct progress *pr = xcalloc(1, sizeof(*pr));
	pr->total = total;
	clock_gettime(CLOCK_MONOTONIC, &pr->start);
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &pr->saved) == 0) {
		struct termios raw = pr->saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0)
			pr->tty_saved = 1;
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
	if (pr->shown)
		fprintf(stderr, "\r\033[K");
	free(pr);
}
