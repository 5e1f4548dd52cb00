/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-header.h - the image file's header page */
#ifndef SUSPEND_IMAGEFILE_HEADER_H
#define SUSPEND_IMAGEFILE_HEADER_H

#include <stdint.h>

#include "imagefile-layout.h"

/* What the image file's header page holds. */
enum imagefile_header {
	IMAGEFILE_HEADER_SWAP,		/* a swap header */
	IMAGEFILE_HEADER_IMAGE,		/* torpor's signature: an image no boot consumed */
	IMAGEFILE_HEADER_FOREIGN,	/* neither: not a swap area */
};

/**
 * imagefile_header_check() - what the image file's header page holds
 * @fd, @off: the file itself and 0, or better its filesystem's block device and
 *       the byte offset of the file's first page there (resume_offset= x page
 *       size): the page the next boot reads, where a write through the file
 *       could land elsewhere (a copy-on-write of a reflinked or snapshotted
 *       extent on btrfs or xfs)
 * @fix: put the swap signature back over a leftover image (as torpor-resume
 *       does when it consumes one: the root record cleared, the signature
 *       recorded in it, else SWAPSPACE2, restored) and fdatasync()
 * Read and written with O_DIRECT where allowed (the image's root went to the
 * disk past the file's page cache).
 * Return: an enum imagefile_header (IMAGEFILE_HEADER_IMAGE: invalidated with
 * @fix), or -errno.  Silent.
 */
int imagefile_header_check(int fd, uint64_t off, uint32_t ps, int fix);

/*
 * imagefile_header_on_disk() - the image file's header page where the next boot
 * reads it: through the block device at the file's first page (a write through
 * the file may be copied elsewhere on btrfs or xfs; --check looks there too),
 * through the file only where the device cannot be opened.  With @fix a
 * leftover image is invalidated there and the file's cached first page dropped
 * (swapon reads the header through it).  As imagefile_header_check().
 */
int imagefile_header_on_disk(int fd, const struct imagefile_loc *loc, uint32_t ps, int fix);

/**
 * imagefile_header_and_warn() - imagefile_header_on_disk() of image file @path,
 * and what the page holds said
 * @fix: before a hibernation: a leftover image is invalidated, with a warning;
 *       without (--check), it is an error
 * Return: 0 (a swap header, or a leftover image invalidated with @fix);
 * -EEXIST (a leftover image, without @fix); -EMEDIUMTYPE (no swap signature);
 * -errno.  Reported.
 */
int imagefile_header_and_warn(int fd, const struct imagefile_loc *loc, const char *path,
			      int fix);

#endif
