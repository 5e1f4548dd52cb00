/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-discard.h - discard_after_resume: the image's pages forgotten */
#ifndef SUSPEND_IMAGEFILE_DISCARD_H
#define SUSPEND_IMAGEFILE_DISCARD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "imagefile-layout.h"

#define IMAGEFILE_SAMPLES_MAX	160		/* pages read back after a discard */

/**
 * imagefile_sample_pages() - the pages read back after a discard, of a file of
 * @pages pages: the first and last after the header, 64 spread evenly between
 * them, and each power of two (the kernel hands out a fresh area's slots from
 * its start, so a small image lies there).  Ascending, no duplicates.
 * Return: how many were put in @ret (at most @cap).
 */
size_t imagefile_sample_pages(uint64_t pages, uint64_t *ret, size_t cap);

/**
 * imagefile_pages_zero() - do the @n pages of @ps bytes at byte offsets @offs
 * of @fd read as zeroes?
 * Return: 1 (all of them), 0 (one does not), -errno.
 */
int imagefile_pages_zero(int fd, const uint64_t *offs, size_t n, uint32_t ps);

/* How imagefile_forget() forgot the image's pages. */
enum imagefile_forgot_how {
	IMAGEFILE_DISCARDED = 1,	/* discarded, and the samples read back as zeroes */
	IMAGEFILE_ZEROED,		/* overwritten: the device does not discard */
	IMAGEFILE_ZEROED_AFTER_DISCARD,	/* overwritten: the discard failed or left data */
};

struct imagefile_forgot {
	enum imagefile_forgot_how how;
	int discard_err;		/* the discard's -errno, else 0 */
	int verify;			/* after a discard: 1 zeroes, 0 data left, -errno */
};

/* What imagefile_forget() works on; the callbacks are fakes in tests. */
struct imagefile_forget {
	int fd;				/* the image file, open for writing */
	int dev_fd;			/* where its pages are read back, -1 for nowhere */
	const struct imagefile_loc *loc;
	uint32_t ps;
	/* the byte of @dev_fd that holds byte @off of file @fd: 0 or -errno */
	int (*where)(int fd, uint64_t off, uint64_t *ret_dev_off);
	/* discard every page but the header: 0 or -errno (-EBUSY: the file is
	 * left active, and imagefile_forget() stops); NULL: the device cannot */
	int (*discard)(void *ctx);
	void *ctx;
};

/**
 * imagefile_forget() - discard_after_resume: discard the image's pages, and
 * prove it by reading a sample back (imagefile_sample_pages()) from the device:
 * a discard the device ignores, or after which it does not read zeroes, leaves
 * the data there.  Without that proof, or without discard, the pages are
 * overwritten with zeroes in place, through @f->fd, unless an extent is shared
 * (a snapshot, a reflink: -EBUSY) or the file is not (or no longer) where @f->loc
 * says (-ESTALE).  Silent but for what @f->discard says.
 * Return: 0 with @ret filled, or -errno (with @ret's discard_err and verify).
 */
int imagefile_forget(const struct imagefile_forget *f, struct imagefile_forgot *ret);

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

/*
 * imagefile_forget_pages() - discard_after_resume: forget the image's pages in
 * the (inactive) file @fd, by the kernel's discard where the device discards,
 * proven by reading pages back from the device (the swap writes went past the
 * filesystem: through the file, preallocated extents read as zeroes whatever
 * the disk holds), else by zeroes written in place.  We never write to the
 * block device under a mounted filesystem.  0 or -errno (reported).
 */
int imagefile_forget_pages(const char *path, const char *kpath, int fd,
			   const struct imagefile_loc *loc);

#endif
