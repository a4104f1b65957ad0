#!/bin/sh
# The rooms of src/ only look down (../shared/ARCHITECTURE.md, issue 18's
# "Done when"): every `#include "..."` of every file, resolved as the
# compiler does (beside the file first, then from src/), lands in a room
# the including room may read.  And the README's layout section names every
# directory of src/, and every file it names is there.
#   profile/ (with profile/load/)  profile/
#   source/                        profile/, source/
#   report/                        profile/, source/, report/
#   record/                        profile/, record/ (no screen)
#   tui/                           profile/, source/, tui/
#   instrument/                    instrument/, sim/ (runs inside Valgrind)
#   sim/                           sim/ (freestanding)
#   app/, main.c                   any: they compose
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
src=$(cd "$top_srcdir/src" 2>/dev/null && pwd -P) || { echo "SKIP: no $top_srcdir/src"; exit 77; }
pass=0 fail=0
check() { # name, 0 = ok, detail
	if [ "$2" = 0 ]; then echo "PASS: $1"; pass=$((pass + 1)); else echo "FAIL: $1"; printf '%s\n' "$3" | sed 's/^/  /'; fail=$((fail + 1)); fi
}

# may ROOM TARGET: can a file of ROOM include one of TARGET?
may() {
	case "$1:$2" in
	app:* | main:* | "$2:$2" | *:config) return 0 ;;
	source:profile | report:profile | report:source | record:profile | tui:profile | tui:source) return 0 ;;
	instrument:sim) return 0 ;;
	esac
	return 1
}
# room PATH (below src/, or config.h at the top): its room's name
room() {
	case "$1" in
	*/*) echo "${1%%/*}" ;;
	main.c) echo main ;;
	config.h) echo config ;;
	*) echo top ;;
	esac
}

# every include, as "FILE TARGET" with both below src/ (an include neither
# beside its file nor below src/ is a generated or system header: left out)
includes() {
	(cd "$src" && find . -name '*.[ch]' | sed 's|^\./||' | sort) | while read -r f; do
		dir=$(dirname "$f")
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$src/$f" |
			while read -r inc; do
				if [ -f "$src/$dir/$inc" ]; then
					t=$(cd "$src/$dir" && cd "$(dirname "$inc")" && pwd -P)/$(basename "$inc")
				elif [ -f "$src/$inc" ]; then
					t=$(cd "$src" && cd "$(dirname "$inc")" && pwd -P)/$(basename "$inc")
				elif [ "$inc" = config.h ]; then
					t=$src/config.h
				else
					continue
				fi
				echo "$f ${t#"$src"/}"
			done
	done
}
all=$(includes)
n=$(printf '%s\n' "$all" | grep -c .)
bad=$(printf '%s\n' "$all" | while read -r f t; do
	may "$(room "$f")" "$(room "$t")" || echo "$f includes $t"
done)
[ -z "$bad" ] && [ "$n" -gt 100 ]
check "no room includes a room above it or beside it ($n includes read)" $? "$bad"

# the reader itself: a made-up tree with one include of each kind
fake=$(cd "$(mktemp -d)" && pwd -P)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/profile/load" "$fake/tui" "$fake/record" "$fake/app"
printf '#include "tui/tui.h"\n' >"$fake/profile/load/a.c"
printf '#include "../tui.h"\n' >"$fake/record/b.c"
printf '#include "tui/tui.h"\n#include "profile/load/a.h"\n' >"$fake/app/c.c"
printf '#include "../profile/load/a.h"\n' >"$fake/tui/d.c"
: >"$fake/tui/tui.h"
: >"$fake/tui.h"
: >"$fake/profile/load/a.h"
got=$(src=$fake includes | while read -r f t; do
	may "$(room "$f")" "$(room "$t")" || echo "$f includes $t"
done | tr '\n' ';')
[ "$got" = "profile/load/a.c includes tui/tui.h;record/b.c includes tui.h;" ]
check "the reader finds a profile/ -> tui/ include and a relative one out of record/" $? "$got"

# the README's layout section: every directory of src/ named, every
# src/DIR/ it names there, every file named under it there
readme=$top_srcdir/README.md
layout=$(sed -n '/^## Layout/,/^## /p' "$readme")
missing=""
for d in $(cd "$src" && find . -mindepth 1 -type d | sed 's|^\./||' | sort); do
	ls "$src/$d"/*.[ch] >/dev/null 2>&1 || continue
	printf '%s\n' "$layout" | grep -qF "\`src/$d/\`" || missing="$missing src/$d/ not in the layout;"
done
# each `src/DIR/` in an item names the directory of the `file.c`s after it
# (up to the next item); `src/FILE` names itself
named=$(printf '%s\n' "$layout" | awk '
	/^- / { dir = "" }
	{
		line = $0
		while (match(line, /`[^`]*`/)) {
			t = substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
			if (t ~ /^src\/.*\/$/)
				dir = substr(t, 5, length(t) - 5)
			else if (t ~ /^src\/[^ ]*\.[ch]$/)
				print substr(t, 5)
			else if (dir != "" && t ~ /^[A-Za-z0-9_]+\.[ch]$/)
				print dir "/" t
		}
	}')
for f in $named; do
	[ -f "$src/$f" ] || missing="$missing src/$f named but not there;"
done
[ -z "$missing" ] && [ -n "$named" ]
check "README's layout: every directory of src/ named, every file it names there ($(printf '%s\n' "$named" | grep -c .) files)" $? "$missing"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
