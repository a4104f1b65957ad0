/* objcode.c -- an object's code, instructions and line table (see objcode.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "objcode.h"
#include "profile/util.h"

#include <capstone/capstone.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libdwarf.h>
#include <dwarf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct xsec {
	uint64_t addr, size;
	const uint8_t *bytes;
	const char *name;
};

struct lrow {
	uint64_t addr;
	const char *file; /* in the arena */
	uint32_t line;
	uint32_t order;   /* position in the tables, to keep their order */
	uint8_t end;      /* end of a sequence: no line from here */
};

struct objcode {
	char *path;
	time_t mtime;
	int fd;
	Elf *elf;
	unsigned machine;
	int elfclass;
	struct xsec *sec;
	int nsec;
	struct elfsyms *syms;
	/* DWARF, read at the first question: 1 the CUs' directories, 2 and
	 * the line tables */
	int dwarf_read;
	struct lrow *rows;
	size_t nrows;
	const char **cdirs;
	int ncdirs;
	struct arena strs;
	/* inlined subroutines (DW_TAG_inlined_subroutine), read at the first
	 * question, by start address */
	int inl_read;
	uint64_t inl_lo, inl_hi; /* the CUs read are those overlapping this */
	struct inlsite *inl;
	size_t ninl, capinl;
	/* PLT stubs named from .rela.plt, read at the first question */
	int plt_read;
	struct pltent {
		uint64_t addr;
		const char *name;
	} *plt;
	int nplt;
};

static const struct {
	unsigned machine;
	const char *name;
	cs_arch arch;
	int mode64, mode32; /* capstone modes for ELFCLASS64 and ELFCLASS32 */
} machines[] = {
	{ EM_X86_64, "x86-64", CS_ARCH_X86, CS_MODE_64, CS_MODE_32 },
	{ EM_386, "i386", CS_ARCH_X86, CS_MODE_32, CS_MODE_32 },
	{ EM_AARCH64, "aarch64", CS_ARCH_ARM64, CS_MODE_ARM, CS_MODE_ARM },
	{ EM_ARM, "arm", CS_ARCH_ARM, CS_MODE_ARM, CS_MODE_ARM },
	{ EM_PPC64, "ppc64", CS_ARCH_PPC, CS_MODE_64, CS_MODE_32 },
	{ EM_PPC, "ppc", CS_ARCH_PPC, CS_MODE_32 | CS_MODE_BIG_ENDIAN, CS_MODE_32 | CS_MODE_BIG_ENDIAN },
	{ EM_S390, "s390x", CS_ARCH_SYSZ, CS_MODE_BIG_ENDIAN, CS_MODE_BIG_ENDIAN },
	{ EM_MIPS, "mips", CS_ARCH_MIPS, CS_MODE_MIPS64, CS_MODE_MIPS32 },
};

static int machine_index(const struct objcode *oc)
{
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++)
		if (machines[i].machine == oc->machine)
			return (int)i;
	return -1;
}

struct objcode *objcode_open(const char *path, char *err, size_t errsz)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errsz, "libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
		snprintf(err, errsz, "%s: not an ELF object", path);
		if (e)
			elf_end(e);
		close(fd);
		return NULL;
	}
	struct objcode *oc = xcalloc(1, sizeof(*oc));
	oc->path = xstrdup(path);
	oc->mtime = st.st_mtime;
	oc->fd = fd;
	oc->elf = e;
	oc->machine = eh.e_machine;
	oc->elfclass = gelf_getclass(e);
	int cap = 0;
	size_t shstrndx = 0;
	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		shstrndx = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size < sh.sh_size)
			continue;
		VEC_RESERVE(oc->sec, cap, oc->nsec + 1);
		const char *nm = shstrndx ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
		oc->sec[oc->nsec++] = (struct xsec){ sh.sh_addr, sh.sh_size, d->d_buf, nm ? nm : "" };
	}
	oc->syms = elfsyms_open(path);
	return oc;
}

void objcode_free(struct objcode *oc)
{
	if (!oc)
		return;
	elfsyms_free(oc->syms);
	free(oc->sec);
	free(oc->rows);
	free(oc->cdirs);
	free(oc->plt);
	free(oc->inl);
	arena_free(&oc->strs);
	elf_end(oc->elf);
	close(oc->fd);
	free(oc->path);
	free(oc);
}

time_t objcode_mtime(const struct objcode *oc)
{
	return oc->mtime;
}

const struct elfsyms *objcode_syms(const struct objcode *oc)
{
	return oc->syms;
}

const char *objcode_machine(const struct objcode *oc)
{
	int i = machine_index(oc);
	return i >= 0 ? machines[i].name : "unknown machine";
}

int objcode_can_disasm(const struct objcode *oc)
{
	int i = machine_index(oc);
	return i >= 0 && cs_support((int)machines[i].arch);
}

/* "0x1139" or "#0x1139": a direct target */
static int parse_target(const char *op, uint64_t *t)
{
	if (*op == '#')
		op++;
	if (op[0] != '0' || op[1] != 'x')
		return 0;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(op + 2, &end, 16);
	if (errno || *end)
		return 0;
	*t = v;
	return 1;
}

static const struct xsec *section_at(const struct objcode *oc, uint64_t addr)
{
	for (int i = 0; i < oc->nsec; i++)
		if (addr >= oc->sec[i].addr && addr < oc->sec[i].addr + oc->sec[i].size)
			return &oc->sec[i];
	return NULL;
}

const char *objcode_section(const struct objcode *oc, uint64_t addr)
{
	const struct xsec *s = section_at(oc, addr);
	return s ? s->name : NULL;
}

int objcode_disasm(struct objcode *oc, uint64_t start, uint64_t end, struct insn **out)
{
	*out = NULL;
	const struct xsec *s = section_at(oc, start);
	int mi = machine_index(oc);
	if (!s || mi < 0)
		return -1;
	if (end > s->addr + s->size || end <= start)
		end = s->addr + s->size;
	csh h;
	int mode = oc->elfclass == ELFCLASS64 ? machines[mi].mode64 : machines[mi].mode32;
	if (cs_open(machines[mi].arch, (cs_mode)mode, &h) != CS_ERR_OK)
		return -1;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	cs_insn *ci = cs_malloc(h);
	const uint8_t *code = s->bytes + (start - s->addr);
	size_t left = (size_t)(end - start);
	uint64_t addr = start;
	int n = 0, cap = 0;
	struct insn *v = NULL;
	while (left && cs_disasm_iter(h, &code, &left, &addr, ci)) {
		VEC_RESERVE(v, cap, n + 1);
		struct insn *x = &v[n++];
		memset(x, 0, sizeof(*x));
		x->addr = ci->address;
		x->size = ci->size;
		snprintf(x->text, sizeof(x->text), "%s%s%s", ci->mnemonic, *ci->op_str ? " " : "",
			 ci->op_str);
		if (cs_insn_group(h, ci, CS_GRP_CALL))
			x->kind = INSN_CALL;
		else if (cs_insn_group(h, ci, CS_GRP_JUMP))
			x->kind = INSN_JUMP;
		else if (cs_insn_group(h, ci, CS_GRP_RET))
			x->kind = INSN_RET;
		if (x->kind == INSN_CALL || x->kind == INSN_JUMP)
			x->has_target = (uint8_t)parse_target(ci->op_str, &x->target);
	}
	cs_free(ci, 1);
	cs_close(&h);
	*out = v;
	return n;
}

/* ---- PLT stubs ----------------------------------------------------------------- */

struct slot {
	uint64_t got;
	const char *name;
};

/* The GOT slots of .rela.plt's jump-slot relocations, with their symbols. */
static int plt_slots(struct objcode *oc, struct slot **out)
{
	int n = 0, cap = 0;
	*out = NULL;
	size_t shstrndx;
	if (elf_getshdrstrndx(oc->elf, &shstrndx) != 0)
		return 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(oc->elf, scn))) {
		GElf_Shdr sh;
		const char *nm;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    !(nm = elf_strptr(oc->elf, shstrndx, sh.sh_name)) || strcmp(nm, ".rela.plt") != 0)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		Elf_Scn *symscn = elf_getscn(oc->elf, sh.sh_link);
		GElf_Shdr symsh;
		Elf_Data *sd = symscn ? elf_getdata(symscn, NULL) : NULL;
		if (!d || !sd || !gelf_getshdr(symscn, &symsh) || !sh.sh_entsize)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			if (!gelf_getrela(d, (int)i, &r) ||
			    !gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &sym))
				continue;
			const char *sn = elf_strptr(oc->elf, symsh.sh_link, sym.st_name);
			if (!sn || !*sn)
				continue;
			VEC_RESERVE(*out, cap, n + 1);
			(*out)[n++] = (struct slot){ r.r_offset,
						     arena_strndup(&oc->strs, sn, strlen(sn)) };
		}
	}
	return n;
}

/* x86: the stubs of .plt and .plt.sec jump through their GOT slot with
 * "jmp qword ptr [rip + D]"; the stub is the 16-byte entry holding it. */
static void read_plt(struct objcode *oc)
{
	if (oc->plt_read)
		return;
	oc->plt_read = 1;
	if (oc->machine != EM_X86_64)
		return;
	struct slot *sl;
	int nsl = plt_slots(oc, &sl), cap = 0;
	for (int i = 0; i < oc->nsec && nsl; i++) {
		if (strncmp(oc->sec[i].name, ".plt", 4) != 0)
			continue;
		struct insn *v;
		int n = objcode_disasm(oc, oc->sec[i].addr, oc->sec[i].addr + oc->sec[i].size, &v);
		for (int k = 0; k < n; k++) {
			const char *j = strstr(v[k].text, "jmp qword ptr [rip + 0x");
			if (!j)
				continue;
			uint64_t got = v[k].addr + v[k].size + strtoull(j + 21, NULL, 16);
			for (int m = 0; m < nsl; m++)
				if (sl[m].got == got) {
					VEC_RESERVE(oc->plt, cap, oc->nplt + 1);
					oc->plt[oc->nplt++] = (struct pltent){ v[k].addr & ~(uint64_t)15,
									       sl[m].name };
					break;
				}
		}
		free(v);
	}
	free(sl);
}

const char *objcode_plt_name(struct objcode *oc, uint64_t addr)
{
	read_plt(oc);
	for (int i = 0; i < oc->nplt; i++)
		if (oc->plt[i].addr == addr)
			return oc->plt[i].name;
	return NULL;
}

/* ---- DWARF ------------------------------------------------------------------- */

static int cmp_lrow(const void *a, const void *b)
{
	const struct lrow *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->end != y->end) /* a sequence's end before another's start there */
		return x->end ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static const char *intern_dir(struct objcode *oc, const char *d, int *cap)
{
	for (int i = 0; i < oc->ncdirs; i++)
		if (strcmp(oc->cdirs[i], d) == 0)
			return oc->cdirs[i];
	VEC_RESERVE(oc->cdirs, *cap, oc->ncdirs + 1);
	return oc->cdirs[oc->ncdirs++] = arena_strndup(&oc->strs, d, strlen(d));
}

static void read_cu_lines(struct objcode *oc, Dwarf_Debug dbg, Dwarf_Die cu, size_t *cap)
{
	Dwarf_Error de = NULL;
	Dwarf_Unsigned version;
	Dwarf_Small count;
	Dwarf_Line_Context ctx;
	if (dwarf_srclines_b(cu, &version, &count, &ctx, &de) != DW_DLV_OK)
		return;
	Dwarf_Line *lines;
	Dwarf_Signed n;
	if (dwarf_srclines_from_linecontext(ctx, &lines, &n, &de) == DW_DLV_OK) {
		const char *lastname = NULL, *lastkept = NULL;
		for (Dwarf_Signed i = 0; i < n; i++) {
			Dwarf_Addr a;
			Dwarf_Unsigned ln;
			Dwarf_Bool endseq = 0;
			char *src = NULL;
			if (dwarf_lineaddr(lines[i], &a, &de) != DW_DLV_OK ||
			    dwarf_lineno(lines[i], &ln, &de) != DW_DLV_OK)
				continue;
			dwarf_lineendsequence(lines[i], &endseq, &de);
			if (dwarf_linesrc(lines[i], &src, &de) != DW_DLV_OK)
				src = NULL;
			const char *f = "";
			if (src) {
				/* consecutive rows name the same file: keep one copy */
				if (lastname && strcmp(lastname, src) == 0)
					f = lastkept;
				else
					f = lastkept = arena_strndup(&oc->strs, src, strlen(src));
				lastname = lastkept;
				dwarf_dealloc(dbg, src, DW_DLA_STRING);
			}
			if (oc->nrows == *cap) {
				*cap = *cap ? *cap * 2 : 1024;
				oc->rows = xreallocarray(oc->rows, *cap, sizeof(*oc->rows));
			}
			oc->rows[oc->nrows] = (struct lrow){ a, f, (uint32_t)ln,
							     (uint32_t)oc->nrows, (uint8_t)!!endseq };
			oc->nrows++;
		}
	}
	dwarf_srclines_dealloc_b(ctx);
}

/* The CUs' compilation directories and, when level is 2, line tables. */
static void read_dwarf(struct objcode *oc, int level)
{
	if (oc->dwarf_read >= level)
		return;
	int lines = level >= 2;
	oc->dwarf_read = level;
	Dwarf_Debug dbg;
	Dwarf_Error de = NULL;
	if (dwarf_init_path(oc->path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg,
			    NULL, 0, NULL, &de) != DW_DLV_OK) {
		if (de)
			dwarf_dealloc(NULL, de, DW_DLA_ERROR);
		return;
	}
	size_t cap = 0;
	int dcap = oc->ncdirs;
	for (;;) {
		Dwarf_Unsigned hlen, next, typeoff;
		Dwarf_Half ver, asz, lsz, esz, cutype;
		Dwarf_Sig8 sig;
		Dwarf_Off aoff;
		int rc = dwarf_next_cu_header_d(dbg, 1, &hlen, &ver, &aoff, &asz, &lsz, &esz, &sig,
						&typeoff, &next, &cutype, &de);
		if (rc != DW_DLV_OK)
			break;
		Dwarf_Die cu = NULL;
		if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &de) != DW_DLV_OK)
			continue;
		Dwarf_Attribute at;
		if (dwarf_attr(cu, DW_AT_comp_dir, &at, &de) == DW_DLV_OK) {
			char *str;
			if (dwarf_formstring(at, &str, &de) == DW_DLV_OK)
				intern_dir(oc, str, &dcap);
			dwarf_dealloc(dbg, at, DW_DLA_ATTR);
		}
		if (lines)
			read_cu_lines(oc, dbg, cu, &cap);
		dwarf_dealloc(dbg, cu, DW_DLA_DIE);
	}
	dwarf_finish(dbg, &de);
	if (oc->nrows > 1)
		qsort(oc->rows, oc->nrows, sizeof(*oc->rows), cmp_lrow);
}

int objcode_has_lines(struct objcode *oc)
{
	read_dwarf(oc, 2);
	return oc->nrows > 0;
}

static int row_at_or_below(const void *row, const void *addr)
{
	return ((const struct lrow *)row)->addr <= *(const uint64_t *)addr;
}

int objcode_line(struct objcode *oc, uint64_t addr, const char **file, uint32_t *line)
{
	read_dwarf(oc, 2);
	/* the last row at or below addr: the one before the first above it */
	size_t i = first_not_below(oc->rows, oc->nrows, sizeof(*oc->rows), row_at_or_below, &addr);
	if (!i || oc->rows[i - 1].end)
		return 0;
	*file = oc->rows[i - 1].file;
	*line = oc->rows[i - 1].line;
	return 1;
}

int objcode_comp_dirs(struct objcode *oc, const char *const **dirs)
{
	read_dwarf(oc, 1);
	*dirs = oc->cdirs;
	return oc->ncdirs;
}

/* ---- inlined subroutines ------------------------------------------------------- */

struct walk {
	struct objcode *oc;
	Dwarf_Debug dbg;
	char **files;       /* the CU's file table */
	Dwarf_Signed nfiles;
	int version;        /* the CU's DWARF version */
	uint64_t cu_base;   /* the CU's low_pc, base of DWARF 4 range lists */
	/* probing a CU's ranges: does one overlap [qlo, qhi)? */
	int probe, nprobed, hit;
	uint64_t qlo, qhi;
};

static const char *keep(struct objcode *oc, const char *s)
{
	return s ? arena_strndup(&oc->strs, s, strlen(s)) : NULL;
}

/* The name of a DIE, following DW_AT_abstract_origin and
 * DW_AT_specification (a few steps at most). */
static const char *die_name(struct walk *w, Dwarf_Die die)
{
	Dwarf_Error de = NULL;
	Dwarf_Die cur = die;
	const char *out = NULL;
	for (int step = 0; step < 4 && !out; step++) {
		char *n;
		if (dwarf_diename(cur, &n, &de) == DW_DLV_OK) {
			out = keep(w->oc, n);
			break;
		}
		Dwarf_Attribute at;
		Dwarf_Off off;
		if (dwarf_attr(cur, DW_AT_abstract_origin, &at, &de) != DW_DLV_OK &&
		    dwarf_attr(cur, DW_AT_specification, &at, &de) != DW_DLV_OK)
			break;
		int ok = dwarf_global_formref(at, &off, &de) == DW_DLV_OK;
		dwarf_dealloc(w->dbg, at, DW_DLA_ATTR);
		Dwarf_Die next;
		if (!ok || dwarf_offdie_b(w->dbg, off, 1, &next, &de) != DW_DLV_OK)
			break;
		if (cur != die)
			dwarf_dealloc(w->dbg, cur, DW_DLA_DIE);
		cur = next;
	}
	if (cur != die)
		dwarf_dealloc(w->dbg, cur, DW_DLA_DIE);
	return out;
}

static int attr_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half a, Dwarf_Unsigned *v)
{
	Dwarf_Error de = NULL;
	Dwarf_Attribute at;
	if (dwarf_attr(die, a, &at, &de) != DW_DLV_OK)
		return 0;
	int ok = dwarf_formudata(at, v, &de) == DW_DLV_OK;
	if (!ok) {
		/* DW_FORM_implicit_const (gcc 12's DWARF 5 for a value several
		 * DIEs share, e.g. DW_AT_call_file): this libdwarf (20210528)
		 * reads it with dwarf_formsdata only */
		if (de)
			dwarf_dealloc(dbg, de, DW_DLA_ERROR);
		de = NULL;
		Dwarf_Signed sv = 0;
		ok = dwarf_formsdata(at, &sv, &de) == DW_DLV_OK && sv >= 0;
		if (ok)
			*v = (Dwarf_Unsigned)sv;
		else if (de)
			dwarf_dealloc(dbg, de, DW_DLA_ERROR);
	}
	dwarf_dealloc(dbg, at, DW_DLA_ATTR);
	return ok;
}

static void add_inl(struct walk *w, const struct inlsite *proto, uint64_t lo, uint64_t hi)
{
	struct objcode *oc = w->oc;
	if (hi <= lo)
		return;
	if (w->probe) {
		w->nprobed++;
		w->hit |= lo < w->qhi && hi > w->qlo;
		return;
	}
	if (oc->ninl == oc->capinl) {
		oc->capinl = oc->capinl ? 2 * oc->capinl : 256;
		oc->inl = xreallocarray(oc->inl, oc->capinl, sizeof(*oc->inl));
	}
	struct inlsite *x = &oc->inl[oc->ninl++];
	*x = *proto;
	x->lo = lo;
	x->hi = hi;
}

/* Adds one entry per address range of an inlined subroutine DIE. */
static void die_ranges(struct walk *w, Dwarf_Die die, const struct inlsite *proto)
{
	Dwarf_Error de = NULL;
	Dwarf_Addr lo, hi;
	Dwarf_Half form;
	enum Dwarf_Form_Class cls;
	if (dwarf_lowpc(die, &lo, &de) == DW_DLV_OK &&
	    dwarf_highpc_b(die, &hi, &form, &cls, &de) == DW_DLV_OK) {
		add_inl(w, proto, lo, cls == DW_FORM_CLASS_CONSTANT ? lo + hi : hi);
		return;
	}
	Dwarf_Attribute at;
	if (dwarf_attr(die, DW_AT_ranges, &at, &de) != DW_DLV_OK)
		return;
	Dwarf_Half f = 0;
	dwarf_whatform(at, &f, &de);
	Dwarf_Unsigned v = 0;
	Dwarf_Off off = 0;
	if (w->version >= 5) {
		int ok = f == DW_FORM_rnglistx ? dwarf_formudata(at, &v, &de) == DW_DLV_OK
					       : dwarf_global_formref(at, &off, &de) == DW_DLV_OK;
		if (f != DW_FORM_rnglistx)
			v = off;
		Dwarf_Rnglists_Head head;
		Dwarf_Unsigned n = 0, goff;
		if (ok && dwarf_rnglists_get_rle_head(at, f, v, &head, &n, &goff, &de) == DW_DLV_OK) {
			for (Dwarf_Unsigned i = 0; i < n; i++) {
				unsigned len, code;
				Dwarf_Unsigned r1, r2, c1, c2;
				Dwarf_Bool unavail = 0;
				if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &r1, &r2,
								      &unavail, &c1, &c2, &de) != DW_DLV_OK)
					break;
				if (!unavail && code != DW_RLE_end_of_list &&
				    code != DW_RLE_base_address && code != DW_RLE_base_addressx)
					add_inl(w, proto, c1, c2);
			}
			dwarf_dealloc_rnglists_head(head);
		}
	} else if (dwarf_global_formref(at, &off, &de) == DW_DLV_OK) {
		Dwarf_Ranges *rg;
		Dwarf_Signed n;
		Dwarf_Unsigned bytes;
		Dwarf_Off real;
		if (dwarf_get_ranges_b(w->dbg, off, die, &real, &rg, &n, &bytes, &de) == DW_DLV_OK) {
			uint64_t base = w->cu_base;
			for (Dwarf_Signed i = 0; i < n; i++) {
				if (rg[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
					base = rg[i].dwr_addr2;
				else if (rg[i].dwr_type == DW_RANGES_ENTRY)
					add_inl(w, proto, base + rg[i].dwr_addr1, base + rg[i].dwr_addr2);
			}
			dwarf_ranges_dealloc(w->dbg, rg, n);
		}
	}
	dwarf_dealloc(w->dbg, at, DW_DLA_ATTR);
}

/* Walks die and its siblings; fn is the enclosing function (the
 * subprogram, or the inlined subroutine the code is in), top the
 * subprogram, depth the inline level. */
static void walk_dies(struct walk *w, Dwarf_Die die, const char *fn, const char *top, int depth)
{
	Dwarf_Error de = NULL;
	Dwarf_Die cur = die;
	while (cur) {
		Dwarf_Half tag = 0;
		dwarf_tag(cur, &tag, &de);
		const char *cfn = fn, *ctop = top;
		int cdepth = depth;
		if (tag == DW_TAG_subprogram) {
			cfn = ctop = die_name(w, cur);
			cdepth = 0;
		} else if (tag == DW_TAG_inlined_subroutine && depth < 64) {
			struct inlsite x;
			memset(&x, 0, sizeof(x));
			x.name = die_name(w, cur);
			x.caller = fn;
			x.top = top;
			x.depth = (uint32_t)depth + 1;
			Dwarf_Unsigned cf = 0, cl = 0;
			if (attr_udata(w->dbg, cur, DW_AT_call_file, &cf)) {
				Dwarf_Signed k = w->version >= 5 ? (Dwarf_Signed)cf : (Dwarf_Signed)cf - 1;
				if (k >= 0 && k < w->nfiles)
					x.call_file = keep(w->oc, w->files[k]);
			}
			if (attr_udata(w->dbg, cur, DW_AT_call_line, &cl))
				x.call_line = (uint32_t)cl;
			if (x.name)
				die_ranges(w, cur, &x);
			cfn = x.name;
			cdepth = depth + 1;
		}
		Dwarf_Die child;
		if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
		     tag == DW_TAG_lexical_block || tag == DW_TAG_namespace ||
		     tag == DW_TAG_class_type || tag == DW_TAG_structure_type) &&
		    dwarf_child(cur, &child, &de) == DW_DLV_OK)
			walk_dies(w, child, cfn, ctop, cdepth);
		Dwarf_Die sib;
		int rc = dwarf_siblingof_b(w->dbg, cur, 1, &sib, &de);
		if (cur != die)
			dwarf_dealloc(w->dbg, cur, DW_DLA_DIE);
		cur = rc == DW_DLV_OK ? sib : NULL;
	}
}

static int cmp_inl(const void *a, const void *b)
{
	const struct inlsite *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* The inlined subroutines of the CUs whose code overlaps [lo, hi) (all
 * CUs for [0, UINT64_MAX)): big objects have many CUs, a function one. */
static void read_inlines(struct objcode *oc, uint64_t lo, uint64_t hi)
{
	if (oc->inl_read && oc->inl_lo <= lo && hi <= oc->inl_hi)
		return;
	oc->inl_read = 1;
	oc->inl_lo = lo;
	oc->inl_hi = hi;
	oc->ninl = 0;
	struct walk w = { .oc = oc, .qlo = lo, .qhi = hi };
	Dwarf_Error de = NULL;
	if (dwarf_init_path(oc->path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &w.dbg,
			    NULL, 0, NULL, &de) != DW_DLV_OK) {
		if (de)
			dwarf_dealloc(NULL, de, DW_DLA_ERROR);
		return;
	}
	for (;;) {
		Dwarf_Unsigned hlen, next, typeoff;
		Dwarf_Half ver, asz, lsz, esz, cutype;
		Dwarf_Sig8 sig;
		Dwarf_Off aoff;
		if (dwarf_next_cu_header_d(w.dbg, 1, &hlen, &ver, &aoff, &asz, &lsz, &esz, &sig,
					   &typeoff, &next, &cutype, &de) != DW_DLV_OK)
			break;
		Dwarf_Die cu = NULL;
		if (dwarf_siblingof_b(w.dbg, NULL, 1, &cu, &de) != DW_DLV_OK)
			continue;
		w.version = ver;
		w.files = NULL;
		w.nfiles = 0;
		if (dwarf_srcfiles(cu, &w.files, &w.nfiles, &de) != DW_DLV_OK) {
			w.files = NULL;
			w.nfiles = 0;
		}
		Dwarf_Addr base = 0;
		w.cu_base = dwarf_lowpc(cu, &base, &de) == DW_DLV_OK ? base : 0;
		/* a CU whose ranges miss [lo, hi) is not walked (one without
		 * ranges is) */
		struct inlsite none;
		memset(&none, 0, sizeof(none));
		w.probe = 1;
		w.nprobed = w.hit = 0;
		die_ranges(&w, cu, &none);
		w.probe = 0;
		Dwarf_Die child;
		if ((w.hit || !w.nprobed) && dwarf_child(cu, &child, &de) == DW_DLV_OK)
			walk_dies(&w, child, NULL, NULL, 0);
		for (Dwarf_Signed i = 0; i < w.nfiles; i++)
			dwarf_dealloc(w.dbg, w.files[i], DW_DLA_STRING);
		if (w.files)
			dwarf_dealloc(w.dbg, w.files, DW_DLA_LIST);
		dwarf_dealloc(w.dbg, cu, DW_DLA_DIE);
	}
	dwarf_finish(w.dbg, &de);
	if (oc->ninl > 1)
		qsort(oc->inl, oc->ninl, sizeof(*oc->inl), cmp_inl);
}

int objcode_inlines(struct objcode *oc, uint64_t lo, uint64_t hi, const struct inlsite ***out)
{
	read_inlines(oc, lo, hi);
	const struct inlsite **v = NULL;
	int n = 0, cap = 0;
	for (size_t i = 0; i < oc->ninl && oc->inl[i].lo < hi; i++)
		if (oc->inl[i].hi > lo) {
			VEC_RESERVE(v, cap, n + 1);
			v[n++] = &oc->inl[i];
		}
	*out = v;
	return n;
}

int objcode_inlines_in(struct objcode *oc, const char *fn, const struct inlsite ***out)
{
	read_inlines(oc, 0, UINT64_MAX);
	const struct inlsite **v = NULL;
	int n = 0, cap = 0;
	for (size_t i = 0; i < oc->ninl; i++) {
		const struct inlsite *x = &oc->inl[i];
		if (!x->top || strcmp(x->top, fn) != 0)
			continue;
		int k; /* one per (name, caller, call site) */
		for (k = 0; k < n; k++)
			if (v[k]->call_line == x->call_line && strcmp(v[k]->name, x->name) == 0 &&
			    (v[k]->call_file == x->call_file ||
			     (v[k]->call_file && x->call_file && strcmp(v[k]->call_file, x->call_file) == 0)))
				break;
		if (k < n)
			continue;
		VEC_RESERVE(v, cap, n + 1);
		v[n++] = x;
	}
	*out = v;
	return n;
}
