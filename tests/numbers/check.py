#!/usr/bin/env python3
# check.py -- the checks of tests/numbers (numbers that add up), each an
# independent reading of cgtui's output or of a reference tool's:
#
#   percents FILE...         no "N.N%" in the files is above 100.0%
#   roots DUMP TOTAL         the call tree's root rows (a screen dumped in
#                            the C locale) add up to TOTAL
#   below-root DUMP          no row of a callers tree is above its root
#   raw-incl OURS REF        our --cycles=no inclusive cost of each function
#                            ("* file:fn [obj]" lines of --tree=calling) is
#                            callgrind_annotate --inclusive=yes's (REF)
#   fold-self OURS REF       our --fold-recursion=yes self cost per function
#                            is the sum of callgrind_annotate's self costs of
#                            f, f'2, f'caller ... (REF, unfolded)
#
# Prints "PASS: ..." or "FAIL: ..." lines; exits 1 on a failure.
# SPDX-License-Identifier: GPL-2.0-or-later
import re
import sys

PCT = re.compile(r"(-?\d+(?:\.\d+)?)%")
NUM = re.compile(r"^-?[\d,]+$")


def num(s):
    return int(s.replace(",", ""))


def percents(files):
    bad = []
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            for i, line in enumerate(fh, 1):
                for m in PCT.finditer(line):
                    if float(m.group(1)) > 100.0:
                        bad.append("%s:%d: %s" % (f, i, line.rstrip()))
    return bad


def tree_rows(dump):
    """(cost, name_column, name) of each row of a tree screen dump."""
    lines = open(dump, encoding="utf-8").read().split("\n")
    head = lines[2]
    col = head.find("Call tree") if "Call tree" in head else head.find("Callers of")
    if col < 0:
        raise SystemExit("FAIL: %s: not a tree screen" % dump)
    rows = []
    for line in lines[3:-2]:
        if len(line) <= col or not line[:col].strip():
            continue
        cells = line[:col].split()
        if not cells or not NUM.match(cells[0]):
            continue  # a call without a cost: "(recursive)", "(in cycle N)"
        rest = line[col:]
        indent = len(rest) - len(rest.lstrip(" -+@"))
        rows.append((num(cells[0]), indent, rest.strip(" -+@")))
    return rows


def roots(dump, total):
    rows = tree_rows(dump)
    first = min(r[1] for r in rows)
    top = [r for r in rows if r[1] == first]
    s = sum(r[0] for r in top)
    names = ", ".join("%s %d" % (r[2], r[0]) for r in top)
    if s != total:
        return ["%s: roots add up to %d, not %d: %s" % (dump, s, total, names)]
    return []


def below_root(dump):
    rows = tree_rows(dump)
    if not rows:
        return ["%s: no rows" % dump]
    root = rows[0][0]
    return ["%s: %s %d is above the root's %d" % (dump, r[2], r[0], root)
            for r in rows[1:] if abs(r[0]) > abs(root)]


FN = re.compile(r"^\s*(-?[\d,]+)\s+\(\s*-?[\d.]+%\)\s+(?:\* )?(\S[^:]*:.*?)\s*$")


def fn_costs(path, star, by_name):
    """The "cost (pct) file:function [obj]" lines of a report ("* " lines
    only with star): by_name, {function name: cost} summed over every line
    of that name (self costs: callgrind_annotate splits a function's costs
    by the file of each cost line, fi=/fe=, and prints those without the
    object); else {"file:function [obj]": cost} of the lines with an object
    (a function's own line: callgrind_annotate's inclusive costs of the
    fi=/fe= lines count their costs a second time)."""
    out = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        if star and "  * " not in line:
            continue
        if "PROGRAM TOTALS" in line or line.lstrip().startswith(("<", ">")):
            continue
        m = FN.match(line)
        if not m:
            continue
        if by_name:
            k = re.sub(r" \[[^]]*\]$", "", m.group(2).split(":", 1)[1])
        elif m.group(2).endswith("]"):
            k = m.group(2)
        else:
            continue
        out[k] = out.get(k, 0) + num(m.group(1))
    return out


def by_file_fn(costs):
    """Summed by "file:function": callgrind_annotate keys a function by its
    file and name only (the object it prints is the first one seen), so it
    adds up two functions of the same name and file in two objects (fstat
    of fstat64.c in ld.so and in libc): that is its number to compare."""
    out = {}
    for k, v in costs.items():
        k = re.sub(r" \[[^]]*\]$", "", k)
        out[k] = out.get(k, 0) + v
    return out


def raw_incl(ours, ref):
    a = by_file_fn(fn_costs(ours, True, False))
    b = by_file_fn(fn_costs(ref, False, False))
    bad = ["%s: ours %d, callgrind_annotate %d" % (k, a[k], b[k])
           for k in sorted(set(a) & set(b)) if a[k] != b[k]]
    if len(set(a) & set(b)) < 10:
        bad.append("only %d functions in common" % len(set(a) & set(b)))
    return bad


OUTER = re.compile(r"^> +(-?[\d,]+) +\([^)]*\) +([^:]+):")


def fold_self(ours, ref):
    """Our function:file section's self cost per function name (the
    "> N (p)  name:" lines) against callgrind_annotate's self costs of each
    name's levels and contexts (name, name'2, name'caller ...) summed."""
    a, section = {}, False
    for line in open(ours, encoding="utf-8", errors="replace"):
        if line.startswith("-- "):
            section = "Function:file" in line
        m = OUTER.match(line) if section else None
        if m:
            a[m.group(2)] = num(m.group(1))
    want = {}
    for k, v in fn_costs(ref, False, True).items():
        name = k[0] + k[1:].split("'")[0]
        want[name] = want.get(name, 0) + v
    bad = ["%s: ours %d, callgrind_annotate's levels add up to %d" % (k, a.get(k, 0), v)
           for k, v in sorted(want.items()) if a.get(k, 0) != v]
    bad += ["%s: still a level or context" % k for k in a if "'" in k[1:]]
    if len(a) < 10:
        bad.append("only %d functions in our report" % len(a))
    return bad


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "percents":
        bad = percents(args)
    elif cmd == "roots":
        bad = roots(args[0], int(args[1]))
    elif cmd == "below-root":
        bad = below_root(args[0])
    elif cmd == "raw-incl":
        bad = raw_incl(args[0], args[1])
    elif cmd == "fold-self":
        bad = fold_self(args[0], args[1])
    else:
        raise SystemExit("usage: check.py percents|roots|below-root|raw-incl|fold-self ...")
    for b in bad[:20]:
        print("  " + b)
    if len(bad) > 20:
        print("  ... and %d more" % (len(bad) - 20))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
