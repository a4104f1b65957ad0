#!/bin/sh
# timeline-overhead.sh -- what --timeline=yes costs: user CPU of `cgtui
# --no-open PROG` against `cgtui --no-open --timeline=yes PROG`, in pairs
# run alternately (as live-overhead.sh).  Not a test: prints the times,
# each pair's ratio and the ratio of the means with the pairs' spread (the
# smallest and largest pair's ratio, their standard deviation).
#
#   bench/timeline-overhead.sh [PAIRS] [PROGRAM ARGS...]
#   default: 5 pairs of bzip2 -c on 12 MB of text and binaries
#   CGTUI=path/to/cgtui (default: ./cgtui); TIMELINE_OPTS (default
#   --timeline=yes) for other settings, e.g. a shorter interval
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
opts=${TIMELINE_OPTS:---timeline=yes}
. "$(dirname "$0")/overhead-setup.sh"
i=0
while [ $i -lt "$pairs" ]; do
	/usr/bin/time -o t.n -f %U "$CGTUI" --no-open -o n.out "$@" >/dev/null 2>&1
	# shellcheck disable=SC2086
	/usr/bin/time -o t.t -f %U "$CGTUI" --no-open $opts -o t.out "$@" >/dev/null 2>&1
	[ -s t.out.time ] || { echo "no t.out.time written" >&2; exit 1; }
	echo "$(cat t.n) $(cat t.t) $(grep -c '^iv:' t.out.time)"
	i=$((i + 1))
done | awk '{ n += $1; t += $2; r = $1 > 0 ? $2 / $1 : 0; q[NR] = r
		if (NR == 1 || r < lo) lo = r
		if (NR == 1 || r > hi) hi = r
		printf "without %s s, with the timeline %s s (%s intervals): ratio %.3f\n", $1, $2, $3, r }
	END { if (!NR) exit
		m = 0; for (i = 1; i <= NR; i++) m += q[i]; m /= NR
		v = 0; for (i = 1; i <= NR; i++) v += (q[i] - m) ^ 2; sd = NR > 1 ? sqrt(v / (NR - 1)) : 0
		printf "mean: without %.3f s, with %.3f s, ratio %.3f (pairs: %.3f .. %.3f, sd %.3f)\n", n / NR, t / NR, t / n, lo, hi, sd }'
