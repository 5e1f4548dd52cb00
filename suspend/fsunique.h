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

/* What fsunique_check() found */
enum fsunique_result {
	FSUNIQUE_ALONE,		/* each is where the next boot looks, on one device */
	FSUNIQUE_COPY,		/* the next boot would not find one alone: the clash names it */
	FSUNIQUE_UNREAD,	/* a device could not be read for want of a reader process:
				 * the clash names it, and why (err) */
};

/* A filesystem the next boot would not find on its own device alone. */
struct fsunique_clash {
	uint32_t index;				/* its record */
	dev_t mounted;				/* the device it is mounted from */
	dev_t devs[FSUNIQUE_DEVS_MAX];		/* the devices that carry it, by content */
	size_t n;
	int err;				/* FSUNIQUE_UNREAD: -errno of pipe() or fork() */
};

enum fsunique_result fsunique_check(const struct torpor_fsrec *fs, uint32_t nr_fs,
		   void (*after_lookup)(const char *what), struct fsunique_clash *ret);

#endif
