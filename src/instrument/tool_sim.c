/* tool_sim.c -- the tool with --cache-sim=yes or --branch-sim=yes: the
 * events, the choice of caches, the helpers that call src/sim, and the
 * instrumenter that queues memory and branch events as cachegrind 3.19
 * does, so that the simulators see the same accesses in the same order.
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

Bool cgt_clo_cache_sim = False;
Bool cgt_clo_branch_sim = False;

UInt cgt_n_events = 1;
UInt cgt_seg_events = 1u << CGT_EV_IR;
const HChar *cgt_event_name[CGT_EV_MAX] = { "Ir" };

/* Indices in cgt_insn.cost.  With cachegrind's caches (the `exact' mode
 * below) they are fixed, so that its helpers add at constant offsets: the
 * cache events right after Ir, the branch events after them, or right after
 * Ir without the cache simulation.  With other models the models' events
 * follow Dr and Dw, and the branch events come last (br_first). */
enum {
	ev_dr = 1, ev_dw, ev_i1mr, ev_d1mr, ev_d1mw, ev_ilmr, ev_dlmr, ev_dlmw,
	BR_AFTER_CACHE = 9, BR_ALONE = 1
};
enum { ev_bc, ev_bcm, ev_bi, ev_bim }; /* relative to br_first */
static UInt br_first = BR_ALONE;

static struct sim_branch branch;
static UInt min_line_size;

static void fill_cond_step(void);

/* ---- the cache models ------------------------------------------------------------ */

/* One simulated hierarchy (a configuration), with the events it counts. */
#define CGT_MAX_MODELS 4
#define EV_NONE 0xffu

struct model {
	struct sim_hier h;
	struct sim_model m;
	HChar name[SIM_MODEL_NAME_MAX];
	/* an access of kind k missing its chain's level d counts event
	 * miss[k][d], and dirty[k][d] when that miss evicted a dirty line */
	UChar miss[3][SIM_MAX_LEVELS];
	UChar dirty[3][SIM_MAX_LEVELS];
	/* kind k may take the most-recent shortcut at its entry level, with
	 * that mark on the tag (sim_level_mru_ok) */
	Bool mru_ok[3];
	uintptr_t mark[3];
	struct sim_level *entry[3]; /* the entry level of each kind */
	/* its L1s are the first model's (geometry, LRU, and nothing below that
	 * could change them): they are not simulated twice, the first model's
	 * result is this one's at L1 (l1_shared) */
	Bool l1_shared;
	UInt ev_first, ev_n; /* its events in cgt_event_name */
	struct sim_event_map map;
};

static struct model models[CGT_MAX_MODELS];
static UInt n_models;
/* Cachegrind's caches alone (one model of its shape, simple): its helpers,
 * which give exactly its counts, at the fixed indices.  Else the general
 * helpers, for every model. */
static Bool exact = True;
/* Models were asked for (--cache-model, --cache-config): the profile says
 * which, with the events' long names. */
static Bool models_given;
/* a fetch in the line the previous fetch of the superblock ended in may
 * be skipped (sim_fetch_repeat_ok for every model), lines of 2^fetch_bits */
static Bool fetch_repeat_ok = True;
static UInt fetch_bits;

static UInt n_l1_shared; /* models whose L1s are the first's */

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
static Long clo_mrc_rate = 100;
static Long clo_mrc_lines = 65536;

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
	if (VG_BINT_CLO(arg, "--cache-mrc-rate", clo_mrc_rate, 1, 100))
		return True;
	if (VG_BINT_CLO(arg, "--cache-mrc-lines", clo_mrc_lines, 64, 1 << 26))
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

static unsigned lo_zero_bits(void)
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
		struct model *md = &models[i];
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
			if (VG_(strcmp)(models[j].name, md->name) == 0) {
				VG_(umsg)("cgtui: two cache models are named '%s' (give one a "
					  "'name = ...' line)\n",
					  md->name);
				VG_(exit)(1);
			}
	}
	n_models = n_req;
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
		fetch_repeat_ok = False;
	UInt bits = md->h.level[md->h.ientry].line_bits;
	if (md == &models[0] || bits < fetch_bits)
		fetch_bits = bits;
	UInt ml = sim_hier_min_line(&md->h);
	if (min_line_size == 0 || ml < min_line_size)
		min_line_size = ml;
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
	for (UInt i = 0; i < n_models; i++)
		setup_model(&models[i]);
	Int largest = VG_(machine_get_size_of_largest_guest_register)();
	if ((Int)min_line_size < largest) {
		VG_(umsg)("cgtui: cannot continue: the minimum line size (%u)\n", min_line_size);
		VG_(umsg)("  must be equal to or larger than the maximum register size (%d)\n",
			  largest);
		VG_(umsg)("  but it is not.  Exiting now.\n");
		VG_(exit)(1);
	}
	exact = n_models == 1 && cachegrind_shaped(&models[0].h);
	for (UInt c = 1; c < n_models; c++) {
		models[c].l1_shared = same_l1(&models[0].h, &models[c].h);
		n_l1_shared += models[c].l1_shared;
	}
}

/* The events of the models, after Ir Dr Dw: with cachegrind's caches alone
 * I1mr D1mr D1mw ILmr DLmr DLmw (at the fixed ev_* indices); the second and
 * later models' names get "@name". */
static UInt add_model_events(UInt n)
{
	for (UInt c = 0; c < n_models; c++) {
		struct model *md = &models[c];
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

static void setup_mrc(void);
static void mrc_ref(struct cgt_insn *n, Addr a);
static void call(IRSB *out, const HChar *name, void *fn, Int regparms, IRExpr **args,
		 IRExpr *guard);
static IRExpr *tmp(IRSB *out, IRType ty, IRExpr *e);

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
		if (exact)
			tl_assert(n == BR_AFTER_CACHE && models[0].miss[SIM_ACC_FETCH][1] == ev_ilmr &&
				  models[0].miss[SIM_ACC_WRITE][0] == ev_d1mw);
		cgt_seg_events |= 1u << ev_dr | 1u << ev_dw;
		if (clo_mrc)
			setup_mrc();
	}
	if (cgt_clo_branch_sim) {
		br_first = n;
		for (Int i = 0; i < 4; i++)
			cgt_event_name[n++] = branch_ev[i];
		sim_branch_init(&branch, lo_zero_bits());
		fill_cond_step();
		cgt_seg_events |= 1u << (br_first + ev_bc) | 1u << (br_first + ev_bi);
	}
	if (cgt_clo_cache_use) /* last: the other events keep their places */
		n = cgt_use_setup(&models[0].h.level[models[0].h.dentry].geom, n);
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
		desc_cache(put, arg, "I1", &models[0].h.level[SIM_I1].geom, "");
		desc_cache(put, arg, "D1", &models[0].h.level[SIM_D1].geom, "");
		desc_cache(put, arg, "LL", &models[0].h.level[SIM_LL].geom, "");
		return;
	}
	put("Cache model format: 1", arg);
	for (UInt c = 0; c < n_models; c++) {
		const struct model *md = &models[c];
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

/* ---- helpers, called from the instrumented code --------------------------------- */

/* One event of an instruction (tool.h's CGT_ADD) */
#define CGT_COUNT(n, ev) CGT_ADD(n, ev, 1)

/* In exact mode the hierarchy has cachegrind's shape: I1 and D1, each
 * followed by LL.  Looking the two levels up here, rather than through
 * sim_access's walk of the links, lets the compiler inline the lookups into
 * the helpers; the result is the same. */
#define hier (models[0].h)

static __attribute__((noinline)) unsigned access2_slow(struct sim_level *l1, Addr a, UChar size)
{
	if (!sim_level_ref(l1, a, size))
		return 0;
	return sim_level_ref(&hier.level[SIM_LL], a, size) ? 2 : 1;
}

/* The common case inline: the access stays in one line, which is the most
 * recently used of its set, so sim_level_ref would change nothing and
 * report a hit (this is cachegrind's fast path too).  Anything else goes
 * through src/sim. */
static inline __attribute__((always_inline)) unsigned access2(struct sim_level *l1, Addr a,
							       UChar size)
{
	if (sim_level_mru_hit(l1, a, size))
		return 0;
	return access2_slow(l1, a, size);
}

/* The misses of one access (access2's result: 0 hit, 1 L1 miss, 2 LL miss
 * too) into the instruction's events l1 and ll. */
static inline __attribute__((always_inline)) void count_misses(struct cgt_insn *n,
							       unsigned missed, int l1, int ll)
{
	if (missed) {
		CGT_COUNT(n, l1);
		if (missed > 1)
			CGT_COUNT(n, ll);
	}
}

/* An instruction fetch (its Ir is counted inline, by segments, as without
 * a simulation).  Cachegrind passes sizes to its simulator as 8-bit
 * values: so do we. */
static VG_REGPARM(1) void h_ir(struct cgt_insn *n)
{
	count_misses(n, access2(&hier.level[SIM_I1], n->addr, (UChar)n->len), ev_i1mr, ev_ilmr);
}

/* Two or three fetches in a row, or a fetch and its instruction's first
 * data access, in one call: fewer calls, the same order of accesses. */
static VG_REGPARM(2) void h_2ir(struct cgt_insn *n, struct cgt_insn *n2)
{
	h_ir(n);
	h_ir(n2);
}

static VG_REGPARM(3) void h_3ir(struct cgt_insn *n, struct cgt_insn *n2, struct cgt_insn *n3)
{
	h_ir(n);
	h_ir(n2);
	h_ir(n3);
}

/* The rest of a fetch whose inline check (add_inline_fetch) found its line
 * not the most recent of its set. */
static VG_REGPARM(1) void h_ir_slow(struct cgt_insn *n)
{
	count_misses(n, access2_slow(&hier.level[SIM_I1], n->addr, (UChar)n->len), ev_i1mr,
		     ev_ilmr);
}

static VG_REGPARM(3) void h_dr(struct cgt_insn *n, Addr a, UWord size);
static VG_REGPARM(3) void h_dw(struct cgt_insn *n, Addr a, UWord size);

static VG_REGPARM(3) void h_ir_dr(struct cgt_insn *n, Addr a, UWord size)
{
	h_ir(n);
	h_dr(n, a, size);
}

static VG_REGPARM(3) void h_ir_dw(struct cgt_insn *n, Addr a, UWord size)
{
	h_ir(n);
	h_dw(n, a, size);
}

/* A load, or a load and a store of the same place (a "modify"): its misses
 * (Dr itself is counted with the segment that holds it). */
static VG_REGPARM(3) void h_dr(struct cgt_insn *n, Addr a, UWord size)
{
	count_misses(n, access2(&hier.level[SIM_D1], a, (UChar)size), ev_d1mr, ev_dlmr);
}

static VG_REGPARM(3) void h_dw(struct cgt_insn *n, Addr a, UWord size)
{
	count_misses(n, access2(&hier.level[SIM_D1], a, (UChar)size), ev_d1mw, ev_dlmw);
}

/* The rest of a data access whose inline check (add_inline_data) found no
 * most-recent hit: the lookup, and the misses counted. */
/* (the instruction and the size in one argument: fewer to pass) */
struct data_ref {
	struct cgt_insn *insn;
	UWord size;
};

static VG_REGPARM(2) void h_dr_slow(const struct data_ref *r, Addr a)
{
	count_misses(r->insn, access2_slow(&hier.level[SIM_D1], a, (UChar)r->size), ev_d1mr,
		     ev_dlmr);
}

static VG_REGPARM(2) void h_dw_slow(const struct data_ref *r, Addr a)
{
	count_misses(r->insn, access2_slow(&hier.level[SIM_D1], a, (UChar)r->size), ev_d1mw,
		     ev_dlmw);
}

/* ---- the general helpers: every model, any hierarchy ---- */

/* A simple hierarchy's access from level l down (sim_access, with the
 * first level's lookup inlined): how many levels missed. */
static __attribute__((noinline)) unsigned chain_slow(struct sim_hier *h, struct sim_level *l,
						      Addr a, UChar size)
{
	unsigned missed = 0;
	while (sim_level_ref(l, a, size)) {
		missed++;
		if (l->next == SIM_NONE)
			break;
		l = &h->level[l->next];
		/* the level after: its set is fetched while this one is looked
		 * up (the sets of a big last level are rarely in the host's
		 * caches) */
		if (l->next != SIM_NONE) {
			const struct sim_level *n = &h->level[l->next];
			const uintptr_t *set = n->tags + (SizeT)((a >> n->line_bits) & n->set_mask) * n->assoc;
			__builtin_prefetch(set);
			__builtin_prefetch(set + n->assoc - 1);
		}
	}
	return missed;
}

/* The events of model md for an access of kind `kind` with result r */
static inline __attribute__((always_inline)) void count_res(const struct model *md,
							    struct cgt_insn *n, enum sim_acc kind,
							    unsigned r)
{
	for (unsigned d = 0; d < SIM_RES_MISSED(r); d++) {
		CGT_COUNT(n, md->miss[kind][d]);
		if (SIM_RES_DIRTY(r, d) && md->dirty[kind][d] != EV_NONE)
			CGT_COUNT(n, md->dirty[kind][d]);
	}
}

/* One access of model md that did not hit its entry level's most recent
 * line (or was not checked): `sim` is how it is simulated, `kind` what it
 * counts (a modify, cachegrind's read, writes the line).  Its result. */
static inline __attribute__((always_inline)) unsigned model_ref(struct model *md,
								struct cgt_insn *n, enum sim_acc sim,
								enum sim_acc kind, Addr a, UChar size)
{
	unsigned r = md->h.simple ? chain_slow(&md->h, md->entry[sim], a, size)
				  : sim_access_general(&md->h, sim, a, size, n->addr);
	if (r)
		count_res(md, n, kind, r);
	return r;
}

/* The models whose bit is set in `mask` (those whose inline check missed,
 * or that cannot be checked inline); the models sharing the first one's
 * L1s with it, after it missed its L1. */
static inline __attribute__((always_inline)) void models_ref(UWord mask, struct cgt_insn *n,
							     enum sim_acc sim, enum sim_acc kind,
							     Addr a, UChar size)
{
	for (UInt c = 0; c < n_models; c++) {
		struct model *md = &models[c];
		if (!(mask >> c & 1) || md->l1_shared)
			continue;
		unsigned r = model_ref(md, n, sim, kind, a, size);
		if (c || !n_l1_shared || !r)
			continue;
		for (UInt o = 1; o < n_models; o++) {
			struct model *other = &models[o];
			if (!other->l1_shared)
				continue;
			unsigned next = other->entry[sim]->next;
			count_res(other, n, kind,
				  1 + (next == SIM_NONE ? 0
							: chain_slow(&other->h, &other->h.level[next], a, size)));
		}
	}
}

/* Any models (the mask), and one simple model alone (hs_: the first). */
static VG_REGPARM(2) void hg_ir(struct cgt_insn *n, UWord mask)
{
	models_ref(mask, n, SIM_ACC_FETCH, SIM_ACC_FETCH, n->addr, (UChar)n->len);
}

static VG_REGPARM(3) void hg_dr(const struct data_ref *r, Addr a, UWord mask)
{
	models_ref(mask, r->insn, SIM_ACC_READ, SIM_ACC_READ, a, (UChar)r->size);
}

static VG_REGPARM(3) void hg_dm(const struct data_ref *r, Addr a, UWord mask)
{
	models_ref(mask, r->insn, SIM_ACC_WRITE, SIM_ACC_READ, a, (UChar)r->size);
}

static VG_REGPARM(3) void hg_dw(const struct data_ref *r, Addr a, UWord mask)
{
	models_ref(mask, r->insn, SIM_ACC_WRITE, SIM_ACC_WRITE, a, (UChar)r->size);
}

static VG_REGPARM(1) void hs_ir(struct cgt_insn *n)
{
	model_ref(&models[0], n, SIM_ACC_FETCH, SIM_ACC_FETCH, n->addr, (UChar)n->len);
}

static VG_REGPARM(2) void hs_dr(const struct data_ref *r, Addr a)
{
	model_ref(&models[0], r->insn, SIM_ACC_READ, SIM_ACC_READ, a, (UChar)r->size);
}

static VG_REGPARM(2) void hs_dm(const struct data_ref *r, Addr a)
{
	model_ref(&models[0], r->insn, SIM_ACC_WRITE, SIM_ACC_READ, a, (UChar)r->size);
}

static VG_REGPARM(2) void hs_dw(const struct data_ref *r, Addr a)
{
	model_ref(&models[0], r->insn, SIM_ACC_WRITE, SIM_ACC_WRITE, a, (UChar)r->size);
}

/* A guarded load or store, called under its guard: it counts itself. */
static inline __attribute__((always_inline)) void guarded(struct cgt_insn *n, Addr a, UWord size,
							  Bool write)
{
	CGT_COUNT(n, write ? ev_dw : ev_dr);
	mrc_ref(n, a);
	if (cgt_clo_cache_use)
		cgt_use_ref(n, a, size);
	if (exact) {
		(write ? h_dw : h_dr)(n, a, size);
	} else {
		struct data_ref r = { n, size };
		(write ? hg_dw : hg_dr)(&r, a, ~(UWord)0);
	}
}

static VG_REGPARM(3) void h_dr_guarded(struct cgt_insn *n, Addr a, UWord size)
{
	guarded(n, a, size, False);
}

static VG_REGPARM(3) void h_dw_guarded(struct cgt_insn *n, Addr a, UWord size)
{
	guarded(n, a, size, True);
}

/* A conditional branch (taken or not) and an indirect one (its target),
 * with the branch events starting at BR: the mispredictions (Bc and Bi are
 * counted with the segments). */
#define BRANCH_HELPERS(BR, bc, bi)                                            \
	static VG_REGPARM(2) void bc(struct cgt_insn *n, UWord taken)         \
	{                                                                     \
		if (sim_cond_branch(&branch, n->addr, taken & 1))             \
			CGT_COUNT(n, (BR) + ev_bcm);                          \
	}                                                                     \
	static VG_REGPARM(2) void bi(struct cgt_insn *n, UWord target)        \
	{                                                                     \
		if (sim_ind_branch(&branch, n->addr, target))                 \
			CGT_COUNT(n, (BR) + ev_bim);                          \
	}

BRANCH_HELPERS(BR_AFTER_CACHE, h_bc, h_bi)
BRANCH_HELPERS(BR_ALONE, h_bc_alone, h_bi_alone)
BRANCH_HELPERS(br_first, h_bc_any, h_bi_any)

/* ---- miss-ratio curves (--cache-mrc) ---------------------------------------------
 * The reuse distance of the data accesses to sampled lines (src/sim/mrc.h),
 * into a histogram of the whole run and one per function (by name). */
static struct sim_mrc mrc;
static Bool mrc_on;
static uint64_t mrc_hist[SIM_MRC_NBUCKETS];
static uint64_t **mrc_fn_hist; /* [mrc_nfn]: NULL until the function has a sample */
static UInt mrc_nfn;
static ULong mrc_samples;

static void setup_mrc(void)
{
	/* lines of the first model's L1D */
	UInt bits = models[0].h.level[models[0].h.dentry].line_bits;
	UInt lines = (UInt)clo_mrc_lines;
	void *mem = VG_(malloc)("cgtui.mrc", sim_mrc_mem_size(lines));
	sim_mrc_init(&mrc, bits, (UInt)((ULong)SIM_MRC_ONE * (ULong)clo_mrc_rate / 100), lines, mem);
	mrc_on = True;
}

/* An access to a sampled line (the translation checked sim_mrc_sampled) */
static VG_REGPARM(2) void h_mrc(struct cgt_insn *n, Addr a)
{
	uint64_t w;
	unsigned b = sim_mrc_access(&mrc, a, &w);
	if (b >= SIM_MRC_NBUCKETS)
		return;
	mrc_samples++;
	mrc_hist[b] += w;
	if (n->fn >= mrc_nfn) {
		UInt nn = n->fn + 1 > 2 * mrc_nfn ? n->fn + 1 : 2 * mrc_nfn;
		mrc_fn_hist = VG_(realloc)("cgtui.mrc.fn", mrc_fn_hist, nn * sizeof(*mrc_fn_hist));
		for (UInt i = mrc_nfn; i < nn; i++)
			mrc_fn_hist[i] = NULL;
		mrc_nfn = nn;
	}
	if (!mrc_fn_hist[n->fn])
		mrc_fn_hist[n->fn] = VG_(calloc)("cgtui.mrc.h", SIM_MRC_NBUCKETS + 1, sizeof(uint64_t));
	mrc_fn_hist[n->fn][b] += w;
	mrc_fn_hist[n->fn][SIM_MRC_NBUCKETS]++; /* samples */
}

static void mrc_ref(struct cgt_insn *n, Addr a)
{
	if (mrc_on && sim_mrc_sampled(&mrc, a))
		h_mrc(n, a);
}

/* The sampling check in the translation: the line's hash below the
 * threshold (read at run time: it is halved when the memory is full). */
static void add_mrc(IRSB *out, struct cgt_insn *insn, IRExpr *atom)
{
	IRExpr *line = tmp(out, Ity_I64, IRExpr_Binop(Iop_Shr64, atom,
						       IRExpr_Const(IRConst_U8((UChar)mrc.line_bits))));
	IRExpr *mul = tmp(out, Ity_I64, IRExpr_Binop(Iop_Mul64, line,
						      IRExpr_Const(IRConst_U64(0x9E3779B97F4A7C15ULL))));
	IRExpr *h = tmp(out, Ity_I32, IRExpr_Unop(Iop_64to32, tmp(out, Ity_I64,
		IRExpr_Binop(Iop_Shr64, mul, IRExpr_Const(IRConst_U8(64 - SIM_MRC_HASH_BITS))))));
	IRExpr *t = tmp(out, Ity_I32, IRExpr_Load(CGT_END, Ity_I32, mkIRExpr_HWord((HWord)&mrc.threshold)));
	IRExpr *take = tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpLT32U, h, t));
	call(out, "h_mrc", h_mrc, 2, mkIRExprVec_2(mkIRExpr_HWord((HWord)insn), atom), take);
}

struct mrc_fn_acc {
	ULong *acc; /* [mrc_nfn]: data accesses (Dr + Dw) per function */
	ULong total;
};

static void add_fn_accesses(struct cgt_insn *n, void *arg)
{
	struct mrc_fn_acc *m = arg;
	ULong a = n->cost[ev_dr] + n->cost[ev_dw];
	if (n->fn < mrc_nfn)
		m->acc[n->fn] += a;
	m->total += a;
}

/* A curve: the samples, the data accesses, then the misses of a fully
 * associative LRU cache of 2^0 .. 2^MRC_TOP lines, in accesses (from a
 * histogram adjusted to `accesses`, SHARDS's adjustment) */
#define MRC_TOP 26
static void put_curve(VgFile *fp, const uint64_t *hist, ULong samples, ULong accesses)
{
	uint64_t h[SIM_MRC_NBUCKETS];
	for (UInt b = 0; b < SIM_MRC_NBUCKETS; b++)
		h[b] = hist[b];
	sim_mrc_adjust(h, accesses);
	VG_(fprintf)(fp, " %llu %llu", samples, accesses);
	for (UInt k = 0; k <= MRC_TOP; k++)
		VG_(fprintf)(fp, " %llu",
			     (ULong)((sim_mrc_misses(h, 1ULL << k) + SIM_MRC_WEIGHT_ONE / 2) /
				     SIM_MRC_WEIGHT_ONE));
	VG_(fprintf)(fp, "\n");
}

void cgt_sim_zero(void)
{
	for (UInt c = 0; c < n_models; c++)
		for (UInt i = 0; i < models[c].h.nlevels; i++)
			models[c].h.level[i].writebacks = models[c].h.level[i].prefetches = 0;
	for (UInt b = 0; b < SIM_MRC_NBUCKETS; b++)
		mrc_hist[b] = 0;
	for (UInt f = 0; f < mrc_nfn; f++)
		if (mrc_fn_hist[f])
			for (UInt b = 0; b <= SIM_MRC_NBUCKETS; b++)
				mrc_fn_hist[f][b] = 0;
	mrc_samples = 0;
}

/* functions with fewer samples get no curve of their own */
#define MRC_MIN_SAMPLES 64

void cgt_sim_trailer(VgFile *fp)
{
	if (!mrc_on)
		return;
	struct mrc_fn_acc acc = { VG_(calloc)("cgtui.mrc.acc", mrc_nfn + 1, sizeof(ULong)), 0 };
	cgt_insn_foreach(add_fn_accesses, &acc);
	VG_(fprintf)(fp, "# cgtui mrc 1: data accesses, lines of %u B, sizes 2^0 .. 2^%u lines, "
			 "sampling threshold %u of %u\n",
		     1u << mrc.line_bits, MRC_TOP, mrc.threshold, SIM_MRC_ONE);
	VG_(fprintf)(fp, "# mrc-total:");
	put_curve(fp, mrc_hist, mrc_samples, acc.total);
	UInt few = 0;
	for (UInt f = 0; f < mrc_nfn; f++) {
		const uint64_t *h = mrc_fn_hist[f];
		if (!h)
			continue;
		if (h[SIM_MRC_NBUCKETS] < MRC_MIN_SAMPLES) {
			few++;
			continue;
		}
		VG_(fprintf)(fp, "# mrc-fn:");
		put_curve(fp, h, h[SIM_MRC_NBUCKETS], acc.acc[f]);
		VG_(fprintf)(fp, "# mrc-name: fl=%s fn=%s\n", cgt_files.names[cgt_fn_file(f)],
			     cgt_fns.names[f]);
	}
	if (few)
		VG_(fprintf)(fp, "# mrc-few: %u functions with fewer than %u samples\n", few,
			     MRC_MIN_SAMPLES);
	VG_(free)(acc.acc);
}

/* ---- instrumentation ------------------------------------------------------------ */

/* Cachegrind queues events and calls its helpers in batches: at a side exit,
 * when 16 are queued, before a guarded access, after a load-linked, at the
 * end of the block.  The order of the simulators' calls is the program's
 * order either way; the batches decide what is counted when a block is left
 * by a fault, so ours are the same. */
#define QUEUE_LEN 16

enum ev_kind { EV_IR, EV_DR, EV_DW, EV_DM, EV_BC, EV_BI };

struct event {
	enum ev_kind kind;
	Bool fetch;           /* EV_IR: the I1 access is simulated */
	struct cgt_insn *insn;
	IRExpr *atom; /* address (Dr, Dw, Dm), taken (Bc), target (Bi) */
	UInt size;
};

struct sim_state {
	IRSB *out;
	struct event q[QUEUE_LEN];
	Int n;
	struct cgt_count cnt; /* Ir, counted inline at each flush */
	Bool have_line;
	Addr last_line;       /* the I1 line the previous fetch ended in */
	/* each model's D1 tags' address, loaded once per block */
	IRExpr *d1_tags[CGT_MAX_MODELS];
};

/* the D1 tags' addresses, read by the translated code: a register then,
 * not a 64-bit constant to load before every check */
static uintptr_t *d1_tags[CGT_MAX_MODELS];

static void call(IRSB *out, const HChar *name, void *fn, Int regparms, IRExpr **args,
		 IRExpr *guard)
{
	IRDirty *di = unsafeIRDirty_0_N(regparms, name, VG_(fnptr_to_fnentry)(fn), args);
	if (guard)
		di->guard = guard;
	addStmtToIRSB(out, IRStmt_Dirty(di));
}

static IRExpr *tmp(IRSB *out, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(out->tyenv, ty);
	addStmtToIRSB(out, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

/* Can a data access of kind `sim` be checked inline for model c?  A
 * 64-bit host, a D1 of more than one set (see inline_miss) where the
 * shortcut holds (sim_level_mru_ok). */
static Bool inline_data_for(UInt c, enum sim_acc sim)
{
	return sizeof(HWord) == 8 && models[c].h.level[models[c].h.dentry].set_mask != 0 &&
	       models[c].mru_ok[sim];
}

static Bool inline_data(enum sim_acc sim)
{
	return inline_data_for(0, sim);
}

/* The check of model c's D1 for a data access, in the translation itself:
 * false when the access stays in one line that is the first of its D1 set
 * (with the model's mark for that kind of access: sim_level_mru_hit_mark,
 * the geometry as constants), which is then a hit that changes nothing. */
static IRExpr *inline_miss(struct sim_state *s, UInt c, const struct event *e, uintptr_t mark)
{
	IRSB *out = s->out;
	const struct sim_level *d1 = &models[c].h.level[models[c].h.dentry];
	const UInt lb = d1->line_bits;
	IRExpr *bits = IRExpr_Const(IRConst_U8((UChar)lb));
	IRExpr *blk = tmp(out, Ity_I64, IRExpr_Binop(Iop_Shr64, e->atom, bits));
	/* the block the access ends in */
	IRExpr *lastb = e->size == 1 ? blk
			: tmp(out, Ity_I64,
			      IRExpr_Binop(Iop_Shr64,
					   tmp(out, Ity_I64,
					       IRExpr_Binop(Iop_Add64, e->atom,
							    IRExpr_Const(IRConst_U64(e->size - 1)))),
					   bits));
	/* the set's offset in the tags, ((a >> lb) & set_mask) * stride: with
	 * a stride of 2^shift one shift and one mask */
	ULong stride = (ULong)d1->assoc * sizeof(uintptr_t);
	UInt shift = 0;
	while (shift < 63 && (1ULL << shift) < stride)
		shift++;
	IRExpr *off;
	if ((1ULL << shift) != stride) {
		IRExpr *set = tmp(out, Ity_I64,
				  IRExpr_Binop(Iop_And64, blk, IRExpr_Const(IRConst_U64(d1->set_mask))));
		off = tmp(out, Ity_I64, IRExpr_Binop(Iop_Mul64, set, IRExpr_Const(IRConst_U64(stride))));
	} else {
		IRExpr *moved = shift == lb ? e->atom
				: tmp(out, Ity_I64,
				      shift < lb ? IRExpr_Binop(Iop_Shr64, e->atom,
								IRExpr_Const(IRConst_U8((UChar)(lb - shift))))
						 : IRExpr_Binop(Iop_Shl64, e->atom,
								IRExpr_Const(IRConst_U8((UChar)(shift - lb)))));
		off = tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, moved,
						     IRExpr_Const(IRConst_U64((ULong)d1->set_mask << shift))));
	}
	if (!s->d1_tags[c]) {
		d1_tags[c] = d1->tags;
		s->d1_tags[c] = tmp(out, Ity_I64,
				    IRExpr_Load(CGT_END, Ity_I64, mkIRExpr_HWord((HWord)&d1_tags[c])));
	}
	IRExpr *tp = tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, s->d1_tags[c], off));
	IRExpr *tag = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, tp));
	if (mark)
		lastb = tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, lastb, IRExpr_Const(IRConst_U64(mark))));
	/* The first tag of the access's first set compared with the block the
	 * access ends in: with more than one set (inline_data), a tag there is
	 * never the next block (which belongs to the next set), so an access
	 * that spans two lines always fails the check and gets the full
	 * lookup. */
	return tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, tag, lastb));
}

static struct data_ref *data_ref(const struct event *e)
{
	struct data_ref *r = cgt_perm_alloc(sizeof(*r));
	r->insn = e->insn;
	r->size = e->size;
	return r;
}

/* A data access checked in the translation itself (inline_miss): only
 * when it misses is the helper called, under that guard.  Cachegrind's
 * caches alone (exact). */
static void add_inline_data(struct sim_state *s, const struct event *e, Bool write)
{
	IRExpr *miss = inline_miss(s, 0, e, 0);
	IRExpr **args = mkIRExprVec_2(mkIRExpr_HWord((HWord)data_ref(e)), e->atom);
	if (write)
		call(s->out, "h_dw_slow", h_dw_slow, 2, args, miss);
	else
		call(s->out, "h_dr_slow", h_dr_slow, 2, args, miss);
}

/* For every model, whether its inline check (or none) calls for the
 * helper: bit c of the mask the general helpers take.  *guard is the
 * condition of the call (NULL: always). */
static IRExpr *models_mask(IRSB *out, IRExpr *(*check)(void *, UInt), void *arg, IRExpr **guard)
{
	IRExpr *mask = NULL;
	ULong always = 0;
	for (UInt c = 0; c < n_models; c++) {
		IRExpr *m = check(arg, c);
		if (!m) {
			always |= 1ULL << c;
			continue;
		}
		if (m->tag == Iex_Const) /* a model done with the first */
			continue;
		IRExpr *bit = tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, m));
		if (c)
			bit = tmp(out, Ity_I64, IRExpr_Binop(Iop_Shl64, bit, IRExpr_Const(IRConst_U8((UChar)c))));
		mask = mask ? tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, mask, bit)) : bit;
	}
	*guard = NULL;
	if (!mask)
		return IRExpr_Const(IRConst_U64(always));
	if (always)
		return tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, mask, IRExpr_Const(IRConst_U64(always))));
	*guard = tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, mask, IRExpr_Const(IRConst_U64(0))));
	return mask;
}

struct data_check {
	struct sim_state *s;
	const struct event *e;
	enum sim_acc sim;
};

static IRExpr *data_check(void *arg, UInt c)
{
	struct data_check *d = arg;
	if (models[c].l1_shared)
		return IRExpr_Const(IRConst_U1(False));
	if (!inline_data_for(c, d->sim))
		return NULL;
	return inline_miss(d->s, c, d->e, models[c].mark[d->sim]);
}

/* A data access of other models than cachegrind's alone: checked inline
 * for each model that allows it (inline_miss), the helper called for the
 * models that missed or could not be checked.  One simple model: its own
 * helpers, without a mask. */
static void add_data_general(struct sim_state *s, const struct event *e)
{
	enum sim_acc sim = e->kind == EV_DR ? SIM_ACC_READ : SIM_ACC_WRITE;
	IRSB *out = s->out;
	IRExpr *a = mkIRExpr_HWord((HWord)data_ref(e));
	if (n_models == 1 && models[0].h.simple) {
		IRExpr *miss = inline_data_for(0, sim) ? inline_miss(s, 0, e, models[0].mark[sim]) : NULL;
		IRExpr **args = mkIRExprVec_2(a, e->atom);
		if (e->kind == EV_DR)
			call(out, "hs_dr", hs_dr, 2, args, miss);
		else if (e->kind == EV_DM)
			call(out, "hs_dm", hs_dm, 2, args, miss);
		else
			call(out, "hs_dw", hs_dw, 2, args, miss);
		return;
	}
	struct data_check d = { s, e, sim };
	IRExpr *guard;
	IRExpr *mask = models_mask(out, data_check, &d, &guard);
	IRExpr **args = mkIRExprVec_3(a, e->atom, mask);
	if (e->kind == EV_DR)
		call(out, "hg_dr", hg_dr, 3, args, guard);
	else if (e->kind == EV_DM)
		call(out, "hg_dm", hg_dm, 3, args, guard);
	else
		call(out, "hg_dw", hg_dw, 3, args, guard);
}

/* A fetch checked in the translation itself, as a data access is: its
 * address is a constant there, so is the place of the first tag of its
 * set; the helper is called only when that tag is not its line's.  An
 * instruction that spans two lines is not checked so (False). */
static IRExpr *fetch_miss(IRSB *out, UInt c, const struct cgt_insn *n)
{
	const struct sim_level *i1 = &models[c].h.level[models[c].h.ientry];
	Addr blk = n->addr >> i1->line_bits;
	if (sizeof(HWord) != 8 || !models[c].mru_ok[SIM_ACC_FETCH] ||
	    (n->addr + (UChar)n->len - 1) >> i1->line_bits != blk)
		return NULL;
	const uintptr_t *tp = &i1->tags[(SizeT)(blk & i1->set_mask) * i1->assoc];
	IRExpr *tag = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, mkIRExpr_HWord((HWord)tp)));
	return tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, tag, IRExpr_Const(IRConst_U64((ULong)blk))));
}

struct fetch_check {
	IRSB *out;
	const struct cgt_insn *n;
};

static IRExpr *fetch_check(void *arg, UInt c)
{
	struct fetch_check *f = arg;
	if (models[c].l1_shared)
		return IRExpr_Const(IRConst_U1(False));
	return fetch_miss(f->out, c, f->n);
}

static Bool add_inline_fetch(IRSB *out, struct cgt_insn *n)
{
	if (!exact) {
		IRExpr *guard;
		if (n_models == 1 && models[0].h.simple) {
			call(out, "hs_ir", hs_ir, 1, mkIRExprVec_1(mkIRExpr_HWord((HWord)n)),
			     fetch_miss(out, 0, n));
			return True;
		}
		struct fetch_check f = { out, n };
		IRExpr *mask = models_mask(out, fetch_check, &f, &guard);
		call(out, "hg_ir", hg_ir, 2, mkIRExprVec_2(mkIRExpr_HWord((HWord)n), mask), guard);
		return True;
	}
	IRExpr *miss = fetch_miss(out, 0, n);
	if (!miss)
		return False;
	call(out, "h_ir_slow", h_ir_slow, 1, mkIRExprVec_1(mkIRExpr_HWord((HWord)n)), miss);
	return True;
}

/* ---- the branch predictors inline ------------------------------------------------
 * 64-bit hosts: a conditional or indirect branch is predicted by the
 * translated code itself, on src/sim's state, with no call.  The address
 * is a constant there, so is its part of the counter's index and the
 * indirect branch's slot; the step of a 2-bit counter and whether it
 * mispredicted come from a table of the 8 (counter, outcome) pairs filled
 * by sim_cond_branch itself at start-up. */

/* [counter << 1 | taken]: the next counter, plus 4 when it mispredicted */
static UChar cond_step[8];

static void fill_cond_step(void)
{
	static struct sim_branch scratch;
	for (UInt i = 0; i < 8; i++) {
		sim_branch_init(&scratch, 0);
		scratch.counter[0] = (uint8_t)(i >> 1);
		Bool miss = sim_cond_branch(&scratch, 0, i & 1);
		cond_step[i] = (UChar)(scratch.counter[0] | (miss ? 4 : 0));
	}
}

static Bool inline_branch(void)
{
	return sizeof(HWord) == 8;
}

static IRExpr *c32(UInt v)
{
	return IRExpr_Const(IRConst_U32(v));
}

/* `*p += v` (v an I64 expression) */
static void add_to(IRSB *out, IRExpr *p, IRExpr *v)
{
	IRExpr *old = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, p));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, p,
					tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, v))));
}

/* CGT_COUNT in IR: event ev of instruction n grows by v (0 or 1), in its
 * cost (or the running thread's table) and in the running total. */
static void count_inline(struct sim_state *s, struct cgt_insn *n, UInt ev, IRExpr *v)
{
	IRSB *out = s->out;
	if (cgt_clo_separate_threads) {
		IRExpr *base = tmp(out, Ity_I64,
				   IRExpr_Load(CGT_END, Ity_I64, cgt_count_addr(&s->cnt, &cgt_cur_tcost)));
		ULong off = ((ULong)n->id * cgt_n_events + ev) * sizeof(ULong);
		add_to(out, tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, base, IRExpr_Const(IRConst_U64(off)))),
		       v);
	} else {
		add_to(out, mkIRExpr_HWord((HWord)&n->cost[ev]), v);
	}
	add_to(out, cgt_count_addr(&s->cnt, &cgt_tot[ev]), v);
}

/* sim_cond_branch for the branch of instruction n, `taken` an I64 of 0 or 1 */
static void add_inline_bc(struct sim_state *s, struct cgt_insn *n, IRExpr *taken, UInt bcm)
{
	IRSB *out = s->out;
	const UInt addr_mask = (1u << SIM_BR_ADDR_BITS) - 1;
	const UInt hist_mask = (1u << SIM_BR_HIST_BITS) - 1;
	IRExpr *t = tmp(out, Ity_I32, IRExpr_Unop(Iop_64to32, taken));
	IRExpr *hp = cgt_count_addr(&s->cnt, &branch.history);
	IRExpr *h = tmp(out, Ity_I32, IRExpr_Load(CGT_END, Ity_I32, hp));
	UInt a = (UInt)(n->addr >> branch.lo_zero_bits) & addr_mask;
	IRExpr *idx = tmp(out, Ity_I32,
			  IRExpr_Binop(Iop_Or32,
				       tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, h,
								      IRExpr_Const(IRConst_U8(SIM_BR_ADDR_BITS)))),
				       c32(a)));
	IRExpr *cp = tmp(out, Ity_I64,
			 IRExpr_Binop(Iop_Add64, cgt_count_addr(&s->cnt, branch.counter),
				      tmp(out, Ity_I64, IRExpr_Unop(Iop_32Uto64, idx))));
	IRExpr *c = tmp(out, Ity_I32,
			IRExpr_Unop(Iop_8Uto32, tmp(out, Ity_I8, IRExpr_Load(CGT_END, Ity_I8, cp))));
	IRExpr *i2 = tmp(out, Ity_I32,
			 IRExpr_Binop(Iop_Or32,
				      tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, c, IRExpr_Const(IRConst_U8(1)))),
				      t));
	IRExpr *sp = tmp(out, Ity_I64,
			 IRExpr_Binop(Iop_Add64, cgt_count_addr(&s->cnt, cond_step),
				      tmp(out, Ity_I64, IRExpr_Unop(Iop_32Uto64, i2))));
	IRExpr *v = tmp(out, Ity_I32,
			IRExpr_Unop(Iop_8Uto32, tmp(out, Ity_I8, IRExpr_Load(CGT_END, Ity_I8, sp))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, cp,
					tmp(out, Ity_I8, IRExpr_Unop(Iop_32to8,
								     tmp(out, Ity_I32, IRExpr_Binop(Iop_And32, v, c32(3)))))));
	IRExpr *nh = tmp(out, Ity_I32,
			 IRExpr_Binop(Iop_Or32,
				      tmp(out, Ity_I32, IRExpr_Binop(Iop_Shl32, h, IRExpr_Const(IRConst_U8(1)))),
				      t));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, hp,
					tmp(out, Ity_I32, IRExpr_Binop(Iop_And32, nh, c32(hist_mask)))));
	IRExpr *miss = tmp(out, Ity_I64,
			   IRExpr_Unop(Iop_32Uto64,
				       tmp(out, Ity_I32, IRExpr_Binop(Iop_Shr32, v, IRExpr_Const(IRConst_U8(2))))));
	count_inline(s, n, bcm, miss);
}

/* sim_ind_branch for the indirect branch of instruction n to `target` */
static void add_inline_bi(struct sim_state *s, struct cgt_insn *n, IRExpr *target, UInt bim)
{
	IRSB *out = s->out;
	uintptr_t *slot = &branch.btac[(n->addr >> branch.lo_zero_bits) & (SIM_BTAC_SIZE - 1)];
	IRExpr *sp = cgt_count_addr(&s->cnt, slot);
	IRExpr *old = tmp(out, Ity_I64, IRExpr_Load(CGT_END, Ity_I64, sp));
	IRExpr *miss = tmp(out, Ity_I64,
			   IRExpr_Unop(Iop_1Uto64, tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, old, target))));
	addStmtToIRSB(out, IRStmt_Store(CGT_END, sp, target));
	count_inline(s, n, bim, miss);
}

/* Calls the helpers for what is queued, in order, and counts the queued
 * instructions' Ir (one inline increment). */
static void flush(struct sim_state *s)
{
	if (mrc_on)
		for (Int i = 0; i < s->n; i++)
			if (s->q[i].kind == EV_DR || s->q[i].kind == EV_DM || s->q[i].kind == EV_DW)
				add_mrc(s->out, s->q[i].insn, s->q[i].atom);
	if (cgt_clo_cache_use)
		for (Int i = 0; i < s->n; i++)
			if (s->q[i].kind == EV_DR || s->q[i].kind == EV_DM || s->q[i].kind == EV_DW)
				cgt_use_instrument(s->out, s->q[i].insn, s->q[i].atom, s->q[i].size);
	for (Int i = 0; i < s->n; i++) {
		struct event *e = &s->q[i];
		IRExpr *insn = mkIRExpr_HWord((HWord)e->insn);
		const struct event *e2 = i + 1 < s->n ? &s->q[i + 1] : NULL;
		const struct event *e3 = i + 2 < s->n ? &s->q[i + 2] : NULL;
		if (e->kind == EV_IR && !e->fetch)
			continue; /* a fetch that must hit: nothing to simulate */
		if (e->kind == EV_IR && add_inline_fetch(s->out, e->insn))
			continue;
		if (!exact && (e->kind == EV_DR || e->kind == EV_DM || e->kind == EV_DW)) {
			add_data_general(s, e);
			continue;
		}
		if (e->kind == EV_IR && e2) {
			if (e2->kind == EV_DR || e2->kind == EV_DM || e2->kind == EV_DW) {
				tl_assert(e2->insn == e->insn);
				Bool w = e2->kind == EV_DW;
				call(s->out, w ? "h_ir_dw" : "h_ir_dr", w ? h_ir_dw : h_ir_dr, 3,
				     mkIRExprVec_3(insn, e2->atom, mkIRExpr_HWord(e2->size)), NULL);
				i++;
				continue;
			}
			if (e2->kind == EV_IR && e2->fetch && e3 && e3->kind == EV_IR && e3->fetch) {
				call(s->out, "h_3ir", h_3ir, 3,
				     mkIRExprVec_3(insn, mkIRExpr_HWord((HWord)e2->insn),
						   mkIRExpr_HWord((HWord)e3->insn)),
				     NULL);
				i += 2;
				continue;
			}
			if (e2->kind == EV_IR && e2->fetch) {
				call(s->out, "h_2ir", h_2ir, 2,
				     mkIRExprVec_2(insn, mkIRExpr_HWord((HWord)e2->insn)), NULL);
				i++;
				continue;
			}
		}
		switch (e->kind) {
		case EV_IR:
			call(s->out, "h_ir", h_ir, 1, mkIRExprVec_1(insn), NULL);
			break;
		case EV_DR:
		case EV_DM:
			if (inline_data(SIM_ACC_READ))
				add_inline_data(s, e, False);
			else
				call(s->out, "h_dr", h_dr, 3,
				     mkIRExprVec_3(insn, e->atom, mkIRExpr_HWord(e->size)), NULL);
			break;
		case EV_DW:
			if (inline_data(SIM_ACC_WRITE))
				add_inline_data(s, e, True);
			else
				call(s->out, "h_dw", h_dw, 3,
				     mkIRExprVec_3(insn, e->atom, mkIRExpr_HWord(e->size)), NULL);
			break;
		case EV_BC:
			if (inline_branch())
				add_inline_bc(s, e->insn, e->atom, br_first + ev_bcm);
			else if (br_first != BR_AFTER_CACHE && br_first != BR_ALONE)
				call(s->out, "h_bc_any", h_bc_any, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else if (cgt_clo_cache_sim)
				call(s->out, "h_bc", h_bc, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else
				call(s->out, "h_bc_alone", h_bc_alone, 2,
				     mkIRExprVec_2(insn, e->atom), NULL);
			break;
		case EV_BI:
			if (inline_branch())
				add_inline_bi(s, e->insn, e->atom, br_first + ev_bim);
			else if (br_first != BR_AFTER_CACHE && br_first != BR_ALONE)
				call(s->out, "h_bi_any", h_bi_any, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else if (cgt_clo_cache_sim)
				call(s->out, "h_bi", h_bi, 2, mkIRExprVec_2(insn, e->atom), NULL);
			else
				call(s->out, "h_bi_alone", h_bi_alone, 2,
				     mkIRExprVec_2(insn, e->atom), NULL);
			break;
		}
	}
	s->n = 0;
	cgt_count_end_segment(&s->cnt);
}

static void flush_cb(void *s)
{
	flush(s);
}

static struct event *queue(struct sim_state *s, enum ev_kind kind, struct cgt_insn *n)
{
	if (s->n == QUEUE_LEN)
		flush(s);
	/* counted with the segment this batch ends (a modify is a Dr) */
	UInt br = br_first;
	if (kind == EV_DR)
		cgt_count_event(&s->cnt, n, ev_dr);
	else if (kind == EV_DW)
		cgt_count_event(&s->cnt, n, ev_dw);
	else if (kind == EV_BC)
		cgt_count_event(&s->cnt, n, br + ev_bc);
	else if (kind == EV_BI)
		cgt_count_event(&s->cnt, n, br + ev_bi);
	struct event *e = &s->q[s->n++];
	e->kind = kind;
	e->fetch = False;
	e->insn = n;
	e->atom = NULL;
	e->size = 0;
	return e;
}

static void add_dr(struct sim_state *s, struct cgt_insn *n, UInt size, IRExpr *ea)
{
	if (!cgt_clo_cache_sim)
		return;
	tl_assert(isIRAtom(ea) && size >= 1 && size <= min_line_size);
	struct event *e = queue(s, EV_DR, n);
	e->atom = ea;
	e->size = size;
}

static void add_dw(struct sim_state *s, struct cgt_insn *n, UInt size, IRExpr *ea)
{
	if (!cgt_clo_cache_sim)
		return;
	tl_assert(isIRAtom(ea) && size >= 1 && size <= min_line_size);
	/* a store right after a load of the same place by the same instruction
	 * is one access, a modify */
	if (s->n > 0) {
		struct event *last = &s->q[s->n - 1];
		if (last->kind == EV_DR && last->size == size && last->insn == n &&
		    eqIRAtom(last->atom, ea)) {
			last->kind = EV_DM;
			return;
		}
	}
	struct event *e = queue(s, EV_DW, n);
	e->atom = ea;
	e->size = size;
}

/* A guarded load or store: the queue is emptied and the access made at
 * once, under its guard. */
static void add_guarded(struct sim_state *s, struct cgt_insn *n, UInt size, IRExpr *ea,
			IRExpr *guard, Bool write)
{
	if (!cgt_clo_cache_sim)
		return;
	tl_assert(isIRAtom(ea) && isIRAtom(guard) && size >= 1 && size <= min_line_size);
	flush(s);
	IRExpr **args = mkIRExprVec_3(mkIRExpr_HWord((HWord)n), ea, mkIRExpr_HWord(size));
	if (write)
		call(s->out, "h_dw_guarded", h_dw_guarded, 3, args, guard);
	else
		call(s->out, "h_dr_guarded", h_dr_guarded, 3, args, guard);
}

static UInt clamp(UInt size)
{
	return size > min_line_size ? min_line_size : size;
}

/* An instruction: its fetch is queued, and simulated unless it must hit.
 * A fetch that lies in the line the previous fetch of this superblock ended
 * in must: that line is the most recent of its set, and nothing else
 * fetches in between (a superblock runs without interruption; data
 * accesses go to D1, and LL is only asked on a miss).  Cachegrind looks it
 * up all the same and finds the hit without changing anything.  It is
 * still queued (and its Ir counted at the flush), so that the queue is
 * flushed where cachegrind's is. */
static void add_ir(struct sim_state *s, struct cgt_insn *n)
{
	struct event *e = queue(s, EV_IR, n);
	cgt_count_insn(&s->cnt, n);
	if (!cgt_clo_cache_sim)
		return;
	Addr first = n->addr >> fetch_bits;
	Addr last = (n->addr + (UChar)n->len - 1) >> fetch_bits;
	e->fetch = !(fetch_repeat_ok && s->have_line && first == s->last_line &&
		     last == s->last_line);
	s->have_line = True;
	s->last_line = last;
}

IRSB *cgt_sim_instrument(IRSB *in, IRType hWordTy, Int offset_SP, Addr key)
{
	struct sim_state s;
	IRTypeEnv *tyenv = in->tyenv;
	struct cgt_insn *cur = NULL;
	Addr hint = 0;
	Addr cia = 0;
	UInt isize = 0;
	Int i = 0;

	s.out = deepCopyIRSBExceptStmts(in);
	s.n = 0;
	s.have_line = False;
	s.last_line = 0;
	for (UInt c = 0; c < CGT_MAX_MODELS; c++)
		s.d1_tags[c] = NULL;
	while (i < in->stmts_used && in->stmts[i]->tag != Ist_IMark)
		addStmtToIRSB(s.out, in->stmts[i++]);
	tl_assert(i < in->stmts_used);
	/* How many segments at most: the queue is flushed when full (events:
	 * one per instruction, at most two per other statement) and at side
	 * exits, load-linked, guarded accesses, followed calls or jumps (at
	 * most one per instruction) and the end. */
	UInt n_insns = 0, n_flush = 1;
	for (Int j = i; j < in->stmts_used; j++) {
		IRStmtTag tag = in->stmts[j]->tag;
		n_insns += tag == Ist_IMark;
		n_flush += tag == Ist_Exit || tag == Ist_LLSC || tag == Ist_LoadG ||
			   tag == Ist_StoreG;
	}
	UInt max_events = n_insns + 2 * (UInt)in->stmts_used;
	cgt_count_start(&s.cnt, s.out, key, n_insns,
			n_flush + n_insns + max_events / QUEUE_LEN + 1);

	for (; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];
		tl_assert(isFlatIRStmt(st));
		switch (st->tag) {
		case Ist_AbiHint:
			hint = cgt_hint_target(st);
			break;
		case Ist_NoOp:
		case Ist_Put:
		case Ist_PutI:
		case Ist_MBE:
			break;
		case Ist_IMark:
			cia = st->Ist.IMark.addr;
			isize = st->Ist.IMark.len ? st->Ist.IMark.len : VG_MIN_INSTR_SZB;
			struct cgt_insn *prev = cur;
			cur = cgt_insn_get(cia, isize);
			/* VEX followed a direct call or jump: what is queued is
			 * counted before a call is pushed */
			if (prev && prev->addr + prev->len != cia &&
			    cgt_calls_chased(s.out, prev, cur, hint == cia, offset_SP, flush_cb, &s))
				cgt_count_new_region(&s.cnt);
			hint = 0;
			add_ir(&s, cur);
			break;
		case Ist_WrTmp:
			if (st->Ist.WrTmp.data->tag == Iex_Load) {
				IRExpr *ld = st->Ist.WrTmp.data;
				add_dr(&s, cur, sizeofIRType(ld->Iex.Load.ty), ld->Iex.Load.addr);
			}
			break;
		case Ist_Store:
			add_dw(&s, cur, sizeofIRType(typeOfIRExpr(tyenv, st->Ist.Store.data)),
			       st->Ist.Store.addr);
			break;
		case Ist_StoreG: {
			IRStoreG *sg = st->Ist.StoreG.details;
			add_guarded(&s, cur, sizeofIRType(typeOfIRExpr(tyenv, sg->data)), sg->addr,
				    sg->guard, True);
			break;
		}
		case Ist_LoadG: {
			IRLoadG *lg = st->Ist.LoadG.details;
			IRType loaded = Ity_INVALID, widened = Ity_INVALID;
			typeOfIRLoadGOp(lg->cvt, &widened, &loaded);
			tl_assert(loaded != Ity_INVALID);
			add_guarded(&s, cur, sizeofIRType(loaded), lg->addr, lg->guard, False);
			break;
		}
		case Ist_Dirty: {
			IRDirty *d = st->Ist.Dirty.details;
			if (d->mFx != Ifx_None) {
				/* big accesses (fxsave and the like) are counted as
				 * one line's worth, as cachegrind does */
				UInt size = clamp(d->mSize);
				if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
					add_dr(&s, cur, size, d->mAddr);
				if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
					add_dw(&s, cur, size, d->mAddr);
			}
			break;
		}
		case Ist_CAS: {
			IRCAS *cas = st->Ist.CAS.details;
			UInt size = sizeofIRType(typeOfIRExpr(tyenv, cas->dataLo));
			if (cas->dataHi)
				size *= 2;
			size = clamp(size);
			add_dr(&s, cur, size, cas->addr);
			add_dw(&s, cur, size, cas->addr);
			break;
		}
		case Ist_LLSC:
			if (st->Ist.LLSC.storedata == NULL) {
				add_dr(&s, cur, sizeofIRType(typeOfIRTemp(tyenv, st->Ist.LLSC.result)),
				       st->Ist.LLSC.addr);
				flush(&s);
			} else {
				add_dw(&s, cur,
				       sizeofIRType(typeOfIRExpr(tyenv, st->Ist.LLSC.storedata)),
				       st->Ist.LLSC.addr);
			}
			break;
		case Ist_Exit: {
			IRJumpKind jk = st->Ist.Exit.jk;
			if (jk == Ijk_Boring || jk == Ijk_Call || jk == Ijk_Ret) {
				/* the guard as a host word, 1 = the branch was taken; VEX
				 * may have inverted the test, making the side exit go to
				 * the next instruction */
				const IRConst *dst = st->Ist.Exit.dst;
				Addr sea = hWordTy == Ity_I32 ? dst->Ico.U32 : (Addr)dst->Ico.U64;
				Bool inverted = sea == cia + isize;
				IRTemp g1 = newIRTemp(s.out->tyenv, Ity_I1);
				IRTemp gw = newIRTemp(s.out->tyenv, hWordTy);
				IRTemp g = newIRTemp(s.out->tyenv, hWordTy);
				addStmtToIRSB(s.out, IRStmt_WrTmp(g1, st->Ist.Exit.guard));
				addStmtToIRSB(s.out,
					      IRStmt_WrTmp(gw, IRExpr_Unop(hWordTy == Ity_I32 ? Iop_1Uto32
											 : Iop_1Uto64,
									   IRExpr_RdTmp(g1))));
				IRExpr *one = hWordTy == Ity_I32 ? IRExpr_Const(IRConst_U32(1))
								 : IRExpr_Const(IRConst_U64(1));
				addStmtToIRSB(s.out,
					      IRStmt_WrTmp(g, inverted ? IRExpr_Binop(hWordTy == Ity_I32
										      ? Iop_Xor32
										      : Iop_Xor64,
									      IRExpr_RdTmp(gw), one)
								       : IRExpr_RdTmp(gw)));
				if (cgt_clo_branch_sim)
					queue(&s, EV_BC, cur)->atom = IRExpr_RdTmp(g);
			}
			/* the exit may leave the block: what is queued goes first */
			flush(&s);
			cgt_calls_exit(s.out, cur, st->Ist.Exit.jk, IRExpr_Const(st->Ist.Exit.dst),
				       st->Ist.Exit.guard, offset_SP, False);
			break;
		}
		default:
			ppIRStmt(st);
			tl_assert(0);
		}
		addStmtToIRSB(s.out, st);
	}

	/* an indirect jump or call (returns are taken as always predicted) */
	if (cgt_clo_branch_sim && (in->jumpkind == Ijk_Boring || in->jumpkind == Ijk_Call) &&
	    in->next->tag == Iex_RdTmp)
		queue(&s, EV_BI, cur)->atom = in->next;
	flush(&s);
	cgt_calls_exit(s.out, cur, in->jumpkind, in->next, NULL, offset_SP, True);
	return s.out;
}
