#!/bin/sh
# run.sh [SECONDS [LIBFUZZER-ARGS...]] -- fuzzes the loader and the report.
#
# Builds tests/fuzz/fuzz-load when it is missing or older than its sources,
# makes the seed corpus and dictionary, and runs the fuzzer for SECONDS
# (default 60) on a copy of the corpus in a temporary directory.  Exits 0
# when nothing was found, 1 on any crash, leak, timeout, memory limit or
# undefined behaviour (the input is kept in $FUZZ_ARTIFACTS), 77 when the
# fuzzer cannot be built (no clang or libFuzzer).  The last line is a summary:
#     fuzz: 61234 execs in 60 s (1020/s), 0 crashes, peak RSS 98 MB
#
# Environment:
#   BUILDDIR        the configured build tree (config.h; the fuzzer is built
#                   at BUILDDIR/tests/fuzz/fuzz-load); default the source tree
#   FUZZER          use this fuzzer binary instead (not rebuilt)
#   FUZZ_CORPUS     a directory to keep the corpus in between runs (created,
#                   seeded and grown; by default a temporary copy is used)
#   FUZZ_ARTIFACTS  where failing inputs go (default BUILDDIR/tests/fuzz/artifacts)
#   FUZZ_LOG        also keep libFuzzer's whole output in this file
#   CORPUS_DIR      the wild corpus (default ../shared/corpus/wild)
#   IDS_SECONDS     how long the id tables' property test (tests/unit/test-ids,
#                   built in BUILDDIR) runs random rounds after the fuzzer
#                   (default SECONDS / 2; 0: not run)
# LIBFUZZER-ARGS are added to (and override) the fuzzer's flags, e.g.
# -runs=1000000 or -seed=1.
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-60}
[ $# -gt 0 ] && shift
case $secs in
'' | *[!0-9]*)
	echo "usage: run.sh [SECONDS [LIBFUZZER-ARGS...]]" >&2
	exit 2
	;;
esac
builddir=$(cd "${BUILDDIR:-$top}" && pwd)
artifacts=${FUZZ_ARTIFACTS:-$builddir/tests/fuzz/artifacts}

fuzzer=${FUZZER:-}
if [ -z "$fuzzer" ]; then
	fuzzer=$builddir/tests/fuzz/fuzz-load
	mkdir -p "$builddir/tests/fuzz"
	stale=
	if [ ! -x "$fuzzer" ]; then
		stale=1
	else
		for f in "$here"/fuzz-load.c "$here"/build.sh "$top"/src/profile/*.[ch] "$top"/src/profile/load/*.[ch] \
			"$top"/src/source/srcfile.[ch] "$builddir"/config.h; do
			if [ -f "$f" ] && [ -n "$(find "$f" -newer "$fuzzer")" ]; then
				stale=1
				break
			fi
		done
	fi
	if [ -n "$stale" ]; then
		rc=0
		BUILDDIR=$builddir sh "$here/build.sh" "$fuzzer" || rc=$?
		if [ "$rc" -ne 0 ]; then
			echo "fuzz: cannot build the fuzzer (exit $rc)"
			[ "$rc" -eq 77 ] && exit 77
			exit 1
		fi
	fi
fi
case $fuzzer in /*) ;; *) fuzzer=$(pwd)/$fuzzer ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/cgtui-fuzz-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/tmp" "$artifacts"
artifacts=$(cd "$artifacts" && pwd)

sh "$here/make-seeds.sh" "$work/seeds" "$work/fuzz.dict" >"$work/seeds.log" 2>&1 || {
	cat "$work/seeds.log" >&2
	echo "fuzz: cannot make the seed corpus"
	exit 1
}
if [ -n "${FUZZ_CORPUS:-}" ]; then
	mkdir -p "$FUZZ_CORPUS"
	corpus=$(cd "$FUZZ_CORPUS" && pwd)
	cp "$work"/seeds/* "$corpus"/ 2>/dev/null || true
else
	corpus=$work/corpus
	cp -r "$work/seeds" "$corpus"
fi
chmod -R u+w "$corpus"

# The fuzzer's own temporary files go in $work/tmp; it runs in $work, where
# libFuzzer would put any -jobs logs.
before=$(find "$artifacts" -type f | wc -l)
rc=0
(
	cd "$work"
	TMPDIR=$work/tmp
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0:detect_stack_use_after_return=1}
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
	export TMPDIR ASAN_OPTIONS UBSAN_OPTIONS
	exec "$fuzzer" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
		-dict="$work/fuzz.dict" -max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$artifacts/" "$@" "$corpus" </dev/null
) >"$work/fuzz.log" 2>&1 || rc=$?
[ -n "${FUZZ_LOG:-}" ] && cp "$work/fuzz.log" "$FUZZ_LOG"

log=$work/fuzz.log
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
[ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\)[^0-9].*/\1/p' "$log" | tail -n 1)
[ -n "$execs" ] || execs=0
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
[ -n "$rss" ] || rss=$(sed -n 's/.* rss: \([0-9]*\)Mb.*/\1/p' "$log" | tail -n 1)
heap=$(sed -n 's/^fuzz-load: largest heap peak \([0-9]*\) bytes.*/\1/p' "$log" | tail -n 1)
after=$(find "$artifacts" -type f | wc -l)

kind=
if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
	if grep -q 'ERROR: LeakSanitizer' "$log"; then
		kind=leak
	elif grep -q 'ERROR: libFuzzer: timeout' "$log"; then
		kind=timeout
	elif grep -q 'ERROR: libFuzzer: out-of-memory\|fuzz-load: heap peak' "$log"; then
		kind=memory
	elif grep -q 'runtime error:' "$log"; then
		kind='undefined behaviour'
	else
		kind=crash
	fi
	# the report: sanitizer's first lines and the input
	sed -n '/^==[0-9]*==ERROR\|runtime error:\|ERROR: libFuzzer\|fuzz-load: heap peak/,/^SUMMARY/p' \
		"$log" | head -n 60
	grep 'Test unit written to\|^artifact_prefix' "$log" | tail -n 3 || true
	[ -z "${FUZZ_LOG:-}" ] && tail -n 5 "$log"
	echo "fuzz: $execs execs, 1 crash ($kind; exit $rc), inputs in $artifacts, peak RSS ${rss:-?} MB"
	exit 1
fi

# The id tables' property test (tests/unit/test-ids): random rounds from a
# new seed for IDS_SECONDS (default: half the fuzzing time), beyond the
# fixed rounds of make check.
ids_secs=${IDS_SECONDS:-$((secs / 2))}
ids_note=
if [ "$ids_secs" -gt 0 ]; then
	if make -C "$builddir" -s tests/unit/test-ids >"$work/ids-build.log" 2>&1; then
		seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
		if "$builddir/tests/unit/test-ids" --seed "$seed" --seconds "$ids_secs" \
			>"$work/ids.log" 2>&1; then
			ids_note="; id tables: $(sed -n 's/^ok 1 - //p' "$work/ids.log")"
		else
			grep '^#\|^not ok' "$work/ids.log" | head -n 40
			echo "fuzz: the id tables' property test failed:" \
				"$builddir/tests/unit/test-ids --seed $seed --seconds $ids_secs"
			exit 1
		fi
	else
		ids_note="; id tables: tests/unit/test-ids not built"
	fi
fi
echo "fuzz: $execs execs in $secs s (${rate:-?}/s), 0 crashes, 0 leaks, 0 timeouts," \
	"peak RSS ${rss:-?} MB, peak heap per input ${heap:-?} bytes$ids_note"
exit 0
