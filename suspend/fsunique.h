/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fsunique.h - is each stamped filesystem where the next boot will look for it,
 * on one device only?
 */
#ifndef SUSPEND_FSUNIQUE_H
#define SUSPEND_FSUNIQUE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "image.h"

#define FSUNIQUE_DEVS_MAX	8

/* A filesystem the next boot would not find on its own device alone. */
struct fsunique_clash {
	uint32_t index;				/* its record */
	dev_t mounted;				/* the device it is mounted from */
	dev_t devs[FSUNIQUE_DEVS_MAX];		/* the devices that carry it, by content */
	size_t n;
	int err;				/* -ECHILD: -errno of pipe() or fork() */
};

int fsunique_check(const struct torpor_fsrec *fs, uint32_t nr_fs,
		   void (*after_lookup)(const char *what), struct fsunique_clash *ret);

#endif
