#!/usr/bin/env python3
# profdiff.py -- compares the Ir of a Cachegrind profile and a Callgrind
# profile per (file, function, line), and their totals.  Its own small
# readers, independent of cgtui's loader.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: profdiff.py [--files REGEX] CACHEGRIND-FILE CALLGRIND-FILE [EVENT...]
#   (CACHEGRIND-FILE may be a Callgrind-format file too: another run of ours)
#   --files REGEX  compare only the lines of files whose name matches (and
#                  not the totals): for programs whose library code varies
#                  from run to run (threads)
#   EVENT          an event of both files, or OURS=CG1+CG2...: our event
#                  OURS against the sum of cachegrind's CG1, CG2 ... (default:
#                  every event the two files share)
# Prints one "PASS: ..." or "FAIL: ..." line per check; exit 0 when all pass.
#
# Code without a source file ("???") is compared per line, whatever its
# function: cachegrind names code without a symbol "???", the recorder (as
# callgrind) names it after the function it ran in -- its own address name
# (0x000000000001ab70) or, for a PLT stub or code jumped to, its caller's.
#
#        profdiff.py --fold-unnamed IN OUT
#   writes IN (either format) with its names spelled out and the functions
#   of code without a source file all named "???", as cachegrind names
#   them, so that two reports of both files can be compared.
import re
import sys
from collections import defaultdict


def unnamed(fl, fn):
    """the function compared: code without a source file is compared as
    a whole, per line"""
    return '???' if fl == '???' else fn


def fold_unnamed(src, dst):
    """copies src to dst, names spelled out, and fn= of code in file ???
    made "???"; the lines after fi=/fe= get fl= and fn= of their own"""
    kind = {'ob': 'ob', 'cob': 'ob', 'fl': 'fl', 'fi': 'fl', 'fe': 'fl',
            'cfi': 'fl', 'cfl': 'fl', 'fn': 'fn', 'cfn': 'fn'}
    names = {'ob': {}, 'fl': {}, 'fn': {}}
    rx = re.compile(r'^(\w+)=(?:\((\d+)\)(?: (.*))?|(.*))$')
    fl = fn = None
    with open(src) as f, open(dst, 'w') as out:
        for line in f:
            line = line.rstrip('\n')
            m = rx.match(line)
            if not m or m.group(1) not in kind:
                out.write(line + '\n')
                continue
            key, tab = m.group(1), names[kind[m.group(1)]]
            if m.group(2) is None:
                val = m.group(4)
            else:
                if m.group(3) is not None:
                    tab[m.group(2)] = m.group(3)
                val = tab[m.group(2)]
            if key == 'fl':
                fl = val
            elif key == 'fn':
                fn = val
                val = unnamed(fl, val)
            elif key in ('fi', 'fe') and fn is not None:
                # lines of another file in the same function: a block of
                # their own here (cachegrind's layout), so that code
                # without a source file gets its own function too
                fl = val
                out.write('fl=%s\nfn=%s\n' % (val, unnamed(val, fn)))
                continue
            out.write('%s=%s\n' % (key, val))


def read_cachegrind(path):
    costs = defaultdict(lambda: None)
    events = None
    fl = fn = None
    summary = None
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('events:'):
                events = line.split()[1:]
            elif line.startswith('fl='):
                fl = line[3:]
            elif line.startswith('fn='):
                fn = line[3:]
            elif line.startswith('summary:'):
                summary = [int(x) for x in line.split()[1:]]
            elif line and line[0].isdigit():
                w = line.split()
                v = [0 if x == '.' else int(x) for x in w[1:]]
                v += [0] * (len(events) - len(v))
                k = (fl, unnamed(fl, fn), int(w[0]))
                old = costs[k]
                costs[k] = v if old is None else [a + b for a, b in zip(old, v)]
    return events, dict(costs), summary


def read_callgrind(path, edges=None):
    """Self costs per (file, function, line); calls= lines' costs skipped,
    or, given a dict edges, added up there: (caller, callee) by function
    name -> [count, inclusive costs]."""
    events = None
    positions = ['line']
    names = {'ob': {}, 'fl': {}, 'fn': {}}
    kind = {'ob': 'ob', 'cob': 'ob', 'fl': 'fl', 'fi': 'fl', 'fe': 'fl',
            'cfi': 'fl', 'cfl': 'fl', 'fn': 'fn', 'cfn': 'fn'}
    costs = {}
    fl = fi = fn = cfn = None
    ncalls = 0
    prev = []
    skip_next = False
    summary = totals = None
    rx = re.compile(r'^\((\d+)\)(?: (.*))?$')

    def name(key, val):
        m = rx.match(val)
        if not m:
            return val
        tab = names[kind[key]]
        if m.group(2) is not None:
            tab[m.group(1)] = m.group(2)
        return tab[m.group(1)]

    def pos(fields):
        out = []
        for i, x in enumerate(fields):
            if x == '*':
                out.append(prev[i])
            elif x[0] == '+':
                out.append(prev[i] + int(x[1:], 0))
            elif x[0] == '-':
                out.append(prev[i] - int(x[1:], 0))
            else:
                out.append(int(x, 0))
        return out

    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line[0] == '#':
                continue
            m = re.match(r'^(\w+)[=:]\s?(.*)$', line)
            if m and not line[0].isdigit():
                key, val = m.group(1), m.group(2)
                if key == 'events':
                    events = val.split()
                elif key == 'positions':
                    positions = val.split()
                elif key == 'summary':
                    summary = [int(x) for x in val.split()]
                elif key == 'totals':
                    totals = [int(x) for x in val.split()]
                elif key in ('ob', 'cob', 'cfi', 'cfl'):
                    name(key, val)
                elif key == 'cfn':
                    cfn = name(key, val)
                elif key == 'fl':
                    fl = fi = name(key, val)
                elif key in ('fi', 'fe'):
                    fi = name(key, val)
                elif key == 'fn':
                    fn = name(key, val)
                    fi = fl
                elif key == 'calls':
                    skip_next = True
                    ncalls = int(val.split()[0])
                continue
            w = line.split()
            n = len(positions)
            p = pos(w[:n])
            prev = p
            v = [int(x) for x in w[n:]]
            v += [0] * (len(events) - len(v))
            if skip_next:
                skip_next = False
                if edges is not None:
                    e = edges.setdefault((fn, cfn), [0, [0] * len(events)])
                    e[0] += ncalls
                    e[1] = [a + b for a, b in zip(e[1], v)]
                continue
            k = (fi, unnamed(fi, fn), p[positions.index('line')])
            old = costs.get(k)
            costs[k] = v if old is None else [a + b for a, b in zip(old, v)]
    return events, costs, summary, totals


def main():
    args = sys.argv[1:]
    if args and args[0] == '--fold-unnamed' and len(args) == 3:
        fold_unnamed(args[1], args[2])
        return 0
    files = None
    if args and args[0] == '--files':
        files = re.compile(args[1])
        args = args[2:]
    cg_path, cl_path = args[0], args[1]
    want = args[2:]
    with open(cg_path) as f:
        callgrind_first = f.readline().startswith('# callgrind format')
    if callgrind_first:  # our own file as the reference (another run)
        cg_events, cg, cg_summary, _ = read_callgrind(cg_path)
    else:
        cg_events, cg, cg_summary = read_cachegrind(cg_path)
    cl_events, cl, cl_summary, cl_totals = read_callgrind(cl_path)
    want = want or [e for e in cl_events if e in cg_events]
    ok = True

    def check(name, good, why=''):
        nonlocal ok
        print(('PASS: ' if good else 'FAIL: ') + name + ('' if good else ': ' + why))
        ok = ok and good

    for e in want:
        ours, _, theirs = e.partition('=')
        idx = [cg_events.index(t) for t in (theirs or ours).split('+')]
        j = cl_events.index(ours)

        def cgv(v):
            return sum(v[i] for i in idx)
        t_cg = sum(cg_summary[i] for i in idx) if cg_summary else sum(cgv(v) for v in cg.values())
        t_cl = sum(v[j] for v in cl.values())
        if files is None:
            check('%s total' % e, t_cg == t_cl, 'cachegrind %d, ours %d' % (t_cg, t_cl))
        if cl_summary:
            check('%s summary line' % e, cl_summary[j] == t_cl,
                  'summary: %d, sum of lines %d' % (cl_summary[j], t_cl))
        if cl_totals:
            check('%s totals line' % e, cl_totals[j] == t_cl,
                  'totals: %d, sum of lines %d' % (cl_totals[j], t_cl))
        keys = set(k for k, v in cg.items() if cgv(v)) | set(k for k, v in cl.items() if v[j])
        if files is not None:
            keys = set(k for k in keys if files.search(k[0] or ''))
        bad = []
        for k in sorted(keys, key=str):
            a = cgv(cg[k]) if k in cg else 0
            b = cl[k][j] if k in cl else 0
            if a != b:
                bad.append('%s:%s:%d cachegrind %d ours %d' % (k[0], k[1], k[2], a, b))
        check('%s per file:function:line (%d lines%s)' % (e, len(keys), '' if files is None else ' of ' + files.pattern),
              bool(keys) and not bad,
              '%d differ, e.g. %s' % (len(bad), '; '.join(bad[:5])))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
