/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * imagefile.h - an image file on the root filesystem, swap only while the image
 * is written: for machines that swap to zram alone, which cannot hold an image
 */
#ifndef SUSPEND_IMAGEFILE_H
#define SUSPEND_IMAGEFILE_H

#include <stdint.h>
#include <sys/types.h>

#include "hibernate.h"

#define IMAGEFILE_DEFAULT	"/var/lib/torpor/image"
#define IMAGEFILE_MIN_BYTES	(1u << 20)	/* a header page and a few of the image */

/* What a hibernation and the kernel command line need to know of the file. */
struct imagefile_loc {
	dev_t dev;			/* the filesystem's block device */
	uint64_t offset_pages;		/* the file's first page on it: resume_offset= */
	uint64_t bytes;			/* the file's size */
};

/* Half of RAM, rounded up to a MiB: the default size (see imagefile.c).  Bytes. */
uint64_t imagefile_default_bytes(void);

/**
 * imagefile_fs_check() - can the kernel swap to a file on the filesystem of @fd?
 * @ret_name: the filesystem's name, for messages ("tmpfs", "nfs", ...)
 *
 * Return: 0; -EOPNOTSUPP when it cannot (not a filesystem that maps a file to
 * blocks of one device); -errno from fstatfs().
 */
int imagefile_fs_check(int fd, const char **ret_name);

/**
 * imagefile_extents_check() - does the file @fd have a block for each of its @bytes?
 * Return: 0; -EMEDIUMTYPE for a hole, a delayed, inline or encoded (compressed)
 * extent; -errno from FIEMAP.
 */
int imagefile_extents_check(int fd, uint64_t bytes);

/**
 * imagefile_create() - make @path a preallocated swap file of @bytes (rounded
 * up to a page): written aside as PATH.new (0600, root's when we are root, NOCOW
 * on btrfs before any data, fallocate(), swap header, fsync) and renamed over @path.
 * Return: 0; -EOPNOTSUPP (filesystem, see imagefile_fs_check()), -EMEDIUMTYPE
 * (holes), -ENOSPC, -EXDEV (btrfs of several devices or RAID), -errno.  Silent.
 */
int imagefile_create(const char *path, uint64_t bytes, struct imagefile_loc *ret);

/**
 * imagefile_locate() - the device, first page and size of the image file @path
 * Return: 0; -EMEDIUMTYPE when its first block cannot be named; -EXDEV as above;
 * -errno.  Silent.
 */
int imagefile_locate(const char *path, struct imagefile_loc *ret);

/* Is @path an active swap area (by device and inode)?  1, 0, or -errno. */
int imagefile_is_active(const char *path);

/**
 * imagefile_setup_run() - torpor-suspend --setup-image-file[=SIZE]
 * @path: the file; @bytes: its size, 0 for imagefile_default_bytes()
 * Prints the kernel parameters on stdout.  Return: 0 or -errno (reported).
 */
int imagefile_setup_run(const char *path, uint64_t bytes);

/**
 * imagefile_hibernate_run() - hibernate into the image file @path
 * @o: the options; the resume device and offset are replaced by the file's
 *
 * swapon(2) the file unless it is active already (at the default, lowest
 * priority: zram stays preferred for ordinary swapping), hibernate_run() into
 * it, swapoff(2) it again after the resume and after any failure.  A file that
 * was active before is left active.  With @discard (discard_after_resume),
 * then the file's pages (all but its header) are discarded where the device
 * can, else overwritten with zeroes, so that memory contents do not stay on
 * disk; a failure there is reported and does not change the result.
 * Return: hibernate_run()'s, or -errno (reported).
 */
int imagefile_hibernate_run(const struct hib_opts *o, const char *path, int discard);

/**
 * imagefile_check_resume() - would the next boot look for the image at @loc?
 * @o: resume= and resume_offset= (options, else the kernel command line)
 * Return: 0 (a missing parameter is a warning), -EINVAL (resume= names another
 * device), -ERANGE (resume_offset= is not the file's first page); reported.
 */
int imagefile_check_resume(const struct hib_opts *o, const char *path,
			   const struct imagefile_loc *loc);

/**
 * imagefile_discard_supported() - does the block device @dev discard?
 * @sys_dev_block: "/sys/dev/block" (a directory of the same shape in tests)
 * Return: 1, 0 (discard_max_bytes is 0), -errno (no such file, not a number).
 */
int imagefile_discard_supported(const char *sys_dev_block, dev_t dev);

/**
 * imagefile_zero() - overwrite pages 1.. of the @bytes of open file @fd with
 * zeroes (the header page stays), in place, and fdatasync().  0 or -errno.
 */
int imagefile_zero(int fd, uint32_t ps, uint64_t bytes);

/* --check with an image file: zram, the file, its size and place.  0 or -errno (reported). */
int imagefile_check_run(const char *path);

/* --print-cmdline with an image file.  0 or -errno (reported). */
int imagefile_print_cmdline(const char *path);

#endif
