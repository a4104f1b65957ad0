/* load.c -- loading a Cachegrind or Callgrind profile file into the model.
 *
 * profile_load() opens one file and chooses how to read it: a plain file
 * is mapped and read in place (fast.c's loop, reader.c's read_mapped(); with
 * load_opts.lazy_lines its line records are left for later, lazy.c), gzip,
 * zstd or anything that cannot be mapped goes through a buffer (reader.c); every
 * line it cannot take fast goes to the general parser (parse.c).  Then it
 * checks how the file ended: a last line cut short, callgrind's closing
 * totals: missing, a calls= line without its cost line, no events: line
 * (format spec 3.1.1: "The 'events' header line is always required").
 * profile_finish(), after the last file, sums each part's totals, checks
 * them against the totals: or summary: line (3.1.7.1, "Cost Summary
 * Information"; a summary: above a confirmed sum is the run's full cost)
 * and applies the event: lines (3.1.7.2, long names and
 * inherited types).
 *
 * One pass over the file, no per-line allocation, names interned once per
 * definition, costs added straight into the model's per-line and per-call
 * arrays.  The loader's files share load_int.h; readers include
 * profile/load.h only.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "load_int.h"
#include "profile/modname.h"
#include "profile/mrc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int profile_load(struct profile *p, const char *path, const struct load_opts *o,
		 char *err, size_t errsz)
{
	struct load_opts defopts = { .sign = 1 };
	if (!o)
		o = &defopts;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errsz, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		snprintf(err, errsz, "%s: %s", path,
			 S_ISDIR(st.st_mode) ? "is a directory, not a profile" : strerror(errno));
		close(fd);
		return -1;
	}
	if (st.st_mtime > p->newest_mtime)
		p->newest_mtime = st.st_mtime;

	struct reader r;
	if (reader_open(&r, fd, path, err, errsz) < 0) {
		close(fd);
		return -1;
	}

	p->sources = xreallocarray(p->sources, (size_t)p->nsources + 1, sizeof(*p->sources));
	p->source_mtime = xreallocarray(p->source_mtime, (size_t)p->nsources + 1, sizeof(time_t));
	p->source_mtime[p->nsources] = st.st_mtime;
	p->sources[p->nsources++] = xstrdup(path);
	p->ndiff = o->sign < 0 ? 2 : p->ndiff;

	struct parser ps = { .p = p, .o = o, .path = path, .err = err, .errsz = errsz,
			     .names_before = p->names.n };
	reset_for_new_file(&ps);
	new_part(&ps);
	int rc = 0;
	void *map = MAP_FAILED;
	if (!reader_packed(&r) && !o->no_map && S_ISREG(st.st_mode) && st.st_size > 0)
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	int keep = 0; /* the mapping now belongs to p->lazy */
	if (map != MAP_FAILED && o->lazy_lines && !o->instr && partset_all(o->parts)) {
		lazy_add_src(&ps, map, (size_t)st.st_size, &st);
		keep = 1;
	}
	if (map != MAP_FAILED) {
		rc = read_mapped(&ps, map, (size_t)st.st_size);
		if (!keep)
			munmap(map, (size_t)st.st_size);
		else /* read again only in parts, when asked: out of the process */
			madvise(map, (size_t)st.st_size, MADV_DONTNEED);
	}
	if (map == MAP_FAILED)
		rc = read_buffered(&ps, &r, (uint64_t)st.st_size);
	if (rc == 0)
		ids_finish(&ps);
	/* a file cut short: what it has, and a warning (callgrind and our tool
	 * always end a file with totals:) */
	int cut = 0;
	if (rc == 0 && ps.partial) {
		cut = 1;
		profile_warn(p, "%s: ends in the middle of line %llu (truncated?)", path,
			     (unsigned long long)ps.partial);
	} else if (rc == 0 && ps.cg_creator && !ps.totals_last) {
		cut = 1;
		profile_warn(p, "%s: ends at line %llu without the totals: line callgrind writes "
				"last (truncated?)",
			     path, (unsigned long long)ps.lineno);
	}
	if (rc == 0 && ps.pending == PEND_CALL && !cut)
		rc = perr(&ps, "file ends after a calls= line without its cost line");
	ps.pending = PEND_NONE;
	if (rc == 0 && !ps.have_events && (ps.any_cost || p->nreal == 0))
		rc = perr(&ps, "no events: line: not a Cachegrind or Callgrind profile");
	if (ps.mrc) {
		char why[256];
		if (rc == 0 && partset_all(o->parts) && o->sign > 0) {
			if (mrc_reader_end(ps.mrc, p, why, sizeof(why)) < 0)
				profile_warn(p, "%s:%llu: %s; the curves are not shown", path,
					     (unsigned long long)ps.lineno, why);
		} else { /* one part, a difference: the curves are the whole run's */
			mrc_reader_free(ps.mrc);
		}
	}
	linestore_flush(&p->ls);
	p->ls.lazy = 0;
	hot_free(ps.name_fn, (size_t)ps.nname_fn * sizeof(*ps.name_fn));
	modname_scratch_free(ps.modsc);
	idmap_clear(&ps.obmap);
	idmap_clear(&ps.flmap);
	idmap_clear(&ps.fnmap);
	reader_close(&r);
	close(fd);
	return rc;
}

/* A part's total, its self costs' sum in pi->totals: checked against the
 * line the producer wrote for it, totals: (callgrind writes it last, the sum
 * of its cost lines) or else summary:; then, where a totals: line confirms
 * the sum, raised to the summary: line where that is higher.  Format spec
 * 3.1.7.1 ("Cost Summary Information"): summary: gives "the full cost for
 * the profile run", which can be more than the cost lines carry; callgrind's
 * counts a few events no cost line has (2 Ir, 1 I1mr in the bundled
 * example).  The calls' inclusive costs are counted as the summary is, so
 * with the sum alone the call tree's root passed 100% (1,312 of 1,311
 * I1mr); with the run's full cost it does not, and the total is the one
 * callgrind_annotate prints as PROGRAM TOTALS.  (KCachegrind reads the
 * summary, then takes the sum of the costs at the end of its load, as
 * cgtui did.) */
static void part_total(struct profile *p, struct part_info *pi)
{
	const cost_t *line = pi->lines_sum ? pi->lines_sum : pi->summary;
	if (!line)
		return;
	for (int e = 0; e < p->nreal; e++) {
		if (line[e] != pi->totals[e]) {
			profile_warn(p, "%s:%d: %s for %s is %lld but the costs add up to %lld; "
					"using the sum",
				     pi->source,
				     pi->lines_sum ? pi->lines_sum_line : pi->summary_line,
				     pi->lines_sum ? "totals" : "summary", p->ev[e].name,
				     (long long)line[e], (long long)pi->totals[e]);
			return;
		}
	}
	if (!pi->lines_sum || !pi->summary)
		return;
	int neg = pi->sign < 0; /* (a difference's first side: read negated) */
	for (int e = 0; e < p->nreal; e++) {
		/* higher in magnitude: what is added joins the bound no sum
		 * passes (summag) */
		cost_t s = pi->summary[e], t = pi->totals[e];
		uint64_t d = neg ? (uint64_t)t - (uint64_t)s : (uint64_t)s - (uint64_t)t;
		if ((neg ? s < t : s > t) && d <= (uint64_t)INT64_MAX && sum_fits(p, neg, e, d, 1)) {
			sum_add(p, neg, e, d);
			pi->totals[e] = s;
		}
	}
}

void profile_finish(struct profile *p)
{
	linestore_flush(&p->ls);
	for (int i = 0; i < p->nparts; i++) {
		struct part_info *pi = &p->parts[i];
		uint32_t end = i + 1 < p->nparts ? p->parts[i + 1].ff_start : p->ls.nff;
		memset(pi->totals, 0, MAX_EVENTS * sizeof(cost_t));
		for (uint32_t k = pi->ff_start; k < end; k++)
			for (int e = 0; e < p->nreal; e++)
				pi->totals[e] = cost_add(pi->totals[e],
							p->ls.ffcost[(size_t)k * p->nreal + e]);
		if (!pi->skipped)
			part_total(p, pi);
	}
	free(p->totals);
	p->totals = xcalloc((size_t)(p->nreal ? p->nreal : 1), sizeof(cost_t));
	for (int i = 0; i < p->nparts; i++)
		for (int e = 0; e < p->nreal; e++)
			p->totals[e] = cost_add(p->totals[e], p->parts[i].totals[e]);
	apply_evdefs(p);
	profile_add_standard_derived(p);
	/* negative costs outside a difference: no run counts less than
	 * nothing, and shares may pass 100% (said once; the loader's bound of
	 * all sums counts them, summag) */
	for (int e = 0; e < p->nreal && !p->ndiff; e++)
		if (p->summag[1][e]) {
			profile_warn(p, "%s: negative %s costs, %llu in all, which no run counts: "
					"shares may pass 100%%; they are shown as they are",
				     p->nsources ? p->sources[0] : "the profile", p->ev[e].name,
				     (unsigned long long)p->summag[1][e]);
			break;
		}
}
