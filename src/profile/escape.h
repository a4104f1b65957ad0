/* escape.h -- keeping other people's bytes off the terminal: names in a
 * profile may hold escape sequences, other control bytes, invalid UTF-8 or
 * bidirectional controls.  Shown escaped, as \xNN or \u{NNNN}.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_ESCAPE_H
#define CGTUI_ESCAPE_H

#include <stdint.h>
#include <stdio.h>

/* Is this character unsafe to send to a terminal as it is? */
int codepoint_unsafe(uint32_t c);

/* A stream that writes to `to` with every unsafe byte or character escaped
 * ('\n' and '\t' pass).  Closing it flushes `to` but leaves it open. */
FILE *escaping_stream(FILE *to);

#endif
