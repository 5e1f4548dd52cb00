// SPDX-License-Identifier: GPL-2.0-only
/*
 * devwait.c - the waits for the devices torpor-resume reads, under one deadline
 *
 * One deadline for every device torpor-resume waits for: the resume device and
 * then each filesystem the image recorded share the @seconds given to the first
 * wait (torpor.wait=), so that missing disks cost the boot that much at most.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "devname.h"
#include "devwait.h"
#include "skipsay.h"
#include "wallclock.h"

static long long wait_deadline;

/**
 * devwait_start() - start the shared deadline, @seconds from now
 *
 * Only the first wait starts it: a later one shares what is left of it.
 */
void devwait_start(int seconds)
{
	if (!wait_deadline)
		wait_deadline = wallclock_ms() + (long long)seconds * 1000;
}

/**
 * devwait_pause() - wait a little before looking again
 * Return: 1 after a pause of 100 ms, 0 at once when the deadline has passed.
 */
int devwait_pause(void)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	if (wallclock_ms() >= wait_deadline)
		return 0;
	nanosleep(&ts, NULL);
	return 1;
}

/* Forget the deadline: for tests, which run torpor-resume many times in one process. */
void devwait_reset(void)
{
	wait_deadline = 0;
}

/**
 * devwait_device() - wait for the device named @spec to appear, until the shared deadline
 * @by_content: @spec is a bare filesystem UUID looked up by content alone
 * @seconds: the deadline, when this wait is the first
 * Return: DEVWAIT_FOUND and *@ret_dev, DEVWAIT_MISSING, DEVWAIT_AMBIGUOUS, or
 * devname_resolve()'s -errno; the devices the lookup skipped are said.
 */
int devwait_device(const char *spec, int by_content, int seconds, dev_t *ret_dev)
{
	char what[300];
	int r;

	devwait_start(seconds);
	for (;;) {
		r = by_content ? devname_resolve_uuid(spec, ret_dev) :
				 devname_resolve(spec, ret_dev);
		if (r != -ENOENT || !devwait_pause())
			break;
	}
	snprintf(what, sizeof(what), by_content ? "filesystem %s" : "resume device '%s'", spec);
	skipsay(what);
	if (r == -ENOENT)
		return DEVWAIT_MISSING;
	if (r == -ENOTUNIQ)
		return DEVWAIT_AMBIGUOUS;
	return r < 0 ? r : DEVWAIT_FOUND;
}
