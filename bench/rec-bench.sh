#!/usr/bin/env bash
# rec-bench.sh -- the recorder's speed against Valgrind's own tools, all
# measured in one run: user CPU seconds (the machine is shared) of
#   none        valgrind --tool=none
#   cg          cachegrind --cache-sim=no
#   cg-sim      cachegrind --cache-sim=yes --branch-sim=yes
#   clg         callgrind
#   clg-sim     callgrind --cache-sim=yes --branch-sim=yes
#   cgtui       our tool: Ir and the call graph (--contexts=no: every
#               cgtui column but the -ctx ones records no contexts)
#   cgtui-sim   our tool with --cache-sim=yes --branch-sim=yes
#   cgtui-host  our tool with --cache-model=host --branch-sim=yes (every
#               level of this machine's caches, from sysfs)
#   cgtui-2cfg  our tool with two models at once: --cache-model=cachegrind
#               --cache-model=host --branch-sim=yes
#   cgtui-mrc   cgtui-sim with miss-ratio curves at 1% sampling
#               (--cache-mrc=yes --cache-mrc-rate=1)
#   cgtui-use   cgtui-sim with line utilisation (--cache-use=yes)
#   clg-use     callgrind --cache-sim=yes --branch-sim=yes --cacheuse=yes
#   cgtui-ctx   cgtui with the calling contexts (--contexts=yes)
#   cgtui-sim-ctx  cgtui-sim with the calling contexts
# on bzip2 compressing a few MB and on a call-heavy program (qsort with a
# callback, a recursive interpreter through a table of function pointers).
# Prints a table and the ratios the issues set targets for:
#   cgtui / cg <= 1.0, cgtui-sim / cg-sim <= 1.0,
#   cgtui-host / cgtui-sim <= 1.25, cgtui-2cfg / cgtui-sim <= 1.6,
#   cgtui-mrc / cgtui-sim <= 1.3, cgtui-ctx / cgtui <= 1.3 (contexts are on
#   by default since they met it), cgtui-sim-ctx / cgtui-sim; and, with no target,
#   cgtui-use / cgtui-sim and clg-use / clg-sim (what callgrind's --cacheuse
#   costs it).
# (cgtui-sim's LL is the one cachegrind picks from CPUID: on a virtual
# machine it may be odd; the desc: lines of the profile say which.)
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: rec-bench.sh [BUILDDIR]   (default: the current directory; it holds
# vglib/ with cgtui-PLATFORM and links to cachegrind and callgrind)
#   MB=n      size of bzip2's input in MB (default 4)
#   ROUNDS=n  rounds of the interpreter (default 200)
#   RUNS=n    runs of each, the fastest kept (default 1)
#   TOOLS="a b"  only these columns (default: all)

set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-.}
build=$(cd "$build" && pwd)
export VALGRIND_LIB=$build/vglib
unset VALGRIND_OPTS
mb=${MB:-4}
rounds=${ROUNDS:-200}
runs=${RUNS:-1}
tool=""
for f in "$VALGRIND_LIB"/cgtui-*-*; do
	[ -e "$f" ] && tool=$f
done
[ -n "$tool" ] || { echo "rec-bench: no tool in $VALGRIND_LIB" >&2; exit 2; }
command -v bzip2 >/dev/null || { echo "rec-bench: bzip2 not found" >&2; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/cgtui-rec-bench.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
${CC:-cc} -O2 -g -o "$T/calls" "$here/rec-calls-bench.c" || exit 1
# input for bzip2: text-like, compressible, the same every run
python3 - "$T/input" "$mb" <<'PY'
import random, sys
r = random.Random(1)
words = [''.join(r.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(r.randint(2, 9)))
         for _ in range(5000)]
out, size = [], 0
want = int(sys.argv[2]) << 20
while size < want:
    line = ' '.join(r.choice(words) for _ in range(12)) + '\n'
    out.append(line)
    size += len(line)
open(sys.argv[1], 'w').write(''.join(out)[:want])
PY

tools=(none cg cg-sim clg clg-sim clg-use cgtui cgtui-sim cgtui-host cgtui-2cfg cgtui-mrc cgtui-use
	cgtui-ctx cgtui-sim-ctx)
if [ -n "${TOOLS:-}" ]; then
	read -r -a tools <<<"$TOOLS"
fi
args_of() {
	case $1 in
	none) echo "--tool=none" ;;
	cg) echo "--tool=cachegrind --cache-sim=no --cachegrind-out-file=$T/out" ;;
	cg-sim) echo "--tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=$T/out" ;;
	clg) echo "--tool=callgrind --callgrind-out-file=$T/out" ;;
	clg-sim) echo "--tool=callgrind --cache-sim=yes --branch-sim=yes --callgrind-out-file=$T/out" ;;
	cgtui) echo "--tool=cgtui --contexts=no --cgtui-out-file=$T/out" ;;
	cgtui-sim) echo "--tool=cgtui --contexts=no --cache-sim=yes --branch-sim=yes --cgtui-out-file=$T/out" ;;
	cgtui-host) echo "--tool=cgtui --contexts=no --cache-model=host --branch-sim=yes --cgtui-out-file=$T/out" ;;
	cgtui-2cfg) echo "--tool=cgtui --contexts=no --cache-model=cachegrind --cache-model=host --branch-sim=yes --cgtui-out-file=$T/out" ;;
	cgtui-mrc) echo "--tool=cgtui --contexts=no --cache-sim=yes --branch-sim=yes --cache-mrc=yes --cache-mrc-rate=1 --cgtui-out-file=$T/out" ;;
	cgtui-use) echo "--tool=cgtui --contexts=no --cache-sim=yes --branch-sim=yes --cache-use=yes --cgtui-out-file=$T/out" ;;
	clg-use) echo "--tool=callgrind --cache-sim=yes --branch-sim=yes --cacheuse=yes --callgrind-out-file=$T/out" ;;
	cgtui-ctx) echo "--tool=cgtui --contexts=yes --cgtui-out-file=$T/out" ;;
	cgtui-sim-ctx) echo "--tool=cgtui --cache-sim=yes --branch-sim=yes --contexts=yes --cgtui-out-file=$T/out" ;;
	esac
}
measure() {  # tool, program and arguments: the fastest user time of $runs
	local tool=$1 best="" t
	shift
	for _ in $(seq "$runs"); do
		# shellcheck disable=SC2046
		# nulgrind is not linked into vglib/: the installed one (same core)
		if [ "$tool" = none ]; then
			/usr/bin/time -o "$T/time" -f %U env -u VALGRIND_LIB valgrind -q --tool=none "$@" \
				>/dev/null 2>&1
		else
			/usr/bin/time -o "$T/time" -f %U valgrind -q $(args_of "$tool") "$@" >/dev/null 2>&1
		fi
		t=$(tail -n 1 "$T/time")
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
	done
	echo "$best"
}

declare -A secs
progs=(bzip2 calls)
for p in "${progs[@]}"; do
	for tool in "${tools[@]}"; do
		case $p in
		bzip2) secs[$p,$tool]=$(measure "$tool" bzip2 -9 -c "$T/input") ;;
		calls) secs[$p,$tool]=$(measure "$tool" "$T/calls" "$rounds") ;;
		esac
	done
done

# the ratios whose two columns were measured
ratios=("cgtui/cg" "cgtui-sim/cg-sim" "cgtui-host/cgtui-sim" "cgtui-2cfg/cgtui-sim"
	"cgtui-mrc/cgtui-sim" "cgtui-use/cgtui-sim" "clg-use/clg-sim" "cgtui-ctx/cgtui"
	"cgtui-sim-ctx/cgtui-sim")
printf '%-8s' "program"
for tool in "${tools[@]}"; do printf ' %10s' "$tool"; done
for r in "${ratios[@]}"; do
	[ -n "${secs[${progs[0]},${r%/*}]:-}" ] && [ -n "${secs[${progs[0]},${r#*/}]:-}" ] &&
		printf ' %s' "$r"
done
printf '\n'
for p in "${progs[@]}"; do
	printf '%-8s' "$p"
	for tool in "${tools[@]}"; do printf ' %10s' "${secs[$p,$tool]}"; done
	for r in "${ratios[@]}"; do
		a=${secs[$p,${r%/*}]:-} b=${secs[$p,${r#*/}]:-}
		[ -n "$a" ] && [ -n "$b" ] &&
			awk -v a="$a" -v b="$b" -v w="${#r}" 'BEGIN { printf " %*.2f", w, a / b }'
	done
	printf '\n'
done
echo "(user CPU seconds; bzip2 -9 on $mb MB, the interpreter $rounds rounds + qsort of 300000)"
