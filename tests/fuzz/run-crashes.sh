#!/bin/sh
# Every input the fuzzer ever failed on (crashes/) goes through the batch
# report (with inclusive costs and call trees) and the explorer: a message
# and exit 2, or a report and exit 0 -- never a crash, a hang or a sanitizer
# report.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
printf 'F\nf\nt\n<Tab>\nm\ns\nq\n' >"$work/keys"
for f in "$here"/crashes/*; do
	name=$(basename "$f")
	timeout 60 "$CGTUI" --batch --threshold=0 --inclusive=yes --tree=both "$f" \
		>"$work/out" 2>"$work/err"
	rc=$?
	CGTUI_CONFIG=/dev/null CGTUI_SCRIPT="$work/keys" timeout 60 "$CGTUI" "$f" >/dev/null 2>"$work/err2"
	rc2=$?
	if { [ $rc = 0 ] || [ $rc = 2 ]; } && { [ $rc2 = 0 ] || [ $rc2 = 2 ]; } &&
		! grep -q -e 'runtime error' -e 'Sanitizer' "$work/err" "$work/err2"; then
		echo "PASS: $name (report exit $rc, explorer exit $rc2)"
		pass=$((pass + 1))
	else
		echo "FAIL: $name: report exit $rc, explorer exit $rc2"
		head -5 "$work/err" "$work/err2"
		fail=$((fail + 1))
	fi
done
finish
