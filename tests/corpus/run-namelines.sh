#!/bin/sh
# Name lines (fn=, fl=, fi=, fe=, ob=, cfn=, cfi=, cob=, jfi=, jfn=: format
# spec 3.1.5) read in place in a mapped file (fast.c) give what the general
# parser gives: the same profile compressed with gzip is read line by line
# by parse_line() alone, so its report, warnings and errors (with their
# line numbers) are the reference.  The lines stand inside open blocks,
# far from the end of the file, where the mapped reader's fast paths are
# used; names with trailing blanks, ids defined again with another name,
# an empty cfi=, lines ending "\r\n", a NUL byte and a key after calls=
# that may not stand there are among them.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
command -v gzip >/dev/null || { echo "SKIP: no gzip"; exit 77; }

# body BAD: a profile with name lines of every kind inside blocks; BAD is
# a line put in the middle (empty: none), then cost lines so that
# everything before them is well before the end
body() {
	awk -v bad="$1" 'BEGIN {
		print "# callgrind format"; print "events: Ir Dr"; print "positions: line"
		print "ob=(1) /bin/prog"; print "fl=(1) a.c"
		for (f = 0; f < 200; f++) {
			if (f % 50 == 7) printf "fl=(%d) dir/file %d.c   \n", f + 2, f
			if (f % 3 == 0) printf "\nfn=(%d) fun_%d(int, char const*)\n", f + 1, f
			else printf "\nfn=(%d) f%d\n", f + 1, f
			print "3 5 1"; print "+1 2"
			if (f == 100 && bad != "") print bad
			if (f % 4 == 1) printf "fi=(%d) inl %d.h\n4 1 1\nfe=(1)\n", 1000 + f, f
			printf "cob=(%d) lib%d.so\ncfi=(%d) b%d.c \ncfn=(%d) callee_%d\n", f % 5 + 2, f % 5, 500 + f, f, 2000 + f, f
			print "calls=2 10"; print "+2 7 3"
			if (f % 10 == 3) print "jfi=(1)\njfn=(2)\njump=1 20\n+1"
			if (f > 0) printf "cfn=(%d)\ncfi=\ncalls=1 5\n* 3 1\n", f
			if (f % 25 == 9) printf "cfn=(%d) renamed_%d\ncalls=1 5\n* 1\n", 2000 + f - 1, f
			if (f > 2) printf "ob=(%d) /lib/other%d.so\n", f % 7 + 20, f % 7
			print "+3 1 1"
		}
		print "\nfn=(9999) padding"
		for (i = 0; i < 400; i++) printf "%d %d 1\n", i + 1, i % 9
	}'
}

# same NAME: the mapped NAME.prof and NAME.prof.gz give the same report
# and messages (the file's name aside), at 1 job and at 2 with small chunks
same() {
	gzip -c "$1.prof" >"$1.prof.gz"
	for j in 1 2; do
		CGTUI_CHUNK_BYTES=4096 "$CGTUI" --batch --threshold=0 --inclusive=yes --jobs=$j \
			"$1.prof" >m.txt 2>&1
		echo "exit $?" >>m.txt
		"$CGTUI" --batch --threshold=0 --inclusive=yes "$1.prof.gz" >g.txt 2>&1
		echo "exit $?" >>g.txt
		grep -v '^Invocation' m.txt >m2.txt
		grep -v '^Invocation' g.txt | sed "s/$1\.prof\.gz/$1.prof/g" >g2.txt
		cmp -s m2.txt g2.txt
		check "$1 at $j job(s): as the general parser reads it" $? "$(diff g2.txt m2.txt | head -5)"
	done
}

body "" >ok.prof
same ok
"$CGTUI" --batch ok.prof >out.txt 2>err.txt
grep -q 'id (2008) redefined with another name' err.txt
check "ok: a redefined id is warned about" $? "$(cat err.txt)"

body "cfn=(7) crlf name$(printf '\r')" >crlf.prof
same crlf
body "cfn=(7) nul$(printf '\001')name" | tr '\001' '\000' >nul.prof
same nul
grep -q 'binary data' m.txt
check "nul: a NUL byte in a name line is an error" $? "$(cat m.txt)"
body "calls=1 5
fn=(3)
* 1" >incall.prof
same incall
grep -q 'calls= line not followed by its cost line' m.txt
check "incall: fn= after calls= is an error" $? "$(cat m.txt)"
finish
