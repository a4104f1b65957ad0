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
 * or NULL when nothing matched. */
char *modname_apply(const struct modname *m, const char *s, size_t len, size_t *outlen);
void modname_free(struct modname *m);

#endif
