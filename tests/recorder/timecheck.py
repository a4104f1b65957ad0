#!/usr/bin/env python3
"""timecheck.py -- checks a timeline (PROFILE.time, "cgtui-timeline 1") with
its own readers of the profile and the timeline (run-timeline.sh).

  timecheck.py sums PROFILE
      summed over the intervals, every function's cost equals its self cost
      in the profile, in every event; the intervals follow each other and
      each one's totals are the sum of its functions'.
  timecheck.py phases PROFILE NAME=IR ...
      NAME's cost summed over the intervals is IR (computed by hand), the
      functions run one after the other: each one's intervals come after
      the previous one's, and the intervals inside a phase (all but its
      first and last) are that phase's alone (a plateau: rate 1).

Copyright (C) the cgtui authors.
SPDX-License-Identifier: GPL-2.0-or-later
"""
import re
import sys
from collections import defaultdict


def read_profile(path):
    """self cost per (object, file, function) of a Callgrind file written by
    the recorder (name compression, fl=/fi=/fe=, calls= lines skipped)"""
    names = {}
    events = []
    self_cost = defaultdict(lambda: None)
    ob = fl = fn = None
    skip_next = False

    def name(kind, v):
        m = re.match(r'\((\d+)\)(?: (.*))?$', v)
        if not m:
            return v
        if m.group(2) is not None:
            names[(kind, m.group(1))] = m.group(2)
        return names[(kind, m.group(1))]

    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('events:'):
                events = line.split()[1:]
            elif line.startswith('ob='):
                ob = name('ob', line[3:])
            elif line.startswith('fl='):
                fl = name('fl', line[3:])
            elif line.startswith(('fi=', 'fe=')):
                name('fl', line[3:])
            elif line.startswith('fn='):
                fn = name('fn', line[3:])
            elif line.startswith(('cob=', 'cfi=', 'cfl=')):
                name('ob' if line.startswith('cob') else 'fl', line.split('=', 1)[1])
            elif line.startswith('cfn='):
                name('fn', line[4:])
            elif line.startswith('calls='):
                skip_next = True
            elif line and (line[0].isdigit() or line[0] in '+-*'):
                if skip_next:
                    skip_next = False
                    continue
                nums = [int(x) for x in line.split()[2:]]
                nums += [0] * (len(events) - len(nums))
                key = (ob, fl, fn)
                old = self_cost[key] or [0] * len(events)
                self_cost[key] = [a + b for a, b in zip(old, nums)]
    return events, {k: v for k, v in self_cost.items() if v is not None}


def read_time(path):
    """(events, functions by number, intervals [(start, end, totals,
    {fn: costs})])"""
    fns, ivs = {}, []
    with open(path) as f:
        first = f.readline().rstrip('\n')
        if first != 'cgtui-timeline\t1':
            sys.exit('%s:1: not a timeline: %r' % (path, first))
        events = []
        for no, line in enumerate(f, 2):
            p = line.rstrip('\n').split('\t')
            if p[0] == 'events:':
                events = p[1:]
            elif p[0] == 'length:':
                pass
            elif p[0] == 'fn:':
                fns[int(p[1])] = (p[2], p[3], p[4])
            elif p[0] == 'iv:':
                ivs.append((int(p[1]), int(p[2]), [int(x) for x in p[3:]], {}))
            elif p[0] == 'c:':
                ivs[-1][3][fns[int(p[1])]] = [int(x) for x in p[2:]]
            else:
                sys.exit('%s:%d: unknown line %r' % (path, no, line))
    return events, fns, ivs


def sums(prof):
    events, self_cost = read_profile(prof)
    tevents, fns, ivs = read_time(prof + '.time')
    bad = 0
    if tevents != events:
        print('events differ: %s / %s' % (tevents, events))
        return 1
    total = defaultdict(lambda: [0] * len(events))
    at = 0
    for start, end, tot, costs in ivs:
        if start != at or end - start != tot[0]:
            print('interval %d..%d after %d (Ir %d)' % (start, end, at, tot[0]))
            bad += 1
        at = end
        s = [sum(c[e] for c in costs.values()) for e in range(len(events))]
        if s != tot:
            print('interval %d..%d: totals %s, functions add up to %s' % (start, end, tot, s))
            bad += 1
        for k, c in costs.items():
            total[k] = [a + b for a, b in zip(total[k], c)]
    for k in set(total) | set(self_cost):
        want = self_cost.get(k, [0] * len(events))
        if total.get(k, [0] * len(events)) != want:
            print('%s: intervals %s, profile %s' % ('/'.join(k), total.get(k), want))
            bad += 1
    print('%d functions, %d intervals, %d Ir: %d differences' % (len(self_cost), len(ivs), at, bad))
    return 1 if bad else 0


def phases(prof, specs):
    tevents, fns, ivs = read_time(prof + '.time')
    bad = 0
    last = -1
    for spec in specs:
        name, want = spec.split('=')
        want = int(want)
        where = [i for i, iv in enumerate(ivs) for k in iv[3] if k[2] == name]
        got = sum(c[0] for iv in ivs for k, c in iv[3].items() if k[2] == name)
        if got != want:
            print('%s: %d Ir over the intervals, %d by hand' % (name, got, want))
            bad += 1
        if not where or where[0] < last:
            print('%s: intervals %s, not after the previous phase (%d)' % (name, where, last))
            bad += 1
            continue
        if where != list(range(where[0], where[-1] + 1)):
            print('%s: not one run of intervals: %s' % (name, where))
            bad += 1
        inner = where[1:-1]
        if len(inner) < 3:
            print('%s: only %d intervals inside the phase' % (name, len(inner)))
            bad += 1
        for i in inner:
            iv = ivs[i]
            mine = sum(c[0] for k, c in iv[3].items() if k[2] == name)
            if mine != iv[2][0]:
                print('%s: interval %d..%d has %d of %d Ir' % (name, iv[0], iv[1], mine, iv[2][0]))
                bad += 1
        last = where[-1]
        print('%s: %d Ir in intervals %d..%d' % (name, got, where[0], where[-1]))
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == 'sums':
        return max(sums(p) for p in argv[2:])
    if len(argv) >= 4 and argv[1] == 'phases':
        return phases(argv[2], argv[3:])
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
