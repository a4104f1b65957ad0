#!/bin/sh
# cg_annotate 3.21+'s rules on source files under --mod-filename, the
# warning about sources newer than the profiles, and the descriptions of
# several profiles, on small profiles written here (and, at the end, two
# builds of one program compared, checked against numbers worked out by
# hand).  The expected reports
# (rules/NAME.txt, without the Invocation: line) were worked out by hand
# from those rules as Valgrind's cachegrind/cg_annotate.in states them:
# - a file renamed by --mod-filename is read under its original name(s);
#   its line-0 costs print as "<unknown (line 0)>" and count as "readable,
#   line numbers unknown";
# - several originals of one name: identical contents are annotated from
#   the first (in sorted order), with a warning only when the oldest of
#   them is newer than a profile, once per profile given, listing them
#   all; different contents are "two or more non-identical", listed;
# - profiles whose desc: lines differ each get a "Description N:" block.
# The column widths follow cg_annotate's: the widest count and percentages
# of each section.  Times are nanoseconds apart within one second, as
# cg_annotate compares them.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"

same() { # name, cgtui arguments...
	name=$1
	shift
	"$CGTUI" --batch "$@" 2>err.txt | grep -v '^Invocation:' >got.txt
	diff -u "$here/rules/$name.txt" got.txt >diff.txt
	check "$name" $? "$(cat err.txt; head -50 diff.txt)"
}

# A renamed file: src/a.c becomes A.c and is read as src/a.c.
mkdir src
printf 'int x;\nint main(void) {\n}\n' >src/a.c
printf 'desc: D\ncmd: prog\nevents: Ir\nfl=src/a.c\nfn=main\n0 10\n2 30\nsummary: 40\n' >p.cgout
touch -d '2020-01-01' src/a.c
same rename '--mod-filename=s/src\/a/A/' p.cgout

# Two directories renamed to one, with identical sources: annotated from
# x/s.c; the sources (at .5 s) are newer than p1 (.0 s) but not than p2
# (.75 s): one warning, for p1, listing both.
mkdir x y
printf 'a\nb\nc\n' >x/s.c
printf 'a\nb\nc\n' >y/s.c
printf 'desc: D\ncmd: one\nevents: Ir\nfl=x/s.c\nfn=f\n1 6\nsummary: 6\n' >p1.cgout
printf 'desc: D\ncmd: two\nevents: Ir\nfl=y/s.c\nfn=g\n2 4\nsummary: 4\n' >p2.cgout
touch -d '2021-01-01 00:00:00' p1.cgout
touch -d '2021-01-01 00:00:00.5' x/s.c y/s.c
touch -d '2021-01-01 00:00:00.75' p2.cgout
same identical '--mod-filename=s/^[xy]\///' p1.cgout p2.cgout

# The same with y/s.c different, and descriptions that differ.
printf 'a\nB\nc\n' >y/s.c
printf 'desc: first\ncmd: one\nevents: Ir\nfl=x/s.c\nfn=f\n1 6\nsummary: 6\n' >p1.cgout
printf 'desc: second\ndesc: second, again\ncmd: two\nevents: Ir\nfl=y/s.c\nfn=g\n2 4\nsummary: 4\n' >p2.cgout
same differ '--mod-filename=s/^[xy]\///' p1.cgout p2.cgout

# Two builds of one program compared (--diff, builds-1.out and
# builds-2.out): the objects and sources of the second under
# /home/ci/build2/, the first's under /home/ci/build1/, are matched
# (cgtui's rule, not cg_annotate's, which would need --mod-filename); foo
# is the clone foo.isra.0 in the first, the same function with
# --normalize-names.  B - A by hand: main self 12 - 10 = 2, inclusive
# 52 - 40 = 12; foo 40; foo.isra.0 -30; bar 5 - 5 = 0; with
# --normalize-names foo 40 - 30 = 10.  Each as "name object file self
# inclusive", the first side's paths.
cp "$here/builds-1.out" b1.out
cp "$here/builds-2.out" b2.out
fns() { # cgtui arguments...: the report's functions, sorted
	"$CGTUI" --batch --format=json --threshold=0 "$@" 2>err.txt | python3 -c '
import json, sys
for f in json.load(sys.stdin)["functions"]:
    print(f["name"], f["object"], f["file"], f["self"]["Ir"], f["inclusive"]["Ir"])' | sort
}
P='/home/ci/build1/prog /home/ci/build1/src/a.c'
[ "$(fns --diff b1.out b2.out)" = "$(printf '%s\n' "bar $P 0 0" "foo $P 40 40" \
	"foo.isra.0 $P -30 -30" "main $P 2 12")" ]
check "two builds: each function once, B - A" $? "$(fns --diff b1.out b2.out; cat err.txt)"
grep -q "matched across builds: the second profile's /home/ci/build2/ as /home/ci/build1/" err.txt
check "two builds: the prefixes taken as the same are said" $? "$(cat err.txt)"
got=$(fns --diff --match-builds=no b1.out b2.out | grep '^main ')
[ "$got" = "$(printf '%s\n' 'main /home/ci/build1/prog /home/ci/build1/src/a.c -10 -40' \
	'main /home/ci/build2/prog /home/ci/build2/src/a.c 12 52')" ] && ! grep -q 'matched' err.txt
check "--match-builds=no: main twice, -A and B" $? "$got"
[ "$(fns --diff --normalize-names b1.out b2.out)" = "$(printf '%s\n' "bar $P 0 0" \
	"foo $P 10 10" "main $P 2 12")" ]
check "--normalize-names: foo.isra.0 is foo" $? "$(fns --diff --normalize-names b1.out b2.out)"
# the clone's other spellings, each the same function as foo (B - A 10)
for clone in 'foo.part.0' 'foo.constprop.1' 'foo.lto_priv.0' 'foo.cold' 'foo.constprop.0.isra.0' \
	'foo(int) [clone .isra.0]'; do
	sed "s|foo\\.isra\\.0|$clone|" b1.out >c1.out
	cp b2.out c2.out
	want=foo
	case $clone in *'('*)
		want='foo(int)'
		sed 's|^fn=foo$|fn=foo(int)|; s|^cfn=foo$|cfn=foo(int)|' b2.out >c2.out ;;
	esac
	got=$(fns --diff --normalize-names c1.out c2.out | grep -v '^bar \|^main ')
	[ "$got" = "$want $P 10 10" ]
	check "--normalize-names: $clone" $? "$got"
done
# lambdas: {lambda()#3} and {lambda()#1} are one; a name's own '#' kept
printf 'events: Ir\nfl=a.cc\nfn=f()::{lambda(int)#3}::operator()(int) const\n1 5\nfn=x#1\n2 1\n' >l1.out
printf 'events: Ir\nfl=a.cc\nfn=f()::{lambda(int)#1}::operator()(int) const\n1 7\nfn=x#1\n2 1\n' >l2.out
got=$(fns --diff --normalize-names l1.out l2.out)
[ "$got" = "$(printf '%s\n' 'f()::{lambda(int)}::operator()(int) const  a.cc 2 2' 'x#1  a.cc 0 0')" ]
check "--normalize-names: lambdas" $? "$got"

# Two unrelated programs that share one library's base name: their
# directories are not taken as the same (the one match is a third of what
# each side has under them): main and libz's f stay apart, no warning.
printf 'events: Ir\nob=/opt/a/lib/libz.so\nfl=/opt/a/src/z.c\nfn=f\n1 5\nob=/opt/a/lib/liba.so\nfl=/opt/a/src/a.c\nfn=a\n1 1\nob=/opt/a/lib/libb.so\nfl=/opt/a/src/b.c\nfn=b\n1 1\n' >u1.out
printf 'events: Ir\nob=/usr/x/lib/libz.so\nfl=/usr/x/src/z.c\nfn=f\n1 7\nob=/usr/x/lib/libc.so\nfl=/usr/x/src/c.c\nfn=c\n1 1\nob=/usr/x/lib/libd.so\nfl=/usr/x/src/d.c\nfn=d\n1 1\n' >u2.out
got=$(fns --diff u1.out u2.out | grep '^f ')
[ "$got" = "$(printf '%s\n' 'f /opt/a/lib/libz.so /opt/a/src/z.c -5 -5' 'f /usr/x/lib/libz.so /usr/x/src/z.c 7 7')" ] &&
	! grep -q 'matched across builds' err.txt
check "unrelated programs: one shared base name matches nothing" $? "$got $(cat err.txt)"

# The program built again under another name (prog.old, then prog): each
# side's object named as its command's program is the same program, a
# whole path (prog-helper.so, which /w/prog begins, is not rewritten).
# B - A by hand: main self 12 - 10 = 2, inclusive (12 + 25) - (10 + 20) =
# 7; f 25 - 20 = 5; h 3 - 3 = 0.
o='ob=/w/prog-helper.so\nfl=/w/h.c\nfn=h\n5 3\n'
printf 'cmd: ./prog.old\nevents: Ir\nob=/w/prog.old\nfl=/w/a.c\nfn=main\n1 10\ncfn=f\ncalls=1 3\n2 20\nfn=f\n3 20\n'"$o" >n1.out
printf 'cmd: ./prog x\nevents: Ir\nob=/w/prog\nfl=/w/a.c\nfn=main\n1 12\ncfn=f\ncalls=1 3\n2 25\nfn=f\n3 25\n'"$o" >n2.out
got=$(fns --diff n1.out n2.out)
[ "$got" = "$(printf '%s\n' 'f /w/prog.old /w/a.c 5 5' 'h /w/prog-helper.so /w/h.c 0 0' \
	'main /w/prog.old /w/a.c 2 7')" ] &&
	grep -q "matched across builds: the second profile's /w/prog as /w/prog.old" err.txt
check "the program renamed: prog is prog.old" $? "$got $(cat err.txt)"
got=$(fns --diff --match-builds=no n1.out n2.out | grep -c '^main ')
[ "$got" = 2 ]
check "the program renamed, --match-builds=no: main twice" $? "$got"

finish
