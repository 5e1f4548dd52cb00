// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-layout.c - where the image file's blocks lie: the filesystems it
 * may live on, its extents, and its first page on the filesystem's device
 * (resume_offset=)
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <stdint.h>
#include <unistd.h>

#include "btrfsmap.h"
#include "imagefile-layout.h"
#include "target.h"

/*
 * statfs magic numbers (linux/magic.h); @why says why an image file cannot live
 * there.  f2fs can hold a swap file, but torpor cannot stamp it: a boot without
 * torpor that mounted it read-write would go unseen, nothing else invalidates
 * an image file nobody resumed, and the next boot with torpor would restore
 * stale memory over the changed filesystem.
 */
static const struct {
	unsigned long magic;
	const char *name;
	const char *why;
} fs_types[] = {
	{ 0xEF53, "ext4", NULL },
	{ 0x58465342, "xfs", NULL },
	{ 0x9123683E, "btrfs", NULL },
	{ 0xF2F52010, "f2fs", "torpor cannot stamp f2fs, so a mount by a boot without torpor "
			      "would go unseen and the image be restored over the changes" },
	{ 0x01021994, "tmpfs", IMAGEFILE_SWAP_NO },
	{ 0x858458f6, "ramfs", IMAGEFILE_SWAP_NO },
	{ 0x6969, "nfs", IMAGEFILE_SWAP_NO },
	{ 0x794c7630, "overlayfs", IMAGEFILE_SWAP_NO },
	{ 0x2fc12fc1, "zfs", IMAGEFILE_SWAP_NO },
	{ 0x65735546, "fuse", IMAGEFILE_SWAP_NO },
	{ 0xFF534D42, "cifs", IMAGEFILE_SWAP_NO },
	{ 0xFE534D42, "smb2", IMAGEFILE_SWAP_NO },
	{ 0x73717368, "squashfs", IMAGEFILE_SWAP_NO },
	{ 0x4d44, "vfat", IMAGEFILE_SWAP_NO },
};

int imagefile_fs_by_magic(unsigned long magic, const char **ret_name, const char **ret_why)
{
	size_t i;

	for (i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++) {
		if (magic == fs_types[i].magic) {
			*ret_name = fs_types[i].name;
			*ret_why = fs_types[i].why;
			return fs_types[i].why ? -EOPNOTSUPP : 0;
		}
	}
	*ret_name = "an unknown filesystem";
	*ret_why = IMAGEFILE_SWAP_NO;
	return -EOPNOTSUPP;
}

int imagefile_fs_check(int fd, const char **ret_name, const char **ret_why)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return -errno;
	return imagefile_fs_by_magic((unsigned long)sf.f_type, ret_name, ret_why);
}

int imagefile_extents_check(int fd, uint64_t bytes)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[32];
	} q;
	uint64_t pos = 0;
	uint32_t i;

	while (pos < bytes) {
		memset(&q, 0, sizeof(q));
		q.fm.fm_start = pos;
		q.fm.fm_length = bytes - pos;
		q.fm.fm_flags = FIEMAP_FLAG_SYNC;
		q.fm.fm_extent_count = 32;
		if (ioctl(fd, FS_IOC_FIEMAP, &q.fm) < 0)
			return -errno;
		if (q.fm.fm_mapped_extents == 0)
			return -EMEDIUMTYPE;
		for (i = 0; i < q.fm.fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &q.ext[i];

			if (e->fe_logical > pos)
				return -EMEDIUMTYPE;	/* a hole before it */
			if (e->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
					   FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_INLINE |
					   FIEMAP_EXTENT_NOT_ALIGNED))
				return -EMEDIUMTYPE;
			if (e->fe_logical + e->fe_length > pos)
				pos = e->fe_logical + e->fe_length;
		}
	}
	return 0;
}

int imagefile_locate_fd(int fd, struct imagefile_loc *ret)
{
	struct imagefile_loc loc;
	struct stat st;
	int r, oerr = 0;

	memset(&loc, 0, sizeof(loc));
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	r = target_fd_location(fd, &loc.dev, &oerr, &loc.offset_pages);
	if (r < 0)
		return r;
	if (oerr < 0)
		return oerr;
	loc.bytes = (uint64_t)st.st_size;
	loc.st_dev = st.st_dev;
	loc.st_ino = st.st_ino;
	*ret = loc;
	return 0;
}

int imagefile_locate(const char *path, struct imagefile_loc *ret)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	r = imagefile_locate_fd(fd, ret);
	close(fd);
	return r;
}

int imagefile_extents_shared(int fd, uint64_t bytes)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[32];
	} q;
	uint64_t pos = 0, end;
	uint32_t i;

	while (pos < bytes) {
		memset(&q, 0, sizeof(q));
		q.fm.fm_start = pos;
		q.fm.fm_length = bytes - pos;
		q.fm.fm_extent_count = 32;
		if (ioctl(fd, FS_IOC_FIEMAP, &q.fm) < 0)
			return -errno;
		if (q.fm.fm_mapped_extents == 0)
			return -EMEDIUMTYPE;
		end = pos;
		for (i = 0; i < q.fm.fm_mapped_extents; i++) {
			if (q.ext[i].fe_flags & FIEMAP_EXTENT_SHARED)
				return 1;
			if (q.ext[i].fe_logical + q.ext[i].fe_length > end)
				end = q.ext[i].fe_logical + q.ext[i].fe_length;
		}
		if (end <= pos)
			return -EMEDIUMTYPE;
		pos = end;
	}
	return 0;
}

int imagefile_where(int fd, uint64_t off, uint64_t *ret_dev_off)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[1];
	} q;
	uint64_t phys;
	int r;

	memset(&q, 0, sizeof(q));
	q.fm.fm_start = off;
	q.fm.fm_length = 1;
	q.fm.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &q.fm) < 0)
		return -errno;
	if (q.fm.fm_mapped_extents < 1 || q.ext[0].fe_logical > off ||
	    q.ext[0].fe_logical + q.ext[0].fe_length <= off ||
	    (q.ext[0].fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_ENCODED |
				  FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED)))
		return -EMEDIUMTYPE;
	phys = q.ext[0].fe_physical + (off - q.ext[0].fe_logical);
	r = btrfsmap_is_btrfs(fd);
	if (r < 0)
		return r;
	/* btrfs answers its own logical addresses */
	if (r)
		return btrfsmap_logical_physical(fd, phys, ret_dev_off);
	*ret_dev_off = phys;
	return 0;
}
