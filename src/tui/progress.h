/* progress.h -- a progress bar on the terminal while profiles load, and q
 * (or Ctrl-C) to give up the load.  Used before the explorer starts.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_PROGRESS_H
#define CGTUI_PROGRESS_H

#include <stdint.h>

struct progress;

/* Starts showing progress on stderr, if it is a terminal (else NULL and the
 * other calls do nothing).  total is the bytes of all files to read. */
struct progress *progress_start(uint64_t total);
/* A load_opts.progress callback: arg is the struct progress; returns 1 when
 * the user asked to quit.  `done` counts the bytes read of the current file. */
int progress_update(void *arg, uint64_t done, uint64_t size);
/* The next file: its bytes are added to what was read before. */
void progress_next_file(struct progress *pr, uint64_t size_of_previous);
void progress_end(struct progress *pr);

#endif
