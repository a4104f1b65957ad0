/* parse.c -- the general parser: every line of the Callgrind format,
 * whole, with "FILE:LINE: what is wrong" when it does not read.
 *
 * The grammar of the format specification (Valgrind's "Callgrind Format
 * Specification", 3.2): parse_line() tells the kinds of line apart --
 * comments (those with miss-ratio curves go to mrc.c), cost lines,
 * "key=value" specification lines and "key: value" header lines, their
 * keys found by load_int.h's table -- and reads the body's here: cost
 * lines with compressed subpositions (3.1.6) and costs, the name lines
 * (their names read by names.c), calls= and jump=/jcnd= associations
 * (3.1.3) and the function each block and call is in.  Header lines are
 * header.c's.  Cachegrind's format is the subset it writes (desc:, cmd:,
 * events:, summary:, fl=, fn= and cost lines).  A line the fast paths
 * (fast.c) leave comes here, and so does every line of a file read through
 * a buffer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"
#include "profile/mrc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors, numbers and costs ------------------------------------------- */

int perr(struct parser *ps, const char *fmt, ...)
{
	/* an empty file's error is at its line 1, as every other one */
	int n = snprintf(ps->err, ps->errsz, "%s:%llu: ", ps->path,
			 (unsigned long long)(ps->lineno ? ps->lineno : 1));
	if (n < 0 || (size_t)n >= ps->errsz)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errsz - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Signed cost: [+-]digits, or '.' for zero. */
static inline const char *parse_cost(const char *s, cost_t *v, int *ovf)
{
	if (*s == '.' && (!s[1] || is_space(s[1]))) {
		*v = 0;
		return s + 1;
	}
	int neg = 0;
	if (*s == '-') {
		neg = 1;
		s++;
	} else if (*s == '+') {
		s++;
	}
	uint64_t u;
	s = parse_u64(s, &u, ovf);
	if (!s)
		return NULL;
	if (u > (uint64_t)INT64_MAX) { /* also -2^63: costs are negated in diffs */
		*ovf = 1;
		return NULL;
	}
	*v = neg ? (cost_t)(0 - u) : (cost_t)u;
	return s;
}

/* One subposition: absolute (decimal/hex), +N / -N relative to the last, or
 * '*' for the same.  Returns the end or NULL. */
const char *parse_subpos(struct parser *ps, const char *s, int k, int64_t *out)
{
	uint64_t u;
	int ovf = 0;
	if (*s == '*') {
		*out = ps->last[k];
		return s + 1;
	}
	if (*s == '+' || *s == '-') {
		int neg = *s == '-';
		const char *e = parse_u64(s + 1, &u, &ovf);
		if (!e) {
			perr(ps, ovf ? "position beyond 64 bits" : "bad relative position '%.20s'", s);
			return NULL;
		}
		*out = (int64_t)((uint64_t)ps->last[k] + (neg ? 0 - u : u));
		return e;
	}
	const char *e = parse_u64(s, &u, &ovf);
	if (!e) {
		perr(ps, ovf ? "position beyond 64 bits" : "bad position '%.20s'", s);
		return NULL;
	}
	*out = (int64_t)u;
	return e;
}

/* A cost line's values as read: the i-th of n is v[i], of event ev[i] (the
 * profile's), the sign applied. */
struct costs {
	int n;
	int ev[MAX_EVENTS];
	cost_t v[MAX_EVENTS];
};

/* Reads the costs after the positions into c.  With count, the values
 * count towards the bound of all sums (model.h, summag; not a summary
 * line's, nor a line read again): -1 with "FILE:LINE: sum of EV passes
 * 2^63-1" when one would take it beyond 2^63-1.  On an error nothing is
 * changed but lastcost, so a line is taken whole or not at all. */
static inline __attribute__((always_inline)) int read_costs(struct parser *ps, const char *s,
							   struct costs *c, int count)
{
	int sign = ps->o->sign;
	c->n = 0;
	for (int i = 0;; i++) {
		s = skip_ws(s);
		if (!*s)
			break;
		if (i >= ps->nev)
			return perr(ps, "more costs than the %d event%s of the events: line", ps->nev,
				    ps->nev == 1 ? "" : "s");
		cost_t v;
		int ovf = 0;
		const char *e;
		unsigned d0 = (unsigned)(*s - '0');
		if (d0 < 10 && !(d0 == 0 && (s[1] | 0x20) == 'x')) {
			/* the common case: a short decimal count */
			uint64_t x = d0;
			const char *b = s++;
			unsigned d;
			while ((d = (unsigned)(*s - '0')) < 10) {
				x = x * 10 + d;
				s++;
			}
			if (s - b > 18) {
				e = parse_cost(b, &v, &ovf);
			} else {
				e = s;
				v = (cost_t)x;
			}
			s = b;
		} else if (*s == '*' && (!s[1] || is_space(s[1]))) {
			/* not in the format's grammar; some writers use it for "the
			 * same as the previous cost line" */
			v = ps->lastcost[i];
			e = s + 1;
			ps->seg_star = 1; /* a segment's reader needs lastcost */
		} else {
			e = parse_cost(s, &v, &ovf);
		}
		if (!e)
			return perr(ps, ovf ? "number of 2^63 or more: '%.30s'" : "bad cost '%.30s'", s);
		if (*e && !is_space(*e))
			return perr(ps, "bad cost '%.30s'", s);
		s = e;
		ps->lastcost[i] = v;
		int ev = ps->evmap[i];
		if (ev < 0)
			continue;
		c->ev[c->n] = ev;
		c->v[c->n++] = sign < 0 ? -v : v;
	}
	if (!count)
		return 0;
	for (int i = 0; i < c->n; i++) /* each event once a line: no two add up */
		if (!sum_fits(ps->p, c->v[i] < 0, c->ev[i], cost_mag(c->v[i]), 1))
			return perr(ps, "sum of %s passes 2^63-1", ps->p->ev[c->ev[i]].name);
	for (int i = 0; i < c->n; i++)
		sum_add(ps->p, c->v[i] < 0, c->ev[i], cost_mag(c->v[i]));
	return 0;
}

static inline void add_costs(cost_t *dst, const struct costs *c)
{
	for (int i = 0; i < c->n; i++)
		dst[c->ev[i]] = cost_add(dst[c->ev[i]], c->v[i]);
}

int parse_costs_into(struct parser *ps, const char *s, cost_t *dst, int count)
{
	struct costs c;
	if (read_costs(ps, s, &c, count) < 0)
		return -1;
	add_costs(dst, &c);
	return 0;
}

/* ---- functions ----------------------------------------------------------- */

static uint32_t get_fn(struct parser *ps, uint32_t obj, uint32_t file, uint32_t name)
{
	/* a function is its object, file and name (struct function).  A name
	 * nearly always means the same function: try the last one first */
	if (name >= ps->nname_fn) {
		void *a = ps->name_fn;
		grow_by_id(&a, &ps->nname_fn, name, sizeof(*ps->name_fn), 0xff);
		ps->name_fn = a;
	}
	struct name_fn *nf = &ps->name_fn[name];
	if (nf->fn == NO_ID && name >= ps->names_before)
		/* a name new to the profile in this load, with no function
		 * made for it yet: it has none */
		*nf = (struct name_fn){ profile_fn_new(ps->p, obj, file, name), obj, file };
	else if (nf->fn == NO_ID || nf->obj != obj || nf->file != file)
		*nf = (struct name_fn){ profile_fn(ps->p, obj, file, name), obj, file };
	return nf->fn;
}

/* The current function, made on first use. */
int need_fn(struct parser *ps, const char *what)
{
	if (ps->fn != NO_ID)
		return 0;
	if (ps->fnname == NO_ID)
		return perr(ps, "%s before any fn= line", what);
	ps->fn = get_fn(ps, ps->fnobj, ps->fnfile, ps->fnname);
	return 0;
}

/* ---- body lines ---------------------------------------------------------- */

/* The cost line after calls=: the call, with its inclusive cost c. */
void finish_call(struct parser *ps, uint32_t line, const cost_t *c, const int64_t pos[2])
{
	ps->pending = PEND_NONE;
	uint32_t cob = ps->cob != NO_ID ? ps->cob : cur_obj(ps);
	/* no cfi=/cfl=: the callee is in the file of the lines around the
	 * call, fi=/fe= included (callgrind writes cfi= when it is not) */
	cur_file(ps);
	uint32_t cfl = ps->cfl != NO_ID ? ps->cfl : ps->fi;
	uint32_t cid = get_fn(ps, cob, cfl, ps->cfn);
	ps->cob = ps->cfl = NO_ID;
	cost_t count = ps->o->sign < 0 ? -ps->call_count : ps->call_count;
	const struct instr_sink *is = ps->o->instr;
	if (!is)
		profile_call(ps->p, ps->fn, ps->fi, line, cid, count, c);
	else if (is->call)
		is->call(is->arg, ps->p, ps->fn, addr_of(ps, pos), cid, ps->ctaddr, count, c);
}

/* The position line after jump=/jcnd=: the jump's source. */
void finish_jump(struct parser *ps, uint32_t line, const int64_t pos[2])
{
	ps->pending = PEND_NONE;
	int sg = ps->o->sign;
	const struct instr_sink *is = ps->o->instr;
	if (!is) {
		if (!ps->o->skip_jumps)
			profile_jump(ps->p, ps->fn, ps->fi, line, ps->jtfile, ps->jtline, ps->jcond,
				     sg * ps->jexe, sg * ps->jtaken);
	} else if (is->jump) {
		is->jump(is->arg, ps->p, ps->fn, addr_of(ps, pos), ps->jtaddr, ps->jcond,
			 sg * ps->jexe, sg * ps->jtaken);
	}
}

/* After skipped cost lines, a position relative to them cannot be known:
 * -1 (and the sink told) when one of the subpositions at s is relative. */
static int check_stale(struct parser *ps, const char *s)
{
	for (int k = 0; k < ps->npos; k++) {
		s = skip_ws(s);
		if (ps->slot[k] != POS_IGN && (*s == '+' || *s == '-' || *s == '*')) {
			if (ps->o->instr->skim_failed)
				*ps->o->instr->skim_failed = 1;
			return perr(ps, "a position relative to skipped lines");
		}
		while (*s && !is_space(*s))
			s++;
	}
	return 0;
}

static int cost_line(struct parser *ps, const char *s)
{
	struct profile *p = ps->p;
	int64_t pos[3];
	if (!ps->have_events)
		return perr(ps, "cost line before the events: line");
	if (!ps->npos) {
		default_positions(ps);
		p->has_line = 1;
	}
	if (ps->stale) {
		if (check_stale(ps, s) < 0)
			return -1;
		ps->stale = 0;
	}
	/* the whole line is read before anything changes (a file's last line
	 * cut short is left out whole when it does not read) */
	struct costs c;
	s = parse_positions(ps, s, pos, 1);
	if (!s || check_line_range(ps, pos) < 0 || need_fn(ps, "cost line") < 0 ||
	    read_costs(ps, s, &c, 1) < 0)
		return -1;
	ps->last[0] = pos[0];
	ps->last[1] = pos[1];
	ps->any_cost = 1;
	uint32_t line = line_of(ps, pos);

	const struct instr_sink *is = ps->o->instr;
	if (ps->pending == PEND_CALL || is) {
		cost_t v[MAX_EVENTS];
		memset(v, 0, sizeof(cost_t) * (size_t)p->nreal);
		add_costs(v, &c);
		if (ps->pending == PEND_CALL) {
			finish_call(ps, line, v, pos);
			if (!is) /* counted, in a call record (summag) */
				for (int i = 0; i < c.n; i++)
					p->callsum[c.ev[i]] = cost_add(p->callsum[c.ev[i]], c.v[i]);
			return 0;
		}
		if (ps->pending == PEND_JUMP)
			finish_jump(ps, line, pos); /* the line normally carries no cost */
		/* costs go to the sink only: the profile is read again for it */
		if (is->cost)
			is->cost(is->arg, p, ps->fn, ps->fi, line, addr_of(ps, pos), v);
		return 0;
	}
	if (ps->pending == PEND_JUMP)
		finish_jump(ps, line, pos); /* the line normally carries no cost */
	if (p->ls.nreal != p->nreal) {
		linestore_init(&p->ls, p->nreal);
		p->ls.lazy = ps->lz != NULL;
	}
	if (p->ls.open_fn != ps->fn)
		linestore_begin(&p->ls, ps->fn);
	cost_t *dst = linestore_slot(&p->ls, ps->fi, p->ls.lazy ? 0 : line);
	linestore_width(&p->ls, p->nreal);
	add_costs(dst, &c);
	for (int i = 0; i < c.n; i++) /* counted, in the line store (summag) */
		p->selfsum[c.ev[i]] = cost_add(p->selfsum[c.ev[i]], c.v[i]);
	return 0;
}

/* What calls=, jump=/jcnd= and the name lines set, once read (also by
 * spec_fast()). */
/* Adds n to the bound of the sums of call counts (which) or jump counts:
 * -1 with "sum of ... passes 2^63-1" when it would pass, nothing changed. */
static inline int count_count(struct parser *ps, uint64_t *mag, uint64_t n, const char *what)
{
	uint64_t *m = &mag[ps->o->sign < 0];
	if (n > (uint64_t)INT64_MAX || *m + n > (uint64_t)INT64_MAX)
		return perr(ps, "sum of %s passes 2^63-1", what);
	*m += n;
	return 0;
}

int set_call(struct parser *ps, uint64_t cnt, const int64_t tpos[2])
{
	if (count_count(ps, ps->p->countmag, cnt, "call counts") < 0)
		return -1;
	ps->call_count = (cost_t)cnt;
	ps->ctaddr = addr_of(ps, tpos);
	ps->pending = PEND_CALL;
	ps->p->is_callgrind = 1;
	ps->cg_fmt = 1;
	return 0;
}

int set_jump(struct parser *ps, int cond, uint64_t a, uint64_t b, const int64_t tpos[2])
{
	/* executed and taken are both summed (instr.c): their sum is the bound */
	if (count_count(ps, ps->p->jumpmag, cond ? a + b : a, "jump counts") < 0)
		return -1;
	/* Callgrind writes jcnd=TAKEN/EXECUTED (its own files have the first
	 * never above the second, e.g. a loop's back edge jcnd=19/20) */
	ps->jcond = cond;
	ps->jexe = cond ? (cost_t)b : (cost_t)a;
	ps->jtaken = (cost_t)a;
	ps->jtfile = ps->jfi != NO_ID ? ps->jfi : ps->fi;
	ps->jfi = NO_ID;
	ps->jtline = line_of(ps, tpos);
	ps->jtaddr = addr_of(ps, tpos);
	ps->pending = PEND_JUMP;
	ps->p->is_callgrind = 1;
	ps->cg_fmt = 1;
	return 0;
}

/* The target positions after a calls= or jump line's counts (at e): 0,
 * or -1 with the error said. */
static int target_positions(struct parser *ps, const char *e, int64_t tpos[3])
{
	default_positions(ps);
	if (ps->stale && !ps->skip_block && check_stale(ps, e) < 0)
		return -1;
	return parse_positions(ps, e, tpos, 0) ? 0 : -1;
}

static int calls_line(struct parser *ps, const char *s)
{
	uint64_t cnt;
	int ovf = 0;
	s = skip_ws(s);
	const char *e = parse_u64(s, &cnt, &ovf);
	if (!e || cnt > INT64_MAX)
		return perr(ps, ovf || (e && cnt > INT64_MAX) ? "call count of 2^63 or more"
							     : "calls= needs a count");
	if (need_fn(ps, "calls= line") < 0)
		return -1;
	if (ps->cfn == NO_ID)
		return perr(ps, "calls= line without a preceding cfn= line");
	int64_t tpos[3];
	if (target_positions(ps, e, tpos) < 0)
		return -1;
	return set_call(ps, cnt, tpos);
}

static int jump_line(struct parser *ps, const char *s, int cond)
{
	uint64_t a = 0, b = 0;
	int ovf = 0;
	s = skip_ws(s);
	const char *e = parse_u64(s, &a, &ovf);
	/* counts are signed 64-bit (negated in a difference), as calls='s */
	if (!e || a > INT64_MAX)
		return perr(ps, ovf || e ? "jump count of 2^63 or more" : "bad jump count");
	if (cond) {
		if (*e == '/' || is_space(*e))
			e = parse_u64(skip_ws(e + 1), &b, &ovf);
		else
			e = NULL;
		if (ovf || (e && b > INT64_MAX))
			return perr(ps, "jump count of 2^63 or more");
		if (!e)
			return perr(ps, "jcnd= needs executed/taken counts");
	}
	if (need_fn(ps, "jump line") < 0)
		return -1;
	int64_t tpos[3];
	if (target_positions(ps, e, tpos) < 0)
		return -1;
	return set_jump(ps, cond, a, b, tpos);
}

/* A new function block: the function named id (made when a cost line
 * needs it: a profile may define all its names up front), of the current
 * object and fl= file, its cost lines in that file. */
static void start_fn(struct parser *ps, uint32_t id)
{
	ps->fnname = id;
	ps->fi = cur_file(ps);
	ps->fn = NO_ID;
	ps->fnobj = cur_obj(ps);
	ps->fnfile = ps->fl;
	const struct instr_sink *is = ps->o->instr;
	ps->skip_block = is && is->want && !is->want(is->arg, ps->p, ps->fnobj, id);
}

static int spec_line(struct parser *ps, enum fkey key, const char *kname, size_t klen,
		     const char *val, size_t vlen)
{
	/* (parse_line() has refused a key K_INCALL does not allow after
	 * calls=, and noted one K_CG does not have) */
	int ns = fkey_ns(key);
	uint32_t id = NO_ID;
	if (ns != NS_NONE && (id = parse_name(ps, ns, val, vlen)) == NO_ID)
		return -1;
	switch (key) {
	case FK_FN:
		/* Some writers (pyprof2calltree, lsprofcalltree) give a
		 * function's file with fi= on the line before its fn= and
		 * never write fl=: take it as the function's, or every
		 * function would be in no file and a function calling
		 * itself would be two */
		if (!ps->seen_fl && ps->fi != NO_ID && ps->fi_lineno + 1 == ps->lineno)
			ps->fl = ps->fi;
		/* callgrind writes fl= before fn= only when the new
		 * function's file is not that of the cost lines before
		 * it, fi=/fe= included: without fl=, that file is the
		 * function's */
		else if (ps->fi != NO_ID && creator_names_contexts(ps->part->creator))
			ps->fl = ps->fi;
		start_fn(ps, id);
		return 0;
	case FK_FL:
		ps->fl = ps->fi = id;
		ps->seen_fl = 1;
		/* In Cachegrind's format, fl= starts the pseudo-function
		 * <unspecified> of that file, which an fn= line normally
		 * replaces at once (cg_annotate 3.21+; the name is not
		 * passed through --mod-funcname there either).  In
		 * Callgrind's, the function goes on (callgrind_annotate,
		 * KCachegrind). */
		if (ps->cmd_seen && !ps->cg_fmt)
			start_fn(ps, strtab_intern(&ps->p->names, "<unspecified>", 13));
		return 0;
	case FK_FI:
	case FK_FE:
		set_fi(ps, id);
		return 0;
	case FK_OB:
		ps->ob = id;
		ps->use_obj = 1;
		return 0;
	case FK_CALLS:
		return calls_line(ps, val);
	case FK_CFN:
		set_cfn(ps, id);
		return 0;
	case FK_CFL:
	case FK_CFI:
		/* an empty cfl= means "the current file" */
		ps->cfl = vlen ? id : NO_ID;
		return 0;
	case FK_COB:
		set_cob(ps, id);
		return 0;
	case FK_JFI:
		ps->jfi = id;
		return 0;
	case FK_JFN:
		return 0;
	case FK_JUMP:
		return jump_line(ps, val, 0);
	case FK_JCND:
		return jump_line(ps, val, 1);
	default:
		return perr(ps, "unknown specification '%.*s='", (int)klen, kname);
	}
}

void reset_for_new_file(struct parser *ps)
{
	idmap_clear(&ps->obmap);
	idmap_clear(&ps->flmap);
	idmap_clear(&ps->fnmap);
	ps->ob = ps->fl = ps->fi = ps->fnname = ps->fn = NO_ID;
	ps->cob = ps->cfl = ps->cfn = ps->jfi = NO_ID;
	ps->pending = PEND_NONE;
	ps->npos = 0;
	ps->last[0] = ps->last[1] = 0;
	ps->stale = 0;
	ps->skip_block = 0;
	ps->use_obj = 0;
	ps->seen_fl = 0;
	ps->cmd_seen = ps->cg_fmt = 0;
}

/* A line of the miss-ratio curves (mrc.h): what is wrong in it is a
 * warning (other readers ignore these lines: the costs stay good). */
static void mrc_line(struct parser *ps, const char *s, size_t len)
{
	if (!ps->mrc)
		ps->mrc = xcalloc(1, sizeof(*ps->mrc));
	char why[256];
	if (mrc_read_line(ps->mrc, s, len, why, sizeof(why)) < 0)
		profile_warn(ps->p, "%s:%llu: %s; the curves are not shown", ps->path,
			     (unsigned long long)ps->lineno, why);
}

int parse_line(struct parser *ps, char *s, size_t len)
{
	char c = s[0];
	if (len && c != '#' && !(is_space(c) && !*skip_ws(s)))
		ps->totals_last = 0; /* header_line() sets it again for totals: */
	if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') {
		if (memchr(s, 0, len))
			return perr(ps, "binary data (NUL byte): not a profile");
		if (ps->skip_part) {
			ps->pending = PEND_NONE; /* another part's costs: not shown */
			return 0;
		}
		if (ps->skip_block) { /* a block the sink does not want */
			ps->pending = PEND_NONE;
			ps->stale = 1;
			return 0;
		}
		if (fast_ok(ps, c) && cost_line_fast(ps, s, s + len + 1, 1))
			return 0;
		return cost_line(ps, s);
	}
	if (len == 0 || c == '#') {
		if (ps->lineno == 1 && strncmp(s, "# callgrind format", 18) == 0)
			ps->cg_fmt = 1;
		else if (c == '#' && mrc_is_line(s, len))
			mrc_line(ps, s, len);
		return 0;
	}
	/* only a key the table allows (K_INCALL) may stand between */
	if (ps->pending == PEND_CALL && !(fkey_flags(line_key(s, '=')) & K_INCALL))
		return perr(ps, "calls= line not followed by its cost line");
	if (memchr(s, 0, len))
		return perr(ps, "binary data (NUL byte): not a profile");
	if (is_space(c)) {
		const char *t = skip_ws(s);
		if (!*t)
			return 0;
		if ((*t >= '0' && *t <= '9') || *t == '+' || *t == '-' || *t == '*')
			return cost_line(ps, t);
		return perr(ps, "unexpected indented line");
	}
	if (c == '=' && strncmp(s, "==== NEW PROFILING FILE", 23) == 0) {
		/* Xdebug appends profiles to one file: its ids are its own */
		ids_finish(ps);
		reset_for_new_file(ps);
		ps->have_events = 0;
		ps->identity = 0;
		new_part(ps);
		return 0;
	}
	/* key=value or key: value */
	size_t k = 0;
	while (k < len && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
			   (s[k] >= '0' && s[k] <= '9') || s[k] == '_'))
		k++;
	enum fkey key;
	if (k > 0 && k < len && s[k] == '=')
		key = line_key(s, '=');
	else if (k > 0 && k < len && s[k] == ':')
		key = line_key(s, ':');
	else
		return perr(ps, "not a profile line: '%.40s'", s);
	return key_line(ps, key, s, k, len);
}

int parse_cut_line(struct parser *ps, char *s, size_t len, uint64_t off)
{
	struct linestore *ls = &ps->p->ls;
	struct ls_mark mk = linestore_mark(ls);
	ps->partial = ps->lineno;
	if (parse_line(ps, s, len) == 0)
		return 0;
	/* what came before it */
	linestore_forget(ls, mk);
	if (ps->lz)
		seg_end(ps, off);
	return 0;
}

int key_line(struct parser *ps, enum fkey key, const char *s, size_t k, size_t len)
{
	if (!(fkey_flags(key) & K_CG))
		ps->cg_fmt = 1; /* a key Cachegrind's format does not have */
	if (s[k] == '=')
		return spec_line(ps, key, s, k, s + k + 1, len - k - 1);
	return header_line(ps, key, s + k + 1);
}
