#!/bin/sh
# Every profile in ../shared/corpus/wild (written by other tools) loads, and
# the PROGRAM TOTALS of our report equal an independent sum of the file's
# self costs (selfsum.awk).  Each function's self cost per event and per
# file in the report equals an independent reading of the file
# (selfcost.py), for every corpus file, every profile under tests/ that
# loads, and a Valgrind run with --separate-callers=2 --separate-recs=3
# (whose compressed ids cgtui lost before issue 16).
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
: "${CORPUS_DIR:=$here/../../../shared/corpus/wild}"
[ -d "$CORPUS_DIR" ] || { echo "SKIP: no corpus at $CORPUS_DIR"; exit 77; }
out=$work/out
havepy=
command -v python3 >/dev/null 2>&1 && havepy=1

# selfcost FILE NAME: the report's function:file self costs against
# selfcost.py's reading of FILE (names as the file writes them: not
# demangled)
selfcost() {
	if [ -z "$havepy" ]; then
		echo "SKIP: $2: per-function costs (no python3)"
		return
	fi
	if ! "$CGTUI" --batch --threshold=0 --no-annotate --show-percs=no --demangle=no "$1" >"$out" 2>"$out.err"; then
		check "$2: loads" 1 "$(cat "$out.err")"
		return
	fi
	r=$(python3 "$here/selfcost.py" "$1" "$out")
	check "$2: per-function self costs" $? "$r"
}
for f in "$CORPUS_DIR"/*; do
	case "$f" in *.md) continue ;; esac
	name=$(basename "$f")
	if ! "$CGTUI" --batch --no-annotate "$f" >"$out" 2>"$out.err"; then
		check "$name: loads" 1 "$(cat "$out.err")"
		continue
	fi
	want=$(awk -f "$here/selfsum.awk" "$f")
	got=$(grep 'PROGRAM TOTALS' "$out" | sed -e 's/([^)]*)//g' -e 's/,//g' -e 's/PROGRAM TOTALS//' | tr -s ' ' | sed -e 's/^ //' -e 's/ $//')
	[ "$got" = "$want" ]
	check "$name: totals $got" $? "self costs add up to '$want'"
	# the whole report (per-line sums included, for the annotation summary)
	# is the same whether line records are made while loading or read again
	# when the report asks for them
	for lazy in 0 1; do
		CGTUI_LAZY_LINES=$lazy "$CGTUI" --batch --threshold=0 --inclusive=yes "$f" \
			>"$out.$lazy" 2>&1
	done
	cmp -s "$out.0" "$out.1"
	check "$name: the same report with lines read when needed or not" $? "they differ"
	selfcost "$f" "$name"
done

# the profiles under tests/ (those that load: tests/errors has broken ones
# on purpose, tests/fuzz sources after profiles); not the scripts and
# sources that hold profiles in their text (cgtui would run a script as a
# program to record)
grep -rlI --exclude='*.sh' --exclude='*.py' --exclude='*.c' --exclude='*.cc' \
	--exclude='*.h' --exclude='*.keys' '^events:' "$here/.." | sort >"$work/profiles"
while IFS= read -r f; do
	"$CGTUI" --batch --no-annotate "$f" >/dev/null 2>&1 || continue
	selfcost "$f" "tests/${f#"$here/../"}"
done <"$work/profiles"

# a Valgrind run whose compressed ids come in an order that lost some
# before issue 16: no id may be left undefined
if command -v valgrind >/dev/null 2>&1 && [ -x /usr/bin/sort ]; then
	seq 1 2000 | awk '{ print ($1 * 7919) % 2000 }' >"$work/nums"
	if valgrind --tool=callgrind --separate-callers=2 --separate-recs=3 \
		--callgrind-out-file="$work/callgrind.out" /usr/bin/sort -n "$work/nums" \
		>/dev/null 2>"$work/vg.log"; then
		"$CGTUI" --batch --no-annotate "$work/callgrind.out" >/dev/null 2>"$out.err"
		! grep -q 'never defined' "$out.err"
		check "callgrind --separate-callers=2 --separate-recs=3: every id found" $? \
			"$(head -3 "$out.err")"
		selfcost "$work/callgrind.out" "callgrind --separate-callers=2 --separate-recs=3 sort"
	else
		echo "SKIP: valgrind could not run sort: $(tail -2 "$work/vg.log")"
	fi
fi
[ "$pass" -gt 0 ] || check "something was checked" 1 "nothing"
finish
