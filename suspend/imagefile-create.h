/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-create.h - making the image file */
#ifndef SUSPEND_IMAGEFILE_CREATE_H
#define SUSPEND_IMAGEFILE_CREATE_H

#include <stdint.h>

#include "imagefile-layout.h"

#define IMAGEFILE_MIN_BYTES	(1u << 20)	/* a header page and a few of the image */

/* Half of RAM, rounded up to a MiB: the default size (see imagefile-create.c).  Bytes. */
uint64_t imagefile_default_bytes(void);

/**
 * imagefile_create() - make @path a preallocated swap file of @bytes (rounded
 * up to a page): written aside as PATH.new (0600, root's when we are root, NOCOW
 * on btrfs before any data, fallocate(), swap header, fsync) and renamed over @path.
 * Return: 0; -EOPNOTSUPP (filesystem, see imagefile_fs_check()), -EMEDIUMTYPE
 * (holes), -ENOSPC, -EXDEV (btrfs of several devices or RAID), -errno.  Silent.
 */
int imagefile_create(const char *path, uint64_t bytes, struct imagefile_loc *ret);

#endif
