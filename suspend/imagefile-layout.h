/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * imagefile-layout.h - where the image file's blocks lie: the filesystems it
 * may live on, its extents, its first page (resume_offset=)
 */
#ifndef SUSPEND_IMAGEFILE_LAYOUT_H
#define SUSPEND_IMAGEFILE_LAYOUT_H

#include <stdint.h>
#include <sys/types.h>

/* why an image file cannot live on most filesystems, for messages */
#define IMAGEFILE_SWAP_NO	"the kernel cannot swap to a file there"

/* What a hibernation and the kernel command line need to know of the file. */
struct imagefile_loc {
	dev_t dev;			/* the filesystem's block device */
	uint64_t offset_pages;		/* the file's first page on it: resume_offset= */
	uint64_t bytes;			/* the file's size */
	dev_t st_dev;			/* fstat()'s: the file itself */
	ino_t st_ino;
};

/**
 * imagefile_fs_check() - can an image file live on the filesystem of @fd?
 * @ret_name: the filesystem's name, for messages ("tmpfs", "nfs", ...)
 * @ret_why: when not, why, for messages
 *
 * Return: 0; -EOPNOTSUPP when it cannot: the kernel cannot swap to a file
 * there (not a filesystem that maps a file to blocks of one device), or torpor
 * cannot stamp it (f2fs: a mount by a boot without torpor would go unseen);
 * -errno from fstatfs().
 */
int imagefile_fs_check(int fd, const char **ret_name, const char **ret_why);
int imagefile_fs_by_magic(unsigned long magic, const char **ret_name, const char **ret_why);

/**
 * imagefile_extents_check() - does the file @fd have a block for each of its @bytes?
 * Return: 0; -EMEDIUMTYPE for a hole, a delayed, inline or encoded (compressed)
 * extent; -errno from FIEMAP.
 */
int imagefile_extents_check(int fd, uint64_t bytes);

/**
 * imagefile_locate() - the device, first page and size of the image file @path
 * (opened with O_NOFOLLOW: a symbolic link is -ELOOP)
 * Return: 0; -EMEDIUMTYPE when its first block cannot be named; -EXDEV (btrfs
 * of several devices or RAID); -EINVAL when it is not a regular file; -errno.
 * Silent.
 */
int imagefile_locate(const char *path, struct imagefile_loc *ret);

/* imagefile_locate() of the open file @fd. */
int imagefile_locate_fd(int fd, struct imagefile_loc *ret);

/* Has @fd (of @bytes) an extent shared with another file (a snapshot, a reflink)? 1, 0, -errno */
int imagefile_extents_shared(int fd, uint64_t bytes);

/* The byte on the filesystem's device of byte @off of the open image file @fd */
int imagefile_where(int fd, uint64_t off, uint64_t *ret_dev_off);

#endif
