/* view_log.c -- the output of the program being recorded (cgtui PROGRAM):
 * its stdout and stderr, then Valgrind's messages, read again at each
 * refresh; it follows the end while the last line is selected.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

#define LOG_TAIL (256 * 1024) /* bytes shown from the end of each file */

struct log_rows {
	char *buf;   /* the text, lines cut at '\n' */
	char **line; /* [n] into buf */
	int n;
};

static void log_free(struct view *v)
{
	struct log_rows *l = v->data;
	if (!l)
		return;
	free(l->buf);
	free(l->line);
	free(l);
	v->data = NULL;
}

/* Appends the tail of `path` (or a note) to l's text: whole lines, the
 * header saying how much of the file is before them. */
static void read_tail(struct log_rows *l, size_t *len, const char *title, const char *path)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	long size = 0, skip = 0;
	if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > LOG_TAIL)
		skip = size - LOG_TAIL;
	if (f && fseek(f, skip, SEEK_SET) != 0)
		skip = 0;
	l->buf = xrealloc(l->buf, *len + 512 + LOG_TAIL + 2);
	size_t n = f ? fread(l->buf + *len + 512, 1, LOG_TAIL, f) : 0;
	if (f)
		fclose(f);
	/* the first line read is cut unless it starts the file */
	size_t cut = 0;
	if (skip > 0) {
		const char *nl = memchr(l->buf + *len + 512, '\n', n);
		cut = nl ? (size_t)(nl - (l->buf + *len + 512)) + 1 : n;
	}
	char more[96] = "";
	if (skip > 0)
		snprintf(more, sizeof(more), "\n(%ld bytes before this line not shown)",
			 skip + (long)cut);
	int hn = snprintf(l->buf + *len, 512, "==== %s: %s%s%s\n", title,
			  path ? path : "not kept (it went to the terminal)",
			  f || !path ? "" : " (nothing yet)", more);
	if (hn < 0 || hn >= 512)
		hn = 511;
	memmove(l->buf + *len + hn, l->buf + *len + 512 + cut, n - cut);
	*len += (size_t)hn + (n - cut);
	if (n > cut && l->buf[*len - 1] != '\n')
		l->buf[(*len)++] = '\n';
}

static void log_update(struct view *v)
{
	struct tui *t = v->t;
	int follow = !v->data || v->sel >= v->nrows - 1;
	log_free(v);
	struct log_rows *l = xcalloc(1, sizeof(*l));
	size_t len = 0;
	int nfiles = 0;
	const char *const *files = t->live ? t->live->logs(t->live->arg, &nfiles) : NULL;
	static const char *const titles[] = { "the program's output", "Valgrind's messages" };
	for (int i = 0; i < nfiles && i < 2; i++)
		read_tail(l, &len, titles[i], files[i]);
	l->buf = xrealloc(l->buf, len + 1);
	l->buf[len] = 0;
	int cap = 0;
	for (char *s = l->buf; *s;) {
		char *e = strchr(s, '\n');
		if (l->n == cap) {
			cap = cap ? cap * 2 : 256;
			l->line = xreallocarray(l->line, (size_t)cap, sizeof(*l->line));
		}
		l->line[l->n++] = s;
		if (!e)
			break;
		*e = 0;
		s = e + 1;
	}
	v->data = l;
	v->nrows = l->n;
	if (follow)
		v->sel = v->nrows - 1;
}

static void log_row(struct view *v, int row, int y, int width, int sel)
{
	struct log_rows *l = v->data;
	struct tui_text c;
	tui_text_begin(&c, v, y, 0, width);
	tui_text_put(&c, l->line[row]);
	tui_text_end(&c);
	(void)sel;
}

static void log_header(struct view *v, int y, int width)
{
	tui_put(v->t, y, 0, width, "Output of the recorded program (L: again to refresh)");
}

static const char *log_text(struct view *v, int row)
{
	return ((struct log_rows *)v->data)->line[row];
}

static int log_action(struct view *v, enum action a)
{
	if (a != ACT_LOG)
		return 0;
	v->ops->update(v);
	list_goto(v, v->sel);
	return 1;
}

const struct view_ops log_ops = {
	.name = "log",
	.hint = "Esc:back  j/k:move  /:search  L:refresh  q:quit",
	.update = log_update,
	.draw_row = log_row,
	.draw_header = log_header,
	.row_text = log_text,
	.action = log_action,
	.free = log_free,
	.scrolls = 1,
};
