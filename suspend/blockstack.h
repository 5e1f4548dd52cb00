/* SPDX-License-Identifier: GPL-2.0-only */
/* blockstack.h - which block devices answer while the system is frozen */
#ifndef SUSPEND_BLOCKSTACK_H
#define SUSPEND_BLOCKSTACK_H

#include <stddef.h>
#include <sys/types.h>

/* What a stack of block devices is made of, the worst part deciding. */
enum blockstack_kind {
	BLOCKSTACK_ANSWERS,	/* the kernel's drivers alone: readable while frozen and at boot */
	BLOCKSTACK_IN_MEMORY,	/* zram, brd: answers, but its content lives in RAM only */
	BLOCKSTACK_STOPS,	/* loop, nbd, ublk, rbd, zloop: stops with the freeze */
};

int blockstack_classify(const char *sysroot, const char *name, char *via, size_t len);
int blockstack_of(dev_t dev, char *via, size_t len);
int blockstack_has_md(const char *sysroot, const char *name);
int blockstack_of_has_md(dev_t dev);

#endif
