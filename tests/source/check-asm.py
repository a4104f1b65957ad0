#!/usr/bin/env python3
# check-asm.py -- compares cgtui's assembly view (a screen dump) of one
# function with what other tools say about the same binary and profile:
#   objdump -d -l -M intel: the instructions' addresses, mnemonics, direct
#     targets' names and source lines;
#   the profile file itself, read here (its own small reader, not cgtui's):
#     the cost of each instruction, the calls and jumps at each.
# Prints PASS:/FAIL: lines; exit status 1 when something failed.
# SPDX-License-Identifier: GPL-2.0-or-later
import re
import subprocess
import sys

def objdump_lines(binary, fn, *opts):
    """the lines objdump -d -l OPTS prints for fn"""
    out = subprocess.run(["objdump", "-d", "-l", "--no-show-raw-insn", *opts, binary],
                         capture_output=True, text=True, check=True).stdout
    on = False
    for line in out.split("\n"):
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            on = m.group(1) == fn
        elif on:
            yield line

def objdump_fn(binary, fn):
    """{addr: (mnemonic, target name or None, (file base, line))} of fn"""
    ins, where = {}, None
    for line in objdump_lines(binary, fn, "-M", "intel"):
        m = re.match(r"^(/\S*?|\S+?):(\d+)( \(discriminator \d+\))?$", line)
        if m:
            where = (m.group(1).rsplit("/", 1)[-1], int(m.group(2)))
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
        if m:
            # a direct target, not a "# 4060 <data>" comment
            t = re.match(r"^[0-9a-f]+ <([^>]*)>\s*$", m.group(3).split("#")[0].strip())
            ins[int(m.group(1), 16)] = (m.group(2), t.group(1) if t else None, where)
    return ins

def objdump_inlines(binary, fn):
    """{addr: ((name, caller, file base, line), ...) innermost first} of fn,
    from objdump -d -l --inlines ("f():", "inlined by FILE:LINE (caller)")"""
    res, name, chain, block = {}, None, (), []
    for line in objdump_lines(binary, fn, "--inlines"):
        m = re.match(r"^(\S+)\(\):$", line)
        if m:
            name = m.group(1)
            block.append(None)
            continue
        m = re.match(r"^inlined by (\S+):(\d+)(?: \(discriminator \d+\))? \((\S+)\)$", line)
        if m:
            block.append((m.group(1).rsplit("/", 1)[-1], int(m.group(2)), m.group(3)))
            continue
        if re.match(r"^\S+:\d+( \(discriminator \d+\))?$", line):
            block.append(None)
            continue
        m = re.match(r"^\s+([0-9a-f]+):", line)
        if m:
            if block:  # a new position: the chain is what it says
                links = [b for b in block if b]
                c, inner = [], name
                for (f, l, caller) in links:
                    c.append((inner, caller, f, l))
                    inner = caller
                chain = tuple(c)
                block = []
            res[int(m.group(1), 16)] = chain
    return res

def dump_inlines(path):
    """{addr: chain} as the assembly view's inline rows say"""
    res, chain = {}, ()
    for line in open(path):
        line = line.rstrip("\n")
        if re.match(r"^\s+\S+'s own code$", line):
            chain = ()
            continue
        if " inlined into " in line and re.match(r"^\s+\S+ inlined into ", line):
            c = []
            for part in line.strip().split(", "):
                m = re.match(r"^(\S+) inlined into (\S+) at (\S+):(\d+)$", part)
                if m:
                    c.append((m.group(1), m.group(2), m.group(3), int(m.group(4))))
            chain = tuple(c)
            continue
        m = re.match(r"^\s*([\d,]+|\.)(?:\s+\S+%)?\s+([0-9a-f]+): ", line)
        if m:
            res[int(m.group(2), 16)] = chain
    return res

def profile_fn(path, fn, obj):
    """self cost per address, calls {(addr, callee): count}, jumps
    {(addr, target): (cond, executed, taken)} of fn in obj"""
    names = {"ob": {}, "fl": {}, "fn": {}}
    ns_of = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl",
             "cfl": "fl", "jfi": "fl", "fn": "fn", "cfn": "fn", "jfn": "fn"}

    def name(key, val):
        ns = names[ns_of[key]]
        m = re.match(r"^\((\d+)\)(?: (.*))?$", val)
        if not m:
            return val
        if m.group(2) is not None:
            ns[m.group(1)] = m.group(2)
        return ns[m.group(1)]

    cost, calls, jumps = {}, {}, {}
    callcost = profile_fn.callcost = {}  # {(addr, callee): inclusive cost}
    cur_ob = cur_fn = cfn = None
    last = [0, 0]
    pending = None
    npos = 1
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("positions:"):
            npos = len(line.split()[1:])
            continue
        m = re.match(r"^(\w+)=(.*)$", line)
        if m:
            k, v = m.group(1), m.group(2)
            if k == "ob":
                cur_ob = name(k, v)
            elif k == "fn":
                cur_fn = name(k, v)
            elif k == "cfn":
                cfn = name(k, v)
            elif k in ns_of:
                name(k, v)
            elif k == "calls":
                p = v.split()
                pending = ("call", int(p[0]))
            elif k in ("jump", "jcnd"):
                p = v.split()
                if k == "jcnd":
                    taken, exe = (int(x) for x in p[0].split("/"))
                else:
                    taken = exe = int(p[0])
                t = p[1]
                taddr = int(t, 16) if t.startswith("0x") else last[0] + int(t) if t[0] in "+-" \
                    else last[0] if t == "*" else int(t)
                pending = ("jump", k == "jcnd", exe, taken, taddr)
            continue
        if not line or not (line[0].isdigit() or line[0] in "+-*"):
            continue
        f = line.split()
        pos = []
        for k in range(npos):
            s = f[k]
            v = int(s, 16) if s.startswith("0x") else last[k] + int(s) if s[0] in "+-" \
                else last[k] if s == "*" else int(s)
            pos.append(v)
        last[:npos] = pos
        mine = cur_fn == fn and cur_ob == obj
        vals = [int(x) for x in f[npos:]]
        if pending and pending[0] == "call":
            if mine:
                key = (pos[0], cfn)
                calls[key] = calls.get(key, 0) + pending[1]
                callcost[key] = callcost.get(key, 0) + int(f[npos])
            pending = None
            continue
        if pending and pending[0] == "jump":
            if mine:
                key = (pos[0], pending[4])
                c, e, t = jumps.get(key, (pending[1], 0, 0))
                jumps[key] = (c, e + pending[2], t + pending[3])
            pending = None
        if mine and vals:
            cost[pos[0]] = cost.get(pos[0], 0) + vals[0]
    return cost, calls, jumps

def dump_rows(path):
    """instructions {addr: (cost, text)}, the source line in force for each,
    calls {(addr, callee): count}, jumps {(addr, target): (cond, exe, taken)}"""
    ins, where, calls, jumps = {}, {}, {}, {}
    cur, src = None, None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"^\s*([\d,]+|\.)(?:\s+\S+%)?\s+([0-9a-f]+): (.*)$", line)
        if m:
            cur = int(m.group(2), 16)
            c = 0 if m.group(1) == "." else int(m.group(1).replace(",", ""))
            ins[cur] = (c, m.group(3))
            where[cur] = src
            continue
        m = re.search(r"=> (.*) \((\d+)x\)$", line)
        if m and cur is not None:
            calls[(cur, m.group(1))] = int(m.group(2))
            continue
        m = re.search(r"-> 0x([0-9a-f]+): jcnd taken (\d+) of (\d+)$", line)
        if m and cur is not None:
            jumps[(cur, int(m.group(1), 16))] = (True, int(m.group(3)), int(m.group(2)))
            continue
        m = re.search(r"-> 0x([0-9a-f]+): jump (\d+)x$", line)
        if m and cur is not None:
            jumps[(cur, int(m.group(1), 16))] = (False, int(m.group(2)), int(m.group(2)))
            continue
        m = re.match(r"^\s+([^\s:]+):(\d+)  ", line)
        if m:
            src = (m.group(1), int(m.group(2)))
    return ins, where, calls, jumps

# capstone and objdump spell a few mnemonics differently
ALIAS = {"movabs": "mov", "ret": "ret", "retq": "ret", "cdqe": "cdqe", "nop": "nop"}

def calls_shown(dump, prof, fn, obj, label):
    """the view of fn at the default threshold (0.1% of the profile's
    total): every call costing that much is shown, however little its
    instruction costs itself"""
    total = 0
    for line in open(prof):
        if line.startswith("totals:") or line.startswith("summary:"):
            total = int(line.split()[1])
    profile_fn(prof, fn, obj)
    want = {c for (a, c), v in profile_fn.callcost.items() if v * 1000 >= total}
    got = set(dump_rows(dump)[2])
    missing = sorted(c for c in want if not any(g[1] == c for g in got))
    ok = bool(want) and not missing
    print(("PASS: " if ok else "FAIL: ") + label + ": at the 0.1%% threshold, the %d calls "
          "costing 0.1%% of the total or more are shown (%s)" % (len(want), ", ".join(sorted(want))))
    if not ok:
        print("  missing: %s" % missing)
    return 0 if ok else 1

def stripped(dump, binary, fn, prof, obj, label):
    """the view of fn in a stripped copy of binary (obj in the profile): the
    code from the first recorded address to the last, as objdump shows it
    in the unstripped binary, with the profile's costs"""
    od = objdump_fn(binary, fn)
    ins = dump_rows(dump)[0]
    cost = profile_fn(prof, fn, obj)[0]
    ok = bool(cost)
    want = {a: v for a, v in od.items() if cost and min(cost) <= a <= max(cost)}
    bad = [hex(a) for a in sorted(set(ins) ^ set(want))][:5]
    bad += ["%x: %s, objdump %s" % (a, ins[a][1], want[a][0]) for a in want if a in ins and
            ALIAS.get(ins[a][1].split()[0], ins[a][1].split()[0]) !=
            ALIAS.get(want[a][0], want[a][0])][:5]
    bad += ["%x: profile %d, ours %d" % (a, cost.get(a, 0), ins[a][0]) for a in ins
            if cost.get(a, 0) != ins[a][0]][:5]
    ok = ok and not bad
    print(("PASS: " if ok else "FAIL: ") + label +
          ": stripped: the %d instructions from the first recorded address to the last "
          "as objdump -d of the unstripped object, costs as the profile's" % len(want))
    if not ok:
        print("  differ: %s" % bad)
    return 0 if ok else 1

def main():
    if sys.argv[1] == "--hottest":
        cost = profile_fn(sys.argv[2], sys.argv[3], sys.argv[4])[0]
        best = max(cost.values())
        print("%x" % min(a for a, c in cost.items() if c == best))
        return 0
    if sys.argv[1] == "--calls-shown":
        return calls_shown(*sys.argv[2:7])
    if sys.argv[1] == "--stripped":
        return stripped(*sys.argv[2:8])
    dump, binary, fn, prof, obj, label = sys.argv[1:7]
    fails = 0

    def check(ok, what, detail=""):
        nonlocal fails
        print(("PASS: " if ok else "FAIL: ") + label + ": " + what)
        if not ok:
            fails += 1
            if detail:
                print("  " + detail)

    od = objdump_fn(binary, fn)
    # objdump shows the padding after a function up to the next symbol; the
    # function is what nm -S says (start and size)
    nm = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True,
                        check=True).stdout
    for line in nm.split("\n"):
        f = line.split()
        if len(f) == 4 and f[2] in "tT" and f[3] == fn:
            lo, size = int(f[0], 16), int(f[1], 16)
            od = {a: v for a, v in od.items() if lo <= a < lo + size}
    inside = set(od)
    ins, where, calls, jumps = dump_rows(dump)
    check(od and sorted(ins) == sorted(od), "instruction addresses as objdump -d (%d)" % len(od),
          "only ours: %s; only objdump's: %s" % (
              [hex(a) for a in sorted(set(ins) - set(od))][:5],
              [hex(a) for a in sorted(set(od) - set(ins))][:5]))
    bad = [hex(a) for a in od if a in ins and
           ALIAS.get(ins[a][1].split()[0], ins[a][1].split()[0]) != ALIAS.get(od[a][0], od[a][0])]
    check(not bad, "mnemonics as objdump -M intel", "differ at %s" % bad[:5])
    bad = []
    for a, (mn, tgt, _) in od.items():
        ours = re.search(r"<([^>]*)>$", ins.get(a, (0, ""))[1])
        if tgt and (not ours or ours.group(1) != tgt):
            bad.append("%x: objdump <%s>, ours %s" % (a, tgt, ours.group(1) if ours else None))
    ntgt = sum(1 for v in od.values() if v[1])
    check(ntgt and not bad, "call and jump targets named as objdump (%d)" % ntgt, "; ".join(bad[:4]))
    bad = ["%x: objdump %s, ours %s" % (a, od[a][2], where.get(a)) for a in od
           if a in where and od[a][2] != where[a]]
    check(not bad, "source lines between the instructions as objdump -l", "; ".join(bad[:4]))

    cost, pcalls, pjumps = profile_fn(prof, fn, obj)
    bad = ["%x: profile %d, ours %d" % (a, cost.get(a, 0), ins[a][0]) for a in ins
           if cost.get(a, 0) != ins[a][0]]
    check(cost and not bad and set(cost) <= set(ins),
          "per-instruction costs as the profile's lines (%d addresses, %d in all)" %
          (len(cost), sum(cost.values())), "; ".join(bad[:4]))
    # calls: ours name the callee as the profile does
    check(pcalls == calls, "calls per instruction as the profile's (%d)" % len(pcalls),
          "profile %s, ours %s" % (sorted(pcalls.items())[:4], sorted(calls.items())[:4]))
    check(pjumps == jumps, "jump=/jcnd= per instruction as the profile's (%d)" % len(pjumps),
          "profile %s, ours %s" % (sorted(pjumps.items())[:4], sorted(jumps.items())[:4]))
    oi = {a: c for a, c in objdump_inlines(binary, fn).items() if a in inside}
    di = dump_inlines(dump)
    bad = ["%x: objdump %s, ours %s" % (a, oi[a], di.get(a)) for a in sorted(oi)
           if di.get(a) != oi[a]]
    ninl = sum(1 for c in oi.values() if c)
    check(not bad, "inline chains as objdump -d -l --inlines (%d inlined instructions)" % ninl,
          "; ".join(bad[:3]))
    # the cost of each inlined function: the profile's costs of its instructions
    want = {}
    for a, c in oi.items():
        for nm in {x[0] for x in c}:
            want[nm] = want.get(nm, 0) + cost.get(a, 0)
    got = {}
    for line in open(dump):
        m = re.match(r"^\s+inlined (\S+): ([\d,]+) ", line)
        if m:
            got[m.group(1)] = int(m.group(2).replace(",", ""))
    check(got == want, "cost of each inlined function as the profile's lines of its instructions",
          "want %s, ours %s" % (want, got))
    return 1 if fails else 0

sys.exit(main())
