#!/bin/sh
# The CI gate, cgtui --check BASE NEW --limit...: exit codes (0 within the
# limits, 3 exceeded, 1 usage, 2 unreadable), the verdict as text,
# Markdown and JSON (validated against check.schema.json), on two runs of
# regress.c recorded here by callgrind and cachegrind (the second version's
# parse() does twice the work and calls a new function), and on small
# profiles written by hand.  The expected costs are callgrind_annotate's
# (inclusive) and cg_annotate's, the changes and percents computed here;
# those of the hand-written profiles by hand.  Also runs the README's
# "Catch a regression in CI" example as it is written there.
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../common.sh"
for t in valgrind callgrind_annotate cg_annotate; do
	command -v $t >/dev/null || { echo "SKIP: no $t"; exit 77; }
done
PY=/usr/bin/python3
[ -x $PY ] || PY=python3

mkdir b n
cc -g -O1 -o b/regress "$here/regress.c" || exit 99
cc -g -O1 -DSLOWER -o n/regress "$here/regress.c" || exit 99
# each built and run in its own directory, as two checkouts would be
(cd b && valgrind --tool=callgrind --callgrind-out-file=../base.out ./regress >/dev/null 2>&1)
(cd n && valgrind --tool=callgrind --callgrind-out-file=../new.out ./regress >/dev/null 2>&1)
(cd b && valgrind --tool=cachegrind --cachegrind-out-file=../base.cg ./regress >/dev/null 2>&1)
(cd n && valgrind --tool=cachegrind --cachegrind-out-file=../new.cg ./regress >/dev/null 2>&1)
for f in base.out new.out base.cg new.cg; do
	[ -s $f ] || { check "valgrind recorded $f" 1 "nothing"; finish; exit; }
done

# the reference numbers: callgrind_annotate's inclusive Ir of a function
# of regress.c (or the total), cg_annotate's self Ir
incl() { # file function|TOTAL
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$1" |
		if [ "$2" = TOTAL ]; then grep 'PROGRAM TOTALS'; else grep "regress\.c:$2 \["; fi |
		head -1 | awk '{ gsub(",", "", $1); print $1 }'
}
cgself() { # file function
	cg_annotate --threshold=0 --auto=no "$1" 2>/dev/null | grep -E "^ *[0-9,]+ .*:$2\$" |
		head -1 | awk '{ gsub(",", "", $1); print $1 }'
}
TB=$(incl base.out TOTAL) TN=$(incl new.out TOTAL)
PB=$(incl base.out parse) PN=$(incl new.out parse)
MB=$(incl base.out main) MN=$(incl new.out main)
RB=$(incl base.out render) RN=$(incl new.out render)
VN=$(incl new.out validate)
for v in "$TB" "$TN" "$PB" "$PN" "$MB" "$MN" "$RB" "$RN" "$VN"; do
	[ -n "$v" ] || { check "callgrind_annotate gave the costs" 1 "$TB $TN $PB $PN $MB $MN $RB $RN $VN"; finish; exit; }
done
echo "callgrind_annotate: total $TB -> $TN, parse $PB -> $PN, main $MB -> $MN, render $RB -> $RN, validate new $VN"
[ "$RB" = "$RN" ] && [ "$PN" -gt "$((PB * 19 / 10))" ]
check "the second version does measurably more work in parse() only" $? "parse $PB -> $PN, render $RB -> $RN"

gate() { # expected exit status, what, cgtui arguments...
	want=$1 what=$2
	shift 2
	"$CGTUI" "$@" >out.txt 2>err.txt
	st=$?
	[ "$st" = "$want" ]
	check "$what: exit $want" $? "exit $st: $(cat out.txt err.txt)"
}
# a JSON verdict's rows, one per line: limit name base new change percent exceeded
rows() {
	$PY - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d['rows']:
    p = r['change_percent']
    print(r['limit'], r['name'] or '-', r['base'], r['new'], r['change'],
          'null' if p is None else '%.6f' % p, str(r['exceeded']).lower())
EOF
}
pct() { # change base: the percent, as the rows print it
	$PY -c "import sys; print('%.6f' % ($1 * 100 / $2))"
}
schema() {
	$PY - "$here/check.schema.json" "$1" <<'EOF'
import json, sys
import jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
EOF
}

# 1. the totals
gate 3 "--limit=Ir=+1% on +$(pct $((TN - TB)) "$TB")%" --check base.out new.out --limit=Ir=+1%
gate 3 "the same as JSON" --check base.out new.out --limit=Ir=+1% --format=json
cp out.txt total.json
schema total.json
check "the JSON verdict is valid against check.schema.json" $? "$(cat total.json)"
[ "$(rows total.json)" = "0 - $TB $TN $((TN - TB)) $(pct $((TN - TB)) "$TB") true" ]
check "its row: total $TB -> $TN, change and percent computed here" $? "$(rows total.json)"
grep -q '"checked": 1' total.json
check "the total limit: one total checked (it said 0)" $? "$(cat total.json)"
up=$($PY -c "import math; print(math.ceil($((TN - TB)) * 100 / $TB) + 1)")
gate 0 "--limit=Ir=+$up%: within" --check base.out new.out --limit=Ir=+$up%
gate 0 "an absolute limit of the change itself ($((TN - TB)))" --check base.out new.out --limit=Ir=+$((TN - TB))
gate 3 "an absolute limit one below it" --check base.out new.out --limit=Ir=+$((TN - TB - 1))

# 2. functions, each against its own base cost; inclusive by default
gate 3 "--limit-function=^(parse|render|checksum)\$:Ir=+5%" --check base.out new.out \
	--limit-function='^(parse|render|checksum)$:Ir=+5%' --format=json
cp out.txt fns.json
[ "$(rows fns.json)" = "0 parse $PB $PN $((PN - PB)) $(pct $((PN - PB)) "$PB") true" ]
check "only parse is above its limit: $PB -> $PN" $? "$(rows fns.json)"
grep -q '"checked": 3' fns.json
check "three functions checked" $? "$(cat fns.json)"
gate 0 "render alone, limit 0: unchanged" --check base.out new.out --limit-function='^render$:Ir=0'
gate 3 "main's inclusive cost grows (limit 0)" --check base.out new.out --limit-function='^main$:Ir=0'
gate 0 "main's self cost does not (--limit-self, limit 0)" --check base.out new.out --limit-self='^main$:Ir=0'
gate 3 "parse's self cost grows (--limit-self)" --check base.out new.out --limit-self='^parse$:Ir=+50%'

# 3. a function absent from BASE, and the floor
gate 3 "validate(), new: above any percent limit" --check base.out new.out \
	--limit-function='^validate$:Ir=+1000%' --format=json
cp out.txt newfn.json
[ "$(rows newfn.json)" = "0 validate 0 $VN $VN null true" ]
check "its row: base 0, new $VN, no percent" $? "$(rows newfn.json)"
gate 0 "validate(), new, under an absolute limit" --check base.out new.out \
	--limit-function="^validate\$:Ir=+$VN"
gate 3 "parse and validate, limit 0: both" --check base.out new.out \
	--limit-function='^(validate|parse)$:Ir=0' --format=json
[ "$(rows out.txt | cut -d' ' -f2 | sort | tr '\n' ' ')" = "parse validate " ]
check "both rows" $? "$(rows out.txt)"
gate 3 "--min-cost=$((VN + 1)): validate is under it" --check base.out new.out \
	--limit-function='^(validate|parse)$:Ir=0' --min-cost=$((VN + 1)) --format=json
[ "$(rows out.txt | cut -d' ' -f2)" = parse ] && grep -q '"checked": 1' out.txt
check "only parse is checked" $? "$(cat out.txt)"
gate 3 "--min-cost=1% (of the base total $TB): validate's $VN is under it" --check \
	base.out new.out --limit-function='^(validate|parse)$:Ir=0' --min-cost=1% --format=json
[ "$(rows out.txt | cut -d' ' -f2)" = parse ]
check "only parse's row" $? "$(rows out.txt)"
gate 0 "--min-cost=1%, validate alone: nothing to check" --check base.out new.out \
	--limit-function='^validate$:Ir=0' --min-cost=1%
grep -q "no function matches in either profile above --min-cost" err.txt
check "a warning says so" $? "$(cat err.txt)"

# 4. the Markdown table
gate 3 "--format=markdown" --check base.out new.out --limit=Ir=+1% \
	--limit-function='^(parse|render)$:Ir=+5%' --format=markdown
$PY - "$TB" "$TN" "$PB" "$PN" >want.md <<'EOF'
import sys
tb, tn, pb, pn = map(int, sys.argv[1:])
def row(scope, name, b, n, lim):
    return f'| **exceeded** | {scope} | {name} | `Ir` | {b:,} | {n:,} | +{n - b:,} ({(n - b) * 100 / b:+.2f}%) | {lim} |'

print('### cgtui check: 2 limits exceeded')
print()
print('| | Scope | Name | Event | Base | New | Change | Limit |')
print('|---|---|---|---|--:|--:|--:|--:|')
print(row('total', '', tb, tn, '+1%'))
print(row('function', '`parse`', pb, pn, '+5%'))
EOF
head -6 out.txt >got.md
cmp -s want.md got.md
check "the table: heading, the total's and parse's rows (numbers from callgrind_annotate)" $? \
	"$(diff want.md got.md)"
grep -q '^- `--limit-function`: 2 checked by `^(parse\\|render)\$`$' out.txt
check "the pattern's pipe escaped in its code span" $? "$(cat out.txt)"
gate 0 "--format=markdown within the limits" --check base.out new.out --limit=Ir=+$up% --format=markdown
grep -q '^### cgtui check: within the limits$' out.txt
check "says so" $? "$(cat out.txt)"

# 5. runs of several files per side: directories, and threads of a run
mkdir B N
cp base.out B/callgrind.out.1
cp base.out B/callgrind.out.2
cp new.out N/callgrind.out.1
cp new.out N/callgrind.out.2
gate 3 "two profiles per side (directories)" --check B N --limit=Ir=+1% --format=json
[ "$(rows out.txt)" = "0 - $((2 * TB)) $((2 * TN)) $((2 * (TN - TB))) $(pct $((TN - TB)) "$TB") true" ]
check "they add up: $((2 * TB)) -> $((2 * TN))" $? "$(rows out.txt)"
grep -q 'B/callgrind.out.2' out.txt
check "both files of a side are listed" $? "$(cat out.txt)"
cp base.out run.out-01
cp base.out run.out-02
gate 0 "a run's threads (NAME-01, NAME-02) against both directories' base" --check run.out B \
	--limit=Ir=0 --format=json
[ "$(rows out.txt)" = "0 - $((2 * TB)) $((2 * TB)) 0 0.000000 false" ]
check "the run's two files add up" $? "$(rows out.txt)"

# 6. objects and files; cachegrind's files
gate 3 "--limit-object=regress\$ (built in b/ and n/: the same object)" --check base.out new.out \
	--limit-object='regress$:Ir=+1%' --format=json
# (the two builds' paths are matched as --diff matches them: NEW's n/ read
# as BASE's b/, so the one object has BASE's name)
rows out.txt | grep -q '^0 /.*/b/regress '
check "one object, named as in BASE" $? "$(rows out.txt)"
gate 3 "--limit-file=regress\\.c" --check base.out new.out --limit-file='regress\.c$:Ir=+1%'
CB=$(cgself base.cg parse) CN=$(cgself new.cg parse)
gate 3 "Cachegrind files: --limit-self=^parse\$" --check base.cg new.cg \
	--limit-self='^parse$:Ir=+5%' --format=json
[ "$(rows out.txt)" = "0 parse $CB $CN $((CN - CB)) $(pct $((CN - CB)) "$CB") true" ]
check "parse's self cost, cg_annotate's: $CB -> $CN" $? "$(rows out.txt)"

# 7. written by hand: C++ names, where ':' must not split the limit
cat >hb.out <<'EOF'
events: Ir Dr
fl=p.cc
fn=main
1 50 5
cfn=ns::Parser::run(int)
calls=2 10
2 100 20
fn=ns::Parser::run(int)
10 100 20
EOF
sed 's/^10 100 20$/10 130 26/; s/^2 100 20$/2 130 26/' hb.out >hn.out
# run: 100 -> 130, +30%; total 150 -> 180, +20%; Dr 25 -> 31, +24%
gate 3 "ns::Parser::run(int): +30% > +25%" --check hb.out hn.out \
	--limit-function='ns::Parser::run\(int\):Ir=+25%' --format=json
[ "$(rows out.txt)" = "0 ns::Parser::run(int) 100 130 30 30.000000 true" ]
check "its row by hand: 100 -> 130, +30 (+30%)" $? "$(rows out.txt)"
gate 0 "+30% is not above +30%" --check hb.out hn.out --limit-function='ns::Parser::run\(int\):Ir=+30%'
gate 0 "the total, +20% (150 -> 180)" --check hb.out hn.out --limit=Ir=+20%
gate 3 "the total, above +19.99%" --check hb.out hn.out --limit=Ir=+19.99%
gate 3 "Dr +24% (25 -> 31) over +20%" --check hb.out hn.out --limit=Dr=+20%
gate 0 "a derived event: --event='C = Ir + 10 Dr' 400 -> 490, +22.5%" --check hb.out hn.out \
	--event='C = Ir + 10 Dr' --limit=C=+22.5%
gate 3 "... above +22%" --check hb.out hn.out --event='C = Ir + 10 Dr' --limit=C=+22%
gate 0 "-10%: a decrease demanded, and new -> base is -16.7%" --check hn.out hb.out --limit=Ir=-10%
gate 3 "... -20% is not reached" --check hn.out hb.out --limit=Ir=-20%
gate 3 "a text verdict" --check hb.out hn.out --limit-function='ns::Parser::run\(int\):Ir=+25%'
grep -q '^EXCEEDED  function   Ir  *100  *130  +30 (+30.00%)  *+25%  *ns::Parser::run(int)$' out.txt &&
	tail -1 out.txt | grep -q '^1 limit exceeded$'
check "its row and last line" $? "$(cat out.txt)"

# 7b. by hand (../report/builds-*.out): one program built in two places
# (/home/ci/build1 and /home/ci/build2, objects and sources), foo a GCC
# clone foo.isra.0 in the first.  main: self 10 -> 12, inclusive 40 -> 52 (+30%); foo 30 -> 40
# (+33.33%); bar 5 -> 5; a.c, the whole program, 45 -> 57 (+26.67%).
cp "$here/../report/builds-1.out" bb.out
cp "$here/../report/builds-2.out" bn.out
gate 3 "two builds: main 40 -> 52 over +25%" --check bb.out bn.out --limit-function='^main$:Ir=+25%' \
	--format=json
[ "$(rows out.txt)" = "0 main 40 52 12 30.000000 true" ]
check "main's row by hand" $? "$(rows out.txt)"
grep -q "matched across builds: the second profile's /home/ci/build2/ as /home/ci/build1/" err.txt
check "the prefixes taken as the same are said" $? "$(cat err.txt)"
gate 0 "two builds: a.c one file, 45 -> 57 (+26.67%) within +27%" --check bb.out bn.out \
	--limit-file='a\.c$:Ir=+27%'
gate 3 "... and above +26%" --check bb.out bn.out --limit-file='a\.c$:Ir=+26%' --format=json
[ "$(rows out.txt)" = "0 /home/ci/build1/src/a.c 45 57 12 $(pct 12 45) true" ]
check "a.c's row by hand" $? "$(rows out.txt)"
gate 3 "--normalize-names: foo.isra.0 is foo, 30 -> 40 over +30%" --check --normalize-names \
	bb.out bn.out --limit-function='^foo:Ir=+30%' --format=json
[ "$(rows out.txt)" = "0 foo 30 40 10 $(pct 10 30) true" ]
check "foo's row by hand" $? "$(rows out.txt)"
gate 0 "... within +34%" --check --normalize-names bb.out bn.out --limit-function='^foo:Ir=+34%'
gate 3 "without it, foo is new" --check bb.out bn.out --limit-function='^foo:Ir=+34%'

# 8. usage errors (1) and unreadable profiles (2)
gate 1 "no limit" --check base.out new.out
gate 1 "one profile" --check base.out --limit=Ir=+1%
gate 1 "three profiles" --check base.out new.out new.out --limit=Ir=+1%
gate 1 "no '=' in a limit" --check base.out new.out --limit=Ir
gate 1 "no ':' in a scoped limit" --check base.out new.out --limit-function=parse=+1%
gate 1 "not a change" --check base.out new.out --limit=Ir=lots
gate 1 "an event the profiles do not have" --check base.out new.out --limit=Dr=+1%
grep -q "no event Dr in the base profile" err.txt
check "says which" $? "$(cat err.txt)"
gate 1 "a bad pattern" --check base.out new.out --limit-function='(:Ir=+1%'
gate 1 "--check with --diff" --diff --check base.out new.out --limit=Ir=+1%
gate 1 "--format=markdown without --check" --format=markdown base.out
gate 1 "--limit without --check" --limit=Ir=+1% base.out
gate 2 "a missing profile" --check base.out nosuch.out --limit=Ir=+1%
grep -q "^cgtui: nosuch.out: cannot open" err.txt
check "says which" $? "$(cat err.txt)"
printf 'events: Ir\nfn=f\n1 x\n' >bad.out
gate 2 "a bad profile" --check bad.out new.out --limit=Ir=+1%
grep -q "^cgtui: bad.out:3: bad cost 'x'" err.txt
check "FILE:LINE: what" $? "$(cat err.txt)"

# 9. the README's example, as written there
readme="$top_srcdir/README.md"
sed -n '/^<!-- ci-example -->$/,/^```$/p' "$readme" | sed '1,2d;$d' >example.sh
if [ -s example.sh ]; then
	mkdir -p ex/tests/share ex/build && cp "$here/regress.c" ex/tests/share/ &&
		ln -s "$CGTUI" ex/build/cgtui
	(cd ex && sh -e ../example.sh >../ex.out 2>&1)
	st=$?
	[ $st = 3 ] && grep -q '^| \*\*exceeded\*\* | function | `parse` |' ex.out
	check "the README's example: exit 3, parse's row" $? "exit $st: $(cat ex.out)"
else
	check "the README has its example" 1 "no <!-- ci-example --> block"
fi
finish
