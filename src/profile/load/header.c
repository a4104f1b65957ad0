/* header.c -- the header lines of a profile: "key: value" (format spec
 * 3.1.1, "Basic Structure"; 3.1.7, "Miscellaneous").
 *
 * events: maps the file's events onto the profile's (a second file must
 * have the first's; a second events: line after cost lines starts a part);
 * positions: says which subpositions a cost line has (instr and line are
 * kept, other kinds read and ignored); summary: and totals: are kept for
 * profile_finish() to check against the costs (3.1.7.1); part:, pid:,
 * thread:, cmd:, creator: and desc: (Trigger:, Timerange:) describe the
 * part; version: is checked; event: lines (3.1.7.2: long names and
 * formulas) are applied once every file is in (apply_evdefs).  A header
 * key the table in load_int.h does not have is ignored.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct part_info *new_part(struct parser *ps)
{
	struct profile *p = ps->p;
	VEC_RESERVE(p->parts, p->capparts, p->nparts + 1);
	struct part_info *pi = &p->parts[p->nparts++];
	memset(pi, 0, sizeof(*pi));
	pi->source = xstrdup(ps->path);
	pi->sign = ps->o->sign < 0 ? -1 : 1;
	pi->totals = xcalloc(MAX_EVENTS, sizeof(cost_t));
	/* a part's self costs are the block subtotals made while it is read */
	linestore_flush(&p->ls);
	pi->ff_start = p->ls.nff;
	ps->part = pi;
	ps->any_cost = 0;
	part_pick(ps);
	return pi;
}

void part_pick(struct parser *ps)
{
	ps->skip_part = !partset_has(ps->p, ps->o->parts, ps->p->nparts);
	ps->part->skipped = ps->skip_part;
}

/* The next word of a header value at *s (words are separated by blanks):
 * its start, with its length in *len and *s moved past it; NULL at the end. */
static const char *next_word(const char **s, size_t *len)
{
	const char *b = skip_ws(*s), *e = b;
	if (!*b)
		return NULL;
	while (*e && !is_space(*e))
		e++;
	*s = e;
	*len = (size_t)(e - b);
	return b;
}

static int set_events(struct parser *ps, const char *s)
{
	struct profile *p = ps->p;
	int n = 0;
	int map[MAX_EVENTS];
	const char *b;
	size_t len;
	while ((b = next_word(&s, &len))) {
		if (n >= MAX_EVENTS)
			return perr(ps, "too many events (at most %d)", MAX_EVENTS);
		int ev = profile_event_index(p, b, len);
		if (ev < 0 || ev >= p->nreal) {
			if (p->ls.nchunks || p->ls.an || p->ncalls || p->nreal != p->nevents ||
			    p->nparts > 1 || ps->any_cost)
				return perr(ps, "event '%.*s' is not in the first profile's events "
						"(profiles with different events cannot be combined)",
					    (int)len, b);
			if (ev >= 0)
				return perr(ps, "event '%.*s' listed twice", (int)len, b);
			ev = p->nreal;
			p->ev[ev].name = xstrndup(b, len);
			p->nreal++;
			p->nevents++;
		}
		for (int i = 0; i < n; i++)
			if (map[i] == ev)
				return perr(ps, "event '%.*s' listed twice", (int)len, b);
		map[n++] = ev;
	}
	if (n == 0)
		return perr(ps, "events: line names no event");
	memcpy(ps->evmap, map, sizeof(map));
	ps->nev = n;
	ps->have_events = 1;
	ps->identity = 1;
	for (int i = 0; i < n; i++)
		ps->identity &= map[i] == i;
	return 0;
}

/* "positions: instr line" and the like: instr and line are kept (each
 * once), other kinds read and ignored, with one warning per file. */
static int set_positions(struct parser *ps, const char *s)
{
	int n = 0, nkept = 0, nign = 0, linek = -1, instrk = -1;
	char ign[128] = "";
	const char *b;
	size_t len;
	while ((b = next_word(&s, &len))) {
		if (n == MAX_SUBPOS)
			return perr(ps, "too many positions (at most %d)", MAX_SUBPOS);
		int *k = len == 4 && memcmp(b, "line", 4) == 0    ? &linek
			 : len == 5 && memcmp(b, "instr", 5) == 0 ? &instrk
								  : NULL;
		if (k && *k < 0) {
			*k = nkept;
			ps->slot[n++] = (int8_t)nkept++;
			continue;
		}
		ps->slot[n++] = POS_IGN;
		if (!nign++ || strlen(ign) + len + 4 < sizeof(ign))
			snprintf(ign + strlen(ign), sizeof(ign) - strlen(ign), "%s'%.*s'",
				 nign > 1 ? ", " : "", (int)(len < 60 ? len : 60), b);
	}
	if (n == 0)
		return perr(ps, "positions: line names no position");
	if (nign && !ps->warned_pos) {
		ps->warned_pos = 1;
		profile_warn(ps->p, "%s:%llu: position%s %s ignored (only instr and line are known)",
			     ps->path, (unsigned long long)ps->lineno, nign > 1 ? "s" : "", ign);
	}
	ps->npos = n;
	ps->nign = nign;
	ps->linek = linek;
	ps->instrk = instrk;
	if (instrk >= 0)
		ps->p->has_instr = 1;
	if (linek >= 0)
		ps->p->has_line = 1;
	ps->last[0] = ps->last[1] = 0;
	ps->stale = 0;
	return 0;
}

/* A summary: or totals: line (tot: the latter), kept for profile_finish(). */
static int parse_summary(struct parser *ps, const char *s, int tot)
{
	if (!ps->have_events)
		return perr(ps, "summary before events: line");
	struct part_info *pi = ps->part;
	cost_t **sum = tot ? &pi->lines_sum : &pi->summary;
	if (!*sum)
		*sum = xcalloc(MAX_EVENTS, sizeof(cost_t));
	else
		memset(*sum, 0, MAX_EVENTS * sizeof(cost_t));
	*(tot ? &pi->lines_sum_line : &pi->summary_line) = (int)ps->lineno;
	return parse_costs_into(ps, s, *sum, 0);
}

static char *dup_value(const char *s)
{
	s = skip_ws(s);
	return xstrdup(s);
}

int header_line(struct parser *ps, enum fkey key, const char *val)
{
	struct profile *p = ps->p;
	ps->cmd_seen |= key == FK_CMD;
	if (key == FK_EVENTS) {
		if (ps->any_cost && ps->have_events)
			new_part(ps);
		return set_events(ps, val);
	}
	if (key == FK_POSITIONS)
		return set_positions(ps, val);
	if (key == FK_SUMMARY || key == FK_TOTALS) {
		ps->totals_last = key == FK_TOTALS;
		return parse_summary(ps, val, key == FK_TOTALS);
	}
	if (key == FK_PART) {
		if (ps->any_cost || ps->part->number)
			new_part(ps);
		ps->part->number = atoi(skip_ws(val));
		part_pick(ps);
		ps->last[0] = ps->last[1] = 0;
		ps->stale = 0;
		p->is_callgrind = 1;
		return 0;
	}
	if (key == FK_CREATOR) {
		const char *v = skip_ws(val);
		ps->cg_creator |= creator_names_contexts(v);
	}
	if (key == FK_CMD || key == FK_CREATOR) { /* the part's, and the profile's first */
		char **part = key == FK_CMD ? &ps->part->cmd : &ps->part->creator;
		char **prof = key == FK_CMD ? &p->cmd : &p->creator;
		free(*part);
		*part = dup_value(val);
		if (!*prof)
			*prof = dup_value(val);
		return 0;
	}
	if (key == FK_DESC) {
		const char *v = skip_ws(val);
		if (strncmp(v, "Trigger:", 8) == 0) {
			free(ps->part->trigger);
			ps->part->trigger = dup_value(v + 8);
		}
		profile_note_desc(p, v);
		/* callgrind's "Timerange: Basic block 0 - 383678" */
		unsigned long long t0, t1;
		if (sscanf(v, "Timerange: Basic block %llu - %llu", &t0, &t1) == 2) {
			ps->part->time0 = t0;
			ps->part->time1 = t1;
			ps->part->has_time = 1;
		}
		if (p->nsources == 1 || p->ndesc == 0) {
			for (int i = 0; i < p->ndesc; i++)
				if (strcmp(p->desc[i], v) == 0)
					return 0;
			VEC_RESERVE(p->desc, p->capdesc, p->ndesc + 1);
			p->desc[p->ndesc++] = xstrdup(v);
		}
		return 0;
	}
	if (key == FK_PID) {
		ps->part->pid = atol(skip_ws(val));
		return 0;
	}
	if (key == FK_THREAD) {
		ps->part->thread = atol(skip_ws(val));
		part_pick(ps);
		return 0;
	}
	if (key == FK_EVENT) {
		const char *v = skip_ws(val);
		if (!*v || *v == ':' || *v == '=')
			return perr(ps, "event: line without a name");
		VEC_RESERVE(p->evdefs, p->capevdefs, p->nevdefs + 1);
		p->evdefs[p->nevdefs++] = (struct evdef){ xstrdup(ps->path), ps->lineno, xstrdup(v) };
		return 0;
	}
	if (key == FK_VERSION) {
		const char *v = skip_ws(val);
		if (atoi(v) != 1)
			profile_warn(p, "%s:%llu: format version '%s' (only version 1 is known)",
				     ps->path, (unsigned long long)ps->lineno, v);
		return 0;
	}
	/* unknown keys (e.g. "fmt:", Xdebug's "rusage:") are ignored */
	return 0;
}

/* The "event: NAME : long name" and "event: NAME = formula" lines of every
 * file, once all are in (a formula refused is a warning). */
void apply_evdefs(struct profile *p)
{
	for (int i = 0; i < p->nevdefs; i++) {
		const struct evdef *d = &p->evdefs[i];
		const char *name = d->text, *e = name;
		while (*e && !is_space(*e) && *e != ':' && *e != '=')
			e++;
		const char *rest = skip_ws(e);
		size_t nlen = (size_t)(e - name);
		int idx = profile_event_index(p, name, nlen);
		if (*rest == '=') {
			char msg[256];
			char *nm = xstrndup(name, nlen);
			if (idx >= 0 && idx < p->nreal)
				profile_warn(p, "%s:%llu: formula for recorded event %s ignored", d->path,
					     (unsigned long long)d->line, nm);
			else if (idx < 0 && profile_define_event(p, nm, skip_ws(rest + 1), msg,
								sizeof(msg)) < 0)
				profile_warn(p, "%s:%llu: %s", d->path, (unsigned long long)d->line, msg);
			free(nm);
		} else if (*rest == ':') {
			const char *ln = skip_ws(rest + 1);
			if (idx >= 0 && *ln && !p->ev[idx].longname)
				p->ev[idx].longname = xstrdup(ln);
		}
		free(d->path);
		free(d->text);
	}
	p->nevdefs = 0; /* applied once */
}
