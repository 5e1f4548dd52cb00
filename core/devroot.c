// SPDX-License-Identifier: GPL-2.0-only
/*
 * devroot.c - the files a device lookup reads in /sys, /dev and /run, under
 * devname_root: path building, small sysfs reads, block node stat()
 *
 * Unit tests set devname_root to a directory standing in for /, so every
 * path a lookup builds goes through devroot_path().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "devnum.h"
#include "devroot.h"

const char *devname_root = "";

int devroot_is_test(void)
{
	return devname_root && devname_root[0];
}

const char *devroot_dir(void)
{
	return devname_root ? devname_root : "";
}

static int vmkpath(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n, m;

	n = snprintf(buf, len, "%s", devroot_dir());
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	m = vsnprintf(buf + n, len - n, fmt, ap);
	if (m < 0 || (size_t)m >= len - n)
		return -ENAMETOOLONG;
	return 0;
}

/* @fmt's path under the root in @buf: 0, or -ENAMETOOLONG; kernel-doc in devroot.h. */
int devroot_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vmkpath(buf, len, fmt, ap);
	va_end(ap);
	return r;
}

/* A small (sysfs) file under the root, one trailing newline cut; kernel-doc in devroot.h. */
int devroot_read(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	size_t got = 0;
	ssize_t n;
	va_list ap;
	int fd, r;

	va_start(ap, fmt);
	r = vmkpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (r < 0)
		return r;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	while (got + 1 < len) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			close(fd);
			return r;
		}
		if (n == 0)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	if (got && buf[got - 1] == '\n')
		buf[got - 1] = '\0';
	return 0;
}

/* The block device @fmt names under the root, by stat(); kernel-doc in devroot.h. */
int devroot_stat_block(dev_t *ret, const char *fmt, ...)
{
	char path[PATH_MAX];
	struct stat st;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vmkpath(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (r < 0)
		return r;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	*ret = st.st_rdev;
	return 0;
}

/* Whether relative path @rel has no empty, "." or ".." component; see devroot.h. */
int devroot_rel_is_safe(const char *rel)
{
	const char *p = rel;

	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		if (!p[n])
			return 1;
		p += n + 1;
	}
}

/* The device number sysfs gives block device @name; kernel-doc in devroot.h. */
int devroot_sysfs_dev(const char *name, dev_t *ret)
{
	char buf[32];
	int r;

	r = devroot_read(buf, sizeof(buf), "/sys/class/block/%s/dev", name);
	if (r < 0)
		return r;
	return devnum_parse_majmin(buf, ret);
}
