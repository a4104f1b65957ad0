#!/usr/bin/env bash
# golden.sh - golden tests: cgtui --batch against cg_annotate and
# callgrind_annotate on profiles recorded here with the installed Valgrind.
#
# Copyright (C) the cgtui authors.
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Usage: golden.sh [--keep]
#   CGTUI=path      the cgtui binary (default: $abs_top_builddir/cgtui,
#                   ./cgtui, or ../../cgtui relative to this script)
#   CC=compiler     C compiler (default: cc)
#   GOLDEN_FILTER=regex   only run comparisons whose name matches
#   GOLDEN_KEEP=1 / --keep   keep the temporary directory
#
# Prints "PASS: name" or "FAIL: name: reason" per comparison.  Exits 0 when
# all pass, 1 when any fails, 77 (skip) when a prerequisite is missing.

# Functions run through bg() look unreachable to shellcheck, and option
# strings such as $GEOM are split into words on purpose:
# shellcheck disable=SC2317,SC2086

set -u
export LC_ALL=C

keep=${GOLDEN_KEEP:-0}
for arg in "$@"; do
	case $arg in
	--keep) keep=1 ;;
	*) echo "usage: golden.sh [--keep]" >&2; exit 2 ;;
	esac
done

skip() {
	echo "SKIP: golden: $*"
	exit 77
}

# --- prerequisites --------------------------------------------------------
for t in valgrind cg_annotate callgrind_annotate cg_diff cg_merge python3 perl; do
	command -v "$t" >/dev/null 2>&1 || skip "$t not found"
done
cc=${CC:-cc}
command -v "${cc%% *}" >/dev/null 2>&1 || skip "C compiler '$cc' not found"

# CGTUI not set: the build tree's, or one beside these sources, before
# common.sh's ../../cgtui
if [ -z "${CGTUI:-}" ]; then
	for c in "${abs_top_builddir:+$abs_top_builddir/cgtui}" ./cgtui \
		"$(dirname "$0")/../../cgtui"; do
		if [ -n "$c" ] && [ -x "$c" ] && [ ! -d "$c" ]; then
			CGTUI=$c
			break
		fi
	done
fi
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"

start=$(date +%s%N)
T=$work
# common.sh's trap, but --keep keeps the directory
cleanup() {
	if [ "$keep" = 1 ]; then
		echo "golden: kept $T"
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT

# Valgrind must not pick up a tool directory meant for our recorder.
unset VALGRIND_LIB VALGRIND_OPTS
# Fixed cache geometry: the same simulation on every machine, and no
# "L3 cache found" warnings.
GEOM="--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64"
FULL="--cache-sim=yes --branch-sim=yes --dump-instr=yes --collect-jumps=yes"
PROGS="loops recurse qsort threads cache"

maxjobs=$(nproc 2>/dev/null || echo 2)
[ "$maxjobs" -lt 2 ] && maxjobs=2
bg() {  # run "$@" in the background, at most $maxjobs at a time
	while [ "$(jobs -rp | wc -l)" -ge "$maxjobs" ]; do
		wait -n 2>/dev/null || true
	done
	"$@" &
}

fail() { check "$1" 1 "$2"; }

# --- build ----------------------------------------------------------------
# ver1 is the main build; ver2 is loops built with another ROUNDS, for the
# --diff and merge comparisons.
mkdir -p "$T/ver1" "$T/ver2" "$T/prof" "$T/out" "$T/ann" "$T/zero"
cp "$here"/*.c "$here"/*.h "$T/ver1/"
cp "$here"/loops*.c "$here"/loops.h "$T/ver2/"
cp "$here/samples/zero.c" "$here/samples/zerocall.callgrind" "$T/zero/"
build_failed=0
for p in $PROGS; do
	src=$p.c
	[ "$p" = loops ] && src="loops.c loops_aux.c"
	(cd "$T/ver1" && $cc -g -O1 -o "$p" $src -pthread) >"$T/out/build-$p.log" 2>&1 ||
		{ fail "build-$p" "$(head -c 300 "$T/out/build-$p.log")"; build_failed=1; }
done
(cd "$T/ver2" && $cc -g -O1 -DROUNDS=27 -o loops loops.c loops_aux.c) \
	>"$T/out/build-loops2.log" 2>&1 ||
	{ fail "build-loops-ver2" "$(head -c 300 "$T/out/build-loops2.log")"; build_failed=1; }
[ "$build_failed" = 0 ] || exit 1

# --- record ---------------------------------------------------------------
record() {  # record NAME DIR VALGRIND-ARGS... -- PROGRAM
	local name=$1 dir=$2
	shift 2
	(cd "$dir" && valgrind -q "$@") >"$T/out/rec-$name.log" 2>&1 ||
		echo "valgrind exited $?" >>"$T/out/rec-$name.log.failed"
}
for p in $PROGS; do
	bg record "cg.$p" "$T/ver1" --tool=cachegrind --cache-sim=no $GEOM \
		--cachegrind-out-file="$T/prof/cg.$p" "./$p"
	bg record "cl.$p" "$T/ver1" --tool=callgrind \
		--callgrind-out-file="$T/prof/cl.$p" "./$p"
done
for p in loops qsort cache; do
	bg record "cgsim.$p" "$T/ver1" --tool=cachegrind --cache-sim=yes \
		--branch-sim=yes $GEOM --cachegrind-out-file="$T/prof/cgsim.$p" "./$p"
done
for p in loops recurse; do
	bg record "clsim.$p" "$T/ver1" --tool=callgrind $FULL $GEOM \
		--callgrind-out-file="$T/prof/clsim.$p" "./$p"
done
bg record clsim.threads "$T/ver1" --tool=callgrind $FULL $GEOM \
	--separate-threads=yes --callgrind-out-file="$T/prof/clsim.threads" ./threads
bg record cg.loops2 "$T/ver2" --tool=cachegrind --cache-sim=no $GEOM \
	--cachegrind-out-file="$T/prof/cg.loops2" ./loops
wait
for f in "$T"/out/rec-*.log.failed; do
	[ -e "$f" ] || continue
	n=${f##*/rec-}
	n=${n%.log.failed}
	fail "record-$n" "$(cat "$f"; head -c 300 "$T/out/rec-$n.log")"
done
[ "$fail" = 0 ] || exit 1
threads_files=$(ls "$T"/prof/clsim.threads-* 2>/dev/null)
[ "$(echo "$threads_files" | wc -w)" = 3 ] ||
	{ fail record-threads "expected 3 per-thread files, got: $threads_files"; exit 1; }
cg_diff --mod-filename='s/ver[12]/verN/' "$T/prof/cg.loops" "$T/prof/cg.loops2" \
	>"$T/prof/cgdiff.loops" 2>"$T/out/cgdiff.log" || fail cg_diff "$(cat "$T/out/cgdiff.log")"
cg_diff --mod-filename='s/ver[12]/verN/' --mod-funcname='s/^(inner|outer)/loop_fn/' \
	"$T/prof/cg.loops" "$T/prof/cg.loops2" \
	>"$T/prof/cgdiff2.loops" 2>"$T/out/cgdiff2.log" || fail cg_diff2 "$(cat "$T/out/cgdiff2.log")"
cg_merge -o "$T/prof/cgmerge.loops" "$T/prof/cg.loops" "$T/prof/cg.loops2" \
	>"$T/out/cgmerge.log" 2>&1 || fail cg_merge "$(cat "$T/out/cgmerge.log")"

# --- the comparisons ------------------------------------------------------
# Each comparison: a name, the reference command, our command (both run in
# $T/ann, a directory that is no prefix of the profiled files' paths, so that
# callgrind_annotate keeps their names whole), and compare.py's options.
P=$T/prof
N=() R=() O=() X=()
add() { N+=("$1"); R+=("$2"); O+=("$3"); X+=("$4"); }
for p in $PROGS; do
	add "cg-$p-all" "cg_annotate --threshold=0 $P/cg.$p" "--threshold=0 $P/cg.$p" "--ref-tool cg_annotate --complete --checks totals,self,lines,context,percs,annsummary"
	add "cl-$p-all" "callgrind_annotate --threshold=100 $P/cl.$p" "--threshold=0 $P/cl.$p" "--ref-tool callgrind_annotate --complete --checks totals,self,lines,percs,annsummary --profile $P/cl.$p"
	add "cl-$p-inclusive" "callgrind_annotate --threshold=100 --inclusive=yes --tree=calling $P/cl.$p" "--threshold=0 --inclusive=yes $P/cl.$p" "--ref-tool callgrind_annotate --inclusive --checks totals,inclusive --profile $P/cl.$p --ref-self $T/out/cl-$p-all.ref"
done
add "cg-loops-default" "cg_annotate $P/cg.loops" "$P/cg.loops" "--ref-tool cg_annotate --ref-subset --checks totals,self,lines,percs"
add "cg-loops-context2" "cg_annotate --threshold=0 --context=2 $P/cg.loops" "--threshold=0 --context=2 $P/cg.loops" "--ref-tool cg_annotate --complete --checks lines,context"
add "cg-recurse-context0" "cg_annotate --threshold=0 --context=0 $P/cg.recurse" "--threshold=0 --context=0 $P/cg.recurse" "--ref-tool cg_annotate --complete --checks lines,context"
add "cg-loops-nopercs" "cg_annotate --threshold=0 --show-percs=no $P/cg.loops" "--threshold=0 --no-show-percs $P/cg.loops" "--ref-tool cg_annotate --complete --checks totals,self"
add "cg-loops-showpercs" "cg_annotate --threshold=0 --show-percs=yes $P/cg.loops" "--threshold=0 --show-percs=yes $P/cg.loops" "--ref-tool cg_annotate --complete --checks totals,self,percs"
add "cg-loops-noannotate" "cg_annotate --threshold=0 --auto=no $P/cg.loops" "--threshold=0 --no-annotate $P/cg.loops" "--ref-tool cg_annotate --complete --checks totals,self,noannotate"
add "cg-loops-auto-no" "cg_annotate --threshold=0 --auto=no $P/cg.loops" "--threshold=0 --auto=no $P/cg.loops" "--ref-tool cg_annotate --complete --checks totals,noannotate"
for p in loops qsort cache; do
	add "cgsim-$p-all" "cg_annotate --threshold=0 $P/cgsim.$p" "--threshold=0 $P/cgsim.$p" "--ref-tool cg_annotate --complete --checks totals,self,lines,context,percs,annsummary"
done
add "cgsim-cache-show" "cg_annotate --threshold=0 --show=D1mr,Dr,Ir --sort=D1mr,Ir $P/cgsim.cache" "--threshold=0 --show=D1mr,Dr,Ir --sort=D1mr,Ir $P/cgsim.cache" "--ref-tool cg_annotate --complete --checks totals,self,lines,percs"
add "cgsim-qsort-branches" "cg_annotate --threshold=0 --show=Bc,Bcm,Bi,Bim --sort=Bim,Bcm $P/cgsim.qsort" "--threshold=0 --show=Bc,Bcm,Bi,Bim --sort=Bim,Bcm $P/cgsim.qsort" "--ref-tool cg_annotate --complete --checks totals,self,lines,percs"
add "cgsim-loops-threshold1" "cg_annotate --threshold=1 --sort=Dw $P/cgsim.loops" "--threshold=1 --sort=Dw $P/cgsim.loops" "--ref-tool cg_annotate --ref-subset --checks totals,self,lines,percs"
add "cg-diff" "cg_annotate --threshold=0 $P/cgdiff.loops" "--threshold=0 --diff --mod-filename=s/ver[12]/verN/ $P/cg.loops $P/cg.loops2" "--ref-tool cg_annotate --complete --checks totals,self"
add "cg-diff-modfuncname" "cg_annotate --threshold=0 $P/cgdiff2.loops" "--threshold=0 --diff --mod-filename=s/ver[12]/verN/ --mod-funcname=s/^(inner|outer)/loop_fn/ $P/cg.loops $P/cg.loops2" "--ref-tool cg_annotate --complete --checks totals,self"
add "cg-merge" "cg_annotate --threshold=0 $P/cgmerge.loops" "--threshold=0 $P/cg.loops $P/cg.loops2" "--ref-tool cg_annotate --complete --checks totals,self,lines,percs"
for p in loops recurse; do
	add "clsim-$p-all" "callgrind_annotate --threshold=100 $P/clsim.$p" "--threshold=0 $P/clsim.$p" "--ref-tool callgrind_annotate --complete --checks totals,self,lines,percs,annsummary --profile $P/clsim.$p"
	add "clsim-$p-inclusive" "callgrind_annotate --threshold=100 --inclusive=yes --tree=calling $P/clsim.$p" "--threshold=0 --inclusive=yes $P/clsim.$p" "--ref-tool callgrind_annotate --inclusive --checks totals,inclusive --profile $P/clsim.$p --ref-self $T/out/clsim-$p-all.ref"
done
for f in $threads_files; do
	n=${f##*-}
	add "clsim-threads-$n-all" "callgrind_annotate --threshold=100 $f" "--threshold=0 $f" "--ref-tool callgrind_annotate --complete --checks totals,self,lines,percs,annsummary --profile $f"
	add "clsim-threads-$n-inclusive" "callgrind_annotate --threshold=100 --inclusive=yes --tree=calling $f" "--threshold=0 --inclusive=yes $f" "--ref-tool callgrind_annotate --inclusive --checks totals,inclusive --profile $f --ref-self $T/out/clsim-threads-$n-all.ref"
done
# Several files at once: ours merges them; the reference is the sum of the
# per-thread outputs (the *-all runs above).
add "clsim-threads-merged" "SUM clsim-threads-01-all clsim-threads-02-all clsim-threads-03-all" "--threshold=0 ${threads_files//$'\n'/ }" "--ref-tool callgrind_annotate --complete --checks totals,self,lines,percs --profile ${threads_files//$'\n'/ --profile }"
add "clsim-loops-show" "callgrind_annotate --threshold=100 --show=Ir,Bc,Bcm,D1mr --sort=Bc $P/clsim.loops" "--threshold=0 --show=Ir,Bc,Bcm,D1mr --sort=Bc $P/clsim.loops" "--ref-tool callgrind_annotate --complete --checks totals,self,lines,percs --profile $P/clsim.loops"
add "cl-loops-context3" "callgrind_annotate --threshold=100 --context=3 $P/cl.loops" "--threshold=0 --context=3 $P/cl.loops" "--ref-tool callgrind_annotate --complete --checks lines"
add "cl-qsort-default" "callgrind_annotate $P/cl.qsort" "$P/cl.qsort" "--ref-tool callgrind_annotate --checks totals,self,lines,percs"
# The hand-made profile with a calls=0 line (run in $T/zero: relative name).
add "cl-zerocall-all" "@zero callgrind_annotate --threshold=100 zerocall.callgrind" "--threshold=0 zerocall.callgrind" "--ref-tool callgrind_annotate --complete --checks totals,self,lines,percs --profile zerocall.callgrind"
add "cl-zerocall-inclusive" "@zero callgrind_annotate --threshold=100 --inclusive=yes --tree=calling zerocall.callgrind" "--threshold=0 --inclusive=yes zerocall.callgrind" "--ref-tool callgrind_annotate --inclusive --checks totals,inclusive --profile zerocall.callgrind --ref-self $T/out/cl-zerocall-all.ref"

selected() {
	[ -z "${GOLDEN_FILTER:-}" ] || [[ $1 =~ $GOLDEN_FILTER ]]
}
# A selected comparison may need the outputs of others: an -inclusive one
# takes the self costs of its -all twin; a SUM one its summands.
declare -A needed
for i in "${!N[@]}"; do
	selected "${N[i]}" || continue
	needed[${N[i]}]=1
	case ${N[i]} in *-inclusive) needed[${N[i]%-inclusive}-all]=1 ;; esac
	case ${R[i]} in SUM\ *) for r in ${R[i]#SUM }; do needed[$r]=1; done ;; esac
done

run_one() {  # run_one NAME REFCMD OURSARGS: write $T/out/NAME.{ref,ours}
	local name=$1 ref=$2 ours=$3 dir=$T/ann
	set -f  # arguments hold regexes such as s/ver[12]/verN/
	case $ref in
	@zero\ *) dir=$T/zero; ref=${ref#@zero } ;;
	SUM\ *) ref= ;;
	esac
	if [ -n "$ref" ]; then
		(cd "$dir" && $ref) >"$T/out/$name.ref" 2>"$T/out/$name.ref.err"
		echo $? >"$T/out/$name.ref.rc"
	fi
	# shellcheck disable=SC2086  # our arguments are split on purpose
	(cd "$dir" && "$CGTUI" --batch $ours) >"$T/out/$name.ours" 2>"$T/out/$name.ours.err"
	echo $? >"$T/out/$name.ours.rc"
	# the same with the line records left to be read when the report
	# wants them (load_opts.lazy_lines): the same bytes
	# shellcheck disable=SC2086
	(cd "$dir" && CGTUI_LAZY_LINES=1 "$CGTUI" --batch $ours) >"$T/out/$name.lazy" 2>&1
}

for i in "${!N[@]}"; do
	[ -n "${needed[${N[i]}]:-}" ] || continue
	bg run_one "${N[i]}" "${R[i]}" "${O[i]}"
done
wait

compare_one() {  # compare_one NAME REF OURSARGS OPTS: write $T/out/NAME.cmp
	local name=$1 ref=$2 ours=$3 opts=$4 dir=$T/ann rc r
	local refs=()
	set -f
	case $ref in
	SUM\ *)
		for r in ${ref#SUM }; do refs+=(--ref "$T/out/$r.ref"); done ;;
	*)
		if [ "$(cat "$T/out/$name.ref.rc")" != 0 ]; then
			echo "FAIL: $name: reference annotator failed: $(head -c 300 "$T/out/$name.ref.err")"
			return 1
		fi
		refs=(--ref "$T/out/$name.ref") ;;
	esac
	case $ref in @zero\ *) dir=$T/zero ;; esac
	rc=$(cat "$T/out/$name.ours.rc")
	if [ "$rc" != 0 ]; then
		echo "FAIL: $name: cgtui --batch $ours exited $rc: $(head -c 300 "$T/out/$name.ours.err")"
		return 1
	fi
	if ! cmp -s "$T/out/$name.ours" "$T/out/$name.lazy"; then
		echo "FAIL: $name: the report differs when line records are read when needed:"
		diff "$T/out/$name.ours" "$T/out/$name.lazy" | head -5
		return 1
	fi
	# shellcheck disable=SC2086  # $opts is split on purpose
	(cd "$dir" && python3 "$here/compare.py" check --name "$name" \
		--ours "$T/out/$name.ours" "${refs[@]}" --strip-prefix "$T" $opts)
}
run_cmp() {
	compare_one "$@" >"$T/out/$1.cmp" 2>&1
	echo $? >"$T/out/$1.cmprc"
}
for i in "${!N[@]}"; do
	selected "${N[i]}" || continue
	bg run_cmp "${N[i]}" "${R[i]}" "${O[i]}" "${X[i]}"
done
wait
for i in "${!N[@]}"; do
	name=${N[i]}
	selected "$name" || continue
	cat "$T/out/$name.cmp"
	if [ "$(cat "$T/out/$name.cmprc" 2>/dev/null)" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done

# The comparer's own unit tests (hand-made samples of both layouts).
if selected selftest; then
	if python3 "$here/compare.py" selftest; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
fi

# The comparer against genuine cg_annotate 3.21+ output: tests/report keeps
# what that version printed for its profiles; cg_annotate 3.19 on the same
# profiles must compare equal to it.  This checks compare.py's parser of our
# layout on the real thing, independently of cgtui.
rep=$here/../report
if [ -f "$rep/expected/default.txt" ] && [ -f "$rep/prog.cgout" ]; then
	while read -r case args; do
		selected "comparer-vs-3.21-$case" || continue
		[ -f "$rep/expected/$case.txt" ] || continue
		# shellcheck disable=SC2086
		if ! (cd "$rep" && cg_annotate $args) >"$T/out/real-$case.ref" 2>&1; then
			fail "comparer-vs-3.21-$case" "cg_annotate $args failed"
			continue
		fi
		if (cd "$rep" && python3 "$here/compare.py" check \
			--name "comparer-vs-3.21-$case" --ours "expected/$case.txt" \
			--ref "$T/out/real-$case.ref" --ref-tool cg_annotate --ref-subset \
			--checks totals,self,lines,context,percs,annsummary); then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
		fi
	done <<-'EOF'
	default prog.cgout
	show-sort --show=Dr,Ir --sort=Dr prog.cgout
	threshold-context --threshold=5 --context=2 prog.cgout
	sort-two --sort=Bcm,Ir --threshold=1 prog.cgout
	edge-2 --context=1 edge.cgout
	EOF
fi

ms=$((($(date +%s%N) - start) / 1000000))
# finish's line, with the time it took
printf 'golden: %d passed, %d failed (%d.%01d s)\n' "$pass" "$fail" \
	$((ms / 1000)) $((ms % 1000 / 100))
[ "$fail" = 0 ]
