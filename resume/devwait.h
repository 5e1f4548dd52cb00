/* SPDX-License-Identifier: GPL-2.0-only */
/* devwait.h - the waits for the devices torpor-resume reads, under one deadline */
#ifndef RESUME_DEVWAIT_H
#define RESUME_DEVWAIT_H

#include <sys/types.h>

/* What a wait for a device found (devwait_device()); a failure is -errno. */
enum devwait_found {
	DEVWAIT_FOUND,			/* one device carries it */
	DEVWAIT_MISSING,		/* none appeared by the deadline */
	DEVWAIT_AMBIGUOUS,		/* several devices carry it */
};

void devwait_start(int seconds);
int devwait_pause(void);
void devwait_reset(void);
int devwait_device(const char *spec, int by_content, int seconds, dev_t *ret_dev);

#endif
