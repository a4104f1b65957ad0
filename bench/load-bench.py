#!/usr/bin/env python3
# load-bench.py -- cgtui load speed and memory benchmark (issue 19's Proof).
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# For each requested size, generates a realistic Callgrind file with
# bench/gen-callgrind (or takes an existing one: --file), then measures in
# the same run, the cgtui runs interleaved round by round (a machine others
# share changes speed from one minute to the next):
#   - cgtui --batch --no-annotate --threshold=100 at --jobs=1 and at
#     --jobs=N (N = online CPUs): wall time, MB/s, peak RSS, RSS/file, and
#     the phases CGTUI_PAR_DEBUG=1 prints when the build prints them
#   - the explorer (headless, tui-bench.py's environment, the keys "q"):
#     start to the first screen and out, and its peak RSS
#   - the batch with --inclusive=yes: its time over the plain batch's, RSS
#   - the batch with every line record made while loading (CGTUI_LAZY_LINES=0)
#   - wc -l FILE
#   - callgrind_annotate FILE (one run, sizes <= --annotate-max)
#   - KCachegrind, where installed (one run, sizes <= --kcachegrind-max):
#     Qt offscreen, its load time is when its CPU time stops growing
#   - cgtui on FILE compressed by gzip and by zstd (sizes <= --packed-max)
# and prints each tool's median, min and max (the spread) and one table.
# Peak RSS is the child's ru_maxrss (wait4): mapped file pages count.
# MB means 10^6 bytes throughout.
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
import importlib.util


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

# Targets of issue 19 (a 1 GB profile on the 2-core machine).
TARGET_PAR_MBPS = 1000.0    # batch at N jobs
TARGET_SCALING = 1.8        # N jobs over 1 job (2 cores)
TARGET_FIRST_S = 1.0        # explorer: start to the first complete screen
TARGET_EXPLORER_RSS = 0.35  # explorer peak RSS / file
TARGET_INCL_TIME = 1.5      # --inclusive=yes time / plain batch time
TARGET_INCL_RSS = 0.5       # --inclusive=yes peak RSS / file


def tui_bench():
    """tui-bench.py, next to this script, as a module: its headless
    explorer's environment (explorer_env) is the one used here."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "tui-bench.py")
    spec = importlib.util.spec_from_file_location("tui_bench", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Variant:
    """One cgtui command measured in every round: name, argv before FILE,
    extra environment."""
    def __init__(self, key, label, argv, env=None, explorer=False):
        self.key, self.label, self.argv = key, label, argv
        self.env = env or {}
        self.explorer = explorer


def explorer_run(argv, path, tmp, tb):
    """The explorer on path, headless (tui-bench.py's environment), the
    keys "q": the wall time from start to the first screen and out, its
    peak RSS, and the first screen's own drawing time (CGTUI_TIMING)."""
    keys = os.path.join(tmp, "keys-q")
    with open(keys, "w") as f:
        f.write("q\n")
    timing = os.path.join(tmp, "timing")
    if os.path.exists(timing):
        os.unlink(timing)
    r = run_measured(argv + [path], tb.explorer_env(keys, timing))
    r.first_ms = None
    if r.ok and os.path.exists(timing):
        for line in open(timing):
            w = line.split()
            if w and w[0] == "first-screen":
                r.first_ms = float(w[2])
                break
    return r


def rounds(variants, path, args, tmp, tb, failures):
    """Every variant once per round, --runs rounds, each run right after
    the file is read through: {key: [Result, ...]}."""
    res = {v.key: [] for v in variants}
    dead = set()
    for rnd in range(args.runs):
        for v in variants:
            if v.key in dead:
                continue
            warm(path)
            if v.explorer:
                r = explorer_run(v.argv, path, tmp, tb)
            else:
                r = run_measured(v.argv + [path], dict(os.environ, **v.env))
            if not r.ok:
                failures.append("%s exited %d on %s: %s" % (
                    v.label, r.status, path, r.stderr.strip()[-300:]))
                dead.add(v.key)
                continue
            m = LOAD_RE.search(r.stderr)
            r.phases = tuple(float(m.group(k)) for k in (1, 2, 3)) if m else None
            res[v.key].append(r)
        progress("round %d of %d done, load average %.2f" % (
            rnd + 1, args.runs, os.getloadavg()[0]))
    return res


def cpu_ticks(pid):
    """utime + stime of process pid (all its threads), in clock ticks."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def find_child(ppid, name):
    """A process called name whose parent is ppid."""
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                t = f.read()
        except OSError:
            continue
        comm = t[t.index("(") + 1:t.rindex(")")]
        parent = int(t.rsplit(")", 1)[1].split()[1])
        if comm == name and parent == ppid:
            return int(d)
    return None


def kcachegrind_run(path, settle, timeout):
    """KCachegrind on path, Qt offscreen (in its own D-Bus session when
    dbus-run-session exists: without a session bus it exits): the time
    from its start to the last growth of its CPU time, once that has not
    grown for `settle` seconds; its peak RSS (VmHWM) then; it is killed.
    (load s, RSS bytes, CPU s) or a message."""
    argv = ["kcachegrind", path]
    if shutil.which("dbus-run-session"):
        argv = ["dbus-run-session", "--"] + argv
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env,
                            start_new_session=True)
    tick = os.sysconf("SC_CLK_TCK")
    pid = proc.pid if argv[0] == "kcachegrind" else None
    last, last_t, hwm = -1, None, 0
    try:
        while True:
            now = time.perf_counter()
            if proc.poll() is not None:
                return "kcachegrind exited (status %d) before it settled" % (
                    proc.returncode)
            if now - t0 > timeout:
                return "kcachegrind still busy after %.0f s" % timeout
            if pid is None:
                pid = find_child(proc.pid, "kcachegrind")
            if pid is not None:
                try:
                    c = cpu_ticks(pid)
                    with open("/proc/%d/status" % pid) as f:
                        for line in f:
                            if line.startswith("VmHWM:"):
                                hwm = int(line.split()[1]) * 1024
                except OSError:
                    pid = None
                    c = last
                if c != last:
                    last, last_t = c, now
                elif last_t and now - last_t >= settle and last > 0:
                    return (last_t - t0, hwm, last / tick)
            time.sleep(0.05)
    finally:
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            pass
        proc.wait()


def spread(xs, spec=".3f"):
    """'median (min-max)' of xs."""
    return "%s (%s-%s)" % (format(statistics.median(xs), spec),
                           format(min(xs), spec), format(max(xs), spec))


def print_table(head, rows):
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                    for i, (h, w) in enumerate(zip(head, widths))))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths))))


def file_report(name, path, size, args, cgtui, tmp, tb, failures):
    """Everything measured on one profile; prints its table, returns the
    targets it misses (a list of strings)."""
    fsize = os.path.getsize(path)
    mb = fsize / 1e6
    med = statistics.median
    load0 = os.getloadavg()
    base = [cgtui] + shlex.split(args.cgtui_args)
    n = args.jobs_n
    variants = [
        Variant("j1", "cgtui batch --jobs=1", base + ["--jobs=1"],
                {"CGTUI_PAR_DEBUG": "1"}),
        Variant("jn", "cgtui batch --jobs=%d" % n, base + ["--jobs=%d" % n],
                {"CGTUI_PAR_DEBUG": "1"}),
        Variant("ex", "explorer --jobs=%d, start to first screen and q" % n,
                [cgtui, "--jobs=%d" % n], explorer=True),
        Variant("incl", "batch --inclusive=yes --jobs=%d" % n,
                base + ["--inclusive=yes", "--jobs=%d" % n]),
    ]
    if fsize <= args.eager_max:
        variants.append(Variant("eager", "batch, lines made while loading, "
                                "--jobs=%d" % n, base + ["--jobs=%d" % n],
                                {"CGTUI_LAZY_LINES": "0"}))
    res = rounds(variants, path, args, tmp, tb, failures)

    wc = shutil.which("wc")
    wcs = best_of([wc, "-l", path], args.runs, dict(os.environ, LC_ALL="C"))
    row = {}
    if size is not None and 0 < size <= args.packed_max:
        packed_rows(row, cgtui, args, path, failures)
    ca = shutil.which("callgrind_annotate")
    ca_r = ca_note = None
    if ca is None:
        ca_note = "not installed"
    elif fsize > args.annotate_max * 1.01:
        ca_note = "skipped (> %s)" % human_size(args.annotate_max)
    else:
        warm(path)
        ca_r = run_measured([ca, path])
        if not ca_r.ok:
            failures.append("callgrind_annotate exited %d" % ca_r.status)
            ca_r = None
            ca_note = "failed"
    kc = kc_note = None
    if shutil.which("kcachegrind") is None:
        kc_note = "not installed"
    elif fsize > args.kcachegrind_max * 1.01:
        kc_note = "skipped (> %s)" % human_size(args.kcachegrind_max)
    else:
        warm(path)
        kc = kcachegrind_run(path, args.kcachegrind_settle,
                             args.kcachegrind_timeout)
        if isinstance(kc, str):
            kc_note, kc = kc, None
    load1 = os.getloadavg()

    print()
    print("%s (%.1f MB): %d interleaved rounds; load average %.2f at the "
          "start, %.2f at the end; %d CPUs" % (name, mb, args.runs, load0[0],
                                               load1[0], os.cpu_count() or 0))
    head = ["what", "wall s: median (min-max)", "MB/s med", "peak RSS MB",
            "RSS/file", "vs"]
    rows = []
    wall = {k: [r.wall for r in rs] for k, rs in res.items() if rs}
    rss = {k: max(r.maxrss for r in rs) for k, rs in res.items() if rs}
    plain = "jn" if "jn" in wall else None
    for v in variants:
        if v.key not in wall:
            rows.append([v.label, "n/a", "", "", "", "failed"])
            continue
        w = wall[v.key]
        vs = ""
        if v.key == "jn" and "j1" in wall:
            vs = "%.2fx over 1 job" % (med(wall["j1"]) / med(w))
        elif v.key in ("incl", "eager") and plain:
            vs = "%.2fx the plain batch" % (med(w) / med(wall[plain]))
        elif v.key == "ex":
            fm = [r.first_ms for r in res["ex"] if r.first_ms is not None]
            if fm:
                vs = "first screen drawn in %.0f ms" % med(fm)
        rows.append([v.label, spread(w), "%.0f" % (mb / med(w)),
                     "%.0f" % (rss[v.key] / 1e6),
                     "%.2f" % (rss[v.key] / fsize), vs])
    if wcs.ok:
        rows.append(["wc -l (best of %d)" % args.runs, spread(wcs.walls),
                     "%.0f" % (mb / med(wcs.walls)), "", "",
                     "cgtui %d jobs: %.1fx wc's time" % (
                         n, med(wall[plain]) / med(wcs.walls))
                     if plain else ""])
    if ca_r:
        rows.append(["callgrind_annotate (1 run)", "%.2f" % ca_r.wall,
                     "%.1f" % (mb / ca_r.wall), "%.0f" % (ca_r.maxrss / 1e6),
                     "%.2f" % (ca_r.maxrss / fsize),
                     "%.0fx cgtui %d jobs' time" % (
                         ca_r.wall / med(wall[plain]), n) if plain else ""])
    else:
        rows.append(["callgrind_annotate", "n/a", "", "", "", ca_note])
    if kc:
        rows.append(["KCachegrind load (1 run)", "%.2f" % kc[0],
                     "%.1f" % (mb / kc[0]), "%.0f" % (kc[1] / 1e6),
                     "%.2f" % (kc[1] / fsize),
                     "%.0fx the explorer's time" % (kc[0] / med(wall["ex"]))
                     if "ex" in wall else ""])
    else:
        rows.append(["KCachegrind", "n/a", "", "", "", kc_note])
    for key, tool in (("gz", "gzip -6"), ("zst", "zstd -3")):
        if row.get(key):
            rows.append(["cgtui on the %s file (%.0f MB)" % (
                tool, row[key + "_mb"]), "%.3f" % row[key],
                "%.0f" % (mb / row[key]), "", "", "MB/s of the uncompressed"])
    print_table(head, rows)

    ph = {k: [r.phases for r in res[k] if r.phases] for k in ("j1", "jn")
          if res.get(k)}
    if any(ph.values()):
        print("phases (CGTUI_PAR_DEBUG, medians): " + "; ".join(
            "%s: load %.3f s wall, reader CPU %.3f s, workers CPU %.3f s, "
            "after the load %.3f s" % (
                k.replace("j1", "1 job").replace("jn", "%d jobs" % n),
                med([x[0] for x in xs]), med([x[1] for x in xs]),
                med([x[2] for x in xs]),
                med([r.wall - r.phases[0] for r in res[k] if r.phases]))
            for k, xs in ph.items() if xs))

    # the targets of issue 19
    miss = []
    def check(ok, text):
        if ok is None:
            return
        print("  target %s: %s" % (text, "met" if ok else "MISSED"))
        if not ok:
            miss.append("%s: %s" % (name, text))
    print("issue 19's targets (medians; set for 1 GB on 2 cores):")
    if plain:
        check(mb / med(wall["jn"]) >= TARGET_PAR_MBPS,
              ">= %.0f MB/s at %d jobs (%.0f)" % (
                  TARGET_PAR_MBPS, n, mb / med(wall["jn"])))
    if plain and "j1" in wall:
        check(med(wall["j1"]) / med(wall["jn"]) >= TARGET_SCALING,
              ">= %.1fx from 1 to %d jobs (%.2fx)" % (
                  TARGET_SCALING, n, med(wall["j1"]) / med(wall["jn"])))
    if "ex" in wall:
        check(med(wall["ex"]) <= TARGET_FIRST_S,
              "explorer's first screen <= %.1f s (%.2f s, to the first "
              "screen and out)" % (TARGET_FIRST_S, med(wall["ex"])))
        check(rss["ex"] / fsize <= TARGET_EXPLORER_RSS,
              "explorer's peak RSS <= %.2fx the file (%.2fx)" % (
                  TARGET_EXPLORER_RSS, rss["ex"] / fsize))
    if "incl" in wall and plain:
        check(med(wall["incl"]) / med(wall[plain]) <= TARGET_INCL_TIME,
              "--inclusive=yes <= %.1fx the plain batch's time (%.2fx)" % (
                  TARGET_INCL_TIME, med(wall["incl"]) / med(wall[plain])))
        check(rss["incl"] / fsize <= TARGET_INCL_RSS,
              "--inclusive=yes peak RSS <= %.1fx the file (%.2fx)" % (
                  TARGET_INCL_RSS, rss["incl"] / fsize))
    if fsize >= 5e9 and plain:
        check(max(rss.values()) <= 3.5e9,
              "peak RSS <= 3.5 GB (%.2f GB, the largest of the cgtui runs)" % (
                  max(rss.values()) / 1e9))
    return miss


def main():
    ap = argparse.ArgumentParser(
        description="Measure cgtui's load speed and peak RSS (batch at 1 and "
                    "N jobs, the explorer, --inclusive=yes) on generated "
                    "Callgrind files, next to wc -l, callgrind_annotate and "
                    "KCachegrind.")
    ap.add_argument("--cgtui", default="./cgtui",
                    help="cgtui binary (default: ./cgtui)")
    ap.add_argument("--cgtui-args", default=DEFAULT_CGTUI_ARGS,
                    help="batch arguments put before FILE (default: "
                         "%(default)s)")
    ap.add_argument("--gen", default="bench/gen-callgrind",
                    help="generator binary (default: bench/gen-callgrind; "
                         "built from bench/gen-callgrind.c if missing)")
    ap.add_argument("--sizes", default="100M,1G",
                    help="comma-separated file sizes, k/M/G = 10^3/10^6/10^9 "
                         "(default: %(default)s; empty: only --file)")
    ap.add_argument("--10g", dest="ten", action="store_true",
                    help="add a 10 GB file to --sizes (about 10 GB of disk, "
                         "a minute or two to generate)")
    ap.add_argument("--seed", type=int, default=1,
                    help="generator seed (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=3,
                    help="rounds of the cgtui runs (interleaved), runs of "
                         "wc -l (default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    dest="jobs_n",
                    help="N, the threads of the parallel runs (default: "
                         "the online CPUs, %(default)s)")
    ap.add_argument("--annotate-max", default="100M",
                    help="run callgrind_annotate only on files up to this "
                         "size (default: %(default)s; 0 = never)")
    ap.add_argument("--kcachegrind-max", default="1G",
                    help="run KCachegrind only on files up to this size "
                         "(default: %(default)s; 0 = never; it takes about "
                         "5.6x the file in memory)")
    ap.add_argument("--kcachegrind-settle", type=float, default=2.0,
                    help="KCachegrind has loaded when its CPU time has not "
                         "grown for this many seconds (default: %(default)s)")
    ap.add_argument("--kcachegrind-timeout", type=float, default=600,
                    help="give up on KCachegrind after this many seconds "
                         "(default: %(default)s)")
    ap.add_argument("--eager-max", default="1G",
                    help="measure the batch with line records made while "
                         "loading on files up to this size (default: "
                         "%(default)s)")
    ap.add_argument("--packed-max", default="100M",
                    help="also load the file gzip- and zstd-compressed, for "
                         "sizes up to this (default: %(default)s; 0 = never)")
    ap.add_argument("--keep", metavar="DIR",
                    help="write the generated files to DIR and keep them")
    ap.add_argument("--file", action="append", default=[],
                    help="an existing profile measured like a generated one "
                         "(not deleted; may be repeated)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 if cgtui misses a target of issue 19 on a "
                         "file of 1 GB or more")
    args = ap.parse_args()

    try:
        sizes = [parse_size(x) for x in args.sizes.split(",") if x.strip()]
        if args.ten:
            sizes.append(parse_size("10G"))
        for opt in ("annotate_max", "kcachegrind_max", "eager_max",
                    "packed_max"):
            setattr(args, opt, parse_size(getattr(args, opt)))
    except ValueError as e:
        ap.error("bad size: %s" % e)
    if args.runs < 1:
        ap.error("--runs must be >= 1")
    if args.jobs_n < 1:
        ap.error("--jobs must be >= 1")
    cgtui = args.cgtui
    if not (os.path.isfile(cgtui) and os.access(cgtui, os.X_OK)):
        sys.exit("load-bench: %s does not exist (not built yet?)" % cgtui)

    tmpdir = tempfile.mkdtemp(prefix="cgtui-bench-")
    workdir = args.keep or tmpdir
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    tb = tui_bench()
    failures, missed = [], []
    try:
        print("cgtui load benchmark -- %s, %s, %d CPUs, Python %s" % (
            platform.node(), platform.platform(terse=True),
            os.cpu_count() or 0, platform.python_version()))
        print("every run starts right after its file is read through (a warm "
              "page cache); MB = 10^6 bytes; peak RSS = ru_maxrss, mapped "
              "file pages included")
        print("batch: %s %s [--jobs=J] FILE" % (cgtui, args.cgtui_args))
        items = []
        for size in sizes:
            items.append(("gen", size))
        items += [("file", f) for f in args.file]
        for kind, what in items:
            if kind == "gen":
                gen = find_generator(args.gen, tmpdir)
                name = "callgrind-%s-seed%d.out" % (human_size(what), args.seed)
                path = os.path.join(workdir, name)
                t0 = time.perf_counter()
                subprocess.run([gen, "--size", str(what), "--seed",
                                str(args.seed), path], check=True,
                               stderr=subprocess.DEVNULL)
                gen_s = time.perf_counter() - t0
                print("\n%s: generated %s (%.1f MB) in %.1f s" % (
                    human_size(what), path, os.path.getsize(path) / 1e6,
                    gen_s), flush=True)
                size = what
            else:
                path = name = what
                size = os.path.getsize(path)
                print("\n%s: given (%.1f MB)" % (path, size / 1e6), flush=True)
            try:
                m = file_report(name, path, size, args, cgtui, tmpdir, tb,
                                failures)
                if os.path.getsize(path) >= 0.9e9:
                    missed += m
            finally:
                if kind == "gen" and not args.keep:
                    os.unlink(path)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    print()
    if missed:
        print("targets MISSED (files of 1 GB or more): " + "; ".join(missed))
    for f in failures:
        print("ERROR: " + f)
    if failures:
        return 1
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
