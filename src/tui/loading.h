/* loading.h -- the explorer's screen while a profile loads (issue 19): the
 * functions list of what is loaded so far, refreshed as the load goes on,
 * with a progress line (MB/s, ETA), the moving keys working and q quitting
 * at once.  Driven by the loader's progress callback (progress.c), on the
 * thread that loads; handed to the explorer (tui_run) when the load ends.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_LOADING_H
#define CGTUI_LOADING_H

#include <stdint.h>
#include <stdio.h>

#include "profile/model.h"

struct loading;

/* A loading screen, not shown yet; NULL when there is no terminal for it.
 * It starts with the settings in start (tui.h; no sort or shown events in
 * it) and sorts by the first event of the --sort list `sort` (NULL: none)
 * when it is one the file names (derived events come after the load).
 * It appears once the load has taken CGTUI_LOADSCREEN_MS milliseconds
 * (default 200: on the screen within 0.3 s).  In the headless mode (CGTUI_SCRIPT) only when that is
 * set, for tests: the script's keys are then read at every progress step
 * until a line ":load-on" lets the load go on to its next one. */
struct tui_start;
struct loading *loading_new(const struct tui_start *start, const char *sort);
/* Is it time to show it (or is it shown)? */
int loading_due(const struct loading *ls, const struct profile *p, double el);
/* At a progress step: p is the profile being loaded (between two of the
 * loader's lines), done of total bytes read, `el` seconds since the start.
 * Shows or refreshes the screen, reads the keys; 1 when the user quit. */
int loading_tick(struct loading *ls, const struct profile *p, uint64_t done, uint64_t total,
		 double el);
/* Has it taken the terminal (curses is on)? */
int loading_shown(const struct loading *ls);
/* The load ended (p complete): the last frame, "preparing the explorer". */
void loading_done(struct loading *ls, const struct profile *p);
/* What the explorer takes over (tui_run): the screen (a SCREEN *), the
 * headless mode's script and null device, the sort event chosen while
 * loading (-1: none) and the function selected (NO_ID: the first row).
 * Afterwards loading_free leaves them alone. */
void loading_handover(struct loading *ls, void **scr, FILE **script, FILE **devnull, int *sort,
		      uint32_t *fn);
/* Ends it: the terminal put back if the explorer did not take it. */
void loading_free(struct loading *ls);

#endif
