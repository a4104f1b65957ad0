/* control.c -- live control of a recording: Valgrind's monitor commands,
 * which the tool answers as callgrind does ("dump", "zero",
 * "instrumentation on|off", "status"), sent by Valgrind's own vgdb (so they
 * reach callgrind too, when it records instead); from the explorer's keys
 * (rec_control, answered later by rec_notice) or from another terminal
 * (`cgtui --control PID CMD`, rec_control_pid).  vgdb waits for ever when the
 * program ends while it is asked: every control has a deadline.
 * SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "profile/util.h"
#include "record/record.h"
#include "record/record_int.h"

/* ---- live control: Valgrind's monitor commands, through vgdb ------------------------ */

/* cgtui's names of the monitor commands (the tool's and callgrind's) */
static const char *monitor_cmd(const char *what)
{
	static const char *const map[][2] = { { "dump", "dump" },
					      { "zero", "zero" },
					      { "on", "instrumentation on" },
					      { "off", "instrumentation off" },
					      { "status", "status" } };
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(what, map[i][0]) == 0)
			return map[i][1];
	return NULL;
}

/* Starts `vgdb --pid=PID CMD...` (CMD split at spaces) with its output
 * (and its messages) to fd; its process id, or -1. */
static pid_t vgdb_start(pid_t pid, const char *cmd, int fd)
{
	char *words = xstrdup(cmd), *save = NULL;
	char *argv[8];
	int n = 0;
	char prog[] = "vgdb", pidopt[48];
	argv[n++] = prog;
	snprintf(pidopt, sizeof(pidopt), "--pid=%d", (int)pid);
	argv[n++] = pidopt;
	for (char *w = strtok_r(words, " ", &save); w && n < 7; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	fflush(NULL);
	pid_t p = fork();
	if (p == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp("vgdb", argv);
		_exit(127);
	}
	free(words);
	return p;
}

/* How long a control may wait for the program's answer (vgdb waits for
 * ever when the program ended while it was asking): CGTUI_CONTROL_TIMEOUT_MS,
 * 30 s by default (a callgrind dump of a large program takes seconds). */
static int control_timeout_ms(void)
{
	const char *e = getenv("CGTUI_CONTROL_TIMEOUT_MS");
	return e && atoi(e) > 0 ? atoi(e) : 30000;
}

static double since_ms(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) * 1e3 + (double)(now.tv_nsec - t->tv_nsec) / 1e6;
}

/* What vgdb wrote, without its own "sending command" lines: the last line
 * of the answer (or of its complaint), in buf. */
static void vgdb_answer(const char *text, char *buf, size_t n)
{
	buf[0] = 0;
	for (const char *s = text; *s;) {
		size_t len = strcspn(s, "\n");
		if (len && strncmp(s, "sending command", 15) != 0)
			snprintf(buf, n, "%.*s", (int)len, s);
		s += len + (s[len] == '\n');
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = xcalloc(4097, 1);
	if (f) {
		size_t got = fread(buf, 1, 4096, f);
		buf[got] = 0;
		fclose(f);
	}
	return buf;
}

int rec_control(struct rec *r, const char *what, char *msg, size_t n)
{
	if (rec_ended(r)) {
		snprintf(msg, n, "the program has ended");
		return -1;
	}
	if (r->ctl_pid) {
		snprintf(msg, n, "still waiting for the program's answer to %s", r->ctl_what);
		return -1;
	}
	if (!rec_in_path("vgdb")) {
		snprintf(msg, n, "live control needs Valgrind's vgdb (Debian package valgrind)");
		return -1;
	}
	if (strcmp(what, "pause") == 0)
		what = r->paused ? "on" : "off";
	const char *cmd = monitor_cmd(what);
	if (!cmd) {
		snprintf(msg, n, "%s: no such control", what);
		return -1;
	}
	free(r->ctl_out);
	r->ctl_out = xasprintf("%s/control", r->tmpdir);
	int fd = open(r->ctl_out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (r->ctl_pid = vgdb_start(r->pid, cmd, fd)) < 0) {
		snprintf(msg, n, "cannot run vgdb: %s", strerror(errno));
		r->ctl_pid = 0;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &r->ctl_t0);
	r->ctl_what = strcmp(what, "dump") == 0 ? "dump" : strcmp(what, "zero") == 0 ? "zero" :
		      strcmp(what, "on") == 0 ? "on" : "off";
	snprintf(msg, n, "%s", strcmp(what, "dump") == 0 ? "asking for a snapshot ..." :
			       strcmp(what, "zero") == 0 ? "zeroing the counts ..." :
			       strcmp(what, "on") == 0 ? "counting again ..." : "pausing the counting ...");
	return 0;
}

const char *rec_notice(struct rec *r)
{
	int st;
	if (r->ctl_pid && since_ms(&r->ctl_t0) > control_timeout_ms() &&
	    waitpid(r->ctl_pid, &st, WNOHANG) == 0) {
		kill(r->ctl_pid, SIGKILL);
		waitpid(r->ctl_pid, NULL, 0);
		r->ctl_pid = 0;
		snprintf(r->notice, sizeof(r->notice), "the program did not answer within %.1f s",
			 control_timeout_ms() / 1e3);
		r->notice_new = 1;
	}
	if (r->ctl_pid && waitpid(r->ctl_pid, &st, WNOHANG) == r->ctl_pid) {
		r->ctl_pid = 0;
		char *text = slurp(r->ctl_out);
		char answer[200];
		vgdb_answer(text, answer, sizeof(answer));
		free(text);
		int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		if (ok && (!strcmp(r->ctl_what, "on") || !strcmp(r->ctl_what, "off")))
			r->paused = !strcmp(r->ctl_what, "off");
		if (ok)
			snprintf(r->notice, sizeof(r->notice), "%s", answer[0] ? answer : "done");
		else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
			snprintf(r->notice, sizeof(r->notice), "vgdb could not be run");
		else
			snprintf(r->notice, sizeof(r->notice), "the program did not answer (vgdb: %s)",
				 answer[0] ? answer : "failed");
		r->notice_new = 1;
	}
	if (!r->notice_new)
		return NULL;
	r->notice_new = 0;
	return r->notice;
}

int rec_is_control(const char *what)
{
	return monitor_cmd(what) != NULL;
}

int rec_control_pid(long pid, const char *what)
{
	if (!rec_in_path("vgdb")) {
		fprintf(stderr, "cgtui: --control needs Valgrind's vgdb (Debian package valgrind)\n");
		return 2;
	}
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0) {
		fprintf(stderr, "cgtui: pipe: %s\n", strerror(errno));
		return 2;
	}
	pid_t child = vgdb_start((pid_t)pid, monitor_cmd(what), p[1]);
	close(p[1]);
	size_t len = 0, cap = 4096;
	char *text = xcalloc(cap + 1, 1);
	ssize_t got = 0;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int late = 0;
	for (;;) {
		int left = control_timeout_ms() - (int)since_ms(&t0);
		struct pollfd pf = { p[0], POLLIN, 0 };
		int pr = child > 0 && left > 0 ? poll(&pf, 1, left) : 1;
		if (pr < 0 && errno == EINTR)
			continue;
		if (child > 0 && (left <= 0 || pr == 0)) {
			late = 1; /* vgdb still waiting: the program is gone or stuck */
			kill(child, SIGKILL);
			break;
		}
		if ((got = read(p[0], text + len, cap - len)) <= 0) {
			if (got < 0 && errno == EINTR)
				continue;
			break;
		}
		len += (size_t)got;
		if (len == cap) {
			text = xrealloc(text, 2 * cap + 1);
			cap *= 2;
		}
	}
	text[len] = 0;
	close(p[0]);
	int st = 0;
	if (child > 0)
		waitpid(child, &st, 0);
	int ok = child > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
	/* the answer, without vgdb's "sending command" lines */
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");
		if (n && strncmp(s, "sending command", 15) != 0)
			fprintf(ok ? stdout : stderr, "%s%.*s\n", ok ? "" : "cgtui: --control: ", (int)n, s);
		s += n + (s[n] == '\n');
	}
	free(text);
	if (late)
		fprintf(stderr, "cgtui: --control %ld: no answer within %.1f s (CGTUI_CONTROL_TIMEOUT_MS)\n",
			pid, control_timeout_ms() / 1e3);
	else if (!ok)
		fprintf(stderr, "cgtui: --control %ld: no program recorded under Valgrind answered "
				"(is %ld the process id cgtui printed, and still running?)\n", pid, pid);
	return ok ? 0 : 2;
}

