/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-check.h - torpor-suspend --check with an image file */
#ifndef SUSPEND_IMAGEFILE_CHECK_H
#define SUSPEND_IMAGEFILE_CHECK_H

#include "hibernate.h"

/*
 * --check with an image file: zram, the file, its size and place, and the
 * initramfs (@o's initramfs, no_initramfs).  0 or -errno (reported).
 */
int imagefile_check_run(const char *path, const struct hib_opts *o);

#endif
