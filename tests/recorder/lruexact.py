#!/usr/bin/env python3
# lruexact.py -- the exact miss-ratio curve of a fully associative LRU
# cache (stack distances, every access, no sampling), from a Valgrind
# lackey trace (--trace-mem=yes: " L addr,size", " S ...", " M ..." data
# accesses; a modify is one access, as cachegrind counts it), for the whole
# run and for functions (by the instruction before each access, looked up
# in `nm -n` output of a program built without PIE); then compares it with
# the miss ratios cgtui's explorer shows (key 8, the header line of its
# screens: "NAME: at SIZE (2^k lines) R% misses (...); whole run W%").
#
# The distance of an access: the number of distinct other lines accessed
# since the last access to its line; it hits in a cache of C lines iff it
# is below C.  Written from that definition (a Fenwick tree over time
# marking each line's last access), not from src/sim/mrc.c.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: lruexact.py TRACE NM LINE_BYTES MAX_MAE FN[,FN...] DUMP...
#   DUMP files are named NAME-K.txt: NAME "all" (the whole run's line) or a
#   function; K the size's exponent (9 .. 16, and 0 .. 8 for EXACT ones).
#   The shown curves must be within MAX_MAE mean absolute error at 2^9 ..
#   2^16 lines; a function named FN=exact (recorded with every line
#   sampled) must be equal at every size 2^0 .. 2^16, within the display's
#   rounding (0.005%).
# Prints PASS/FAIL lines; exit 0 when all pass.
import bisect
import os
import re
import sys

SIZES = range(9, 17)
ALL = range(0, 17)


def functions(nm_path):
    starts, names = [], []
    for line in open(nm_path):
        w = line.split()
        if len(w) == 3 and w[1] in "tTwW":
            starts.append(int(w[0], 16))
            names.append(w[2])
    return starts, names


def exact(trace, starts, names, line_bits, want):
    n = 1
    size = 1 << 22
    tree = [0] * (size + 1)
    last = {}
    t = 0
    hist = {None: {}}
    for f in want:
        hist[f] = {}
    counts = {None: 0}
    for f in want:
        counts[f] = 0
    fn = None

    def add(i, v):
        while i <= size:
            tree[i] += v
            i += i & -i

    def prefix(i):
        s = 0
        while i > 0:
            s += tree[i]
            i -= i & -i
        return s

    for line in open(trace):
        if line.startswith("I "):
            addr = int(line[3:].split(",")[0], 16)
            i = bisect.bisect_right(starts, addr) - 1
            fn = names[i] if i >= 0 else None
            fn = fn if fn in want else None
            continue
        if len(line) < 3 or line[0] != " " or line[1] not in "LSM":
            continue
        addr = int(line[3:].split(",")[0], 16)
        ln = addr >> line_bits
        t += 1
        if t > size:
            raise SystemExit("trace too long for this reference")
        p = last.get(ln)
        if p is None:
            d = -1  # first access: a miss at every size
        else:
            d = prefix(t - 1) - prefix(p)
            add(p, -1)
        add(t, 1)
        last[ln] = t
        for key in (None, fn) if fn else (None,):
            hist[key][d] = hist[key].get(d, 0) + 1
            counts[key] += 1
    curves = {}
    for key, h in hist.items():
        acc = counts[key]
        if not acc:
            continue
        curves["all" if key is None else key] = {
            k: sum(c for d, c in h.items() if d < 0 or d >= (1 << k)) / acc for k in ALL}
    return curves, counts


HEAD = re.compile(r"^(.*): at \S+ \(2\^(\d+) lines\) ([0-9.]+)% misses \(.*\)(?:; whole run [0-9.]+%)?$")


def shown(dumps):
    got = {}
    for path in dumps:
        name = os.path.basename(path)[:-len(".txt")].rsplit("-", 1)[0]
        rows = open(path, encoding="utf-8").read().split("\n")
        m = HEAD.match(rows[2].rstrip())
        if not m:
            raise SystemExit("%s: no curve header on line 3: %r" % (path, rows[2]))
        k = int(m.group(2))
        if name == "all":
            got.setdefault("all", {})[k] = float(m.group(3)) / 100
        elif m.group(1) != name:
            raise SystemExit("%s: %r shown, not %s's own curve" % (path, m.group(1), name))
        else:
            got.setdefault(name, {})[k] = float(m.group(3)) / 100
    return got


def main():
    trace, nm, line, limit, fns = sys.argv[1:6]
    want = [f.split("=")[0] for f in fns.split(",")]
    exacts = {f.split("=")[0] for f in fns.split(",") if f.endswith("=exact")}
    starts, names = functions(nm)
    curves, counts = exact(trace, starts, names, int(line).bit_length() - 1, set(want))
    got = shown(sys.argv[6:])
    ok = True
    for name in ["all"] + want:
        if name not in curves or name not in got or not set(SIZES) <= set(got[name]):
            print("FAIL: %s: no exact curve or not every size 2^9 .. 2^16 shown" % name)
            ok = False
            continue
        if name in exacts:
            if set(got[name]) != set(ALL):
                print("FAIL: %s: not every size 2^0 .. 2^16 shown" % name)
                ok = False
                continue
            worst = max(abs(curves[name][k] - got[name][k]) for k in ALL)
            good = worst <= 0.00005 + 1e-9
            ok = ok and good
            print("%s: %s, every line sampled: at most %.6f from exact LRU at 2^0 .. 2^16 "
                  "lines (miss ratios %.4f .. %.4f)" % ("PASS" if good else "FAIL", name, worst,
                                                        curves[name][16], curves[name][0]))
        mae = sum(abs(curves[name][k] - got[name][k]) for k in SIZES) / len(SIZES)
        good = mae < float(limit)
        ok = ok and good
        print("%s: %s: MAE %.5f against exact LRU at 2^9 .. 2^16 lines (%d accesses)%s" % (
            "PASS" if good else "FAIL", "whole run" if name == "all" else name, mae,
            counts[None if name == "all" else name],
            "" if good else ": exact %s, shown %s" % (
                " ".join("%.4f" % curves[name][k] for k in SIZES),
                " ".join("%.4f" % got[name][k] for k in SIZES))))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
