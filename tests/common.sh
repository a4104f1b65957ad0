# shellcheck shell=sh
# common.sh -- sourced by test scripts: finds cgtui (CGTUI, made absolute;
# SKIP when not built), sets $here (the script's directory), makes a
# temporary directory $work, removed at exit, and goes into it; counts
# results with `check NAME STATUS DETAIL` (status 0 passes) and closes
# with `finish`, which prints the "N passed, N failed" line and returns
# its status.
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
: "${CGTUI:=../../cgtui}"
[ -x "$CGTUI" ] || { echo "SKIP: $CGTUI not built"; exit 77; }
case "$CGTUI" in /*) ;; *) CGTUI=$(pwd)/$CGTUI ;; esac
# shellcheck disable=SC2034 # for the sourcing script
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
pass=0 fail=0
check() {
	if [ "$2" = 0 ]; then
		echo "PASS: $1"
		pass=$((pass + 1))
	else
		echo "FAIL: $1: $3"
		fail=$((fail + 1))
	fi
}
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
# The profiles every --jobs test reads, on stdout: the corpus files
# ($CORPUS_DIR, by default the shared wild corpus) and every file under
# tests/ with an `events:` line that loads, scripts and sources aside.
loadable_profiles() {
	for f in "${CORPUS_DIR:-$here/../../../shared/corpus/wild}"/*; do
		case "$f" in *.md) continue ;; esac
		[ -f "$f" ] && echo "$f"
	done
	grep -rlI '^events:' "$here/.." | sort | while read -r f; do
		case "$f" in *.sh | *.py | *.c) continue ;; esac
		"$CGTUI" --batch --no-annotate "$f" >/dev/null 2>&1 && echo "$f"
	done
}
