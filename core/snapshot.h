/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snapshot.h - thin wrappers around the /dev/snapshot ioctls
 *
 * See Documentation/power/userland-swsusp.rst and kernel/power/user.c.  Each
 * returns 0 (or a value) on success and -errno on failure; none prints.
 */
#ifndef CORE_SNAPSHOT_H
#define CORE_SNAPSHOT_H

#include <stdint.h>
#include <sys/types.h>

#define SNAPSHOT_PATH "/dev/snapshot"

int snap_open(int flags);
int snap_freeze(int fd);
int snap_unfreeze(int fd);
int snap_create_image(int fd, int *ret_in_suspend);
int snap_atomic_restore(int fd);
int snap_free(int fd);
int snap_free_swap_pages(int fd);
int snap_set_swap_area(int fd, dev_t dev, uint64_t offset_pages);
int snap_image_size(int fd, uint64_t *ret_bytes);
int snap_avail_swap(int fd, uint64_t *ret_bytes);
int snap_alloc_swap_page(int fd, uint64_t *ret_offset);
int snap_platform_support(int fd, int on);
int snap_power_off(int fd);
int snap_s2ram(int fd);

#endif
