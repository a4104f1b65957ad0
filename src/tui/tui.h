/* tui.h -- the terminal explorer: shared state, the one list engine, the
 * view operations, and the text helpers every view draws with.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_TUI_H
#define CGTUI_TUI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "keys.h"
#include "profile/model.h"
#include "profile/scope.h"
#include "source/srcfile.h"

struct tui;
struct view;
struct loading;

/* What a view does; one table per view (see view_*.c). */
struct view_ops {
	const char *name;
	const char *hint;       /* its most useful keys, for the status line */
	/* (re)computes the rows from the model and the tui's settings */
	void (*update)(struct view *v);
	/* draws row `row` at screen line y, `width` columns */
	void (*draw_row)(struct view *v, int row, int y, int width, int selected);
	/* the column header line */
	void (*draw_header)(struct view *v, int y, int width);
	/* the text of a row, for searching (NULL if none) */
	const char *(*row_text)(struct view *v, int row);
	/* the function of the selected row, NO_ID if none (NULL: the view's) */
	uint32_t (*selected_fn)(struct view *v);
	/* the source position of the selected row (file name, line); 0 if none */
	int (*selected_line)(struct view *v, const char **file, uint32_t *line);
	/* handles an action; returns 1 when it did */
	int (*action)(struct view *v, enum action a);
	/* rows under the threshold shown because they match v->filter or
	 * v->reveal (NULL: the view shows none) */
	int (*under_shown)(struct view *v);
	void (*free)(struct view *v);
	/* newer data (tui_reload), called before the profile is replaced by
	 * np: the view keeps what it shows in np's ids (tui_same_fn) and its
	 * data, which update then makes anew, its selection included (NULL:
	 * the data freed, made anew on the view's function, the function
	 * selected found again) */
	void (*renew)(struct view *v, const struct profile *np);
	/* a picture rather than a list (call graph, call map): draws screen
	 * lines y0 .. y0 + h - 1 itself, without the detail pane; its rows are
	 * the things that can be selected in it (NULL: a list) */
	void (*draw)(struct view *v, int y0, int h, int width);
	/* a picture's row at screen column x, line y as last drawn, -1 for
	 * none (NULL: a click selects nothing in it) */
	int (*hit)(struct view *v, int x, int y);
	/* its rows follow the view's scope (z zooms it; the others, views of
	 * one function, show its whole neighbourhood) */
	int scoped;
	/* the object or file of the selected row when it is one (a group):
	 * fills *s and returns 1 (NULL: none) */
	int (*selected_scope)(struct view *v, struct scope *s);
	/* its rows' text (names, source) scrolls sideways (tui_text) */
	int scrolls;
	/* Space is its x (marks a row), not the next page */
	int space_marks;
	/* its costs follow the scope's time range (costs kept per interval:
	 * the timeline, the functions' self costs); the others show the whole
	 * run and say so */
	int timed;
};

/* The one scroll engine: every view is a list of rows. */
struct view {
	const struct view_ops *ops;
	struct tui *t;
	int nrows;
	int sel, top;    /* selected row, first row shown */
	uint32_t fn;     /* the function the view is about (NO_ID if none) */
	void *data;      /* the view's own rows */
	char *filter;    /* rows shown only when they match, or NULL */
	char *reveal;    /* a search: rows under the threshold that match are shown */
	int filters;     /* its rows go through tui_filter_new (| works) */
	int stale;       /* settings changed: update before it is shown */
	struct scope scope; /* what its lists keep (scope.h): the view's it
			     * was opened from, or another after z */
	cost_t *zself;   /* the scope's self cost (made when first drawn) */
	int hscroll;     /* columns of its text column scrolled out (b, w) */
	/* the function selected when an update hid it (a sort, a
	 * threshold), lost_in selected in its place: selected again when
	 * an update shows it, unless the selection moved meanwhile */
	int lost;
	uint32_t lost_fn, lost_in;
};

struct tui_settings {
	int sort_event;         /* event the lists are ordered by */
	int show[MAX_EVENTS], nshow;
	int inclusive;          /* functions ordered by inclusive cost */
	int order;              /* 0: by cost, else an enum fn_order (functions view) */
	int percent;            /* percentages beside counts */
	int relative;           /* calls view: percentages of the function's inclusive cost */
	double threshold;       /* percent of the sort event's total */
	int context;            /* source lines around costly ones */
	int cycles;             /* cycle detection on (profile_set_cycles) */
	int bars;               /* heat bars beside the sort event's costs */
	int fold_templates;     /* C++ template arguments folded in names */
	int graph_depth;        /* call graph: levels of callers and callees (0: 2) */
};

#define TUI_HISTORY 64

/* How the explorer loads the profile again (of the parts in *parts):
 * fills *out, returns 0 or -1 with a message in err. */
struct instr_sink;
struct tui_loader {
	int (*load)(void *arg, struct profile *out, char *err, size_t errsz);
	void *arg;
	/* the same, with an instruction sink (the assembly view), or NULL */
	int (*load_instr)(void *arg, struct profile *out, const struct instr_sink *s, char *err,
			  size_t errsz);
	/* where sources are looked for (copied), or NULL: src_dirs only */
	const struct srclookup *look;
	/* what the loads fold (R: recursion levels and caller contexts of
	 * callgrind's names), NULL when they cannot */
	int *fold;
	/* --mod-filename: sources are read under their original names */
	const struct modname *modfile;
	/* the parts the loads read (the session's, scope.h): the parts view
	 * changes it and loads again; NULL when it cannot */
	struct partset *parts;
	/* A: what the loads read becomes a difference, the second side's
	 * files (the profile's own, when it is none) minus those of `with`
	 * (TUI_CMP_WITH), its sides swapped, one side alone, or the step
	 * before (TUI_CMP_UNDO, when the load failed); 0, or -1 with the
	 * reason in err (NULL: it cannot) */
	int (*compare)(void *arg, int op, const char *with, char *err, size_t errsz);
	/* One side of the difference the loads read alone (1 the first, A,
	 * the one subtracted; 2 the second, B) into *out, of the parts in
	 * *parts (by that side's own load index, diff_side_parts; NULL: the
	 * loads' parts): 0, or -1 with the reason in err (NULL: it cannot). */
	int (*load_side)(void *arg, int side, const struct partset *parts, struct profile *out,
			 char *err, size_t errsz);
};

enum tui_compare { TUI_CMP_WITH = 1, TUI_CMP_SWAP, TUI_CMP_FIRST, TUI_CMP_SECOND, TUI_CMP_UNDO };

/* A program being recorded (cgtui prog args): the explorer polls it a few
 * times a second and loads newer data with the loader, keeping the user's
 * place; passed in tui_args.live. */
struct tui_live {
	/* 1 when newer data can be loaded (a snapshot, or the final profile) */
	int (*poll)(void *arg);
	/* the program's state for the header: "running 12s", "exited 3" ... */
	void (*state)(void *arg, char *buf, size_t n);
	int (*running)(void *arg);
	/* stops the program (SIGINT, then SIGKILL) and waits for it */
	void (*stop)(void *arg);
	/* the program's output (and Valgrind's messages): files to show */
	const char *const *(*logs)(void *arg, int *n);
	/* sends the recording "dump" (a snapshot now), "zero" (the counts) or
	 * "pause" (counting off, or on again), answered later by notice;
	 * 0, or -1 with the reason in msg */
	int (*control)(void *arg, const char *what, char *msg, size_t n);
	/* the answer to the last control, once; NULL when none is new */
	const char *(*notice)(void *arg);
	void *arg;
	const char *message;    /* for the status line at the start, or NULL */
};


/* Settings from the command line (--sort, --show, --threshold,
 * --show-percs, --context), over the configuration file's; a field left at
 * -1 (nshow 0) was not given. */
struct tui_start {
	int sort_event;
	int show[MAX_EVENTS], nshow;
	double threshold;
	int percent;
	int context;
	int cycles;
};

struct tui {
	struct profile *p;
	struct timeline *tl;            /* p's (tui_timeline), read once */
	int tl_read;
	const struct tui_loader *loader;
	/* parts chosen in the parts view, loaded after the key (switch_parts):
	 * 0 none, 1 and then the functions, 2 and back to the parts view */
	int want_parts;
	struct partset want;
	/* a compare step the compare view asks for (enum tui_compare, 0:
	 * none), with the run (NULL: asked for) */
	int want_compare;
	char *compare_with;
	struct tui_settings set;
	struct view *hist[TUI_HISTORY]; /* back/forward history of views */
	int nhist, cur;                 /* views kept, the one shown */
	int lines, cols;
	int x0;                         /* where the view being drawn starts */
	int slim;                       /* its cost cells: 1 without the heat bar, 2
					 * without the percentage too (tui_fit_names) */
	int list_h;                     /* rows of the main list */
	int detail_off;                 /* the detail pane turned off (D) */
	struct view *detail;            /* callers/callees of the selected function */
	struct view *detail_prev;       /* the one before (a function selected in
					 * turn with another: a call tree's root and
					 * the list's row) */
	int fg[16], bg[16];             /* colour pairs, by COL_* */
	char **userev;                  /* events defined with E, "NAME=FORMULA" */
	int nuserev;
	int utf8, color;
	char message[256];              /* shown on the status line once */
	char *search;                   /* last search pattern */
	struct srclookup look;          /* where sources are looked for (d adds) */
	const char *const *src_dirs;    /* the command line's (also in look) */
	int nsrc_dirs;
	int quit;
	int headless;
	const struct tui_live *live;    /* a program being recorded, or NULL */
	/* the prompts' histories (input.c) */
#define TUI_PROMPTS 8
	struct prompt_hist {
		const char *what;
		char **line;
		int n;
	} phist[TUI_PROMPTS];
	int nphist;
	/* the headless mode's script (input.c) */
	FILE *script;
	int pending[256], npending, ipending;
	/* live data (live.c): loads so far, when the last poll was, what the
	 * last load took */
	int nreloads;
	int nnotices;        /* answers to live controls (U Z p) shown */
	struct timespec live_last;
	double reload_ms;
	/* a difference's sides alone, A and B (tui_side): asked of the
	 * loader when first needed (the session hands over those it loaded
	 * with the difference), freed with the profile they are of;
	 * side_tried says a load was tried (a failed one is not tried again) */
	struct profile *side[2];
	int side_tried[2];
	uint32_t *side_fn[2]; /* each function of p's id there (NO_ID: not there) */
	int *side_ev[2];      /* each real event of p's index there (-1: none) */
	int side_userev[2];   /* the events defined with E defined there so far */
};

/* a compiled filter for v (NULL if v has none); free with tui_filter_free */
struct filter;
struct filter *tui_filter_new(struct view *v);
/* the same for any expression (NULL: none) */
struct filter *tui_filter_of(const char *expr);
int tui_filter_match(struct filter *f, const char *text);
/* The same for the text made of n parts (part[i], len[i] bytes), one a
 * line: where no match can span lines (the expression has no escape,
 * class, group or comment, the only ways to a newline), each part is
 * matched where it is, else their copy joined in *buf (grown as needed). */
int tui_filter_match_parts(struct filter *f, const char *const *part, const size_t *len, int n,
			   char **buf, size_t *cap);
/* Does tui_filter_match_parts match each part on its own (a text of
 * several parts matches when one of them does)? */
int tui_filter_parts_alone(const struct filter *f);
/* Those parts as one text, a line each: in *buf (grown as needed), or
 * where it is when it is one whole string. */
const char *tui_join_lines(const char *const *part, const size_t *len, int n, char **buf,
			   size_t *cap);
void tui_filter_free(struct filter *f);

/* list engine */
void list_move(struct view *v, int delta);
/* PgDn (dir 1), PgUp (-1): a whole page. */
void list_page_move(struct view *v, int dir);
void list_goto(struct view *v, int row);
/* The moves of a list (j k PgDn PgUp g G): 1 when a was one, done on v. */
int list_action(struct view *v, enum action a);
int list_page(struct tui *t);
/* The action of a picture whose rows are positions along an axis (the
 * miss-ratio curve's sizes, the timeline's intervals): Left and Right move
 * the selection by one, Enter does nothing; 1 when it handled a (none
 * without rows: Left goes back). */
int tui_axis_action(struct view *v, enum action a);
/* The timeline of the profile shown (profile/timeline.h), read when first
 * asked after a load; NULL when it has none. */
struct timeline *tui_timeline(struct tui *t);
/* The intervals of v's time range ([*iv0, *iv1), all without one) and
 * every entity's self cost in them (malloc'ed, agg_nent * nreal) with
 * their totals in tot (nreal); NULL when v has no time range or there is
 * no timeline. */
cost_t *tui_range_self(struct view *v, uint32_t *iv0, uint32_t *iv1, cost_t *tot);
/* ACT_HOT_NEXT/ACT_HOT_PREV: to the next/previous row for which pred holds,
 * else a message ("no later <what> above the threshold"); 1 if moved. */
int list_seek(struct view *v, enum action a, int (*pred)(struct view *v, int row),
	      const char *what);
/* ACT_HOTTEST: to the first row of the largest mag (rows with mag < 0 have
 * no cost). */
void list_hottest(struct view *v, cost_t (*mag)(struct view *v, int row));
/* ACT_CTX_MORE/ACT_CTX_LESS: two lines of context more or less. */
void tui_step_context(struct tui *t, enum action a);

/* views */
struct view *view_new(struct tui *t, const struct view_ops *ops, uint32_t fn);
/* The same in scope s (view_new: the scope of the view shown). */
struct view *view_new_in(struct tui *t, const struct view_ops *ops, uint32_t fn,
			 const struct scope *s);
void tui_push(struct tui *t, struct view *v);
struct view *tui_view(struct tui *t);
void tui_message(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Function fn of p in np, found by its name, object and file names (ids
 * differ from one snapshot to the next): its id there (the first such), or
 * NO_ID.  A hash look-up once tui_reload has indexed np's names. */
uint32_t tui_same_fn(const struct profile *p, uint32_t fn, const struct profile *np);
/* The file of p's first part of a difference's side: sign -1 the first
 * side (read negated), else the second (or the only one); NULL if none. */
const char *tui_side_source(const struct profile *p, int sign);
/* A difference's side alone: 1 (A, the first, subtracted) or 2 (B), its
 * names indexed for tui_side_fn and cycle detection as the settings say;
 * loaded by the loader when first asked for (a failed load says why on the
 * status line, once).  NULL when t->p is no difference or it cannot be. */
struct profile *tui_side(struct tui *t, int side);
/* Function or cycle fn of the difference in side `side`: its id there
 * (tui_same_fn), NO_ID when it is not there (or fn is a cycle, its members
 * another set in each side). */
uint32_t tui_side_fn(struct tui *t, int side, uint32_t fn);
/* Event ev of the difference in side s: its index there (by name), -1. */
int tui_side_event(const struct tui *t, const struct profile *s, int ev);
/* The sides freed (the profile they are of replaced, or the end). */
void tui_sides_free(struct tui *t);
/* (every view's ops are declared by keys.h's table, but the detail pane's
 * for profiles without calls, view_lines.c) */
extern const struct view_ops lines_ops;

/* drawing helpers (text.c): all profile text goes through these */
/* Prints s (bytes of unknown encoding) at (y, x) in at most width columns:
 * control bytes, invalid UTF-8 and bidirectional controls are shown
 * escaped; a longer text is cut with an ellipsis.  Returns the columns used. */
int tui_put(struct tui *t, int y, int x, int width, const char *s);
/* A row's text column (names, files, source text), scrolled sideways with
 * b and w: pieces put one after the other from column x to `end`, the
 * first v->hscroll columns of them left out and, when some are, an
 * ellipsis where the column starts (tui_text_end). */
struct tui_text {
	struct tui *t;
	int y, x, start, end, skip, scrolled;
};
void tui_text_begin(struct tui_text *c, struct view *v, int y, int x, int end);
/* The next piece, in the attributes set; returns the columns it drew. */
int tui_text_put(struct tui_text *c, const char *s);
/* n blank columns */
void tui_text_gap(struct tui_text *c, int n);
/* The columns left for pieces (those still to be left out included). */
int tui_text_room(const struct tui_text *c);
void tui_text_end(struct tui_text *c);
/* Like tui_put, right-aligned in width columns. */
int tui_put_right(struct tui *t, int y, int x, int width, const char *s);
/* A header's "NAME: numbers ...": name, then rest, in at most width
 * columns; a long name is cut (with an ellipsis) so that rest fits whole,
 * never a number in rest.  Returns the columns used. */
int tui_put_named(struct tui *t, int y, int x, int width, const char *name, const char *rest);
/* The one label of a function or cycle (format.h), as the settings show
 * it (template arguments folded with v); malloc'ed. */
char *tui_label(struct tui *t, uint32_t id);
char *tui_edge_label(struct tui *t, uint32_t id, uint32_t via);
/* The bytes of s's first line when s is wrapped at `room` columns: all of
 * it when it fits, else up to the last blank that fits (a word longer than
 * the room is cut). */
size_t tui_wrap(struct tui *t, const char *s, int room);
/* Display width of s as tui_put would print it. */
int tui_width(struct tui *t, const char *s);
/* "12.3%" of total (" n/a" when total is 0) */
void fmt_percent(char *buf, size_t n, cost_t v, cost_t total);
/* A cost cell of `width` columns: count and, with percentages, its share. */
void tui_cost_cell(struct tui *t, int y, int x, int width, cost_t v, cost_t total);
/* The same with ev's heat bar after the percentage when ev is the sort
 * event and bars are on (its width, tui_cost_width's, leaves room). */
void tui_cost_cell_ev(struct tui *t, int y, int x, int width, cost_t v, cost_t total, int ev);
/* The heat bar of v's share of total in TUI_BAR columns at (y, x): eighth
 * blocks (UTF-8) or '#', from the left; a negative v (a difference) from
 * the right in the negative colour. */
#define TUI_BAR 8
void tui_bar(struct tui *t, int y, int x, cost_t v, cost_t total);
/* Narrow panes: names get priority.  The cost cells of the pane being
 * drawn lose their heat bar, then their percentage, while the text column
 * after `ncells` cells of the sort event and `fixed` columns more would
 * have fewer than TUI_NAME_ROOM columns of `width`; the views call it
 * first thing in draw_header and draw_row, frame.c sets it back after. */
#define TUI_NAME_ROOM 20
void tui_fit_names(struct tui *t, int width, int fixed, int ncells);
/* The columns of ev's counts in its cost cells (without the percentage
 * and the bar): where a "." stands for no cost. */
int tui_count_width(struct tui *t, int ev);
/* The width of event ev's cost cells: its total's (and in a difference,
 * either profile's total, negative). */
int tui_cost_width(struct tui *t, int ev);
/* The events drawn as cost columns in `width` columns: the sort event, then
 * the shown ones while `room` columns stay free after them.  Fills ev (room
 * for MAX_EVENTS) and returns how many; *end is the column after them (and
 * the space that follows). */
int tui_event_columns(struct tui *t, int width, int room, int *ev, int *end);
/* Their names, right-aligned above the columns, on row y. */
void tui_event_headers(struct tui *t, int y, const int *ev, int n);
/* What v's percentages and bars are of: the totals, or with r (relative)
 * the inclusive costs of the function v shows. */
const cost_t *tui_totals(struct view *v);
/* A row's cost cells for those events (c: real events' costs), of
 * tui_totals(v). */
void tui_cost_cells(struct view *v, int y, const int *ev, int n, const cost_t *c);
/* A call count and `after` ("x") in at most w columns: rounded to thousands,
 * millions... (k, M, G...) when the digits do not fit, never cut. */
void tui_fit_calls(char *b, size_t n, long long v, int w, const char *after);

/* A difference's costs of one row for the sort event: each side's (A, B)
 * and whether the row's function (or call) is in it, the sides' totals,
 * and the difference's own (B-A, what its rows are ordered by). */
struct tui_abd {
	cost_t a, b, d, atot, btot;
	int ina, inb;
};
/* Function fn's inclusive (incl) or self cost in each side and B-A (the
 * difference's own: agg_take_side), for the sort event: 0 when t->p is
 * no difference or a side cannot be loaded (tui_side), else 1. */
int tui_side_costs(struct tui *t, uint32_t fn, int incl, struct tui_abd *c);
/* The change from A to B: "+12.5%" of A (|A|), "new" (not in A), "gone"
 * (not in B), "from 0" (in A at 0), a wide one "+1234%" or "+huge"; in at
 * most TUI_CHANGE columns. */
#define TUI_CHANGE 7
void fmt_change(char *b, size_t n, const struct tui_abd *c);
/* The cells of a difference's row: A and B (blank when the row is not in
 * that side; with percentages, shares of that side's total), B-A (with
 * heat bars on, its bar, of the larger side's total) and with `change` the
 * change; counts nw columns wide.  Their columns, gaps included: */
int tui_diff_width(const struct tui *t, int nw, int change);
/* nw for the pane being drawn: percentages and the bar left out (t->slim)
 * and then counts rounded while the text column after the cells and
 * `fixed` columns more would have fewer than TUI_NAME_ROOM of width. */
int tui_diff_fit(struct tui *t, int width, int fixed, int change);
/* Their header at (y, x): "Incl Ir A" (kind, the sort event, the side), as
 * much of it as fits. */
void tui_diff_header(struct tui *t, int y, int x, int nw, int change, const char *kind);
void tui_diff_cells(struct tui *t, int y, int x, int nw, int change, const struct tui_abd *c);

/* colour pairs (config.c sets them from the defaults and the user's file) */
enum { COL_FILE = 1, COL_HOT = 2, COL_NEGATIVE = 3, COL_BAR_LOW = 4, COL_BAR_MID = 5,
       COL_BAR_HIGH = 6 };
void tui_config(struct tui *t);
void tui_colors(struct tui *t);

/* What the explorer is run with. */
struct tui_args {
	const struct tui_loader *loader;
	const char *const *src_dirs;    /* where sources are looked for */
	int nsrc_dirs;
	const struct tui_start *start;  /* the command line's settings, or NULL */
	const struct tui_live *live;    /* a program being recorded, or NULL */
	struct loading *from;           /* the loading screen shown, or NULL */
};
/* Runs the explorer until the user quits; returns the exit status. */
int tui_run(struct profile *p, const struct tui_args *args);
/* Writes the key table: as --keys shows it, as the man page's roff, or
 * the first key of each view (for the tests). */
enum keys_format { KEYS_TEXT, KEYS_MAN, KEYS_VIEWS };
void tui_print_keys(FILE *f, enum keys_format fmt);

#endif
