/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * deadline.h - have a child process do what may never return (a read of a
 * dead disk), and take each answer only within a deadline
 *
 * A read of a block device whose I/O never completes (a multipath map queueing
 * with no path, a dead NBD or iSCSI disk) sleeps in the kernel and cannot be
 * interrupted: only a process that does not make that read can go on.  One
 * worker answers question after question (a fork per question would cost
 * more than the reads); the one that misses a deadline is killed, and the next
 * question starts another.
 */
#ifndef CORE_DEADLINE_H
#define CORE_DEADLINE_H

#include <stddef.h>
#include <sys/types.h>

#define DEADLINE_MSG_MAX	4096	/* PIPE_BUF: one write() of it is atomic */

struct deadline_worker {
	/*
	 * run in the child: answers @question (@qlen bytes) in @answer (@alen
	 * bytes, zeroed); must close whatever it opened before it returns
	 */
	void (*fn)(const void *question, void *answer);
	size_t qlen, alen;		/* each 1..DEADLINE_MSG_MAX */
	pid_t (*do_fork)(void);		/* fork(), or NULL for it; tests make it fail */
	pid_t pid;			/* the child, 0 when none runs */
	int to, from;			/* its question and answer pipes */
};

/**
 * deadline_ask() - have @w's child answer @question within @ms
 * @w: fn, qlen and alen set, pid 0 before the first question
 * @question: @w->qlen bytes
 * @answer: @w->alen bytes, written on success only
 * @ms: the deadline, in milliseconds
 * @ret_pid: on -ETIMEDOUT, the child that was killed but has not ended yet
 *           (asleep in the kernel until its I/O ends), for deadline_reap();
 *           0 when it was reaped.  Untouched otherwise.
 *
 * Starts the child when none runs.  It is never waited for without a bound:
 * one that does not answer in time is killed with SIGKILL, and left when it
 * does not end at once.
 * Return: 0; -ETIMEDOUT; -EIO when the child ended without an answer;
 * -EINVAL for bad sizes; -errno from pipe() or fork().
 */
int deadline_ask(struct deadline_worker *w, const void *question, void *answer,
		 unsigned int ms, pid_t *ret_pid);

/**
 * deadline_stop() - end @w's child, if one runs
 * @w: as deadline_ask() left it; pid is 0 afterwards
 *
 * An idle child leaves when its question pipe closes, and is reaped.
 */
void deadline_stop(struct deadline_worker *w);

/**
 * deadline_reap() - reap a child deadline_ask() left behind, without waiting
 * @pid: from deadline_ask()'s @ret_pid
 *
 * Return: 1 when it has ended (reaped now, or by someone else), 0 when it lives on.
 */
int deadline_reap(pid_t pid);

#endif
