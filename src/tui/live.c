/* live.c -- the profile loaded again without losing the user's place
 * (tui_reload: other parts, newer data); a program being recorded: newer
 * data loaded four times a second (less when loading takes long) into
 * every view that way, stopping the program, and the script's waits.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profile/aggregate.h"
#include "tui_int.h"

/* ---- a program being recorded ---------------------------------------------------------- */


uint32_t tui_same_fn(const struct profile *p, uint32_t fn, const struct profile *np)
{
	return fn == NO_ID || fn >= p->nfns ? NO_ID : profile_fn_like(np, p, fn);
}

/* ---- a difference's sides alone ----------------------------------------------------------- */

/* Side k's maps of t->p's functions and real events (tui_side_fn,
 * side_cost): a text index look-up each, once, not at every row drawn */
static void side_maps(struct tui *t, int k)
{
	const struct profile *s = t->side[k];
	uint32_t *m = xmalloc(((size_t)t->p->nfns + 1) * sizeof(*m));
	for (uint32_t f = 0; f < t->p->nfns; f++)
		m[f] = tui_same_fn(t->p, f, s);
	t->side_fn[k] = m;
	int *e = xmalloc(((size_t)t->p->nreal + 1) * sizeof(*e));
	for (int r = 0; r < t->p->nreal; r++) {
		int se = tui_side_event(t, s, r);
		e[r] = se < s->nreal ? se : -1;
	}
	t->side_ev[k] = e;
}

struct profile *tui_side(struct tui *t, int side)
{
	struct profile **s = &t->side[side - 1];
	if (!*s && !t->side_tried[side - 1] && t->p->ndiff && t->loader && t->loader->load_side) {
		char err[512];
		struct partset ps = { 0 };
		t->side_tried[side - 1] = 1;
		/* (a side none of whose parts is shown: the difference alone) */
		int some = diff_side_parts(t->p, side, &ps);
		struct profile *np = some >= 0 ? xmalloc(sizeof(*np)) : NULL;
		int rc = np ? t->loader->load_side(t->loader->arg, side, some ? &ps : NULL, np, err,
						   sizeof(err))
			    : -1;
		partset_clear(&ps);
		if (rc < 0) {
			if (np)
				tui_message(t, "the %s side alone: %s", side == 1 ? "first" : "second",
					    err);
			free(np);
			return NULL;
		}
		profile_index_fn_text(np); /* for tui_same_fn(), once */
		*s = np;
		side_maps(t, side - 1);
	}
	if (*s && !profile_agg(*s)->cycles != !t->set.cycles)
		profile_set_cycles(*s, t->set.cycles);
	for (; *s && t->side_userev[side - 1] < t->nuserev; t->side_userev[side - 1]++) {
		char err[256]; /* (the events defined with E, since too) */
		profile_define_event_text(*s, t->userev[t->side_userev[side - 1]], err, sizeof(err));
	}
	return *s;
}

uint32_t tui_side_fn(struct tui *t, int side, uint32_t fn)
{
	return tui_side(t, side) && fn < t->p->nfns ? t->side_fn[side - 1][fn] : NO_ID;
}

int tui_side_event(const struct tui *t, const struct profile *s, int ev)
{
	for (int e = 0; e < s->nevents; e++)
		if (!strcmp(s->ev[e].name, t->p->ev[ev].name))
			return e;
	return -1;
}

/* Side k's cost row of its function sf (NULL: none) */
static const cost_t *side_row(struct tui *t, int k, uint32_t sf, int incl)
{
	if (sf == NO_ID)
		return NULL;
	const struct agg *a = profile_agg(t->side[k]);
	return incl ? agg_incl(a, sf) : agg_self(a, sf);
}

/* fn's cost in side k (NO_ID: not there) of the difference's event ev */
static cost_t side_cost(struct tui *t, int k, uint32_t fn, int incl, int ev, int *in, cost_t *tot)
{
	const struct profile *s = t->side[k - 1];
	int se = tui_side_event(t, s, ev);
	*in = fn != NO_ID;
	*tot = se < 0 ? 0 : event_value(s, s->totals, se);
	return se < 0 || fn == NO_ID ? 0 : event_value(s, side_row(t, k - 1, fn, incl), se);
}

int tui_side_costs(struct tui *t, uint32_t fn, int incl, struct tui_abd *c)
{
	if (!t->p->ndiff || !tui_side(t, 1) || !tui_side(t, 2))
		return 0;
	int ev = t->set.sort_event;
	const struct agg *a = profile_agg(t->p);
	c->a = side_cost(t, 1, tui_side_fn(t, 1, fn), incl, ev, &c->ina, &c->atot);
	c->b = side_cost(t, 2, tui_side_fn(t, 2, fn), incl, ev, &c->inb, &c->btot);
	c->d = event_value(t->p, incl ? agg_incl(a, fn) : agg_self(a, fn), ev);
	return 1;
}

void tui_sides_free(struct tui *t)
{
	for (int k = 0; k < 2; k++) {
		if (t->side[k])
			profile_free(t->side[k]);
		free(t->side[k]);
		free(t->side_fn[k]);
		free(t->side_ev[k]);
		t->side[k] = NULL;
		t->side_fn[k] = NULL;
		t->side_ev[k] = NULL;
		t->side_tried[k] = 0;
		t->side_userev[k] = 0;
	}
}

int tui_reload(struct tui *t)
{
	struct profile np;
	char err[512];
	if (t->loader->load(t->loader->arg, &np, err, sizeof(err)) < 0) {
		tui_message(t, "%s", err);
		return -1;
	}
	profile_index_fn_text(&np); /* for tui_same_fn(), once */
	uint32_t *fn = xcalloc((size_t)t->nhist + 1, sizeof(*fn));
	uint32_t *selfn = xcalloc((size_t)t->nhist + 1, sizeof(*selfn));
	for (int i = 0; i < t->nhist; i++) {
		struct view *v = t->hist[i];
		fn[i] = tui_same_fn(t->p, v->fn, &np);
		selfn[i] = v->ops->selected_fn && v->nrows
				   ? tui_same_fn(t->p, v->ops->selected_fn(v), &np)
				   : NO_ID;
		if (v->ops->renew)
			v->ops->renew(v, &np);
		scope_move(&v->scope, t->p, &np); /* zoomed: the same object or file */
		free(v->zself);
		v->zself = NULL;
	}
	view_free(t->detail);
	view_free(t->detail_prev);
	t->detail = t->detail_prev = NULL;
	swap_profile(t, &np);
	for (int i = 0; i < t->nhist; i++) {
		struct view *v = t->hist[i];
		int sel = v->sel, off = v->sel - v->top;
		if (v->fn != NO_ID && fn[i] == NO_ID) /* gone: keep the view, empty */
			fn[i] = 0;
		v->fn = fn[i];
		v->stale = 0;
		if (v->ops->renew) { /* it keeps its place itself */
			v->ops->update(v);
		} else {
			/* rows made anew: a view's data may point into the old
			 * profile (trees start closed again) */
			if (v->ops->free)
				v->ops->free(v);
			v->data = NULL;
			v->ops->update(v);
			int r = row_of_fn(v, selfn[i]);
			v->sel = r >= 0 ? r : sel;
		}
		v->top = v->sel - off;
		list_goto(v, v->sel);
	}
	free(fn);
	free(selfn);
	return 0;
}


/* Stops the program (after asking); the last data is loaded. */
void live_stop(struct tui *t)
{
	tui_message(t, "stopping the program ...");
	draw(t);
	t->live->stop(t->live->arg);
	if (t->live->poll(t->live->arg))
		tui_reload(t);
	char st[128];
	t->live->state(t->live->arg, st, sizeof(st));
	tui_message(t, "the program %s; the profile so far is kept", st);
}

/* U, Z, p: a snapshot now, the counts zeroed, counting paused or resumed
 * (the answer comes later: live_tick) */
void live_control(struct tui *t, enum action a)
{
	if (!t->live) {
		tui_message(t, "no program recorded here (cgtui PROGRAM records one)");
		return;
	}
	if (!t->live->control || !t->live->running(t->live->arg)) {
		tui_message(t, "the program has ended: nothing to control");
		return;
	}
	if (a == ACT_ZERO && !ask(t, "Zero the counts so far? (y/n)"))
		return;
	char msg[256];
	t->live->control(t->live->arg, a == ACT_SNAPSHOT ? "dump" : a == ACT_ZERO ? "zero" : "pause", msg,
			 sizeof(msg));
	tui_message(t, "%s", msg);
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
 * is in the data, 4 until the answer to a live control has come). */
void live_tick(struct tui *t, int wait, const char *fn)
{
	struct timespec now;
	if (!t->live)
		return;
	int reloads0 = t->nreloads, notices0 = t->nnotices;
	/* a poll made after the program had ended found nothing newer: the
	 * final profile is loaded (polling is not repeated to find out: the
	 * poll that sees the end hands over the final profile once) */
	int all_loaded = 0;
	for (int waited = 0;; waited += 20) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		double ms = (double)(now.tv_sec - t->live_last.tv_sec) * 1e3 +
			    (double)(now.tv_nsec - t->live_last.tv_nsec) / 1e6;
		/* the answer to a live control (U Z p): what it made (a snapshot)
		 * is there now, the poll below loads it */
		const char *answer = t->live->notice ? t->live->notice(t->live->arg) : NULL;
		if (answer) {
			tui_message(t, "%s", answer);
			t->nnotices++;
			ms = 1e9;
		}
		/* four times a second, or less when reloading takes long (a big
		 * profile): the explorer stays responsive */
		if (wait || (ms >= 250 && ms >= 4 * t->reload_ms)) {
			t->live_last = now;
			int was = t->live->running(t->live->arg);
			int polled = t->live->poll(t->live->arg);
			all_loaded = !was && !polled;
			if (polled) {
				tui_reload(t);
				t->nreloads++;
				struct timespec end;
				clock_gettime(CLOCK_MONOTONIC, &end);
				t->reload_ms = (double)(end.tv_sec - now.tv_sec) * 1e3 +
					    (double)(end.tv_nsec - now.tv_nsec) / 1e6;
			}
			if (was && !t->live->running(t->live->arg)) {
				char st[128];
				t->live->state(t->live->arg, st, sizeof(st));
				tui_message(t, "the program %s", st);
			}
		}
		if (!wait || waited > 120000 || tui_got_signal ||
		    (wait == 1 && all_loaded) ||
		    (wait == 2 && t->nreloads > reloads0 && t->p->nreal && t->p->totals[0] > 0) ||
		    (wait == 2 && !t->live->running(t->live->arg)) ||
		    (wait == 3 && (has_fn(t->p, fn) || !t->live->running(t->live->arg))) ||
		    (wait == 4 && (t->nnotices > notices0 || !t->live->running(t->live->arg))))
			break;
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

