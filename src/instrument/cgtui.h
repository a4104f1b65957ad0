/* cgtui.h -- client requests of cgtui's recorder (the Valgrind tool run by
 * `cgtui prog args`).  Include it in the program to be recorded:
 *
 *     #include <cgtui.h>
 *     ...
 *     CGTUI_START_INSTRUMENTATION;   counting starts here
 *     work();
 *     CGTUI_STOP_INSTRUMENTATION;    and stops here
 *
 * and record with `cgtui --instr-at-start=no prog args`.  Outside Valgrind
 * the requests cost a few instructions and do nothing; under another tool
 * they are ignored.  The tool also accepts callgrind's
 * CALLGRIND_START_INSTRUMENTATION and CALLGRIND_STOP_INSTRUMENTATION
 * (<valgrind/callgrind.h>), and callgrind (which `cgtui` runs when its own
 * tool is missing) accepts them too.
 *
 * Needs <valgrind/valgrind.h> (Debian: valgrind or valgrind-dev).
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 * (This header only defines macros: a program including it is not a work
 * based on cgtui.) */
#ifndef CGTUI_CLIENT_H
#define CGTUI_CLIENT_H

#ifndef __VALGRIND_H /* the tool has it already */
#include <valgrind/valgrind.h>
#endif

enum {
	CGTUI_USERREQ_START_INSTRUMENTATION = VG_USERREQ_TOOL_BASE('c', 'g'),
	CGTUI_USERREQ_STOP_INSTRUMENTATION,
	CGTUI_USERREQ_SNAPSHOT
};

/* Start counting (with --instr-at-start=no, nothing is counted before). */
#define CGTUI_START_INSTRUMENTATION \
	VALGRIND_DO_CLIENT_REQUEST_STMT(CGTUI_USERREQ_START_INSTRUMENTATION, 0, 0, 0, 0, 0)

/* Stop counting until the next CGTUI_START_INSTRUMENTATION. */
#define CGTUI_STOP_INSTRUMENTATION \
	VALGRIND_DO_CLIENT_REQUEST_STMT(CGTUI_USERREQ_STOP_INSTRUMENTATION, 0, 0, 0, 0, 0)

/* Write a live snapshot now (for cgtui's live view; nothing without one). */
#define CGTUI_SNAPSHOT \
	VALGRIND_DO_CLIENT_REQUEST_STMT(CGTUI_USERREQ_SNAPSHOT, 0, 0, 0, 0, 0)

#endif
