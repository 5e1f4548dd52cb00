// SPDX-License-Identifier: GPL-2.0-only
/*
 * snapshot.c - the /dev/snapshot ioctls, one function each
 *
 * The kernel contract (userland-swsusp.rst): open O_RDONLY to hibernate,
 * O_WRONLY to restore; mlockall() before FREEZE; read and write whole pages;
 * closing the device undoes everything that was not finished.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/suspend_ioctls.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "snapshot.h"

/* Open /dev/snapshot; returns the fd or -errno (EBUSY: another user, EPERM: lockdown). */
int snap_open(int flags)
{
	int fd = open(SNAPSHOT_PATH, flags | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int simple(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, (void *)arg) < 0 ? -errno : 0;
}

int snap_freeze(int fd)
{
	return simple(fd, SNAPSHOT_FREEZE, 0);
}

int snap_unfreeze(int fd)
{
	return simple(fd, SNAPSHOT_UNFREEZE, 0);
}

/*
 * snap_create_image() - take the atomic snapshot
 * @ret_in_suspend: 1 when the snapshot was just made (save it and power off),
 *                  0 when we run again after the image was restored
 *
 * The ioctl is declared _IOW but the kernel writes the int (put_user).
 */
int snap_create_image(int fd, int *ret_in_suspend)
{
	int in_suspend = -1;

	if (ioctl(fd, SNAPSHOT_CREATE_IMAGE, &in_suspend) < 0)
		return -errno;
	*ret_in_suspend = in_suspend;
	return 0;
}

/* Returns only on failure (-errno); on success the hibernated system runs. */
int snap_atomic_restore(int fd)
{
	return simple(fd, SNAPSHOT_ATOMIC_RESTORE, 0);
}

int snap_free(int fd)
{
	return simple(fd, SNAPSHOT_FREE, 0);
}

int snap_free_swap_pages(int fd)
{
	return simple(fd, SNAPSHOT_FREE_SWAP_PAGES, 0);
}

/*
 * snap_set_swap_area() - choose the swap area the image goes to
 * @dev: the block device holding it; @offset_pages: page index of its swap
 * header (0 for a partition, resume_offset for a swap file).
 * -ENODEV: no active swap area starts there.
 */
int snap_set_swap_area(int fd, dev_t dev, uint64_t offset_pages)
{
	struct resume_swap_area area;
	unsigned int ma = major(dev), mi = minor(dev);

	area.offset = (__kernel_loff_t)offset_pages;
	/* the kernel decodes this with new_decode_dev() */
	area.dev = (mi & 0xff) | (ma << 8) | ((mi & ~0xffu) << 12);
	return ioctl(fd, SNAPSHOT_SET_SWAP_AREA, &area) < 0 ? -errno : 0;
}

static int get_u64(int fd, unsigned long req, uint64_t *ret)
{
	__kernel_loff_t v = 0;

	if (ioctl(fd, req, &v) < 0)
		return -errno;
	*ret = (uint64_t)v;
	return 0;
}

/* Exact length of the read() stream, in bytes. */
int snap_image_size(int fd, uint64_t *ret_bytes)
{
	return get_u64(fd, SNAPSHOT_GET_IMAGE_SIZE, ret_bytes);
}

/* Free bytes in the chosen swap area. */
int snap_avail_swap(int fd, uint64_t *ret_bytes)
{
	return get_u64(fd, SNAPSHOT_AVAIL_SWAP_SIZE, ret_bytes);
}

/* One free swap slot, as a byte offset on the resume device; -ENOSPC when full. */
int snap_alloc_swap_page(int fd, uint64_t *ret_offset)
{
	return get_u64(fd, SNAPSHOT_ALLOC_SWAP_PAGE, ret_offset);
}

/*
 * snap_platform_support() - let the platform (ACPI) take part: set before
 * CREATE_IMAGE, so the kernel prepares it for S4, and needed by snap_power_off()
 */
int snap_platform_support(int fd, int on)
{
	return simple(fd, SNAPSHOT_PLATFORM_SUPPORT, on);
}

/*
 * snap_power_off() - enter ACPI S4 (hibernation_platform_enter()); returns only on
 * failure.  Without platform support the kernel does nothing and returns 0: the
 * caller powers off itself then, as after -errno (-ENOSYS: no platform S4).
 */
int snap_power_off(int fd)
{
	return simple(fd, SNAPSHOT_POWER_OFF, 0);
}

/*
 * snap_s2ram() - suspend to RAM with the image written (the kernel's s2both)
 * Needs the frozen state.  Returns 0 after the wake-up; -ENOSYS when the
 * platform has no S3 ("deep" in /sys/power/mem_sleep), other -errno when a
 * device refused to suspend.  Either way the caller must then discard or keep
 * the image itself: the kernel does not look at it.
 */
int snap_s2ram(int fd)
{
	return simple(fd, SNAPSHOT_S2RAM, 0);
}
