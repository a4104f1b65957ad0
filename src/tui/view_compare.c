/* view_compare.c -- A: what to compare the profile with.  Its rows are the
 * runs (callgrind.out.*, cachegrind.out.*: runfiles.h's run_list) in the
 * directory of the profile's files, newest first, and the current one, if
 * it is elsewhere, each with its time, size and command; then a row to
 * type any other file's name.  In a difference, three rows come first:
 * its sides swapped, and each side alone.  Enter asks for it (t->want_compare,
 * done by switch_compare() once the key is handled): the session's sides
 * change and every view is loaded again on its function (tui_reload).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "profile/runfiles.h"
#include "profile/util.h"
#include "tui.h"

struct cmp_row {
	int op;      /* TUI_CMP_* */
	char *with;  /* the run (TUI_CMP_WITH; NULL: typed) */
	char *text;
};

struct cmp_rows {
	struct cmp_row *r;
	int n;
};

static void cmp_free(struct view *v)
{
	struct cmp_rows *c = v->data;
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		free(c->r[i].with);
		free(c->r[i].text);
	}
	free(c->r);
	free(c);
	v->data = NULL;
}

static void add_row(struct cmp_rows *c, int op, char *with, char *text)
{
	c->r = xreallocarray(c->r, (size_t)c->n + 1, sizeof(*c->r));
	c->r[c->n++] = (struct cmp_row){ op, with, text };
}

/* Is one of p's files a file of the run? */
static int loaded(const struct profile *p, const char *run)
{
	for (int k = 0; k < p->nparts; k++) {
		char *r = run_name(p->parts[k].source);
		int same = strcmp(r, run) == 0;
		free(r);
		if (same)
			return 1;
	}
	return 0;
}

/* The run's "cmd:" line (of its first file that has one, in the first
 * 4 KiB), its files' bytes and newest time. */
static void run_facts(const char *run, char *cmd, size_t n, long long *bytes, time_t *when)
{
	struct runfiles rf = { 0 };
	run_files_add(&rf, run, 0);
	cmd[0] = 0;
	*bytes = 0;
	*when = 0;
	for (int i = 0; i < rf.n; i++) {
		struct stat st;
		if (stat(rf.v[i], &st) == 0) {
			*bytes += st.st_size;
			if (st.st_mtime > *when)
				*when = st.st_mtime;
		}
		FILE *f = cmd[0] ? NULL : fopen(rf.v[i], "r");
		char line[4096];
		for (size_t read = 0; f && read < 4096 && fgets(line, sizeof(line), f);) {
			read += strlen(line);
			if (strncmp(line, "cmd:", 4) == 0) {
				const char *s = line + 4 + strspn(line + 4, " \t");
				snprintf(cmd, n, "%.*s", (int)strcspn(s, "\r\n"), s);
				break;
			}
		}
		if (f)
			fclose(f);
	}
	run_files_free(&rf);
}

/* The runs of dir not loaded, as rows. */
static void add_runs(struct cmp_rows *c, const struct profile *p, const char *dir)
{
	char **runs;
	int n = run_list(dir, &runs);
	for (int i = 0; i < n; i++) {
		if (loaded(p, runs[i])) {
			free(runs[i]);
			continue;
		}
		char cmd[256], when[32] = "", size[32];
		long long bytes;
		time_t t;
		run_facts(runs[i], cmd, sizeof(cmd), &bytes, &t);
		struct tm tm;
		if (t && localtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm);
		if (bytes >= 10ll << 20)
			snprintf(size, sizeof(size), "%lld MB", bytes >> 20);
		else if (bytes >= 10 << 10)
			snprintf(size, sizeof(size), "%lld KB", bytes >> 10);
		else
			snprintf(size, sizeof(size), "%lld B", bytes);
		add_row(c, TUI_CMP_WITH, runs[i],
			xasprintf("%-16s %8s  %-32s %s", when, size, runs[i], cmd));
	}
	free(runs);
}

static void cmp_update(struct view *v)
{
	struct tui *t = v->t;
	const struct profile *p = t->p;
	cmp_free(v);
	struct cmp_rows *c = xcalloc(1, sizeof(*c));
	v->data = c;
	const char *own = tui_side_source(p, 1), *other = tui_side_source(p, -1);
	if (p->ndiff && own && other) {
		add_row(c, TUI_CMP_SWAP, NULL,
			xasprintf("swap the sides: %s minus %s", other, own));
		add_row(c, TUI_CMP_SECOND, NULL, xasprintf("%s alone (no difference)", own));
		add_row(c, TUI_CMP_FIRST, NULL, xasprintf("%s alone (no difference)", other));
	}
	/* the runs beside the profile's files, then here */
	const char *sl = own ? strrchr(own, '/') : NULL;
	char *dir = sl ? xstrndup(own, (size_t)(sl - own + 1)) : xstrdup("");
	add_runs(c, p, dir);
	if (*dir) {
		struct stat a, b;
		if (stat(dir, &a) != 0 || stat(".", &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
			add_runs(c, p, "");
	}
	free(dir);
	add_row(c, TUI_CMP_WITH, NULL, xstrdup("another profile: type its name"));
	v->nrows = c->n;
}

static void cmp_header(struct view *v, int y, int width)
{
	const struct profile *p = v->t->p;
	const char *own = tui_side_source(p, 1);
	char *h = xasprintf("the difference: %s minus the one chosen (Enter)",
			    own ? own : "this profile");
	tui_put(v->t, y, 0, width, h);
	free(h);
}

static void cmp_row(struct view *v, int row, int y, int width, int sel)
{
	const struct cmp_rows *c = v->data;
	(void)sel;
	tui_put(v->t, y, 1, width - 1, c->r[row].text);
}

static const char *cmp_text(struct view *v, int row)
{
	const struct cmp_rows *c = v->data;
	return c->r[row].text;
}

static int cmp_action(struct view *v, enum action a)
{
	struct tui *t = v->t;
	const struct cmp_rows *c = v->data;
	if (a != ACT_ENTER || !c || v->sel >= c->n)
		return 0;
	const struct cmp_row *r = &c->r[v->sel];
	free(t->compare_with);
	t->compare_with = r->with ? xstrdup(r->with) : NULL;
	t->want_compare = r->op;
	return 1;
}

const struct view_ops compare_ops = {
	.name = "compare",
	.hint = "Enter:compare with it (swap, alone)  /:search  Esc:back  ?:help",
	.update = cmp_update,
	.draw_row = cmp_row,
	.draw_header = cmp_header,
	.row_text = cmp_text,
	.action = cmp_action,
	.free = cmp_free,
};
