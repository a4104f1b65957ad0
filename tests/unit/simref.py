#!/usr/bin/env python3
# simref.py -- a reference cache simulator for src/sim, written for the
# tests from the rules in src/sim/README.md ("Models beyond cachegrind's"),
# not from the C code.  It reads the same model format, generates access
# traces, runs tests/unit/sim-trace on them and compares every access's
# result and every level's counts of write-backs and prefetches.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# It also checks src/sim/mrc.c (reuse distances with SHARDS sampling,
# through tests/unit/sim-mrc) against distances counted here in the plain
# way (the position of the line in a list of lines, most recent first),
# and that 1% sampling stays within 0.01 mean absolute error of the exact
# miss-ratio curve.
#
# Usage: simref.py SIM_TRACE [SIM_MRC] [--seed N] [--random N]
# Prints TAP ("ok N - ...", "not ok N - ...") and exits 1 on a failure.

import os
import random
import subprocess
import sys
import tempfile

INVALID = None          # an emptied way
RRPV_MAX = 3
SEED = 2463534242
MASK32 = 0xffffffff


def parse_size(s):
    mult = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
    if s[-1:].upper() in mult:
        return int(s[:-1]) * mult[s[-1].upper()]
    return int(s)


class Level:
    def __init__(self, name, number, side, size, assoc, line, policy='lru',
                 inclusion='nine', write='none', prefetch='none'):
        self.name, self.number, self.side = name, number, side
        self.assoc, self.line = assoc, line
        self.nsets = size // line // assoc
        self.policy, self.inclusion, self.write = policy, inclusion, write
        self.next_line = prefetch in ('next', 'next+stride')
        self.stride_pf = prefetch in ('stride', 'next+stride')
        if policy == 'plru' and (assoc & (assoc - 1) or assoc > 64):
            self.policy = 'lru'
        self.below = None        # the next Level
        self.above = []          # Levels whose chain passes through this one
        self.reset()

    def reset(self):
        # a way: [block, dirty]; every way starts holding block 0, clean
        self.sets = [[[0, False] for _ in range(self.assoc)] for _ in range(self.nsets)]
        # PLRU: per set, a dict node -> 0 (victim on the left) / 1 (right)
        self.tree = [dict() for _ in range(self.nsets)]
        self.rrpv = [[RRPV_MAX] * self.assoc for _ in range(self.nsets)]
        self.rng = SEED
        self.nfills = 0
        self.strides = {}        # index -> [pc, last, stride, conf]
        self.writebacks = 0
        self.prefetches = 0

    def block(self, addr):
        return addr // self.line

    def set_of(self, blk):
        return self.sets[blk % self.nsets], blk % self.nsets

    # ---- the policies ----
    def lookup(self, blk):
        ways, _ = self.set_of(blk)
        for i, w in enumerate(ways):
            if w[0] == blk:
                return i
        return None

    def plru_point_away(self, si, way):
        node = self.assoc + way
        while node > 1:
            parent = node // 2
            # coming up from the left child: the victim is to the right
            self.tree[si][parent] = 1 if node == 2 * parent else 0
            node = parent

    def plru_victim(self, si):
        node = 1
        while node < self.assoc:
            node = 2 * node + self.tree[si].get(node, 0)
        return node - self.assoc

    def on_hit(self, si, way):
        ways = self.sets[si]
        if self.policy == 'lru':
            ways.insert(0, ways.pop(way))
        elif self.policy == 'plru':
            self.plru_point_away(si, way)
        elif self.policy in ('srrip', 'brrip'):
            self.rrpv[si][way] = 0

    def fill(self, blk, dirty):
        """puts blk in its set; returns the line it replaced ([block, dirty])
        or None for an empty way"""
        ways, si = self.set_of(blk)
        if self.policy in ('lru', 'fifo'):
            ways.insert(0, [blk, dirty])
            old = ways.pop()
            return None if old[0] is INVALID else old
        empty = [i for i, w in enumerate(ways) if w[0] is INVALID]
        if empty:
            way = empty[0]
        elif self.policy == 'plru':
            way = self.plru_victim(si)
        elif self.policy == 'random':
            x = self.rng
            x ^= (x << 13) & MASK32
            x ^= x >> 17
            x ^= (x << 5) & MASK32
            self.rng = x
            way = x % self.assoc
        else:
            r = self.rrpv[si]
            while RRPV_MAX not in r:
                for i in range(self.assoc):
                    r[i] += 1
            way = r.index(RRPV_MAX)
        old = ways[way]
        ways[way] = [blk, dirty]
        if self.policy == 'plru':
            self.plru_point_away(si, way)
        elif self.policy == 'srrip':
            self.rrpv[si][way] = RRPV_MAX - 1
        elif self.policy == 'brrip':
            self.rrpv[si][way] = RRPV_MAX - 1 if self.nfills % 32 == 0 else RRPV_MAX
            self.nfills += 1
        return None if empty else old

    def invalidate(self, si, way):
        ways = self.sets[si]
        old = ways[way]
        if self.policy in ('lru', 'fifo'):
            ways.pop(way)
            ways.append([INVALID, False])
        else:
            ways[way] = [INVALID, False]
            self.rrpv[si][way] = RRPV_MAX
        return old

    def train(self, pc, addr):
        e = self.strides.get(pc % 64)
        if e is None or e[0] != pc:
            self.strides[pc % 64] = [pc, addr, 0, 0]
            return None
        d = addr - e[1]
        if d != 0 and d == e[2]:
            e[3] = min(e[3] + 1, 3)
        else:
            e[2], e[3] = d, 0
        e[1] = addr
        return addr + e[2] if e[3] >= 1 else None


class Model:
    def __init__(self, text):
        self.levels = {}
        for raw in text.splitlines():
            line = raw.split('#')[0].strip()
            if not line or '=' in line.split(':')[0]:
                continue
            head, rest = line.split(':', 1)
            kv = dict(x.split('=') for x in rest.split())
            name = {'I1': 'L1I', 'D1': 'L1D'}.get(head, head)
            number = int(name[1])
            side = name[2:] or 'U'
            self.levels[name] = Level(name, number, side, parse_size(kv['size']),
                                      parse_size(kv['assoc']), parse_size(kv['line']),
                                      kv.get('policy', 'lru'), kv.get('inclusion', 'nine'),
                                      kv.get('write', 'none'), kv.get('prefetch', 'none'))
        order = sorted(self.levels.values(),
                       key=lambda l: (l.number, {'U': 0, 'I': 1, 'D': 2}[l.side]))
        self.order = order

        def side_at(n, side):
            return self.levels.get('L%d' % n) or self.levels.get('L%d%s' % (n, side))
        for l in order:
            l.below = self.levels.get('L%d' % (l.number + 1)) or (
                self.levels.get('L%d%s' % (l.number + 1, l.side)) if l.side != 'U' else None)
        for l in order:
            b = l.below
            while b:
                b.above.append(l)
                b = b.below
        self.ientry = side_at(1, 'I')
        self.dentry = side_at(1, 'D')

    # ---- the rules ----
    def evict(self, lvl, victim):
        if victim is None:
            return False
        blk, dirty = victim
        start, end = blk * lvl.line, (blk + 1) * lvl.line
        if lvl.inclusion == 'inclusive':
            for up in lvl.above:
                for b in range(up.block(start), up.block(end - 1) + 1):
                    w = up.lookup(b)
                    if w is not None:
                        if up.invalidate(b % up.nsets, w)[1]:
                            dirty = True
        if dirty:
            lvl.writebacks += 1
        nxt = lvl.below
        if nxt and (dirty or nxt.inclusion == 'exclusive'):
            self.put(nxt, start, dirty)
        return dirty

    def put(self, lvl, addr, dirty):
        blk = lvl.block(addr)
        w = lvl.lookup(blk)
        keep = dirty and lvl.write == 'back'
        if w is not None:
            ways, si = lvl.set_of(blk)
            if keep:
                ways[w][1] = True
            lvl.on_hit(si, w)
        else:
            self.evict(lvl, lvl.fill(blk, keep))
        if dirty and lvl.write == 'through' and lvl.below:
            self.put(lvl.below, addr, True)

    def walk(self, lvl, addr, size, kind, pc, demand, queue):
        depth, dirty_bits = 0, 0
        writing = kind == 'W'
        filler = None
        while lvl:
            first = lvl.block(addr)
            last = lvl.block(addr + max(size, 1) - 1)
            exclusive = lvl.inclusion == 'exclusive' and depth > 0
            missed, dirty = False, False
            for b in range(first, last + 1):
                ways, si = lvl.set_of(b)
                w = lvl.lookup(b)
                if w is not None:
                    if not demand and depth == 0:
                        continue          # a prefetch of a present line
                    if exclusive:
                        moved = lvl.invalidate(si, w)
                        if moved[1]:
                            ub = filler.block(b * lvl.line)
                            uw = filler.lookup(ub)
                            if filler.write == 'back' and uw is not None:
                                filler.set_of(ub)[0][uw][1] = True
                            else:
                                lvl.writebacks += 1
                                if lvl.below:
                                    self.put(lvl.below, b * lvl.line, True)
                        continue
                    if writing and lvl.write == 'back':
                        ways[w][1] = True
                    lvl.on_hit(si, w)
                else:
                    missed = True
                    if not exclusive:
                        v = lvl.fill(b, writing and lvl.write == 'back')
                        if self.evict(lvl, v):
                            dirty = True
            if not exclusive:
                filler = lvl
            if demand and lvl.stride_pf and kind != 'F':
                t = lvl.train(pc, addr)
                if t is not None:
                    queue.append((lvl, t))
            if not missed:
                if writing and lvl.write == 'through' and lvl.below:
                    for b in range(first, last + 1):
                        self.put(lvl.below, b * lvl.line, True)
                break
            if dirty:
                dirty_bits |= 1 << depth
            depth += 1
            if demand and lvl.next_line:
                queue.append((lvl, (last + 1) * lvl.line))
            if lvl.write == 'back':
                writing = False
            lvl = lvl.below
        return depth, dirty_bits

    def access(self, kind, addr, size, pc):
        queue = []
        res = self.walk(self.ientry if kind == 'F' else self.dentry, addr, size, kind, pc,
                        True, queue)
        for lvl, a in queue:
            if self.walk(lvl, a, 1, 'R', 0, False, None)[0]:
                lvl.prefetches += 1
        return res


# ---- traces and models ------------------------------------------------------

def gen_trace(rng, n, span_blocks, line):
    """n accesses: random ones in a working set, strided loops per pc,
    sequential scans, straddling accesses, fetches, reads, writes"""
    out = []
    base = 0x10000
    loops = [(0x400 + 7 * i, base + rng.randrange(span_blocks) * line,
              rng.choice([8, 16, 24, 40, 64, 72, 128, -32, -64])) for i in range(6)]
    pos = {pc: a for pc, a, _ in loops}
    while len(out) < n:
        mode = rng.random()
        if mode < 0.35:
            pc, _, st = rng.choice(loops)
            for _ in range(rng.randrange(3, 12)):
                pos[pc] += st
                a = pos[pc]
                if a < base or a > base + span_blocks * line * 2:
                    pos[pc] = a = base + rng.randrange(span_blocks) * line
                out.append((rng.choice('RRW'), a, rng.choice([1, 4, 8]), pc))
        elif mode < 0.5:
            a = base + rng.randrange(span_blocks) * line
            for k in range(rng.randrange(4, 16)):
                out.append(('F', a + 4 * k, rng.choice([1, 2, 3, 5, 7, 15]), a + 4 * k))
        elif mode < 0.6:
            a = base + rng.randrange(span_blocks * line)
            for k in range(rng.randrange(4, 20)):
                out.append(('W', a + 8 * k, 8, 0x900))
        else:
            a = base + rng.randrange(span_blocks * line)
            out.append((rng.choice('RRRWF'), a, rng.choice([1, 2, 4, 8, 16, 32]),
                        0x500 + rng.randrange(40) * 3))
    # block 0 of the start state, once in a while
    out.insert(n // 2, ('R', 0, 8, 0x777))
    return out[:n]


FIXED = [
    ('cachegrind-shape', '''L1I: size=256 assoc=2 line=16
L1D: size=256 assoc=2 line=16
L2: size=1K assoc=4 line=32
'''),
    ('plru-fifo-random', '''L1I: size=256 assoc=4 line=16 policy=fifo
L1D: size=512 assoc=4 line=16 policy=plru
L2: size=2K assoc=8 line=32 policy=random
'''),
    ('rrip', '''L1: size=512 assoc=4 line=16 policy=srrip
L2: size=2K assoc=8 line=16 policy=brrip
'''),
    ('inclusive-wb', '''L1I: size=256 assoc=2 line=16
L1D: size=256 assoc=2 line=16 write=back
L2: size=1K assoc=4 line=32 inclusion=inclusive write=back policy=plru
L3: size=4K assoc=4 line=64 inclusion=inclusive write=back
'''),
    ('exclusive', '''L1D: size=256 assoc=2 line=16 write=back
L1I: size=256 assoc=2 line=16
L2: size=512 assoc=4 line=16 inclusion=exclusive write=back
L3: size=2K assoc=8 line=32 inclusion=exclusive policy=srrip
'''),
    ('callgrind-wb', '''L1I: size=256 assoc=2 line=16
L1D: size=256 assoc=2 line=16 write=through
L2: size=1K assoc=4 line=16 write=back
'''),
    ('prefetch', '''L1I: size=256 assoc=2 line=16 prefetch=next
L1D: size=512 assoc=2 line=16 prefetch=next+stride write=back
L2: size=2K assoc=4 line=32 prefetch=stride policy=plru write=back
L3: size=8K assoc=8 line=64 prefetch=next inclusion=inclusive
'''),
    ('four-levels', '''L1I: size=256 assoc=1 line=16 policy=random
L1D: size=256 assoc=4 line=16 policy=brrip write=through
L2I: size=512 assoc=2 line=32
L2D: size=512 assoc=2 line=32 write=back inclusion=inclusive
L3: size=2K assoc=4 line=32 write=back prefetch=next
L4: size=8K assoc=8 line=64 inclusion=exclusive write=back
'''),
]


def random_model(rng):
    n = rng.randint(1, 4)
    lines, text, line = [], '', 16
    for num in range(1, n + 1):
        line = min(64, line * rng.choice([1, 1, 2]))
        split = num == 1 and rng.random() < 0.7
        sides = ['I', 'D'] if split else ['']
        for side in sides:
            assoc = rng.choice([1, 2, 3, 4, 8])
            sets = rng.choice([1, 2, 4, 8]) * (2 ** (num - 1))
            if sets * assoc < 2:
                sets = 2
            policy = rng.choice(['lru', 'plru', 'fifo', 'random', 'srrip', 'brrip'])
            incl = rng.choice(['nine', 'inclusive', 'exclusive']) if num > 1 else 'nine'
            write = rng.choice(['none', 'back', 'through'])
            pf = rng.choice(['none', 'next', 'stride', 'next+stride'])
            if incl == 'exclusive':
                pf = 'none'
            text += 'L%d%s: size=%d assoc=%d line=%d policy=%s inclusion=%s write=%s prefetch=%s\n' % (
                num, side, sets * assoc * line, assoc, line, policy, incl, write, pf)
    return text


# ---- reuse distances (mrc.h) --------------------------------------------------

MRC_ONE = 1 << 24
COLD = 1 + 4 * 48


def mrc_hash(line):
    return ((line * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)) >> 40


def mrc_bucket(d):
    """four buckets per power of two: 1 + 4k + the two bits after the top"""
    if d == 0:
        return 0
    k = d.bit_length() - 1
    if k > 47:
        return 1 + 4 * 47 + 3
    if k == 0:
        return 1
    if k == 1:
        return 5 if d == 2 else 7
    return 1 + 4 * k + ((d >> (k - 2)) & 3)


def mrc_reference(addrs, threshold, max_lines, bits):
    """per access (bucket, weight) or None, and the final threshold"""
    recent = []            # sampled lines remembered, most recent first
    out = []
    for a in addrs:
        line = a >> bits
        if mrc_hash(line) >= threshold:
            out.append(None)
            continue
        if line in recent:
            d = recent.index(line)
            recent.pop(d)
            recent.insert(0, line)
            out.append((mrc_bucket(d * MRC_ONE // threshold), (1 << 16) * MRC_ONE // threshold))
            continue
        if len(recent) == max_lines:
            while len(recent) == max_lines and threshold > 1:
                threshold //= 2
                recent = [l for l in recent if mrc_hash(l) < threshold]
            if mrc_hash(line) >= threshold or len(recent) == max_lines:
                out.append(None)
                continue
        recent.insert(0, line)
        out.append((COLD, (1 << 16) * MRC_ONE // threshold))
    return out, threshold


def gen_addresses(rng, n, nlines):
    out, base = [], 0x7f0000000000
    while len(out) < n:
        mode = rng.random()
        if mode < 0.3:       # a loop over an array
            start = rng.randrange(nlines) * 64
            step = rng.choice([8, 64, 200])
            for k in range(rng.randrange(20, 200)):
                out.append(base + (start + k * step) % (nlines * 64))
        elif mode < 0.5:     # a hot set
            for _ in range(rng.randrange(10, 50)):
                out.append(base + rng.randrange(min(nlines, 40)) * 64 + rng.randrange(64))
        else:                # anywhere, skewed
            out.append(base + int(nlines * rng.random() ** 2) * 64 + rng.randrange(64))
    return out[:n]


def run_mrc(tool, tmp, addrs, threshold, max_lines, bits, verbose):
    path = os.path.join(tmp, 'addrs')
    with open(path, 'w') as f:
        f.write(''.join('%x\n' % a for a in addrs))
    args = [tool] + (['-v'] if verbose else []) + [str(threshold), str(max_lines), str(bits), path]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError('sim-mrc failed: ' + run.stderr)
    lines = run.stdout.splitlines()
    per, curve = [], {}
    for l in lines:
        w = l.split()
        if w[0] == 'misses':
            curve[int(w[1])] = int(w[2])
        elif w[0] == 'total':
            curve['total'] = int(w[1])
        elif w[0] == 'threshold':
            curve['threshold'] = int(w[1])
        else:
            per.append(None if w[0] == '-' else (int(w[0]), int(w[1])))
    return per, curve


def mrc_checks(tool, rng, tmp, start):
    """TAP lines for mrc.c; returns (lines, failures)"""
    out, failed, num = [], 0, start
    cases = [
        ('exact', MRC_ONE, 100000, 6, 8000, 900),
        ('a quarter of the lines', MRC_ONE // 4, 100000, 6, 12000, 1500),
        ('fixed size: 64 lines remembered', MRC_ONE, 64, 6, 10000, 1200),
        ('fixed size, 32 B lines', MRC_ONE // 2, 40, 5, 10000, 1600),
    ]
    for name, thr, maxl, bits, n, nlines in cases:
        num += 1
        addrs = gen_addresses(rng, n, nlines)
        want, want_thr = mrc_reference(addrs, thr, maxl, bits)
        got, curve = run_mrc(tool, tmp, addrs, thr, maxl, bits, True)
        bad = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), None)
        if bad is None and (len(got) != len(want) or curve['threshold'] != want_thr):
            bad = -1
        sampled = sum(1 for w in want if w)
        if bad is None:
            out.append('ok %d - reuse distances, %s: %d accesses equal (%d sampled, threshold %d)' % (
                num, name, n, sampled, want_thr))
        else:
            failed += 1
            out.append('not ok %d - reuse distances, %s: access %d: sim-mrc %r, reference %r '
                       '(threshold %d, reference %d)' % (
                           num, name, bad + 1, got[bad] if bad >= 0 else None,
                           want[bad] if bad >= 0 else None, curve['threshold'], want_thr))
    # 1% sampling (and a bounded memory) against the exact curve: mean
    # absolute error at 8 sizes: at 1%, from 2^10 lines (64 KB: a sampled
    # distance of 1 stands for 100 lines, smaller sizes are not resolved;
    # 300,000 lines give only 3,000 samples, so 2^9 is the noisiest: 0.013),
    # with 8192 lines from 2^4 (1 KB) to 2^18 (16 MB)
    addrs = gen_addresses(rng, 1500000, 300000)
    _, exact = run_mrc(tool, tmp, addrs, MRC_ONE, 400000, 6, False)
    for name, thr, maxl, sizes in (('1% of the lines', MRC_ONE // 100, 400000, range(10, 18)),
                                   ('fixed size, 8192 lines', MRC_ONE, 8192, range(4, 19, 2))):
        num += 1
        _, got = run_mrc(tool, tmp, addrs, thr, maxl, 6, False)
        errs = [abs(got[k] / got['total'] - exact[k] / exact['total']) for k in sizes]
        mae = sum(errs) / len(errs)
        line = 'miss-ratio curve, %s: mean absolute error %.4f at 2^%d .. 2^%d lines (exact %s)' % (
            name, mae, sizes[0], sizes[-1], ' '.join('%.3f' % (exact[k] / exact['total']) for k in sizes))
        if mae < 0.01:
            out.append('ok %d - %s' % (num, line))
        else:
            failed += 1
            out.append('not ok %d - %s' % (num, line))
    return out, failed, num


# ---- line utilisation (src/sim/use.h), from its rules ----------------------

def use_reference(trace, size, assoc, line):
    """Per access: (missed, [(owner, fetched, used) evicted]); then the
    flush's reports.  Sets: lists of [block, set of bytes used, owner], the
    most recent first, all block 0 and owned by nobody at the start."""
    nsets = size // line // assoc
    part = line // 64 if line > 64 else 1
    sets = [[[0, set(), None] for _ in range(assoc)] for _ in range(nsets)]
    out = []
    for owner, a, sz in trace:
        last = a + max(sz, 1) - 1
        missed, gone = 0, []
        for blk in range(a // line, last // line + 1):
            ways = sets[blk % nsets]
            hit = next((w for w in ways if w[0] == blk), None)
            if hit is None:
                missed = 1
                old = ways.pop()
                if old[2] is not None:
                    gone.append((old[2], line, len(old[1]) * part))
                hit = [blk, set(), owner]
            else:
                ways.remove(hit)
            for b in range(max(a, blk * line), min(last, blk * line + line - 1) + 1):
                hit[1].add((b - blk * line) // part)
            ways.insert(0, hit)
        out.append((missed, gone))
    flush = [(w[2], line, len(w[1]) * part) for ways in sets for w in ways if w[2] is not None]
    return out, flush


def use_checks(tool, rng, tmp, start):
    """TAP lines for use.c against use_reference on generated traces"""
    out, failed, num = [], 0, start
    for size, assoc, line in ((1024, 2, 16), (4096, 4, 64), (2048, 1, 32), (8192, 8, 128),
                              (32768, 8, 64)):
        num += 1
        trace = []
        for a in gen_addresses(rng, 20000, 4 * size // line):
            trace.append((rng.randrange(1, 40), a - rng.randrange(4), rng.choice([0, 1, 2, 4, 8, 16])))
        path = os.path.join(tmp, 'uses')
        with open(path, 'w') as f:
            f.write(''.join('%d %x %d\n' % t for t in trace))
        run = subprocess.run([tool, str(size), str(assoc), str(line), path], capture_output=True,
                             text=True)
        want, flush = use_reference(trace, size, assoc, line)
        exp = []
        for missed, gone in want:
            exp.append('%d' % missed)
            exp += ['  %d %d %d' % g for g in gone]
        exp.append('flush')
        exp += ['  %d %d %d' % g for g in flush]
        got = run.stdout.splitlines()
        bad = next((i for i, (g, w) in enumerate(zip(got, exp)) if g != w), None)
        if bad is None and len(got) != len(exp):
            bad = min(len(got), len(exp))
        fetched = sum(g[1] for _, gone in want for g in gone) + sum(g[1] for g in flush)
        used = sum(g[2] for _, gone in want for g in gone) + sum(g[2] for g in flush)
        name = 'line use, %d B %d-way %d B lines' % (size, assoc, line)
        if run.returncode == 0 and bad is None:
            out.append('ok %d - %s: %d accesses equal (%d bytes fetched, %d used)' % (
                num, name, len(trace), fetched, used))
        else:
            failed += 1
            out.append('not ok %d - %s: line %s: sim-use %r, reference %r %s' % (
                num, name, bad, got[bad] if bad is not None and bad < len(got) else None,
                exp[bad] if bad is not None and bad < len(exp) else None, run.stderr.strip()))
    return out, failed, num


def main():
    args = sys.argv[1:]
    if not args:
        print('usage: simref.py SIM_TRACE [--seed N] [--random N]', file=sys.stderr)
        return 2
    tool = args[0]
    mrc_tool = args[1] if len(args) > 1 and not args[1].startswith('--') else None
    use_tool = args[2] if len(args) > 2 and not args[2].startswith('--') else None
    seed, nrandom = 1, 40
    if '--seed' in args:
        seed = int(args[args.index('--seed') + 1])
    if '--random' in args:
        nrandom = int(args[args.index('--random') + 1])
    rng = random.Random(seed)
    cases = list(FIXED) + [('random-%d' % i, random_model(rng)) for i in range(nrandom)]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for num, (name, text) in enumerate(cases, 1):
            model = Model(text)
            trace = gen_trace(rng, 6000 if name.startswith('random') else 20000, 160, 16)
            mpath, tpath = os.path.join(tmp, 'model'), os.path.join(tmp, 'trace')
            with open(mpath, 'w') as f:
                f.write(text)
            with open(tpath, 'w') as f:
                for k, a, s, pc in trace:
                    f.write('%s %x %d %x\n' % (k, a, s, pc))
            run = subprocess.run([tool, mpath, tpath], capture_output=True, text=True)
            if run.returncode != 0:
                print('not ok %d - %s: sim-trace failed: %s' % (num, name, run.stderr.strip()))
                failed += 1
                continue
            got = run.stdout.splitlines()
            want = []
            misses = [0, 0, 0, 0, 0]
            for k, a, s, pc in trace:
                depth, dirty = model.access(k, a, s, pc)
                misses[min(depth, 4)] += 1
                want.append('%d %d' % (depth, dirty))
            for i, l in enumerate(model.order):
                want.append('level %d writebacks %d prefetches %d' % (i, l.writebacks, l.prefetches))
            bad = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), None)
            if bad is None and len(got) != len(want):
                bad = min(len(got), len(want))
            if bad is None:
                print('ok %d - %s: %d accesses equal (misses by depth %s)' % (
                    num, name, len(trace), misses))
            else:
                failed += 1
                what = trace[bad] if bad < len(trace) else 'the counts'
                print('not ok %d - %s: line %d (%s): sim-trace %r, reference %r' % (
                    num, name, bad + 1, what, got[bad] if bad < len(got) else None,
                    want[bad] if bad < len(want) else None))
                print('# model:\n# ' + text.replace('\n', '\n# '))
        total = len(cases)
        if mrc_tool:
            lines, f, total = mrc_checks(mrc_tool, rng, tmp, len(cases))
            failed += f
            for l in lines:
                print(l)
        if use_tool:
            lines, f, total = use_checks(use_tool, rng, tmp, total)
            failed += f
            for l in lines:
                print(l)
    print('1..%d' % total)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
