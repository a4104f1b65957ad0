/* record.c -- `cgtui [options] prog args`: runs the program under Valgrind
 * with cgtui's tool, keeps its output off the screen, writes the tool's
 * live snapshots where the explorer (composed above, app/record.c) loads
 * them, and reports how the program ended.
 *
 * The tool is looked for in $CGTUI_VGLIB, else in vglib/ beside the cgtui
 * binary (the build tree), else in $(pkglibexecdir) (installed): a
 * directory holding cgtui-PLATFORM is run as VALGRIND_LIB.  Without it,
 * the installed `valgrind --tool=callgrind` records instead (no live data).
 *
 * The program runs in a session of its own, without a terminal (the
 * terminal's Ctrl-C and Ctrl-Z are the explorer's, /dev/tty cannot be
 * opened), and is stopped as a process group (its children too), with stdin from /dev/null (or --stdin FILE)
 * and stdout and stderr into a log file (Valgrind's messages in another,
 * --log-file): they never reach the screen, and a full pipe cannot block
 * it.  Valgrind writes the profile when the program dies of a signal too;
 * only when Valgrind itself is killed (SIGKILL after the stop timeout) the
 * last snapshot is kept instead.
 *
 * Live control (the explorer's keys, `cgtui --control PID CMD`): control.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profile/runfiles.h"
#include "profile/util.h"
#include "record/record.h"
#include "record/record_int.h"

#ifndef CGTUI_PKGLIBEXECDIR
#define CGTUI_PKGLIBEXECDIR ""
#endif

/* ---- the recording -------------------------------------------------------------- */


static volatile sig_atomic_t rec_signal; /* SIGTERM/SIGHUP/SIGINT while no TUI */

static void rec_on_signal(int sig)
{
	rec_signal = sig;
}

/* The directory holding cgtui-PLATFORM, or NULL. */
static char *find_vglib(void)
{
	const char *env = getenv("CGTUI_VGLIB");
	char *cand[3] = { NULL, NULL, NULL };
	int n = 0;
	if (env) {
		cand[n++] = xstrdup(env);
	} else {
		char self[4096];
		ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (len > 0) {
			self[len] = 0;
			char *sl = strrchr(self, '/');
			if (sl) {
				*sl = 0;
				cand[n++] = xasprintf("%s/vglib", self);
			}
		}
		if (*CGTUI_PKGLIBEXECDIR)
			cand[n++] = xstrdup(CGTUI_PKGLIBEXECDIR);
	}
	char *found = NULL;
	for (int i = 0; i < n; i++) {
		DIR *d = found ? NULL : opendir(cand[i]);
		struct dirent *de;
		while (d && (de = readdir(d)))
			if (strncmp(de->d_name, "cgtui-", 6) == 0 && strchr(de->d_name + 6, '-')) {
				char *p = xasprintf("%s/%s", cand[i], de->d_name);
				if (is_exec_file(p))
					found = xstrdup(cand[i]);
				free(p);
				if (found)
					break;
			}
		if (d)
			closedir(d);
		free(cand[i]);
	}
	return found;
}

static double elapsed(const struct rec *r)
{
	struct timespec now;
	if (r->ended)
		now = r->t1;
	else
		clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - r->t0.tv_sec) + (double)(now.tv_nsec - r->t0.tv_nsec) / 1e9;
}

/* "exited 0", "killed by SIGSEGV" */
static void describe_end(const struct rec *r, char *buf, size_t n)
{
	if (WIFEXITED(r->status))
		snprintf(buf, n, "exited %d", WEXITSTATUS(r->status));
	else if (WIFSIGNALED(r->status))
		snprintf(buf, n, "killed by SIG%s", sigabbrev_np(WTERMSIG(r->status))
							 ? sigabbrev_np(WTERMSIG(r->status))
							 : "?");
	else
		snprintf(buf, n, "ended");
	/* no final profile from the tool: the program ran another with exec
	 * (a script, a wrapper) and only what came before it was counted */
	if (r->from_snapshot && WIFEXITED(r->status)) {
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, ", exec? --trace-children=yes");
	}
}

int rec_ended(struct rec *r)
{
	if (r->ended)
		return 1;
	int st;
	pid_t p = waitpid(r->pid, &st, WNOHANG);
	if (p == r->pid) {
		r->ended = 1;
		r->status = st;
		clock_gettime(CLOCK_MONOTONIC, &r->t1);
	}
	return r->ended;
}

/* The files of the run `base` (runfiles.h: BASE, BASE-TID, BASE.N) that
 * exist; how many (0: none). */
static int run_files(const char *base, struct runfiles *rf)
{
	memset(rf, 0, sizeof(*rf));
	run_files_add(rf, base, 1);
	struct stat st;
	if (rf->n == 1 && stat(rf->v[0], &st) != 0)
		run_files_free(rf); /* nothing there: the name itself came back */
	return rf->n;
}

/* Has the program (not one it forked: FILE.PID beside FILE) written the
 * profile `base`: BASE, or its first thread's BASE-01? */
static int written(const char *base)
{
	struct stat st;
	char *first = xasprintf("%s-01", base);
	int yes = (stat(base, &st) == 0 && st.st_size > 0) || stat(first, &st) == 0;
	free(first);
	return yes;
}

/* Renames a profile, its per-thread files and its dumps from `from` to
 * `to`; 0 when something was renamed. */
static int rename_run(const char *from, const char *to)
{
	struct runfiles rf;
	int n = run_files(from, &rf), done = 0;
	for (int i = 0; i < n; i++) {
		char *dest = xasprintf("%s%s", to, rf.v[i] + strlen(from));
		/* the calling contexts beside it (--contexts) first */
		char *ctx = xasprintf("%s.ctx", rf.v[i]), *ctx_dest = xasprintf("%s.ctx", dest);
		rename(ctx, ctx_dest);
		free(ctx);
		free(ctx_dest);
		/* and the timeline (--timeline) */
		char *tm = xasprintf("%s.time", rf.v[i]), *tm_dest = xasprintf("%s.time", dest);
		rename(tm, tm_dest);
		free(tm);
		free(tm_dest);
		done |= rename(rf.v[i], dest) == 0;
		free(dest);
	}
	run_files_free(&rf);
	return done ? 0 : -1;
}

/* After the end: the final profile, or (Valgrind killed before writing
 * it) the last snapshot in its place.  0 when there is a profile. */
static int rec_finish(struct rec *r)
{
	if (r->out_pid && rename_run(r->out_pid, r->out) == 0)
		return 0;
	if (written(r->out))
		return 0;
	if (!r->callgrind && rename_run(r->live, r->out) == 0) {
		r->from_snapshot = 1;
		return 0;
	}
	return -1;
}

int rec_final(struct rec *r)
{
	if (!r->final_seen) {
		r->final_seen = 1;
		r->final_ok = rec_finish(r) == 0;
	}
	return r->final_ok ? 0 : -1;
}

/* A signal to the program and the processes it started (its process
 * group, when it has one of its own). */
static void rec_kill(const struct rec *r, int sig)
{
	if (kill(-r->pid, sig) < 0)
		kill(r->pid, sig);
}

/* Stops the program: SIGINT, then SIGKILL when it has not ended after
 * r->stop_ms; waits for it. */
void rec_stop(struct rec *r)
{
	if (rec_ended(r))
		return;
	rec_kill(r, SIGINT);
	for (int waited = 0; !rec_ended(r); waited += 20) {
		if (waited >= r->stop_ms) {
			rec_kill(r, SIGKILL);
			waitpid(r->pid, &r->status, 0);
			r->ended = 1;
			clock_gettime(CLOCK_MONOTONIC, &r->t1);
			break;
		}
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	/* the processes it started end too (and write their profiles) */
	for (int waited = 0; kill(-r->pid, 0) == 0; waited += 20) {
		if (waited >= r->stop_ms) {
			kill(-r->pid, SIGKILL);
			break;
		}
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

/* ---- live data ------------------------------------------------------------------------ */

/* The process a snapshot's file in the temporary directory is of
 * ("live.PID", "live.PID-TID"; not ".tmp", ".ctx" or ".time", nor a dump,
 * ".N"), or 0. */
static int snapshot_pid(const char *name)
{
	if (strncmp(name, "live.", 5) != 0 || name[5] < '1' || name[5] > '9')
		return 0;
	char *e;
	long pid = strtol(name + 5, &e, 10);
	if (*e == '-')
		for (e++; *e >= '0' && *e <= '9'; e++)
			;
	return *e || pid <= 0 || pid > 0x3fffffff ? 0 : (int)pid;
}

/* What changes when the explorer has newer data while the program runs:
 * the files of the temporary directory that are each process's snapshots
 * (live.PID, live.PID-TID: rec_children's), and Valgrind's log, which
 * names a child's profile once it is written -- by their time (the
 * newest) and inodes (summed: a snapshot is renamed into place); -1 while
 * the program has no snapshot.  (Not the .ctx and .time beside a
 * snapshot: they are renamed into place before it, and a load between
 * would read the new ones with the old profile.) */
static int live_stamp_all(const struct rec *r, struct stat *out)
{
	memset(out, 0, sizeof(*out));
	DIR *d = r->tmpdir ? opendir(r->tmpdir) : NULL;
	struct dirent *de;
	int own = 0;
	while (d && (de = readdir(d))) {
		int pid = snapshot_pid(de->d_name);
		if (!pid && (!r->vglog || strcmp(de->d_name, strrchr(r->vglog, '/') + 1) != 0))
			continue;
		own |= pid == r->pid;
		char *f = xasprintf("%s/%s", r->tmpdir, de->d_name);
		struct stat st;
		if (stat(f, &st) == 0) {
			if (st.st_mtim.tv_sec > out->st_mtim.tv_sec ||
			    (st.st_mtim.tv_sec == out->st_mtim.tv_sec &&
			     st.st_mtim.tv_nsec > out->st_mtim.tv_nsec))
				out->st_mtim = st.st_mtim;
			out->st_ino += st.st_ino;
			out->st_dev = st.st_dev;
		}
		free(f);
	}
	if (d)
		closedir(d);
	return own ? 0 : -1;
}

const char *rec_source(struct rec *r, int *whole)
{
	/* -o FILE without %p: the processes the program forked wrote
	 * FILE.PID beside it, which are no dumps of its run: the files of
	 * its process by their pid: (run_files_add without whole) */
	*whole = !r->final_seen || !r->cfg.out || strstr(r->cfg.out, "%p");
	if (r->final_seen)
		return r->out;
	struct stat st;
	if (live_stamp_all(r, &st) == 0) {
		r->live_ino = st.st_ino;
		r->live_dev = st.st_dev;
		r->live_mtim = st.st_mtim;
	}
	return r->live;
}

int rec_dumped(struct rec *r, char ***paths)
{
	*paths = NULL;
	if (r->final_seen || r->pid <= 0)
		return 0;
	/* (the tool's own name for its profile, written at the end only) */
	const char *base = r->out_pid ? r->out_pid : r->out;
	struct runfiles dumps, live;
	struct stat st;
	if (stat(base, &st) == 0 || !run_files(base, &dumps))
		return 0;
	/* the snapshot counts from its part: on; a part dumped after it is
	 * counted in it still */
	long part = 0;
	if (run_files(r->live, &live)) {
		char *v = run_header(live.v[0], "part");
		part = v ? strtol(v, NULL, 10) : 0;
		free(v);
		run_files_free(&live);
	}
	size_t bl = strlen(base);
	int n = 0;
	for (int i = 0; i < dumps.n; i++) {
		const char *t = dumps.v[i] + bl; /* ".N", ".N-TID" */
		long k = *t == '.' ? strtol(t + 1, NULL, 10) : 0;
		if (k <= 0 || k >= part)
			continue;
		*paths = xreallocarray(*paths, (size_t)n + 1, sizeof(**paths));
		(*paths)[n++] = xstrdup(dumps.v[i]);
	}
	run_files_free(&dumps);
	return n;
}

int rec_poll(struct rec *r)
{
	if (rec_ended(r)) {
		if (r->final_seen)
			return 0;
		return rec_final(r) == 0;
	}
	struct stat st;
	if (live_stamp_all(r, &st) != 0)
		return 0;
	if (st.st_ino == r->live_ino && st.st_dev == r->live_dev &&
	    st.st_mtim.tv_sec == r->live_mtim.tv_sec && st.st_mtim.tv_nsec == r->live_mtim.tv_nsec)
		return 0;
	return 1;
}

void rec_state(struct rec *r, char *buf, size_t n)
{
	rec_ended(r);
	double s = elapsed(r);
	if (!r->ended) {
		snprintf(buf, n, "running %.0fs%s%s", s, r->callgrind ? " (callgrind)" : "",
			 r->paused ? ", not counting" : "");
		return;
	}
	char how[64];
	describe_end(r, how, sizeof(how));
	snprintf(buf, n, "%s after %.1fs", how, s);
}

const char *const *rec_logs(struct rec *r, int *n)
{
	*n = 2;
	return r->logs;
}

int rec_by_callgrind(const struct rec *r)
{
	return r->callgrind;
}

/* ---- starting the program --------------------------------------------------------------- */

int rec_check_cfg(const struct rec_cfg *c)
{
	struct stat ist;
	if (c->in && (access(c->in, R_OK) != 0 || (stat(c->in, &ist) == 0 && S_ISDIR(ist.st_mode)))) {
		fprintf(stderr, "cgtui: --stdin: %s: %s\n", c->in,
			access(c->in, R_OK) != 0 ? strerror(errno) : "a directory");
		return -1;
	}
	/* where the profile goes: found out now, not after the whole run */
	struct stat ost;
	if (c->out && stat(c->out, &ost) == 0 && S_ISDIR(ost.st_mode)) {
		fprintf(stderr, "cgtui: -o %s: a directory (-o names the profile's file)\n", c->out);
		return -1;
	}
	char *outdir = xstrdup(c->out ? c->out : "./");
	char *slash = strrchr(outdir, '/');
	if (!slash)
		strcpy(outdir, ".");
	else
		slash[slash == outdir] = 0;
	int ok = access(outdir, W_OK | X_OK) == 0;
	if (!ok)
		fprintf(stderr, "cgtui: %s: cannot write the profile there: %s%s\n", outdir,
			strerror(errno), c->out ? "" : " (-o FILE saves it elsewhere)");
	free(outdir);
	return ok ? 0 : -1;
}

struct rec *rec_new(const struct rec_cfg *c)
{
	struct rec *r = xcalloc(1, sizeof(*r));
	r->cfg = *c;
	for (int i = 0; i < c->ntoolargs; i++) /* (the last one given counts) */
		if (strncmp(c->toolargs[i], "--instr-at-start=", 17) == 0)
			r->paused = strcmp(c->toolargs[i] + 17, "no") == 0;
	const char *sm = getenv("CGTUI_STOP_TIMEOUT_MS");
	r->stop_ms = sm && atoi(sm) > 0 ? atoi(sm) : 5000;
	if (c->log)
		r->log = xstrdup(c->log);
	r->pid = -1;
	/* from now on, SIGINT/SIGTERM/SIGHUP stop the program rather than
	 * leave it running (the explorer sets its own meanwhile) */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rec_on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!c->keep_terminal)
		sigaction(SIGINT, &sa, NULL);
	return r;
}

int rec_signalled(void)
{
	return rec_signal;
}

static void add_arg(char ***v, int *n, char *s)
{
	*v = xreallocarray(*v, (size_t)*n + 2, sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* In the child: stdin, stdout/stderr, signals, process group; then exec.
 * An error is written to `errfd` (closed on a successful exec). */
static void child(struct rec *r, char **args, const char *vglib, int errfd)
{
	const struct rec_cfg *c = &r->cfg;
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN,
				    SIGTTOU, SIGCHLD };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	if (!c->keep_terminal && setsid() < 0) /* no terminal at all: /dev/tty fails */
		setpgid(0, 0);
	const char *what = NULL;
	int fd;
	if (!c->keep_terminal || c->in) {
		what = c->in ? c->in : "/dev/null";
		fd = open(what, O_RDONLY);
		if (fd < 0 || dup2(fd, 0) < 0)
			goto fail;
		if (fd > 2)
			close(fd);
	}
	if (!c->keep_terminal) {
		what = r->log;
		fd = open(r->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			goto fail;
		if (fd > 2)
			close(fd);
	}
	if (vglib)
		setenv("VALGRIND_LIB", vglib, 1);
	what = "valgrind";
	execvp(args[0], args);
fail:;
	char msg[512];
	int len = snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));
	if (write(errfd, msg, (size_t)len) < 0)
		_exit(127);
	_exit(127);
}

/* Starts valgrind; -1 with a message on stderr when it cannot. */
int rec_start(struct rec *r, int live, char **prog, int nprog)
{
	const struct rec_cfg *c = &r->cfg;
	char *vglib = find_vglib();
	r->callgrind = !vglib;
	char tmpl[] = "/tmp/cgtui-rec.XXXXXX";
	const char *td = getenv("TMPDIR");
	r->tmpdir = td && *td ? xasprintf("%s/cgtui-rec.XXXXXX", td) : xstrdup(tmpl);
	if (!mkdtemp(r->tmpdir)) {
		fprintf(stderr, "cgtui: cannot make a temporary directory: %s\n", strerror(errno));
		free(vglib);
		return -1;
	}
	r->prog = xstrdup(prog[0]);
	r->vglog = xasprintf("%s/valgrind.log", r->tmpdir);
	r->live = xasprintf("%s/live", r->tmpdir);
	if (r->callgrind) { /* no snapshots: an empty profile until the end */
		FILE *f = fopen(r->live, "w");
		if (f) {
			fprintf(f, "# callgrind format\nversion: 1\ncmd:");
			for (int i = 0; i < nprog; i++) {
				fputc(' ', f);
				for (const char *a = prog[i]; *a; a++)
					fputc(*a == '\n' || *a == '\r' ? ' ' : *a, f);
			}
			fprintf(f, "\nevents: Ir\n");
			fclose(f);
		}
	}

	char **args = NULL;
	int n = 0;
	add_arg(&args, &n, xstrdup("valgrind"));
	add_arg(&args, &n, xstrdup(r->callgrind ? "--tool=callgrind" : "--tool=cgtui"));
	add_arg(&args, &n, xasprintf("--log-file=%s", r->vglog));
	const char *out = c->out ? c->out : "callgrind.out.%p";
	/* -o FILE: processes forked write FILE.PID, the program FILE */
	int has_p = strstr(out, "%p") != NULL;
	add_arg(&args, &n, xasprintf("--%s-out-file=%s%s", r->callgrind ? "callgrind" : "cgtui", out,
				     has_p ? "" : ".%p"));
	/* (a %p: each process its own, the children's too: rec_children) */
	if (!r->callgrind && live) /* nobody reads snapshots otherwise */
		add_arg(&args, &n, xasprintf("--cgtui-live=%s.%%p", r->live));
	for (int i = 0; i < c->ntoolargs; i++)
		/* (callgrind names code without a symbol its own way and
		 * records no contexts nor timeline) */
		if (!r->callgrind || (strncmp(c->toolargs[i], "--unnamed=", 10) != 0 &&
				      strncmp(c->toolargs[i], "--contexts=", 11) != 0 &&
				      strncmp(c->toolargs[i], "--max-contexts=", 15) != 0 &&
				      strncmp(c->toolargs[i], "--timeline", 10) != 0))
			add_arg(&args, &n, xstrdup(c->toolargs[i]));
	for (int i = 0; i < nprog; i++)
		add_arg(&args, &n, xstrdup(prog[i]));

	int ep[2] = { -1, -1 };
	clock_gettime(CLOCK_MONOTONIC, &r->t0);
	fflush(NULL);
	if (pipe2(ep, O_CLOEXEC) < 0) {
		fprintf(stderr, "cgtui: pipe: %s\n", strerror(errno));
		r->pid = -1;
	} else {
		r->pid = fork();
	}
	if (r->pid == 0) {
		/* the log name needs the pid: the child's is the program's */
		if (!c->log)
			r->log = xasprintf("cgtui.log.%d", (int)getpid());
		close(ep[0]);
		child(r, args, vglib, ep[1]);
	}
	if (ep[1] >= 0)
		close(ep[1]);
	int rc = 0;
	if (r->pid < 0) {
		if (ep[0] >= 0)
			fprintf(stderr, "cgtui: fork: %s\n", strerror(errno));
		rc = -1;
	} else {
		if (!c->log) {
			free(r->log);
			r->log = xasprintf("cgtui.log.%d", (int)r->pid);
		}
		if (!r->callgrind) { /* the program's snapshots (Valgrind keeps its pid) */
			free(r->live);
			r->live = xasprintf("%s/live.%d", r->tmpdir, (int)r->pid);
		}
		char msg[512];
		ssize_t len = read(ep[0], msg, sizeof(msg) - 1);
		if (len > 0) {
			msg[len] = 0;
			fprintf(stderr, "cgtui: cannot start the program: %s\n", msg);
			waitpid(r->pid, NULL, 0);
			rc = -1;
		}
	}
	if (ep[0] >= 0)
		close(ep[0]);
	/* the profile's name: %p is the program's pid (Valgrind runs in the
	 * process started here) */
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)r->pid);
	size_t cap = strlen(out) * 2 + 64, k = 0;
	r->out = xcalloc(cap, 1);
	for (const char *s = out; *s && k + 32 < cap; s++) {
		if (s[0] == '%' && s[1] == 'p') {
			k += (size_t)snprintf(r->out + k, cap - k, "%s", pid);
			s++;
		} else {
			r->out[k++] = *s;
		}
	}
	if (!has_p)
		r->out_pid = xasprintf("%s.%s", r->out, pid);
	r->logs[0] = c->keep_terminal ? NULL : r->log; /* --record: it went to the terminal */
	r->logs[1] = r->vglog;
	for (int i = 0; i < n; i++)
		free(args[i]);
	free(args);
	free(vglib);
	if (rc < 0)
		r->pid = -1; /* (reaped, or never started) */
	return rc;
}

void rec_free(struct rec *r)
{
	if (r->ctl_pid) { /* a control still waiting for its answer */
		kill(r->ctl_pid, SIGTERM);
		waitpid(r->ctl_pid, NULL, 0);
	}
	FILE *in = r->vglog ? fopen(r->vglog, "r") : NULL;
	FILE *out = in && r->log ? fopen(r->log, "a") : NULL;
	if (in && out) {
		char buf[8192];
		size_t n;
		fprintf(out, "==== Valgrind ====\n");
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, out);
	}
	if (out)
		fclose(out);
	if (in)
		fclose(in);
	/* the temporary directory is ours: snapshots (per thread too) and
	 * Valgrind's log */
	DIR *d = r->tmpdir ? opendir(r->tmpdir) : NULL;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *f = xasprintf("%s/%s", r->tmpdir, de->d_name);
		unlink(f);
		free(f);
	}
	if (d)
		closedir(d);
	if (r->tmpdir)
		rmdir(r->tmpdir);
	free(r->ctl_out);
	free(r->tmpdir);
	free(r->live);
	free(r->vglog);
	free(r->out);
	free(r->out_pid);
	free(r->prog);
	free(r->log);
	free(r);
}

int rec_wait(struct rec *r)
{
	struct sigaction sa, oint, oterm, ohup, oquit;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rec_on_signal;
	sigaction(SIGTERM, &sa, &oterm);
	sigaction(SIGHUP, &sa, &ohup);
	if (r->cfg.keep_terminal) /* the program has the terminal: Ctrl-C is its */
		sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGQUIT, &sa, &oquit);
	while (!rec_ended(r)) {
		if (rec_signal) {
			rec_stop(r);
			break;
		}
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	sigaction(SIGTERM, &oterm, NULL);
	sigaction(SIGHUP, &ohup, NULL);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	return rec_signal;
}

int rec_wait_first(struct rec *r)
{
	struct stat st = { 0 };
	struct sigaction sa, old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rec_on_signal;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	while (!r->callgrind && !rec_ended(r) && live_stamp_all(r, &st) != 0 && !rec_signal) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (rec_signal) /* before there was anything to show */
		rec_stop(r);
	return rec_signal;
}

/* Nothing recorded: says so, with the end of Valgrind's messages (a bad
 * option, a program Valgrind cannot run), which go to the program's log
 * until Valgrind opens its own. */
void rec_no_profile(const struct rec *r)
{
	fprintf(stderr, "cgtui: no profile was written (the program's output: %s)\n", r->log);
	for (int k = 0; k < 2; k++) {
		FILE *f = r->logs[k] ? fopen(r->logs[k], "r") : NULL;
		if (!f)
			continue;
		char line[512], last[6][512];
		int n = 0;
		while (fgets(line, sizeof(line), f)) {
			if (strspn(line, "=-0123456789 \n") == strlen(line))
				continue; /* "==123== " alone */
			memcpy(last[n % 6], line, sizeof(line));
			n++;
		}
		fclose(f);
		for (int i = n > 6 ? n - 6 : 0; i < n; i++)
			fprintf(stderr, "  %s%s", last[i % 6], strchr(last[i % 6], '\n') ? "" : "\n");
	}
	/* a script that ran its program with exec (pyenv's, rbenv's and
	 * asdf's shims do) before the tool wrote anything: Valgrind follows
	 * no exec by default, and the tool never reached its end */
	char *script = r->prog && r->ended && WIFEXITED(r->status) ? rec_script(r->prog) : NULL;
	if (script)
		fprintf(stderr,
			"cgtui: %s is a script (#!): if it runs its program with exec, as\n"
			"  version managers' shims do, record that program itself, or add\n"
			"  --trace-children=yes (which follows every exec)\n",
			script);
	free(script);
}

/* A child's profile (path, malloc'ed) and its process added to the lists
 * of *n. */
static void add_child(char ***paths, int **pids, int *n, int pid, char *path)
{
	*paths = xreallocarray(*paths, (size_t)*n + 1, sizeof(**paths));
	*pids = xreallocarray(*pids, (size_t)*n + 1, sizeof(**pids));
	(*paths)[*n] = path;
	(*pids)[(*n)++] = pid;
}

int rec_children(const struct rec *r, char ***paths)
{
	*paths = NULL;
	int n = 0, *pids = NULL;
	FILE *f = r->vglog ? fopen(r->vglog, "r") : NULL;
	char cwd[4096], line[4096];
	size_t cl = getcwd(cwd, sizeof(cwd)) ? strlen(cwd) : 0;
	while (f && fgets(line, sizeof(line), f)) {
		int pid, off = 0;
		if (sscanf(line, "==%d== profile: %n", &pid, &off) != 1 || !off || pid == r->pid)
			continue;
		line[strcspn(line, "\n")] = 0;
		const char *path = line + off;
		if (cl > 1 && strncmp(path, cwd, cl) == 0 && path[cl] == '/')
			path += cl + 1;
		add_child(paths, &pids, &n, pid, xstrdup(path));
	}
	if (f)
		fclose(f);
	/* while the program runs, the children without a profile yet: their
	 * last snapshot (the tool writes one per process: --cgtui-live has a
	 * %p), once it is whole (renamed from .tmp) */
	DIR *d = !r->ended && !r->callgrind && r->tmpdir ? opendir(r->tmpdir) : NULL;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		int pid = snapshot_pid(de->d_name), seen = pid == r->pid;
		for (int i = 0; i < n && pid && !seen; i++)
			seen = pids[i] == pid;
		if (!pid || seen)
			continue;
		add_child(paths, &pids, &n, pid, xasprintf("%s/live.%d", r->tmpdir, pid));
	}
	if (d)
		closedir(d);
	free(pids);
	return n;
}

/* "; its children's: A, B and 3 more", or "". */
static void child_profiles(const struct rec *r, char *buf, size_t n)
{
	buf[0] = 0;
	char **v;
	int nv = rec_children(r, &v);
	size_t k = 0;
	int shown = 0, more = 0;
	for (int i = 0; i < nv; i++) {
		if (shown == 3 || k + strlen(v[i]) + 32 >= n)
			more++;
		else
			k += (size_t)snprintf(buf + k, n - k, "%s%s", shown++ ? ", " : "; its children's: ",
					      v[i]);
		free(v[i]);
	}
	free(v);
	if (more && k + 24 < n)
		snprintf(buf + k, n - k, " and %d more", more);
}

/* The tool's warnings in Valgrind's log ("==PID== WHERE: warning: ..."; a
 * cache model it simulates otherwise than asked, say), said on stderr:
 * the log is kept off the screen. */
static void tool_warnings(const struct rec *r)
{
	FILE *f = r->vglog && !r->callgrind ? fopen(r->vglog, "r") : NULL;
	char line[1024];
	int n = 0;
	while (f && fgets(line, sizeof(line), f)) {
		int pid, off = 0;
		if (sscanf(line, "==%d== %n", &pid, &off) != 1 || !off || !strstr(line + off, ": warning: "))
			continue;
		line[strcspn(line, "\n")] = 0;
		if (n++ < 8)
			fprintf(stderr, "cgtui: the tool: %s\n", line + off);
	}
	if (n > 8)
		fprintf(stderr, "cgtui: the tool: %d more warnings in Valgrind's messages\n", n - 8);
	if (f)
		fclose(f);
}

void rec_summary(struct rec *r)
{
	if (r->pid <= 0 || !rec_ended(r))
		return;
	rec_final(r);
	tool_warnings(r);
	if (!written(r->out))
		return;
	char how[64], kids[1024];
	describe_end(r, how, sizeof(how));
	child_profiles(r, kids, sizeof(kids));
	fprintf(stderr, "cgtui: program %s; profile: %s%s%s%s\n", how, r->out, kids,
		r->cfg.keep_terminal ? "" : "; its output: ", r->cfg.keep_terminal ? "" : r->log);
}
