#!/usr/bin/env python3
# callsdiff.py -- compares the calls of two Callgrind-format profiles: one
# written by callgrind (--dump-instr=yes), one by our tool.  Its own small
# reader, independent of cgtui's loader.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: callsdiff.py [--fns REGEX] [--ignore REGEX] CALLGRIND-FILE OUR-FILE
#        callsdiff.py --leaves REGEX OUR-FILE
#        callsdiff.py --within OUR-FILE
#   the second form: for each function matching that calls nothing but
#   itself, the inclusive costs of the calls to it from other functions add
#   up to its self cost, in every event
#   the third form: for each function not on a cycle of calls, the
#   inclusive Ir of the calls into it from other functions add up to no
#   more than its inclusive Ir (its self Ir plus its calls to others)
#   --fns REGEX     compare only the edges whose caller or callee matches
#                   (default: all)
#   --ignore REGEX  leave out edges whose caller or callee matches
#   --incl-objs REGEX  compare inclusive Ir only on edges whose caller and
#                   callee are both in objects matching; call counts on all
#   --self-fns REGEX  compare the self Ir of these functions too
#   --objs REGEX    compare only edges whose caller and callee are both in
#                   objects matching (for threads: the C library's thread
#                   code runs differently from run to run)
#   --names REGEX   the functions whose name matches (callgrind's names of
#                   code without a symbol: '^0x'): the same set in both
#                   files, and the same self Ir each (per name, summed over
#                   objects: a PLT stub run in a context of another object
#                   is listed in that context's object in ours, at the call
#                   in the caller's object in callgrind's)
#   --dumped-by FN  the files are the first part of a run dumped by FN
#                   (CALLGRIND_DUMP_STATS): the calls running then are in
#                   both, counted to the dump; callgrind counts a block
#                   when the next starts, so FN's block with the request is
#                   in none of its calls yet (not even FN's own, which it
#                   writes in the next part): the calls running differ by
#                   exactly that block's Ir, our call of FN's
#   --lost NAME     a function that callgrind cannot have: the code a
#                   signal handler returns to (callgrind never counts the
#                   last block it runs in a handler's context)
#   --thread-root FN  compare only what runs in threads below FN (edges
#                   whose caller callgrind's file reaches from FN), and the
#                   calls into FN: their count is --calls N when given (else
#                   callgrind's), and their inclusive Ir is FN's self Ir
#                   (from --self FILE, a cachegrind file, else ours) plus
#                   callgrind's calls from FN.  Callgrind's own inclusive
#                   cost of those calls lacks each thread's last block (it
#                   counts a block when the thread's next one starts), and
#                   when the core gives a new thread the id of one that
#                   ended, callgrind runs it inside the old one's frames
#                   (FN calling itself)
# Callgrind's recursion levels (f'2) are folded into f.  Functions without a
# symbol have callgrind's names in both files (0x0000000000001ab70: the
# address where the function was entered, relative to its object).
# Compared, for each caller -> callee edge (functions by object basename and
# name): the call count and the inclusive cost of the first event (Ir); and
# for each call site (object, address of the calling instruction, callee):
# the count and inclusive Ir.  Prints PASS:/FAIL: lines; exit 0 when all
# pass.
import os
import re
import sys
from collections import defaultdict

SKIPPED_KEYS = ('version', 'creator', 'pid', 'cmd', 'part', 'desc', 'positions',
                'events', 'summary', 'totals', 'thread', 'jump', 'jcnd', 'jfi', 'jfn')


def fold(name):
    return re.sub(r"'\d+$", '', name)


def read(path, more=None):
    """edges, sites, selfs of a profile, or of several added up (paths
    joined by commas: the parts a run was dumped in); `more` as read_one's,
    over all the parts"""
    if ',' in path:
        total = [defaultdict(lambda: [0, 0]), defaultdict(lambda: [0, 0]), defaultdict(int)]
        if more is not None:
            more.update(addrs=defaultdict(set), targets=defaultdict(set), site_caller={})
        for p in path.split(','):
            part_more = {} if more is not None else None
            part = read_one(p, part_more)
            if more is not None:
                for k in ('addrs', 'targets'):
                    for key, v in part_more[k].items():
                        more[k][key] |= v
                more['site_caller'].update(part_more['site_caller'])
            for i in (0, 1):
                for k, v in part[i].items():
                    total[i][k][0] += v[0]
                    total[i][k][1] += v[1]
            for k, v in part[2].items():
                total[2][k] += v
        return total
    return read_one(path, more)


def records(path):
    """The cost lines of a profile, one tuple each: (call, ob, fn, cob, cfn,
    addr, costs, count, target): call is True for a call's cost line (count
    calls to cob/cfn, target the address called), False for a self cost
    line; names as written (compressed ids resolved), the positions
    `instr line`; the one reader of this file"""
    names = {'ob': {}, 'fl': {}, 'fn': {}}
    kind_of = {'ob': 'ob', 'cob': 'ob', 'fl': 'fl', 'fi': 'fl', 'fe': 'fl', 'cfi': 'fl',
               'cfl': 'fl', 'fn': 'fn', 'cfn': 'fn'}
    cur = {'ob': None, 'fn': None, 'cob': None, 'cfn': None}
    calls = target = None
    prev_addr = 0

    def name(kind, val):
        m = re.match(r'^\((\d+)\)(?: (.*))?$', val)
        if not m:
            return val
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), '?')

    def subpos(tok, prev):
        if tok == '*':
            return prev
        if tok[0] in '+-':
            return prev + int(tok, 0)
        return int(tok, 0)

    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            m = re.match(r'^(\w+)=(.*)$', line)
            if m:
                key, val = m.group(1), m.group(2)
                if key in kind_of:
                    v = name(kind_of[key], val)
                    if key in cur:
                        cur[key] = v
                    if key in ('ob', 'fn'):
                        cur['cob'] = None
                elif key == 'calls':
                    w = val.split()
                    calls = int(w[0])
                    target = w[1] if len(w) > 1 else '*'
                continue
            if re.match(r'^\w+:', line) or line[0] not in '0123456789+-*':
                continue
            w = line.split()
            addr = subpos(w[0], prev_addr)
            prev_addr = addr
            costs = [int(x) for x in w[2:]]
            if calls is not None:
                yield (True, cur['ob'], cur['fn'], cur['cob'] or cur['ob'], cur['cfn'], addr,
                       costs, calls, subpos(target, addr))
                calls = None
                cur['cob'] = None
            else:
                yield (False, cur['ob'], cur['fn'], None, None, addr, costs, 0, None)


def read_one(path, more=None):
    """edges, sites, selfs; with `more` (a dict), also its 'addrs' (obj,
    fn) -> the addresses of its instructions, 'targets' (caller, callee) ->
    the addresses its calls went to, 'site_caller' call site -> caller"""
    if more is not None:
        more.update(addrs=defaultdict(set), targets=defaultdict(set), site_caller={})
    edges = defaultdict(lambda: [0, 0])   # (caller, callee) -> [count, incl]
    selfs = defaultdict(int)              # (obj, fn) -> self Ir
    sites = defaultdict(lambda: [0, 0])   # (obj, addr, callee) -> [count, incl]
    for call, ob, fn, cob, cfn, addr, costs, count, target in records(path):
        ob, fn = os.path.basename(ob), fold(fn)
        ir = costs[0] if costs else 0
        if call:
            callee = (os.path.basename(cob), fold(cfn))
            e = edges[((ob, fn), callee)]
            e[0] += count
            e[1] += ir
            s = sites[(ob, addr, callee)]
            s[0] += count
            s[1] += ir
            if more is not None:
                more['targets'][((ob, fn), callee)].add(target)
                more['site_caller'][(ob, addr, callee)] = (ob, fn)
        elif costs:
            selfs[(ob, fn)] += ir
            if more is not None:
                more['addrs'][(ob, fn)].add(addr)
    return edges, sites, selfs


def read_all_events(path):
    """self costs per function and inclusive costs of calls into each
    function from other functions, all events (functions by name)"""
    selfc, into, callees = {}, {}, {}

    def add(d, k, v):
        old = d.get(k, [0] * len(v))
        d[k] = [a + b for a, b in zip(old + [0] * (len(v) - len(old)), v)]

    for call, ob, fn, cob, cfn, addr, costs, count, target in records(path):
        if call:
            callees.setdefault(fn, set()).add(cfn)
            if cfn != fn:
                add(into, cfn, costs)
        else:
            add(selfc, fn, costs)
    return selfc, into, callees


def leaves(pattern, path):
    selfc, into, callees = read_all_events(path)
    rx = re.compile(pattern)
    fns = sorted(f for f in selfc if rx.search(f) and callees.get(f, set()) <= {f})
    if not fns:
        print('FAIL: leaves: no function matches')
        return 1
    bad = [f for f in fns if selfc[f] != into.get(f)]
    for f in bad:
        print('FAIL: %s: self %s, calls into it %s' % (f, selfc[f], into.get(f)))
    if not bad:
        print('PASS: %d functions calling only themselves (%s): their calls\' inclusive '
              'costs add up to their self costs in every event' % (len(fns), ', '.join(fns)))
    return 1 if bad else 0


def within(path):
    """for each function outside a cycle of calls, the inclusive Ir of the
    calls into it from other functions add up to no more than its own
    inclusive Ir: its self Ir plus its calls to other functions (functions
    by object and name)"""
    incl = defaultdict(int)   # (ob, fn) -> self Ir + Ir of its calls to others
    into = defaultdict(int)   # (ob, fn) -> Ir of the calls into it from others
    succ = defaultdict(set)
    for call, ob, fn, cob, cfn, addr, costs, count, target in records(path):
        ir = costs[0] if costs else 0
        caller = (ob, fold(fn))
        if call:
            callee = (cob, fold(cfn))
            if callee != caller:
                incl[caller] += ir
                into[callee] += ir
                succ[caller].add(callee)
        else:
            incl[caller] += ir

    def on_cycle(a):
        seen, todo = set(), list(succ[a])
        while todo:
            x = todo.pop()
            if x == a:
                return True
            if x not in seen:
                seen.add(x)
                todo.extend(succ[x])
        return False
    checked, bad = 0, []
    for k in sorted(into):
        if on_cycle(k):
            continue
        checked += 1
        if into[k] > incl[k]:
            bad.append('%s:%s: the calls into it cost %d Ir, its inclusive cost is %d' %
                       (os.path.basename(k[0]), k[1], into[k], incl[k]))
    for b in bad[:20]:
        print('FAIL: %s' % b)
    if not checked:
        print('FAIL: within: no function called')
        return 1
    if not bad:
        print('PASS: %d functions called outside a cycle: the calls into each cost no more '
              'Ir than its self cost and its calls' % checked)
    return 1 if bad else 0


def compare_names(rx, lost, cg_selfs, our_selfs):
    def by_name(selfs):
        out = defaultdict(int)
        for (ob, fn), ir in selfs.items():
            if rx.search(fn):
                out[fn] += ir
        return out
    cg, ours = by_name(cg_selfs), by_name(our_selfs)
    bad = []
    for fn in sorted(set(cg) | set(ours)):
        if fn in lost and fn not in cg:
            print('PASS: %s: only in ours (%d Ir), as callgrind loses it' % (fn, ours.get(fn, 0)))
            continue
        if cg.get(fn) != ours.get(fn):
            bad.append('%s: callgrind %s, ours %s' % (fn, cg.get(fn), ours.get(fn)))
    for b in bad[:20]:
        print('FAIL: function %s' % b)
    if not cg:
        print('FAIL: names: no function matches /%s/ in callgrind\'s file' % rx.pattern)
        return 1
    if not bad:
        print('PASS: %d functions named /%s/: the same names and self Ir as callgrind\'s' %
              (len(cg), rx.pattern))
    return 1 if bad else 0


def cachegrind_self(path, fn):
    """fn's self Ir in a cachegrind file"""
    total, cur = 0, None
    with open(path) as f:
        for line in f:
            if line.startswith('fn='):
                cur = line[3:].strip()
            elif line[:1].isdigit() and cur == fn:
                total += int(line.split()[1])
    return total


def thread_root(fn, want_calls, self_file, cg_edges, our_edges, our_selfs):
    fails = 0
    # what callgrind's calls reach from fn (its threads' code)
    below, todo = {fn}, [fn]
    while todo:
        f = todo.pop()
        for (a, b) in cg_edges:
            if a[1] == f and b[1] not in below:
                below.add(b[1])
                todo.append(b[1])
    n = 0
    for key in sorted(set(cg_edges) | set(our_edges)):
        if key[0][1] not in below or key[1][1] == fn:
            continue
        n += 1
        c, o = cg_edges.get(key), our_edges.get(key)
        if c != o:
            fails += 1
            print('FAIL: edge %s:%s -> %s:%s: callgrind %s, ours %s' %
                  (key[0][0], key[0][1], key[1][0], key[1][1], c, o))
    if n and not fails:
        print('PASS: %d edges below %s: call counts and inclusive Ir equal callgrind\'s' % (n, fn))
    elif not n:
        print('FAIL: no edge below %s' % fn)
        fails += 1
    into = [k for k in our_edges if k[1][1] == fn and k[0][1] != fn]
    calls = sum(our_edges[k][0] for k in into)
    cg_calls = sum(v[0] for k, v in cg_edges.items() if k[1][1] == fn and k[0][1] != fn)
    want = want_calls if want_calls is not None else cg_calls
    if calls == want and into:
        print('PASS: %d calls of %s%s' % (calls, fn, '' if want_calls is None else
                                          ' (callgrind: %d)' % cg_calls))
    else:
        print('FAIL: calls of %s: ours %d, want %d' % (fn, calls, want))
        fails += 1
    incl = sum(our_edges[k][1] for k in into)
    own = (cachegrind_self(self_file, fn) if self_file else
           sum(v for k, v in our_selfs.items() if k[1] == fn))
    callees = sum(v[1] for k, v in cg_edges.items() if k[0][1] == fn and k[1][1] != fn)
    if incl == own + callees:
        print('PASS: inclusive Ir of the calls of %s: %d = its self Ir %d%s + its calls %d '
              '(callgrind\'s)' % (fn, incl, own, ' (cachegrind\'s)' if self_file else '', callees))
    else:
        print('FAIL: inclusive Ir of the calls of %s: ours %d, self %d + calls %d = %d' %
              (fn, incl, own, callees, own + callees))
        fails += 1
    return 1 if fails else 0


def main(argv):
    if argv and argv[0] == '--within' and len(argv) == 2:
        return within(argv[1])
    if argv and argv[0] == '--leaves' and len(argv) == 3:
        return leaves(argv[1], argv[2])
    only = ignore = objs = incl_objs = self_fns = names = root = None
    lost, want_calls, self_file, dumped = set(), None, None, None
    while argv and argv[0].startswith('--'):
        if argv[0] == '--fns':
            only = re.compile(argv[1])
        elif argv[0] == '--incl-objs':
            incl_objs = re.compile(argv[1])
        elif argv[0] == '--self-fns':
            self_fns = re.compile(argv[1])
        elif argv[0] == '--objs':
            objs = re.compile(argv[1])
        elif argv[0] == '--ignore':
            ignore = re.compile(argv[1])
        elif argv[0] == '--names':
            names = re.compile(argv[1])
        elif argv[0] == '--lost':
            lost.add(argv[1])
        elif argv[0] == '--dumped-by':
            dumped = argv[1]
        elif argv[0] == '--thread-root':
            root = argv[1]
        elif argv[0] == '--calls':
            want_calls = int(argv[1])
        elif argv[0] == '--self':
            self_file = argv[1]
        else:
            print('FAIL: usage: unknown option %s' % argv[0])
            return 2
        argv = argv[2:]
    if len(argv) != 2:
        print('FAIL: usage: callsdiff.py [--fns RE] [--ignore RE] CALLGRIND OURS')
        return 2
    cg_more, our_more = {}, {}
    cg_edges, cg_sites, cg_selfs = read(argv[0], cg_more)
    our_edges, our_sites, our_selfs = read(argv[1], our_more)
    # A direct jump from one function's code into another's, not to its
    # entry (the dynamic linker's mempcpy into memcpy): callgrind keeps the
    # code after it in the jumping function's context (with --dump-instr,
    # its addresses under the jumper), ours counts it where it is, with a
    # call from the jumper.  Such calls (ours only, each to an address
    # callgrind lists under the caller) are left out, and said.
    # (or under the function that jumped into the caller's code: the
    # dynamic linker's __wmemset_avx2_unaligned into __memset_avx2_unaligned
    # and on into __memset_avx2_unaligned_erms)
    mid = set()
    grew = True
    while grew:
        grew = False
        for key, targets in our_more.get('targets', {}).items():
            if key in mid or key in cg_edges or not targets:
                continue
            keeps = set(cg_more['addrs'].get(key[0], set()))
            for a, b in mid:
                if b == key[0]:
                    keeps |= cg_more['addrs'].get(a, set())
            if targets <= keeps:
                mid.add(key)
                grew = True
    if mid:
        print('PASS: %d calls of ours into another function\'s code after a jump, where '
              'callgrind keeps that code in the jumper: %s' % (len(mid), ', '.join(
                  '%s -> %s' % (a[1], b[1]) for a, b in sorted(mid))))
    if names:
        return compare_names(names, lost, cg_selfs, our_selfs)
    if root:
        return thread_root(root, want_calls, self_file, cg_edges, our_edges, our_selfs)

    def wanted(caller, callee):
        a, b = caller[1], callee[1]
        if objs and not (objs.search(caller[0]) and objs.search(callee[0])):
            return False
        if ignore and (ignore.search(a) or ignore.search(b)):
            return False
        return not only or only.search(a) or only.search(b)

    # Callgrind counts a block's instructions when the next block starts:
    # the last block the program runs (the exit system call) is never
    # counted, so every call still active at exit has that many Ir less
    # than ours.  Such an edge is equal when the difference is exactly
    # that block's Ir, measured on the call of _exit (or _Exit), which
    # holds nothing but that block and what leads to it.
    exit_ir = 0
    for key in our_edges:
        if key[1][1] in ('_exit', '_Exit') and key in cg_edges:
            exit_ir = our_edges[key][1] - cg_edges[key][1]
    # the block of the dump request (--dumped-by): in our call of FN only
    dump_ir = sum(v[1] for k, v in our_edges.items() if dumped and k[1][1] == dumped)
    running = []
    fails = 0
    n = 0
    at_exit = 0
    for key in sorted(set(cg_edges) | set(our_edges)):
        if not wanted(*key):
            continue
        if key in mid:
            continue
        n += 1
        c, o = cg_edges.get(key), our_edges.get(key)
        if dumped and key[1][1] == dumped and c is None and o and o[0] == 1:
            continue
        if dumped and c and o and c[0] == o[0] and dump_ir and o[1] - c[1] == dump_ir:
            running.append(key[1][1])
            continue
        if c and o and c[0] == o[0] and 0 < exit_ir < 100 and o[1] - c[1] == exit_ir:
            at_exit += 1
            continue
        if (c and o and c[0] == o[0] and incl_objs and
                not (incl_objs.search(key[0][0]) and incl_objs.search(key[1][0]))):
            continue
        if c != o:
            fails += 1
            if fails <= 20:
                print('FAIL: edge %s:%s -> %s:%s: callgrind %s, ours %s' %
                      (key[0][0], key[0][1], key[1][0], key[1][1], c, o))
    if n == 0:
        print('FAIL: edges: none compared')
        fails += 1
    elif not fails:
        print('PASS: %d caller->callee edges: call counts%s equal callgrind\'s' %
              (n, ' and inclusive Ir' if not incl_objs else
               ', and inclusive Ir within objects /%s/,' % incl_objs.pattern))
    sfails = 0
    ns = 0
    for key in sorted(set(cg_sites) | set(our_sites)):
        # the site's function is not in the key: find it from the edges
        if ignore and ignore.search(key[2][1]):
            continue
        if objs and not (objs.search(key[0]) and objs.search(key[2][0])):
            continue
        if only and not only.search(key[2][1]):
            continue
        if our_more and (our_more['site_caller'].get(key), key[2]) in mid:
            continue
        ns += 1
        c, o = cg_sites.get(key), our_sites.get(key)
        if c and o and c[0] == o[0] and 0 < exit_ir < 100 and o[1] - c[1] == exit_ir:
            continue
        if dumped and key[2][1] == dumped and c is None and o and o[0] == 1:
            continue
        if dumped and c and o and c[0] == o[0] and dump_ir and o[1] - c[1] == dump_ir:
            continue
        if (c and o and c[0] == o[0] and incl_objs and
                not (incl_objs.search(key[0]) and incl_objs.search(key[2][0]))):
            continue
        if c != o:
            sfails += 1
            if sfails <= 10:
                print('FAIL: call site %s 0x%x -> %s: callgrind %s, ours %s' %
                      (key[0], key[1], key[2][1], c, o))
    if dumped:
        if running and 0 < dump_ir < 100:
            print('PASS: %d calls running at the dump, counted to it: %s (callgrind: %d Ir '
                  'less, %s\'s block, which it counts when the next block starts)' %
                  (len(running), ', '.join(sorted(running)), dump_ir, dumped))
        else:
            print('FAIL: no call running at the dump (%s: %d Ir)' % (dumped, dump_ir))
            fails += 1
    if ns and not sfails:
        print('PASS: %d call sites: counts%s equal callgrind\'s' %
              (ns, ' and inclusive Ir' if not incl_objs else
               ', and inclusive Ir within objects /%s/,' % incl_objs.pattern))
    ffails = 0
    if self_fns:
        keys = sorted(k for k in set(cg_selfs) | set(our_selfs)
                      if self_fns.search(k[1]) and (not objs or objs.search(k[0])))
        for k in keys:
            if cg_selfs.get(k) != our_selfs.get(k):
                ffails += 1
                print('FAIL: self Ir of %s:%s: callgrind %s, ours %s' %
                      (k[0], k[1], cg_selfs.get(k), our_selfs.get(k)))
        if not keys:
            print('FAIL: self: no function matches')
            ffails += 1
        elif not ffails:
            print('PASS: self Ir of %d functions equal callgrind\'s' % len(keys))
    return 1 if fails or sfails or ffails else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
