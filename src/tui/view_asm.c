/* view_asm.c -- the assembly view: a function's instructions with their
 * costs (every event shown), source lines between them, the calls and jumps
 * the profile recorded at each; what src/source/asmannot.c computed.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/format.h"
#include "profile/query.h"
#include "profile/rank.h"
#include "source/asmannot.h"
#include "tui.h"

struct asmv {
	struct asm_annot a;
	int ready;
	char *scratch;
	int ev[MAX_EVENTS], nev; /* cost columns */
	int x_addr, x_text;
};

static int reload(void *arg, struct profile *out, const struct instr_sink *s, char *err,
		  size_t errsz)
{
	struct tui *t = arg;
	if (!t->loader || !t->loader->load_instr) {
		snprintf(err, errsz, "not available");
		return -1;
	}
	return t->loader->load_instr(t->loader->arg, out, s, err, errsz);
}

static void asm_free(struct view *v)
{
	struct asmv *s = v->data;
	if (!s)
		return;
	asm_annot_free(&s->a);
	free(s->scratch);
	free(s);
	v->data = NULL;
}

static const char *base(const char *f)
{
	const char *b = strrchr(f, '/');
	return b ? b + 1 : f;
}

/* Opened from a view with a source line selected: to the first instruction
 * of that line (the same file name, or the same base name). */
static int goto_line(struct view *v)
{
	struct tui *t = v->t;
	struct asmv *s = v->data;
	/* made by view_new before it is pushed: the view shown is the one it
	 * was opened from */
	struct view *from = t->nhist ? t->hist[t->cur] : NULL;
	const char *file;
	uint32_t line;
	if (!from || from == v || from->fn != v->fn || !from->ops->selected_line ||
	    !from->ops->selected_line(from, &file, &line))
		return 0;
	for (int i = 0; i < s->a.nrows; i++) {
		const struct arow *r = &s->a.rows[i];
		const struct asm_insn *x = r->kind == AR_INSN ? &s->a.ins[r->idx] : NULL;
		if (x && x->file && x->line == line &&
		    (strcmp(x->file, file) == 0 || strcmp(base(x->file), base(file)) == 0)) {
			list_goto(v, i);
			return 1;
		}
	}
	return 0;
}

static void update(struct view *v)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct asmv *s = v->data;
	if (!s) {
		s = v->data = xcalloc(1, sizeof(*s));
		asm_annotate(&s->a, p, v->fn, reload, t, &t->look);
	}
	int ev = t->set.sort_event;
	struct rank_thr thr = rank_threshold(p, ev, t->set.threshold);
	uint64_t addr = v->nrows && s->ready && s->a.rows[v->sel].ins >= 0
				? s->a.ins[s->a.rows[v->sel].ins].in.addr : 0;
	asm_rows(&s->a, ev, &thr, t->set.context);
	v->nrows = s->a.nrows;
	if (!s->ready) { /* opened: at the line selected in the source view, else
			  * at the hottest instruction */
		s->ready = 1;
		v->sel = 0;
		if (!goto_line(v))
			v->ops->action(v, ACT_HOTTEST);
		return;
	}
	for (int i = 0; i < s->a.nrows; i++) /* keep the place */
		if (s->a.rows[i].kind == AR_INSN && s->a.ins[s->a.rows[i].idx].in.addr >= addr) {
			v->sel = i;
			break;
		}
	if (v->sel >= v->nrows)
		v->sel = v->nrows ? v->nrows - 1 : 0;
}

static void layout(struct view *v, int width)
{
	struct asmv *s = v->data;
	int x;
	s->nev = tui_event_columns(v->t, width, 40, s->ev, &x);
	s->x_addr = x;
	s->x_text = x + 10;
}

static void draw_header(struct view *v, int y, int width)
{
	struct tui *t = v->t;
	struct profile *p = t->p;
	struct asmv *s = v->data;
	layout(v, width);
	tui_event_headers(t, y, s->ev, s->nev);
	const char *obj = obj_name(p, p->fns[v->fn].obj);
	char *h = xasprintf("Address   Instruction (%s%s%s)", fn_name(p, v->fn), *obj ? ", " : "",
			    obj);
	tui_put(t, y, s->x_addr, width - s->x_addr, h);
	free(h);
}

/* a row's text from column x, scrolled sideways (b, w) */
static void put_body(struct view *v, int y, int x, int width, const char *body)
{
	struct tui_text c;
	tui_text_begin(&c, v, y, x, width);
	tui_text_put(&c, body);
	tui_text_end(&c);
}

static void draw_row(struct view *v, int row, int y, int width, int sel)
{
	struct tui *t = v->t;
	struct asmv *s = v->data;
	const struct arow *r = &s->a.rows[row];
	layout(v, width);
	char *body = asm_row_text(&s->a, r);
	/* tabs to spaces (source lines) */
	for (char *q = body; *q; q++)
		if (*q == '\t')
			*q = ' ';
	switch (r->kind) {
	case AR_NOTE:
		attron(A_BOLD);
		tui_put(t, y, 0, width, body);
		attroff(A_BOLD);
		break;
	case AR_INLSUM:
		put_body(v, y, s->x_addr, width, body);
		break;
	case AR_INLINE:
	case AR_SRC:
	case AR_LABEL:
		if (!sel && t->color)
			attron(COLOR_PAIR(COL_FILE));
		put_body(v, y, s->x_addr, width, body);
		if (!sel && t->color)
			attroff(COLOR_PAIR(COL_FILE));
		break;
	case AR_INSN: {
		const struct asm_insn *x = &s->a.ins[r->idx];
		if (r->hot && !sel)
			attron(A_BOLD);
		if (x->ic)
			tui_cost_cells(v, y, s->ev, s->nev, x->ic->cost);
		else
			tui_put_right(t, y, 0, tui_count_width(t, s->ev[0]), ".");
		char a[24];
		snprintf(a, sizeof(a), "%8llx:", (unsigned long long)x->in.addr);
		tui_put(t, y, s->x_addr, 10, a);
		put_body(v, y, s->x_text, width, body);
		if (r->hot && !sel)
			attroff(A_BOLD);
		break;
	}
	case AR_CALL: {
		char kt[32];
		if (asm_call_costed(&s->a, (uint32_t)r->idx))
			tui_cost_cells(v, y, s->ev, s->nev, s->a.fi.calls[r->idx].cost);
		else
			tui_put_right(t, y, 0, tui_cost_width(t, s->ev[0]),
				      call_kind_text(kt, sizeof(kt), s->a.callkind[r->idx],
						     agg_call_cycle_no(t->p->agg, v->fn, v->fn),
						     tui_cost_width(t, s->ev[0])));
		put_body(v, y, s->x_text + 2, width, body);
		break;
	}
	case AR_JUMP:
		put_body(v, y, s->x_text + 2, width, body);
		break;
	default:
		put_body(v, y, s->x_addr, width, body);
		break;
	}
	free(body);
}

static const char *row_text(struct view *v, int row)
{
	struct asmv *s = v->data;
	free(s->scratch);
	s->scratch = asm_row_text(&s->a, &s->a.rows[row]);
	return s->scratch;
}

/* On a call row, the callee (by name, as the profile read again named it);
 * else the function shown. */
static uint32_t selected_fn(struct view *v)
{
	struct asmv *s = v->data;
	struct profile *p = v->t->p;
	if (!v->nrows || s->a.rows[v->sel].kind != AR_CALL)
		return v->fn;
	uint32_t f = query_fn_by_name(p, s->a.fi.calls[s->a.rows[v->sel].idx].callee,
				      p->fns[v->fn].obj);
	return f != NO_ID ? f : v->fn;
}

static cost_t row_cost(struct view *v, int i)
{
	struct asmv *s = v->data;
	const struct arow *r = &s->a.rows[i];
	if (r->kind != AR_INSN || !s->a.ins[r->idx].ic)
		return -1;
	return (cost_t)cost_mag(event_value(v->t->p, s->a.ins[r->idx].ic->cost, v->t->set.sort_event));
}

static int hot_row(struct view *v, int i)
{
	struct asmv *s = v->data;
	return s->a.rows[i].kind == AR_INSN && s->a.rows[i].hot;
}

static int action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	switch (a) {
	case ACT_HOTTEST:
		list_hottest(v, row_cost);
		return 1;
	case ACT_HOT_NEXT:
	case ACT_HOT_PREV:
		list_seek(v, a, hot_row, "instruction");
		return 1;
	case ACT_CTX_MORE:
	case ACT_CTX_LESS:
		tui_step_context(t, a);
		v->ops->update(v);
		return 1;
	case ACT_ASM:
		return 1; /* already here */
	default:
		return 0;
	}
}

const struct view_ops asm_ops = {
	.name = "assembly",
	.hint = "H:hottest  ]/[:next/previous hot instruction  {/}:context  s:source  Enter:the call  "
		"Esc:back  ?:help",
	.update = update,
	.draw_row = draw_row,
	.draw_header = draw_header,
	.row_text = row_text,
	.selected_fn = selected_fn,
	.action = action,
	.free = asm_free,
	.scrolls = 1,
};
