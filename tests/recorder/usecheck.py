#!/usr/bin/env python3
# usecheck.py -- the recorder's line utilisation (--cache-use=yes: D1fb,
# D1ub per function) against an independent model: tests/unit/simref.py's
# use_reference (written from src/sim/use.h's rules) run on a Valgrind
# lackey trace of the same program (--trace-mem=yes: its data accesses,
# each charged to the function of the instruction before it, by `nm -n`
# of a program built without PIE), the lines left at the end counted.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: usecheck.py TRACE NM PROFILE SIZE ASSOC LINE MAX_REL FN[,FN...]
#   The whole run's D1fb and D1ub within MAX_REL (a fraction) of the
#   model's, each FN's within MAX_REL or two lines: lackey's stream of
#   accesses is cachegrind's but for the few it does not merge or clamp as
#   cachegrind does (the C library's startup: 0.15% more bytes fetched on
#   rec-prog), which moves a few lines between functions.
# Prints PASS/FAIL lines; exit 0 when all pass.
import bisect
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'unit'))
sys.path.insert(0, here)
from simref import use_reference  # noqa: E402
from profdiff import read_callgrind  # noqa: E402
from lruexact import functions  # noqa: E402


def main():
    trace, nm, prof, size, assoc, line, limit, fns = sys.argv[1:9]
    size, assoc, line, limit = int(size), int(assoc), int(line), float(limit)
    want = set(fns.split(','))
    starts, names = functions(nm)
    accesses, fn = [], None
    for l in open(trace):
        if l.startswith('I '):
            i = bisect.bisect_right(starts, int(l[3:].split(',')[0], 16)) - 1
            fn = names[i] if i >= 0 and names[i] in want else '-'
        elif len(l) > 3 and l[0] == ' ' and l[1] in 'LSM':
            a, s = l[3:].split(',')
            accesses.append((fn or '-', int(a, 16), int(s)))
    per, flush = use_reference(accesses, size, assoc, line)
    ref = {}
    for g in [g for _, gone in per for g in gone] + flush:
        for k in ('all', g[0]):
            r = ref.setdefault(k, [0, 0])
            r[0] += g[1]
            r[1] += g[2]
    events, costs, _, totals = read_callgrind(prof)
    fb, ub = events.index('D1fb'), events.index('D1ub')
    ours = {'all': [totals[fb], totals[ub]]}
    for (fi, f, ln), v in costs.items():
        if f in want:
            o = ours.setdefault(f, [0, 0])
            o[0] += v[fb]
            o[1] += v[ub]
    ok = True
    for k in ['all'] + sorted(want):
        r, o = ref.get(k, [0, 0]), ours.get(k, [0, 0])
        slack = 0 if k == 'all' else 2 * line
        good = r[0] > 0 and all(abs(a - b) <= max(limit * b, slack) for a, b in zip(o, r))
        ok = ok and good
        print('%s: %s: D1fb %d D1ub %d (%.1f%% used); the model on lackey\'s trace %d %d' % (
            'PASS' if good else 'FAIL', 'whole run' if k == 'all' else k, o[0], o[1],
            100.0 * o[1] / o[0] if o[0] else 0, r[0], r[1]))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
