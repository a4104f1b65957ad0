/* app.h -- cgtui's modes, composed from the rooms below: reading
 * profiles (the report, the explorer, --check) and recording a program
 * (the recorder feeding the explorer, or the report at the end).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_APP_H
#define CGTUI_APP_H

#include "app/cli.h"

/* cgtui [options] [PROFILE]...: the exit status. */
int app_read(const struct cli *c);
/* cgtui [options] PROGRAM [ARG]...: the exit status. */
int app_record(const struct cli *c);

#endif
