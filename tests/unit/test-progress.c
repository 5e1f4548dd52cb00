// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-progress.c - the progress line (core/progress.c), the live line on a
 * terminal (msg_live in core/msg.c, through a pseudo-terminal) and plymouth's
 * client (core/splash.c) against fake plymouth programs: one that answers and
 * logs its arguments, one whose daemon is not there, one that hangs.
 */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msg.h"
#include "progress.h"
#include "splash.h"
#include "tap.h"

#define MiB (1ULL << 20)

static long long now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void test_lines(void)
{
	struct progress p;
	char buf[160];
	int n, pct, lines;

	/* not live: a line at 0%, then one per ten per cent, and 100% */
	progress_start(&p, "saving image", 0, 1000);
	lines = 0;
	for (pct = 0; pct <= 100; pct++)
		lines += progress_line(&p, 1000 * MiB * pct / 100, 1000 * MiB, 1000 + pct * 10,
				       buf, sizeof(buf));
	tap_ok(lines == 11, "progress: 11 lines from 0 to 100%% in 1%% steps, not live (%d)", lines);
	tap_ok(!strcmp(buf, "saving image: 100% (1000 of 1000 MiB, 1000 MiB/s)"),
	       "progress: the last line says percent, MiB of the total and MiB/s ('%s')", buf);
	n = progress_line(&p, 1000 * MiB, 1000 * MiB, 5000, buf, sizeof(buf));
	tap_ok(n == 0, "progress: 100%% is said once");

	/* live: throttled to PROGRESS_LIVE_MS, the first and the last always */
	progress_start(&p, "loading image", 1, 0);
	lines = 0;
	for (pct = 0; pct <= 100; pct++)
		lines += progress_line(&p, 100 * MiB * pct / 100, 100 * MiB, pct * 50,
				       buf, sizeof(buf));
	/* 50 ms a per cent: every fifth per cent is 250 ms on */
	tap_ok(lines == 21, "progress: live, a line each %d ms: 21 lines over 5 s (%d)",
	       PROGRESS_LIVE_MS, lines);
	tap_ok(!strcmp(buf, "loading image: 100% (100 of 100 MiB, 20 MiB/s)"),
	       "progress: the live line's MiB/s over the whole run ('%s')", buf);

	/* odd totals: not a whole MiB, zero, done past the total, time not moving */
	progress_start(&p, "x", 0, 0);
	progress_line(&p, 0, 3 * MiB + 1, 0, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "x: 0% (0 of 4 MiB, 0 MiB/s)"),
	       "progress: the total rounded up to a MiB, no rate at 0 ms ('%s')", buf);
	tap_ok(progress_pct(5, 0) == 0 && progress_pct(7, 5) == 100 && progress_pct(1, 3) == 33,
	       "progress: percent of nothing is 0, past the total 100");
	progress_start(&p, "x", 0, 0);
	progress_line(&p, 1ULL << 50, 1ULL << 50, 1, buf, sizeof(buf));
	tap_ok(strstr(buf, "(1073741824 of 1073741824 MiB, 1073741824000 MiB/s)") != NULL,
	       "progress: 1 PiB in 1 ms does not overflow ('%s')", buf);
}

/* Run msg_live() and friends in a child whose stderr is a pseudo-terminal; return its output */
static int live_output(char *out, size_t len)
{
	int master, n, total = 0;
	pid_t pid = forkpty(&master, NULL, NULL, NULL);

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct termios t;

		tcgetattr(2, &t);
		cfmakeraw(&t);
		tcsetattr(2, TCSANOW, &t);
		msg_live("loading image: %d%%", 5);
		msg_live("loading image: %d%%", 100);
		msg_live("x: %d", 1);
		msg_info("done");
		msg_live("saving: %d", 1);
		msg_live_end();
		msg_live_end();
		msg_info("end");
		_exit(0);
	}
	while (total < (int)len - 1) {
		n = read(master, out + total, len - 1 - total);
		if (n <= 0)
			break;
		total += n;
	}
	out[total] = '\0';
	waitpid(pid, NULL, 0);
	close(master);
	return total;
}

static void test_live(void)
{
	char out[512];
	const char *want = "\rtorpor: loading image: 5%"
			   "\rtorpor: loading image: 100%"
			   "\rtorpor: x: 1               "	/* padded over the 100% line */
			   "\ntorpor: done\n"
			   "\rtorpor: saving: 1"
			   "\ntorpor: end\n";
	int n = live_output(out, sizeof(out));

	tap_ok(n > 0 && !strcmp(out, want),
	       "msg_live: rewritten in place, padded over a longer line, ended by the next "
	       "message or msg_live_end() once (%d bytes)", n);
}

/*
 * msg_set_quiet(): while the image is written to a log file nothing is
 * written there; the errors and notes said meanwhile come out at
 * msg_set_quiet(0) (a hibernation that failed after the freeze says why), the
 * progress and debug lines never.
 */
static void test_quiet(void)
{
	char out[512];
	int p[2], saved, n = 0, r;

	if (pipe(p) < 0 || (saved = dup(2)) < 0) {
		tap_ok(0, "msg_set_quiet: pipe");
		return;
	}
	dup2(p[1], 2);
	msg_set_debug(1);
	msg_info("before");
	msg_set_quiet(1);
	msg_error("failed: %d", 1);
	msg_progress("50%%");
	msg_live("saving: %d", 2);
	msg_debug("detail");
	msg_hint("again");
	r = fcntl(p[0], F_SETFL, O_NONBLOCK);
	n = r == 0 ? (int)read(p[0], out, sizeof(out) - 1) : -2;
	n = n < 0 ? 0 : n;
	out[n] = '\0';
	tap_ok(!strcmp(out, "torpor: before\n"), "msg_set_quiet: nothing written while quiet");
	msg_set_quiet(0);
	msg_set_debug(0);
	n = (int)read(p[0], out, sizeof(out) - 1);
	out[n < 0 ? 0 : n] = '\0';
	tap_ok(!strcmp(out, "torpor: failed: 1\ntorpor: hint: again\n"),
	       "msg_set_quiet: the error and hint come out after, the progress and debug lines "
	       "never ('%s')", out);
	/* more than the buffer holds: the newest lines stay, and a note says so */
	msg_set_quiet(1);
	for (r = 0; r < 200; r++)
		msg_info("line %03d of a long story", r);
	msg_error("the cause");
	msg_set_quiet(0);
	{
		static char all[8192];
		int got = 0;

		while (got < (int)sizeof(all) - 1 &&
		       (n = (int)read(p[0], all + got, sizeof(all) - 1 - got)) > 0)
			got += n;
		all[got] = '\0';
		tap_ok(!strncmp(all, "torpor: (earlier lines not shown)\n", 34) &&
		       got > 34 && strstr(all, "line 199 of") &&
		       !strcmp(all + got - 18, "torpor: the cause\n") && !strstr(all, "line 000 "),
		       "msg_set_quiet: past the buffer the oldest lines go, with a note (%d bytes)",
		       got);
	}
	dup2(saved, 2);
	close(saved);
	close(p[0]);
	close(p[1]);
}

static char dir[64];

/* a fake plymouth: logs its arguments to dir/log; BEHAVIOUR ok, nodaemon or hang */
static void fake_plymouth(const char *behaviour)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/plymouth", dir);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "#!/bin/sh\necho \"$*\" >>%s/log\n", dir);
	if (!strcmp(behaviour, "nodaemon"))
		fprintf(f, "[ \"$1\" = --ping ] && exit 1\n");
	if (!strcmp(behaviour, "state"))
		fprintf(f, "echo \"$(grep -E '^Sig(Blk|Ign)' /proc/$$/status | tr -s '\\t\\n' '  ')"
			"fds $(ls /proc/$$/fd | tr '\\n' ' ')\" >>%s/log\n", dir);
	if (!strcmp(behaviour, "hang"))
		fprintf(f, "exec sleep 30\n");
	fprintf(f, "exit 0\n");
	fclose(f);
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/log", dir);
	unlink(path);
}

static void read_log(char *buf, size_t len)
{
	char path[128];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/log", dir);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

static void test_splash(void)
{
	struct splash s;
	char log[1024], dirs[128];
	long long t0;
	int r;

	snprintf(dir, sizeof(dir), "/tmp/test-progress.XXXXXX");
	if (!mkdtemp(dir)) {
		tap_ok(0, "splash: mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(dirs, sizeof(dirs), "/nonexistent:%s", dir);

	r = splash_open(&s, "/nonexistent", 300);
	tap_ok(r == 0 && !s.bin, "splash: no client, no splash (%d)", r);
	tap_ok(splash_message(&s, "x") == 0, "splash: a message without a splash is nothing");
	splash_close(&s, 100);

	fake_plymouth("nodaemon");
	r = splash_open(&s, dirs, 1000);
	read_log(log, sizeof(log));
	tap_ok(r == 0 && !s.bin && !strcmp(log, "--ping\n"),
	       "splash: the daemon does not answer the ping: no splash (%d, '%s')", r, log);

	fake_plymouth("hang");
	t0 = now_ms();
	r = splash_open(&s, dirs, 200);
	t0 = now_ms() - t0;
	tap_ok(r == 0 && !s.bin && t0 < 2000,
	       "splash: a ping that hangs is given up after its bound (%d, %lld ms)", r, t0);

	fake_plymouth("ok");
	r = splash_open(&s, dirs, 2000);
	s.hide_ms = 5000;	/* a loaded machine may take its time to start the fake client */
	tap_ok(r == 1 && s.bin, "splash: the daemon answers the ping (%d)", r);
	splash_message(&s, "Resuming: 10%");
	splash_wait(&s, 2000);
	r = splash_message(&s, "Resuming: 20%");
	splash_wait(&s, 2000);
	splash_close(&s, 2000);
	read_log(log, sizeof(log));
	tap_ok(r == 0 && !strcmp(log, "--ping\ndisplay-message --text=Resuming: 10%\n"
				 "hide-message --text=Resuming: 10%\n"
				 "display-message --text=Resuming: 20%\n"
				 "hide-message --text=Resuming: 20%\n"),
	       "splash: each message replaces the last, the last is taken off at the close ('%s')",
	       log);
	tap_ok(!s.bin && splash_message(&s, "late") == 0, "splash: closed, it says nothing more");

	/* a client that does not finish: the next message is dropped, the close kills it */
	fake_plymouth("ok");
	r = splash_open(&s, dirs, 2000);
	fake_plymouth("hang");
	splash_message(&s, "one");
	r = splash_message(&s, "two");
	tap_ok(r == -EBUSY, "splash: a message while the last client runs is dropped (%d)", r);
	t0 = now_ms();
	splash_close(&s, 200);
	t0 = now_ms() - t0;
	tap_ok(t0 < 2000 && waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD,
	       "splash: the close kills a stuck client and reaps every one (%lld ms)", t0);
	/* the client starts clean: no signal blocked or ignored, no descriptor of ours */
	{
		sigset_t block, old;
		int p[2], leak = pipe(p);
		char want[32];
		unsigned long long ign_mask;
		const char *ign;

		/* numbers no shell takes for itself */
		if (leak == 0 && (dup2(p[0], 50) < 0 || dup2(p[1], 51) < 0))
			leak = -1;
		if (leak == 0) {
			close(p[0]);
			close(p[1]);
			p[0] = 50;
			p[1] = 51;
		}

		sigemptyset(&block);
		sigaddset(&block, SIGTERM);
		sigprocmask(SIG_BLOCK, &block, &old);
		signal(SIGINT, SIG_IGN);
		fake_plymouth("ok");
		r = splash_open(&s, dirs, 2000);
		fake_plymouth("state");
		splash_message(&s, "x");
		splash_wait(&s, 5000);
		s.bin = NULL;
		read_log(log, sizeof(log));
		snprintf(want, sizeof(want), " %d ", leak == 0 ? p[1] : 999);
		/* ours: HUP INT QUIT PIPE TERM (others the caller ignored stay ignored, as nohup's) */
		ign = strstr(log, "SigIgn: ");
		ign_mask = ign ? strtoull(ign + 8, NULL, 16) : ~0ULL;
		tap_ok(r == 1 && leak == 0 && strstr(log, "SigBlk: 0000000000000000 ") &&
		       !(ign_mask & ((1ULL << (SIGHUP - 1)) | (1ULL << (SIGINT - 1)) |
				     (1ULL << (SIGQUIT - 1)) | (1ULL << (SIGPIPE - 1)) |
				     (1ULL << (SIGTERM - 1)))) && strstr(log, "fds 0 1 ") &&
		       !strstr(log, " 50 ") && !strstr(log, want),
		       "splash: the client runs with no signal blocked, none of torpor's ignored, and "
		       "only the standard streams of ours ('%s')", log);
		sigprocmask(SIG_SETMASK, &old, NULL);
		signal(SIGINT, SIG_DFL);
		if (leak == 0) {
			close(p[0]);
			close(p[1]);
		}
	}
	fake_plymouth("ok");
	snprintf(log, sizeof(log), "rm -rf '%s'", dir);
	if (system(log) != 0)
		tap_ok(0, "splash: cleaning up %s", dir);
}

int main(void)
{
	test_lines();
	test_live();
	test_quiet();
	test_splash();
	return tap_done();
}
