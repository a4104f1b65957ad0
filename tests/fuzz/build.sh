#!/bin/sh
# build.sh [OUTPUT] -- builds the libFuzzer target tests/fuzz/fuzz-load.
#
# Compiles src/profile/*.c, the report and the source files it reads
# (src/report/report.c, columns.c, tree.c, annotate.c, src/source/srcfile.c, srcannot.c)
# straight into the target
# with clang's libFuzzer, AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer (every finding fatal).  Needs clang and its
# libFuzzer runtime (Debian: libclang-rt-14-dev), pcre2, zlib and libzstd.
#
# Environment: CC (default clang), BUILDDIR (where config.h is; default the
# source tree, or a minimal config.h is made when there is none),
# FUZZ_CFLAGS (added to the compiler flags, after ours), CGTUI_SRC (the src
# directory to compile; default the tree's: a patched copy can be fuzzed).
#
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$here/fuzz-load}
CC=${CC:-clang}
builddir=${BUILDDIR:-$top}
srcdir=${CGTUI_SRC:-$top/src}

if ! command -v "$CC" >/dev/null 2>&1; then
	echo "build.sh: $CC not found (libFuzzer needs clang)" >&2
	exit 77
fi

# libFuzzer's runtime: libclang-rt-NN-dev on Debian
if ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' |
	"$CC" -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
	echo "build.sh: $CC cannot link -fsanitize=fuzzer (install libclang-rt-dev)" >&2
	exit 77
fi

incdir=
if [ -f "$builddir/config.h" ]; then
	incdir=$builddir
else
	# no configured tree: what configure would define for these files
	incdir=$(dirname "$out")/.fuzz-config
	mkdir -p "$incdir"
	cat >"$incdir/config.h.tmp" <<'EOF'
/* made by tests/fuzz/build.sh: no configured build tree */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE 1
#endif
#ifndef _FILE_OFFSET_BITS
# define _FILE_OFFSET_BITS 64
#endif
EOF
	if ! cmp -s "$incdir/config.h.tmp" "$incdir/config.h" 2>/dev/null; then
		mv "$incdir/config.h.tmp" "$incdir/config.h"
	else
		rm -f "$incdir/config.h.tmp"
	fi
	echo "build.sh: no $builddir/config.h; using a minimal one" >&2
fi

pcre_cflags=$(pkg-config --cflags libpcre2-8 2>/dev/null || true)
pcre_libs=$(pkg-config --libs libpcre2-8 2>/dev/null || echo -lpcre2-8)
z_cflags=$(pkg-config --cflags zlib 2>/dev/null || true)
z_libs=$(pkg-config --libs zlib 2>/dev/null || echo -lz)
zstd_cflags=$(pkg-config --cflags libzstd 2>/dev/null || true)
zstd_libs=$(pkg-config --libs libzstd 2>/dev/null || echo -lzstd)
pb_cflags=$(pkg-config --cflags libprotobuf-c 2>/dev/null || true)
pb_libs=$(pkg-config --libs libprotobuf-c 2>/dev/null || echo -lprotobuf-c)

# src/profile/import.c includes the code protoc-c makes from pprof's
# profile.proto: the build tree's, or made here
gendir=$builddir/src
if [ ! -f "$gendir/profile/profile.pb-c.c" ]; then
	gendir=$(dirname "$out")/.fuzz-gen
	proto=${PPROF_PROTO:-/usr/share/gocode/src/github.com/google/pprof/proto/profile.proto}
	mkdir -p "$gendir/profile"
	protoc-c -I"$(dirname "$proto")" --c_out="$gendir/profile" "$proto" || {
		echo "build.sh: cannot make profile.pb-c.c (protobuf-c-compiler, golang-github-google-pprof-dev)" >&2
		exit 77
	}
fi

cd "$top"
# shellcheck disable=SC2086 # word splitting of the flag lists is intended
"$CC" -std=gnu11 -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-Wall -Wextra -Wno-unused-parameter \
	-I "$srcdir" -I "$incdir" -I "$gendir" $pcre_cflags $z_cflags $zstd_cflags $pb_cflags ${FUZZ_CFLAGS:-} \
	-o "$out.tmp" \
	tests/fuzz/fuzz-load.c "$srcdir"/profile/*.c "$srcdir"/profile/load/*.c \
	"$srcdir"/source/srcfile.c \
	"$srcdir"/source/srcannot.c "$srcdir"/report/report.c "$srcdir"/report/columns.c \
	"$srcdir"/report/tree.c \
	"$srcdir"/report/annotate.c \
	"$gendir/profile/profile.pb-c.c" $pcre_libs $z_libs $zstd_libs $pb_libs -liberty -lm
mv "$out.tmp" "$out"
echo "build.sh: built $out"
