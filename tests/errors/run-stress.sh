#!/bin/bash
# Hostile sizes and shapes: a 1 MB name, a call chain a million deep,
# 300 files with 64 descriptors, two million tiny functions, one function
# in 50,000 files, and files that shrink or grow while they are read.  Each must load (or fail with a message), never crash or hang.
# Expected totals are the counts written below.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
totals() { grep 'PROGRAM TOTALS' | sed -e 's/([^)]*)//g' -e 's/,//g' -e 's/PROGRAM TOTALS//' | tr -d ' '; }

# a function name of 1 MB
awk 'BEGIN { printf "events: Ir\nfl=a.c\nfn="; for (i = 0; i < 1048576; i++) printf "x"; printf "\n1 42\n" }' >bigname.out
got=$(timeout 60 "$CGTUI" --batch --no-annotate bigname.out | totals)
check "a 1 MB function name" "$([ "$got" = 42 ]; echo $?)" "totals '$got'"

# a call chain a million deep: f0 -> f1 -> ... -> f999999, each self 1;
# the call fK -> fK+1 costs what is below it: 999999 - K
awk 'BEGIN { n = 1000000; print "events: Ir"; print "fl=a.c"
	for (k = 0; k < n; k++) { print "fn=f" k; print "1 1"
		if (k + 1 < n) { print "cfn=f" (k + 1); print "calls=1 1"; print "1 " n - 1 - k } } }' >chain.out
out=$(timeout 120 "$CGTUI" --batch --no-annotate --inclusive=yes --tree=both --threshold=99.9999 chain.out)
rc=$?
echo "$out" | grep -q '^> 1,000,000 (100.0%)  f0:$'
check "a call chain a million deep: inclusive of f0 = 1,000,000 (exit $rc)" $? "$(echo "$out" | grep '^>' | head -3)"
printf 'F\n<End>\n<Enter>\n:dump chain-screen.txt\nq\n' >chain.keys
CGTUI_CONFIG=/dev/null CGTUI_SCRIPT=chain.keys timeout 120 "$CGTUI" chain.out >/dev/null 2>&1
rc=$?
check "a call chain a million deep in the explorer (exit $rc)" "$([ $rc = 0 ] && grep -q '1 caller' chain-screen.txt; echo $?)" "$(head -8 chain-screen.txt 2>/dev/null)"

# more files at once than the process may have open (a run with hundreds of
# threads): each is read in place and kept mapped, not kept open; the
# explorer reads their lines again when a view asks
for i in $(seq 300); do printf 'events: Ir\nfl=a.c\nfn=f\n%d 1\n' "$i" >"many.$i.out"; done
got=$(ulimit -n 64 && timeout 60 "$CGTUI" --batch --no-annotate --threshold=100 many.*.out 2>&1 | totals)
check "300 files with 64 descriptors" "$([ "$got" = 300 ]; echo $?)" "totals '$got'"
printf 's\n:dump many-screen.txt\nq\n' >many.keys
(ulimit -n 64 && CGTUI_CONFIG=/dev/null CGTUI_SCRIPT=many.keys COLUMNS=100 LINES=40 timeout 60 "$CGTUI" -I . many.*.out >/dev/null 2>&1)
rc=$?
check "300 files with 64 descriptors, the source view (exit $rc)" \
	"$([ $rc = 0 ] && grep -q '^ *1 *0.3% *1$' many-screen.txt &&
		grep -q '^ *1 *0.3% *10$' many-screen.txt; echo $?)" "$(head -12 many-screen.txt 2>/dev/null)"

# two million tiny functions
awk 'BEGIN { print "events: Ir"; print "fl=a.c"; for (i = 0; i < 2000000; i++) { print "fn=f" i; print "1 1" } }' >tiny.out
got=$(timeout 120 "$CGTUI" --batch --no-annotate --threshold=100 tiny.out | totals)
check "two million tiny functions" "$([ "$got" = 2000000 ]; echo $?)" "totals '$got'"

# one function with lines in 50,000 files, annotated (threshold 0) and with
# inclusive costs: each file's lines are read on their own (it took 31 s
# when every file re-read all of the function's lines)
awk 'BEGIN { print "events: Ir"; print "fn=f"; for (i = 0; i < 50000; i++) { print "fl=" i ".c"; print "1 1"; print "2 1" } }' >manyfiles.out
timeout 20 "$CGTUI" --batch --threshold=0 --inclusive=yes manyfiles.out >manyfiles.txt 2>&1
rc=$?
got=$(totals <manyfiles.txt)
n=$(grep -Ec '^ +2 +\(0\.0%\) +[0-9]+\.c$' manyfiles.txt)
check "one function in 50,000 files: totals 100000, 50000 files under f, in time (exit $rc)" \
	"$([ $rc = 0 ] && [ "$got" = 100000 ] && [ "$n" = 50000 ]; echo $?)" "totals '$got', $n file rows"

# a file that shrinks while it is read: a message or a shorter profile, no crash
cp tiny.out shrink.out
("$CGTUI" --batch --no-annotate --threshold=100 shrink.out >shrink.txt 2>shrink.err; echo $? >shrink.rc) &
sleep 0.05
truncate -s 100000 shrink.out
wait
rc=$(cat shrink.rc)
check "a file that shrinks while read: exit 0 or 2, no crash (exit $rc)" "$([ "$rc" = 0 ] || [ "$rc" = 2 ]; echo $?)" "$(cat shrink.err)"

# a file that grows while it is read (a profile still being written)
printf 'events: Ir\nfl=a.c\nfn=f\n' >grow.out
(for i in $(seq 2000); do echo "$i 1"; done >>grow.out) &
timeout 60 "$CGTUI" --batch --no-annotate --threshold=100 grow.out >grow.txt 2>grow.err
rc=$?
wait
check "a file that grows while read: loads what is there (exit $rc)" "$([ $rc = 0 ] || [ $rc = 2 ]; echo $?)" "$(cat grow.err)"

finish
