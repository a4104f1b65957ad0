/* tool_dump.c -- writes the tool's counts as a Callgrind-format profile
 * ("positions: instr line"), readable by KCachegrind, callgrind_annotate
 * and cgtui.
 *
 * Layout: per object (ob=), per function (fn=; the functions of one own
 * file together), per source file (fl=), the function's instructions in
 * address order, one line each: "ADDRESS LINE COSTS".  A function whose
 * instructions come from several files (inlined code) has its own file's
 * lines first (that of its entry, cgt_fn_file: its fl=), then those of
 * each other file after fi=, as callgrind writes them, so that every
 * (file, function, line) carries exactly the cost cachegrind gives it and
 * the function stays one (readers key a function by object, file and
 * name).
 * Names are compressed ("fn=(3) name" the first time, "fn=(3)" after);
 * addresses and lines after the first of a block are written relative to
 * the previous line ("+4", "-2", "*").  Addresses are relative to the
 * object's load bias, as callgrind writes them (the address in the file
 * on disk).
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"

#include "tool.h"

#ifndef CGTUI_VERSION
#define CGTUI_VERSION "unknown"
#endif

/* What is written: the whole run, or one thread (--separate-threads). */
static Bool one_thread;
static ThreadId dump_tid;
UInt cgt_dump_part = 1;

static Bool arc_shown(const struct cgt_arc *a)
{
	return !one_thread || a->tid == dump_tid;
}

/* A line of the profile: an instruction with a symbol, under its
 * function, or one without, under a context it ran in (tool_ctx.c). */
struct row {
	struct cgt_insn *n;
	const struct cgt_ctxcost *c; /* NULL: n has a symbol */
};

static UInt row_fn(const struct row *r)
{
	return r->c ? r->c->ctx : r->n->fn;
}

/* The object the row is listed under (a PLT stub's cost in a context:
 * the context's, cgt_ctx_obj) */
static UInt row_obj(const struct row *r)
{
	return r->c ? cgt_ctx_obj(r->n, r->c->ctx) : r->n->obj;
}

static const ULong *row_cost(const struct row *r)
{
	if (r->c)
		return r->c->cost;
	return one_thread ? cgt_threads_cost(dump_tid, r->n) : r->n->cost;
}

/* The calls made by the row's instruction in its function (context);
 * none of a call site zeroed since (CALLGRIND_ZERO_STATS, "zero"), as
 * callgrind writes none. */
static Bool row_arc(const struct row *r, const struct cgt_arc *a)
{
	if (!arc_shown(a) || a->ctx != row_fn(r))
		return False;
	Bool any = a->count != 0;
	for (UInt e = 0; e < cgt_n_events && !any; e++)
		any = a->incl[e] != 0;
	return any;
}

static Int cmp_row(const void *pa, const void *pb)
{
	const struct row *ra = pa, *rb = pb;
	const struct cgt_insn *a = ra->n, *b = rb->n;
	UInt oa = row_obj(ra), ob = row_obj(rb);
	if (oa != ob)
		return oa < ob ? -1 : 1;
	/* a function's blocks together, by its own file, that file's first */
	UInt fna = row_fn(ra), fnb = row_fn(rb);
	UInt fa = cgt_fn_file(fna), fb = cgt_fn_file(fnb);
	if (fa != fb)
		return fa < fb ? -1 : 1;
	if (fna != fnb)
		return fna < fnb ? -1 : 1;
	if ((a->file == fa) != (b->file == fb))
		return a->file == fa ? -1 : 1;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->raddr != b->raddr)
		return a->raddr < b->raddr ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return 0;
}

/* Every row in the order the profile lists them (cmp_row), kept from one
 * dump to the next: records are never freed and their keys never change,
 * so a live snapshot sorts only the rows made since the previous one and
 * merges them in (sorting them all took most of a snapshot's time). */
static struct row *sorted;
static UInt nsorted, insns_sorted, nodes_sorted;

struct collect {
	struct row *v;
	UInt n;
};

static void collect_new(struct cgt_insn *n, void *arg)
{
	struct collect *c = arg;
	if (n->id >= insns_sorted && !cgt_insn_unnamed(n))
		c->v[c->n++] = (struct row){ n, NULL };
}

static void sort_new_rows(void)
{
	UInt ninsns = cgt_insn_count(), nnodes;
	struct cgt_ctxcost *const *nodes = cgt_ctx_nodes(&nnodes);
	if (ninsns == insns_sorted && nnodes == nodes_sorted)
		return;
	UInt most = ninsns - insns_sorted + nnodes - nodes_sorted;
	struct collect c = { VG_(malloc)("cgtui.dump.new", most * sizeof(*c.v)), 0 };
	if (ninsns != insns_sorted)
		cgt_insn_foreach(collect_new, &c);
	for (UInt k = nodes_sorted; k < nnodes; k++)
		c.v[c.n++] = (struct row){ nodes[k]->insn, nodes[k] };
	VG_(ssort)(c.v, c.n, sizeof(*c.v), cmp_row);
	struct row *m = VG_(malloc)("cgtui.dump.sorted", (nsorted + c.n) * sizeof(*m));
	UInt i = 0, j = 0, k = 0;
	while (i < nsorted && j < c.n)
		m[k++] = cmp_row(&sorted[i], &c.v[j]) <= 0 ? sorted[i++] : c.v[j++];
	while (i < nsorted)
		m[k++] = sorted[i++];
	while (j < c.n)
		m[k++] = c.v[j++];
	if (sorted)
		VG_(free)(sorted);
	VG_(free)(c.v);
	sorted = m;
	nsorted = k;
	insns_sorted = ninsns;
	nodes_sorted = nnodes;
}

/* Is the row in the profile written: a call, or a cost? */
static Bool row_shown(const struct row *r)
{
	if (r->c && one_thread != (r->c->tid != 0))
		return False;
	if (r->c && one_thread && r->c->tid != dump_tid)
		return False;
	for (const struct cgt_arc *a = r->n->arcs; a; a = a->next)
		if (row_arc(r, a))
			return True;
	const ULong *cost = row_cost(r);
	for (UInt e = 0; e < cgt_n_events; e++)
		if (cost[e])
			return True;
	return False;
}

/* "prefix(id) name" the first time an id is written, "prefix(id)" after. */
static void put_name(VgFile *fp, const HChar *prefix, struct cgt_strtab *t, UInt id,
		     Bool *seen)
{
	if (seen[id]) {
		VG_(fprintf)(fp, "%s(%u)\n", prefix, id + 1);
	} else {
		seen[id] = True;
		VG_(fprintf)(fp, "%s(%u) %s\n", prefix, id + 1, t->names[id]);
	}
}

static void put_costs(VgFile *fp, const ULong *c)
{
	for (UInt e = 0; e < cgt_n_events; e++)
		VG_(fprintf)(fp, " %llu", c[e]);
	VG_(fprintf)(fp, "\n");
}

static void put_rel(VgFile *fp, Long d)
{
	if (d == 0)
		VG_(fprintf)(fp, "*");
	else if (d > 0)
		VG_(fprintf)(fp, "+%lld", d);
	else
		VG_(fprintf)(fp, "-%llu", (ULong)0 - (ULong)d);
}

/* The calls made by instruction n, as callgrind writes them: the callee's
 * object and file when they differ from the caller's, its name, the count
 * and the callee's first instruction, then the caller's position (the
 * same as n's line just written) with the inclusive cost.  (The callee's
 * file is its function's own, cgt_fn_file: readers key a function by its
 * file.) */
static void put_calls(VgFile *fp, const struct row *r, Bool *seen_ob, Bool *seen_fl,
		      Bool *seen_fn)
{
	const struct cgt_insn *n = r->n;
	for (const struct cgt_arc *a = n->arcs; a; a = a->next) {
		if (!row_arc(r, a))
			continue;
		const struct cgt_insn *to = a->to;
		if (to->obj != row_obj(r))
			put_name(fp, "cob=", &cgt_objs, to->obj, seen_ob);
		/* the function the call enters (for code without a symbol, its
		 * address name, set when the call was made) and its own file,
		 * when not that of the caller's line */
		if (cgt_fn_file(to->ctx) != n->file)
			put_name(fp, "cfi=", &cgt_files, cgt_fn_file(to->ctx), seen_fl);
		put_name(fp, "cfn=", &cgt_fns, to->ctx, seen_fn);
		VG_(fprintf)(fp, "calls=%llu 0x%lx %u\n", a->count, to->raddr, to->line);
		VG_(fprintf)(fp, "* *");
		put_costs(fp, a->incl);
	}
}

static void put_desc(const HChar *line, void *arg)
{
	VG_(fprintf)((VgFile *)arg, "desc: %s\n", line);
}

static Bool dump_file(const HChar *path, const HChar *trigger)
{
	VgFile *fp = VG_(fopen)(path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY,
				VKI_S_IRUSR | VKI_S_IWUSR);
	if (!fp) {
		VG_(umsg)("cgtui: cannot write the profile '%s'\n", path);
		return False;
	}

	sort_new_rows();
	struct collect c = { NULL, 0 };
	if (nsorted)
		c.v = VG_(malloc)("cgtui.dump.v", nsorted * sizeof(*c.v));
	for (UInt i = 0; i < nsorted; i++)
		if (row_shown(&sorted[i]))
			c.v[c.n++] = sorted[i];

	ULong totals[CGT_EV_MAX];
	VG_(memset)(totals, 0, sizeof(totals));
	for (UInt i = 0; i < c.n; i++)
		for (UInt e = 0; e < cgt_n_events; e++)
			totals[e] += row_cost(&c.v[i])[e];

	VG_(fprintf)(fp, "# callgrind format\n");
	VG_(fprintf)(fp, "version: 1\n");
	VG_(fprintf)(fp, "creator: cgtui-%s\n", CGTUI_VERSION);
	VG_(fprintf)(fp, "pid: %d\n", VG_(getpid)());
	VG_(fprintf)(fp, "cmd: %s", VG_(args_the_exename));
	for (Word i = 0; i < VG_(sizeXA)(VG_(args_for_client)); i++)
		cgt_put_arg(fp, *(HChar **)VG_(indexXA)(VG_(args_for_client), i));
	VG_(fprintf)(fp, "\n");
	VG_(fprintf)(fp, "part: %u\n", cgt_dump_part);
	if (one_thread)
		VG_(fprintf)(fp, "thread: %u\n", dump_tid);
	VG_(fprintf)(fp, "desc: Trigger: %s\n", trigger);
	cgt_sim_desc(put_desc, fp);
	cgt_use_desc(put_desc, fp);
	cgt_live_desc(put_desc, fp);
	cgt_sim_event_lines(fp);
	cgt_use_event_lines(fp);
	VG_(fprintf)(fp, "positions: instr line\n");
	VG_(fprintf)(fp, "events:");
	for (UInt e = 0; e < cgt_n_events; e++)
		VG_(fprintf)(fp, " %s", cgt_event_name[e]);
	VG_(fprintf)(fp, "\n");
	VG_(fprintf)(fp, "summary:");
	put_costs(fp, totals);
	VG_(fprintf)(fp, "\n");

	Bool *seen_ob = VG_(calloc)("cgtui.dump.ob", cgt_objs.n + 1, sizeof(Bool));
	Bool *seen_fl = VG_(calloc)("cgtui.dump.fl", cgt_files.n + 1, sizeof(Bool));
	Bool *seen_fn = VG_(calloc)("cgtui.dump.fn", cgt_fns.n + 1, sizeof(Bool));
	const struct row *prev = NULL;
	UInt pos_file = (UInt)-1; /* the file of the cost lines written last */
	UInt fl_file = (UInt)-1;  /* and of the last fl= */
	for (UInt i = 0; i < c.n;) {
		const struct row *r = &c.v[i];
		const struct cgt_insn *n = r->n;
		UInt fn = row_fn(r);
		Bool new_fn = !prev || row_fn(prev) != fn || row_obj(prev) != row_obj(r);
		Bool new_block = new_fn || prev->n->file != n->file;
		if (new_fn) {
			/* fl= when the function's own file is not that of the
			 * last fl= (KCachegrind takes a function's file from the
			 * last fl=, callgrind_annotate from the last fl=/fi=/fe=:
			 * written so, both read the same), then fn= */
			UInt own = cgt_fn_file(fn);
			if (!prev || row_obj(prev) != row_obj(r))
				put_name(fp, "ob=", &cgt_objs, row_obj(r), seen_ob);
			if (own != fl_file || own != pos_file)
				put_name(fp, "fl=", &cgt_files, own, seen_fl);
			put_name(fp, "fn=", &cgt_fns, fn, seen_fn);
			pos_file = fl_file = own;
		}
		if (n->file != pos_file) {
			/* inlined code of another file (or code without a symbol
			 * run in this function): fi=, back to its own fe= */
			put_name(fp, n->file == cgt_fn_file(fn) ? "fe=" : "fi=", &cgt_files, n->file,
				 seen_fl);
			pos_file = n->file;
		}
		/* rows equal but for the absolute address (code unloaded and
		 * loaded again elsewhere) make one line */
		ULong cost[CGT_EV_MAX];
		VG_(memcpy)(cost, row_cost(r), cgt_n_events * sizeof(ULong));
		UInt j = i + 1;
		for (; j < c.n && cmp_row(&c.v[i], &c.v[j]) == 0; j++)
			for (UInt e = 0; e < cgt_n_events; e++)
				cost[e] += row_cost(&c.v[j])[e];
		if (new_block) {
			VG_(fprintf)(fp, "0x%lx %u", n->raddr, n->line);
		} else {
			put_rel(fp, (Long)(n->raddr - prev->n->raddr));
			VG_(fprintf)(fp, " ");
			put_rel(fp, (Long)n->line - (Long)prev->n->line);
		}
		put_costs(fp, cost);
		for (UInt k = i; k < j; k++)
			put_calls(fp, &c.v[k], seen_ob, seen_fl, seen_fn);
		prev = r;
		i = j;
	}
	VG_(fprintf)(fp, "\ntotals:");
	put_costs(fp, totals);
	cgt_sim_trailer(fp);
	VG_(fclose)(fp);

	VG_(free)(seen_ob);
	VG_(free)(seen_fl);
	VG_(free)(seen_fn);
	if (c.v)
		VG_(free)(c.v);
	return True;
}

/* --contexts: PATH.ctx beside the profile PATH (thread `only`, or all) */
static Bool dump_contexts(const HChar *path, ThreadId only)
{
	if (!cgt_cct_on)
		return True;
	HChar *name = VG_(malloc)("cgtui.dump.ctx", VG_(strlen)(path) + 5);
	VG_(sprintf)(name, "%s.ctx", path);
	Bool ok = cgt_cct_write(name, only);
	VG_(free)(name);
	return ok;
}

Bool cgt_dump(const HChar *path, const HChar *trigger)
{
	if (cgt_cct_on)
		cgt_calls_charge();
	if (!cgt_clo_separate_threads) {
		one_thread = False;
		return dump_contexts(path, 0) && cgt_time_write(path) && dump_file(path, trigger);
	}
	/* one file per thread, named as callgrind names them: PATH-01 */
	Bool ok = True;
	SizeT len = VG_(strlen)(path) + 16;
	HChar *name = VG_(malloc)("cgtui.dump.name", len);
	one_thread = True;
	for (ThreadId tid = 1; tid < VG_N_THREADS; tid++) {
		if (!cgt_threads_used(tid))
			continue;
		dump_tid = tid;
		VG_(snprintf)(name, len, "%s-%02u", path, tid);
		ok = dump_contexts(name, tid) && dump_file(name, trigger) && ok;
	}
	one_thread = False;
	VG_(free)(name);
	return ok;
}
