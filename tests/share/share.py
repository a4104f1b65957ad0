#!/usr/bin/env python3
# share.py -- independent readers for the tests of the exports, the JSON
# report and the importers (run-share.sh).  The profile is read by
# tests/recorder/profdiff.py's reader, pprof by protoc's text output, JSON
# by Python's json module (and validated with jsonschema), folded stacks by
# the few lines below; nothing here uses cgtui's own code.  Prints PASS:/FAIL:
# lines; exits 1 when one failed.
#
# Usage: share.py folded PROFILE FOLDED
#        share.py speedscope PROFILE SPEEDSCOPE.json FOLDED
#        share.py pprof PROFILE DECODED.txt FOLDED
#        share.py report SCHEMA REPORT.json PROFILE
#        share.py folded-import FOLDED REPORT.json
#        share.py pprof-import REPORT.json
#        share.py roundtrip PROFILE REPORT.json
#        share.py schema SCHEMA DOC.json
# SPDX-License-Identifier: GPL-2.0-or-later
import codecs
import json
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'recorder'))
import profdiff  # noqa: E402

failed = 0


def check(name, ok, detail=''):
    global failed
    if ok:
        print('PASS: ' + name)
    else:
        failed += 1
        print('FAIL: ' + name + (': ' + str(detail) if detail != '' else ''))


def read_profile(path):
    """events, self costs per function name, edges, totals (of the cost lines)"""
    edges = {}
    events, costs, _summary, _totals = profdiff.read_callgrind(path, edges)
    selfs = defaultdict(lambda: [0] * len(events))
    for (_fi, fn, _line), v in costs.items():
        selfs[fn] = [a + b for a, b in zip(selfs[fn], v)]
    totals = [sum(v[i] for v in selfs.values()) for i in range(len(events))]
    return events, dict(selfs), edges, totals


def read_folded(path):
    """stack (a tuple, outermost first) -> count"""
    stacks = defaultdict(int)
    with open(path) as f:
        for line in f:
            m = re.match(r'^(.*) (\d+)$', line.rstrip('\n'))
            if not m:
                raise SystemExit('not a folded line: %r' % line)
            stacks[tuple(m.group(1).split(';'))] += int(m.group(2))
    return dict(stacks)


def ends_with(stacks, suffix):
    return [c for s, c in stacks.items() if s[-len(suffix):] == suffix]


def cmd_folded(prof, folded):
    events, selfs, edges, totals = read_profile(prof)
    st = read_folded(folded)
    check('folded: the stacks add up to the total of %s (%d)' % (events[0], totals[0]),
          sum(st.values()) == totals[0], sum(st.values()))
    bad = [(s[i], s[i + 1]) for s in st for i in range(len(s) - 1) if (s[i], s[i + 1]) not in edges]
    check('folded: every caller;callee in a stack is a call of the profile', not bad, bad[:3])
    # the test program's paths are exact (each call's caller has one path)
    for fn, v in selfs.items():
        if v[0]:
            got = sum(ends_with(st, (fn,)))
            check('folded: stacks ending in %s add up to its self cost %d' % (fn, v[0]),
                  got == v[0], got)
    for caller in ('left', 'right'):
        got = ends_with(st, ('main', caller, 'leaf'))
        want = edges[(caller, 'leaf')][1][0]
        check('folded: main;%s;leaf is the cost of the call %s -> leaf (%d)' % (caller, caller, want),
              got == [want], got)
    check('folded: no recursive call is a frame of its own (down\'2 once per stack)',
          all(s.count("down'2") <= 1 for s in st))
    return st


def cmd_speedscope(prof, path, folded):
    events, _selfs, _edges, totals = read_profile(prof)
    d = json.load(open(path))
    check('speedscope: $schema is the file format\'s',
          d.get('$schema') == 'https://www.speedscope.app/file-format-schema.json', d.get('$schema'))
    frames = d['shared']['frames']
    check('speedscope: frames have names', all(isinstance(f.get('name'), str) for f in frames))
    profs = d['profiles']
    check('speedscope: a profile per event', [p['name'].split(' ')[0] for p in profs] == events,
          [p['name'] for p in profs])
    for k, p in enumerate(profs):
        ok = (p['type'] == 'sampled' and p['unit'] == 'none' and p['startValue'] == 0
              and len(p['samples']) == len(p['weights'])
              and all(0 <= i < len(frames) for s in p['samples'] for i in s))
        check('speedscope: profile %s is a valid sampled profile' % events[k], ok)
        check('speedscope: %s weights add up to the total %d and to endValue' % (events[k], totals[k]),
              sum(p['weights']) == totals[k] == p['endValue'], (sum(p['weights']), p['endValue']))
        check('speedscope: %s says its paths are estimated' % events[k], 'estimated' in p['name'])
    st = defaultdict(int)
    for s, w in zip(profs[0]['samples'], profs[0]['weights']):
        st[tuple(frames[i]['name'] for i in s)] += w
    check('speedscope: the paths of %s are the folded stacks' % events[0],
          dict(st) == read_folded(folded))


def unescape(s):
    return codecs.escape_decode(s[1:-1].encode())[0].decode('utf-8', 'replace')


def read_textproto(path):
    """protoc --decode's text: a dict of field -> list of values (dicts)"""
    root = {}
    stack = [root]
    with open(path) as f:
        for line in f:
            t = line.strip()
            if not t:
                continue
            if t == '}':
                stack.pop()
            elif t.endswith('{'):
                d = {}
                stack[-1].setdefault(t[:-1].strip(), []).append(d)
                stack.append(d)
            else:
                k, v = t.split(':', 1)
                v = v.strip()
                stack[-1].setdefault(k, []).append(unescape(v) if v.startswith('"') else
                                                   (v == 'true' if v in ('true', 'false') else int(v)))
    return root


def one(d, k, default=0):
    return d.get(k, [default])[0]


def cmd_pprof(prof, decoded, folded):
    events, _selfs, _edges, totals = read_profile(prof)
    p = read_textproto(decoded)
    strs = p.get('string_table', [])
    check('pprof: string 0 is ""', strs[:1] == [''])
    types = [strs[one(t, 'type')] for t in p['sample_type']]
    check('pprof: the sample types are the events', types == events, types)
    check('pprof: the units are counts', all(strs[one(t, 'unit')] == 'count' for t in p['sample_type']))
    fn = {one(f, 'id'): strs[one(f, 'name')] for f in p['function']}
    loc = {}
    for l in p['location']:
        lines = l.get('line', [])
        loc[one(l, 'id')] = [fn[one(x, 'function_id')] for x in lines]
    sums = [0] * len(types)
    st = defaultdict(int)
    for s in p.get('sample', []):
        v = s['value']
        sums = [a + b for a, b in zip(sums, v)]
        names = []
        for i in reversed(s['location_id']):
            names += list(reversed(loc[i]))
        if v[0] > 0:
            st[tuple(names)] += v[0]
    check('pprof: each sample type adds up to its event\'s total %s' % totals, sums == totals, sums)
    check('pprof: the default sample type is the first event',
          strs[one(p, 'default_sample_type')] == events[0])
    check('pprof: the paths of %s are the folded stacks' % events[0], dict(st) == read_folded(folded))
    comments = [strs[i] for i in p.get('comment', [])]
    check('pprof: a comment says the paths are estimated', any('estimated' in c for c in comments),
          comments)


def schema_check(schema, doc, what):
    try:
        import jsonschema
    except ImportError:
        check('%s: jsonschema is installed (Debian python3-jsonschema)' % what, False)
        return
    try:
        jsonschema.validate(doc, json.load(open(schema)))
        check('%s: valid against %s' % (what, os.path.basename(schema)), True)
    except jsonschema.ValidationError as e:
        check('%s: valid against %s' % (what, os.path.basename(schema)), False, e.message)


def fns_by_name(rep):
    return {f['name']: f for f in rep['functions']}


def cmd_report(schema, path, prof):
    rep = json.load(open(path))
    schema_check(schema, rep, 'report')
    events, selfs, edges, totals = read_profile(prof)
    check('report: totals are the profile\'s', [rep['totals'][e] for e in events] == totals,
          rep['totals'])
    fns = fns_by_name(rep)
    for name in ('main', 'left', 'right', 'down', "down'2", 'leaf'):
        f = fns.get(name)
        check('report: %s\'s self cost is the profile\'s' % name,
              f is not None and [f['self'][e] for e in events] == selfs[name],
              f and f['self'])
    byid = {f['id']: f['name'] for f in rep['functions']}
    got = {(byid[c['caller']], byid[c['callee']]): c for c in rep['calls']
           if c['caller'] in byid and c['callee'] in byid}
    for (a, b), (count, incl) in edges.items():
        if (a, b) not in got:
            continue
        c = got[(a, b)]
        if a == b:
            check('report: %s -> %s is recursive, a count and no cost' % (a, b),
                  c['kind'] == 'recursive' and c['inclusive'] is None and c['count'] == count, c)
        else:
            check('report: %s -> %s: %d calls, inclusive %s' % (a, b, count, incl),
                  c['kind'] == 'plain' and c['count'] == count
                  and [c['inclusive'][e] for e in events] == incl, c)
    for a, b in (('main', 'left'), ('left', 'leaf'), ('right', 'leaf'), ('down', 'leaf'),
                 ("down'2", "down'2")):
        check('report: the call %s -> %s is there' % (a, b), (a, b) in got)
    # inclusive: self plus the calls to others (no cycle in this program)
    for name in ('main', 'left', 'down'):
        want = [s + sum(v[1][i] for (a, b), v in edges.items() if a == name and b != name)
                for i, s in enumerate(selfs[name])]
        check('report: %s\'s inclusive cost is its self cost and its calls\' %s' % (name, want),
              [fns[name]['inclusive'][e] for e in events] == want, fns[name]['inclusive'])


def cmd_folded_import(folded, path):
    st = read_folded(folded)
    rep = json.load(open(path))
    selfs, incl, edges = defaultdict(int), defaultdict(int), defaultdict(int)
    for s, c in st.items():
        selfs[s[-1]] += c
        for f in set(s):
            incl[f] += c
        for i in range(len(s) - 1):
            edges[(s[i], s[i + 1])] += c
    check('folded import: one event, Samples', [e['name'] for e in rep['events']][:1] == ['Samples'])
    check('folded import: the total is the stacks\' sum %d' % sum(st.values()),
          rep['totals']['Samples'] == sum(st.values()))
    fns = fns_by_name(rep)
    for f in incl:
        g = fns.get(f)
        check('folded import: %s self %d, inclusive %d' % (f, selfs[f], incl[f]),
              g is not None and g['self']['Samples'] == selfs[f]
              and g['inclusive']['Samples'] == incl[f], g and (g['self'], g['inclusive']))
    byid = {f['id']: f['name'] for f in rep['functions']}
    got = {(byid[c['caller']], byid[c['callee']]): c for c in rep['calls']}
    for (a, b), c in edges.items():
        g = got.get((a, b))
        ok = g is not None and g['count'] == 0 and (
            g['inclusive'] is None if a == b else g['inclusive']['Samples'] == c)
        check('folded import: the call %s -> %s, inclusive %d, no count' % (a, b, c), ok, g)


def cmd_pprof_import(path):
    """tests/share/hand.txtpb, by hand (see its comments)"""
    rep = json.load(open(path))
    ev = [e['name'] for e in rep['events']]
    check('pprof import: the sample types are the events', ev[:2] == ['cpu', 'samples'], ev)
    check('pprof import: cpu\'s long name has its unit',
          rep['events'][0]['long_name'] == 'cpu (nanoseconds)', rep['events'][0])
    check('pprof import: totals cpu 157, samples 6',
          (rep['totals']['cpu'], rep['totals']['samples']) == (157, 6), rep['totals'])
    want = {  # name: (file, object, self cpu, self samples, incl cpu, incl samples)
        'main': ('prog.c', '/bin/prog', 7, 3, 157, 6),
        'work': ('prog.c', '/bin/prog', 0, 0, 150, 3),
        'inl': ('inl.h', '/bin/prog', 100, 1, 100, 1),
        'helper': ('prog.c', '/lib/libh.so', 50, 2, 50, 2),
    }
    fns = fns_by_name(rep)
    for name, w in want.items():
        f = fns.get(name)
        got = f and (f['file'], f['object'], f['self']['cpu'], f['self']['samples'],
                     f['inclusive']['cpu'], f['inclusive']['samples'])
        check('pprof import: %s %s' % (name, w), got == w, got)
    byid = {f['id']: f['name'] for f in rep['functions']}
    got = {(byid[c['caller']], byid[c['callee']]): (c['count'], c['inclusive']['cpu'],
                                                   c['inclusive']['samples'])
           for c in rep['calls']}
    check('pprof import: calls main -> work 150/3, work -> inl (inlined) 100/1, '
          'work -> helper 50/2, none counted',
          got == {('main', 'work'): (0, 150, 3), ('work', 'inl'): (0, 100, 1),
                  ('work', 'helper'): (0, 50, 2)}, got)
    ff = {(r['file'], r['function']): r['self']['cpu'] for r in rep['file_functions']}
    check('pprof import: inl\'s cost is in inl.h, main\'s in prog.c',
          ff.get(('inl.h', 'inl')) == 100 and ff.get(('prog.c', 'main')) == 7, ff)


def cmd_roundtrip(prof, path):
    events, selfs, _edges, totals = read_profile(prof)
    rep = json.load(open(path))
    check('pprof round trip: the totals', [rep['totals'][e] for e in events] == totals, rep['totals'])
    fns = fns_by_name(rep)
    for name in ('main', 'left', 'right', 'leaf'):
        f = fns.get(name)
        check('pprof round trip: %s\'s self cost %s' % (name, selfs[name]),
              f is not None and [f['self'][e] for e in events] == selfs[name], f and f['self'])


def main(argv):
    cmds = {'folded': cmd_folded, 'speedscope': cmd_speedscope, 'pprof': cmd_pprof,
            'report': cmd_report, 'folded-import': cmd_folded_import,
            'pprof-import': cmd_pprof_import, 'roundtrip': cmd_roundtrip,
            'schema': lambda s, d: schema_check(s, json.load(open(d)), os.path.basename(d))}
    if len(argv) < 2 or argv[1] not in cmds:
        raise SystemExit('usage: share.py folded|speedscope|pprof|report|folded-import|pprof-import|roundtrip|schema ARGS')
    cmds[argv[1]](*argv[2:])
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
