/* format.c -- counts, thresholds and labels; see format.h.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "format.h"
#include "aggregate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void format_count(char *b, size_t size, cost_t v)
{
	char tmp[32], out[48];
	uint64_t u = cost_mag(v);
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)u);
	char *o = out;
	if (v < 0)
		*o++ = '-';
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			*o++ = ',';
		*o++ = tmp[i];
	}
	*o = 0;
	snprintf(b, size, "%s", out);
}

void format_threshold(char *buf, size_t n, double v)
{
	if (v == floor(v) && fabs(v) < 1e16) {
		snprintf(buf, n, "%.1f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

const char *event_meaning(const char *name)
{
	/* as cachegrind's and callgrind's manuals name them */
	static const char *const ev[][2] = {
		{ "Ir", "instructions executed (I cache reads)" },
		{ "Dr", "data reads (memory loads)" },
		{ "Dw", "data writes (memory stores)" },
		{ "I1mr", "L1 instruction cache read misses" },
		{ "D1mr", "L1 data cache read misses" },
		{ "D1mw", "L1 data cache write misses" },
		{ "ILmr", "last-level cache instruction read misses" },
		{ "DLmr", "last-level cache data read misses" },
		{ "DLmw", "last-level cache data write misses" },
		{ "I2mr", "L2 instruction read misses (older Valgrind)" },
		{ "D2mr", "L2 data read misses (older Valgrind)" },
		{ "D2mw", "L2 data write misses (older Valgrind)" },
		{ "Bc", "conditional branches executed" },
		{ "Bcm", "conditional branches mispredicted" },
		{ "Bi", "indirect branches executed" },
		{ "Bim", "indirect branches mispredicted" },
		{ "Ge", "global bus events (atomic instructions)" },
		{ "sysCount", "system calls" },
		{ "sysTime", "time in system calls" },
		{ "AcCost1", "L1 access cost of cache lines (--cacheuse)" },
		{ "SpLoss1", "L1 spatial loss: bytes of lines loaded never used (--cacheuse)" },
		{ "AcCost2", "last-level access cost (--cacheuse)" },
		{ "SpLoss2", "last-level spatial loss (--cacheuse)" },
	};
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		if (!strcmp(ev[i][0], name))
			return ev[i][1];
	return NULL;
}

void part_label(char *buf, size_t n, const struct profile *p, int k)
{
	const struct part_info *pi = &p->parts[k - 1];
	int num = pi->number ? pi->number : k, of = p->nparts;
	for (int i = 0; i < p->nparts; i++) /* of the numbers the files give */
		if (p->parts[i].number > of)
			of = p->parts[i].number;
	if (pi->thread)
		snprintf(buf, n, "part %d of %d, thread %ld", num, of, pi->thread);
	else
		snprintf(buf, n, "part %d of %d", num, of);
}

/* Appends the n bytes at text to the string at *s (length *len,
 * capacity *cap). */
static void put_n(char **s, size_t *len, size_t *cap, const char *text, size_t n)
{
	VEC_RESERVE(*s, *cap, *len + n + 1);
	memcpy(*s + *len, text, n);
	(*s)[*len += n] = 0;
}

static void put(char **s, size_t *len, size_t *cap, const char *text)
{
	put_n(s, len, cap, text, strlen(text));
}

static char *label(struct profile *p, uint32_t id, int with_cycle, unsigned flags);

/* The one label (format.h's fn_label), appended at *s: written in place,
 * not made and copied, as a cycle's list of its members is 300,000 of them
 * on a big profile.  Folding the templates (flags) folds the name, never
 * the cycle's "<cycle N>". */
static void label_put(struct profile *p, uint32_t id, int with_cycle, unsigned flags, char **s,
		      size_t *len, size_t *cap)
{
	const struct agg *a = profile_agg(p);
	uint32_t c = agg_cycle_no(a, id);
	char cyc[32] = "";
	if (agg_is_cycle(a, id)) {
		snprintf(cyc, sizeof(cyc), "<cycle %u>", c);
		put(s, len, cap, cyc);
		return;
	}
	if (flags & LABEL_FOLD_TEMPLATES) {
		char *l = label(p, id, 0, 0), *f = fold_templates(l);
		put(s, len, cap, f);
		free(f);
		free(l);
	} else if (p->recovered && p->recovered[id] != NO_ID) {
		put(s, len, cap, p->names.str[p->recovered[id]]);
		put(s, len, cap, " [recovered from ");
		put(s, len, cap, fn_name(p, id));
		put(s, len, cap, "]");
	} else { /* (its length as interned) */
		put_n(s, len, cap, fn_name(p, id), p->names.len[p->fns[id].name]);
	}
	if (c && with_cycle) {
		snprintf(cyc, sizeof(cyc), " <cycle %u>", c);
		put(s, len, cap, cyc);
	}
}

static char *label(struct profile *p, uint32_t id, int with_cycle, unsigned flags)
{
	char *s = NULL;
	size_t len = 0, cap = 0;
	label_put(p, id, with_cycle, flags, &s, &len, &cap);
	return s;
}

char *fold_templates(const char *s)
{
	size_t n = strlen(s);
	char *out = xmalloc(n + 1), *o = out;
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		/* operator<, operator<<, operator<=, operator<=> are no templates */
		if (c == '<' && !depth && i >= 8 && !strncmp(s + i - 8, "operator", 8)) {
			*o++ = c;
			while (i + 1 < n && (s[i + 1] == '<' || s[i + 1] == '=' || s[i + 1] == '>'))
				*o++ = s[++i];
			continue;
		}
		if (c == '<') {
			if (!depth++) {
				memcpy(o, "<...", 4);
				o += 4;
			}
			continue;
		}
		if (c == '>' && depth) {
			if (!--depth)
				*o++ = '>';
			continue;
		}
		if (!depth)
			*o++ = c;
	}
	if (depth) { /* unbalanced: as it was */
		free(out);
		return xstrdup(s);
	}
	*o = 0;
	return out;
}

char *fn_label_ex(struct profile *p, uint32_t id, unsigned flags)
{
	return label(p, id, 1, flags);
}

char *fn_label(struct profile *p, uint32_t id)
{
	return label(p, id, 1, 0);
}

char *edge_label_ex(struct profile *p, uint32_t id, uint32_t via, unsigned flags)
{
	char *l = fn_label_ex(p, id, flags);
	if (via == NO_ID)
		return l;
	/* the member's own " <cycle N>" is said by the cycle already */
	char *m = label(p, via, 0, flags), *r;
	r = xasprintf("%s via %s", l, m);
	free(l);
	free(m);
	return r;
}

char *edge_label(struct profile *p, uint32_t id, uint32_t via)
{
	return edge_label_ex(p, id, via, 0);
}

const char *call_kind_text(char *buf, size_t n, enum call_kind kind, uint32_t cycle, int width)
{
	/* the longest form that fits the column */
	for (int form = 0; form < 4; form++) {
		if (kind == CALL_RECURSIVE)
			snprintf(buf, n, "%s", form == 0 ? "(recursive)" : form == 1 ? "recursive" : "rec");
		else if (kind == CALL_IN_CYCLE)
			snprintf(buf, n, form == 0 ? "(in cycle %u)" : form == 1 ? "(cycle %u)" : "cycle %u",
				 cycle);
		else
			return NULL;
		if ((int)strlen(buf) <= width)
			break;
	}
	return buf;
}

char *cycle_members(struct profile *p, uint32_t id, size_t room)
{
	const struct agg *a = profile_agg(p);
	uint32_t k = agg_cycle_no(a, id);
	uint32_t n = a->cyc_start[k] - a->cyc_start[k - 1];
	size_t len = 0, cap = 64;
	char *s = xmalloc(cap);
	len = (size_t)snprintf(s, cap, "%u functions:", n);
	for (uint32_t i = a->cyc_start[k - 1]; i < a->cyc_start[k]; i++) {
		size_t before = len;
		put(&s, &len, &cap, i > a->cyc_start[k - 1] ? ", " : " ");
		size_t at = len;
		label_put(p, a->cyc_fn[i], 0, 0, &s, &len, &cap);
		if (before + (len - at) + 2 > room) { /* the last that fits: "..." */
			len = at;
			put(&s, &len, &cap, "...");
			break;
		}
	}
	return s;
}
