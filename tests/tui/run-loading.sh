#!/bin/sh
# The loading screen (issue 19) in the headless mode: a profile of ~20 MB,
# whose functions come in two rounds of blocks (the second adds to the
# first), shown with CGTUI_LOADSCREEN_MS=0 at the loader's first progress
# step (every ~8 MB); the script's ":load-on" lets the load go on.
# check-loading.py reads the profile itself and checks the partial and the
# final screens; q on the loading screen ends cgtui at once, status 0,
# nothing written.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
# 400 functions, each in 2 blocks of 1000 lines (line numbers of 10
# digits, for the size): round 1 costs Ir (i % 37 + 1) per line, round 2
# (i % 11 + 1): ~20 MB, a few progress steps; Dr 1 a line in the 10
# functions i % 40 = 0 only
python3 - <<'PY'
with open("load.out", "w") as f:
    f.write("# callgrind format\nversion: 1\ncreator: test\npositions: line\nevents: Ir Dr\n\n")
    for rnd in (37, 11):
        for i in range(400):
            f.write("fl=file%d.c\nfn=func%03d\n" % (i % 7, i))
            c = "%d %d" % (i % rnd + 1, i % 40 == 0)
            f.write("".join("%d %s\n" % (ln + 1000000001, c) for ln in range(1000)))
            f.write("\n")
PY
ok() { check "$1" 0; }
bad() { check "$1" 1 failed; }
env() { TERM=xterm COLUMNS=80 LINES=24 LC_ALL=C CGTUI_CONFIG=/dev/null CGTUI_LOADSCREEN_MS=0 \
	CGTUI_SCRIPT=$1 "$CGTUI" load.out >stdout.txt 2>stderr.txt; }

{ echo ":dump partial.txt"; echo "jj"; echo ":dump moved.txt"
  i=0; while [ $i -lt 50 ]; do echo ":load-on"; i=$((i + 1)); done
  echo ":dump final.txt"; echo "q"; } >load.keys
env load.keys; rc=$?
if [ $rc = 0 ] && [ ! -s stdout.txt ] && [ ! -s stderr.txt ]; then ok "load: status 0, nothing written"
else bad "load: status $rc: $(cat stdout.txt stderr.txt)"; fi
if out=$(python3 "$here/check-loading.py" load.out partial.txt final.txt 2>&1); then ok "load: $out"
else bad "load: $out"; cat partial.txt final.txt; fi
# the function selected while loading is the one selected after: its row
sel=$(sed -n 6p moved.txt | awk '{ for (i = 1; i <= NF; i++) if ($i !~ /^[0-9,.]+%?$/) { print $i; exit } }')
row=$(sed -n '4,23p' final.txt | grep -n " $sel " | cut -d: -f1)
pos=$(tail -1 final.txt | awk '{print $NF}')
if [ -n "$row" ] && [ "${pos%%/*}" = "$row" ]; then ok "load: $sel selected on both screens (row $row)"
else bad "load: selected $sel, final row ${row:-none}, status line $pos"; fi

# the last row selected (G), then sorted by Dr (o), which 10 functions
# have: the selection on the last of those 10 rows (an ASan build saw a
# read past the rows' end)
printf 'G\no\n:dump end.txt\nq\n' >end.keys
env end.keys; rc=$?
last=$(tail -1 end.txt | awk '{print $NF}')
if [ $rc = 0 ] && [ ! -s stderr.txt ] && [ "$last" = 10/10 ] && grep -q "sort Dr self" end.txt
then ok "G, then o while loading: the last of the 10 rows with Dr selected"
else bad "G, o while loading: status $rc, $(cat stderr.txt), status line $last"; fi

# q on the loading screen: at once, status 0, nothing on stdout
printf ':dump q.txt\nq\n:dump never.txt\n' >q.keys
env q.keys; rc=$?
if [ $rc = 0 ] && [ ! -s stdout.txt ] && [ ! -s stderr.txt ] && grep -q '^loading ' q.txt && [ ! -f never.txt ]
then ok "q while loading: status 0, nothing written"
else bad "q while loading: status $rc, $(cat stdout.txt stderr.txt), $(sed -n 2p q.txt)"; fi
finish
