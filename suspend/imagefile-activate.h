/* SPDX-License-Identifier: GPL-2.0-only */
/* imagefile-activate.h - the image file as a swap area, just for the hibernation */
#ifndef SUSPEND_IMAGEFILE_ACTIVATE_H
#define SUSPEND_IMAGEFILE_ACTIVATE_H

/* Is @path an active swap area (by device and inode)?  1, 0, or -errno. */
int imagefile_is_active(const char *path);

/* Is the open file @fd an active swap area?  1, 0, or -errno. */
int imagefile_fd_is_active(int fd);

/*
 * imagefile_activate() - swapon(2) of @kpath (/proc/self/fd/N of @fd, the file
 * checked) at the default priority, below every other area's; then @fd must be
 * the area activated.  0 or -errno (reported; the file deactivated again).
 */
int imagefile_activate(const char *kpath, const char *path, int fd);

/* swapoff after the hibernation, by @kpath (/proc/self/fd/N); 0, or -errno when the
 * file stays active (reported) */
int imagefile_deactivate(const char *kpath, const char *path);

#endif
