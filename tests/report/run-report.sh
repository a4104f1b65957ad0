#!/bin/sh
# Our batch report, compared line by line with what cg_annotate (Valgrind
# 3.21+, the Python one) printed for the same profiles and options; see
# README.md for how expected/ was made.  The Invocation: line differs by
# nature and is left out of the comparison.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
cp "$here"/prog.c "$here"/edge.c "$here"/*.cgout .
while IFS='	' read -r name args; do
	case "$name" in '#'*|'') continue ;; esac
	# sources older than the profiles, but for the case about the warning
	case "$name" in
	newer-*) touch -d '2030-01-01' prog.c edge.c ;;
	*) touch -d '2020-01-01' prog.c edge.c ;;
	esac
	# shellcheck disable=SC2086
	"$CGTUI" --batch $args 2>err.txt | grep -v '^Invocation:' >got.txt
	if diff -u "$here/expected/$name.txt" got.txt >diff.txt; then
		echo "PASS: $name"
		pass=$((pass + 1))
	else
		echo "FAIL: $name ($args)"
		head -40 diff.txt
		fail=$((fail + 1))
	fi
done <"$here/cases.txt"
finish
