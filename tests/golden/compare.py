#!/usr/bin/env python3
# compare.py - compare cgtui's batch report with cg_annotate's or
# callgrind_annotate's output on the same profile, number by number.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Python 3 standard library only.  Three layouts are parsed:
#
#   cg319  cg_annotate 3.19 (Perl): one "file:function" row per function, no
#          grouping, "-- Auto-annotated source: PATH" sections.
#   cl319  callgrind_annotate 3.19 (Perl): like cg319, plus " [object]" after
#          names, --inclusive=yes rows, --tree= caller/callee lines, and
#          " => callee (Nx)" lines inside annotated sources.
#   ours   cgtui --batch, in the layout of the new cg_annotate (3.21+):
#          "-- Summary", "-- File:function summary" ("<" groups),
#          "-- Function:file summary" (">" groups), "-- Annotated source
#          file: PATH", "-- Annotation summary".
#
# Usage:
#   compare.py check --name NAME --ours OURS --ref REF [--ref REF2 ...]
#              --ref-tool cg_annotate|callgrind_annotate [options]
#   compare.py parse FILE [--layout ours|cg319|cl319]   (debug: dump as JSON)
#   compare.py selftest                                 (parser unit tests)
#
# `check` prints "PASS: NAME" or "FAIL: NAME: first problem" followed by
# indented details, and exits 0 (pass), 1 (mismatch) or 2 (unparsable input).

import argparse
import json
import os
import re
import sys
from collections import defaultdict

FANCY = "-" * 80

COUNT = r"(-?\d{1,3}(?:,\d{3})*(?![\d,])|\.)"
PERC = (r"\(\s*(?:(-?\d+(?:\.\d+)?)%|(n/a))"
        r"(?:,\s*(?:(-?\d+(?:\.\d+)?)%|(n/a)))?\)")
COL_RE = re.compile(r"\s*" + COUNT + r"(?:\s*" + PERC + r")?")
MARKER_RE = re.compile(r"^-- line (\d+) -+\s*$")
OBJ_RE = re.compile(r"\s\[[^\[\]]*\]$")
CALL_RE = re.compile(r"^(.*) \(([\d,]+)x\)$")
LEVEL_RE = re.compile(r"'\d+$")


class ParseError(Exception):
    pass


def num(s):
    """A count as printed: '1,234' -> 1234, '.' -> None."""
    if s == ".":
        return None
    return int(s.replace(",", ""))


def fmt(n):
    return "{:,d}".format(n or 0)


def parse_cols(line, n):
    """Parse N leading count columns.

    Returns (cols, rest) with cols a list of (count, perc, cumperc); count is
    None for '.', perc and cumperc are floats, 'n/a' or None.  Returns None if
    the line does not start with N count columns."""
    pos = 0
    cols = []
    for i in range(n):
        m = COL_RE.match(line, pos)
        if not m:
            return None
        if i > 0 and m.start(1) == pos:
            return None  # columns must be separated by blanks
        perc = m.group(2)
        perc = float(perc) if perc is not None else ("n/a" if m.group(3) else None)
        cum = float(m.group(4)) if m.group(4) is not None else \
            ("n/a" if m.group(5) else None)
        cols.append((num(m.group(1)), perc, cum))
        pos = m.end()
    return cols, line[pos:]


def split_blocks(lines):
    """Split output into (title, body_lines) blocks.

    A block starts where an 80-dash line, one title line and another 80-dash
    line follow each other; its body runs up to the next such triple."""
    starts = []
    i = 0
    while i + 2 < len(lines):
        if lines[i] == FANCY and lines[i + 2] == FANCY and lines[i + 1] != FANCY:
            starts.append(i)
            i += 3
        else:
            i += 1
    blocks = [("", lines[: starts[0]] if starts else lines)]
    for k, s in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        blocks.append((lines[s + 1], lines[s + 3:end]))
    return blocks


class Report:
    """Everything compare.py takes out of one annotator output."""

    def __init__(self, layout, path):
        self.layout = layout
        self.path = path
        self.events = []          # events shown, in column order
        self.totals = None        # {event: count}
        self.fl_fn = {}           # (file, func) -> {event: count}
        self.fl_groups = {}       # file -> {event: count}   (ours: "<" groups)
        self.fn_fl = {}           # (file, func) -> {event: count} (ours: ">")
        self.fn_groups = {}       # func -> {event: count}   (ours: ">" groups)
        self.primary = defaultdict(set)   # cl319: func -> files shown with [obj]
        self.callees = defaultdict(dict)  # cl319 tree: "fl:fn" -> {"fl:fn": count}
        self.callee_keys = set()          # cl319 tree: every callee "fl:fn"
        self.files = {}           # annotated file -> {line: {event: count}}
        self.shown = {}           # annotated file -> set of printed line numbers
        self.unreadable = set()   # files the report could not annotate
        self.ann_summary = []     # ours: [(label, {event: count})]
        self.repeats = {}         # ours: group name -> times it heads a group
        self.percs = []           # ours: (where, event, count, perc, basis)
        self.cums = []            # ours: (section, event, cumperc, groupcount)
        self.annotate_on = None
        self.problems = []        # parse problems (strings)

    def row(self, cols):
        return {e: (c[0] or 0) for e, c in zip(self.events, cols)}

    def note_percs(self, where, cols, basis="total"):
        for e, c in zip(self.events, cols):
            if c[1] is not None:
                self.percs.append((where, e, c[0] or 0, c[1], basis))


def events_from_header(text):
    m = re.search(r"^Events shown:\s+(.*)$", text, re.M)
    return m.group(1).split() if m else None


def strip_obj(label):
    return OBJ_RE.sub("", label)


def split_file_func(label):
    i = label.find(":")
    if i < 0:
        return ("", label)
    return (label[:i], label[i + 1:])


# ------------------------------------------------------------------------
# The Perl layouts (cg_annotate 3.19 and callgrind_annotate 3.19)
# ------------------------------------------------------------------------

def parse_old(text, path, layout):
    r = Report(layout, path)
    lines = text.split("\n")
    r.events = events_from_header(text) or []
    if not r.events:
        raise ParseError(path + ": no 'Events shown:' line")
    m = re.search(r"^Auto-annotation:\s+(\S+)", text, re.M)
    r.annotate_on = (m.group(1) == "on") if m else None
    n = len(r.events)
    for title, body in split_blocks(lines):
        if title.startswith("-- Auto-annotated source: ") or \
                title.startswith("-- User-annotated source: "):
            fname = title.split(": ", 1)[1]
            if " + " in fname:     # "-I dir + file"
                fname = fname.split(" + ", 1)[1]
            parse_old_source(r, fname, body, n)
        elif title.startswith("The following files chosen for auto-annotation"):
            for b in body:
                if b.startswith("  ") and b.strip():
                    r.unreadable.add(b.strip())
        elif title.rstrip().endswith(" file:function"):
            parse_old_functions(r, body, n)
        elif re.match(r"^\S", title) and parse_cols_header(title, r.events):
            for b in body:
                p = parse_cols(b, n)
                if p and p[1].strip().startswith("PROGRAM TOTALS"):
                    r.totals = r.row(p[0])
    if r.totals is None:
        raise ParseError(path + ": no PROGRAM TOTALS line")
    return r


def parse_cols_header(title, events):
    """True if TITLE is an events header line such as 'Ir  I1mr  ...'."""
    words = title.split()
    return words[: len(events)] == events


def parse_old_functions(r, body, n):
    tree = any(re.match(r"^\*\s", (parse_cols(b, n) or ([], ""))[1].strip())
               for b in body if b.strip())
    current = None
    for b in body:
        if not b.strip():
            continue
        p = parse_cols(b, n)
        if not p:
            r.problems.append("unparsable function row: " + b)
            continue
        cols, rest = p
        label = rest.strip()
        if tree:
            m = re.match(r"^\*\s+(.*)$", label)
            if m:
                current = m.group(1)
                label = current
            elif label.startswith("<") or label.startswith(">"):
                mm = CALL_RE.match(strip_obj(re.sub(r"^[<>]\s+", "", label)))
                if mm and label.startswith(">") and current is not None:
                    callee = mm.group(1)
                    r.callees[strip_obj(current)][callee] = r.row(cols)
                    r.callee_keys.add(callee)
                continue
        has_obj = OBJ_RE.search(label) is not None
        label = strip_obj(label)
        fl, fn = split_file_func(label)
        if has_obj:
            r.primary[fn].add(fl)
        r.fl_fn[(fl, fn)] = r.row(cols)


def parse_source_lines(r, fname, body, n, old):
    """Per-line counts of one annotated source section (both layouts)."""
    lines = {}
    shown = set()
    state = "start"    # "start", "in" (inside a chunk), "gap"
    lineno = 0
    last = None
    for b in body:
        m = MARKER_RE.match(b)
        if m:
            k = int(m.group(1))
            if state == "in" and last == k:
                state = "gap"
            else:
                state = "in"
                lineno = k - 1
                last = None
            continue
        if not b.strip() or b.startswith("@"):
            continue
        if b.startswith("  No information has been collected"):
            continue
        p = parse_cols(b, n)
        if not p:
            if b.startswith("Unannotated because") or \
                    b.startswith("This file was unreadable"):
                r.unreadable.add(fname)
            elif b.startswith("- "):
                pass
            elif not parse_cols_header(b.replace("_", " "), r.events):
                r.problems.append("%s: unparsable annotation line: %s" % (fname, b))
            continue
        cols, rest = p
        text = rest.strip()
        if text.startswith("=> "):
            continue                            # callgrind_annotate call line
        if text.startswith("<counts for unidentified lines") or \
                text == "<unknown (line 0)>":
            lines[0] = r.row(cols)
            if not old:
                r.note_percs("%s line 0" % fname, cols)
            continue
        mb = re.match(r"^<bogus line (\d+)>$", text)
        if mb:
            lines[int(mb.group(1))] = r.row(cols)
            continue
        if state == "gap":
            r.problems.append("%s: source line outside a chunk: %s" % (fname, b))
            continue
        state = "in"
        lineno += 1
        last = lineno
        shown.add(lineno)
        if any(c[0] is not None for c in cols):
            lines[lineno] = r.row(cols)
            if not old:
                r.note_percs("%s line %d" % (fname, lineno), cols)
    r.files[fname] = lines
    r.shown[fname] = shown


def parse_old_source(r, fname, body, n):
    parse_source_lines(r, fname, body, n, old=True)


# ------------------------------------------------------------------------
# Our layout (the new cg_annotate's)
# ------------------------------------------------------------------------

def parse_ours(text, path):
    r = Report("ours", path)
    lines = text.split("\n")
    blocks = split_blocks(lines)
    titles = [t for t, _ in blocks]
    if "-- Summary" not in titles:
        raise ParseError(path + ": no '-- Summary' section")
    r.events = events_from_header(text) or []
    if not r.events:
        # Fall back to the column header of the summary ("Ir____ Dr____").
        body = blocks[titles.index("-- Summary")][1]
        hdr = next((b for b in body if b.strip()), "")
        r.events = [w.rstrip("_") for w in hdr.split()]
    m = re.search(r"^Annotation:\s+(\S+)", text, re.M)
    r.annotate_on = (m.group(1) == "on") if m else None
    n = len(r.events)
    for title, body in blocks:
        if title == "-- Summary":
            for b in body:
                p = parse_cols(b, n)
                if p and p[1].strip() == "PROGRAM TOTALS":
                    r.totals = r.row(p[0])
                    r.note_percs("PROGRAM TOTALS", p[0])
        elif title.startswith("-- File:function summary"):
            parse_ours_groups(r, body, n, "<", r.fl_fn, r.fl_groups, False)
        elif title.startswith("-- Function:file summary"):
            # cgtui --inclusive=yes titles it "-- Function:file summary
            # (inclusive costs on function lines)".
            parse_ours_groups(r, body, n, ">", r.fn_fl, r.fn_groups, True)
        elif title.startswith("-- Annotated source file: "):
            fname = title.split(": ", 1)[1]
            parse_source_lines(r, fname, body, n, old=False)
        elif title == "-- Annotation summary":
            for b in body:
                p = parse_cols(b, n)
                if p and p[1].strip():
                    r.ann_summary.append((p[1].strip(), r.row(p[0])))
    if r.totals is None:
        raise ParseError(path + ": no PROGRAM TOTALS line")
    return r


def parse_ours_groups(r, body, n, marker, rows, groups, func_first):
    """'<'/'>' groups: a marker line 'count (pct, cum)  A:' followed by
    indented 'count (pct)  B' lines, or a single line 'count (...)  A:B'."""
    group = None
    section = "file:function" if marker == "<" else "function:file"
    for b in body:
        if not b.strip():
            continue
        s = b
        is_head = s.startswith(marker)
        if is_head:
            s = " " + s[1:]
        p = parse_cols(s, n)
        if not p:
            if b.strip().endswith(section):
                continue                        # column header line
            r.problems.append("unparsable %s row: %s" % (section, b))
            continue
        cols, rest = p
        label = strip_obj(rest.strip())
        if is_head:
            where = "%s group '%s'" % (section, label)
            r.note_percs(where, cols)
            for e, c in zip(r.events, cols):
                if c[2] is not None:
                    r.cums.append((section, e, c[2], c[0] or 0))
            # The same name can head several groups: cgtui tells functions
            # apart by object too (fstat in libc and in ld.so, both from
            # fstat64.c).  Sum them, as the reference tools, which name
            # functions by file and function only, do.
            if label.endswith(":"):
                group = label[:-1]
                merge_row(groups, group, r.row(cols), r.repeats)
                continue
            group = None
            if func_first:
                i = label.rfind(":")
                fn, fl = label[:i], label[i + 1:]
                merge_row(groups, fn, r.row(cols), r.repeats)
            else:
                fl, fn = split_file_func(label)
                merge_row(groups, fl, r.row(cols), r.repeats)
            merge_row(rows, (fl, fn), r.row(cols), None)
        else:
            if group is None:
                r.problems.append("%s row outside a group: %s" % (section, b))
                continue
            r.note_percs("%s row '%s' in '%s'" % (section, label, group), cols)
            if func_first:
                merge_row(rows, (label, group), r.row(cols), None)
            else:
                merge_row(rows, (group, label), r.row(cols), None)


def merge_row(dst, key, cc, repeats):
    if key in dst:
        add_into(dst[key], cc)
        if repeats is not None:
            repeats[key] = repeats.get(key, 1) + 1
    else:
        dst[key] = cc


def load(path, layout):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if layout == "ours":
        return parse_ours(text, path)
    return parse_old(text, path, layout)


# ------------------------------------------------------------------------
# Callgrind profile scan: costs of "calls=0" lines
# ------------------------------------------------------------------------

def scan_zero_calls(path):
    """Find the cost lines that follow a 'calls=0' line.

    callgrind_annotate 3.19 handles a cost line after 'calls=N' as a call
    cost only if N > 0; with N == 0 it adds that cost to the calling
    function's self cost and to the source line, as if no call line were
    there.  That is wrong: the line is still the cost of a call (the callee
    ran, the count of completed calls is zero, e.g. a call that never
    returned before the dump), so cgtui treats it as call cost.  This scan
    finds what callgrind_annotate adds wrongly, keyed the way it names
    things ('file', 'function', line)."""
    events = []
    names = {"fl": {}, "fn": {}}
    fl = fn = None
    piece = None
    positions = ["line"]
    last = {}
    zero = []        # [(file, func, line, {event: count}, callee)]
    pending = False
    cfn = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\r\n")
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^(\w+):\s*(.*)$", line)
            if m and "=" not in m.group(1):
                key, val = m.group(1), m.group(2)
                if key == "events":
                    events = val.split()
                elif key == "positions":
                    positions = val.split()
                continue
            m = re.match(r"^(fl|fi|fe|fn|cfl|cfi|cfn|ob|cob|jfi|jfn)=(.*)$", line)
            if m:
                key, val = m.group(1), m.group(2)
                space = "fn" if key in ("fn", "cfn", "jfn") else \
                    ("ob" if key in ("ob", "cob") else "fl")
                mm = re.match(r"^\((\d+)\)\s*(.*)$", val)
                if mm:
                    tab = names.setdefault(space, {})
                    if mm.group(2):
                        tab[mm.group(1)] = mm.group(2)
                    val = tab.get(mm.group(1), val)
                if key == "fl":
                    fl = piece = val
                elif key in ("fi", "fe"):
                    piece = val
                elif key == "fn":
                    fn = val
                elif key == "cfn":
                    cfn = val
                continue
            m = re.match(r"^calls=(\d+)", line)
            if m:
                pending = int(m.group(1)) == 0
                continue
            if re.match(r"^(jump|jcnd)=", line):
                continue
            toks = line.split()
            if not toks:
                continue
            # Position columns, with subposition compression.
            pos = {}
            for i, p in enumerate(positions):
                t = toks[i] if i < len(toks) else "*"
                prev = last.get(p, 0)
                if t == "*":
                    v = prev
                elif t.startswith("+"):
                    v = prev + int(t[1:], 0)
                elif t.startswith("-"):
                    v = prev - int(t[1:], 0)
                else:
                    v = int(t, 0)
                pos[p] = v
            last.update(pos)
            if pending:
                counts = [int(x) for x in toks[len(positions):]]
                cc = {e: (counts[i] if i < len(counts) else 0)
                      for i, e in enumerate(events)}
                zero.append((piece if piece is not None else fl, fn,
                             pos.get("line", 0), cc, cfn))
                pending = False
    return zero


# ------------------------------------------------------------------------
# Comparison
# ------------------------------------------------------------------------

class Comparison:
    def __init__(self, name, tool, limit=40):
        self.name = name
        self.tool = tool
        self.fails = []
        self.notes = []
        self.compared = 0
        self.limit = limit

    def fail(self, msg):
        self.fails.append(msg)

    def note(self, msg):
        self.notes.append(msg)

    def eq(self, what, event, ours, ref):
        self.compared += 1
        if (ours or 0) != (ref or 0):
            self.fail("%s, event %s: ours %s vs %s %s"
                      % (what, event, fmt(ours), self.tool, fmt(ref)))
            return False
        return True

    def same(self, what, event, a, alabel, b, blabel):
        """A consistency check inside one report (no reference number)."""
        self.compared += 1
        if (a or 0) != (b or 0):
            self.fail("%s, event %s: %s %s but %s %s"
                      % (what, event, alabel, fmt(a), blabel, fmt(b)))
            return False
        return True

    def report(self):
        if self.fails:
            print("FAIL: %s: %s" % (self.name, self.fails[0]))
            for f in self.fails[1:self.limit]:
                print("    " + f)
            if len(self.fails) > self.limit:
                print("    ... %d more" % (len(self.fails) - self.limit))
        else:
            print("PASS: %s (%d numbers compared)" % (self.name, self.compared))
        for n in self.notes[:self.limit]:
            print("    " + n)
        if len(self.notes) > self.limit:
            print("    ... %d more notes" % (len(self.notes) - self.limit))
        return 1 if self.fails else 0


def add_into(dst, src):
    for e, v in src.items():
        dst[e] = dst.get(e, 0) + v


def nonzero(cc):
    return any(v for v in cc.values())


def cc_text(cc, events):
    return ", ".join("%s %s" % (e, fmt(cc.get(e, 0))) for e in events)


class Normalizer:
    def __init__(self, prefixes, merge_levels):
        self.prefixes = [p.rstrip("/") + "/" for p in prefixes if p]
        self.merge_levels = merge_levels

    def file(self, f):
        for p in self.prefixes:
            if f.startswith(p):
                return f[len(p):]
        return f

    def func(self, fn):
        return LEVEL_RE.sub("", fn) if self.merge_levels else fn

    def key(self, k):
        return (self.file(k[0]), self.func(k[1]))

    def rows(self, rows):
        out = {}
        for k, cc in rows.items():
            add_into(out.setdefault(self.key(k), {}), cc)
        return out


def sccs(graph):
    """Strongly connected components (iterative Tarjan)."""
    index = {}
    low = {}
    on = set()
    stack = []
    comp = {}
    counter = [0]
    nodes = set(graph)
    for vs in graph.values():
        nodes.update(vs)
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                elif w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                members = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    members.append(w)
                    if w == v:
                        break
                for w in members:
                    comp[w] = frozenset(members)
    return comp


def check(args):
    tool = args.ref_tool
    layout = "cl319" if tool == "callgrind_annotate" else "cg319"
    c = Comparison(args.name, tool)
    try:
        ours = load(args.ours, "ours")
        refs = [load(p, layout) for p in args.ref]
    except (OSError, ParseError) as e:
        print("FAIL: %s: cannot parse: %s" % (args.name, e))
        return 2
    for r in [ours] + refs:
        for p in r.problems[:10]:
            c.fail("parse problem in %s: %s" % (r.path, p))

    checks = set(args.checks.split(","))
    events = [e for e in refs[0].events]
    if ours.events != events:
        c.fail("events shown: ours %s vs %s %s"
               % (" ".join(ours.events), tool, " ".join(events)))
    events = [e for e in events if e in ours.events]

    # Recursion levels: callgrind names nested activations "f'2"; if our
    # report has no such names, it merged them into "f", so merge the
    # reference's rows the same way before comparing.
    ref_levels = any(LEVEL_RE.search(fn) for r in refs for (_, fn) in r.fl_fn)
    our_levels = any(LEVEL_RE.search(fn) for (_, fn) in ours.fl_fn) or \
        any(LEVEL_RE.search(fn) for fn in ours.fn_groups)
    merge = ref_levels and not our_levels
    if merge:
        c.note("note: ours shows no recursion-level names (f'2); the "
               "reference's f'N rows were summed into f")
    norm = Normalizer(args.strip_prefix or [], merge)

    # Sum several reference outputs (cgtui given several files at once).
    ref_totals = {}
    ref_rows = {}
    ref_files = {}
    for r in refs:
        add_into(ref_totals, r.totals)
        for k, cc in norm.rows(r.fl_fn).items():
            add_into(ref_rows.setdefault(k, {}), cc)
        for f, lines in r.files.items():
            dst = ref_files.setdefault(norm.file(f), {})
            for ln, cc in lines.items():
                add_into(dst.setdefault(ln, {}), cc)

    # Costs callgrind_annotate wrongly counts as self cost (calls=0 lines).
    zero = []
    for p in args.profile or []:
        zero += scan_zero_calls(p)
    zero_funcs = set()
    if zero and tool == "callgrind_annotate" and not args.inclusive:
        for fl, fn, ln, cc, callee in zero:
            k = norm.key((fl, fn))
            zero_funcs.add(k[1])
            if k in ref_rows:
                for e in events:
                    ref_rows[k][e] = ref_rows[k].get(e, 0) - cc.get(e, 0)
            lines = ref_files.get(norm.file(fl))
            if lines is not None and ln in lines:
                for e in events:
                    lines[ln][e] = lines[ln].get(e, 0) - cc.get(e, 0)
            c.note("expected difference (calls=0): %s:%s line %d: %s counts "
                   "this call cost as self cost (%s); ours counts it as call "
                   "cost, so ours is lower there by exactly that"
                   % (norm.file(fl), fn, ln, tool, cc_text(cc, events)))
    elif zero:
        for fl, fn, ln, cc, callee in zero:
            zero_funcs.add(norm.func(fn))
            if callee:
                zero_funcs.add(norm.func(callee))

    if "totals" in checks:
        # (callgrind_annotate prints the profile's summary: line, a few
        # events above its totals: line, the cost lines' sum; ours is the
        # same: format spec 3.1.7.1, the summary is the run's full cost)
        for e in events:
            o, r = ours.totals.get(e), ref_totals.get(e)
            c.eq("PROGRAM TOTALS", e, o, r)

    complete = args.complete
    subset = complete or args.ref_subset
    if "self" in checks:
        compare_rows(c, "file:function", norm.rows(ours.fl_fn), ref_rows,
                     events, complete, subset)
        if ours.fn_fl and not args.inclusive:
            compare_rows(c, "function:file", norm.rows(ours.fn_fl), ref_rows,
                         events, complete, subset)
        if complete:
            group_sums(c, ours, norm, events)

    if "inclusive" in checks:
        ref_self = None
        if args.ref_self:
            try:
                ref_self = load(args.ref_self, layout)
            except (OSError, ParseError) as e:
                c.note("note: no self-cost reference (%s); functions entered "
                       "without a call cannot be recognised" % e)
        compare_inclusive(c, ours, refs, norm, events, ref_totals, zero_funcs,
                          ref_self)

    if "lines" in checks:
        compare_lines(c, ours, refs, ref_files, norm, events, complete,
                      subset, "context" in checks)

    if "percs" in checks:
        check_percs(c, ours, events)

    if "annsummary" in checks and ours.ann_summary:
        total = {}
        for _, cc in ours.ann_summary:
            add_into(total, cc)
        rows = {}
        for cc in ours.fl_fn.values():
            add_into(rows, cc)
        if complete and any(rows.get(e, 0) != ours.totals.get(e, 0)
                            for e in events):
            # A callgrind "summary:" line need not equal the sum of the cost
            # lines (callgrind 3.19 with --cache-sim=yes counts 2 Ir more in
            # "summary:" than in its cost lines; its "totals:" line is the
            # sum).  Then the annotation summary adds up to the cost lines,
            # not to PROGRAM TOTALS.
            c.note("note: PROGRAM TOTALS (%s) is not the sum of all functions "
                   "(%s): the profile's summary: line differs from its cost "
                   "lines; ours' Annotation summary is checked against the sum"
                   % (cc_text(ours.totals, events), cc_text(rows, events)))
            for e in events:
                c.same("ours' Annotation summary", e, total.get(e),
                       "its rows add up to", rows.get(e),
                       "ours' function rows add up to")
        else:
            for e in events:
                c.same("ours' Annotation summary", e, total.get(e),
                       "its rows add up to", ours.totals.get(e),
                       "ours' PROGRAM TOTALS is")

    if "annsummary" in checks and len(ours.ann_summary) >= 2:
        # The first two rows are what the annotated sections show.
        known, unknown = {}, {}
        for f, lines in ours.files.items():
            for ln, cc in lines.items():
                add_into(unknown if ln == 0 else known, cc)
        for e in events:
            c.same("ours' Annotation summary, first row (line numbers known)",
                   e, ours.ann_summary[0][1].get(e), "says",
                   known.get(e), "the annotated lines add up to")
            c.same("ours' Annotation summary, second row (line numbers "
                   "unknown)", e, ours.ann_summary[1][1].get(e), "says",
                   unknown.get(e), "the <unknown (line 0)> lines add up to")

    if "noannotate" in checks:
        if ours.files:
            c.fail("ours annotates %d file(s) although annotation is off: %s"
                   % (len(ours.files), ", ".join(sorted(ours.files))[:200]))
        for r in refs:
            if r.files:
                c.fail("%s annotated files although annotation is off" % tool)
    return c.report()


def describe(k, section):
    fl, fn = k
    return "function '%s' (file %s) [%s]" % (fn, fl, section)


def compare_rows(c, section, ours, ref, events, complete, subset):
    missing_zero = 0
    for k in sorted(ref):
        rc = ref[k]
        if k not in ours:
            if not any(rc.get(e, 0) for e in events):
                missing_zero += 1
            elif subset:
                c.fail("%s is missing in ours; %s shows %s"
                       % (describe(k, section), c.tool, cc_text(rc, events)))
            continue
        for e in events:
            c.eq(describe(k, section), e, ours[k].get(e), rc.get(e))
    if complete:
        for k in sorted(ours):
            if k not in ref and any(ours[k].get(e, 0) for e in events):
                c.fail("%s is in ours (%s) but not in %s's output"
                       % (describe(k, section), cc_text(ours[k], events), c.tool))
    if missing_zero:
        c.note("note: %d %s row(s) with all-zero counts in %s's output are "
               "not in ours (allowed)" % (missing_zero, section, c.tool))


def group_sums(c, ours, norm, events):
    """With every function shown, each group total is the sum of its rows."""
    sums = {}
    for (fl, fn), cc in ours.fl_fn.items():
        add_into(sums.setdefault(fl, {}), cc)
    for fl, cc in ours.fl_groups.items():
        for e in events:
            c.same("ours' file:function group '%s'" % fl, e, cc.get(e),
                   "the group line says", sums.get(fl, {}).get(e),
                   "its function rows add up to")
    sums = {}
    for (fl, fn), cc in ours.fn_fl.items():
        add_into(sums.setdefault(fn, {}), cc)
    for fn, cc in ours.fn_groups.items():
        if fn in sums:
            for e in events:
                c.same("ours' function:file group '%s'" % fn, e, cc.get(e),
                       "the group line says", sums[fn].get(e),
                       "its file rows add up to")


def compare_inclusive(c, ours, refs, norm, events, ref_totals, zero_funcs,
                      ref_self):
    """Inclusive cost per function, ours vs callgrind_annotate --inclusive=yes.

    callgrind_annotate --inclusive=yes (3.19) computes, for a function that
    is called, the sum of the inclusive costs of all calls to it ("cfn
    totals"), keyed by the callee name as the call site spells it; rows of
    uncalled functions (and of file pieces under another name) keep self
    cost plus the cost of their calls.  So for a function F its number is
      A = the sum of the rows of F's distinct callee names, if some tree line
          shows F as a callee, else the sum of all rows of F.
    With the self costs (REF_SELF, a run without --inclusive) and the call
    tree we also know
      B = self cost of F + the cost of F's calls to functions outside F's
          recursion cycle,
    the inclusive cost as a call-graph model (ours) computes it.  A == B for
    every function that is only ever entered by a call and left by a return.
    Where they differ for a function outside any cycle, F ran without being
    called (a thread starting inside clone(), code before main's caller ...)
    or a calls=0 line is involved; callgrind_annotate then leaves out cost
    that F's frame did run, and ours may print either number.
    Calls inside a recursion cycle are counted again at every level by
    callgrind_annotate, so its number is too high there (it can exceed the
    program total); our model collapses cycles, so for cycle members we only
    check that ours does not exceed the program total."""
    if len(refs) != 1:
        c.fail("inclusive comparison needs exactly one reference output")
        return
    ref = refs[0]
    if not ref.callees:
        c.fail("callgrind_annotate output has no call tree (run it with "
               "--tree=calling)")
        return
    rows = {}
    for (fl, fn), cc in ref.fl_fn.items():
        rows.setdefault(norm.func(fn), []).append(((fl, fn), cc))
    callee_by_func = defaultdict(set)
    for k in ref.callee_keys:
        fl, fn = split_file_func(k)
        callee_by_func[norm.func(fn)].add((fl, fn))
    ref_incl = {}
    for f, lst in rows.items():
        tot = {}
        keys = callee_by_func.get(f)
        for k, cc in lst:
            if not keys or k in keys:
                add_into(tot, cc)
        ref_incl[f] = tot

    # Names that denote several functions (two static functions called
    # "cmp", "(below main)" in the program and in libc, ifunc resolvers named
    # like what they resolve): no per-name comparison is possible, and they
    # are left out of the call graph so they make no false cycles.
    ambiguous = {norm.func(f) for f, fls in ref.primary.items()
                 if len({norm.file(x) for x in fls}) > 1}

    graph = defaultdict(set)
    out_calls = defaultdict(list)      # F -> [(callee func, {event: cost})]
    for caller, cs in ref.callees.items():
        cf = norm.func(split_file_func(caller)[1])
        for callee, cc in cs.items():
            g = norm.func(split_file_func(callee)[1])
            out_calls[cf].append((g, cc))
            if cf not in ambiguous and g not in ambiguous:
                graph[cf].add(g)
    comp = sccs(graph)

    def recursive(f):
        return len(comp.get(f, ())) > 1 or f in graph.get(f, ())

    model = {}
    if ref_self is not None:
        for (fl, fn), cc in ref_self.fl_fn.items():
            add_into(model.setdefault(norm.func(fn), {}), cc)
        for f, lst in out_calls.items():
            for g, cc in lst:
                if g == f or (f in comp and comp.get(g) == comp[f]):
                    continue
                add_into(model.setdefault(f, {}), cc)

    ours_incl = {}
    for fn, cc in ours.fn_groups.items():
        add_into(ours_incl.setdefault(norm.func(fn), {}), cc)
    several = sorted(f for f, n in ours.repeats.items()
                     if n > 1 and f in ours.fn_groups)
    if several:
        c.note("note: ours lists several functions under each of %d names "
               "(%s): their sum is compared, as callgrind_annotate names "
               "functions by file:function only and so adds them up"
               % (len(several), ", ".join(several[:8]) +
                  (", ..." if len(several) > 8 else "")))
    if not ours_incl:
        c.fail("ours has no Function:file section with --inclusive=yes")
        return

    skipped = []
    for f in sorted(ref_incl):
        rc = ref_incl[f]
        if f not in ours_incl:
            if nonzero(rc):
                c.fail("function '%s' is missing in ours' inclusive "
                       "function:file section; callgrind_annotate shows %s"
                       % (f, cc_text(rc, events)))
            continue
        oc = ours_incl[f]
        if f in ambiguous:
            skipped.append(f)
            continue
        if recursive(f):
            diffs = []
            for e in events:
                o, r = oc.get(e, 0), rc.get(e, 0)
                tot = ref_totals.get(e, 0)
                c.compared += 1
                if abs(o) > abs(tot):
                    c.fail("function '%s' (in a recursion cycle) inclusive %s: "
                           "ours %s exceeds the program total %s"
                           % (f, e, fmt(o), fmt(tot)))
                if o != r:
                    diffs.append("%s ours %s vs %s %s" % (e, fmt(o), c.tool, fmt(r)))
            if diffs:
                c.note("expected difference (recursion): '%s' inclusive: %s "
                       "(callgrind_annotate adds the cost of recursive calls "
                       "once per level; ours is within the program total)"
                       % (f, "; ".join(diffs)))
            continue
        mc = model.get(f)
        alt = mc is not None and any(mc.get(e, 0) != rc.get(e, 0) for e in events)
        if alt and all(oc.get(e, 0) == mc.get(e, 0) for e in events):
            c.compared += len(events)
            diffs = "; ".join("%s ours %s vs %s %s" % (
                e, fmt(oc.get(e, 0)), c.tool, fmt(rc.get(e, 0)))
                for e in events if oc.get(e, 0) != rc.get(e, 0))
            if f in zero_funcs:
                c.note("expected difference (calls=0): '%s' inclusive: %s; ours "
                       "is self cost + cost of its calls (%s); callgrind_annotate "
                       "sums the calls into it but does not count a call with "
                       "calls=0 as a call" % (f, diffs, cc_text(mc, events)))
            else:
                c.note("expected difference (calls in != self + calls out): "
                       "'%s' inclusive: %s; ours is self cost + cost of its "
                       "calls (%s), callgrind_annotate sums only the calls "
                       "into it, which differs when the function runs without "
                       "being called (a thread starting inside clone) or when "
                       "a call's cost includes cost never written as self "
                       "cost (the last instructions before _exit)"
                       % (f, diffs, cc_text(mc, events)))
            continue
        for e in events:
            ok = c.eq("inclusive cost of function '%s'" % f, e, oc.get(e), rc.get(e))
            if not ok and alt:
                c.fails[-1] += (" (self + calls out of it would be %s)"
                                % fmt(mc.get(e, 0)))
    if skipped:
        c.note("not compared: %d names that denote several functions: %s"
               % (len(skipped), ", ".join(skipped[:8]) +
                  (", ..." if len(skipped) > 8 else "")))
    for f in sorted(ours_incl):
        if f not in ref_incl and nonzero(ours_incl[f]):
            c.fail("function '%s' is in ours' inclusive section (%s) but not in "
                   "callgrind_annotate's" % (f, cc_text(ours_incl[f], events)))
    for f, cc in ours_incl.items():
        if f in ambiguous:
            continue        # several functions under one name: may add up
        for e in events:
            if abs(cc.get(e, 0)) > abs(ref_totals.get(e, 0)) and not recursive(f):
                c.fail("function '%s' inclusive %s: ours %s exceeds the program "
                       "total %s" % (f, e, fmt(cc.get(e, 0)),
                                     fmt(ref_totals.get(e, 0))))


def compare_lines(c, ours, refs, ref_files, norm, events, complete, subset,
                  context):
    ours_files = {norm.file(f): v for f, v in ours.files.items()}
    ref_unread = set()
    for r in refs:
        ref_unread |= {norm.file(f) for f in r.unreadable}
    ours_unread = {norm.file(f) for f in ours.unreadable}
    for f in sorted(set(ours_files) & set(ref_files)):
        o, r = ours_files[f], ref_files[f]
        for ln in sorted(set(o) | set(r)):
            oc, rc = o.get(ln, {}), r.get(ln, {})
            where = ("file %s line %d" % (f, ln)) if ln else \
                ("file %s, counts without a line number (line 0)" % f)
            for e in events:
                c.eq(where, e, oc.get(e), rc.get(e))
    if context and len(refs) == 1:
        rs = {norm.file(f): v for f, v in refs[0].shown.items()}
        os_ = {norm.file(f): v for f, v in ours.shown.items()}
        for f in sorted(set(rs) & set(os_)):
            c.compared += 1
            if rs[f] != os_[f]:
                only_o = sorted(os_[f] - rs[f])
                only_r = sorted(rs[f] - os_[f])
                c.fail("file %s: shown source lines differ (context): only in "
                       "ours %s; only in %s %s" % (f, ranges(only_o), c.tool,
                                                   ranges(only_r)))
    if subset:
        annotated_ref = set(ref_files) - ref_unread
        for f in sorted(annotated_ref - set(ours_files) - ours_unread):
            if any(nonzero(cc) for cc in ref_files[f].values()):
                c.fail("file %s is annotated by %s but not by ours" % (f, c.tool))
    if complete:
        for f in sorted(set(ours_files) - set(ref_files)):
            if any(nonzero(cc) for cc in ours_files[f].values()):
                c.fail("file %s is annotated by ours but not by %s" % (f, c.tool))
        if ref_unread != ours_unread:
            a = sorted(ours_unread - ref_unread)
            b = sorted(ref_unread - ours_unread)
            c.fail("unreadable files differ: only ours lists %s; only %s "
                   "lists %s" % (a[:5] or "none", c.tool, b[:5] or "none"))


def ranges(nums):
    if not nums:
        return "none"
    out = []
    start = prev = nums[0]
    for n in nums[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else "%d-%d" % (start, prev))
        if n is not None:
            start = prev = n
    return ",".join(out)


def check_percs(c, ours, events):
    """Ours only: every percentage matches count / total (to 0.1%), and the
    cumulative percentages of the groups add up."""
    for where, e, count, perc, basis in ours.percs:
        tot = ours.totals.get(e, 0)
        c.compared += 1
        if perc == "n/a":
            if tot != 0:
                c.fail("%s, event %s: ours prints n/a but the total is %s"
                       % (where, e, fmt(tot)))
            continue
        if tot == 0:
            c.fail("%s, event %s: ours prints %.1f%% of a zero total"
                   % (where, e, perc))
            continue
        want = count * 100.0 / tot
        if abs(want - perc) > 0.0501 + 1e-9 * abs(want):
            c.fail("%s, event %s: ours prints %s%% for %s of %s (%.3f%%)"
                   % (where, e, perc, fmt(count), fmt(tot), want))
    run = defaultdict(int)
    for section, e, cum, count in ours.cums:
        run[(section, e)] += count
        tot = ours.totals.get(e, 0)
        if cum == "n/a" or not tot:
            c.compared += 1
            if (cum == "n/a") != (not tot):
                c.fail("%s summary, event %s: cumulative %s printed but the "
                       "total is %s" % (section, e, cum, fmt(tot)))
        else:
            want = run[(section, e)] * 100.0 / tot
            c.compared += 1
            if abs(want - cum) > 0.0501 + 1e-9 * abs(want):
                c.fail("%s summary, event %s: cumulative %.1f%% printed, the "
                       "groups so far add up to %.3f%%" % (section, e, cum, want))


# ------------------------------------------------------------------------
# Self test on the hand-made samples
# ------------------------------------------------------------------------

def selftest(args):
    here = os.path.dirname(os.path.abspath(__file__))
    sdir = os.path.join(here, "samples")
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    o = load(os.path.join(sdir, "ours-sample.txt"), "ours")
    expect(o.events == ["Ir", "Dr"], "events %r" % o.events)
    expect(o.totals == {"Ir": 8195070, "Dr": 1234567}, "totals %r" % o.totals)
    expect(o.fl_fn[("/src/concord.c", "get_word")] == {"Ir": 1630232, "Dr": 400000},
           "get_word row %r" % o.fl_fn.get(("/src/concord.c", "get_word")))
    expect(o.fl_fn[("./libio/getc.c", "getc")] == {"Ir": 1107550, "Dr": 250000},
           "single-line file:function row")
    expect(o.fl_fn[("???", "???")] == {"Ir": 468151, "Dr": 0}, "??? row")
    expect(o.fl_groups["/src/concord.c"] == {"Ir": 3078746, "Dr": 700000},
           "concord.c group %r" % o.fl_groups.get("/src/concord.c"))
    expect(o.fn_groups["get_word"] == {"Ir": 2086303, "Dr": 450000},
           "get_word function group %r" % o.fn_groups.get("get_word"))
    expect(o.fn_fl[("/usr/include/ctype.h", "get_word")] == {"Ir": 456071, "Dr": 50000},
           "get_word:ctype.h row")
    expect(o.fn_fl[("./libio/getc.c", "getc")] == {"Ir": 1107550, "Dr": 250000},
           "single-line function:file row")
    lines = o.files.get("/src/concord.c", {})
    expect(lines.get(3) == {"Ir": 8, "Dr": 0}, "line 3 %r" % lines.get(3))
    expect(lines.get(12) == {"Ir": 2993, "Dr": 1000}, "line 12 %r" % lines.get(12))
    expect(lines.get(40) == {"Ir": 6, "Dr": 2}, "line 40 (after gap) %r" % lines.get(40))
    expect(lines.get(0) == {"Ir": 10, "Dr": 0}, "line 0 %r" % lines.get(0))
    expect(14 not in lines, "blank line 14 has no counts")
    expect(o.shown.get("/src/concord.c") ==
           set(range(1, 21)) | set(range(32, 49)),
           "shown lines %s" % ranges(sorted(o.shown.get("/src/concord.c", ()))))
    expect("./malloc/malloc.c" in o.unreadable, "unreadable malloc.c")
    expect(len(o.ann_summary) == 6, "annotation summary rows %d" % len(o.ann_summary))
    expect(not o.problems, "parse problems %r" % o.problems)
    expect(o.cums and o.percs, "percentages collected")

    # The same profile in cg_annotate 3.19's layout: must compare equal.
    r = load(os.path.join(sdir, "cg319-sample.txt"), "cg319")
    expect(r.events == ["Ir", "Dr"], "cg319 events %r" % r.events)
    expect(r.fl_fn[("/src/concord.c", "get_word")] == {"Ir": 1630232, "Dr": 400000},
           "cg319 get_word")
    expect(r.files["/src/concord.c"].get(40) == {"Ir": 6, "Dr": 2}, "cg319 line 40")
    expect(r.files["/src/concord.c"].get(0) == {"Ir": 10, "Dr": 0}, "cg319 line 0")
    expect(not r.problems, "cg319 parse problems %r" % r.problems)

    import io
    import contextlib

    def run_check(extra, ours="ours-sample.txt"):
        ns = argparse.Namespace(
            name="sample", ours=os.path.join(sdir, ours),
            ref=[os.path.join(sdir, "cg319-sample.txt")], ref_tool="cg_annotate",
            checks="totals,self,lines,context,percs,annsummary", complete=True,
            strip_prefix=[], profile=[], inclusive=False, ref_subset=False,
            ref_self=None)
        for k, v in extra.items():
            setattr(ns, k, v)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = check(ns)
        return rc, buf.getvalue()

    rc, out = run_check({})
    expect(rc == 0, "sample vs cg319 sample should pass:\n" + out)
    rc, out = run_check({}, ours="ours-sample-bad.txt")
    expect(rc == 1, "bad sample should fail:\n" + out)
    for want in ["function 'hash' (file /src/concord.c) [file:function], event Ir: "
                 "ours 630,917 vs cg_annotate 630,918",
                 "file /src/concord.c line 12, event Dr: ours 1,001 vs cg_annotate 1,000",
                 "PROGRAM TOTALS, event Dr: ours 1,234,568 vs cg_annotate 1,234,567",
                 "function 'insert' (file /src/concord.c) [file:function] is missing in ours",
                 "ours prints 19.8% for 1,630,232 of 8,195,070"]:
        expect(want in out, "bad sample: expected message not found: %s\n%s"
               % (want, out))

    # Layout details the parser must get right.
    expect(parse_cols("      .         (void)x;", 1)[0] == [(None, None, None)],
           "'.' followed by source starting with '('")
    expect(parse_cols("  1,234 ( 5.67%)  12 foo", 2)[0][1][0] == 12,
           "second column without percentage")
    expect(parse_cols(">   630,918  (7.7%, 62.4%)  hash:x"[1:], 1)[0] ==
           [(630918, 7.7, 62.4)], "cumulative percentage")
    expect(parse_cols("-1,000 (-0.1%) x", 1)[0] == [(-1000, -0.1, None)],
           "negative count (diff)")
    expect(parse_cols("0 (n/a)  x", 1)[0] == [(0, "n/a", None)], "n/a")
    expect(parse_cols("0 (n/a, n/a) 5  (4.4%,   4.4%)  x", 2)[0] ==
           [(0, "n/a", "n/a"), (5, 4.4, 4.4)], "n/a cumulative")
    expect(parse_cols("12345 x", 1) is None, "uncommified number is not a count")

    comp = sccs({"a": {"b"}, "b": {"a", "c"}, "c": set(), "d": {"d"}})
    expect(comp["a"] == comp["b"] and len(comp["a"]) == 2 and len(comp["c"]) == 1,
           "sccs")

    zero = scan_zero_calls(os.path.join(sdir, "zerocall.callgrind"))
    expect(zero == [("zero.c", "main", 12, {"Ir": 500}, "spin")],
           "calls=0 scan %r" % zero)

    if failures:
        for f in failures:
            print("FAIL: compare.py selftest: " + f)
        return 1
    print("PASS: compare.py selftest")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("check")
    a.add_argument("--name", required=True)
    a.add_argument("--ours", required=True)
    a.add_argument("--ref", action="append", required=True,
                   help="reference output (several: their sum is compared)")
    a.add_argument("--ref-tool", required=True,
                   choices=["cg_annotate", "callgrind_annotate"])
    a.add_argument("--checks", default="totals,self,lines,percs,annsummary",
                   help="comma list of: totals self inclusive lines context "
                        "percs annsummary noannotate")
    a.add_argument("--complete", action="store_true",
                   help="both sides show every function (threshold 0/100): "
                        "rows and annotated files must match as sets too")
    a.add_argument("--ref-subset", action="store_true",
                   help="same threshold rule on both sides: every row and "
                        "annotated file of the reference must be in ours")
    a.add_argument("--inclusive", action="store_true",
                   help="outputs are from --inclusive=yes runs")
    a.add_argument("--ref-self",
                   help="with 'inclusive': callgrind_annotate's output without "
                        "--inclusive for the same profile (self costs)")
    a.add_argument("--strip-prefix", action="append",
                   help="directory prefix removed from file names on both sides")
    a.add_argument("--profile", action="append",
                   help="the callgrind profile, scanned for calls=0 lines")
    p = sub.add_parser("parse")
    p.add_argument("file")
    p.add_argument("--layout", default="ours", choices=["ours", "cg319", "cl319"])
    sub.add_parser("selftest")
    args = ap.parse_args()
    if args.cmd == "check":
        return check(args)
    if args.cmd == "selftest":
        return selftest(args)
    r = load(args.file, args.layout)
    d = {k: v for k, v in vars(r).items()}
    d["fl_fn"] = {"%s:%s" % k: v for k, v in r.fl_fn.items()}
    d["fn_fl"] = {"%s:%s" % k: v for k, v in r.fn_fl.items()}
    d["shown"] = {f: ranges(sorted(v)) for f, v in r.shown.items()}
    d["primary"] = {k: sorted(v) for k, v in r.primary.items()}
    d["callee_keys"] = sorted(r.callee_keys)
    d["unreadable"] = sorted(r.unreadable)
    json.dump(d, sys.stdout, indent=1, default=str)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
