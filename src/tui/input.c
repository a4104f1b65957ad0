/* input.c -- keys from the terminal, or in the headless mode the tests
 * drive from a script (see tui.c); the status line's prompt and questions.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui_int.h"

/* ---- input ------------------------------------------------------------------------------ */


static void dump_screen(struct tui *t, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		tui_message(t, "cannot write %s: %s", path, strerror(errno));
		return;
	}
	for (int y = 0; y < t->lines; y++) {
		wchar_t line[1024];
		int n = mvinnwstr(y, 0, line, t->cols < 1023 ? t->cols : 1023);
		if (n < 0)
			n = 0;
		line[n] = 0;
		while (n > 0 && line[n - 1] == L' ')
			line[--n] = 0;
		fprintf(f, "%ls\n", line);
	}
	fclose(f);
}

/* The next key: from the script in headless mode, else from the terminal. */
int next_key(struct tui *t)
{
	if (!t->script)
		return getch();
	char buf[4096];
	while (t->ipending >= t->npending) {
		if (!fgets(buf, sizeof(buf), t->script))
			return -2; /* end of script: quit */
		buf[strcspn(buf, "\n")] = 0;
		if (buf[0] == '#' || !buf[0])
			continue;
		if (strncmp(buf, ":dump ", 6) == 0) {
			draw(t);
			dump_screen(t, buf + 6);
			continue;
		}
		if (strcmp(buf, ":wait-end") == 0 || strcmp(buf, ":wait-data") == 0) {
			live_tick(t, buf[6] == 'e' ? 1 : 2, NULL);
			continue;
		}
		if (strncmp(buf, ":wait-fn ", 9) == 0) {
			live_tick(t, 3, buf + 9);
			continue;
		}
		if (strncmp(buf, ":resize ", 8) == 0) {
			int c, l;
			if (sscanf(buf + 8, "%dx%d", &c, &l) == 2) {
				resizeterm(l, c);
				return KEY_RESIZE;
			}
			continue;
		}
		t->npending = t->ipending = 0;
		for (const char *s = buf; *s && t->npending < 256;) {
			if (*s == '<' && strchr(s, '>')) {
				const char *e = strchr(s, '>');
				int code = key_code(s + 1, (size_t)(e - s - 1));
				if (code >= 0) {
					t->pending[t->npending++] = code;
					s = e + 1;
					continue;
				}
			}
			t->pending[t->npending++] = (unsigned char)*s++;
		}
	}
	return t->pending[t->ipending++];
}

/* The terminal's new size: everything drawn again. */
void resized(struct tui *t)
{
	getmaxyx(stdscr, t->lines, t->cols);
	clearok(stdscr, TRUE);
	draw(t);
}

/* Reads a line on the status line (for / and |); NULL when cancelled. */
char *prompt(struct tui *t, const char *what)
{
	char buf[256];
	size_t n = 0;
	buf[0] = 0;
	for (;;) {
		move(t->lines - 1, 0);
		clrtoeol();
		mvprintw(t->lines - 1, 0, "%s", what);
		tui_put(t, t->lines - 1, (int)strlen(what), t->cols - (int)strlen(what) - 1, buf);
		if (!t->headless) {
			curs_set(1);
			refresh();
		}
		int c = next_key(t);
		if (c == KEY_RESIZE) { /* the screen again, then the question */
			resized(t);
			continue;
		}
		/* Ctrl-C cancels it; SIGTERM or SIGHUP too, for the main loop to end */
		if (tui_got_signal || c == 3 || c == -2 || c == 27) {
			if (tui_got_signal == SIGINT || c == 3)
				tui_got_signal = 0;
			curs_set(0);
			return NULL;
		}
		if (c == '\n' || c == '\r' || c == KEY_ENTER)
			break;
		if (c == KEY_BACKSPACE || c == 127 || c == 8) {
			if (n)
				buf[--n] = 0;
			continue;
		}
		if (c >= 32 && c < 256 && c != 127 && n < sizeof(buf) - 1) {
			buf[n++] = (char)c;
			buf[n] = 0;
		}
	}
	curs_set(0);
	return xstrdup(buf);
}


/* y or Y on the status line after `question`? */
int ask(struct tui *t, const char *question)
{
	tui_message(t, "%s", question);
	draw(t);
	int c;
	/* (a signal is a no: Ctrl-C cancels; SIGTERM, SIGHUP end the main loop) */
	while (((c = next_key(t)) == ERR && !tui_got_signal) || c == KEY_RESIZE)
		if (c == KEY_RESIZE)
			resized(t); /* the question is still the message */
	if (tui_got_signal == SIGINT || c == 3)
		tui_got_signal = 0;
	t->message[0] = 0;
	return !tui_got_signal && (c == 'y' || c == 'Y');
}

void tui_script_close(struct tui *t)
{
	if (t->script)
		fclose(t->script);
	t->script = NULL;
}
