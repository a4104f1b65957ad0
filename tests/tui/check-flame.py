#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks a screen of the flame graph (6) against a flame graph this script
works out itself from a Callgrind file's call edges, written independently
of cgtui: self costs from the cost lines, inclusive costs as self plus the
calls= lines' costs, the roots are the functions nobody calls, and a path's
cost is split among the callee's calls in proportion to their inclusive
costs (the estimate: a call's cost over the callee's inclusive cost times
the path's).  Frames are laid out left to right, the largest first (then by
name), each from round(x * W / total) to round((x + cost) * W / total);
a frame narrower than a cell (cost * W / total < 1, wherever its ends
would round to) is not drawn, nor anything under it.

usage: check-flame.py SCREEN PROFILE [FIRST_ROW]
The screen's frames start at FIRST_ROW (0-based, default 3) and each ends
with '|' (or '!' for a search match) in its last cell; its name (or the
start of it) stands at its first cell when it fits."""
import math
import re
import sys


def parse(path):
    names = {"fn": {}}
    self_, calls = {}, {}
    fn = cfn = None
    pending = None
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^(fn|cfn)=(?:\((\d+)\))?\s*(.*)$", line)
        if m:
            key, num, name = m.groups()
            if num and name:
                names["fn"][num] = name
            elif num:
                name = names["fn"][num]
            if key == "fn":
                fn = name
                self_.setdefault(fn, 0)
            else:
                cfn = name
            continue
        m = re.match(r"^calls=(\d+)", line)
        if m:
            pending = int(m.group(1))
            continue
        if re.match(r"^[0-9+-]", line):
            cost = int(line.split()[1]) if len(line.split()) > 1 else 0
            if pending is not None:
                calls[(fn, cfn)] = calls.get((fn, cfn), 0) + cost
                self_.setdefault(cfn, 0)
                pending = None
            else:
                self_[fn] = self_.get(fn, 0) + cost
    return self_, calls


def frames(self_, calls, width):
    incl = dict(self_)
    for (a, _b), c in calls.items():
        incl[a] += c
    called = {b for (_a, b) in calls}
    roots = [f for f in self_ if f not in called]
    total = sum(incl[r] for r in roots)
    out = []  # (row, x0, x1, name)

    def order(items):
        return sorted(items, key=lambda fc: (-fc[1], fc[0]))

    def place(f, cost, x, row):
        x0 = math.floor(x * width / total + 0.5)
        x1 = math.floor((x + cost) * width / total + 0.5)
        if cost * width / total < 1:
            return
        out.append((row, x0, x1, f))
        kids = order([(b, cost * c / incl[f]) for (a, b), c in calls.items() if a == f])
        for b, c in kids:
            place(b, c, x, row + 1)
            x += c

    x = 0
    for r, c in order([(r, incl[r]) for r in roots]):
        place(r, c, x, 0)
        x += c
    return out


def main():
    screen = open(sys.argv[1], encoding="utf-8").read().split("\n")
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    width = len(screen[0])
    want = frames(*parse(sys.argv[2]), width)
    bad = 0
    rows = max(r for r, _, _, _ in want) + 1
    for row in range(rows):
        line = screen[first + row].ljust(width)
        ends = {i for i, ch in enumerate(line) if ch in "|!"}
        exp = {x1 - 1 for r, _, x1, _ in want if r == row}
        if ends != exp:
            print(f"row {row}: frame ends at {sorted(ends)}, expected {sorted(exp)}")
            bad += 1
        for r, x0, x1, name in want:
            if r != row or x1 - x0 < 3:
                continue
            text = line[x0:x1 - 1].rstrip()
            if not (name.startswith(text.rstrip("…")) or text.startswith(name)):
                print(f"row {row}: frame at {x0} says {text!r}, expected {name}")
                bad += 1
    if bad:
        return 1
    print(f"{len(want)} frames in {rows} rows as worked out, {width} columns")
    return 0


sys.exit(main())
