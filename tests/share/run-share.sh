#!/bin/sh
# Sharing profiles: --export=folded, speedscope and pprof, --format=json,
# and pprof profiles and folded stacks opened as profiles.  Each output is
# read by an independent reader: share.py's folded-stack lines, Python's
# json with jsonschema (Debian python3-jsonschema) against the schemas
# beside this script, and for pprof protoc --decode (protobuf-compiler)
# with pprof's own profile.proto (golang-github-google-pprof-dev).  The
# expected numbers come from the profile callgrind wrote (read by
# tests/recorder/profdiff.py), from the stacks themselves, or are computed
# by hand (hand.txtpb).
# SPDX-License-Identifier: GPL-2.0-or-later
. "$(dirname "$0")/../common.sh"
command -v valgrind >/dev/null || { echo "SKIP: no valgrind"; exit 77; }
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
PROTO=/usr/share/gocode/src/github.com/google/pprof/proto/profile.proto
command -v protoc >/dev/null || { echo "SKIP: no protoc (protobuf-compiler)"; exit 77; }
[ -f $PROTO ] || { echo "SKIP: no $PROTO (golang-github-google-pprof-dev)"; exit 77; }
decode() { # the text of gzip'ed pprof $1
	gzip -dc "$1" | protoc --decode=perftools.profiles.Profile -I"$(dirname $PROTO)" profile.proto
}
share() { # share.py's checks, their PASS:/FAIL: lines counted
	$PY "$here/share.py" "$@" >share.log 2>&1
	st=$?
	cat share.log
	p=$(grep -c '^PASS: ' share.log)
	f=$(grep -c '^FAIL: ' share.log)
	pass=$((pass + p))
	fail=$((fail + f))
	[ "$st" = 0 ] || [ "$f" != 0 ] || check "share.py $1 ran" 1 "exit $st"
}

cc -g -O1 -o paths "$here/paths.c" || exit 99
# only main and below: the file's totals are its cost lines' sum
valgrind --tool=callgrind --toggle-collect=main --cache-sim=yes --branch-sim=yes \
	--callgrind-out-file=paths.out ./paths >/dev/null 2>&1
[ -s paths.out ] || { check "callgrind recorded paths" 1 "no paths.out"; finish; exit; }

# 1. folded stacks
"$CGTUI" --export=folded --threshold=0 paths.out >paths.folded 2>note.txt
check "--export=folded exits 0" $? ""
grep -q "estimated from call edges" note.txt
check "--export=folded says its paths are estimated" $? "$(cat note.txt)"
share folded paths.out paths.folded

# 1b. recorded contexts beside the profile (twopaths.out.ctx, cgtui-contexts
# 1): the folded stacks are those recorded, worked out by hand from the
# file's lines (d only under a;c), and nothing is said estimated; the same
# profile without them: c's 20 for d split 30 : 10 between a;c and b;c
cp "$here/twopaths.out" "$here/twopaths.out.ctx" . && cp twopaths.out est.out
"$CGTUI" --export=folded --threshold=0 twopaths.out >two.folded 2>note.txt
printf 'main;a 30\nmain;a;c 10\nmain;a;c;d 20\nmain;b 30\nmain;b;c 10\n' >want.folded
cmp -s two.folded want.folded && [ ! -s note.txt ]
check "--export=folded: the recorded contexts, not said estimated" $? "$(cat two.folded note.txt)"
"$CGTUI" --export=folded --threshold=0 est.out >est.folded 2>note.txt
printf 'main;a 30\nmain;a;c 15\nmain;a;c;d 15\nmain;b 30\nmain;b;c 5\nmain;b;c;d 5\n' >want.folded
cmp -s est.folded want.folded && grep -q "estimated from call edges" note.txt
check "--export=folded without them: split by the calls' costs, said estimated" $? "$(cat est.folded note.txt)"
# callgrind_annotate reads the profile the same with its contexts beside it
# or not, and says nothing of them
callgrind_annotate twopaths.out >ca-with.txt 2>&1 && callgrind_annotate est.out >ca-without.txt 2>&1 &&
	sed 's/est\.out/twopaths.out/g' ca-without.txt | cmp -s - ca-with.txt && ! grep -qi warn ca-with.txt
check "callgrind_annotate: the same report with the contexts beside the profile" $? "$(diff ca-with.txt ca-without.txt)"

# 2. speedscope: a profile per event
"$CGTUI" --export=speedscope --threshold=0 paths.out >paths.speedscope.json 2>/dev/null
check "--export=speedscope exits 0" $? ""
share speedscope paths.out paths.speedscope.json paths.folded

# 3. pprof, read by protoc
"$CGTUI" --export=pprof --threshold=0 paths.out >paths.pb.gz 2>/dev/null
check "--export=pprof exits 0" $? ""
[ "$(od -An -tx1 -N2 paths.pb.gz | tr -d ' ')" = 1f8b ]
check "--export=pprof is gzip-compressed" $? "$(od -An -tx1 -N2 paths.pb.gz)"
decode paths.pb.gz >paths.pb.txt
check "protoc decodes the pprof export as perftools.profiles.Profile" $? "$(head -3 paths.pb.txt)"
share pprof paths.out paths.pb.txt paths.folded
# and cgtui reads it back: the same self costs (the paths are exact here)
"$CGTUI" --format=json --threshold=0 paths.pb.gz >roundtrip.json 2>err.txt
check "the pprof export opens as a profile" $? "$(cat err.txt)"
share roundtrip paths.out roundtrip.json
# a threshold leaves small paths to their callers: the sums stay
"$CGTUI" --export=folded --threshold=10 paths.out 2>/dev/null |
	awk '{ s += $NF; n++ } END { print n, s }' >thr.txt
total=$(grep '^summary:' paths.out | awk '{ print $2 }')
n=$(cut -d' ' -f1 thr.txt)
s=$(cut -d' ' -f2 thr.txt)
[ "$s" = "$total" ] && [ "$n" -lt "$(wc -l <paths.folded)" ]
check "--threshold=10: fewer stacks ($n), the same total ($s = $total)" $? ""
# shares rounded: C (cost 1 on each of two paths) splits 1 between D and E,
# half each; by hand, the stacks must still add up to the total, 4 (each
# share rounded on its own made D 1 and E 1: 6, and C's own part -1)
printf '%s\n' 'events: Ir' 'fn=main' '1 0' 'cfn=A' 'calls=1 1' '2 2' 'cfn=B' 'calls=1 1' '3 2' \
	'fn=A' '1 1' 'cfn=C' 'calls=1 1' '2 1' 'fn=B' '1 1' 'cfn=C' 'calls=1 1' '2 1' \
	'fn=C' '1 0' 'cfn=D' 'calls=1 1' '2 1' 'cfn=E' 'calls=1 1' '3 1' 'fn=D' '1 1' 'fn=E' '1 1' \
	>round.out
"$CGTUI" --export=folded --threshold=0 round.out 2>/dev/null | awk '{ s += $NF } END { print s }' >sum.txt
[ "$(cat sum.txt)" = 4 ]
check "shares of 1/2: the stacks still add up to the total, 4" $? "$(cat sum.txt)"
"$CGTUI" --diff --export=folded paths.out paths.out >/dev/null 2>err.txt
[ $? = 1 ] && grep -q "a difference cannot be exported" err.txt
check "a difference is not exported (exit 1)" $? "$(cat err.txt)"

# 4. the JSON report
"$CGTUI" --format=json --threshold=0 paths.out >report.json 2>err.txt
check "--format=json exits 0" $? "$(cat err.txt)"
share report "$here/report.schema.json" report.json paths.out
"$CGTUI" --format=json "$top_srcdir/examples/callgrind.out.wordfreq" >wordfreq.json 2>/dev/null
share schema "$here/report.schema.json" wordfreq.json
# a cycle: a and b call each other (the schema: no cost on a call inside it)
printf '%s\n' 'events: Ir' 'fn=main' '1 10' 'cfn=a' 'calls=1 2' '2 50' 'fn=a' '3 20' \
	'cfn=b' 'calls=1 4' '4 80' 'fn=b' '5 30' 'cfn=a' 'calls=1 3' '6 50' >cycle.out  # consistent: a's callers pay a's and b's 50
"$CGTUI" --format=json --threshold=0 cycle.out >cycle.json 2>/dev/null
grep -q '"kind": "in_cycle"' cycle.json && grep -q '"members": \[' cycle.json
check "a cycle: its entity and the calls inside it" $? "$(cat cycle.json)"
share schema "$here/report.schema.json" cycle.json

# 5. folded stacks and pprof opened as profiles
"$CGTUI" --format=json --threshold=0 "$here/stacks.folded" >stacks.json 2>err.txt
check "folded stacks open as a profile" $? "$(cat err.txt)"
share folded-import "$here/stacks.folded" stacks.json
grep -v '^#' "$here/hand.txtpb" |
	protoc --encode=perftools.profiles.Profile -I"$(dirname $PROTO)" profile.proto >hand.pb
gzip -c hand.pb >hand.pb.gz
for f in hand.pb.gz hand.pb; do
	"$CGTUI" --format=json --threshold=0 $f >hand.json 2>err.txt
	check "a pprof profile ($f) opens" $? "$(cat err.txt)"
	share pprof-import hand.json
done
# a first line of one frame whose name could be a number's digits
printf 'add 5\nmain;add 3\n' >add.folded
"$CGTUI" --format=json add.folded >add.json 2>err.txt
share folded-import add.folded add.json
# a first line of one frame named by its address, as the export writes the
# root of a program without symbols: folded too (it was read as a cost line
# of a Callgrind file, "cost line before the events: line"); a first line
# of numbers in a file that names its events stays a Callgrind file's
printf '0x1ab70 15\n0x1ab70;main 11\n0x1ab70;main;f 74\n' >addr.folded
"$CGTUI" --format=json addr.folded >addr.json 2>err.txt
check "folded stacks whose first line is one frame named 0x...: open" $? "$(cat err.txt)"
share folded-import addr.folded addr.json
printf '0x1a 3\nevents: Ir\nfn=main;x\n0x1b 4\n' >notfolded.out
"$CGTUI" --batch notfolded.out >/dev/null 2>err.txt
grep -q "notfolded.out:1: cost line before the events: line" err.txt
check "a cost line before events: is still a Callgrind file's error" $? "$(cat err.txt)"
# bad input: FILE:LINE: what is wrong, exit 2
printf 'main;a 3\nmain;b 4\nmain;c\n' >bad.folded
printf 'main;a 3\nmain;b 2.5\n' >frac.folded
head -c "$(($(wc -c <paths.pb.gz) / 2))" paths.pb.gz >cut.pb.gz
printf 'main;a 99999999999999999999\n' >big.folded
for c in "bad.folded|bad.folded:3: not a folded-stacks line" \
	"frac.folded|frac.folded:2: count is not a whole number" \
	"big.folded|big.folded:1: count beyond 64 bits" \
	"cut.pb.gz|cut.pb.gz: gzip data is corrupt or truncated"; do
	f=${c%%|*}
	want=${c#*|}
	"$CGTUI" --batch "$f" >/dev/null 2>err.txt
	st=$?
	[ $st = 2 ] && grep -q "^cgtui: $want" err.txt
	check "$f: exit 2, '$want'" $? "exit $st: $(cat err.txt)"
done
# a pprof profile whose sample names a location that is not there
sed 's/location_id: 5 value: 7/location_id: 9 value: 7/' "$here/hand.txtpb" | grep -v '^#' |
	protoc --encode=perftools.profiles.Profile -I"$(dirname $PROTO)" profile.proto >noloc.pb
"$CGTUI" --batch noloc.pb >/dev/null 2>err.txt
st=$?
[ $st = 2 ] && grep -q "^cgtui: noloc.pb: pprof: sample 3: no location 9" err.txt
check "a sample's missing location: exit 2, said" $? "exit $st: $(cat err.txt)"
finish
