/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-activate.h - the image file as a swap area */
#ifndef SUSPEND_IMAGEFILE_ACTIVATE_H
#define SUSPEND_IMAGEFILE_ACTIVATE_H

/* Is @path an active swap area (by device and inode)?  1, 0, or -errno. */
int imagefile_is_active(const char *path);

/* Is the open file @fd an active swap area?  1, 0, or -errno. */
int imagefile_fd_is_active(int fd);

/* swapoff after the hibernation, by @kpath (/proc/self/fd/N); 0, or -errno when the
 * file stays active (reported) */
int imagefile_deactivate(const char *kpath, const char *path);

#endif
