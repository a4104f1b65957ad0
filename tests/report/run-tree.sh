#!/bin/sh
# The batch report's --tree blocks of cycles: <cycle N> has a block of its
# own, as a function has, among the functions' blocks in the report's
# order (inclusive cost with --inclusive=yes, else self cost), shown by the
# same threshold.  Its numbers are the one cycle rule's (ARCHITECTURE.md,
# KCachegrind's): its inclusive cost is its members' self plus the calls
# leaving it, which is also what the calls entering it from outside cost;
# its callers are those calls, each with the member it calls; its callees
# its members, at their inclusive costs (self plus their calls leaving
# the cycle), each with the calls it gets from outside.
#
# cycle-tree.out (by hand): main (self 10) calls a 1x (100) and b 2x (60);
# a (50) and b (40) call each other; a calls leaf 1x (20), b 2x (50); leaf
# self 70.  Total 170.  <cycle 1> = {a, b}: self 50 + 40 = 90, inclusive
# 90 + 20 + 50 = 160 = 100 + 60; a's inclusive 50 + 20 = 70, b's 40 + 50
# = 90.  Percentages of 170: 160 94.1%, 100 58.8%, 90 52.9%, 70 41.2%,
# 60 35.3%.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
export LC_ALL=C
f=$here/cycle-tree.out

tree() { # options; the tree section, blanks squeezed
	"$CGTUI" --batch --no-annotate --tree=both "$@" 2>err.txt |
		sed -n '/Callers and callees/,$p' | tr -s ' ' >out.txt
}
# The block whose "*" line is $1, from its callers to its callees.
block() {
	awk -v star="$1" 'BEGIN { RS = ""; FS = "\n" }
		{ for (i = 1; i <= NF; i++) if ($i == star) { print; exit } }' out.txt
}

tree --inclusive=yes --threshold=0 "$f"
printf '%s\n' ' 100 (58.8%) < cyc.c:main into cyc.c:a (1x)' \
	' 60 (35.3%) < cyc.c:main into cyc.c:b (2x)' \
	' 160 (94.1%) * <cycle 1>' \
	' 90 (52.9%) > cyc.c:b <cycle 1> (2x)' \
	' 70 (41.2%) > cyc.c:a <cycle 1> (1x)' >want.txt
block ' 160 (94.1%) * <cycle 1>' >got.txt
cmp -s want.txt got.txt
check "<cycle 1>: its block, callers and members by hand" $? "$(diff want.txt got.txt)"
order=$(grep ' \* ' out.txt | sed 's/.* \* //' | tr '\n' '|')
case $order in
'cyc.c:main|<cycle 1>|cyc.c:b <cycle 1>|'*) r=0 ;;
*) r=1 ;;
esac
check "--inclusive=yes: the cycle's block after main's (170), before b's (90)" $r "$order"

# by self cost: the cycle's 90 first, before leaf's 70
tree --threshold=0 "$f"
order=$(grep ' \* ' out.txt | sed 's/.* \* //' | tr '\n' '|')
check "by self cost: the cycle's block (90) first" \
	"$([ "$order" = '<cycle 1>|cyc.c:leaf|cyc.c:a <cycle 1>|cyc.c:b <cycle 1>|cyc.c:main|' ]; echo $?)" \
	"$order"

# the threshold: 94.1% is above 90%, not above 95%
tree --inclusive=yes --threshold=90 "$f"
order=$(grep ' \* ' out.txt | sed 's/.* \* //' | tr '\n' '|')
check "--threshold=90: main's and the cycle's blocks" \
	"$([ "$order" = 'cyc.c:main|<cycle 1>|' ]; echo $?)" "$order"
tree --inclusive=yes --threshold=95 "$f"
order=$(grep ' \* ' out.txt | sed 's/.* \* //' | tr '\n' '|')
check "--threshold=95: main's block alone" "$([ "$order" = 'cyc.c:main|' ]; echo $?)" "$order"

# no detection, no cycle
tree --inclusive=yes --threshold=0 --cycles=no "$f"
! grep -q '<cycle' out.txt
check "--cycles=no: no cycle's block" $? "$(grep '<cycle' out.txt | head -3)"

# members with objects (tests/tui/recursion.out: main calls a 1x, 90; a
# and b call each other, no call leaves them; self main 10, a 50, b 40):
# <cycle 1> 90, called by main into a; a 50, b 40, b never called from
# outside
tree --inclusive=yes --threshold=0 "$here/../tui/recursion.out"
printf '%s\n' ' 90 (90.0%) < prog.c:main [/bin/prog] into rec.c:a [/lib/librec.so] (1x)' \
	' 90 (90.0%) * <cycle 1>' \
	' 50 (50.0%) > rec.c:a <cycle 1> [/lib/librec.so] (1x)' \
	' 40 (40.0%) > rec.c:b <cycle 1> [/lib/librec.so] (0x)' >want.txt
block ' 90 (90.0%) * <cycle 1>' >got.txt
cmp -s want.txt got.txt
check "recursion.out: <cycle 1>'s block" $? "$(diff want.txt got.txt)"

finish
