/* model.c -- cache models: the --cache-config text format, models of
 * cachegrind's caches and of the host's, --I1/--D1/--LL on a model, and
 * the events a model counts.  Freestanding: see model.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "sim/model.h"

/* ---- small string helpers (no libc) ------------------------------------------ */

struct sbuf {
	char *p;
	size_t cap, n; /* cap includes the NUL */
};

static void put_str(struct sbuf *b, const char *s)
{
	for (; *s && b->n + 1 < b->cap; s++)
		b->p[b->n++] = *s;
	b->p[b->n] = 0;
}

static void put_mem(struct sbuf *b, const char *s, size_t len)
{
	for (size_t i = 0; i < len && b->n + 1 < b->cap; i++)
		b->p[b->n++] = s[i];
	b->p[b->n] = 0;
}

static void put_uint(struct sbuf *b, uint64_t v)
{
	char d[24];
	unsigned n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n && b->n + 1 < b->cap)
		b->p[b->n++] = d[--n];
	b->p[b->n] = 0;
}

static struct sbuf msg_start(struct sim_msg *m, unsigned line)
{
	m->line = line;
	m->text[0] = 0;
	return (struct sbuf){ m->text, sizeof(m->text), 0 };
}

static bool same(const char *s, size_t len, const char *word)
{
	size_t i = 0;

	for (; i < len && word[i]; i++)
		if (s[i] != word[i])
			return false;
	return i == len && !word[i];
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

bool sim_parse_size(const char *s, size_t len, uint32_t *v)
{
	uint64_t x = 0;
	size_t i = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		x = x * 10 + (uint64_t)(s[i] - '0');
		if (x > 0xffffffffu)
			return false;
	}
	if (i == 0)
		return false;
	if (i + 1 == len) {
		switch (s[i]) {
		case 'k': case 'K': x <<= 10; break;
		case 'm': case 'M': x <<= 20; break;
		case 'g': case 'G': x <<= 30; break;
		default: return false;
		}
	} else if (i != len) {
		return false;
	}
	if (x > 0xffffffffu)
		return false;
	*v = (uint32_t)x;
	return true;
}

/* ---- the levels, by number and side ------------------------------------------ */

#define G_SIZE 1u
#define G_ASSOC 2u
#define G_LINE 4u
#define G_ALL 7u

struct spec {
	bool present;
	unsigned given; /* G_*: the geometry's fields known */
	unsigned line;  /* the text's line that last set it (0: none) */
	struct sim_level_cfg lc;
};

/* [number 1..4][side] */
struct table {
	struct spec s[SIM_MODEL_MAX_NUMBER + 1][3];
};

static void spec_default(struct spec *sp)
{
	sp->present = false;
	sp->given = 0;
	sp->line = 0;
	sp->lc.geom = (struct sim_geom){ 0, 0, 0 };
	sp->lc.repl = SIM_REPL_LRU;
	sp->lc.incl = SIM_INCL_NINE;
	sp->lc.write = SIM_WRITE_NONE;
	sp->lc.prefetch = 0;
	sp->lc.next = SIM_NONE;
}

static void table_clear(struct table *t)
{
	for (unsigned n = 0; n <= SIM_MODEL_MAX_NUMBER; n++)
		for (unsigned s = 0; s < 3; s++)
			spec_default(&t->s[n][s]);
}

static void table_from_model(struct table *t, const struct sim_model *m)
{
	table_clear(t);
	for (unsigned i = 0; i < m->cfg.nlevels; i++) {
		struct spec *sp = &t->s[m->number[i]][m->side[i]];
		sp->present = true;
		sp->given = G_ALL;
		sp->lc = m->cfg.level[i];
		sp->lc.next = SIM_NONE;
	}
}

static const char *const side_suffix[3] = { "", "I", "D" };

static void level_label(struct sbuf *b, unsigned number, unsigned side)
{
	put_str(b, "L");
	put_uint(b, number);
	put_str(b, side_suffix[side]);
}

/* Builds m from t (its name kept).  False with msgs->error when the levels
 * do not make a hierarchy or a geometry is wrong. */
static bool table_build(struct sim_model *m, struct table *t, struct sim_msgs *msgs)
{
	struct sim_hier_cfg *cfg = &m->cfg;
	unsigned top = 0, idx[SIM_MODEL_MAX_NUMBER + 2][3];
	struct sbuf b;

	for (unsigned n = 1; n <= SIM_MODEL_MAX_NUMBER; n++)
		for (unsigned s = 0; s < 3; s++)
			if (t->s[n][s].present)
				top = n;
	if (top == 0) {
		b = msg_start(&msgs->error, 0);
		put_str(&b, "no cache level given (L1 at least)");
		return false;
	}
	for (unsigned n = 1; n <= top; n++) {
		struct spec *u = &t->s[n][SIM_SIDE_UNIFIED], *i = &t->s[n][SIM_SIDE_INSN],
			    *d = &t->s[n][SIM_SIDE_DATA];
		if (u->present && (i->present || d->present)) {
			b = msg_start(&msgs->error, i->present ? i->line : d->line);
			put_str(&b, "L");
			put_uint(&b, n);
			put_str(&b, " is given both unified and split");
			return false;
		}
		if (i->present != d->present) {
			b = msg_start(&msgs->error, i->present ? i->line : d->line);
			level_label(&b, n, i->present ? SIM_SIDE_INSN : SIM_SIDE_DATA);
			put_str(&b, " needs its other side, ");
			level_label(&b, n, i->present ? SIM_SIDE_DATA : SIM_SIDE_INSN);
			return false;
		}
		if (!u->present && !i->present) {
			b = msg_start(&msgs->error, 0);
			put_str(&b, "no L");
			put_uint(&b, n);
			put_str(&b, " although L");
			put_uint(&b, top);
			put_str(&b, " is given");
			return false;
		}
		if (n > 1 && i->present && t->s[n - 1][SIM_SIDE_UNIFIED].present) {
			b = msg_start(&msgs->error, i->line);
			put_str(&b, "a unified L");
			put_uint(&b, n - 1);
			put_str(&b, " cannot be above a split L");
			put_uint(&b, n);
			return false;
		}
	}
	/* indices: by number, the instruction side first */
	cfg->nlevels = 0;
	for (unsigned n = 1; n <= top + 1; n++)
		for (unsigned s = 0; s < 3; s++)
			idx[n][s] = SIM_NONE;
	for (unsigned n = 1; n <= top; n++)
		for (unsigned s = 0; s < 3; s++) {
			static const unsigned order[3] = { SIM_SIDE_UNIFIED, SIM_SIDE_INSN,
							   SIM_SIDE_DATA };
			unsigned side = order[s];
			struct spec *sp = &t->s[n][side];
			if (!sp->present)
				continue;
			if (sp->given != G_ALL) {
				b = msg_start(&msgs->error, sp->line);
				level_label(&b, n, side);
				put_str(&b, ": size, assoc and line are needed");
				return false;
			}
			enum sim_err e = sim_geom_check(&sp->lc.geom);
			if (e != SIM_OK) {
				b = msg_start(&msgs->error, sp->line);
				level_label(&b, n, side);
				put_str(&b, ": ");
				put_str(&b, sim_strerror(e));
				return false;
			}
			if (sp->lc.prefetch && sp->lc.incl == SIM_INCL_EXCLUSIVE) {
				b = msg_start(&msgs->error, sp->line);
				level_label(&b, n, side);
				put_str(&b, ": ");
				put_str(&b, sim_strerror(SIM_ERR_PF_EXCL));
				return false;
			}
			if (!sim_repl_ok(sp->lc.repl, sp->lc.geom.assoc)) {
				if (msgs->nwarn < SIM_MAX_WARN) {
					b = msg_start(&msgs->warn[msgs->nwarn++], sp->line);
					level_label(&b, n, side);
					put_str(&b, ": tree-PLRU needs a power-of-two associativity "
						    "(at most 64), not ");
					put_uint(&b, sp->lc.geom.assoc);
					put_str(&b, ": LRU instead");
				}
				sp->lc.repl = SIM_REPL_LRU;
			}
			idx[n][side] = cfg->nlevels;
			m->number[cfg->nlevels] = (uint8_t)n;
			m->side[cfg->nlevels] = (uint8_t)side;
			cfg->level[cfg->nlevels] = sp->lc;
			cfg->nlevels++;
		}
	/* links: a side's level n to the same side's (or the unified) n + 1 */
	for (unsigned n = 1; n <= top; n++)
		for (unsigned s = 0; s < 3; s++) {
			unsigned here = idx[n][s];
			if (here == SIM_NONE)
				continue;
			unsigned below = idx[n + 1][SIM_SIDE_UNIFIED];
			if (below == SIM_NONE && s != SIM_SIDE_UNIFIED)
				below = idx[n + 1][s];
			cfg->level[here].next = below;
		}
	for (unsigned i = cfg->nlevels; i < SIM_MAX_LEVELS; i++) {
		struct spec sp;
		spec_default(&sp);
		cfg->level[i] = sp.lc;
		m->number[i] = 0;
		m->side[i] = 0;
	}
	cfg->ientry = idx[1][SIM_SIDE_UNIFIED] != SIM_NONE ? idx[1][SIM_SIDE_UNIFIED]
							   : idx[1][SIM_SIDE_INSN];
	cfg->dentry = idx[1][SIM_SIDE_UNIFIED] != SIM_NONE ? idx[1][SIM_SIDE_UNIFIED]
							   : idx[1][SIM_SIDE_DATA];
	return true;
}

void sim_model_cachegrind(struct sim_model *m, const struct sim_geom *i1,
			  const struct sim_geom *d1, const struct sim_geom *ll)
{
	/* the layout table_build would make of L1I, L1D, L2 (the geometry is
	 * checked by sim_hier_init) */
	m->name[0] = 0;
	sim_cfg_cachegrind(&m->cfg, i1, d1, ll);
	for (unsigned i = 0; i < SIM_MAX_LEVELS; i++)
		m->number[i] = m->side[i] = 0;
	m->number[SIM_I1] = 1;
	m->side[SIM_I1] = SIM_SIDE_INSN;
	m->number[SIM_D1] = 1;
	m->side[SIM_D1] = SIM_SIDE_DATA;
	m->number[SIM_LL] = 2;
	m->side[SIM_LL] = SIM_SIDE_UNIFIED;
}

bool sim_model_detected(struct sim_model *m, const struct sim_detected *c, size_t n,
			struct sim_msgs *msgs)
{
	struct table t;

	table_clear(&t);
	msgs->nwarn = 0;
	m->name[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (c[i].level < 1 || c[i].level > SIM_MODEL_MAX_NUMBER || c[i].is_trace_cache)
			continue;
		unsigned side = c[i].kind == SIM_KIND_INSN   ? SIM_SIDE_INSN :
				c[i].kind == SIM_KIND_DATA   ? SIM_SIDE_DATA :
							       SIM_SIDE_UNIFIED;
		struct spec *sp = &t.s[c[i].level][side];
		if (sp->present)
			continue;
		sp->present = true;
		sp->given = G_ALL;
		sp->lc.geom = (struct sim_geom){ c[i].size, c[i].assoc, c[i].line_size };
		struct sim_geom before = sp->lc.geom;
		if (sim_geom_tweak_ll(&sp->lc.geom) && msgs->nwarn < SIM_MAX_WARN) {
			struct sbuf b = msg_start(&msgs->warn[msgs->nwarn++], 0);
			level_label(&b, c[i].level, side);
			put_str(&b, ": ");
			put_uint(&b, before.size);
			put_str(&b, " B ");
			put_uint(&b, before.assoc);
			put_str(&b, "-way has no power-of-two set count: simulated as ");
			put_uint(&b, sp->lc.geom.size);
			put_str(&b, " B ");
			put_uint(&b, sp->lc.geom.assoc);
			put_str(&b, "-way");
		}
	}
	return table_build(m, &t, msgs);
}

/* ---- the text format --------------------------------------------------------- */

struct cursor {
	const char *p, *end;
};

static void skip_space(struct cursor *c)
{
	while (c->p < c->end && is_space(*c->p))
		c->p++;
}

/* A word: up to a space, '=' or the end. */
static size_t word(struct cursor *c, const char **w)
{
	*w = c->p;
	while (c->p < c->end && !is_space(*c->p) && *c->p != '=')
		c->p++;
	return (size_t)(c->p - *w);
}

static bool bad(struct sim_msgs *msgs, unsigned line, const char *what, const char *s,
		size_t len, const char *tail)
{
	struct sbuf b = msg_start(&msgs->error, line);
	put_str(&b, what);
	if (s) {
		put_str(&b, " '");
		put_mem(&b, s, len > 40 ? 40 : len);
		put_str(&b, "'");
	}
	if (tail)
		put_str(&b, tail);
	return false;
}

static int lookup(const char *s, size_t len, const char *const *names, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (same(s, len, names[i]))
			return (int)i;
	return -1;
}

static const char *const repl_names[SIM_REPL_COUNT] = { "lru",	  "plru",  "fifo",
							 "random", "srrip", "brrip" };
static const char *const incl_names[SIM_INCL_COUNT] = { "nine", "inclusive", "exclusive" };
static const char *const write_names[SIM_WRITE_COUNT] = { "none", "back", "through" };
static const char *const pf_names[4] = { "none", "next", "stride", "next+stride" };

/* One "key=value" of a level line into *sp. */
static bool level_key(struct spec *sp, const char *k, size_t kl, const char *v, size_t vl,
		      unsigned line, struct sim_msgs *msgs)
{
	int x;
	uint32_t u;

	if (same(k, kl, "size") || same(k, kl, "assoc") || same(k, kl, "line")) {
		if (!sim_parse_size(v, vl, &u))
			return bad(msgs, line, "not a number:", v, vl,
				   " (digits, then K, M or G for 1024, 1024^2, 1024^3)");
		if (k[0] == 's') {
			sp->lc.geom.size = u;
			sp->given |= G_SIZE;
		} else if (k[0] == 'a') {
			sp->lc.geom.assoc = u;
			sp->given |= G_ASSOC;
		} else {
			sp->lc.geom.line_size = u;
			sp->given |= G_LINE;
		}
	} else if (same(k, kl, "policy")) {
		if ((x = lookup(v, vl, repl_names, SIM_REPL_COUNT)) < 0)
			return bad(msgs, line, "policy", v, vl,
				   " is not one of lru, plru, fifo, random, srrip, brrip");
		sp->lc.repl = (enum sim_repl)x;
	} else if (same(k, kl, "inclusion")) {
		if ((x = lookup(v, vl, incl_names, SIM_INCL_COUNT)) < 0)
			return bad(msgs, line, "inclusion", v, vl,
				   " is not one of nine, inclusive, exclusive");
		sp->lc.incl = (enum sim_incl)x;
	} else if (same(k, kl, "write")) {
		if ((x = lookup(v, vl, write_names, SIM_WRITE_COUNT)) < 0)
			return bad(msgs, line, "write", v, vl, " is not one of none, back, through");
		sp->lc.write = (enum sim_write)x;
	} else if (same(k, kl, "prefetch")) {
		if (same(v, vl, "stride+next"))
			x = 3;
		else if ((x = lookup(v, vl, pf_names, 4)) < 0)
			return bad(msgs, line, "prefetch", v, vl,
				   " is not one of none, next, stride, next+stride");
		sp->lc.prefetch = (unsigned)x;
	} else {
		return bad(msgs, line, "unknown key", k, kl,
			   " (size, assoc, line, policy, inclusion, write, prefetch)");
	}
	return true;
}

/* "L2", "L1I", "I1", "LL" ...: *number (0 for LL) and *side */
static bool level_token(const char *s, size_t len, unsigned *number, unsigned *side)
{
	if (same(s, len, "LL")) {
		*number = 0;
		*side = SIM_SIDE_UNIFIED;
		return true;
	}
	if (len == 2 && (s[0] == 'I' || s[0] == 'D') && s[1] == '1') {
		*number = 1;
		*side = s[0] == 'I' ? SIM_SIDE_INSN : SIM_SIDE_DATA;
		return true;
	}
	if ((len == 2 || len == 3) && s[0] == 'L' && s[1] >= '1' &&
	    s[1] <= '0' + SIM_MODEL_MAX_NUMBER) {
		*number = (unsigned)(s[1] - '0');
		*side = len == 2 ? SIM_SIDE_UNIFIED : s[2] == 'I' ? SIM_SIDE_INSN :
				   s[2] == 'D' ? SIM_SIDE_DATA : 3;
		return *side != 3;
	}
	return false;
}

/* The keys a level line gave, kept to apply them to LL at the end. */
struct edit {
	unsigned line;
	const char *p, *end; /* the key=value part */
};

static bool apply_keys(struct spec *sp, const char *p, const char *end, unsigned line,
		       struct sim_msgs *msgs)
{
	struct cursor c = { p, end };

	for (;;) {
		const char *k, *v;
		skip_space(&c);
		if (c.p == c.end)
			return true;
		size_t kl = word(&c, &k);
		if (c.p == c.end || *c.p != '=')
			return bad(msgs, line, "expected key=value, not", k, kl, NULL);
		c.p++;
		size_t vl = word(&c, &v);
		if (kl == 0 || vl == 0)
			return bad(msgs, line, "expected key=value", NULL, 0, NULL);
		if (!level_key(sp, k, kl, v, vl, line, msgs))
			return false;
		sp->line = line;
	}
}

bool sim_model_parse(struct sim_model *m, const char *text, size_t len,
		     const struct sim_model *host, const struct sim_model *cachegrind,
		     struct sim_msgs *msgs)
{
	struct table t;
	struct edit ll[16];
	unsigned nll = 0, line = 0;
	bool levels_seen = false;
	const char *p = text, *end = text + len;

	table_clear(&t);
	msgs->nwarn = 0;
	msgs->need = 0;
	msgs->error = (struct sim_msg){ 0, { 0 } };
	m->name[0] = 0;
	while (p < end) {
		const char *eol = p, *stop;
		while (eol < end && *eol != '\n')
			eol++;
		line++;
		stop = p;
		while (stop < eol && *stop != '#')
			stop++;
		struct cursor c = { p, stop };
		p = eol < end ? eol + 1 : eol;
		while (c.end > c.p && is_space(c.end[-1]))
			c.end--;
		skip_space(&c);
		if (c.p == c.end)
			continue;
		for (const char *q = c.p; q < c.end; q++)
			if (*q == 0)
				return bad(msgs, line, "a NUL byte in the text", NULL, 0, NULL);
		const char *w;
		size_t wl = word(&c, &w);
		bool colon = wl > 0 && w[wl - 1] == ':';
		if (colon) { /* a level line */
			unsigned number, side;
			if (!level_token(w, wl - 1, &number, &side))
				return bad(msgs, line, "unknown level", w, wl - 1,
					   " (L1 .. L4, L1I, L1D, L2I ..., I1, D1, LL)");
			levels_seen = true;
			if (number == 0) {
				if (nll == sizeof(ll) / sizeof(ll[0]))
					return bad(msgs, line, "too many LL lines", NULL, 0, NULL);
				ll[nll++] = (struct edit){ line, c.p, c.end };
				/* checked now, applied at the end */
				struct spec scratch;
				spec_default(&scratch);
				if (!apply_keys(&scratch, c.p, c.end, line, msgs))
					return false;
				continue;
			}
			struct spec *sp = &t.s[number][side];
			sp->present = true;
			sp->line = line;
			if (!apply_keys(sp, c.p, c.end, line, msgs))
				return false;
			continue;
		}
		/* name = value, base = value */
		skip_space(&c);
		if (c.p == c.end || *c.p != '=')
			return bad(msgs, line, "expected 'name = ...', 'base = ...' or a level line "
					       "('L2: size=...'), not",
				   w, wl, NULL);
		c.p++;
		skip_space(&c);
		const char *v = c.p;
		size_t vl = (size_t)(c.end - c.p);
		if (same(w, wl, "name")) {
			if (vl == 0 || vl >= SIM_MODEL_NAME_MAX)
				return bad(msgs, line, "a name has 1 to 15 characters", NULL, 0, NULL);
			for (size_t i = 0; i < vl; i++) {
				char ch = v[i];
				if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
				      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-'))
					return bad(msgs, line, "name", v, vl,
						   ": letters, digits, '_' and '-' only");
			}
			for (size_t i = 0; i < vl; i++)
				m->name[i] = v[i];
			m->name[vl] = 0;
		} else if (same(w, wl, "base")) {
			const struct sim_model *b = same(v, vl, "host")	      ? host :
						    same(v, vl, "cachegrind") ? cachegrind :
										(const struct sim_model *)0;
			if (!same(v, vl, "host") && !same(v, vl, "cachegrind"))
				return bad(msgs, line, "base", v, vl, " is not host or cachegrind");
			if (levels_seen)
				return bad(msgs, line, "base comes before the levels", NULL, 0, NULL);
			if (!b) {
				msgs->need = same(v, vl, "host") ? SIM_NEED_HOST : SIM_NEED_CACHEGRIND;
				return bad(msgs, line, "the base", v, vl, " is not known here");
			}
			table_from_model(&t, b);
		} else {
			return bad(msgs, line, "unknown setting", w, wl, " (name, base)");
		}
	}
	/* LL: the highest level, both sides when it is split */
	for (unsigned i = 0; i < nll; i++) {
		unsigned top = 0;
		for (unsigned n = 1; n <= SIM_MODEL_MAX_NUMBER; n++)
			for (unsigned s = 0; s < 3; s++)
				if (t.s[n][s].present)
					top = n;
		if (top == 0)
			return bad(msgs, ll[i].line, "LL: no level given", NULL, 0, NULL);
		for (unsigned s = 0; s < 3; s++)
			if (t.s[top][s].present &&
			    !apply_keys(&t.s[top][s], ll[i].p, ll[i].end, ll[i].line, msgs))
				return false;
	}
	return table_build(m, &t, msgs);
}

bool sim_model_set_geom(struct sim_model *m, unsigned which, const struct sim_geom *g)
{
	unsigned top = 0;
	bool done = false;

	for (unsigned i = 0; i < m->cfg.nlevels; i++)
		if (m->number[i] > top)
			top = m->number[i];
	for (unsigned i = 0; i < m->cfg.nlevels; i++) {
		bool hit = which == SIM_I1 ? m->number[i] == 1 && m->side[i] == SIM_SIDE_INSN :
			   which == SIM_D1 ? m->number[i] == 1 && m->side[i] == SIM_SIDE_DATA :
					     m->number[i] == top;
		if (hit) {
			m->cfg.level[i].geom = *g;
			done = true;
		}
	}
	return done;
}

void sim_model_level_name(const struct sim_model *m, unsigned level, char out[8])
{
	struct sbuf b = { out, 8, 0 };

	out[0] = 0;
	level_label(&b, m->number[level], m->side[level]);
}

/* ---- events ------------------------------------------------------------------- */

static unsigned add_event(struct sim_event_map *map, const char *a, uint64_t num, const char *b,
			  const char *desc1, const char *desc2, bool dirty)
{
	struct sim_event *e;
	struct sbuf s;

	if (map->nevents == SIM_MAX_EVENTS)
		return SIM_NONE;
	e = &map->ev[map->nevents];
	s = (struct sbuf){ e->name, sizeof(e->name), 0 };
	e->name[0] = 0;
	put_str(&s, a);
	if (num)
		put_uint(&s, num);
	put_str(&s, dirty ? "d" : "");
	put_str(&s, b);
	s = (struct sbuf){ e->desc, sizeof(e->desc), 0 };
	e->desc[0] = 0;
	put_str(&s, desc1);
	if (num)
		put_uint(&s, num);
	put_str(&s, desc2);
	if (dirty)
		put_str(&s, " evicting a dirty line");
	return map->nevents++;
}

/* The events of level i, the misses (dirty false) or the misses evicting a
 * dirty line: ev[kind] for the kinds that reach it. */
static void level_events(const struct sim_model *m, unsigned i, unsigned top, bool dirty,
			 struct sim_event_map *map, uint8_t ev[3])
{
	unsigned n = m->number[i];

	ev[0] = ev[1] = ev[2] = SIM_NONE;
	switch (m->side[i]) {
	case SIM_SIDE_INSN:
		if (!dirty)
			ev[SIM_ACC_FETCH] =
				(uint8_t)add_event(map, "I", n, "mr", "L", " instruction fetch misses", false);
		break;
	case SIM_SIDE_DATA:
		ev[SIM_ACC_READ] = (uint8_t)add_event(map, "D", n, "mr", "L", " data read misses", dirty);
		ev[SIM_ACC_WRITE] = (uint8_t)add_event(map, "D", n, "mw", "L", " data write misses", dirty);
		break;
	default:
		if (n == top) {
			ev[SIM_ACC_FETCH] = (uint8_t)add_event(map, "IL", 0, "mr", "LL",
							       " instruction fetch misses", dirty);
			ev[SIM_ACC_READ] = (uint8_t)add_event(map, "DL", 0, "mr", "LL",
							      " data read misses", dirty);
			ev[SIM_ACC_WRITE] = (uint8_t)add_event(map, "DL", 0, "mw", "LL",
							       " data write misses", dirty);
		} else {
			ev[SIM_ACC_FETCH] = ev[SIM_ACC_READ] = (uint8_t)add_event(
				map, "L", n, "mr", "L", " read misses (fetches and loads)", dirty);
			ev[SIM_ACC_WRITE] =
				(uint8_t)add_event(map, "L", n, "mw", "L", " write misses", dirty);
		}
		break;
	}
}

void sim_model_events(const struct sim_model *m, struct sim_event_map *map)
{
	const struct sim_hier_cfg *cfg = &m->cfg;
	uint8_t miss_of[SIM_MAX_LEVELS][3], dirty_of[SIM_MAX_LEVELS][3];
	unsigned top = 0;

	map->nevents = 0;
	for (unsigned i = 0; i < cfg->nlevels; i++)
		if (m->number[i] > top)
			top = m->number[i];
	for (unsigned i = 0; i < cfg->nlevels; i++)
		level_events(m, i, top, false, map, miss_of[i]);
	for (unsigned i = 0; i < cfg->nlevels; i++) {
		dirty_of[i][0] = dirty_of[i][1] = dirty_of[i][2] = SIM_NONE;
		if (cfg->level[i].write == SIM_WRITE_BACK)
			level_events(m, i, top, true, map, dirty_of[i]);
	}
	for (unsigned k = 0; k < 3; k++) {
		unsigned lv = k == SIM_ACC_FETCH ? cfg->ientry : cfg->dentry;
		for (unsigned d = 0; d < SIM_MAX_LEVELS; d++) {
			map->miss[k][d] = map->dirty[k][d] = SIM_NONE;
			if (lv != SIM_NONE && lv < cfg->nlevels) {
				map->miss[k][d] = miss_of[lv][k];
				map->dirty[k][d] = dirty_of[lv][k];
				lv = cfg->level[lv].next;
			}
		}
	}
}
