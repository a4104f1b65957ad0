#!/usr/bin/env python3
# check-picture.py DUMP EXPECTED -- reads a screen of the call graph or the
# call map as a person would, and checks it against numbers worked out by
# hand (EXPECTED):
#
#  call graph (EXPECTED ends in .graph): the boxes (a frame of box-drawing
#  characters, the name on its first line, the cost on its second), and the
#  lines between them, each followed cell by cell from a port on a box's
#  bottom border (a T) down to a port on another box's top border, straight
#  on across a crossing, round corners, never through a box or a branch;
#  the count written after the port it ends at.  Lines of EXPECTED:
#      box NAME | COST
#      edge UPPER -> LOWER | LABEL
#      note NAME top|bottom | TEXT
#  The boxes, lines and notes on the screen must be exactly those.
#
#  call map (.map): the framed rectangles, each labelled on its top border
#  "NAME PCT" (or a cut name), each inside the smallest one around it; for
#  each, EXPECTED gives its parent and its share of the parent's cost:
#      rect NAME in PARENT | PART / WHOLE
#      rect? NAME in PARENT | PART / WHOLE     (too small to be sure it is drawn)
#      root NAME
#  and its area must be the parent's inside ((w - 2) x (h - 2)) times
#  PART / WHOLE, within one cell on each side: |area - share| <= w + h + 1.
#  Every framed rectangle must be expected, and every expected one drawn.
# SPDX-License-Identifier: GPL-2.0-or-later
import sys

N, E, S, W = 1, 2, 4, 8
MASK = {"│": N | S, "─": E | W, "└": N | E, "┌": E | S, "┐": S | W, "┘": N | W,
        "├": N | E | S, "┤": N | S | W, "┬": E | S | W, "┴": N | E | W, "┼": 15}
STEP = {N: (0, -1), E: (1, 0), S: (0, 1), W: (-1, 0)}
OPP = {N: S, S: N, E: W, W: E}


def read(path):
    rows = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
    # the picture: between the view's header (3 lines) and the status line
    width = max(len(r) for r in rows)
    grid = [r.ljust(width) for r in rows]
    return grid, 3, len(grid) - 1


def at(grid, x, y):
    if 0 <= y < len(grid) and 0 <= x < len(grid[y]):
        return grid[y][x]
    return " "


def boxes(grid, y0, y1):
    """Frames: a top-left corner, a top border to a top-right corner, sides
    down to the bottom corners."""
    found = []
    for y in range(y0, y1):
        for x, c in enumerate(grid[y]):
            if c != "┌":
                continue
            x2 = x + 1
            while x2 < len(grid[y]) and grid[y][x2] not in "┐┌┘└┼├┤│┬":
                x2 += 1
            if at(grid, x2, y) != "┐":
                continue
            yb = y + 1
            while yb < y1 and at(grid, x, yb) == "│" and at(grid, x2, yb) == "│":
                yb += 1
            if yb == y + 1 or at(grid, x, yb) != "└" or at(grid, x2, yb) != "┘":
                continue
            if any(ch in "┐┌┘└┼├┤│┴" for ch in grid[yb][x + 1:x2]):
                continue
            found.append((x, y, x2 - x + 1, yb - y + 1))
    return found


def box_of(bx, x, y):
    for i, (bx0, by0, w, h) in enumerate(bx):
        if bx0 <= x < bx0 + w and by0 <= y < by0 + h:
            return i
    return -1


def follow(grid, bx, x, y):
    """From a port at (x, y) on a bottom border, down to a top border's
    port: (box, x) or an error."""
    d = S
    for _ in range(100000):
        x, y = x + STEP[d][0], y + STEP[d][1]
        c = at(grid, x, y)
        b = box_of(bx, x, y)
        if b >= 0:
            if d == S and y == bx[b][1] and c == "┴":
                return b, x
            return None, "runs into a box at %d,%d" % (x, y)
        m = MASK.get(c)
        if m is None or not m & OPP[d]:
            return None, "the line breaks at %d,%d (%r)" % (x, y, c)
        if m == 15:
            continue
        rest = m & ~OPP[d]
        if rest not in STEP:
            return None, "a branch at %d,%d" % (x, y)
        d = rest
    return None, "round in circles"


def label_after(grid, x, y):
    s = ""
    x += 1
    while at(grid, x, y) not in "─┐┴ ":
        s += at(grid, x, y)
        x += 1
    return s


def check_graph(grid, y0, y1, expected):
    bx = boxes(grid, y0, y1)
    got = set()
    names = []
    for (x, y, w, h) in bx:
        name = grid[y + 1][x + 1:x + w - 1].strip()
        cost = grid[y + 2][x + 1:x + w - 1].strip()
        names.append(name)
        got.add("box %s | %s" % (name, cost))
        for side, row in (("top", y), ("bottom", y + h - 1)):
            border = grid[row][x + 1:x + w - 1]
            if "more" in border:
                note = border[border.index("+"):border.index("more") + 4]
                got.add("note %s %s | %s" % (name, side, note))
    edges = []
    for i, (x, y, w, h) in enumerate(bx):
        yb = y + h - 1
        for px in range(x + 1, x + w - 1):
            if grid[yb][px] != "┬":
                continue
            b, where = follow(grid, bx, px, yb)
            if b is None:
                got.add("BROKEN line from %s: %s" % (names[i], where))
                continue
            edges.append("edge %s -> %s | %s" % (names[i], names[b], label_after(grid, where, bx[b][1])))
    got |= set(edges)
    if len(edges) != len(set(edges)):
        got.add("the same line twice")
    want = set(l.strip() for l in expected if l.strip() and not l.startswith("#"))
    return got, want, "%d boxes, %d lines" % (len(bx), len(edges))


def check_map(grid, y0, y1, expected):
    rects = boxes(grid, y0, y1)
    want = {}
    optional = set()
    root = None
    for l in expected:
        l = l.strip()
        if l.startswith("root "):
            root = l[5:].strip()
        elif l.startswith("rect ") or l.startswith("rect? "):
            head, share = l[l.index(" ") + 1:].split("|")
            name, parent = [s.strip() for s in head.split(" in ")]
            part, whole = [float(s) for s in share.split("/")]
            want[name] = (parent, part / whole)
            if l.startswith("rect?"):
                optional.add(name)
    named = []
    for (x, y, w, h) in rects:
        top = grid[y][x + 1:x + w - 1].rstrip("─")
        name = top.rsplit(" ", 1)[0] if "%" in top else top
        named.append((name, x, y, w, h))
    bad, n = [], 0
    seen = set()
    for (name, x, y, w, h) in named:
        seen.add(name)
        # its parent: the smallest rectangle around it
        around = [r for r in named if r[1] < x and r[2] < y and r[1] + r[3] > x + w and r[2] + r[4] > y + h]
        if not around:
            if name != root:
                bad.append("%s: not inside anything, and not the root %s" % (name, root))
            continue
        p = min(around, key=lambda r: r[3] * r[4])
        if name not in want:
            bad.append("%s (in %s): not expected" % (name, p[0]))
            continue
        parent, share = want[name]
        if p[0] != parent:
            bad.append("%s: inside %s, expected inside %s" % (name, p[0], parent))
            continue
        exact = (p[3] - 2) * (p[4] - 2) * share
        n += 1
        if abs(w * h - exact) > w + h + 1:
            bad.append("%s: %dx%d = %d cells, its share of %s's %dx%d inside is %.1f" %
                       (name, w, h, w * h, parent, p[3] - 2, p[4] - 2, exact))
    for name in want:
        if name not in seen and name not in optional:
            bad.append("%s: expected, not drawn" % name)
    if root not in seen:
        bad.append("the root %s is not drawn" % root)
    return bad, n


def main():
    grid, y0, y1 = read(sys.argv[1])
    expected = open(sys.argv[2], encoding="utf-8").readlines()
    if sys.argv[2].endswith(".graph"):
        got, want, what = check_graph(grid, y0, y1, expected)
        for l in sorted(want - got):
            print("  missing: " + l)
        for l in sorted(got - want):
            print("  unexpected: " + l)
        print(what)
        return 0 if got == want and got else 1
    bad, n = check_map(grid, y0, y1, expected)
    for b in bad:
        print("  " + b)
    print("%d rectangles within a cell of their share" % n)
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main())
