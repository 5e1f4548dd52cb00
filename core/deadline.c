// SPDX-License-Identifier: GPL-2.0-only
/*
 * deadline.c - a worker process whose answers are awaited for a bounded time
 *
 * Questions and answers are fixed-size messages of at most PIPE_BUF bytes,
 * each one write() (atomic: all or nothing) on a pipe, one question at a time.
 * The parent polls the answer pipe until the deadline, and on timeout kills
 * the child; a child asleep in uninterruptible I/O dies only when that I/O
 * ends, so it is not waited for: deadline_reap() looks again later, never
 * blocking.  An idle child blocks in read(), so closing its question pipe ends
 * it at once.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "deadline.h"
#include "decimal.h"
#include "wallclock.h"

/*
 * Where /proc/self/fd cannot be listed, the child closes every fd below this.
 * klibc has neither getrlimit() nor close_range(); neither program raises its
 * RLIMIT_NOFILE, whose default soft limit is 1024, so an fd above this one is
 * not expected; 65536 close() calls of no fd cost some 20 ms.
 */
#define FD_SCAN_MAX	65536

/* Wait until @fd is readable (or its writer is gone) for at most @ms: 1, 0 on timeout, -errno. */
static int wait_readable(int fd, unsigned int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long long left = ms, t0, spent;
	int n;

	for (;;) {
		t0 = wallclock_ms();
		n = poll(&p, 1, (int)left);
		if (n > 0)
			return 1;
		if (n == 0)
			return 0;
		if (errno != EINTR)
			return -errno;
		/* a clock stepped back counts 1 ms: every signal still spends some time */
		spent = wallclock_ms() - t0;
		left -= spent > 0 ? spent : 1;
		if (left <= 0)
			return 0;
	}
}

/* Reap @pid without waiting; kernel-doc in deadline.h. */
int deadline_reap(pid_t pid)
{
	pid_t r;
	int st;

	do
		r = waitpid(pid, &st, WNOHANG);
	while (r < 0 && errno == EINTR);
	/* ECHILD: reaped already (SIGCHLD ignored, or someone waited for any child) */
	return r == pid || (r < 0 && errno == ECHILD);
}

static ssize_t read_msg(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/*
 * In the child: close every fd but 0-2, @in and @out.  A child killed while
 * asleep in the kernel lives on until its I/O ends, holding what it holds: it
 * must not keep the caller's files open (the swap device, opened for writing).
 */
static void close_inherited(int in, int out)
{
	unsigned long long v;
	struct dirent *de;
	DIR *d;
	int fd;

	d = opendir("/proc/self/fd");
	if (!d) {
		for (fd = 3; fd < FD_SCAN_MAX; fd++)
			if (fd != in && fd != out)
				(void)close(fd);
		return;
	}
	/* closing while listing is fine: the listing is of numbers, not of the files */
	while ((de = readdir(d))) {
		if (decimal_parse(de->d_name, strlen(de->d_name), INT_MAX, &v) < 0)
			continue;
		fd = (int)v;
		if (fd > 2 && fd != in && fd != out && fd != dirfd(d))
			(void)close(fd);
	}
	closedir(d);
}

/* The child: answer until the question pipe closes. */
static void serve(const struct deadline_worker *w, int in, int out)
{
	char q[DEADLINE_MSG_MAX], a[DEADLINE_MSG_MAX];
	ssize_t n;

	for (;;) {
		if (read_msg(in, q, w->qlen) != (ssize_t)w->qlen)
			_exit(0);
		memset(a, 0, w->alen);
		w->fn(q, a);
		do
			n = write(out, a, w->alen);
		while (n < 0 && errno == EINTR);
		if (n != (ssize_t)w->alen)
			_exit(1);
	}
}

static int start(struct deadline_worker *w)
{
	int q[2], a[2], r;

	if (pipe(q) < 0)
		return -errno;
	if (pipe(a) < 0) {
		r = -errno;
		close(q[0]);
		close(q[1]);
		return r;
	}
	/* a program started later (plymouth's client) must not hold them */
	(void)fcntl(q[1], F_SETFD, FD_CLOEXEC);
	(void)fcntl(a[0], F_SETFD, FD_CLOEXEC);
	w->pid = w->do_fork ? w->do_fork() : fork();
	if (w->pid == 0) {
		close_inherited(q[0], a[1]);
		serve(w, q[0], a[1]);
	}
	r = w->pid < 0 ? -errno : 0;
	close(q[0]);
	close(a[1]);
	if (r < 0) {
		w->pid = 0;
		close(q[1]);
		close(a[0]);
		return r;
	}
	w->to = q[1];
	w->from = a[0];
	return 0;
}

/* Close the pipes; reap the child if it has ended, else return its pid (0 when reaped). */
static pid_t drop(struct deadline_worker *w)
{
	pid_t pid = w->pid;

	close(w->to);
	close(w->from);
	w->pid = 0;
	return deadline_reap(pid) ? 0 : pid;
}

/* Close the pipes of a child that closed its own (it is exiting) and reap it. */
static void drop_ended(struct deadline_worker *w)
{
	int st;

	if (w->to >= 0)
		close(w->to);
	close(w->from);
	while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
}

/* Write the question, without SIGPIPE when the child is gone (then -EPIPE). */
static int send_question(struct deadline_worker *w, const void *question)
{
	struct sigaction ign, old;
	ssize_t n;
	int r;

	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	if (sigaction(SIGPIPE, &ign, &old) < 0)
		return -errno;
	do
		n = write(w->to, question, w->qlen);
	while (n < 0 && errno == EINTR);
	r = n == (ssize_t)w->qlen ? 0 : n < 0 ? -errno : -EIO;
	(void)sigaction(SIGPIPE, &old, NULL);
	return r;
}

/* An answer within the deadline; kernel-doc in deadline.h. */
int deadline_ask(struct deadline_worker *w, const void *question, void *answer,
		 unsigned int ms, pid_t *ret_pid)
{
	char buf[DEADLINE_MSG_MAX];
	ssize_t n;
	int r;

	if (!w->qlen || w->qlen > DEADLINE_MSG_MAX || !w->alen || w->alen > DEADLINE_MSG_MAX ||
	    ms > INT_MAX)
		return -EINVAL;
	if (!w->pid) {
		r = start(w);
		if (r < 0)
			return r;
	}
	r = send_question(w, question);
	if (r < 0) {
		/* EPIPE: it closed its end, so it is exiting; nothing else fails here */
		drop_ended(w);
		return -EIO;
	}
	r = wait_readable(w->from, ms);
	if (r > 0) {
		n = read_msg(w->from, buf, w->alen);
		if (n == (ssize_t)w->alen) {
			memcpy(answer, buf, w->alen);
			return 0;
		}
		/* end of file: it exited without an answer (a crash) */
		drop_ended(w);
		return -EIO;
	}
	kill(w->pid, SIGKILL);
	*ret_pid = drop(w);
	return -ETIMEDOUT;
}

/* End the worker; kernel-doc in deadline.h. */
void deadline_stop(struct deadline_worker *w)
{
	if (!w->pid)
		return;
	close(w->to);
	w->to = -1;
	/* idle in read(), it leaves now, which closes its end of the answer pipe */
	if (wait_readable(w->from, 1000) > 0) {
		drop_ended(w);
		return;
	}
	kill(w->pid, SIGKILL);
	close(w->from);
	(void)deadline_reap(w->pid);
	w->pid = 0;
}
