// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagefile-create.c - making the image file: preallocated, with a swap header,
 * written aside and renamed into place
 *
 * Default size: half of RAM, rounded up to a MiB.  The kernel shrinks the
 * snapshot to /sys/power/image_size, two fifths of RAM by default, so half of
 * RAM holds that image even uncompressed, with its map; lz4 usually halves it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/sysinfo.h>
#include <stdint.h>
#include <unistd.h>

#include "imagefile-create.h"
#include "imagefile-layout.h"

uint64_t imagefile_default_bytes(void)
{
	struct sysinfo si;
	uint64_t ram;

	if (sysinfo(&si) < 0)
		return 1ull << 30;
	ram = (uint64_t)si.totalram * si.mem_unit;
	return ((ram / 2 + (1u << 20) - 1) >> 20) << 20;
}

/* A version-1 swap header, as mkswap writes it (kernel union swap_header). */
static int write_swap_header(int fd, uint32_t ps, uint64_t pages)
{
	unsigned char *page;
	uint32_t v[3];
	ssize_t n;
	int r = 0;

	if (pages - 1 > UINT32_MAX)
		return -EFBIG;
	page = calloc(1, ps);
	if (!page)
		return -ENOMEM;
	v[0] = 1;			/* version */
	v[1] = (uint32_t)(pages - 1);	/* last_page */
	v[2] = 0;			/* nr_badpages */
	memcpy(page + 1024, v, sizeof(v));
	if (getrandom(page + 1036, 16, 0) != 16) {
		r = -EIO;
		goto out;
	}
	page[1036 + 6] = (page[1036 + 6] & 0x0f) | 0x40;	/* UUID version 4 */
	page[1036 + 8] = (page[1036 + 8] & 0x3f) | 0x80;
	memcpy(page + ps - 10, "SWAPSPACE2", 10);
	n = pwrite(fd, page, ps, 0);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != ps)
		r = -EIO;
out:
	free(page);
	return r;
}

/* btrfs: no copy-on-write (chattr +C), set while the file is still empty */
static int set_nocow(int fd)
{
	int flags = 0;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		return -errno;
	flags |= FS_NOCOW_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags) < 0)
		return -errno;
	return 0;
}

/* Fill the open, empty file @fd with @pages pages of swap; 0 or -errno. */
static int fill_file(int fd, uint32_t ps, uint64_t pages)
{
	const char *fsname, *why;
	int r;

	r = imagefile_fs_check(fd, &fsname, &why);
	if (r < 0)
		return r;
	if (!strcmp(fsname, "btrfs")) {
		r = set_nocow(fd);
		if (r < 0)
			return r;
	}
	if (geteuid() == 0 && fchown(fd, 0, 0) < 0)
		return -errno;
	r = posix_fallocate(fd, 0, (off_t)(pages * ps));
	if (r)
		return -r;
	r = write_swap_header(fd, ps, pages);
	if (r < 0)
		return r;
	if (fsync(fd) < 0)
		return -errno;
	return imagefile_extents_check(fd, pages * ps);
}

int imagefile_create(const char *path, uint64_t bytes, struct imagefile_loc *ret)
{
	uint32_t ps = (uint32_t)sysconf(_SC_PAGESIZE);
	uint64_t pages = (bytes + ps - 1) / ps;
	char tmp[PATH_MAX];
	int fd, r;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	(void)unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	r = fill_file(fd, ps, pages);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0)
		r = imagefile_locate(tmp, ret);
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		(void)unlink(tmp);
	return r;
}
