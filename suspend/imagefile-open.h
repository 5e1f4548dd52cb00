/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-open.h - the image file opened for a command, each refusal explained */
#ifndef SUSPEND_IMAGEFILE_OPEN_H
#define SUSPEND_IMAGEFILE_OPEN_H

#include "imagefile-layout.h"

/* imagefile_open() or imagefile_open_dir() refused @path with @r: say why */
void imagefile_say_open_error(const char *path, int r, const char *bad);

/* Locate and check the file before anything changes; 0 or -errno (reported). */
int imagefile_locate_and_warn(const char *path, struct imagefile_loc *loc);

/* Open image file @path checked, and locate it; the descriptor or -errno (reported) */
int imagefile_open_located(const char *path, int flags, struct imagefile_loc *loc);

#endif
