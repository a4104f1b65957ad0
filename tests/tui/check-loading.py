#!/usr/bin/env python3
# check-loading.py -- the loading screen's numbers (issue 19), read as a
# person would and checked against the profile read here, independently of
# cgtui: a partial screen must show, for some number k of the file's
# function blocks read whole, the total of those k blocks in the header and
# the functions' sums over them (largest first) in the rows; the final
# screen the sums over the whole file.
# Usage: check-loading.py PROFILE partial.txt final.txt
# SPDX-License-Identifier: GPL-2.0-or-later
import re
import sys


def blocks(path):
    """(function, Ir) per fn= block, in file order"""
    out, fn, cost = [], None, 0
    for line in open(path):
        if line.startswith("fn="):
            if fn is not None:
                out.append((fn, cost))
            fn, cost = line[3:].strip(), 0
        elif line[:1].isdigit() and fn is not None:
            cost += int(line.split()[1])  # Ir, the first event
    if fn is not None:
        out.append((fn, cost))
    return out


def num(s):
    return int(s.replace(",", ""))


def rows(screen):
    """(cost, name) of the list's rows: the lines after the column header"""
    out = []
    for line in screen[3:-1]:
        m = re.match(r"\s*([\d,]+)\s+[\d.]+%\s+(.*)", line)
        if not m:
            continue
        # the other events' cells (a count and its percentage, or "."),
        # then the name
        rest = [w for w in m.group(2).split() if not re.fullmatch(r"[\d,.]+%?", w)]
        out.append((num(m.group(1)), rest[0]))
    return out


def expect(k, bl):
    sums = {}
    for fn, c in bl[:k]:
        sums[fn] = sums.get(fn, 0) + c
    return sorted(((c, f) for f, c in sums.items()), key=lambda x: (-x[0], x[1]))


def main():
    bl = blocks(sys.argv[1])
    part = open(sys.argv[2]).read().split("\n")[:-1]
    final = open(sys.argv[3]).read().split("\n")[:-1]
    ok = True
    m = re.search(r"Ir ([\d,]+)$", part[0])
    if not m or not part[1].startswith("loading "):
        print("partial screen: no loading header:", part[:2])
        return 1
    total = num(m.group(1))
    acc, k = 0, None
    for i, (_, c) in enumerate(bl):
        if acc == total:
            k = i
        acc += c
    if acc == total:
        k = len(bl)
    if k is None or k == len(bl):
        print("partial screen: total %d is not that of a part of the file's blocks" % total)
        return 1
    want = expect(k, bl)
    got = rows(part)
    if got != want[: len(got)] or not got:
        print("partial rows", got[:5], "want", want[:5])
        ok = False
    want = expect(len(bl), bl)
    got = rows(final)
    # the final list is by inclusive cost: here, without calls, the self cost
    if got != want[: len(got)] or not got:
        print("final rows", got[:5], "want", want[:5])
        ok = False
    if ok:
        print("partial screen after %d of %d blocks: %d rows right; final %d rows right"
              % (k, len(bl), len(rows(part)), len(rows(final))))
    return 0 if ok else 1


sys.exit(main())
