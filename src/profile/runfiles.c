/* runfiles.c -- the files of one run (runfiles.h).
 *
 * Callgrind names them callgrind.out.PID, callgrind.out.PID-TID with
 * --separate-threads=yes, callgrind.out.PID.N for each dump (and both:
 * callgrind.out.PID.N-TID); cgtui's recorder names them the same way,
 * also under -o NAME, where NAME.PID is a forked child's profile: beside a
 * name without its pid, the header's pid: says whose a file is.  Readers
 * add them up (the parts by time, model.c).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile/runfiles.h"
#include "profile/util.h"

/* Which file v[i] is, and whether its run brought it in */
struct runfile_id {
	dev_t dev;
	ino_t ino;     /* (both 0: no such file; then the name tells) */
	int of_run;
};

static struct runfile_id file_id(const char *name, int of_run)
{
	struct stat st;
	if (stat(name, &st) != 0)
		return (struct runfile_id){ .of_run = of_run };
	return (struct runfile_id){ .dev = st.st_dev, .ino = st.st_ino, .of_run = of_run };
}

/* Is the file `id` (`name`), named on its own, one of the files a run
 * named before (on this side) brought in, so that it is not to be added
 * again (runfiles.h)? */
static int named_before(const struct runfiles *rf, const char *name, struct runfile_id id)
{
	for (int i = rf->side; i < rf->n; i++) {
		const struct runfile_id *o = &rf->id[i];
		if (!o->of_run)
			continue;
		if (id.ino || id.dev ? o->dev == id.dev && o->ino == id.ino
				     : !o->ino && !o->dev && strcmp(rf->v[i], name) == 0)
			return 1;
	}
	return 0;
}

/* Adds `owned`, its run's file or named on its own (then not if a run
 * brought it in already). */
static void add(struct runfiles *rf, char *owned, int of_run)
{
	struct runfile_id id = file_id(owned, of_run);
	if (!of_run && named_before(rf, owned, id)) {
		free(owned);
		return;
	}
	rf->v = xreallocarray(rf->v, (size_t)rf->n + 1, sizeof(*rf->v));
	rf->id = xreallocarray(rf->id, (size_t)rf->n + 1, sizeof(*rf->id));
	rf->id[rf->n] = id;
	rf->v[rf->n++] = owned;
}

/* callgrind.out.1.2 before callgrind.out.1.10: the order they ran */
static int cmp_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* The length of the name of the profile `name` is a file beside
 * (PROFILE.ctx: its calling contexts, PROFILE.time: its timeline), or 0. */
static size_t beside_len(const char *name)
{
	size_t n = strlen(name);
	if (n > 4 && strcmp(name + n - 4, ".ctx") == 0)
		return n - 4;
	if (n > 5 && strcmp(name + n - 5, ".time") == 0)
		return n - 5;
	return 0;
}

static int is_profile_name(const char *name)
{
	if (beside_len(name))
		return 0;
	return strncmp(name, "callgrind.out.", 14) == 0 || strncmp(name, "cachegrind.out.", 15) == 0;
}

/* A file beside an existing profile (callgrind.out.* names them all in a
 * shell): not a profile; it is read with its profile. */
static int beside_existing(const char *name)
{
	size_t n = beside_len(name);
	if (!n)
		return 0;
	char *prof = xstrndup(name, n);
	struct stat st;
	int r = stat(prof, &st) == 0 && S_ISREG(st.st_mode);
	free(prof);
	return r;
}

/* Is `name` PREFIX followed by "-digits" (thread) or ".digits" (dump)? */
static int is_sibling(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	if (strncmp(name, prefix, n) != 0 || (name[n] != '-' && name[n] != '.') || !name[n + 1])
		return 0;
	for (const char *s = name + n + 1; *s; s++)
		if ((*s < '0' || *s > '9') && *s != '-' && *s != '.')
			return 0;
	return 1;
}

/* The names in directory `dir` ("" for the current one) for which `want`
 * holds, as DIR+NAME, in the order they ran; how many. */
static int dir_names(const char *dir, int (*want)(const char *name, const char *arg),
		     const char *arg, char ***out)
{
	DIR *d = opendir(*dir ? dir : ".");
	struct dirent *de;
	char **v = NULL;
	int n = 0;
	while (d && (de = readdir(d))) {
		if (!want(de->d_name, arg))
			continue;
		v = xreallocarray(v, (size_t)n + 1, sizeof(*v));
		v[n++] = xasprintf("%s%s", dir, de->d_name);
	}
	if (d)
		closedir(d);
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), cmp_version);
	*out = v;
	return n;
}

static int want_profile(const char *name, const char *arg)
{
	(void)arg;
	return is_profile_name(name);
}

static int want_sibling(const char *name, const char *prefix)
{
	return is_sibling(name, prefix);
}

/* How much of a profile's start is read for its header at most */
#define HEADER_BYTES 16384

/* The values of the header lines key[0 .. n) of the profile `path` (the
 * first of each before a body line, fl=, fn= or ob=; a longer one's first
 * kilobyte) in val[] (malloc'ed; NULL: none); none read from what is no
 * regular file (a pipe is not read). */
static void header_values(const char *path, const char *const *key, int n, char **val)
{
	for (int k = 0; k < n; k++)
		val[k] = NULL;
	struct stat st;
	FILE *f = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "r") : NULL;
	if (!f)
		return;
	char line[1024];
	int found = 0, start = 1;
	while (found < n && ftell(f) < HEADER_BYTES && fgets(line, sizeof(line), f)) {
		size_t l = strlen(line);
		int at_start = start;
		start = l && line[l - 1] == '\n'; /* (else the rest of a longer line) */
		if (!at_start)
			continue;
		if (!strncmp(line, "fl=", 3) || !strncmp(line, "fn=", 3) || !strncmp(line, "ob=", 3))
			break;
		for (int k = 0; k < n; k++) {
			size_t kl = strlen(key[k]);
			if (val[k] || strncmp(line, key[k], kl) != 0 || line[kl] != ':')
				continue;
			const char *v = line + kl + 1, *ve = line + l;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == '\n' || ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			val[k] = xstrndup(v, (size_t)(ve - v));
			found++;
		}
	}
	fclose(f);
}

char *run_header(const char *path, const char *key)
{
	char *v;
	header_values(path, &key, 1, &v);
	return v;
}

/* Which process wrote the profile `path`, by its header's pid:, cmd: and
 * creator: lines: "PID\nCMD\nCREATOR", malloc'ed; NULL when it has no
 * pid: (not a profile, a compressed one, cachegrind's, a pipe). */
static char *origin(const char *path)
{
	static const char *const key[3] = { "pid", "cmd", "creator" };
	char *val[3];
	header_values(path, key, 3, val);
	char *o = val[0] ? xasprintf("%s\n%s\n%s", val[0], val[1] ? val[1] : "", val[2] ? val[2] : "")
			 : NULL;
	for (int k = 0; k < 3; k++)
		free(val[k]);
	return o;
}

/* Of the ns files in sib beside `name` (NAME-TID, NAME.N...: dir_names),
 * keeps those its process wrote (runfiles.h): the one its header says,
 * or (`own` 0: NAME no file, or an empty one) its first thread's, by
 * NAME-TID's.  With no process to go by: all of them, or none beside a
 * file (`own`).  How many are kept, first in sib (the rest freed). */
static int same_process(const char *name, int own, char **sib, int ns)
{
	if (!ns)
		return 0; /* (nothing to read) */
	size_t nl = strlen(name);
	char *ref = own ? origin(name) : NULL;
	for (int i = 0; !own && !ref && i < ns; i++) {
		const char *t = sib[i] + nl;
		if (t[0] == '-' && t[1] && strspn(t + 1, "0123456789") == strlen(t + 1))
			ref = origin(sib[i]);
	}
	if (!ref && !own)
		return ns;
	int kept = 0;
	for (int i = 0; i < ns; i++) {
		char *o = ref ? origin(sib[i]) : NULL;
		if (o && strcmp(o, ref) == 0)
			sib[kept++] = sib[i];
		else
			free(sib[i]);
		free(o);
	}
	free(ref);
	return kept;
}

/* Is `name` the empty file callgrind --separate-threads=yes writes beside
 * its run's files, one of the n in v? */
static int empty_base(const char *name, char *const *v, int n)
{
	struct stat st;
	if (stat(name, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 0)
		return 0;
	for (int i = 0; i < n; i++)
		if (is_sibling(v[i], name))
			return 1;
	return 0;
}

void run_files_add(struct runfiles *rf, const char *name, int whole)
{
	if (beside_existing(name))
		return;
	struct stat st;
	int exists = stat(name, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		char *dir = xasprintf("%s%s", name, name[strlen(name) - 1] == '/' ? "" : "/");
		char **v;
		int n = dir_names(dir, want_profile, NULL, &v);
		for (int i = 0; i < n; i++) {
			if (empty_base(v[i], v, n)) {
				free(v[i]);
				continue;
			}
			add(rf, v[i], 1);
		}
		free(v);
		free(dir);
		if (!n) /* say so when it is loaded: nothing would pass for empty */
			add(rf, xstrdup(name), 0);
		return;
	}
	int empty = exists && S_ISREG(st.st_mode) && st.st_size == 0;
	const char *slash = strrchr(name, '/');
	char *dir = slash ? xstrndup(name, (size_t)(slash - name + 1)) : xstrdup("");
	const char *base = slash ? slash + 1 : name;
	/* the run's prefix: callgrind.out.PID of callgrind.out.PID-TID.N */
	char *prefix = xstrdup(base);
	int callgrind_run = strncmp(prefix, "callgrind.out.", 14) == 0;
	if (callgrind_run) {
		char *s = prefix + 14;
		while (*s >= '0' && *s <= '9')
			s++;
		*s = 0;
		callgrind_run = prefix[14] != 0;
	}
	int found = 0;
	char **sib;
	int ns = dir_names(dir, want_sibling, prefix, &sib);
	/* of the same process: callgrind.out.PID's name says so, another's
	 * header (but for a name the recorder gave, whole) */
	if (!callgrind_run && !whole)
		ns = same_process(name, exists && !empty, sib, ns);
	if (ns && (!exists || empty || strcmp(base, prefix) == 0)) {
		if (exists && !empty)
			add(rf, xstrdup(name), 1);
		for (int i = 0; i < ns; i++)
			add(rf, sib[i], 1);
		found = 1;
	} else {
		/* one file of a run whose others are here: say so (the
		 * run's own name a file of it too, unless empty) */
		char *pf = xasprintf("%s%s", dir, prefix);
		struct stat ps;
		int nrun = ns + (stat(pf, &ps) == 0 && S_ISREG(ps.st_mode) && ps.st_size > 0);
		free(pf);
		if (nrun > 1 && !rf->note && !named_before(rf, name, file_id(name, 0)))
			rf->note = xasprintf("%s is one of %d files of the run %s%s (threads or "
					     "dumps): cgtui %s%s opens them all, P then picks one",
					     name, nrun, dir, prefix, dir, prefix);
		for (int i = 0; i < ns; i++)
			free(sib[i]);
	}
	free(sib);
	if (!found)
		add(rf, xstrdup(name), 0);
	free(prefix);
	free(dir);
}

void run_files_side(struct runfiles *rf)
{
	rf->side = rf->n;
}

void run_files_free(struct runfiles *rf)
{
	for (int i = 0; i < rf->n; i++)
		free(rf->v[i]);
	free(rf->v);
	free(rf->id);
	free(rf->note);
	memset(rf, 0, sizeof(*rf));
}

void run_files_copy(struct runfiles *dst, const struct runfiles *src)
{
	for (int i = 0; i < src->n; i++) {
		dst->v = xreallocarray(dst->v, (size_t)dst->n + 1, sizeof(*dst->v));
		dst->id = xreallocarray(dst->id, (size_t)dst->n + 1, sizeof(*dst->id));
		dst->id[dst->n] = src->id[i];
		dst->v[dst->n++] = xstrdup(src->v[i]);
	}
	if (!dst->note && src->note)
		dst->note = xstrdup(src->note);
}

char *run_name(const char *name)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (strncmp(base, "callgrind.out.", 14) == 0) {
		char *run = xstrndup(name, (size_t)(base - name) + 14 + strspn(base + 14, "0123456789"));
		const char *rb = run + (base - name);
		if (is_sibling(base, rb))
			return run;
		free(run);
	}
	return xstrdup(name);
}

struct run_seen {
	char *name;
	struct timespec t;
};

static int cmp_newest(const void *a, const void *b)
{
	const struct run_seen *x = a, *y = b;
	if (x->t.tv_sec != y->t.tv_sec)
		return x->t.tv_sec < y->t.tv_sec ? 1 : -1;
	if (x->t.tv_nsec != y->t.tv_nsec)
		return x->t.tv_nsec < y->t.tv_nsec ? 1 : -1;
	return -strverscmp(x->name, y->name);
}

int run_list(const char *dir, char ***runs)
{
	char **v;
	int n = dir_names(dir, want_profile, NULL, &v), nr = 0;
	struct run_seen *r = NULL;
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (stat(v[i], &st) != 0 || !S_ISREG(st.st_mode)) {
			free(v[i]);
			continue;
		}
		char *run = run_name(v[i]);
		free(v[i]);
		int k = 0;
		while (k < nr && strcmp(r[k].name, run) != 0)
			k++;
		if (k == nr) {
			r = xreallocarray(r, (size_t)nr + 1, sizeof(*r));
			r[nr++] = (struct run_seen){ run, st.st_mtim };
		} else {
			free(run);
			if (st.st_mtim.tv_sec > r[k].t.tv_sec ||
			    (st.st_mtim.tv_sec == r[k].t.tv_sec && st.st_mtim.tv_nsec > r[k].t.tv_nsec))
				r[k].t = st.st_mtim;
		}
	}
	free(v);
	if (nr > 1)
		qsort(r, (size_t)nr, sizeof(*r), cmp_newest);
	*runs = nr ? xcalloc((size_t)nr, sizeof(**runs)) : NULL;
	for (int i = 0; i < nr; i++)
		(*runs)[i] = r[i].name;
	free(r);
	return nr;
}

char *run_newest(void)
{
	char **v;
	int n = run_list("", &v);
	char *best = n ? v[0] : NULL;
	for (int i = 1; i < n; i++)
		free(v[i]);
	free(v);
	return best;
}
