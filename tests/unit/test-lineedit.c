/* test-lineedit.c -- the prompt's line editor (src/tui/lineedit.c): each
 * key's effect on the line and the cursor, worked out by hand.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <string.h>

#include "tui/lineedit.h"
#include "tap.h"

static const struct lineedit_keys K = { 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008 };

static void type(struct lineedit *e, const char *s)
{
	for (; *s; s++)
		lineedit_key(e, (unsigned char)*s, &K);
}

static const char *names[] = { "parse_header", "parse_body", "print", "main" };

static const char *name_at(void *arg, size_t i)
{
	(void)arg;
	return names[i];
}

int main(void)
{
	struct lineedit e;
	lineedit_start(&e, NULL, 0);
	type(&e, "one two");
	ok(!strcmp(e.buf, "one two") && e.cur == 7, "typed: 'one two', cursor at the end");
	lineedit_key(&e, 23, &K); /* Ctrl-W */
	ok(!strcmp(e.buf, "one ") && e.cur == 4, "Ctrl-W: the word before the cursor goes: 'one '");
	lineedit_key(&e, 23, &K);
	ok(!strcmp(e.buf, "") && e.cur == 0, "Ctrl-W again: the blank and 'one'");
	type(&e, "abc");
	lineedit_key(&e, 1, &K); /* Ctrl-A */
	type(&e, "^");
	ok(!strcmp(e.buf, "^abc") && e.cur == 1, "Ctrl-A then ^: '^abc', cursor after ^");
	lineedit_key(&e, 5, &K); /* Ctrl-E */
	lineedit_key(&e, K.left, &K);
	lineedit_key(&e, K.backspace, &K);
	ok(!strcmp(e.buf, "^ac") && e.cur == 2, "End, Left, Backspace: the b goes");
	lineedit_key(&e, 21, &K); /* Ctrl-U */
	ok(!strcmp(e.buf, "c") && e.cur == 0, "Ctrl-U: all before the cursor goes");
	ok(!lineedit_key(&e, 27, &K), "Esc is no editing key");

	char h1[] = "first", h2[] = "second";
	char *hist[] = { h1, h2 };
	lineedit_start(&e, hist, 2);
	type(&e, "new");
	lineedit_key(&e, K.up, &K);
	ok(!strcmp(e.buf, "second"), "Up: the newest line of the history");
	lineedit_key(&e, K.up, &K);
	lineedit_key(&e, K.up, &K);
	ok(!strcmp(e.buf, "first"), "Up twice more: the oldest, and no further");
	lineedit_key(&e, K.down, &K);
	lineedit_key(&e, K.down, &K);
	ok(!strcmp(e.buf, "new"), "Down back past the newest: the line being written");

	lineedit_start(&e, NULL, 0);
	type(&e, "^pa");
	size_t m = lineedit_complete(&e, name_at, 4, NULL);
	ok(m == 2 && !strcmp(e.buf, "^parse_"), "Tab: 'pa' after ^ completes to 'parse_' (2 names)");
	type(&e, "h");
	m = lineedit_complete(&e, name_at, 4, NULL);
	ok(m == 1 && !strcmp(e.buf, "^parse_header"), "Tab: 'parse_h' to the one name");
	lineedit_start(&e, NULL, 0);
	type(&e, "x");
	ok(lineedit_complete(&e, name_at, 4, NULL) == 0 && !strcmp(e.buf, "x"), "no name: unchanged");
	return tap_done();
}
