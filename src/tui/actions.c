/* actions.c -- what the keys do that no view does itself: moving, opening
 * the views of the key table, settings (sort event, threshold, cycles,
 * folding, parts), searching and filtering, defining events, quitting.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile/aggregate.h"
#include "profile/format.h"
#include "profile/query.h"
#include "profile/timeline.h"
#include "tui_int.h"

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


/* z: the lists keep only one object, file or class (scope.h), or (zoomed)
 * the whole run again; a step of the history, so Esc zooms back.  A view of
 * one function opens the functions in the scope. */
static void zoom(struct tui *t)
{
	struct view *v = tui_view(t);
	struct scope s[3];
	int n = 0;
	if (v->scope.kind != SCOPE_ALL)
		s[n++] = (struct scope){ .kind = SCOPE_ALL, .id = NO_ID };
	else if (v->ops->selected_scope && v->nrows && v->ops->selected_scope(v, &s[0]))
		n = 1;
	else {
		uint32_t fn = v->ops->selected_fn ? v->ops->selected_fn(v) : v->fn;
		const struct agg *a = profile_agg(t->p);
		if (fn != NO_ID && agg_is_cycle(a, fn)) {
			tui_message(t, "z: a cycle's members may be in several objects, files and "
				       "classes: zoom from one of them");
			return;
		}
		if (fn == NO_ID || !(n = scope_of_fn(t->p, fn, s, 3))) {
			tui_message(t, "z: no function selected");
			return;
		}
	}
	int k = 0;
	if (n > 1) {
		char q[512];
		static const char key[] = "ofc";
		size_t ql = (size_t)snprintf(q, sizeof(q), "zoom to:");
		for (int i = 0; i < n; i++) {
			/* paths by their last part: every choice fits the line */
			char *l = scope_label(t->p, &s[i]), *sp = strchr(l, ' ');
			const char *slash = s[i].kind != SCOPE_CLASS && sp ? strrchr(sp, '/') : NULL;
			if (ql < sizeof(q))
				ql += (size_t)snprintf(q + ql, sizeof(q) - ql, "%s %c: %.*s%s", i ? "," : "",
						       key[s[i].kind - SCOPE_OBJECT], (int)(sp - l + 1), l,
						       slash && slash[1] ? slash + 1 : sp + 1);
			free(l);
		}
		if (ql < sizeof(q))
			snprintf(q + ql, sizeof(q) - ql, " (Esc: no)");
		int c = ask_key(t, q);
		for (k = 0; k < n && (c < 0 || c != key[s[k].kind - SCOPE_OBJECT]); k++)
			;
		if (k == n) {
			for (int i = 0; i < n; i++)
				scope_clear(&s[i]);
			return;
		}
	}
	s[k].ir0 = v->scope.ir0; /* the time range stays */
	s[k].ir1 = v->scope.ir1;
	const struct view_ops *ops = v->ops->scoped ? v->ops : &functions_ops;
	tui_push(t, view_new_in(t, ops, v->ops->scoped ? v->fn : NO_ID, &s[k]));
	char *l = scope_label(t->p, &s[k]);
	tui_message(t, s[k].kind == SCOPE_ALL ? "the whole run again (Esc: zoomed in again)"
					      : "zoomed to %s (z: the whole run, Esc: back)", l);
	free(l);
	for (int i = 0; i < n; i++)
		scope_clear(&s[i]);
}

/* b, w: the view's names and text scrolled sideways by a step (rows whose
 * text is shorter show only the mark that some is left out) */
#define SCROLL_STEP 8
#define SCROLL_MAX 1000
static void scroll_text(struct tui *t, struct view *v, int dir)
{
	if (!v->ops->scrolls) {
		tui_message(t, "b and w scroll names and source text; this view has none");
		return;
	}
	int h = v->hscroll + dir * SCROLL_STEP;
	v->hscroll = h < 0 ? 0 : h > SCROLL_MAX ? SCROLL_MAX : h;
	if (v->hscroll)
		tui_message(t, "names and text scrolled by %d columns (b: back)", v->hscroll);
	else
		tui_message(t, "names and text from their first column");
}

/* An action of the key table that opens a view: on the selected
 * function (else the view's) when the table says so. */
static void open_key_view(struct tui *t, enum action a, const struct view_ops *ops, int on_fn)
{
	struct view *v = tui_view(t);
	/* (areas and widths stand for costs: a difference's may be negative,
	 * and its callees' changes need not add up within their caller's) */
	if (t->p->ndiff && (ops == &callmap_ops || ops == &flame_ops)) {
		tui_message(t, "the %s draws costs as %s, a difference's changes may be negative: "
			       "A shows either side alone", ops == &flame_ops ? "flame graph" : "call map",
			    ops == &flame_ops ? "widths" : "areas");
		return;
	}
	if (!query_has_calls(t->p) && action_needs_calls(a)) {
		tui_message(t, "the profile records no calls (Cachegrind's do not): no call tree, "
			       "graph or map; f, u and m group the costs by file and function");
		return;
	}
	if (!on_fn) {
		open_view(t, ops, NO_ID);
		return;
	}
	uint32_t fn = v->ops->selected_fn ? v->ops->selected_fn(v) : v->fn;
	if (fn == NO_ID && on_fn == 2)
		open_view(t, ops, NO_ID);
	else if (fn == NO_ID)
		tui_message(t, "no function selected");
	else if ((ops != &source_ops && ops != &asm_ops) || !cycle_has_no_code(t, fn))
		open_view(t, ops, fn);
	(void)a;
}

/* A: can the loads become a difference?  Says why not. */
static int can_compare(struct tui *t)
{
	if (!t->loader || !t->loader->compare) {
		tui_message(t, "A: this profile cannot be loaded again");
		return 0;
	}
	if (t->live && t->live->running(t->live->arg)) {
		tui_message(t, "A: compare once the program has ended (its profile changes meanwhile)");
		return 0;
	}
	return 1;
}

const char *fn_order_name(int order)
{
	static const char *const what[] = { "cost", "calls", "name", "file" };
	return order > 0 && order < 4 ? what[order] : what[0];
}

void act(struct tui *t, enum action a)
{
	struct view *v = tui_view(t);
	if (v->ops->action && v->ops->action(v, a))
		return;
	int on_fn;
	const struct view_ops *ops = key_view(a, &on_fn);
	if (a == ACT_COMPARE && !can_compare(t))
		return;
	if (ops && (a != ACT_LOG || t->live)) {
		open_key_view(t, a, ops, on_fn);
		return;
	}
	if (list_action(v, a))
		return;
	switch (a) {
	case ACT_BACK:
	case ACT_LEFT: /* (trees, the call graph and map took it first) */
		if (t->cur > 0)
			t->cur--;
		else
			tui_message(t, "the first view: nothing to go back to (q quits)");
		break;
	case ACT_RIGHT:
		act(t, ACT_ENTER);
		break;
	case ACT_FORWARD:
		if (t->cur + 1 < t->nhist)
			t->cur++;
		else
			tui_message(t, "the last view: nothing to go forward to (l goes forward after Esc)");
		break;
	case ACT_ZOOM: zoom(t); break;
	case ACT_SCROLL_RIGHT:
	case ACT_SCROLL_LEFT:
		scroll_text(t, v, a == ACT_SCROLL_RIGHT ? 1 : -1);
		break;
	case ACT_CYCLES: set_cycles(t, !t->set.cycles); break;
	case ACT_FOLD: fold(t); break;
	case ACT_SORT_NEXT:
	case ACT_SORT_PREV:
		t->set.sort_event = (t->set.sort_event + (a == ACT_SORT_NEXT ? 1 : -1) + t->p->nevents) %
				    t->p->nevents;
		tui_message(t, "sorted by %s", t->p->ev[t->set.sort_event].name);
		refresh_all(t);
		break;
	case ACT_INCLUSIVE:
		if (!query_has_calls(t->p)) {
			/* nothing to toggle: the setting stays as it is */
			tui_message(t, "this profile has no calls: a function's inclusive cost is "
				       "its self cost");
			break;
		}
		t->set.inclusive = !t->set.inclusive;
		tui_message(t, "functions ordered by %s cost%s", t->set.inclusive ? "inclusive" : "self",
			    tui_view(t)->scope.ir1 && tui_view(t)->ops->timed
				    ? " (a time range has self costs only: this view stays so)"
				    : "");
		refresh_all(t);
		break;
	case ACT_RELATIVE:
		t->set.relative = !t->set.relative;
		tui_message(t, "percentages of %s", t->set.relative ? "the function shown" : "the total");
		refresh_all(t); /* the source view shows the function's own costs then */
		break;
	case ACT_DEFINE: {
		char *s = prompt(t, "new event (NAME = FORMULA): ", 0), err[256];
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
	case ACT_ORDER:
		t->set.order = (t->set.order + 1) % 4;
		tui_message(t, "functions ordered by %s", fn_order_name(t->set.order));
		refresh_all(t);
		break;
	case ACT_PERCENT:
		t->set.percent = !t->set.percent;
		break;
	case ACT_TEMPLATES:
		t->set.fold_templates = !t->set.fold_templates;
		tui_message(t, "template arguments %s", t->set.fold_templates ? "folded" : "shown");
		refresh_all(t);
		break;
	case ACT_BARS:
		t->set.bars = !t->set.bars;
		tui_message(t, "heat bars %s", t->set.bars ? "on" : "off");
		break;
	case ACT_THR_UP: step_threshold(t, 1); break;
	case ACT_THR_DOWN: step_threshold(t, -1); break;
	case ACT_LOOKUP: {
		char *s = prompt(t, "source directory, or FROM=TO to substitute: ", 0);
		if (s && *s)
			add_lookup(t, s);
		free(s);
		break;
	}
	case ACT_SEARCH: {
		char *s = prompt(t, "/", 1);
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
		char *s = prompt(t, "show only: ", 1);
		if (!s)
			break;
		free(v->filter);
		v->filter = *s ? s : NULL;
		if (!*s)
			free(s);
		if (v->filter && !tui_pattern_ok(t, v->filter)) {
			free(v->filter);
			v->filter = NULL;
			break;
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
	case ACT_LOG: /* (with a program, the key table's view) */
		tui_message(t, "no program recorded here (cgtui PROGRAM records one)");
		break;
	case ACT_SNAPSHOT:
	case ACT_ZERO:
	case ACT_PAUSE:
		live_control(t, a);
		break;
	/* keys of other views: say where they work (the views that take them
	 * handled them above) */
	case ACT_HOTTEST:
	case ACT_HOT_NEXT:
	case ACT_HOT_PREV:
	case ACT_CTX_MORE:
	case ACT_CTX_LESS:
		if (a == ACT_CTX_MORE || a == ACT_CTX_LESS)
			tui_message(t, "this key works in the source and assembly views (s, a) and "
				       "the call graph (4)");
		else
			tui_message(t, "this key works in the source and assembly views (s, a)");
		break;
	case ACT_TOGGLE:
		tui_message(t, "x works in the events (e) and parts (P) views");
		break;
	case ACT_EXPAND:
	case ACT_EXPAND_ALL:
	case ACT_COLLAPSE_ALL:
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

/* A click selects a row (a double click opens it); the wheel scrolls.  In
 * a picture (call graph, call map) a click selects the box or rectangle
 * under it, and a double click, or a click on the one already selected,
 * does what Enter does (re-centres, zooms in); the wheel moves as the
 * arrows. */
void mouse(struct tui *t)
{
	MEVENT ev;
	if (getmouse(&ev) != OK)
		return;
	struct view *v = tui_view(t);
	if (v->ops->draw) {
		if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
			act(t, ev.bstate & BUTTON4_PRESSED ? ACT_UP : ACT_DOWN);
			return;
		}
		int row = v->ops->hit && ev.bstate & (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED)
				  ? v->ops->hit(v, ev.x, ev.y)
				  : -1;
		if (row < 0 || row >= v->nrows)
			return;
		int again = row == v->sel;
		v->sel = row;
		if (again || ev.bstate & BUTTON1_DOUBLE_CLICKED)
			act(t, ACT_ENTER);
		return;
	}
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

/* Puts np in place of the profile shown: the events chosen are kept by
 * name, the formulas defined here defined again. */
void swap_profile(struct tui *t, struct profile *np)
{
	char err[512];
	char *sort_name = xstrdup(t->p->ev[t->set.sort_event].name);
	char *shown[MAX_EVENTS] = { 0 };
	for (int j = 0; j < t->set.nshow; j++)
		shown[j] = xstrdup(t->p->ev[t->set.show[j]].name);
	int nshown = t->set.nshow;
	profile_free(t->p);
	tui_sides_free(t); /* (those of the profile replaced) */
	*t->p = *np;
	timeline_free(t->tl); /* read again for the new data */
	t->tl = NULL;
	t->tl_read = 0;
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
	view_free(t->detail_prev);
	t->detail = t->detail_prev = NULL;
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
	if (t->loader->load(t->loader->arg, &np, err, sizeof(err)) < 0) {
		*t->loader->fold = !*t->loader->fold;
		tui_message(t, "%s", err);
		return;
	}
	start_over(t, &np);
	tui_message(t, *t->loader->fold ? "recursion levels and caller contexts folded: f'2 and "
					  "f'caller are f (R: apart again)"
					: "recursion levels and caller contexts apart again");
}

/* The step the compare view asked for (t->want_compare): the session's
 * sides changed, every view loaded again on its function (tui_reload);
 * the step undone when the load fails.  The compare view is left. */
void switch_compare(struct tui *t)
{
	int op = t->want_compare;
	char *with = t->compare_with;
	t->want_compare = 0;
	t->compare_with = NULL;
	if (!can_compare(t)) {
		free(with);
		return;
	}
	if (op == TUI_CMP_WITH && !with) {
		with = prompt(t, "compare with (a profile, or a run's name): ", 0);
		if (!with || !*with) {
			free(with);
			return;
		}
	}
	char err[512];
	if (t->loader->compare(t->loader->arg, op, with, err, sizeof(err)) < 0) {
		tui_message(t, "%s", err);
		free(with);
		return;
	}
	free(with);
	if (t->cur > 0 && tui_view(t)->ops == &compare_ops)
		t->cur--;
	if (tui_reload(t) < 0) {
		char msg[sizeof(t->message)];
		memcpy(msg, t->message, sizeof(msg));
		t->loader->compare(t->loader->arg, TUI_CMP_UNDO, NULL, err, sizeof(err));
		tui_message(t, "%s", msg);
		return;
	}
	char what[512];
	diff_label(t->p, what, sizeof(what));
	tui_message(t, "%s (A: %s)", what,
		    t->p->ndiff ? "swap the sides, or one alone" : "compare with another");
}

/* Loads the profile again with the parts chosen (t->want, made the
 * session's): one alone (Enter) starts over from the list of functions;
 * parts added or taken out one by one keep every view, the parts view on
 * top, each on its function (tui_reload). */
void switch_parts(struct tui *t)
{
	int keep = t->want_parts == 2;
	t->want_parts = 0;
	struct partset want = t->want;
	t->want = (struct partset){ 0 };
	int same = 1;
	for (int k = 1; k <= t->p->nparts; k++)
		same &= partset_has(t->p, &want, k) == part_shown(t->p, k);
	if (!t->loader || !t->loader->parts || same) {
		partset_clear(&want);
		return;
	}
	struct partset old = *t->loader->parts;
	*t->loader->parts = want;
	struct profile np;
	char err[512];
	int rc = keep ? tui_reload(t) : t->loader->load(t->loader->arg, &np, err, sizeof(err));
	if (rc < 0) {
		partset_clear(t->loader->parts);
		*t->loader->parts = old;
		if (!keep)
			tui_message(t, "%s", err);
		return;
	}
	partset_clear(&old);
	if (!keep)
		start_over(t, &np);
	char pl[256];
	parts_shown_label(pl, sizeof(pl), t->p);
	if (parts_all_shown(t->p))
		tui_message(t, "showing all %s", pl);
	else
		tui_message(t, "showing %s%s (P: parts)", pl, strchr(pl, ':') ? "" : " only");
}

