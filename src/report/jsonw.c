/* jsonw.c -- writing JSON; see jsonw.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "jsonw.h"
#include "profile/escape.h"
#include "profile/format.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jsonw_init(struct jsonw *w, FILE *f, int pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
}

void jsonw_strn(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + n;
	putc('"', f);
	while (s < end) {
		const unsigned char *run = s; /* printable ASCII in one write */
		while (s < end && *s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\')
			s++;
		if (s > run)
			fwrite(run, 1, (size_t)(s - run), f);
		if (s == end)
			break;
		if (*s == '"' || *s == '\\') {
			fprintf(f, "\\%c", *s++);
			continue;
		}
		uint32_t c;
		int len = utf8_char(s, (size_t)(end - s), &c);
		if (!len) { /* not UTF-8: the byte as text */
			fprintf(f, "\\\\x%02x", *s++);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (codepoint_unsafe(c)) { /* controls, bidi: escaped */
			fprintf(f, "\\u%04x", (unsigned)c);
		} else {
			fwrite(s, 1, (size_t)len, f);
		}
		s += len ? len : 0;
	}
	putc('"', f);
}

void jsonw_string(FILE *f, const char *s)
{
	jsonw_strn(f, s, strlen(s));
}

static void indent(struct jsonw *w)
{
	if (!w->pretty)
		return;
	putc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	if (w->count[w->depth]++)
		putc(',', w->f);
	if (w->depth)
		indent(w);
	if (key) {
		jsonw_string(w->f, key);
		fputs(w->pretty ? ": " : ":", w->f);
	}
}

static void open_(struct jsonw *w, const char *key, char c)
{
	jsonw_key(w, key);
	putc(c, w->f);
	if (w->depth + 1 < JSONW_DEPTH)
		w->depth++;
	w->count[w->depth] = 0;
}

void jsonw_obj(struct jsonw *w, const char *key)
{
	open_(w, key, '{');
}

void jsonw_arr(struct jsonw *w, const char *key)
{
	open_(w, key, '[');
}

void jsonw_end(struct jsonw *w, char close)
{
	int had = w->count[w->depth];
	if (w->depth)
		w->depth--;
	if (had)
		indent(w);
	putc(close, w->f);
	if (!w->depth && w->pretty)
		putc('\n', w->f);
}

void jsonw_str(struct jsonw *w, const char *key, const char *v)
{
	jsonw_key(w, key);
	if (v)
		jsonw_string(w->f, v);
	else
		fputs("null", w->f);
}

void jsonw_int(struct jsonw *w, const char *key, int64_t v)
{
	jsonw_key(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void jsonw_uint(struct jsonw *w, const char *key, uint64_t v)
{
	jsonw_key(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void jsonw_double(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key);
	if (!isfinite(v)) /* JSON has no infinity */
		fputs("null", w->f);
	else { /* the shortest text that reads back as v */
		char b[64];
		format_threshold(b, sizeof(b), v);
		fputs(b, w->f);
	}
}

void jsonw_bool(struct jsonw *w, const char *key, int v)
{
	jsonw_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jsonw_null(struct jsonw *w, const char *key)
{
	jsonw_key(w, key);
	fputs("null", w->f);
}
