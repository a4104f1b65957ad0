/* program.c -- what is a program: `cgtui ARG` records ARG when it is one
 * (an ELF program or a #! script, here or in $PATH), else reads it as a
 * profile; and why not, when neither.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/util.h"
#include "record/record.h"
#include "record/record_int.h"

/* How a file starts: as an ELF program, a #! script, something else (a
 * profile, say), or it cannot be read. */
enum file_kind { KIND_UNREAD, KIND_ELF, KIND_SCRIPT, KIND_OTHER };
static enum file_kind file_kind(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return KIND_UNREAD;
	unsigned char b[4] = { 0 };
	size_t n = fread(b, 1, 4, f);
	fclose(f);
	if (n >= 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F')
		return KIND_ELF;
	if (n >= 2 && b[0] == '#' && b[1] == '!')
		return KIND_SCRIPT;
	return KIND_OTHER;
}

/* Does the file start like a profile (a cachegrind or callgrind file)? */
static int looks_like_profile(const char *path)
{
	return file_kind(path) == KIND_OTHER;
}

int is_exec_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The executable file arg (no '/') names in a directory of $PATH, as a
 * shell finds it (allocated), or NULL. */
static char *rec_which(const char *arg)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		return NULL;
	char *dirs = xstrdup(path), *found = NULL;
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *d ? d : ".", arg);
		if (is_exec_file(p))
			found = p;
		else
			free(p);
	}
	free(dirs);
	return found;
}

int rec_in_path(const char *arg)
{
	char *p = rec_which(arg);
	free(p);
	return p != NULL;
}

char *rec_script(const char *arg)
{
	char *p = strchr(arg, '/') ? xstrdup(arg) : rec_which(arg);
	if (p && file_kind(p) != KIND_SCRIPT) {
		free(p);
		p = NULL;
	}
	return p;
}

int rec_is_program(const char *arg)
{
	struct stat st;
	if (strchr(arg, '/') || stat(arg, &st) == 0)
		return is_exec_file(arg) && !looks_like_profile(arg);
	return rec_in_path(arg);
}

int rec_looks_like_program(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && !looks_like_profile(path);
}

const char *rec_why_not_program(const char *arg)
{
	struct stat st;
	if (!strchr(arg, '/') && stat(arg, &st) != 0)
		return "no such program here or in PATH";
	if (stat(arg, &st) != 0)
		return strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "a directory";
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if (access(arg, X_OK) != 0)
		return looks_like_profile(arg) ? "not executable" :
		       "a program, but not executable (chmod +x)";
	return "neither an ELF program nor a #! script";
}

char *rec_program_here(const char *arg)
{
	if (!strchr(arg, '/') && !rec_in_path(arg) && is_exec_file(arg))
		return xasprintf("./%s", arg);
	return NULL;
}
