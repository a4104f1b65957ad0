/* keys.c -- the key table of keys.h turned into the key dispatcher, the
 * help view and the key list of --keys (and of the man page).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/query.h"
#include "tui_int.h"

/* ---- the key table -------------------------------------------------------- */

struct keydef {
	enum action act;
	const char *keys;
	const struct view_ops *view; /* the view it opens, or NULL */
	int on_fn;                   /* on the selected function */
	const char *help;
	const char *section; /* set on the first action of a section */
};

#define KEYDEF_ROW(a, k, v, f, h) { a, k, &v##_ops, f, h, NULL },
#define SECTION_ROW(s) { ACT_NONE, NULL, NULL, 0, NULL, s },
static const struct keydef keydefs[] = { KEY_TABLE(KEYDEF_ROW, SECTION_ROW) };
#undef KEYDEF_ROW
#undef SECTION_ROW

/* the table's "none": no view */
const struct view_ops none_ops = { .name = "none" };
#define NKEYDEFS (sizeof(keydefs) / sizeof(keydefs[0]))

static const struct {
	const char *name;
	int code;
} keynames[] = {
	{ "Up", KEY_UP },	  { "Down", KEY_DOWN },	  { "Left", KEY_LEFT },
	{ "Right", KEY_RIGHT },	  { "PgUp", KEY_PPAGE },  { "PgDn", KEY_NPAGE },
	{ "Home", KEY_HOME },	  { "End", KEY_END },	  { "Enter", '\n' },
	{ "Esc", 27 },		  { "Backspace", KEY_BACKSPACE }, { "Tab", '\t' },
	{ "Space", ' ' },	  { "F1", KEY_F(1) },	  { "C-l", 12 },
	{ "C-f", 6 },		  { "C-b", 2 },		  { "C-c", 3 },
	{ "C-a", 1 },		  { "C-e", 5 },		  { "C-u", 21 },
	{ "C-w", 23 },		  { "Del", KEY_DC },	  { "S-Left", KEY_SLEFT },
	{ "S-Right", KEY_SRIGHT },
};

/* The code of one key name ("j", "Down"), or -1. */
int key_code(const char *name, size_t len)
{
	if (len == 1)
		return (unsigned char)name[0];
	for (size_t i = 0; i < sizeof(keynames) / sizeof(keynames[0]); i++)
		if (strlen(keynames[i].name) == len && memcmp(keynames[i].name, name, len) == 0)
			return keynames[i].code;
	return -1;
}

enum action key_action(int code)
{
	if (code == KEY_ENTER || code == '\r')
		code = '\n';
	if (code == 127 || code == 8)
		code = KEY_BACKSPACE;
	for (size_t i = 0; i < NKEYDEFS; i++) {
		const char *s = keydefs[i].keys;
		if (!s)
			continue;
		while (*s) {
			while (*s == ' ')
				s++;
			const char *b = s;
			size_t len;
			if (*s == '<' && s[1] && strchr(s + 1, '>')) {
				const char *e = strchr(s, '>');
				b = s + 1;
				len = (size_t)(e - b);
				s = e + 1;
			} else {
				len = 1;
				s++;
			}
			if (key_code(b, len) == code)
				return keydefs[i].act;
		}
	}
	return ACT_NONE;
}

const struct view_ops *key_view(enum action a, int *on_fn)
{
	for (size_t i = 0; i < NKEYDEFS; i++)
		if (keydefs[i].act == a && !keydefs[i].section) {
			*on_fn = keydefs[i].on_fn;
			return keydefs[i].view == &none_ops ? NULL : keydefs[i].view;
		}
	*on_fn = 0;
	return NULL;
}

int action_needs_calls(enum action a)
{
	int on_fn;
	const struct view_ops *v = key_view(a, &on_fn);
	return a == ACT_INCLUSIVE || v == &calltree_ops || v == &callertree_ops || v == &callgraph_ops ||
	       v == &callmap_ops;
}

/* ---- help: made from the key table ------------------------------------------------- */

/* A row of the help: a section, or a key's help text (a line of it: long
 * texts wrap at the screen's width, their keys on the first line). */
struct help_row {
	const char *keys;
	char *text;
	int section;
	int needs_calls; /* its keys do nothing here: the profile has no calls */
};

struct help {
	struct help_row *r;
	int n;
};

static void help_free(struct view *v)
{
	struct help *h = v->data;
	if (!h)
		return;
	for (int i = 0; i < h->n; i++)
		free(h->r[i].text);
	free(h->r);
	free(h);
	v->data = NULL;
}

static void help_add(struct help *h, int *cap, const char *keys, const char *text, size_t len,
		     int section)
{
	VEC_RESERVE(h->r, *cap, h->n + 1);
	h->r[h->n++] = (struct help_row){ keys, xstrndup(text, len), section, 0 };
}

static void help_refresh(struct view *v)
{
	help_free(v);
	struct help *h = xcalloc(1, sizeof(*h));
	int cap = 0;
	int room = v->t->cols - 29, calls = query_has_calls(v->t->p);
	if (room < 20)
		room = 20;
	for (size_t i = 0; i < NKEYDEFS; i++) {
		if (keydefs[i].section) {
			help_add(h, &cap, NULL, keydefs[i].section, strlen(keydefs[i].section), 1);
			continue;
		}
		/* wrapped at a blank that leaves the line within room */
		const char *s = keydefs[i].help, *keys = keydefs[i].keys;
		while (*s) {
			size_t len = tui_wrap(v->t, s, room);
			help_add(h, &cap, keys, s, len, 0);
			h->r[h->n - 1].needs_calls = keys && !calls && action_needs_calls(keydefs[i].act);
			keys = NULL;
			s += len;
			while (*s == ' ')
				s++;
		}
	}
	v->data = h;
	v->nrows = h->n;
}

static void help_draw_row(struct view *v, int row, int y, int width, int sel)
{
	const struct help_row *r = &((struct help *)v->data)->r[row];
	if (r->section) {
		attron(A_BOLD);
		tui_put(v->t, y, 0, width, r->text);
		attroff(A_BOLD);
		return;
	}
	if (r->needs_calls)
		tui_put(v->t, y, 0, 1, "-");
	if (r->keys)
		tui_put(v->t, y, 2, 26, r->keys);
	tui_put(v->t, y, 29, width - 29, r->text);
}

static void help_header(struct view *v, int y, int width)
{
	tui_put(v->t, y, 0, width,
		query_has_calls(v->t->p) ? "Keys (Esc: back)"
					 : "Keys (Esc: back; -: needs calls, which this profile does not record)");
}

static const char *help_text(struct view *v, int row)
{
	return ((struct help *)v->data)->r[row].text;
}

const struct view_ops help_ops = {
	.name = "help",
	.hint = "Esc:back  j/k:move  q:quit",
	.update = help_refresh,
	.draw_row = help_draw_row,
	.draw_header = help_header,
	.row_text = help_text,
	.free = help_free,
};

/* s for roff: a backslash before each - and \ */
static void roff(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void tui_print_keys(FILE *f, enum keys_format fmt)
{
	if (fmt == KEYS_MAN)
		fputs(".PD 0\n", f);
	for (size_t i = 0; i < NKEYDEFS; i++) {
		const struct keydef *k = &keydefs[i];
		switch (fmt) {
		case KEYS_TEXT:
			if (k->section)
				fprintf(f, "\n%s\n", k->section);
			else
				fprintf(f, "  %-26s %s\n", k->keys, k->help);
			break;
		case KEYS_MAN:
			if (k->section) {
				fprintf(f, ".TP 0\n.PP\n.I %s\n", k->section);
				break;
			}
			fputs(".TP 28\n.B ", f);
			roff(f, k->keys);
			fputc('\n', f);
			roff(f, k->help);
			fputc('\n', f);
			break;
		case KEYS_VIEWS: /* the first key of each action opening a view */
			if (!k->section && k->view != &none_ops && k->act != ACT_ENTER &&
			    k->act != ACT_LOG)
				fprintf(f, "%.*s\n", (int)strcspn(k->keys, " "), k->keys);
			break;
		}
	}
	if (fmt == KEYS_MAN)
		fputs(".PD\n", f);
}

