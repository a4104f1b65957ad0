# overhead-setup.sh -- sourced by live-overhead.sh and timeline-overhead.sh:
# CGTUI made absolute, PAIRS from $1 (5 by default, shifted off), a
# temporary directory entered (removed at exit) and, with no program
# given, the program: bzip2 -c on 12 MB of text and binaries.
#
# SPDX-License-Identifier: GPL-2.0-or-later
CGTUI=${CGTUI:-./cgtui}
case $CGTUI in /*) ;; *) CGTUI=$PWD/$CGTUI ;; esac
pairs=${1:-5}
[ $# -gt 0 ] && shift
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
if [ $# = 0 ]; then
	for f in /usr/share/common-licenses/* /usr/include/*.h "$CGTUI"; do
		cat "$f" 2>/dev/null
	done | head -c 4000000 >in
	cat in in in >input
	set -- bzip2 -c input
fi
