/* model.h -- cache models described as levels (number, side, geometry,
 * policies): read from the small text format of --cache-config, built from
 * cachegrind's three caches or from what the host reports, and named as
 * profile events (I1mr, L2mr, DLmw, ...).
 *
 * Freestanding C99, no allocation: see cache.h.  The format and the event
 * names are documented in src/sim/README.md and man/cgtui.1.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_SIM_MODEL_H
#define CGTUI_SIM_MODEL_H

#include "sim/cache.h"

#define SIM_MODEL_MAX_NUMBER 4 /* levels L1 .. L4 */
#define SIM_MODEL_NAME_MAX 16  /* a name's bytes, the terminating NUL included */

enum sim_side { SIM_SIDE_UNIFIED = 0, SIM_SIDE_INSN, SIM_SIDE_DATA };

/* A model: a hierarchy configuration whose levels are cache L<number>,
 * unified or one side of a split pair.  Levels are in cfg in the order of
 * their numbers, the instruction side before the data side; each side's
 * level n is followed by the same side's (or the unified) level n + 1. */
struct sim_model {
	char name[SIM_MODEL_NAME_MAX]; /* "" when none was given */
	struct sim_hier_cfg cfg;
	uint8_t number[SIM_MAX_LEVELS];
	uint8_t side[SIM_MAX_LEVELS]; /* enum sim_side */
};

/* A message about a model: a line of its text (0: none) and what is
 * wrong, or what was changed (a warning). */
struct sim_msg {
	unsigned line;
	char text[112];
};

#define SIM_MAX_WARN 8
/* sim_msgs.need: the base a text asked for but was not given */
#define SIM_NEED_HOST 1u
#define SIM_NEED_CACHEGRIND 2u
struct sim_msgs {
	struct sim_msg error;
	unsigned need; /* SIM_NEED_*, with the error "... is not known here" */
	unsigned nwarn; /* warnings beyond SIM_MAX_WARN are dropped */
	struct sim_msg warn[SIM_MAX_WARN];
};

/* "32768", "32K", "32k", "1M", "2G" (powers of 1024): true and *v when all
 * of s[0 .. len) is such a size below 2^32. */
bool sim_parse_size(const char *s, size_t len, uint32_t *v);

/* Cachegrind's three caches as a model: L1I, L1D, and L2, unified and last
 * (so that its events are cachegrind's I1mr D1mr D1mw ILmr DLmr DLmw). */
void sim_model_cachegrind(struct sim_model *m, const struct sim_geom *i1,
			  const struct sim_geom *d1, const struct sim_geom *ll);

/* A model of every cache the host reports (levels 1 to 4; instruction,
 * data and unified caches; trace caches ignored), the others' defaults:
 * LRU, non-inclusive, writes as cachegrind's, no prefetch.  A level whose
 * set count is not a power of two is adjusted as cachegrind adjusts its
 * LL (sim_geom_tweak_ll), with a warning.  False (and msgs->error) when a
 * level is missing (a gap in the numbers, one side of a pair alone) or a
 * geometry is still wrong. */
bool sim_model_detected(struct sim_model *m, const struct sim_detected *c, size_t n,
			struct sim_msgs *msgs);

/* Reads a model from `text` (len bytes, the --cache-config format):
 *
 *     # a comment, to the end of the line
 *     name = big
 *     base = host            (or cachegrind: start from that model)
 *     L1I: size=32K assoc=8 line=64
 *     L1D: size=48K assoc=12 line=64 policy=plru write=back prefetch=stride
 *     L2:  size=2M assoc=16 line=64 policy=srrip inclusion=inclusive
 *     L3:  size=32M assoc=16 line=64 inclusion=exclusive write=back
 *
 * Levels L1 .. L4, unified (Ln) or split (LnI and LnD, both); I1 and D1
 * are L1I and L1D, LL the last level.  Keys: size, assoc, line (needed for
 * a level not in the base), policy = lru | plru | fifo | random | srrip |
 * brrip, inclusion = nine | inclusive | exclusive, write = none | back |
 * through, prefetch = none | next | stride | next+stride.  base needs the
 * model in `host` or `cachegrind` (NULL: not known here, msgs->need says
 * which was wanted, so that the caller can make it and read again).  A tree-PLRU
 * asked of an associativity it cannot take becomes LRU, with a warning.
 * False with msgs->error (its line) on anything else wrong. */
bool sim_model_parse(struct sim_model *m, const char *text, size_t len,
		     const struct sim_model *host, const struct sim_model *cachegrind,
		     struct sim_msgs *msgs);

/* --I1, --D1, --LL (which: SIM_I1, SIM_D1, SIM_LL) on a model: the geometry
 * of the instruction side of L1, of its data side, or of the last level
 * (both sides when it is split).  False when the model has no such
 * level (a unified L1 has neither an I1 nor a D1). */
bool sim_model_set_geom(struct sim_model *m, unsigned which, const struct sim_geom *g);

/* A level's name: "L2", "L1I", "L1D". */
void sim_model_level_name(const struct sim_model *m, unsigned level, char out[8]);

/* ---- events ------------------------------------------------------------------ */

#define SIM_MAX_EVENTS 32

struct sim_event {
	char name[12];  /* I1mr, D1mw, L2mr, ILmr, DLdmw ... */
	char desc[64];  /* "L1 data read misses" ... */
};

/* The events of a model and which to count: an access of kind k (enum
 * sim_acc) whose depth-th level on its chain missed counts miss[k][depth];
 * if that miss evicted a dirty line, dirty[k][depth] too (SIM_NONE: no
 * such event).  Names: a split level n has In mr, Dn mr, Dn mw; a unified
 * level n that is not the last Ln mr (fetches and loads) and Ln mw; the
 * last level, unified, cachegrind's ILmr DLmr DLmw; each write-back level
 * the same names with "dmr"/"dmw" (callgrind's ILdmr DLdmr DLdmw), after
 * all the misses. */
struct sim_event_map {
	unsigned nevents;
	struct sim_event ev[SIM_MAX_EVENTS];
	uint8_t miss[3][SIM_MAX_LEVELS];
	uint8_t dirty[3][SIM_MAX_LEVELS];
};

void sim_model_events(const struct sim_model *m, struct sim_event_map *map);

#endif
