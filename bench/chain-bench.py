#!/usr/bin/env python3
# chain-bench.py -- is the report linear in the depth of the call graph?
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Generates call chains of N, 2N, 4N ... functions (bench/gen-callgrind
# --chain=N: f0 calls f1 ... calls f<N-1>) and times, in the same run:
#   - cgtui --batch --inclusive=yes --tree=both FILE  (best of --runs)
#   - callgrind_annotate --inclusive=yes --tree=both FILE (one run, only up
#     to --annotate-max functions: it is slow)
# (CPU time of the child: user + system) and prints, for each doubling,
# t(2N)/t(N).  A linear report gives about
# 2 (up to ~2.3 with sorting and cache effects); a quadratic one 4.  The
# report printed to /dev/null is what is timed (it is most of the work: a
# chain of a million functions prints 60 MB).
#
# Uses the Python standard library only.  Not a test: tests/report/
# run-deep.sh checks that a million-deep chain completes.

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile


def timed(argv):
    """The CPU time (user + system) of one run: steadier than the wall
    time on a machine shared with other work."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if r.returncode != 0:
        sys.exit("%s exited %d: %s" % (argv[0], r.returncode,
                                       r.stderr.decode(errors="replace")[:300]))
    return t


def find_gen(path, workdir):
    if path and os.access(path, os.X_OK):
        return path
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-callgrind.c")
    out = os.path.join(workdir, "gen-callgrind")
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-std=c99", "-O2", "-o", out, src], check=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cgtui", default="./cgtui")
    ap.add_argument("--gen", default="bench/gen-callgrind",
                    help="gen-callgrind (compiled from gen-callgrind.c when missing)")
    ap.add_argument("--start", type=int, default=40000, help="first N [40000]")
    ap.add_argument("--steps", type=int, default=5, help="number of sizes [5: to 16N]")
    ap.add_argument("--runs", type=int, default=3, help="cgtui runs per size, best kept [3]")
    ap.add_argument("--annotate-max", type=int, default=80000,
                    help="run callgrind_annotate up to this N [80000]")
    ap.add_argument("--options", default="--inclusive=yes --tree=both",
                    help="report options [--inclusive=yes --tree=both]")
    args = ap.parse_args()
    opts = args.options.split()
    ca = shutil.which("callgrind_annotate")
    with tempfile.TemporaryDirectory(prefix="chain-bench.") as work:
        gen = find_gen(args.gen, work)
        rows = []
        n = args.start
        for _ in range(args.steps):
            path = os.path.join(work, "chain-%d.out" % n)
            subprocess.run([gen, "--chain=%d" % n, path], check=True,
                           stderr=subprocess.DEVNULL)
            t = min(timed([args.cgtui, "--batch"] + opts + [path])
                    for _ in range(args.runs))
            tca = timed([ca] + opts + [path]) if ca and n <= args.annotate_max else None
            rows.append((n, t, tca))
            print("N = %8d: cgtui %.3f s%s" % (
                n, t, "" if tca is None else ", callgrind_annotate %.3f s" % tca),
                file=sys.stderr, flush=True)
            os.unlink(path)
            n *= 2
    print("cgtui --batch %s on a call chain of N functions" % " ".join(opts))
    print("%10s %10s %12s %14s %16s" % ("N", "cgtui cpu s", "t(N)/t(N/2)",
                                         "c_annotate cpu s", "c_annotate/cgtui"))
    worst = 0.0
    for i, (n, t, tca) in enumerate(rows):
        r = t / rows[i - 1][1] if i else None
        if r is not None:
            worst = max(worst, r)
        print("%10d %10.3f %12s %14s %16s" % (
            n, t, "" if r is None else "%.2f" % r,
            "" if tca is None else "%.3f" % tca,
            "" if tca is None else "%.1f" % (tca / t)))
    print("largest t(2N)/t(N): %.2f (linear: about 2, at most ~2.3; quadratic: 4)" % worst)


if __name__ == "__main__":
    main()
