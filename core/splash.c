// SPDX-License-Identifier: GPL-2.0-only
/*
 * splash.c - plymouth's client run in the background, always reaped
 *
 * The child takes /dev/null for its standard streams and closes every other
 * descriptor before it runs the client, with the signals reset.  Only the
 * client started here is waited for, by its PID, so no other child
 * (torpor-resume's read-ahead process) is reaped by accident, and every wait
 * is bounded.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "splash.h"

static const char default_dirs[] = "/bin:/usr/bin:/sbin:/usr/sbin";

static const char *find_client(const char *dirs, char *buf, size_t len)
{
	const char *p = dirs, *end;
	size_t n;

	while (*p) {
		end = strchr(p, ':');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n && n + sizeof("/plymouth") <= len) {
			memcpy(buf, p, n);
			memcpy(buf + n, "/plymouth", sizeof("/plymouth"));
			if (access(buf, X_OK) == 0)
				return buf;
		}
		if (!end)
			break;
		p = end + 1;
	}
	return NULL;
}

/*
 * vfork(): no copy of our page tables, so nothing of ours turns copy-on-write
 * (both programs lock their memory, and torpor-suspend must not fault after
 * its snapshot).  The child only makes system calls on its own stack before
 * execv(): the standard streams to /dev/null, every other descriptor closed
 * (a pipe of the read-ahead process must not live on in a stuck client), and
 * the signals as a new program expects them (torpor blocks or ignores some).
 */
static pid_t run(const char *bin, char *const argv[])
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP,
				    SIGTTIN, SIGTTOU, SIGCHLD };
	sigset_t none;
	pid_t pid;
	int fd, i;

	pid = vfork();
	if (pid != 0)
		return pid < 0 ? -errno : pid;
	for (i = 0; i < (int)(sizeof(sigs) / sizeof(sigs[0])); i++)
		signal(sigs[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	for (i = 3; i < 1024; i++)
		close(i);
	execv(bin, argv);
	_exit(127);
}

/* Has @pid ended?  1 (reaped, its status in @status), 0 not yet, -errno */
static int ended(pid_t pid, int *status)
{
	pid_t r;

	do
		r = waitpid(pid, status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == pid)
		return 1;
	return r < 0 ? -errno : 0;
}

/* Poll @pid for @timeout_ms; returns as ended() */
static int poll_end(pid_t pid, int *status, int timeout_ms)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	int waited = 0, r;

	for (;;) {
		r = ended(pid, status);
		if (r != 0 || waited >= timeout_ms)
			return r;
		nanosleep(&ts, NULL);
		waited += 5;
	}
}

/*
 * Wait for @pid at most @timeout_ms, then kill it and wait as long again (a
 * client stuck in the kernel may not die at once: it is then left, and the
 * freezer or the boot deals with it).  Returns its status or -errno.
 */
static int reap(pid_t pid, int timeout_ms)
{
	int status, r;

	r = poll_end(pid, &status, timeout_ms);
	if (r > 0)
		return status;
	if (r < 0)
		return r;
	kill(pid, SIGKILL);
	(void)poll_end(pid, &status, timeout_ms);
	return -ETIMEDOUT;
}

static char path_buf[256];

int splash_open(struct splash *s, const char *dirs, int timeout_ms)
{
	char *argv[] = { "plymouth", "--ping", NULL };
	pid_t pid;
	int st;

	memset(s, 0, sizeof(*s));
	if (!find_client(dirs ? dirs : default_dirs, path_buf, sizeof(path_buf)))
		return 0;
	pid = run(path_buf, argv);
	if (pid < 0)
		return (int)pid;
	st = reap(pid, timeout_ms);
	if (st < 0)
		return st == -ETIMEDOUT ? 0 : st;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 0;
	s->bin = path_buf;
	return 1;
}

/* Has the last client ended?  1 yes (reaped, or not ours to wait for), 0 not yet */
static int client_done(struct splash *s)
{
	int status;

	if (!s->pid || ended(s->pid, &status) != 0) {
		s->pid = 0;
		return 1;
	}
	return 0;
}

static int show(struct splash *s, const char *verb, const char *text)
{
	char arg[sizeof(s->text) + 8];
	char *argv[] = { "plymouth", (char *)verb, arg, NULL };
	pid_t pid;

	snprintf(arg, sizeof(arg), "--text=%s", text);
	pid = run(s->bin, argv);
	if (pid < 0)
		return (int)pid;
	s->pid = pid;
	return 0;
}

int splash_message(struct splash *s, const char *text)
{
	int r;

	if (!s->bin)
		return 0;
	if (!client_done(s))
		return -EBUSY;
	/* plymouth shows the newest message: take the last one off first */
	if (s->text[0]) {
		r = show(s, "hide-message", s->text);
		if (r < 0)
			return r;
		(void)reap(s->pid, s->hide_ms ? s->hide_ms : 200);
		s->pid = 0;
	}
	snprintf(s->text, sizeof(s->text), "%s", text);
	return show(s, "display-message", s->text);
}

void splash_wait(struct splash *s, int timeout_ms)
{
	if (s->pid) {
		(void)reap(s->pid, timeout_ms);
		s->pid = 0;
	}
}

void splash_close(struct splash *s, int timeout_ms)
{
	if (!s->bin)
		return;
	if (s->pid) {
		kill(s->pid, SIGKILL);
		(void)reap(s->pid, timeout_ms);
		s->pid = 0;
	}
	if (s->text[0] && show(s, "hide-message", s->text) == 0) {
		(void)reap(s->pid, timeout_ms);
		s->pid = 0;
	}
	s->bin = NULL;
	s->text[0] = '\0';
}
