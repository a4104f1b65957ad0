/* objcode.h -- an object's machine code for annotation: its executable
 * bytes by address (libelf), its instructions (capstone, for the ELF
 * header's machine), its DWARF line table and compilation directories
 * (libdwarf).  Addresses are ELF virtual addresses, which is what Callgrind
 * writes (relative to the load bias for PIE and shared objects, absolute
 * for the others).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef CGTUI_OBJCODE_H
#define CGTUI_OBJCODE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "elfsym.h"

struct objcode;

/* Opens an ELF object; NULL with the reason in err. */
struct objcode *objcode_open(const char *path, char *err, size_t errsz);
void objcode_free(struct objcode *oc);

time_t objcode_mtime(const struct objcode *oc);
/* Function symbols, or NULL when they cannot be read. */
const struct elfsyms *objcode_syms(const struct objcode *oc);
/* 1 when the object has DWARF line information. */
int objcode_has_lines(struct objcode *oc);
/* The machine, as readelf names it ("Advanced Micro Devices X86-64" is
 * "x86-64" here), and whether capstone can disassemble it. */
const char *objcode_machine(const struct objcode *oc);
int objcode_can_disasm(const struct objcode *oc);

/* The name of the executable section holding addr (".text", ".plt"), or NULL. */
const char *objcode_section(const struct objcode *oc, uint64_t addr);

struct insn {
	uint64_t addr;
	uint16_t size;
	uint8_t kind;          /* INSN_* */
	uint8_t has_target;
	uint64_t target;       /* direct call or jump target */
	char text[224];        /* "mnemonic operands" */
};
enum { INSN_OTHER, INSN_CALL, INSN_JUMP, INSN_RET };

/* Disassembles [start, end) of the executable sections into *out (malloc'ed);
 * returns how many instructions, or -1 when the range is not in an
 * executable section.  Stops early at bytes that do not decode. */
int objcode_disasm(struct objcode *oc, uint64_t start, uint64_t end, struct insn **out);

/* The function a PLT stub starting at addr leads to (x86-64: from
 * .rela.plt), or NULL. */
const char *objcode_plt_name(struct objcode *oc, uint64_t addr);

/* The DWARF line of addr: 1 with *file (owned by oc) and *line, else 0. */
int objcode_line(struct objcode *oc, uint64_t addr, const char **file, uint32_t *line);
/* The compilation directories (DW_AT_comp_dir) of the object's CUs, each
 * once; returns how many, *dirs owned by oc. */
int objcode_comp_dirs(struct objcode *oc, const char *const **dirs);

/* An inlined subroutine's address range (DW_TAG_inlined_subroutine): name
 * inlined into caller (a function or another inlined subroutine) at
 * call_file:call_line, inside the out-of-line function top; depth 1 for
 * code inlined into top itself.  Strings owned by the objcode. */
struct inlsite {
	uint64_t lo, hi;
	uint32_t depth, call_line;
	const char *name, *caller, *top, *call_file;
};
/* The inlined ranges overlapping [lo, hi), by start then depth; *out
 * malloc'ed (the entries are the objcode's). */
int objcode_inlines(struct objcode *oc, uint64_t lo, uint64_t hi, const struct inlsite ***out);
/* The inline call sites in the out-of-line function named fn, one per
 * (name, call site). */
int objcode_inlines_in(struct objcode *oc, const char *fn, const struct inlsite ***out);

#endif
