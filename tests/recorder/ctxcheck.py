#!/usr/bin/env python3
# ctxcheck.py -- checks the calling contexts the recorder writes beside a
# profile (PROFILE.ctx, "cgtui-contexts 2" or 1, man/cgtui.1) against the
# profile itself and against callgrind.  Its own small readers of both
# formats, independent of cgtui's loader.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage:
#   ctxcheck.py sums [--events E1,E2...] PROFILE [PROFILE...]
#       for each file (with PROFILE.ctx beside it): the tree is well formed
#       (parents before children, a function at most once on a path), and
#       summed over its contexts every function's self cost equals its self
#       cost in the profile, in every event, exactly; the file's cut: cost
#       is on nodes marked cut.  Prints the number of contexts and the cut.
#       --events: only these events are compared
#   ctxcheck.py expect PROFILE 'PATH=CALLS,REC,SELF' ...
#       one context's path ends with PATH (function names, ';'-separated,
#       the caller first; a '*' element matches any one name), with these
#       calls, recursion depth and self Ir (a '-' skips a field); CALLS
#       is every call, or F+R: F from its parent and R recursive ones
#       folded into it (version 2)
#   ctxcheck.py recursion CALLGRIND-FILE PROFILE PATH
#       the context whose path ends with PATH (as expect's), a function
#       f called by g, has as many calls from its parent as callgrind's
#       edge g -> f and as many recursive ones as its edge f -> f (run
#       with --separate-recs=1), both more than 0
#   ctxcheck.py callers CALLGRIND-FILE PROFILE REGEX [EXCLUDE]
#       for functions matching REGEX: the self Ir per (function, its 3
#       callers) summed over our contexts equals callgrind's
#       --separate-callers=3 (its function names f'c1'c2'c3); contexts
#       with a caller matching EXCLUDE are left out
#   ctxcheck.py depth PROFILE N
#       some path is longer than N (a cut checks that it shortens them)
#   ctxcheck.py folded PROFILE FOLDED-FILE
#       a folded-stack file (cgtui --export=folded) gives each path the
#       inclusive Ir of its context less its children's (its self)
import re
import sys
from collections import defaultdict


def read_profile(path):
    """(events, self costs per (object, function name))"""
    names = {'ob': {}, 'fl': {}, 'fn': {}}
    kinds = {'ob': 'ob', 'cob': 'ob', 'fl': 'fl', 'fi': 'fl', 'fe': 'fl', 'cfi': 'fl',
             'cfl': 'fl', 'fn': 'fn', 'cfn': 'fn'}
    events = []
    npos = 1
    selfs = defaultdict(lambda: None)
    ob = fn = None
    after_calls = False
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        m = re.match(r'^(\w+)[=:]\s*(.*)$', line)
        if m and not line[0].isdigit() and not line.startswith(('0x', '+', '-', '*')):
            key, val = m.group(1), m.group(2)
            if key == 'events':
                events = val.split()
            if key == 'positions':
                npos = len(val.split())
            if key in kinds:
                nm = re.match(r'^\((\d+)\)\s*(.*)$', val)
                table = names[kinds[key]]
                if nm:
                    if nm.group(2):
                        table[nm.group(1)] = nm.group(2)
                    val = table[nm.group(1)]
                if key == 'ob':
                    ob = val
                elif key == 'fn':
                    fn = val
            if key == 'calls':
                after_calls = True
            continue
        if after_calls:  # the call's inclusive cost
            after_calls = False
            continue
        fields = line.split()
        costs = [int(c) for c in fields[npos:]]
        cur = selfs[(ob, fn)]
        if cur is None:
            cur = selfs[(ob, fn)] = [0] * len(events)
        for i, c in enumerate(costs):
            cur[i] += c
    return events, {k: v for k, v in selfs.items() if v is not None}


def read_ctx(path):
    nodes = []
    fns = []
    cut = None
    events = None
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    assert lines[0] in ('cgtui-contexts\t1', 'cgtui-contexts\t2'), \
        f'{path}:1: not a contexts file'
    v2 = lines[0].endswith('2')
    for lno, line in enumerate(lines[1:], 2):
        if not line:
            continue
        f = line.split('\t')
        if f[0] == 'events:':
            events = f[1:]
        elif f[0] == 'fn:':
            assert int(f[1]) == len(fns), f'{path}:{lno}: fn: out of order'
            fns.append((f[2], f[3], f[4]))
        elif f[0] == 'ctx:':
            if v2:  # the calls from the parent, then the recursive ones
                n, parent, k, calls, rcalls, rec, cutf = (int(x) for x in f[1:8])
                costs = f[8:]
                assert rcalls == 0 or rec > 1, f'{path}:{lno}: recursive calls, rec 1'
            else:
                n, parent, k, calls, rec, cutf = (int(x) for x in f[1:7])
                rcalls, costs = None, f[7:]
            assert n == len(nodes), f'{path}:{lno}: nodes out of order'
            assert -1 <= parent < n, f'{path}:{lno}: parent after child'
            nodes.append({'parent': parent, 'fn': fns[k], 'calls': calls, 'rcalls': rcalls,
                          'rec': rec, 'cut': cutf, 'self': [int(x) for x in costs]})
        elif f[0] == 'cut:':
            cut = [int(x) for x in f[1:]]
        else:
            raise AssertionError(f'{path}:{lno}: unknown line')
    return events, nodes, cut


def path_of(nodes, i):
    p = []
    while i >= 0:
        p.append(nodes[i]['fn'][2])
        i = nodes[i]['parent']
    return p[::-1]


def sums(files):
    only = None
    if files[0] == '--events':
        only = files[1].split(',')
        files = files[2:]
    ok = True
    for prof in files:
        events, flat = read_profile(prof)
        cevents, nodes, cut = read_ctx(prof + '.ctx')
        if cevents != events:
            print(f'FAIL: {prof}.ctx: events {cevents} against {events}')
            ok = False
            continue
        per = defaultdict(lambda: [0] * len(events))
        for i, n in enumerate(nodes):
            # a function at most once on a path (recursion folded)
            p = []
            j = i
            while j >= 0:
                p.append(nodes[j]['fn'])
                j = nodes[j]['parent']
            if len(set(p)) != len(p):
                print(f'FAIL: {prof}.ctx: node {i} has a function twice on its path')
                ok = False
            key = (n['fn'][0], n['fn'][2])
            for e, c in enumerate(n['self']):
                per[key][e] += c
        bad = 0
        keep = [i for i, e in enumerate(events) if only is None or e in only]
        for key in set(flat) | set(per):
            a = [flat.get(key, [0] * len(events))[i] for i in keep]
            b = [per.get(key, [0] * len(events))[i] for i in keep]
            if a != b:
                bad += 1
                if bad <= 10:
                    print(f'FAIL: {prof}: {key[1]} ({key[0]}): profile {a}, contexts {b}')
        ncut = sum(1 for n in nodes if n['cut'])
        if cut is None or (any(cut) and not ncut):
            print(f'FAIL: {prof}.ctx: cut: {cut} with {ncut} nodes marked cut')
            bad += 1
        if bad:
            ok = False
        else:
            print(f'PASS: {prof}: {len(nodes)} contexts, {len(flat)} functions equal in '
                  f'{len(keep)} events; {ncut} cut, cut cost {cut}')
    return ok


def find(nodes, want_path):
    """the nodes whose paths end with want_path (a list, '*': any name)"""
    k = len(want_path)
    return [n for p, n in ((path_of(nodes, i), n) for i, n in enumerate(nodes))
            if len(p) >= k and all(w in ('*', g) for w, g in zip(want_path, p[-k:]))]


def expect(prof, specs):
    _, nodes, _ = read_ctx(prof + '.ctx')
    ok = True
    for spec in specs:
        want_path, want = spec.split('=')
        calls, rec, self_ir = want.split(',')
        found = find(nodes, want_path.split(';'))
        if len(found) != 1:
            print(f'FAIL: {spec}: {len(found)} contexts match')
            ok = False
            continue
        n = found[0]
        if '+' in calls:
            got_calls = f"{n['calls']}+{n['rcalls']}"
        else:
            got_calls = str(n['calls'] + (n['rcalls'] or 0))
        got = (got_calls, str(n['rec']), str(n['self'][0]))
        if any(w != '-' and w != g for w, g in zip((calls, rec, self_ir), got)):
            print(f'FAIL: {spec}: calls, rec, self are {",".join(got)}')
            ok = False
        else:
            print(f'PASS: {spec}')
    return ok


def cg_calls(path):
    """callgrind's call counts per (caller, callee) name"""
    names = {}
    counts = defaultdict(int)
    fn = cfn = None

    def name(val):
        m = re.match(r'^\((\d+)\)\s*(.*)$', val)
        if not m:
            return val
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names[m.group(1)]
    # (fn= and cfn= share one numbering)
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if line.startswith('fn='):
            fn = name(line[3:])
        elif line.startswith('cfn='):
            cfn = name(line[4:])
        elif line.startswith('calls='):
            counts[(fn, cfn)] += int(line[6:].split()[0])
    return counts


def recursion(cg, prof, want_path):
    want_path = want_path.split(';')
    f, g = want_path[-1], want_path[-2]
    _, nodes, _ = read_ctx(prof + '.ctx')
    found = find(nodes, want_path)
    if len(found) != 1 or found[0]['rcalls'] is None:
        print(f'FAIL: {";".join(want_path)}: {len(found)} contexts match (version 2)')
        return False
    n = found[0]
    counts = cg_calls(cg)
    want = (counts[(g, f)], counts[(f, f)])
    got = (n['calls'], n['rcalls'])
    ok = got == want and all(want)
    print(f'{"PASS" if ok else "FAIL"}: {";".join(want_path)}: calls from {g} and '
          f'recursive {got[0]}+{got[1]}, callgrind {g} -> {f} and {f} -> {f} '
          f'{want[0]}+{want[1]}')
    return ok


def callers(cg, prof, regex, exclude=None):
    """callgrind --separate-callers=3 against our contexts"""
    _, cgself = read_profile(cg)
    want = defaultdict(int)
    for (ob, name), c in cgself.items():
        parts = name.split("'")
        if re.search(regex, parts[0]) and not (
                exclude and any(re.search(exclude, x) for x in parts[1:])):
            want[tuple(parts)] += c[0]
    _, nodes, _ = read_ctx(prof + '.ctx')
    got = defaultdict(int)
    for i, n in enumerate(nodes):
        p = path_of(nodes, i)
        if re.search(regex, p[-1]) and not (
                exclude and any(re.search(exclude, x) for x in p[-4:-1])):
            key = tuple(reversed(p[-4:]))
            got[key] += n['self'][0]
    ok = True
    for key in sorted(set(want) | set(got)):
        if want.get(key, 0) != got.get(key, 0):
            print(f"FAIL: {' <- '.join(key)}: callgrind {want.get(key, 0)}, ours {got.get(key, 0)}")
            ok = False
    if ok:
        print(f'PASS: {len(want)} contexts of {regex} equal to callgrind --separate-callers=3')
    return ok and len(want) > 0


def depth(prof, n):
    _, nodes, _ = read_ctx(prof + '.ctx')
    d = max(len(path_of(nodes, i)) for i in range(len(nodes)))
    print(f'{"PASS" if d > n else "FAIL"}: deepest path {d}, against {n}')
    return d > n


def folded(prof, path):
    _, nodes, _ = read_ctx(prof + '.ctx')
    want = defaultdict(int)
    for i, n in enumerate(nodes):
        want[';'.join(path_of(nodes, i))] += n['self'][0]
    got = defaultdict(int)
    for line in open(path, encoding='utf-8'):
        stack, _, count = line.rstrip('\n').rpartition(' ')
        got[stack] += int(count)
    want = {k: v for k, v in want.items() if v}
    ok = want == dict(got)
    for k in sorted(set(want) | set(got)):
        if want.get(k, 0) != got.get(k, 0):
            print(f'FAIL: folded {k}: contexts {want.get(k, 0)}, export {got.get(k, 0)}')
            break
    if ok:
        print(f'PASS: folded stacks: {len(want)} paths equal')
    return ok


def main(argv):
    cmd = argv[1]
    if cmd == 'sums':
        return sums(argv[2:])
    if cmd == 'expect':
        return expect(argv[2], argv[3:])
    if cmd == 'callers':
        return callers(argv[2], argv[3], argv[4], argv[5] if len(argv) > 5 else None)
    if cmd == 'recursion':
        return recursion(argv[2], argv[3], argv[4])
    if cmd == 'depth':
        return depth(argv[2], int(argv[3]))
    if cmd == 'folded':
        return folded(argv[2], argv[3])
    raise SystemExit(f'unknown command {cmd}')


if __name__ == '__main__':
    sys.exit(0 if main(sys.argv) else 1)
