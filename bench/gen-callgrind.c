/* gen-callgrind.c -- write a large, realistic Callgrind profile for benchmarks.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * This program is free software; you can redistribute it and/or modify it
 * under the terms of the GNU General Public License as published by the Free
 * Software Foundation; either version 2 of the License, or (at your option)
 * any later version.
 *
 * Usage: gen-callgrind [--size BYTES] [--seed N] [--functions=N] OUT
 *
 * Writes a file that looks like what callgrind 3.19 writes with
 *   --cache-sim=yes --branch-sim=yes --dump-instr=yes --collect-jumps=yes
 * i.e. "positions: instr line" and the 13 events
 *   Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
 * with name compression ("(id) name" on first use, "(id)" afterwards, for
 * ob/fl/fi/fe/fn/cob/cfi/cfn/jfi), subposition compression exactly as
 * callgrind does it (relative "+N"/"-N"/"*" when the previous value is
 * non-zero and the difference is below 100, else absolute: "0x..." for
 * addresses, decimal for lines; both reset at each "fn="), trailing zero
 * events omitted, calls with their inclusive cost lines, and jump/jcnd
 * lines each followed by their source position line.
 *
 * "summary:" (in the header) and "totals:" (at the end) are both the exact
 * sum of all self cost lines (call cost lines are not included).  The
 * summary is patched in place at the end, so OUT must be a seekable file;
 * the unused part of the space reserved for it is filled with empty lines,
 * as callgrind itself leaves empty lines after "summary:".
 *
 * The output is a pure function of (--size, --seed, --functions).  Only
 * the C library is used; the code is C99.
 *
 * gen-callgrind --chain=N [--cycle] OUT writes instead a call chain of N
 * functions: f0 calls f1, which calls f2, ... down to f<N-1>, each with a
 * self cost of 3 Ir, so the inclusive cost of fi is 3 (N - i) Ir.  With
 * --cycle, f<N-1> also calls f0 (cost 0), which makes the whole chain one
 * cycle.  gen-callgrind --star=N OUT: f0 calls each of f1 ... f<N-1> once
 * (3 Ir of self cost each again; f0's inclusive cost is 3 N).  The benchmark
 * of deep call chains and the tests of deep and wide call graphs use them.
 */

/* Files over 2 GB on 32-bit hosts too (no effect on 64-bit ones). */
#ifndef _FILE_OFFSET_BITS
#define _FILE_OFFSET_BITS 64
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEV 13

static const char *const EVENTS =
    "Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim";

enum { E_IR, E_DR, E_DW, E_I1MR, E_D1MR, E_D1MW, E_ILMR, E_DLMR, E_DLMW,
       E_BC, E_BCM, E_BI, E_BIM };

/* ------------------------------------------------------------------------
 * Random numbers: splitmix64, both as a stream and as a hash.
 * --------------------------------------------------------------------- */

static uint64_t rng_state;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline uint64_t rnd(void)
{
    rng_state += UINT64_C(0x9e3779b97f4a7c15);
    return mix64(rng_state);
}

static uint64_t seed_global;

/* Deterministic per-entity hash, independent of the order of emission. */
static uint64_t ehash(uint64_t kind, uint64_t idx)
{
    return mix64(seed_global ^ mix64(kind * UINT64_C(0x100000001b3) + idx + 1));
}

/* ------------------------------------------------------------------------
 * Output buffer.
 * --------------------------------------------------------------------- */

#define OBUF_SIZE (1u << 20)
#define OBUF_SLACK 8192 /* every primitive below writes less than this */

static char obuf[OBUF_SIZE];
static size_t opos;
static uint64_t owritten; /* bytes flushed so far */
static FILE *ofile;
static const char *opath;

static void die_io(const char *what)
{
    fprintf(stderr, "gen-callgrind: %s: %s: %s\n", what, opath, strerror(errno));
    exit(1);
}

static void oflush(void)
{
    if (opos && fwrite(obuf, 1, opos, ofile) != opos)
        die_io("cannot write");
    owritten += opos;
    opos = 0;
}

static inline void oreserve(void)
{
    if (opos > OBUF_SIZE - OBUF_SLACK)
        oflush();
}

static inline uint64_t otell(void) { return owritten + opos; }

static inline void put_c(char c) { obuf[opos++] = c; }

static inline void put_mem(const char *s, size_t n)
{
    memcpy(obuf + opos, s, n);
    opos += n;
}

static inline void put_s(const char *s) { put_mem(s, strlen(s)); }

static const char DIGITS2[201] =
    "00010203040506070809101112131415161718192021222324"
    "25262728293031323334353637383940414243444546474849"
    "50515253545556575859606162636465666768697071727374"
    "75767778798081828384858687888990919293949596979899";

static inline void put_u(uint64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = DIGITS2[d + 1];
        *--p = DIGITS2[d];
    }
    if (v >= 10) {
        unsigned d = (unsigned)v * 2;
        *--p = DIGITS2[d + 1];
        *--p = DIGITS2[d];
    } else {
        *--p = (char)('0' + v);
    }
    put_mem(p, (size_t)(tmp + sizeof tmp - p));
}

static inline void put_hex(uint64_t v, int minwidth)
{
    static const char HX[] = "0123456789abcdef";
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = HX[v & 15];
        v >>= 4;
    } while (v && n < sizeof(tmp));
    while (n < (size_t)minwidth && n < sizeof(tmp))
        tmp[n++] = '0';
    put_c('0');
    put_c('x');
    while (n > 0)
        put_c(tmp[--n]);
}

/* ------------------------------------------------------------------------
 * Vocabulary for names.
 * --------------------------------------------------------------------- */

#define NELEM(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static const char *const W_ADJ[] = {
    "Abstract", "Async", "Atomic", "Basic", "Binary", "Buffered", "Cached",
    "Chunked", "Compact", "Concurrent", "Const", "Default", "Dense", "Dynamic",
    "Fast", "Fixed", "Flat", "Generic", "Global", "Hashed", "Indexed",
    "Inline", "Intrusive", "Lazy", "Linear", "Local", "Locked", "Mapped",
    "Mutable", "Native", "Ordered", "Packed", "Paged", "Parallel", "Persistent",
    "Pooled", "Ranked", "Remote", "Scoped", "Serial", "Shared", "Simple",
    "Sorted", "Sparse", "Static", "Strong", "Tagged", "Threaded", "Typed",
    "Unique", "Virtual", "Weak"};

static const char *const W_NOUN[] = {
    "Allocator", "Arena", "Array", "Block", "Buffer", "Builder", "Bucket",
    "Cache", "Channel", "Codec", "Collector", "Compiler", "Context", "Cursor",
    "Decoder", "Dispatcher", "Document", "Encoder", "Engine", "Executor",
    "Filter", "Frame", "Graph", "Handler", "Heap", "Index", "Iterator",
    "Journal", "Kernel", "Layer", "Lexer", "List", "Loader", "Lock", "Manager",
    "Map", "Matrix", "Message", "Node", "Parser", "Pipeline", "Pool",
    "Queue", "Reader", "Record", "Region", "Registry", "Renderer", "Resolver",
    "Scheduler", "Segment", "Serializer", "Session", "Set", "Shader", "Socket",
    "Solver", "Stream", "Table", "Task", "Tensor", "Tokenizer", "Tree",
    "Validator", "Vector", "Visitor", "Worker", "Writer"};

static const char *const W_NS[] = {
    "app", "core", "detail", "engine", "gfx", "impl", "internal", "io",
    "math", "net", "platform", "rt", "storage", "util", "v8::internal",
    "llvm", "boost::asio::detail", "absl::lts_20230125", "folly", "mozilla",
    "(anonymous namespace)", "app::core", "app::server::http", "db::btree",
    "ml::kernels", "json", "proto::wire"};

static const char *const W_METHOD[] = {
    "operator()", "operator[]", "operator=", "operator==", "operator<",
    "insert", "erase", "find", "lookup", "emplace_back", "push_back",
    "reserve", "resize", "clear", "begin", "end", "size", "empty", "swap",
    "reset", "run", "process", "flush", "read", "write", "parse", "encode",
    "decode", "visit", "accept", "dispatch", "schedule", "execute", "update",
    "compute", "evaluate", "allocate", "deallocate", "grow", "rehash",
    "compare", "hash", "serialize", "deserialize", "validate", "initialize",
    "finalize", "next", "advance", "seek", "lock", "unlock", "try_lock",
    "notify_all", "wait_for", "get", "set", "load", "store", "apply",
    "transform", "merge", "split", "append", "to_string", "from_bytes"};

static const char *const W_TYPE[] = {
    "int", "unsigned int", "long", "unsigned long", "double", "float", "bool",
    "char const*", "void*", "std::size_t", "unsigned char", "long long",
    ("std::__cxx11::basic_string<char, std::char_traits<char>, "
     "std::allocator<char> > const&"),
    "std::vector<double, std::allocator<double> > const&",
    "std::vector<int, std::allocator<int> >&",
    "std::shared_ptr<app::core::Node> const&",
    "std::unique_ptr<char [], std::default_delete<char []> >",
    "std::basic_string_view<char, std::char_traits<char> >",
    "std::function<void (int)> const&",
    "std::chrono::duration<long, std::ratio<1l, 1000000000l> >",
    ("std::pair<int const, std::__cxx11::basic_string<char, "
     "std::char_traits<char>, std::allocator<char> > >&&"),
    ("std::map<unsigned long, double, std::less<unsigned long>, "
     "std::allocator<std::pair<unsigned long const, double> > > const&"),
    "std::atomic<unsigned long>&", "std::mutex&",
    "std::optional<long>", "std::span<float const, 18446744073709551615ul>"};

static const char *const W_TARG[] = {
    "int", "char", "double", "float", "unsigned long", "bool", "long",
    ("std::__cxx11::basic_string<char, std::char_traits<char>, "
     "std::allocator<char> >"),
    "std::pair<unsigned long, double>", "16ul", "true", "false", "64ul",
    "void (*)(void*)", "app::core::Node*", "std::allocator<char>",
    "std::less<void>", "std::hash<unsigned long>",
    "std::vector<float, std::allocator<float> >"};

static const char *const W_C[] = {
    "alloc", "buf", "cache", "chunk", "conv", "copy", "ctx", "deflate",
    "dict", "elem", "fetch", "fill", "find", "free", "hash", "hdr", "heap",
    "init", "inflate", "io", "key", "list", "lock", "lookup", "map", "mem",
    "msg", "node", "open", "parse", "pool", "put", "queue", "read", "scan",
    "send", "set", "sort", "str", "sync", "table", "tree", "update", "utf8",
    "val", "walk", "write", "xml"};

static const char *const W_DIR[] = {
    "base", "common", "compiler", "core", "db", "engine", "gfx", "io",
    "ipc", "math", "media", "net", "parser", "platform", "render", "runtime",
    "scheduler", "storage", "support", "text", "third_party", "util"};

static const char *const W_PROJ[] = {
    "appserver", "chromium", "llvm-project", "mozilla-central", "rocksdb",
    "tensorflow", "qtbase", "boost_1_81_0", "ffmpeg", "postgres", "blender"};

/* index = object number; 0 is the executable and 3 the dynamic linker */
static const char *const W_LIB[] = {
    "app", "c", "m", "ld", "stdc++", "gcc_s", "z", "ssl", "crypto", "pthread", "protobuf",
    "boost_system", "boost_filesystem", "icuuc", "icui18n", "xml2",
    "sqlite3", "jpeg", "png16", "freetype", "fontconfig", "glib-2.0",
    "gobject-2.0", "Qt5Core", "Qt5Gui", "Qt5Widgets", "LLVM-14", "tbb",
    "zstd", "lzma", "bz2", "ffi", "pcre2-8", "curl", "nghttp2", "uv",
    "event", "yaml-cpp", "fmt", "spdlog", "grpc++", "absl_hash"};

static const char *const W_STLHDR[] = {
    "stl_vector.h", "stl_algo.h", "stl_tree.h", "stl_map.h", "basic_string.h",
    "hashtable.h", "hashtable_policy.h", "stl_iterator.h", "unique_ptr.h",
    "shared_ptr_base.h", "stl_uninitialized.h", "stl_construct.h",
    "new_allocator.h", "char_traits.h", "stl_heap.h", "std_function.h",
    "atomic_base.h", "move.h", "stl_pair.h", "invoke.h"};

/* ------------------------------------------------------------------------
 * The program model.
 * --------------------------------------------------------------------- */

enum { OK_EXE, OK_CXXLIB, OK_CLIB, OK_LD, OK_UNKNOWN };
enum { FK_SRC, FK_HDR, FK_UNKNOWN };
enum { NK_CXX, NK_C, NK_ADDR };

typedef struct {
    uint32_t id;     /* compression id, 0 until first written */
    uint32_t kind;
    uint64_t next_addr;
    uint32_t unknown_file;
} Obj;

typedef struct {
    uint32_t id;
    uint32_t obj;
    uint32_t kind;
} File;

typedef struct {
    uint64_t addr;   /* entry address */
    uint32_t line;   /* first line, 0 without debug info */
    uint32_t file;
    uint32_t id;
    uint32_t obj;
    uint32_t pcost;  /* inclusive Ir per call, for plausible call costs */
    uint8_t nkind;
} Func;

static Obj *objs;
static File *files;
static Func *funcs;
static uint32_t nobjs, nfiles, nfuncs, nhdrs, hdr_first;
static uint32_t *popular;
static uint32_t npopular;
static uint32_t next_id_ob, next_id_fl, next_id_fn;

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "gen-callgrind: out of memory\n");
        exit(1);
    }
    return p;
}

/* Names.  Each is a function of the entity index and the seed only, and is
 * unique per entity (the index is encoded in the words chosen). */

static void write_obj_name(uint32_t o)
{
    const Obj *ob = &objs[o];
    uint64_t h = ehash(1, o);
    switch (ob->kind) {
    case OK_EXE:
        put_s("/home/builder/work/");
        put_s(W_PROJ[h % NELEM(W_PROJ)]);
        put_s("/build/bin/");
        put_s(W_PROJ[h % NELEM(W_PROJ)]);
        put_s("-server");
        break;
    case OK_LD:
        put_s("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
        break;
    case OK_UNKNOWN:
        put_s("???");
        break;
    default:
        put_s("/usr/lib/x86_64-linux-gnu/lib");
        put_s(W_LIB[o % NELEM(W_LIB)]);
        if (o >= NELEM(W_LIB)) {
            put_c('_');
            put_s(W_C[(o / NELEM(W_LIB)) % NELEM(W_C)]);
            put_u(o / NELEM(W_LIB));
        }
        put_s(".so.");
        if (o == 1 || o == 2) {
            put_c('6');
        } else if (o == 4) {
            put_s("6.0.30");
        } else {
            put_u(1 + h % 9);
            if ((h >> 4) % 3) {
                put_c('.');
                put_u((h >> 8) % 40);
                put_c('.');
                put_u((h >> 16) % 12);
            }
        }
        break;
    }
}

static void write_file_name(uint32_t f)
{
    const File *fl = &files[f];
    uint64_t h = ehash(2, f);
    if (fl->kind == FK_UNKNOWN) {
        put_s("???");
        return;
    }
    if (fl->kind == FK_HDR) {
        uint32_t k = f - hdr_first;
        if (k < NELEM(W_STLHDR)) {
            put_s("/usr/include/c++/12/bits/");
            put_s(W_STLHDR[k]);
        } else {
            put_s("/home/builder/work/");
            put_s(W_PROJ[h % NELEM(W_PROJ)]);
            put_s("/include/");
            put_s(W_DIR[(h >> 8) % NELEM(W_DIR)]);
            put_c('/');
            put_s(W_C[k % NELEM(W_C)]);
            put_c('_');
            put_s(W_C[(k / NELEM(W_C) + (k % NELEM(W_C)) * 13) % NELEM(W_C)]);
            if (k >= NELEM(W_C) * NELEM(W_C)) {
                put_c('_');
                put_u(k / (NELEM(W_C) * NELEM(W_C)));
            }
            put_s("-inl.h");
        }
        return;
    }
    if (objs[fl->obj].kind == OK_CLIB || objs[fl->obj].kind == OK_LD) {
        /* glibc-like relative build paths */
        put_s("./");
        put_s(W_C[(h >> 4) % NELEM(W_C)]);
        if (h & 1)
            put_s("/../sysdeps/x86_64/multiarch");
        put_c('/');
        put_s(W_C[f % NELEM(W_C)]);
        put_c('_');
        put_s(W_C[(f / NELEM(W_C) + (f % NELEM(W_C)) * 13) % NELEM(W_C)]);
        if (f >= NELEM(W_C) * NELEM(W_C)) {
            put_c('-');
            put_u(f / (NELEM(W_C) * NELEM(W_C)));
        }
        put_s(".c");
        return;
    }
    put_s("/home/builder/work/");
    put_s(W_PROJ[(h >> 12) % NELEM(W_PROJ)]);
    put_s("/src/");
    put_s(W_DIR[(h >> 20) % NELEM(W_DIR)]);
    put_c('/');
    put_s(W_DIR[(h >> 28) % NELEM(W_DIR)]);
    put_c('/');
    {
        /* snake_case stem from the index */
        uint32_t a = f % NELEM(W_ADJ);
        uint32_t b = (f / NELEM(W_ADJ) + a * 17) % NELEM(W_NOUN);
        uint32_t c = f / (NELEM(W_ADJ) * NELEM(W_NOUN));
        const char *s;
        for (s = W_ADJ[a]; *s; s++)
            put_c((char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s));
        put_c('_');
        for (s = W_NOUN[b]; *s; s++)
            put_c((char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s));
        if (c) {
            put_c('_');
            put_u(c);
        }
    }
    put_s((h >> 40) % 5 ? ".cpp" : ".cc");
}

static void write_type(uint64_t h)
{
    put_s(W_TYPE[h % NELEM(W_TYPE)]);
}

static void write_cxx_name(uint32_t fi)
{
    /* Functions come in classes of 8; class names are unique by index, the
     * 8 methods of a class are distinct entries of W_METHOD. */
    uint32_t cls = fi / 8, m = fi % 8;
    uint64_t h = ehash(3, cls), hm = ehash(4, fi);
    uint32_t nargs, i;

    put_s(W_NS[h % NELEM(W_NS)]);
    put_s("::");
    put_s(W_ADJ[cls % NELEM(W_ADJ)]);
    put_s(W_NOUN[(cls / NELEM(W_ADJ) + cls % NELEM(W_ADJ) * 17) % NELEM(W_NOUN)]);
    if (cls >= NELEM(W_ADJ) * NELEM(W_NOUN))
        put_u(cls / (NELEM(W_ADJ) * NELEM(W_NOUN)));
    if ((h >> 8) % 3 == 0) { /* class template */
        put_c('<');
        put_s(W_TARG[(h >> 12) % NELEM(W_TARG)]);
        if ((h >> 20) & 1) {
            put_s(", ");
            put_s(W_TARG[(h >> 24) % NELEM(W_TARG)]);
        }
        put_c('>');
    }
    put_s("::");
    if (m == 7 && (hm & 3) == 0) {
        /* a lambda inside a method */
        put_s(W_METHOD[(h >> 32) % NELEM(W_METHOD)]);
        put_s("(int)::{lambda(");
        write_type(hm >> 8);
        put_s(")#");
        put_u(1 + (hm >> 16) % 3);
        put_s("}::operator()");
    } else {
        put_s(W_METHOD[((h >> 32) + m * 7) % NELEM(W_METHOD)]);
        if ((hm >> 40) % 4 == 0) { /* function template */
            put_c('<');
            put_s(W_TARG[(hm >> 44) % NELEM(W_TARG)]);
            put_c('>');
        }
    }
    put_c('(');
    nargs = (uint32_t)((hm >> 2) % 5);
    for (i = 0; i < nargs; i++) {
        if (i)
            put_s(", ");
        write_type(hm >> (6 + 5 * i));
    }
    put_c(')');
    if ((hm >> 50) % 3 == 0)
        put_s(" const");
}

static void write_c_name(uint32_t fi)
{
    uint64_t h = ehash(5, fi);
    uint32_t a = fi % NELEM(W_C);
    uint32_t b = (fi / NELEM(W_C) + a * 13) % NELEM(W_C);
    uint32_t c = fi / (NELEM(W_C) * NELEM(W_C));
    if (h % 7 == 0)
        put_s("__");
    put_s(W_C[a]);
    put_c('_');
    put_s(W_C[b]);
    if (c) {
        put_c('_');
        put_u(c);
    }
    if ((h >> 8) % 9 == 0)
        put_s("_avx2");
    else if ((h >> 8) % 9 == 1)
        put_s("@@GLIBC_2.2.5");
}

static void write_fn_name(uint32_t fi)
{
    const Func *fn = &funcs[fi];
    if (fn->nkind == NK_ADDR)
        put_hex(fn->addr, 16);
    else if (fn->nkind == NK_C)
        write_c_name(fi);
    else
        write_cxx_name(fi);
}

/* "spec=" then "(id) name" the first time, "(id)" afterwards. */
static void put_ob(const char *spec, uint32_t o)
{
    put_s(spec);
    put_c('(');
    if (objs[o].id) {
        put_u(objs[o].id);
        put_c(')');
    } else {
        objs[o].id = ++next_id_ob;
        put_u(objs[o].id);
        put_s(") ");
        write_obj_name(o);
    }
    put_c('\n');
}

static void put_fl(const char *spec, uint32_t f)
{
    put_s(spec);
    put_c('(');
    if (files[f].id) {
        put_u(files[f].id);
        put_c(')');
    } else {
        files[f].id = ++next_id_fl;
        put_u(files[f].id);
        put_s(") ");
        write_file_name(f);
    }
    put_c('\n');
}

static void put_fn(const char *spec, uint32_t fi)
{
    put_s(spec);
    put_c('(');
    if (funcs[fi].id) {
        put_u(funcs[fi].id);
        put_c(')');
    } else {
        funcs[fi].id = ++next_id_fn;
        put_u(funcs[fi].id);
        put_s(") ");
        write_fn_name(fi);
    }
    put_c('\n');
}

static uint64_t parse_size(const char *s)
{
    char *end;
    unsigned long long v;
    uint64_t mul = 1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (end == s || errno) {
        fprintf(stderr, "gen-callgrind: bad size '%s'\n", s);
        exit(2);
    }
    if (*end) {
        switch (*end) {
        case 'k': case 'K': mul = 1000; break;
        case 'm': case 'M': mul = 1000 * 1000; break;
        case 'g': case 'G': mul = 1000 * 1000 * 1000; break;
        default:
            fprintf(stderr, "gen-callgrind: bad size suffix in '%s'\n", s);
            exit(2);
        }
        if (end[1] == 'i' && (end[2] == 0 || ((end[2] == 'B') && !end[3]))) {
            mul = mul == 1000 ? 1024 : mul == 1000000 ? 1048576 : 1073741824;
        } else if (end[1] && !(end[1] == 'B' && !end[2])) {
            fprintf(stderr, "gen-callgrind: bad size suffix in '%s'\n", s);
            exit(2);
        }
    }
    return (uint64_t)v * mul;
}

static void build_model(uint64_t size, uint64_t nfuncs_opt)
{
    uint64_t nf = nfuncs_opt ? nfuncs_opt : size / 2500;
    uint32_t i, o, f, nsrc;
    uint32_t *wts;
    uint64_t wsum = 0, acc = 0;

    if (nf < 1000) nf = 1000;
    if (nf > 600000) nf = 600000;
    nfuncs = (uint32_t)nf;
    nobjs = nfuncs / 1000 + 6;
    if (nobjs < 8) nobjs = 8;
    if (nobjs > 512) nobjs = 512;
    nsrc = nfuncs / 10 + 8;
    nhdrs = nfuncs / 40 + 24;
    /* file layout: [0, nsrc) sources, then headers, then one ??? per object */
    hdr_first = nsrc;
    nfiles = nsrc + nhdrs + nobjs;

    objs = xcalloc(nobjs, sizeof *objs);
    files = xcalloc(nfiles, sizeof *files);
    funcs = xcalloc(nfuncs, sizeof *funcs);
    wts = xcalloc(nobjs, sizeof *wts);

    for (o = 0; o < nobjs; o++) {
        uint64_t h = ehash(10, o);
        objs[o].kind = o == 0 ? OK_EXE
                     : o == 1 ? OK_CLIB   /* libc */
                     : o == 2 ? OK_CLIB   /* libm */
                     : o == 3 ? OK_LD
                     : o == 4 ? OK_CXXLIB /* libstdc++ */
                     : o == nobjs - 1 ? OK_UNKNOWN
                     : (h % 3 == 0) ? OK_CLIB : OK_CXXLIB;
        objs[o].next_addr = objs[o].kind == OK_UNKNOWN
                                ? UINT64_C(0x4000000) + (h % 4096) * 16
                                : UINT64_C(0x1000) + (h % 256) * 0x1000;
        objs[o].unknown_file = nsrc + nhdrs + o;
        files[nsrc + nhdrs + o].kind = FK_UNKNOWN;
        files[nsrc + nhdrs + o].obj = o;
        wts[o] = o == 0 ? 25 * nobjs / 8 + 40
               : objs[o].kind == OK_LD ? 3
               : objs[o].kind == OK_UNKNOWN ? 2
               : (uint32_t)(1 + (h >> 16) % 40);
        wsum += wts[o];
    }
    for (f = nsrc; f < nsrc + nhdrs; f++)
        files[f].kind = FK_HDR;

    /* functions: contiguous slices per object, runs of 1..24 per file */
    o = 0;
    acc = wts[0];
    {
        uint32_t run = 0, curfile = 0, nextsrc = 0;
        for (i = 0; i < nfuncs; i++) {
            uint64_t h = ehash(11, i);
            Func *fn = &funcs[i];
            while (o + 1 < nobjs && (uint64_t)i * wsum >= acc * nfuncs) {
                o++;
                acc += wts[o];
                run = 0;
            }
            fn->obj = o;
            if (run == 0) {
                curfile = nextsrc < nsrc ? nextsrc++ : (uint32_t)(h % nsrc);
                files[curfile].obj = o;
                files[curfile].kind = FK_SRC;
                run = 1 + (uint32_t)((h >> 8) % 24);
            }
            run--;
            if (objs[o].kind == OK_UNKNOWN || (h >> 16) % 33 == 0) {
                fn->file = objs[o].unknown_file;
                fn->nkind = NK_ADDR;
                fn->line = 0;
            } else {
                fn->file = curfile;
                fn->nkind = objs[o].kind == OK_CLIB || objs[o].kind == OK_LD
                                ? NK_C : ((h >> 24) % 10 == 0 ? NK_C : NK_CXX);
                fn->line = 12 + (uint32_t)((h >> 32) % 3000);
            }
            fn->addr = objs[o].next_addr;
            objs[o].next_addr += 16 * (2 + (h >> 44) % 200);
            /* instructions per call, callee included: mostly small
             * (getters, allocators), a few heavy ones */
            fn->pcost = 3 + (uint32_t)((h >> 52) % 24);
            if ((h & 0xff) < 8)
                fn->pcost *= 2 + (uint32_t)((h >> 40) % 19);
        }
    }
    /* If a source file index ended up unused it keeps obj 0, harmless. */

    npopular = nfuncs / 64 + 1;
    popular = xcalloc(npopular, sizeof *popular);
    for (i = 0; i < npopular; i++)
        popular[i] = (uint32_t)(ehash(12, i) % nfuncs);
    free(wts);
}

/* ------------------------------------------------------------------------
 * Body generation.
 * --------------------------------------------------------------------- */

static uint64_t totals[NEV];
static uint64_t last_addr, last_line;
static uint64_t n_cost_lines, n_calls, n_jumps, n_blocks;

/* Callgrind's subposition compression of one value. */
static inline void put_sub(uint64_t cur, uint64_t last, int hex)
{
    int64_t d = (int64_t)(cur - last);
    if (last > 0 && d > -100 && d < 100) {
        if (d > 0) {
            put_c('+');
            put_u((uint64_t)d);
        } else if (d == 0) {
            put_c('*');
        } else {
            put_c('-');
            put_u((uint64_t)-d);
        }
    } else if (hex) {
        put_hex(cur, 0);
    } else {
        put_u(cur);
    }
}

static inline void put_pos(uint64_t addr, uint64_t line)
{
    put_sub(addr, last_addr, 1);
    put_c(' ');
    put_sub(line, last_line, 0);
}

static inline void put_costs(const uint64_t *ev)
{
    int n = NEV;
    int i;
    while (n > 1 && ev[n - 1] == 0)
        n--;
    for (i = 0; i < n; i++) {
        put_c(' ');
        put_u(ev[i]);
    }
    put_c('\n');
}

/* at most v, at least 0: roughly v / 2^k */
static inline uint64_t frac(uint64_t v, uint64_t r, unsigned maxshift)
{
    if (!v)
        return 0;
    return v >> (r % (maxshift + 1));
}

enum { END_FALL, END_CALL, END_JCND, END_JUMP };

static void self_line(uint64_t addr, uint64_t line, uint64_t c, int end,
                      int indirect)
{
    uint64_t ev[NEV];
    uint64_t r = rnd(), r2;
    int i;

    ev[E_IR] = c;
    ev[E_DR] = (r & 7) < 3 ? c : 0;
    ev[E_DW] = ((r >> 3) & 7) < 2 ? c : 0;
    if (end == END_CALL)
        ev[E_DW] = c; /* return address push */
    r2 = r >> 6;
    ev[E_I1MR] = (r2 & 15) == 0 ? 1 + frac(c, r2 >> 4, 20) / 64 : 0;
    if (ev[E_I1MR] > c) ev[E_I1MR] = c;
    ev[E_ILMR] = ev[E_I1MR] ? ((r2 >> 9) & 1 ? ev[E_I1MR] : 1) : 0;
    r2 = r >> 20;
    ev[E_D1MR] = ev[E_DR] && (r2 & 7) == 0 ? 1 + frac(ev[E_DR] - 1, r2 >> 3, 12) / 4 : 0;
    ev[E_D1MW] = ev[E_DW] && ((r2 >> 8) & 7) == 0 ? 1 + frac(ev[E_DW] - 1, r2 >> 11, 12) / 4 : 0;
    ev[E_DLMR] = ev[E_D1MR] ? frac(ev[E_D1MR], r2 >> 16, 6) : 0;
    ev[E_DLMW] = ev[E_D1MW] ? frac(ev[E_D1MW], r2 >> 20, 6) : 0;
    r2 = r >> 46;
    ev[E_BC] = end == END_JCND ? c : 0;
    ev[E_BCM] = ev[E_BC] && (r2 & 1) ? frac(ev[E_BC], r2 >> 1, 10) / 2 : 0;
    ev[E_BI] = indirect ? c : 0;
    ev[E_BIM] = ev[E_BI] && ((r2 >> 5) & 1) ? frac(ev[E_BI], r2 >> 6, 8) / 2 : 0;

    put_pos(addr, line);
    put_costs(ev);
    last_addr = addr;
    last_line = line;
    for (i = 0; i < NEV; i++)
        totals[i] += ev[i];
    n_cost_lines++;
}

static void call_cost_line(uint64_t calls, const Func *callee)
{
    uint64_t ev[NEV];
    uint64_t r = rnd(), r2 = rnd();
    uint64_t ir = calls * (callee->pcost + (r % 8)) + (r >> 60);
    ev[E_IR] = ir;
    ev[E_DR] = ir * (20 + (r >> 8) % 20) / 100;
    ev[E_DW] = ir * (8 + (r >> 16) % 12) / 100;
    ev[E_I1MR] = (r >> 24) % 3 ? 1 + ir / (300 + (r >> 28) % 60000) : 0;
    ev[E_D1MR] = ev[E_DR] / (8 + (r2 % 400));
    ev[E_D1MW] = ev[E_DW] / (8 + ((r2 >> 10) % 400));
    ev[E_ILMR] = ev[E_I1MR] >> ((r2 >> 20) % 3);
    ev[E_DLMR] = ev[E_D1MR] >> ((r2 >> 24) % 6);
    ev[E_DLMW] = ev[E_D1MW] >> ((r2 >> 28) % 6);
    ev[E_BC] = ir * (10 + (r2 >> 32) % 12) / 100;
    ev[E_BCM] = ev[E_BC] / (5 + (r2 >> 40) % 200);
    ev[E_BI] = (r2 >> 50) % 4 == 0 ? ir / (20 + (r2 >> 52) % 500) : 0;
    ev[E_BIM] = ev[E_BI] >> (1 + (r2 >> 60) % 4);
    put_costs(ev);
}

static uint32_t pick_callee(uint32_t self)
{
    uint32_t g;
    do {
        uint64_t r = rnd();
        if ((r & 3) == 0)
            g = popular[(r >> 8) % npopular];
        else if ((r & 3) == 1) /* a neighbour: same object/file likely */
            g = (uint32_t)((self + nfuncs - 20 + (r >> 8) % 41) % nfuncs);
        else
            g = (uint32_t)((r >> 8) % nfuncs);
    } while (g == self && nfuncs > 1);
    return g;
}

static uint32_t cur_obj = UINT32_MAX, cur_fl = UINT32_MAX;

/* One "fn=" block for function fi with about nbb basic blocks. */
static void emit_function(uint32_t fi, uint32_t nbb)
{
    const Func *fn = &funcs[fi];
    uint64_t addr = fn->addr, line = fn->line, fnline = fn->line;
    uint32_t disp_file = fn->file; /* file of the following cost lines */
    int nodebug = fn->line == 0;
    uint64_t r = rnd();
    unsigned sh = (unsigned)((r >> 6) % 18);
    /* per-function base execution count, log-uniform-ish 1 .. ~17M */
    uint64_t hot = ((1 + (r & 63)) << sh) + ((r >> 16) & ((UINT64_C(1) << sh) - 1));
    uint32_t b;

    oreserve();
    if (fn->obj != cur_obj) {
        put_ob("ob=", fn->obj);
        cur_obj = fn->obj;
    }
    if (fn->file != cur_fl) {
        put_fl("fl=", fn->file);
        cur_fl = fn->file;
    }
    put_fn("fn=", fi);
    last_addr = 0;
    last_line = 0;
    n_blocks++;

    for (b = 0; b < nbb; b++) {
        uint64_t rb = rnd();
        uint64_t c;
        uint32_t ninstr = 1 + (uint32_t)(rb % 9), i;
        int end, indirect = 0;
        uint32_t ez = (uint32_t)((rb >> 8) % 100);

        /* execution count of this basic block */
        switch ((rb >> 16) & 7) {
        case 0: c = hot * (2 + ((rb >> 19) & 7)); break; /* loop body */
        case 1: c = hot >> ((rb >> 19) & 7); break;
        case 2: c = 1 + ((rb >> 19) & 3); break;           /* cold */
        default: c = hot; break;
        }
        if (c == 0)
            c = 1;

        end = ez < 22 ? END_CALL : ez < 52 ? END_JCND : ez < 56 ? END_JUMP
                                                                 : END_FALL;
        if (end == END_CALL || end == END_JUMP)
            indirect = ((rb >> 24) & 15) == 0;

        oreserve();
        /* inlined code: switch file with fi=, come back with fe= */
        if (!nodebug && b > 0) {
            uint32_t ri = (uint32_t)((rb >> 28) & 63);
            if (disp_file == fn->file && ri < 3) {
                disp_file = hdr_first + (uint32_t)((rb >> 34) % nhdrs);
                put_fl("fi=", disp_file);
                fnline = line;
                line = 20 + (rb >> 40) % 900;
            } else if (disp_file != fn->file && ri < 24) {
                disp_file = fn->file;
                put_fl("fe=", disp_file);
                line = fnline + (rb >> 40) % 4;
            }
        }

        for (i = 0; i < ninstr; i++) {
            uint64_t ri = rnd();
            int is_last = i + 1 == ninstr;
            if (b > 0 || i > 0) {
                if (i > 0) {
                    addr += 1 + (ri & 3) + ((ri >> 2) & 3) +
                            (((ri >> 4) & 7) == 0 ? ((ri >> 7) & 7) : 0);
                } else {
                    /* start of a new basic block */
                    uint32_t k = (uint32_t)((ri >> 8) & 15);
                    if (k < 11)
                        addr += 1 + (ri & 15) + ((ri >> 4) & 31);
                    else if (k < 14)
                        addr += 100 + (ri & 0xfff);
                    else if (addr > fn->addr + 200)
                        addr -= 100 + (ri & 63);
                    else
                        addr += 2;
                }
                if (!nodebug) {
                    uint32_t k = (uint32_t)((ri >> 16) % 100);
                    if (k < 55)
                        ;
                    else if (k < 85)
                        line += 1 + ((ri >> 24) & 3);
                    else if (k < 95) {
                        uint64_t d = 1 + ((ri >> 24) & 7);
                        if (line > d + 1)
                            line -= d;
                    } else {
                        uint64_t d = 100 + ((ri >> 24) & 511);
                        if (((ri >> 40) & 1) && line > d + 1)
                            line -= d;
                        else
                            line += d;
                    }
                }
            }
            self_line(addr, line, c, is_last ? end : END_FALL,
                      is_last && indirect);
        }

        if (end == END_CALL) {
            uint32_t g = pick_callee(fi);
            const Func *cf = &funcs[g];
            uint64_t calls = c;
            oreserve();
            if (cf->obj != fn->obj)
                put_ob("cob=", cf->obj);
            if (cf->file != disp_file || disp_file != fn->file)
                put_fl("cfi=", cf->file);
            put_fn("cfn=", g);
            put_s("calls=");
            put_u(calls);
            put_c(' ');
            put_pos(cf->addr, cf->line);
            put_s(" \n");
            put_pos(addr, line); /* the call instruction: "* *" */
            call_cost_line(calls, cf);
            n_calls++;
        } else if (end == END_JCND || end == END_JUMP) {
            uint64_t rj = rnd();
            uint64_t taddr, tline = line;
            uint64_t taken = end == END_JUMP ? c : (rj & 3) == 0 ? c : rj % (c + 1);
            if ((rj >> 8) & 1)
                taddr = addr + 2 + ((rj >> 9) & 127);
            else if (addr > fn->addr + 300)
                taddr = addr - 2 - ((rj >> 9) & 255);
            else
                taddr = addr + 300 + ((rj >> 9) & 1023);
            if (!nodebug) {
                uint64_t d = (rj >> 20) & 15;
                tline = ((rj >> 24) & 3) == 0 && line > d + 1 ? line - d : line + d;
            }
            if (taken > 0) {
                oreserve();
                if (disp_file != fn->file && ((rj >> 30) & 3) == 0) {
                    put_fl("jfi=", fn->file);
                    tline = fnline;
                }
                if (end == END_JUMP) {
                    put_s("jump=");
                    put_u(taken);
                } else {
                    put_s("jcnd=");
                    put_u(taken);
                    put_c('/');
                    put_u(c);
                }
                put_c(' ');
                put_pos(taddr, tline);
                put_s(" \n");
                put_pos(addr, line);
                put_s(" \n");
                n_jumps++;
            }
        }
    }
    if (disp_file != fn->file) {
        oreserve();
        put_fl("fe=", fn->file);
    }
    oreserve();
    put_c('\n');
}

/* --chain: N functions, each calling the next (star: f0 calling all the
 * others); see the top comment */
static int write_chain(const char *out, uint64_t n, int cycle, int star)
{
    uint64_t i;
    FILE *f = fopen(out, "wb");
    opath = out;
    if (!f)
        die_io("cannot create");
    fprintf(f, "# callgrind format\nversion: 1\ncreator: gen-callgrind --chain\n"
               "cmd: %s %llu\npositions: line\nevents: Ir\nsummary: %llu\n\n"
               "fl=(1) chain.c\nfn=(1) f0\n1 3\n",
            star ? "star" : "chain", (unsigned long long)n, (unsigned long long)(3 * n));
    if (star) {
        for (i = 1; i < n; i++)
            fprintf(f, "cfn=(%llu) f%llu\ncalls=1 1\n2 3\n", (unsigned long long)(i + 1),
                    (unsigned long long)i);
        for (i = 1; i < n; i++)
            fprintf(f, "fn=(%llu)\n1 3\n", (unsigned long long)(i + 1));
    }
    for (i = 0; i < n && !star; i++) {
        if (i)
            fprintf(f, "fn=(%llu)\n1 3\n", (unsigned long long)(i + 1));
        if (i + 1 < n)
            fprintf(f, "cfn=(%llu) f%llu\ncalls=1 1\n2 %llu\n",
                    (unsigned long long)(i + 2), (unsigned long long)(i + 1),
                    (unsigned long long)(3 * (n - i - 1)));
        else if (cycle && n > 1)
            fprintf(f, "cfn=(1)\ncalls=1 1\n2 0\n");
    }
    fprintf(f, "\ntotals: %llu\n", (unsigned long long)(3 * n));
    if (fclose(f) != 0)
        die_io("cannot write");
    return 0;
}

/* number of basic blocks for the next function, mean about m */
static uint32_t draw_nbb(double m)
{
    uint64_t r = rnd();
    double v;
    uint32_t k = (uint32_t)(r & 63);
    if (m < 1)
        m = 1;
    if (k < 40)
        v = m * 0.15 * (double)(1 + (r >> 8) % 4);   /* small: 0.15m..0.6m */
    else if (k < 60)
        v = m * (0.5 + (double)((r >> 8) % 100) / 100.0); /* 0.5m..1.5m */
    else
        v = m * (3.0 + (double)((r >> 8) % 400) / 40.0);  /* big: 3m..13m */
    if (v < 1)
        v = 1;
    if (v > 200000)
        v = 200000;
    return (uint32_t)v;
}

int main(int argc, char **argv)
{
    uint64_t size = 100 * 1000 * 1000;
    uint64_t seed = 1;
    const char *out = NULL;
    uint64_t summary_off, summary_room;
    uint32_t fi;
    int i, pass;
    double bytes_per_bb = 80;
    uint64_t nbb_sum = 0;
    uint64_t nfuncs_opt = 0;
    uint64_t chain = 0;
    int cycle = 0, star = 0;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            size = parse_size(argv[++i]);
        } else if (!strncmp(argv[i], "--size=", 7)) {
            size = parse_size(argv[i] + 7);
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
        } else if (!strncmp(argv[i], "--seed=", 7)) {
            seed = strtoull(argv[i] + 7, NULL, 0);
        } else if (!strcmp(argv[i], "--functions") && i + 1 < argc) {
            nfuncs_opt = strtoull(argv[++i], NULL, 0);
        } else if (!strncmp(argv[i], "--functions=", 12)) {
            nfuncs_opt = strtoull(argv[i] + 12, NULL, 0);
        } else if (!strncmp(argv[i], "--chain=", 8)) {
            chain = strtoull(argv[i] + 8, NULL, 0);
        } else if (!strncmp(argv[i], "--star=", 7)) {
            chain = strtoull(argv[i] + 7, NULL, 0);
            star = 1;
        } else if (!strcmp(argv[i], "--cycle")) {
            cycle = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: gen-callgrind [--size BYTES] [--seed N] [--functions=N] OUT\n"
                   "       gen-callgrind --chain=N [--cycle] OUT\n"
                   "       gen-callgrind --star=N OUT\n"
                   "Write a realistic Callgrind profile of about BYTES bytes "
                   "(default 100M;\nsuffixes k M G = 10^3 10^6 10^9, "
                   "Ki Mi Gi = 2^10 2^20 2^30) to the file OUT.\n"
                   "--functions=N: N functions (1000..600000) instead of "
                   "one per 2500 bytes.\n"
                   "--chain=N: a call chain of N functions instead (--cycle: "
                   "the last calls the first).\n"
                   "--star=N: the first of N functions calls each of the others.\n");
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "gen-callgrind: unknown option '%s'\n"
                            "usage: gen-callgrind [--size BYTES] [--seed N] [--functions=N] OUT\n",
                    argv[i]);
            return 2;
        } else if (!out) {
            out = argv[i];
        } else {
            fprintf(stderr, "gen-callgrind: more than one output file\n");
            return 2;
        }
    }
    if (!out) {
        fprintf(stderr, "usage: gen-callgrind [--size BYTES] [--seed N] [--functions=N] OUT\n");
        return 2;
    }
    if (chain)
        return write_chain(out, chain, cycle, star);
    seed_global = mix64(seed + UINT64_C(0x5eed));
    rng_state = seed_global;
    build_model(size, nfuncs_opt);

    opath = out;
    ofile = fopen(out, "wb");
    if (!ofile)
        die_io("cannot create");

    /* ---- header, as callgrind 3.19 writes it ---- */
    {
        uint64_t h = ehash(20, 0);
        put_s("# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n"
              "pid: ");
        put_u(1000 + h % 4000000);
        put_s("\ncmd:  ");
        write_obj_name(0);
        put_s(" --config /etc/");
        put_s(W_PROJ[h % NELEM(W_PROJ)]);
        put_s("/server.conf --threads 1 --bench-iterations ");
        put_u(100 + (h >> 24) % 10000);
        put_s("\npart: 1\n\n\n"
              "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
              "desc: D1 cache: 32768 B, 64 B, 8-way associative\n"
              "desc: LL cache: 268435456 B, 64 B, direct-mapped\n\n"
              "desc: Timerange: Basic block 0 - ");
        put_u(size / 3 + (h >> 32) % 1000000);
        put_s("\ndesc: Trigger: Program termination\n\n"
              "positions: instr line\nevents: ");
        put_s(EVENTS);
        put_s("\n");
        summary_off = otell();
        /* "summary:" + 13 x (space + up to 20 digits) + "\n", then at
         * least two empty lines like callgrind */
        summary_room = 8 + NEV * 21 + 1 + 2;
        memset(obuf + opos, '\n', summary_room);
        opos += summary_room;
    }

    /* ---- body ---- */
    for (pass = 0;; pass++) {
        for (fi = 0; fi < nfuncs; fi++) {
            uint64_t now = otell();
            uint32_t nbb;
            double m;
            if (now >= size && n_blocks > 0)
                goto done;
            /* aim to spread the remaining bytes over the remaining
             * functions (first pass), or fill up in later passes */
            m = now < size ? (double)(size - now) / (double)(nfuncs - fi) /
                                 bytes_per_bb
                           : 1;
            if (pass > 0 && m < 8)
                m = 8;
            nbb = draw_nbb(m);
            emit_function(fi, nbb);
            /* running average of bytes per basic block */
            nbb_sum += nbb;
            bytes_per_bb = (double)(otell() - summary_off) / (double)nbb_sum;
        }
    }
done:
    oreserve();
    put_s("totals:");
    for (i = 0; i < NEV; i++) {
        put_c(' ');
        put_u(totals[i]);
    }
    put_c('\n');
    oflush();

    /* ---- patch the summary line into the reserved room ---- */
    {
        char line[8 + NEV * 21 + 8];
        size_t n = 0;
        opos = 0;
        put_s("summary:");
        for (i = 0; i < NEV; i++) {
            put_c(' ');
            put_u(totals[i]);
        }
        put_c('\n');
        n = opos;
        if (n > summary_room - 2) {
            fprintf(stderr, "gen-callgrind: internal error: summary too long\n");
            return 1;
        }
        memcpy(line, obuf, n);
        opos = 0;
        if (fseek(ofile, (long)summary_off, SEEK_SET) != 0)
            die_io("cannot seek back to the summary line (OUT must be a "
                   "regular file)");
        if (fwrite(line, 1, n, ofile) != n)
            die_io("cannot write");
    }
    if (fclose(ofile) != 0)
        die_io("cannot close");

    fprintf(stderr,
            "gen-callgrind: wrote %s: %llu bytes, %u objects, %u files, "
            "%u functions, %llu fn blocks, %llu cost lines, %llu calls, "
            "%llu jumps, Ir total %llu\n",
            out, (unsigned long long)owritten, nobjs, nfiles, nfuncs,
            (unsigned long long)n_blocks, (unsigned long long)n_cost_lines,
            (unsigned long long)n_calls, (unsigned long long)n_jumps,
            (unsigned long long)totals[E_IR]);
    return 0;
}
