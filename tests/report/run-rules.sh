#!/bin/sh
# cg_annotate 3.21+'s rules on source files under --mod-filename, the
# warning about sources newer than the profiles, and the descriptions of
# several profiles, on small profiles written here.  The expected reports
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

finish
