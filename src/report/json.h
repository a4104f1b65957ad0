/* json.h -- the batch report as JSON (--format=json): metadata, events,
 * totals, functions and cycles with self and inclusive costs and calls,
 * file:function costs, and the call edges by the one cycle rule.  The
 * schema is versioned (JSON_REPORT_VERSION) and described in cgtui(1).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_JSON_H
#define CGTUI_JSON_H

#include <stdio.h>

#include "profile/model.h"
#include "report/report.h"

#define JSON_REPORT_VERSION 1

/* Writes p as the report's JSON, with o's threshold (the report's rule, on
 * the first sort event) and sort events. */
void json_report_write(FILE *out, struct profile *p, const struct report_opts *o);

struct jsonw;
/* {"Ir": 1, ...}: every event's value (derived ones too) of the real cost
 * vector c, as a member named key. */
/* Opens the top object of a JSON document of ours: its format, version
 * and generator (pretty-printed). */
void json_begin(struct jsonw *w, FILE *out, const char *format, int version);
void json_costs(struct jsonw *w, const char *key, const struct profile *p, const cost_t *c);

#endif
