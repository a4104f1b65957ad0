/* lineedit.c -- the prompt's line editor; see lineedit.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "lineedit.h"

#include <string.h>

void lineedit_start(struct lineedit *e, char **hist, int nhist)
{
	memset(e, 0, sizeof(*e));
	e->hist = hist;
	e->nhist = nhist;
	e->pos = nhist;
}

static void set_text(struct lineedit *e, const char *s)
{
	size_t n = strlen(s);
	if (n >= LINEEDIT_MAX)
		n = LINEEDIT_MAX - 1;
	memcpy(e->buf, s, n);
	e->buf[n] = 0;
	e->len = e->cur = n;
}

static void insert(struct lineedit *e, const char *s, size_t n)
{
	if (e->len + n >= LINEEDIT_MAX)
		n = LINEEDIT_MAX - 1 - e->len;
	memmove(e->buf + e->cur + n, e->buf + e->cur, e->len - e->cur + 1);
	memcpy(e->buf + e->cur, s, n);
	e->len += n;
	e->cur += n;
}

static void erase(struct lineedit *e, size_t from, size_t to)
{
	memmove(e->buf + from, e->buf + to, e->len - to + 1);
	e->len -= to - from;
	e->cur = from;
}

static int word_char(char c)
{
	return c && !strchr(" \t^$|()[]{}*+?\\.", c);
}

int lineedit_key(struct lineedit *e, int c, const struct lineedit_keys *k)
{
	if (c == 1 || c == k->home) { /* Ctrl-A */
		e->cur = 0;
	} else if (c == 5 || c == k->end) { /* Ctrl-E */
		e->cur = e->len;
	} else if (c == 21) { /* Ctrl-U */
		erase(e, 0, e->cur);
	} else if (c == 23) { /* Ctrl-W: blanks, then the word */
		size_t i = e->cur;
		while (i && (e->buf[i - 1] == ' ' || e->buf[i - 1] == '\t'))
			i--;
		while (i && e->buf[i - 1] != ' ' && e->buf[i - 1] != '\t')
			i--;
		erase(e, i, e->cur);
	} else if (c == k->left || c == 2) { /* Ctrl-B */
		if (e->cur)
			e->cur--;
	} else if (c == k->right || c == 6) { /* Ctrl-F */
		if (e->cur < e->len)
			e->cur++;
	} else if (c == k->backspace || c == 127 || c == 8) {
		if (e->cur)
			erase(e, e->cur - 1, e->cur);
	} else if (c == k->del || c == 4) { /* Ctrl-D */
		if (e->cur < e->len)
			erase(e, e->cur, e->cur + 1);
	} else if (c == k->up || c == 16) { /* Ctrl-P: older */
		if (e->pos == 0)
			return 1;
		if (e->pos == e->nhist)
			memcpy(e->saved, e->buf, sizeof(e->saved));
		set_text(e, e->hist[--e->pos]);
	} else if (c == k->down || c == 14) { /* Ctrl-N: newer */
		if (e->pos >= e->nhist)
			return 1;
		e->pos++;
		set_text(e, e->pos == e->nhist ? e->saved : e->hist[e->pos]);
	} else if (c >= 32 && c < 256 && c != 127) {
		char ch = (char)c;
		insert(e, &ch, 1);
	} else {
		return 0;
	}
	return 1;
}

size_t lineedit_complete(struct lineedit *e, const char *(*name)(void *arg, size_t i), size_t n,
			 void *arg)
{
	size_t w = e->cur;
	while (w && word_char(e->buf[w - 1]))
		w--;
	size_t wl = e->cur - w;
	const char *first = NULL;
	size_t common = 0, matches = 0;
	for (size_t i = 0; i < n; i++) {
		const char *s = name(arg, i);
		if (strncmp(s, e->buf + w, wl) != 0)
			continue;
		if (!matches++) {
			first = s;
			common = strlen(s);
		} else {
			size_t k = wl;
			while (k < common && s[k] == first[k])
				k++;
			common = k;
		}
	}
	if (matches && common > wl)
		insert(e, first + wl, common - wl);
	return matches;
}
