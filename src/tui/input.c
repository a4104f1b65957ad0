/* input.c -- keys from the terminal, or in the headless mode the tests
 * drive from a script (see tui.c); the status line's prompt and questions.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "lineedit.h"
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
		if (strncmp(buf, ":pause ", 7) == 0) { /* a user reading the screen */
			long ms = strtol(buf + 7, NULL, 10);
			if (ms > 0 && ms <= 60000)
				nanosleep(&(struct timespec){ ms / 1000, ms % 1000 * 1000000 }, NULL);
			continue;
		}
		if (strcmp(buf, ":load-on") == 0) /* the loading screen's load goes on */
			return -3;
		if (strcmp(buf, ":wait-answer") == 0) { /* to a live control (U Z p) */
			live_tick(t, 4, NULL);
			continue;
		}
		/* ":click X Y", ":dclick X Y": button 1 at column X, line Y
		 * (from 0), through curses' own queue as a terminal's would */
		if (strncmp(buf, ":click ", 7) == 0 || strncmp(buf, ":dclick ", 8) == 0) {
			MEVENT ev;
			memset(&ev, 0, sizeof(ev));
			ev.bstate = buf[1] == 'd' ? BUTTON1_DOUBLE_CLICKED : BUTTON1_CLICKED;
			if (sscanf(strchr(buf, ' ') + 1, "%d %d", &ev.x, &ev.y) == 2 && ungetmouse(&ev) == OK)
				return getch(); /* the KEY_MOUSE ungetmouse queued */
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

/* The history of the prompt `what` (made on first use). */
static struct prompt_hist *history(struct tui *t, const char *what)
{
	for (int i = 0; i < t->nphist; i++)
		if (!strcmp(t->phist[i].what, what))
			return &t->phist[i];
	if (t->nphist == TUI_PROMPTS)
		return NULL;
	struct prompt_hist *h = &t->phist[t->nphist++];
	memset(h, 0, sizeof(*h));
	h->what = what;
	return h;
}

static const char *fn_name_at(void *arg, size_t i)
{
	const struct profile *p = arg;
	return p->names.str[i];
}

char *prompt(struct tui *t, const char *what, int complete)
{
	static const struct lineedit_keys keys = { KEY_LEFT, KEY_RIGHT, KEY_UP,	       KEY_DOWN,
						   KEY_HOME, KEY_END,	KEY_BACKSPACE, KEY_DC };
	struct prompt_hist *h = history(t, what);
	struct lineedit e;
	lineedit_start(&e, h ? h->line : NULL, h ? h->n : 0);
	int w = (int)strlen(what);
	for (;;) {
		move(t->lines - 1, 0);
		clrtoeol();
		mvprintw(t->lines - 1, 0, "%s", what);
		tui_put(t, t->lines - 1, w, t->cols - w - 1, e.buf);
		if (!t->headless) {
			char before[LINEEDIT_MAX];
			memcpy(before, e.buf, e.cur);
			before[e.cur] = 0;
			move(t->lines - 1, w + tui_width(t, before));
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
		if (c == '\t' && complete) {
			size_t m = lineedit_complete(&e, fn_name_at, t->p->names.n, t->p);
			if (m > 1)
				tui_message(t, "%zu names start so", m);
			continue;
		}
		lineedit_key(&e, c, &keys);
	}
	curs_set(0);
	t->message[0] = 0; /* (what Tab said while it was being written) */
	if (h && e.len && (!h->n || strcmp(h->line[h->n - 1], e.buf) != 0)) {
		h->line = xreallocarray(h->line, (size_t)h->n + 1, sizeof(*h->line));
		h->line[h->n++] = xstrdup(e.buf);
	}
	return xstrdup(e.buf);
}


/* The key answered on the status line after `question`; -1 for Ctrl-C or
 * a signal. */
int ask_key(struct tui *t, const char *question)
{
	tui_message(t, "%s", question);
	draw(t);
	int c;
	/* (a signal is a no: Ctrl-C cancels; SIGTERM, SIGHUP end the main loop) */
	while (((c = next_key(t)) == ERR && !tui_got_signal) || c == KEY_RESIZE)
		if (c == KEY_RESIZE)
			resized(t); /* the question is still the message */
	int sig = tui_got_signal;
	if (sig == SIGINT || c == 3)
		tui_got_signal = 0;
	t->message[0] = 0;
	return sig || c == 3 || c == ERR ? -1 : c;
}

/* y or Y on the status line after `question`? */
int ask(struct tui *t, const char *question)
{
	int c = ask_key(t, question);
	return c == 'y' || c == 'Y';
}

void tui_script_close(struct tui *t)
{
	if (t->script)
		fclose(t->script);
	t->script = NULL;
}
