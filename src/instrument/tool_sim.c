/* tool_sim.c -- the tool with --cache-sim=yes or --branch-sim=yes: the
 * options, the events, the choice of caches and models, their desc: lines.
 * The helpers that call src/sim are tool_simhelp.c's, the instrumenter that
 * queues memory and branch events as cachegrind 3.19 does (so that the
 * simulators see the same accesses in the same order) tool_siminstr.c's,
 * the miss-ratio curves tool_mrc.c's; tool_sim.h is what they share.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "sim/branch.h"
#include "sim/cache.h"
#include "sim/model.h"
#include "sim/mrc.h"
#include "tool.h"
#include "tool_sim.h"

Bool cgt_clo_cache_sim = False;
Bool cgt_clo_branch_sim = False;

UInt cgt_n_events = 1;
UInt cgt_seg_events = 1u << CGT_EV_IR;
const HChar *cgt_event_name[CGT_EV_MAX] = { "Ir" };

UInt cgt_br_first = BR_ALONE;

struct sim_branch cgt_branch;
UInt cgt_min_line_size;

/* ---- the cache models ------------------------------------------------------------ */


struct model cgt_models[CGT_MAX_MODELS];
UInt cgt_n_models;
/* Cachegrind's caches alone (one model of its shape, simple): its helpers,
 * which give exactly its counts, at the fixed indices.  Else the general
 * helpers, for every model. */
Bool cgt_sim_exact = True;
/* Models were asked for (--cache-model, --cache-config): the profile says
 * which, with the events' long names. */
static Bool models_given;
/* a fetch in the line the previous fetch of the superblock ended in may
 * be skipped (sim_fetch_repeat_ok for every model), lines of 2^fetch_bits */
Bool cgt_fetch_repeat_ok = True;
UInt cgt_fetch_bits;

UInt cgt_n_l1_shared; /* models whose L1s are the first's */

/* the events' names and long names, "D1mr@big" */
static HChar ev_name[CGT_EV_MAX][SIM_MODEL_NAME_MAX + 16];
static HChar ev_long[CGT_EV_MAX][SIM_MODEL_NAME_MAX + 80];

/* ---- options ----------------------------------------------------------------- */

static struct sim_geom clo_geom[3]; /* from --I1, --D1, --LL */
static Bool clo_given[3];
static struct sim_geom cg_geom[3];  /* cachegrind's I1, D1, LL */
static Bool cg_geom_known;

/* the models asked for, in order */
enum { REQ_HOST, REQ_CACHEGRIND, REQ_FILE };
static struct {
	UChar kind;
	const HChar *path;
} req[CGT_MAX_MODELS];
static UInt n_req;
static const HChar *clo_host_dir = "/sys/devices/system/cpu/cpu0/cache";
/* --cache-mrc: miss-ratio curves (SHARDS), the first sampling rate in
 * percent, the sampled lines remembered at most */
static Bool clo_mrc;
Long cgt_clo_mrc_rate = 100;
Long cgt_clo_mrc_lines = 65536;

static Bool parse_u32(const HChar *s, HChar end, const HChar **next, UInt *v)
{
	HChar *e;
	Long x = VG_(strtoll10)(s, &e);
	if (e == s || *e != end || x < 0 || x > 0x7fffffffLL)
		return False;
	*v = (UInt)x;
	*next = e + 1;
	return True;
}

static Bool add_req(const HChar *arg, UChar kind, const HChar *path)
{
	if (n_req == CGT_MAX_MODELS) {
		VG_(fmsg_bad_option)(arg, "at most %d cache models in one run\n", CGT_MAX_MODELS);
		return True;
	}
	req[n_req].kind = kind;
	req[n_req].path = path;
	n_req++;
	models_given = True;
	cgt_clo_cache_sim = True;
	return True;
}

Bool cgt_sim_option(const HChar *arg)
{
	static const HChar *const names[3] = { "--I1=", "--D1=", "--LL=" };
	const HChar *gv = NULL, *v = NULL;
	Int which = -1;

	if (VG_STR_CLO(arg, "--cache-config", v))
		return add_req(arg, REQ_FILE, v);
	if (VG_STR_CLO(arg, "--cache-model", v)) {
		if (VG_(strcmp)(v, "host") == 0)
			return add_req(arg, REQ_HOST, NULL);
		if (VG_(strcmp)(v, "cachegrind") == 0)
			return add_req(arg, REQ_CACHEGRIND, NULL);
		VG_(fmsg_bad_option)(arg, "expected --cache-model=host or --cache-model=cachegrind\n");
		return True;
	}
	if (VG_STR_CLO(arg, "--cache-host-dir", clo_host_dir))
		return True;
	if (VG_BOOL_CLO(arg, "--cache-mrc", clo_mrc)) {
		if (clo_mrc)
			cgt_clo_cache_sim = True;
		return True;
	}
	if (VG_BOOL_CLO(arg, "--cache-use", cgt_clo_cache_use)) {
		if (cgt_clo_cache_use)
			cgt_clo_cache_sim = True;
		return True;
	}
	if (VG_BINT_CLO(arg, "--cache-mrc-rate", cgt_clo_mrc_rate, 1, 100))
		return True;
	if (VG_BINT_CLO(arg, "--cache-mrc-lines", cgt_clo_mrc_lines, 64, 1 << 26))
		return True;
	for (Int i = 0; i < 3; i++)
		if (VG_(strncmp)(arg, names[i], 5) == 0) {
			which = i;
			gv = arg + 5;
		}
	if (which < 0 && VG_(strncmp)(arg, "--L2=", 5) == 0) { /* the old name */
		which = 2;
		gv = arg + 5;
	}
	if (which < 0)
		return False;

	struct sim_geom g;
	const HChar *p = gv;
	if (!parse_u32(p, ',', &p, &g.size) || !parse_u32(p, ',', &p, &g.assoc) ||
	    !parse_u32(p, '\0', &p, &g.line_size)) {
		VG_(fmsg_bad_option)(arg, "Bad argument '%s' (SIZE,ASSOCIATIVITY,LINE_SIZE)\n", gv);
		return True;
	}
	enum sim_err e = sim_geom_check(&g);
	if (e != SIM_OK) {
		VG_(fmsg_bad_option)(arg, "%s\n", sim_strerror(e));
		return True;
	}
	clo_geom[which] = g;
	clo_given[which] = True;
	return True;
}

void cgt_sim_usage(void)
{
	VG_(printf)("    --I1=<size>,<assoc>,<line_size>  set I1 cache manually\n"
		    "    --D1=<size>,<assoc>,<line_size>  set D1 cache manually\n"
		    "    --LL=<size>,<assoc>,<line_size>  set LL cache manually\n"
		    "    --cache-model=host|cachegrind    simulate the host's caches (all levels)\n"
		    "                                     or cachegrind's (repeatable)\n"
		    "    --cache-config=<file>            simulate the cache model in <file>\n"
		    "                                     (repeatable; see man cgtui)\n"
		    "    --cache-mrc=yes|no               miss-ratio curves of data accesses [no]\n"
		    "    --cache-mrc-rate=<percent>       lines sampled at first [100]\n"
		    "    --cache-mrc-lines=<n>            sampled lines remembered at most [65536]\n"
		    "    --cache-use=yes|no               bytes of D1 lines fetched and used [no]\n");
}

/* ---- set-up ------------------------------------------------------------------- */

static void fallback_geometry(struct sim_geom fb[3])
{
#if defined(VGA_arm) || defined(VGA_arm64)
	const struct sim_geom g[3] = { SIM_FALLBACK_ARM_I1, SIM_FALLBACK_ARM_D1,
				       SIM_FALLBACK_ARM_LL };
#elif defined(VGA_s390x)
	const struct sim_geom g[3] = { { 65536, 4, 256 }, { 131072, 8, 256 },
				       { 50331648, 24, 256 } };
#elif defined(VGA_mips32) || defined(VGA_mips64) || defined(VGA_nanomips)
	const struct sim_geom g[3] = { { 32768, 4, 32 }, { 32768, 4, 32 }, { 524288, 8, 32 } };
#else
	const struct sim_geom g[3] = { SIM_FALLBACK_X86_I1, SIM_FALLBACK_X86_D1,
				       SIM_FALLBACK_X86_LL };
#endif
	for (Int i = 0; i < 3; i++)
		fb[i] = g[i];
}

unsigned cgt_lo_zero_bits(void)
{
#if defined(VGA_x86) || defined(VGA_amd64)
	return 0;
#elif defined(VGA_arm) || defined(VGA_s390x)
	return 1;
#else
	return 2;
#endif
}

/* The caches CPUID reports (Valgrind's VexArchInfo.hwcache_info), in
 * src/sim's form; *n of them, in a block to free (NULL when none). */
static struct sim_detected *cpuid_caches(UInt *n, UInt *num_levels)
{
	VexArch arch;
	VexArchInfo vai;
	VG_(machine_get_VexArchInfo)(&arch, &vai);
	const VexCacheInfo *ci = &vai.hwcache_info;
	struct sim_detected *det = NULL;

	*n = ci->num_caches;
	*num_levels = ci->num_levels;
	if (ci->num_caches)
		det = VG_(malloc)("cgtui.sim.det", ci->num_caches * sizeof(*det));
	for (UInt i = 0; i < ci->num_caches; i++) {
		const VexCache *c = &ci->caches[i];
		det[i].kind = c->kind == INSN_CACHE   ? SIM_KIND_INSN :
			      c->kind == DATA_CACHE   ? SIM_KIND_DATA :
							SIM_KIND_UNIFIED;
		det[i].level = c->level;
		det[i].size = c->sizeB;
		det[i].assoc = c->assoc;
		det[i].line_size = c->line_sizeB;
		det[i].is_trace_cache = c->is_trace_cache;
	}
	return det;
}

/* cachegrind's I1, D1, LL in cachegrind's order: detected (or fallback)
 * caches, LL adjusted, checked (fatal unless replaced on the command line),
 * replaced by --I1/--D1/--LL */
static void cachegrind_caches(void)
{
	static const HChar *const label[3] = { "I1", "D1", "LL" };
	UInt n, num_levels;

	if (cg_geom_known)
		return;
	cg_geom_known = True;
	struct sim_detected *det = cpuid_caches(&n, &num_levels);
	struct sim_geom fb[3];
	fallback_geometry(fb);
	unsigned flags = sim_pick_caches(det, n, num_levels, fb, cg_geom);
	if (det)
		VG_(free)(det);
	Bool all_given = clo_given[0] && clo_given[1] && clo_given[2];
	if (flags & SIM_PICK_NO_LL)
		VG_(dmsg)("warning: L2 cache not installed, ignore LL results.\n");
	if (flags & SIM_PICK_DEEP_LL)
		VG_(dmsg)("warning: L%u cache found, using its data for the LL simulation.\n",
			  num_levels);
	if ((flags & SIM_PICK_FALLBACK) && !all_given)
		VG_(dmsg)("Warning: Cannot auto-detect cache config, using defaults.\n");

	struct sim_geom before = cg_geom[2];
	if (sim_geom_tweak_ll(&cg_geom[2])) {
		VG_(dmsg)("warning: specified LL cache: line_size %u  assoc %u  total_size %'u\n",
			  before.line_size, before.assoc, before.size);
		VG_(dmsg)("warning: simulated LL cache: line_size %u  assoc %u  total_size %'u\n",
			  cg_geom[2].line_size, cg_geom[2].assoc, cg_geom[2].size);
	}
	for (Int i = 0; i < 3; i++) {
		enum sim_err e = sim_geom_check(&cg_geom[i]);
		if (e != SIM_OK && !clo_given[i]) {
			VG_(umsg)("Error: Incorrect %s cache configuration: %s\n", label[i],
				  sim_strerror(e));
			VG_(umsg)("Please specify a valid %s cache configuration using the --%s "
				  "option\n",
				  label[i], label[i]);
			VG_(exit)(1);
		}
	}
	for (Int i = 0; i < 3; i++)
		if (clo_given[i])
			cg_geom[i] = clo_geom[i];
}

/* The whole of a small file, NUL-terminated (NULL if it cannot be read). */
static HChar *read_file(const HChar *path, SizeT max, SizeT *len)
{
	SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
	if (sr_isError(r))
		return NULL;
	Int fd = (Int)sr_Res(r);
	HChar *buf = VG_(malloc)("cgtui.sim.file", max + 1);
	SizeT n = 0;
	for (;;) {
		Int got = VG_(read)(fd, buf + n, (Int)(max - n));
		if (got <= 0)
			break;
		n += (SizeT)got;
		if (n == max)
			break;
	}
	VG_(close)(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* One value of a sysfs cache directory, its first line */
static Bool sys_value(const HChar *dir, const HChar *name, HChar *out, SizeT max)
{
	HChar path[256];
	SizeT len;
	VG_(snprintf)(path, sizeof(path), "%s/%s", dir, name);
	HChar *s = read_file(path, 255, &len);
	if (!s)
		return False;
	SizeT i = 0;
	while (i + 1 < max && s[i] && s[i] != '\n') {
		out[i] = s[i];
		i++;
	}
	out[i] = 0;
	VG_(free)(s);
	return i > 0;
}

/* The host's caches from Linux's sysfs (index0, index1 ... under
 * clo_host_dir): *n of them (0 when the directory says nothing). */
static struct sim_detected *sysfs_caches(UInt *n)
{
	struct sim_detected *det = VG_(malloc)("cgtui.sim.sys", 16 * sizeof(*det));
	*n = 0;
	for (UInt i = 0; i < 16; i++) {
		HChar dir[256], level[16], type[32], size[32], ways[16], line[16];
		VG_(snprintf)(dir, sizeof(dir), "%s/index%u", clo_host_dir, i);
		if (!sys_value(dir, "level", level, sizeof(level)))
			break;
		if (!sys_value(dir, "type", type, sizeof(type)) ||
		    !sys_value(dir, "size", size, sizeof(size)) ||
		    !sys_value(dir, "coherency_line_size", line, sizeof(line)))
			continue;
		if (!sys_value(dir, "ways_of_associativity", ways, sizeof(ways)))
			VG_(strcpy)(ways, "0");
		struct sim_detected *d = &det[*n];
		UInt lv, as;
		if (!sim_parse_size(level, VG_(strlen)(level), &lv) ||
		    !sim_parse_size(size, VG_(strlen)(size), &d->size) ||
		    !sim_parse_size(line, VG_(strlen)(line), &d->line_size) ||
		    !sim_parse_size(ways, VG_(strlen)(ways), &as) || d->line_size == 0)
			continue;
		d->level = lv;
		/* 0 ways: fully associative */
		d->assoc = as ? as : d->size / d->line_size;
		d->kind = VG_(strcmp)(type, "Data") == 0	? SIM_KIND_DATA :
			  VG_(strcmp)(type, "Instruction") == 0 ? SIM_KIND_INSN :
								  SIM_KIND_UNIFIED;
		d->is_trace_cache = False;
		(*n)++;
	}
	return det;
}

static void say_msgs(const HChar *where, const struct sim_msgs *msgs)
{
	for (UInt i = 0; i < msgs->nwarn && i < SIM_MAX_WARN; i++) {
		if (msgs->warn[i].line)
			VG_(umsg)("%s:%u: warning: %s\n", where, msgs->warn[i].line,
				  msgs->warn[i].text);
		else
			VG_(umsg)("%s: warning: %s\n", where, msgs->warn[i].text);
	}
}

static void fail_msg(const HChar *where, const struct sim_msg *m)
{
	if (m->line)
		VG_(umsg)("%s:%u: %s\n", where, m->line, m->text);
	else
		VG_(umsg)("%s: %s\n", where, m->text);
	VG_(exit)(1);
}

/* The host's model: sysfs, else CPUID */
static struct sim_model host_model;
static Bool host_known;

static const struct sim_model *get_host(void)
{
	struct sim_msgs msgs;
	UInt n, num_levels;

	if (host_known)
		return &host_model;
	struct sim_detected *det = sysfs_caches(&n);
	const HChar *from = clo_host_dir;
	Bool ok = n > 0 && sim_model_detected(&host_model, det, n, &msgs);
	VG_(free)(det);
	if (!ok) {
		if (n > 0)
			VG_(umsg)("%s: %s: the host's caches from CPUID instead\n", from,
				  msgs.error.text);
		det = cpuid_caches(&n, &num_levels);
		from = "CPUID";
		ok = n > 0 && sim_model_detected(&host_model, det, n, &msgs);
		if (det)
			VG_(free)(det);
		if (!ok) {
			VG_(umsg)("cgtui: --cache-model=host: the host's caches are not known "
				  "(neither %s nor CPUID): %s\n",
				  clo_host_dir, n ? msgs.error.text : "nothing reported");
			VG_(exit)(1);
		}
	}
	say_msgs(from, &msgs);
	host_known = True;
	return &host_model;
}

static const struct sim_model *get_cachegrind(void)
{
	static struct sim_model m;
	cachegrind_caches();
	sim_model_cachegrind(&m, &cg_geom[0], &cg_geom[1], &cg_geom[2]);
	return &m;
}

/* "dir/big.cfg" -> "big" */
static void name_from_path(const HChar *path, HChar *out)
{
	const HChar *b = VG_(strrchr)(path, '/');
	b = b ? b + 1 : path;
	UInt n = 0;
	for (; *b && *b != '.' && n + 1 < SIM_MODEL_NAME_MAX; b++)
		if ((*b >= 'a' && *b <= 'z') || (*b >= 'A' && *b <= 'Z') ||
		    (*b >= '0' && *b <= '9') || *b == '_' || *b == '-')
			out[n++] = *b;
	out[n] = 0;
	if (n == 0)
		VG_(strcpy)(out, "config");
}

static void load_models(void)
{
	static const HChar *const label[3] = { "I1", "D1", "LL" };
	struct sim_msgs msgs;

	if (n_req == 0) /* --cache-sim=yes alone */
		req[n_req++].kind = REQ_CACHEGRIND;
	for (UInt i = 0; i < n_req; i++) {
		struct model *md = &cgt_models[i];
		if (req[i].kind == REQ_HOST) {
			md->m = *get_host();
			VG_(strcpy)(md->name, "host");
		} else if (req[i].kind == REQ_CACHEGRIND) {
			md->m = *get_cachegrind();
			VG_(strcpy)(md->name, "cachegrind");
		} else {
			SizeT len;
			HChar *text = read_file(req[i].path, 1 << 16, &len);
			if (!text) {
				VG_(umsg)("%s: cannot read the cache model\n", req[i].path);
				VG_(exit)(1);
			}
			/* a base is made only when the file asks for it */
			Bool ok = sim_model_parse(&md->m, text, len, NULL, NULL, &msgs);
			if (!ok && msgs.need)
				ok = sim_model_parse(&md->m, text, len,
						     msgs.need == SIM_NEED_HOST ? get_host() : NULL,
						     msgs.need == SIM_NEED_CACHEGRIND ? get_cachegrind()
										      : NULL,
						     &msgs);
			if (!ok)
				fail_msg(req[i].path, &msgs.error);
			say_msgs(req[i].path, &msgs);
			VG_(free)(text);
			if (md->m.name[0])
				VG_(strcpy)(md->name, md->m.name);
			else
				name_from_path(req[i].path, md->name);
		}
		/* --I1, --D1, --LL replace the matching levels of every model */
		for (UInt w = 0; w < 3; w++)
			if (clo_given[w] && req[i].kind != REQ_CACHEGRIND &&
			    !sim_model_set_geom(&md->m, w, &clo_geom[w]))
				VG_(umsg)("warning: cache model %s has no %s: --%s ignored for it\n",
					  md->name, label[w], label[w]);
		for (UInt j = 0; j < i; j++)
			if (VG_(strcmp)(cgt_models[j].name, md->name) == 0) {
				VG_(umsg)("cgtui: two cache models are named '%s' (give one a "
					  "'name = ...' line)\n",
					  md->name);
				VG_(exit)(1);
			}
	}
	cgt_n_models = n_req;
}

static void setup_model(struct model *md)
{
	SizeT size = sim_hier_mem_size(&md->m.cfg);
	/* sets aligned to the host's cache lines: a set of 8 tags then fills one */
	HChar *raw = VG_(malloc)("cgtui.sim.tags", size + 63);
	void *mem = (void *)(((Addr)raw + 63) & ~(Addr)63);
	enum sim_err e = sim_hier_init(&md->h, &md->m.cfg, mem, size);
	if (e != SIM_OK) {
		VG_(umsg)("cgtui: cannot set up the caches of model %s: %s\n", md->name,
			  sim_strerror(e));
		VG_(exit)(1);
	}
	for (UInt k = 0; k < 3; k++) {
		const struct sim_level *l =
			&md->h.level[k == SIM_ACC_FETCH ? md->h.ientry : md->h.dentry];
		md->mru_ok[k] = sim_level_mru_ok(l, (enum sim_acc)k, &md->mark[k]);
		md->entry[k] = (struct sim_level *)l;
	}
	if (!sim_fetch_repeat_ok(&md->h))
		cgt_fetch_repeat_ok = False;
	UInt bits = md->h.level[md->h.ientry].line_bits;
	if (md == &cgt_models[0] || bits < cgt_fetch_bits)
		cgt_fetch_bits = bits;
	UInt ml = sim_hier_min_line(&md->h);
	if (cgt_min_line_size == 0 || ml < cgt_min_line_size)
		cgt_min_line_size = ml;
}

/* cachegrind's shape, simple: its own helpers apply */
static Bool cachegrind_shaped(const struct sim_hier *h)
{
	return h->simple && h->nlevels == 3 && h->ientry == SIM_I1 && h->dentry == SIM_D1 &&
	       h->level[SIM_I1].next == SIM_LL && h->level[SIM_D1].next == SIM_LL &&
	       h->level[SIM_LL].next == SIM_NONE;
}

/* Are b's L1s a's, so that they hold the same lines at every moment?  Both
 * simple (LRU, non-inclusive: no level below changes an L1), the same
 * geometry for fetches and data, split or unified alike. */
static Bool same_l1(const struct sim_hier *a, const struct sim_hier *b)
{
	const struct sim_geom *ai = &a->level[a->ientry].geom, *ad = &a->level[a->dentry].geom;
	const struct sim_geom *bi = &b->level[b->ientry].geom, *bd = &b->level[b->dentry].geom;
	return a->simple && b->simple && (a->ientry == a->dentry) == (b->ientry == b->dentry) &&
	       ai->size == bi->size && ai->assoc == bi->assoc && ai->line_size == bi->line_size &&
	       ad->size == bd->size && ad->assoc == bd->assoc && ad->line_size == bd->line_size;
}

static void setup_caches(void)
{
	load_models();
	for (UInt i = 0; i < cgt_n_models; i++)
		setup_model(&cgt_models[i]);
	Int largest = VG_(machine_get_size_of_largest_guest_register)();
	if ((Int)cgt_min_line_size < largest) {
		VG_(umsg)("cgtui: cannot continue: the minimum line size (%u)\n", cgt_min_line_size);
		VG_(umsg)("  must be equal to or larger than the maximum register size (%d)\n",
			  largest);
		VG_(umsg)("  but it is not.  Exiting now.\n");
		VG_(exit)(1);
	}
	cgt_sim_exact = cgt_n_models == 1 && cachegrind_shaped(&cgt_models[0].h);
	for (UInt c = 1; c < cgt_n_models; c++) {
		cgt_models[c].l1_shared = same_l1(&cgt_models[0].h, &cgt_models[c].h);
		cgt_n_l1_shared += cgt_models[c].l1_shared;
	}
}

/* The events of the models, after Ir Dr Dw: with cachegrind's caches alone
 * I1mr D1mr D1mw ILmr DLmr DLmw (at the fixed ev_* indices); the second and
 * later models' names get "@name". */
static UInt add_model_events(UInt n)
{
	for (UInt c = 0; c < cgt_n_models; c++) {
		struct model *md = &cgt_models[c];
		UChar first[SIM_MAX_EVENTS];
		sim_model_events(&md->m, &md->map);
		if (n + md->map.nevents > CGT_EV_MAX - 4) {
			VG_(umsg)("cgtui: too many events (the cache models count more than %d)\n",
				  CGT_EV_MAX - 7);
			VG_(exit)(1);
		}
		md->ev_first = n;
		md->ev_n = md->map.nevents;
		for (UInt e = 0; e < md->map.nevents; e++) {
			first[e] = (UChar)n;
			if (c == 0) {
				VG_(snprintf)(ev_name[n], sizeof(ev_name[n]), "%s", md->map.ev[e].name);
				VG_(snprintf)(ev_long[n], sizeof(ev_long[n]), "%s", md->map.ev[e].desc);
			} else {
				VG_(snprintf)(ev_name[n], sizeof(ev_name[n]), "%s@%s",
					      md->map.ev[e].name, md->name);
				VG_(snprintf)(ev_long[n], sizeof(ev_long[n]), "%s (%s)",
					      md->map.ev[e].desc, md->name);
			}
			cgt_event_name[n] = ev_name[n];
			n++;
		}
		for (UInt k = 0; k < 3; k++)
			for (UInt d = 0; d < SIM_MAX_LEVELS; d++) {
				UInt a = md->map.miss[k][d], b = md->map.dirty[k][d];
				md->miss[k][d] = a == SIM_NONE ? EV_NONE : first[a];
				md->dirty[k][d] = b == SIM_NONE ? EV_NONE : first[b];
			}
	}
	return n;
}

void cgt_sim_setup(void)
{
	static const HChar *const branch_ev[4] = { "Bc", "Bcm", "Bi", "Bim" };
	UInt n = 1;

	if (cgt_clo_cache_sim) {
		tl_assert(n == ev_dr);
		cgt_event_name[n++] = "Dr";
		cgt_event_name[n++] = "Dw";
		setup_caches();
		n = add_model_events(n);
		if (cgt_sim_exact)
			tl_assert(n == BR_AFTER_CACHE && cgt_models[0].miss[SIM_ACC_FETCH][1] == ev_ilmr &&
				  cgt_models[0].miss[SIM_ACC_WRITE][0] == ev_d1mw);
		cgt_seg_events |= 1u << ev_dr | 1u << ev_dw;
		if (clo_mrc)
			cgt_mrc_setup();
	}
	if (cgt_clo_branch_sim) {
		cgt_br_first = n;
		for (Int i = 0; i < 4; i++)
			cgt_event_name[n++] = branch_ev[i];
		sim_branch_init(&cgt_branch, cgt_lo_zero_bits());
		cgt_fill_cond_step();
		cgt_seg_events |= 1u << (cgt_br_first + ev_bc) | 1u << (cgt_br_first + ev_bi);
	}
	if (cgt_clo_cache_use) /* last: the other events keep their places */
		n = cgt_use_setup(&cgt_models[0].h.level[cgt_models[0].h.dentry].geom, n);
	cgt_n_events = n;
}

static void desc_cache(void (*put)(const HChar *, void *), void *arg, const HChar *label,
		       const struct sim_geom *g, const HChar *more)
{
	HChar line[256];
	if (g->assoc == 1)
		VG_(snprintf)(line, sizeof(line), "%s cache: %u B, %u B, direct-mapped%s", label,
			      g->size, g->line_size, more);
	else
		VG_(snprintf)(line, sizeof(line), "%s cache: %u B, %u B, %u-way associative%s",
			      label, g->size, g->line_size, g->assoc, more);
	put(line, arg);
}

static const HChar *const repl_label[SIM_REPL_COUNT] = { "LRU",	  "tree-PLRU", "FIFO",
							  "random", "SRRIP",	 "BRRIP" };
static const HChar *const incl_label[SIM_INCL_COUNT] = { "non-inclusive", "inclusive",
							  "exclusive" };
static const HChar *const write_label[SIM_WRITE_COUNT] = { "writes as reads", "write-back",
							    "write-through" };
static const HChar *const pf_label[4] = { "no prefetch", "next-line prefetch",
					   "stride prefetch", "next-line and stride prefetch" };

void cgt_sim_desc(void (*put)(const HChar *line, void *arg), void *arg)
{
	if (!cgt_clo_cache_sim)
		return;
	if (!models_given) { /* as cachegrind writes them */
		desc_cache(put, arg, "I1", &cgt_models[0].h.level[SIM_I1].geom, "");
		desc_cache(put, arg, "D1", &cgt_models[0].h.level[SIM_D1].geom, "");
		desc_cache(put, arg, "LL", &cgt_models[0].h.level[SIM_LL].geom, "");
		return;
	}
	put("Cache model format: 1", arg);
	for (UInt c = 0; c < cgt_n_models; c++) {
		const struct model *md = &cgt_models[c];
		HChar label[64], more[160], stats[128];
		for (UInt i = 0; i < md->h.nlevels; i++) {
			const struct sim_level *l = &md->h.level[i];
			char lv[8];
			sim_model_level_name(&md->m, i, lv);
			VG_(snprintf)(label, sizeof(label), "%s%s%s", lv, c ? "@" : "", c ? md->name : "");
			VG_(snprintf)(more, sizeof(more), ", %s, %s, %s, %s (model %s)",
				      repl_label[l->repl], incl_label[l->incl], write_label[l->write],
				      pf_label[l->prefetch & 3], md->name);
			desc_cache(put, arg, label, &l->geom, more);
			if (l->writebacks || l->prefetches) {
				VG_(snprintf)(stats, sizeof(stats),
					      "%s cache: %llu lines written back, %llu prefetched",
					      label, (ULong)l->writebacks, (ULong)l->prefetches);
				put(stats, arg);
			}
		}
	}
}

void cgt_sim_event_lines(struct _VgFile *fp)
{
	if (!models_given)
		return;
	for (UInt e = ev_dr; e < cgt_n_events; e++)
		if (ev_long[e][0])
			VG_(fprintf)(fp, "event: %s : %s\n", cgt_event_name[e], ev_long[e]);
}

