#!/bin/sh
# Compressed profiles (gzip, zstd) give the same report, byte for byte, as
# the plain file, for every corpus file and the bench generator's output:
# the compressed copies carry the plain file's name (no .gz or .zst), so
# what is read is chosen by the magic bytes.  zstd copies are made by the
# zstd command when installed, else by zstd-pack (libzstd's one-shot
# compressor, not the streaming decoder cgtui reads with); a copy in
# frames of 1000 bytes checks lines cut across frames.
# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck source=tests/common.sh
. "$(dirname "$0")/../common.sh"
: "${CORPUS_DIR:=$here/../../../shared/corpus/wild}"
pack=${ZSTD_PACK:-$(dirname "$CGTUI")/tests/unit/zstd-pack}
[ -x "$pack" ] || { echo "SKIP: $pack not built"; exit 77; }
mkdir plain gz zst zframes
files=
for f in "$CORPUS_DIR"/*; do
	case "$f" in *.md) continue ;; esac
	[ -f "$f" ] && files="$files $f"
done
if [ -x "${GEN:-}" ]; then
	"$GEN" --size 2M plain/gen.out >/dev/null 2>&1 && files="$files $work/plain/gen.out"
fi
[ -n "$files" ] || { echo "SKIP: no corpus at $CORPUS_DIR"; exit 77; }
for f in $files; do
	name=$(basename "$f")
	[ -f "plain/$name" ] || cp "$f" "plain/$name"
	gzip -c "$f" >"gz/$name"
	if command -v zstd >/dev/null 2>&1; then
		zstd -q -c "$f" >"zst/$name"
	else
		"$pack" <"$f" >"zst/$name"
	fi
	"$pack" 1000 <"$f" >"zframes/$name"
	for d in plain gz zst zframes; do
		(cd "$d" && "$CGTUI" --batch --threshold=0 --inclusive=yes "$name" >"../$d.txt" 2>&1)
	done
	for d in gz zst zframes; do
		cmp -s plain.txt "$d.txt"
		check "$name: $d: the plain file's report" $? "$(diff plain.txt "$d.txt" | head -5)"
	done
done
# what the loader was given is the compressed bytes: a corrupt copy fails
name=$(basename "${files##* }")
head -c 40 "zst/$name" >cut.out
"$CGTUI" --batch cut.out >/dev/null 2>err.txt
rc=$?
[ "$rc" = 2 ] && grep -q '^cgtui: cut.out:[0-9]*: zstd data is corrupt or truncated' err.txt
check "a zstd stream cut short: FILE:LINE and exit 2" $? "exit $rc: $(cat err.txt)"
finish
