/* srclib.h -- the shared library's one function.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SRCLIB_H
#define SRCLIB_H
int lib_sum(const int *a, int n);
#endif
