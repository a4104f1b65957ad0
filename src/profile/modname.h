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

/* Matching across builds: the same program built in two places, its
 * profiles compared.  Two rules, each applied after `first` (the user's
 * --mod-*, or NULL), freed with modname_free() (first is not):
 * modname_prefixes() rewrites a path that begins with from[i] (the
 * first that does: longest first) to begin with to[i] instead (the
 * strings copied; a from[i] that does not end in '/' stands for that
 * whole path alone); modname_numbering() drops the numbers a
 * compiler gives the functions it makes: the clone suffixes ".isra.N",
 * ".part.N", ".constprop.N", ".lto_priv.N", ".cold" (and their
 * demangled " [clone .isra.N]"), and {lambda(...)#N}'s "#N". */
struct modname *modname_prefixes(const struct modname *first, const char *const *from,
				 const char *const *to, int n);
struct modname *modname_numbering(const struct modname *first);
/* The leading parts of the paths b (objects, files) that stand for
 * leading parts of the paths a: for each path of b that a does not hold,
 * the one path of a with the most trailing components in common with it
 * (its base name at least; when two have as many, none), if the parts
 * before those differ (neither empty); each leading part of b is taken as
 * the one of a it was found as most often, if the paths so matched are
 * half of a's under that part and of b's own (not a's) under b's, at
 * least.  (b may hold a's paths or not: the same.)  Returns how many, in the
 * arrays *from (b's) and *to (a's), longest from first: malloc'ed, as
 * their strings. */
int modname_match_paths(const char *const *a, size_t na, const char *const *b, size_t nb,
			char ***from, char ***to);

/* The program itself built under another name (prog.old and prog): the
 * object of each side named as its command's program (the first word of
 * cmd, by base name; one such object only), when b's is not a's and a does
 * not hold it.  1 with *from (b's) and *to (a's) malloc'ed, for
 * modname_prefixes() (a whole path: it stands for that path alone), when
 * b's with `prefixes` applied (NULL: none) is not among a's; else 0. */
int modname_match_program(const char *acmd, const char *const *aobjs, size_t na,
			  const char *bcmd, const char *const *bobjs, size_t nb,
			  const struct modname *prefixes, char **from, char **to);

#endif
