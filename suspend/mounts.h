/* SPDX-License-Identifier: GPL-2.0-only */
/* mounts.h - the local filesystems mounted while hibernating: their stamps, and syncing them */
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

int mounts_collect(struct mounts *m);
int mounts_check_sysfs(const char *dir);
int mounts_chrooted(const char *root, const char *init_root);
int mounts_foreign(const struct mounts *m, char *name, size_t len, const char **ret_type);
int mounts_sync(const struct mounts *m, uint32_t *ret_failed);
void mounts_release(struct mounts *m);

#endif
