/* SPDX-License-Identifier: GPL-2.0-only */
/* btrfsmap.h - where a btrfs swap file begins on its block device */
#ifndef SUSPEND_BTRFSMAP_H
#define SUSPEND_BTRFSMAP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* one item of a BTRFS_IOC_TREE_SEARCH result: key and data (pointing into the buffer) */
struct btrfsmap_item {
	uint64_t objectid;
	uint64_t offset;
	uint32_t type;
	uint32_t len;
	const uint8_t *data;
};

/* pure decoding of untrusted bytes, no system calls */
int btrfsmap_next_item(const uint8_t *buf, size_t size, size_t *pos, struct btrfsmap_item *ret);
int btrfsmap_file_extent(const struct btrfsmap_item *it, uint64_t ino, uint64_t *ret_logical);
int btrfsmap_chunk(const struct btrfsmap_item *it, uint64_t logical, uint64_t *ret_devid,
		   uint64_t *ret_physical);
struct mountinfo_entry;

int btrfsmap_mount_matches(const struct mountinfo_entry *e, int mnt_id, unsigned int ma,
			   unsigned int mi);

/* the ioctls */
int btrfsmap_is_btrfs(int fd);
int btrfsmap_logical_physical(int fd, uint64_t logical, uint64_t *ret_physical);
int btrfsmap_file_physical(int fd, uint64_t *ret_physical);
int btrfsmap_file_offset(int fd, uint32_t page_size, uint64_t *ret_pages);
int btrfsmap_fs_device(int fd, dev_t *ret_dev);

#endif
