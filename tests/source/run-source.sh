#!/bin/sh
# Source and binary insight: programs built here with -g (a PIE, a non-PIE,
# a shared library of ours, static inline functions from a header), recorded
# with callgrind --dump-instr=yes --collect-jumps=yes and with our own tool;
# cgtui's assembly view (headless, dumped) is compared by check-asm.py with
# objdump -d -l on the same binaries and with the profile's own lines.  Then
# the cases where no code may be shown: object missing, rebuilt, stripped.
# SPDX-License-Identifier: GPL-2.0-or-later
set -u
: "${CGTUI:=../../cgtui}"
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$CGTUI" ] || { echo "SKIP: $CGTUI not built"; exit 77; }
case "$CGTUI" in /*) ;; *) CGTUI=$(pwd)/$CGTUI ;; esac
for t in cc valgrind objdump python3 strip; do
	command -v $t >/dev/null || { echo "SKIP: no $t"; exit 77; }
done
vglib=$(dirname "$CGTUI")/vglib
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
pass=0 fail=0
check() { # description, status, detail
	if [ "$2" = 0 ]; then
		echo "PASS: $1"
		pass=$((pass + 1))
	else
		echo "FAIL: $1"
		[ -n "${3:-}" ] && echo "  $3"
		fail=$((fail + 1))
	fi
}

# the programs: -O1 so that fold() and mix() are inlined
CFLAGS="-g -O1 -fno-omit-frame-pointer"
cc $CFLAGS -fPIC -shared -o libsrclib.so "$here/srclib.c" &&
	cc $CFLAGS -fPIE -pie -o srcprog-pie "$here/srcprog.c" -L. -lsrclib -Wl,-rpath,"$work" &&
	cc $CFLAGS -fno-pie -no-pie -o srcprog-nopie "$here/srcprog.c" -L. -lsrclib \
		-Wl,-rpath,"$work" || { echo "SKIP: cannot build the test programs"; exit 77; }
record() { # out file, program
	valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes \
		--callgrind-out-file="$1" "./$2" >/dev/null 2>valgrind.err ||
		{ echo "FAIL: callgrind on $2"; cat valgrind.err; fail=$((fail + 1)); }
}
record pie.cg srcprog-pie
record nopie.cg srcprog-nopie

printf 'set threshold = 0\nset context = 100000\nset percent = no\nset detail = no\n' >all.config
view() { # profile, function, dump file, [config]
	printf '/^%s$<Enter>\na\n:dump %s\nq\n' "$2" "$3" >view.keys
	TERM=xterm-256color COLUMNS=200 LINES=400 LC_ALL=C.UTF-8 CGTUI_SCRIPT=view.keys \
		CGTUI_CONFIG=${4:-all.config} "$CGTUI" "$1" >view.out 2>view.err
	rc=$?
	if [ $rc != 0 ] || [ -s view.err ] || [ ! -s "$3" ]; then
		check "$1 $2: the view opens" 1 "status $rc: $(cat view.err)"
		return 1
	fi
}
compare() { # profile, function, binary, label
	view "$1" "$2" "$2.$1.txt" || return
	python3 "$here/check-asm.py" "$2.$1.txt" "$3" "$2" "$1" "$work/$3" "$4" >cmp.out
	rc=$?
	cat cmp.out
	pass=$((pass + $(grep -c '^PASS' cmp.out)))
	fail=$((fail + $(grep -c '^FAIL' cmp.out)))
	[ $rc = 0 ] || [ "$(grep -c '^FAIL' cmp.out)" != 0 ] || fail=$((fail + 1))
}
for f in main hash_all count_odd; do
	compare pie.cg $f srcprog-pie "PIE $f"
	compare nopie.cg $f srcprog-nopie "non-PIE $f"
done
compare pie.cg lib_sum libsrclib.so "shared library lib_sum"

# our own recorder writes the same positions
if [ -f "$vglib/cgtui-amd64-linux" ] || ls "$vglib"/cgtui-* >/dev/null 2>&1; then
	VALGRIND_LIB=$vglib valgrind --tool=cgtui --cgtui-out-file=tool.cg ./srcprog-pie \
		>/dev/null 2>valgrind.err || { echo "FAIL: our tool"; cat valgrind.err; }
	compare tool.cg hash_all srcprog-pie "our tool, PIE hash_all"
	compare tool.cg lib_sum libsrclib.so "our tool, shared library lib_sum"
else
	echo "  note: our Valgrind tool is not built: its profiles not checked"
fi

# The hottest instruction is selected when the view opens: hash_all's
# hottest, as the profile's lines sum it (first of the equals).
printf '/^hash_all$<Enter>\na\n:dump sel.txt\nq\n' >sel.keys
printf 'set threshold = 0\nset context = 100000\nset percent = no\nset detail = no\n' >sel.config
TERM=xterm-256color COLUMNS=120 LINES=200 LC_ALL=C.UTF-8 CGTUI_SCRIPT=sel.keys \
	CGTUI_CONFIG=sel.config "$CGTUI" pie.cg >/dev/null 2>&1
status=$(tail -n 1 sel.txt | sed -n 's|.* \([0-9]*\)/[0-9]*$|\1|p')
row=$(sed -n '4,$p' sel.txt | sed -n "${status:-0}p")
hot=$(python3 "$here/check-asm.py" --hottest pie.cg hash_all "$work/srcprog-pie")
echo "$row" | grep -q " $hot: "
check "the view opens at the hottest instruction, $hot as the profile sums it (selected: ${row:-none})" "$?"

# what may not be shown
view pie.cg hash_all ok.txt
cp srcprog-pie saved
rm srcprog-pie
view pie.cg hash_all missing.txt
grep -q 'cannot read the object: .*srcprog-pie: No such file' missing.txt &&
	! grep -q ': mov ' missing.txt
check "object missing: said so, no code" "$?" "$(head -5 missing.txt)"
# rebuilt differently (-O0): newer, and the addresses no longer match
sleep 1
cc -g -O0 -fPIE -pie -o srcprog-pie "$here/srcprog.c" -L. -lsrclib -Wl,-rpath,"$work"
view pie.cg hash_all rebuilt.txt
grep -q 'does not match the profile' rebuilt.txt && ! grep -q '^ *[0-9,.]* *[0-9a-f]*: ' rebuilt.txt
check "object rebuilt (-O0): 'does not match the profile', no code" "$?" "$(head -5 rebuilt.txt)"
# the same bytes, only touched: shown, with a warning
cp saved srcprog-pie
touch srcprog-pie
view pie.cg hash_all touched.txt
grep -q 'newer than the profile' touched.txt && grep -q ': xor eax, dword ptr \[rdx\]' touched.txt
check "object touched after the profile: warning, code shown (it matches)" "$?"
# stripped: no symbol tells where hash_all is
strip -o srcprog-pie saved
view pie.cg hash_all stripped.txt
grep -q 'stripped' stripped.txt && ! grep -q ': xor eax' stripped.txt
check "object stripped: said so, no code" "$?" "$(head -5 stripped.txt)"
cp saved srcprog-pie
# a profile without instruction addresses
valgrind --tool=callgrind --callgrind-out-file=lines.cg ./srcprog-pie >/dev/null 2>&1
view lines.cg hash_all lines.txt
grep -q 'no instruction addresses' lines.txt
check "profile without positions: instr: said so" "$?"

echo "# $pass passed, $fail failed"
[ $fail = 0 ]
