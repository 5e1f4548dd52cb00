/* SPDX-License-Identifier: GPL-2.0-only */
/* mounts.h - the mount stamps of the local filesystems mounted while hibernating (mounts.c) */
#ifndef SUSPEND_MOUNTS_H
#define SUSPEND_MOUNTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "image.h"

/* One filesystem, named for the user by its type and (first) mount point. */
struct mounts_fs {
	char *fstype;
	char *where;
	dev_t dev;		/* unstamped: the source device; sync lists: the filesystem's st_dev */
	int fd;			/* sync list: its mount point, open; -1 elsewhere */
	int err;		/* why not stamped or synced (-EXDEV: hidden, -EREMOTEIO: see via) */
	char *via;		/* -EREMOTEIO: the device under it that does not answer while
				   frozen, "loop0 (/srv/disk.img)"; else NULL */
};

struct mounts {
	struct torpor_fsrec *fs;	/* stamps, one per block device (malloc()ed) */
	uint32_t nr_fs;
	struct mounts_fs *unstamped;	/* read-write on a block device, but no stamp we know */
	uint32_t nr_unstamped;
	struct mounts_fs *sync;		/* to syncfs() after the freeze */
	uint32_t nr_sync;
	struct mounts_fs *unsynced;	/* should be synced, but the mount point did not open */
	uint32_t nr_unsynced;
	dev_t *seen;			/* every block device under a mount of this namespace */
	uint32_t nr_seen;
	unsigned int bad_line;		/* the first mountinfo line that did not parse, or 0 */
};

/* where the kernel lists the mounted ext4, xfs and btrfs, whatever the namespace */
#define MOUNTS_SYSFS_FS	"/sys/fs"

struct mountinfo_entry;

int mounts_collect(struct mounts *m);
void mounts_release(struct mounts *m);

/* for mountsync.c, a step of mounts_collect(): */

/* Is @fstype FUSE (fuse, fuseblk, fuse.*)? */
int mounts_is_fuse(const char *fstype);
/* The index of @dev in @tab (@n entries), or -1. */
int mounts_find(const struct mounts_fs *tab, uint32_t n, dev_t dev);
/* Append the filesystem of @e to @tab, with @dev, @fd, @err and a copy of @via; 0 or -ENOMEM. */
int mounts_add(struct mounts_fs **tab, uint32_t *n, const struct mountinfo_entry *e, dev_t dev,
	       int fd, int err, const char *via);
/*
 * What the filesystem of @e, on block device @dev, is built on, all of its
 * devices counted: an enum blockstack_kind, @via naming the worst part, or -errno.
 */
int mounts_fs_stack(const struct mountinfo_entry *e, dev_t dev, char *via, size_t len);

/* mounts_foreign(), mounts_check_sysfs(), mounts_chrooted(), mounts_sync(): for the callers */
#include "foreignfs.h"
#include "mountsync.h"

#endif
