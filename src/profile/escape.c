/* escape.c -- see escape.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "escape.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int codepoint_unsafe(uint32_t c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) ||       /* C0, DEL, C1 */
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || /* bidi */
	       c == 0x200e || c == 0x200f || c == 0x061c;
}

struct esc {
	FILE *to;
	unsigned char pend[4]; /* an incomplete UTF-8 sequence from the last write */
	int npend;
};

/* Length of the UTF-8 sequence led by b, 0 if b cannot lead one. */
static int seq_len(unsigned char b)
{
	return b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;
}

/* Decodes a complete sequence; returns the code point or UINT32_MAX if it
 * is not valid UTF-8 (overlong, surrogate, out of range, bad continuation). */
static uint32_t decode(const unsigned char *s, int n)
{
	static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (n == 1 && s[0] >= 0x80)
		return UINT32_MAX; /* a continuation byte, or one that leads nothing */
	uint32_t c = n == 1 ? s[0] : n == 2 ? s[0] & 0x1fu : n == 3 ? s[0] & 0x0fu : s[0] & 0x07u;
	for (int i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return UINT32_MAX;
		c = c << 6 | (s[i] & 0x3fu);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return UINT32_MAX;
	return c;
}

int utf8_char(const unsigned char *s, size_t n, uint32_t *c)
{
	int len = n ? seq_len(s[0]) : 0;
	if (!len || (size_t)len > n)
		return 0;
	uint32_t cp = decode(s, len);
	if (cp == UINT32_MAX)
		return 0;
	*c = cp;
	return len;
}

static void put_one(struct esc *e, const unsigned char *s, int n)
{
	uint32_t c = decode(s, n);
	if (c == UINT32_MAX) {
		for (int i = 0; i < n; i++)
			fprintf(e->to, "\\x%02x", s[i]);
	} else if ((c == '\n' || c == '\t') || !codepoint_unsafe(c)) {
		fwrite(s, 1, (size_t)n, e->to);
	} else if (c < 0x80) {
		fprintf(e->to, "\\x%02x", (unsigned)c);
	} else {
		fprintf(e->to, "\\u{%x}", (unsigned)c);
	}
}

static ssize_t esc_write(void *cookie, const char *buf, size_t size)
{
	struct esc *e = cookie;
	const unsigned char *s = (const unsigned char *)buf, *end = s + size;
	while (s < end) {
		if (e->npend) { /* finish the sequence begun in the last write */
			int need = seq_len(e->pend[0]);
			while (e->npend < need && s < end && (*s & 0xc0) == 0x80)
				e->pend[e->npend++] = *s++;
			if (e->npend < need && s == end)
				break;
			if (e->npend < need) { /* cut short: its bytes are invalid */
				for (int i = 0; i < e->npend; i++)
					fprintf(e->to, "\\x%02x", e->pend[i]);
			} else {
				put_one(e, e->pend, e->npend);
			}
			e->npend = 0;
			continue;
		}
		const unsigned char *run = s; /* plain printable ASCII goes in one write */
		while (s < end && *s >= 0x20 && *s < 0x7f)
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), e->to);
		if (s == end)
			break;
		int n = seq_len(*s);
		if (n == 0) {
			put_one(e, s, 1);
			s++;
		} else if (s + n > end) {
			while (s < end)
				e->pend[e->npend++] = *s++;
		} else {
			put_one(e, s, n);
			s += n;
		}
	}
	return (ssize_t)size;
}

static int esc_close(void *cookie)
{
	struct esc *e = cookie;
	for (int i = 0; i < e->npend; i++)
		fprintf(e->to, "\\x%02x", e->pend[i]);
	int rc = fflush(e->to);
	free(e);
	return rc;
}

FILE *escaping_stream(FILE *to)
{
	struct esc *e = xcalloc(1, sizeof(*e));
	e->to = to;
	cookie_io_functions_t io = { .write = esc_write, .close = esc_close };
	FILE *f = fopencookie(e, "w", io);
	if (!f)
		free(e);
	return f;
}
