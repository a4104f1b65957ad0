/* demangle.h -- C++ names as people read them: a profile written with
 * callgrind --demangle=no (or by another tool) names functions by their
 * mangled symbols (_ZN3foo3barEv); libiberty's demangler (the one of GNU
 * binutils, c++filt) turns them into foo::bar().
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_DEMANGLE_H
#define CGTUI_DEMANGLE_H

#include "model.h"

/* Renames every function name of p that is a mangled C++ (Itanium ABI)
 * symbol to its demangled form; returns how many. */
size_t profile_demangle(struct profile *p);

#endif
