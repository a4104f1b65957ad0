#!/bin/sh
# Parallel parsing (--jobs) gives the report of one job, byte for byte:
# every corpus file, every profile under tests/ that loads, and a generated
# one, at 1, 2 and 8 jobs, with chunks forced small (CGTUI_CHUNK_BYTES: at
# the normal size most files are one chunk), with line records read when
# needed (--no-annotate, where workers' runs are used) and made while
# loading (the annotated report).  The reference is the 1-job load, which
# tests/corpus/run-corpus.sh checks against independent readings of the
# files; CGTUI_PAR_DEBUG says the workers' runs were used.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
files=$(loadable_profiles)
if [ -x "${GEN:-}" ]; then
	"$GEN" --size 3M gen.out >/dev/null 2>&1 && files="$files $work/gen.out"
	"$GEN" --size 1M --functions=2000 gen2.out >/dev/null 2>&1 && files="$files $work/gen2.out"
fi
# jump=/jcnd= lines among cost lines (workers take them into their runs
# when jumps are not kept), the line after one or a plain line spoilt by a
# cost "*" or a hex cost (a worker's run ends before it, its last costs read
# again), jfi=, calls
awk 'BEGIN {
	print "events: Ir Dr Dw"; print "positions: instr line"; print "fl=(1) a.c"
	for (f = 0; f < 300; f++) {
		printf "\nfn=(%d) f%d\n0x%x 10 1 2 3\n+2 +1 4 5 6\n", f + 1, f, 4096 * (f + 1)
		for (k = 0; k < 24; k++) {
			t = (f * 31 + k * 7) % 11
			if (t == 0) print "jcnd=3/5 +4 +1\n* *"
			else if (t == 1) print "jump=7 -2 -1\n* * 1"
			else if (t == 2) print "+1 * 5 *"
			else if (t == 3) print "jcnd=1/2 0x2000 12\n+1 * 3 0x4"
			else if (t == 4) printf "jfi=(2)%s\njcnd=2/2 +3 *\n* *\n", f ? "" : " b.c"
			else if (t == 5) printf "cfn=(%d)\ncalls=2 +1 +1\n+1 * 10 2 1\n", f % 7 + 1
			else if (t == 6) print "+1 +1 7 8 9"
			else if (t == 7) print "+2 * 4"
			else if (t == 8) print "-1 -1 1 0 2"
			else if (t == 9) print "jcnd=1/1 +1 +1\n+1 * 2 *"
			else print "+3 +2 9 9"
		}
	}
}' >jumps.out
files="$files $work/jumps.out"
[ -n "$files" ] || { echo "SKIP: no profiles"; exit 77; }
report() { # jobs, chunk bytes, file, options...
	j=$1 cb=$2 f=$3
	shift 3
	# with 2 jobs the reader waits for the worker (its runs are used
	# whatever the timing); "2h": the worker reads the first half of each
	# chunk only, as when the reader comes into a chunk a worker is
	# reading (the worker stops there, the reader reads the rest); with 8
	# it reads on where a worker is not done; the workers go on whatever
	# their runs cover (CGTUI_PAR_RULE=0)
	w=0
	case $j in 2) w=1 ;; 2h) w=2 ;; esac
	CGTUI_PAR_RULE=0 CGTUI_PAR_WAIT=$w CGTUI_CHUNK_BYTES=$cb "$CGTUI" --jobs="${j%h}" --batch --threshold=0 --inclusive=yes "$@" "$f" 2>&1 |
		grep -v '^Invocation:'
}
same_as_one() { # name, "chunk sizes", jobs ("2h": see report), file, options...
	what=$1 cbs=$2 j=$3 f=$4
	shift 4
	for cb in $cbs; do
		report "$j" "$cb" "$f" "$@" >par.txt
		cmp -s one.txt par.txt || break
	done
	cmp -s one.txt par.txt
	check "$what: --jobs=$j, chunks of $cbs bytes" $? \
		"chunks of $cb bytes: $(diff one.txt par.txt | head -4)"
}
for f in $files; do
	name=${f#"$here/../"}
	name=${name#"$work/"}
	for opt in --no-annotate --annotate; do
		report 1 1000000000 "$f" "$opt" >one.txt
		same_as_one "$name $opt" "1 300 4096" 2 "$f" "$opt"
		same_as_one "$name $opt" 300 2h "$f" "$opt"
		same_as_one "$name $opt" "1 300 4096" 8 "$f" "$opt"
	done
done
if [ -f gen.out ]; then
	CGTUI_PAR_WAIT=1 CGTUI_PAR_DEBUG=1 CGTUI_CHUNK_BYTES=65536 "$CGTUI" --jobs=2 --batch --no-annotate gen.out \
		2>err.txt >/dev/null
	used=$(sed -n 's/.*runs \([0-9]*\) of \([0-9]*\) from workers.*/\1/p' err.txt)
	[ "${used:-0}" -gt 0 ]
	check "gen.out: the workers' runs are used" $? "$(cat err.txt)"
	# the first half of each chunk only: the runs there are the workers'
	CGTUI_PAR_WAIT=2 CGTUI_PAR_DEBUG=1 CGTUI_CHUNK_BYTES=65536 "$CGTUI" --jobs=2 --batch --no-annotate gen.out \
		2>err.txt >/dev/null
	used2=$(sed -n 's/.*runs \([0-9]*\) of \([0-9]*\) from workers.*/\1/p' err.txt)
	[ "${used2:-0}" -gt 0 ] && [ "$used2" -lt "$used" ]
	check "gen.out: a worker stopped halfway, its runs are used" $? "$used2 of $used: $(cat err.txt)"
fi
# State the reader carries from chunk to chunk, with chunks cut at any line
# (no fn= line here follows an empty or a cost line, where chunks are cut
# when they can be; with chunks of 1 byte each line is one): function ids
# defined in one block and used in later ones, or used before their
# definition, or never defined (a warning at the line of its first use);
# a block's first cost line relative to the last one of the block before
# (format spec 3.1.6: relative to the previous cost line); calls= lines
# right before a cut; fl=/fi= in force across cuts.  Then the same file
# with a calls= line whose cost line never comes: the error at its line.
# Expected lines counted by the generator (n), not read from cgtui.
for kind in ok err; do
	awk -v kind=$kind -v where="where-$kind.txt" 'function out(l) { print l; n++ }
	BEGIN {
		out("events: Ir Dr"); out("positions: line"); out("fl=(1) a.c")
		for (f = 0; f < 160; f++) {
			out(f % 3 ? "fl=(1)" : "fl=(2)" (f ? "" : " b.c"))
			# ids 4, 8 ...: named 5 blocks later, on a cfn= line
			# (never, for 156 and 160)
			out("fn=(" f + 1 ")" (f % 4 == 3 ? "" : " f" f))
			out((f ? "+1 " : "10 ") (f % 5 + 1) " " (f % 3))
			if (f % 4 == 1)
				out("fi=(1)")
			out("+2 " (f % 7 + 2))
			if (f > 4 && f % 4 == 0) {
				out("cfn=(" f - 4 ") late" f - 4)
				out("calls=1 3")
				out("+1 1 1")
			}
			g = f == 90 ? 5000 : (f * 7) % 160 + 1
			out("cfn=(" g ")")
			if (kind == "ok" && f == 90)
				print n > where
			out("calls=" (f % 3 + 1) " " (f % 11 + 1))
			if (kind == "err" && f == 100) {
				print n + 1 > where # the line that comes instead
				out("fn=(2)")
			}
			out("* " (f % 13 + 3) " 1")
			out("-1 " (f % 4 + 1) " 2")
		}
	}' >"state-$kind.out"
	report 1 1000000000 "state-$kind.out" --no-annotate >one.txt
	if [ $kind = ok ]; then
		# id 5000 never defined: its warning, at its first use
		read -r line <"where-$kind.txt"
		grep -q "^cgtui: warning: state-ok.out:$line: function id (5000) is used but never defined; shown as (5000)\$" one.txt
		check "state-ok.out: one job warns of id 5000 at line $line" $? "$(grep -i warning one.txt | head -3)"
	else
		read -r line <"where-$kind.txt"
		grep -q "^cgtui: state-err.out:$line: calls= line not followed by its cost line\$" one.txt
		check "state-err.out: one job says line $line" $? "$(head -3 one.txt)"
	fi
	for j in 2 2h 8; do
		same_as_one "state-$kind.out" "1 57 300" $j "state-$kind.out" --no-annotate
	done
done

# The workers stop where runs of plain cost lines are rare: after two
# The sum of jump counts passing 2^63-1: said at the same line whatever the
# job count (a worker's run with the jumps is not applied; the reader
# reads the lines itself)
awk 'BEGIN {
	print "events: Ir"; print "fl=a.c"
	for (f = 0; f < 400; f++) {
		printf "\nfn=f%d\n1 1\n2 2\n", f
		big = "999999999999999999" # 10^18 - 1
		for (k = 0; k < 3; k++)
			printf "jcnd=%s/%s %d\n%d 1\n%d 1\n", (f > 300 ? big : "1"),
				(f > 300 ? big : "2"), k + 5, k + 3, k + 4
	}
}' >jumpovf.out
report 1 1000000000 jumpovf.out --no-annotate >one.txt
# (by hand: 301 functions' 903 small jumps sum 2709; each big one adds
# 2 * (10^18 - 1), so the fifth big one passes 2^63-1 = 9223372036854775807:
# function 302's second, k = 1; function f's lines start at 3 + 13 f, its
# k-th jcnd= is its line 4 + 3 k: 3 + 3926 + 7 = 3936)
grep -q '^cgtui: jumpovf.out:3936: sum of jump counts passes 2^63-1$' one.txt
check "jumpovf.out: one job says where the jump counts pass 2^63-1" $? "$(cat one.txt)"
for j in 2 8; do
	same_as_one "jumpovf.out: said at the same line" "1 300 4096" $j jumpovf.out --no-annotate
done

# chunks read, runs covering less than a third of their bytes (every cost
# line below has a hex cost, which no run takes); the report stays the
# one of one job.  Where runs are the whole file, they go on.
for kind in plain hex; do
	awk -v kind=$kind 'BEGIN {
		print "events: Ir Dr"; print "fl=a.c"
		for (i = 0; i < 60000; i++) {
			if (i % 500 == 0) printf "fn=f%d\n", i / 500
			printf (kind == "hex" ? "%d 0x%x 3\n" : "%d %d 3\n"), i % 300 + 1, i % 7 + 1
		}
	}' >"rule-$kind.out"
	report 1 1000000000 "rule-$kind.out" --no-annotate >one.txt
	CGTUI_PAR_WAIT=1 CGTUI_PAR_DEBUG=1 CGTUI_CHUNK_BYTES=65536 "$CGTUI" --jobs=2 --batch \
		--threshold=0 --inclusive=yes --no-annotate "rule-$kind.out" 2>err.txt |
		grep -v '^Invocation:' >par.txt
	cmp -s one.txt par.txt
	check "rule-$kind.out: --jobs=2 gives the report of one job" $? "$(diff one.txt par.txt | head -4)"
	stopped=0
	grep -q 'one job from here' err.txt && stopped=1
	[ "$stopped" = "$([ $kind = hex ] && echo 1 || echo 0)" ]
	check "rule-$kind.out: workers $([ $kind = hex ] && echo stop || echo 'go on')" $? "$(cat err.txt)"
done
finish
