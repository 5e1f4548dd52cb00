// SPDX-License-Identifier: GPL-2.0-only
/*
 * btrfsmap.c - where a btrfs swap file begins on its block device
 *
 * FIEMAP on btrfs answers with logical addresses in the filesystem's own address
 * space, and a file's st_dev is an anonymous device.  The resume device is the
 * filesystem's mount source; the offset comes from two tree searches: the file's
 * first EXTENT_DATA item (the logical address of file offset 0), then the
 * CHUNK_ITEM that covers that address (its one stripe gives the device offset).
 * Only what the kernel's own btrfs swap-file code accepts is accepted: a single
 * device and a data chunk without a RAID or DUP profile.  The search results are
 * untrusted bytes: the decoders below check every length and sum.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "btrfsmap.h"
#include "le.h"
#include "mountinfo.h"

/* offsets in the on-disk (little-endian) items */
#define FE_COMPRESSION		16
#define FE_ENCRYPTION		17
#define FE_OTHER_ENCODING	18
#define FE_TYPE			20
#define FE_DISK_BYTENR		21
#define FE_OFFSET		37
#define FE_NUM_BYTES		45
#define FE_SIZE			53
#define CHUNK_LENGTH		0
#define CHUNK_TYPE		24
#define CHUNK_NUM_STRIPES	44
#define CHUNK_STRIPES		48
#define STRIPE_DEVID		0
#define STRIPE_OFFSET		8
#define STRIPE_SIZE		32

/**
 * btrfsmap_next_item() - the next item of a tree search result buffer
 * @buf, @size: the buffer; @pos: where the next search header starts (advanced)
 * The search headers are in the CPU's byte order, the item data little-endian.
 * Return: 0, -ENOENT at the end, -EBADMSG when a header or item overruns @size.
 */
int btrfsmap_next_item(const uint8_t *buf, size_t size, size_t *pos, struct btrfsmap_item *ret)
{
	struct btrfs_ioctl_search_header sh;

	if (*pos >= size)
		return -ENOENT;
	if (size - *pos < sizeof(sh))
		return -EBADMSG;
	memcpy(&sh, buf + *pos, sizeof(sh));
	if (sh.len > size - *pos - sizeof(sh))
		return -EBADMSG;
	ret->objectid = sh.objectid;
	ret->offset = sh.offset;
	ret->type = sh.type;
	ret->len = sh.len;
	ret->data = buf + *pos + sizeof(sh);
	*pos += sizeof(sh) + sh.len;
	return 0;
}

/**
 * btrfsmap_file_extent() - logical address of file offset 0, from its EXTENT_DATA item
 * @it: the item, whose key must be (@ino, EXTENT_DATA, 0)
 * Return: 0; -EMEDIUMTYPE for an extent no swap file can have (inline, compressed,
 * encrypted, a hole); -EBADMSG for a malformed item.
 */
int btrfsmap_file_extent(const struct btrfsmap_item *it, uint64_t ino, uint64_t *ret_logical)
{
	const uint8_t *d = it->data;
	uint64_t bytenr, off;

	if (it->objectid != ino || it->type != BTRFS_EXTENT_DATA_KEY || it->offset != 0)
		return -EBADMSG;
	if (it->len <= FE_TYPE)
		return -EBADMSG;
	if (d[FE_TYPE] == BTRFS_FILE_EXTENT_INLINE)
		return -EMEDIUMTYPE;
	if (d[FE_TYPE] != BTRFS_FILE_EXTENT_REG && d[FE_TYPE] != BTRFS_FILE_EXTENT_PREALLOC)
		return -EBADMSG;
	if (it->len < FE_SIZE)
		return -EBADMSG;
	if (d[FE_COMPRESSION] || d[FE_ENCRYPTION] || get_le16(d + FE_OTHER_ENCODING))
		return -EMEDIUMTYPE;
	bytenr = get_le64(d + FE_DISK_BYTENR);
	off = get_le64(d + FE_OFFSET);
	if (bytenr == 0 || get_le64(d + FE_NUM_BYTES) == 0)
		return -EMEDIUMTYPE;	/* a hole */
	if (off > UINT64_MAX - bytenr)
		return -EBADMSG;
	*ret_logical = bytenr + off;
	return 0;
}

/**
 * btrfsmap_chunk() - the device offset of @logical, from the CHUNK_ITEM @it
 * @ret_devid, @ret_physical: the device holding it and the byte offset there
 * Return: 1 when the chunk covers @logical (@ret_devid and @ret_physical set); 0
 * when it does not; -EXDEV for a RAID or DUP profile or more than one stripe;
 * -EBADMSG for a malformed item or a chunk that holds no data.
 */
int btrfsmap_chunk(const struct btrfsmap_item *it, uint64_t logical, uint64_t *ret_devid,
		   uint64_t *ret_physical)
{
	const uint8_t *d = it->data, *s;
	uint64_t length, type, start = it->offset, phys;
	uint16_t stripes;

	if (it->objectid != BTRFS_FIRST_CHUNK_TREE_OBJECTID || it->type != BTRFS_CHUNK_ITEM_KEY)
		return -EBADMSG;
	if (it->len < CHUNK_STRIPES + STRIPE_SIZE)
		return -EBADMSG;
	stripes = get_le16(d + CHUNK_NUM_STRIPES);
	if (stripes == 0 || it->len < CHUNK_STRIPES + (uint32_t)stripes * STRIPE_SIZE)
		return -EBADMSG;
	length = get_le64(d + CHUNK_LENGTH);
	if (length == 0 || length > UINT64_MAX - start)
		return -EBADMSG;
	if (logical < start || logical - start >= length)
		return 0;
	type = get_le64(d + CHUNK_TYPE);
	if (!(type & BTRFS_BLOCK_GROUP_DATA))
		return -EBADMSG;
	if ((type & BTRFS_BLOCK_GROUP_PROFILE_MASK) || stripes != 1)
		return -EXDEV;
	s = d + CHUNK_STRIPES;
	phys = get_le64(s + STRIPE_OFFSET);
	if (logical - start > UINT64_MAX - phys)
		return -EBADMSG;
	*ret_devid = get_le64(s + STRIPE_DEVID);
	*ret_physical = phys + (logical - start);
	return 1;
}

/**
 * btrfsmap_mount_matches() - is this mountinfo entry the mount wanted?
 * @mnt_id: the mount id from statx(), or -1 to match the device number @ma:@mi instead
 */
int btrfsmap_mount_matches(const struct mountinfo_entry *e, int mnt_id, unsigned int ma,
			   unsigned int mi)
{
	if (mnt_id >= 0)
		return e->id == (unsigned int)mnt_id;
	return e->major == ma && e->minor == mi;
}

/* Return: 1 when @fd is on btrfs, 0 when not, -errno. */
int btrfsmap_is_btrfs(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf) < 0)
		return -errno;
	return sf.f_type == (typeof(sf.f_type))BTRFS_SUPER_MAGIC;
}

/* One BTRFS_IOC_TREE_SEARCH; returns the number of items or -errno. */
static int search(int fd, struct btrfs_ioctl_search_args *a, uint64_t tree, uint64_t objectid,
		  uint32_t type, uint64_t min_off, uint64_t max_off)
{
	memset(a, 0, sizeof(*a));
	a->key.tree_id = tree;
	a->key.min_objectid = a->key.max_objectid = objectid;
	a->key.min_type = a->key.max_type = type;
	a->key.min_offset = min_off;
	a->key.max_offset = max_off;
	a->key.max_transid = UINT64_MAX;
	a->key.nr_items = 4096;
	if (ioctl(fd, BTRFS_IOC_TREE_SEARCH, a) < 0)
		return -errno;
	return (int)a->key.nr_items;
}

/**
 * btrfsmap_logical_physical() - byte offset on the device of btrfs address @logical
 * @fd: any file of the filesystem
 * Return: 0; -EXDEV for a filesystem of several devices or a RAID/DUP data chunk;
 * -EBADMSG; -ENOENT when no chunk holds it; -errno of the ioctls (-EPERM: not root).
 */
int btrfsmap_logical_physical(int fd, uint64_t logical, uint64_t *ret_physical)
{
	struct btrfs_ioctl_search_args a;
	struct btrfs_ioctl_fs_info_args fi;
	struct btrfsmap_item it;
	uint64_t from = 0, devid, phys;
	size_t pos;
	int n, r, i;

	memset(&fi, 0, sizeof(fi));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &fi) < 0)
		return -errno;
	if (fi.num_devices != 1)
		return -EXDEV;
	/* the chunk items are keyed by their logical start: walk those at or below it */
	for (;;) {
		n = search(fd, &a, BTRFS_CHUNK_TREE_OBJECTID, BTRFS_FIRST_CHUNK_TREE_OBJECTID,
			   BTRFS_CHUNK_ITEM_KEY, from, logical);
		if (n < 0)
			return n;
		if (n == 0)
			return -ENOENT;
		pos = 0;
		for (i = 0; i < n; i++) {
			r = btrfsmap_next_item((const uint8_t *)a.buf, sizeof(a.buf), &pos, &it);
			if (r < 0)
				return r;
			if (it.offset < from)
				return -EBADMSG;	/* the kernel returns keys in order */
			r = btrfsmap_chunk(&it, logical, &devid, &phys);
			if (r == 1) {
				*ret_physical = phys;
				return 0;
			}
			if (r < 0)
				return r;
			if (it.offset == UINT64_MAX)
				return -ENOENT;
			from = it.offset + 1;
		}
		if (from > logical)
			return -ENOENT;
	}
}

/**
 * btrfsmap_file_physical() - byte offset on the device of a btrfs file's first byte
 * Return: 0; -EXDEV for a filesystem of several devices or a RAID/DUP data chunk;
 * -EMEDIUMTYPE for an extent no swap file can have; -EBADMSG; -ENOENT when no
 * extent or chunk is found; -errno of the ioctls (-EPERM: not root).
 */
int btrfsmap_file_physical(int fd, uint64_t *ret_physical)
{
	struct btrfs_ioctl_search_args a;
	struct btrfs_ioctl_fs_info_args fi;
	struct btrfsmap_item it;
	uint64_t logical;
	struct stat st;
	size_t pos;
	int n, r;

	if (fstat(fd, &st) < 0)
		return -errno;
	memset(&fi, 0, sizeof(fi));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &fi) < 0)
		return -errno;
	if (fi.num_devices != 1)
		return -EXDEV;
	/* the file's own subvolume (tree 0), key (inode, EXTENT_DATA, 0) */
	n = search(fd, &a, 0, st.st_ino, BTRFS_EXTENT_DATA_KEY, 0, 0);
	if (n < 0)
		return n;
	pos = 0;
	if (n < 1 || btrfsmap_next_item((const uint8_t *)a.buf, sizeof(a.buf), &pos, &it) < 0)
		return -ENOENT;
	r = btrfsmap_file_extent(&it, st.st_ino, &logical);
	if (r < 0)
		return r;
	return btrfsmap_logical_physical(fd, logical, ret_physical);
}

/**
 * btrfsmap_file_offset() - page index of a btrfs swap file's header on its device
 * Return: as btrfsmap_file_physical(), and -EMEDIUMTYPE when not page-aligned.
 */
int btrfsmap_file_offset(int fd, uint32_t page_size, uint64_t *ret_pages)
{
	uint64_t phys;
	int r;

	r = btrfsmap_file_physical(fd, &phys);
	if (r < 0)
		return r;
	if (phys % page_size)
		return -EMEDIUMTYPE;
	*ret_pages = phys / page_size;
	return 0;
}

/**
 * btrfsmap_fs_device() - the block device of the filesystem holding @fd
 * Its st_dev is an anonymous device on btrfs: the mount's source names the real
 * one.  The mount is found by statx()'s mount id, or else by the device number.
 * Return: 0; -ENODEV when the source is not a block device; -ENOENT; -errno.
 */
int btrfsmap_fs_device(int fd, dev_t *ret_dev)
{
	struct mountinfo_reader rd;
	struct mountinfo_entry e;
	struct statx stx;
	struct stat st;
	int mnt_id = -1, r;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) == 0 && (stx.stx_mask & STATX_MNT_ID))
		mnt_id = (int)stx.stx_mnt_id;
	r = mountinfo_open(&rd, MOUNTINFO_PATH);
	if (r < 0)
		return r;
	while ((r = mountinfo_next(&rd, &e)) != 0) {
		if (r == 1 && btrfsmap_mount_matches(&e, mnt_id, major(st.st_dev), minor(st.st_dev)))
			break;
		if (r < 0 && r != -EINVAL && r != -E2BIG)
			break;
	}
	if (r == 1 && stat(e.source, &st) < 0)
		r = errno == ENOENT ? -ENODEV : -errno;
	else if (r == 1 && !S_ISBLK(st.st_mode))
		r = -ENODEV;
	mountinfo_close(&rd);
	if (r == 0)
		return -ENOENT;
	if (r < 0)
		return r;
	*ret_dev = st.st_rdev;
	return 0;
}
