/* tui_int.h -- what the explorer's own files share (frame, keys, list,
 * input, actions, live data); the views see only tui.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_TUI_INT_H
#define CGTUI_TUI_INT_H

#include <signal.h>

#include "tui.h"

#define MIN_COLS 40
#define MIN_LINES 8

/* SIGINT, SIGTERM or SIGHUP received (the one state a signal handler sets) */
extern volatile sig_atomic_t tui_got_signal;

/* keys.c: the key table */
int key_code(const char *name, size_t len);
enum action key_action(int code);
/* The view action a opens (keys.h's view column), NULL for none; *on_fn
 * says it opens on the selected function. */
const struct view_ops *key_view(enum action a, int *on_fn);
/* Does action a need calls (nothing to show on a profile without them,
 * query_has_calls): the call tree, callers tree, call graph and call map,
 * and inclusive costs? */
int action_needs_calls(enum action a);

/* list.c: views, history and searching */
void view_free(struct view *v);
void refresh_all(struct tui *t);
/* Does pat compile?  Says why not on the status line. */
int tui_pattern_ok(struct tui *t, const char *pat);
void search(struct tui *t, int dir);

/* input.c: keys from the terminal or a script, questions */
int next_key(struct tui *t);
/* Reads a line on the status line (a line editor with a history per
 * prompt; Tab completes function names when complete); NULL when
 * cancelled. */
char *prompt(struct tui *t, const char *what, int complete);
int ask(struct tui *t, const char *question);
/* The same, returning the key answered (-1: Ctrl-C or a signal). */
int ask_key(struct tui *t, const char *question);
void resized(struct tui *t);
void tui_script_close(struct tui *t);

/* tui.c: the terminal taken for the explorer (a SCREEN *; in the headless
 * mode on *devnull), NULL with the reason in *why; its modes set */
void *tui_open_screen(struct tui *t, FILE **devnull, const char **why);
void tui_screen_modes(struct tui *t);
/* endwin, when curses has the terminal (a fatal error's, at exit) */
void tui_restore_terminal(void);
/* The command line's settings over the configuration's (tui_start). */
void tui_apply_start(struct tui *t, const struct tui_start *s);

/* frame.c: drawing */
void draw(struct tui *t);
/* What p is: "NEW minus BASE" (each side's first file) for a
 * difference, else its command (or its first file). */
void diff_label(const struct profile *p, char *buf, size_t n);
int row_of_fn(struct view *v, uint32_t fn);

/* actions.c */
/* What the functions list is ordered by (t->set.order): "cost", "calls",
 * "name" or "file". */
const char *fn_order_name(int order);
void act(struct tui *t, enum action a);
void mouse(struct tui *t);
void switch_parts(struct tui *t);
void switch_compare(struct tui *t);
/* live.c */
/* The profile loaded again (newer data of the running program, other
 * parts): every view kept shows it, on the same function, with the same
 * function selected where it still is (else the same row), scrolled the
 * same.  0, or -1 with the loader's message shown. */
int tui_reload(struct tui *t);
void swap_profile(struct tui *t, struct profile *np);

/* live.c: a program being recorded */
void live_tick(struct tui *t, int wait, const char *fn);
void live_stop(struct tui *t);
/* U, Z, p: a snapshot now, the counts zeroed, counting paused or resumed */
void live_control(struct tui *t, enum action a);

#endif
