/* modname.h -- cg_annotate's --mod-filename / --mod-funcname substitutions:
 * "s/regex/replacement/[gi]" with pcre2.  Backreferences in the replacement
 * are written \1 .. \9 (as in Python's re.sub, which cg_annotate uses).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_MODNAME_H
#define CGTUI_MODNAME_H

#include <stddef.h>

struct modname;

/* NULL on error, with the reason in err. */
struct modname *modname_compile(const char *expr, char *err, size_t errsz);
/* Applies the substitution; returns a malloc'ed string (length in *outlen),
 * or NULL when nothing matched.  Several threads may apply one m at once. */
char *modname_apply(const struct modname *m, const char *s, size_t len, size_t *outlen);
/* The same with the caller's room for matching, *sc (NULL at first; made
 * then, for any substitution, to be freed with modname_scratch_free()):
 * for a caller that applies many names, in one thread at a time. */
struct modname_scratch;
char *modname_apply_in(struct modname_scratch **sc, const struct modname *m, const char *s,
		       size_t len, size_t *outlen);
void modname_scratch_free(struct modname_scratch *sc);
void modname_free(struct modname *m);

/* From now on (before m is applied anywhere), remember every name m is
 * applied to and what it became: a source file is read under its original
 * name (cg_annotate's rule), so the report needs the names that became a
 * file's modified name.  (The names are applied once each afterwards.)
 * Off by default: there may be millions of function names. */
void modname_keep_originals(struct modname *m);
/* The remembered names that became `name` (a name left unchanged became
 * itself), ordered as strcmp orders them: *out is a malloc'ed array of
 * pointers into m.  Returns how many (0 when none or not remembering). */
size_t modname_originals(const struct modname *m, const char *name, const char ***out);

#endif
