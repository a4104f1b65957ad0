#!/bin/sh
# Valgrind's own cg_annotate tests (valgrind/valgrind cachegrind/tests/ann*,
# see valgrind/README.md): each case runs what its .vgtest's `post:` line
# runs, with `cgtui --batch` in place of cg_annotate, and compares the
# output with the .post.exp that cg_annotate (3.21+) printed, less the
# Invocation: line.  The expected outputs are Valgrind's, not ours.
#
# Modification times are set explicitly instead of the .vgtest's `touch`
# and `sleep 0.1`: the profiles at a whole second, the sources that must
# look newer half a second later (cg_annotate compares nanoseconds), and
# every other source older than both.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
cp -R "$here"/valgrind/. .
find . -type f -exec touch -d '2020-01-01 00:00:00' {} +
profiles_now() { touch -d '2021-01-01 00:00:00' "$@"; }
sources_newer() { touch -d '2021-01-01 00:00:00.5' "$@"; }

xfail=0
# case NAME [--known 'WHY'] CGTUI-ARGUMENTS...
# With --known, the case is known to differ (WHY says why): a difference is
# counted as expected, and a match fails until the mark is removed.
case_() {
	name=$1
	shift
	known=
	if [ "$1" = --known ]; then
		known=$2
		shift 2
	fi
	grep -v '^Invocation:' "$name.post.exp" >want.txt
	"$CGTUI" --batch "$@" 2>err.txt | grep -v '^Invocation:' >got.txt
	if diff -u want.txt got.txt >diff.txt; then
		if [ -n "$known" ]; then
			check "$name: matches cg_annotate now: drop its known difference ($known)" 1 ""
		else
			check "$name" 0 ""
		fi
	elif [ -n "$known" ]; then
		echo "XFAIL: $name: $known"
		xfail=$((xfail + 1))
	else
		check "$name" 1 "cgtui --batch $*: $(head -60 diff.txt)"
	fi
}

# ann1a, ann1b: options on a Valgrind 3.14 profile of a.c
profiles_now ann1.cgout
case_ ann1a --show=Ir,I1mr,ILmr --show-percs=no ann1.cgout
case_ ann1b --sort=Dr --show=Dw,Dr,Ir --auto=no ann1.cgout

# ann2: edge cases (see the comments in ann2.cgout); one source newer than
# the profile
profiles_now ann2.cgout
sources_newer ann2-more-recent-than-cgout.rs
ann2_args='--context 2 --annotate --show-percs=yes --threshold=0.5 ann2.cgout'
# (its fl= line not followed by fn= starts <unspecified>: the loader's rule)
# shellcheck disable=SC2086
case_ ann2 $ann2_args
# The same file with the function that rule starts written out
# (cg_annotate reads both alike), under the same name.
sed '/^fl=ann2-past-the-end.rs$/a\
fn=<unspecified>' ann2.cgout >ann2.tmp && mv ann2.tmp ann2.cgout
profiles_now ann2.cgout
# shellcheck disable=SC2086
case_ ann2 $ann2_args

# ann-diff1: ann-diff1.cgout is cg_diff --mod-funcname=s/main/MAIN/ of
# ann1.cgout and ann1b.cgout; a.c renamed A.c is still read from a.c
profiles_now ann-diff1.cgout
case_ ann-diff1 --mod-filename=s/a.c/A.c/ --mod-funcname s/MAIN/Main/ ann-diff1.cgout

# ann-diff2, ann-diff3: a difference made by cg_diff with --mod-filename and
# --mod-funcname (ann-diff2c.cgout), and the same done by --diff
profiles_now ann-diff2a.cgout ann-diff2b.cgout ann-diff2c.cgout
case_ ann-diff2 ann-diff2c.cgout
case_ ann-diff3 --diff '--mod-filename=s/.*aux\//aux\//i' \
	'--mod-funcname=s/(f[a-z]*)[0-9]/\1N/g' ann-diff2a.cgout ann-diff2b.cgout

# ann-diff4: two directories renamed to one: identical sources (w.rs both
# newer: a warning per profile; x.rs only one newer: none), different ones
# (y.rs), one missing (z.rs) and none (no-such-file.rs)
profiles_now ann-diff4a.cgout ann-diff4b.cgout
sources_newer ann-diff4a-aux/x.rs ann-diff4a-aux/w.rs ann-diff4b-aux/w.rs
case_ ann-diff4 ann-diff4a.cgout ann-diff4b.cgout '--mod-filename=s/ann-diff4[ab]/ann-diff4N/' --diff

# ann-merge1: ann-merge1c.cgout is cg_merge of ann-merge1a/b.cgout;
# ann-merge2: the same two given to cg_annotate (descriptions differ)
profiles_now ann-merge1a.cgout ann-merge1b.cgout ann-merge1c.cgout
case_ ann-merge1 ann-merge1c.cgout
case_ ann-merge2 ann-merge1a.cgout ann-merge1b.cgout

[ "$xfail" = 0 ] || echo "($xfail known differences, above)"
finish
