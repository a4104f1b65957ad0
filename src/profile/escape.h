/* escape.h -- keeping other people's bytes off the terminal: names in a
 * profile may hold escape sequences, other control bytes, invalid UTF-8 or
 * bidirectional controls.  Shown escaped, as \xNN or \u{NNNN}.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_ESCAPE_H
#define CGTUI_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Is this character unsafe to send to a terminal as it is? */
int codepoint_unsafe(uint32_t c);

/* The UTF-8 character at s (n bytes there): its length, the code point in
 * *c; 0 when the bytes are not one (overlong, surrogate, cut short...). */
int utf8_char(const unsigned char *s, size_t n, uint32_t *c);

/* A stream that writes to `to` with every unsafe byte or character escaped
 * ('\n' and '\t' pass).  Closing it flushes `to` but leaves it open. */
FILE *escaping_stream(FILE *to);

#endif
