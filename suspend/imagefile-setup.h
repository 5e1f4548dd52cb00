/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-setup.h - torpor-suspend --setup-image-file */
#ifndef SUSPEND_IMAGEFILE_SETUP_H
#define SUSPEND_IMAGEFILE_SETUP_H

#include <stdint.h>

/**
 * imagefile_setup_run() - torpor-suspend --setup-image-file[=SIZE]
 * @path: the file; @bytes: its size, 0 for imagefile_default_bytes()
 * Prints the kernel parameters on stdout.  Return: 0 or -errno (reported).
 */
int imagefile_setup_run(const char *path, uint64_t bytes);

#endif
