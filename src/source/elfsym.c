/* elfsym.c -- ELF symbol look-ups with libelf (see elfsym.h).
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "elfsym.h"
#include "profile/util.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sym {
	uint64_t addr, size;
	const char *name;
};

struct elfsyms {
	struct sym *s;
	size_t n;
	int full; /* from .symtab */
	struct arena names;
};

static int cmp_sym(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void read_table(struct elfsyms *es, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, size_t *cap)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || !sh->sh_entsize)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		VEC_RESERVE(es->s, *cap, es->n + 1);
		es->s[es->n++] = (struct sym){ sym.st_value, sym.st_size,
					       arena_strndup(&es->names, name, strlen(name)) };
	}
}

static int only_dyn(Elf *e)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			return 0;
	}
	return 1;
}

struct elfsyms *elfsyms_open(const char *path)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(fd);
		return NULL;
	}
	struct elfsyms *es = xcalloc(1, sizeof(*es));
	size_t cap = 0;
	for (int want = SHT_SYMTAB; want; want = want == SHT_SYMTAB && !es->n ? SHT_DYNSYM : 0) {
		Elf_Scn *scn = NULL;
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			if (gelf_getshdr(scn, &sh) && sh.sh_type == (unsigned)want)
				read_table(es, e, scn, &sh, &cap);
		}
	}
	es->full = es->n && !only_dyn(e);
	elf_end(e);
	close(fd);
	if (es->n > 1)
		qsort(es->s, es->n, sizeof(*es->s), cmp_sym);
	return es;
}

const char *elfsyms_lookup(const struct elfsyms *s, uint64_t addr, uint64_t *off)
{
	uint64_t start, size;
	const char *name = elfsyms_span(s, addr, &start, &size);
	if (name)
		*off = addr - start;
	return name;
}

int elfsyms_full(const struct elfsyms *s)
{
	return s->full;
}

static int starts_at_or_below(const void *sym, const void *addr)
{
	return ((const struct sym *)sym)->addr <= *(const uint64_t *)addr;
}

const char *elfsyms_span(const struct elfsyms *s, uint64_t addr, uint64_t *start, uint64_t *size)
{
	/* the last symbol starting at or below addr: the one before the first above it */
	size_t i = first_not_below(s->s, s->n, sizeof(*s->s), starts_at_or_below, &addr);
	if (!i)
		return NULL;
	const struct sym *y = &s->s[i - 1];
	if (y->size && addr >= y->addr + y->size)
		return NULL;
	*start = y->addr;
	*size = y->size;
	return y->name;
}

void elfsyms_free(struct elfsyms *s)
{
	if (!s)
		return;
	free(s->s);
	arena_free(&s->names);
	free(s);
}

/* "0x0000000000001160" -> 0x1160; 0 when the name is not a bare address */
static int bare_address(const char *name, uint64_t *addr)
{
	if (name[0] != '0' || name[1] != 'x' || !name[2])
		return 0;
	char *end;
	*addr = strtoull(name + 2, &end, 16);
	return *end == 0;
}

int recover_symbols(struct profile *p)
{
	free(p->recovered);
	p->recovered = xmalloc(((size_t)p->nfns + 1) * sizeof(*p->recovered));
	int found = 0;
	struct elfsyms **by_obj = xcalloc((size_t)p->objs.n + 1, sizeof(*by_obj));
	uint8_t *tried = xcalloc((size_t)p->objs.n + 1, 1);
	for (uint32_t f = 0; f < p->nfns; f++) {
		p->recovered[f] = NO_ID;
		uint64_t addr, off;
		uint32_t ob = p->fns[f].obj;
		if (!bare_address(fn_name(p, f), &addr) || ob >= p->objs.n || !*obj_name(p, ob))
			continue;
		if (!tried[ob]) {
			tried[ob] = 1;
			by_obj[ob] = elfsyms_open(obj_name(p, ob));
		}
		const char *sym = by_obj[ob] ? elfsyms_lookup(by_obj[ob], addr, &off) : NULL;
		if (!sym)
			continue;
		char *label = off ? xasprintf("%s+0x%llx", sym, (unsigned long long)off) : xstrdup(sym);
		p->recovered[f] = strtab_intern(&p->names, label, strlen(label));
		free(label);
		found++;
	}
	for (uint32_t o = 0; o < p->objs.n; o++)
		elfsyms_free(by_obj[o]);
	free(by_obj);
	free(tried);
	return found;
}
