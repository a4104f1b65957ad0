#!/bin/bash
# The real binary in a real terminal: tmux at 80x24 and 200x50 (the flame
# graph at 200x60 too), keys sent
# with send-keys, the screen read with capture-pane, a resize while running,
# the terminal restored on q and on SIGTERM, and hostile names (escape
# sequences, bidirectional overrides, invalid UTF-8) never sent raw.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
command -v tmux >/dev/null || { echo "SKIP: no tmux"; exit 77; }
n=0
sock="$work/tmux.0"
tm() { tmux -S "$sock" "$@"; }
# common.sh's trap, and before it the tmux servers (and their cgtui) ended
trap 'end_cgtui; for s in "$work"/tmux.*; do tmux -S "$s" kill-server 2>/dev/null; done; rm -rf "$work"' EXIT
cp "$here/spec.out" "$here/graph.out" "$here/hscroll.out" "$here/timeline.out" \
	"$here/timeline.out.time" .
# the screens are compared without heat bars (one check below has them)
printf 'set bars = no\n' >plain.config
# common.sh's check, but with the detail (a screen) below the FAIL line, indented
check() { # name, 0 = ok, detail
	if [ "$2" = 0 ]; then echo "PASS: $1"; pass=$((pass + 1)); else echo "FAIL: $1"; echo "$3" | sed 's/^/  /'; fail=$((fail + 1)); fi
}
screen() { tm capture-pane -p -t t; }
wait_for() { # pattern: polls the screen for up to 10 s
	for _ in $(seq 100); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# Ends the session's cgtui before its server goes: one killed with it (by
# SIGHUP) exits through LeakSanitizer in an ASan build, whose StopTheWorld
# then spins without a terminal, a process left behind.  q, as a user
# would (twice: the first may only dismiss a message), then Ctrl-C; the
# command line prints exit= (or status=) once cgtui has ended.
end_cgtui() {
	[ -S "$sock" ] || return 0
	local k
	for k in q q C-c; do
		screen 2>/dev/null | grep -q -e 'exit=' -e 'status=' && return 0
		tm send-keys -t t $k 2>/dev/null
		for _ in $(seq 30); do
			screen 2>/dev/null | grep -q -e 'exit=' -e 'status=' && return 0
			sleep 0.1
		done
	done
	echo "FAIL: cgtui did not end on q or Ctrl-C: $(screen 2>/dev/null | tail -3)"
	fail=$((fail + 1))
}
start() { # cols, lines, command...
	local c=$1 l=$2
	shift 2
	end_cgtui
	tm kill-server 2>/dev/null
	n=$((n + 1))
	sock="$work/tmux.$n" # a fresh server each time
	rm -f raw.log
	tm -f /dev/null new-session -d -s t -x "$c" -y "$l" \
		"sleep 0.3; env TERM=${TERMNAME:-xterm-256color} LC_ALL=${LOCALE:-C.UTF-8} CGTUI_CONFIG=${CONFIG:-$work/plain.config} $* ; echo \"exit=\$?\"; sleep 30"
	tm set-option -t t -g remain-on-exit on >/dev/null
	tm pipe-pane -t t -o "cat >> $work/raw.log"
}

# 80x24: the list, a key, Enter, back, quit
start 80 24 "$CGTUI" spec.out
wait_for "Instructions 820"
out=$(screen)
echo "$out" | grep -q '^  820 100.0%    20   2.4%          main  file1.c$'
check "80x24: functions listed with the specification's numbers" $? "$out"
tm send-keys -t t j Enter
wait_for "2 callers"
out=$(screen)
echo "$out" | grep -q '  700  85.4%        5x  \* func2' && echo "$out" | grep -q '  400  48.8%        3x  < main'
check "80x24: j, Enter: callers of func2 (main 3x, func1 2x)" $? "$out"
# heat bars, on by default, in a real terminal: main's 100% is 8 whole
# blocks, func2's 85.4% 6 and 7/8 (54.7 eighths), func1's 48.8% 3 and 7/8;
# in the C locale '#': 8, 7 and 4
for loc in C.UTF-8 C; do
	LOCALE=$loc CONFIG=/dev/null start 80 24 "$CGTUI" spec.out
	wait_for "Instructions 820"
	out=$(screen)
	if [ $loc = C ]; then
		echo "$out" | grep -q '^  820 100.0% ########    20' &&
			echo "$out" | grep -q '^  700  85.4% #######    700' &&
			echo "$out" | grep -q '^  400  48.8% ####       100'
	else
		echo "$out" | grep -q '^  820 100.0% ████████    20' &&
			echo "$out" | grep -q '^  700  85.4% ██████▉    700' &&
			echo "$out" | grep -q '^  400  48.8% ███▉       100'
	fi
	check "heat bars ($loc): as long as the percentages" $? "$out"
	tm send-keys -t t q
done
start 80 24 "$CGTUI" spec.out
wait_for "Instructions 820"
tm send-keys -t t j Enter
wait_for "2 callers"
# a resize while running: everything redrawn at the new width
tm resize-window -t t -x 200 -y 50
sleep 0.3
wait_for "2 callers"
out=$(screen)
first=$(echo "$out" | head -1)
[ "${#first}" = 200 ] && echo "$first" | grep -q 'Instructions 820$'
check "resized to 200x50: header redrawn across 200 columns" $? "$(echo "$out" | head -3)"
tm resize-window -t t -x 30 -y 6
sleep 0.3
wait_for "too small"
check "resized to 30x6: 'terminal too small' instead of garbage" $? "$(screen)"
tm resize-window -t t -x 80 -y 24
wait_for "2 callers"
check "back to 80x24" $? "$(screen)"
before=$(screen)
# a storm of resizes, down to 20x5 and up to 200x60, as fast as tmux sends
# them: still running, and the last size drawn cleanly (the same screen as
# before the storm, character for character)
for _ in $(seq 10); do
	for size in "20 5" "200 60" "23 7" "80 24" "20 5" "131 41"; do
		set -- $size
		tm resize-window -t t -x "$1" -y "$2"
	done
done
tm resize-window -t t -x 80 -y 24
sleep 0.5
wait_for "2 callers"
out=$(screen)
first=$(echo "$out" | head -1)
! echo "$out" | grep -q 'exit=' && [ "${#first}" = 80 ] && echo "$first" | grep -q 'Instructions 820$' &&
	[ "$out" = "$before" ]
check "60 quick resizes between 20x5 and 200x60: alive, redrawn at 80x24" $? "$out"
tm send-keys -t t q
wait_for "exit=0"
check "q quits with status 0" $? "$(screen)"
tail -c 200 raw.log | grep -q $'\e\[?1049l'
check "q: the terminal is restored (alternate screen left)" $? "$(tail -c 200 raw.log | od -c | tail -5)"

# colours: file names in colour, none with NO_COLOR (selection is reverse
# video either way, so a monochrome screen loses nothing)
start 80 24 "$CGTUI" spec.out
wait_for "Instructions 820"
esc=$(printf '\033')
colour="$esc\\[([0-9]+;)*3[0-8](;[0-9]+)*m" # a foreground colour but the default (39)
reverse="$esc\\[([0-9]+;)*7(;[0-9]+)*m"
LC_ALL=C grep -qE "$colour" raw.log
check "colour: file names in colour" $? "$(LC_ALL=C grep -cE "$esc\\[" raw.log)"
tm send-keys -t t q
start 80 24 NO_COLOR=1 "$CGTUI" spec.out
wait_for "Instructions 820"
! LC_ALL=C grep -qE "$colour" raw.log && LC_ALL=C grep -qE "$reverse" raw.log
check "NO_COLOR: no colour, the selection still in reverse video" $? "$(LC_ALL=C grep -oE "$colour" raw.log | head -3)"
tm send-keys -t t q

# 200x50 from the start
start 200 50 "$CGTUI" spec.out
wait_for "Instructions 820"
out=$(screen)
echo "$out" | grep -q 'main  file1.c' && [ "$(echo "$out" | head -1 | wc -c)" = 201 ]
check "200x50: list and full-width header" $? "$(echo "$out" | head -5)"

# the names scrolled sideways in a real terminal: Shift-Right and w, 16
# columns out of hscroll.out's long name (45 columns from column 36: an
# ellipsis over its 17th, "bcdefg3" and on, an ellipsis at the end);
# Shift-Left, 8 back: from "bcdefg2"
start 80 24 "$CGTUI" hscroll.out
wait_for "Ir 100"
tm send-keys -t t j S-Right w
wait_for "scrolled by 16 columns" &&
	screen | grep -q '        1 …bcdefg3abcdefg4abcdefg5abcdefg6abcdefg7abcd…$' &&
	tm send-keys -t t S-Left && wait_for "scrolled by 8 columns" &&
	screen | grep -q '        1 …bcdefg2abcdefg3abcdefg4abcdefg5abcdefg6abcd…$'
check "80x24: Shift-Right and w scroll the names 16 columns, Shift-Left 8 back" $? "$(screen)"
tm send-keys -t t q

# the call graph and the call map in a real terminal, at 80x24 and 200x50:
# each screen read by check-picture.py, against the numbers worked out by
# hand for graph.keys (graph.out: run's graph, its map); the arrows and
# Enter centre the graph on work, Esc comes back, Enter zooms the map
for size in "80 24" "200 50"; do
	set -- $size
	start "$1" "$2" "$CGTUI" graph.out
	wait_for "Ir 992"
	tm send-keys -t t / '^run$' Enter 4
	wait_for "^run: incl 902"
	screen >graph.txt
	out=$(python3 "$here/check-picture.py" graph.txt "$here/expected-graph/run.graph" 2>&1)
	check "${1}x$2: the call graph of run, every box and line as worked out" $? "$out
$(cat graph.txt)"
	# Down: the nearest box below (work or log, as the width places them),
	# Left: work (the leftmost), Enter: work in the middle, with 6 boxes
	# (no log: two levels from work); Esc: run's 7 again, work selected
	tm send-keys -t t Down Left
	wait_for "^work: incl 802" && tm send-keys -t t Enter && wait_for " 1/6$" &&
		! screen | grep -q "│ log" && tm send-keys -t t Escape && wait_for " 3/7$"
	check "${1}x$2: Down, Left, Enter centres on work; Esc back to run's graph" $? "$(screen)"
	# Home: run selected again; 5: its map
	tm send-keys -t t Home 5
	wait_for "^call map"
	screen >map.txt
	out=$(python3 "$here/check-picture.py" map.txt "$here/expected-graph/map.map" 2>&1)
	check "${1}x$2: the call map of run, each rectangle within a cell of its share" $? "$out
$(cat map.txt)"
	tm send-keys -t t Enter
	wait_for "^call map" && wait_for "^┌work 80.8%"
	check "${1}x$2: Enter zooms into work" $? "$(screen)"
	tm send-keys -t t q
	wait_for "exit=0"
	check "${1}x$2: q quits" $? "$(screen | tail -3)"
done

# the mouse in a real terminal: xterm's SGR reports (what tmux passes on
# for a click, columns and lines from 1) written to the pane; at 80x24 log's
# box is at column 48, line 16 of expected-graph/run.txt (47, 15 from 0), its
# rectangle in the map at 76, 7.  A click selects log (the header says its
# 90, 9.1%, called 5 + 3 + 1 = 9x); a second click on it centres on it
# (graph.keys' log.txt exactly); from run again, a double click centres at
# once; in the map a click selects log's 50 (5 calls of 10: 5.0% of 992)
click() { tm send-keys -t t -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2")"; }
start 80 24 "$CGTUI" graph.out
wait_for "Ir 992"
tm send-keys -t t / '^run$' Enter 4
wait_for "^run: incl 902"
click 48 16
wait_for "^log: incl 90 9.1%, called 9x" && wait_for " 4/7$"
check "mouse: a click selects log's box in the call graph" $? "$(screen)"
sleep 0.5 # past curses' double-click interval: two clicks
click 48 16
wait_for " 1/4$" && [ "$(screen)" = "$(cat "$here/expected-graph/log.txt")" ]
check "mouse: a click on the selected box centres on it (graph.keys' log.txt)" $? "$(screen)"
# (g for Home: tmux sends its own terminfo's Home, \e[1~, which
# xterm-256color's has not: read as Esc, [, 1, ~)
back_home() { tm send-keys -t t Escape && wait_for " 4/7$" && tm send-keys -t t g && wait_for "^run: incl 902"; }
back_home
click 48 16
click 48 16
wait_for " 1/4$" && wait_for "^log: incl 90"
check "mouse: a double click centres at once" $? "$(screen)"
back_home
tm send-keys -t t 5
wait_for "^call map"
click 76 7
wait_for "^log: 50 5.0%$"
check "mouse: a click selects log's rectangle in the call map" $? "$(screen)"

# the flame graph in a real terminal, at 80x24 and 200x60: every frame
# where check-flame.py, working it out from graph.out's call edges, puts
# it; Enter zooms into the widest callee's frame, Esc comes back
for size in "80 24" "200 60"; do
	set -- $size
	start "$1" "$2" "$CGTUI" graph.out
	wait_for "Ir 992"
	tm send-keys -t t 6
	wait_for "^\[estimated\] main: 992"
	screen >flame.txt
	out=$(python3 "$here/check-flame.py" flame.txt graph.out 2>&1)
	check "${1}x$2: the flame graph of graph.out, every frame as worked out" $? "$out
$(cat flame.txt)"
	tm send-keys -t t Down Down Enter
	wait_for "^work 80.8% *|$" && tm send-keys -t t Escape && wait_for "^main 100.0% *|$"
	check "${1}x$2: Down, Down, Enter zooms into work; Esc out" $? "$(screen)"
	tm send-keys -t t q
	wait_for "exit=0"
	check "${1}x$2: q quits" $? "$(screen | tail -3)"
done

# the timeline in a real terminal, at 80x24 and 200x50 (timeline.out and
# its .time: six intervals, phase1's Ir 80 100 100 40 0 0 of 100 each, as
# timeline.keys works out by hand): the cursor's line gives interval 1's
# rate, three Right keys interval 4's, V twice a range of intervals 2 to 4
# whose totals are the sums of theirs (Ir 300, phase1 100 + 100 + 40 = 240)
for size in "80 24" "200 50"; do
	set -- $size
	start "$1" "$2" "$CGTUI" timeline.out
	wait_for "Ir 520"
	tm send-keys -t t / phase1 Enter 7
	wait_for "^interval 1 of 6, Ir 0 to 100: Ir 100, 1 per Ir; phase1 80 (80.0%), 0.8 per Ir"
	check "${1}x$2: timeline: interval 1, phase1 0.8 per Ir" $? "$(screen)"
	tm send-keys -t t Right Right Right
	wait_for "^interval 4 of 6, Ir 300 to 400: Ir 100, 1 per Ir; phase1 40 (40.0%), 0.4 per Ir"
	check "${1}x$2: timeline: Right x3, interval 4, phase1 0.4 per Ir" $? "$(screen)"
	tm send-keys -t t Left Left V Right Right V
	wait_for "^range 2 to 4, Ir 100 to 400: Ir 300, 1 per Ir; phase1 240 (80.0%), 0.8 per Ir"
	check "${1}x$2: timeline: V, V: the range 2 to 4, the sums of its intervals" $? "$(screen)"
	tm send-keys -t t q
	wait_for "exit=0"
	check "${1}x$2: timeline: q quits" $? "$(screen | tail -3)"
done

# SIGTERM (and SIGHUP, the ssh drop) restore the terminal
for sig in TERM HUP; do
	start 80 24 "$CGTUI" spec.out
	wait_for "Instructions 820"
	# only this pane's cgtui: other tests may run one at the same time
	pkill -"$sig" -P "$(tm list-panes -t t -F '#{pane_pid}')" -x cgtui
	wait_for "exit="
	tail -c 300 raw.log | grep -q $'\e\[?1049l'
	check "SIG$sig: the terminal is restored" $? "$(screen | tail -3)"
done

# Ctrl-Z (SIGTSTP) gives the terminal back, fg (SIGCONT) draws it again.
# (Here the process group has no job control, so the kernel does not stop
# it: ncurses leaves the screen and comes straight back, which is what the
# log shows.)
start 80 24 "$CGTUI" spec.out
wait_for "Instructions 820"
pid=$(pgrep -P "$(tm list-panes -t t -F '#{pane_pid}')" -x cgtui)
: >raw.log
kill -TSTP "$pid"
sleep 0.3
kill -CONT "$pid"
sleep 0.3
LC_ALL=C grep -q $'\e\[?1049l' raw.log
check "SIGTSTP: the terminal is given back" $? "$(od -c raw.log | head -5)"
tm send-keys -t t j
sleep 0.3
LC_ALL=C tr -d '\n' <raw.log | LC_ALL=C grep -q $'\e\[?1049l.*\e\[?1049h' && screen | grep -q 'main  file1.c'
check "SIGCONT: the screen is drawn again" $? "$(screen | head -5)"
tm send-keys -t t q
wait_for "exit=0"
check "and q still quits" $? "$(screen | tail -3)"

# the terminals people have: the list drawn, q quits, in UTF-8 and in C
for term in xterm screen tmux-256color linux vt100; do
	for loc in C.UTF-8 C; do
		# for TERM=linux ncurses loads gpm (the console mouse), which keeps
		# memory to the end: not a leak of ours
		extra=""
		[ $term = linux ] && extra="ASAN_OPTIONS=detect_leaks=0"
		TERMNAME=$term LOCALE=$loc start 80 24 $extra "$CGTUI" spec.out
		wait_for "Instructions 820"
		screen | grep -q '^  400  48.8%   100  12.2%        1 func1  file1.c$'
		r=$?
		tm send-keys -t t q
		wait_for "exit=0" || r=1
		check "TERM=$term LC_ALL=$loc: drawn, and q quits" $r "$(screen | head -8)"
	done
done
# a terminal that cannot move the cursor: refused with a message (the screen
# was garbage), exit 1
TERMNAME=dumb start 80 24 "$CGTUI" spec.out
wait_for "exit=" && screen | grep -q "^cgtui: the terminal (TERM=dumb) cannot move the cursor" &&
	screen | grep -q "^exit=1$"
check "TERM=dumb: refused, the report suggested, exit 1" $? "$(screen | head -5)"

# a long load: the explorer's loading screen (loading.h), the functions read
# so far with the progress; keys move in it; q gives up the load
if [ -x "${GEN:-}" ]; then
	"$GEN" --size 400M big.out >/dev/null 2>&1
	start 100 24 "$CGTUI" big.out
	wait_for "^loading [0-9]*% . [0-9]* MB/s.*partial self costs"
	r=$?
	screen | grep -q "^ *Self Ir .*Function (so far)$" || r=1
	check "a long load shows the functions read so far and its progress" $r "$(screen | head -5)"
	tm send-keys -t t j j
	wait_for " 3/[0-9]*$"
	check "keys move in the list while loading" $? "$(screen | tail -2)"
	tm send-keys -t t q
	wait_for "exit=0"
	check "q during the load quits" $? "$(screen | head -3)"
	# q and Ctrl-C (a key: raw mode) on the loading screen: at once, status
	# 0, the screen gone, the terminal's line editing and echo back
	for key in q C-c; do
		end_cgtui
		tm kill-server 2>/dev/null
		n=$((n + 1))
		sock="$work/tmux.$n"
		tm -f /dev/null new-session -d -s t -x 80 -y 24 "env TERM=xterm-256color \
			CGTUI_CONFIG=$work/plain.config $CGTUI big.out; echo status=\$?; stty -a |
			tr ' ;' '\n\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' ';
			echo; echo modes-shown; sleep 30"
		wait_for "^loading [0-9]*%"
		r=$?
		tm send-keys -t t $key
		wait_for "^modes-shown"
		out=$(screen)
		echo "$out" | grep -q "^status=0" && echo "$out" | grep -q "^icanon echo" &&
			! echo "$out" | grep -q "^loading" && [ $r = 0 ]
		check "$key on the loading screen: status 0, the terminal as it was" $? "$out"
	done
	rm -f big.out
else
	echo "SKIP: loading screen (no generator: GEN)"
fi

# hostile names: shown escaped, never sent raw
printf 'events: Ir\nfl=evil.c\nfn=a\x1b]0;pwned\x07b\n1 10\nfn=rtl\xe2\x80\xaeexe.c\n2 5\nfn=bad\xffutf8\n3 1\n' >evil.out
start 80 24 "$CGTUI" evil.out
wait_for "Ir 16"
out=$(screen)
echo "$out" | grep -qF 'a\x1b]0;pwned\x07b' && echo "$out" | grep -qF 'rtl\u{202e}exe.c' &&
	echo "$out" | grep -qF 'bad\xffutf8'
check "hostile names are shown escaped" $? "$out"
! LC_ALL=C grep -q $'\e]0;pwned' raw.log && ! LC_ALL=C grep -q $'\xe2\x80\xae' raw.log &&
	! LC_ALL=C grep -q $'\xff' raw.log
check "no escape sequence, bidi override or invalid byte from a name reaches the terminal" $? "$(grep -c pwned raw.log)"
tm send-keys -t t q

# the batch report on a terminal escapes them too (piped, it prints bytes as they are)
start 120 40 "$CGTUI" --batch --no-annotate evil.out
wait_for "exit="
out=$(screen)
echo "$out" | grep -qF 'a\x1b]0;pwned\x07b' && echo "$out" | grep -qF 'rtl\u{202e}exe.c' &&
	echo "$out" | grep -qF 'bad\xffutf8'
check "batch report on a terminal: hostile names escaped" $? "$out"
! LC_ALL=C grep -q $'\e]0;pwned' raw.log && ! LC_ALL=C grep -q $'\xe2\x80\xae' raw.log &&
	! LC_ALL=C grep -q $'\xff' raw.log
check "batch report on a terminal: nothing raw reaches it" $? "$(grep -c pwned raw.log)"
"$CGTUI" --batch --no-annotate evil.out | grep -q $'\e]0;pwned'
check "batch report into a pipe: the bytes as they are" $? ""

# a function's line costs are read from the file again when the source view
# first shows them: the file's source line (file1.c:16) before a change, a
# warning on the view when the file changed meanwhile
cp spec.out lazy.out
mkdir -p src && printf 'l%s\n' $(seq 20) >src/file1.c
start 100 30 "$CGTUI" -I src lazy.out
wait_for "Instructions 820"
tm send-keys -t t s
wait_for " 16 l16$" # (file1.c is on the functions list already: not a sign the view is drawn)
out=$(screen)
echo "$out" | grep -q '^ *20   2.4% *16 l16$'
check "source view: main's line 16 (20) read again from the profile" $? "$out"
tm send-keys -t t q
start 100 30 "$CGTUI" -I src lazy.out
wait_for "Instructions 820"
echo "# changed" >>lazy.out
tm send-keys -t t s
wait_for "changed since it was loaded"
out=$(screen)
! echo "$out" | grep -q '^ *20   2.4% *16 l16$'
check "source view: the profile file changed since: a warning, no line costs" $? "$out"
tm send-keys -t t q

# Ctrl-C while a profile loads (a FIFO nobody writes to: the load waits)
# ends cgtui with the terminal as it was, line editing and echo on (the
# loading bar's non-canonical mode was left behind: a shell then read EOF)
mkfifo slow.out
end_cgtui
tm kill-server 2>/dev/null
n=$((n + 1))
sock="$work/tmux.$n"
tm -f /dev/null new-session -d -s t -x 80 -y 24 "trap true INT; env TERM=xterm-256color \
	CGTUI_CONFIG=$work/plain.config $CGTUI slow.out; echo status=\$?; stty -a | tr ' ;' '\n\n' |
	grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' '; echo; echo modes-shown; sleep 30"
sleep 1
tm send-keys -t t C-c
wait_for "^modes-shown" # printed after the modes: the screen holds both lines
out=$(screen)
echo "$out" | grep -q "^status=130" && echo "$out" | grep -q "^icanon echo"
check "Ctrl-C while loading: exit 130, the terminal's line editing and echo back" $? "$out"

finish
