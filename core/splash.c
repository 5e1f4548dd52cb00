// SPDX-License-Identifier: GPL-2.0-only
/*
 * splash.c - plymouth's client run in the background, always reaped
 *
 * The child takes /dev/null for its standard streams, and inherits no
 * descriptor of ours that is not close-on-exec (ours are: /dev/snapshot, the
 * devices).  Only the client started here is waited for, by its PID, so no
 * other child (torpor-resume's read-ahead process) is reaped by accident.
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

static pid_t run(const char *bin, char *const argv[])
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid < 0 ? -errno : pid;
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	execv(bin, argv);
	_exit(127);
}

/* Wait for @pid at most @timeout_ms, then kill it.  Returns its status or -errno. */
static int reap(pid_t pid, int timeout_ms)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	int status, waited = 0;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (waited >= timeout_ms)
			break;
		nanosleep(&ts, NULL);
		waited += 5;
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
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

/* Has the last client ended?  1 yes (reaped), 0 not yet */
static int client_done(struct splash *s)
{
	int status;
	pid_t r;

	if (!s->pid)
		return 1;
	do
		r = waitpid(s->pid, &status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 0;
	s->pid = 0;
	return 1;
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
		(void)reap(s->pid, 200);
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
