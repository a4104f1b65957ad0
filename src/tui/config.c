/* config.c -- settings and colours: the defaults below are read by the same
 * parser as the user's file, $XDG_CONFIG_HOME/cgtui/config (or
 * ~/.config/cgtui/config; CGTUI_CONFIG names another).  Nothing is ever
 * written back.  Lines:
 *
 *   set threshold = 0.1      percent of the sort event's total
 *   set context = 8          source lines around costly ones
 *   set percent = yes        percentages beside counts
 *   set order = inclusive    or self: how functions are ordered
 *   set detail = yes         the callers/callees pane when there is room
 *   set sort = Ir            the sort event, when the profile has it
 *   set bars = yes           heat bars beside the sort event's costs
 *   color NAME = FG BG       NAME: file, hot, negative, bar-low, bar-mid,
 *                            bar-high (a bar's share under 10%, under 50%,
 *                            more); colours: default,
 *                            black, red, green, yellow, blue, magenta,
 *                            cyan, white or 0-255
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <ctype.h>
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

static const char default_config[] = "set threshold = 0.1\n"
				     "set context = 8\n"
				     "set percent = yes\n"
				     "set order = inclusive\n"
				     "set detail = yes\n"
				     "set bars = yes\n"
				     "color file = cyan default\n"
				     "color hot = yellow default\n"
				     "color negative = magenta default\n"
				     "color bar-low = green default\n"
				     "color bar-mid = yellow default\n"
				     "color bar-high = red default\n";

static const char *const color_slots[] = { NULL,      "file",    "hot",     "negative",
					   "bar-low", "bar-mid", "bar-high" };

static int color_number(const char *s, int *out)
{
	static const char *const names[] = { "black", "red",     "green", "yellow",
					     "blue",  "magenta", "cyan",  "white" };
	if (strcmp(s, "default") == 0) {
		*out = -1;
		return 0;
	}
	for (int i = 0; i < 8; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
	char *end;
	long v = strtol(s, &end, 10);
	if (*s && !*end && v >= 0 && v <= 255) {
		*out = (int)v;
		return 0;
	}
	return -1;
}

static int yes(const char *v, int *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1"))
		*out = 1;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0"))
		*out = 0;
	else
		return -1;
	return 0;
}

/* Applies one line; returns NULL or what is wrong with it. */
static const char *apply(struct tui *t, char *line)
{
	char *words[6];
	int n = 0;
	for (char *s = strtok(line, " \t"); s && n < 6; s = strtok(NULL, " \t"))
		words[n++] = s;
	if (n == 0 || words[0][0] == '#')
		return NULL;
	if (n < 4 || strcmp(words[2], "="))
		return "expected 'set NAME = VALUE' or 'color NAME = FG BG'";
	const char *name = words[1], *val = words[3];
	if (!strcmp(words[0], "set")) {
		if (n != 4)
			return "one value after '='";
		if (!strcmp(name, "threshold")) {
			char *end;
			double d = strtod(val, &end);
			if (*end || d < 0 || d > 100)
				return "threshold: a percentage from 0 to 100";
			t->set.threshold = d;
		} else if (!strcmp(name, "context")) {
			char *end;
			long c = strtol(val, &end, 10);
			if (*end || c < 0 || c > 100000)
				return "context: a number of lines";
			t->set.context = (int)c;
		} else if (!strcmp(name, "percent")) {
			if (yes(val, &t->set.percent))
				return "percent: yes or no";
		} else if (!strcmp(name, "bars")) {
			if (yes(val, &t->set.bars))
				return "bars: yes or no";
		} else if (!strcmp(name, "detail")) {
			int d;
			if (yes(val, &d))
				return "detail: yes or no";
			t->detail_off = !d;
		} else if (!strcmp(name, "order")) {
			if (!strcmp(val, "inclusive"))
				t->set.inclusive = 1;
			else if (!strcmp(val, "self"))
				t->set.inclusive = 0;
			else
				return "order: inclusive or self";
		} else if (!strcmp(name, "sort")) {
			int e = profile_event_index(t->p, val, strlen(val));
			if (e >= 0) /* another profile's event is no error */
				t->set.sort_event = e;
		} else {
			return "unknown setting";
		}
		return NULL;
	}
	if (!strcmp(words[0], "color")) {
		int slot = 0;
		for (int i = 1; i < (int)(sizeof(color_slots) / sizeof(color_slots[0])); i++)
			if (!strcmp(name, color_slots[i]))
				slot = i;
		if (!slot)
			return "unknown colour (file, hot, negative, bar-low, bar-mid, bar-high)";
		if (n != 5 || color_number(words[3], &t->fg[slot]) || color_number(words[4], &t->bg[slot]))
			return "colours: FG BG, each default, a name or 0-255";
		return NULL;
	}
	return "lines start with 'set' or 'color'";
}

/* Applies text; the first problem goes to the status line as NAME:LINE. */
static int apply_text(struct tui *t, const char *text, const char *name)
{
	int errors = 0, lineno = 0;
	const char *s = text;
	while (*s) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		char *line = xstrndup(s, len);
		lineno++;
		const char *why = apply(t, line);
		if (why && !errors++)
			tui_message(t, "%s:%d: %s", name, lineno, why);
		free(line);
		s += len + (e ? 1 : 0);
	}
	return errors;
}

void tui_config(struct tui *t)
{
	apply_text(t, default_config, "(defaults)");
	const char *path = getenv("CGTUI_CONFIG");
	char *own = NULL;
	if (!path) {
		const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
		if (xdg && *xdg)
			path = own = xasprintf("%s/cgtui/config", xdg);
		else if (home && *home)
			path = own = xasprintf("%s/.config/cgtui/config", home);
	}
	FILE *f = path && *path ? fopen(path, "r") : NULL;
	if (!f) {
		if (path && *path && errno != ENOENT)
			tui_message(t, "%s: %s", path, strerror(errno));
		free(own);
		return;
	}
	char buf[65536];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	apply_text(t, buf, path);
	free(own);
}

void tui_colors(struct tui *t)
{
	for (int i = 1; i < (int)(sizeof(color_slots) / sizeof(color_slots[0])); i++)
		init_pair((short)i, (short)t->fg[i], (short)t->bg[i]);
}
