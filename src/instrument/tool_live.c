/* tool_live.c -- live snapshots, --instr-at-start and the client requests
 * of cgtui.h, and the options recorded in the profile's header.
 *
 * Live snapshots (--cgtui-live=FILE): whenever the core is about to run
 * client code (each scheduler time slice and after each system call), if
 * --cgtui-live-ms have passed since the last snapshot, the counts so far
 * are written with the same writer as at exit to FILE.tmp, which is then
 * renamed to FILE: a reader sees a whole profile or the previous one, never
 * half a file, and the tool never waits for the reader.  The file is opened
 * and closed within one snapshot, so no descriptor of ours stays in the
 * client's range for it to close.  After a fork the child counts from the
 * fork on, and stops writing snapshots (they would be the parent's FILE)
 * unless FILE has a %p.
 *
 * A process waiting in a system call (sleep, waitpid, poll...) runs no
 * client code, so the hook above does not come while it waits: before a
 * system call that may wait for --cgtui-live-ms or longer, the counts
 * since the last snapshot are written then, without waiting for
 * --cgtui-live-ms (the view would show them only when the wait ends), but
 * still within the 1/LIVE_SHARE of the run.  Other system calls cost
 * nothing more (no timer read), nor do short waits (WNOHANG, a zero or
 * short timeout).
 *
 * A snapshot counts the calls still running as if they returned now (their
 * cost so far goes to their call sites while it is written), so that the
 * callers' inclusive costs and the call tree are right at each refresh.
 *
 * Monitor commands (`vgdb --pid=PID CMD`, `cgtui --control PID CMD`), as
 * callgrind's: "dump" writes a snapshot now (with --cgtui-live), or else
 * the counts since the last dump or zero as FILE.N, part N of the run,
 * and zeroes them (as callgrind's dumps, which readers add up); "zero";
 * "instrumentation [on|off]"; "status"; "help".
 *
 * --instr-at-start=no: nothing is counted until CGTUI_START_INSTRUMENTATION
 * (or callgrind's CALLGRIND_START_INSTRUMENTATION).  Switching drops every
 * translation (their counts are kept: the core tells cgt_sb_discard), so
 * blocks are translated again with or without counting, as callgrind does.
 *
 * Copyright (C) the cgtui authors.
 * SPDX-License-Identifier: GPL-2.0-or-later */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_clreq.h"
#include "pub_tool_gdbserver.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_transtab.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_xarray.h"

#include "instrument/cgtui.h"
#include "tool.h"

/* callgrind's requests (valgrind/callgrind.h), accepted too */
#define CLG_BASE VG_USERREQ_TOOL_BASE('C', 'T')
#define CLG_DUMP_STATS (CLG_BASE + 0)
#define CLG_ZERO_STATS (CLG_BASE + 1)
#define CLG_TOGGLE_COLLECT (CLG_BASE + 2)
#define CLG_DUMP_STATS_AT (CLG_BASE + 3)
#define CLG_START_INSTRUMENTATION (CLG_BASE + 4)
#define CLG_STOP_INSTRUMENTATION (CLG_BASE + 5)

/* callgrind's requests this tool does not do: said once in the log, and
 * named in the profile's desc: lines */
static const HChar *const clg_unsupported[1] = { "CALLGRIND_TOGGLE_COLLECT" };
static Bool clg_ignored[1];

Bool cgt_instr_on = True;
static Bool clo_instr_at_start = True;
static const HChar *clo_live;  /* --cgtui-live=FILE */
static Long clo_live_ms = 500; /* --cgtui-live-ms=N */

/* snapshots take at most 1/LIVE_SHARE of the run (3 %) */
#define LIVE_SHARE 33

static HChar *live_path, *live_tmp; /* expanded for this process */
static UInt live_last;              /* ms timer at the end of the last snapshot */
static UInt live_cost;              /* ms the last snapshot took */
static ULong live_count, live_ms;   /* snapshots written, ms spent */
static Bool live_done;              /* a snapshot was written */
static Bool live_ran;               /* client code ran since the last one */

Bool cgt_live_option(const HChar *arg)
{
	if (VG_STR_CLO(arg, "--cgtui-live", clo_live)) {
	} else if (VG_BINT_CLO(arg, "--cgtui-live-ms", clo_live_ms, 10, 3600000)) {
	} else if (VG_BOOL_CLO(arg, "--instr-at-start", clo_instr_at_start)) {
	} else {
		return False;
	}
	return True;
}

void cgt_live_usage(void)
{
	VG_(printf)("    --instr-at-start=yes|no   count from the start, or only after\n"
		    "                              CGTUI_START_INSTRUMENTATION (cgtui.h) [yes]\n"
		    "    --cgtui-live=<file>       write a snapshot of the profile to <file>\n"
		    "                              now and then while the program runs\n"
		    "    --cgtui-live-ms=<n>       at most one snapshot every <n> ms [500]\n");
}

static void live_names(void)
{
	if (live_path)
		VG_(free)(live_path);
	if (live_tmp)
		VG_(free)(live_tmp);
	live_path = VG_(expand_file_name)("--cgtui-live", clo_live);
	live_tmp = VG_(malloc)("cgtui.live", VG_(strlen)(live_path) + 5);
	VG_(sprintf)(live_tmp, "%s.tmp", live_path);
}

/* A writer that makes one file per thread (FILE-01, FILE-02 ... as
 * callgrind names them) wrote FILE.tmp-NN: each goes in place. */
static Bool rename_per_thread(void)
{
	SizeT n = VG_(strlen)(live_tmp) + 16;
	HChar *from = VG_(malloc)("cgtui.live", n), *to = VG_(malloc)("cgtui.live", n);
	Bool any = False;
	for (UInt tid = 1; tid < VG_N_THREADS; tid++) {
		VG_(snprintf)(from, n, "%s-%02u.ctx", live_tmp, tid);
		VG_(snprintf)(to, n, "%s-%02u.ctx", live_path, tid);
		VG_(rename)(from, to);
		VG_(snprintf)(from, n, "%s-%02u", live_tmp, tid);
		VG_(snprintf)(to, n, "%s-%02u", live_path, tid);
		if (VG_(rename)(from, to) == 0)
			any = True;
	}
	VG_(free)(from);
	VG_(free)(to);
	return any;
}

/* FILE.tmp's file beside it (FILE.tmp.ctx) in place (FILE.ctx) */
static void rename_beside(const HChar *suffix)
{
	SizeT n = VG_(strlen)(live_path) + VG_(strlen)(suffix) + 1;
	HChar from[n + 4], to[n];
	VG_(snprintf)(from, sizeof(from), "%s%s", live_tmp, suffix);
	VG_(snprintf)(to, sizeof(to), "%s%s", live_path, suffix);
	VG_(rename)(from, to);
}

/* Writes a snapshot now; False if it could not.  The calls running count
 * as if they returned now (and go on afterwards). */
static Bool live_snapshot(const HChar *trigger)
{
	if (!live_path)
		return False;
	UInt t0 = VG_(read_millisecond_timer)();
	cgt_sb_fold_all();
	cgt_calls_active(True);
	Bool ok = cgt_dump(live_tmp, trigger);
	cgt_calls_active(False);
	/* the files beside it first: a reader of the new profile finds them */
	if (ok && cgt_cct_on)
		rename_beside(".ctx");
	if (ok && cgt_time_on)
		rename_beside(".time");
	if (ok && VG_(rename)(live_tmp, live_path) != 0)
		ok = rename_per_thread();
	live_last = VG_(read_millisecond_timer)();
	live_cost = live_last - t0;
	live_count++;
	live_ms += live_cost;
	live_done = True;
	live_ran = False;
	return ok;
}

/* The snapshots take no more than 1/LIVE_SHARE of the run so far: False
 * if one more (costing what the last did) would. */
static Bool live_share_ok(UInt now)
{
	return !live_done || (live_ms + live_cost) * LIVE_SHARE <= now;
}

void cgt_live_start_client_code(ThreadId tid, ULong blocks)
{
	if (!live_path)
		return;
	live_ran = True;
	/* at most one every --cgtui-live-ms, and no more than 1/LIVE_SHARE of
	 * the time (a big profile takes a while to write) */
	UInt now = VG_(read_millisecond_timer)();
	UInt wait = (UInt)clo_live_ms;
	if (live_cost * LIVE_SHARE > wait)
		wait = live_cost * LIVE_SHARE;
	if (live_done && now - live_last < wait)
		return;
	/* and all of them (the next one costing what the last did) too */
	if (!live_share_ok(now))
		return;
	live_snapshot("Snapshot while the program runs (calls running counted to now)");
}

/* The wait a timeout of sec seconds and nsec nanoseconds allows is as long
 * as --cgtui-live-ms or more. */
static Bool long_timeout(Long sec, Long nsec)
{
	return sec >= clo_live_ms / 1000 + 1 || sec * 1000 + nsec / 1000000 >= clo_live_ms;
}

/* The same for a timeout of ms milliseconds, negative: none (for ever) */
static Bool long_ms(Int ms)
{
	return ms < 0 || ms >= clo_live_ms;
}

/* The same for a timeout the client points to (a struct timespec, or a
 * struct timeval with usec); none (NULL) waits for ever, one the tool
 * cannot read counts as long (the system call fails anyway). */
static Bool long_timeout_at(UWord p, Bool usec)
{
	if (!p)
		return True;
	if (usec) {
		struct vki_timeval *tv = (struct vki_timeval *)p;
		if (!VG_(am_is_valid_for_client)(p, sizeof(*tv), VKI_PROT_READ))
			return True;
		return long_timeout(tv->tv_sec, tv->tv_usec * 1000);
	}
	struct vki_timespec *ts = (struct vki_timespec *)p;
	if (!VG_(am_is_valid_for_client)(p, sizeof(*ts), VKI_PROT_READ))
		return True;
	return long_timeout(ts->tv_sec, ts->tv_nsec);
}

/* A system call that may wait for --cgtui-live-ms or longer: for a time,
 * for another process, for input or a signal.  Those asked not to wait
 * (WNOHANG, a zero timeout) or for less do not. */
static Bool syscall_waits(UInt no, const UWord *args)
{
	switch (no) {
#ifdef __NR_nanosleep
	case __NR_nanosleep:
		return long_timeout_at(args[0], False);
#endif
#ifdef __NR_clock_nanosleep
	case __NR_clock_nanosleep:
		/* (TIMER_ABSTIME: until a time, maybe long) */
		return (args[1] & 1) || long_timeout_at(args[2], False);
#endif
#ifdef __NR_rt_sigtimedwait
	case __NR_rt_sigtimedwait:
		return long_timeout_at(args[2], False);
#endif
#ifdef __NR_ppoll
	case __NR_ppoll:
		return long_timeout_at(args[2], False);
#endif
#ifdef __NR_pselect6
	case __NR_pselect6:
		return long_timeout_at(args[4], False);
#endif
#ifdef __NR_select
	case __NR_select:
		return long_timeout_at(args[4], True);
#endif
#ifdef __NR_poll
	case __NR_poll:
		return long_ms((Int)args[2]);
#endif
#ifdef __NR_epoll_wait
	case __NR_epoll_wait:
		return long_ms((Int)args[3]);
#endif
#ifdef __NR_epoll_pwait
	case __NR_epoll_pwait:
		return long_ms((Int)args[3]);
#endif
#ifdef __NR_wait4
	case __NR_wait4:
		return !(args[2] & VKI_WNOHANG);
#endif
#ifdef __NR_waitid
	case __NR_waitid:
		return !(args[3] & VKI_WNOHANG);
#endif
#ifdef __NR_waitpid
	case __NR_waitpid:
		return !(args[2] & VKI_WNOHANG);
#endif
#ifdef __NR_pause
	case __NR_pause:
#endif
#ifdef __NR_rt_sigsuspend
	case __NR_rt_sigsuspend:
#endif
		return True;
	default:
		return False;
	}
}

/* Before a system call: if it may wait, the counts so far go out now
 * (if any client code ran since the last snapshot). */
static void live_pre_syscall(ThreadId tid, UInt no, UWord *args, UInt nargs)
{
	if (!live_path || !live_ran || !syscall_waits(no, args))
		return;
	if (live_share_ok(VG_(read_millisecond_timer)()))
		live_snapshot("Snapshot before the program waits (calls running counted to now)");
}

static void live_post_syscall(ThreadId tid, UInt no, UWord *args, UInt nargs, SysRes res)
{
}

/* The process a forked child was forked from, 0 in the first one. */
static Int fork_parent;

/* In a forked child: counted from the fork on, so that its profile holds
 * its own costs only -- Valgrind's tools count the parent's costs before
 * the fork in the child's profile too, and the two profiles loaded
 * together count the start twice -- and the header says so
 * (cgt_live_desc).  The snapshots are the parent's unless the name has a
 * %p (then the child writes its own). */
static void live_child(ThreadId tid)
{
	fork_parent = VG_(getppid)();
	cgt_costs_zero();
	if (!live_path)
		return;
	if (VG_(strstr)(clo_live, "%p")) {
		live_names();
		live_done = False;
	} else {
		VG_(free)(live_path);
		VG_(free)(live_tmp);
		live_path = live_tmp = NULL;
	}
}

/* Counting on or off: every translation is made again (its counts kept). */
static void set_instr(Bool on)
{
	if (cgt_instr_on == on)
		return;
	cgt_instr_on = on;
	VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "cgtui");
	/* (the calls running stay on the shadow stacks, callgrind ends them:
	 * counting again, the call tree goes on where it was, with the calls
	 * made while it was off and still running added, those that returned
	 * meanwhile taken off) */
	if (on)
		cgt_calls_resume();
}

/* The counts since the last dump or zero as FILE.N (part N of the run),
 * then zeroed, as callgrind's dumps: readers add the parts up. */
static void dump_part(const HChar *trigger, Bool monitor)
{
	HChar *base = cgt_out_path();
	HChar *path = VG_(malloc)("cgtui.dump.part", VG_(strlen)(base) + 16);
	VG_(sprintf)(path, "%s.%u", base, cgt_dump_part);
	cgt_sb_fold_all();
	cgt_calls_active(True);
	if (cgt_dump(path, trigger)) {
		if (monitor)
			VG_(gdb_printf)("cgtui: part %u written: %s\n", cgt_dump_part, path);
		cgt_dump_part++;
	}
	cgt_costs_zero();
	VG_(free)(path);
	VG_(free)(base);
}

static void sum_ir(struct cgt_insn *n, void *arg)
{
	*(ULong *)arg += n->cost[CGT_EV_IR];
}

/* A monitor command (vgdb); False if it is none of the tool's. */
static Bool monitor_command(const HChar *req)
{
	HChar s[VG_(strlen)(req) + 1];
	HChar *save;
	VG_(strcpy)(s, req);
	const HChar *w = VG_(strtok_r)(s, " ", &save);
	switch (VG_(keyword_id)("help dump zero status instrumentation", w,
				kwd_report_duplicated_matches)) {
	case -2:
		return True;
	case -1:
		return False;
	case 0:
		VG_(gdb_printf)("cgtui monitor commands:\n"
				"  dump                  a snapshot now (the live view), or else the\n"
				"                        counts since the last dump or zero as FILE.N\n"
				"  zero                  zero the counts\n"
				"  instrumentation [on|off]  count or not (without on/off: which)\n"
				"  status                instrumentation, snapshots, Ir so far\n");
		return True;
	case 1:
		if (live_path) {
			if (live_snapshot("Command: dump (calls running counted to now)"))
				VG_(gdb_printf)("cgtui: snapshot written\n");
		} else {
			dump_part("Command: dump (calls running counted to now)", True);
		}
		return True;
	case 2:
		cgt_costs_zero();
		VG_(gdb_printf)("cgtui: counts zeroed\n");
		return True;
	case 3: {
		ULong ir = 0;
		cgt_sb_fold_all();
		cgt_insn_foreach(sum_ir, &ir);
		VG_(gdb_printf)("cgtui: instrumentation %s; %llu snapshots; part %u; Ir %llu\n",
				cgt_instr_on ? "on" : "off", live_count, cgt_dump_part, ir);
		return True;
	}
	case 4: {
		const HChar *a = VG_(strtok_r)(NULL, " ", &save);
		if (a && VG_(strcmp)(a, "on") != 0 && VG_(strcmp)(a, "off") != 0) {
			VG_(gdb_printf)("cgtui: instrumentation on|off, not '%s'\n", a);
			return True;
		}
		if (a)
			set_instr(VG_(strcmp)(a, "on") == 0);
		VG_(gdb_printf)("cgtui: instrumentation %s\n", cgt_instr_on ? "on" : "off");
		return True;
	}
	default:
		return False;
	}
}

static Bool live_client_request(ThreadId tid, UWord *args, UWord *ret)
{
	switch (args[0]) {
	case CGTUI_USERREQ_START_INSTRUMENTATION:
	case CLG_START_INSTRUMENTATION:
		set_instr(True);
		break;
	case CGTUI_USERREQ_STOP_INSTRUMENTATION:
	case CLG_STOP_INSTRUMENTATION:
		set_instr(False);
		break;
	case CGTUI_USERREQ_SNAPSHOT:
		live_snapshot("Client request: snapshot (calls running counted to now)");
		break;
	case VG_USERREQ__GDB_MONITOR_COMMAND:
		if (!monitor_command((const HChar *)args[1]))
			return False;
		*ret = 1;
		return True;
	case CLG_DUMP_STATS:
		dump_part("Client Request (calls running counted to now)", False);
		break;
	case CLG_DUMP_STATS_AT: {
		const HChar *hint = (const HChar *)args[1];
		HChar t[64 + 256];
		VG_(snprintf)(t, sizeof(t), "Client Request: %s (calls running counted to now)",
			      hint ? hint : "");
		dump_part(t, False);
		break;
	}
	case CLG_ZERO_STATS:
		cgt_costs_zero();
		break;
	case CLG_TOGGLE_COLLECT:
		if (!clg_ignored[0])
			VG_(umsg)("warning: %s is not supported by cgtui's tool: ignored (the "
				  "profile counts the whole run)\n", clg_unsupported[0]);
		clg_ignored[0] = True;
		break;
	default:
		return False;
	}
	*ret = 0;
	return True;
}

void cgt_live_pre_clo_init(void)
{
	VG_(needs_client_requests)(live_client_request);
	VG_(needs_syscall_wrapper)(live_pre_syscall, live_post_syscall);
}

void cgt_live_post_clo_init(void)
{
	cgt_instr_on = clo_instr_at_start;
	VG_(atfork)(NULL, NULL, live_child);
	/* called from the call tracker's start-of-client-code hook (Valgrind
	 * keeps only one) */
	if (clo_live && *clo_live)
		live_names();
}

/* FILE with suffix, and with --separate-threads FILE-NN with it for every
 * thread (as rename_per_thread() names them), removed. */
static void unlink_snapshot(const HChar *suffix)
{
	SizeT n = VG_(strlen)(live_path) + VG_(strlen)(suffix) + 16;
	HChar f[n];
	VG_(snprintf)(f, n, "%s%s", live_path, suffix);
	VG_(unlink)(f);
	for (UInt tid = 1; cgt_clo_separate_threads && tid < VG_N_THREADS; tid++) {
		VG_(snprintf)(f, n, "%s-%02u%s", live_path, tid, suffix);
		VG_(unlink)(f);
	}
}

void cgt_live_fini(void)
{
	/* the final profile is written: the snapshot and the files beside it
	 * (contexts, time axis; per thread) are no longer needed */
	if (live_path) {
		unlink_snapshot("");
		unlink_snapshot(".ctx");
		unlink_snapshot(".time");
	}
	if (live_path && VG_(clo_verbosity) > 1)
		VG_(dmsg)("cgtui: %llu live snapshots, %llu ms\n", live_count, live_ms);
}

/* One argument of the command for the "cmd:" line: a line break in it
 * would end the line (and make the rest a bad header line). */
void cgt_put_arg(struct _VgFile *fp, const HChar *arg)
{
	VG_(fprintf)(fp, " ");
	for (const HChar *s = arg; *s; s++)
		VG_(fprintf)(fp, "%c", *s == '\n' || *s == '\r' ? ' ' : *s);
}

/* "desc: Options: ..." -- the options the tool ran with (not those naming
 * files or for the launcher's own use). */
void cgt_live_desc(void (*put)(const HChar *line, void *arg), void *arg)
{
	static const HChar *const skip[] = { "--tool=", "--log-file=", "--log-fd=", "--cgtui-",
					     "-q", "--quiet", "-v", "--verbose" };
	XArray *a = VG_(args_for_valgrind);
	SizeT len = 160; /* (and room for the "Ignored:" line) */
	for (Word i = 0; i < VG_(sizeXA)(a); i++)
		len += VG_(strlen)(*(HChar **)VG_(indexXA)(a, i)) + 1;
	HChar *s = VG_(malloc)("cgtui.desc", len);
	VG_(strcpy)(s, "Options:");
	Bool any = False;
	for (Word i = 0; i < VG_(sizeXA)(a); i++) {
		const HChar *o = *(HChar **)VG_(indexXA)(a, i);
		Bool drop = False;
		for (UInt k = 0; k < sizeof(skip) / sizeof(skip[0]); k++) {
			SizeT n = VG_(strlen)(skip[k]);
			if (skip[k][n - 1] == '=' || skip[k][n - 1] == '-' ? VG_(strncmp)(o, skip[k], n) == 0
									   : VG_(strcmp)(o, skip[k]) == 0)
				drop = True;
		}
		if (drop)
			continue;
		VG_(strcat)(s, " ");
		VG_(strcat)(s, o);
		any = True;
	}
	if (any)
		put(s, arg);
	VG_(strcpy)(s, "Ignored:");
	any = False;
	for (UInt k = 0; k < sizeof(clg_ignored) / sizeof(clg_ignored[0]); k++)
		if (clg_ignored[k]) {
			VG_(strcat)(s, " ");
			VG_(strcat)(s, clg_unsupported[k]);
			any = True;
		}
	if (any)
		put(s, arg);
	if (fork_parent) {
		VG_(sprintf)(s, "Forked: from process %d, counted from the fork on (its costs "
				"before it are in that process's profile)", fork_parent);
		put(s, arg);
	}
	VG_(free)(s);
}
