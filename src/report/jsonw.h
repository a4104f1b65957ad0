/* jsonw.h -- writing JSON: strings escaped, numbers, and the commas
 * between members kept by a small stack of open objects and arrays.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_JSONW_H
#define CGTUI_JSONW_H

#include <stdint.h>
#include <stdio.h>

#define JSONW_DEPTH 32

struct jsonw {
	FILE *f;
	int depth;
	int count[JSONW_DEPTH]; /* members written at each level */
	int pretty;             /* newlines and indentation */
};

void jsonw_init(struct jsonw *w, FILE *f, int pretty);
/* A string's JSON form: UTF-8 as it is, control characters as \uXXXX,
 * and each byte that is not UTF-8 as the text \xNN (JSON has no bytes). */
void jsonw_string(FILE *f, const char *s);
void jsonw_strn(FILE *f, const char *s, size_t n);

/* Opens an object or array: a member named key inside an object, an
 * element (key NULL) inside an array or at the top. */
void jsonw_obj(struct jsonw *w, const char *key);
void jsonw_arr(struct jsonw *w, const char *key);
void jsonw_end(struct jsonw *w, char close);
#define jsonw_end_obj(w) jsonw_end((w), '}')
#define jsonw_end_arr(w) jsonw_end((w), ']')
/* Values, named (in an object) or not (key NULL). */
void jsonw_str(struct jsonw *w, const char *key, const char *v); /* NULL: null */
void jsonw_int(struct jsonw *w, const char *key, int64_t v);
void jsonw_uint(struct jsonw *w, const char *key, uint64_t v);
void jsonw_double(struct jsonw *w, const char *key, double v);
void jsonw_bool(struct jsonw *w, const char *key, int v);
void jsonw_null(struct jsonw *w, const char *key);
/* The next value's key (and comma); the caller writes the value. */
void jsonw_key(struct jsonw *w, const char *key);

#endif
