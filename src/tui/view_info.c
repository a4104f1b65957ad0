/* view_info.c -- two small views: the events (choose the sort event and the
 * shown ones) and the summary (command, creator, events, totals, recorded
 * contexts and their cost on paths cut short, desc lines, parts, warnings).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/context.h"
#include "profile/format.h"
#include "tui.h"

/* ---- events ------------------------------------------------------------------------ */

static void ev_refresh(struct view *v)
{
	v->nrows = v->t->p->nevents;
}

static int shown(struct tui *t, int e)
{
	for (int k = 0; k < t->set.nshow; k++)
		if (t->set.show[k] == e)
			return 1;
	return 0;
}

/* The totals' column: as wide as the widest, so that the meanings have the
 * room that is left (at 80 columns, Valgrind's longest one) */
static int total_width(struct tui *t)
{
	int w = 5;
	for (int e = 0; e < t->p->nevents; e++) {
		char tot[48];
		format_count(tot, sizeof(tot), event_value(t->p, t->p->totals, e));
		if ((int)strlen(tot) > w)
			w = (int)strlen(tot);
	}
	return w;
}

/* The names' column: as wide as the longest (Instructions, inuse_space(MB)),
 * 11 columns at least and 24 at most */
static int name_width(struct tui *t)
{
	int w = 11;
	for (int e = 0; e < t->p->nevents; e++) {
		int n = tui_width(t, t->p->ev[e].name);
		if (n > w)
			w = n < 24 ? n : 24;
	}
	return w;
}

static void ev_header(struct view *v, int y, int width)
{
	int tw = total_width(v->t), x = 11 + name_width(v->t);
	tui_put(v->t, y, 0, width, "Show Sort Event");
	tui_put_right(v->t, y, x, tw, "Total");
	tui_put(v->t, y, x + tw + 2, width - x - tw - 2, "Meaning");
}

static void ev_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	const struct event_def *e = &p->ev[row];
	char tot[48];
	format_count(tot, sizeof(tot), event_value(p, p->totals, row));
	tui_put(t, y, 1, 3, shown(t, row) ? "[x]" : "[ ]");
	tui_put(t, y, 6, 1, t->set.sort_event == row ? "*" : " ");
	int nw = name_width(t), tw = total_width(t), x = 11 + nw;
	tui_put(t, y, 10, nw, e->name);
	tui_put_right(t, y, x, tw, tot);
	/* a formula; else the profile's long name; else what Valgrind's
	 * events of that name count */
	const char *known = event_meaning(e->name);
	char *m = e->formula ? xasprintf("= %s", e->formula)
		  : xstrdup(e->longname ? e->longname : known ? known : "");
	tui_put(t, y, x + tw + 2, width - x - tw - 2, m);
	free(m);
	(void)sel;
}

static const char *ev_text(struct view *v, int row)
{
	return v->t->p->ev[row].name;
}

static int ev_action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	if (a == ACT_ENTER) {
		t->set.sort_event = v->sel;
		tui_message(t, "sorted by %s", t->p->ev[v->sel].name);
		for (int i = 0; i < t->nhist; i++)
			if (t->hist[i] != v)
				t->hist[i]->stale = 1;
		return 1;
	}
	if (a == ACT_TOGGLE) {
		int e = v->sel, k;
		for (k = 0; k < t->set.nshow; k++)
			if (t->set.show[k] == e)
				break;
		if (k < t->set.nshow) {
			memmove(&t->set.show[k], &t->set.show[k + 1],
				sizeof(int) * (size_t)(t->set.nshow - k - 1));
			t->set.nshow--;
		} else if (t->set.nshow < MAX_EVENTS) {
			t->set.show[t->set.nshow++] = e;
		}
		return 1;
	}
	return 0;
}

const struct view_ops events_ops = {
	.name = "events",
	.hint = "Enter:sort by it  x:show/hide  E:define a formula  Esc:back  ?:help",
	.update = ev_refresh,
	.draw_row = ev_row,
	.draw_header = ev_header,
	.row_text = ev_text,
	.action = ev_action,
};

/* ---- summary --------------------------------------------------------------------------- */

struct lines {
	char **s;
	int n, cap;
};

static void line(struct lines *l, char *s)
{
	VEC_RESERVE(l->s, l->cap, l->n + 1);
	l->s[l->n++] = s;
}

static void sum_free(struct view *v)
{
	struct lines *l = v->data;
	if (!l)
		return;
	for (int i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	free(l);
	v->data = NULL;
}

/* Has part i a command no part before it has? */
static int new_cmd(const struct profile *p, int i)
{
	const char *c = p->parts[i].cmd;
	for (int j = 0; c && j < i; j++)
		if (p->parts[j].cmd && strcmp(c, p->parts[j].cmd) == 0)
			return 0;
	return c != NULL;
}

static void sum_refresh(struct view *v)
{
	struct profile *p = v->t->p;
	sum_free(v);
	struct lines *l = xcalloc(1, sizeof(*l));
	/* one command, or each part's when they differ (a difference, a merge
	 * of several programs' profiles), with the file it came from */
	int ncmd = 0;
	for (int i = 0; i < p->nparts; i++)
		ncmd += new_cmd(p, i);
	if (ncmd < 2)
		line(l, xasprintf("Command:   %s", p->cmd ? p->cmd : "(not recorded)"));
	for (int i = 0, k = 0; ncmd > 1 && i < p->nparts; i++)
		if (new_cmd(p, i))
			line(l, xasprintf("%s%s  (%s)", k++ ? "           " : "Commands:  ",
					  p->parts[i].cmd, p->parts[i].source));
	line(l, xasprintf("Creator:   %s", p->creator ? p->creator : "(not recorded)"));
	if (v->t->live) {
		char st[128];
		v->t->live->state(v->t->live->arg, st, sizeof(st));
		line(l, xasprintf("Program:   %s", st));
	}
	for (int i = 0; i < p->nsources; i++)
		line(l, xasprintf("%s %s", i ? "          " : "Profile:  ", p->sources[i]));
	if (p->ndiff)
		line(l, xstrdup("Shown:     the difference, second profile minus first"));
	line(l, xstrdup(""));
	line(l, xstrdup("Events:"));
	for (int e = 0; e < p->nevents; e++) {
		char tot[48];
		format_count(tot, sizeof(tot), event_value(p, p->totals, e));
		line(l, xasprintf("  %-8s %20s  %s%s", p->ev[e].name, tot,
				  p->ev[e].formula ? "= " : "",
				  p->ev[e].formula ? p->ev[e].formula
						   : p->ev[e].longname ? p->ev[e].longname : ""));
	}
	/* the recorded calling contexts, and the cost on paths the recorder's
	 * bound cut short */
	struct cctx *rec = p->ndiff ? NULL : cctx_recorded(p, v->t->set.sort_event, 0);
	if (rec) {
		char *cut = cctx_cut_text(rec, v->t->set.sort_event);
		line(l, xstrdup(""));
		line(l, xasprintf("Contexts:  recorded, %s", cut ? cut : "no path cut short"));
		if (cut)
			line(l, xstrdup("           (--max-contexts: their calls are in shorter paths)"));
		free(cut);
		cctx_free(rec);
	}
	if (p->ndesc) {
		line(l, xstrdup(""));
		for (int i = 0; i < p->ndesc; i++)
			line(l, xasprintf("%s", p->desc[i]));
	}
	line(l, xstrdup(""));
	line(l, xasprintf("Parts:     %d", p->nparts));
	int *order = profile_parts_by_time(p);
	for (int j = 0; j < p->nparts; j++) {
		int i = order[j];
		const struct part_info *pi = &p->parts[i];
		char tot[48] = "(not loaded)";
		if (part_shown(p, i + 1)) /* else not read: no totals */
			format_count(tot, sizeof(tot), pi->totals[0]);
		line(l, xasprintf("  %s part %d  pid %ld  thread %ld  %s %s%s%s", pi->source,
				  pi->number ? pi->number : i + 1, pi->pid, pi->thread, p->ev[0].name,
				  tot, pi->trigger ? "  trigger: " : "", pi->trigger ? pi->trigger : ""));
	}
	free(order);
	if (p->nwarnings) {
		line(l, xstrdup(""));
		for (int i = 0; i < p->nwarnings; i++)
			line(l, xasprintf("warning: %s", p->warnings[i]));
	}
	v->data = l;
	v->nrows = l->n;
}

static void sum_row(struct view *v, int row, int y, int width, int sel)
{
	tui_put(v->t, y, 0, width, ((struct lines *)v->data)->s[row]);
	(void)sel;
}

static void sum_header(struct view *v, int y, int width)
{
	tui_put(v->t, y, 0, width, "Summary");
}

static const char *sum_text(struct view *v, int row)
{
	return ((struct lines *)v->data)->s[row];
}

const struct view_ops summary_ops = {
	.name = "summary",
	.hint = "Esc:back  P:parts  e:events  ?:help  q:quit",
	.update = sum_refresh,
	.draw_row = sum_row,
	.draw_header = sum_header,
	.row_text = sum_text,
	.free = sum_free,
};

/* ---- parts ------------------------------------------------------------------------------ */

/* Row 0 is all parts; the others are the parts in the order they ran
 * (profile_parts_by_time), each labelled with its file's part: number,
 * thread and time range.  Those shown (the session's set, scope.h) are
 * marked; Enter shows the selected part alone (row 0: all), Space and x add
 * it to those shown or take it out, * shows all. */
static void parts_update(struct view *v)
{
	free(v->data);
	v->data = profile_parts_by_time(v->t->p);
	v->nrows = v->t->p->nparts + 1;
}

static void parts_free(struct view *v)
{
	free(v->data);
	v->data = NULL;
}

/* the load index (1-based, as a part set counts) of row */
static int part_of_row(struct view *v, int row)
{
	return row ? ((int *)v->data)[row - 1] + 1 : 0;
}

static void parts_header(struct view *v, int y, int width)
{
	char *h = xasprintf("Shown Part   Pid      Thread  Basic blocks           %-14s Profile",
			    v->t->p->ev[0].name);
	tui_put(v->t, y, 0, width, h);
	free(h);
}

static void parts_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	int k = part_of_row(v, row);
	/* marked: the row of all parts, or each part shown of a set */
	int all = parts_all_shown(p), shown = k ? !all && part_shown(p, k) : all;
	tui_put(t, y, 1, 1, shown ? "*" : " ");
	if (row == 0) {
		tui_put(t, y, 6, width - 6, "all parts, added together");
		return;
	}
	const struct part_info *pi = &p->parts[k - 1];
	char tot[48] = "", range[80] = "", b0[32], b1[32];
	if (part_shown(p, k))
		format_count(tot, sizeof(tot), pi->totals[0]);
	if (pi->has_time) {
		format_count(b0, sizeof(b0), (cost_t)pi->time0);
		format_count(b1, sizeof(b1), (cost_t)pi->time1);
		snprintf(range, sizeof(range), "%s - %s", b0, b1);
	}
	char num[16];
	snprintf(num, sizeof(num), "%d", pi->number ? pi->number : k);
	char *s = xasprintf("%-6s %-8ld %-7ld %-22s %14s %s%s%s", num, pi->pid, pi->thread, range,
			    tot, pi->source, pi->trigger ? "  " : "", pi->trigger ? pi->trigger : "");
	tui_put(t, y, 6, width - 6, s);
	free(s);
	(void)sel;
}

static const char *parts_text(struct view *v, int row)
{
	return row ? v->t->p->parts[part_of_row(v, row) - 1].source : "all";
}

static int parts_action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	int k = part_of_row(v, v->sel);
	partset_clear(&t->want);
	switch (a) {
	case ACT_ENTER: /* this part alone, or all */
		if (k)
			partset_only(&t->want, k);
		t->want_parts = 1;
		return 1;
	case ACT_EXPAND_ALL:
		t->want_parts = 2;
		return 1;
	case ACT_TOGGLE:
		if (!k) { /* the row of all parts */
			t->want_parts = 2;
			return 1;
		}
		partset_of_profile(&t->want, t->p);
		partset_set(&t->want, t->p, k, !part_shown(t->p, k));
		for (int i = 1; i <= t->p->nparts; i++)
			if (partset_has(t->p, &t->want, i)) {
				t->want_parts = 2;
				return 1;
			}
		partset_clear(&t->want);
		tui_message(t, "one part at least is shown (Enter: this one alone; *: all)");
		return 1;
	default:
		return 0;
	}
}

const struct view_ops parts_ops = {
	.name = "parts",
	.hint = "Enter:this part alone (or all)  Space:add/remove  *:all  Esc:back  ?:help",
	.update = parts_update,
	.draw_row = parts_row,
	.draw_header = parts_header,
	.row_text = parts_text,
	.action = parts_action,
	.free = parts_free,
	.space_marks = 1,
};
