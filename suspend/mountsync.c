// SPDX-License-Identifier: GPL-2.0-only
/*
 * mountsync.c - sync the local filesystems after the freeze: the mount point
 * of each read-write one is opened before it (mounts_collect() calls
 * mountsync_open()), so that syncfs() then needs no path walk
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blockstack.h"
#include "mountinfo.h"
#include "mounts.h"
#include "mountsync.h"

#define NBD_MAJOR 43	/* served by a user-space process, which may be frozen */

/* disk filesystems whose source is not a block device */
static int is_sourceless_disk(const char *fstype)
{
	return !strcmp(fstype, "zfs");
}

/* The mount id of the mount @fd is on. */
static int mount_id(int fd, const struct mountinfo_entry *e)
{
	struct statx stx;
	struct stat st;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) == 0 && (stx.stx_mask & STATX_MNT_ID))
		return stx.stx_mnt_id == e->id ? 0 : -EXDEV;
	/* before Linux 5.8: the same filesystem, at least */
	if (fstat(fd, &st) < 0)
		return -errno;
	return st.st_dev == makedev(e->major, e->minor) ? 0 : -EXDEV;
}

/*
 * Open the mount point of a read-write filesystem on a local disk, once per
 * filesystem, for syncfs() (which needs a real open file: O_PATH gives EBADF).
 * Opening it now, before the freeze, means no path walk can later block on a
 * frozen FUSE server.  The fd must be on this very mount: a path with another
 * mount over it leads somewhere else (-EXDEV), maybe to FUSE.
 */
int mountsync_open(struct mounts *m, const struct mountinfo_entry *e, int block, dev_t dev)
{
	dev_t sbdev = makedev(e->major, e->minor);
	char via[PATH_MAX];
	int fd, r;

	if (!mountinfo_has_option(e->super_opts, "rw") || mounts_is_fuse(e->fstype) ||
	    !(block || is_sourceless_disk(e->fstype)) || e->major == NBD_MAJOR)
		return 0;
	if (mounts_find(m->sync, m->nr_sync, sbdev) >= 0)
		return 0;
	r = block ? mounts_fs_stack(e, dev, via, sizeof(via)) : BLOCKSTACK_ANSWERS;
	if (r != BLOCKSTACK_ANSWERS && r != BLOCKSTACK_IN_MEMORY) {
		if (mounts_find(m->unsynced, m->nr_unsynced, sbdev) >= 0)
			return 0;
		return mounts_add(&m->unsynced, &m->nr_unsynced, e, sbdev, -1,
				  r > 0 ? -EREMOTEIO : r, r > 0 && via[0] ? via : NULL);
	}
	fd = open(e->mount_point, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	r = fd < 0 ? -errno : mount_id(fd, e);
	if (r == 0) {
		r = mounts_add(&m->sync, &m->nr_sync, e, sbdev, fd, 0, NULL);
		if (r < 0)
			close(fd);
		return r;
	}
	if (fd >= 0)
		close(fd);
	if (mounts_find(m->unsynced, m->nr_unsynced, sbdev) >= 0)
		return 0;
	return mounts_add(&m->unsynced, &m->nr_unsynced, e, sbdev, -1, r, NULL);
}

/**
 * mounts_sync() - syncfs() every filesystem of the sync list
 * @ret_failed: the index in m->sync of the one that failed
 * Return: 0, or the -errno of the first failure (the rest are not synced).
 */
int mounts_sync(const struct mounts *m, uint32_t *ret_failed)
{
	uint32_t i;

	for (i = 0; i < m->nr_sync; i++) {
		if (syncfs(m->sync[i].fd) < 0) {
			*ret_failed = i;
			return -errno;
		}
	}
	return 0;
}
