// SPDX-License-Identifier: GPL-2.0-only
/*
 * imagesize.c - set /sys/power/image_size for one hibernation, and put it back
 *
 * SNAPSHOT_CREATE_IMAGE runs the kernel's hibernate_preallocate_memory(), which
 * shrinks memory until the snapshot fits in image_size bytes: a smaller image
 * is written faster, a larger one keeps more page cache for after the resume.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "decimal.h"
#include "imagesize.h"

/* the number in the open knob @fd; 0, -errno or -EINVAL */
static int read_value(int fd, unsigned long long *ret)
{
	char buf[32];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	return decimal_parse(buf, (size_t)n, UINT64_MAX, ret) < 0 ? -EINVAL : 0;
}

int imagesize_read(const char *path, uint64_t *ret)
{
	unsigned long long v;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read_value(fd, &v);
	close(fd);
	if (r == 0)
		*ret = v;
	return r;
}

int imagesize_swap(const char *path, uint64_t bytes, uint64_t *ret_old)
{
	unsigned long long old;
	char buf[32];
	int fd, len, r = 0;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read_value(fd, &old);
	if (r < 0)
		goto out;
	len = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)bytes);
	errno = 0;
	if (pwrite(fd, buf, len, 0) != len) {
		r = errno ? -errno : -EIO;
		goto out;
	}
	*ret_old = old;
out:
	close(fd);
	return r;
}
