/* progress.h -- a progress bar on the terminal while profiles load, and q
 * (or Ctrl-C) to give up the load.  Used before the explorer starts.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_PROGRESS_H
#define CGTUI_PROGRESS_H

#include <signal.h>
#include <stdint.h>
#include <termios.h>
#include <time.h>

#include "loading.h"

/* The state of one bar, in storage its caller owns (on its stack, say) and
 * keeps in place from progress_start to progress_end. */
struct progress {
	uint64_t total, before;          /* bytes: of all files; of those already read */
	struct timespec start;
	volatile sig_atomic_t shown;     /* the bar is on the screen */
	volatile sig_atomic_t tty_saved; /* the terminal's settings are in saved */
	struct termios saved;
	struct sigaction old_sa[3];      /* SIGINT, SIGTERM, SIGHUP's handlers before */
	int bar;                         /* the bar may be drawn (stderr a terminal) */
	struct loading *screen;          /* the explorer's loading screen, or NULL */
	volatile sig_atomic_t curses_on; /* it has the terminal */
	const struct profile *p;         /* the profile being loaded (progress_watch) */
};

/* Starts showing progress in pr on stderr, if it is a terminal, and returns
 * pr (else NULL, and the other calls do nothing with NULL).  total is the
 * bytes of all files to read. */
struct progress *progress_start(struct progress *pr, uint64_t total);
/* The same for the explorer: instead of the bar, after a moment, its
 * loading screen (loading.h; in the headless mode, only as it says). */
struct progress *progress_start_screen(struct progress *pr, uint64_t total,
					const struct tui_start *start, const char *sort);
/* The profile the load fills (the loading screen shows it). */
void progress_watch(struct progress *pr, const struct profile *p);
/* A load_opts.progress callback: arg is the struct progress; returns 1 when
 * the user asked to quit.  `done` counts the bytes read of the current file. */
int progress_update(void *arg, uint64_t done, uint64_t size);
/* The next file: its bytes are added to what was read before. */
void progress_next_file(struct progress *pr, uint64_t size_of_previous);
/* Puts the terminal back and takes the bar off the screen; pr is not freed.
 * A loading screen shown is left for the explorer when `keep` (then
 * pr->screen goes to tui_args.from, and loading_free after it; the signal
 * handlers stay, to end curses, until the explorer sets its own), else
 * ended. */
void progress_end(struct progress *pr, int keep);

#endif
