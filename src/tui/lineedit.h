/* lineedit.h -- the status line's prompt as a line editor: the cursor,
 * Ctrl-A/E (start, end), Ctrl-U (all before the cursor), Ctrl-W (the word
 * before it), Left/Right, Backspace, Delete, a history (Up/Down) and Tab
 * completing the word before the cursor from a list of names.  No
 * terminal here (tested on its own).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_LINEEDIT_H
#define CGTUI_LINEEDIT_H

#include <stddef.h>

#define LINEEDIT_MAX 256

struct lineedit {
	char buf[LINEEDIT_MAX];
	size_t len, cur;
	/* the history: older lines first; pos == n when not in it */
	char **hist;
	int nhist, pos;
	char saved[LINEEDIT_MAX]; /* the line being written, while in the history */
};

/* The key codes it takes besides printable characters (ncurses' own). */
struct lineedit_keys {
	int left, right, up, down, home, end, backspace, del;
};

void lineedit_start(struct lineedit *e, char **hist, int nhist);
/* Applies key c; 1 when it edited or moved, 0 when it is no editing key. */
int lineedit_key(struct lineedit *e, int c, const struct lineedit_keys *k);
/* Tab: the word before the cursor (after a blank or one of ^$|()[]{}*+?\.)
 * completed to the longest prefix the names starting with it share; *n
 * names are given by next(arg, i) for i < n.  Returns how many names
 * start with the word (0: nothing changed). */
size_t lineedit_complete(struct lineedit *e, const char *(*name)(void *arg, size_t i), size_t n,
			 void *arg);

#endif
