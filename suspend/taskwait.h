/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * taskwait.h - see a joined thread gone from the kernel, before the thaw
 *
 * pthread_join() returns once the thread has left user space (the kernel
 * clears its tid word on the way out), a moment before the kernel releases
 * the task.  The freeze marks the threads we create after it (PF_SUSPEND_TASK,
 * see packpool.h), and the thaw only clears that mark on the thread that
 * thaws: the writer waits until each of its threads is gone from
 * /proc/self/task first.
 */
#ifndef SUSPEND_TASKWAIT_H
#define SUSPEND_TASKWAIT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int task_start(pthread_t *ret_thread, void *stack, size_t stack_bytes, void *(*fn)(void *),
	       void *arg);
pid_t task_self(void);
int task_wait_released(pid_t tid, int ms);

#endif
