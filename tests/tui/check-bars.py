#!/usr/bin/env python3
# check-bars.py DUMP... -- every heat bar on the screens is as long as its
# percentage says: a cell "COUNT PCT% BAR" with BAR 8 columns wide, in
# eighths of a column (UTF-8: U+2588 whole, U+258F..U+2589 one to seven
# eighths) or whole '#' (ASCII): round(PCT / 100 * 64) eighths, or
# round(PCT / 100 * 8) '#'.  (The percentage is itself rounded to 0.1%,
# so one eighth either way is allowed where it sits on a half.)
# SPDX-License-Identifier: GPL-2.0-or-later
import re
import sys

EIGHTH = {chr(0x2588): 8}
for i, c in enumerate(range(0x258F, 0x2588, -1), 1):
    EIGHTH[chr(c)] = i
CELL = re.compile(r"(-?[\d,]+[kMGTPE]?)\s+(-?\d+\.\d)% ([ \u2588-\u258f#]{8})")

bad, n = [], 0
for path in sys.argv[1:]:
    for i, line in enumerate(open(path, encoding="utf-8"), 1):
        for m in CELL.finditer(line):
            pct, bar = float(m.group(2)), m.group(3)
            n += 1
            if "#" in bar or (bar.strip() == "" and "#" in "".join(open(path).read())):
                got, want = bar.count("#"), round(abs(pct) / 100 * 8)
                ok = abs(got - want) <= (1 if abs(abs(pct) / 100 * 8 % 1 - 0.5) < 0.01 else 0)
            else:
                got = sum(EIGHTH.get(c, 0) for c in bar)
                exact = abs(pct) / 100 * 64
                want = round(exact)
                ok = abs(got - exact) <= 0.5 + 64 * 0.0005 + 1e-9
            if not ok:
                bad.append("%s:%d: %s%% drawn as %d, want %d: %s" % (path, i, m.group(2), got, want,
                                                                     line.rstrip()))
for b in bad:
    print("  " + b)
print("%d bars checked" % n)
sys.exit(1 if bad or not n else 0)
