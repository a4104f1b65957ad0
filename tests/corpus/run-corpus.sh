#!/bin/sh
# Every profile in ../shared/corpus/wild (written by other tools) loads, and
# the PROGRAM TOTALS of our report equal an independent sum of the file's
# self costs (selfsum.awk).
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
: "${CGTUI:=../../cgtui}"
here=$(cd "$(dirname "$0")" && pwd)
: "${CORPUS_DIR:=$here/../../../shared/corpus/wild}"
[ -x "$CGTUI" ] || { echo "SKIP: $CGTUI not built"; exit 77; }
[ -d "$CORPUS_DIR" ] || { echo "SKIP: no corpus at $CORPUS_DIR"; exit 77; }
out=$(mktemp)
trap 'rm -f "$out" "$out.err" "$out.0" "$out.1"' EXIT
pass=0 fail=0
for f in "$CORPUS_DIR"/*; do
	case "$f" in *.md) continue ;; esac
	name=$(basename "$f")
	if ! "$CGTUI" --batch --no-annotate "$f" >"$out" 2>"$out.err"; then
		echo "FAIL: $name: does not load: $(cat "$out.err")"
		fail=$((fail + 1))
		continue
	fi
	want=$(awk -f "$here/selfsum.awk" "$f")
	got=$(grep 'PROGRAM TOTALS' "$out" | sed -e 's/([^)]*)//g' -e 's/,//g' -e 's/PROGRAM TOTALS//' | tr -s ' ' | sed -e 's/^ //' -e 's/ $//')
	if [ "$got" = "$want" ]; then
		echo "PASS: $name: totals $got"
		pass=$((pass + 1))
	else
		echo "FAIL: $name: totals '$got', self costs add up to '$want'"
		fail=$((fail + 1))
	fi
	# the whole report (per-line sums included, for the annotation summary)
	# is the same whether line records are made while loading or read again
	# when the report asks for them
	for lazy in 0 1; do
		CGTUI_LAZY_LINES=$lazy "$CGTUI" --batch --threshold=0 --inclusive=yes "$f" \
			>"$out.$lazy" 2>&1
	done
	if cmp -s "$out.0" "$out.1"; then
		echo "PASS: $name: the same report with lines read when needed"
		pass=$((pass + 1))
	else
		echo "FAIL: $name: the report differs with lines read when needed"
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
