#!/usr/bin/env python3
# load-bench.py -- cgtui load+aggregate speed benchmark.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# For each requested size, generates a realistic Callgrind file with
# bench/gen-callgrind, then measures in the same run:
#   - cgtui --batch --no-annotate --threshold=100 FILE   (wall time, MB/s,
#     peak RSS; best of --runs)
#   - wc -l FILE                                         (best of --runs)
#   - callgrind_annotate FILE                            (one run, only for
#     sizes <= --annotate-max, it reads about 2 MB/s)
#   - cgtui on FILE compressed by gzip and by zstd (sizes <= --packed-max;
#     both are read in one stream, MB/s counted on the uncompressed size)
#   - cgtui --jobs=J for each J of --jobs (default 1,2), the runs
#     interleaved, with the phases' times CGTUI_PAR_DEBUG=1 prints: the
#     load's wall time, the serial reader's and the workers' CPU time, what
#     comes after the load; median, min and max of the wall times, the
#     speedup over the first J (also on existing files: --file)
# and prints one table.  MB means 10^6 bytes throughout.
#
# Uses the Python standard library only.

import argparse
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_MBPS = 300.0     # issue "Foundation": >= 300 MB/s single-threaded
TARGET_RSS_RATIO = 1.0  # and peak RSS <= the file's size

DEFAULT_CGTUI_ARGS = "--batch --no-annotate --threshold=100"


def parse_size(text):
    """'100M' -> 100000000; k/M/G are powers of 10, Ki/Mi/Gi powers of 2."""
    t = text.strip()
    if t.endswith("B"):
        t = t[:-1]
    mults = [("Ki", 1024), ("Mi", 1024 ** 2), ("Gi", 1024 ** 3),
             ("k", 1000), ("K", 1000), ("M", 1000 ** 2), ("G", 1000 ** 3)]
    for suffix, mult in mults:
        if t.endswith(suffix):
            return int(float(t[:-len(suffix)]) * mult)
    return int(t)


def human_size(n):
    for unit, div in (("G", 1000 ** 3), ("M", 1000 ** 2), ("k", 1000)):
        if n >= div and n % div == 0:
            return "%d%s" % (n // div, unit)
    return str(n)


class Result:
    def __init__(self, wall, maxrss_kb, status, stderr_text):
        self.wall = wall
        self.maxrss = maxrss_kb * 1024  # bytes (Linux ru_maxrss is in KiB)
        self.status = status
        self.stderr = stderr_text

    @property
    def ok(self):
        return self.status == 0


def run_measured(argv, env=None):
    """Run argv with stdout to /dev/null; return wall time, peak RSS of that
    child (from wait4) and its exit status."""
    with tempfile.TemporaryFile() as errf, \
            open(os.devnull, "wb") as devnull:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                stdout=devnull, stderr=errf, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        errf.seek(0)
        err = errf.read().decode("utf-8", "replace")
    return Result(wall, usage.ru_maxrss, proc.returncode, err)


def warm(path):
    """Read path through, untimed, so that the run after it finds the file
    in the page cache: some machines (virtual ones) drop cached pages
    within seconds even with memory free, and a run would then also time
    the disk."""
    buf = bytearray(1 << 20)
    with open(path, "rb", buffering=0) as f:
        while f.readinto(buf):
            pass


def best_of(argv, runs, env=None):
    """Best (smallest) wall time of `runs` runs, each right after the file
    (argv's last word) is read through; peak RSS is the maximum seen.
    Stops at the first failing run.  .walls lists every run's time."""
    best = None
    peak = 0
    walls = []
    for _ in range(runs):
        warm(argv[-1])
        r = run_measured(argv, env)
        if not r.ok:
            return r
        walls.append(r.wall)
        peak = max(peak, r.maxrss)
        if best is None or r.wall < best.wall:
            best = r
    best.maxrss = peak
    best.walls = walls
    return best


def progress(text):
    print("  " + text, flush=True)


def runs_text(r):
    return ", ".join("%.3f" % w for w in r.walls)


def find_generator(path, workdir):
    """Return a runnable generator path, building it from the source next to
    this script if the given path does not exist."""
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "gen-callgrind.c")
    cc = os.environ.get("CC", "cc")
    if not os.path.isfile(src) or shutil.which(cc) is None:
        sys.exit("load-bench: generator %s not found (build it with "
                 "'make bench/gen-callgrind')" % path)
    out = os.path.join(workdir, "gen-callgrind")
    print("load-bench: %s not found; building %s with %s -O2" % (path, out, cc))
    subprocess.run([cc, "-std=c99", "-O2", "-o", out, src], check=True)
    return out


def packed_rows(row, cgtui, args, path, failures):
    """cgtui on path compressed by gzip (-6, its default) and zstd (-3,
    its default), each read in one stream: row["gz"], row["zst"] (best wall
    times) and the compressed sizes."""
    for key, tool, argv in (("gz", "gzip", ["gzip", "-c"]),
                            ("zst", "zstd", ["zstd", "-q", "-c"])):
        if shutil.which(tool) is None:
            row[key + "_note"] = "no " + tool
            continue
        out = path + "." + key
        with open(path, "rb") as src, open(out, "wb") as dst:
            subprocess.run(argv, stdin=src, stdout=dst, check=True)
        row[key + "_mb"] = os.path.getsize(out) / 1e6
        r = best_of([cgtui] + shlex.split(args.cgtui_args) + [out], args.runs)
        os.unlink(out)
        if r.ok:
            row[key] = r.wall
            progress("cgtui, %s (%.1f MB): %s s" % (tool, row[key + "_mb"],
                                                     runs_text(r)))
        else:
            failures.append("cgtui exited %d on the %s file: %s" % (
                r.status, tool, r.stderr.strip()[-300:]))


LOAD_RE = re.compile(r"cgtui: load: .*: ([0-9.]+) s wall, [0-9]+ MB/s; "
                     r"reader CPU ([0-9.]+) s, workers CPU ([0-9.]+) s")


def jobs_runs(cgtui, args, path, jobs):
    """cgtui --jobs=J on path for each J, the runs interleaved (1, 2, 1, 2,
    ...: a machine others share changes speed from one minute to the next),
    with CGTUI_PAR_DEBUG=1 for the phases: {J: [(wall, load wall, reader
    CPU, workers CPU, peak RSS), ...]}, or a message."""
    out = {j: [] for j in jobs}
    env = dict(os.environ, CGTUI_PAR_DEBUG="1")
    argv0 = [cgtui] + shlex.split(args.cgtui_args)
    for _ in range(args.runs):
        for j in jobs:
            warm(path)
            r = run_measured(argv0 + ["--jobs=%d" % j, path], env)
            if not r.ok:
                return "cgtui --jobs=%d exited %d: %s" % (j, r.status,
                                                          r.stderr[-300:])
            m = LOAD_RE.search(r.stderr)
            if not m:
                return "cgtui --jobs=%d: no phase times on stderr" % j
            out[j].append((r.wall, float(m.group(1)), float(m.group(2)),
                           float(m.group(3)), r.maxrss / 1e6))
    return out


def jobs_table(name, mb, res):
    """The table of jobs_runs(): medians, the spread of the wall times and
    the speedup over one job (medians)."""
    med = statistics.median
    print()
    print("%s (%.1f MB): --jobs, %d runs each, interleaved; load average "
          "now %.2f" % (name, mb, len(next(iter(res.values()))),
                        os.getloadavg()[0]))
    head = ["jobs", "wall med", "min", "max", "MB/s med", "load s",
            "reader CPU", "workers CPU", "after load s", "RSS MB",
            "speedup"]
    base = med([x[0] for x in res[min(res)]])
    rows = []
    for j, xs in sorted(res.items()):
        w = [x[0] for x in xs]
        rows.append([str(j), "%.3f" % med(w), "%.3f" % min(w),
                     "%.3f" % max(w), "%.0f" % (mb / med(w)),
                     "%.3f" % med([x[1] for x in xs]),
                     "%.3f" % med([x[2] for x in xs]),
                     "%.3f" % med([x[3] for x in xs]),
                     "%.3f" % med([x[0] - x[1] for x in xs]),
                     "%.0f" % max(x[4] for x in xs),
                     "%.2fx" % (base / med(w))])
    widths = [max(len(h), *(len(r[i]) for r in rows))
              for i, h in enumerate(head)]
    print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))
    print("load s: the load's wall time (parallel parse and serial reader "
          "together); reader CPU: the serial reader's CPU time; workers "
          "CPU: the worker threads' together; after load s: wall minus "
          "load (aggregation, report, exit); speedup: the first row's "
          "median wall over this row's.")


def fmt(v, spec, missing="n/a"):
    return missing if v is None else format(v, spec)


def ratio(a, b, spec):
    return format(a / b, spec) + "x" if a and b else "n/a"


def main():
    ap = argparse.ArgumentParser(
        description="Measure cgtui's load+aggregate speed and peak RSS on "
                    "generated Callgrind files, next to wc -l and "
                    "callgrind_annotate.")
    ap.add_argument("--cgtui", default="./cgtui",
                    help="cgtui binary (default: ./cgtui)")
    ap.add_argument("--cgtui-args", default=DEFAULT_CGTUI_ARGS,
                    help="arguments put before FILE (default: %(default)s)")
    ap.add_argument("--gen", default="bench/gen-callgrind",
                    help="generator binary (default: bench/gen-callgrind; "
                         "built from bench/gen-callgrind.c if missing)")
    ap.add_argument("--sizes", default="100M,1G",
                    help="comma-separated file sizes, k/M/G = 10^3/10^6/10^9 "
                         "(default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1,
                    help="generator seed (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=3,
                    help="runs of cgtui and of wc -l; the best is kept "
                         "(default: %(default)s)")
    ap.add_argument("--annotate-max", default="100M",
                    help="run callgrind_annotate only on files up to this "
                         "size (default: %(default)s; 0 = never)")
    ap.add_argument("--packed-max", default="100M",
                    help="also load the file gzip- and zstd-compressed, for "
                         "sizes up to this (default: %(default)s; 0 = never)")
    ap.add_argument("--keep", metavar="DIR",
                    help="write the generated files to DIR and keep them")
    ap.add_argument("--jobs", default="1,2",
                    help="also run cgtui with --jobs=J for each J of this "
                         "comma-separated list, with the phases' times "
                         "(default: %(default)s; empty = not)")
    ap.add_argument("--file", action="append", default=[],
                    help="an existing profile to measure at --jobs too "
                         "(not generated, not deleted; may be repeated)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 if cgtui misses a target (>= %g MB/s, "
                         "peak RSS <= file size)" % TARGET_MBPS)
    args = ap.parse_args()

    try:
        sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
        annotate_max = parse_size(args.annotate_max)
        packed_max = parse_size(args.packed_max)
    except ValueError as e:
        ap.error("bad size: %s" % e)
    if args.runs < 1:
        ap.error("--runs must be >= 1")
    try:
        jobs = [int(j) for j in args.jobs.split(",") if j.strip()]
    except ValueError:
        ap.error("bad --jobs list: %s" % args.jobs)
    jobs_results = []

    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        workdir = args.keep
        tmpdir = None
    else:
        tmpdir = tempfile.mkdtemp(prefix="cgtui-bench-")
        workdir = tmpdir

    failures = []
    rows = []
    try:
        gen = find_generator(args.gen, tmpdir or tempfile.gettempdir())
        cgtui = args.cgtui
        have_cgtui = os.path.isfile(cgtui) and os.access(cgtui, os.X_OK)
        ca = shutil.which("callgrind_annotate")
        wc = shutil.which("wc")

        print("cgtui load benchmark -- %s, %s, %d CPUs, Python %s" % (
            platform.node(), platform.platform(terse=True), os.cpu_count() or 0,
            platform.python_version()))
        print("each run starts right after its file is read through (a "
              "warm page cache); MB = 10^6 bytes; "
              "best of %d runs for cgtui and wc -l, 1 run for "
              "callgrind_annotate" % args.runs)
        if have_cgtui:
            print("cgtui: %s %s FILE" % (cgtui, args.cgtui_args))
        else:
            print("cgtui: %s does not exist (not built yet?) -- measuring "
                  "the other tools only" % cgtui)
        if ca is None:
            print("callgrind_annotate: not found in PATH (install valgrind)")
        print()

        for size in sizes:
            name = "callgrind-%s-seed%d.out" % (human_size(size), args.seed)
            path = os.path.join(workdir, name)
            t0 = time.perf_counter()
            subprocess.run([gen, "--size", str(size), "--seed",
                            str(args.seed), path], check=True,
                           stderr=subprocess.DEVNULL)
            gen_s = time.perf_counter() - t0
            fsize = os.path.getsize(path)
            mb = fsize / 1e6
            print("%s: generated %s (%.1f MB) in %.2f s (%.0f MB/s)" % (
                human_size(size), path, mb, gen_s, mb / gen_s), flush=True)

            row = {"size": human_size(size), "mb": mb}

            env = dict(os.environ, LC_ALL="C")
            r = best_of([wc, "-l", path], args.runs, env)
            row["wc"] = r.wall if r.ok else None
            if r.ok:
                progress("wc -l: %s s" % runs_text(r))
            else:
                failures.append("wc -l exited %d" % r.status)

            if have_cgtui:
                argv = [cgtui] + shlex.split(args.cgtui_args) + [path]
                r = best_of(argv, args.runs)
                if r.ok:
                    row["cg"] = r.wall
                    row["rss"] = r.maxrss / 1e6
                    row["rss_ratio"] = r.maxrss / fsize
                    row["mbps"] = mb / r.wall
                    progress("cgtui: %s s, peak RSS %.0f MB" % (
                        runs_text(r), row["rss"]))
                    if row["mbps"] < TARGET_MBPS or \
                            row["rss_ratio"] > TARGET_RSS_RATIO:
                        row["miss"] = True
                    # the same with every block's line records made while
                    # loading (what an annotated report does): for the record
                    r2 = best_of(argv, args.runs,
                                 dict(os.environ, CGTUI_LAZY_LINES="0"))
                    if r2.ok:
                        row["eager"] = r2.wall
                        row["eager_rss"] = r2.maxrss / 1e6
                        progress("cgtui, line records made while loading: "
                                 "%s s, peak RSS %.0f MB" % (runs_text(r2),
                                                             row["eager_rss"]))
                else:
                    msg = "cgtui exited %d on %s" % (r.status, name)
                    tail = r.stderr.strip().splitlines()[-5:]
                    if tail:
                        msg += ":\n    " + "\n    ".join(tail)
                    failures.append(msg)
                    row["cg_failed"] = r.status

            if have_cgtui and jobs:
                res = jobs_runs(cgtui, args, path, jobs)
                if isinstance(res, str):
                    failures.append(res)
                else:
                    jobs_results.append((name, mb, res))

            if have_cgtui and 0 < size <= packed_max:
                packed_rows(row, cgtui, args, path, failures)

            if ca is None:
                row["ca_note"] = "not installed"
            elif annotate_max <= 0:
                row["ca_note"] = "skipped"
            elif size > annotate_max:
                row["ca_note"] = "skipped (>%s)" % human_size(annotate_max)
            else:
                warm(path)
                r = run_measured([ca, path])
                if r.ok:
                    row["ca"] = r.wall
                    progress("callgrind_annotate: %.2f s, peak RSS %.0f MB" % (
                        r.wall, r.maxrss / 1e6))
                else:
                    row["ca_note"] = "failed (%d)" % r.status
                    failures.append("callgrind_annotate exited %d on %s: %s"
                                    % (r.status, name,
                                       r.stderr.strip()[-300:]))

            if not args.keep:
                os.unlink(path)
            rows.append(row)
        for path in args.file if have_cgtui and jobs else []:
            print("%s: given (%.1f MB)" % (path, os.path.getsize(path) / 1e6),
                  flush=True)
            res = jobs_runs(cgtui, args, path, jobs)
            if isinstance(res, str):
                failures.append(res)
            else:
                jobs_results.append((path, os.path.getsize(path) / 1e6, res))
    finally:
        if tmpdir:
            shutil.rmtree(tmpdir, ignore_errors=True)

    # ---- the table ----
    head = ["size", "file MB", "cgtui s", "cgtui MB/s", "cgtui RSS MB",
            "RSS/file", "eager s", "eager MB/s", "wc -l s", "wc MB/s",
            "c_annotate s", "cgtui/wc", "c_annotate/cgtui",
            "gzip MB/s", "zstd MB/s", "zstd/gzip"]
    table = []
    for row in rows:
        cg = row.get("cg")
        if cg is None:
            cg_cells = ["failed (%d)" % row["cg_failed"]
                        if "cg_failed" in row else "n/a"] + ["n/a"] * 3
        else:
            cg_cells = [fmt(cg, ".3f"), fmt(row["mbps"], ".0f"),
                        fmt(row["rss"], ".0f"), fmt(row["rss_ratio"], ".2f")]
        wcs = row.get("wc")
        ca = row.get("ca")
        eager = row.get("eager")
        table.append([
            row["size"], "%.1f" % row["mb"]] + cg_cells + [
            fmt(eager, ".3f"),
            fmt(row["mb"] / eager if eager else None, ".0f"),
            fmt(wcs, ".3f"),
            fmt(row["mb"] / wcs if wcs else None, ".0f"),
            fmt(ca, ".2f", row.get("ca_note", "n/a")),
            ratio(cg, wcs, ".1f"),
            ratio(ca, cg, ".0f"),
            fmt(row["mb"] / row["gz"] if row.get("gz") else None, ".0f",
                row.get("gz_note", "n/a")),
            fmt(row["mb"] / row["zst"] if row.get("zst") else None, ".0f",
                row.get("zst_note", "n/a")),
            ratio(row.get("gz"), row.get("zst"), ".2f"),
        ])
    widths = [max(len(h), *(len(t[i]) for t in table)) if table else len(h)
              for i, h in enumerate(head)]
    print()
    print("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    print("  ".join("-" * w for w in widths))
    for t in table:
        print("  ".join(c.rjust(w) for c, w in zip(t, widths)))
    print()
    print("cgtui/wc: cgtui's time over wc -l's (1.0x = as fast as counting "
          "lines); c_annotate/cgtui: callgrind_annotate's time over "
          "cgtui's (speedup).")
    print("eager: the same command with CGTUI_LAZY_LINES=0, every block's line "
          "records made while loading, as an annotated report does; by "
          "default the explorer and a report without annotation read them "
          "when first needed.")
    print("gzip, zstd: the same file compressed (gzip -6, zstd -3) and read "
          "in one stream; MB/s of the uncompressed size; zstd/gzip: "
          "zstd's speedup.")
    print("targets: cgtui >= %.0f MB/s single-threaded and peak RSS <= file "
          "size (RSS/file <= %.2f)." % (TARGET_MBPS, TARGET_RSS_RATIO))
    for name, mb, res in jobs_results:
        jobs_table(name, mb, res)
    missed = [r["size"] for r in rows if r.get("miss")]
    if missed:
        print("targets MISSED for: %s" % ", ".join(missed))
    elif any("cg" in r for r in rows):
        print("targets met.")
    for f in failures:
        print("ERROR: " + f)
    if failures:
        return 1
    if args.strict and (missed or not any("cg" in r for r in rows)):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
