# shellcheck shell=bash
# rec-common.sh -- sourced by the recorder's test scripts (run-recorder.sh,
# run-calls.sh, run-contexts.sh, run-timeline.sh): options, finding cgtui and the tool, the temporary
# directory, PASS/FAIL counting.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The sourcing script sets `name` (for messages) and `ref` (the Valgrind
# tool it compares with: cachegrind or callgrind), then sources this file
# with its own arguments.  Afterwards: $here, $keep, $CGTUI, $VGLIB, $plat,
# $cc, $T (removed at exit unless --keep), skip, pass, fail, $fails.

set -u
export LC_ALL=C
: "${name:?rec-common.sh: the sourcing script sets name}" "${ref:?and ref}"

here=$(cd "$(dirname "$0")" && pwd)
keep=${RECORDER_KEEP:-0}
for arg in "$@"; do
	case $arg in
	--keep) keep=1 ;;
	*) echo "usage: $(basename "$0") [--keep]" >&2; exit 2 ;;
	esac
done

skip() {
	echo "SKIP: $name: $*"
	exit 77
}

if [ -z "${CGTUI:-}" ]; then
	for c in "${abs_top_builddir:+$abs_top_builddir/cgtui}" ./cgtui \
		"$here/../../cgtui" ../../cgtui; do
		if [ -n "$c" ] && [ -x "$c" ] && [ ! -d "$c" ]; then
			CGTUI=$c
			break
		fi
	done
	: "${CGTUI:=../../cgtui}"
fi
case $CGTUI in /*) ;; *) CGTUI=$PWD/$CGTUI ;; esac
if [ ! -x "$CGTUI" ] || [ -d "$CGTUI" ]; then
	skip "cgtui not executable: $CGTUI (set CGTUI)"
fi
VGLIB=${VGLIB:-$(dirname "$CGTUI")/vglib}
tool=""
for f in "$VGLIB"/cgtui-*-*; do
	[ -e "$f" ] && tool=$f && break
done
[ -n "$tool" ] || skip "the Valgrind tool is not built (no $VGLIB/cgtui-PLATFORM)"
plat=${tool##*/cgtui-}
[ -e "$VGLIB/$ref-$plat" ] || skip "no $ref-$plat in $VGLIB"
for t in valgrind callgrind_annotate python3; do
	command -v "$t" >/dev/null 2>&1 || skip "$t not found"
done
cc=${CC:-cc}
command -v "${cc%% *}" >/dev/null 2>&1 || skip "C compiler '$cc' not found"

T=$(mktemp -d "${TMPDIR:-/tmp}/cgtui-$name.XXXXXX") || exit 99
cleanup() {
	if [ "$keep" = 1 ]; then
		echo "$name: kept $T"
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT

fails=0
# rec_options [OPTIONS --] PROGRAM ARGS: the options before -- into
# REC_OPTS, the program and its arguments into REC_ARGS (each script's
# record() passes them to the tool)
rec_options() {
	REC_OPTS=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		REC_OPTS+=("$1")
		shift
	done
	shift
	REC_ARGS=("$@")
}

pass() { echo "PASS: $1"; }
fail() {
	echo "FAIL: $1: $2"
	fails=$((fails + 1))
}
# Passes on the PASS:/FAIL: lines a checker script wrote to FILE, under
# NAME; any other line is a failure of the checker itself.
relay() { # name, file
	while IFS= read -r line; do
		case $line in
		PASS:*) pass "$1: ${line#PASS: }" ;;
		FAIL:*) fail "$1" "${line#FAIL: }" ;;
		*) fail "$1: checker" "$line" ;;
		esac
	done <"$2"
}
