// SPDX-License-Identifier: GPL-2.0-only
/* taskwait.c - see a joined thread gone from the kernel (see taskwait.h) */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "taskwait.h"

/**
 * task_start() - start a thread on @stack (allocated before the freeze) with
 * every signal blocked: the abort signals reach the writer's thread only
 * Return: 0, or -errno from pthread_create() (nothing started).
 */
int task_start(pthread_t *ret_thread, void *stack, size_t stack_bytes, void *(*fn)(void *),
	       void *arg)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int r;

	if (pthread_attr_init(&attr))
		return -ENOMEM;
	r = pthread_attr_setstack(&attr, stack, stack_bytes);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (!r)
		r = pthread_create(ret_thread, &attr, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return -r;
}

/* The calling thread's kernel id. */
pid_t task_self(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/**
 * task_wait_released() - wait up to @ms milliseconds until thread @tid of this
 * process is gone from /proc/self/task
 * Return: 0 when gone, or when /proc is not mounted (nothing to look at);
 * -ETIMEDOUT when it is still there.
 */
int task_wait_released(pid_t tid, int ms)
{
	struct timespec tick = { 0, 1000000 };
	char path[64];
	int i;

	if (tid <= 0 || access("/proc/self/task", F_OK) < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d", (int)tid);
	for (i = 0; i < ms; i++) {
		if (access(path, F_OK) < 0 && errno == ENOENT)
			return 0;
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}
