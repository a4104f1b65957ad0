/* load_int.h -- what the files of the Cachegrind/Callgrind loader share
 * (src/profile/load/): not for readers of profiles, who include
 * profile/load.h.  The files:
 *   load.c    profile_load() (how a file is read, how it ended) and
 *             profile_finish()
 *   reader.c  the file's bytes: through a buffer (plain, gzip) or mapped,
 *             a SIGBUS caught
 *   fast.c    the fast paths: common lines read in place, and the loop
 *             over a mapped file; fastlex.h their inline readers of a
 *             line's parts
 *   runs.c    the runs of cost lines worker threads read (par.c), and
 *             their summaries applied
 *   par.c     the worker threads and their chunks
 *   parse.c   the general parser: parse_line(), cost lines, the body's
 *             specification lines
 *   header.c  header lines (events:, positions:, summary:, ...)
 *   names.c   the names of specification lines; idmap.c keeps their ids
 *   lazy.c    deferred line records: segments, and reading them again
 * and here, the table of the format's keys that all of them read by.
 * No static in them changes but what a thread's SIGBUS needs (reader.c):
 * loads may run in several threads at once, each with its own parser.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_LOAD_INT_H
#define CGTUI_LOAD_INT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include "profile/load.h"
#include "profile/scope.h"

/* ---- compressed-id maps (idmap.c) ---------------------------------------- */

/* Ids 0 .. ndirect-1 live in the direct array and every other id in the
 * hash: where an id lives depends on ndirect alone, so it is found where it
 * was put.  The direct array grows (doubling) for an id just above it while
 * ids stay dense -- a handful of huge ids stay in the hash, so "(16000000)"
 * alone costs no 64 MB array -- and then takes over the hash's ids it now
 * covers. */
struct idmap {
	uint32_t *direct;  /* values of ids 0 .. ndirect-1 */
	uint32_t ndirect;
	uint32_t ndense;   /* ids in the direct array */
	int64_t *keys;     /* other ids: open addressing */
	uint32_t *vals; /* value + 1; 0 = empty; ID_PENDING: used, not yet defined */
	uint32_t mask, n;
	/* ids used before their definition, with the line of first use (some
	 * may have been defined since) */
	struct idpend {
		int64_t id;
		uint64_t line;
	} *pend;
	uint32_t npend, cappend;
};
#define ID_PENDING 0x80000000u

/* The value slot of key: NULL when absent and !insert; else made (0) when
 * absent, for the caller to fill. */
uint32_t *idmap_slot(struct idmap *m, int64_t key, int insert);
void idmap_clear(struct idmap *m);
/* A table indexed by id grown to cover index key (see idmap.c). */
void grow_by_id(void **a, uint32_t *n, uint64_t key, size_t elem, int fill);

/* ---- the format's keys --------------------------------------------------- */

/* Every key of the format the loader knows, once, for every reader of it
 * (parse.c's general parser, fast.c's fast paths, lazy.c's segments and
 * replay): the name, the character after it (':' in the header, '=' in the
 * body, format spec 3.1.1), the id space of the name it carries (3.1.5;
 * NS_NONE: it carries none), and flags:
 *   K_CG       Cachegrind's format has it (any other key makes a file
 *              Callgrind's: cg_fmt)
 *   K_INCALL   may stand between calls= and its cost line (3.1.3)
 *   K_SEGMENT  does not change where the costs of the cost lines around it
 *              go, so it may stay inside a lazy segment (lazy.c) */
enum { NS_OBJ, NS_FILE, NS_FN, NS_NONE };
enum { K_CG = 1, K_INCALL = 2, K_SEGMENT = 4 };
#define FORMAT_KEYS(X)                                              \
	X(CALLS, "calls", '=', NS_NONE, K_SEGMENT)                  \
	X(CFN, "cfn", '=', NS_FN, K_INCALL | K_SEGMENT)             \
	X(CFI, "cfi", '=', NS_FILE, K_INCALL | K_SEGMENT)           \
	X(CFL, "cfl", '=', NS_FILE, K_INCALL | K_SEGMENT)           \
	X(COB, "cob", '=', NS_OBJ, K_INCALL | K_SEGMENT)            \
	X(JUMP, "jump", '=', NS_NONE, K_SEGMENT)                    \
	X(JCND, "jcnd", '=', NS_NONE, K_SEGMENT)                    \
	X(FI, "fi", '=', NS_FILE, 0)                                \
	X(FE, "fe", '=', NS_FILE, 0)                                \
	X(FN, "fn", '=', NS_FN, K_CG)                               \
	X(FL, "fl", '=', NS_FILE, K_CG)                             \
	X(OB, "ob", '=', NS_OBJ, 0)                                 \
	X(JFI, "jfi", '=', NS_FILE, K_SEGMENT)                      \
	X(JFN, "jfn", '=', NS_FN, K_SEGMENT)                        \
	X(VERSION, "version", ':', NS_NONE, 0)                      \
	X(CREATOR, "creator", ':', NS_NONE, 0)                      \
	X(PID, "pid", ':', NS_NONE, 0)                              \
	X(CMD, "cmd", ':', NS_NONE, K_CG)                           \
	X(PART, "part", ':', NS_NONE, 0)                            \
	X(THREAD, "thread", ':', NS_NONE, 0)                        \
	X(DESC, "desc", ':', NS_NONE, K_CG)                         \
	X(POSITIONS, "positions", ':', NS_NONE, 0)                  \
	X(EVENTS, "events", ':', NS_NONE, K_CG)                     \
	X(EVENT, "event", ':', NS_NONE, 0)                          \
	X(SUMMARY, "summary", ':', NS_NONE, K_CG)                   \
	X(TOTALS, "totals", ':', NS_NONE, 0)

#define FK_ENUM_(id, name, sep, ns, flags) FK_##id,
enum fkey { FK_NONE, FORMAT_KEYS(FK_ENUM_) FK_COUNT };
#undef FK_ENUM_
/* no name is longer */
#define FK_MAXLEN 9
#define FK_MAX_(id, name, sep, ns, flags) \
	_Static_assert(sizeof(name) - 1 <= FK_MAXLEN, "FK_MAXLEN is the longest key");
FORMAT_KEYS(FK_MAX_)
#undef FK_MAX_

static inline unsigned fkey_flags(enum fkey k)
{
#define FK_FLAGS_(id, name, sep, ns, flags) flags,
	static const uint8_t f[FK_COUNT] = { 0, FORMAT_KEYS(FK_FLAGS_) };
#undef FK_FLAGS_
	return f[k];
}

static inline size_t fkey_len(enum fkey k)
{
#define FK_LEN_(id, name, sep, ns, flags) sizeof(name) - 1,
	static const uint8_t l[FK_COUNT] = { 0, FORMAT_KEYS(FK_LEN_) };
#undef FK_LEN_
	return l[k];
}

static inline int fkey_ns(enum fkey k)
{
#define FK_NS_(id, name, sep, ns, flags) ns,
	static const uint8_t n[FK_COUNT] = { NS_NONE, FORMAT_KEYS(FK_NS_) };
#undef FK_NS_
	return n[k];
}

/* Does the text at s start with the n characters of name, then sep?  Read
 * up to the first difference only, so s may be any NUL-terminated text. */
static inline int key_at(const char *s, const char *name, size_t n, char sep)
{
#pragma GCC unroll 10
	for (size_t i = 0; i < n; i++)
		if (s[i] != name[i])
			return 0;
	return s[n] == sep;
}

/* The key the line at s (NUL-terminated, or with FK_MAXLEN + 1 bytes to
 * read) starts with, followed by sep; FK_NONE when it starts with none the
 * format has.  The comparisons are made with the names as constants, so
 * the compiler makes them a few byte tests. */
static inline enum fkey line_key(const char *s, char sep)
{
#define FK_IS_(id, name, sp, ns, flags)                                      \
	if (sep == (sp) && key_at(s, name, sizeof(name) - 1, sp))            \
		return FK_##id;
	FORMAT_KEYS(FK_IS_)
#undef FK_IS_
	return FK_NONE;
}

/* ---- the general parser (parse.c, header.c, names.c) --------------------- */

struct lazy_lines;
struct modname_scratch;

enum { POS_LINE, POS_INSTR };
/* "positions:" may name up to this many subpositions; instr and line are
 * kept (pos[0], pos[1]), others (qt-creator's memAddr) read and ignored,
 * into pos[POS_IGN] */
#define MAX_SUBPOS 8
#define POS_IGN 2
enum { PEND_NONE, PEND_CALL, PEND_JUMP };

struct parser {
	struct profile *p;
	const struct load_opts *o;
	const char *path;
	uint64_t lineno;
	char *err;
	size_t errsz;

	int npos;           /* subpositions on a cost line */
	int8_t slot[MAX_SUBPOS]; /* where each goes in pos[]: 0 or 1, or POS_IGN
				  * for a kind neither instr nor line (read,
				  * not kept); slot[k] == k when none is */
	int nign;           /* subpositions of such kinds */
	int warned_pos;     /* warned about them in this file */
	int linek;          /* which slot is the line, -1 if none */
	int instrk;         /* which slot is the address, -1 if none */
	int64_t last[3];    /* [POS_IGN]: always 0 */

	int nev;            /* events in this file's events: line */
	int evmap[MAX_EVENTS];
	int have_events;
	int identity;       /* evmap[i] == i: this file's events in the profile's order */

	struct idmap obmap, flmap, fnmap;
	int use_obj;        /* ob= seen: functions keyed by object */
	uint32_t ob, fl, fi, fnname, fn;
	uint32_t fnobj, fnfile; /* object and file at the fn= line */
	int seen_fl;        /* an fl= line in this file */
	/* Cachegrind's format: a cmd: line (it is required there) and, so
	 * far, nothing that only Callgrind's format has ("# callgrind format"
	 * as the first line, a header or a key Cachegrind does not write, name
	 * compression: cg_fmt) */
	int cmd_seen, cg_fmt;
	uint64_t partial;   /* the last line, without a newline: its number */
	int cg_creator;     /* "creator: callgrind..." or our tool's: they end
			     * a file with totals: (creator_names_contexts) */
	int totals_last;    /* the last line read (not empty, no comment) is
			     * totals:, as callgrind ends its files */
	uint64_t fi_lineno; /* the last fi=/fe= line's number */
	struct mrc_reader *mrc; /* this file's miss-ratio curves, once one is seen */
	/* name id -> the function last found for it, with its key: checked
	 * without reading the function (a cache miss per call otherwise) */
	struct name_fn {
		uint32_t fn, obj, file;
	} *name_fn;
	uint32_t nname_fn;
	uint32_t names_before; /* names the profile had before this load */
	struct modname_scratch *modsc; /* this load's, for --mod-* (names.c) */
	uint32_t cob, cfl, cfn;
	int pending;
	cost_t call_count;
	cost_t jexe, jtaken;
	int jcond;
	uint32_t jtfile, jtline;
	uint64_t jtaddr, ctaddr; /* jump and call targets' addresses */
	uint32_t jfi;       /* jfi= target file of the next jump, NO_ID if none */
	cost_t lastcost[MAX_EVENTS]; /* for '*' in a cost column */

	struct part_info *part;
	int any_cost;       /* a cost line seen in this part */
	int skip_block;     /* a sink does not want this block's cost lines */
	int skip_part;      /* the part is not in the load's set: no cost line read */
	int stale;          /* cost lines were skipped: last[] is unknown */

	/* deferred line records (load_opts.lazy_lines): NULL when not */
	struct lazy_lines *lz;
	uint32_t lz_src;     /* this file's index in lz->src */
	int seg_open;        /* a segment is being read: seg */
	struct lz_seg {              /* 48 bytes: there are millions */
		uint64_t start, end; /* its bytes in the file */
		int64_t last[2];     /* the positions before its first line */
		uint32_t chunk;      /* the line store chunk its costs went to */
		uint32_t src, fi;
		uint32_t fmt : 31;
		uint32_t call : 1;   /* a calls= line waits for its cost line */
	} seg;
	cost_t seg_lc[MAX_EVENTS]; /* lastcost when the segment started */
	int seg_star;        /* and a cost "*" (the previous value) read since */
};
_Static_assert(sizeof(struct lz_seg) == 48, "a segment stays 48 bytes");

/* The compressed ids of the names of kind ns (NS_OBJ, NS_FILE, NS_FN). */
static inline struct idmap *ns_map(struct parser *ps, int ns)
{
	return ns == NS_OBJ ? &ps->obmap : ns == NS_FILE ? &ps->flmap : &ps->fnmap;
}

/* "FILE:LINE: " and the message, in ps->err: returns -1. */
int perr(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static inline const char *skip_ws(const char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

/* Parses an unsigned decimal or 0x hex number; returns the end or NULL on
 * overflow (*ovf set) or no digits. */
static inline const char *parse_u64(const char *s, uint64_t *v, int *ovf)
{
	uint64_t x = 0;
	const char *b;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		b = s;
		for (;; s++) {
			unsigned d;
			char c = *s;
			if (c >= '0' && c <= '9')
				d = (unsigned)(c - '0');
			else if (c >= 'a' && c <= 'f')
				d = (unsigned)(c - 'a' + 10);
			else if (c >= 'A' && c <= 'F')
				d = (unsigned)(c - 'A' + 10);
			else
				break;
			if (x >> 60) {
				*ovf = 1;
				return NULL;
			}
			x = x << 4 | d;
		}
	} else {
		/* 19 digits always fit; the 20th is checked */
		b = s;
		unsigned d;
		while ((d = (unsigned)(*s - '0')) < 10 && s - b < 19) {
			x = x * 10 + d;
			s++;
		}
		if ((d = (unsigned)(*s - '0')) < 10) {
			if (x > (UINT64_MAX - d) / 10 || (unsigned)(s[1] - '0') < 10) {
				*ovf = 1;
				return NULL;
			}
			x = x * 10 + d;
			s++;
		}
	}
	if (s == b)
		return NULL;
	*v = x;
	return s;
}

/* One subposition: absolute (decimal/hex), +N / -N relative to the last, or
 * '*' for the same.  Returns the end or NULL. */
const char *parse_subpos(struct parser *ps, const char *s, int k, int64_t *out);

/* Reads npos subpositions into their slots of pos[3]; missing trailing
 * ones keep `last`. */
static inline __attribute__((always_inline)) const char *
parse_positions(struct parser *ps, const char *s, int64_t pos[3], int need_all)
{
	pos[0] = ps->last[0];
	pos[1] = ps->last[1];
	for (int i = 0; i < ps->npos; i++) {
		int k = ps->slot[i];
		s = skip_ws(s);
		char c = *s;
		/* fast paths: "*", "+N", "-N" and "N" with a few decimal digits */
		if (c == '*' && (is_space(s[1]) || !s[1])) {
			pos[k] = ps->last[k];
			s++;
			continue;
		}
		const char *d = s + (c == '+' || c == '-');
		if ((unsigned)(*d - '0') < 10 && !(d[0] == '0' && (d[1] | 0x20) == 'x')) {
			const char *b = d;
			uint64_t x = 0;
			while ((unsigned)(*d - '0') < 10)
				x = x * 10 + (unsigned)(*d++ - '0');
			if (d - b <= 18 && (is_space(*d) || !*d)) {
				uint64_t l = (uint64_t)ps->last[k];
				pos[k] = (int64_t)(c == '+' ? l + x : c == '-' ? l - x : x);
				s = d;
				continue;
			}
		}
		if (!c) {
			if (need_all && i == 0)
				return perr(ps, "missing position"), NULL;
			return s;
		}
		s = parse_subpos(ps, s, k, &pos[k]);
		if (!s)
			return NULL;
		if (*s && !is_space(*s))
			return perr(ps, "bad position: unexpected '%c'", *s), NULL;
	}
	return s;
}

/* No positions: line: the default, one line number. */
static inline void default_positions(struct parser *ps)
{
	if (!ps->npos) {
		ps->npos = 1;
		ps->slot[0] = 0;
		ps->nign = 0;
		ps->linek = 0;
		ps->instrk = -1;
	}
}

static inline uint32_t line_of(struct parser *ps, const int64_t pos[2])
{
	return ps->linek >= 0 ? (uint32_t)pos[ps->linek] : 0;
}

static inline uint64_t addr_of(struct parser *ps, const int64_t pos[2])
{
	return ps->instrk >= 0 ? (uint64_t)pos[ps->instrk] : 0;
}

static inline int check_line_range(struct parser *ps, const int64_t pos[2])
{
	if (ps->linek >= 0 && (uint64_t)pos[ps->linek] > (uint64_t)UINT32_MAX - 1)
		return perr(ps, "line number %lld out of range", (long long)pos[ps->linek]);
	return 0;
}

/* Is c the first character of a cost line? */
static inline int cost_start(char c)
{
	return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*';
}

/* Reads the costs after the positions and adds them to dst[] (see
 * read_costs() in parse.c): 0, or -1 with the error. */
int parse_costs_into(struct parser *ps, const char *s, cost_t *dst, int count);

static inline uint32_t cur_obj(struct parser *ps)
{
	if (ps->ob == NO_ID)
		ps->ob = strtab_intern(&ps->p->objs, "", 0);
	return ps->ob;
}

static inline uint32_t cur_file(struct parser *ps)
{
	if (ps->fl == NO_ID)
		ps->fl = ps->fi = strtab_intern(&ps->p->files, "???", 3);
	return ps->fl;
}

static inline void set_cfn(struct parser *ps, uint32_t id)
{
	ps->cfn = id;
	/* get_fn() reads it two lines on, at the call's cost line */
	if (id < ps->nname_fn)
		__builtin_prefetch(&ps->name_fn[id]);
}

static inline void set_fi(struct parser *ps, uint32_t id)
{
	cur_file(ps);
	ps->fi = id;
	ps->fi_lineno = ps->lineno;
}

static inline void set_cob(struct parser *ps, uint32_t id)
{
	ps->cob = id;
	ps->use_obj = 1;
}

/* The cost line after calls=: the call, with its inclusive cost c. */
void finish_call(struct parser *ps, uint32_t line, const cost_t *c, const int64_t pos[2]);
/* The position line after jump=/jcnd=: the jump's source. */
void finish_jump(struct parser *ps, uint32_t line, const int64_t pos[2]);
/* A calls= line's count and target (tpos), read: -1 when the sum of call
 * counts would pass 2^63-1. */
int set_call(struct parser *ps, uint64_t cnt, const int64_t tpos[2]);
/* A jump=/jcnd= line's counts (a; b for jcnd=) and target, read: -1 when
 * the sum of jump counts would pass 2^63-1. */
int set_jump(struct parser *ps, int cond, uint64_t a, uint64_t b, const int64_t tpos[2]);
/* One line (len bytes at s, NUL-terminated, without its newline), read by
 * the general parser: 0, or -1 with the error. */
int parse_line(struct parser *ps, char *s, size_t len);
/* The file's last line, cut short (no '\n'; off: where it starts, for a
 * mapped file's segments): read as any other, or left out whole when it
 * does not read -- with the line store's entry its reading made (a cost
 * line's slot, made before its costs are read) -- and what came before it
 * kept: 0 either way (load.c warns that the file ends mid-line). */
int parse_cut_line(struct parser *ps, char *s, size_t len, uint64_t off);
/* The rest of parse_line() for a line "key=value" or "key: value" whose
 * key (k bytes at s, then the separator) the format has: a body line's
 * value of a name (fkey_ns() not NS_NONE) is read within the len bytes,
 * so such a line may be read in place, unterminated, when parse_line()
 * would have found no NUL, no "\r" at the end and, after calls=, a key
 * K_INCALL allows (fast.c); other values are read up to a NUL. */
int key_line(struct parser *ps, enum fkey key, const char *s, size_t k, size_t len);

/* The name of kind ns a specification line carries (the len bytes at s:
 * "(id) name", "(id)" or "name"), interned (names.c): its id in the
 * profile's table of that kind, or NO_ID with the error. */
uint32_t parse_name(struct parser *ps, int ns, const char *s, size_t len);
/* A header line "key: value" (header.c): 0, or -1 with the error. */
int header_line(struct parser *ps, enum fkey key, const char *val);
/* A new part (of the profile), started by part:, a second events: or an
 * Xdebug file appended: the one ps reads into. */
struct part_info *new_part(struct parser *ps);
/* Whether the part being read is in the load's set (skip_part), decided
 * again when its part: or thread: line comes. */
void part_pick(struct parser *ps);
/* The parser's state for a new file (or an Xdebug file appended to it). */
void reset_for_new_file(struct parser *ps);
/* At the end of a file: ids used but never defined keep a "(N)" name,
 * with a warning. */
void ids_finish(struct parser *ps);
/* The "event:" lines of every file, once all are in. */
void apply_evdefs(struct profile *p);

/* ---- the bound of all sums (model.h, summag) ----------------------------- */

/* Can a value of magnitude m, of event ev and sign neg, join the sums
 * without taking them beyond 2^63-1?  While the fast paths' self costs
 * are summed over all events (fastsum) the answer may be "no" for a value
 * that fits: exact says whether to make the sums exact then and look
 * again (not while the line store holds the value: it would count twice). */
static inline int sum_fits(struct profile *p, int neg, int ev, uint64_t m, int exact)
{
	/* each part is at most 2^63-1 and m at most 2^63: no wrap */
	if (p->summag[neg][ev] + (neg ? 0 : p->fastsum) + m <= (uint64_t)INT64_MAX)
		return 1;
	if (p->sums_exact || !exact)
		return 0;
	profile_sums_exact(p);
	return p->summag[neg][ev] + m <= (uint64_t)INT64_MAX;
}

static inline void sum_add(struct profile *p, int neg, int ev, uint64_t m)
{
	uint64_t *s = &p->summag[neg][ev];
	*s += m;
	if (!neg && *s > p->summax0)
		p->summax0 = *s;
}

/* ---- the fast paths (fast.c) --------------------------------------------- */

/* The common cost line, read in one pass (fast.c): where the next line
 * starts, or NULL to leave the line to the general parser. */
const char *cost_line_fast(struct parser *ps, const char *s, const char *lim, int nul_ends);

/* Can cost lines go to cost_line_fast() in the parser's present state?  It
 * changes only on other lines. */
static inline int fast_state(const struct parser *ps)
{
	return ps->fn != NO_ID && ps->p->ls.open_fn == ps->fn && ps->identity && ps->npos &&
	       !ps->nign &&
	       ps->o->sign > 0 && !ps->o->instr && !ps->skip_part;
}

/* The function of the fn= line in force, made on its first use: 0, or -1
 * with "WHAT before any fn= line" (parse.c). */
int need_fn(struct parser *ps, const char *what);
/* Would the parser be in fast_state() once a cost line opened the block of
 * the function (fn=) in force, with nothing else for cost_line() to do
 * first (the line store made, positions known, no skipped lines)?  Then
 * the fast paths make the function (need_fn()) and open its block
 * themselves (fast.c). */
static inline int fast_state_opening(const struct parser *ps)
{
	return (ps->fn != NO_ID || ps->fnname != NO_ID) && ps->p->ls.open_fn != ps->fn &&
	       ps->identity && ps->npos &&
	       !ps->nign && ps->o->sign > 0 && !ps->o->instr && !ps->skip_part &&
	       ps->have_events && !ps->stale && !ps->skip_block &&
	       ps->p->ls.nreal == ps->p->nreal;
}

/* Can the line at s go to cost_line_fast()? */
static inline int fast_ok(const struct parser *ps, char c)
{
	return cost_start(c) && fast_state(ps);
}

/* ---- deferred line records (lazy.c) -------------------------------------- */

/* The file being read (ps->path, mapped at base) keeps its line records
 * for later (load_opts.lazy_lines): the profile's line provider is
 * registered, ps->lz set. */
void lazy_add_src(struct parser *ps, const char *base, size_t size, const struct stat *st);
void seg_open_at(struct parser *ps, uint64_t off);
/* A segment starts at the line at byte off, unless one is open. */
static inline void seg_start(struct parser *ps, uint64_t off)
{
	if (!ps->seg_open)
		seg_open_at(ps, off);
}
/* The open segment ends before the line at byte off: it is kept for the
 * block open now, whose chunk is made next (only a block of another
 * function, or a part's end, closes it, and lines for those end segments). */
void seg_end(struct parser *ps, uint64_t off);
/* Before the general parser reads the line at byte off (t, l bytes, its
 * copy): it goes on the open segment, starts one, or ends it. */
void seg_line(struct parser *ps, uint64_t off, const char *t, size_t l);

/* ---- reading the file (reader.c) ----------------------------------------- */

#define MAX_LINE_LEN (256u << 20)
#define UTF8_BOM "\xef\xbb\xbf"

/* A file read through a buffer: plain (read()), gzip or zstd. */
struct reader {
	int fd;
	gzFile gz;
	ZSTD_DStream *zs;
	char *zin;         /* zstd: the compressed bytes read, zin[zpos..zend) */
	size_t zcap, zpos, zend;
	size_t zhint;      /* the last ZSTD_decompressStream(): 0 at a frame's end */
	int zeof;
	const char *zmsg;  /* why the zstd stream could not be read */
	char *buf;
	size_t cap, pos, end;
	int eof;
	int partial;  /* the line returned last had no newline */
	uint64_t consumed;
};

/* r set up for fd (gzip or zstd when it starts with their magic bytes): 0,
 * or -1 with "PATH: reason" in err (fd stays open). */
int reader_open(struct reader *r, int fd, const char *path, char *err, size_t errsz);
void reader_close(struct reader *r);
/* Returns 1 with a line (without its newline and CR) in *line and *len, 0 at end
 * of file, -1 on a read error, -2 when a line is too long. */
int reader_line(struct reader *r, char **line, size_t *len);
/* Is r decompressing (gzip or zstd)?  Then it cannot be mapped, and the
 * file's size is not the size of what is read. */
static inline int reader_packed(const struct reader *r)
{
	return r->gz || r->zs;
}

/* Reads the lines of r with the general parser (size: the file's, for
 * progress): 0, or -1 / LOAD_CANCELLED with the error. */
int read_buffered(struct parser *ps, struct reader *r, uint64_t size);

/* Room for a line copied out (line_copy). */
struct scratch {
	char *buf;
	size_t cap;
};

/* The l bytes of a line at s copied out with a NUL (the "\r" of a "\r\n"
 * taken off, *l made shorter): the copy. */
char *line_copy(struct scratch *sc, const char *s, size_t *l);

/* ---- parallel parsing (par.c) -------------------------------------------- */

/* the fast paths' longest line; a run of cost lines read at once, at most */
#define FAST_MAX_LINE 256
#define RUN_MAX (1u << 20)

/* What a worker thread learnt of a run of plain cost lines (fast.c's
 * fast_run_as() form), not knowing the state before it: the positions as
 * absolute values or as deltas, the costs summed.  The serial reader
 * applies it in place of reading the run, when its state at the run's first
 * line is the one the run was read for (par_run()). */
struct run_sum {
	uint64_t start, end;  /* the run's bytes in the file */
	uint64_t nlines, sum; /* lines; all values added (the fastsum room) */
	uint64_t jumps;       /* the counts of its jump lines, summed (jumpmag) */
	int64_t pos[2];       /* the last line's subpositions, or deltas */
	int64_t dmin, dmax;   /* the line subposition's deltas, when relative */
	size_t vals;          /* sums[width] then lastcost[width] in the chunk's vals */
	uint8_t abs;          /* bit k: pos[k] is absolute */
	uint8_t width;        /* the most costs on a line */
	uint8_t rel_line;     /* a line's line number was relative: dmin/dmax */
	uint8_t jumped;       /* it has jump lines (jumps) */
};

/* A part of the file, cut before a fn= line, read by a worker. */
struct par_chunk {
	uint64_t start, end;
	int state;            /* PC_FREE, PC_BUSY, PC_DONE, PC_SERIAL, PC_ABANDONED
			       * (atomic) */
	struct run_sum *rs;
	size_t nrs, caprs;
	cost_t *vals;
	size_t nvals, capvals;
	/* the compressed ids its name lines carry, "(N)" (3.1.5), in file
	 * order: the reader fetches their table entries into the cache
	 * ahead of itself (par.c's ids_ahead()) */
	struct par_id {
		uint32_t off;  /* the line's, from start */
		uint32_t id;   /* kind (NS_OBJ ...) << 30 | id */
		uint32_t hash; /* "(N) name": the name's hash_bytes() (0: none) */
	} *ids;
	size_t nids, capids;
};
/* free; a worker's; read by a worker; the reader's; a worker's the reader
 * passed (the worker drops it) */
enum { PC_FREE, PC_BUSY, PC_DONE, PC_SERIAL, PC_ABANDONED };

/* The runs of the chunk (its bytes in the file mapped at base; no run
 * starts at or after fast_end), read for npos subpositions, nev events,
 * the line number at subposition linek, in its first len bytes (the
 * line at len read whole), until *reader_in (the chunk the reader is in;
 * NULL: never) reaches idx, the chunk's: the bytes read (runs.c). */
uint64_t chunk_runs(struct par_chunk *c, const char *base, const char *fast_end, int npos,
		    int nev, int linek, int jumps, uint64_t len, const size_t *reader_in,
		    size_t idx);
/* Are a plain cost line's costs read with AVX2 (plain_costs_avx2(), by the
 * workers' runs and the reader's)?  Where the CPU has it, unless
 * CGTUI_NO_SIMD=1 (in the environment: tests read with both) (runs.c). */
int costs_avx2(void);
/* A run summary found in the chunk, read with the same plain-line rules
 * as fast_run_as() (fast.c). */
struct par;
struct mapread;
/* Before the serial reader reads a run of plain cost lines at s: the end
 * of the run when a worker's summary of it was applied (*nlines set), or
 * NULL to read it (par.c). */
const char *par_run(struct parser *ps, struct mapread *m, const char *s, uint64_t *nlines);
/* The threads a load uses for want (load_opts.jobs; 0: online CPUs). */
int load_jobs(int want);
/* Has a worker mapped in the pages of the chunk at `at` (par.c)?  (It
 * does before it reads them.) */
int par_mapped(const struct mapread *m, const char *at);
/* The pages of the file before upto, which the reader has read, to drop
 * (fast.c): 1 when the workers see to it (par.c's drop_behind()), m->dropped
 * then where they have, else 0 for the reader to drop them itself. */
int par_drops(struct mapread *m, const char *upto);
/* The workers stopped and their results freed: their CPU time when
 * m->debug (else 0). */
double par_stop(struct mapread *m);
/* The summary r (its values at vals) applied to ps, when ps is in a state r
 * holds for: 1, or 0 (nothing changed) (fast.c). */
int run_apply(struct parser *ps, const struct run_sum *r, const cost_t *vals);

/* A mapped file's pages the reader has read are dropped every DROP_EVERY
 * bytes (they count in the process's resident size). */
#define DROP_EVERY (16u << 20)

/* A mapped file being read (reader.c's read_mapped(), fast.c's loop). */
struct mapread {
	struct par *par;    /* parallel parsing: NULL until the body starts */
	int par_off;        /* no parallel parsing for this file */
	int debug;          /* CGTUI_PAR_DEBUG: phase times on stderr */
	int avx2;           /* costs_avx2() */
	const char *base, *end, *s, *dropped;
	const char *ready; /* mapped in up to here (map_ahead) */
	struct scratch sc;  /* lines copied out */
	uint64_t next_progress;
	uint64_t check_at;  /* the offset at which the above are looked at again */
};
/* Reads the lines of the mapped file m: 0, or -1 / LOAD_CANCELLED with the
 * error. */
int read_mapped_lines(struct parser *ps, struct mapread *m);
/* Reads a file mapped at base (size bytes), a SIGBUS caught, with
 * load_opts.jobs threads. */
int read_mapped(struct parser *ps, const char *base, size_t size);

/* Makes target (NULL: none) where a SIGBUS in this thread jumps
 * (siglongjmp(*target, 1)) and returns the target before it.  Used as
 *	sigjmp_buf jb, *volatile prev = NULL;
 *	if (sigsetjmp(jb, 1)) { the mapped file shrank } else { prev = bus_guard(&jb); read it }
 *	bus_guard(prev);
 * (see reader.c). */
sigjmp_buf *bus_guard(sigjmp_buf *target);

#endif
