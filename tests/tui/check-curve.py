#!/usr/bin/env python3
# check-curve.py DUMP EXPECTED -- reads a screen of the miss-ratio curve
# (key 8) as a person would, and checks it against the curves' numbers as
# written by hand (EXPECTED):
#     sizes N              the sizes 2^0 .. 2^(N-1) lines
#     fn ACCESSES M0 ...   the selected function's curve (no line: none)
#     all ACCESSES M0 ...  the whole run's
#     level NAME LINES     a data cache marked at LINES lines
# The picture: the y axis (a column of │ or |) labelled at its top with
# the scale's maximum and at its bottom "0%"; the x axis below it, one
# tick (┬ or +) per size from 2^0 on, equally spaced in log2 of the size.
# At each tick, the function's mark (• or *) must be on the row of its
# miss ratio Mk / ACCESSES, within half a row, and the whole run's (· or .)
# too unless the function's covers it; each cache's column (┊ or :) at
# its size's place between the ticks, its name beside it above the plot.
# SPDX-License-Identifier: GPL-2.0-or-later
import math
import sys


def main():
    dump, spec = sys.argv[1], sys.argv[2]
    rows = [l.rstrip("\n") for l in open(dump, encoding="utf-8")]
    width = max(len(r) for r in rows)
    g = [r.ljust(width) for r in rows]
    n, fn, al, levels = None, None, None, []
    for line in open(spec):
        w = line.split()
        if not w or w[0].startswith("#"):
            continue
        if w[0] == "sizes":
            n = int(w[1])
        elif w[0] in ("fn", "all"):
            acc, miss = int(w[1]), [int(x) for x in w[2:]]
            cur = [min(1.0, m / acc) for m in miss]
            if w[0] == "fn":
                fn = cur
            else:
                al = cur
        elif w[0] == "level":
            levels.append((w[1], float(w[2])))
    bad = []
    # the axes: the corner (└ or +) below the last row of │ / |
    ax = ay = None
    for y in range(len(g) - 1, -1, -1):
        for x in range(width - 1):
            if g[y][x] in "└+" and g[y][x + 1] in "┬─-+" and y > 0 and g[y - 1][x] in "│|":
                ax, ay = x, y
                break
        if ax is not None:
            break
    if ax is None:
        print("FAIL: no axes found")
        return 1
    top = ay - 1
    while top - 1 >= 0 and g[top - 1][ax] in "│|":
        top -= 1
    ph = ay - top
    lab = g[top][:ax].strip()
    if not lab.endswith("%") or g[ay - 1][:ax].strip() != "0%":
        print("FAIL: y axis labels: top %r, bottom %r" % (lab, g[ay - 1][:ax].strip()))
        return 1
    ymax = float(lab[:-1]) / 100
    ticks = [x for x in range(ax + 1, width) if g[ay][x] in "┬+"]
    if len(ticks) != n:
        print("FAIL: %d ticks on the x axis, not %d" % (len(ticks), n))
        return 1
    half = ymax / (ph - 1) / 2 + 1e-9

    def read(x, marks):
        return [r for r in range(ph) if g[top + r][x] in marks]

    checked = 0
    for k, x in enumerate(ticks):
        frow = None
        if fn is not None:
            rs = read(x, "•*")
            if len(rs) != 1:
                bad.append("size 2^%d: %d marks of the function" % (k, len(rs)))
            else:
                frow = rs[0]
                got = ymax * (1 - frow / (ph - 1))
                if abs(got - fn[k]) > half:
                    bad.append("size 2^%d: the function at %.4f, not %.4f" % (k, got, fn[k]))
                checked += 1
        rs = read(x, "·.")
        want = al[k]
        if not rs:
            # covered by the function's mark: the same row
            if frow is None or abs(ymax * (1 - frow / (ph - 1)) - want) > half:
                bad.append("size 2^%d: no mark of the whole run" % k)
        elif len(rs) > 1:
            bad.append("size 2^%d: %d marks of the whole run" % (k, len(rs)))
        else:
            got = ymax * (1 - rs[0] / (ph - 1))
            if abs(got - want) > half:
                bad.append("size 2^%d: the whole run at %.4f, not %.4f" % (k, got, want))
        checked += 1
    # scale: the smallest of 1 2 5 10 20 50 100 % that holds both curves
    high = max(al + (fn or []))
    want_max = next(s for s in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0) if high <= s + 1e-12)
    if abs(ymax - want_max) > 1e-9:
        bad.append("the scale's top %.2f, not %.2f" % (ymax, want_max))
    for name, lines in levels:
        kf = math.log2(lines)
        x = ticks[0] + kf * (ticks[-1] - ticks[0]) / (n - 1)
        cols = [c for c in range(int(x) - 1, int(x) + 3)
                if sum(g[top + r][c] in "┊:" for r in range(ph)) >= ph // 2]
        if len(cols) != 1 or abs(cols[0] - x) > 1:
            bad.append("%s: its column near %.1f: %s" % (name, x, cols))
            continue
        c = cols[0]
        above = g[top - 1]
        if above[c + 1:c + 1 + len(name)] != name and above[c - len(name):c] != name:
            bad.append("%s: not named above its column %d: %r" % (name, c, above.rstrip()))
        checked += 1
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("%d sizes, %d caches, scale 0 .. %g%%: every mark in place (%d checks)" %
              (n, len(levels), ymax * 100, checked))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
