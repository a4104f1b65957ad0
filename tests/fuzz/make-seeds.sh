#!/bin/sh
# make-seeds.sh OUTDIR [DICT] -- the seed corpus and dictionary of fuzz-load.
#
# OUTDIR receives (flat, one file each, names prefixed by their origin):
#   - tests/**/*.prof, tests/report/*.cgout, tests/golden/samples/*.callgrind,
#     examples/callgrind.out.wordfreq, ../shared/corpus/wild/* (or
#     $CORPUS_DIR), tests/fuzz/seeds/* and tests/fuzz/crashes/* (the
#     reproducers of bugs found; SEED_SKIP_CRASHES=1 leaves them out);
#     a file longer than $SEED_MAX_LEN bytes (default 16384: big inputs are
#     slow to fuzz; fuzz-load's -max_len is 65536) is cut to that at a line
#     end, and a second slice is made from its header and a block in its
#     middle;
#   - "#diff" copies of the small ones (fuzz-load.c: also loaded as a diff);
#   - profiles with their source for the annotator (fuzz-load.c: the profile,
#     a "#--src--" line, the source; the profile names the source fuzz.c);
#   - gzip copies of two small profiles (one with a source after it).
# DICT (default OUTDIR.dict) receives a libFuzzer dictionary of the format's
# keywords.
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu

if [ $# -lt 1 ]; then
	echo "usage: make-seeds.sh OUTDIR [DICT]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$1
dict=${2:-$1.dict}
max=${SEED_MAX_LEN:-16384}
wild=${CORPUS_DIR:-$top/../shared/corpus/wild}

mkdir -p "$out"

# seed NAME FILE: copies FILE (cut to $max bytes at a line end) as OUTDIR/NAME
seed() {
	size=$(wc -c <"$2")
	if [ "$size" -le "$max" ]; then
		cat "$2" >"$out/$1"
		return
	fi
	head -c "$max" "$2" | sed '$d' >"$out/$1"
	# header (up to the first fl=/fn=/ob= line, at most 8 KiB) + a middle
	# part starting at a block
	awk -v max="$max" -v size="$size" '
		BEGIN { hdr = 1; got = 0; n = 0 }
		hdr && /^(fl|fn|ob)=/ { hdr = 0 }
		hdr { if (n + length($0) + 1 <= 8192) { print; n += length($0) + 1 } next }
		!started { pos += length($0) + 1
			   if (pos < size / 2 || $0 !~ /^(fl|fn|ob)=/) next
			   started = 1 }
		{ if (n + length($0) + 1 > max) exit; print; n += length($0) + 1 }
	' "$2" >"$out/$1.mid"
}

# with_source NAME PROFILE NAME_IN_PROFILE SOURCE: PROFILE's header and the
# blocks of NAME_IN_PROFILE (renamed fuzz.c), then the source
with_source() {
	awk -v want="$3" -v max="$max" '
		function is_file(l) { return l ~ /^(fl|fi|fe)=/ }
		# the name of a fl=/fi=/fe= line; "(N)" alone: the name defined
		# for N earlier
		function named(l,  v, id) {
			v = l; sub(/^[a-z]+=/, "", v); id = ""
			if (v ~ /^\([0-9]+\)/) { id = v; sub(/\).*/, ")", id); sub(/^\([0-9]+\) ?/, "", v) }
			if (id != "" && v != "") ids[id] = v
			else if (id != "" && (id in ids)) v = ids[id]
			return v
		}
		BEGIN { hdr = 1; keep = 0; n = 0 }
		hdr && /^(fl|fn|ob)=/ { hdr = 0 }
		hdr { print; n += length($0) + 1; next }
		is_file($0) { nm = named($0) }
		/^fl=/ { keep = nm == want }
		keep || /^ob=/ {
			if (is_file($0) && nm == want) {
				id = $0; sub(/^[a-z]+=/, "", id)
				if (id ~ /^\([0-9]+\)/) { sub(/\).*/, ")", id); id = id " " }
				else id = ""
				k = substr($0, 1, index($0, "="))
				$0 = k id "fuzz.c"
			}
			if (n + length($0) + 1 > max - 4096) exit
			print; n += length($0) + 1
		}
	' "$2" >"$out/$1"
	printf '#--src--\n' >>"$out/$1"
	cat "$4" >>"$out/$1"
}

for f in "$top"/tests/*/*.prof "$top"/tests/*/*/*.prof; do
	[ -f "$f" ] || continue
	rel=${f#"$top"/tests/}
	seed "$(echo "$rel" | tr / -)" "$f"
done
for f in "$top"/tests/report/*.cgout "$top"/tests/golden/samples/*.callgrind \
	"$top"/examples/callgrind.out.* "$here"/seeds/*; do
	[ -f "$f" ] || continue
	seed "$(basename "$(dirname "$f")")-$(basename "$f")" "$f"
done
if [ -z "${SEED_SKIP_CRASHES:-}" ]; then
	for f in "$here"/crashes/*; do
		[ -f "$f" ] || continue
		seed "crashes-$(basename "$f")" "$f"
	done
fi
if [ -d "$wild" ]; then
	for f in "$wild"/*; do
		[ -f "$f" ] || continue
		case $f in *.md) continue ;; esac
		seed "wild-$(basename "$f")" "$f"
	done
else
	echo "make-seeds.sh: no $wild; skipping the wild corpus" >&2
fi

# profiles with their sources
[ -f "$top/tests/report/prog.c" ] &&
	with_source src-prog "$top/tests/report/prog.cgout" prog.c "$top/tests/report/prog.c"
[ -f "$top/tests/report/edge.c" ] &&
	with_source src-edge "$top/tests/report/edge.cgout" edge.c "$top/tests/report/edge.c"
[ -f "$top/tests/golden/samples/zero.c" ] &&
	with_source src-zerocall "$top/tests/golden/samples/zerocall.callgrind" zero.c \
		"$top/tests/golden/samples/zero.c"
[ -f "$top/examples/wordfreq.c" ] &&
	with_source src-wordfreq "$top/examples/callgrind.out.wordfreq" examples/wordfreq.c \
		"$top/examples/wordfreq.c"

# gzip copies (no name or time in the header: the same bytes every time)
for f in report-edge.cgout samples-zerocall.callgrind; do
	[ -f "$out/$f" ] && gzip -9nc "$out/$f" >"$out/gz-$f.gz"
done
if [ -f "$out/src-edge" ]; then
	sed '/^#--src--$/,$d' "$out/src-edge" | gzip -9nc >"$out/gz-src-edge"
	printf '\n' >>"$out/gz-src-edge"
	sed -n '/^#--src--$/,$p' "$out/src-edge" >>"$out/gz-src-edge"
fi

# diff copies of the small plain-text ones
for f in "$out"/*; do
	case ${f##*/} in gz-* | *.gz | diff-*) continue ;; esac
	[ "$(wc -c <"$f")" -le 4096 ] || continue
	{ printf '#diff\n'; cat "$f"; } >"$out/diff-${f##*/}"
done

# remove empty results (e.g. a profile without the named source)
find "$out" -type f -size 0 ! -name '*empty*' -exec rm -f {} +

cat >"$dict" <<'EOF'
# fuzz-load dictionary: the Cachegrind/Callgrind format's keywords
# (made by tests/fuzz/make-seeds.sh)
"# callgrind format\x0a"
"version: 1\x0a"
"creator: "
"cmd: "
"pid: "
"thread: "
"part: "
"desc: "
"desc: Trigger: "
"desc: I1 cache: "
"events: "
"event: "
"positions: "
"positions: line"
"positions: instr"
"positions: instr line"
"summary: "
"totals: "
"\x0aevents: Ir\x0a"
"\x0aevents: Ir Dr Dw\x0a"
"fn="
"fl="
"fi="
"fe="
"ob="
"cob="
"cfi="
"cfl="
"cfn="
"calls="
"calls=1 "
"jump="
"jcnd="
"jfi="
"jfn="
"fl=fuzz.c\x0a"
"fi=fuzz.h\x0a"
"fe=fuzz.c\x0a"
"fl=???\x0a"
"fn=???\x0a"
"#--src--\x0a"
"#diff\x0a"
"==== NEW PROFILING FILE"
"(1)"
"(2)"
"(1) "
"0x"
"0x1000"
"0xffffffffffffffff"
"18446744073709551615"
"9223372036854775807"
"-9223372036854775808"
"4294967295"
"4294967296"
"+"
"-"
"*"
"* *"
"+1"
"-1"
"."
" = "
" : "
" * "
"Ir"
"Dr"
"Dw"
"I1mr"
"D1mr"
"D1mw"
"ILmr"
"DLmr"
"DLmw"
"Bc"
"Bcm"
"Bi"
"Bim"
"L1m"
"LLm"
"Bm"
"CEst"
"line"
"instr"
"\x0d\x0a"
"\x09"
"\x1f\x8b\x08\x00"
EOF
echo "make-seeds.sh: $(find "$out" -type f | wc -l) seeds in $out, dictionary $dict"
