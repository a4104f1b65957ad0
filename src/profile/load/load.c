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
 * them against the summary:/totals: line (3.1.7.1, "Cost Summary
 * Information") and applies the event: lines (3.1.7.2, long names and
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
	}
	free(p->totals);
	p->totals = xcalloc((size_t)(p->nreal ? p->nreal : 1), sizeof(cost_t));
	for (int i = 0; i < p->nparts; i++)
		for (int e = 0; e < p->nreal; e++)
			p->totals[e] = cost_add(p->totals[e], p->parts[i].totals[e]);
	/* Check each part's summary against the sum of its self costs. */
	for (int i = 0; i < p->nparts; i++) {
		struct part_info *pi = &p->parts[i];
		if (!pi->summary || pi->skipped)
			continue;
		for (int e = 0; e < p->nreal; e++) {
			if (pi->summary[e] != pi->totals[e]) {
				profile_warn(p, "%s:%d: summary for %s is %lld but the costs add up to "
						"%lld; using the sum",
					     pi->source, pi->summary_line, p->ev[e].name,
					     (long long)pi->summary[e], (long long)pi->totals[e]);
				break;
			}
		}
	}
	apply_evdefs(p);
	profile_add_standard_derived(p);
}
