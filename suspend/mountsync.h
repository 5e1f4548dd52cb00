/* SPDX-License-Identifier: GPL-2.0-only */
/* mountsync.h - sync the local filesystems after the freeze (mountsync.c) */
#ifndef SUSPEND_MOUNTSYNC_H
#define SUSPEND_MOUNTSYNC_H

#include <stdint.h>
#include <sys/types.h>

struct mounts;
struct mountinfo_entry;

/*
 * mountsync_open() - a step of mounts_collect(): the mount point of @e (on
 * block device @dev when @block) opened into m->sync, or listed in m->unsynced
 * Return: 0 or -ENOMEM.
 */
int mountsync_open(struct mounts *m, const struct mountinfo_entry *e, int block, dev_t dev);
int mounts_sync(const struct mounts *m, uint32_t *ret_failed);

#endif
