#!/bin/sh
# A difference's inclusive costs in the report: B's minus A's, each side
# aggregated alone with its own cycle rule, never cycles of both sides'
# calls together.  The numbers are worked out by hand from the files.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
cp "$here"/../tui/diffcycle-a.out "$here"/../tui/diffcycle-b.out "$here"/../tui/diffsidecycle-a.out .

# diffcycle: A main>f>g (main 10 + 300, f 100 + 200, g 200), B main>g>f
# (main 10 + 700, g 400 + 300, f 300); together f and g call each other,
# a cycle of neither.  Inclusive B - A: main 710 - 310 = 400 (100.0% of
# the total 400), g 700 - 200 = 500 (125.0%), self 400 - 200 = 200
# (50.0%), f 300 - 300 = 0, under the threshold.
section() { # the report's section titled $1, without its title's lines
	sed -n "/^-- $1/,/^-- /p" | sed '1,2d;/^---/,$d'
}
"$CGTUI" --batch --no-annotate --inclusive=yes --diff diffcycle-a.out diffcycle-b.out \
	2>err.txt | section 'Function:file summary' >got.txt
printf '%s\n' '  Ir__________  function:file' '' '> 500 (125.0%)  g:' '  200  (50.0%)    c.c' '' \
	'> 400 (100.0%)  main:' '' >want.txt
diff -u want.txt got.txt >diff.txt
check "--inclusive=yes: B - A of each side, no cycle of both" $? "$(cat err.txt diff.txt)"

# Each function's calls (--tree=both, by self cost: g and f, 200 each):
# B minus A of each, its count too.  g: main 700 - 0 (175.0%) 1x, f 0 -
# 200 (-50.0%) -1x; its call of f 300 - 0 (75.0%) 1x.  f: main 0 - 300
# (-75.0%) -1x, g 300 - 0 (75.0%) 1x; its call of g 0 - 200 (-50.0%) -1x.
"$CGTUI" --batch --no-annotate --tree=both --diff diffcycle-a.out diffcycle-b.out \
	2>err.txt | section 'Callers and callees' >got.txt
printf '%s\n' '  Ir___________   function' '' \
	'   700 (175.0%)  < c.c:main (1x)' '  -200 (-50.0%)  < c.c:f (-1x)' \
	'   500 (125.0%)  * c.c:g' '   300  (75.0%)  > c.c:f (1x)' '' \
	'  -300 (-75.0%)  < c.c:main (-1x)' '   300  (75.0%)  < c.c:g (1x)' \
	'     0           * c.c:f' '  -200 (-50.0%)  > c.c:g (-1x)' '' >want.txt
diff -u want.txt got.txt >diff.txt
check "--tree=both: each call B - A" $? "$(cat err.txt diff.txt)"

# diffsidecycle-a.out minus diffcycle-b.out: in A f and g are a cycle (f
# calls g, g calls f), so each has its self cost as its inclusive one (no call
# leaves the cycle): f 100, g 200; main 310.  B as above.  Inclusive B -
# A: f 300 - 100 = 200, g 700 - 200 = 500, main 400; self f 300 - 100 =
# 200, g 400 - 200 = 200, main 0.  (Self + the calls to other functions
# would give f 200 - 240 = -40 and g 200 + 260 = 460.)  No cycle of the
# difference's own; the calls B - A: main>g 700 1x, main>f -300 -1x; f>g
# (-1x) and g>f (1 - 1 = 0x) are in A's cycle, where A alone shows them
# without a cost: in a cycle, without one (not -240 and 300 - 40 = 260).
# Cycle detection off (--cycles=no), self + every call, B - A: f 300 -
# (100 + 240) = -40, g 700 - (200 + 40) = 460, main 400.
fns() { # cgtui arguments...: the JSON report's functions, cycles and calls
	"$CGTUI" --batch --format=json --threshold=0 "$@" 2>err.txt | python3 -c '
import json, sys
d = json.load(sys.stdin)
name = {f["id"]: f["name"] for f in d["functions"]}
for f in sorted(d["functions"], key=lambda f: f["name"]):
    print(f["name"], f["self"]["Ir"], f["inclusive"]["Ir"])
print("cycles", len(d["cycles"]))
for c in sorted(d["calls"], key=lambda c: (name[c["caller"]], name[c["callee"]])):
    print(name[c["caller"]] + ">" + name[c["callee"]], c["kind"], c["count"],
          c["inclusive"]["Ir"] if c["inclusive"] else "-")'
}
got=$(fns --diff diffsidecycle-a.out diffcycle-b.out)
want=$(printf '%s\n' 'f 200 200' 'g 200 500' 'main 0 400' 'cycles 0' 'f>g in_cycle -1 -' \
	'g>f in_cycle 0 -' 'main>f plain -1 -300' 'main>g plain 1 700')
[ "$got" = "$want" ]
check "a cycle of one side: its members' inclusive costs B - A of each side" $? \
	"$(printf 'got:\n%s\nwant:\n%s\n' "$got" "$want"; cat err.txt)"
# The same calls in the report's tree, named with A's cycle: g's caller f
# and callee f, f's caller g and callee g, each "(in cycle 1)" with no
# cost; the calls of main 700 (175.0% of 400) and -300 (-75.0%).
"$CGTUI" --batch --no-annotate --tree=both --inclusive=yes --diff diffsidecycle-a.out \
	diffcycle-b.out 2>err.txt | section 'Callers and callees' >got.txt
printf '%s\n' '  Ir___________   function' '' \
	'   700 (175.0%)  < c.c:main (1x)' '     .           < c.c:f (-1x) (in cycle 1)' \
	'   500 (125.0%)  * c.c:g' '     .           > c.c:f (0x) (in cycle 1)' '' \
	'   400 (100.0%)  * c.c:main' '   700 (175.0%)  > c.c:g (1x)' \
	'  -300 (-75.0%)  > c.c:f (-1x)' '' \
	'  -300 (-75.0%)  < c.c:main (-1x)' '     .           < c.c:g (0x) (in cycle 1)' \
	'   200  (50.0%)  * c.c:f' '     .           > c.c:g (-1x) (in cycle 1)' '' >want.txt
diff -u want.txt got.txt >diff.txt
check "a call in a cycle of one side: in a cycle, no cost, as that side shows it" $? \
	"$(cat err.txt diff.txt)"
got=$(fns --cycles=no --diff diffsidecycle-a.out diffcycle-b.out | head -3)
want=$(printf '%s\n' 'f 200 -40' 'g 200 460' 'main 0 400')
[ "$got" = "$want" ]
check "--cycles=no: self + every call, B - A" $? \
	"$(printf 'got:\n%s\nwant:\n%s\n' "$got" "$want"; cat err.txt)"

# Generated profiles of one program (the same seed, the same functions),
# their calls making cycles in each side: every function's inclusive cost
# in the difference is its cost in the second alone minus that in the
# first (0 where it is not), with detection on and off.
if [ -x "${GEN:-}" ]; then
	"$GEN" --size 1M --seed 2 --functions=1000 ga.out >/dev/null 2>&1
	"$GEN" --size 3M --seed 2 --functions=1000 gb.out >/dev/null 2>&1
	for cyc in yes no; do
		for f in ga.out gb.out; do
			"$CGTUI" --batch --format=json --threshold=0 --cycles=$cyc "$f" >"$f.json" \
				2>/dev/null
		done
		"$CGTUI" --batch --format=json --threshold=0 --cycles=$cyc --match-builds=no \
			--diff ga.out gb.out >d.json 2>err.txt
		out=$(python3 -c '
import json
def fns(path):
    d = json.load(open(path))
    return d, {(f["name"], f["object"], f["file"]): f["inclusive"] for f in d["functions"]}
(ja, a), (jb, b), (_, d) = fns("ga.out.json"), fns("gb.out.json"), fns("d.json")
bad = [k for k, inc in d.items() for e, v in inc.items()
       if v != b.get(k, {}).get(e, 0) - a.get(k, {}).get(e, 0)]
print(len(ja["cycles"]), len(jb["cycles"]), len(d), len(bad), bad[:1])')
		set -- $out
		# (with detection on, cycles in each side; off, none listed)
		{ [ $cyc = no ] || { [ "$1" -gt 0 ] && [ "$2" -gt 0 ]; }; } && [ "$3" -gt 0 ] &&
			[ "$4" = 0 ]
		check "generated, --cycles=$cyc: B - A of each side alone, every function" $? \
			"cycles in A, in B, functions, wrong: $out $(cat err.txt)"
	done
else
	echo "SKIP: no gen-callgrind (GEN)"
fi

# The sides are loaded alone only for inclusive costs: one aggregation
# for the report without them, three (the difference, each side) with.
n() { CGTUI_PAR_DEBUG=1 "$CGTUI" --batch --no-annotate "$@" 2>&1 >/dev/null | grep -c '^cgtui: agg:.*wall'; }
[ "$(n --diff diffcycle-a.out diffcycle-b.out)" = 1 ] &&
	[ "$(n --inclusive=yes --diff diffcycle-a.out diffcycle-b.out)" = 3 ]
check "the sides loaded alone only for inclusive costs" $? \
	"$(n --diff diffcycle-a.out diffcycle-b.out) $(n --inclusive=yes --diff diffcycle-a.out diffcycle-b.out)"
finish
