#!/bin/sh
# Malformed profiles: each must give exactly the expected "FILE:LINE: reason"
# on stderr, exit status 2, nothing on stdout, and never a crash.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
cp "$here"/cases/* .
mkdir a-directory
while IFS='	' read -r files want; do
	case "$files" in '#'*|'') continue ;; esac
	# shellcheck disable=SC2086
	"$CGTUI" --batch $files >out.txt 2>err.txt
	rc=$?
	got=$(cat err.txt)
	if [ "$rc" = 2 ] && [ "$got" = "cgtui: $want" ] && [ ! -s out.txt ]; then
		echo "PASS: $files"
		pass=$((pass + 1))
	else
		echo "FAIL: $files: exit $rc (want 2)"
		echo "  want: cgtui: $want"
		echo "  got:  $got"
		[ -s out.txt ] && echo "  and something on stdout"
		fail=$((fail + 1))
	fi
done <"$here/expected.txt"

# A profile that uses an id it never defines still loads, with a warning.
printf 'events: Ir\nfl=a.c\nfn=f\n1 5\ncob=(3)\ncfn=(2) g\ncalls=1 1\n1 1\n' >undef.prof
"$CGTUI" --batch --no-annotate undef.prof >out.txt 2>err.txt
rc=$?
if [ $rc = 0 ] && grep -q "^cgtui: warning: undef.prof:5: object id (3) is used but never defined; shown as (3)$" err.txt; then
	echo "PASS: undefined id is a warning"; pass=$((pass + 1))
else
	echo "FAIL: undefined id: exit $rc: $(cat err.txt)"; fail=$((fail + 1))
fi

# Odd but loadable files: exit 0, exactly the warnings expected (or none),
# the totals expected (warnings.txt).
while IFS='	' read -r files want total; do
	case "$files" in '#'*|'') continue ;; esac
	[ "$want" = - ] && want=''
	"$CGTUI" --batch --no-annotate --threshold=100 "$files" >out.txt 2>err.txt
	rc=$?
	got=$(sed -e 's/^cgtui: //' err.txt | awk 'NR > 1 { printf " | " } { printf "%s", $0 }')
	tot=$(grep 'PROGRAM TOTALS' out.txt | sed -e 's/([^)]*)//g' -e 's/,//g' -e 's/PROGRAM TOTALS//' | tr -d ' ')
	if [ "$rc" = 0 ] && [ "$got" = "$want" ] && [ "$tot" = "$total" ]; then
		echo "PASS: $files loads${want:+ with: $want}"
		pass=$((pass + 1))
	else
		echo "FAIL: $files: exit $rc (want 0), totals '$tot' (want $total)"
		echo "  want: $want"
		echo "  got:  $got"
		fail=$((fail + 1))
	fi
done <"$here/warnings.txt"

finish
