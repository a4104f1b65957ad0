#!/bin/sh
# live-overhead.sh -- what the live view costs: user CPU of `cgtui --no-open
# PROG` (recording only, no snapshots) against the live view run headless
# (snapshots written by the tool and loaded by the explorer until the end),
# in pairs run alternately.  Not a test: prints the times and the ratio.
#
#   bench/live-overhead.sh [PAIRS] [PROGRAM ARGS...]
#   default: 5 pairs of bzip2 -c on 12 MB of text and binaries
#   CGTUI=path/to/cgtui (default: ./cgtui)
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
. "$(dirname "$0")/overhead-setup.sh"
printf ':wait-end\n' >keys
i=0
while [ $i -lt "$pairs" ]; do
	/usr/bin/time -o t.n -f %U "$CGTUI" --no-open -o n.out "$@" >/dev/null 2>&1
	CGTUI_SCRIPT=keys /usr/bin/time -o t.l -f %U "$CGTUI" -o l.out "$@" >/dev/null 2>&1
	echo "$(cat t.n) $(cat t.l)"
	i=$((i + 1))
done | awk '{ n += $1; l += $2; print "record only " $1 " s, live view " $2 " s" }
	END { if (NR) printf "mean: record only %.3f s, live view %.3f s, ratio %.3f\n", n / NR, l / NR, l / n }'
