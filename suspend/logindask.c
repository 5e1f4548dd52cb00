// SPDX-License-Identifier: GPL-2.0-only
/*
 * logindask.c - torpor-suspend --status: logind's CanHibernate, asked with
 * busctl (systemd's own D-Bus client, there wherever logind is) within a
 * deadline: the child is killed and reaped when it has not answered in time,
 * so --status never waits for a D-Bus that hangs.  Nothing here prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "status.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* busctl @busctl, its stdout on @out, stdin and stderr on /dev/null; pid or -errno */
static pid_t start(const char *busctl, int out, int in)
{
	char timeout[32];
	pid_t pid;

	snprintf(timeout, sizeof(timeout), "--timeout=%ds", 2);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (dup2(out, 1) < 0 || dup2(in, 0) < 0 || dup2(in, 2) < 0)
			_exit(127);
		execlp(busctl, busctl, timeout, "call", "org.freedesktop.login1",
		       "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "CanHibernate",
		       (char *)NULL);
		_exit(errno == ENOENT ? 126 : 127);
	}
	return pid;
}

/* Read @fd into @buf until EOF or @deadline (ms); bytes read, or -ETIMEDOUT */
static ssize_t read_until(int fd, char *buf, size_t len, long long deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;
	long long left;

	for (;;) {
		left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || got + (size_t)n >= len - 1) {
			got += n > 0 ? (size_t)n : 0;
			buf[got] = '\0';
			return (ssize_t)got;
		}
		got += (size_t)n;
	}
}

/* `s "yes"` into "yes"; 0, or -EBADMSG */
static int answer_of(const char *out, char *buf, size_t len)
{
	const char *q;
	size_t n;

	if (strncmp(out, "s \"", 3))
		return -EBADMSG;
	q = strchr(out + 3, '"');
	n = q ? (size_t)(q - out - 3) : 0;
	if (!q || n == 0 || n >= len || strcspn(out + 3, "\\") < n)
		return -EBADMSG;
	memcpy(buf, out + 3, n);
	buf[n] = '\0';
	return 0;
}

/**
 * logind_can_hibernate() - logind's answer to CanHibernate
 * @busctl: the client to run ("busctl", looked up in PATH)
 * @timeout_ms: how long to wait for it, at most
 * @buf: its answer, "yes", "no", "na", "challenge"
 * @len: size of @buf
 *
 * Return: 0; -ENOENT when there is no busctl, -ETIMEDOUT when it did not answer
 * in time (it is killed), -ECONNREFUSED when it failed (no D-Bus, no logind),
 * -EBADMSG for an answer not a string, other -errno.
 */
int logind_can_hibernate(const char *busctl, int timeout_ms, char *buf, size_t len)
{
	int fds[2], null, st = 0, r;
	char out[128];
	long long deadline;
	ssize_t n;
	pid_t pid;

	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return -errno;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		r = -errno;
		close(null);
		return r;
	}
	pid = start(busctl, fds[1], null);
	close(fds[1]);
	close(null);
	if (pid < 0) {
		close(fds[0]);
		return (int)pid;
	}
	deadline = now_ms() + timeout_ms;
	n = read_until(fds[0], out, sizeof(out), deadline);
	close(fds[0]);
	/* its stdout closed: it is ending, but waited for only until the deadline */
	while (n >= 0 && waitpid(pid, &st, WNOHANG) == 0) {
		if (now_ms() >= deadline) {
			n = -ETIMEDOUT;
			break;
		}
		usleep(10000);
	}
	if (n < 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		return (int)n;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 126)
		return -ENOENT;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return -ECONNREFUSED;
	return answer_of(out, buf, len);
}
