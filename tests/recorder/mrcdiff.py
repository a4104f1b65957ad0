#!/usr/bin/env python3
# mrcdiff.py -- compares the miss-ratio curves (--cache-mrc) of two of our
# profiles of one program: a sampled one against the exact one (every line
# sampled), by the mean absolute error of the miss ratio at cache sizes of
# 2^9 .. 2^16 lines (32 KB .. 4 MB of 64 B lines).  Its own reader of the
# "# mrc-..." lines (man cgtui: CACHE MODELS).
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: mrcdiff.py NAME EXACT SAMPLED [MAX_MAE]
# Prints "PASS: ..." / "FAIL: ..." lines; exit 0 when all pass.
import sys

SIZES = range(9, 17)


def read(path):
    total, fns, version = None, {}, None
    pending = None
    with open(path) as f:
        for line in f:
            if line.startswith('# cgtui mrc '):
                version = line.split()[3].rstrip(':')
            elif line.startswith('# mrc-total:'):
                total = [int(x) for x in line.split()[2:]]
            elif line.startswith('# mrc-fn:'):
                pending = [int(x) for x in line.split()[2:]]
            elif line.startswith('# mrc-name: ') and pending:
                fns[line[len('# mrc-name: '):].rstrip('\n')] = pending
                pending = None
    return version, total, fns


def ratios(curve):
    """curve: samples, accesses, misses at 2^0 .. 2^26 lines"""
    acc = curve[1]
    return [curve[2 + k] / acc for k in SIZES] if acc else None


def mae(a, b):
    return sum(abs(x - y) for x, y in zip(a, b)) / len(a)


def main():
    name, exact_path, sampled_path = sys.argv[1:4]
    limit = float(sys.argv[4]) if len(sys.argv) > 4 else 0.01
    ok = True

    def check(what, good, why=''):
        nonlocal ok
        print(('PASS: ' if good else 'FAIL: ') + name + ': ' + what + ('' if good else ': ' + why))
        ok = ok and good

    ve, te, fe = read(exact_path)
    vs, ts, fs = read(sampled_path)
    check('format version 1 in both', ve == '1' and vs == '1', '%r %r' % (ve, vs))
    if not te or not ts:
        check('a total curve in both', False, 'missing')
        return 1
    check('the same data accesses', te[1] == ts[1], '%d and %d' % (te[1], ts[1]))
    check('every access sampled in the exact one', te[0] == te[1], '%d of %d' % (te[0], te[1]))
    e = mae(ratios(te), ratios(ts))
    check('whole run: MAE %.4f at 2^9 .. 2^16 lines (%d samples of %d)' % (e, ts[0], ts[1]),
          e < limit, 'over %.2f: exact %s, sampled %s' % (
              limit, ' '.join('%.4f' % x for x in ratios(te)),
              ' '.join('%.4f' % x for x in ratios(ts))))
    # functions with a curve in both files: their data accesses must agree;
    # their error is reported (those of many samples must be close too)
    both = [f for f in fs if f in fe]
    check('functions with a curve in both: %d' % len(both), bool(both), 'none')
    worst = None
    for f in both:
        check('%s: the same data accesses' % f, fe[f][1] == fs[f][1],
              '%d and %d' % (fe[f][1], fs[f][1]))
        if fs[f][0] >= 1000:
            m = mae(ratios(fe[f]), ratios(fs[f]))
            if worst is None or m > worst[0]:
                worst = (m, f, fs[f][0])
    if worst:
        check('functions of 1000 samples or more: the worst MAE %.4f (%s, %d samples)' % worst,
              worst[0] < 2 * limit, 'over %.2f' % (2 * limit))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
