#!/bin/sh
# The aggregation (self and inclusive costs, call counts, cycles, callers
# and callees) on --jobs threads gives the report of one thread, byte for
# byte: every corpus file, every profile under tests/ that loads, and
# generated ones (a 3 MB profile, a call chain closed into one cycle, a
# star), at 1, 2, 3 and 8 jobs, with the reports that show what it computes
# (inclusive costs, the callers and callees with their cycle marks, with
# cycle detection on and off, and the JSON report).  Small profiles are
# split too: a thread's part is a range of functions however few there are.
# The reference is one thread, which run-corpus.sh, tests/numbers and
# tests/report check against Valgrind's tools and hand figures; the
# debug line (CGTUI_PAR_DEBUG) says the threads were used.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
files=$(loadable_profiles)
if [ -x "${GEN:-}" ]; then
	"$GEN" --size 3M gen.out >/dev/null 2>&1 && files="$files $work/gen.out"
	"$GEN" --chain=300 --cycle chain.out >/dev/null 2>&1 && files="$files $work/chain.out"
	"$GEN" --star=300 star.out >/dev/null 2>&1 && files="$files $work/star.out"
fi
[ -n "$files" ] || { echo "SKIP: no profiles"; exit 77; }
reports() { # jobs, file: the reports one after the other
	for o in "--cycles=yes" "--cycles=no"; do
		"$CGTUI" --jobs="$1" --batch --no-annotate --threshold=0 --inclusive=yes --tree=both \
			"$o" "$2" 2>&1 | grep -v '^Invocation:'
	done
	# (the plain report: its function:file section built beside the
	# file:function one, from the pairs the aggregation made on its way)
	"$CGTUI" --jobs="$1" --batch --no-annotate --threshold=0 "$2" 2>&1 | grep -v '^Invocation:'
	# (the file:function section's groups made by both threads: with
	# CGTUI_PAR_WAIT the second makes some, however soon the first is
	# done; at the default threshold, files without entries among them)
	CGTUI_PAR_WAIT=1 "$CGTUI" --jobs="$1" --batch --no-annotate "$2" 2>&1 | grep -v '^Invocation:'
	"$CGTUI" --jobs="$1" --batch --no-annotate --threshold=0 --format=json "$2" 2>&1 |
		grep -v '"invocation"'
}
for f in $files; do
	name=${f#"$here/../"}
	name=${name#"$work/"}
	reports 1 "$f" >one.txt
	for j in 2 3 8; do
		reports "$j" "$f" >par.txt
		cmp -s one.txt par.txt
		check "$name: --jobs=$j" $? "$(diff one.txt par.txt | head -6)"
	done
done
# the threads are used: as many as asked, on the 3 MB profile and on
# one of a single function; the report's components begun on their own
# thread while the profile is finished; the file:function section's
# groups made by the second thread too
printf 'events: Ir\nfn=main\n1 5\n' >one.out
for f in gen.out one.out; do
	[ -f "$f" ] || continue
	CGTUI_PAR_DEBUG=1 "$CGTUI" --jobs=3 --batch --no-annotate "$f" 2>err.txt >/dev/null
	grep -q '^cgtui: agg: 3 threads' err.txt
	check "$f: the aggregation on 3 threads" $? "$(cat err.txt)"
	grep -q '^cgtui: agg: .*; the components begun before the profile was finished' err.txt
	check "$f: the components begun before the profile was finished" $? "$(cat err.txt)"
	CGTUI_PAR_WAIT=1 CGTUI_PAR_DEBUG=1 "$CGTUI" --jobs=2 --batch --no-annotate "$f" 2>err.txt >/dev/null
	n=$(sed -n 's/^cgtui: report: file:function groups in [0-9]* chunks, \([0-9]*\) by the second thread$/\1/p' err.txt)
	[ "${n:-0}" -gt 0 ]
	check "$f: the file:function groups made by the second thread too" $? "$(cat err.txt)"
done
finish
