// SPDX-License-Identifier: GPL-2.0-only
/*
 * test-deadline.c - core/deadline.c: a worker process answers question after
 * question; one that never answers (it stands for a read of a dead disk) is
 * killed at the deadline and the next question gets a new worker; one that
 * dies is reported, not waited for; the worker ends with deadline_stop().
 * An alarm stops the whole program should a call wait for ever.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "deadline.h"
#include "tap.h"

enum { ASK_ECHO, ASK_HANG, ASK_DIE, ASK_PID, ASK_FD };

struct q {
	int what;
	int value;
};

struct a {
	int value;
	pid_t pid;
};

static void fn(const void *question, void *answer)
{
	const struct q *q = question;
	struct a *a = answer;

	switch (q->what) {
	case ASK_HANG:
		for (;;)
			pause();
	case ASK_DIE:
		_exit(3);
	case ASK_FD:
		/* 1 when fd @value is open in the worker */
		a->value = fcntl(q->value, F_GETFD) >= 0;
		a->pid = getpid();
		break;
	default:
		a->value = q->value * 2;
		a->pid = getpid();
	}
}

static long long now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void on_alarm(int sig)
{
	static const char msg[] = "not ok - deadline: a call did not return (alarm)\n";

	(void)sig;
	(void)!write(1, msg, sizeof(msg) - 1);
	_exit(1);
}

static int ask(struct deadline_worker *w, int what, int value, struct a *a, pid_t *stuck)
{
	struct q q = { what, value };

	return deadline_ask(w, &q, a, 300, stuck);
}

/*
 * The worker holds none of the caller's files (issue 22 item 10): one killed
 * while asleep in the kernel would keep them open, the swap device among them.
 */
static void test_fds(void)
{
	struct deadline_worker w = { .fn = fn, .qlen = sizeof(struct q), .alen = sizeof(struct a) };
	int fd = open("/dev/null", O_RDONLY), high = -1, to = 1000, i, r;
	struct rlimit rl;
	pid_t stuck = -1;
	struct a a;

	/* a high one too, within the limit: the worker must not stop at the first gap */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur <= (rlim_t)to)
		to = (int)rl.rlim_cur - 1;
	if (fd >= 0 && to > fd)
		high = dup2(fd, to);

	r = ask(&w, ASK_FD, fd, &a, &stuck);
	tap_ok(fd >= 0 && r == 0 && a.value == 0,
	       "deadline: the worker does not hold the caller's fd %d (got %d, %d)", fd, r, a.value);
	r = ask(&w, ASK_FD, high, &a, &stuck);
	tap_ok(high == to && r == 0 && a.value == 0,
	       "deadline: nor its fd %d (got %d, %d)", to, r, a.value);
	for (i = 0; i < 3; i++) {
		r = ask(&w, ASK_FD, i, &a, &stuck);
		tap_ok(r == 0 && a.value == (fcntl(i, F_GETFD) >= 0),
		       "deadline: fd %d, stdin/out/err, stays as it is (got %d, %d)", i, r, a.value);
	}
	deadline_stop(&w);
	if (fd >= 0)
		close(fd);
	if (high >= 0)
		close(high);
}

int main(void)
{
	struct deadline_worker w = { .fn = fn, .qlen = sizeof(struct q), .alen = sizeof(struct a) };
	struct a a, b;
	pid_t stuck = -1, first;
	long long t0, ms;
	int r, st;

	signal(SIGALRM, on_alarm);
	alarm(30);

	r = ask(&w, ASK_ECHO, 21, &a, &stuck);
	tap_ok(r == 0 && a.value == 42 && a.pid == w.pid && w.pid > 0,
	       "deadline: the worker answers (got %d, %d)", r, a.value);
	first = w.pid;
	r = ask(&w, ASK_ECHO, 5, &b, &stuck);
	tap_ok(r == 0 && b.value == 10 && b.pid == first,
	       "deadline: the same worker answers the next question");

	t0 = now_ms();
	r = ask(&w, ASK_HANG, 0, &a, &stuck);
	ms = now_ms() - t0;
	tap_ok(r == -ETIMEDOUT && w.pid == 0, "deadline: no answer: -ETIMEDOUT (got %d)", r);
	tap_ok(ms >= 290 && ms < 10000, "deadline: it waited the deadline, 300 ms (%lld ms)", ms);
	/* a killed process may still be on its way out: reap it without waiting */
	while (stuck > 0 && !deadline_reap(stuck))
		usleep(1000);
	tap_ok(stuck >= 0 && (stuck == 0 || waitpid(first, &st, WNOHANG) < 0),
	       "deadline: the worker that did not answer was killed and reaped");

	r = ask(&w, ASK_ECHO, 1, &a, &stuck);
	tap_ok(r == 0 && a.value == 2 && a.pid != first && a.pid == w.pid,
	       "deadline: the next question starts a new worker");

	first = w.pid;
	r = ask(&w, ASK_DIE, 0, &a, &stuck);
	tap_ok(r == -EIO && w.pid == 0 && waitpid(first, &st, WNOHANG) < 0 && errno == ECHILD,
	       "deadline: a worker that dies without an answer: -EIO, reaped (got %d)", r);
	r = ask(&w, ASK_ECHO, 4, &a, &stuck);
	tap_ok(r == 0 && a.value == 8, "deadline: and a new one answers after it");

	first = w.pid;
	deadline_stop(&w);
	tap_ok(w.pid == 0 && waitpid(first, &st, WNOHANG) < 0 && errno == ECHILD,
	       "deadline: deadline_stop() ends and reaps the worker");
	deadline_stop(&w);
	tap_ok(w.pid == 0, "deadline: deadline_stop() without a worker does nothing");

	test_fds();

	w.alen = DEADLINE_MSG_MAX + 1;
	tap_ok(ask(&w, ASK_ECHO, 1, &a, &stuck) == -EINVAL && w.pid == 0,
	       "deadline: an answer bigger than one atomic pipe write: -EINVAL");
	return tap_done();
}
