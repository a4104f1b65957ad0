/* tui.c -- the explorer's frame: terminal set-up and restore, the key table
 * turned into a dispatcher, the one list engine, the view history, header and
 * status lines, resizing, and the headless mode the tests drive.
 *
 * Headless mode (for tests, like tig's): CGTUI_SCRIPT=FILE makes cgtui read
 * its keys from FILE instead of the terminal and draw into a screen that is
 * never shown; in FILE, a line ":dump PATH" writes the screen's text to PATH,
 * ":resize COLSxLINES" resizes, ":wait-data" waits until newer data (not
 * empty) of the program being recorded has been loaded, ":wait-fn NAME"
 * until the data loaded has the function NAME, ":wait-end" until it has
 * ended and its
 * final profile is shown, "#" starts a comment, and any other line is
 * keys: characters, or names in angle brackets as in keys.h (<Enter>, <Down>,
 * <C-l> ...; <C-c> stands for the Ctrl-C signal).  The screen size comes from COLUMNS and LINES (default 80x24).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "profile/aggregate.h"
#include "profile/format.h"
#include "tui.h"

#define MIN_COLS 40
#define MIN_LINES 8

/* ---- the key table -------------------------------------------------------- */

struct keydef {
	enum action act;
	const char *keys;
	const char *help;
	const char *section; /* set on the first action of a section */
};

#define KEYDEF_ROW(a, k, h) { a, k, h, NULL },
#define SECTION_ROW(s) { ACT_NONE, NULL, NULL, s },
static const struct keydef keydefs[] = { KEY_TABLE(KEYDEF_ROW, SECTION_ROW) };
#undef KEYDEF_ROW
#undef SECTION_ROW
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
};

/* The code of one key name ("j", "Down"), or -1. */
static int key_code(const char *name, size_t len)
{
	if (len == 1)
		return (unsigned char)name[0];
	for (size_t i = 0; i < sizeof(keynames) / sizeof(keynames[0]); i++)
		if (strlen(keynames[i].name) == len && memcmp(keynames[i].name, name, len) == 0)
			return keynames[i].code;
	return -1;
}

static enum action key_action(int code)
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

/* ---- help: made from the key table ------------------------------------------------- */

struct help_row {
	const char *keys, *text;
	int section;
};

static void help_refresh(struct view *v)
{
	struct help_row *r = xcalloc(NKEYDEFS + 1, sizeof(*r));
	int n = 0;
	for (size_t i = 0; i < NKEYDEFS; i++) {
		if (keydefs[i].section)
			r[n++] = (struct help_row){ NULL, keydefs[i].section, 1 };
		else
			r[n++] = (struct help_row){ keydefs[i].keys, keydefs[i].help, 0 };
	}
	free(v->data);
	v->data = r;
	v->nrows = n;
}

static void help_draw_row(struct view *v, int row, int y, int width, int sel)
{
	const struct help_row *r = &((struct help_row *)v->data)[row];
	if (r->section) {
		attron(A_BOLD);
		tui_put(v->t, y, 0, width, r->text);
		attroff(A_BOLD);
		return;
	}
	tui_put(v->t, y, 2, 26, r->keys);
	tui_put(v->t, y, 29, width - 29, r->text);
}

static void help_header(struct view *v, int y, int width)
{
	tui_put(v->t, y, 0, width, "Keys (Esc: back)");
}

static const char *help_text(struct view *v, int row)
{
	return ((struct help_row *)v->data)[row].text;
}

static void data_free(struct view *v)
{
	free(v->data);
}

const struct view_ops help_ops = {
	.name = "help",
	.hint = "Esc:back  j/k:move  q:quit",
	.update = help_refresh,
	.draw_row = help_draw_row,
	.draw_header = help_header,
	.row_text = help_text,
	.free = data_free,
};

/* Writes the key list for the man page (cgtui --keys). */
void tui_print_keys(FILE *f);
void tui_print_keys(FILE *f)
{
	for (size_t i = 0; i < NKEYDEFS; i++) {
		if (keydefs[i].section)
			fprintf(f, "\n%s\n", keydefs[i].section);
		else
			fprintf(f, "  %-26s %s\n", keydefs[i].keys, keydefs[i].help);
	}
}

/* ---- the list engine ------------------------------------------------------------------ */

int list_page(struct tui *t)
{
	int h = t->list_h ? t->list_h : t->lines - 4;
	return h > 1 ? h : 1;
}

int list_seek(struct view *v, enum action a, int (*pred)(struct view *v, int row),
	      const char *what)
{
	int d = a == ACT_HOT_NEXT ? 1 : -1;
	for (int i = v->sel + d; i >= 0 && i < v->nrows; i += d)
		if (pred(v, i)) {
			list_goto(v, i);
			return 1;
		}
	tui_message(v->t, "no %s %s above the threshold", d > 0 ? "later" : "earlier", what);
	return 0;
}

void list_hottest(struct view *v, cost_t (*mag)(struct view *v, int row))
{
	int best = -1;
	cost_t bv = 0;
	for (int i = 0; i < v->nrows; i++) {
		cost_t c = mag(v, i);
		if (c >= 0 && (best < 0 || c > bv)) {
			best = i;
			bv = c;
		}
	}
	if (best >= 0)
		list_goto(v, best);
}

void tui_step_context(struct tui *t, enum action a)
{
	t->set.context += a == ACT_CTX_MORE ? 2 : -2;
	if (t->set.context < 0)
		t->set.context = 0;
	tui_message(t, "%d lines of context", t->set.context);
}

void list_goto(struct view *v, int row)
{
	if (row >= v->nrows)
		row = v->nrows - 1;
	if (row < 0)
		row = 0;
	v->sel = row;
	int h = list_page(v->t);
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + h)
		v->top = v->sel - h + 1;
	if (v->top > v->nrows - h)
		v->top = v->nrows - h;
	if (v->top < 0)
		v->top = 0;
}

void list_move(struct view *v, int delta)
{
	list_goto(v, v->sel + delta);
}

/* ---- views and history ---------------------------------------------------------------- */

struct view *view_new(struct tui *t, const struct view_ops *ops, uint32_t fn)
{
	struct view *v = xcalloc(1, sizeof(*v));
	v->ops = ops;
	v->t = t;
	v->fn = fn;
	ops->update(v);
	return v;
}

static void view_free(struct view *v)
{
	if (!v)
		return;
	if (v->ops->free)
		v->ops->free(v);
	free(v->filter);
	free(v->reveal);
	free(v);
}

struct view *tui_view(struct tui *t)
{
	return t->hist[t->cur];
}

/* Shows v, dropping the forward history. */
void tui_push(struct tui *t, struct view *v)
{
	if (t->nhist) { /* drop what is ahead of the view shown */
		for (int i = t->cur + 1; i < t->nhist; i++)
			view_free(t->hist[i]);
		t->nhist = t->cur + 1;
	}
	if (t->nhist == TUI_HISTORY) {
		view_free(t->hist[0]);
		memmove(t->hist, t->hist + 1, sizeof(t->hist[0]) * (TUI_HISTORY - 1));
		t->nhist--;
	}
	t->hist[t->nhist] = v;
	t->cur = t->nhist++;
}

void tui_message(struct tui *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->message, sizeof(t->message), fmt, ap);
	va_end(ap);
}

/* After a settings change: every view kept is updated when next shown,
 * keeping its selected row where it can. */
static void refresh_all(struct tui *t)
{
	for (int i = 0; i < t->nhist; i++)
		t->hist[i]->stale = 1;
	if (t->detail)
		t->detail->stale = 1;
}

/* ---- searching ------------------------------------------------------------------------ */

static pcre2_code *compile(struct tui *t, const char *pat)
{
	int ec;
	PCRE2_SIZE eo;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
				       PCRE2_CASELESS | PCRE2_MULTILINE, &ec, &eo, NULL);
	if (!re) {
		PCRE2_UCHAR msg[128];
		pcre2_get_error_message(ec, msg, sizeof(msg));
		tui_message(t, "bad regular expression: %s", (char *)msg);
	}
	return re;
}

int tui_row_matches(struct view *v, int row, const pcre2_code *re, pcre2_match_data *md)
{
	const char *s = v->ops->row_text ? v->ops->row_text(v, row) : NULL;
	return s && pcre2_match(re, (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0;
}

struct filter {
	pcre2_code *re;
	pcre2_match_data *md;
};

struct filter *tui_filter_new(struct view *v)
{
	v->filters = 1;
	return tui_filter_of(v->filter);
}

struct filter *tui_filter_of(const char *expr)
{
	if (!expr)
		return NULL;
	int ec;
	PCRE2_SIZE eo;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)expr, PCRE2_ZERO_TERMINATED,
				       PCRE2_CASELESS | PCRE2_MULTILINE, &ec, &eo, NULL);
	if (!re)
		return NULL;
	struct filter *f = xcalloc(1, sizeof(*f));
	f->re = re;
	f->md = pcre2_match_data_create_from_pattern(re, NULL);
	return f;
}

int tui_filter_match(struct filter *f, const char *text)
{
	return !f || pcre2_match(f->re, (PCRE2_SPTR)text, PCRE2_ZERO_TERMINATED, 0, 0, f->md,
				 NULL) >= 0;
}

void tui_filter_free(struct filter *f)
{
	if (!f)
		return;
	pcre2_match_data_free(f->md);
	pcre2_code_free(f->re);
	free(f);
}

static void search(struct tui *t, int dir)
{
	struct view *v = tui_view(t);
	if (!t->search || !*t->search) {
		tui_message(t, "nothing searched yet (/ searches)");
		return;
	}
	pcre2_code *re = compile(t, t->search);
	if (!re)
		return;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	int wrapped = 0;
	for (int k = 1; k <= v->nrows; k++) {
		int row = ((v->sel + dir * k) % v->nrows + v->nrows) % v->nrows;
		wrapped |= dir > 0 ? row <= v->sel : row >= v->sel;
		if (tui_row_matches(v, row, re, md)) {
			list_goto(v, row);
			if (wrapped && row != v->sel)
				tui_message(t, "search wrapped to the %s", dir > 0 ? "top" : "bottom");
			pcre2_match_data_free(md);
			pcre2_code_free(re);
			return;
		}
	}
	/* not among the rows: those under the threshold that match are shown */
	if (v->ops->under_shown) {
		free(v->reveal);
		v->reveal = xstrdup(t->search);
		v->ops->update(v);
		int n = v->ops->under_shown(v);
		for (int row = 0; n && row < v->nrows; row++)
			if (tui_row_matches(v, row, re, md)) {
				list_goto(v, row);
				tui_message(t, "%d match%s under the threshold: shown", n,
					    n == 1 ? "" : "es");
				pcre2_match_data_free(md);
				pcre2_code_free(re);
				return;
			}
	}
	/* trees: only the open nodes' rows are searched */
	int groups = v->ops == &filefn_ops || v->ops == &fnfile_ops || v->ops == &objects_ops;
	if (groups || v->ops == &calltree_ops || v->ops == &callertree_ops)
		tui_message(t, "no match for /%s/ among the open nodes (Tab opens one%s)", t->search,
			    groups ? ", * all" : "");
	else
		tui_message(t, "no match for /%s/", t->search);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
}

/* ---- input ------------------------------------------------------------------------------ */

static FILE *script;
static int pending[256], npending, ipending;
static volatile sig_atomic_t got_signal; /* SIGINT, SIGTERM, SIGHUP */

static void draw(struct tui *t);
static void live_tick(struct tui *t, int wait, const char *fn);
static int ask(struct tui *t, const char *question);
static void live_stop(struct tui *t);

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
static int next_key(struct tui *t)
{
	if (!script)
		return getch();
	char buf[4096];
	while (ipending >= npending) {
		if (!fgets(buf, sizeof(buf), script))
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
		npending = ipending = 0;
		for (const char *s = buf; *s && npending < 256;) {
			if (*s == '<' && strchr(s, '>')) {
				const char *e = strchr(s, '>');
				int code = key_code(s + 1, (size_t)(e - s - 1));
				if (code >= 0) {
					pending[npending++] = code;
					s = e + 1;
					continue;
				}
			}
			pending[npending++] = (unsigned char)*s++;
		}
	}
	return pending[ipending++];
}

/* Reads a line on the status line (for / and |); NULL when cancelled. */
/* The terminal's new size: everything drawn again. */
static void resized(struct tui *t)
{
	getmaxyx(stdscr, t->lines, t->cols);
	clearok(stdscr, TRUE);
	draw(t);
}

static char *prompt(struct tui *t, const char *what)
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
		if (got_signal || c == 3 || c == -2 || c == 27) {
			if (got_signal == SIGINT || c == 3)
				got_signal = 0;
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

/* ---- drawing ------------------------------------------------------------------------------ */

static void draw_header(struct tui *t)
{
	struct profile *p = t->p;
	char tot[48], line[512];
	format_count(tot, sizeof(tot), event_value(p, p->totals, t->set.sort_event));
	attron(A_REVERSE);
	move(0, 0);
	clrtoeol();
	for (int x = 0; x < t->cols; x++)
		mvaddch(0, x, ' ');
	char state[128] = "";
	if (t->live)
		t->live->state(t->live->arg, state, sizeof(state));
	snprintf(line, sizeof(line), "%s%s%s %s", state, *state ? " | " : "",
		 p->ev[t->set.sort_event].name, tot);
	int rw = (int)strlen(line);
	tui_put(t, 0, 0, t->cols - rw - 1, p->cmd && *p->cmd ? p->cmd : p->sources[0]);
	mvprintw(0, t->cols - rw, "%s", line);
	attroff(A_REVERSE);
	char th[32];
	format_threshold(th, sizeof(th), t->set.threshold);
	char parts[80];
	if (p->only_part)
		part_label(parts, sizeof(parts), p, p->only_part);
	else
		snprintf(parts, sizeof(parts), "%d part%s", p->nparts, p->nparts == 1 ? "" : "s");
	char events[256] = "";
	size_t el = 0;
	for (int k = 0; k < t->set.nshow && el + 1 < sizeof(events); k++)
		el += (size_t)snprintf(events + el, sizeof(events) - el, " %s", p->ev[t->set.show[k]].name);
	const char *flt = tui_view(t)->filter;
	snprintf(line, sizeof(line), "%s%s%s%s | sort %s %s | threshold %s%% | %s%s%s%s | events:%s",
		 tui_view(t)->ops->name, flt ? " | filter /" : "", flt ? flt : "", flt ? "/" : "",
		 p->ev[t->set.sort_event].name, t->set.inclusive ? "inclusive" : "self", th, parts,
		 p->ndiff ? " | difference" : "", t->set.cycles ? "" : " | cycles off: raw",
		 t->loader && t->loader->fold && *t->loader->fold ? " | f'N folded" : "", events);
	move(1, 0);
	clrtoeol();
	tui_put(t, 1, 0, t->cols, line);
}

static void draw_status(struct tui *t)
{
	move(t->lines - 1, 0);
	clrtoeol();
	if (t->message[0]) {
		attron(A_BOLD);
		tui_put(t, t->lines - 1, 0, t->cols, t->message);
		attroff(A_BOLD);
		return;
	}
	struct view *v = tui_view(t);
	char pos[64];
	snprintf(pos, sizeof(pos), "%d/%d", v->nrows ? v->sel + 1 : 0, v->nrows);
	tui_put(t, t->lines - 1, 0, t->cols - (int)strlen(pos) - 1,
		v->ops->hint ? v->ops->hint : "?:help  Esc:back  q:quit");
	mvprintw(t->lines - 1, t->cols - (int)strlen(pos), "%s", pos);
}

/* Draws rows of v in a pane: screen lines y0 .. y0+h-1, columns x0 .. x0+w-1. */
static void draw_rows(struct tui *t, struct view *v, int x0, int y0, int w, int h, int mark_sel)
{
	t->x0 = x0;
	for (int i = 0; i < h && v->top + i < v->nrows; i++) {
		int row = v->top + i, sel = mark_sel && row == v->sel;
		if (sel) {
			attron(A_REVERSE);
			for (int x = 0; x < w; x++)
				mvaddch(y0 + i, x0 + x, ' ');
		}
		v->ops->draw_row(v, row, y0 + i, w, sel);
		if (sel)
			attroff(A_REVERSE);
	}
	t->x0 = 0;
}

/* A cycle has no code of its own: says so (1), or 0 for a function. */
static int cycle_has_no_code(struct tui *t, uint32_t fn)
{
	const struct agg *a = profile_agg(t->p);
	if (!agg_is_cycle(a, fn))
		return 0;
	tui_message(t, "<cycle %u> is %u functions calling each other: Enter lists them, "
		    "open one of them", agg_cycle_no(a, fn),
		    a->cyc_start[agg_cycle_no(a, fn)] - a->cyc_start[agg_cycle_no(a, fn) - 1]);
	return 1;
}

/* The detail pane: the callers and callees of the function selected in the
 * main list, beside it when the terminal is wide, below it when it is tall,
 * not at all when there is no room (or after D). */
static void draw_detail(struct tui *t, struct view *v, int *list_w)
{
	uint32_t fn = v->ops->selected_fn && v->ops != &calls_ops ? v->ops->selected_fn(v) : NO_ID;
	int side = t->cols >= 150, below = !side && t->lines >= 34;
	if (fn == NO_ID || t->detail_off || (!side && !below)) {
		t->list_h = 0;
		return;
	}
	if (!t->detail || t->detail->fn != fn || t->detail->stale) {
		view_free(t->detail);
		t->detail = view_new(t, &calls_ops, fn);
	}
	struct view *d = t->detail;
	int x0, y0, w, h;
	if (side) {
		*list_w = t->cols * 11 / 20;
		x0 = *list_w + 1;
		y0 = 3;
		w = t->cols - x0;
		h = t->lines - 4;
		t->list_h = h;
		for (int y = 2; y < t->lines - 1; y++) {
			if (t->utf8)
				mvaddwstr(y, *list_w, L"\u2502");
			else
				mvaddch(y, *list_w, '|');
		}
	} else {
		t->list_h = (t->lines - 5) / 2;
		x0 = 0;
		y0 = 3 + t->list_h + 1;
		w = t->cols;
		h = t->lines - 1 - y0;
		attron(A_UNDERLINE | A_BOLD);
		move(y0 - 1, 0);
		clrtoeol();
		t->x0 = x0;
		d->ops->draw_header(d, y0 - 1, w);
		t->x0 = 0;
		attroff(A_UNDERLINE | A_BOLD);
	}
	if (side) {
		attron(A_UNDERLINE | A_BOLD);
		t->x0 = x0;
		d->ops->draw_header(d, 2, w);
		t->x0 = 0;
		attroff(A_UNDERLINE | A_BOLD);
	}
	/* all of it when it fits, else the function itself near the top */
	d->top = d->nrows <= h || d->sel < 2 ? 0 : d->sel - 2;
	draw_rows(t, d, x0, y0, w, h, 0);
}

/* Where the user is in a view: the selected row, its function, its source
 * line.  A setting that changes the rows (sort event, self/inclusive,
 * threshold, context) keeps the function or line selected. */
struct place {
	int sel, top;
	uint32_t fn;
	const char *file;
	uint32_t line;
};

static int row_of_fn(struct view *v, uint32_t fn);

static void place_get(struct view *v, struct place *pl)
{
	pl->sel = v->sel;
	pl->top = v->top;
	pl->fn = v->nrows && v->ops->selected_fn ? v->ops->selected_fn(v) : NO_ID;
	pl->file = NULL;
	if (!v->nrows || !v->ops->selected_line || !v->ops->selected_line(v, &pl->file, &pl->line))
		pl->file = NULL;
}

/* Is row r at pl's line (exact: and function), or (not exact) past it? */
static int place_at(struct view *v, int r, const struct place *pl, int exact)
{
	struct place now;
	int keep = v->sel;
	v->sel = r;
	place_get(v, &now);
	v->sel = keep;
	if (!now.file || strcmp(now.file, pl->file) != 0)
		return 0;
	return exact ? now.line == pl->line && now.fn == pl->fn : now.line >= pl->line;
}

/* the same place as pl: the same row if it still is, else the first row of
 * pl's line (or the next line shown), else of pl's function */
static void place_restore(struct view *v, const struct place *pl)
{
	struct place now;
	v->sel = pl->sel < v->nrows ? pl->sel : v->nrows - 1;
	if (v->sel < 0)
		v->sel = 0;
	place_get(v, &now);
	if (pl->file) {
		/* the same line and function (a call below a line has both): the
		 * row itself, else the first; else the line or the next one shown */
		int keep = v->sel;
		int at = place_at(v, keep, pl, 1) ? keep : -1;
		for (int exact = 1; exact >= 0 && at < 0; exact--)
			for (int r = 0; r < v->nrows && at < 0; r++)
				if (place_at(v, r, pl, exact))
					at = r;
		v->sel = at >= 0 ? at : keep;
	} else if (pl->fn != NO_ID && now.fn != pl->fn) {
		int r = row_of_fn(v, pl->fn);
		if (r >= 0)
			v->sel = r;
	}
	if (v->sel < 0)
		v->sel = 0;
	v->top = pl->top; /* the same rows shown, scrolled only to show the selection */
}

/* What an empty list says: a threshold too high, or a profile without costs
 * (a recorded program that ran another with exec: a script, a wrapper) */
static const char *empty_text(struct tui *t, struct view *v)
{
	if (v->filter) /* (trees match the rows shown: closed nodes are not searched) */
		return v->ops == &calltree_ops || v->ops == &callertree_ops
			       ? "(no open node matches the filter: | then Enter shows all)"
			       : "(no row matches the filter: | then Enter shows all)";
	for (int e = 0; e < t->p->nreal; e++)
		if (t->p->totals[e])
			return "(nothing to show: lower the threshold with -)";
	/* counting started by the program itself (cgtui.h), never started */
	for (int i = 0; i < t->p->ndesc; i++)
		if (strncmp(t->p->desc[i], "Options:", 8) == 0 &&
		    strstr(t->p->desc[i], "--instr-at-start=no"))
			return "(nothing counted: --instr-at-start=no and no "
			       "CGTUI_START_INSTRUMENTATION)";
	if (t->p->ndiff && !t->p->only_part)
		return "(no difference: the two profiles have the same costs)";
	if (t->live && !t->live->running(t->live->arg))
		return "(nothing counted; a script or wrapper needs --trace-children=yes)";
	if (t->live) /* snapshots are written while it runs code, not while it waits */
		return "(nothing counted yet, or the program waits: its counts come when it runs)";
	return "(the profile has no costs)";
}

static void draw(struct tui *t)
{
	erase();
	if (t->cols < MIN_COLS || t->lines < MIN_LINES) {
		tui_put(t, 0, 0, t->cols, "terminal too small");
		refresh();
		return;
	}
	struct view *v = tui_view(t);
	if (v->stale) { /* keep the user's place */
		struct place pl;
		place_get(v, &pl);
		v->stale = 0;
		v->ops->update(v);
		place_restore(v, &pl);
	}
	int list_w = t->cols;
	draw_detail(t, v, &list_w);
	list_goto(v, v->sel);
	draw_header(t);
	attron(A_UNDERLINE | A_BOLD);
	if (v->ops->draw_header)
		v->ops->draw_header(v, 2, list_w);
	attroff(A_UNDERLINE | A_BOLD);
	draw_rows(t, v, 0, 3, list_w, list_page(t), 1);
	if (v->nrows == 0)
		tui_put(t, 3, 2, list_w - 2, empty_text(t, v));
	draw_status(t);
	refresh();
}

/* ---- actions ------------------------------------------------------------------------------ */

static double thresholds[] = { 0, 0.01, 0.1, 0.5, 1, 2, 5, 10, 20, 50 };
#define NTHR (sizeof(thresholds) / sizeof(thresholds[0]))

static void step_threshold(struct tui *t, int dir)
{
	size_t i = 0;
	while (i < NTHR && thresholds[i] < t->set.threshold - 1e-12)
		i++;
	/* i: first step >= current */
	if (dir > 0)
		i = i < NTHR && thresholds[i] <= t->set.threshold + 1e-12 ? i + 1 : i;
	else
		i = i > 0 ? i - 1 : 0;
	if (i >= NTHR)
		i = NTHR - 1;
	t->set.threshold = thresholds[i];
	char th[32];
	format_threshold(th, sizeof(th), t->set.threshold);
	tui_message(t, "threshold %s%%", th);
	refresh_all(t);
}

/* d: a directory or a substitution for finding sources; the views reload */
static void add_lookup(struct tui *t, const char *s)
{
	struct stat st;
	if (strchr(s, '=')) {
		if (srclookup_add_subst(&t->look, s) < 0) {
			tui_message(t, "expected FROM=TO, e.g. /build/dir=/home/me/src");
			return;
		}
		tui_message(t, "sources: %s substituted", s);
	} else if (stat(s, &st) < 0 || !S_ISDIR(st.st_mode)) {
		tui_message(t, "%s: not a directory", s);
		return;
	} else {
		srclookup_add_dir(&t->look, s);
		tui_message(t, "sources: looked for in %s too", s);
	}
	refresh_all(t);
}

static void open_view(struct tui *t, const struct view_ops *ops, uint32_t fn)
{
	struct view *cur = tui_view(t);
	if (cur->ops == ops && cur->fn == fn)
		return;
	tui_push(t, view_new(t, ops, fn));
}

static void set_cycles(struct tui *t, int on);
static void fold(struct tui *t);

static void act(struct tui *t, enum action a)
{
	struct view *v = tui_view(t);
	if (v->ops->action && v->ops->action(v, a))
		return;
	switch (a) {
	case ACT_DOWN: list_move(v, 1); break;
	case ACT_UP: list_move(v, -1); break;
	case ACT_PGDN: list_move(v, list_page(t)); break;
	case ACT_PGUP: list_move(v, -list_page(t)); break;
	case ACT_HOME: list_goto(v, 0); break;
	case ACT_END: list_goto(v, v->nrows - 1); break;
	case ACT_BACK:
		if (t->cur > 0)
			t->cur--;
		break;
	case ACT_FORWARD:
		if (t->cur + 1 < t->nhist)
			t->cur++;
		break;
	case ACT_FUNCTIONS: open_view(t, &functions_ops, NO_ID); break;
	case ACT_EVENTS: open_view(t, &events_ops, NO_ID); break;
	case ACT_SUMMARY: open_view(t, &summary_ops, NO_ID); break;
	case ACT_PARTS: open_view(t, &parts_ops, NO_ID); break;
	case ACT_CYCLES: set_cycles(t, !t->set.cycles); break;
	case ACT_FOLD: fold(t); break;
	case ACT_HELP: open_view(t, &help_ops, NO_ID); break;
	case ACT_FILEFN: open_view(t, &filefn_ops, NO_ID); break;
	case ACT_FNFILE: open_view(t, &fnfile_ops, NO_ID); break;
	case ACT_OBJECTS: open_view(t, &objects_ops, NO_ID); break;
	case ACT_CALLTREE: open_view(t, &calltree_ops, NO_ID); break;
	case ACT_ASM: {
		uint32_t fn = v->ops->selected_fn ? v->ops->selected_fn(v) : v->fn;
		if (fn == NO_ID)
			tui_message(t, "no function selected");
		else if (!cycle_has_no_code(t, fn))
			open_view(t, &asm_ops, fn);
		break;
	}
	case ACT_CALLERTREE: {
		uint32_t fn = v->ops->selected_fn ? v->ops->selected_fn(v) : v->fn;
		if (fn == NO_ID)
			tui_message(t, "no function selected");
		else
			open_view(t, &callertree_ops, fn);
		break;
	}
	case ACT_CALLS:
	case ACT_SOURCE:
	case ACT_ENTER: {
		uint32_t fn = v->ops->selected_fn ? v->ops->selected_fn(v) : v->fn;
		if (fn == NO_ID) {
			tui_message(t, "no function selected");
			break;
		}
		if (a != ACT_SOURCE || !cycle_has_no_code(t, fn))
			open_view(t, a == ACT_SOURCE ? &source_ops : &calls_ops, fn);
		break;
	}
	case ACT_SORT_NEXT:
	case ACT_SORT_PREV:
		t->set.sort_event = (t->set.sort_event + (a == ACT_SORT_NEXT ? 1 : -1) + t->p->nevents) %
				    t->p->nevents;
		tui_message(t, "sorted by %s", t->p->ev[t->set.sort_event].name);
		refresh_all(t);
		break;
	case ACT_INCLUSIVE:
		t->set.inclusive = !t->set.inclusive;
		tui_message(t, "functions ordered by %s cost", t->set.inclusive ? "inclusive" : "self");
		refresh_all(t);
		break;
	case ACT_RELATIVE:
		t->set.relative = !t->set.relative;
		tui_message(t, "percentages of %s", t->set.relative ? "the function shown" : "the total");
		break;
	case ACT_DEFINE: {
		char *s = prompt(t, "new event (NAME = FORMULA): "), err[256];
		if (!s)
			break;
		if (profile_define_event_text(t->p, s, err, sizeof(err)) < 0) {
			tui_message(t, "%s", err);
		} else {
			t->set.sort_event = t->p->nevents - 1;
			if (t->set.nshow < MAX_EVENTS)
				t->set.show[t->set.nshow++] = t->set.sort_event;
			/* kept, to define it again if the profile is reloaded (P) */
			t->userev = xreallocarray(t->userev, (size_t)t->nuserev + 1, sizeof(*t->userev));
			t->userev[t->nuserev++] = xstrdup(s);
			tui_message(t, "defined %s, now sorting by it", t->p->ev[t->set.sort_event].name);
			refresh_all(t);
		}
		free(s);
		break;
	}
	case ACT_ORDER: {
		static const char *const what[] = { "cost", "calls", "name", "file" };
		t->set.order = (t->set.order + 1) % 4;
		tui_message(t, "functions ordered by %s", what[t->set.order]);
		refresh_all(t);
		break;
	}
	case ACT_PERCENT:
		t->set.percent = !t->set.percent;
		break;
	case ACT_THR_UP: step_threshold(t, 1); break;
	case ACT_THR_DOWN: step_threshold(t, -1); break;
	case ACT_LOOKUP: {
		char *s = prompt(t, "source directory, or FROM=TO to substitute: ");
		if (s && *s)
			add_lookup(t, s);
		free(s);
		break;
	}
	case ACT_SEARCH: {
		char *s = prompt(t, "/");
		if (s) {
			free(t->search);
			t->search = s;
			search(t, 1);
		}
		break;
	}
	case ACT_NEXT: search(t, 1); break;
	case ACT_PREV: search(t, -1); break;
	case ACT_FILTER: {
		if (!v->filters) {
			tui_message(t, "| filters the functions, callers/callees and trees; "
				       "here / searches");
			break;
		}
		char *s = prompt(t, "show only: ");
		if (!s)
			break;
		free(v->filter);
		v->filter = *s ? s : NULL;
		if (!*s)
			free(s);
		if (v->filter) {
			pcre2_code *re = compile(t, v->filter);
			if (!re) {
				free(v->filter);
				v->filter = NULL;
				break;
			}
			pcre2_code_free(re);
		}
		v->ops->update(v);
		list_goto(v, 0);
		int n = v->filter && v->ops->under_shown ? v->ops->under_shown(v) : 0;
		if (n)
			tui_message(t, "%d match%s under the threshold: shown", n, n == 1 ? "" : "es");
		break;
	}
	case ACT_REDRAW: clearok(stdscr, TRUE); break;
	case ACT_DETAIL:
		t->detail_off = !t->detail_off;
		tui_message(t, "detail pane %s", t->detail_off ? "off" : "on (when the terminal has room)");
		break;
	case ACT_LOG:
		if (t->live)
			open_view(t, &log_ops, NO_ID);
		else
			tui_message(t, "no program recorded here (cgtui PROGRAM records one)");
		break;
	/* keys of other views: say where they work (the views that take them
	 * handled them above) */
	case ACT_HOTTEST:
	case ACT_HOT_NEXT:
	case ACT_HOT_PREV:
	case ACT_CTX_MORE:
	case ACT_CTX_LESS:
		tui_message(t, "this key works in the source and assembly views (s, a)");
		break;
	case ACT_TOGGLE:
		tui_message(t, "x works in the events view (e)");
		break;
	case ACT_EXPAND:
	case ACT_EXPAND_ALL:
		tui_message(t, "this key opens and closes the trees' nodes (f, u, m, t, T)");
		break;
	case ACT_QUIT:
		if (t->live && t->live->running(t->live->arg)) {
			if (!ask(t, "The program is still running: stop it and quit? (y/n)"))
				break;
			live_stop(t);
		}
		t->quit = 1;
		break;
	default: break;
	}
}

/* A click selects a row (a double click opens it); the wheel scrolls. */
static void mouse(struct tui *t)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	struct view *v = tui_view(t);
	if (ev.bstate & BUTTON4_PRESSED) {
		list_move(v, -3);
		return;
	}
	if (ev.bstate & BUTTON5_PRESSED) {
		list_move(v, 3);
		return;
	}
	int row = v->top + ev.y - 3;
	if (ev.y < 3 || ev.y >= t->lines - 1 || row >= v->nrows)
		return;
	list_goto(v, row);
	if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
		act(t, ACT_ENTER);
}

/* ---- terminal set-up and restore -------------------------------------------------------- */

static void on_signal(int sig)
{
	got_signal = sig;
}

static void restore_terminal(void)
{
	if (!isendwin())
		endwin();
}

static void fatal_signal(int sig)
{
	restore_terminal();
	signal(sig, SIG_DFL);
	raise(sig);
}

static SCREEN *open_screen(struct tui *t, FILE **devnull, const char **why)
{
	SCREEN *scr;
	if (t->headless) {
		*devnull = fopen("/dev/null", "r+");
		if (!*devnull)
			return NULL;
		const char *term = getenv("TERM");
		scr = newterm(term && *term ? term : "xterm", *devnull, *devnull);
		if (!scr)
			scr = newterm("vt100", *devnull, *devnull);
	} else {
		scr = newterm(NULL, stdout, stdin);
		/* a terminal that cannot move the cursor (TERM=dumb) would show
		 * garbage: refused, with the way to the report */
		char *cup = scr ? tigetstr("cup") : NULL;
		if (scr && (!cup || cup == (char *)-1)) {
			endwin();
			delscreen(scr);
			*why = "cannot move the cursor, which the explorer needs; --batch prints "
			       "the report";
			return NULL;
		}
	}
	return scr;
}

/* Puts np in place of the profile shown: the events chosen are kept by
 * name, the formulas defined here defined again. */
static void swap_profile(struct tui *t, struct profile *np)
{
	char err[512];
	char *sort_name = xstrdup(t->p->ev[t->set.sort_event].name);
	char *shown[MAX_EVENTS] = { 0 };
	for (int j = 0; j < t->set.nshow; j++)
		shown[j] = xstrdup(t->p->ev[t->set.show[j]].name);
	int nshown = t->set.nshow;
	profile_free(t->p);
	*t->p = *np;
	for (int i = 0; i < t->nuserev; i++)
		profile_define_event_text(t->p, t->userev[i], err, sizeof(err));
	t->set.sort_event = 0;
	t->set.nshow = 0;
	for (int e = 0; e < t->p->nevents; e++) {
		if (!strcmp(t->p->ev[e].name, sort_name))
			t->set.sort_event = e;
		for (int j = 0; j < nshown; j++)
			if (!strcmp(t->p->ev[e].name, shown[j]) && t->set.nshow < MAX_EVENTS)
				t->set.show[t->set.nshow++] = e;
	}
	if (!t->set.nshow)
		for (int e = 0; e < t->p->nreal && e < MAX_EVENTS; e++)
			t->set.show[t->set.nshow++] = e;
	free(sort_name);
	for (int j = 0; j < nshown; j++)
		free(shown[j]);
	profile_set_cycles(t->p, t->set.cycles);
}

/* Cycle detection on or off: every view is made again (a view of a cycle
 * shows its first function when cycles are no more). */
static void set_cycles(struct tui *t, int on)
{
	const struct agg *a = profile_agg(t->p);
	t->set.cycles = on;
	for (int i = 0; i < t->nhist; i++) {
		struct view *v = t->hist[i];
		if (!on && v->fn != NO_ID && agg_is_cycle(a, v->fn))
			v->fn = a->cyc_fn[a->cyc_start[agg_cycle_no(a, v->fn) - 1]];
	}
	profile_set_cycles(t->p, on);
	refresh_all(t);
	if (on)
		tui_message(t, "cycle detection on: functions calling each other are one <cycle N> "
			       "(%u here)", a->ncycles);
	else
		tui_message(t, "cycle detection off: raw numbers, as callgrind_annotate prints them "
			       "(recursive calls counted again at every level)");
}

static void start_over(struct tui *t, struct profile *np)
{
	for (int i = 0; i < t->nhist; i++)
		view_free(t->hist[i]);
	t->nhist = t->cur = 0;
	view_free(t->detail);
	t->detail = NULL;
	swap_profile(t, np);
	tui_push(t, view_new(t, &functions_ops, NO_ID));
}

/* R: the profile loaded again with callgrind's f'2 and f'caller names
 * folded into f, or not; starts over from the functions. */
static void fold(struct tui *t)
{
	if (!t->loader || !t->loader->fold) {
		tui_message(t, "R: this profile cannot be loaded again");
		return;
	}
	if (!*t->loader->fold && !profile_names_contexts(t->p)) {
		tui_message(t, "R folds the f'2 and f'caller names of callgrind and cgtui; this "
			       "profile was written by %s", t->p->creator ? t->p->creator : "another tool");
		return;
	}
	*t->loader->fold = !*t->loader->fold;
	struct profile np;
	char err[512];
	if (t->loader->load(t->loader->arg, &np, t->p->only_part, err, sizeof(err)) < 0) {
		*t->loader->fold = !*t->loader->fold;
		tui_message(t, "%s", err);
		return;
	}
	start_over(t, &np);
	tui_message(t, *t->loader->fold ? "recursion levels and caller contexts folded: f'2 and "
					  "f'caller are f (R: apart again)"
					: "recursion levels and caller contexts apart again");
}

/* Loads the profile again with the part chosen, and starts over from the
 * list of functions (function ids are not the same in another part). */
static void switch_part(struct tui *t)
{
	int k = t->want_part;
	t->want_part = -1;
	if (!t->loader || k == t->p->only_part)
		return;
	struct profile np;
	char err[512];
	if (t->loader->load(t->loader->arg, &np, k, err, sizeof(err)) < 0) {
		tui_message(t, "%s", err);
		return;
	}
	start_over(t, &np);
	if (k) {
		char pl[48];
		part_label(pl, sizeof(pl), t->p, k);
		tui_message(t, "showing %s only (P: parts)", pl);
	} else
		tui_message(t, "showing all %d parts", t->p->nparts);
}

/* ---- a program being recorded ---------------------------------------------------------- */

static const struct tui_live *next_live;
static int nreloads; /* newer data loaded (for :wait-data) */

void tui_set_live(const struct tui_live *live)
{
	next_live = live;
}

static const struct tui_start *next_start;

void tui_set_start(const struct tui_start *s)
{
	next_start = s;
}

static void apply_start(struct tui *t, const struct tui_start *s)
{
	if (s->sort_event >= 0 && s->sort_event < t->p->nevents)
		t->set.sort_event = s->sort_event;
	if (s->nshow > 0) {
		t->set.nshow = 0;
		for (int k = 0; k < s->nshow && k < MAX_EVENTS; k++)
			if (s->show[k] >= 0 && s->show[k] < t->p->nevents)
				t->set.show[t->set.nshow++] = s->show[k];
	}
	if (s->threshold >= 0)
		t->set.threshold = s->threshold;
	if (s->percent >= 0)
		t->set.percent = s->percent;
	if (s->context >= 0)
		t->set.context = s->context;
	if (s->cycles >= 0)
		t->set.cycles = s->cycles;
}

/* A function of p by its name, object and file names (ids differ from
 * one snapshot to the next): its id in np, or NO_ID. */
static uint32_t same_fn(const struct profile *p, uint32_t fn, const struct profile *np)
{
	if (fn == NO_ID || fn >= p->nfns)
		return NO_ID;
	const char *name = fn_name(p, fn), *file = file_name(p, p->fns[fn].file),
		   *obj = obj_name(p, p->fns[fn].obj);
	for (uint32_t i = 0; i < np->nfns; i++)
		if (!strcmp(fn_name(np, i), name) && !strcmp(file_name(np, np->fns[i].file), file) &&
		    !strcmp(obj_name(np, np->fns[i].obj), obj))
			return i;
	return NO_ID;
}

/* The row of v whose function is fn, or -1. */
static int row_of_fn(struct view *v, uint32_t fn)
{
	if (!v->ops->selected_fn || fn == NO_ID)
		return -1;
	int keep = v->sel, found = -1;
	for (int r = 0; r < v->nrows && found < 0; r++) {
		v->sel = r;
		if (v->ops->selected_fn(v) == fn)
			found = r;
	}
	v->sel = keep;
	return found;
}

/* Newer data of the running program: every view kept shows it, on the
 * same function, with the same function selected where it still is (else
 * the same row), scrolled the same. */
static void live_reload(struct tui *t)
{
	struct profile np;
	char err[512];
	if (t->loader->load(t->loader->arg, &np, t->p->only_part, err, sizeof(err)) < 0) {
		tui_message(t, "%s", err);
		return;
	}
	uint32_t *fn = xcalloc((size_t)t->nhist + 1, sizeof(*fn));
	uint32_t *selfn = xcalloc((size_t)t->nhist + 1, sizeof(*selfn));
	for (int i = 0; i < t->nhist; i++) {
		struct view *v = t->hist[i];
		fn[i] = same_fn(t->p, v->fn, &np);
		selfn[i] = v->ops->selected_fn && v->nrows ? same_fn(t->p, v->ops->selected_fn(v), &np)
							   : NO_ID;
	}
	view_free(t->detail);
	t->detail = NULL;
	swap_profile(t, &np);
	for (int i = 0; i < t->nhist; i++) {
		struct view *v = t->hist[i];
		int sel = v->sel, off = v->sel - v->top;
		if (v->fn != NO_ID && fn[i] == NO_ID) /* gone: keep the view, empty */
			fn[i] = 0;
		v->fn = fn[i];
		v->stale = 0;
		/* rows made anew: a view's data may point into the old profile
		 * (trees start closed again) */
		if (v->ops->free)
			v->ops->free(v);
		v->data = NULL;
		v->ops->update(v);
		int r = row_of_fn(v, selfn[i]);
		v->sel = r >= 0 ? r : sel;
		v->top = v->sel - off;
		list_goto(v, v->sel);
	}
	free(fn);
	free(selfn);
}

/* y or Y on the status line after `question`? */
static int ask(struct tui *t, const char *question)
{
	tui_message(t, "%s", question);
	draw(t);
	int c;
	/* (a signal is a no: Ctrl-C cancels; SIGTERM, SIGHUP end the main loop) */
	while (((c = next_key(t)) == ERR && !got_signal) || c == KEY_RESIZE)
		if (c == KEY_RESIZE)
			resized(t); /* the question is still the message */
	if (got_signal == SIGINT || c == 3)
		got_signal = 0;
	t->message[0] = 0;
	return !got_signal && (c == 'y' || c == 'Y');
}

/* Stops the program (after asking); the last data is loaded. */
static void live_stop(struct tui *t)
{
	tui_message(t, "stopping the program ...");
	draw(t);
	t->live->stop(t->live->arg);
	if (t->live->poll(t->live->arg))
		live_reload(t);
	char st[128];
	t->live->state(t->live->arg, st, sizeof(st));
	tui_message(t, "the program %s; the profile so far is kept", st);
}

/* Does p have a function called name? */
static int has_fn(const struct profile *p, const char *name)
{
	for (uint32_t i = 0; i < p->nfns; i++)
		if (!strcmp(fn_name(p, i), name))
			return 1;
	return 0;
}

/* Checks the program about four times a second (and when asked, wait: 1
 * until it has ended, 2 until newer data has come, 3 until the function fn
 * is in the data). */
static void live_tick(struct tui *t, int wait, const char *fn)
{
	static struct timespec last;
	static double reload_ms; /* what the last reload took */
	struct timespec now;
	if (!t->live)
		return;
	int reloads0 = nreloads;
	/* a poll made after the program had ended found nothing newer: the
	 * final profile is loaded (polling is not repeated to find out: the
	 * poll that sees the end hands over the final profile once) */
	int all_loaded = 0;
	for (int waited = 0;; waited += 20) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		double ms = (double)(now.tv_sec - last.tv_sec) * 1e3 +
			    (double)(now.tv_nsec - last.tv_nsec) / 1e6;
		/* four times a second, or less when reloading takes long (a big
		 * profile): the explorer stays responsive */
		if (wait || (ms >= 250 && ms >= 4 * reload_ms)) {
			last = now;
			int was = t->live->running(t->live->arg);
			int polled = t->live->poll(t->live->arg);
			all_loaded = !was && !polled;
			if (polled) {
				live_reload(t);
				nreloads++;
				struct timespec end;
				clock_gettime(CLOCK_MONOTONIC, &end);
				reload_ms = (double)(end.tv_sec - now.tv_sec) * 1e3 +
					    (double)(end.tv_nsec - now.tv_nsec) / 1e6;
			}
			if (was && !t->live->running(t->live->arg)) {
				char st[128];
				t->live->state(t->live->arg, st, sizeof(st));
				tui_message(t, "the program %s", st);
			}
		}
		if (!wait || waited > 120000 || got_signal ||
		    (wait == 1 && all_loaded) ||
		    (wait == 2 && nreloads > reloads0 && t->p->nreal && t->p->totals[0] > 0) ||
		    (wait == 2 && !t->live->running(t->live->arg)) ||
		    (wait == 3 && (has_fn(t->p, fn) || !t->live->running(t->live->arg))))
			break;
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

int tui_run(struct profile *p, const struct tui_loader *loader, const char *const *src_dirs,
	    int nsrc_dirs)
{
	struct tui t;
	memset(&t, 0, sizeof(t));
	t.p = p;
	t.loader = loader;
	t.want_part = -1;
	t.src_dirs = src_dirs;
	t.nsrc_dirs = nsrc_dirs;
	t.live = next_live;
	next_live = NULL;
	if (t.live && t.live->message)
		tui_message(&t, "%s", t.live->message);
	else if (p->nwarnings) /* printed before the screen was taken: said again */
		tui_message(&t, "%d warning%s about the profile: S shows %s", p->nwarnings,
			    p->nwarnings == 1 ? "" : "s", p->nwarnings == 1 ? "it" : "them");
	t.set.nshow = p->nreal;
	for (int e = 0; e < p->nreal; e++)
		t.set.show[e] = e;
	t.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	t.set.cycles = 1;
	tui_config(&t); /* the defaults, then the user's file */
	if (next_start) /* then the command line */
		apply_start(&t, next_start);
	next_start = NULL;
	profile_set_cycles(p, t.set.cycles);

	/* where sources are looked for: the command line's, then what d adds */
	if (loader && loader->look)
		srclookup_copy(&t.look, loader->look);
	else
		srclookup_init(&t.look);
	for (int i = 0; i < nsrc_dirs; i++)
		srclookup_add_dir(&t.look, src_dirs[i]);

	const char *sp = getenv("CGTUI_SCRIPT");
	if (sp && *sp) {
		script = fopen(sp, "r");
		if (!script) {
			fprintf(stderr, "cgtui: CGTUI_SCRIPT: %s: %s\n", sp, strerror(errno));
			return 1;
		}
		t.headless = 1;
		if (!getenv("COLUMNS"))
			setenv("COLUMNS", "80", 1);
		if (!getenv("LINES"))
			setenv("LINES", "24", 1);
	}
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	profile_agg(p);

	FILE *devnull = NULL;
	const char *why = "is unknown or cannot be used (for the report: --batch)";
	SCREEN *scr = open_screen(&t, &devnull, &why);
	if (!scr) {
		fprintf(stderr, "cgtui: the terminal (TERM=%s) %s\n",
			getenv("TERM") ? getenv("TERM") : "", why);
		if (script)
			fclose(script);
		return 1;
	}
	set_term(scr);
	atexit(restore_terminal);
	/* no SA_RESTART: a signal interrupts the wait for a key */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGSEGV, fatal_signal);
	signal(SIGABRT, fatal_signal);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(250); /* wake up now and then: signals, and later live data */
	if (!t.headless && has_colors() && !getenv("NO_COLOR")) {
		start_color();
		use_default_colors();
		tui_colors(&t);
		t.color = 1;
	}
	getmaxyx(stdscr, t.lines, t.cols);

	tui_push(&t, view_new(&t, &functions_ops, NO_ID));
	/* CGTUI_TIMING=FILE: how long the first screen and each key took */
	const char *tp = getenv("CGTUI_TIMING");
	FILE *timing = tp && *tp ? fopen(tp, "w") : NULL;
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	int dirty = 1, last_key = 0;
	while (!t.quit) {
		if (got_signal == SIGINT && t.live && t.live->running(t.live->arg)) {
			/* Ctrl-C: the program, not the explorer */
			got_signal = 0;
			if (ask(&t, "Stop the program? (y/n)"))
				live_stop(&t);
			dirty = 1;
		}
		if (got_signal)
			break;
		if (t.live) {
			live_tick(&t, 0, NULL);
			dirty = 1; /* the elapsed time */
		}
		if (dirty) {
			draw(&t);
			if (timing) {
				struct timespec t1;
				clock_gettime(CLOCK_MONOTONIC, &t1);
				fprintf(timing, "%s %d %.3f\n", last_key ? "key" : "first-screen", last_key,
					(double)(t1.tv_sec - t0.tv_sec) * 1e3 +
						(double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
			}
		}
		int c = next_key(&t);
		if (c == -2)
			break;
		if (c == 3) { /* Ctrl-C read as a key */
			got_signal = SIGINT;
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &t0);
		last_key = c;
		dirty = c != ERR;
		if (c == ERR)
			continue;
		t.message[0] = 0; /* a message lasts until the next key */
		if (c == KEY_RESIZE) {
			getmaxyx(stdscr, t.lines, t.cols);
			clearok(stdscr, TRUE);
			continue; /* drawn at the top of the loop */
		}
		if (c == KEY_MOUSE) {
			mouse(&t);
			continue;
		}
		act(&t, key_action(c));
		if (t.want_part >= 0)
			switch_part(&t);
	}
	if (timing)
		fclose(timing);
	endwin();
	delscreen(scr);
	if (devnull)
		fclose(devnull);
	if (script)
		fclose(script);
	script = NULL;
	for (int i = 0; i < t.nhist; i++)
		view_free(t.hist[i]);
	view_free(t.detail);
	srclookup_free(&t.look);
	free(t.search);
	for (int i = 0; i < t.nuserev; i++)
		free(t.userev[i]);
	free(t.userev);
	return got_signal ? 128 + got_signal : 0;
}
