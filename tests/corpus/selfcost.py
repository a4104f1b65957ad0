#!/usr/bin/env python3
# selfcost.py PROFILE REPORT -- checks the per-function self costs of a
# cgtui report against an independent reading of the profile.
#
# The profile is read here on its own, following the Callgrind format
# specification (and the Cachegrind manual's format), not cgtui's code:
#   - name compression "(id) name" / "(id)", one id space per kind:
#     objects (ob= cob=), files (fl= fi= fe= cfi= cfl= jfi=), functions
#     (fn= cfn= jfn=); Xdebug's "==== NEW PROFILING FILE" starts afresh;
#   - a cost line's costs are self costs of the current function (fn=) in
#     the current file: fl= sets it, fi=/fe= change it up to the next fn=,
#     which goes back to the fl= file;
#   - the cost line after calls= is the call's inclusive cost, not self
#     cost; the position line after jump=/jcnd= is an ordinary cost line;
#   - "positions:" says how many subpositions come before the costs;
#     missing costs are 0, "." is 0, "*" repeats the previous cost line's
#     value (not in the grammar; some writers use it), 0x is hex; a line
#     that does not read so (the last one, cut short) is left out;
#   - events are matched by name ("events:" of each part);
#   - callgrind (and cgtui) write fl= before fn= only when the function's
#     file is not the file of the cost lines before it, fi=/fe= included:
#     in their files a function without fl= is in that file;
#   - two tolerances for real writers (the project's loader rules, from
#     ARCHITECTURE.md): a function whose file was given only by an fi= line
#     just before its fn= (pyprof2calltree, lsprofcalltree never write fl=)
#     is in that file, and no file at all is "???"; in Cachegrind's format
#     (a cmd: line, nothing of Callgrind's before) fl= starts the
#     pseudo-function "<unspecified>" of that file (cg_annotate 3.21+).
# Function names and file names are as written (trailing blanks dropped).
#
# The report is cgtui --batch --threshold=0 --no-annotate --show-percs=no:
# its "Function:file summary" lists every function name with its self cost
# and, when the name has costs in more than one file, each file's.  Every
# (function name, file) pair must be there with exactly the costs computed
# here, and nothing else.  Prints one line, "ok: N functions, M pairs" or
# the differences, and exits 0 or 1.
#
# SPDX-License-Identifier: GPL-2.0-or-later

import re
import sys
from collections import defaultdict


def number(tok, last):
    if tok == ".":
        return 0
    if tok == "*":
        return last
    sign = 1
    if tok[0] in "+-":
        sign = -1 if tok[0] == "-" else 1
        tok = tok[1:]
    if tok[:2] in ("0x", "0X"):
        return sign * int(tok[2:], 16)
    return sign * int(tok, 10)


class Reader:
    """The self cost of each (function name, file) pair, per event name."""

    def __init__(self):
        self.cost = defaultdict(lambda: defaultdict(int))  # (fn, file) -> event -> sum
        self.pairs = set()
        self.new_file()

    def new_file(self):
        self.ids = {"ob": {}, "fl": {}, "fn": {}}
        self.fl = None          # the fl= file
        self.file = None        # the file of cost lines
        self.fn = None
        self.seen_fl = False
        self.fi_line = -2       # line number of the last fi=/fe=
        self.fi_name = None
        self.events = []
        self.npos = 1
        self.after_calls = False
        self.last = {}
        self.cmd = False
        self.callgrind = False
        self.cg_creator = False

    def name(self, space, value):
        """Resolves "(id) name", "(id)" or "name" in an id space."""
        value = value.rstrip(" \t")
        m = re.match(r"\((\d+)\)(.*)$", value)
        if not m:
            return value
        self.callgrind = True
        ident, rest = int(m.group(1)), m.group(2)
        if rest.startswith((" ", "\t")):
            rest = rest[1:]
        table = self.ids[space]
        if rest:
            table[ident] = rest
            return rest
        return table.get(ident, "(%d)" % ident)

    def read(self, path):
        with open(path, "rb") as f:
            data = f.read()
        if data[:3] == b"\xef\xbb\xbf":
            data = data[3:]
        lines = data.decode("utf-8", "surrogateescape").split("\n")
        # pass 1: names defined after their use (old callgrind) resolve to
        # the later definition; ids are per file part (Xdebug)
        spaces = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl",
                  "cfi": "fl", "cfl": "fl", "jfi": "fl", "fn": "fn", "cfn": "fn",
                  "jfn": "fn"}
        parts, cur = [], {"ob": {}, "fl": {}, "fn": {}}
        for line in lines:
            line = line.rstrip("\r")
            if line.startswith("==== NEW PROFILING FILE"):
                parts.append(cur)
                cur = {"ob": {}, "fl": {}, "fn": {}}
                continue
            m = re.match(r"(\w+)=\((\d+)\)[ \t]?(.*)$", line)
            if m and m.group(1) in spaces and m.group(3).rstrip(" \t"):
                cur[spaces[m.group(1)]].setdefault(int(m.group(2)), m.group(3).rstrip(" \t"))
        parts.append(cur)
        part = 0
        self.ids = parts[0]
        # pass 2: the costs
        for lineno, line in enumerate(lines, 1):
            line = line.rstrip("\r")
            if line.startswith("==== NEW PROFILING FILE"):
                self.new_file()
                part += 1
                self.ids = parts[part]
                continue
            if lineno == 1 and line.startswith("# callgrind format"):
                self.callgrind = True
            s = line.lstrip(" \t")
            if not s or s.startswith("#"):
                continue
            if s[0].isdigit() or s[0] in "+-*":
                self.cost_line(s)
                continue
            m = re.match(r"(\w+)([=:])(.*)$", s)
            if not m:
                continue
            key, sep, value = m.groups()
            if sep == ":":
                self.header(key, value.strip(" \t"))
            else:
                self.spec(key, value, lineno)

    def header(self, key, value):
        if key == "events":
            self.events = value.split()
            self.last = {}
        elif key == "positions":
            self.npos = len(value.split())
        if key == "creator":
            self.cg_creator = value.startswith(("callgrind", "cgtui"))
        if key == "cmd":
            self.cmd = True
        elif key not in ("desc", "events", "summary"):
            self.callgrind = True

    def spec(self, key, value, lineno):
        if key not in ("fl", "fn"):
            self.callgrind = True
        if key == "calls":
            self.after_calls = True
        elif key == "fn":
            name = self.name("fn", value)
            if not self.seen_fl and self.fi_name is not None and self.fi_line == lineno - 1:
                self.fl = self.fi_name
            elif self.cg_creator and self.file is not None:
                self.fl = self.file
            self.fn = name
            self.file = self.fl if self.fl is not None else "???"
        elif key == "fl":
            self.fl = self.file = self.name("fl", value)
            self.seen_fl = True
            if self.cmd and not self.callgrind:
                self.fn = "<unspecified>"
        elif key in ("fi", "fe"):
            self.fi_name = self.name("fl", value)
            self.fi_line = lineno
            if self.fl is None:
                self.fl = "???"
            self.file = self.fi_name
        elif key in ("ob", "cob"):
            self.name("ob", value)
        elif key in ("cfi", "cfl", "jfi"):
            self.name("fl", value)
        elif key in ("cfn", "jfn"):
            self.name("fn", value)

    def cost_line(self, s):
        toks = s.split()
        if self.after_calls:  # the call's inclusive cost
            self.after_calls = False
            return
        key = (self.fn, self.file if self.file is not None else "???")
        values = toks[self.npos:]
        try:
            if len(values) > len(self.events):
                raise ValueError
            vals = [number(values[i], self.last.get(ev, 0)) if i < len(values) else 0
                    for i, ev in enumerate(self.events)]
        except ValueError:
            # not a cost line: in a file that loads, only its last line,
            # cut short, can be such, and it is left out
            return
        self.pairs.add(key)
        for ev, v in zip(self.events, vals):
            self.last[ev] = v
            self.cost[key][ev] += v


def parse_report(path):
    """The Function:file summary: {(label, sublabel or None): [costs]},
    and the events shown."""
    shown, rows, group = [], [], None
    section = header = False
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read().split("\n")
    for line in text:
        if line.startswith("Events shown:"):
            shown = line.split(":", 1)[1].split()
        if line.startswith("-- "):
            section = line.startswith("-- Function:file summary")
            header = section
            continue
        if not section or not line.strip() or line.startswith("---"):
            continue
        if header:  # the column header: the events, "function:file"
            header = False
            continue
        n = len(shown)
        m = re.match(r"([<>]? *)((?:-?[\d,]+ +){%d})(.*)$" % n, line)
        if not m:
            rows.append(("?", line, None))
            continue
        costs = [int(t.replace(",", "")) for t in m.group(2).split()]
        label = m.group(3)
        if line.startswith(">"):
            group = label
            rows.append(("group", label, costs))
        else:
            rows.append(("entry", (group, label), costs))
    return shown, rows


def main():
    prof, report = sys.argv[1], sys.argv[2]
    r = Reader()
    r.read(prof)
    shown, rows = parse_report(report)
    want_fn = defaultdict(lambda: defaultdict(int))
    files_of = defaultdict(set)
    for (fn, fl) in r.pairs:
        files_of[fn].add(fl)
        for ev, v in r.cost[(fn, fl)].items():
            want_fn[fn][ev] += v
    # the rows expected: a group per function name, labelled "name:file"
    # when it has one file, else "name:" with a row per file
    want = {}
    for fn, files in files_of.items():
        if len(files) == 1:
            fl = next(iter(files))
            want[("group", fn + ":" + fl)] = [r.cost[(fn, fl)][e] for e in shown]
        else:
            want[("group", fn + ":")] = [want_fn[fn][e] for e in shown]
            for fl in files:
                want[("entry", fn + ":", fl)] = [r.cost[(fn, fl)][e] for e in shown]
    got = {}
    bad = []
    for kind, label, costs in rows:
        if kind == "?":
            bad.append("unreadable report line: %r" % label)
            continue
        k = ("group", label) if kind == "group" else ("entry", label[0], label[1])
        if k in got:
            bad.append("twice in the report: %r" % (k,))
        got[k] = costs
    for k in sorted(set(want) | set(got), key=repr):
        if want.get(k) != got.get(k):
            bad.append("%r: report %s, file %s" % (k[1:], got.get(k), want.get(k)))
    if bad:
        print("%d differences (events %s):" % (len(bad), " ".join(shown)))
        for b in bad[:20]:
            print("  " + b)
        return 1
    print("ok: %d functions, %d (function, file) pairs, events %s"
          % (len(files_of), len(r.pairs), " ".join(shown)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
